//! Carrying a rebalance [`Plan`] out: the commands each server version takes
//! ([`Dialect`], [`commands`]), and [`apply`], which runs the classic sequence slot by slot.
//!
//! The classic sequence (the Redis Cluster specification, "Live resharding"; what
//! `redis-cli --cluster reshard` sends), for a slot `s` from node `F` to node `T`:
//!
//! 1. on `T`: `CLUSTER SETSLOT s IMPORTING F-id`;
//! 2. on `F`: `CLUSTER SETSLOT s MIGRATING T-id`;
//! 3. on `F`, until it answers no key: `CLUSTER GETKEYSINSLOT s BATCH`, then
//!    `MIGRATE T-host T-port "" 0 TIMEOUT-ms KEYS k1 k2 ...`;
//! 4. `CLUSTER SETSLOT s NODE T-id` on `T`, then on `F`, then on every other primary.
//!
//! Between 1 and 4 clients follow `ASK` redirections; a key is never deleted but by
//! `MIGRATE` once `T` holds it. Every state this leaves after a failure (a slot importing on
//! `T` alone; importing on `T` and migrating on `F`, with some keys moved; owned by `T` on
//! some nodes and `F` on others) is one that `redis-cli --cluster fix` repairs.
//!
//! Valkey 9.0 adds atomic slot migration (`CLUSTER MIGRATESLOTS SLOTSRANGE a b NODE T-id`,
//! sent to the source; progress by `CLUSTER GETSLOTMIGRATIONS`), and Redis 8.4 its own
//! (`CLUSTER MIGRATION IMPORT a b`, sent to the target; progress by `CLUSTER MIGRATION
//! STATUS ALL`). [`commands`] prints those; [`apply`] uses the classic sequence, which every
//! version takes.

use std::fmt;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use redis::Value;

use super::answers::{info_field, split_addr};
use super::exchange::{bounded, endpoint, Exchange};
use super::rebalance::{Move, Plan};
use super::topology::{ranges_of, Topology};
use super::Error;
use crate::transport::{Budget, ConnectOptions, Connection, Endpoint};

/// How a server moves a slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Dialect {
    /// `CLUSTER SETSLOT ... IMPORTING/MIGRATING`, `CLUSTER GETKEYSINSLOT` + `MIGRATE ...
    /// KEYS`, `CLUSTER SETSLOT ... NODE`: every version.
    Classic,
    /// `CLUSTER MIGRATESLOTS` on the source (Valkey 9.0 and later).
    Migrateslots,
    /// `CLUSTER MIGRATION IMPORT` on the target (Redis 8.4 and later).
    MigrationImport,
}

impl Dialect {
    /// Every dialect, as the command line names them.
    pub const ALL: [Dialect; 3] = [
        Dialect::Classic,
        Dialect::Migrateslots,
        Dialect::MigrationImport,
    ];

    /// The name on the command line: `classic`, `migrateslots`, `migration-import`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Dialect::Classic => "classic",
            Dialect::Migrateslots => "migrateslots",
            Dialect::MigrationImport => "migration-import",
        }
    }

    /// The dialect of a server from its `INFO server` text: `valkey_version` 9.0 or later
    /// gives [`Dialect::Migrateslots`]; otherwise (Valkey also states a `redis_version`, 7.2.4)
    /// `redis_version` 8.4 or later gives [`Dialect::MigrationImport`]; anything else, or a
    /// version that does not parse, [`Dialect::Classic`].
    ///
    /// # Examples
    ///
    /// ```
    /// use slotgen::cluster::Dialect;
    ///
    /// let valkey8 = "# Server\r\nredis_version:7.2.4\r\nserver_name:valkey\r\nvalkey_version:8.0.2\r\n";
    /// assert_eq!(Dialect::of_info(valkey8), Dialect::Classic);
    /// assert_eq!(Dialect::of_info("valkey_version:9.0.0\r\n"), Dialect::Migrateslots);
    /// assert_eq!(Dialect::of_info("redis_version:8.4.0\r\n"), Dialect::MigrationImport);
    /// assert_eq!(Dialect::of_info("redis_version:7.0.15\r\n"), Dialect::Classic);
    /// ```
    #[must_use]
    pub fn of_info(info: &str) -> Dialect {
        let version = |name: &str| -> Option<(u32, u32)> {
            let mut parts = info_field(info, name)?.split('.');
            Some((parts.next()?.parse().ok()?, parts.next()?.parse().ok()?))
        };
        if let Some(valkey) = version("valkey_version") {
            return if valkey >= (9, 0) {
                Dialect::Migrateslots
            } else {
                Dialect::Classic
            };
        }
        match version("redis_version") {
            Some(redis) if redis >= (8, 4) => Dialect::MigrationImport,
            _ => Dialect::Classic,
        }
    }
}

impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The commands that carry `plan` out in `dialect`, one per line: `HOST:PORT<TAB>COMMAND`,
/// the node to send it to and the command, with a `#` line before each move (or each group
/// of slots from one node to another, in the atomic dialects) naming it. `topology` is the
/// map the plan was made on (its shard indices); `batch` is the keys a `CLUSTER
/// GETKEYSINSLOT` asks for and `timeout` the time of a step, of which `MIGRATE` is given
/// [`migrate_timeout`], as [`apply`] does. `MIGRATE`
/// takes `AUTH2 USER PASSWORD` before `KEYS` on a cluster with a password: the lines say so
/// and never carry it.
#[must_use]
pub fn commands(
    plan: &Plan,
    topology: &Topology,
    dialect: Dialect,
    batch: usize,
    timeout: Duration,
) -> Vec<String> {
    let node = |shard: usize| &topology.shards[shard].primary;
    let mut lines = Vec::new();
    match dialect {
        Dialect::Classic => {
            for m in &plan.moves {
                let (from, to) = (node(m.from), node(m.to));
                let (to_host, to_port) = split_addr(&to.addr).unwrap_or((&to.addr, 0));
                lines.push(format!(
                    "# slot {}: {} -> {}, {} keys, amount {}",
                    m.slot, from.addr, to.addr, m.keys, m.amount
                ));
                lines.push(format!(
                    "{}\tCLUSTER SETSLOT {} IMPORTING {}",
                    to.addr, m.slot, from.id
                ));
                lines.push(format!(
                    "{}\tCLUSTER SETSLOT {} MIGRATING {}",
                    from.addr, m.slot, to.id
                ));
                lines.push(format!(
                    "{}\tCLUSTER GETKEYSINSLOT {} {batch}",
                    from.addr, m.slot
                ));
                lines.push(format!(
                    "{}\tMIGRATE {to_host} {to_port} \"\" 0 {} KEYS <the keys it gave>  # [AUTH2 USER PASSWORD before KEYS with a password]; repeat both until it gives none",
                    from.addr,
                    migrate_timeout(timeout).as_millis()
                ));
                for n in [to, from]
                    .into_iter()
                    .chain(others(topology, m).map(|s| &s.primary))
                {
                    lines.push(format!(
                        "{}\tCLUSTER SETSLOT {} NODE {}",
                        n.addr, m.slot, to.id
                    ));
                }
            }
        }
        Dialect::Migrateslots | Dialect::MigrationImport => {
            for ((from, to), slots) in groups(&plan.moves) {
                let (from, to) = (node(from), node(to));
                let ranges = ranges_of(&slots)
                    .iter()
                    .map(|r| format!("{} {}", r.first, r.last))
                    .collect::<Vec<_>>()
                    .join(" ");
                lines.push(format!(
                    "# slots {}: {} -> {}",
                    super::show_ranges(&ranges_of(&slots)),
                    from.addr,
                    to.addr
                ));
                if dialect == Dialect::Migrateslots {
                    lines.push(format!(
                        "{}\tCLUSTER MIGRATESLOTS SLOTSRANGE {ranges} NODE {}",
                        from.addr, to.id
                    ));
                    lines.push(format!(
                        "{}\tCLUSTER GETSLOTMIGRATIONS  # until the job is done",
                        from.addr
                    ));
                } else {
                    lines.push(format!("{}\tCLUSTER MIGRATION IMPORT {ranges}", to.addr));
                    lines.push(format!(
                        "{}\tCLUSTER MIGRATION STATUS ALL  # until the task is done",
                        to.addr
                    ));
                }
            }
        }
    }
    lines
}

/// The slots of `moves` grouped by `(from, to)`, in the order each pair first appears, the
/// slots of a group sorted.
fn groups(moves: &[Move]) -> Vec<((usize, usize), Vec<u16>)> {
    let mut groups: Vec<((usize, usize), Vec<u16>)> = Vec::new();
    for m in moves {
        match groups.iter_mut().find(|(pair, _)| *pair == (m.from, m.to)) {
            Some((_, slots)) => slots.push(m.slot),
            None => groups.push(((m.from, m.to), vec![m.slot])),
        }
    }
    for (_, slots) in &mut groups {
        slots.sort_unstable();
    }
    groups
}

/// The primaries of `topology` other than a move's two.
fn others<'t>(topology: &'t Topology, m: &Move) -> impl Iterator<Item = &'t super::Shard> {
    let (from, to) = (m.from, m.to);
    topology
        .shards
        .iter()
        .enumerate()
        .filter(move |(i, _)| *i != from && *i != to)
        .map(|(_, s)| s)
}

/// The server's `INFO server` `valkey_version` or `redis_version`, and its [`Dialect`]: one
/// exchange with the node of `url`, within `timeout`.
///
/// # Errors
///
/// What a connection gives ([`Error::Unreachable`], [`Error::TimedOut`],
/// [`Error::PasswordRequired`], ...).
pub fn server_dialect(
    url: &str,
    options: &ConnectOptions,
    timeout: Duration,
) -> Result<(Dialect, String), Error> {
    bounded(url, options, timeout, |exchange| {
        let mut con = exchange.connect(&exchange.endpoint)?;
        let info = exchange.text(
            &mut con,
            redis::cmd("INFO").arg("server"),
            Budget::SHORT.times(4),
        )?;
        let version = info_field(&info, "valkey_version")
            .map(|v| format!("valkey {v}"))
            .or_else(|| info_field(&info, "redis_version").map(|v| format!("redis {v}")))
            .unwrap_or_else(|| "unknown".to_owned());
        Ok((
            Dialect::of_info(&info),
            crate::text::escape_cut(version.as_bytes()),
        ))
    })
}

/// The time `MIGRATE` is given (its `timeout` argument, milliseconds of no progress) when a
/// step has `step`: half of it, at least 1 ms, so that a target that does not answer is
/// named by the source's `IOERR` before the step's own deadline passes.
#[must_use]
pub fn migrate_timeout(step: Duration) -> Duration {
    (step / 2).max(Duration::from_millis(1))
}

/// The step of a slot move where [`apply`] stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// `CLUSTER SETSLOT s IMPORTING` on the target.
    Importing,
    /// `CLUSTER SETSLOT s MIGRATING` on the source.
    Migrating,
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
    /// Slots moved.
    pub moves: usize,
    /// Keys `MIGRATE` carried.
    pub keys: u64,
    /// The primaries, neither source nor target of a move, that did not answer a final
    /// `CLUSTER SETSLOT slot NODE id` (each `id (addr)`, in shard order): not asked again;
    /// the cluster's gossip tells them the new owners.
    pub untold: Vec<String>,
}

/// The keys one `CLUSTER GETKEYSINSLOT` answer may hold: at most this many bytes a key. A
/// longer key stops the move at that slot, naming the budget ([`Error::ReplyTooLarge`]).
pub const MAX_MIGRATED_KEY_BYTES: usize = 64 * 1024;

/// Carries `plan` out with the classic sequence (see the module's docs), slot by slot, each
/// step (a connection, a command) within `timeout`; `MIGRATE` moves at most `batch` keys at
/// a time and is given [`migrate_timeout`]. `planned` is the map the plan was
/// made on. `progress` is called after each slot with its move and the keys moved.
///
/// It re-reads the map first ([`Topology::fetch`], which refuses a cluster whose state is not
/// `ok`), and refuses to start when a slot is migrating or importing, or when a slot of the
/// plan changed owner since. It never deletes a key and never sends `REPLACE`: a key that
/// the target holds already stops the move (`BUSYKEY`).
///
/// # Errors
///
/// What [`Topology::fetch`] gives; [`Error::MigrationUnderWay`], [`Error::MapChanged`]
/// before any move; [`Error::MoveStopped`] when a step fails, naming the slot, the two nodes,
/// the step's error and the commands that finish or undo the move.
pub fn apply(
    url: &str,
    options: &ConnectOptions,
    plan: &Plan,
    planned: &Topology,
    batch: usize,
    timeout: Duration,
    progress: &mut dyn FnMut(&Move, u64),
) -> Result<Applied, Error> {
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
            (Some(owner), Some(target)) if owner.id == from.id => {
                steps.push((*m, find(&from.id).expect("the owner is a shard"), target))
            }
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
    let endpoint = endpoint(url, options)?;
    let stage = Arc::new(Mutex::new(format!("connecting to {}", endpoint.shown)));
    let mut exchange = Exchange {
        endpoint,
        deadline: Instant::now() + timeout,
        timeout,
        stage,
    };
    let mut applied = Applied {
        moves: 0,
        keys: 0,
        untold: Vec::new(),
    };
    // primaries not of a move that did not take its new owner at once: not asked again
    let mut deaf = vec![false; fresh.shards.len()];
    for (m, from, to) in steps {
        let keys = move_slot(
            &mut exchange,
            &fresh,
            (m.slot, from, to),
            &mut deaf,
            batch,
            timeout,
        )?;
        applied.moves += 1;
        applied.keys += keys;
        progress(&m, keys);
    }
    applied.untold = fresh
        .shards
        .iter()
        .zip(&deaf)
        .filter(|(_, &deaf)| deaf)
        .map(|(s, _)| format!("{} ({})", s.primary.id, s.primary.addr))
        .collect();
    Ok(applied)
}

/// The rule [`apply`] starts by: no slot of `topology` is migrating or importing (a plan is
/// checked by it before it is printed, and the map again before the first move).
///
/// # Errors
///
/// [`Error::MigrationUnderWay`] naming the slots.
pub fn refuse_migrations(topology: &Topology) -> Result<(), Error> {
    let migrating = topology.migrating_slots();
    if migrating.is_empty() {
        Ok(())
    } else {
        let ranges = super::show_ranges(&ranges_of(&migrating));
        Err(Error::MigrationUnderWay {
            slots: if migrating.len() == 1 {
                format!("slot {ranges} is")
            } else {
                format!("slots {ranges} are")
            },
        })
    }
}

/// The classic sequence for one slot, from shard `from` to shard `to` of `topology`.
fn move_slot(
    exchange: &mut Exchange,
    topology: &Topology,
    (slot, from, to): (u16, usize, usize),
    deaf: &mut [bool],
    batch: usize,
    timeout: Duration,
) -> Result<u64, Error> {
    let (source, target) = (&topology.shards[from].primary, &topology.shards[to].primary);
    let (source_end, target_end) = (
        exchange.primary_endpoint(source)?,
        exchange.primary_endpoint(target)?,
    );
    let stopped = |step: Step, error: Error| Error::MoveStopped {
        slot,
        from: format!("{} ({})", source.id, source.addr),
        to: format!("{} ({})", target.id, target.addr),
        repair: repair(slot, &source.addr, &target.addr, &target.id, step),
        step: describe(step),
        error: Box::new(error),
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

    let mut target_con = open(exchange, &target_end).map_err(|e| stopped(Step::Importing, e))?;
    run(
        exchange,
        &mut target_con,
        &setslot("IMPORTING", &source.id),
        Budget::SHORT,
    )
    .map_err(|e| stopped(Step::Importing, e))?;
    let mut source_con = open(exchange, &source_end).map_err(|e| stopped(Step::Migrating, e))?;
    run(
        exchange,
        &mut source_con,
        &setslot("MIGRATING", &target.id),
        Budget::SHORT,
    )
    .map_err(|e| stopped(Step::Migrating, e))?;

    let (to_host, to_port) = split_addr(&target.addr).expect("checked by primary_endpoint");
    let keys_budget = Budget {
        bytes: batch
            .saturating_mul(MAX_MIGRATED_KEY_BYTES + 16)
            .saturating_add(16),
        values: batch.saturating_add(1),
        string: MAX_MIGRATED_KEY_BYTES,
    };
    let auth = &exchange.endpoint.info.redis;
    let (user, password) = (auth.username.clone(), auth.password.clone());
    let mut moved = 0u64;
    loop {
        let mut get = redis::cmd("CLUSTER");
        get.arg("GETKEYSINSLOT").arg(slot).arg(batch);
        let keys = match run(exchange, &mut source_con, &get, keys_budget)
            .map_err(|e| stopped(Step::Keys(moved), e))?
        {
            Value::Array(keys) => keys,
            other => {
                return Err(stopped(
                    Step::Keys(moved),
                    Error::Malformed {
                        url: source_end.shown.clone(),
                        command: "CLUSTER GETKEYSINSLOT".to_owned(),
                        reason: crate::text::reason(&format!("not an array of keys: {other:?}")),
                    },
                ))
            }
        };
        if keys.is_empty() {
            break;
        }
        let mut migrate = redis::cmd("MIGRATE");
        migrate
            .arg(to_host)
            .arg(to_port)
            .arg("")
            .arg(0)
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
        let count = keys.len() as u64;
        for key in keys {
            match key {
                Value::BulkString(bytes) => {
                    migrate.arg(bytes);
                }
                other => {
                    return Err(stopped(
                        Step::Keys(moved),
                        Error::Malformed {
                            url: source_end.shown.clone(),
                            command: "CLUSTER GETKEYSINSLOT".to_owned(),
                            reason: crate::text::reason(&format!(
                                "a key that is not a string: {other:?}"
                            )),
                        },
                    ))
                }
            }
        }
        run(exchange, &mut source_con, &migrate, Budget::SHORT).map_err(|e| {
            if e.to_string().contains("BUSYKEY") {
                stopped(Step::BusyKey(moved), e)
            } else {
                stopped(Step::Keys(moved), e)
            }
        })?;
        moved += count;
    }
    run(
        exchange,
        &mut target_con,
        &setslot("NODE", &target.id),
        Budget::SHORT,
    )
    .map_err(|e| stopped(Step::Node(true), e))?;
    run(
        exchange,
        &mut source_con,
        &setslot("NODE", &target.id),
        Budget::SHORT,
    )
    .map_err(|e| stopped(Step::Node(false), e))?;
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

fn describe(step: Step) -> String {
    match step {
        Step::Importing => "`CLUSTER SETSLOT IMPORTING` on the target".to_owned(),
        Step::Migrating => "`CLUSTER SETSLOT MIGRATING` on the source".to_owned(),
        Step::Keys(n) | Step::BusyKey(n) => format!(
            "`GETKEYSINSLOT`/`MIGRATE` on the source, {n} keys moved by whole batches before (some keys of the last batch may have moved too: `CLUSTER COUNTKEYSINSLOT` on both nodes tells)"
        ),
        Step::Node(true) => "`CLUSTER SETSLOT NODE` on the target".to_owned(),
        Step::Node(false) => "`CLUSTER SETSLOT NODE` on the source".to_owned(),
    }
}

/// The commands that finish or undo a move stopped at `step`.
fn repair(slot: u16, from: &str, to: &str, to_id: &str, step: Step) -> String {
    let fix = format!("`redis-cli --cluster fix {from}` repairs it");
    match step {
        Step::Importing | Step::Migrating => format!(
            "no key was moved: `CLUSTER SETSLOT {slot} STABLE` on {to} and on {from} undoes it, or {fix}"
        ),
        Step::Keys(_) => format!(
            "{fix} (it carries the rest of the slot's keys to {to} and gives it the slot); by hand, on {from} repeat `CLUSTER GETKEYSINSLOT {slot} 100` and `MIGRATE` of its keys until none is left, then `CLUSTER SETSLOT {slot} NODE {to_id}` on {to}, then on {from}"
        ),
        Step::BusyKey(_) => format!(
            "{to} already holds a key of that name (MIGRATE never replaces a key, nor does slotgen delete one): rename or delete {to}'s key by hand (`ASKING` then `EXISTS` on {to} of the keys of `CLUSTER GETKEYSINSLOT {slot} 100` on {from} finds it), then on {from} repeat `CLUSTER GETKEYSINSLOT {slot} 100` and `MIGRATE` of its keys until none is left, then `CLUSTER SETSLOT {slot} NODE {to_id}` on {to}, then on {from}; `redis-cli --cluster fix {from}` would replace {to}'s key with {from}'s"
        ),
        Step::Node(_) => format!(
            "every key is on {to}: `CLUSTER SETSLOT {slot} NODE {to_id}` on {to}, then on {from} finishes it, or {fix}"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Node, Role, Shard, SlotRange, Source};
    use super::*;

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

    /// The sequence of the Redis Cluster specification ("Live resharding"), written out by
    /// hand for slot 7 from the first primary to the second.
    #[test]
    fn classic_sequence() {
        let lines = commands(
            &plan(&[(7, 0, 1)]),
            &topology(),
            Dialect::Classic,
            100,
            Duration::from_secs(10),
        );
        let sent: Vec<&str> = lines
            .iter()
            .filter(|l| !l.starts_with('#'))
            .map(String::as_str)
            .collect();
        assert_eq!(
            sent,
            [
                format!("127.0.0.1:7001\tCLUSTER SETSLOT 7 IMPORTING {A}"),
                format!("127.0.0.1:7000\tCLUSTER SETSLOT 7 MIGRATING {B}"),
                "127.0.0.1:7000\tCLUSTER GETKEYSINSLOT 7 100".to_owned(),
                "127.0.0.1:7000\tMIGRATE 127.0.0.1 7001 \"\" 0 5000 KEYS <the keys it gave>  # [AUTH2 USER PASSWORD before KEYS with a password]; repeat both until it gives none".to_owned(),
                format!("127.0.0.1:7001\tCLUSTER SETSLOT 7 NODE {B}"),
                format!("127.0.0.1:7000\tCLUSTER SETSLOT 7 NODE {B}"),
                format!("127.0.0.1:7002\tCLUSTER SETSLOT 7 NODE {B}"),
            ]
        );
        assert_eq!(
            lines[0],
            "# slot 7: 127.0.0.1:7000 -> 127.0.0.1:7001, 5 keys, amount 5"
        );
    }

    /// Valkey 9.0's `CLUSTER MIGRATESLOTS SLOTSRANGE start end ... NODE id` on the source
    /// and Redis 8.4's `CLUSTER MIGRATION IMPORT start end ...` on the target (their command
    /// pages), one per pair of nodes, the slots as ranges.
    #[test]
    fn atomic_dialects_group_ranges() {
        let p = plan(&[(3, 0, 1), (1, 0, 1), (2, 0, 1), (9, 0, 2), (11000, 2, 1)]);
        let lines = commands(
            &p,
            &topology(),
            Dialect::Migrateslots,
            100,
            Duration::from_secs(1),
        );
        let sent: Vec<&str> = lines
            .iter()
            .filter(|l| !l.starts_with('#'))
            .map(String::as_str)
            .collect();
        assert_eq!(
            sent[0],
            format!("127.0.0.1:7000\tCLUSTER MIGRATESLOTS SLOTSRANGE 1 3 NODE {B}")
        );
        assert_eq!(
            sent[2],
            format!("127.0.0.1:7000\tCLUSTER MIGRATESLOTS SLOTSRANGE 9 9 NODE {C}")
        );
        assert_eq!(
            sent[4],
            format!("127.0.0.1:7002\tCLUSTER MIGRATESLOTS SLOTSRANGE 11000 11000 NODE {B}")
        );
        let lines = commands(
            &p,
            &topology(),
            Dialect::MigrationImport,
            100,
            Duration::from_secs(1),
        );
        let sent: Vec<&str> = lines
            .iter()
            .filter(|l| !l.starts_with('#'))
            .map(String::as_str)
            .collect();
        assert_eq!(sent[0], "127.0.0.1:7001\tCLUSTER MIGRATION IMPORT 1 3");
        assert_eq!(sent[2], "127.0.0.1:7002\tCLUSTER MIGRATION IMPORT 9 9");
        assert_eq!(
            sent[4],
            "127.0.0.1:7001\tCLUSTER MIGRATION IMPORT 11000 11000"
        );
        assert_eq!(lines[0], "# slots 1-3: 127.0.0.1:7000 -> 127.0.0.1:7001");
    }

    #[test]
    fn repairs_name_the_commands() {
        let r = repair(7, "h:1", "h:2", B, Step::Migrating);
        assert!(
            r.contains("`CLUSTER SETSLOT 7 STABLE` on h:2 and on h:1"),
            "{r}"
        );
        let r = repair(7, "h:1", "h:2", B, Step::Keys(40));
        assert!(r.contains("`redis-cli --cluster fix h:1`"), "{r}");
        let d = describe(Step::Keys(0));
        assert!(!d.contains("after 0 keys moved"), "{d}");
        assert!(
            d.contains("`CLUSTER COUNTKEYSINSLOT` on both nodes tells"),
            "{d}"
        );
        let r = repair(7, "h:1", "h:2", B, Step::BusyKey(0));
        assert!(r.starts_with("h:2 already holds a key of that name"), "{r}");
        assert!(r.contains("rename or delete h:2's key by hand"), "{r}");
        assert!(
            r.contains("`redis-cli --cluster fix h:1` would replace h:2's key"),
            "{r}"
        );
        assert!(!r.contains("repairs it"), "{r}");
        let r = repair(7, "h:1", "h:2", B, Step::Node(false));
        assert!(
            r.contains(&format!("`CLUSTER SETSLOT 7 NODE {B}` on h:2, then on h:1")),
            "{r}"
        );
    }
}
