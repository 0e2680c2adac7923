//! Where the load lands: [`SlotLoad`] reads per-slot load from every primary of a live
//! cluster (`CLUSTER SLOT-STATS`, or key counts by `CLUSTER COUNTKEYSINSLOT` on servers
//! without it), and sums it per primary ([`SlotLoad::summary`]): totals, shares, the skew,
//! the top slots and the hot slots.

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use redis::Value;
use serde::Serialize;

use super::answers::MAX_TEXT;
use super::exchange::{bounded, gone, Exchange};
use super::placement::top_slots;
use super::{Error, MigrationKind, Topology, SLOTS};
use crate::transport::{Budget, ConnectOptions, Connection, Denied};

/// A measure of load per slot.
///
/// The servers' `CLUSTER SLOT-STATS` (Valkey 8.0+, Redis 8.2+) gives `key-count` always;
/// `cpu-usec`, `network-bytes-in` and `network-bytes-out` only with
/// `cluster-slot-stats-enabled yes` (Valkey 8.0.1 without it answers `key-count` alone);
/// `memory-bytes` where the server has it (not Valkey 8.0). Counters (cpu, network) add up
/// from the server's start, or from its last `CONFIG RESETSTAT`; `keys` and `memory` are
/// what the slot holds now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Metric {
    /// Keys in the slot (`key-count`).
    Keys,
    /// Microseconds of the main thread spent on the slot's commands (`cpu-usec`).
    Cpu,
    /// Bytes received for the slot's commands (`network-bytes-in`).
    NetIn,
    /// Bytes sent for the slot's commands, replication included (`network-bytes-out`).
    NetOut,
    /// `network-bytes-in` + `network-bytes-out`, where the server gives both.
    Net,
    /// Bytes the slot's keys take (`memory-bytes`).
    Memory,
}

impl Metric {
    /// Every metric, in the order they are printed.
    pub const ALL: [Metric; 6] = [
        Metric::Keys,
        Metric::Cpu,
        Metric::NetIn,
        Metric::NetOut,
        Metric::Net,
        Metric::Memory,
    ];

    /// Its name, as `--by` takes it: `keys`, `cpu`, `net-in`, `net-out`, `net`, `memory`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Metric::Keys => "keys",
            Metric::Cpu => "cpu",
            Metric::NetIn => "net-in",
            Metric::NetOut => "net-out",
            Metric::Net => "net",
            Metric::Memory => "memory",
        }
    }

    /// Its field in `CLUSTER SLOT-STATS`; `None` for [`Metric::Net`], the sum of two.
    #[must_use]
    pub fn field(self) -> Option<&'static str> {
        match self {
            Metric::Keys => Some("key-count"),
            Metric::Cpu => Some("cpu-usec"),
            Metric::NetIn => Some("network-bytes-in"),
            Metric::NetOut => Some("network-bytes-out"),
            Metric::Net => None,
            Metric::Memory => Some("memory-bytes"),
        }
    }

    /// Its unit: `keys`, `µs` or `bytes`.
    #[must_use]
    pub fn unit(self) -> &'static str {
        match self {
            Metric::Keys => "keys",
            Metric::Cpu => "µs",
            Metric::NetIn | Metric::NetOut | Metric::Net | Metric::Memory => "bytes",
        }
    }

    /// How a server comes to collect it, for a message.
    fn how(self) -> &'static str {
        match self {
            Metric::Keys => "every server with CLUSTER SLOT-STATS or CLUSTER COUNTKEYSINSLOT gives it",
            Metric::Cpu | Metric::NetIn | Metric::NetOut | Metric::Net => {
                "enable it on every primary with `CONFIG SET cluster-slot-stats-enabled yes` (Valkey 8.0+, Redis 8.2+), then let the workload run"
            }
            Metric::Memory => {
                "Redis 8.2+ gives it with `cluster-slot-stats-enabled yes`; Valkey 8.0 does not have it"
            }
        }
    }
}

impl fmt::Display for Metric {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Metric {
    type Err = String;

    /// A metric by its [`name`](Metric::name), or by its server field (`cpu-usec`).
    fn from_str(s: &str) -> Result<Self, String> {
        Metric::ALL
            .into_iter()
            .find(|m| m.name() == s || m.field() == Some(s))
            .ok_or_else(|| {
                format!(
                    "`{}` is not a metric: give one of {}",
                    crate::text::escape_cut(s.as_bytes()),
                    Metric::ALL.map(Metric::name).join(", ")
                )
            })
    }
}

/// Where a [`SlotLoad`] was read from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "command", rename_all = "SCREAMING_SNAKE_CASE")]
pub enum LoadSource {
    /// `CLUSTER SLOT-STATS SLOTSRANGE 0 16383` of every primary, for its own slots.
    ClusterSlotStats,
    /// `CLUSTER COUNTKEYSINSLOT` of every slot, sent to its primary: keys only, because a
    /// server refused `CLUSTER SLOT-STATS` (before Valkey 8.0 and Redis 8.2, or an ACL user
    /// without it).
    CountKeysInSlot {
        /// The refusal of `CLUSTER SLOT-STATS`, escaped.
        slot_stats_refused: String,
    },
}

/// The load of every slot of a live cluster, per metric that its servers collect.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SlotLoad {
    /// The cluster's map, read in the same exchange.
    pub topology: Topology,
    /// Where the values were read from.
    pub source: LoadSource,
    /// For each metric that every primary gives for every slot it owns, 16384 values indexed
    /// by slot (0 on a slot that no primary owns). A metric that some primary does not
    /// collect is absent, never 0. A slot in migration is counted on its owner; its keys
    /// include those that the importing primary holds ([`SlotLoad::fetch`]).
    pub values: BTreeMap<Metric, Vec<u64>>,
}

/// One primary's part of a metric in a [`Summary`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PrimaryLoad {
    /// The index of its shard in [`Topology::shards`].
    pub shard: usize,
    /// The slots it owns.
    pub slots: u32,
    /// The metric summed over its slots.
    pub total: u64,
    /// `total` over the cluster's total, 0 to 1 (0 when the cluster's total is 0).
    pub share: f64,
    /// Its weight (1 unless weights were given).
    pub weight: f64,
    /// `total` over its fair share (`total of the cluster * weight / sum of weights`): 1.0
    /// when it carries exactly its share; `None` when the cluster's total is 0.
    pub ratio: Option<f64>,
}

/// One metric of a [`SlotLoad`] summed per primary.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    /// The metric.
    pub metric: Metric,
    /// Its sum over every slot.
    pub total: u64,
    /// Every shard's primary, in [`Topology::shards`]' order (primaries without slots too:
    /// they could take some).
    pub primaries: Vec<PrimaryLoad>,
    /// The skew: the largest of `total_i / fair_i` over the primaries, where `fair_i =
    /// total * weight_i / sum of weights` (with equal weights, the largest total over the
    /// mean); 1.0 for a perfect balance; `None` when the total is 0.
    pub skew: Option<f64>,
    /// The fair share of the primary of the largest weight, `total * max weight / sum of
    /// weights`: a slot holding more cannot be placed anywhere without a skew above 1.
    pub largest_fair_share: f64,
    /// The slots of the largest values, `(slot, value)`, largest first, ties by slot, none
    /// of value 0; as many as asked.
    pub top: Vec<(u16, u64)>,
    /// Every slot whose value alone is more than `largest_fair_share`, `(slot, value)`,
    /// largest first: a hot slot that no slot move can even out (its keys, or their
    /// hashtag, must be split).
    pub hot: Vec<(u16, u64)>,
}

impl SlotLoad {
    /// Reads the topology of the cluster of the node at `url` (as [`Topology::fetch`]),
    /// then the load of every slot from its primary: `CLUSTER SLOT-STATS SLOTSRANGE 0
    /// 16383`, of which each primary's answer for its own slots is kept; where a primary
    /// refuses it (a server before Valkey 8.0 or Redis 8.2 answers "unknown subcommand"),
    /// key counts by `CLUSTER COUNTKEYSINSLOT` for every slot, sent to its primary in
    /// pipelines of [`COUNT_BATCH`]. The keys of a slot in migration are counted on the
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

    /// A load from values already read (for tests, and for answers recorded elsewhere).
    #[must_use]
    pub fn new(topology: Topology, source: LoadSource, values: BTreeMap<Metric, Vec<u64>>) -> Self {
        let mut load = Self {
            topology,
            source,
            values,
        };
        load.add_net();
        load
    }

    /// The metrics collected, in [`Metric::ALL`]'s order.
    pub fn metrics(&self) -> impl Iterator<Item = Metric> + '_ {
        self.values.keys().copied()
    }

    /// The 16384 values of `metric`, or `None` when it is not collected.
    #[must_use]
    pub fn get(&self, metric: Metric) -> Option<&[u64]> {
        self.values.get(&metric).map(Vec::as_slice)
    }

    /// The 16384 values of `metric`.
    ///
    /// # Errors
    ///
    /// [`Error::NotCollected`], saying why and how to collect it.
    pub fn require(&self, metric: Metric) -> Result<&[u64], Error> {
        self.get(metric).ok_or_else(|| Error::NotCollected {
            metric: metric.name().to_owned(),
            why: match (&self.source, metric) {
                (LoadSource::CountKeysInSlot { slot_stats_refused }, _) => format!(
                    "the servers refused CLUSTER SLOT-STATS ({slot_stats_refused}), which Valkey 8.0+ and Redis 8.2+ have; CLUSTER COUNTKEYSINSLOT counts keys only"
                ),
                (LoadSource::ClusterSlotStats, metric) => {
                    let field = metric.field().map_or_else(
                        || "`network-bytes-in` and `network-bytes-out`".to_owned(),
                        |f| format!("`{f}`"),
                    );
                    format!("CLUSTER SLOT-STATS does not give {field} on every primary: {}", metric.how())
                }
            },
            collected: self.metrics().map(|m| m.name().to_owned()).collect(),
        })
    }

    /// `metric` summed per primary, with its skew, its `top` largest slots and its hot
    /// slots ([`Summary::of`] of the metric's values).
    ///
    /// # Errors
    ///
    /// [`Error::NotCollected`]; [`Error::Weights`] as [`Summary::of`].
    pub fn summary(&self, metric: Metric, top: usize, weights: &[f64]) -> Result<Summary, Error> {
        Summary::of(metric, self.require(metric)?, &self.topology, top, weights)
    }

    /// [`Metric::Net`] from `net-in` and `net-out`, where both are collected.
    fn add_net(&mut self) {
        if let (Some(a), Some(b)) = (
            self.values.get(&Metric::NetIn),
            self.values.get(&Metric::NetOut),
        ) {
            let net = a.iter().zip(b).map(|(a, b)| a.saturating_add(*b)).collect();
            self.values.insert(Metric::Net, net);
        }
    }
}

/// Each primary's total over its fair share: `total_i / fair_i`, where `fair_i = total *
/// weight_i / sum of weights`, for per-primary `totals` and `weights` (one each); `None`
/// when the total is 0. [`PrimaryLoad::ratio`].
#[must_use]
pub fn fair_ratios(totals: &[u64], weights: &[f64]) -> Option<Vec<f64>> {
    let total = totals.iter().fold(0u64, |sum, t| sum.saturating_add(*t));
    let weight_sum: f64 = weights.iter().sum();
    (total > 0).then(|| {
        totals
            .iter()
            .zip(weights)
            .map(|(&t, &w)| t as f64 / (total as f64 * w / weight_sum))
            .collect()
    })
}

/// The skew of per-primary `totals` with `weights` (one each): the largest of
/// [`fair_ratios`] (with equal weights, the largest total over the mean); 1.0 for a
/// perfect balance; `None` when the total is 0 or there is no primary. [`Summary::skew`]
/// and a rebalance [`Plan`](super::Plan)'s skews.
///
/// # Examples
///
/// ```
/// use slotgen::cluster::weighted_skew;
///
/// assert_eq!(weighted_skew(&[30, 30, 60], &[1.0, 1.0, 1.0]), Some(1.5));
/// // a primary of weight 2 is meant to hold half of the load
/// assert_eq!(weighted_skew(&[25, 25, 50], &[1.0, 1.0, 2.0]), Some(1.0));
/// assert_eq!(weighted_skew(&[0, 0], &[1.0, 1.0]), None);
/// ```
#[must_use]
pub fn weighted_skew(totals: &[u64], weights: &[f64]) -> Option<f64> {
    fair_ratios(totals, weights)?.into_iter().reduce(f64::max)
}

/// The rule of weights: one per primary (`shards` of them), each finite and above 0.
///
/// # Errors
///
/// [`Error::Weights`] naming the rule broken.
pub(super) fn check_weights(weights: &[f64], shards: usize) -> Result<(), Error> {
    if weights.len() != shards {
        return Err(Error::Weights {
            reason: format!(
                "{} weights for {shards} primaries: give one per primary",
                weights.len()
            ),
        });
    }
    if let Some(w) = weights.iter().find(|w| !(w.is_finite() && **w > 0.0)) {
        return Err(Error::Weights {
            reason: format!("{w} is not a weight: give a finite number above 0"),
        });
    }
    Ok(())
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

impl Summary {
    /// `values` (16384, indexed by slot) of `metric` summed per primary of `topology`, with
    /// the skew, the `top` largest slots and the hot slots. `weights` holds one weight per shard of the topology, in its order (a primary
    /// meant to carry twice the load of another has twice the weight); empty for equal
    /// weights.
    ///
    /// # Errors
    ///
    /// [`Error::Weights`] for weights of another count than the
    /// shards, or not finite and above 0.
    ///
    pub fn of(
        metric: Metric,
        values: &[u64],
        topology: &Topology,
        top: usize,
        weights: &[f64],
    ) -> Result<Summary, Error> {
        let shards = topology.shards.len();
        if !weights.is_empty() {
            check_weights(weights, shards)?;
        }
        let weight = |i: usize| weights.get(i).copied().unwrap_or(1.0);
        let mut primaries: Vec<PrimaryLoad> = topology
            .shards
            .iter()
            .enumerate()
            .map(|(i, shard)| PrimaryLoad {
                shard: i,
                slots: shard.slot_count(),
                total: 0,
                share: 0.0,
                weight: weight(i),
                ratio: None,
            })
            .collect();
        for (owner, &value) in topology.owners().iter().zip(values) {
            if let Some(i) = owner {
                primaries[*i].total = primaries[*i].total.saturating_add(value);
            }
        }
        let total = primaries
            .iter()
            .fold(0u64, |sum, p| sum.saturating_add(p.total));
        for p in &mut primaries {
            p.share = if total == 0 {
                0.0
            } else {
                p.total as f64 / total as f64
            };
        }
        let weight_sum: f64 = (0..shards).map(weight).sum();
        let weight_max = (0..shards).map(weight).fold(0.0, f64::max);
        let totals: Vec<u64> = primaries.iter().map(|p| p.total).collect();
        let all: Vec<f64> = primaries.iter().map(|p| p.weight).collect();
        if let Some(ratios) = fair_ratios(&totals, &all) {
            for (p, r) in primaries.iter_mut().zip(ratios) {
                p.ratio = Some(r);
            }
        }
        let skew = weighted_skew(&totals, &all);
        let largest_fair_share = if shards == 0 {
            0.0
        } else {
            total as f64 * weight_max / weight_sum
        };
        // every slot of a value, largest first: the hot ones lead
        let mut ranked = top_slots(values, usize::from(SLOTS));
        let hot = ranked
            .iter()
            .take_while(|&&(_, v)| v as f64 > largest_fair_share)
            .copied()
            .collect();
        ranked.truncate(top);
        Ok(Summary {
            metric,
            total,
            primaries,
            skew,
            largest_fair_share,
            top: ranked,
            hot,
        })
    }
}

impl Summary {
    /// The slot map of this summary as SVG ([`SlotMap`](crate::slot_map::SlotMap)): `values`
    /// (the summary's, 16384 indexed by slot) in the colours of `topology`'s primaries, with
    /// their shares and ratios, the skew, and the hot slots. The primaries take their colours
    /// and legend rows in the order of their addresses (as text, then node ids), not of their
    /// slots, so that a primary keeps its colour in the pictures before and after its slots
    /// move.
    #[must_use]
    pub fn picture(&self, title: &str, values: &[u64], topology: &Topology) -> String {
        use crate::slot_map::{LegendEntry, SlotMap};
        let node = |p: &PrimaryLoad| &topology.shards[p.shard].primary;
        let mut order: Vec<&PrimaryLoad> = self.primaries.iter().collect();
        order.sort_by(|a, b| (&node(a).addr, &node(a).id).cmp(&(&node(b).addr, &node(b).id)));
        // the colour (and legend row) of each shard
        let mut colour_of = vec![None; topology.shards.len()];
        for (i, p) in order.iter().enumerate() {
            colour_of[p.shard] = Some(i);
        }
        let owners: Vec<Option<usize>> = topology
            .owners()
            .into_iter()
            .map(|shard| shard.and_then(|s| colour_of[s]))
            .collect();
        let legend: Vec<LegendEntry> = order
            .iter()
            .map(|p| LegendEntry {
                node: node(p).id.clone(),
                addr: node(p).addr.clone(),
                share: p.share,
                ratio: p.ratio,
            })
            .collect();
        let hot: Vec<u16> = self.hot.iter().map(|h| h.0).collect();
        SlotMap {
            title,
            values,
            owners: &owners,
            primaries: &legend,
            skew: self.skew,
            hot: &hot,
        }
        .render()
    }
}

/// What one primary gave: per metric, its own slots' values.
type Fields = BTreeMap<Metric, Vec<(u16, u64)>>;

/// The per-slot load of every primary of `topology`: `CLUSTER SLOT-STATS`, or
/// `CLUSTER COUNTKEYSINSLOT` when a primary refuses it.
fn read(exchange: &Exchange, topology: Topology) -> Result<SlotLoad, Error> {
    const SLOT_STATS_COMMAND: &str = "CLUSTER SLOT-STATS";
    let owners = topology.owners();
    let slot_stats = ask_primaries(exchange, &topology, |con, shard| {
        let cmd = redis::cmd("CLUSTER")
            .arg("SLOT-STATS")
            .arg("SLOTSRANGE")
            .arg(0)
            .arg(SLOTS - 1)
            .to_owned();
        let answer = exchange.query(con, &cmd, SLOT_STATS).map_err(|e| match e {
            // a refusal by the user's rights is one more reason to fall back
            Error::NoPermission { url, denied } => Error::Refused {
                url,
                command: SLOT_STATS_COMMAND.to_owned(),
                reason: format!("NOPERM: {denied}"),
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
                // both refused by the user's rights: either would do
                Error::NoPermission { url, .. } if reason.starts_with("NOPERM") => {
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
                    "its primary {} gives `key-count` for {n} of the {owned} slots it owns",
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
    if let Some(keys) = values.get_mut(&Metric::Keys) {
        add_imported_keys(exchange, &topology, keys)?;
    }
    Ok(SlotLoad::new(topology, source, values))
}

/// Adds to `keys` (16384 counts, indexed by slot) the keys that an importing primary holds
/// already of each slot in migration (`CLUSTER SETSLOT s IMPORTING`, in
/// [`Topology::migrations`]): its `CLUSTER COUNTKEYSINSLOT` of the slot, sent in pipelines
/// of [`COUNT_BATCH`], counted on the slot's owner. `CLUSTER SLOT-STATS` gives only the
/// slots of the node's own shard, so neither command of the owner counts them.
fn add_imported_keys(
    exchange: &Exchange,
    topology: &Topology,
    keys: &mut [u64],
) -> Result<(), Error> {
    for (importer, slots) in imports(topology) {
        let primary = &topology.shards[importer].primary;
        let node = exchange.primary_endpoint(primary)?;
        let gone = gone(primary);
        let mut con = exchange.connect(&node).map_err(gone)?;
        let counted = count_keys(exchange, &mut con, slots).map_err(gone)?;
        for &(slot, n) in &counted[&Metric::Keys] {
            let value = &mut keys[usize::from(slot)];
            *value = value.saturating_add(n);
        }
    }
    Ok(())
}

/// The slots that each primary imports from another shard's primary, by the importer's
/// shard (its index in [`Topology::shards`]), each slot once, in order. A slot imported by
/// a node that is no shard's primary, by its owner's own shard, or that no primary owns
/// has no part elsewhere to read.
fn imports(topology: &Topology) -> BTreeMap<usize, Vec<u16>> {
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
/// [`COUNT_BATCH`].
fn count_keys(exchange: &Exchange, con: &mut Connection, slots: Vec<u16>) -> Result<Fields, Error> {
    let command = "CLUSTER COUNTKEYSINSLOT";
    let shown = con.url().to_owned();
    let mut keys = Vec::with_capacity(slots.len());
    for batch in slots.chunks(COUNT_BATCH) {
        let mut pipe = redis::pipe();
        for &slot in batch {
            pipe.cmd("CLUSTER").arg("COUNTKEYSINSLOT").arg(slot);
        }
        exchange.set_stage(format!(
            "waiting for `{command}` of {shown} (slots {} to {})",
            batch[0],
            batch[batch.len() - 1]
        ));
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
                            "the answer for slot {slot} is not a count but {other:?}"
                        )),
                    })
                }
            }
        }
        exchange.remaining(&shown)?;
    }
    Ok(BTreeMap::from([(Metric::Keys, keys)]))
}

/// The fields of `CLUSTER SLOT-STATS` (RESP2: an array of `[slot, [name, value, ...]]`;
/// RESP3: the fields as a map) for the slots that `owners` gives to shard `shard`; slots of
/// other shards are skipped, unknown fields ignored.
fn parse_slot_stats(
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
                    "an entry is not `[slot, stats]` but {other:?}"
                )))
            }
        };
        let slot = match slot {
            Value::Int(n) if (0..i64::from(SLOTS)).contains(n) => *n as u16,
            other => {
                return Err(crate::text::reason(&format!(
                    "{other:?} is not a slot in 0 to 16383"
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
                    "the statistics of slot {slot} are not name-value pairs but {other:?}"
                )))
            }
        };
        for (name, value) in pairs {
            let name = match name {
                Value::BulkString(b) => b.as_slice(),
                Value::SimpleString(s) => s.as_bytes(),
                other => {
                    return Err(crate::text::reason(&format!(
                        "a field name of slot {slot} is {other:?}"
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
                        "`{}` of slot {slot} is not a count but {other:?}",
                        crate::text::escape(name)
                    )))
                }
            };
            fields.entry(metric).or_default().push((slot, value));
        }
    }
    Ok(fields)
}

#[cfg(test)]
mod tests {
    use super::super::{Migration, Node, Role, Shard, SlotRange, Source};
    use super::*;

    /// Three primaries: slots 0-9, 10-19, 20-16383.
    fn topology() -> Topology {
        let shard = |n: u8, first: u16, last: u16| Shard {
            primary: Node {
                id: format!("{n:040}"),
                addr: format!("127.0.0.1:{}", 7000 + u16::from(n)),
                role: Role::Primary,
                health: Some("online".to_owned()),
            },
            replicas: Vec::new(),
            ranges: vec![SlotRange { first, last }],
        };
        Topology {
            shards: vec![shard(0, 0, 9), shard(1, 10, 19), shard(2, 20, 16383)],
            left_out: Vec::new(),
            migrations: Vec::new(),
            source: Source::ClusterShards,
        }
    }

    /// `(slot, value)` pairs, the other slots 0.
    type Pairs<'a> = &'a [(u16, u64)];

    fn load(keys: Pairs, net: Option<(Pairs, Pairs)>) -> SlotLoad {
        let fill = |pairs: &[(u16, u64)]| {
            let mut v = vec![0; 16384];
            for &(s, n) in pairs {
                v[usize::from(s)] = n;
            }
            v
        };
        let mut values = BTreeMap::from([(Metric::Keys, fill(keys))]);
        if let Some((a, b)) = net {
            values.insert(Metric::NetIn, fill(a));
            values.insert(Metric::NetOut, fill(b));
        }
        SlotLoad::new(topology(), LoadSource::ClusterSlotStats, values)
    }

    #[test]
    fn totals_shares_skew_top_and_hot() {
        // primary 0: 10 + 50 = 60; primary 1: 30; primary 2: 10. Total 100, mean 33.3.
        let load = load(&[(0, 10), (5, 50), (10, 30), (100, 10)], None);
        let s = load.summary(Metric::Keys, 2, &[]).unwrap();
        assert_eq!(s.total, 100);
        assert_eq!(
            s.primaries.iter().map(|p| p.total).collect::<Vec<_>>(),
            [60, 30, 10]
        );
        assert_eq!(
            s.primaries.iter().map(|p| p.slots).collect::<Vec<_>>(),
            [10, 10, 16364]
        );
        assert!((s.primaries[0].share - 0.6).abs() < 1e-12);
        // 60 / (100 / 3) = 1.8, 30 / 33.3 = 0.9, 10 / 33.3 = 0.3
        assert!((s.skew.unwrap() - 1.8).abs() < 1e-12);
        for (p, r) in s.primaries.iter().zip([1.8, 0.9, 0.3]) {
            assert!((p.ratio.unwrap() - r).abs() < 1e-12, "{p:?}");
        }
        assert_eq!(s.top, [(5, 50), (10, 30)]);
        // fair share 33.3: slot 5 (50) alone is over it
        assert_eq!(s.hot, [(5, 50)]);
    }

    #[test]
    fn weights_change_the_fair_shares() {
        let load = load(&[(0, 10), (5, 50), (10, 30), (100, 10)], None);
        // weights 2, 1, 1: fair shares 50, 25, 25; 60/50 = 1.2, 30/25 = 1.2, 10/25 = 0.4
        let s = load.summary(Metric::Keys, 0, &[2.0, 1.0, 1.0]).unwrap();
        assert!((s.skew.unwrap() - 1.2).abs() < 1e-12);
        assert!((s.largest_fair_share - 50.0).abs() < 1e-12);
        // slot 5 holds 50, not more than 50: it fits on the primary of weight 2
        assert!(s.hot.is_empty());
        assert!(s.top.is_empty());
        assert!(matches!(
            load.summary(Metric::Keys, 0, &[1.0]),
            Err(Error::Weights { .. })
        ));
        assert!(matches!(
            load.summary(Metric::Keys, 0, &[1.0, 0.0, 1.0]),
            Err(Error::Weights { .. })
        ));
    }

    #[test]
    fn empty_load_has_no_skew() {
        let s = load(&[], None).summary(Metric::Keys, 5, &[]).unwrap();
        assert_eq!(s.total, 0);
        assert_eq!(s.skew, None);
        assert!(s.top.is_empty() && s.hot.is_empty());
    }

    #[test]
    fn net_is_in_plus_out_and_absent_metrics_are_refused() {
        let load = load(&[], Some((&[(0, 3), (20, 4)], &[(0, 5)])));
        let s = load.summary(Metric::Net, 1, &[]).unwrap();
        assert_eq!(s.total, 12);
        assert_eq!(s.top, [(0, 8)]);
        assert_eq!(
            load.metrics().collect::<Vec<_>>(),
            [Metric::Keys, Metric::NetIn, Metric::NetOut, Metric::Net]
        );
        let e = load.summary(Metric::Cpu, 1, &[]).unwrap_err();
        assert!(
            e.to_string().contains("cluster-slot-stats-enabled yes"),
            "{e}"
        );
        assert!(e.to_string().contains("`cpu-usec`"), "{e}");
    }

    #[test]
    fn imports_are_read_from_the_importing_primary_of_another_shard() {
        let mut topology = topology();
        let id = |n: u8| format!("{n:040}");
        let m = |slot: u16, kind: MigrationKind, node: u8, peer: u8| Migration {
            slot,
            kind,
            node: id(node),
            peer: id(peer),
        };
        topology.migrations = vec![
            // slot 5 of primary 0, moving to 1: reported by both ends, read once, on 1
            m(5, MigrationKind::Migrating, 0, 1),
            m(5, MigrationKind::Importing, 1, 0),
            m(5, MigrationKind::Importing, 1, 0),
            // slot 100 of primary 2, moving to 1
            m(100, MigrationKind::Importing, 1, 2),
            // slot 3 "imported" by its own owner: nothing elsewhere
            m(3, MigrationKind::Importing, 0, 2),
            // a node that is no primary
            m(12, MigrationKind::Importing, 9, 1),
        ];
        assert_eq!(imports(&topology), BTreeMap::from([(1, vec![5, 100])]));
    }

    #[test]
    fn metric_names() {
        for m in Metric::ALL {
            assert_eq!(m.name().parse::<Metric>(), Ok(m));
        }
        assert_eq!("cpu-usec".parse::<Metric>(), Ok(Metric::Cpu));
        assert!("cpus".parse::<Metric>().unwrap_err().contains("net-in"));
    }

    #[test]
    fn slot_stats_answers() {
        let owners = topology().owners();
        let entry = |slot: i64, fields: &[(&str, i64)]| {
            Value::Array(vec![
                Value::Int(slot),
                Value::Array(
                    fields
                        .iter()
                        .flat_map(|(n, v)| {
                            [Value::BulkString(n.as_bytes().to_vec()), Value::Int(*v)]
                        })
                        .collect(),
                ),
            ])
        };
        let answer = Value::Array(vec![
            entry(9, &[("key-count", 4), ("cpu-usec", 7), ("future-field", 1)]),
            entry(10, &[("key-count", 8)]),
        ]);
        let fields = parse_slot_stats(&answer, &owners, 0).unwrap();
        assert_eq!(fields[&Metric::Keys], [(9, 4)]);
        assert_eq!(fields[&Metric::Cpu], [(9, 7)]);
        let twice = Value::Array(vec![entry(9, &[]), entry(9, &[])]);
        assert!(parse_slot_stats(&twice, &owners, 0)
            .unwrap_err()
            .contains("twice"));
        let negative = Value::Array(vec![entry(9, &[("key-count", -1)])]);
        assert!(parse_slot_stats(&negative, &owners, 0).is_err());
        let out = Value::Array(vec![entry(16384, &[])]);
        assert!(parse_slot_stats(&out, &owners, 0).is_err());
    }
}
