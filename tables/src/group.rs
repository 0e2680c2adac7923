//! Keys grouped by node and hash slot, for a client that splits a multi-key command.
//!
//! Redis Cluster runs a multi-key command (`MGET`, `DEL`, `MSET`, ...) only when all its keys
//! hash to one slot; keys of two slots are refused with `CROSSSLOT` even when one node holds
//! both slots (the Redis Cluster specification, "Multi-keys operations"). So a client splits
//! a batch of keys by node, and within a node into one command per slot, which it can
//! pipeline on that node's connection, then puts the replies back in the caller's order.
//! [`SlotTable::group_keys`] gives that order in one pass over the keys and one sort, into a
//! buffer the caller provides (no allocation, `no_std`): each key as a [`Placed`] (its node,
//! its slot, its index in the caller's batch), sorted by node, then slot, then index.
//!
//! # Examples
//!
//! Three primaries holding the slots as `redis-cli --cluster create` splits them:
//!
//! ```
//! use slotgen_tables::{Placed, REDIS_CLUSTER};
//!
//! // node_of_slot[slot]: the index of the node that holds the slot, in the caller's list
//! let mut node_of_slot = [0u16; 16384];
//! node_of_slot[5461..=10922].fill(1);
//! node_of_slot[10923..].fill(2);
//!
//! let keys = ["user:{42}:name", "foo", "user:{42}:mail", "bar"];
//! let mut placed = [Placed::default(); 4];
//! let groups = REDIS_CLUSTER.group_keys(&keys, &node_of_slot, &mut placed)?;
//! let plan: Vec<(u16, u16, Vec<usize>)> = groups
//!     .slots()
//!     .map(|g| (g.node, g.slot, g.indices().collect()))
//!     .collect();
//! // "bar" on slot 5061 (node 0), both "user:{42}:…" on slot 8000 (node 1), "foo" on
//! // slot 12182 (node 2): three MGETs, one a node here
//! assert_eq!(plan, [(0, 5061, vec![3]), (1, 8000, vec![0, 2]), (2, 12182, vec![1])]);
//! assert_eq!(groups.nodes().count(), 3);
//! # Ok::<(), slotgen_tables::Error>(())
//! ```

use crate::{Error, SlotTable};

/// One key of a batch on the cluster: the node that holds its slot, its hash slot, and its
/// index in the caller's batch (to put its reply back in place). Ordered by `node`, then
/// `slot`, then `index`: the order [`SlotTable::group_keys`] sorts into. 8 bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Placed {
    /// The node's index in the caller's slot -> node map (`node_of_slot[slot]`).
    pub node: u16,
    /// The key's hash slot, in `0..slots`.
    pub slot: u16,
    /// The key's index in the caller's batch.
    pub index: u32,
}

/// A batch of keys sorted by node, slot and index (by [`SlotTable::group_keys`]): runs of
/// one node ([`nodes`](Self::nodes)), each made of runs of one slot
/// ([`slots`](Self::slots)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SlotGroups<'o> {
    placed: &'o [Placed],
}

impl<'o> SlotGroups<'o> {
    /// Every key, sorted by node, slot and index.
    #[must_use]
    pub const fn as_slice(&self) -> &'o [Placed] {
        self.placed
    }

    /// The runs of one node, in ascending node order: what goes down one connection.
    pub fn nodes(&self) -> impl Iterator<Item = NodeGroup<'o>> + 'o {
        self.placed
            .chunk_by(|a, b| a.node == b.node)
            .map(|keys| NodeGroup {
                node: keys[0].node,
                keys,
            })
    }

    /// The runs of one slot (and so of one node), in ascending (node, slot) order: one
    /// multi-key command each.
    pub fn slots(&self) -> impl Iterator<Item = SlotGroup<'o>> + 'o {
        slot_runs(self.placed)
    }
}

/// The keys of a batch that one node holds, sorted by slot and index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NodeGroup<'o> {
    /// The node's index in the caller's slot -> node map.
    pub node: u16,
    /// Its keys, at least one.
    pub keys: &'o [Placed],
}

impl<'o> NodeGroup<'o> {
    /// The node's runs of one slot, in ascending slot order: the commands to pipeline on
    /// its connection.
    pub fn slots(&self) -> impl Iterator<Item = SlotGroup<'o>> + 'o {
        slot_runs(self.keys)
    }
}

/// The keys of a batch that hash to one slot, in the caller's order: one multi-key
/// command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SlotGroup<'o> {
    /// The node's index in the caller's slot -> node map.
    pub node: u16,
    /// The hash slot.
    pub slot: u16,
    /// Its keys, at least one, in ascending index order.
    pub keys: &'o [Placed],
}

impl SlotGroup<'_> {
    /// The keys' indices in the caller's batch, ascending.
    pub fn indices(&self) -> impl Iterator<Item = usize> + '_ {
        // `u32` to `usize`: every target this crate builds for has 32 bits or more.
        self.keys.iter().map(|p| p.index as usize)
    }
}

fn slot_runs(placed: &[Placed]) -> impl Iterator<Item = SlotGroup<'_>> + '_ {
    placed
        .chunk_by(|a, b| (a.node, a.slot) == (b.node, b.slot))
        .map(|keys| SlotGroup {
            node: keys[0].node,
            slot: keys[0].slot,
            keys,
        })
}

impl<const N: usize> SlotTable<'_, N> {
    /// Places `keys` on their hash slots and nodes and sorts them by node, then slot, then
    /// index, into `out[..keys.len()]`: the order in which a client splits a multi-key
    /// command (see [the module's docs](crate::group)). One pass computes each key's slot
    /// ([`key_slot`](Self::key_slot)) and node, then one unstable sort of 8-byte entries
    /// (the index breaks every tie, so the order is the same on every run). No allocation.
    ///
    /// `node_of_slot` has one entry a slot (`slots()` entries, 16384 for Redis Cluster):
    /// the index of the node that holds the slot in the caller's own list of nodes (read
    /// from `CLUSTER SLOTS` or `CLUSTER SHARDS`). A slot that no node holds can carry any
    /// marker, such as `u16::MAX`; its keys form that marker's group, last when it is the
    /// largest.
    ///
    /// # Errors
    ///
    /// - [`Error::NodeMapLength`] when `node_of_slot` does not have `slots()` entries.
    /// - [`Error::OutTooShort`] when `out` has fewer entries than `keys`.
    /// - [`Error::TooManyKeys`] when there are more than `2^32` keys (an index is a `u32`).
    ///
    /// # Examples
    ///
    /// See [the module's](crate::group) example.
    pub fn group_keys<'o, K: AsRef<[u8]>>(
        &self,
        keys: &[K],
        node_of_slot: &[u16],
        out: &'o mut [Placed],
    ) -> Result<SlotGroups<'o>, Error> {
        if node_of_slot.len() != self.slots() as usize {
            return Err(Error::NodeMapLength {
                entries: node_of_slot.len(),
                slots: self.slots(),
            });
        }
        if out.len() < keys.len() {
            return Err(Error::OutTooShort {
                needed: keys.len(),
                available: out.len(),
            });
        }
        if u32::try_from(keys.len().saturating_sub(1)).is_err() {
            return Err(Error::TooManyKeys { keys: keys.len() });
        }
        let placed = &mut out[..keys.len()];
        for (index, (key, entry)) in keys.iter().zip(placed.iter_mut()).enumerate() {
            let slot = self.key_slot(key.as_ref());
            *entry = Placed {
                // `slot < slots == node_of_slot.len()`, checked above
                node: node_of_slot[usize::from(slot)],
                slot,
                // below 2^32, checked above
                index: index as u32,
            };
        }
        placed.sort_unstable();
        Ok(SlotGroups { placed })
    }

    /// [`group_keys`](Self::group_keys) into a vector, which is cleared and resized to
    /// `keys.len()` (reuse one across batches to allocate once).
    ///
    /// # Errors
    ///
    /// As [`group_keys`](Self::group_keys), but for `OutTooShort`.
    #[cfg(feature = "alloc")]
    pub fn group_keys_in<'o, K: AsRef<[u8]>>(
        &self,
        keys: &[K],
        node_of_slot: &[u16],
        out: &'o mut alloc::vec::Vec<Placed>,
    ) -> Result<SlotGroups<'o>, Error> {
        out.clear();
        out.resize(keys.len(), Placed::default());
        self.group_keys(keys, node_of_slot, out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::REDIS_CLUSTER;

    fn three_nodes() -> [u16; 16384] {
        let mut map = [0u16; 16384];
        map[5461..=10922].fill(1);
        map[10923..].fill(2);
        map
    }

    #[test]
    fn refusals_name_the_rule() {
        let keys = ["a", "b"];
        let mut out = [Placed::default(); 2];
        assert_eq!(
            REDIS_CLUSTER.group_keys(&keys, &[0; 100], &mut out),
            Err(Error::NodeMapLength {
                entries: 100,
                slots: 16384
            })
        );
        assert_eq!(
            REDIS_CLUSTER.group_keys(&keys, &three_nodes(), &mut out[..1]),
            Err(Error::OutTooShort {
                needed: 2,
                available: 1
            })
        );
        let empty: [&str; 0] = [];
        assert_eq!(
            REDIS_CLUSTER
                .group_keys(&empty, &three_nodes(), &mut [])
                .map(|g| g.as_slice().len()),
            Ok(0)
        );
    }

    #[test]
    fn every_key_once_in_node_slot_index_order() {
        let map = three_nodes();
        // 200 keys over a few hashtags and plain keys; slots from the single-key path.
        let keys: [[u8; 8]; 200] = core::array::from_fn(|i| {
            let mut k = *b"{t0}k000";
            k[2] = b'0' + (i % 7) as u8;
            k[5] = b'0' + (i / 100) as u8;
            k[6] = b'0' + (i / 10 % 10) as u8;
            k[7] = b'0' + (i % 10) as u8;
            if i % 3 == 0 {
                k[0] = b'x'; // no hashtag: the whole key
            }
            k
        });
        let mut out = [Placed::default(); 201];
        let groups = REDIS_CLUSTER.group_keys(&keys, &map, &mut out).unwrap();
        let placed = groups.as_slice();
        assert_eq!(placed.len(), 200);
        let mut seen = [false; 200];
        for p in placed {
            let key = &keys[p.index as usize];
            assert_eq!(p.slot, REDIS_CLUSTER.key_slot(key));
            assert_eq!(p.node, map[usize::from(p.slot)]);
            assert!(!seen[p.index as usize]);
            seen[p.index as usize] = true;
        }
        assert!(placed.windows(2).all(|w| w[0] < w[1]));
        // The runs cover the keys, each one node (and slot), in order.
        let by_slot: usize = groups.slots().map(|g| g.keys.len()).sum();
        let by_node: usize = groups.nodes().map(|g| g.keys.len()).sum();
        assert_eq!((by_slot, by_node), (200, 200));
        for node in groups.nodes() {
            assert!(node.keys.iter().all(|p| p.node == node.node));
            for slot in node.slots() {
                assert!(slot
                    .keys
                    .iter()
                    .all(|p| (p.node, p.slot) == (node.node, slot.slot)));
                let indices: heapless_indices::Indices = slot.indices().collect();
                assert!(indices.0[..indices.1].windows(2).all(|w| w[0] < w[1]));
            }
        }
        assert_eq!(groups.nodes().map(|g| g.node).max(), Some(2));
    }

    /// A fixed-capacity collector, the crate being `no_std` without `alloc` in its tests.
    mod heapless_indices {
        pub struct Indices(pub [usize; 200], pub usize);
        impl FromIterator<usize> for Indices {
            fn from_iter<I: IntoIterator<Item = usize>>(iter: I) -> Self {
                let mut out = Indices([0; 200], 0);
                for i in iter {
                    out.0[out.1] = i;
                    out.1 += 1;
                }
                out
            }
        }
    }
}
