//! Where keys land: [`Placement`] counts keys per slot, and with a [`Topology`] per node;
//! [`skew`] measures the balance.

use serde::Serialize;
use slotgen_tables::REDIS_CLUSTER;

use super::{Topology, SLOTS};

/// Where keys fall: the number of keys on each of the 16384 slots, by
/// [`REDIS_CLUSTER`]'s `key_slot` (what `CLUSTER KEYSLOT` answers).
///
/// # Examples
///
/// ```
/// use slotgen::cluster::Placement;
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

    /// The number of slots with at least one key.
    #[must_use]
    pub fn slots_used(&self) -> u32 {
        self.per_slot.iter().filter(|&&n| n > 0).count() as u32
    }

    /// The `n` slots with the most keys, as `(slot, keys)`, most first, ties by slot; slots
    /// without keys are left out.
    #[must_use]
    pub fn top_slots(&self, n: usize) -> Vec<(u16, u64)> {
        let mut used: Vec<(u16, u64)> = (0..SLOTS)
            .zip(self.per_slot.iter().copied())
            .filter(|&(_, k)| k > 0)
            .collect();
        used.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        used.truncate(n);
        used
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

/// The skew of a load: the largest count over the mean, 1.0 for a perfect balance (and for
/// no load at all).
///
/// # Examples
///
/// ```
/// assert_eq!(slotgen::cluster::skew(&[30, 30, 60]), 1.5);
/// ```
#[must_use]
pub fn skew(counts: &[u64]) -> f64 {
    let total: u64 = counts.iter().sum();
    let max = counts.iter().copied().max().unwrap_or(0);
    if total == 0 {
        return 1.0;
    }
    max as f64 * counts.len() as f64 / total as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skew_of_even_and_empty_loads() {
        assert_eq!(skew(&[]), 1.0);
        assert_eq!(skew(&[0, 0]), 1.0);
        assert_eq!(skew(&[10, 10]), 1.0);
    }
}
