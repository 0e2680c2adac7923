//! A map with a slot in migration: refused before a plan is carried out
//! ([`refuse_migrations`]), or the move a former run left half done carried to its end
//! ([`finish_moves`], by `migrate`'s classic sequence), after any atomic job still running
//! has ended ([`wait_jobs`]).

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::dialect::Dialect;
use super::exchange::Exchange;
use super::migrate::{move_slot, ApplyOptions};
use super::topology::Topology;
use super::Error;
use crate::transport::ConnectOptions;

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
/// without: no plan is made over a job. Returns the jobs waited for, each with the state
/// it ended in; an empty list when none ran.
///
/// # Errors
///
/// What [`Topology::fetch`] gives; [`Error::AtomicRunning`] when a job shows no progress
/// for `timeout`; a connection's or a command's error.
pub fn wait_jobs(
    url: &str,
    options: &ConnectOptions,
    timeout: Duration,
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
        let jobs = super::atomic::wait_running(&mut exchange, &mut con, &from, timeout)?;
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

/// Finishes every slot the classic sequence left half moved (after a SIGKILL, a failed
/// `MIGRATE`, a stopped node): a slot migrating on its source or importing on its target is
/// carried to that target, as [`apply`](super::apply) would have (`IMPORTING` and `MIGRATING` set again
/// where a node has lost them; the rest of its keys in every database; a key on both nodes
/// resolved by `DUMP`; `CLUSTER SETSLOT NODE` on the target, the source and the other
/// primaries). `batch` and `timeout` as in [`apply`](super::apply); `interrupted` (set by a
/// SIGINT handler) stops it after the slot in flight. An empty list when no slot is in
/// migration.
///
/// # Errors
///
/// What [`Topology::fetch`] gives; [`Error::CannotFinish`] when
/// the two ends of a slot's migration are not both primaries of the map, or disagree;
/// [`Error::MoveStopped`] as in [`apply`](super::apply); [`Error::Interrupted`] when
/// `interrupted` was set.
pub fn finish_moves(
    url: &str,
    options: &ConnectOptions,
    batch: usize,
    timeout: Duration,
    interrupted: &AtomicBool,
) -> Result<Vec<Finished>, Error> {
    let fresh = Topology::fetch(url, options, timeout)?;
    let find = |id: &str| fresh.shards.iter().position(|s| s.primary.id == id);
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
                        "its nodes disagree: {s} -> {t} by one, {source} -> {target} by another; set `CLUSTER SETSLOT {} STABLE` on both ends of the one to drop",
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
    };
    let planned = ends.len();
    let mut deaf = vec![false; fresh.shards.len()];
    let mut finished = Vec::new();
    for (slot, source, target) in ends {
        if interrupted.load(Ordering::SeqCst) {
            return Err(Error::Interrupted {
                done: finished.len(),
                planned,
                keys: finished.iter().map(|f: &Finished| f.keys).sum(),
            });
        }
        let (Some(from), Some(to)) = (find(&source), find(&target)) else {
            let missing = if find(&source).is_none() {
                &source
            } else {
                &target
            };
            return Err(Error::CannotFinish {
                slot,
                why: format!(
                    "node {} at one end of it is not a primary of the map (failed, left, or a replica now); once the cluster has a primary there again, run this again, or undo it with `CLUSTER SETSLOT {slot} STABLE` on the other end",
                    crate::text::escape_cut(missing.as_bytes())
                ),
            });
        };
        let moved = move_slot(
            &mut exchange,
            &fresh,
            (slot, from, to),
            &mut deaf,
            &how,
            true,
        )?;
        let node = |i: usize| {
            let n = &fresh.shards[i].primary;
            format!("{} ({})", n.id, n.addr)
        };
        finished.push(Finished {
            slot,
            from: node(from),
            to: node(to),
            keys: moved.keys,
            resolved: moved.resolved,
        });
    }
    Ok(finished)
}
