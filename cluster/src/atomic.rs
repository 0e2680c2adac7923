//! Valkey 9's atomic slot migration, as [`apply`](super::apply) runs it: one `CLUSTER
//! MIGRATESLOTS SLOTSRANGE a b [a b ...] NODE target-id` job on the source for every pair of
//! nodes of a plan and [`MAX_JOB_RANGES`](super::MAX_JOB_RANGES) ranges, polled with `CLUSTER
//! GETSLOTMIGRATIONS` until its `state` is `success` (then the target's replicas waited for:
//! [`replicas_caught_up`]),
//! and cancelled with `CLUSTER CANCELSLOTMIGRATIONS` (no argument: Valkey 9.1.2 refuses the
//! `ALL` its help names) on an interrupt or when the job makes no progress for a step's
//! time. The server moves every database's keys of the slots and hands the slots over at
//! once: a job that fails or is cancelled leaves them with the source, none importing.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use redis::Value;

use super::apply_options::ApplyOptions;
use super::exchange::Exchange;
use super::slot_range::SlotRange;
use super::Error;
use crate::transport::{Budget, Connection, Endpoint};

/// How often a job is polled: at first every millisecond (a job of a few slots ends within
/// milliseconds), doubling up to this.
const POLL_MAX: Duration = Duration::from_millis(50);

/// The longest slotgen waits for one atomic job, in steps (`--timeout`): a job that has run
/// this long is cancelled (one slotgen started) or no longer waited for (one it found
/// running), whatever its progress fields say, as a server may change them for ever. A real
/// job ends far sooner: the live tests' jobs end within a second (a drain's 5461 slots in
/// 0.6 s on Valkey 9.1, docs/operations.md), and 60 steps of the default 10 s are 10
/// minutes; a job of more data than that moves in one needs a larger `--timeout`.
pub const ATOMIC_WAIT_STEPS: u32 = 60;

/// While a job runs, what it waits for is said every this many steps (`--timeout`): every
/// 20 s at the default.
const NOTE_STEPS: u32 = 2;

/// The line [`follow`] and [`wait_running`] give while `job` runs, `waited` into a wait of at
/// most `bound`, on `node` (its source).
fn waiting_line(job: &Job, node: &str, waited: Duration, bound: Duration) -> String {
    let text = |t: &str| crate::text::escape_cut(t.as_bytes());
    format!(
        "waiting for the atomic migration job `{}` on {node}: slots {} to {}, state `{}`, {}s so far (at most {bound:?}: {ATOMIC_WAIT_STEPS} steps of --timeout)",
        text(&job.name),
        text(&job.slots),
        text(&job.target),
        text(&job.state),
        waited.as_secs()
    )
}

/// The budget of one `CLUSTER GETSLOTMIGRATIONS` answer: the server keeps up to
/// `cluster-slot-migration-log-max-len` jobs, each 11 fields of a few hundred bytes.
const JOBS_BUDGET: Budget = Budget {
    bytes: 4 << 20,
    values: 1 << 18,
    string: 64 * 1024,
};

/// Whether the server at `con` has `CLUSTER MIGRATESLOTS`: its `COMMAND INFO
/// CLUSTER|MIGRATESLOTS` is a command's description, not a nil.
pub(super) fn has_migrateslots(exchange: &Exchange, con: &mut Connection) -> Result<bool, Error> {
    let mut cmd = redis::cmd("COMMAND");
    cmd.arg("INFO").arg("CLUSTER|MIGRATESLOTS");
    Ok(match exchange.query(con, &cmd, Budget::SHORT.times(8)) {
        Ok(Value::Array(items)) => items
            .iter()
            .any(|i| matches!(i, Value::Array(a) if !a.is_empty())),
        Ok(_) => false,
        // a server without COMMAND INFO of subcommands (before Redis 7) has no atomic
        // migration either
        Err(Error::Refused { .. }) => false,
        Err(e) => return Err(e),
    })
}

/// One row of `CLUSTER GETSLOTMIGRATIONS`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Job {
    pub(super) name: String,
    pub(super) operation: String,
    /// The slots, as the server gives them (`a-b c-d`).
    pub(super) slots: String,
    pub(super) target: String,
    pub(super) state: String,
    pub(super) message: String,
    /// What changes while the job runs: its times and the bytes left to send.
    pub(super) progress: String,
}

impl Job {
    /// `success`, `failed` or `cancelled`: the job will not change again.
    pub(super) fn ended(&self) -> bool {
        matches!(self.state.as_str(), "success" | "failed" | "cancelled")
    }
}

/// The jobs `con`'s node knows (its log, the running ones included).
pub(super) fn jobs(exchange: &Exchange, con: &mut Connection) -> Result<Vec<Job>, Error> {
    let mut cmd = redis::cmd("CLUSTER");
    cmd.arg("GETSLOTMIGRATIONS");
    let url = con.url().to_owned();
    let malformed = |reason: &str| Error::Malformed {
        url: url.clone(),
        command: "CLUSTER GETSLOTMIGRATIONS".to_owned(),
        reason: reason.to_owned(),
    };
    let Value::Array(rows) = exchange.query(con, &cmd, JOBS_BUDGET)? else {
        return Err(malformed("not an array of jobs"));
    };
    let text = |v: &Value| match v {
        Value::BulkString(b) => String::from_utf8_lossy(b).into_owned(),
        Value::SimpleString(s) => s.clone(),
        Value::Int(n) => n.to_string(),
        _ => String::new(),
    };
    rows.iter()
        .map(|row| {
            let pairs: Vec<(String, String)> = match row {
                Value::Array(fields) => fields
                    .chunks(2)
                    .map(|p| (text(&p[0]), p.get(1).map(text).unwrap_or_default()))
                    .collect(),
                Value::Map(fields) => fields.iter().map(|(k, v)| (text(k), text(v))).collect(),
                _ => return Err(malformed("a job that is not a list of fields")),
            };
            let mut job = Job::default();
            for (field, value) in pairs {
                match field.as_str() {
                    "name" => job.name = value,
                    "operation" => job.operation = value,
                    "slot_ranges" => job.slots = value,
                    "target_node" => job.target = value,
                    "state" => job.state = value,
                    "message" => job.message = value,
                    "last_update_time" | "last_ack_time" | "remaining_repl_size" => {
                        job.progress.push_str(&value);
                        job.progress.push(' ');
                    }
                    _ => {}
                }
            }
            Ok(job)
        })
        .collect()
}

/// How a job ended.
#[derive(Debug)]
pub(super) enum Ended {
    /// `state success`: the slots are the target's.
    Moved,
    /// Cancelled on an interrupt: the slots stay with the source.
    Interrupted,
    /// It made no progress for `timeout` and was cancelled, or its end was lost and it has
    /// ended since without success: the state.
    Stopped(String),
    /// The server failed it (state `failed`; a target that dies fails it so, `Connection
    /// lost to target`): the state and the server's message.
    Failed(String),
    /// It could be neither polled nor cancelled: the errors (its slots may have moved or
    /// not).
    Unknown(String),
}

/// Runs one `CLUSTER MIGRATESLOTS SLOTSRANGE ... NODE target` job on the source `con` and
/// waits for its end: each poll within `timeout`, and the job cancelled when it shows no
/// progress (`state`, `last_update_time`, `last_ack_time`, `remaining_repl_size`) for
/// `timeout`, when it has run [`ATOMIC_WAIT_STEPS`] times `timeout`, or when `interrupted`
/// is set; `waiting` is given a line every few steps while it runs. When the start, a poll or the cancellation gets
/// no answer (the server may have done it all the same), the job is cancelled and asked
/// after on a new connection to `source` (the node of `con`), and on another when that
/// cancellation gets no answer either: [`Ended::Unknown`] when the job cannot be asked.
/// `how` gives the step's `timeout`, `interrupted` and `waiting`.
pub(super) fn migrate(
    exchange: &mut Exchange,
    source: &Endpoint,
    con: &mut Connection,
    ranges: &[SlotRange],
    target: &str,
    how: &ApplyOptions<'_>,
) -> Result<Ended, Error> {
    let (timeout, interrupted, waiting) = (how.timeout, how.interrupted, how.waiting);
    let step = |exchange: &mut Exchange, con: &mut Connection| step(exchange, con, timeout);
    step(exchange, con);
    let before: Vec<String> = jobs(exchange, con)?.into_iter().map(|j| j.name).collect();
    let mut cmd = redis::cmd("CLUSTER");
    cmd.arg("MIGRATESLOTS").arg("SLOTSRANGE");
    for r in ranges {
        cmd.arg(r.first).arg(r.last);
    }
    cmd.arg("NODE").arg(target);
    let mine = |exchange: &mut Exchange, con: &mut Connection| -> Result<Option<Job>, Error> {
        step(exchange, con);
        Ok(jobs(exchange, con)?
            .into_iter()
            .find(|j| j.operation == "EXPORT" && j.target == target && !before.contains(&j.name)))
    };
    step(exchange, con);
    let lost = match exchange.query(con, &cmd, Budget::SHORT) {
        Ok(_) => match follow(exchange, con, &mine, timeout, interrupted, waiting) {
            Ok(ended) => return Ok(ended),
            Err(lost) => lost,
        },
        // the server's refusal: no job started
        Err(e) if Exchange::answered(&e) => return Err(e),
        // no answer (a timeout, a broken connection, a garbled reply): the server may have
        // started the job all the same
        Err(e) => format!("the start of the job got no answer ({})", e.what_happened()),
    };
    // The job may run. It is cancelled, then asked after once more, so that what is said of
    // its slots is what the server says: on a new connection, as the old one may still owe
    // the answer that did not come; and on another if the cancellation's does not come.
    let connect = |exchange: &mut Exchange| {
        exchange.deadline = Instant::now() + timeout;
        exchange.connect(source)
    };
    let (cancelled, again) = match connect(exchange) {
        Ok(mut con) => {
            step(exchange, &mut con);
            let cancelled = cancel(exchange, &mut con);
            let again = match &cancelled {
                Err(e) if !Exchange::answered(e) => {
                    connect(exchange).and_then(|mut con| mine(exchange, &mut con))
                }
                _ => mine(exchange, &mut con),
            };
            (cancelled, again)
        }
        Err(e) => {
            return Ok(Ended::Unknown(format!(
                "{lost}, and no new connection to the source could cancel it or ask after it ({})",
                e.what_happened()
            )))
        }
    };
    Ok(match (again, cancelled) {
        (Ok(Some(job)), _) if job.state == "success" => Ended::Moved,
        // cancelled on an interrupt, though the answer to that did not come
        (Ok(Some(job)), _) if job.state == "cancelled" && interrupted.load(Ordering::SeqCst) => {
            Ended::Interrupted
        }
        (Ok(Some(job)), _) if job.ended() => {
            Ended::Stopped(format!("{lost}; it has ended, with state `{}`", job.state))
        }
        (Ok(job), Err(e)) => Ended::Unknown(format!(
            "{lost}, cancelling it failed ({}), and its state is {}",
            e.what_happened(),
            job.map_or_else(|| "not listed".to_owned(), |j| format!("`{}`", j.state))
        )),
        (Ok(job), Ok(_)) => Ended::Unknown(format!(
            "{lost}; it was cancelled, and its state is {}",
            job.map_or_else(|| "not listed".to_owned(), |j| format!("`{}`", j.state))
        )),
        (Err(again), cancelled) => Ended::Unknown(format!(
            "{lost}, cancelling it {}, and asking again failed ({})",
            cancelled.map_or_else(
                |e| format!("failed ({})", e.what_happened()),
                |_| "was answered OK".to_owned()
            ),
            again.what_happened()
        )),
    })
}

/// Gives `con` and `exchange` one step's time, `timeout` from now.
fn step(exchange: &mut Exchange, con: &mut Connection, timeout: Duration) {
    exchange.deadline = Instant::now() + timeout;
    con.set_deadline(Some(exchange.deadline));
}

/// `CLUSTER CANCELSLOTMIGRATIONS` on `con`'s node: every job it exports is cancelled (no
/// argument: Valkey 9.1.2 refuses the `ALL` its help names).
fn cancel(exchange: &Exchange, con: &mut Connection) -> Result<Value, Error> {
    let mut cmd = redis::cmd("CLUSTER");
    cmd.arg("CANCELSLOTMIGRATIONS");
    exchange.query(con, &cmd, Budget::SHORT)
}

/// How [`follow`] finds its job: one poll of `CLUSTER GETSLOTMIGRATIONS`, the job's row if
/// listed.
type FindJob<'a> = dyn Fn(&mut Exchange, &mut Connection) -> Result<Option<Job>, Error> + 'a;

/// Polls the job `mine` finds until it ends: cancelled when it shows no progress for
/// `timeout`, when it has run [`ATOMIC_WAIT_STEPS`] times `timeout` (its progress fields
/// are the server's word, and may change for ever), or when `interrupted` is set; given up
/// `timeout` after its cancellation, whatever it shows. `waiting` is given a line every
/// [`NOTE_STEPS`] steps.
///
/// # Errors
///
/// What failed, said for the message of [`migrate`]: a poll (`polling the job failed
/// (...)`), or the cancellation (`cancelling the job ... failed (...)`; the server may have
/// cancelled it).
fn follow(
    exchange: &mut Exchange,
    con: &mut Connection,
    mine: &FindJob<'_>,
    timeout: Duration,
    interrupted: &AtomicBool,
    waiting: &dyn Fn(&str),
) -> Result<Ended, String> {
    let bound = timeout.saturating_mul(ATOMIC_WAIT_STEPS);
    let note_every = timeout.saturating_mul(NOTE_STEPS);
    let node = con.url().to_owned();
    let started = Instant::now();
    let mut noted = started;
    let mut seen = Job::default();
    let mut changed = Instant::now();
    let mut pause = Duration::from_millis(1);
    // when, and why, slotgen cancelled the job
    let mut cancelled: Option<(Instant, String)> = None;
    loop {
        let job = mine(exchange, con)
            .map_err(|e| format!("polling the job failed ({})", e.what_happened()))?;
        if let Some(job) = job {
            if job.ended() {
                return Ok(match (job.state.as_str(), &cancelled) {
                    ("success", _) => Ended::Moved,
                    (_, Some(_)) if interrupted.load(Ordering::SeqCst) => Ended::Interrupted,
                    (_, Some((_, why))) => Ended::Stopped(format!(
                        "the job {} and was cancelled (state `{}`)",
                        why.strip_prefix("it ").unwrap_or(why),
                        job.state
                    )),
                    _ => Ended::Failed(if job.message.is_empty() {
                        format!("the job's state is `{}`", job.state)
                    } else {
                        format!(
                            "the job's state is `{}`: {}",
                            job.state,
                            crate::text::escape_cut(job.message.as_bytes())
                        )
                    }),
                });
            }
            if (&job.state, &job.progress) != (&seen.state, &seen.progress) {
                changed = Instant::now();
                seen = job;
            }
        }
        if noted.elapsed() >= note_every && cancelled.is_none() {
            noted = Instant::now();
            waiting(&waiting_line(&seen, &node, started.elapsed(), bound));
        }
        // why slotgen cancels it: after "it", or on an interrupt
        let why = if interrupted.load(Ordering::SeqCst) {
            Some("on an interrupt".to_owned())
        } else if changed.elapsed() >= timeout {
            Some(format!("it made no progress for {timeout:?}"))
        } else if started.elapsed() >= bound {
            Some(format!(
                "it ran for {bound:?} ({ATOMIC_WAIT_STEPS} steps of --timeout, the longest slotgen waits for a job), its progress fields still changing"
            ))
        } else {
            None
        };
        match (&cancelled, why) {
            (None, Some(why)) => {
                step(exchange, con, timeout);
                cancel(exchange, con).map_err(|e| {
                    format!("cancelling the job ({why}) failed ({})", e.what_happened())
                })?;
                cancelled = Some((Instant::now(), why));
            }
            // a cancellation is given one step, whatever the job shows meanwhile
            (Some((at, why)), _) if at.elapsed() >= timeout => {
                return Ok(Ended::Stopped(format!(
                    "the job was cancelled ({why}), and the cancellation has not ended it within {timeout:?} (state `{}`)",
                    seen.state
                )));
            }
            _ => {}
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(POLL_MAX);
    }
}

/// A replica of a job's target, as the target's `INFO replication` lists it (`slaveN:ip=..,
/// port=..,state=..,offset=..,lag=..`): where it is, its link's state, and the replication
/// offset it has acknowledged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Replica {
    /// `ip:port`, escaped.
    pub(super) addr: String,
    /// `online`, or a full sync's state (`wait_bgsave`, `send_bulk`), escaped.
    pub(super) state: String,
    /// The offset it acknowledged.
    pub(super) acked: u64,
}

/// The target's `master_repl_offset` and its replicas, from its `INFO replication` text;
/// `None` where the offset is missing or a `slaveN` line does not parse.
fn replication(info: &str) -> Option<(u64, Vec<Replica>)> {
    let offset = crate::answers::info_field(info, "master_repl_offset")?
        .parse()
        .ok()?;
    let mut replicas = Vec::new();
    for line in info.lines() {
        let Some((name, fields)) = line.trim().split_once(':') else {
            continue;
        };
        if !name
            .strip_prefix("slave")
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        {
            continue;
        }
        let field = |key: &str| {
            fields
                .split(',')
                .find_map(|f| f.strip_prefix(key)?.strip_prefix('='))
        };
        let text = |t: &str| crate::text::escape_cut(t.as_bytes());
        replicas.push(Replica {
            addr: format!("{}:{}", text(field("ip")?), text(field("port")?)),
            state: text(field("state")?),
            acked: field("offset")?.parse().ok()?,
        });
    }
    Some((offset, replicas))
}

/// The replicas of a job's target still behind, how long slotgen waited, and the target's
/// offset ([`replicas_caught_up`]).
pub(super) type Behind = (Vec<Replica>, Duration, u64);

/// Waits until every replica of a job's target (`con`, a primary) has acknowledged the
/// target's `master_repl_offset` as read once the job ended, so that a failover of the
/// target keeps the keys moved to it ([`MAX_JOB_RANGES`](super::MAX_JOB_RANGES) says why a
/// replica may not): `INFO replication` polled every [`POLL_MAX`] (a replica acknowledges
/// once a second), for as long as some replica's offset moves, at most `timeout` without,
/// and at most [`ATOMIC_WAIT_STEPS`] times `timeout` in all. Gives `Ok(())` when all have
/// (or the target has none), else the replicas still behind, how long it waited, and the
/// target's offset.
///
/// # Errors
///
/// What the exchange gives ([`Error::Refused`], [`Error::TimedOut`], ...);
/// [`Error::Malformed`] when the answer has no `master_repl_offset` or a `slaveN` line that
/// does not parse.
pub(super) fn replicas_caught_up(
    exchange: &mut Exchange,
    con: &mut Connection,
    timeout: Duration,
) -> Result<Result<(), Behind>, Error> {
    let bound = timeout.saturating_mul(ATOMIC_WAIT_STEPS);
    let started = Instant::now();
    let mut read = |exchange: &mut Exchange| -> Result<(u64, Vec<Replica>), Error> {
        step(exchange, con, timeout);
        let info = exchange.text(
            con,
            redis::cmd("INFO").arg("replication"),
            Budget::SHORT.times(4),
        )?;
        replication(&info).ok_or_else(|| Error::Malformed {
            url: con.url().to_owned(),
            command: "INFO replication".to_owned(),
            reason: "no `master_repl_offset`, or a `slaveN` line that is not `ip=..,port=..,state=..,offset=..`".to_owned(),
        })
    };
    let (offset, mut replicas) = read(exchange)?;
    let mut changed = Instant::now();
    loop {
        let behind: Vec<Replica> = replicas
            .iter()
            .filter(|r| r.acked < offset)
            .cloned()
            .collect();
        if behind.is_empty() {
            return Ok(Ok(()));
        }
        if changed.elapsed() >= timeout || started.elapsed() >= bound {
            return Ok(Err((behind, started.elapsed(), offset)));
        }
        std::thread::sleep(POLL_MAX);
        let (_, now) = read(exchange)?;
        if now != replicas {
            changed = Instant::now();
            replicas = now;
        }
    }
}

/// Waits while `con`'s node exports slots in a job that has not ended (one a former run
/// started and left when it was killed, or an operator's), so that no plan is made over it:
/// polled as [`migrate`] polls, for as long as the job shows progress, at most `timeout`
/// without, and at most [`ATOMIC_WAIT_STEPS`] times `timeout` in all (its progress fields are
/// the server's word). `node` names the node in the error and in the line `waiting` is given
/// every [`NOTE_STEPS`] steps. Returns the jobs it waited for.
///
/// # Errors
///
/// [`Error::AtomicRunning`] when a job shows no progress for `timeout`, or still runs after
/// the longest wait; the errors of [`jobs`].
pub(super) fn wait_running(
    exchange: &mut Exchange,
    con: &mut Connection,
    node: &str,
    timeout: Duration,
    waiting: &dyn Fn(&str),
) -> Result<Vec<Job>, Error> {
    let bound = timeout.saturating_mul(ATOMIC_WAIT_STEPS);
    let note_every = timeout.saturating_mul(NOTE_STEPS);
    let started = Instant::now();
    let mut noted = started;
    let mut waited: Vec<Job> = Vec::new();
    let mut seen: Option<Job> = None;
    let mut changed = Instant::now();
    let mut pause = Duration::from_millis(1);
    loop {
        step(exchange, con, timeout);
        let Some(job) = jobs(exchange, con)?
            .into_iter()
            .find(|j| j.operation == "EXPORT" && !j.ended())
        else {
            return Ok(waited);
        };
        if !waited.iter().any(|w| w.name == job.name) {
            waited.push(job.clone());
        }
        let running = |job: &Job, waited: String| Error::AtomicRunning {
            node: node.to_owned(),
            slots: crate::text::escape_cut(job.slots.as_bytes()),
            target: crate::text::escape_cut(job.target.as_bytes()),
            state: crate::text::escape_cut(job.state.as_bytes()),
            waited,
        };
        if started.elapsed() >= bound {
            return Err(running(
                &job,
                format!(
                    "still running after {bound:?} ({ATOMIC_WAIT_STEPS} steps of --timeout, the longest slotgen waits for a job), its progress fields changing"
                ),
            ));
        }
        if noted.elapsed() >= note_every {
            noted = Instant::now();
            waiting(&waiting_line(&job, node, started.elapsed(), bound));
        }
        if seen.as_ref().is_none_or(|s| {
            (&s.name, &s.state, &s.progress) != (&job.name, &job.state, &job.progress)
        }) {
            changed = Instant::now();
            seen = Some(job);
        } else if changed.elapsed() >= timeout {
            return Err(running(&job, format!("with no progress for {timeout:?}")));
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(POLL_MAX);
    }
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use super::*;
    use crate::fake::{array, bulk, id, int, FakeCluster};
    use crate::transport::ConnectOptions;

    /// A fake cluster whose node 0 has `CLUSTER MIGRATESLOTS` and, once `started` (from the
    /// start when `from_start`), lists an `EXPORT` job of slots 0-10 to node 1 that stays
    /// `running` and whose `last_update_time` changes at every poll, whatever is cancelled:
    /// a tester's fake kept slotgen waiting, silently, until killed.
    fn forever(from_start: bool) -> FakeCluster {
        let polls = Mutex::new(0);
        let started = Mutex::new(from_start);
        FakeCluster::start(Arc::new(move |me, words: &[String]| {
            let upper: Vec<String> = words.iter().map(|w| w.to_ascii_uppercase()).collect();
            let words: Vec<&str> = upper.iter().map(String::as_str).collect();
            match (me, words.as_slice()) {
                (0, ["COMMAND", "INFO", ..]) => {
                    Some(array(&[array(&[bulk("cluster|migrateslots"), int(-3)])]))
                }
                (0, ["CLUSTER", "MIGRATESLOTS", ..]) => {
                    *started.lock().unwrap() = true;
                    Some(b"+OK\r\n".to_vec())
                }
                (0, ["CLUSTER", "CANCELSLOTMIGRATIONS"]) => Some(b"+OK\r\n".to_vec()),
                (0, ["CLUSTER", "GETSLOTMIGRATIONS"]) if *started.lock().unwrap() => {
                    let mut n = polls.lock().unwrap();
                    *n += 1;
                    Some(array(&[array(&[
                        bulk("name"),
                        bulk("job1"),
                        bulk("operation"),
                        bulk("EXPORT"),
                        bulk("slot_ranges"),
                        bulk("0-10"),
                        bulk("target_node"),
                        bulk(&id(1)),
                        bulk("state"),
                        bulk("running"),
                        bulk("last_update_time"),
                        int(*n),
                    ])]))
                }
                _ => None,
            }
        }))
    }

    /// Runs `f` in a thread: its result within 60 s, or the test fails.
    fn within_a_minute<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
        let (tell, told) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = tell.send(f());
        });
        told.recv_timeout(Duration::from_secs(60))
            .expect("still waiting for the job after 60 s")
    }

    const STEP: Duration = Duration::from_millis(300);

    /// A target's `INFO replication` as Valkey 9.1.2 gave it, with a replica desynced by a
    /// job (its acknowledged offset stuck at 0) and one caught up.
    #[test]
    fn a_target_s_replicas_are_read_from_info_replication() {
        let info = "# Replication\r\nrole:master\r\nconnected_slaves:2\r\nslave0:ip=127.0.0.1,port=7763,state=online,offset=0,lag=1,type=replica\r\nslave1:ip=127.0.0.1,port=7764,state=online,offset=549,lag=0,type=replica\r\nreplicas_waiting_psync:0\r\nmaster_failover_state:no-failover\r\nmaster_replid:03a22bca7e19c8b6fad8c3b49b12d6df5f98a936\r\nmaster_repl_offset:549\r\n";
        let replica = |port: u16, acked: u64| Replica {
            addr: format!("127.0.0.1:{port}"),
            state: "online".to_owned(),
            acked,
        };
        assert_eq!(
            replication(info),
            Some((549, vec![replica(7763, 0), replica(7764, 549)]))
        );
        assert_eq!(
            replication("role:master\r\nmaster_repl_offset:7\r\n"),
            Some((7, vec![]))
        );
        assert_eq!(replication("role:master\r\n"), None);
        assert_eq!(
            replication("master_repl_offset:7\r\nslave0:ip=a,port=1,state=online\r\n"),
            None
        );
    }

    /// A job found running whose progress fields change for ever is waited for at most
    /// `ATOMIC_WAIT_STEPS` steps, said every `NOTE_STEPS`, then refused naming it and the
    /// command that cancels it.
    #[test]
    fn a_running_job_whose_progress_never_ends_is_waited_for_a_bounded_time() {
        let fake = forever(true);
        let url = fake.url(0);
        let lines: Arc<Mutex<Vec<String>>> = Arc::default();
        let said = Arc::clone(&lines);
        let ended = within_a_minute(move || {
            crate::wait_jobs(&url, &ConnectOptions::default(), STEP, &|line| {
                said.lock().unwrap().push(line.to_owned());
            })
        });
        let e = ended.expect_err("a job that never ends").to_string();
        assert!(
            e.contains(&format!("an atomic slot migration job is running on {} (127.0.0.1:{}): slots 0-10 to {}, state `running`, still running after 18s (60 steps of --timeout", id(0), fake.ports[0], id(1)))
                && e.contains("or stop it there with `CLUSTER CANCELSLOTMIGRATIONS`"),
            "{e}"
        );
        let lines = lines.lock().unwrap();
        // one line every 2 steps of 18 s: about 30
        assert!(lines.len() >= 10, "{lines:?}");
        assert!(
            lines[0].starts_with(&format!("waiting for the atomic migration job `job1` on {} (127.0.0.1:{}): slots 0-10 to {}, state `running`, ", id(0), fake.ports[0], id(1)))
                && lines[0].ends_with("s so far (at most 18s: 60 steps of --timeout)"),
            "{lines:?}"
        );
    }

    /// A job slotgen started whose progress fields change for ever is cancelled after
    /// `ATOMIC_WAIT_STEPS` steps; one that the cancellation does not end either is given up
    /// one step later.
    #[test]
    fn a_started_job_whose_progress_never_ends_is_cancelled_after_a_bounded_time() {
        let fake = forever(false);
        let url = fake.url(0);
        let lines: Arc<Mutex<Vec<String>>> = Arc::default();
        let said = Arc::clone(&lines);
        let ended = within_a_minute(move || {
            let options = ConnectOptions::default();
            let mut exchange = Exchange::open(&url, &options, STEP).unwrap();
            let end = exchange.endpoint.clone();
            let mut con = exchange.connect(&end).unwrap();
            let interrupted = AtomicBool::new(false);
            let how = ApplyOptions {
                batch: 2,
                timeout: STEP,
                dialect: None,
                interrupted: &interrupted,
                waiting: &|line| said.lock().unwrap().push(line.to_owned()),
            };
            let ended = migrate(
                &mut exchange,
                &end,
                &mut con,
                &[SlotRange { first: 0, last: 10 }],
                &id(1),
                &how,
            );
            format!("{ended:?}")
        });
        assert!(
            ended.contains("the job was cancelled (it ran for 18s (60 steps of --timeout, the longest slotgen waits for a job), its progress fields still changing), and the cancellation has not ended it within 300ms (state `running`)"),
            "{ended}"
        );
        let sent = fake.sent();
        assert_eq!(
            sent.iter()
                .filter(|(_, c)| c == "CLUSTER CANCELSLOTMIGRATIONS")
                .count(),
            1,
            "{sent:?}"
        );
        assert!(lines.lock().unwrap().len() >= 10);
    }
}
