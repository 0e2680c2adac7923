//! Where the load lands: [`SlotLoad`] reads per-slot load from every primary of a live
//! cluster (`CLUSTER SLOT-STATS`, or key counts by `CLUSTER COUNTKEYSINSLOT` on servers
//! without it), and sums it per primary ([`SlotLoad::summary`]): totals, shares, the skew,
//! the top slots and the hot slots.

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use serde::Serialize;

use super::placement::top_slots;
use super::{Error, Topology};

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

impl LoadSource {
    /// The command that reads `slot`'s values from its primary: `CLUSTER SLOT-STATS
    /// SLOTSRANGE 5 5`, or `CLUSTER COUNTKEYSINSLOT 5`.
    #[must_use]
    pub fn command(&self, slot: u16) -> String {
        match self {
            Self::ClusterSlotStats => format!("CLUSTER SLOT-STATS SLOTSRANGE {slot} {slot}"),
            Self::CountKeysInSlot { .. } => format!("CLUSTER COUNTKEYSINSLOT {slot}"),
        }
    }
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
    /// The primaries that hold keys of slots they neither own nor import, which no client
    /// reads and no metric counts (a slot set `STABLE` while half moved leaves them):
    /// found where a primary's `DBSIZE` exceeds the keys of its slots ([`SlotLoad::fetch`]).
    /// Empty when every key is counted, or when keys are not collected.
    pub stranded: Vec<Stranded>,
    /// What each replica that answers `CLUSTER SLOT-STATS` served itself of its primary's
    /// slots (reads sent after `READONLY`), which [`SlotLoad::values`] leaves out: a slot's
    /// load is its primary's, as a plan moves it. Only replicas that served some CPU time
    /// or network bytes; empty where the load is read by `CLUSTER COUNTKEYSINSLOT`.
    pub replicas: Vec<ReplicaServed>,
    /// The replicas asked for [`SlotLoad::replicas`] that refused slotgen's credentials
    /// (`NOAUTH`, `WRONGPASS`, `NOPERM`: a `requirepass` or an ACL user set otherwise there
    /// than on the node given), whose share is not known.
    pub refused: Vec<ReplicaRefused>,
}

/// A replica that refused slotgen's credentials when asked what it served.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ReplicaRefused {
    /// The index of its shard in [`Topology::shards`].
    pub shard: usize,
    /// Its address, as the map gives it (escape it before printing it).
    pub addr: String,
    /// The refusal, as slotgen says it (the URL and the rule), escaped.
    pub why: String,
}

/// What one replica served of its primary's slots, by its own `CLUSTER SLOT-STATS`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ReplicaServed {
    /// The index of its shard in [`Topology::shards`].
    pub shard: usize,
    /// Its address, as the map gives it (escape it before printing it).
    pub addr: String,
    /// Per metric of those it gives besides [`Metric::Keys`] ([`Metric::Net`] the sum of
    /// its two), its total over the shard's slots and its largest slot, `(total, (slot,
    /// value))`.
    pub served: BTreeMap<Metric, (u64, (u16, u64))>,
}

/// Keys that a primary holds of slots it neither owns nor imports: a client is redirected
/// to the slot's owner and never reads them, and no load counts them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Stranded {
    /// The index of its shard in [`Topology::shards`].
    pub shard: usize,
    /// Its `DBSIZE`, summed over its databases.
    pub dbsize: u64,
    /// The keys of the slots it owns or imports, as the load counts them on it.
    pub counted: u64,
    /// Each slot it neither owns nor imports and holds keys of, `(slot, keys)`, in order
    /// (`CLUSTER COUNTKEYSINSLOT`, in every database).
    pub slots: Vec<(u16, u64)>,
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
    /// The hot slots ([`hot_slots`]: a value alone more than `largest_fair_share`), `(slot,
    /// value)`, largest first: no slot move evens them out (their keys' hashtag must be
    /// split).
    pub hot: Vec<(u16, u64)>,
    /// The least skew of any slot plan while the hot slots stay whole: the first hot slot's
    /// floor ([`HotSlot::floor`]); `None` when no slot is hot.
    pub floor: Option<f64>,
}

impl SlotLoad {
    /// A load from values already read (for tests, and for answers recorded elsewhere).
    #[must_use]
    pub fn new(topology: Topology, source: LoadSource, values: BTreeMap<Metric, Vec<u64>>) -> Self {
        let mut load = Self {
            topology,
            source,
            values,
            stranded: Vec::new(),
            replicas: Vec::new(),
            refused: Vec::new(),
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
    /// [`Error::NotCollected`], saying why and how to collect it; [`Error::Overflow`]
    /// when the values sum past `u64::MAX` or one of them is `u64::MAX` (a sum that
    /// saturated): no server measures that much, and a total that saturates would show two
    /// primaries at 100% each.
    pub fn require(&self, metric: Metric) -> Result<&[u64], Error> {
        let values = self.require_collected(metric)?;
        let overflow = values.iter().position(|&v| v == u64::MAX).or_else(|| {
            let mut sum = 0u64;
            values.iter().position(|&v| match sum.checked_add(v) {
                Some(next) => {
                    sum = next;
                    false
                }
                None => true,
            })
        });
        match overflow {
            Some(slot) => {
                let slot = u16::try_from(slot).expect("16384 values");
                Err(Error::Overflow {
                    metric: metric.name().to_owned(),
                    slot,
                    command: self.source.command(slot),
                    others: self.metrics().any(|m| m != metric),
                })
            }
            None => Ok(values),
        }
    }

    /// The replicas that served a share of `metric` themselves (reads after `READONLY`)
    /// that the load leaves out ([`SlotLoad::replicas`]): each that served more than twice
    /// what its primary served of the same slots (a replica applies its primary's writes,
    /// which its `CLUSTER SLOT-STATS` counts too: measured on Valkey 9.1, about as much CPU
    /// time as the primary's), and a tenth or more of what every primary served together,
    /// with its part and its largest slot, most first; `None` where none did, or for
    /// [`Metric::Keys`] (a replica holds its primary's keys, and serves none of its own).
    /// The primaries' sum is the load by which slots are planned: a slot's replica reads
    /// move with it, to the replicas of its new primary. Each replica that refused slotgen's
    /// credentials ([`SlotLoad::refused`]) is named with the refusal and the fix: its share
    /// is not known (before, it was left out without a word).
    pub fn replicas_note(&self, metric: Metric) -> Option<String> {
        let values = self.values.get(&metric)?;
        let primaries = values.iter().fold(0u64, |t, &v| t.saturating_add(v));
        let own = |shard: usize| {
            self.topology.shards[shard]
                .slots()
                .fold(0u64, |t, slot| t.saturating_add(values[usize::from(slot)]))
        };
        let mut parts: Vec<(&ReplicaServed, u64, (u16, u64), u64)> = self
            .replicas
            .iter()
            .filter_map(|r| {
                let &(total, top) = r.served.get(&metric)?;
                let primary = own(r.shard);
                let counts =
                    total > primary.saturating_mul(2) && total.saturating_mul(10) >= primaries;
                counts.then_some((r, total, top, primary))
            })
            .collect();
        // a replica that refused slotgen's credentials: its share not known, said with the fix
        let refused = self
            .refused
            .iter()
            .map(|r| {
                let primary = crate::text::field(self.topology.shards[r.shard].primary.addr.as_bytes());
                format!(
                    "{} (a replica of {primary}) refused slotgen's credentials ({}), so what it served itself (reads after `READONLY`) is not known: {}, then run this again",
                    crate::text::field(r.addr.as_bytes()),
                    r.why,
                    crate::error::REPLICA_CREDENTIALS
                )
            })
            .collect::<Vec<_>>()
            .join("; ");
        if metric == Metric::Keys || (parts.is_empty() && refused.is_empty()) {
            return None;
        }
        if parts.is_empty() {
            return Some(refused);
        }
        parts.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.addr.cmp(&b.0.addr)));
        let unit = metric.unit();
        let each: Vec<String> = parts
            .iter()
            .map(|(r, total, (slot, top), own)| {
                let primary = crate::text::field(self.topology.shards[r.shard].primary.addr.as_bytes());
                let against = if primaries == 0 {
                    "the primaries served none".to_owned()
                } else {
                    format!(
                        "against {own} {unit} on its primary, and {primaries} {unit} on every primary together"
                    )
                };
                format!(
                    "{} (a replica of {primary}) {total} {unit} of its primary's slots, {against}; most on slot {slot} ({top} {unit})",
                    crate::text::field(r.addr.as_bytes())
                )
            })
            .collect();
        Some(format!(
            "replicas served reads (after `READONLY`) that the `{metric}` here leaves out, which counts each slot on its primary: {}; a slot's replica reads move with it, to the replicas of its new primary (`CLUSTER SLOT-STATS` on a replica gives its part){}",
            each.join("; "),
            if refused.is_empty() { String::new() } else { format!("; {refused}") }
        ))
    }

    /// Each metric of [`Metric::ALL`] that is not collected, with why, in a few words: the
    /// server's refusal of `CLUSTER SLOT-STATS` is [`LoadSource::CountKeysInSlot`]'s, said
    /// once there, not repeated per metric. A metric that [`require`](Self::require)
    /// refuses for its size ([`Error::Overflow`]) is not among them: it is collected.
    #[must_use]
    pub fn absent(&self) -> Vec<(Metric, String)> {
        Metric::ALL
            .into_iter()
            .filter(|&m| self.get(m).is_none())
            .map(|m| {
                let why = match (&self.source, m) {
                    (LoadSource::CountKeysInSlot { .. }, _) => {
                        "CLUSTER SLOT-STATS was refused, and CLUSTER COUNTKEYSINSLOT counts keys only"
                            .to_owned()
                    }
                    (LoadSource::ClusterSlotStats, m) => self.not_collected_why(m),
                };
                (m, why)
            })
            .collect()
    }

    /// Why CLUSTER SLOT-STATS does not give `metric`, and how to make it.
    fn not_collected_why(&self, metric: Metric) -> String {
        let field = metric.field().map_or_else(
            || "`network-bytes-in` and `network-bytes-out`".to_owned(),
            |f| format!("`{f}`"),
        );
        format!(
            "CLUSTER SLOT-STATS does not give {field} on every primary: {}",
            metric.how()
        )
    }

    /// The values of `metric` as collected, unchecked.
    fn require_collected(&self, metric: Metric) -> Result<&[u64], Error> {
        self.get(metric).ok_or_else(|| Error::NotCollected {
            metric: metric.name().to_owned(),
            why: match (&self.source, metric) {
                (LoadSource::CountKeysInSlot { slot_stats_refused }, _) => format!(
                    "the servers refused CLUSTER SLOT-STATS ({slot_stats_refused}), which Valkey 8.0+ and Redis 8.2+ have; CLUSTER COUNTKEYSINSLOT counts keys only"
                ),
                (LoadSource::ClusterSlotStats, metric) => self.not_collected_why(metric),
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

/// The total of `values` (one per slot) on each of `shards` primaries, by `owners` (the
/// shard of each slot; a slot of no owner, or of one out of range, counts nowhere),
/// saturating: the one sum behind every skew of a map.
///
/// ```
/// use slotgen_cluster::shard_totals;
///
/// assert_eq!(shard_totals(&[5, 7, 1], &[Some(1), Some(0), None], 2), [7, 5]);
/// ```
#[must_use]
pub fn shard_totals(values: &[u64], owners: &[Option<usize>], shards: usize) -> Vec<u64> {
    let mut totals = vec![0u64; shards];
    for (&v, o) in values.iter().zip(owners) {
        if let Some(o) = o.filter(|&o| o < shards) {
            totals[o] = totals[o].saturating_add(v);
        }
    }
    totals
}

/// The skew of per-primary `totals` with `weights` (one each): the largest of
/// [`fair_ratios`] (with equal weights, the largest total over the mean); 1.0 for a
/// perfect balance; `None` when the total is 0 or there is no primary. [`Summary::skew`]
/// and a rebalance [`Plan`](super::Plan)'s skews.
///
/// # Examples
///
/// ```
/// use slotgen_cluster::weighted_skew;
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

/// A hot slot: a slot whose amount alone is more than the largest fair share of any primary
/// (`total * max weight / sum of weights`), so that no placement of whole slots brings the
/// skew under `amount / largest fair share`, and where moving or splitting it could lower
/// the skew (not a slot that is its primary's whole load where no split helps: see
/// [`hot_slots`]). The one definition of "hot" that `load`
/// ([`Summary::hot`]) and `rebalance` ([`Planned::hot`](super::Planned::hot), the floor of a
/// plan) share: only splitting the slot's keys (their hashtag) over several slots evens it
/// out.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct HotSlot {
    /// The hash slot, in 0..16384.
    pub slot: u16,
    /// Its amount of the metric.
    pub amount: u64,
    /// `amount` over the total of the owned slots, 0 to 1.
    pub share: f64,
    /// `amount` over the largest fair share, above 1: the least skew of any slot plan while
    /// this slot stays whole.
    pub floor: f64,
}

/// The hot slots ([`HotSlot`]) of per-slot `values` (index = slot) over the primaries of
/// `owners` (the shard of each slot, as long as `values`; `None`: no owner, not counted),
/// with one weight per shard (`weights`; empty: `shards` primaries of weight 1). Largest
/// amount first, ties by the lower slot; empty when the total is 0.
///
/// A slot over the largest fair share that is its primary's whole load is hot only where
/// splitting its keys could lower the skew (`even_split` of its whole amount, the remedy's
/// own model, over every primary): moving it cannot (wherever it goes it is the whole
/// load, or more), and on an even cluster of one-slot primaries, one a key over its fair
/// share, a split only raises the others. A slot beside others on its primary stays hot:
/// moving those leaves it alone there, at its floor.
///
/// # Examples
///
/// ```
/// use slotgen_cluster::hot_slots;
///
/// // three primaries of one slot each, 101, 100 and 99 keys: slot 0 is over the fair share
/// // (100) but it is its primary's whole load, and no split lowers the skew (1.01)
/// let owners = [Some(0), Some(1), Some(2)];
/// assert!(hot_slots(&[101, 100, 99], &owners, 3, &[]).is_empty());
/// // 240, 30 and 30: split over the three primaries, 80 | 110 | 110, the skew goes from
/// // 2.4 to 1.1: hot
/// assert_eq!(hot_slots(&[240, 30, 30], &owners, 3, &[])[0].slot, 0);
/// ```
#[must_use]
pub fn hot_slots(
    values: &[u64],
    owners: &[Option<usize>],
    shards: usize,
    weights: &[f64],
) -> Vec<HotSlot> {
    let weight = |i: usize| weights.get(i).copied().unwrap_or(1.0);
    let total = values
        .iter()
        .zip(owners)
        .filter(|(_, o)| o.is_some())
        .fold(0u64, |sum, (v, _)| sum.saturating_add(*v));
    let weight_sum: f64 = (0..shards).map(weight).sum();
    let weight_max = (0..shards).map(weight).fold(0.0, f64::max);
    if total == 0 || shards == 0 {
        return Vec::new();
    }
    let largest_fair = total as f64 * weight_max / weight_sum;
    let loads = shard_totals(values, owners, shards);
    let all: Vec<f64> = (0..shards).map(weight).collect();
    let now = weighted_skew(&loads, &all).unwrap_or(0.0);
    // a slot that is its primary's whole load: hot only where a split lowers the skew
    let splits = |home: usize, amount: u64| {
        let mut rest = loads.clone();
        rest[home] -= amount;
        even_split(&rest, &all, (amount, 0), &vec![true; shards])
            .is_some_and(|(_, after)| after < now - 1e-12)
    };
    let mut hot: Vec<HotSlot> = values
        .iter()
        .zip(owners)
        .enumerate()
        .filter(|&(_, (&v, o))| {
            o.filter(|&o| o < shards)
                .is_some_and(|home| v as f64 > largest_fair && (v < loads[home] || splits(home, v)))
        })
        .map(|(slot, (&amount, _))| HotSlot {
            slot: u16::try_from(slot).unwrap_or(u16::MAX),
            amount,
            share: amount as f64 / total as f64,
            floor: amount as f64 / largest_fair,
        })
        .collect();
    hot.sort_by(|a, b| b.amount.cmp(&a.amount).then(a.slot.cmp(&b.slot)));
    hot
}

/// The remedy's model of a split ([`split`](super::split)): `carried` of a slot's amount,
/// its hashtag's keys, spread evenly over `n` tags, one on each of the `n` shards of
/// `eligible` of least load relative to weight (`loads` without `carried`, one per shard;
/// ties: the lower shard), for the `n` from 2 to the eligible count that gives the least
/// weighted skew (ties: fewer tags). `whole` of `carried` is one key's, which no split
/// divides: it goes whole to the first tag, the rest evenly over all `n`. Gives those
/// shards, least loaded first, and that skew; `None` where fewer than 2 shards are eligible
/// or the total is 0. The one model of what splitting does, for the remedy and for
/// [`hot_slots`].
pub(super) fn even_split(
    loads: &[u64],
    weights: &[f64],
    (carried, whole): (u64, u64),
    eligible: &[bool],
) -> Option<(Vec<usize>, f64)> {
    let whole = whole.min(carried);
    let weight: f64 = weights.iter().sum();
    let ratio = |i: usize| loads[i] as f64 * weight / weights[i];
    let mut by_load: Vec<usize> = (0..loads.len()).filter(|&i| eligible[i]).collect();
    by_load.sort_by(|&a, &b| ratio(a).total_cmp(&ratio(b)).then(a.cmp(&b)));
    if by_load.len() < 2 {
        return None;
    }
    let predicted = |n: usize| -> Option<f64> {
        let mut totals: Vec<f64> = loads.iter().map(|&l| l as f64).collect();
        totals[by_load[0]] += whole as f64;
        for &i in &by_load[..n] {
            totals[i] += (carried - whole) as f64 / n as f64;
        }
        let total: f64 = totals.iter().sum();
        if total == 0.0 {
            return None;
        }
        totals
            .iter()
            .zip(weights)
            .map(|(t, w)| t / (total * w / weight))
            .reduce(f64::max)
    };
    let n = (2..=by_load.len())
        .min_by(|&a, &b| {
            predicted(a)
                .unwrap_or(0.0)
                .total_cmp(&predicted(b).unwrap_or(0.0))
                .then(a.cmp(&b))
        })
        .unwrap_or(2);
    Some((by_load[..n].to_vec(), predicted(n)?))
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
        let hot_slots = hot_slots(values, &topology.owners(), shards, weights);
        let floor = hot_slots.first().map(|h| h.floor);
        let hot = hot_slots.iter().map(|h| (h.slot, h.amount)).collect();
        let ranked = top_slots(values, top);
        Ok(Summary {
            metric,
            total,
            primaries,
            skew,
            largest_fair_share,
            top: ranked,
            hot,
            floor,
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
        self.slot_map(title, values, topology, &MapNotes::default())
            .render()
    }

    /// The [`SlotMap`](crate::slot_map::SlotMap) of [`picture`](Self::picture), with what
    /// `notes` adds (the target skew, the hot slots' hashtags): for
    /// [`side_by_side`](crate::slot_map::side_by_side), or to render.
    #[must_use]
    pub fn slot_map(
        &self,
        title: &str,
        values: &[u64],
        topology: &Topology,
        notes: &MapNotes,
    ) -> crate::slot_map::SlotMap {
        use crate::slot_map::{HotLabel, LegendEntry, SlotMap};
        let node = |p: &PrimaryLoad| &topology.shards[p.shard].primary;
        let mut order: Vec<&PrimaryLoad> = self.primaries.iter().collect();
        order.sort_by(|a, b| (&node(a).addr, &node(a).id).cmp(&(&node(b).addr, &node(b).id)));
        // the colour (and bar) of each shard
        let mut colour_of = vec![None; topology.shards.len()];
        for (i, p) in order.iter().enumerate() {
            colour_of[p.shard] = Some(i);
        }
        let owners: Vec<Option<usize>> = topology
            .owners()
            .into_iter()
            .map(|shard| shard.and_then(|s| colour_of[s]))
            .collect();
        let primaries: Vec<LegendEntry> = order
            .iter()
            .map(|p| LegendEntry {
                node: node(p).id.clone(),
                addr: node(p).addr.clone(),
                share: p.share,
                ratio: p.ratio,
            })
            .collect();
        let hot = self
            .hot
            .iter()
            .map(|&(slot, value)| HotLabel {
                slot,
                share: if self.total == 0 {
                    0.0
                } else {
                    value as f64 / self.total as f64
                },
                hashtag: notes
                    .hashtags
                    .iter()
                    .find(|(s, _, _)| *s == slot)
                    .map(|(_, tag, part)| (tag.clone(), *part)),
            })
            .collect();
        SlotMap {
            title: title.to_owned(),
            metric: self.metric.name().to_owned(),
            values: values.to_vec(),
            owners,
            primaries,
            skew: self.skew,
            target: notes.target,
            floor: self.floor,
            hot,
            remedies: notes.remedies.clone(),
        }
    }
}

/// What a slot map shows beyond a [`Summary`]: the target skew, the hashtags that carry
/// the hot slots, and their remedies.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MapNotes {
    /// The target skew, drawn across the bars; `None`: none.
    pub target: Option<f64>,
    /// `(slot, hashtag, part)`: the hashtag (its bytes between `{` and `}`, as the keys hold
    /// them: the picture escapes them) that carries most of a hot slot, and its part of the
    /// slot's load, 0 to 1.
    pub hashtags: Vec<(u16, Vec<u8>, f64)>,
    /// What to do about the hot slots, one line each under the grid: `(shown, full)`, as
    /// [`SlotMap::remedies`](crate::slot_map::SlotMap::remedies) takes them.
    pub remedies: Vec<(String, String)>,
}

#[cfg(test)]
mod tests {
    use super::super::slot_stats::{imports, keyspace_keys, parse_slot_stats};
    use super::super::{Migration, MigrationKind, Node, Role, Shard, SlotRange, Source};
    use super::*;
    use redis::Value;

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
    fn keyspace_keys_sum_every_database() {
        // Redis 7.0's answer on a cluster node, and a node without keys (no db line)
        let one = "# Keyspace\r\ndb0:keys=160,expires=2,avg_ttl=0\r\n";
        assert_eq!(keyspace_keys(one), Ok(160));
        assert_eq!(keyspace_keys("# Keyspace\r\n"), Ok(0));
        // Valkey 9.1.2 with `cluster-databases 4`, keys in db 0 and db 3 (as measured)
        let four = "# Keyspace\r\ndb0:keys=1,expires=0,avg_ttl=0,keys_with_volatile_items=0\r\ndb3:keys=2,expires=0,avg_ttl=0,keys_with_volatile_items=0\r\n";
        assert_eq!(keyspace_keys(four), Ok(3));
        let bad = keyspace_keys("db0:expires=0\r\n").unwrap_err();
        assert!(bad.contains("gives no count of keys"), "{bad}");
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
    fn totals_past_64_bits_are_refused_not_saturated() {
        let half = 1u64 << 63;
        // two primaries of 2^63 each: a saturated total showed each at 100%
        let load2 = load(&[(0, half), (10, half)], None);
        let e = load2.summary(Metric::Keys, 2, &[]).unwrap_err();
        assert_eq!(
            e,
            Error::Overflow {
                metric: "keys".to_owned(),
                slot: 10,
                command: "CLUSTER SLOT-STATS SLOTSRANGE 10 10".to_owned(),
                others: false,
            }
        );
        assert!(
            e.to_string().contains("sums past 2^64 - 1 at slot 10"),
            "{e}"
        );
        // read by CLUSTER COUNTKEYSINSLOT (SLOT-STATS refused): that command is named, and
        // no other metric is offered, as none is collected (the message named SLOT-STATS
        // and said "order by another metric")
        let counted = SlotLoad::new(
            topology(),
            LoadSource::CountKeysInSlot {
                slot_stats_refused: "ERR unknown subcommand".to_owned(),
            },
            load2.values.clone(),
        );
        let e = counted.require(Metric::Keys).unwrap_err().to_string();
        assert!(
            e.contains("(`CLUSTER COUNTKEYSINSLOT 10` on the slot's primary shows its own)"),
            "{e}"
        );
        assert!(
            !e.contains("SLOT-STATS") && !e.contains("another metric"),
            "{e}"
        );
        // with another metric collected, ordering by it is offered
        let both = load(&[(0, half), (10, half)], Some((&[(0, 1)], &[(0, 1)])));
        let e = both.require(Metric::Keys).unwrap_err().to_string();
        assert!(e.ends_with(", or order by another metric"), "{e}");
        // net-in + net-out of one slot saturated by their sum
        let net = load(&[(0, 1)], Some((&[(3, u64::MAX - 1)], &[(3, 2)])));
        assert!(matches!(
            net.require(Metric::Net),
            Err(Error::Overflow { slot: 3, .. })
        ));
        assert!(net.require(Metric::NetIn).is_ok());
        // the largest sum that fits is taken
        let full = load(&[(0, half), (10, half - 1)], None);
        assert_eq!(full.summary(Metric::Keys, 1, &[]).unwrap().total, u64::MAX);
    }

    /// A node that counts 2^63 - 1 keys in every slot (`CLUSTER COUNTKEYSINSLOT`, its
    /// `CLUSTER SLOT-STATS` refused): the overflow error naming that command, not a panic of
    /// a debug build's sum of a primary's keys (nor a wrapped sum in a release build).
    #[test]
    fn counts_past_64_bits_from_a_node_are_refused_not_a_panic() {
        use crate::transport::ConnectOptions;
        use std::sync::{Arc, OnceLock};
        use std::time::Duration;
        let port: Arc<OnceLock<u16>> = Arc::default();
        let mine = Arc::clone(&port);
        let bulk = |text: &str| format!("${}\r\n{text}\r\n", text.len()).into_bytes();
        let url = super::super::exchange::tests::scripted_node(move |args| {
            let port = *mine.get().unwrap();
            let id = "ab".repeat(20);
            let word = |i: usize| args.get(i).map(|a| a.to_ascii_uppercase());
            match (word(0).as_deref(), word(1).as_deref()) {
                (Some(b"INFO"), Some(b"KEYSPACE")) => bulk("# Keyspace\r\ndb0:keys=5\r\n"),
                (Some(b"INFO"), _) => bulk("# Cluster\r\ncluster_enabled:1\r\n"),
                (Some(b"CLUSTER"), Some(b"INFO")) => bulk(
                    "cluster_state:ok\r\ncluster_slots_assigned:16384\r\ncluster_slots_ok:16384\r\ncluster_slots_fail:0\r\n",
                ),
                (Some(b"CLUSTER"), Some(b"SHARDS")) => {
                    let mut node = b"*14\r\n".to_vec();
                    for (name, value) in [
                        ("id", bulk(&id)),
                        ("port", format!(":{port}\r\n").into_bytes()),
                        ("ip", bulk("127.0.0.1")),
                        ("endpoint", bulk("127.0.0.1")),
                        ("role", bulk("master")),
                        ("replication-offset", b":0\r\n".to_vec()),
                        ("health", bulk("online")),
                    ] {
                        node.extend(bulk(name));
                        node.extend(value);
                    }
                    let mut reply = b"*1\r\n*4\r\n".to_vec();
                    reply.extend(bulk("slots"));
                    reply.extend(b"*2\r\n:0\r\n:16383\r\n");
                    reply.extend(bulk("nodes"));
                    reply.extend(b"*1\r\n");
                    reply.extend(node);
                    reply
                }
                (Some(b"CLUSTER"), Some(b"NODES")) => bulk(&format!(
                    "{id} 127.0.0.1:{port}@{} myself,master - 0 0 1 connected 0-16383\n",
                    u32::from(port) + 10000
                )),
                (Some(b"CLUSTER"), Some(b"COUNTKEYSINSLOT")) => {
                    format!(":{}\r\n", i64::MAX).into_bytes()
                }
                (Some(b"CLUSTER"), _) => b"-ERR unknown subcommand\r\n".to_vec(),
                (Some(b"CONFIG"), _) => b"*0\r\n".to_vec(),
                (Some(b"SELECT" | b"CLIENT" | b"READONLY"), _) => b"+OK\r\n".to_vec(),
                _ => b"-ERR unknown command\r\n".to_vec(),
            }
        });
        port.set(url.rsplit(':').next().unwrap().parse().unwrap())
            .unwrap();
        let load =
            SlotLoad::fetch(&url, &ConnectOptions::default(), Duration::from_secs(10)).unwrap();
        let e = load.require(Metric::Keys).unwrap_err().to_string();
        assert!(
            e.contains("sums past 2^64 - 1 at slot 2") && e.contains("`CLUSTER COUNTKEYSINSLOT 2`"),
            "{e}"
        );
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
