//! Where keys land: [`Placement`] counts keys per slot, and with a [`Topology`] per node;
//! [`skew`] measures the balance, when there are enough keys for it to mean something.

use serde::Serialize;
use slotgen_tables::REDIS_CLUSTER;

use super::{Topology, SLOTS};

/// Where keys fall: the number of keys on each of the 16384 slots, by
/// [`REDIS_CLUSTER`]'s `key_slot` (what `CLUSTER KEYSLOT` answers).
///
/// # Examples
///
/// ```
/// use slotgen_cluster::Placement;
///
/// let mut placement = Placement::new();
/// for key in [&b"a"[..], b"{a}x", b"b"] {
///     placement.add(key);
/// }
/// assert_eq!(placement.keys, 3);
/// assert_eq!(placement.per_slot[15495], 2); // `a` and `{a}x`
/// assert_eq!(placement.top_slots(1), [(15495, 2)]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placement {
    /// Keys counted.
    pub keys: u64,
    /// 16384 counts, indexed by slot.
    pub per_slot: Vec<u64>,
}

impl Default for Placement {
    fn default() -> Self {
        Self::new()
    }
}

/// The keys of one shard in a [`Placement`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NodeLoad {
    /// The index of the shard in [`Topology::shards`].
    pub shard: usize,
    /// Keys on the shard's slots.
    pub keys: u64,
    /// Slots of the shard that hold at least one key.
    pub slots_used: u32,
}

impl Placement {
    /// No keys yet.
    #[must_use]
    pub fn new() -> Self {
        Self {
            keys: 0,
            per_slot: vec![0; usize::from(SLOTS)],
        }
    }

    /// Counts `key` and returns its slot.
    pub fn add(&mut self, key: &[u8]) -> u16 {
        let slot = REDIS_CLUSTER.key_slot(key);
        self.per_slot[usize::from(slot)] += 1;
        self.keys += 1;
        slot
    }

    /// Counts `keys` and writes their slots to `slots` (`slots[i]` is the slot of
    /// `keys[i]`), by the runtime's batch path ([`key_slots`](slotgen_tables::SlotTable::key_slots)).
    ///
    /// # Panics
    ///
    /// When `slots` is shorter than `keys`.
    ///
    /// # Examples
    ///
    /// ```
    /// use slotgen_cluster::Placement;
    ///
    /// let mut placement = Placement::new();
    /// let mut slots = [0; 3];
    /// placement.add_keys(&[&b"a"[..], b"{a}x", b"b"], &mut slots);
    /// assert_eq!(slots, [15495, 15495, 3300]);
    /// assert_eq!((placement.keys, placement.per_slot[15495]), (3, 2));
    /// ```
    pub fn add_keys<K: AsRef<[u8]>>(&mut self, keys: &[K], slots: &mut [u16]) {
        let slots = &mut slots[..keys.len()];
        REDIS_CLUSTER.key_slots(keys, slots);
        for &slot in &*slots {
            self.per_slot[usize::from(slot)] += 1;
        }
        self.keys += keys.len() as u64;
    }

    /// The number of slots with at least one key.
    #[must_use]
    pub fn slots_used(&self) -> u32 {
        self.per_slot.iter().filter(|&&n| n > 0).count() as u32
    }

    /// The `n` slots with the most keys, as `(slot, keys)`, most first, ties by slot; slots
    /// without keys are left out.
    #[must_use]
    pub fn top_slots(&self, n: usize) -> Vec<(u16, u64)> {
        top_slots(&self.per_slot, n)
    }

    /// The keys of every shard of `topology`, in its order, and the keys on slots that no
    /// shard owns.
    #[must_use]
    pub fn by_node(&self, topology: &Topology) -> (Vec<NodeLoad>, u64) {
        let mut loads: Vec<NodeLoad> = (0..topology.shards.len())
            .map(|shard| NodeLoad {
                shard,
                keys: 0,
                slots_used: 0,
            })
            .collect();
        let mut unowned = 0;
        for (owner, &keys) in topology.owners().iter().zip(&self.per_slot) {
            match owner {
                Some(i) => {
                    loads[*i].keys += keys;
                    loads[*i].slots_used += u32::from(keys > 0);
                }
                None => unowned += keys,
            }
        }
        (loads, unowned)
    }
}

/// The `n` slots of the largest values in `per_slot` (indexed by slot), as `(slot, value)`,
/// largest first, ties by slot; slots of value 0 are left out.
#[must_use]
pub fn top_slots(per_slot: &[u64], n: usize) -> Vec<(u16, u64)> {
    let mut used: Vec<(u16, u64)> = (0..SLOTS)
        .zip(per_slot.iter().copied())
        .filter(|&(_, v)| v > 0)
        .collect();
    used.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    used.truncate(n);
    used
}

/// The fewest keys per bucket (slot or node), on average, for which [`skew`] gives a ratio:
/// below it, the fullest bucket over the mean measures chance more than the keys' layout
/// (5 keys over 16384 slots have a max of 1 over a mean of 0.0003: a "skew" of 3276.8 that
/// says nothing).
pub const SKEW_MIN_MEAN: u64 = 10;

/// The balance of a load over its buckets (slots or nodes): the fullest bucket over the mean.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Skew {
    /// `max / mean`, 1.0 for a perfect balance; `None` when there are fewer than
    /// [`SKEW_MIN_MEAN`] keys a bucket on average (or no bucket), too few to mean anything.
    pub ratio: Option<f64>,
    /// The keys of the fullest bucket.
    pub max: u64,
    /// The keys per bucket on average.
    pub mean: f64,
    /// The number of buckets.
    pub buckets: usize,
    /// The keys from which a ratio is given: [`SKEW_MIN_MEAN`] per bucket.
    pub min_keys: u64,
}

/// The skew of a load given as one count per bucket (slot or node): see [`Skew`].
///
/// # Examples
///
/// ```
/// use slotgen_cluster::skew;
///
/// assert_eq!(skew(&[30, 30, 60]).ratio, Some(1.5));
/// // 5 keys over 16384 slots: too few for a ratio
/// let mut per_slot = vec![0u64; 16384];
/// per_slot[..5].fill(1);
/// assert_eq!(skew(&per_slot).ratio, None);
/// assert_eq!(skew(&per_slot).min_keys, 163_840);
/// ```
#[must_use]
pub fn skew(counts: &[u64]) -> Skew {
    let total: u64 = counts.iter().sum();
    let max = counts.iter().copied().max().unwrap_or(0);
    let buckets = counts.len();
    let min_keys = SKEW_MIN_MEAN.saturating_mul(buckets as u64);
    let mean = if buckets == 0 {
        0.0
    } else {
        total as f64 / buckets as f64
    };
    let ratio = (buckets > 0 && total >= min_keys).then(|| max as f64 / mean);
    Skew {
        ratio,
        max,
        mean,
        buckets,
        min_keys,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skew_of_even_empty_and_thin_loads() {
        assert_eq!(skew(&[]).ratio, None);
        assert_eq!(skew(&[0, 0]).ratio, None);
        assert_eq!(skew(&[10, 10]).ratio, Some(1.0));
        assert_eq!(skew(&[9, 10]).ratio, None);
        assert_eq!(skew(&[0, 20]).ratio, Some(2.0));
    }
}
