//! Valkey 9's atomic slot migration, as [`apply`](super::apply) runs it: one `CLUSTER
//! MIGRATESLOTS SLOTSRANGE a b [a b ...] NODE target-id` job on the source for every pair of
//! nodes of a plan, polled with `CLUSTER GETSLOTMIGRATIONS` until its `state` is `success`,
//! and cancelled with `CLUSTER CANCELSLOTMIGRATIONS` (no argument: Valkey 9.1.2 refuses the
//! `ALL` its help names) on an interrupt or when the job makes no progress for a step's
//! time. The server moves every database's keys of the slots and hands the slots over at
//! once: a job that fails or is cancelled leaves them with the source, none importing.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use redis::Value;

use super::exchange::Exchange;
use super::slot_range::SlotRange;
use super::Error;
use crate::transport::{Budget, Connection, Endpoint};

/// How often a job is polled: at first every millisecond (a job of a few slots ends within
/// milliseconds), doubling up to this.
const POLL_MAX: Duration = Duration::from_millis(50);

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
/// `timeout`, or when `interrupted` is set. When the start, a poll or the cancellation gets
/// no answer (the server may have done it all the same), the job is cancelled and asked
/// after on a new connection to `source` (the node of `con`), and on another when that
/// cancellation gets no answer either: [`Ended::Unknown`] when the job cannot be asked.
pub(super) fn migrate(
    exchange: &mut Exchange,
    source: &Endpoint,
    con: &mut Connection,
    ranges: &[SlotRange],
    target: &str,
    timeout: Duration,
    interrupted: &AtomicBool,
) -> Result<Ended, Error> {
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
        Ok(_) => match follow(exchange, con, &mine, timeout, interrupted) {
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
/// `timeout` or when `interrupted` is set.
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
) -> Result<Ended, String> {
    let mut seen = Job::default();
    let mut changed = Instant::now();
    let mut pause = Duration::from_millis(1);
    let mut cancelled = false;
    let mut stalled_once = false;
    loop {
        let job = mine(exchange, con)
            .map_err(|e| format!("polling the job failed ({})", e.what_happened()))?;
        if let Some(job) = job {
            if job.ended() {
                return Ok(match job.state.as_str() {
                    "success" => Ended::Moved,
                    _ if cancelled && interrupted.load(Ordering::SeqCst) => Ended::Interrupted,
                    _ if stalled_once => Ended::Stopped(format!(
                        "the job made no progress for {timeout:?} and was cancelled (state `{}`)",
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
        let stalled = changed.elapsed() >= timeout;
        if !cancelled && (stalled || interrupted.load(Ordering::SeqCst)) {
            step(exchange, con, timeout);
            cancel(exchange, con).map_err(|e| {
                format!(
                    "cancelling the job ({}) failed ({})",
                    if stalled {
                        format!("it made no progress for {timeout:?}")
                    } else {
                        "on an interrupt".to_owned()
                    },
                    e.what_happened()
                )
            })?;
            cancelled = true;
            stalled_once = stalled;
            changed = Instant::now();
        } else if cancelled && stalled {
            return Ok(Ended::Stopped(format!(
                "the job made no progress for {timeout:?}, and its cancellation has not ended it (state `{}`)",
                seen.state
            )));
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(POLL_MAX);
    }
}

/// Waits while `con`'s node exports slots in a job that has not ended (one a former run
/// started and left when it was killed, or an operator's), so that no plan is made over it:
/// polled as [`migrate`] polls, for as long as the job shows progress, at most `timeout`
/// without. `node` names the node in the error. Returns the jobs it waited for.
///
/// # Errors
///
/// [`Error::AtomicRunning`] when a job shows no progress for `timeout`; the errors of
/// [`jobs`].
pub(super) fn wait_running(
    exchange: &mut Exchange,
    con: &mut Connection,
    node: &str,
    timeout: Duration,
) -> Result<Vec<Job>, Error> {
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
        if seen.as_ref().is_none_or(|s| {
            (&s.name, &s.state, &s.progress) != (&job.name, &job.state, &job.progress)
        }) {
            changed = Instant::now();
            seen = Some(job);
        } else if changed.elapsed() >= timeout {
            return Err(Error::AtomicRunning {
                node: node.to_owned(),
                slots: crate::text::escape_cut(job.slots.as_bytes()),
                target: crate::text::escape_cut(job.target.as_bytes()),
                state: crate::text::escape_cut(job.state.as_bytes()),
                waited: format!("{timeout:?}"),
            });
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(POLL_MAX);
    }
}
