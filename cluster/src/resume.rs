//! A map with a slot in migration: refused before a plan is carried out
//! ([`refuse_migrations`]), or the move a former run left half done carried to its end
//! ([`finish_moves`], by `migrate`'s classic sequence), after any atomic job still running
//! has ended ([`wait_jobs`]).

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::answers::split_addr;
use super::apply_options::ApplyOptions;
use super::dialect::Dialect;
use super::exchange::{gone, Exchange};
use super::heir;
use super::migrate::move_slot;
use super::node::Node;
use super::slot_stats::{keys_in_slot, keyspace_keys, KEYSPACE};
use super::topology::Topology;
use super::Error;
use crate::transport::{Budget, ConnectOptions};

/// A half-moved slot that [`finish_moves`] finished.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Finished {
    /// The slot, in `0..16384`.
    pub slot: u16,
    /// The source, `id (addr)`.
    pub from: String,
    /// The target, `id (addr)`, which now owns the slot.
    pub to: String,
    /// Keys `MIGRATE` carried in this run.
    pub keys: u64,
    /// Keys found on both nodes with equal `DUMP`s (as a timed-out `MIGRATE` leaves them),
    /// each `key (database n)`, escaped: the source's copy was deleted.
    pub resolved: Vec<String>,
    /// Where an end of the move was no primary of the map (it failed, and its replica took
    /// its place without the slot's `MIGRATING` or `IMPORTING` state, as on Redis 7.0): that
    /// end and the primary that stood in for it, and how it was found, in words.
    pub stood_in: Option<String>,
    /// Whether neither end held a key of the slot when the finish began (`CLUSTER
    /// COUNTKEYSINSLOT` on both, every database): any keys it held before the move was
    /// interrupted are on neither node now (a node started again without its data, or a
    /// replica that kept none took its place). slotgen records no count of a slot's keys
    /// before a move, so it cannot tell that loss from a slot that was empty (as a drain
    /// moves them); a front end says so.
    pub empty: bool,
}

/// An atomic job that [`wait_jobs`] waited for.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Waited {
    /// Its source, `id (addr)`.
    pub from: String,
    /// Its target's node id, escaped.
    pub to: String,
    /// Its slots as the server gives them (`a-b c-d`), escaped.
    pub slots: String,
    /// The state it ended in (`success`, `failed`, `cancelled`), escaped.
    pub state: String,
}

/// Waits for every atomic job (`CLUSTER MIGRATESLOTS`) still running on a primary that has
/// them, as one a killed run leaves, for as long as it shows progress and at most `timeout`
/// without, and at most [`ATOMIC_WAIT_STEPS`](super::ATOMIC_WAIT_STEPS) times `timeout` in
/// all: no plan is made over a job. `waiting` is given a line (the job, its slots, its
/// state, the time waited) every two steps of `timeout` while one runs. Returns the jobs
/// waited for, each with the state it ended in; an empty list when none ran.
///
/// # Errors
///
/// What [`Topology::fetch`] gives; [`Error::AtomicRunning`] when a job shows no progress
/// for `timeout` or still runs after the longest wait; a connection's or a command's error.
pub fn wait_jobs(
    url: &str,
    options: &ConnectOptions,
    timeout: Duration,
    waiting: &dyn Fn(&str),
) -> Result<Vec<Waited>, Error> {
    let mut exchange = Exchange::open(url, options, timeout)?;
    let fresh = Topology::fetch(url, options, timeout)?;
    let mut waited = Vec::new();
    for shard in &fresh.shards {
        let end = exchange.primary_endpoint(&shard.primary)?;
        exchange.deadline = Instant::now() + timeout;
        let mut con = exchange.connect(&end)?;
        if !super::atomic::has_migrateslots(&exchange, &mut con)? {
            continue;
        }
        let from = format!("{} ({})", shard.primary.id, shard.primary.addr);
        let jobs = super::atomic::wait_running(&mut exchange, &mut con, &from, timeout, waiting)?;
        if jobs.is_empty() {
            continue;
        }
        exchange.deadline = Instant::now() + timeout;
        con.set_deadline(Some(exchange.deadline));
        let now = super::atomic::jobs(&exchange, &mut con)?;
        for job in jobs {
            let state = now
                .iter()
                .find(|j| j.name == job.name)
                .map_or("no longer listed", |j| j.state.as_str());
            let text = |t: &str| crate::text::escape_cut(t.as_bytes());
            waited.push(Waited {
                from: from.clone(),
                to: text(&job.target),
                slots: text(&job.slots),
                state: text(state),
            });
        }
    }
    Ok(waited)
}

/// How [`finish_moves`]' refusal begins where the ends of a slot's migration disagree.
const DISAGREE: &str = "its nodes disagree";

/// Finishes every slot the classic sequence left half moved (after a SIGKILL, a failed
/// `MIGRATE`, a stopped node): a slot migrating on its source or importing on its target is
/// carried to that target, as [`apply`](super::apply) would have (`IMPORTING` and `MIGRATING` set again
/// where a node has lost them; the rest of its keys in every database; a key on both nodes
/// resolved by `DUMP`; `CLUSTER SETSLOT NODE` on the target, the source and the other
/// primaries). Where an end is no primary of the map (it failed and its replica took its
/// place without the slot's state, as on Redis 7.0), the move is finished between the live
/// ends: a failed source stood in for by the slot's owner by the map (or the one primary
/// besides the target that holds keys of the slot), which the target is told first; a
/// failed target by the one primary besides the source that holds keys of the slot. Each is
/// said in [`Finished::stood_in`]. `batch` and `timeout` as in [`apply`](super::apply);
/// `interrupted` (set by a SIGINT handler) stops it after the slot in flight. An empty list
/// when no slot is in migration.
///
/// # Errors
///
/// What [`Topology::fetch`] gives; [`Error::CannotFinish`] when the ends of a slot's
/// migration disagree, or when an end is no primary of the map and the primary that stands
/// for it cannot be told (the error names the commands that finish it by hand);
/// [`Error::MigrationDoubted`], before anything is sent, for a report of a migration that
/// the map contradicts ([`Topology::migration_doubt`]); [`Error::MoveStopped`] as in
/// [`apply`](super::apply); [`Error::Interrupted`] when `interrupted` was set.
pub fn finish_moves(
    url: &str,
    options: &ConnectOptions,
    batch: usize,
    timeout: Duration,
    interrupted: &AtomicBool,
) -> Result<Vec<Finished>, Error> {
    let fresh = Topology::fetch(url, options, timeout)?;
    // a report the map contradicts (a node migrating a slot to itself) is not acted on
    if let Some((slot, doubt)) = fresh
        .migrations
        .iter()
        .find_map(|m| Some((m.slot, fresh.migration_doubt(m)?)))
    {
        return Err(Error::MigrationDoubted { slot, doubt });
    }
    let mut ends: Vec<(u16, String, String)> = Vec::new();
    for m in &fresh.migrations {
        let (source, target) = match m.kind {
            super::MigrationKind::Migrating => (&m.node, &m.peer),
            super::MigrationKind::Importing => (&m.peer, &m.node),
        };
        match ends.iter().find(|(slot, ..)| *slot == m.slot) {
            Some((_, s, t)) if (s, t) != (source, target) => {
                return Err(Error::CannotFinish {
                    slot: m.slot,
                    why: format!(
                        "{DISAGREE}: {s} -> {t} by one, {source} -> {target} by another; set `CLUSTER SETSLOT {} STABLE` on both ends of the one to drop",
                        m.slot
                    ),
                })
            }
            Some(_) => {}
            None => ends.push((m.slot, source.clone(), target.clone())),
        }
    }
    let mut exchange = Exchange::open(url, options, timeout)?;
    let how = ApplyOptions {
        batch,
        timeout,
        dialect: Some(Dialect::Classic),
        interrupted,
        waiting: &|_| {},
    };
    let planned = ends.len();
    let mut deaf = vec![false; fresh.shards.len()];
    let mut finished = Vec::new();
    for (i, (slot, source, target)) in ends.iter().enumerate() {
        if interrupted.load(Ordering::SeqCst) {
            return Err(Error::Interrupted {
                done: finished.len(),
                planned,
                keys: finished.iter().map(|f: &Finished| f.keys).sum(),
                left: ends[i..].iter().map(|(slot, ..)| *slot).collect(),
            });
        }
        let slot = *slot;
        let (from, to, stood_in) =
            live_ends(&mut exchange, &fresh, slot, (source, target), timeout)?;
        // a count that cannot be read says nothing: the move itself meets that end
        let empty = [from, to].into_iter().all(|end| {
            keys_on(&mut exchange, &fresh, end, slot, timeout).is_ok_and(|keys| keys == 0)
        });
        let moved = move_slot(
            &mut exchange,
            &fresh,
            (slot, from, to),
            &mut deaf,
            &how,
            true,
        )?;
        finished.push(Finished {
            slot,
            from: named(&fresh, from),
            to: named(&fresh, to),
            keys: moved.keys,
            resolved: moved.resolved,
            stood_in,
            empty,
        });
    }
    Ok(finished)
}

/// What a classic move's stop becomes where its source failed over during the move: where
/// `stop` is [`Error::MoveStopped`] and the source is no primary of the map now (its replica
/// took its place: a manual `CLUSTER FAILOVER`, or a failure), the slot is finished at once
/// as the next run would finish it ([`finish_moves`], the slot's owner by the map standing
/// in for the source). On Redis 7.0 the promoted replica has no `MIGRATING` state and the
/// target, importing from a failed node, answers `CLUSTERDOWN` to every key of its slots
/// until the slot is finished (a tester's target shard was down until the next run). Gives
/// [`Error::SourceFailedOver`] saying what happened and what was done, or what to run now
/// where finishing failed. Where the source is still a primary and the target is not (a
/// replica of the primary that took its place), the slot is finished the same way, that
/// primary standing in for the target: [`Error::TargetFailedOver`] (before, the stop named
/// the demoted target as the slot's future owner). Any other error, or a stop whose ends
/// are both primaries still, as given.
///
/// Where the source answered `MOVED`, or the target answered the source's `MIGRATE` with
/// `MOVED`, the map is read again for up to `how.timeout` until it shows the failover; where the map cannot be read (through a target that says `fail`),
/// the node the `MOVED` names is the owner the stop names, with the run to make now. Where
/// the source stopped answering ([`Error::MoveEndDown`]) and has a replica, each replica is
/// asked whether it can take the source's place by the server's rule (`heir::unable`);
/// where one refuses what it is asked (`NOPERM`), the stop as given with the refusal and no
/// wait (`Error::denied` finds it, for a front end's grant of the whole run); where none can, the stop as given with why (it says to start the source again, not to
/// wait), without a wait (a target that stopped answering is asked of the same way); else the
/// failover is waited for (a target's then left to the next run, unless it answers again,
/// started without its data: [`Error::SourceRestartedEmpty`] for either end): the map read
/// again until a primary other than the source owns the slot, for twice the cluster's node timeout
/// (`CONFIG GET cluster-node-timeout`) and 3 s at most, never beyond `how.timeout`, and not
/// at all where the node timeout is `how.timeout` or more; where none comes in that time,
/// the stop as given (it says to wait for the failover); `waiting` is told the end (`the
/// source id (addr)`, `the target id (addr)`) and how long at most before the wait begins,
/// for a front end to say so. The
/// node timeout and the map are read through `url`'s node, then through the source's
/// replicas, the target and the other primaries of `map` (the map the run was given), or
/// through those alone where `url` names the source or its node takes no connection
/// (`seeds`; the stop then says to name a node that answers next time; where `url`'s node
/// answers and gave no map, a target that says `fail`, the stop says to name another).
/// `url`, `options` and `how` as [`apply`](super::apply) was given them.
#[must_use]
pub fn after_stop(
    url: &str,
    options: &ConnectOptions,
    how: &ApplyOptions<'_>,
    map: Option<&Topology>,
    stop: Error,
    waiting: &mut dyn FnMut(&str, Duration),
) -> Error {
    if matches!(stop, Error::AtomicStopped { .. }) {
        return atomic_target_back(url, options, how, map, stop, waiting);
    }
    let Error::MoveStopped {
        slot,
        from,
        to,
        error,
        ..
    } = &stop
    else {
        return stop;
    };
    let target = to.split(' ').next().unwrap_or_default().to_owned();
    // `id (addr)`: the id, 40 hex digits by the map's rule, comes first
    let source = from.split(' ').next().unwrap_or_default().to_owned();
    let slot = *slot;
    // an end that stopped answering: where no replica of it can take its place, said so
    // (the stop then says to start it again); else its failover is waited for, the end
    // probed meanwhile for a start without its data (either end's replica holds its keys
    // only until it syncs from it); a target's stop is then the one given (it says to wait
    // for the failover: the next run finishes the slot on the promoted one)
    if let Error::MoveEndDown {
        at_source,
        replicas,
        ..
    } = &**error
    {
        if replicas.is_empty() {
            return stop;
        }
        let (asked, refused) = match asked(url, options, replicas) {
            Ok(asked) => asked,
            Err(refusal) => return with_not_asked(stop, refusal),
        };
        if asked.iter().all(|(_, why)| why.is_some()) {
            return with_asked(stop, asked);
        }
        // a replica that refuses the run's credentials may take the place all the same (the
        // cluster elects it without slotgen): the wait goes on, the replica named with the
        // fix (slotgen cannot finish the slot through it once it has)
        for note in &refused {
            (how.waiting)(note);
        }
        // the end that stopped answering, and the other
        let (down, down_id, other) = if *at_source {
            (from, &source, to)
        } else {
            (to, &target, from)
        };
        // the node given may be the end down: the map read through the others then; and
        // through the others after it where it answers: on Redis 7.0 a target says `fail`
        // until the slot is finished, and a replica may refuse the run's credentials (a
        // tester's run given the target waited for no failover, its source's one replica
        // refusing the password); every other primary of the run's map besides
        let others = replicas.iter().map(|(r, _)| r.addr.as_str());
        let primaries = map
            .into_iter()
            .flat_map(|m| m.shards.iter().map(|s| s.primary.addr.as_str()));
        let (seeds, given_down) = seeds(
            url,
            options,
            addr_of(down),
            others.chain([addr_of(other)]).chain(primaries),
        );
        let end = if *at_source {
            "the source"
        } else {
            "the target"
        };
        let told = |bound: Duration| waiting(&format!("{end} {down}"), bound);
        // the end started again meanwhile, without its data: said at once
        let stopped_at = Instant::now();
        let mut back = || restarted_empty(url, options, addr_of(down), replicas, stopped_at);
        let at_source = *at_source;
        let waited = wait_failover(
            &seeds,
            options,
            how.timeout,
            (down_id, slot),
            told,
            &mut back,
        );
        // a target's failover: the stop as given (it says the next run finishes the slot
        // on the promoted replica); its start without its data said as a source's is
        if !at_source && !matches!(waited, Wait::Back(_)) {
            return stop;
        }
        return match waited {
            // the target owns the slot: the source died at the move's end, after the
            // target's `SETSLOT NODE` (its own was the step left): nothing to finish
            Wait::Over(now, waited, _) if now.split(' ').next() == Some(target.as_str()) => {
                failed_over(stop, now, Some(waited), Ok(0), (given_down, false))
            }
            Wait::Over(now, waited, seed) => {
                // the node given answers, and gave no map (the target, `fail`)
                let given_fail = !given_down && seed != url;
                let finished = finish(seed, options, how, (slot, &source));
                failed_over(stop, now, Some(waited), finished, (given_down, given_fail))
            }
            Wait::Back(Restarted { uptime, replicas }) => match stop {
                Error::MoveStopped {
                    slot,
                    keys,
                    from,
                    to,
                    error,
                    ..
                } => Error::SourceRestartedEmpty {
                    slot,
                    keys,
                    from,
                    to,
                    error,
                    uptime,
                    replicas,
                    at_source,
                },
                other => other,
            },
            Wait::None => stop,
        };
    }
    // the node the source's `MOVED` for this slot names (escaped)
    let moved_to = match &**error {
        Error::Refused {
            moved: Some((to_slot, node)),
            ..
        } if *to_slot == slot => Some(node.clone()),
        _ => None,
    };
    let moved = moved_to.is_some();
    // the target's `MOVED` to the source's `MIGRATE`: the target is a replica now
    let target_moved = matches!(
        &**error,
        Error::Refused { reason, .. } if reason.contains("Target instance replied with error: MOVED")
    );
    let deadline = Instant::now() + how.timeout;
    // the owner the `MOVED` names, where the map gives none
    let by_moved = |addr: &str| format!("{addr} (the node the source's `MOVED` names)");
    let now = loop {
        match Topology::fetch(url, options, how.timeout) {
            // failed over: the slot's owner by this map (none where this node still names
            // the old source, a replica now, as the owner)
            Ok(fresh) if !fresh.shards.iter().any(|s| s.primary.id == source) => {
                break match (fresh.owners()[usize::from(slot)], &moved_to) {
                    (Some(owner), _) => named(&fresh, owner),
                    (None, Some(addr)) => by_moved(addr),
                    (None, None) => return stop,
                };
            }
            // the target failed over: the source still a primary, the target a replica of
            // the primary that took its place, which the slot's keys and states go to now
            // (Valkey re-points the source's `MIGRATING` at it)
            Ok(fresh) if !fresh.shards.iter().any(|s| s.primary.id == target) => {
                let Some(heir) = fresh
                    .shards
                    .iter()
                    .position(|s| s.replicas.iter().any(|r| r.id == target))
                else {
                    return stop;
                };
                let now = named(&fresh, heir);
                let finished = finish(url, options, how, (slot, &target));
                return target_failed_over(stop, now, finished);
            }
            // the source still a primary by this map: no failover, or gossip not there yet
            Ok(_) if (moved || target_moved) && Instant::now() < deadline => {
                std::thread::sleep(Duration::from_millis(100));
            }
            Ok(_) => return stop,
            // no map through this node: what the source's `MOVED` says, and the run to
            // make now
            Err(e) => {
                return match &moved_to {
                    Some(addr) => failed_over(
                        stop,
                        by_moved(addr),
                        None,
                        Err(unfinished(e)),
                        (false, false),
                    ),
                    None => stop,
                }
            }
        }
    };
    let finished = finish(url, options, how, (slot, &source));
    failed_over(stop, now, None, finished, (false, false))
}

/// An atomic job's stop ([`Error::AtomicStopped`]) whose target may have been started again
/// without its data during the job, as a classic move's end is asked: probed at once
/// ([`restarted_empty`]), and where it did not answer (`target_down`) while its failover is
/// waited for ([`wait_failover`], `waiting` told as for a classic end). Where it answers
/// again empty and has replicas (by `map`), the stop says so, with the replica to take over
/// before it syncs from the empty node; any other stop as given.
fn atomic_target_back(
    url: &str,
    options: &ConnectOptions,
    how: &ApplyOptions<'_>,
    map: Option<&Topology>,
    stop: Error,
    waiting: &mut dyn FnMut(&str, Duration),
) -> Error {
    let Error::AtomicStopped {
        ranges,
        to,
        target_down,
        ran_ms,
        ..
    } = &stop
    else {
        return stop;
    };
    let id = to.split(' ').next().unwrap_or_default();
    let Some(shard) = map.and_then(|m| m.shards.iter().find(|s| s.primary.id == id)) else {
        return stop;
    };
    if shard.replicas.is_empty() {
        return stop;
    }
    let replicas: Vec<(Node, Option<String>)> =
        shard.replicas.iter().map(|r| (r.clone(), None)).collect();
    // a start since the job began
    let began = Instant::now()
        .checked_sub(Duration::from_millis(*ran_ms))
        .unwrap_or_else(Instant::now);
    let mut back = || restarted_empty(url, options, addr_of(to), &replicas, began);
    let restarted = match back() {
        None if target_down.is_some() => {
            let others = replicas.iter().map(|(r, _)| r.addr.as_str());
            let primaries = map
                .into_iter()
                .flat_map(|m| m.shards.iter().map(|s| s.primary.addr.as_str()));
            let (seeds, _) = seeds(url, options, addr_of(to), others.chain(primaries));
            let slot = ranges.first().map_or(0, |r| r.first);
            let told = |bound: Duration| waiting(&format!("the target {to}"), bound);
            match wait_failover(&seeds, options, how.timeout, (id, slot), told, &mut back) {
                Wait::Back(restarted) => Some(restarted),
                _ => None,
            }
        }
        other => other,
    };
    match (restarted, stop) {
        (
            Some(Restarted { uptime, replicas }),
            Error::AtomicStopped {
                ranges,
                from,
                to,
                reason,
                ran_ms,
                ..
            },
        ) => Error::AtomicStopped {
            ranges,
            from,
            to,
            reason,
            target_down: Some(super::error::atomic_target_restarted(uptime, &replicas)),
            ran_ms,
        },
        (_, stop) => stop,
    }
}

/// [`Error::TargetFailedOver`] of the [`Error::MoveStopped`] `stop`, the primary that took
/// the target's place `now` (`id (addr)`), and what finishing the slot gave; any other error
/// as given.
fn target_failed_over(stop: Error, now: String, finished: Result<u64, String>) -> Error {
    match stop {
        Error::MoveStopped {
            slot,
            keys,
            from,
            to,
            error,
            ..
        } => Error::TargetFailedOver {
            slot,
            from,
            to,
            now,
            error,
            before: keys,
            finished,
        },
        other => other,
    }
}

/// The address of `node`, `id (addr)` as a stop names a move's end.
fn addr_of(node: &str) -> &str {
    node.split_once(" (")
        .and_then(|(_, addr)| addr.strip_suffix(')'))
        .unwrap_or_default()
}

/// The URLs to read the map through after an end of a move stopped answering, its address
/// `source`, and whether `url` is left out of them: `url` first, then `url` at each of
/// `others` ([`crate::url::at`]) but `source`, once each: the end's replicas (one of them
/// its primary after the failover, whose map is `ok`), the other end (on Redis 7.0 a target
/// says `fail` while it imports from a node that failed) and the other primaries; `url` is
/// left out where it names the source's address or its node takes no connection within
/// [`heir::ASK_TIME`] (the node given may be the source, killed). `url` alone where it
/// cannot be moved (a socket URL).
fn seeds<'a>(
    url: &str,
    options: &ConnectOptions,
    source: &str,
    others: impl Iterator<Item = &'a str>,
) -> (Vec<String>, bool) {
    let down = Exchange::open(url, options, heir::ASK_TIME).map_or(true, |exchange| {
        let names_source = match &exchange.endpoint.info.addr {
            redis::ConnectionAddr::Tcp(host, port) => split_addr(source) == Some((host, *port)),
            _ => false,
        };
        names_source || exchange.connect(&exchange.endpoint).is_err()
    });
    let mut addrs: Vec<&str> = Vec::new();
    for addr in others {
        if addr != source && !addrs.contains(&addr) {
            addrs.push(addr);
        }
    }
    let Some(others) = addrs
        .into_iter()
        .map(|addr| crate::url::at(url, addr))
        .collect::<Option<Vec<String>>>()
    else {
        return (vec![url.to_owned()], false);
    };
    let given = (!down).then(|| url.to_owned());
    (given.into_iter().chain(others).collect(), down)
}

/// `replicas` (a failed primary's, by the map read at the start of the run), each with why
/// it cannot take its place, `replica id (addr) why` ([`heir::unable`], asked within
/// [`heir::ASK_TIME`] with the TLS client, user and password of `url`); `None` for one
/// that may, or cannot be asked; or the first refusal (`NOPERM`) of what it is asked by
/// ([`crate::rights::HEIR`]), which the stop then carries ([`with_not_asked`]). Besides, a
/// note for each replica that refuses the credentials ([`Error::refuses_credentials`]:
/// `None` as one that may), naming it, the refusal and the fix.
fn asked(
    url: &str,
    options: &ConnectOptions,
    replicas: &[(Node, Option<String>)],
) -> Result<(Replicas, Vec<String>), Error> {
    let mut refused = Vec::new();
    let mut asked = Vec::new();
    for (replica, _) in replicas {
        let unable = match Exchange::open(url, options, heir::ASK_TIME) {
            Ok(exchange) => match heir::unable(&exchange, replica) {
                Err(e) if e.refuses_credentials() => {
                    refused.push(format!(
                        "replica {} ({}) refused slotgen's credentials ({e}): slotgen waits for the failover all the same (the cluster elects a replica without slotgen), but cannot finish the slot through it once it has taken the place: {}",
                        replica.id,
                        crate::text::field(replica.addr.as_bytes()),
                        crate::error::REPLICA_CREDENTIALS
                    ));
                    None
                }
                unable => unable?,
            },
            Err(_) => None,
        };
        let why = unable
            .map(|unable| format!("replica {} ({}) {}", replica.id, replica.addr, unable.why()));
        asked.push((replica.clone(), why));
    }
    Ok((asked, refused))
}

/// A failed primary's replicas, each with why it cannot take its place (`None`: it may).
type Replicas = Vec<(Node, Option<String>)>;

/// The [`Error::MoveStopped`] `stop` of an end that does not answer
/// ([`Error::MoveEndDown`]), with `refusal`, a replica's `NOPERM` to what it was asked
/// ([`Error::NotAsked`]): the stop names the grant, and no failover is waited for.
fn with_not_asked(mut stop: Error, refusal: Error) -> Error {
    if let Error::MoveStopped { error, .. } = &mut stop {
        let down = error.clone();
        **error = Error::NotAsked {
            down,
            refusal: Box::new(refusal),
        };
    }
    stop
}

/// The [`Error::MoveStopped`] `stop` of a source that does not answer
/// ([`Error::MoveEndDown`]), its replicas as `asked`: where none can take its place, the
/// stop says to start the source again rather than to wait.
fn with_asked(mut stop: Error, asked: Vec<(Node, Option<String>)>) -> Error {
    if let Error::MoveStopped { error, .. } = &mut stop {
        if let Error::MoveEndDown { replicas, .. } = &mut **error {
            *replicas = asked;
        }
    }
    stop
}

/// How far past the node timeout a failover comes at most, as slotgen waits for one: by the
/// Redis Cluster specification a primary that does not answer is `PFAIL` after the node
/// timeout, `FAIL` once most primaries report it (their gossip, within about the node
/// timeout again), and its replica asks for votes 500 to 1000 ms after that (a second more a
/// rank), the election itself within two node timeouts. Measured with a node timeout of 1 s
/// (three primaries with a replica each, a source killed mid-slot): the replica took its
/// place within 2 to 3 s of the kill.
const FAILOVER_MARGIN: Duration = Duration::from_secs(3);

/// How long to wait for the failover of a primary that stopped answering just now, with the
/// cluster's node timeout `node_timeout` (`None`: not known, the node did not say) and the
/// run's step `timeout`: twice the node timeout and [`FAILOVER_MARGIN`], never beyond
/// `timeout`; `None`, no wait, where the node timeout is `timeout` or more (no failover comes
/// within it).
///
/// # Examples
///
/// ```text
/// node timeout 1 s, --timeout 10 s: 5 s
/// node timeout 15 s (the servers' default), --timeout 10 s: no wait
/// node timeout unknown, --timeout 10 s: 10 s
/// ```
#[must_use]
fn failover_wait(node_timeout: Option<Duration>, timeout: Duration) -> Option<Duration> {
    match node_timeout {
        Some(t) if t >= timeout => None,
        Some(t) => Some((t * 2 + FAILOVER_MARGIN).min(timeout)),
        None => Some(timeout),
    }
}

/// How long a probe of a source that stopped answering may take ([`restarted_empty`]): it
/// is asked between two readings of the map while slotgen waits for its failover, and a
/// node that is stopped (`SIGSTOP`) takes the connection and never answers.
const PROBE_TIME: Duration = Duration::from_millis(300);

/// Whether the end of a move (source or target) at `addr`, which stopped answering mid-slot
/// at `stopped_at`, answers
/// again, started again since (`INFO server`: `uptime_in_seconds` no more than the time
/// since, and a second) with no key (`INFO keyspace`): its `uptime_in_seconds`, and its
/// `replicas` (by the map read at the start), `id (addr)`, each with its keys by `INFO
/// keyspace` (`None` where it cannot be asked). `None` where it does not answer, has keys,
/// or has run since before the stop. Asked with the TLS client, user and password of `url`.
fn restarted_empty(
    url: &str,
    options: &ConnectOptions,
    addr: &str,
    replicas: &[(Node, Option<String>)],
    stopped_at: Instant,
) -> Option<Restarted> {
    let keys_of = |addr: &str, time: Duration| -> Option<(u64, String)> {
        let at = crate::url::at(url, addr)?;
        let exchange = Exchange::open(&at, options, time).ok()?;
        let mut con = exchange.connect(&exchange.endpoint).ok()?;
        let keyspace = exchange
            .text(&mut con, redis::cmd("INFO").arg("keyspace"), KEYSPACE)
            .ok()?;
        let server = exchange
            .text(&mut con, redis::cmd("INFO").arg("server"), KEYSPACE)
            .ok()?;
        Some((keyspace_keys(&keyspace).ok()?, server))
    };
    let (keys, server) = keys_of(addr, PROBE_TIME)?;
    let uptime: u64 = server
        .lines()
        .find_map(|l| l.trim().strip_prefix("uptime_in_seconds:"))?
        .parse()
        .ok()?;
    if keys > 0 || uptime > stopped_at.elapsed().as_secs() + 1 {
        return None;
    }
    let replicas = replicas
        .iter()
        .map(|(r, _)| {
            let keys = keys_of(&r.addr, heir::ASK_TIME).map(|(keys, _)| keys);
            (format!("{} ({})", r.id, r.addr), keys)
        })
        .collect();
    Some(Restarted { uptime, replicas })
}

/// An end started again without its data ([`restarted_empty`]): its `uptime_in_seconds`,
/// and its replicas, `id (addr)`, with their keys (`None`: not known).
struct Restarted {
    uptime: u64,
    replicas: Vec<(String, Option<u64>)>,
}

/// What [`wait_failover`] saw.
enum Wait<'s> {
    /// The failover: the slot's owner, `id (addr)`, the time waited, and the seed whose map
    /// showed it.
    Over(String, Duration, &'s str),
    /// The end answers again, started again without its data ([`restarted_empty`]).
    Back(Restarted),
    /// No failover in the time, or no seed's node can be asked.
    None,
}

/// Waits for the failover of `source` (a node id), a primary that stopped answering in the
/// middle of `slot`'s move (its source, or its target), reads the cluster's map through
/// each of `seeds` in turn (`CLUSTER SHARDS` or `CLUSTER SLOTS`, and `CLUSTER NODES`) until
/// one names `source` as no primary and another primary as the slot's owner (a target's
/// source owns it all along), for as long as
/// [`failover_wait`] gives with the node timeout of the first of them that says it (`CONFIG
/// GET cluster-node-timeout`), which `waiting` is told before the wait; `back` is asked
/// between the readings whether the source answers again, started again without its data
/// ([`restarted_empty`]), which ends the wait. Gives what it saw ([`Wait`]).
fn wait_failover<'s>(
    seeds: &'s [String],
    options: &ConnectOptions,
    timeout: Duration,
    (source, slot): (&str, u16),
    mut waiting: impl FnMut(Duration),
    back: &mut dyn FnMut() -> Option<Restarted>,
) -> Wait<'s> {
    let started = Instant::now();
    let Some(node_timeout) = seeds.iter().find_map(|url| {
        let exchange = Exchange::open(url, options, timeout).ok()?;
        let mut con = exchange.connect(&exchange.endpoint).ok()?;
        exchange.node_timeout(&mut con).ok()
    }) else {
        return Wait::None;
    };
    let Some(bound) = failover_wait(node_timeout, timeout) else {
        return Wait::None;
    };
    waiting(bound);
    let deadline = started + bound;
    loop {
        if let Some(restarted) = back() {
            return Wait::Back(restarted);
        }
        for url in seeds {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Wait::None;
            }
            // a map that cannot be read (the dead source not yet marked `fail`, the
            // cluster `fail` until the replica takes over) is read again
            if let Ok(fresh) = Topology::fetch_owners(url, options, left) {
                // the failed source left out of the map at once (`fail`), its slots
                // without an owner until the replica takes them
                if !fresh.shards.iter().any(|s| s.primary.id == source) {
                    if let Some(owner) = fresh.owners()[usize::from(slot)] {
                        return Wait::Over(named(&fresh, owner), started.elapsed(), url);
                    }
                }
            }
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// `slot` finished after its source, `failed` (a node id), failed over ([`finish_moves`]):
/// the keys carried, or why it could not be.
fn finish(
    url: &str,
    options: &ConnectOptions,
    how: &ApplyOptions<'_>,
    (slot, failed): (u16, &str),
) -> Result<u64, String> {
    // the promotion reaches the target by gossip: until it has, the target refuses the
    // promoted replica as a slot's source, or still imports from the failed one, so the
    // finish is tried again until `how.timeout` has passed
    let deadline = Instant::now() + how.timeout;
    let finished = loop {
        match finish_moves(url, options, how.batch, how.timeout, how.interrupted) {
            Err(e) if promotion_not_heard(&e, failed) && Instant::now() < deadline => {
                std::thread::sleep(Duration::from_millis(200));
            }
            other => break other,
        }
    };
    finished.map_err(unfinished).and_then(|done| {
        done.iter()
            .find(|f| f.slot == slot)
            .map(|f| f.keys)
            .ok_or_else(|| "no node of the map shows it in migration".to_owned())
    })
}

/// Whether `e` is a node's refusal of a promoted replica as a primary that it has not heard
/// of yet, the replica of `failed` (a node id), which gossip mends within a node timeout or
/// so: `CLUSTER SETSLOT` answered "Target node is not a master" (Redis and Valkey,
/// `cluster.c`); or the slot's ends disagree ([`DISAGREE`]) where one of them names
/// `failed`: Valkey 8.0 gives the promoted replica the slot's `MIGRATING` state at once,
/// while the target imports from the failed node until it hears of the promotion (measured:
/// a run given the source, whose map was read through the promoted replica, met it).
fn promotion_not_heard(e: &Error, failed: &str) -> bool {
    match e {
        Error::Refused {
            command, reason, ..
        } => command.starts_with("CLUSTER SETSLOT") && reason.contains("is not a master"),
        Error::CannotFinish { why, .. } => why.starts_with(DISAGREE) && why.contains(failed),
        _ => false,
    }
}

/// Why a slot whose source failed over could not be finished: a target importing from a
/// node that is no primary now says `fail` on Redis 7.0, and its map cannot be read.
fn unfinished(e: Error) -> String {
    match e {
        Error::ClusterState { url, state, .. } => format!(
            "`{url}` says `cluster_state:{state}`, as a target importing from a node that is no primary now does until the slot is finished, so its map cannot be read: give the URL of another primary"
        ),
        e => e.to_string(),
    }
}

/// [`Error::SourceFailedOver`] of the [`Error::MoveStopped`] `stop`, the slot's owner `now`,
/// the time slotgen `waited` for the failover (`None`: it had happened when the source
/// answered `MOVED`), what finishing it gave, and whether the node given was down, the map
/// read through others ([`seeds`]); any other error as given.
fn failed_over(
    stop: Error,
    now: String,
    waited: Option<Duration>,
    finished: Result<u64, String>,
    (given_down, given_fail): (bool, bool),
) -> Error {
    match stop {
        Error::MoveStopped {
            slot,
            keys,
            from,
            to,
            error,
            ..
        } => Error::SourceFailedOver {
            slot,
            from,
            to,
            now: now.into(),
            error,
            waited_ms: waited.map(|w| u32::try_from(w.as_millis()).unwrap_or(u32::MAX)),
            before: keys,
            finished: finished.map_err(Into::into),
            given_down,
            given_fail,
            drained: None,
        },
        other => other,
    }
}

/// The live ends of half-moved `slot`, from `source` to `target` (node ids), as indices into
/// `fresh`'s shards, and, where an end is no primary of the map, which primary stood in for
/// it. A primary that failed mid-slot leaves its replica in its place, and Redis 7.0 does not
/// give a replica the `SETSLOT` states (Valkey 8.0 does): the end that is left names the
/// failed node, and the replica holds the slot (a failed source) or the keys moved so far (a
/// failed target) with no state. The primary that stands for
///
/// - a failed source: the slot's owner by the map, else the one primary other than the
///   target that holds keys of the slot (`CLUSTER COUNTKEYSINSLOT`, in every database). The
///   target is then told that owner first (`CLUSTER SETSLOT slot NODE owner`): Redis 7.0 keeps
///   the failed node as the owner of a slot it imports, counts the slot as served by a failed
///   node, and answers `CLUSTERDOWN` to every key, the `RESTORE` of `MIGRATE` included, until
///   it learns another owner;
/// - a failed target: the one primary other than the source that holds keys of the slot (the
///   keys moved so far, which the failed target's replica had).
///
/// [`move_slot`] then sets `IMPORTING` and `MIGRATING` between the live ends again and
/// finishes the move.
///
/// # Errors
///
/// [`Error::CannotFinish`] when the primary that stands for a failed end cannot be told
/// (no primary, or several, hold keys of the slot), naming the `SETSLOT` commands that, run on
/// the live ends, let the next run finish it with no key lost; a connection's or a command's
/// error.
fn live_ends(
    exchange: &mut Exchange,
    fresh: &Topology,
    slot: u16,
    (source, target): (&str, &str),
    timeout: Duration,
) -> Result<(usize, usize, Option<String>), Error> {
    let find = |id: &str| fresh.shards.iter().position(|s| s.primary.id == id);
    let node = |i: usize| named(fresh, i);
    let failed = |id: &str| {
        let addr = fresh
            .left_out
            .iter()
            .find(|out| out.node.id == id)
            .map(|out| format!(" ({})", out.node.addr))
            .unwrap_or_default();
        crate::text::escape_cut(format!("{id}{addr}").as_bytes())
    };
    let not_primary = "is not a primary of the map (failed, left, or a replica now)";
    let again = "then `slotgen rebalance --apply` finishes it; never `STABLE` on one end while keys of it are on both";
    match (find(source), find(target)) {
        (Some(from), Some(to)) => Ok((from, to, None)),
        (None, Some(to)) => {
            let owner = fresh.owners()[usize::from(slot)].filter(|&o| o != to);
            let (from, how) = match owner {
                Some(o) => (o, "the slot's owner by the map"),
                None => match holders(exchange, fresh, slot, to, timeout)?.as_slice() {
                    [one] => (*one, "the one primary besides the target that holds keys of it"),
                    others => {
                        return Err(Error::CannotFinish {
                            slot,
                            why: format!(
                                "its source {} {not_primary}, and {}: on the primary that took over its slots run `CLUSTER SETSLOT {slot} MIGRATING {}`; on {} run `CLUSTER SETSLOT {slot} NODE <that primary's id>`, then `CLUSTER SETSLOT {slot} IMPORTING <that primary's id>`; {again}",
                                failed(source),
                                unknown(fresh, others, "the target"),
                                fresh.shards[to].primary.id,
                                fresh.shards[to].primary.addr,
                            ),
                        });
                    }
                },
            };
            // the target learns the live owner, so that it takes the keys (see above)
            let end = exchange.primary_endpoint(&fresh.shards[to].primary)?;
            exchange.deadline = Instant::now() + timeout;
            let mut con = exchange
                .connect(&end)
                .map_err(gone(&fresh.shards[to].primary))?;
            con.set_deadline(Some(exchange.deadline));
            let mut cmd = redis::cmd("CLUSTER");
            cmd.arg("SETSLOT")
                .arg(slot)
                .arg("NODE")
                .arg(&fresh.shards[from].primary.id);
            exchange.query(&mut con, &cmd, Budget::SHORT)?;
            Ok((
                from,
                to,
                Some(format!(
                    "its source {} {not_primary}: {}, {how}, stood in for it",
                    failed(source),
                    node(from)
                )),
            ))
        }
        (Some(from), None) => match holders(exchange, fresh, slot, from, timeout)?.as_slice() {
            [to] => Ok((
                from,
                *to,
                Some(format!(
                    "its target {} {not_primary}: {}, the one primary besides the source that holds keys of it, stood in for it",
                    failed(target),
                    node(*to)
                )),
            )),
            others => Err(Error::CannotFinish {
                slot,
                why: format!(
                    "its target {} {not_primary}, and {}: on the primary that took over its slots run `CLUSTER SETSLOT {slot} IMPORTING {}`; on {} run `CLUSTER SETSLOT {slot} MIGRATING <that primary's id>`; {again}",
                    failed(target),
                    unknown(fresh, others, "the source"),
                    fresh.shards[from].primary.id,
                    fresh.shards[from].primary.addr,
                ),
            }),
        },
        (None, None) => Err(Error::CannotFinish {
            slot,
            why: format!(
                "neither its source {} nor its target {} is a primary of the map: on the primary that took over the target's slots run `CLUSTER SETSLOT {slot} IMPORTING <the slot's owner's id>`, and on the slot's owner `CLUSTER SETSLOT {slot} MIGRATING <the first one's id>`; {again}",
                failed(source),
                failed(target)
            ),
        }),
    }
}

/// The primaries of `fresh` other than shard `besides` that hold keys of `slot` (`CLUSTER
/// COUNTKEYSINSLOT` in every database), as indices into its shards.
fn holders(
    exchange: &mut Exchange,
    fresh: &Topology,
    slot: u16,
    besides: usize,
    timeout: Duration,
) -> Result<Vec<usize>, Error> {
    let mut holders = Vec::new();
    for i in 0..fresh.shards.len() {
        if i != besides && keys_on(exchange, fresh, i, slot, timeout)? > 0 {
            holders.push(i);
        }
    }
    Ok(holders)
}

/// The keys of `slot` on the primary of shard `i` of `fresh` (`CLUSTER COUNTKEYSINSLOT`
/// in every database), each step within `timeout`.
fn keys_on(
    exchange: &mut Exchange,
    fresh: &Topology,
    i: usize,
    slot: u16,
    timeout: Duration,
) -> Result<u64, Error> {
    let primary = &fresh.shards[i].primary;
    let end = exchange.primary_endpoint(primary)?;
    exchange.deadline = Instant::now() + timeout;
    let mut con = exchange.connect(&end).map_err(gone(primary))?;
    con.set_deadline(Some(exchange.deadline));
    keys_in_slot(exchange, &mut con, slot).map_err(gone(primary))
}

/// Why the primary standing for a failed end cannot be told from `holders` (the primaries
/// besides `live`, the live end, that hold keys of the slot).
fn unknown(fresh: &Topology, holders: &[usize], live: &str) -> String {
    if holders.is_empty() {
        format!("no primary besides {live} holds keys of it")
    } else {
        format!(
            "{} primaries besides {live} hold keys of it: {}",
            holders.len(),
            holders
                .iter()
                .map(|&i| named(fresh, i))
                .collect::<Vec<_>>()
                .join(", ")
        )
    }
}

/// The primary of shard `i` of `topology`, `id (addr)`.
fn named(topology: &Topology, i: usize) -> String {
    let n = &topology.shards[i].primary;
    format!("{} ({})", n.id, n.addr)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_setslot_s_refusal_of_a_replica_is_waited_out() {
        let refused = |command: &str, reason: &str| Error::Refused {
            url: "redis://127.0.0.1:7102".to_owned(),
            command: command.to_owned(),
            reason: reason.to_owned(),
            moved: None,
        };
        assert!(promotion_not_heard(
            &refused("CLUSTER SETSLOT", "ERR Target node is not a master"),
            "a"
        ));
        assert!(!promotion_not_heard(
            &refused("CLUSTER SETSLOT", "ERR I don't know about node x"),
            "a"
        ));
        assert!(!promotion_not_heard(
            &refused("MIGRATE", "ERR Target node is not a master"),
            "a"
        ));
        // the target still imports from the failed source, its replica migrates
        let disagree = |by: &str| Error::CannotFinish {
            slot: 1,
            why: format!("{DISAGREE}: {by} -> t by one, r -> t by another; set ..."),
        };
        let (a, b) = ("a".repeat(40), "b".repeat(40));
        assert!(promotion_not_heard(&disagree(&a), &a));
        assert!(!promotion_not_heard(&disagree(&b), &a));
    }

    /// Interrupted before a half-moved slot is begun, the finish says that slot is left half
    /// moved, and sends nothing for it: a tester's Ctrl-C during the wait for a source's
    /// failover was told "no slot is left migrating or importing" of a slot that was.
    #[test]
    fn an_interrupted_finish_says_the_slots_it_leaves_half_moved() {
        use crate::fake::{id, nodes, FakeCluster};
        use std::sync::{Arc, OnceLock};
        let ports = Arc::new(OnceLock::new());
        let known = Arc::clone(&ports);
        let fake = FakeCluster::start(Arc::new(move |me, words: &[String]| {
            let nodes_asked = words.len() == 2 && words[1].eq_ignore_ascii_case("NODES");
            nodes_asked.then(|| {
                nodes(
                    *known.get().unwrap(),
                    me,
                    [
                        &format!(" [0->-{}] [7->-{}]", id(1), id(1)),
                        &format!(" [0-<-{}] [7-<-{}]", id(0), id(0)),
                    ],
                )
            })
        }));
        ports.set(fake.ports).unwrap();
        let interrupted = AtomicBool::new(true);
        let e = finish_moves(
            &fake.url(1),
            &ConnectOptions::default(),
            2,
            Duration::from_secs(5),
            &interrupted,
        )
        .unwrap_err();
        let text = e.to_string();
        assert!(
            matches!(&e, Error::Interrupted { done: 0, planned: 2, left, .. } if left == &[0, 7]),
            "{e:?}"
        );
        assert!(
            text.contains("slots 0, 7 are left half moved") && !text.contains("no slot is left"),
            "{text}"
        );
        let sent = fake.sent();
        assert!(!sent.iter().any(|(_, c)| c.contains("SETSLOT")), "{sent:?}");
    }

    /// A node that reports migrating a slot to itself, or to a node the map does not hold,
    /// is refused before anything is sent: a tester's fake got `CLUSTER SETSLOT 0
    /// MIGRATING` and `NODE` naming the node itself, and slot 0 "finished".
    #[test]
    fn a_migration_the_map_contradicts_is_not_finished() {
        use crate::fake::{id, nodes, FakeCluster};
        use std::sync::{Arc, OnceLock};
        for (peer, says) in [
            (
                id(0),
                "reports slot 0 migrating to itself; the map gives slot 0 to ".to_owned(),
            ),
            (
                "e".repeat(40),
                format!(
                    "reports slot 0 migrating to {}, a node the map does not hold",
                    "e".repeat(40)
                ),
            ),
        ] {
            let ports = Arc::new(OnceLock::new());
            let known = Arc::clone(&ports);
            let fake = FakeCluster::start(Arc::new(move |me, words: &[String]| {
                let nodes_asked = words.len() == 2 && words[1].eq_ignore_ascii_case("NODES");
                nodes_asked
                    .then(|| nodes(*known.get().unwrap(), me, [&format!(" [0->-{peer}]"), ""]))
            }));
            ports.set(fake.ports).unwrap();
            let interrupted = AtomicBool::new(false);
            let e = finish_moves(
                &fake.url(1),
                &ConnectOptions::default(),
                2,
                Duration::from_secs(5),
                &interrupted,
            )
            .unwrap_err();
            let text = e.to_string();
            assert!(
                matches!(e, Error::MigrationDoubted { slot: 0, .. })
                    && text.contains(&format!(
                        "the migration of slot 0 makes no sense: {} (127.0.0.1:{}) {says}",
                        id(0),
                        fake.ports[0]
                    )),
                "{text}"
            );
            let sent = fake.sent();
            assert!(!sent.iter().any(|(_, c)| c.contains("SETSLOT")), "{sent:?}");
        }
    }

    /// Where the map cannot be read (the URL's node is the target, `fail` on Redis 7.0;
    /// here no server), the stop still says the source failed over, to the node its
    /// `MOVED` names, that the slot is half moved, and to run `--apply` now.
    #[test]
    fn a_moved_source_without_a_map_names_the_node_of_its_moved() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        drop(listener);
        let stop = |reason: &str| Error::MoveStopped {
            slot: 2328,
            keys: 40,
            from: format!("{} (127.0.0.1:7101)", "a".repeat(40)),
            to: format!("{} (127.0.0.1:7102)", "b".repeat(40)),
            step: "`GETKEYSINSLOT`/`MIGRATE` on the source".to_owned(),
            error: Box::new(Error::Refused {
                url: "redis://127.0.0.1:7101".to_owned(),
                command: "MIGRATE".to_owned(),
                reason: reason.to_owned(),
                moved: reason
                    .strip_prefix("MOVED 2328 ")
                    .map(|node| (2328, node.to_owned())),
            }),
            repair: "the next `slotgen rebalance --apply` finishes it".to_owned(),
        };
        let interrupted = AtomicBool::new(false);
        let how = ApplyOptions {
            batch: 5,
            timeout: Duration::from_secs(2),
            dialect: Some(Dialect::Classic),
            interrupted: &interrupted,
            waiting: &|_| {},
        };
        let url = format!("redis://127.0.0.1:{port}");
        let options = ConnectOptions::default();
        let said = after_stop(
            &url,
            &options,
            &how,
            None,
            stop("MOVED 2328 127.0.0.1:7105"),
            &mut |_, _| {},
        )
        .to_string();
        assert!(
            said.contains("the source failed over to 127.0.0.1:7105 (the node the source's `MOVED` names) during the move")
                && said.contains("slot 2328 is half moved (40 of its keys on")
                && said.contains("and slotgen could not finish it now (cannot reach `redis://127.0.0.1:")
                && said.contains("run `slotgen rebalance --apply` again now"),
            "{said}"
        );
        // another refusal: the stop as it was
        let other = stop("IOERR error or timeout reading to target instance");
        assert_eq!(
            after_stop(&url, &options, &how, None, other.clone(), &mut |_, _| {}),
            other
        );
        // a source that stopped answering, where no map can be read to see its failover:
        // the stop as it was (it says to wait for the failover)
        let Error::MoveStopped {
            slot,
            keys,
            from,
            to,
            step,
            repair,
            ..
        } = other
        else {
            unreachable!()
        };
        let dead = Error::MoveStopped {
            slot,
            keys,
            from,
            to,
            step,
            repair,
            error: Box::new(Error::MoveEndDown {
                url: "redis://127.0.0.1:7101".to_owned(),
                id: "a".repeat(40).into(),
                during: "MIGRATE".to_owned(),
                reason: "the server closed the connection".to_owned(),
                replicas: crate::error::tests::replicas(1),
                at_source: true,
                lost_if_dead: None,
            }),
        };
        let mut told = false;
        assert_eq!(
            after_stop(&url, &options, &how, None, dead.clone(), &mut |_, _| told =
                true),
            dead
        );
        assert!(!told, "no wait without a node to ask");
    }

    /// The wait for a failover: twice the node timeout and the margin, within the step's
    /// time; none where the node timeout alone is the step's time or more; the step's time
    /// where the node timeout is not known.
    #[test]
    fn a_failover_is_waited_for_within_the_node_timeout_and_the_step_s_time() {
        let s = Duration::from_secs;
        assert_eq!(
            failover_wait(Some(s(1)), s(10)),
            Some(s(2) + FAILOVER_MARGIN)
        );
        assert_eq!(failover_wait(Some(s(1)), s(4)), Some(s(4)));
        assert_eq!(failover_wait(Some(s(15)), s(10)), None);
        assert_eq!(failover_wait(Some(s(10)), s(10)), None);
        assert_eq!(failover_wait(None, s(10)), Some(s(10)));
    }
}
