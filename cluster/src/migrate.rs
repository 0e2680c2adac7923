//! Carrying a rebalance [`Plan`] out: [`apply`], which runs the classic sequence slot by slot
//! or Valkey's atomic jobs; what each server version takes, printed, is `dialect`'s.
//!
//! The classic sequence (the Redis Cluster specification, "Live resharding"; what
//! `redis-cli --cluster reshard` sends), for a slot `s` from node `F` to node `T`:
//!
//! 1. on `T`: `CLUSTER SETSLOT s IMPORTING F-id`;
//! 2. on `F`: `CLUSTER SETSLOT s MIGRATING T-id`;
//! 3. on `F`, until it answers no key: `CLUSTER GETKEYSINSLOT s BATCH`, then
//!    `MIGRATE T-host T-port "" 0 TIMEOUT-ms KEYS k1 k2 ...`; slotgen asks `CLUSTER
//!    COUNTKEYSINSLOT s` first, and stops at a listing that makes no sense (a key of another
//!    slot, a key listed again, more keys than counted: `Listed`), so that no answer keeps
//!    it moving forever;
//! 4. `CLUSTER SETSLOT s NODE T-id` on `T`, then on `F`, then on every other primary.
//!
//! Between 1 and 4 clients follow `ASK` redirections; a key is deleted only by `MIGRATE`
//! once `T` holds it, or when a timed-out `MIGRATE` left it on both nodes and their `DUMP`s
//! are equal. Step 3 runs in every database (`cluster-databases`, Valkey 9), `MIGRATE`
//! naming it. Before step 1 each end is asked, once, its version (a move to an older
//! server, which cannot read the source's `DUMP` payloads, is refused) and by `ACL DRYRUN`
//! whether the user may run what the move sends it; a step refused for permission
//! (`NOPERM`), or a `MIGRATE` the target cannot read, before any key moved undoes steps 2
//! and 1 (`CLUSTER SETSLOT s STABLE` on `F`, then on `T`). Every state this leaves
//! after a failure (a slot importing on `T` alone;
//! importing on `T` and migrating on `F`, with some keys moved; owned by `T` on some nodes
//! and `F` on others) is one that [`finish_moves`](super::finish_moves) carries to its end.
//!
//! Valkey 9.0 adds atomic slot migration (`CLUSTER MIGRATESLOTS SLOTSRANGE a b NODE T-id`,
//! sent to the source; progress by `CLUSTER GETSLOTMIGRATIONS`), and Redis 8.4 its own
//! (`CLUSTER MIGRATION IMPORT a b`, sent to the target; progress by `CLUSTER MIGRATION
//! STATUS ALL`). [`commands`] prints all three; [`apply`] runs the classic sequence or
//! Valkey's atomic one (module `atomic`), and never Redis 8.4's, which no server here runs.

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use redis::Value;

use super::answers::split_addr;
use super::apply_options::ApplyOptions;
use super::atomic;
use super::dialect::{atomic_jobs, migrate_timeout, Dialect};
use super::exchange::{select, Exchange};
use super::rebalance::{Move, Plan};
use super::slot_stats::count_keys_in;
use super::topology::{refuse_migrations, Topology};
use super::version::{can_move, Version};
use super::Error;
use crate::transport::{Budget, ConnectOptions, Connection, Denied, Endpoint};

/// The step of a slot move where [`apply`] stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// `CLUSTER SETSLOT s IMPORTING` on the target.
    Importing,
    /// `CLUSTER SETSLOT s MIGRATING` on the source.
    Migrating,
    /// `CONFIG GET cluster-databases` on the source, the slot migrating, before any key
    /// moved.
    Databases,
    /// `CLUSTER GETKEYSINSLOT` and `MIGRATE` on the source, after this many keys moved by
    /// whole batches (some keys of the failed batch may have moved too).
    Keys(u64),
    /// `MIGRATE` refused with `BUSYKEY`: the target holds a key of that name already; after
    /// this many keys moved by whole batches.
    BusyKey(u64),
    /// `CLUSTER SETSLOT s NODE` on the target (`true`) or the source (`false`).
    Node(bool),
}

/// What [`apply`] did.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Applied {
    /// How the slots were moved: [`Dialect::Classic`] or [`Dialect::Migrateslots`].
    pub dialect: Dialect,
    /// Slots moved.
    pub moves: usize,
    /// Keys moved: those `MIGRATE` carried (classic), or those the plan counted in the slots
    /// of the atomic jobs that ended in `success`.
    pub keys: u64,
    /// The primaries, neither source nor target of a move, that did not answer a final
    /// `CLUSTER SETSLOT slot NODE id` (each `id (addr)`, in shard order): not asked again;
    /// the cluster's gossip tells them the new owners.
    pub untold: Vec<String>,
    /// The notes of the slots of which a few keys left the source during the move
    /// otherwise than by `MIGRATE` (expired, or deleted by clients), within the rule that
    /// goes on (`Gone`); more stops the run ([`Error::KeysGone`]).
    pub gone: Vec<String>,
}

/// The keys one `CLUSTER GETKEYSINSLOT` answer may hold: at most this many bytes a key. A
/// longer key stops the move at that slot, naming the budget ([`Error::ReplyTooLarge`]).
pub const MAX_MIGRATED_KEY_BYTES: usize = 64 * 1024;

/// Carries `plan` out, each step (a connection, a command) within `options.timeout`: with
/// the classic sequence (see the module's docs) slot by slot, `MIGRATE` moving at most
/// `options.batch` keys at a time in every database (`cluster-databases`, Valkey 9) and
/// given [`migrate_timeout`]; or with atomic `CLUSTER MIGRATESLOTS` jobs, one per pair of
/// nodes and [`MAX_JOB_RANGES`](super::MAX_JOB_RANGES) ranges, each followed by a wait until
/// the target's replicas have acknowledged it (`INFO replication`). `planned` is the map the plan was made on. `progress` is called after each slot
/// with its move and the keys moved (for an atomic job, the keys the plan counted).
///
/// It re-reads the map first ([`Topology::fetch`], which refuses a cluster whose state is not
/// `ok`), and refuses to start when a slot is migrating or importing ([`finish_moves`](super::finish_moves)
/// finishes those), or when a slot of the plan changed owner since. It never sends
/// `REPLACE`; a key that the target holds already (`BUSYKEY`, as a timed-out `MIGRATE`
/// leaves it) is compared by `DUMP` on both nodes, the source's copy deleted when they are
/// equal, the move stopped naming both otherwise. Before a classic move's first `CLUSTER
/// SETSLOT` it asks both ends by `ACL DRYRUN` whether the user may run the move's commands
/// (once a node); a step refused for permission before any key of the slot moved undoes the
/// states the move set, so that the slot is as it was.
///
/// # Errors
///
/// What [`Topology::fetch`] gives; [`Error::MigrationUnderWay`], [`Error::MapChanged`],
/// [`Error::NoAtomicMigration`], [`Error::PrintedOnly`] before any move;
/// [`Error::MoveStopped`] when a classic step fails, naming the slot, the two nodes, the
/// step's error and the repair; [`Error::AtomicStopped`] when an atomic job fails;
/// [`Error::ReplicasBehind`] when a job's target has a replica that does not acknowledge it;
/// [`Error::AtomicUnknown`] when a job can be neither polled nor cancelled;
/// [`Error::Interrupted`] when `options.interrupted` was set.
pub fn apply(
    url: &str,
    options: &ConnectOptions,
    plan: &Plan,
    planned: &Topology,
    how: &ApplyOptions<'_>,
    progress: &mut dyn FnMut(&Move, u64),
) -> Result<Applied, Error> {
    let timeout = how.timeout;
    if how.dialect == Some(Dialect::MigrationImport) {
        return Err(Error::PrintedOnly {
            dialect: Dialect::MigrationImport.name().to_owned(),
        });
    }
    let fresh = Topology::fetch(url, options, timeout)?;
    refuse_migrations(&fresh)?;
    let owners = fresh.owners();
    let find = |id: &str| fresh.shards.iter().position(|s| s.primary.id == id);
    let mut steps = Vec::with_capacity(plan.moves.len());
    for m in &plan.moves {
        let (from, to) = (
            &planned.shards[m.from].primary,
            &planned.shards[m.to].primary,
        );
        let now = owners[usize::from(m.slot)].map(|i| &fresh.shards[i].primary);
        match (now, find(&to.id)) {
            (Some(owner), Some(target)) if owner.id == from.id => steps.push(Move {
                from: find(&from.id).expect("the owner is a shard"),
                to: target,
                ..*m
            }),
            _ => {
                return Err(Error::MapChanged {
                    slot: m.slot,
                    planned: format!("{} ({}) -> {} ({})", from.id, from.addr, to.id, to.addr),
                    now: now.map_or_else(
                        || "no owner".to_owned(),
                        |n| format!("owned by {} ({})", n.id, n.addr),
                    ),
                })
            }
        }
    }
    let mut exchange = Exchange::open(url, options, timeout)?;
    let dialect = choose(&mut exchange, &fresh, how.dialect)?.dialect;
    let mut applied = Applied {
        dialect,
        moves: 0,
        keys: 0,
        untold: Vec::new(),
        gone: Vec::new(),
    };
    let nothing = keeps_nothing(&mut exchange, &fresh, &steps, timeout);
    let interrupted = |applied: &Applied| Error::Interrupted {
        done: applied.moves,
        planned: plan.moves.len(),
        keys: applied.keys,
        left: Vec::new(),
    };
    if dialect == Dialect::Migrateslots {
        for ((from, to), ranges) in atomic_jobs(&steps) {
            if how.interrupted.load(Ordering::SeqCst) {
                return Err(interrupted(&applied));
            }
            let (source, target) = (&fresh.shards[from].primary, &fresh.shards[to].primary);
            // the moves of this job
            let of_job = |m: &&Move| {
                (m.from, m.to) == (from, to)
                    && ranges.iter().any(|r| (r.first..=r.last).contains(&m.slot))
            };
            let started = Instant::now();
            let stopped = |reason: String, target_down: Option<String>| Error::AtomicStopped {
                ranges: ranges.clone(),
                from: format!("{} ({})", source.id, source.addr),
                to: format!("{} ({})", target.id, target.addr),
                reason: reason.into(),
                target_down,
                ran_ms: u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
            };
            let end = exchange.primary_endpoint(source)?;
            exchange.deadline = Instant::now() + timeout;
            // an end that does not answer named with its replicas, as a classic stop does
            let said = |e: Error| stopped(end_down(e, &fresh, [from, to]).to_string(), None);
            let mut con = exchange.connect(&end).map_err(said)?;
            match atomic::migrate(&mut exchange, &end, &mut con, &ranges, &target.id, how)
                .map_err(said)?
            {
                atomic::Ended::Moved => {
                    for m in steps.iter().filter(of_job) {
                        applied.moves += 1;
                        applied.keys += m.keys;
                        progress(m, m.keys);
                    }
                    // the target's replicas have the job before the next, or the run stops
                    exchange.deadline = Instant::now() + timeout;
                    let caught_up = exchange
                        .primary_endpoint(target)
                        .and_then(|end| exchange.connect(&end))
                        .and_then(|mut con| {
                            atomic::replicas_caught_up(&mut exchange, &mut con, timeout)
                        });
                    let (behind, waited) = match caught_up {
                        Ok(Ok(())) => continue,
                        Ok(Err((replicas, waited, offset))) => (
                            replicas
                                .into_iter()
                                .map(|r| (r.addr, r.state, r.acked, offset))
                                .collect(),
                            Ok(u64::try_from(waited.as_millis()).unwrap_or(u64::MAX)),
                        ),
                        Err(e) => (Vec::new(), Err(e.what_happened())),
                    };
                    return Err(Error::ReplicasBehind {
                        ranges: ranges.clone(),
                        from: format!("{} ({})", source.id, source.addr),
                        to: format!("{} ({})", target.id, target.addr),
                        behind,
                        waited_ms: waited,
                    });
                }
                atomic::Ended::Interrupted => return Err(interrupted(&applied)),
                atomic::Ended::Stopped(reason) => return Err(stopped(reason, None)),
                // a job the server failed: a target that died fails it, and is named with
                // what brings it back
                atomic::Ended::Failed(reason) => {
                    exchange.deadline = Instant::now() + timeout;
                    let down = exchange
                        .primary_endpoint(target)
                        .and_then(|end| exchange.connect(&end))
                        .err()
                        .and_then(|e| match end_down(e, &fresh, [from, to]) {
                            Error::MoveEndDown {
                                url,
                                id,
                                during,
                                reason,
                                replicas,
                                ..
                            } => Some(super::error::atomic_target_down(
                                &url,
                                &id,
                                &during,
                                &reason,
                                replicas.len(),
                            )),
                            _ => None,
                        });
                    return Err(stopped(reason, down));
                }
                atomic::Ended::Unknown(reason) => {
                    return Err(Error::AtomicUnknown {
                        ranges: ranges.clone(),
                        from: format!("{} ({})", source.id, source.addr),
                        to: format!("{} ({})", target.id, target.addr),
                        reason,
                        replicas: fresh.shards[from].replicas.len(),
                        lost_if_dead: nothing[from]
                            .then(|| steps.iter().filter(of_job).map(|m| m.keys).sum()),
                    })
                }
            }
        }
        return Ok(applied);
    }
    // primaries not of a move that did not take its new owner at once: not asked again
    let mut deaf = vec![false; fresh.shards.len()];
    // every end of every move asked, before the first `CLUSTER SETSLOT`, whether the user
    // may run what the move sends it (once a node and end)
    let mut vetted = vec![Vetted::default(); fresh.shards.len()];
    for m in &steps {
        vet(
            &mut exchange,
            &fresh,
            (m.slot, m.from, m.to, m.keys),
            &mut vetted,
            how,
        )?;
    }
    for m in &steps {
        if how.interrupted.load(Ordering::SeqCst) {
            return Err(interrupted(&applied));
        }
        let moved = move_slot(
            &mut exchange,
            &fresh,
            (m.slot, m.from, m.to),
            &mut deaf,
            how,
            false,
        )
        .map_err(|e| lost_if_dead(e, &fresh, &nothing, m.keys))?;
        applied.moves += 1;
        applied.keys += moved.keys;
        progress(m, moved.keys);
        if let Some(gone) = &moved.gone {
            if gone.stops() {
                return Err(gone.stop(&fresh, (m.from, m.to), (applied.moves, plan.moves.len())));
            }
            applied.gone.push(gone.note());
        }
    }
    applied.untold = fresh
        .shards
        .iter()
        .zip(&deaf)
        .filter(|&(_, &deaf)| deaf)
        .map(|(s, _)| format!("{} ({})", s.primary.id, s.primary.addr))
        .collect();
    Ok(applied)
}

/// The Valkey versions whose atomic slot migration was seen to put writes made during a
/// job into the wrong database on the target when the cluster keeps several databases
/// (`cluster-databases` > 1): the writes of database 0 streamed after the snapshot land in
/// the last database the snapshot selected (`tests/repro/valkey9_asm_lost_writes.py
/// --other-db`, docs/operations.md). Each a prefix of `valkey_version`.
pub const ASM_WRONG_DATABASE: &[&str] = &["9.0.", "9.1."];

/// The dialect [`apply_dialect`] chose, and what the operator must know of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DialectChoice {
    /// The dialect.
    pub dialect: Dialect,
    /// A caution, one line: why the default is the classic dialect on a cluster with
    /// several databases of a Valkey in [`ASM_WRONG_DATABASE`], or the risk the atomic one
    /// runs there when asked for.
    pub caution: Option<String>,
}

/// The dialect [`apply`] carries a plan out in, `wanted` (`--dialect`) or by default:
/// [`Dialect::Migrateslots`] where every primary of the cluster at `url` has `CLUSTER
/// MIGRATESLOTS` (asked by `COMMAND INFO`), [`Dialect::Classic`] elsewhere, and classic too
/// where a primary keeps several databases on a Valkey in [`ASM_WRONG_DATABASE`] (said in
/// [`DialectChoice::caution`], as is the risk when the atomic dialect is asked for there).
/// The one choice for `--apply` and for the script `--format commands` prints.
///
/// # Errors
///
/// What [`Topology::fetch`] gives; [`Error::NoAtomicMigration`] when the atomic dialect is
/// wanted and a primary lacks it; [`Error::PrintedOnly`] for Redis 8.4's; a connection's
/// error.
pub fn apply_dialect(
    url: &str,
    options: &ConnectOptions,
    timeout: Duration,
    wanted: Option<Dialect>,
) -> Result<DialectChoice, Error> {
    let fresh = Topology::fetch(url, options, timeout)?;
    let mut exchange = Exchange::open(url, options, timeout)?;
    choose(&mut exchange, &fresh, wanted)
}

/// [`apply_dialect`] on a map fetched already.
fn choose(
    exchange: &mut Exchange,
    fresh: &Topology,
    wanted: Option<Dialect>,
) -> Result<DialectChoice, Error> {
    let plain = |dialect| DialectChoice {
        dialect,
        caution: None,
    };
    match wanted {
        Some(Dialect::Classic) => return Ok(plain(Dialect::Classic)),
        Some(Dialect::MigrationImport) => {
            return Err(Error::PrintedOnly {
                dialect: Dialect::MigrationImport.name().to_owned(),
            })
        }
        _ => {}
    }
    let mut lacking = None;
    // whether another primary has it: a mixed cluster, whose classic dialect is said
    let mut having = false;
    // a primary of an affected version with several databases: its version and databases
    let mut affected = None;
    for shard in &fresh.shards {
        let end = exchange.primary_endpoint(&shard.primary)?;
        exchange.deadline = Instant::now() + exchange.timeout;
        let mut con = exchange.connect(&end)?;
        if !atomic::has_migrateslots(exchange, &mut con)? {
            lacking = lacking.or(Some(&shard.primary));
            continue;
        }
        having = true;
        let dbs = exchange.databases(&mut con)?;
        if affected.is_none() && dbs > 1 {
            let info = exchange.text(
                &mut con,
                redis::cmd("INFO").arg("server"),
                Budget::SHORT.times(4),
            )?;
            if let Some(version) = super::answers::info_field(&info, "valkey_version")
                .filter(|v| ASM_WRONG_DATABASE.iter().any(|p| v.starts_with(p)))
            {
                affected = Some((crate::text::escape_cut(version.as_bytes()), dbs));
            }
        }
    }
    let risk = |(version, dbs): &(String, u32)| {
        format!(
            "Valkey {version}'s atomic slot migration puts writes made during a job into the wrong database on the target when a cluster keeps several databases (`cluster-databases` {dbs}; docs/operations.md, \"Valkey 9 and several databases\")"
        )
    };
    match (lacking, wanted, affected) {
        (None, None, Some(a)) => Ok(DialectChoice {
            dialect: Dialect::Classic,
            caution: Some(format!(
                "the classic dialect: {}; `--dialect migrateslots` runs the atomic one anyway",
                risk(&a)
            )),
        }),
        (None, _, Some(a)) => Ok(DialectChoice {
            dialect: Dialect::Migrateslots,
            caution: Some(format!(
                "{}: with writes under way, apply with `--dialect classic`",
                risk(&a)
            )),
        }),
        (None, _, None) => Ok(plain(Dialect::Migrateslots)),
        (Some(node), Some(_), _) => Err(Error::NoAtomicMigration {
            node: format!("{} ({})", node.id, node.addr),
        }),
        (Some(node), None, _) if having => Ok(DialectChoice {
            dialect: Dialect::Classic,
            caution: Some(format!(
                "the classic dialect: the primary {} ({}) has no `CLUSTER MIGRATESLOTS`, and atomic slot migration needs Valkey 9.0 or later on every primary",
                node.id, node.addr
            )),
        }),
        (Some(_), None, _) => Ok(plain(Dialect::Classic)),
    }
}

/// What [`vet`] learned of a node, once: whether it was asked as a source (`roles[0]`) and
/// as a target (`roles[1]`), and its version (`None` before it was asked; `Some(None)` where
/// `INFO server` gave none).
#[derive(Clone, Debug, Default)]
pub(super) struct Vetted {
    roles: [bool; 2],
    version: Option<Option<Version>>,
}

/// The commands a classic move sends as the user, each as shown and as sent, on the source
/// (`[0]`) and on the target (`[1]`), for [`vet`]'s `ACL DRYRUN`. The source: `CLUSTER
/// SETSLOT`, `CLUSTER COUNTKEYSINSLOT` (what bounds its listing: `Listed`), `CLUSTER
/// GETKEYSINSLOT`, `MIGRATE`, `CONFIG GET cluster-databases` (the
/// databases whose keys move: refused, it is taken for one), and `DUMP` and `DEL` where a
/// key is on both nodes ([`resolve_busy`]); `INFO replication` where the last `SETSLOT NODE` of
/// its last slot is refused (it turned replica). The target: `CLUSTER SETSLOT`; what `MIGRATE` sends there as
/// the same user, `SELECT` then `RESTORE-ASKING` (after `AUTH`, which needs no grant: so
/// measured on Redis 7.0, Valkey 8.0 and 9.1, whose target runs the `RESTORE-ASKING`s even
/// when it refused the `SELECT`); `ASKING` and `DUMP` where a key is on both nodes; `CLUSTER
/// COUNTKEYSINSLOT` when a refused move is undone ([`undo`]). The names are those of
/// [`crate::rights::MOVE_SOURCE`] and [`crate::rights::MOVE_TARGET`], which own the list (a
/// test compares them).
fn move_commands(
    (slot, batch): (&str, &str),
    (source_id, target_id): (&str, &str),
    (host, port, ms): (&str, &str, &str),
) -> [Vec<(&'static str, Vec<String>)>; 2] {
    let words = |w: &[&str]| w.iter().map(|&w| w.to_owned()).collect::<Vec<String>>();
    [
        vec![
            (
                "CLUSTER SETSLOT",
                words(&["CLUSTER", "SETSLOT", slot, "MIGRATING", target_id]),
            ),
            (
                "CLUSTER COUNTKEYSINSLOT",
                words(&["CLUSTER", "COUNTKEYSINSLOT", slot]),
            ),
            (
                "CLUSTER GETKEYSINSLOT",
                words(&["CLUSTER", "GETKEYSINSLOT", slot, batch]),
            ),
            (
                "MIGRATE",
                words(&["MIGRATE", host, port, "", "0", ms, "KEYS"]),
            ),
            ("CONFIG GET", words(&["CONFIG", "GET", "cluster-databases"])),
            ("DUMP", words(&["DUMP", "{}"])),
            ("DEL", words(&["DEL", "{}"])),
            ("INFO replication", words(&["INFO", "replication"])),
        ],
        vec![
            (
                "CLUSTER SETSLOT",
                words(&["CLUSTER", "SETSLOT", slot, "IMPORTING", source_id]),
            ),
            ("SELECT", words(&["SELECT", "0"])),
            ("RESTORE-ASKING", words(&["RESTORE-ASKING", "{}", "0", ""])),
            ("ASKING", words(&["ASKING"])),
            ("DUMP", words(&["DUMP", "{}"])),
            (
                "CLUSTER COUNTKEYSINSLOT",
                words(&["CLUSTER", "COUNTKEYSINSLOT", slot]),
            ),
        ],
    ]
}

/// Before the first `CLUSTER SETSLOT` of a plan, for its move of `slot` from shard `from` to
/// shard `to` of `topology`, once a node (`vetted[node]`):
///
/// - asks each end its version (`INFO server`) and refuses a move of a slot with keys
///   (`keys`, as planned) whose target runs an older major or minor version than its source
///   ([`can_move`], the rule the planner follows too), which cannot read the source's `DUMP`
///   payloads: `MIGRATE` would fail at every key, the slot half moved;
/// - asks each end by `ACL DRYRUN` (Redis 7.0 and later) whether the user may run the
///   commands the move sends it ([`move_commands`]), once as a source and once as a target.
///   `ACL DRYRUN` needs a permission of its own (`acl|dryrun`, which a user granted only
///   what a move needs lacks: so measured on Redis 7.0, Valkey 8.0 and 9.1): a node that
///   refuses it, or does not know it, is not asked again, and a refusal at the step itself
///   is undone instead ([`move_slot`]). Only a command refused counts: a key the user may
///   not touch is judged at the step, on the slot's real keys.
///
/// A node that does not give its version (`INFO` refused) is not compared; `MIGRATE`'s
/// failure is then undone at the step.
///
/// # Errors
///
/// [`Error::MoveStopped`] naming that move, with nothing set: [`Error::OlderTarget`] naming
/// both versions, [`Error::NoPermission`] naming the command refused, or the error of the
/// exchange.
fn vet(
    exchange: &mut Exchange,
    topology: &Topology,
    (slot, from, to, keys): (u16, usize, usize, u64),
    vetted: &mut [Vetted],
    how: &ApplyOptions<'_>,
) -> Result<(), Error> {
    let (source, target) = (&topology.shards[from].primary, &topology.shards[to].primary);
    let (host, port) = split_addr(&target.addr).unwrap_or_default();
    let port = port.to_string();
    let (slot_text, batch) = (slot.to_string(), how.batch.to_string());
    let ms = migrate_timeout(how.timeout).as_millis().to_string();
    let user = exchange.endpoint.user().to_owned();
    let commands = move_commands(
        (&slot_text, &batch),
        (&source.id, &target.id),
        (host, &port, &ms),
    );
    let stop = |step: &str, error: Error, repair: String| Error::MoveStopped {
        slot,
        keys: 0,
        from: format!("{} ({})", source.id, source.addr),
        to: format!("{} ({})", target.id, target.addr),
        step: format!("{step}, before the first `CLUSTER SETSLOT`"),
        repair,
        error: Box::new(end_down(error, topology, [from, to])),
    };
    let nothing_set = || {
        "no key moved and nothing was set: the next `slotgen rebalance --apply` moves it".to_owned()
    };
    for (role, ((i, node, end), commands)) in [(from, source, "source"), (to, target, "target")]
        .into_iter()
        .zip(commands)
        .enumerate()
    {
        if vetted[i].roles[role] && vetted[i].version.is_some() {
            continue;
        }
        let endpoint = exchange.primary_endpoint(node)?;
        exchange.deadline = Instant::now() + how.timeout;
        let dryrun = format!("`ACL DRYRUN` on the {end}");
        let mut con = exchange
            .connect(&endpoint)
            .map_err(|e| stop(&dryrun, e, nothing_set()))?;
        if vetted[i].version.is_none() {
            exchange.deadline = Instant::now() + how.timeout;
            con.set_deadline(Some(exchange.deadline));
            let info = redis::cmd("INFO").arg("server").clone();
            vetted[i].version = Some(
                match exchange.text(&mut con, &info, Budget::SHORT.times(4)) {
                    Ok(text) => Version::of(&text),
                    Err(Error::Refused { .. } | Error::NoPermission { .. }) => None,
                    Err(e) => {
                        return Err(stop(
                            &format!("`INFO server` on the {end}"),
                            e,
                            nothing_set(),
                        ))
                    }
                },
            );
        }
        if vetted[i].roles[role] {
            continue;
        }
        vetted[i].roles[role] = true;
        // every command this end refuses, named together
        let mut refused = Vec::new();
        for (shown, words) in commands {
            let mut cmd = redis::cmd("ACL");
            cmd.arg("DRYRUN").arg(user.as_str());
            for word in &words {
                cmd.arg(word.as_str());
            }
            exchange.deadline = Instant::now() + how.timeout;
            con.set_deadline(Some(exchange.deadline));
            let answer = match exchange.query(&mut con, &cmd, Budget::SHORT) {
                Ok(Value::SimpleString(s)) => s,
                Ok(Value::BulkString(b)) => String::from_utf8_lossy(&b).into_owned(),
                Ok(_) => continue,
                // not allowed `ACL DRYRUN`, or a server without it: the step will tell
                Err(Error::Refused { .. } | Error::NoPermission { .. }) => break,
                Err(e) => return Err(stop(&dryrun, e, nothing_set())),
            };
            // `OK`; or `This user has no permissions to run the 'migrate' command` (Redis
            // 7.0), `User op has no permissions to run ...` (Valkey); a key's or a channel's
            // refusal (`... to access the '' key`) is left to the step
            if answer.ends_with(" command") {
                refused.push(shown);
            }
        }
        if !refused.is_empty() {
            return Err(stop(
                &dryrun,
                Error::NoPermission {
                    url: con.url().to_owned(),
                    denied: Denied::each(&user, &refused),
                },
                undone(
                    slot,
                    &source.addr,
                    &target.addr,
                    SetHere::default(),
                    GRANTED_AGAIN,
                ),
            ));
        }
    }
    let known = |i: usize| vetted[i].version.as_ref().and_then(Option::as_ref);
    let (ours, theirs) = (known(from), known(to));
    if let (false, Some(ours), Some(theirs)) = (can_move(keys, ours, theirs), ours, theirs) {
        {
            return Err(stop(
                "`INFO server` on both ends",
                Error::OlderTarget {
                    from_version: ours.shown.clone(),
                    to_version: theirs.shown.clone(),
                },
                older_target(&target.addr, ours),
            ));
        }
    }
    Ok(())
}

/// What a move refused for its target's older version says: nothing was set, and the ways
/// out (measured: `tests/tests/it/cluster_apply.rs`, the mixed cluster).
fn older_target(to: &str, source: &Version) -> String {
    format!(
        "no key moved and nothing was set: {}, or plan again (`slotgen rebalance` plans no move of a slot with keys to an older server)",
        source.upgrade_first(to)
    )
}

/// What a move undone after a refusal for permission says will move it.
const GRANTED_AGAIN: &str = "once granted, `slotgen rebalance --apply` moves it";

/// What [`move_slot`] did: the keys `MIGRATE` carried, and the keys found on both nodes
/// whose source copy it deleted.
pub(super) struct Moved {
    pub(super) keys: u64,
    pub(super) resolved: Vec<String>,
    /// The keys that left the source otherwise than by `MIGRATE`, where any did.
    pub(super) gone: Option<Gone>,
}

/// The classic sequence for one slot, from shard `from` to shard `to` of `topology`. With
/// `resume`, a slot that a former run left half moved: a target that owns the slot already
/// is not set importing, a source that no longer owns it has no keys to give.
pub(super) fn move_slot(
    exchange: &mut Exchange,
    topology: &Topology,
    (slot, from, to): (u16, usize, usize),
    deaf: &mut [bool],
    how: &ApplyOptions<'_>,
    resume: bool,
) -> Result<Moved, Error> {
    let (batch, timeout) = (how.batch, how.timeout);
    let (source, target) = (&topology.shards[from].primary, &topology.shards[to].primary);
    let (source_end, target_end) = (
        exchange.primary_endpoint(source)?,
        exchange.primary_endpoint(target)?,
    );
    // a stop with the keys of the slot carried before it (all of them at `Step::Node`)
    let stopped_with = |step: Step, keys: u64, error: Error| Error::MoveStopped {
        slot,
        keys,
        from: format!("{} ({})", source.id, source.addr),
        to: format!("{} ({})", target.id, target.addr),
        repair: without_replicas(&error, &target.addr)
            .map(|first| format!("{first}; then "))
            .unwrap_or_default()
            + &repair(slot, &source.addr, &target.addr, &target.id, step),
        step: describe(
            step,
            refused_other(&error, (&source_end.shown, &target_end.shown)).as_deref(),
        ),
        error: Box::new(end_down(error, topology, [from, to])),
    };
    let stopped = |step: Step, error: Error| {
        let keys = match step {
            Step::Keys(n) | Step::BusyKey(n) => n,
            _ => 0,
        };
        stopped_with(step, keys, error)
    };
    // each step with its own deadline: a connection, or one command
    let open = |exchange: &mut Exchange, end: &Endpoint| {
        exchange.deadline = Instant::now() + timeout;
        exchange.connect(end)
    };
    let run = |exchange: &mut Exchange, con: &mut Connection, cmd: &redis::Cmd, budget: Budget| {
        exchange.deadline = Instant::now() + timeout;
        con.set_deadline(Some(exchange.deadline));
        exchange.query(con, cmd, budget)
    };
    let setslot = |state: &str, id: &str| {
        let mut cmd = redis::cmd("CLUSTER");
        cmd.arg("SETSLOT").arg(slot).arg(state).arg(id);
        cmd
    };
    // what a resumed move may meet: the step done already
    let done_before = |e: &Error, says: &str| {
        resume && matches!(e, Error::Refused { reason, .. } if reason.contains(says))
    };
    // a step refused for permission, or a `MIGRATE` whose target cannot read the source's
    // `DUMP` payloads, before any key of a slot this run began to move moved: the states
    // this run set are undone, and the stop says the slot is as it was
    let halt = |exchange: &mut Exchange,
                (source_con, target_con): (Option<&mut Connection>, Option<&mut Connection>),
                (set, databases, moved_any): (SetHere, u32, bool),
                step: Step,
                e: Error| {
        // `MIGRATE`'s report of the target's own error, whose keys may be there
        let through_migrate = matches!(&e, Error::Refused { command, reason, .. }
            if command == "MIGRATE" && reason.contains("Target instance replied with error"));
        let unreadable = matches!(&e, Error::Refused { command, reason, .. }
            if command == "MIGRATE" && reason.contains("DUMP payload version or checksum are wrong"));
        // the command refused, where a node refused one of its own (`SELECT`), not `MIGRATE`
        let other = refused_other(&e, (&source_end.shown, &target_end.shown));
        let e = target_refusal(e, &target_end.shown, exchange.endpoint.user());
        // `NOPERM` from the node, or from the target through `MIGRATE` (`ERR Target instance
        // replied with error: NOPERM ...`: a key pattern may have let some keys through,
        // which `undo` sees on the target, and then leaves the slot to be finished)
        let refused = match &e {
            Error::NoPermission { .. } => true,
            Error::Refused {
                command, reason, ..
            } => command == "MIGRATE" && reason.contains("NOPERM"),
            _ => false,
        } || unreadable;
        if resume || moved_any || !refused {
            return stopped(step, e);
        }
        let (step, repair) = match undo(
            exchange,
            (source_con, target_con),
            (slot, &source.id),
            set,
            databases,
            (timeout, through_migrate),
        ) {
            Ok(()) => (
                describe_refused(step, other.as_deref()),
                undone(
                    slot,
                    &source.addr,
                    &target.addr,
                    set,
                    &if unreadable {
                        format!("the target cannot read the source's `DUMP` payloads (it runs an older server): upgrade {} first, or plan again (`slotgen rebalance` plans no move of a slot with keys to an older server)", target.addr)
                    } else {
                        GRANTED_AGAIN.to_owned()
                    },
                ),
            ),
            Err(why) => (
                describe(step, other.as_deref()),
                format!(
                    "{}{} (it was not undone: {why})",
                    if unreadable { "" } else { "once granted, " },
                    repair(slot, &source.addr, &target.addr, &target.id, step)
                ),
            ),
        };
        Error::MoveStopped {
            slot,
            keys: 0,
            from: format!("{} ({})", source.id, source.addr),
            to: format!("{} ({})", target.id, target.addr),
            step,
            error: Box::new(e),
            repair,
        }
    };
    let mut set = SetHere::default();

    let mut target_con = match open(exchange, &target_end) {
        Ok(con) => con,
        Err(e) => {
            return Err(halt(
                exchange,
                (None, None),
                (set, 0, false),
                Step::Importing,
                e,
            ))
        }
    };
    match run(
        exchange,
        &mut target_con,
        &setslot("IMPORTING", &source.id),
        Budget::SHORT,
    ) {
        Ok(_) => set.importing = true,
        Err(e) if !done_before(&e, "already the owner") => {
            return Err(halt(
                exchange,
                (None, Some(&mut target_con)),
                (set, 0, false),
                Step::Importing,
                e,
            ))
        }
        Err(_) => {}
    }
    let mut source_con = match open(exchange, &source_end) {
        Ok(con) => con,
        Err(e) => {
            return Err(halt(
                exchange,
                (None, Some(&mut target_con)),
                (set, 0, false),
                Step::Migrating,
                e,
            ))
        }
    };
    let source_owns = match run(
        exchange,
        &mut source_con,
        &setslot("MIGRATING", &target.id),
        Budget::SHORT,
    ) {
        Ok(_) => {
            set.migrating = true;
            true
        }
        Err(e) if done_before(&e, "not the owner") => false,
        Err(e) => {
            return Err(halt(
                exchange,
                (Some(&mut source_con), Some(&mut target_con)),
                (set, 0, false),
                Step::Migrating,
                e,
            ))
        }
    };

    let (to_host, to_port) = split_addr(&target.addr).expect("checked by primary_endpoint");
    let keys_budget = Budget {
        bytes: batch
            .saturating_mul(MAX_MIGRATED_KEY_BYTES + 16)
            .saturating_add(16),
        values: batch.saturating_add(1),
        string: MAX_MIGRATED_KEY_BYTES,
    };
    let (user, password) = (
        exchange.endpoint.info.redis.username.clone(),
        exchange.endpoint.password.clone(),
    );
    let mut moved = Moved {
        keys: 0,
        resolved: Vec::new(),
        gone: None,
    };
    // what the source counted of the slot and listed, over every database (see `Gone`)
    let mut tally = (0u64, 0u64);
    let databases = if source_owns {
        // a refusal here is no reason to take one database: the others' keys would stay
        match exchange.databases_to_move(&mut source_con) {
            Ok(n) => n,
            Err(e) => {
                return Err(halt(
                    exchange,
                    (Some(&mut source_con), Some(&mut target_con)),
                    (set, 0, false),
                    Step::Databases,
                    e,
                ))
            }
        }
    } else {
        0
    };
    // whether a key of the slot moved (by `MIGRATE`, or a copy on both nodes resolved)
    let moved_any = |moved: &Moved| moved.keys > 0 || !moved.resolved.is_empty();
    let began = Instant::now();
    // the keys moved to the target in a database gone from it ([`target_lost`])
    let lost_on_target = |exchange: &mut Exchange, db: u32, moved: u64| {
        exchange.deadline = Instant::now() + timeout;
        target_lost(
            exchange,
            &target_end,
            (slot, db, databases > 1),
            moved,
            began.elapsed(),
        )
    };
    // its stop, the summary counting what the target holds, not what was sent to it
    let lost_stop = |sent: u64, lost: Error| {
        let gone = match &lost {
            Error::TargetLostKeys { moved, held, .. } => moved.saturating_sub(*held),
            _ => 0,
        };
        stopped_with(Step::Keys(sent), sent.saturating_sub(gone), lost)
    };
    'databases: for db in 0..databases {
        let moved_before = moved.keys;
        if databases > 1 {
            let selected = run(exchange, &mut source_con, &select(db), Budget::SHORT)
                .and_then(|_| run(exchange, &mut target_con, &select(db), Budget::SHORT));
            if let Err(e) = selected {
                return Err(halt(
                    exchange,
                    (Some(&mut source_con), Some(&mut target_con)),
                    (set, databases, moved_any(&moved)),
                    Step::Keys(moved.keys),
                    e,
                ));
            }
        }
        // what the source counts now bounds what it lists (see `Listed`)
        let counted = {
            exchange.deadline = Instant::now() + timeout;
            source_con.set_deadline(Some(exchange.deadline));
            count_keys_in(exchange, &mut source_con, &[slot])
        };
        let mut listed = match counted {
            Ok(counted) => Listed::new(slot, db, counted.first().map_or(0, |&(_, n)| n)),
            Err(e) => {
                return Err(halt(
                    exchange,
                    (Some(&mut source_con), Some(&mut target_con)),
                    (set, databases, moved_any(&moved)),
                    Step::Keys(moved.keys),
                    e,
                ))
            }
        };
        loop {
            let mut get = redis::cmd("CLUSTER");
            get.arg("GETKEYSINSLOT").arg(slot).arg(batch);
            let answer = match run(exchange, &mut source_con, &get, keys_budget) {
                Ok(answer) => answer,
                Err(e) => {
                    return Err(halt(
                        exchange,
                        (Some(&mut source_con), Some(&mut target_con)),
                        (set, databases, moved_any(&moved)),
                        Step::Keys(moved.keys),
                        e,
                    ))
                }
            };
            let keys = match answer {
                Value::Array(keys) => keys,
                other => {
                    return Err(stopped(
                        Step::Keys(moved.keys),
                        Error::Malformed {
                            url: source_end.shown.clone(),
                            command: "CLUSTER GETKEYSINSLOT".to_owned(),
                            reason: crate::text::reason(&format!(
                                "not an array of keys: {}",
                                crate::transport::describe(&other)
                            )),
                        },
                    ))
                }
            };
            if keys.is_empty() {
                break;
            }
            let mut names = Vec::with_capacity(keys.len());
            for key in keys {
                match key {
                    Value::BulkString(bytes) => names.push(bytes),
                    other => {
                        return Err(stopped(
                            Step::Keys(moved.keys),
                            Error::Malformed {
                                url: source_end.shown.clone(),
                                command: "CLUSTER GETKEYSINSLOT".to_owned(),
                                reason: crate::text::reason(&format!(
                                    "a key that is not a string: {}",
                                    crate::transport::describe(&other)
                                )),
                            },
                        ))
                    }
                }
            }
            if let Err(reason) = listed.check(&names) {
                return Err(stopped(
                    Step::Keys(moved.keys),
                    Error::Malformed {
                        url: source_end.shown.clone(),
                        command: "CLUSTER GETKEYSINSLOT".to_owned(),
                        reason,
                    },
                ));
            }
            let mut migrate = redis::cmd("MIGRATE");
            migrate
                .arg(to_host)
                .arg(to_port)
                .arg("")
                .arg(db)
                .arg(migrate_timeout(timeout).as_millis() as u64);
            match (&user, &password) {
                (Some(user), Some(password)) => {
                    migrate.arg("AUTH2").arg(user).arg(password);
                }
                (None, Some(password)) => {
                    migrate.arg("AUTH").arg(password);
                }
                _ => {}
            }
            migrate.arg("KEYS");
            for name in &names {
                migrate.arg(name.as_slice());
            }
            match run(exchange, &mut source_con, &migrate, Budget::SHORT) {
                Ok(_) => moved.keys += names.len() as u64,
                Err(e @ Error::Refused { .. }) if e.to_string().contains("BUSYKEY") => {
                    let resolved = resolve_busy(
                        exchange,
                        (&mut source_con, &mut target_con),
                        &names,
                        db,
                        (source, target),
                        slot,
                        timeout,
                    )
                    .map_err(|e| match e {
                        e @ Error::KeyOnBothNodes { .. } => stopped(Step::BusyKey(moved.keys), e),
                        // a `DUMP` or `DEL` that got no answer (the server may have deleted
                        // the source's copy): the next run compares the copies again
                        e => stopped(Step::Keys(moved.keys), e),
                    })?;
                    if resolved.keys.is_empty() {
                        return Err(stopped(Step::BusyKey(moved.keys), e));
                    }
                    // the server moved the batch's other keys (it answers the first
                    // refusal and deletes each key the target took)
                    moved.keys += resolved.carried;
                    moved.resolved.extend(resolved.keys);
                }
                // another client gave the target the slot (`CLUSTER SETSLOT s NODE`): the
                // source serves none of it now, and what it did not carry is `Gone`'s
                Err(e) if moved_to(&e, slot, &target.addr) => {
                    listed.not_carried(names.len());
                    tally = (tally.0 + listed.counted, tally.1 + listed.listed);
                    break 'databases;
                }
                Err(e) => {
                    let e = through_dead_target(exchange, &target_end, e, timeout);
                    return Err(halt(
                        exchange,
                        (Some(&mut source_con), Some(&mut target_con)),
                        (set, databases, moved_any(&moved)),
                        Step::Keys(moved.keys),
                        e,
                    ));
                }
            }
        }
        tally = (tally.0 + listed.counted, tally.1 + listed.listed);
        // the keys moved are on the target: one started again without its data during the
        // move, and back before the source's next `MIGRATE`, holds fewer
        if let Some(lost) = lost_on_target(exchange, db, moved.keys - moved_before) {
            return Err(lost_stop(moved.keys, lost));
        }
    }
    // before this run's own `SETSLOT NODE`: keys that left the source otherwise, and who
    // the source says owns the slot now
    exchange.deadline = Instant::now() + timeout;
    source_con.set_deadline(Some(exchange.deadline));
    moved.gone = Gone::after_listing(exchange, &mut source_con, slot, &source.id, tally);
    run(
        exchange,
        &mut target_con,
        &setslot("NODE", &target.id),
        Budget::SHORT,
    )
    .map_err(|e| stopped_with(Step::Node(true), moved.keys, e))?;
    match run(
        exchange,
        &mut source_con,
        &setslot("NODE", &target.id),
        Budget::SHORT,
    ) {
        // the source gave its last slot away and became a replica of the target on its own
        // (Redis 7's `cluster-allow-replica-migration`, on by default: a drained primary
        // follows the node that took its last slot), so it knows the owner already and, a
        // replica, takes no `SETSLOT`: what `INFO replication` says (`+info`, which every
        // run's grant holds; `ROLE` needed a grant of its own, refused to a user with the
        // docs' grant), not the message alone. Valkey 9.1 turns it replica inside that
        // `SETSLOT` and then answers `NOREPLICAS` (it waits for its replicas to take the
        // `SETSLOT`, as a replica it has none): measured on a drain's last slot, where the
        // stop said the source "stopped answering". Valkey 8.0, its `SETSLOT` blocked
        // for its replica's acknowledgement, answers `UNBLOCKED force unblock from blocking
        // operation, instance state changed (master -> replica?)` when it turns replica
        // meanwhile (a tester's drain of a primary with a replica stopped there, the slot
        // moved)
        //
        // After a failover of the drained source (its replica taken over, the former
        // primary its replica), Valkey 8.0's `UNBLOCKED` came with the source a replica, but
        // not of the target by `INFO replication` for 2 s (measured twice in
        // `a_drained_source_restarted_empty_names_the_drain_of_its_replica_to_run`): a
        // replica owns no slot, and the target took this one by its own `SETSLOT NODE`
        // (above, with a new epoch), so a replica of any primary there has given it away.
        // Asked on a new connection: the server may close the one it unblocked.
        Err(Error::Refused { reason, .. })
            if ((reason.contains("only with masters") || reason.starts_with("NOREPLICAS"))
                && turned_replica_of(exchange, &mut source_con, Some(&target.addr)))
                || (reason.starts_with("UNBLOCKED")
                    && open(exchange, &source_end)
                        .is_ok_and(|mut con| turned_replica_of(exchange, &mut con, None))) => {}
        r => {
            r.map_err(|e| stopped_with(Step::Node(false), moved.keys, e))?;
        }
    }
    // the other primaries learn the new owner by the cluster bus too (the target's epoch
    // was bumped); telling them at once spares clients a redirection, and one that does not
    // answer is no reason to stop (nor to wait for it again at the next slot)
    for (i, shard) in topology.shards.iter().enumerate() {
        if i == from || i == to || deaf[i] {
            continue;
        }
        let told = exchange
            .primary_endpoint(&shard.primary)
            .and_then(|end| open(exchange, &end))
            .and_then(|mut con| {
                run(
                    exchange,
                    &mut con,
                    &setslot("NODE", &target.id),
                    Budget::SHORT,
                )
            });
        deaf[i] = told.is_err();
    }
    Ok(moved)
}

/// [`Error::TargetLostKeys`] where the target at `end` holds fewer keys of `slot` in `db`
/// (selected where `select`) than the `moved` this move carried there, and started again
/// within `took` (`INFO server`: `uptime_in_seconds`), asked on a connection of its own
/// (the move's may be the one a restart closed). `None` where it holds them, where fewer
/// are there but it did not start again (a client may delete keys of an importing slot on
/// the target, by `ASK`), and where it cannot be asked (the next step meets that).
fn target_lost(
    exchange: &mut Exchange,
    end: &Endpoint,
    (slot, db, select_db): (u16, u32, bool),
    moved: u64,
    took: Duration,
) -> Option<Error> {
    if moved == 0 {
        return None;
    }
    let mut con = exchange.connect(end).ok()?;
    if select_db {
        exchange.query(&mut con, &select(db), Budget::SHORT).ok()?;
    }
    let held = count_keys_in(exchange, &mut con, &[slot])
        .ok()?
        .first()
        .map_or(0, |&(_, n)| n);
    if held >= moved {
        return None;
    }
    let server = exchange
        .text(&mut con, redis::cmd("INFO").arg("server"), Budget::SHORT)
        .ok()?;
    let uptime: u64 = crate::answers::info_field(&server, "uptime_in_seconds")?
        .parse()
        .ok()?;
    (uptime <= took.as_secs()).then(|| Error::TargetLostKeys {
        url: end.shown.clone(),
        db,
        moved,
        held,
        uptime,
    })
}

/// Whether an `INFO replication` answer is a replica's (`role:slave`) of the node at
/// `addr` (`host:port`: `master_host`, `master_port`).
/// Whether the node of `con` says it replicates `addr` (any primary where `None`: `INFO
/// replication`'s `role:slave`), asked up to 20
/// times 100 ms apart: a node that turned replica inside a blocked `CLUSTER SETSLOT` may
/// say so a moment after it answered it (a drain's resumed run on Valkey 8.0 stopped at its
/// last slot on `UNBLOCKED`, its one `INFO replication` not yet a replica's).
fn turned_replica_of(exchange: &Exchange, con: &mut Connection, addr: Option<&str>) -> bool {
    for _ in 0..20 {
        match exchange.text(con, redis::cmd("INFO").arg("replication"), Budget::SHORT) {
            Ok(info)
                if addr.map_or_else(
                    || crate::answers::info_field(&info, "role") == Some("slave"),
                    |addr| replica_of(&info, addr),
                ) =>
            {
                return true
            }
            Ok(_) => std::thread::sleep(Duration::from_millis(100)),
            Err(_) => return false,
        }
    }
    false
}

fn replica_of(info: &str, addr: &str) -> bool {
    use crate::answers::info_field;
    info_field(info, "role") == Some("slave")
        && split_addr(addr).is_some_and(|(host, port)| {
            info_field(info, "master_host") == Some(host)
                && info_field(info, "master_port") == Some(port.to_string().as_str())
        })
}

/// The keys a source lists of a slot it gives away, in one database, checked batch by batch
/// before `MIGRATE` sends them, so that the move ends whatever the source answers. A slot
/// migrating on its source takes no new key there (a command naming a key the source lacks
/// is answered `ASK`, the Redis Cluster specification, "ASK redirection"), and every key of
/// a batch leaves the source (`MIGRATE` deletes what it carried; a key on both nodes is
/// resolved or stops the move): so the keys listed over the whole move are at most the
/// `CLUSTER COUNTKEYSINSLOT` the source gave once the slot was migrating, and no key is
/// listed twice. A key of another slot (by [`REDIS_CLUSTER`](slotgen_tables::REDIS_CLUSTER),
/// the rule the servers hash by) is never moved as this slot's.
struct Listed {
    slot: u16,
    db: u32,
    /// The source's count of the slot's keys, once the slot was migrating.
    counted: u64,
    /// Keys listed so far.
    listed: u64,
    /// The batch before: the keys `MIGRATE` carried last.
    last: Vec<Vec<u8>>,
}

impl Listed {
    fn new(slot: u16, db: u32, counted: u64) -> Self {
        Self {
            slot,
            db,
            counted,
            listed: 0,
            last: Vec::new(),
        }
    }

    /// Takes the next batch `keys`, or says (escaped) why the source's listing makes no
    /// sense: a key of another slot, a key listed again after `MIGRATE` carried it, or more
    /// keys than it counted.
    fn check(&mut self, keys: &[Vec<u8>]) -> Result<(), String> {
        let (slot, db) = (self.slot, self.db);
        let shown = |key: &[u8]| crate::text::escape_cut(key);
        if let Some(key) = keys
            .iter()
            .find(|k| slotgen_tables::REDIS_CLUSTER.key_slot(k) != slot)
        {
            return Err(format!(
                "asked for the keys of slot {slot} (database {db}), it listed `{}`, a key of slot {}; no key was moved for that batch",
                shown(key),
                slotgen_tables::REDIS_CLUSTER.key_slot(key)
            ));
        }
        if let Some(key) = keys.iter().find(|k| self.last.contains(k)) {
            return Err(format!(
                "it listed `{}` of slot {slot} (database {db}) again after `MIGRATE` answered that it moved it",
                shown(key)
            ));
        }
        self.listed = self.listed.saturating_add(keys.len() as u64);
        if self.listed > self.counted {
            return Err(format!(
                "it listed {} keys of slot {slot} (database {db}), more than the {} its `CLUSTER COUNTKEYSINSLOT {slot}` gave once the slot was migrating, when it takes no new key of the slot",
                self.listed, self.counted
            ));
        }
        self.last = keys.to_vec();
        Ok(())
    }

    /// The last batch's `n` keys, which `MIGRATE` did not carry (the source answered that the
    /// slot is the target's): listed no longer.
    fn not_carried(&mut self, n: usize) {
        self.listed = self.listed.saturating_sub(n as u64);
    }
}

/// Whether `e` is the source's `MIGRATE` answered `MOVED slot addr`, naming the target at
/// `addr`: the source learned (by the target's newer epoch) that the target owns the slot,
/// which another client's `CLUSTER SETSLOT slot NODE` gave it during the move (measured on
/// Valkey 8.0: the listing's last batch, sent as the source learned it, answered so).
fn moved_to(e: &Error, slot: u16, addr: &str) -> bool {
    matches!(e, Error::Refused { command, moved: Some((s, node)), .. }
        if command == "MIGRATE" && *s == slot && node == addr)
}

/// The keys of a slot that left its source during the move otherwise than by `MIGRATE`:
/// the source counted `counted` once the slot was migrating (`Listed`), and its listing
/// ended after `listed`, so `counted - listed` left it some other way: expired, deleted by
/// clients, or deleted by the server itself when another node took the slot (a server that
/// learns, by a newer epoch, that it lost a slot deletes its keys there, `Deleting keys in
/// dirty slot` in its log: measured on Redis 7.0 and Valkey 8.0 after a `CLUSTER SETSLOT s
/// NODE target` sent to the target by hand 50 ms into the move; Redis 7.0 does not
/// replicate that delete).
///
/// The rule ([`Gone::stops`]): the run stops (exit 1) after the slot is finished when
/// another node took the slot, or when more than [`GONE_NOTED_PERCENT`]% of the keys
/// counted and more than [`GONE_NOTED_KEYS`] left so; fewer is what expiry does to a
/// slot being moved, said in a note ([`Applied::gone`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Gone {
    slot: u16,
    counted: u64,
    listed: u64,
    /// The owner the source gave before this run's `SETSLOT NODE`, `id (addr)`, where it
    /// was not the source.
    taken_by: Option<String>,
}

/// At most this many keys of a slot may leave its source otherwise during a move for the
/// run to go on (with a note), whatever the percentage ([`Gone`]).
pub(super) const GONE_NOTED_KEYS: u64 = 10;

/// At most this percentage of a slot's keys may leave its source otherwise during a move
/// for the run to go on (with a note), whatever the count ([`Gone`]).
pub(super) const GONE_NOTED_PERCENT: u64 = 1;

impl Gone {
    /// What a listing that ended says, `tally` being the keys counted and listed over every
    /// database: `None` where every key counted was listed; otherwise the source is asked
    /// (`CLUSTER NODES`, of the map's grant, which every run needs) who owns `slot`, an
    /// answer that fails or names the source (`source_id`) taken as the source.
    fn after_listing(
        exchange: &mut Exchange,
        source_con: &mut Connection,
        slot: u16,
        source_id: &str,
        (counted, listed): (u64, u64),
    ) -> Option<Gone> {
        if listed >= counted {
            return None;
        }
        let nodes = redis::cmd("CLUSTER").arg("NODES").clone();
        let taken_by = exchange
            .text(source_con, &nodes, crate::exchange::CLUSTER_NODES)
            .ok()
            .and_then(|text| crate::answers::owner_in_nodes(&text, slot))
            .filter(|owner| !owner.starts_with(&format!("{source_id} ")));
        Some(Gone {
            slot,
            counted,
            listed,
            taken_by,
        })
    }

    /// The keys that left otherwise.
    fn count(&self) -> u64 {
        self.counted - self.listed
    }

    /// Whether the run stops at it (the type's docs).
    fn stops(&self) -> bool {
        let gone = self.count();
        self.taken_by.is_some()
            || (gone > GONE_NOTED_KEYS
                && gone.saturating_mul(100) > self.counted.saturating_mul(GONE_NOTED_PERCENT))
    }

    /// The note of a slot the run goes on after.
    fn note(&self) -> String {
        format!(
            "slot {}: {} of the {} keys its source counted once it was migrating left it otherwise than by `MIGRATE` (expired, or deleted by clients): no more than {GONE_NOTED_KEYS}, or {GONE_NOTED_PERCENT}% of the slot, so the run went on",
            self.slot,
            self.count(),
            self.counted
        )
    }

    /// The stop, after the move of `(from, to)` in `topology`, `done` of `planned` moves.
    fn stop(
        &self,
        topology: &Topology,
        (from, to): (usize, usize),
        (done, planned): (usize, usize),
    ) -> Error {
        let (source, target) = (&topology.shards[from].primary, &topology.shards[to].primary);
        Error::KeysGone(Box::new(crate::error::KeysGone {
            slot: self.slot,
            from: format!("{} ({})", source.id, source.addr),
            to: format!("{} ({})", target.id, target.addr),
            counted: self.counted,
            moved: self.listed,
            gone: self.count(),
            taken_by: self.taken_by.clone(),
            replicas: topology.shards[from].replicas.len(),
            why: if self.taken_by.is_some() {
                "another node took the slot during its move".to_owned()
            } else {
                format!("more than {GONE_NOTED_PERCENT}% of a slot's keys, and more than {GONE_NOTED_KEYS}, gone during its move is no expiry")
            },
            done,
            planned,
        }))
    }
}

/// What [`resolve_busy`] found of a batch that `MIGRATE` answered `BUSYKEY`.
struct Resolved {
    /// The keys of the batch the source no longer held: `MIGRATE` carried them (it goes
    /// on past a refused key, and answers the first refusal).
    carried: u64,
    /// The keys on both nodes with equal `DUMP`s whose source copy was deleted, each
    /// `key (database n)`, escaped.
    keys: Vec<String>,
}

/// After a `MIGRATE` answered `BUSYKEY`: each of `keys` (database `db`) that both the
/// source and the target (asked with `ASKING`) hold is compared by `DUMP`; the source's copy
/// is deleted when the two are equal (the target's copy is the key, as `MIGRATE` would have
/// left it). The keys so resolved, and how many of `keys` the source held no longer.
///
/// # Errors
///
/// [`Error::KeyOnBothNodes`] for the first key whose copies differ (nothing deleted for
/// it); what an exchange gives.
fn resolve_busy(
    exchange: &mut Exchange,
    (source_con, target_con): (&mut Connection, &mut Connection),
    keys: &[Vec<u8>],
    db: u32,
    (source, target): (&super::Node, &super::Node),
    slot: u16,
    timeout: Duration,
) -> Result<Resolved, Error> {
    let dump_budget = Budget {
        bytes: 512 << 20,
        values: 4,
        string: 512 << 20,
    };
    let mut resolved = Resolved {
        carried: 0,
        keys: Vec::new(),
    };
    for key in keys {
        exchange.deadline = Instant::now() + timeout;
        source_con.set_deadline(Some(exchange.deadline));
        target_con.set_deadline(Some(exchange.deadline));
        let mut dump = redis::cmd("DUMP");
        dump.arg(key.as_slice());
        // a key the source no longer holds is answered by `ASK` (the slot is migrating)
        let ours = match exchange.query(source_con, &dump, dump_budget) {
            Ok(Value::BulkString(b)) => b,
            Ok(_) => {
                resolved.carried += 1;
                continue;
            }
            Err(Error::Refused { reason, .. }) if reason.contains("ASK") => {
                resolved.carried += 1;
                continue;
            }
            Err(e) => return Err(e),
        };
        exchange.query(target_con, &redis::cmd("ASKING"), Budget::SHORT)?;
        let theirs = match exchange.query(target_con, &dump, dump_budget)? {
            Value::BulkString(b) => b,
            _ => continue,
        };
        let shown = format!(
            "`{}` (database {db})",
            crate::text::escape_cut(key.as_slice())
        );
        if ours != theirs {
            return Err(Error::KeyOnBothNodes {
                key: shown,
                slot,
                from: format!("{} ({})", source.id, source.addr),
                to: format!("{} ({})", target.id, target.addr),
            });
        }
        let mut del = redis::cmd("DEL");
        del.arg(key.as_slice());
        exchange.query(source_con, &del, Budget::SHORT)?;
        resolved.keys.push(shown);
    }
    Ok(resolved)
}

/// `error`, or where it is `MIGRATE`'s report of the target's refusal of a command to the
/// user (`ERR Target instance replied with error: NOPERM User op has no permissions to run
/// the 'restore-asking' command`, Valkey; `this user has ...`, Redis), that refusal as
/// [`Error::NoPermission`] of the target at `target_url`, naming the grant; a refusal of
/// the keys (`... to access one of the keys used as arguments`, a user without `~*` there)
/// as the target's refusal of `RESTORE-ASKING`'s keys, naming the key pattern. `MIGRATE` runs
/// `RESTORE-ASKING` there as `user`, the user slotgen logged in as.
fn target_refusal(error: Error, target_url: &str, user: &str) -> Error {
    if let Error::Refused {
        command, reason, ..
    } = &error
    {
        let through = "Target instance replied with error: NOPERM";
        if command == "MIGRATE"
            && reason
                .split_once(through)
                .is_some_and(|(_, rest)| rest.contains("to access") && rest.contains(" key"))
        {
            return Error::NoPermission {
                url: target_url.to_owned(),
                denied: Denied::keys(user, "RESTORE-ASKING"),
            };
        }
    }
    let refused = match &error {
        Error::Refused {
            command, reason, ..
        } if command == "MIGRATE"
            && reason.contains("Target instance replied with error: NOPERM") =>
        {
            reason
                .split_once("to run the '")
                .and_then(|(_, rest)| rest.split_once("' command"))
                .map(|(name, _)| name.to_ascii_uppercase())
                .filter(|name| {
                    !name.is_empty()
                        && name
                            .bytes()
                            .all(|b| b.is_ascii_alphanumeric() || b"-_|".contains(&b))
                })
        }
        _ => None,
    };
    match refused {
        Some(name) => Error::NoPermission {
            url: target_url.to_owned(),
            denied: Denied::new(user, &[&name.replace('|', " ")]),
        },
        None => error,
    }
}

/// The states a run set on a slot it began to move: `IMPORTING` on the target, `MIGRATING`
/// on the source.
#[derive(Clone, Copy, Debug, Default)]
struct SetHere {
    importing: bool,
    migrating: bool,
}

/// Undoes the states `set` says this run set on `slot`, after a step was refused for
/// permission (`NOPERM`), or the target could not read the source's `DUMP` payloads, before
/// any key moved, in the reverse order: `CLUSTER SETSLOT slot STABLE` on the source (no more
/// `ASK` redirections), then on the target, when it holds no key of the slot in any of the
/// source's `databases` (0: not yet read, one) neither before nor after. A key there would be one a client wrote after
/// an `ASK` meanwhile (or one an earlier run left), which a stable target would strand; or,
/// `through_migrate` (the target's refusal came back through `MIGRATE`), a copy `MIGRATE`
/// restored there: a target that refuses the `SELECT` `MIGRATE` sends first still runs the
/// `RESTORE-ASKING`s after it, and the source keeps its copies (Redis 7.0, Valkey 8.0 and
/// 9.1). Either way the target is then left importing, or set importing again, as
/// [`finish_moves`](super::finish_moves) finishes it (comparing a key on both nodes by `DUMP`). Each command within `timeout`.
///
/// # Errors
///
/// Why the slot is not as it was (what stands is a state `finish_moves` finishes): a
/// command's error, or the keys the target holds.
fn undo(
    exchange: &mut Exchange,
    (source_con, target_con): (Option<&mut Connection>, Option<&mut Connection>),
    (slot, source_id): (u16, &str),
    set: SetHere,
    databases: u32,
    (timeout, through_migrate): (Duration, bool),
) -> Result<(), String> {
    // a command on the source or the target (`end`), its error a reason
    let run = |exchange: &mut Exchange, (con, end): (&mut Connection, &str), words: &[&str]| {
        exchange.deadline = Instant::now() + timeout;
        con.set_deadline(Some(exchange.deadline));
        let mut cmd = redis::Cmd::new();
        for word in words {
            cmd.arg(*word);
        }
        exchange
            .query(con, &cmd, Budget::SHORT)
            .map_err(|e| format!("`{}` on the {end}: {e}", words.join(" ")))
    };
    let slot_text = slot.to_string();
    let stable = ["CLUSTER", "SETSLOT", &slot_text, "STABLE"];
    if set.migrating {
        let source = source_con.ok_or("no connection to the source")?;
        run(exchange, (source, "source"), &stable)?;
    }
    if !set.importing {
        return Ok(());
    }
    let target = target_con.ok_or("no connection to the target")?;
    // the keys of the slot the target holds, in every database
    let held = |exchange: &mut Exchange, target: &mut Connection| -> Result<u64, String> {
        let mut n = 0u64;
        for db in 0..databases.max(1) {
            if databases > 1 {
                run(
                    exchange,
                    (&mut *target, "target"),
                    &["SELECT", &db.to_string()],
                )?;
            }
            match run(
                exchange,
                (&mut *target, "target"),
                &["CLUSTER", "COUNTKEYSINSLOT", &slot_text],
            )? {
                Value::Int(k) => n = n.saturating_add(u64::try_from(k).unwrap_or(0)),
                other => {
                    return Err(format!(
                        "`CLUSTER COUNTKEYSINSLOT {slot}` on the target answered {}",
                        crate::transport::describe(&other)
                    ))
                }
            }
        }
        Ok(n)
    };
    let kept = |n: u64, how: &str| {
        let whence = if through_migrate {
            "copies this run's `MIGRATE` restored there: the target runs each `RESTORE-ASKING` even after refusing the `SELECT` that `MIGRATE` sends first, and the source keeps its own; or keys clients wrote there after an `ASK`"
        } else {
            "written there by clients after an `ASK`, or left by an earlier run"
        };
        format!("the target holds {n} keys of the slot ({whence}), so it is {how} importing")
    };
    // only a source that was migrating sent clients to the target
    if set.migrating {
        let n = held(exchange, target)?;
        if n > 0 {
            return Err(kept(n, "left"));
        }
    }
    run(exchange, (&mut *target, "target"), &stable)?;
    if set.migrating {
        // a client's write after the count, sent by an `ASK` the source gave before its
        // `STABLE`: the target takes the slot's state back, so that the key is not stranded
        let n = held(exchange, target)?;
        if n > 0 {
            run(
                exchange,
                (target, "target"),
                &["CLUSTER", "SETSLOT", &slot_text, "IMPORTING", source_id],
            )?;
            return Err(kept(n, "set again"));
        }
    }
    Ok(())
}

/// The step of a move refused for permission before any key moved (see [`describe`]).
fn describe_refused(step: Step, refused: Option<&str>) -> String {
    match step {
        Step::Keys(_) | Step::BusyKey(_) => format!(
            "{}, before any key moved",
            refused.unwrap_or(GETKEYS_MIGRATE)
        ),
        step => describe(step, refused),
    }
}

/// What the steps [`Step::Keys`] and [`Step::BusyKey`] send, as a stop names them.
const GETKEYS_MIGRATE: &str = "`GETKEYSINSLOT`/`MIGRATE` on the source";

/// Where `error` is a node's refusal (`NOPERM`, or another error reply) of a command of the
/// key steps other than `CLUSTER GETKEYSINSLOT` and `MIGRATE` (`SELECT`, and `DUMP`,
/// `ASKING`, `DEL` for a key on both nodes), that command and the end that refused it
/// (`source_url` or `target_url`): `` `DUMP` on the source ``, escaped. What the stop names
/// in place of [`GETKEYS_MIGRATE`], which the node did not refuse.
fn refused_other(error: &Error, (source_url, target_url): (&str, &str)) -> Option<String> {
    let (url, command) = match error {
        Error::NoPermission { url, denied } => (url, denied.commands.first()?),
        Error::Refused { url, command, .. } => (url, command),
        _ => return None,
    };
    if command == "CLUSTER GETKEYSINSLOT" || command == "MIGRATE" {
        return None;
    }
    let end = if url == source_url {
        "source"
    } else if url == target_url {
        "target"
    } else {
        return None;
    };
    Some(format!(
        "`{}` on the {end}",
        crate::text::escape_cut(command.as_bytes())
    ))
}

/// What a move refused for permission before any key moved says once [`undo`] undid the
/// states `set` says it set: the slot is as it was.
fn undone(slot: u16, from: &str, to: &str, set: SetHere, again: &str) -> String {
    let undone = match (set.importing, set.migrating) {
        (true, true) => format!(
            "this run's `MIGRATING` and `IMPORTING` undone (`CLUSTER SETSLOT {slot} STABLE` on {from}, then on {to})"
        ),
        (true, false) => format!(
            "this run's `IMPORTING` undone (`CLUSTER SETSLOT {slot} STABLE` on {to})"
        ),
        (false, true) => format!(
            "this run's `MIGRATING` undone (`CLUSTER SETSLOT {slot} STABLE` on {from})"
        ),
        (false, false) => "nothing was set".to_owned(),
    };
    format!("no key moved and the slot is as it was, every key of it on {from}: {undone}; {again}")
}

/// The step a stop names: `refused` (from [`refused_other`]) in place of
/// [`GETKEYS_MIGRATE`] where a node refused another command of the key steps.
fn describe(step: Step, refused: Option<&str>) -> String {
    match step {
        Step::Importing => "`CLUSTER SETSLOT IMPORTING` on the target".to_owned(),
        Step::Migrating => "`CLUSTER SETSLOT MIGRATING` on the source".to_owned(),
        Step::Databases => "`CONFIG GET cluster-databases` on the source".to_owned(),
        Step::Keys(n) | Step::BusyKey(n) => format!(
            "{}, {n} keys moved by whole batches before (some keys of the last batch may have moved too: `CLUSTER COUNTKEYSINSLOT` on both nodes tells)",
            refused.unwrap_or(GETKEYS_MIGRATE)
        ),
        Step::Node(true) => "`CLUSTER SETSLOT NODE` on the target".to_owned(),
        Step::Node(false) => "`CLUSTER SETSLOT NODE` on the source".to_owned(),
    }
}

/// `error` as given, unless it is the source's `IOERR` to `MIGRATE` (it could not reach the
/// target, `end`) and a connection of slotgen's own to the target fails too: then that
/// failure ([`Error::Unreachable`], with the source's word beside it), which [`end_down`]
/// names as a dead end of the move, so that the stop says to start the target again or to
/// wait for its failover instead of naming the source alone (measured: a target killed
/// mid-slot on Redis 7.0 and Valkey 8.0 gives `IOERR error or timeout writing to target
/// instance`). A target that accepts the connection (stopped, or back already) leaves the
/// `IOERR` as it was.
fn through_dead_target(
    exchange: &mut Exchange,
    end: &Endpoint,
    error: Error,
    timeout: Duration,
) -> Error {
    let Error::Refused {
        command, reason, ..
    } = &error
    else {
        return error;
    };
    if command != "MIGRATE" || !reason.starts_with("IOERR") {
        return error;
    }
    exchange.deadline = Instant::now() + timeout;
    match exchange.connect(end) {
        Err(Error::Unreachable {
            url,
            during,
            reason: why,
        }) => Error::Unreachable {
            url,
            during: format!("{during}, after the source's `MIGRATE` said `{reason}`"),
            reason: why,
        },
        _ => error,
    }
}

/// An error of a move whose end (shard `ends[0]`, the source, or `ends[1]`, the target, of
/// `topology`, the map read at the start of the run) does not answer: named with its
/// replicas ([`Error::MoveEndDown`]), so that the stop says whether to wait for a failover or
/// to start the node again. An end that took the connection and then gave no complete
/// answer in the step's time ([`Error::TimedOut`]) is one that does not answer too: a
/// stopped process (SIGSTOP, a hung host) keeps its connections open, and its replica takes
/// its place all the same (a tester's Redis 7.0 source, stopped mid-`MIGRATE`: its replica
/// won the election 1 s before slotgen's deadline, and the stop said to allow more time),
/// where it has a replica; one without is left as given (a relay holding an answer past
/// the step's time is no dead server to start again). Other errors are as given.
fn end_down(error: Error, topology: &Topology, ends: [usize; 2]) -> Error {
    let (url, during, reason) = match &error {
        Error::Unreachable {
            url,
            during,
            reason,
        } => (url, during, reason.clone()),
        Error::TimedOut {
            url,
            timeout,
            during,
        } => (
            url,
            during,
            format!("timed out: no complete answer within {timeout:?} (a server stopped, or one too slow for the step's time: where it answers, allow more time)"),
        ),
        _ => return error,
    };
    // the node the URL names: `scheme://[user@]host:port`
    let down = ends
        .into_iter()
        .map(|i| &topology.shards[i])
        .zip([true, false])
        .find(|(s, _)| {
            url.rsplit_once(['/', '@'])
                .is_some_and(|(_, addr)| addr == s.primary.addr)
        });
    match down {
        // a timed-out end with no replica: no failover to wait for, and a server too slow
        // for the step's time is as likely as a stopped one: the timeout as given (it says
        // to allow more time), not the advice to start it again
        Some((shard, _))
            if shard.replicas.is_empty() && matches!(error, Error::TimedOut { .. }) =>
        {
            error
        }
        Some((shard, at_source)) => Error::MoveEndDown {
            url: url.clone(),
            id: shard.primary.id.as_str().into(),
            during: during.clone(),
            reason,
            replicas: shard.replicas.iter().map(|r| (r.clone(), None)).collect(),
            at_source,
            lost_if_dead: None,
        },
        None => error,
    }
}

/// Which primaries of `topology` (by index) are known to keep no keys on disk, asked of
/// each end of the `steps` ([`Exchange::keeps_nothing`]), once each, before the first move:
/// what a stop says of one that then stops answering ([`lost_if_dead`]). A node that does
/// not answer here is not known.
fn keeps_nothing(
    exchange: &mut Exchange,
    topology: &Topology,
    steps: &[Move],
    timeout: Duration,
) -> Vec<bool> {
    let mut nothing = vec![false; topology.shards.len()];
    let mut asked = vec![false; topology.shards.len()];
    for i in steps.iter().flat_map(|m| [m.from, m.to]) {
        if std::mem::replace(&mut asked[i], true) {
            continue;
        }
        exchange.deadline = Instant::now() + timeout;
        let Ok(end) = exchange.primary_endpoint(&topology.shards[i].primary) else {
            continue;
        };
        if let Ok(mut con) = exchange.connect(&end) {
            nothing[i] = exchange.keeps_nothing(&mut con);
        }
    }
    nothing
}

/// `e`, a classic move's stop, where an end that stopped answering ([`Error::MoveEndDown`])
/// is known to keep no keys on disk (`nothing`, by shard of `topology`): with the keys of
/// the slot lost if it died, the slot's `planned` keys less those moved (its source), or
/// those moved (its target). Any other error as given.
fn lost_if_dead(mut e: Error, topology: &Topology, nothing: &[bool], planned: u64) -> Error {
    if let Error::MoveStopped { keys, error, .. } = &mut e {
        if let Error::MoveEndDown {
            id,
            at_source,
            lost_if_dead,
            ..
        } = &mut **error
        {
            let keeps_nothing = topology
                .shards
                .iter()
                .zip(nothing)
                .any(|(s, &none)| none && *s.primary.id == **id);
            if keeps_nothing {
                let lost = if *at_source {
                    planned.saturating_sub(*keys)
                } else {
                    *keys
                };
                *lost_if_dead = Some(u32::try_from(lost).unwrap_or(u32::MAX));
            }
        }
    }
    e
}

/// What a repair by hand says of the nodes it names: they are the ones of the stop, and a
/// replica promoted since holds the slot's state in its place (`rebalance --apply` reads the
/// map afresh and finds it).
const BY_HAND_AFTER_FAILOVER: &str =
    "where one of them has failed over since, on the replica that took its place";

/// Where `error` is a node's refusal of a write for want of good replicas (`NOREPLICAS`:
/// fewer replicas connected, within `min-replicas-max-lag`, than its
/// `min-replicas-to-write`), the target's through `MIGRATE` (its address `to`) or the
/// refusing node's own: what to do first, for as long as its replica is down, since the
/// next run meets the same refusal (measured on Valkey 9.1: a drain's `MIGRATE` to a target
/// whose one replica was stopped). `None` for any other error.
fn without_replicas(error: &Error, to: &str) -> Option<String> {
    let Error::Refused { url, reason, .. } = error else {
        return None;
    };
    let node = if reason.contains("Target instance replied with error: NOREPLICAS") {
        to.to_owned()
    } else if reason.starts_with("NOREPLICAS") {
        format!("`{url}`")
    } else {
        return None;
    };
    Some(format!(
        "{node} refuses writes for want of good replicas (`NOREPLICAS`: fewer replicas connected, within `min-replicas-max-lag`, than its `min-replicas-to-write`): start its replica again, or `CONFIG SET min-replicas-to-write 0` on {node} while it is down"
    ))
}

/// What finishes or undoes a move stopped at `step`.
fn repair(slot: u16, from: &str, to: &str, to_id: &str, step: Step) -> String {
    let again = "the next `slotgen rebalance --apply` finishes it before it plans";
    match step {
        Step::Importing | Step::Migrating | Step::Databases => format!(
            "no key was moved: {again}, or `CLUSTER SETSLOT {slot} STABLE` on {to} and on {from} undoes it ({BY_HAND_AFTER_FAILOVER})"
        ),
        Step::Keys(_) => format!(
            "{again} (it carries the rest of the slot's keys from {from} to {to}, resolves a key a timed-out `MIGRATE` left on both nodes, and gives {to} the slot)"
        ),
        Step::BusyKey(_) => format!(
            "{to} holds a key of that name already (slotgen never replaces a key): once one copy is gone, {again}"
        ),
        Step::Node(_) => format!(
            "every key is on {to}: {again}, or `CLUSTER SETSLOT {slot} NODE {to_id}` on {to}, then on {from} ({BY_HAND_AFTER_FAILOVER})"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::super::dialect::{commands, script, Shell};
    use super::super::{Node, Role, Shard, SlotRange, Source};
    use super::*;

    #[test]
    fn a_move_asks_what_the_rights_list_says_it_sends() {
        let [source, target] = move_commands(("1", "10"), ("a", "b"), ("h", "1", "5"));
        let names = |list: &[(&'static str, Vec<String>)]| -> Vec<&'static str> {
            list.iter().map(|(shown, _)| *shown).collect()
        };
        assert_eq!(names(&source), crate::rights::MOVE_SOURCE);
        assert_eq!(names(&target), crate::rights::MOVE_TARGET);
    }

    /// The rule of `Gone`: a few keys gone (at most 10, or at most 1% of the slot) go on
    /// with a note; more stop; a slot another node took stops whatever the count.
    #[test]
    fn keys_gone_during_a_move_stop_past_the_rule_or_when_the_slot_was_taken() {
        let gone = |counted: u64, listed: u64, taken: bool| Gone {
            slot: 7,
            counted,
            listed,
            taken_by: taken.then(|| "b (127.0.0.1:2)".to_owned()),
        };
        // the tester's: 18,833 of 20,001 gone, the slot taken by the target
        assert!(gone(20_001, 1_168, true).stops());
        assert!(gone(20_001, 1_168, false).stops());
        // 10 keys: a note however small the slot; 11 of 1000 (1.1%) stop, 11 of 2000 not
        assert!(!gone(10, 0, false).stops());
        assert!(gone(1000, 989, false).stops());
        assert!(!gone(2000, 1989, false).stops());
        // 1% exactly goes on: 50 of 5000
        assert!(!gone(5000, 4950, false).stops());
        assert!(gone(5000, 4949, false).stops());
        // one key gone from a slot taken by another node stops
        assert!(gone(5000, 4999, true).stops());
        assert_eq!(
            gone(2000, 1989, false).note(),
            "slot 7: 11 of the 2000 keys its source counted once it was migrating left it otherwise than by `MIGRATE` (expired, or deleted by clients): no more than 10, or 1% of the slot, so the run went on"
        );
    }

    /// The source's `MIGRATE` answered `MOVED` to the target for the slot ends the listing
    /// (the slot was given to the target); to another node, or for another slot, or another
    /// command's, it does not (a failover, handled at the stop).
    #[test]
    fn a_migrate_moved_to_the_target_is_the_slot_taken() {
        let refused = |command: &str, moved: Option<(u16, &str)>| Error::Refused {
            url: "redis://127.0.0.1:1".to_owned(),
            command: command.to_owned(),
            reason: "MOVED".to_owned(),
            moved: moved.map(|(s, n)| (s, n.to_owned())),
        };
        let target = "127.0.0.1:2";
        assert!(moved_to(&refused("MIGRATE", Some((7, target))), 7, target));
        assert!(!moved_to(
            &refused("MIGRATE", Some((7, "127.0.0.1:3"))),
            7,
            target
        ));
        assert!(!moved_to(&refused("MIGRATE", Some((8, target))), 7, target));
        assert!(!moved_to(
            &refused("CLUSTER GETKEYSINSLOT", Some((7, target))),
            7,
            target
        ));
        assert!(!moved_to(&refused("MIGRATE", None), 7, target));
    }

    /// `finish_moves` on a fake cluster whose node 0 migrates slot 0 to node 1 and answers
    /// `CLUSTER GETKEYSINSLOT 0` with `listed(n)` at its `n`-th asking and `COUNTKEYSINSLOT
    /// 0` with `counted`: the error it ends with (within 60 s: the loop that trusted the
    /// source listed the same keys forever, 223,816 `MIGRATE`s a minute), and the `MIGRATE`s
    /// sent.
    fn finish_listing(
        counted: i64,
        listed: impl Fn(usize) -> Vec<Vec<u8>> + Send + Sync + 'static,
    ) -> (String, usize) {
        use crate::fake::{array, bulk, id, int, nodes, FakeCluster};
        use std::sync::atomic::AtomicUsize;
        use std::sync::Arc;
        let asked = AtomicUsize::new(0);
        let ports = Arc::new(std::sync::OnceLock::new());
        let known = Arc::clone(&ports);
        let fake = FakeCluster::start(Arc::new(move |me, words: &[String]| {
            let word = |i: usize| words.get(i).map(|w| w.to_ascii_uppercase());
            match (me, word(0)?.as_str(), word(1).as_deref()) {
                (_, "CLUSTER", Some("NODES")) => Some(nodes(
                    *known.get()?,
                    me,
                    [&format!(" [0->-{}]", id(1)), &format!(" [0-<-{}]", id(0))],
                )),
                (0, "CLUSTER", Some("COUNTKEYSINSLOT")) => Some(int(counted)),
                (0, "CLUSTER", Some("GETKEYSINSLOT")) => Some(array(
                    &listed(asked.fetch_add(1, Ordering::SeqCst))
                        .iter()
                        .map(|k| bulk(std::str::from_utf8(k).unwrap()))
                        .collect::<Vec<_>>(),
                )),
                _ => None,
            }
        }));
        ports.set(fake.ports).unwrap();
        let url = fake.url(0);
        let (tell, told) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let interrupted = std::sync::atomic::AtomicBool::new(false);
            let ended = super::super::finish_moves(
                &url,
                &ConnectOptions::default(),
                2,
                Duration::from_secs(5),
                &interrupted,
            );
            let _ = tell.send(ended);
        });
        let ended = told
            .recv_timeout(Duration::from_secs(60))
            .expect("finish_moves still moving keys after 60 s");
        let migrates = fake
            .sent()
            .iter()
            .filter(|(node, c)| *node == 0 && c.starts_with("MIGRATE "))
            .count();
        (
            ended
                .expect_err("a listing that makes no sense")
                .to_string(),
            migrates,
        )
    }

    /// A source that refuses its last slot's `SETSLOT NODE` because it turned replica of
    /// the target (a drained primary does, by `cluster-allow-replica-migration`) ends the
    /// move as done, asking `INFO replication`, which `+info` grants, not `ROLE`, which
    /// the run's grant does not hold (a tester's drain as such a user stopped with a false
    /// error after every slot had moved).
    #[test]
    fn a_source_turned_replica_of_the_target_ends_the_move() {
        // Redis 7.0; Valkey 8.0, its blocked `SETSLOT` unblocked; Valkey 9.1
        for refusal in [
            &b"-ERR Please use SETSLOT only with masters.\r\n"[..],
            b"-UNBLOCKED force unblock from blocking operation, instance state changed (master -> replica?)\r\n",
            b"-NOREPLICAS Not enough good replicas to write.\r\n",
        ] {
            source_turned_replica(refusal);
        }
    }

    fn source_turned_replica(refusal: &'static [u8]) {
        use crate::fake::{id, int, nodes, FakeCluster};
        use std::sync::Arc;
        let ports = Arc::new(std::sync::OnceLock::new());
        let known = Arc::clone(&ports);
        let fake = FakeCluster::start(Arc::new(move |me, words: &[String]| {
            let word = |i: usize| words.get(i).map(|w| w.to_ascii_uppercase());
            let [_, target]: [u16; 2] = *known.get()?;
            match (me, word(0)?.as_str(), word(1).as_deref(), word(3).as_deref()) {
                (_, "CLUSTER", Some("NODES"), _) => Some(nodes(
                    *known.get()?,
                    me,
                    [&format!(" [0->-{}]", id(1)), &format!(" [0-<-{}]", id(0))],
                )),
                (0, "CLUSTER", Some("COUNTKEYSINSLOT"), _) => Some(int(0)),
                (0, "CLUSTER", Some("SETSLOT"), Some("NODE")) => Some(refusal.to_vec()),
                (0, "ROLE", _, _) => Some(
                    b"-NOPERM User op has no permissions to run the 'role' command\r\n".to_vec(),
                ),
                (0, "INFO", Some("REPLICATION"), _) => Some(crate::fake::bulk(&format!(
                    "# Replication\r\nrole:slave\r\nmaster_host:127.0.0.1\r\nmaster_port:{target}\r\nmaster_link_status:up\r\n"
                ))),
                _ => None,
            }
        }));
        ports.set(fake.ports).unwrap();
        let interrupted = std::sync::atomic::AtomicBool::new(false);
        let ended = super::super::finish_moves(
            &fake.url(0),
            &ConnectOptions::default(),
            2,
            Duration::from_secs(5),
            &interrupted,
        );
        assert!(ended.is_ok(), "{:?}", ended.err().map(|e| e.to_string()));
        assert!(fake
            .sent()
            .iter()
            .any(|(node, c)| *node == 0 && c.starts_with("CLUSTER SETSLOT 0 NODE")));
    }

    /// Keys of slot 0 (`{tag}` + `suffix`).
    fn of_slot_0(suffix: &str) -> Vec<u8> {
        slotgen_tables::REDIS_CLUSTER
            .key_for_slot(b"", 0, suffix.as_bytes())
            .unwrap()
    }

    /// A source that lists the keys `MIGRATE` just moved, keys of another slot, or more keys
    /// than it counted is stopped, naming the slot, the source and what it listed (the
    /// tester's fake answered `{h}k0 {h}k1` forever: slotgen sent `MIGRATE`s until killed).
    #[test]
    fn a_source_whose_listing_makes_no_sense_stops_the_move() {
        let (same, migrates) = finish_listing(100, |_| vec![of_slot_0("a"), of_slot_0("b")]);
        let first = String::from_utf8(of_slot_0("a")).unwrap();
        assert!(
            same.contains("moving slot 0 from ")
                && same.contains("answered `CLUSTER GETKEYSINSLOT`")
                && same.contains(&format!(
                    "it listed `{first}` of slot 0 (database 0) again after `MIGRATE` answered that it moved it"
                )),
            "{same}"
        );
        assert_eq!(migrates, 1, "{same}");
        let (other, migrates) = finish_listing(100, |_| vec![b"{h}k0".to_vec(), b"{h}k1".to_vec()]);
        assert!(
            other.contains(
                "asked for the keys of slot 0 (database 0), it listed `{h}k0`, a key of slot 11694"
            ),
            "{other}"
        );
        assert_eq!(migrates, 0, "{other}");
        // new keys of the slot at every asking, 2 a batch: the third batch passes 5
        let (more, migrates) = finish_listing(5, |n| {
            vec![of_slot_0(&format!("{n}a")), of_slot_0(&format!("{n}b"))]
        });
        assert!(
            more.contains("it listed 6 keys of slot 0 (database 0), more than the 5 its `CLUSTER COUNTKEYSINSLOT 0` gave once the slot was migrating"),
            "{more}"
        );
        assert_eq!(migrates, 2, "{more}");
    }

    /// Three primaries, ids `000...0a`, `...0b`, `...0c`, at 127.0.0.1:7000-7002.
    fn topology() -> Topology {
        let shard = |n: u16, first: u16, last: u16| Shard {
            primary: Node {
                id: format!("{:0>40}", format!("{:x}", 10 + n)),
                addr: format!("127.0.0.1:{}", 7000 + n),
                role: Role::Primary,
                health: Some("online".to_owned()),
            },
            replicas: Vec::new(),
            ranges: vec![SlotRange { first, last }],
        };
        Topology {
            shards: vec![
                shard(0, 0, 5460),
                shard(1, 5461, 10922),
                shard(2, 10923, 16383),
            ],
            left_out: Vec::new(),
            migrations: Vec::new(),
            source: Source::ClusterShards,
        }
    }

    fn plan(moves: &[(u16, usize, usize)]) -> Plan {
        Plan {
            moves: moves
                .iter()
                .map(|&(slot, from, to)| Move {
                    slot,
                    from,
                    to,
                    keys: 5,
                    amount: 5,
                })
                .collect(),
            skew_before: None,
            skew_after: None,
            target: 1.1,
            reached: true,
            unreachable: Vec::new(),
            loads_before: Vec::new(),
            loads_after: Vec::new(),
            caps: Vec::new(),
        }
    }

    const A: &str = "000000000000000000000000000000000000000a";
    const B: &str = "000000000000000000000000000000000000000b";
    const C: &str = "000000000000000000000000000000000000000c";

    #[test]
    fn an_end_of_a_move_that_does_not_answer_is_named_with_its_replicas() {
        let mut t = topology();
        t.shards[1].replicas.push(Node {
            id: "d".repeat(40),
            addr: "127.0.0.1:7101".to_owned(),
            role: Role::Replica,
            health: Some("online".to_owned()),
        });
        let unreachable = |url: &str| Error::Unreachable {
            url: url.to_owned(),
            during: "MIGRATE".to_owned(),
            reason: "the server closed the connection".to_owned(),
        };
        for (url, end, replicas) in [
            ("redis://127.0.0.1:7001", B, 1),
            ("rediss://app:***@127.0.0.1:7001", B, 1),
            ("redis://127.0.0.1:7002", C, 0),
        ] {
            match end_down(unreachable(url), &t, [1, 2]) {
                Error::MoveEndDown {
                    id,
                    replicas: n,
                    at_source,
                    ..
                } => assert_eq!(
                    (&*id, n.len(), at_source),
                    (end, replicas, end == B),
                    "{url}"
                ),
                other => panic!("{url}: {other}"),
            }
        }
        // an end that took the connection and gave no answer in the step's time: one with a
        // replica is down, its failover to wait for; one without, the timeout as given
        let timed_out = |url: &str| Error::TimedOut {
            url: url.to_owned(),
            timeout: Duration::from_secs(5),
            during: format!("waiting for `MIGRATE` of {url}"),
        };
        match end_down(timed_out("redis://127.0.0.1:7001"), &t, [1, 2]) {
            Error::MoveEndDown {
                id,
                reason,
                at_source,
                ..
            } => assert!(
                &*id == B
                    && at_source
                    && reason.starts_with("timed out: no complete answer within 5s"),
                "{reason}"
            ),
            other => panic!("{other}"),
        }
        let lone = timed_out("redis://127.0.0.1:7002");
        assert_eq!(end_down(lone.clone(), &t, [1, 2]), lone);
        // a node not of the move, and another error, are as given
        let other = unreachable("redis://127.0.0.1:7000");
        assert_eq!(end_down(other.clone(), &t, [1, 2]), other);
        let refused = Error::Refused {
            url: "redis://127.0.0.1:7001".to_owned(),
            command: "MIGRATE".to_owned(),
            reason: "IOERR".to_owned(),
            moved: None,
        };
        assert_eq!(end_down(refused.clone(), &t, [1, 2]), refused);
    }

    #[test]
    fn migrations_under_way_are_named_in_the_right_number() {
        let migration = |slot| super::super::Migration {
            slot,
            kind: super::super::MigrationKind::Migrating,
            node: A.to_owned(),
            peer: B.to_owned(),
        };
        let mut t = topology();
        t.migrations = vec![migration(6093)];
        let e = refuse_migrations(&t).unwrap_err().to_string();
        assert!(e.starts_with("slot 6093 is migrating or importing"), "{e}");
        t.migrations = vec![migration(6093), migration(6094), migration(7)];
        let e = refuse_migrations(&t).unwrap_err().to_string();
        assert!(e.starts_with("slots 7,6093-6094 are migrating"), "{e}");
    }

    /// One call a move, the slot, the two nodes, their ids and the other primaries.
    #[test]
    fn classic_calls() {
        let lines = commands(&plan(&[(7, 0, 1)]), &topology(), Dialect::Classic);
        assert_eq!(
            lines,
            [
                "# slot 7: 127.0.0.1:7000 -> 127.0.0.1:7001, 5 keys, amount 5".to_owned(),
                format!("move_slot 7 127.0.0.1:7000 127.0.0.1:7001 {A} {B} 127.0.0.1:7002"),
            ]
        );
        let text = script(
            &plan(&[(7, 0, 1)]),
            &topology(),
            Dialect::Classic,
            100,
            Duration::from_secs(10),
            &Shell {
                cli: "valkey-cli".to_owned(),
                options: "--tls --cacert '/a b/ca.crt'".to_owned(),
                user: String::new(),
                password: String::new(),
            },
        );
        assert!(text.starts_with("#!/bin/sh\n"), "{text}");
        for placeholder in [
            "@CLI@",
            "@BATCH@",
            "@TIMEOUT_MS@",
            "@USER@",
            "@PASSWORD@",
            "@OPTIONS@",
        ] {
            assert!(!text.contains(placeholder), "{text}");
        }
        assert!(text.contains("TIMEOUT_MS=5000\n"), "{text}");
        assert!(
            text.contains("-p \"${node##*:}\" --tls --cacert '/a b/ca.crt' \"$@\""),
            "{text}"
        );
        assert!(text.ends_with(&format!("{B} 127.0.0.1:7002\n")), "{text}");
    }

    /// Valkey 9.0's `CLUSTER MIGRATESLOTS SLOTSRANGE start end ... NODE id` on the source
    /// and Redis 8.4's `CLUSTER MIGRATION IMPORT start end ...` on the target (their command
    /// pages), one per pair of nodes, the slots as ranges.
    #[test]
    fn atomic_dialects_group_ranges() {
        let p = plan(&[(3, 0, 1), (1, 0, 1), (2, 0, 1), (9, 0, 2), (11000, 2, 1)]);
        let lines = commands(&p, &topology(), Dialect::Migrateslots);
        let sent: Vec<&str> = lines
            .iter()
            .filter(|l| !l.starts_with('#'))
            .map(String::as_str)
            .collect();
        assert_eq!(
            sent,
            [
                format!("migrate_slots 127.0.0.1:7000 {B} 1 3"),
                format!("migrate_slots 127.0.0.1:7000 {C} 9 9"),
                format!("migrate_slots 127.0.0.1:7002 {B} 11000 11000"),
            ]
        );
        let lines = commands(&p, &topology(), Dialect::MigrationImport);
        let sent: Vec<&str> = lines
            .iter()
            .filter(|l| !l.starts_with('#'))
            .map(String::as_str)
            .collect();
        assert_eq!(
            sent,
            [
                "import_slots 127.0.0.1:7001 1 3",
                "import_slots 127.0.0.1:7002 9 9",
                "import_slots 127.0.0.1:7001 11000 11000",
            ]
        );
        assert_eq!(lines[0], "# slots 1-3: 127.0.0.1:7000 -> 127.0.0.1:7001");
    }

    /// A pair of nodes with more ranges than one job takes gets several jobs of at most
    /// `MAX_JOB_RANGES` ranges, in order, every slot in one of them: a Valkey 9.1.2 target's
    /// replicas were desynced by a job of 811 ranges (`MAX_JOB_RANGES`' doc).
    #[test]
    fn atomic_jobs_hold_at_most_max_job_ranges() {
        // 600 ranges of one slot each (every other slot), and one range of 3 slots
        let mut moves: Vec<(u16, usize, usize)> = (0..600).map(|n| (n * 2, 0, 1)).collect();
        moves.extend([(5000, 0, 1), (5001, 0, 1), (5002, 0, 1)]);
        let jobs: Vec<Vec<String>> = commands(&plan(&moves), &topology(), Dialect::Migrateslots)
            .iter()
            .filter(|l| !l.starts_with('#'))
            .map(|l| l.split(' ').skip(3).map(str::to_owned).collect())
            .collect();
        assert_eq!(
            jobs.iter().map(|j| j.len() / 2).collect::<Vec<_>>(),
            [
                super::super::MAX_JOB_RANGES,
                super::super::MAX_JOB_RANGES,
                601 - 2 * super::super::MAX_JOB_RANGES
            ]
        );
        let slots: Vec<String> = jobs.concat();
        let mut expected: Vec<String> = (0..600u16)
            .flat_map(|n| [(n * 2).to_string(), (n * 2).to_string()])
            .collect();
        expected.extend(["5000".to_owned(), "5002".to_owned()]);
        assert_eq!(slots, expected);
    }

    /// A step refused for permission before any key moved, its states undone: the stop
    /// says that no key moved and what was undone, in the order it was, and no longer
    /// that keys "may have moved".
    #[test]
    fn refusals_undone_say_the_slot_is_as_it_was() {
        let set = |importing, migrating| SetHere {
            importing,
            migrating,
        };
        let d = describe_refused(Step::Keys(0), None);
        assert_eq!(
            d,
            "`GETKEYSINSLOT`/`MIGRATE` on the source, before any key moved"
        );
        assert_eq!(
            describe_refused(Step::Migrating, None),
            describe(Step::Migrating, None)
        );
        let u = undone(7, "h:1", "h:2", set(true, true), GRANTED_AGAIN);
        assert!(
            u.starts_with("no key moved and the slot is as it was, every key of it on h:1: ")
                && u.contains("(`CLUSTER SETSLOT 7 STABLE` on h:1, then on h:2)")
                && u.ends_with("once granted, `slotgen rebalance --apply` moves it"),
            "{u}"
        );
        let u = undone(7, "h:1", "h:2", set(true, false), GRANTED_AGAIN);
        assert!(
            u.contains("this run's `IMPORTING` undone (`CLUSTER SETSLOT 7 STABLE` on h:2)"),
            "{u}"
        );
        let u = undone(7, "h:1", "h:2", set(false, false), GRANTED_AGAIN);
        assert!(u.contains(": nothing was set; "), "{u}");
    }

    /// `MIGRATE`'s report of the target's `NOPERM` (Redis 7.0's words) becomes the target's
    /// refusal with its grant; another refusal stays as it is.
    #[test]
    fn a_target_s_refusal_through_migrate_names_the_grant() {
        let refused = |command: &str, reason: &str| Error::Refused {
            url: "redis://h:1".to_owned(),
            command: command.to_owned(),
            reason: reason.to_owned(),
            moved: None,
        };
        let e = target_refusal(
            refused(
                "MIGRATE",
                "ERR Target instance replied with error: NOPERM this user has no permissions to run the 'restore-asking' command",
            ),
            "redis://op:***@h:2",
            "op",
        );
        assert_eq!(
            e.to_string(),
            "`redis://op:***@h:2`: user `op` may not run RESTORE-ASKING: grant it with `ACL SETUSER op +restore-asking` (NOPERM)"
        );
        // the target's refusal of the keys (no `~*` there): the key pattern, on the target
        let e = target_refusal(
            refused(
                "MIGRATE",
                "ERR Target instance replied with error: NOPERM this user has no permissions to access one of the keys used as arguments",
            ),
            "redis://op:***@h:2",
            "op",
        );
        assert_eq!(
            e.to_string(),
            "`redis://op:***@h:2`: user `op` may run RESTORE-ASKING, but not on the keys it names: grant every key with `ACL SETUSER op ~*` (NOPERM)"
        );
        for (command, reason) in [
            (
                "MIGRATE",
                "IOERR error or timeout reading to target instance",
            ),
            (
                "DUMP",
                "NOPERM this user has no permissions to run the 'dump' command",
            ),
        ] {
            let e = refused(command, reason);
            assert_eq!(target_refusal(e.clone(), "redis://h:2", "op"), e);
        }
    }

    /// A stop at the key steps names the command a node refused, and the end: `DUMP`,
    /// `ASKING`, `DEL` of a key on both nodes, `SELECT`; not `MIGRATE` or `GETKEYSINSLOT`
    /// (the step's own), nor an answer that did not come.
    #[test]
    fn a_stop_names_the_command_refused() {
        let ends = ("redis://h:1", "redis://h:2");
        let denied = |url: &str, command: &str| Error::NoPermission {
            url: url.to_owned(),
            denied: Denied::new("op", &[command]),
        };
        let said = |e: &Error| refused_other(e, ends);
        let refused = |command: &str, reason: &str| Error::Refused {
            url: "redis://h:1".to_owned(),
            command: command.to_owned(),
            reason: reason.to_owned(),
            moved: None,
        };
        assert_eq!(
            said(&denied("redis://h:1", "DUMP")).as_deref(),
            Some("`DUMP` on the source")
        );
        assert_eq!(
            said(&denied("redis://h:2", "ASKING")).as_deref(),
            Some("`ASKING` on the target")
        );
        assert_eq!(
            said(&denied("redis://h:1", "DEL")).as_deref(),
            Some("`DEL` on the source")
        );
        assert_eq!(
            said(&refused("SELECT\u{1b}[2J", "ERR DB index is out of range")).as_deref(),
            Some("`SELECT\\x1b[2J` on the source")
        );
        assert_eq!(said(&denied("redis://h:1", "MIGRATE")), None);
        assert_eq!(said(&denied("redis://h:1", "CLUSTER GETKEYSINSLOT")), None);
        assert_eq!(said(&denied("redis://h:3", "DUMP")), None);
        let d = describe(
            Step::Keys(3),
            said(&denied("redis://h:1", "DEL")).as_deref(),
        );
        assert!(d.starts_with("`DEL` on the source, 3 keys moved"), "{d}");
        let d = describe_refused(Step::Keys(0), Some("`DUMP` on the source"));
        assert_eq!(d, "`DUMP` on the source, before any key moved");
    }

    #[test]
    fn repairs_name_the_commands() {
        let again = "the next `slotgen rebalance --apply` finishes it before it plans";
        let r = repair(7, "h:1", "h:2", B, Step::Migrating);
        assert!(
            r.contains("`CLUSTER SETSLOT 7 STABLE` on h:2 and on h:1"),
            "{r}"
        );
        assert!(r.contains(again), "{r}");
        // an answer lost before any key moved: nothing to carry but the slot's state
        let r = repair(7, "h:1", "h:2", B, Step::Databases);
        assert!(r.starts_with(&format!("no key was moved: {again}")), "{r}");
        assert_eq!(
            describe(Step::Databases, None),
            "`CONFIG GET cluster-databases` on the source"
        );
        let r = repair(7, "h:1", "h:2", B, Step::Keys(40));
        assert!(r.starts_with(again), "{r}");
        assert!(r.contains("from h:1 to h:2"), "{r}");
        let d = describe(Step::Keys(0), None);
        assert!(!d.contains("after 0 keys moved"), "{d}");
        assert!(
            d.contains("`CLUSTER COUNTKEYSINSLOT` on both nodes tells"),
            "{d}"
        );
        let r = repair(7, "h:1", "h:2", B, Step::BusyKey(0));
        assert!(r.starts_with("h:2 holds a key of that name already"), "{r}");
        let r = repair(7, "h:1", "h:2", B, Step::Node(false));
        assert!(
            r.contains(&format!("`CLUSTER SETSLOT 7 NODE {B}` on h:2, then on h:1")),
            "{r}"
        );
        for step in [
            Step::Importing,
            Step::Keys(1),
            Step::BusyKey(1),
            Step::Node(true),
        ] {
            let r = repair(7, "h:1", "h:2", B, step);
            assert!(!r.contains("--cluster fix"), "{r}");
        }
    }
}
