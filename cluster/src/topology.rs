//! The cluster's map: [`Topology`] (its shards, nodes, roles and slots in migration), read by
//! [`Topology::fetch`] from a live node or by [`Topology::from_answers`] from recorded answers.

use serde::Serialize;

use super::node::Node;
use super::slot_range::{ranges_of, show_ranges, SlotRange};
use super::{Error, SLOTS};

/// A node that the map lists but that is left out of a [`Topology`]'s shards, never asked
/// and never handed out: the cluster marks it failed, or its shard has no primary.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LeftOut {
    /// The node, as the map gives it.
    pub node: Node,
    /// The slots the map still gives it (a failed primary of a cluster that does not require
    /// full coverage); no other shard owns them.
    pub ranges: Vec<SlotRange>,
    /// Why, in words, server text escaped: "`CLUSTER SHARDS` gives it health `fail`",
    /// "the node asked flags it `fail?` in `CLUSTER NODES`", "its shard has no primary".
    pub reason: String,
    /// Whether the cluster agrees that the node failed: `CLUSTER SHARDS` gives it health
    /// `fail` or `failed`, or the node asked flags it `fail` (not only `fail?`, one node's
    /// suspicion, or `noaddr`). Such a node stays in every node table until each live node
    /// is told to forget it ([`LeftOut::forgettable`]).
    pub failed: bool,
    /// The live nodes that still replicate it (the replicas of its shard when no other
    /// primary took over, themselves left out: "its shard has no primary"), by id: each
    /// refuses `CLUSTER FORGET` of its own primary ("Can't forget my master!").
    pub followers: Vec<String>,
}

impl LeftOut {
    /// Whether the node can be taken out of the node tables: the cluster marks it failed
    /// ([`LeftOut::failed`]) and the map gives it no slot (a primary that a replica
    /// replaced, or a replica). `--cluster del-node` cannot do it (redis-cli and
    /// valkey-cli skip a failed node when they read the cluster: "No such node ID");
    /// `CLUSTER FORGET` of its id on every live node can, each within a minute of the
    /// others (a node that forgot it refuses to learn it again from gossip for 60 s), after
    /// its [`followers`](LeftOut::followers) have left or replicate another primary.
    ///
    /// # Examples
    ///
    /// ```
    /// use slotgen_cluster::{LeftOut, Node, Role};
    ///
    /// let mut gone = LeftOut {
    ///     node: Node {
    ///         id: "0123456789abcdef0123456789abcdef01234567".to_owned(),
    ///         addr: "127.0.0.1:7000".to_owned(),
    ///         role: Role::Primary,
    ///         health: Some("fail".to_owned()),
    ///     },
    ///     ranges: Vec::new(),
    ///     reason: "`CLUSTER SHARDS` gives it health `fail`".to_owned(),
    ///     failed: true,
    ///     followers: Vec::new(),
    /// };
    /// assert!(gone.forgettable());
    /// gone.failed = false; // only suspected (`fail?`): it may come back
    /// assert!(!gone.forgettable());
    /// ```
    #[must_use]
    pub fn forgettable(&self) -> bool {
        self.failed && self.ranges.is_empty()
    }
}

/// The rule [`apply`](super::apply) starts by: no slot of `topology` is migrating or importing (a plan is
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
        let ranges = show_ranges(&ranges_of(&migrating));
        Err(Error::MigrationUnderWay {
            slots: if migrating.len() == 1 {
                format!("slot {ranges} is")
            } else {
                format!("slots {ranges} are")
            },
        })
    }
}

/// One shard: a primary, its replicas, and the slots the primary owns.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Shard {
    /// The primary.
    pub primary: Node,
    /// The replicas, sorted by address.
    pub replicas: Vec<Node>,
    /// The slots, as sorted, disjoint, merged ranges; empty for a primary without slots.
    pub ranges: Vec<SlotRange>,
}

impl Shard {
    /// The number of slots the shard owns.
    #[must_use]
    pub fn slot_count(&self) -> u32 {
        self.ranges.iter().map(SlotRange::len).sum()
    }

    /// The shard's slots, in order.
    pub fn slots(&self) -> impl Iterator<Item = u16> + '_ {
        self.ranges.iter().flat_map(SlotRange::slots)
    }

    /// The primary, then the replicas.
    pub fn nodes(&self) -> impl Iterator<Item = &Node> {
        std::iter::once(&self.primary).chain(&self.replicas)
    }
}

/// Which way a slot is moving, as the node that reports it sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum MigrationKind {
    /// The reporting node owns the slot and is moving it to `peer`
    /// (`[slot->-peer]` in `CLUSTER NODES`, after `CLUSTER SETSLOT slot MIGRATING peer`).
    Migrating,
    /// The reporting node is taking the slot from `peer`
    /// (`[slot-<-peer]`, after `CLUSTER SETSLOT slot IMPORTING peer`).
    Importing,
}

/// A slot in migration, as one primary reports it in `CLUSTER NODES`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Migration {
    /// The slot, in `0..16384`.
    pub slot: u16,
    /// Migrating away from `node`, or importing into it.
    pub kind: MigrationKind,
    /// The id of the node that reports it.
    pub node: String,
    /// The id of the node at the other end.
    pub peer: String,
}

/// The command a [`Topology`]'s shards were read from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "command", rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Source {
    /// `CLUSTER SHARDS` (Redis 7.0 and later, Valkey).
    ClusterShards,
    /// `CLUSTER SLOTS`, because the server refused `CLUSTER SHARDS` (a server older than
    /// Redis 7.0, or an ACL user without it). `CLUSTER SLOTS` leaves out failed replicas
    /// and replicas that have not taken a write yet (replication offset 0), does not say a
    /// node's health, and lists no primary without slots.
    ClusterSlots {
        /// The server's refusal of `CLUSTER SHARDS`.
        shards_refused: String,
    },
}

/// A cluster's map: its shards, sorted by their first slot (shards without slots last, by
/// primary id), the nodes left out of them, and the slots in migration that its primaries
/// report.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Topology {
    /// The shards.
    pub shards: Vec<Shard>,
    /// The nodes that the map lists but that the cluster marks failed (`CLUSTER SHARDS`'
    /// health `fail`, or flags `fail`, `fail?` or `noaddr` in the `CLUSTER NODES` of the node
    /// asked), or whose shard has no primary, by address.
    pub left_out: Vec<LeftOut>,
    /// Every migrating and importing slot reported by a primary, sorted by slot, then
    /// reporting node.
    pub migrations: Vec<Migration>,
    /// Where the shards were read from.
    pub source: Source,
}

impl Topology {
    /// For each of the 16384 slots, the index in [`shards`](Self::shards) of the shard that
    /// owns it, or `None` for an unassigned slot.
    #[must_use]
    pub fn owners(&self) -> Vec<Option<usize>> {
        let mut owners = vec![None; usize::from(SLOTS)];
        for (i, shard) in self.shards.iter().enumerate() {
            for slot in shard.slots() {
                owners[usize::from(slot)] = Some(i);
            }
        }
        owners
    }

    /// The slots that no primary owns, as ranges in slot order: a key there is refused
    /// (`CLUSTERDOWN`), and no load is counted for it. Empty when every slot is assigned.
    #[must_use]
    pub fn unowned(&self) -> Vec<SlotRange> {
        let slots: Vec<u16> = self
            .owners()
            .iter()
            .enumerate()
            .filter(|(_, owner)| owner.is_none())
            .map(|(slot, _)| u16::try_from(slot).expect("16384 slots"))
            .collect();
        ranges_of(&slots)
    }

    /// This topology with each slot owned by the shard `owners` gives (16384 of them, an
    /// index into [`shards`](Self::shards) or `None`), the shards in the same order: the
    /// map a rebalance plan predicts. Nodes, migrations and the source are kept.
    #[must_use]
    pub fn with_owners(&self, owners: &[Option<usize>]) -> Topology {
        let mut slots: Vec<Vec<u16>> = vec![Vec::new(); self.shards.len()];
        for (slot, owner) in owners.iter().enumerate().take(usize::from(SLOTS)) {
            if let Some(list) = owner.and_then(|i| slots.get_mut(i)) {
                list.push(u16::try_from(slot).expect("16384 slots"));
            }
        }
        let mut topology = self.clone();
        for (shard, slots) in topology.shards.iter_mut().zip(&slots) {
            shard.ranges = ranges_of(slots);
        }
        topology
    }

    /// Every slot that some primary reports migrating or importing, sorted, once each.
    #[must_use]
    pub fn migrating_slots(&self) -> Vec<u16> {
        let mut slots: Vec<u16> = self.migrations.iter().map(|m| m.slot).collect();
        slots.sort_unstable();
        slots.dedup();
        slots
    }

    /// The slots of `shard` that keys may use: all of them, or with `include_migrating`
    /// false, those not in [`migrating_slots`](Self::migrating_slots).
    #[must_use]
    pub fn usable_slots(&self, shard: &Shard, include_migrating: bool) -> Vec<u16> {
        let migrating = self.migrating_slots();
        shard
            .slots()
            .filter(|slot| include_migrating || migrating.binary_search(slot).is_err())
            .collect()
    }

    /// Why `m`, a primary's report of a slot in migration, makes no sense by this map, in
    /// words that say what the map says; `None` when it fits. It does not fit when its two
    /// ends are one node, when its other end is no node of the map (neither of a shard nor
    /// left out as failed), or when both ends are primaries and the map gives the slot to a
    /// third. (A migrating node that no longer owns the slot, the map giving it to the
    /// target, fits: the classic move's last step reached the target and not the source.)
    /// Such a report is never acted on ([`finish_moves`](super::finish_moves)) nor printed
    /// as a migration.
    #[must_use]
    pub fn migration_doubt(&self, m: &Migration) -> Option<String> {
        let name = |id: &str| match self.find(id) {
            Ok((_, node)) => format!("{id} ({})", node.addr),
            Err(_) => id.to_owned(),
        };
        let slot = m.slot;
        let (claim, way) = match m.kind {
            MigrationKind::Migrating => ("migrating", "to"),
            MigrationKind::Importing => ("importing", "from"),
        };
        let owner = self.owners()[usize::from(slot)].map(|i| &self.shards[i].primary);
        let map = match owner {
            Some(o) => format!("the map gives slot {slot} to {} ({})", o.id, o.addr),
            None => format!("the map gives slot {slot} to no primary"),
        };
        let said = format!(
            "{} reports slot {slot} {claim} {way} {}",
            name(&m.node),
            if m.peer == m.node {
                "itself".to_owned()
            } else {
                name(&m.peer)
            }
        );
        let known = |id: &str| {
            self.shards
                .iter()
                .flat_map(Shard::nodes)
                .any(|n| n.id == id)
                || self.left_out.iter().any(|o| o.node.id == id)
        };
        let primary = |id: &str| self.shards.iter().any(|s| s.primary.id == id);
        if m.peer == m.node {
            Some(format!("{said}; {map}"))
        } else if !known(&m.peer) {
            Some(format!(
                "{said}, a node the map does not hold (neither in a shard nor failed); {map}"
            ))
        } else if primary(&m.node)
            && primary(&m.peer)
            && owner.is_some_and(|o| o.id != m.node && o.id != m.peer)
        {
            Some(format!("{said}; {map}, neither of them"))
        } else {
            None
        }
    }

    /// The shard and node whose id or `host:port` address is `node`.
    ///
    /// # Errors
    ///
    /// [`Error::LeftOutNode`] when `node` is a node the map left out (failed, or in a
    /// shard without a primary), saying why; [`Error::UnknownNode`], listing every node,
    /// when no node of the map is `node`.
    pub fn find(&self, node: &str) -> Result<(&Shard, &Node), Error> {
        let is = |n: &Node| n.id == node || n.addr == node;
        if let Some(found) = self
            .shards
            .iter()
            .flat_map(|shard| shard.nodes().map(move |n| (shard, n)))
            .find(|(_, n)| is(n))
        {
            return Ok(found);
        }
        if let Some(out) = self.left_out.iter().find(|o| is(&o.node)) {
            return Err(Error::LeftOutNode {
                node: node.to_owned(),
                shown: format!(
                    "{} ({})",
                    crate::text::escape_cut(out.node.id.as_bytes()),
                    crate::text::escape_cut(out.node.addr.as_bytes())
                ),
                reason: out.reason.clone(),
            });
        }
        Err(Error::UnknownNode {
            node: node.to_owned(),
            known: self
                .shards
                .iter()
                .flat_map(Shard::nodes)
                .map(|n| format!("{} ({})", n.id, n.addr))
                .collect(),
        })
    }

    /// Sorts the shards (by first slot; shards without slots last, by primary id) and their
    /// replicas (by address), and checks that no slot is owned twice.
    pub(super) fn sort_and_check(&mut self) -> Result<(), String> {
        self.left_out.sort_by(|a, b| a.node.addr.cmp(&b.node.addr));
        for shard in &mut self.shards {
            shard.replicas.sort_by(|a, b| a.addr.cmp(&b.addr));
        }
        self.shards.sort_by(|a, b| {
            let key = |s: &Shard| s.ranges.first().map_or(u32::MAX, |r| u32::from(r.first));
            key(a)
                .cmp(&key(b))
                .then_with(|| a.primary.id.cmp(&b.primary.id))
        });
        // a node id names one node: two nodes under one id would take each other's
        // commands (an --apply sent to one address what was meant for another)
        let mut ids: Vec<(&str, &str)> = self
            .shards
            .iter()
            .flat_map(Shard::nodes)
            .map(|n| (n.id.as_str(), n.addr.as_str()))
            .collect();
        ids.sort_unstable();
        if let Some(pair) = ids.windows(2).find(|pair| pair[0].0 == pair[1].0) {
            return Err(format!(
                "node id `{}` is given to two nodes, `{}` and `{}`, and an id names one node: give each node its own id (a node whose nodes.conf was copied from another takes a new one with `CLUSTER RESET HARD`, then `CLUSTER MEET`)",
                pair[0].0,
                crate::text::escape_text(pair[0].1),
                crate::text::escape_text(pair[1].1)
            ));
        }
        let mut owner: Vec<Option<&str>> = vec![None; usize::from(SLOTS)];
        for shard in &self.shards {
            for slot in shard.slots() {
                if let Some(other) = owner[usize::from(slot)] {
                    return Err(format!(
                        "slot {slot} is owned by both `{other}` and `{}`",
                        shard.primary.id
                    ));
                }
                owner[usize::from(slot)] = Some(&shard.primary.id);
            }
        }
        Ok(())
    }

    pub(super) fn sort_migrations(&mut self) {
        self.migrations
            .sort_by(|a, b| (a.slot, &a.node).cmp(&(b.slot, &b.node)));
        self.migrations.dedup();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::node::Role;

    #[test]
    fn a_failed_node_is_named_as_failed_not_unknown() {
        let node = |id: &str, addr: &str, role| Node {
            id: id.repeat(40),
            addr: addr.to_owned(),
            role,
            health: Some("online".to_owned()),
        };
        let topology = Topology {
            shards: vec![Shard {
                primary: node("b", "127.0.0.1:7406", Role::Primary),
                replicas: Vec::new(),
                ranges: vec![SlotRange {
                    first: 0,
                    last: 16383,
                }],
            }],
            left_out: vec![LeftOut {
                node: node("a", "127.0.0.1:7403", Role::Primary),
                ranges: Vec::new(),
                reason: "`CLUSTER SHARDS` gives it health `fail`".to_owned(),
                failed: true,
                followers: Vec::new(),
            }],
            migrations: Vec::new(),
            source: Source::ClusterShards,
        };
        for asked in ["127.0.0.1:7403", &"a".repeat(40)] {
            let why = topology.find(asked).unwrap_err();
            assert!(matches!(why, Error::LeftOutNode { .. }), "{why}");
            let why = why.to_string();
            assert!(
                why.contains(&format!("is {} (127.0.0.1:7403), which the cluster left out: `CLUSTER SHARDS` gives it health `fail`", "a".repeat(40)))
                    && why.contains("wait until a replica takes its place"),
                "{why}"
            );
        }
        assert!(topology.find("127.0.0.1:7406").is_ok());
    }

    /// A report of a slot in migration that the map contradicts is named, with what the
    /// map says; one that a half-finished move leaves is not.
    #[test]
    fn a_migration_the_map_contradicts_is_doubted() {
        let node = |c: &str, port: u16| Node {
            id: c.repeat(40),
            addr: format!("127.0.0.1:{port}"),
            role: Role::Primary,
            health: Some("online".to_owned()),
        };
        let shard = |c: &str, port: u16, first: u16, last: u16| Shard {
            primary: node(c, port),
            replicas: Vec::new(),
            ranges: vec![SlotRange { first, last }],
        };
        let topology = Topology {
            shards: vec![
                shard("a", 7001, 0, 99),
                shard("b", 7002, 100, 199),
                shard("c", 7003, 200, 16383),
            ],
            left_out: vec![LeftOut {
                node: node("d", 7004),
                ranges: Vec::new(),
                reason: "failed".to_owned(),
                failed: true,
                followers: Vec::new(),
            }],
            migrations: Vec::new(),
            source: Source::ClusterShards,
        };
        let (a, b, c) = ("a".repeat(40), "b".repeat(40), "c".repeat(40));
        let m = |slot: u16, kind, node: &str, peer: &str| Migration {
            slot,
            kind,
            node: node.to_owned(),
            peer: peer.to_owned(),
        };
        let doubt = |m: Migration| topology.migration_doubt(&m);
        assert_eq!(
            doubt(m(5, MigrationKind::Migrating, &a, &a)).as_deref(),
            Some(format!("{a} (127.0.0.1:7001) reports slot 5 migrating to itself; the map gives slot 5 to {a} (127.0.0.1:7001)").as_str())
        );
        let unknown = "e".repeat(40);
        assert_eq!(
            doubt(m(5, MigrationKind::Migrating, &a, &unknown)).as_deref(),
            Some(format!("{a} (127.0.0.1:7001) reports slot 5 migrating to {unknown}, a node the map does not hold (neither in a shard nor failed); the map gives slot 5 to {a} (127.0.0.1:7001)").as_str())
        );
        assert_eq!(
            doubt(m(150, MigrationKind::Migrating, &a, &c)).as_deref(),
            Some(format!("{a} (127.0.0.1:7001) reports slot 150 migrating to {c} (127.0.0.1:7003); the map gives slot 150 to {b} (127.0.0.1:7002), neither of them").as_str())
        );
        // the usual states of a classic move, and of one whose end failed
        for fits in [
            m(5, MigrationKind::Migrating, &a, &b),
            m(5, MigrationKind::Importing, &b, &a),
            // `SETSLOT NODE` reached the target, not the source
            m(150, MigrationKind::Migrating, &a, &b),
            // the target failed: the stand-in is found when the move is finished
            m(5, MigrationKind::Migrating, &a, &"d".repeat(40)),
            m(150, MigrationKind::Importing, &c, &"d".repeat(40)),
        ] {
            assert_eq!(doubt(fits.clone()), None, "{fits:?}");
        }
        assert!(matches!(
            topology.find("127.0.0.1:7999"),
            Err(Error::UnknownNode { .. })
        ));
    }
}
