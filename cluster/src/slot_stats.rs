//! Reading per-slot load from the servers: [`SlotLoad::fetch`](super::SlotLoad::fetch),
//! `CLUSTER SLOT-STATS SLOTSRANGE 0 16383` of every primary, or `CLUSTER COUNTKEYSINSLOT`
//! pipelined to each slot's owner where a server refuses it, the keys an importing primary
//! holds added to its slots in migration; each reply within its budget.

use std::collections::BTreeMap;
use std::time::Duration;

use redis::Value;

use super::answers::MAX_TEXT;
use super::exchange::{bounded, gone, select, Exchange};
use super::load::{LoadSource, Metric, ReplicaRefused, ReplicaServed, SlotLoad, Stranded};
use super::{Error, MigrationKind, Topology, SLOTS};
use crate::transport::{Budget, ConnectOptions, Connection, Denied};

// Reading the load over the network (here, beside the readers of `CLUSTER SLOT-STATS` and
// `CLUSTER COUNTKEYSINSLOT`), so that load.rs, the load and its sums, imports neither.
impl SlotLoad {
    /// Reads the topology of the cluster of the node at `url` (as [`Topology::fetch`]),
    /// then the load of every slot from its primary: `CLUSTER SLOT-STATS SLOTSRANGE 0
    /// 16383`, of which each primary's answer for its own slots is kept; where a primary
    /// refuses it (a server before Valkey 8.0 or Redis 8.2 answers "unknown subcommand"),
    /// key counts by `CLUSTER COUNTKEYSINSLOT` for every slot, sent to its primary in
    /// pipelines of [`COUNT_BATCH`](super::COUNT_BATCH). The keys of a slot in migration are counted on the
    /// primary that owns it, the keys that the importing primary holds already included (its
    /// `CLUSTER COUNTKEYSINSLOT` of the slot: its `CLUSTER SLOT-STATS` leaves out the slots
    /// its shard does not own, so the importer's part of the other metrics is not read).
    ///
    /// `timeout` bounds all of it, the topology included. Each reply has a budget from what
    /// the largest real answer takes (`CLUSTER SLOT-STATS`: 576 bytes and 20 values a slot).
    ///
    /// # Errors
    ///
    /// As [`Topology::fetch`]; [`Error::Malformed`] for an answer that is not per-slot
    /// statistics (a slot of the primary missing or given twice, a value that is not a
    /// non-negative integer); [`Error::NoPermission`] naming both commands when the user
    /// may run neither.
    pub fn fetch(url: &str, options: &ConnectOptions, timeout: Duration) -> Result<Self, Error> {
        bounded(url, options, timeout, |exchange| {
            let topology = exchange.run()?;
            read(exchange, topology)
        })
    }
}

/// Slots asked in one pipeline of `CLUSTER COUNTKEYSINSLOT`.
pub const COUNT_BATCH: usize = 1024;

/// The budget of one reply to `CLUSTER COUNTKEYSINSLOT`: an integer (`:` and up to 20
/// digits), or an error of one line, which a server keeps under 256 bytes (`-MOVED 1234
/// host:port`, `-ERR unknown command ...` with the command's first bytes).
const COUNT: Budget = Budget {
    bytes: 256,
    values: 1,
    string: 240,
};

/// The bytes of one slot in `CLUSTER SLOT-STATS`: its entry (`*2`, the slot, `*10`: 17
/// bytes) and up to 8 fields of 64 bytes each (a name of up to 32 bytes with its framing,
/// an integer of up to 20 digits with its): 529; 576 leaves room.
const SLOT_STATS_BYTES: usize = 576;

/// The budget of `CLUSTER SLOT-STATS SLOTSRANGE 0 16383`: [`SLOT_STATS_BYTES`] and 20 values
/// (the entry, the slot, the fields' array and 8 fields of 2) a slot; 9,437,200 bytes and
/// 327,681 values in all (18 MB as the parser's values). A string of up to [`MAX_TEXT`]
/// bytes: a field name is under 32, but the answer may be an error line instead, which
/// names the user and the command (`-NOPERM User mapper has no permissions to run the
/// 'cluster|slot-stats' command`, 74 bytes).
const SLOT_STATS: Budget = Budget {
    bytes: SLOTS as usize * SLOT_STATS_BYTES + 16,
    values: SLOTS as usize * 20 + 1,
    string: MAX_TEXT,
};

/// What one primary gave: per metric, its own slots' values.
type Fields = BTreeMap<Metric, Vec<(u16, u64)>>;

/// `CLUSTER SLOT-STATS SLOTSRANGE 0 16383`: every slot's counters, as a primary or a
/// replica reads them.
fn every_slot() -> redis::Cmd {
    redis::cmd("CLUSTER")
        .arg("SLOT-STATS")
        .arg("SLOTSRANGE")
        .arg(0)
        .arg(SLOTS - 1)
        .to_owned()
}

/// The per-slot load of every primary of `topology`: `CLUSTER SLOT-STATS`, or
/// `CLUSTER COUNTKEYSINSLOT` when a primary refuses it.
pub(super) fn read(exchange: &Exchange, topology: Topology) -> Result<SlotLoad, Error> {
    const SLOT_STATS_COMMAND: &str = "CLUSTER SLOT-STATS";
    let owners = topology.owners();
    let slot_stats = ask_primaries(exchange, &topology, |con, shard| {
        let answer = exchange
            .query(con, &every_slot(), SLOT_STATS)
            .map_err(|e| match e {
                // a refusal by the user's rights is one more reason to fall back
                Error::NoPermission { url, denied } => Error::Refused {
                    url,
                    command: SLOT_STATS_COMMAND.to_owned(),
                    reason: format!("NOPERM: {denied}"),
                    moved: None,
                },
                e => e,
            })?;
        parse_slot_stats(&answer, &owners, shard).map_err(|reason| Error::Malformed {
            url: con.url().to_owned(),
            command: SLOT_STATS_COMMAND.to_owned(),
            reason,
        })
    });
    let (source, given) = match slot_stats {
        Ok(given) => (LoadSource::ClusterSlotStats, given),
        Err(Error::Refused {
            command, reason, ..
        }) if command == SLOT_STATS_COMMAND => {
            let given = ask_primaries(exchange, &topology, |con, shard| {
                count_keys(exchange, con, topology.shards[shard].slots().collect())
            })
            .map_err(|e| match e {
                // both refused by the user's rights: either would do (a refusal of
                // another command, `SELECT` of a database to count in, is its own)
                Error::NoPermission { url, denied }
                    if reason.starts_with("NOPERM")
                        && denied
                            .commands
                            .iter()
                            .any(|c| c == "CLUSTER COUNTKEYSINSLOT") =>
                {
                    Error::NoPermission {
                        url,
                        denied: Denied::new(
                            exchange.endpoint.user(),
                            &[SLOT_STATS_COMMAND, "CLUSTER COUNTKEYSINSLOT"],
                        ),
                    }
                }
                e => e,
            })?;
            (
                LoadSource::CountKeysInSlot {
                    slot_stats_refused: reason,
                },
                given,
            )
        }
        Err(e) => return Err(e),
    };
    // A metric is kept when every primary gives it for every slot it owns.
    let mut values = BTreeMap::new();
    for metric in Metric::ALL {
        let complete = given.iter().all(|(shard, fields)| {
            fields.get(&metric).map(Vec::len) == Some(topology.shards[*shard].slot_count() as usize)
        });
        if metric.field().is_none() || !complete {
            continue;
        }
        let mut all = vec![0; usize::from(SLOTS)];
        for (_, fields) in &given {
            for &(slot, value) in &fields[&metric] {
                all[usize::from(slot)] = value;
            }
        }
        values.insert(metric, all);
    }
    if !values.contains_key(&Metric::Keys) && !given.is_empty() {
        let reason = given.iter().find_map(|(shard, fields)| {
            let owned = topology.shards[*shard].slot_count() as usize;
            let n = fields.get(&Metric::Keys).map_or(0, Vec::len);
            (n != owned).then(|| {
                format!(
                    "its primary {} gives `key-count` for {n} of the {owned} slots it owns (or the map changed between its reads: a slot moved meanwhile, as by another `slotgen rebalance --apply` under way, gives this too; run again once no slot is moving)",
                    topology.shards[*shard].primary.id
                )
            })
        });
        return Err(Error::Malformed {
            url: exchange.endpoint.shown.clone(),
            command: SLOT_STATS_COMMAND.to_owned(),
            reason: reason.unwrap_or_default(),
        });
    }
    let mut stranded_keys = Vec::new();
    if let Some(keys) = values.get_mut(&Metric::Keys) {
        // what each primary holds of its own slots, before the importers' keys are added
        let mut counted: Vec<u64> = topology
            .shards
            .iter()
            // saturating: a server's absurd counts are refused later, by SlotLoad::require
            .map(|shard| {
                shard.slots().fold(0u64, |sum, slot| {
                    sum.saturating_add(keys[usize::from(slot)])
                })
            })
            .collect();
        for (importer, n) in add_imported_keys(exchange, &topology, keys)? {
            counted[importer] = counted[importer].saturating_add(n);
        }
        stranded_keys = stranded(exchange, &topology, &counted)?;
    }
    let (replicas, refused) = match source {
        LoadSource::ClusterSlotStats => ask_replicas(exchange, &topology, &owners),
        LoadSource::CountKeysInSlot { .. } => (Vec::new(), Vec::new()),
    };
    let mut load = SlotLoad::new(topology, source, values);
    load.stranded = stranded_keys;
    load.replicas = replicas;
    load.refused = refused;
    Ok(load)
}

/// How long one replica's `CLUSTER SLOT-STATS` may take ([`ask_replicas`]): a primary's
/// answer, as large, comes within a fraction of it.
const REPLICA_TIME: Duration = Duration::from_secs(2);

/// `CLUSTER SLOT-STATS` of every replica not failed (its health not `fail`) of a primary
/// that owns slots: what each served itself of its primary's slots, where it served some
/// CPU time or network bytes (reads after `READONLY`). A replica that does not answer, or
/// refuses, is left out: what it served is a note's matter, not the load's; each is given
/// [`REPLICA_TIME`] at most, and none is asked once the exchange has no time left for one.
/// Those that refused slotgen's credentials (a password or ACL user set otherwise there)
/// are given apart, with the refusal, for the note to name with the fix.
fn ask_replicas(
    exchange: &Exchange,
    topology: &Topology,
    owners: &[Option<usize>],
) -> (Vec<ReplicaServed>, Vec<ReplicaRefused>) {
    let mut served = Vec::new();
    let mut refused = Vec::new();
    for (shard, s) in topology.shards.iter().enumerate() {
        if s.ranges.is_empty() {
            continue;
        }
        // not only those `online`: the map says `loading` of a replica until gossip carries
        // its replication offset (measured on Valkey 9.1: seconds after its first writes,
        // while it served reads)
        let failed =
            |r: &&crate::node::Node| matches!(r.health.as_deref(), Some("fail" | "failed"));
        for replica in s.replicas.iter().filter(|r| !failed(r)) {
            // a replica that does not answer (stopped, far) may not hold up the load
            let Some(exchange) = exchange.within(REPLICA_TIME) else {
                return (served, refused);
            };
            let fields = exchange.primary_endpoint(replica).and_then(|node| {
                let mut con = exchange.connect(&node)?;
                let answer = exchange.query(&mut con, &every_slot(), SLOT_STATS)?;
                parse_slot_stats(&answer, owners, shard).map_err(|reason| Error::Malformed {
                    url: con.url().to_owned(),
                    command: "CLUSTER SLOT-STATS".to_owned(),
                    reason,
                })
            });
            let fields = match fields {
                Ok(fields) => fields,
                Err(
                    e @ (Error::PasswordRequired { .. }
                    | Error::NoPasswordSet { .. }
                    | Error::PasswordRejected { .. }
                    | Error::NoPermission { .. }),
                ) => {
                    refused.push(ReplicaRefused {
                        shard,
                        addr: replica.addr.clone(),
                        why: crate::text::escape_cut(e.to_string().as_bytes()),
                    });
                    continue;
                }
                Err(_) => continue,
            };
            let mut per_metric: BTreeMap<Metric, Vec<(u16, u64)>> = fields
                .into_iter()
                .filter(|(metric, _)| *metric != Metric::Keys)
                .collect();
            // the network both ways, as `SlotLoad` sums it
            if let (Some(i), Some(o)) = (
                per_metric.get(&Metric::NetIn),
                per_metric.get(&Metric::NetOut),
            ) {
                let both = i
                    .iter()
                    .zip(o)
                    .map(|(&(slot, a), &(_, b))| (slot, a.saturating_add(b)))
                    .collect();
                per_metric.insert(Metric::Net, both);
            }
            let totals: BTreeMap<Metric, (u64, (u16, u64))> = per_metric
                .into_iter()
                .map(|(metric, values)| {
                    let total = values.iter().fold(0u64, |t, &(_, v)| t.saturating_add(v));
                    let top = values
                        .iter()
                        .copied()
                        .max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(&a.0)))
                        .unwrap_or((0, 0));
                    (metric, (total, top))
                })
                .collect();
            if totals.values().any(|&(total, _)| total > 0) {
                served.push(ReplicaServed {
                    shard,
                    addr: replica.addr.clone(),
                    served: totals,
                });
            }
        }
    }
    (served, refused)
}

/// The budget of `INFO keyspace`: a line per database that holds keys (`db0:keys=N,
/// expires=N,avg_ttl=N,subexpiry=N`, under 128 bytes), for up to 65536 databases.
pub(super) const KEYSPACE: Budget = Budget {
    bytes: 128 << 16,
    values: 1,
    string: 128 << 16,
};

/// The keys of every database of an `INFO keyspace` answer (`db0:keys=3,expires=0,...`, a
/// line per database that holds keys): the node's `DBSIZE` summed over its databases.
pub(super) fn keyspace_keys(text: &str) -> Result<u64, String> {
    let mut keys: u64 = 0;
    for line in text.lines().map(str::trim) {
        let Some((db, fields)) = line.split_once(':') else {
            continue;
        };
        if !db.starts_with("db") {
            continue;
        }
        let n = fields
            .split(',')
            .find_map(|f| f.strip_prefix("keys="))
            .and_then(|n| n.parse::<u64>().ok())
            .ok_or_else(|| crate::text::reason(&format!("`{line}` gives no count of keys")))?;
        keys = keys.saturating_add(n);
    }
    Ok(keys)
}

/// The primaries whose `DBSIZE` (summed over their databases) exceeds `counted`, the keys
/// of the slots each owns or imports (by shard): for each, the slots it neither owns nor
/// imports that it holds keys of, by `CLUSTER COUNTKEYSINSLOT` in every database. A
/// difference from keys written between the reads finds no such slot and is not reported;
/// a primary that refuses `INFO keyspace` (an ACL user without it) is not compared. Each
/// primary's `DBSIZE` summed over its databases is read in one command, `INFO keyspace`.
fn stranded(
    exchange: &Exchange,
    topology: &Topology,
    counted: &[u64],
) -> Result<Vec<Stranded>, Error> {
    let imported = imports(topology);
    let owners = topology.owners();
    let mut stranded = Vec::new();
    for (i, shard) in topology.shards.iter().enumerate() {
        let node = exchange.primary_endpoint(&shard.primary)?;
        let gone = gone(&shard.primary);
        let mut con = exchange.connect(&node).map_err(gone)?;
        let mut info = redis::cmd("INFO");
        info.arg("keyspace");
        let dbsize = match exchange.text(&mut con, &info, KEYSPACE) {
            // a user not allowed `INFO`: nothing to compare, nothing wrong
            Err(Error::Refused { .. } | Error::NoPermission { .. }) => continue,
            Err(e) => return Err(gone(e)),
            Ok(text) => keyspace_keys(&text).map_err(|reason| Error::Malformed {
                url: con.url().to_owned(),
                command: "INFO keyspace".to_owned(),
                reason,
            })?,
        };
        if dbsize <= counted[i] {
            continue;
        }
        let own = imported.get(&i);
        let others: Vec<u16> = (0..SLOTS)
            .filter(|&slot| {
                owners[usize::from(slot)] != Some(i) && !own.is_some_and(|own| own.contains(&slot))
            })
            .collect();
        let slots: Vec<(u16, u64)> = count_keys(exchange, &mut con, others)
            .map_err(gone)?
            .remove(&Metric::Keys)
            .unwrap_or_default()
            .into_iter()
            .filter(|&(_, n)| n > 0)
            .collect();
        if !slots.is_empty() {
            stranded.push(Stranded {
                shard: i,
                dbsize,
                counted: counted[i],
                slots,
            });
        }
    }
    Ok(stranded)
}

/// Adds to `keys` (16384 counts, indexed by slot) the keys that an importing primary holds
/// already of each slot in migration (`CLUSTER SETSLOT s IMPORTING`, in
/// [`Topology::migrations`]): its `CLUSTER COUNTKEYSINSLOT` of the slot, sent in pipelines
/// of [`COUNT_BATCH`], counted on the slot's owner. `CLUSTER SLOT-STATS` gives only the
/// slots of the node's own shard, so neither command of the owner counts them. Returns the
/// keys so counted per importer, `(shard, keys)`.
fn add_imported_keys(
    exchange: &Exchange,
    topology: &Topology,
    keys: &mut [u64],
) -> Result<Vec<(usize, u64)>, Error> {
    let mut by_importer = Vec::new();
    for (importer, slots) in imports(topology) {
        let primary = &topology.shards[importer].primary;
        let node = exchange.primary_endpoint(primary)?;
        let gone = gone(primary);
        let mut con = exchange.connect(&node).map_err(gone)?;
        let counted = count_keys(exchange, &mut con, slots).map_err(gone)?;
        let mut total: u64 = 0;
        for &(slot, n) in &counted[&Metric::Keys] {
            let value = &mut keys[usize::from(slot)];
            *value = value.saturating_add(n);
            total = total.saturating_add(n);
        }
        by_importer.push((importer, total));
    }
    Ok(by_importer)
}

/// The slots that each primary imports from another shard's primary, by the importer's
/// shard (its index in [`Topology::shards`]), each slot once, in order. A slot imported by
/// a node that is no shard's primary, by its owner's own shard, or that no primary owns
/// has no part elsewhere to read.
pub(super) fn imports(topology: &Topology) -> BTreeMap<usize, Vec<u16>> {
    let owners = topology.owners();
    let mut imports: BTreeMap<usize, Vec<u16>> = BTreeMap::new();
    for m in &topology.migrations {
        let importer = topology.shards.iter().position(|s| s.primary.id == m.node);
        if let (MigrationKind::Importing, Some(importer)) = (m.kind, importer) {
            if owners[usize::from(m.slot)].is_some_and(|owner| owner != importer) {
                let slots = imports.entry(importer).or_default();
                if !slots.contains(&m.slot) {
                    slots.push(m.slot);
                }
            }
        }
    }
    for slots in imports.values_mut() {
        slots.sort_unstable();
    }
    imports
}

/// `ask` of every primary that owns slots, connected to at its address, in the shards'
/// order, as `(shard, fields)`.
fn ask_primaries(
    exchange: &Exchange,
    topology: &Topology,
    mut ask: impl FnMut(&mut Connection, usize) -> Result<Fields, Error>,
) -> Result<Vec<(usize, Fields)>, Error> {
    let mut given = Vec::new();
    for (i, shard) in topology.shards.iter().enumerate() {
        if shard.ranges.is_empty() {
            continue;
        }
        let node = exchange.primary_endpoint(&shard.primary)?;
        let gone = gone(&shard.primary);
        let mut con = exchange.connect(&node).map_err(gone)?;
        given.push((i, ask(&mut con, i).map_err(gone)?));
    }
    Ok(given)
}

/// The keys of each of `slots` by `CLUSTER COUNTKEYSINSLOT`, in pipelines of
/// [`COUNT_BATCH`], summed over the databases the node keeps (`cluster-databases`, Valkey 9:
/// the command counts the selected database's keys only).
fn count_keys(exchange: &Exchange, con: &mut Connection, slots: Vec<u16>) -> Result<Fields, Error> {
    let databases = exchange.databases(con)?;
    let mut keys: Vec<(u16, u64)> = slots.iter().map(|&slot| (slot, 0)).collect();
    for db in 0..databases {
        if databases > 1 {
            exchange.query(con, &select(db), Budget::SHORT)?;
        }
        for (total, (_, n)) in keys.iter_mut().zip(count_keys_in(exchange, con, &slots)?) {
            total.1 = total.1.saturating_add(n);
        }
    }
    Ok(BTreeMap::from([(Metric::Keys, keys)]))
}

/// The keys of `slot` on the node of `con`, summed over its databases as [`count_keys`]
/// sums them: how [`finish_moves`](super::finish_moves) finds the primary that holds the keys
/// of a half-moved slot whose end failed over.
pub(super) fn keys_in_slot(
    exchange: &Exchange,
    con: &mut Connection,
    slot: u16,
) -> Result<u64, Error> {
    let fields = count_keys(exchange, con, vec![slot])?;
    Ok(fields
        .get(&Metric::Keys)
        .and_then(|keys| keys.first())
        .map_or(0, |&(_, n)| n))
}

/// The keys of each of `slots` in the selected database, as [`count_keys`].
pub(super) fn count_keys_in(
    exchange: &Exchange,
    con: &mut Connection,
    slots: &[u16],
) -> Result<Vec<(u16, u64)>, Error> {
    let command = "CLUSTER COUNTKEYSINSLOT";
    let shown = con.url().to_owned();
    let mut keys = Vec::with_capacity(slots.len());
    for batch in slots.chunks(COUNT_BATCH) {
        let mut pipe = redis::pipe();
        for &slot in batch {
            pipe.cmd("CLUSTER").arg("COUNTKEYSINSLOT").arg(slot);
        }
        exchange.set_stage(
            &shown,
            format!(
                "waiting for `{command}` of {shown} (slots {} to {})",
                batch[0],
                batch[batch.len() - 1]
            ),
        );
        exchange.remaining(&shown)?;
        con.send(
            &pipe.get_packed_pipeline(),
            COUNT.times(batch.len()),
            command,
        )
        .map_err(|e| exchange.lift(e))?;
        for &slot in batch {
            let value = con.reply(command).map_err(|e| exchange.lift(e))?;
            match exchange.judge(&shown, command, value)? {
                Value::Int(n) if n >= 0 => keys.push((slot, n as u64)),
                other => {
                    return Err(Error::Malformed {
                        url: shown,
                        command: command.to_owned(),
                        reason: crate::text::reason(&format!(
                            "the answer for slot {slot} is not a count but {}",
                            crate::transport::describe(&other)
                        )),
                    })
                }
            }
        }
        exchange.remaining(&shown)?;
    }
    Ok(keys)
}

/// The fields of `CLUSTER SLOT-STATS` (RESP2: an array of `[slot, [name, value, ...]]`;
/// RESP3: the fields as a map) for the slots that `owners` gives to shard `shard`; slots of
/// other shards are skipped, unknown fields ignored.
pub(super) fn parse_slot_stats(
    answer: &Value,
    owners: &[Option<usize>],
    shard: usize,
) -> Result<Fields, String> {
    let Value::Array(entries) = answer else {
        return Err(crate::text::reason(&format!(
            "the answer is not an array but {answer:?}"
        )));
    };
    let mut seen = vec![false; usize::from(SLOTS)];
    let mut fields = Fields::new();
    for entry in entries {
        let (slot, stats) = match entry {
            Value::Array(pair) if pair.len() == 2 => (&pair[0], &pair[1]),
            other => {
                return Err(crate::text::reason(&format!(
                    "an entry is not `[slot, stats]` but {}",
                    crate::transport::describe(other)
                )))
            }
        };
        let slot = match slot {
            Value::Int(n) if (0..i64::from(SLOTS)).contains(n) => *n as u16,
            other => {
                return Err(crate::text::reason(&format!(
                    "{} is not a slot in 0 to 16383",
                    crate::transport::describe(other)
                )))
            }
        };
        if std::mem::replace(&mut seen[usize::from(slot)], true) {
            return Err(format!("slot {slot} is given twice"));
        }
        if owners[usize::from(slot)] != Some(shard) {
            continue;
        }
        let pairs: Vec<(&Value, &Value)> = match stats {
            Value::Array(flat) if flat.len() % 2 == 0 => {
                flat.chunks(2).map(|p| (&p[0], &p[1])).collect()
            }
            Value::Map(map) => map.iter().map(|(k, v)| (k, v)).collect(),
            other => {
                return Err(crate::text::reason(&format!(
                    "the statistics of slot {slot} are not name-value pairs but {}",
                    crate::transport::describe(other)
                )))
            }
        };
        for (name, value) in pairs {
            let name = match name {
                Value::BulkString(b) => b.as_slice(),
                Value::SimpleString(s) => s.as_bytes(),
                other => {
                    return Err(crate::text::reason(&format!(
                        "a field name of slot {slot} is {}",
                        crate::transport::describe(other)
                    )))
                }
            };
            let Some(metric) = Metric::ALL
                .into_iter()
                .find(|m| m.field().map(str::as_bytes) == Some(name))
            else {
                continue;
            };
            let value = match value {
                Value::Int(n) if *n >= 0 => *n as u64,
                other => {
                    return Err(crate::text::reason(&format!(
                        "`{}` of slot {slot} is not a count but {}",
                        crate::text::escape(name),
                        crate::transport::describe(other)
                    )))
                }
            };
            fields.entry(metric).or_default().push((slot, value));
        }
    }
    Ok(fields)
}
