//! A plan to review, then carry out exactly: [`PlanFile`] holds a [`Plan`]'s moves with the
//! map it was made on (every primary's id, address and slots), as JSON;
//! [`PlanFile::against`] gives back the plan for the live map, or refuses, naming every
//! difference (a primary that failed over as one), when the map is no longer the one the
//! plan was made on.

use serde::{Deserialize, Serialize};

use super::rebalance::{Move, Plan};
use super::slot_range::ranges_of;
use super::topology::Topology;
use super::Error;

/// The `format` of a plan file this version writes and reads.
pub const PLAN_FORMAT: &str = "slotgen-plan/1";

/// The largest plan file read: 16384 moves and a map of 16384 primaries take under 8 MB.
pub const MAX_PLAN_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// A node of a plan file: its id and address.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NodeRef {
    /// The node id, 40 hex digits.
    pub id: String,
    /// `host:port`.
    pub addr: String,
}

/// A primary of the map a plan was made on, and its slots as inclusive ranges.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MapShard {
    /// The primary.
    pub primary: NodeRef,
    /// Its slots, `[first, last]` ranges in order.
    pub ranges: Vec<[u16; 2]>,
}

/// One move of a plan file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileMove {
    /// The hash slot.
    pub slot: u16,
    /// The primary it leaves.
    pub from: NodeRef,
    /// The primary it goes to.
    pub to: NodeRef,
    /// Its keys when planned.
    pub keys: u64,
    /// Its amount of the metric when planned.
    pub amount: u64,
}

/// A primary that a plan drains (`rebalance --drain`), and its replicas when the plan was
/// made: what the removal list after the apply names, as the planning run's did (after the
/// drain the primary is a replica of another, its replicas with it: the map then no longer
/// says which were its).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileDrained {
    /// The node id, 40 hex digits.
    pub id: String,
    /// `host:port`.
    pub addr: String,
    /// Its replicas.
    pub replicas: Vec<NodeRef>,
}

/// A plan and the map it was made on, as `rebalance --out` writes it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlanFile {
    /// [`PLAN_FORMAT`].
    pub format: String,
    /// The metric planned by (`keys`, `cpu`, ...).
    pub metric: String,
    /// The target skew.
    pub target: f64,
    /// The skew before, and the skew predicted after the moves.
    pub skew_before: Option<f64>,
    /// The skew predicted after the moves.
    pub skew_after: Option<f64>,
    /// The map the plan was made on.
    pub map: Vec<MapShard>,
    /// The moves, in order.
    pub moves: Vec<FileMove>,
    /// The primaries the plan drains, none for a plan without `--drain` (and in a file of
    /// a version before this field).
    #[serde(default)]
    pub drained: Vec<FileDrained>,
}

impl PlanFile {
    /// `plan` (made on `topology`, by `metric`, draining the shards `drained` of it) as a
    /// file.
    #[must_use]
    pub fn new(plan: &Plan, topology: &Topology, metric: &str, drained: &[usize]) -> Self {
        let node = |shard: usize| {
            let p = &topology.shards[shard].primary;
            NodeRef {
                id: p.id.clone(),
                addr: p.addr.clone(),
            }
        };
        PlanFile {
            format: PLAN_FORMAT.to_owned(),
            metric: metric.to_owned(),
            target: plan.target,
            skew_before: plan.skew_before,
            skew_after: plan.skew_after,
            map: map_of(topology),
            moves: plan
                .moves
                .iter()
                .map(|m| FileMove {
                    slot: m.slot,
                    from: node(m.from),
                    to: node(m.to),
                    keys: m.keys,
                    amount: m.amount,
                })
                .collect(),
            drained: drained
                .iter()
                .map(|&shard| {
                    let s = &topology.shards[shard];
                    FileDrained {
                        id: s.primary.id.clone(),
                        addr: s.primary.addr.clone(),
                        replicas: s
                            .replicas
                            .iter()
                            .map(|r| NodeRef {
                                id: r.id.clone(),
                                addr: r.addr.clone(),
                            })
                            .collect(),
                    }
                })
                .collect(),
        }
    }

    /// Reads a plan file from the JSON `text` of `file` (named in errors).
    ///
    /// # Errors
    ///
    /// [`Error::PlanFile`] when it is not a plan file of [`PLAN_FORMAT`].
    pub fn parse(file: &str, text: &[u8]) -> Result<Self, Error> {
        let bad = |reason: String| Error::PlanFile {
            file: crate::text::escape_cut(file.as_bytes()),
            reason,
        };
        let plan: PlanFile = serde_json::from_slice(text).map_err(|e| {
            bad(format!(
                "is not a plan that `slotgen rebalance --out` wrote ({}): give the file it wrote",
                crate::text::reason(&e.to_string())
            ))
        })?;
        if plan.format != PLAN_FORMAT {
            return Err(bad(format!(
                "is of format `{}`, not `{PLAN_FORMAT}`: make the plan again with this version's `slotgen rebalance --out`",
                crate::text::escape_cut(plan.format.as_bytes())
            )));
        }
        // a drained primary is a primary of the file's map, and every id a removal command
        // names is a node id (40 hex digits)
        for d in &plan.drained {
            if !plan
                .map
                .iter()
                .any(|s| s.primary.id == d.id && s.primary.addr == d.addr)
            {
                return Err(bad(format!(
                    "drains {}, which is no primary of its own map at that address: nothing was moved: make the plan again",
                    shown_node(&NodeRef {
                        id: d.id.clone(),
                        addr: d.addr.clone()
                    })
                )));
            }
            for r in &d.replicas {
                super::answers::node_id(&r.id, &crate::text::escape_cut(r.addr.as_bytes()))
                    .map_err(|e| bad(format!("names a replica of a drained primary: {e}; nothing was moved: make the plan again")))?;
            }
        }
        // the rules of a move alone, whatever the map: before the map is compared
        for m in &plan.moves {
            if m.slot >= super::SLOTS {
                return Err(bad(format!(
                    "moves slot {}, out of range: a hash slot is 0 to {}; nothing was moved: make the plan again",
                    m.slot,
                    super::SLOTS - 1
                )));
            }
            if m.from.id == m.to.id {
                return Err(bad(format!(
                    "moves slot {} from {} to itself: a move's target is another primary than its source; nothing was moved: make the plan again",
                    m.slot,
                    shown_node(&m.from)
                )));
            }
        }
        Ok(plan)
    }

    /// The plan for `live`, the cluster's map now (its shard indices), when `live` is the map
    /// the plan was made on: every primary at the same address with the same slots.
    ///
    /// # Errors
    ///
    /// The moves that a former run of this plan carried out already (their slot is on
    /// their target now) are left out, so that an interrupted `--apply --plan` is taken up
    /// by the same command.
    ///
    /// [`Error::PlanFile`] naming each difference (up to 10, then how many more): a primary
    /// whose every slot is on one other primary now, as one change (`it failed over` when
    /// it is no primary now), a slot owned by another primary, a primary at another address,
    /// a primary gone; a plan of another cluster (none of its node ids is a node of `live`)
    /// as such; or a move whose source is not its slot's owner in the file's own map.
    pub fn against(&self, file: &str, live: &Topology) -> Result<Plan, Error> {
        let bad = |reason: String| Error::PlanFile {
            file: crate::text::escape_cut(file.as_bytes()),
            reason,
        };
        let shown = shown_node;
        let now = map_of(live);
        // a plan of another cluster: none of its node ids is a node of this one (a primary,
        // a replica, or a failed node)
        let here = |id: &str| {
            live.shards
                .iter()
                .flat_map(super::Shard::nodes)
                .any(|n| n.id == id)
                || live.left_out.iter().any(|o| o.node.id == id)
        };
        if !self.map.is_empty() && !self.map.iter().any(|s| here(&s.primary.id)) {
            return Err(bad(
                "was made for another cluster: none of its node ids is here; nothing was moved: make and review a plan for this cluster (`slotgen rebalance ... --out FILE`)".to_owned(),
            ));
        }
        let planned_owner = owners_of(&self.map);
        let live_owner = owners_of(&now);
        let name = |map: &[MapShard], o: Option<usize>| {
            o.map_or_else(|| "no owner".to_owned(), |i| shown(&map[i].primary))
        };
        // a slot that a former run of this plan moved already (interrupted, or stopped by
        // a failed step) is on its move's target: not a change, and its move is left out
        let moved_to = |slot: usize| {
            self.moves
                .iter()
                .find(|m| usize::from(m.slot) == slot)
                .map(|m| m.to.id.clone())
        };
        let mut done = vec![false; planned_owner.len()];
        // each slot on another owner: (slot, its owner in the file's map, its owner now)
        let mut changed = Vec::new();
        for slot in 0..planned_owner.len() {
            let (a, b) = (planned_owner[slot], live_owner[slot]);
            let id = |map: &[MapShard], o: Option<usize>| o.map(|i| map[i].primary.id.clone());
            if id(&self.map, a) == id(&now, b) {
                continue;
            }
            if moved_to(slot).is_some() && moved_to(slot) == id(&now, b) {
                done[slot] = true;
            } else {
                changed.push((slot, a, b));
            }
        }
        let groups = self.whole_nodes_moved(&planned_owner, &done, &changed);
        let mut changes = Vec::new();
        for (i, shard) in self.map.iter().enumerate() {
            let group = groups.iter().find(|g| g.0 == i);
            match now.iter().find(|s| s.primary.id == shard.primary.id) {
                // every slot of a primary gone on one other: it failed over
                None => match group {
                    Some(&(_, b, n)) => changes.push(format!(
                        "the {n} slots of {} are now on {}: it failed over",
                        shown_addr_first(&shard.primary),
                        shown_addr_first(&now[b].primary)
                    )),
                    // a primary this plan drains, every slot of it moved already: the
                    // drain done (it turned replica of the node that took its last slot)
                    None if self.drained.iter().any(|d| d.id == shard.primary.id)
                        && planned_owner
                            .iter()
                            .zip(&done)
                            .all(|(o, d)| *o != Some(i) || *d) => {}
                    None => changes.push(format!("{} is no primary now", shown(&shard.primary))),
                },
                Some(s) if s.primary.addr != shard.primary.addr => changes.push(format!(
                    "{} is at {} now",
                    shown(&shard.primary),
                    crate::text::escape_cut(s.primary.addr.as_bytes())
                )),
                Some(_) => {
                    if let Some(&(_, b, n)) = group {
                        changes.push(format!(
                            "the {n} slots of {} are now on {}",
                            shown_addr_first(&shard.primary),
                            shown_addr_first(&now[b].primary)
                        ));
                    }
                }
            }
        }
        for &(slot, a, b) in &changed {
            if a.is_some_and(|a| groups.iter().any(|g| g.0 == a)) {
                continue;
            }
            changes.push(format!(
                "slot {slot} was on {}, now on {}",
                name(&self.map, a),
                name(&now, b)
            ));
        }
        if !changes.is_empty() {
            let n = changes.len();
            let mut listed = changes.into_iter().take(10).collect::<Vec<_>>().join("; ");
            if n > 10 {
                listed += &format!("; and {} more", n - 10);
            }
            return Err(bad(format!(
                "was made on a map that differs from the cluster's now: {listed}; nothing was moved: make and review a new plan (`slotgen rebalance ... --out FILE`)"
            )));
        }
        let index = |n: &NodeRef| live.shards.iter().position(|s| s.primary.id == n.id);
        let mut moves = Vec::with_capacity(self.moves.len());
        let mut seen = vec![false; planned_owner.len()];
        // a move names each node as the file's map does (the id and the address), so that
        // what is printed of it is what is used
        let in_map = |n: &NodeRef| {
            self.map
                .iter()
                .any(|s| s.primary.id == n.id && s.primary.addr == n.addr)
        };
        for m in &self.moves {
            if let Some(n) = [&m.from, &m.to].into_iter().find(|n| !in_map(n)) {
                return Err(bad(format!(
                    "moves slot {} with the node {}, which its own map does not have at that address: make the plan again",
                    m.slot,
                    shown(n)
                )));
            }
            let slot = usize::from(m.slot);
            let owner_id = planned_owner
                .get(slot)
                .copied()
                .flatten()
                .map(|i| &self.map[i].primary.id);
            if seen[slot] {
                return Err(bad(format!(
                    "moves slot {} twice: a plan moves a slot once; nothing was moved: make the plan again",
                    m.slot
                )));
            }
            if owner_id != Some(&m.from.id) {
                return Err(bad(format!(
                    "moves slot {} from {}, which is not its owner in the file's map: a move starts at its slot's owner; nothing was moved: make the plan again",
                    m.slot,
                    shown(&m.from)
                )));
            }
            seen[slot] = true;
            if done[slot] {
                continue;
            }
            // (a move done already may name a primary that is none now: a drained one)
            let (Some(from), Some(to)) = (index(&m.from), index(&m.to)) else {
                return Err(bad(format!(
                    "moves slot {} between nodes that are not in its own map: make the plan again",
                    m.slot
                )));
            };
            moves.push(Move {
                slot: m.slot,
                from,
                to,
                keys: m.keys,
                amount: m.amount,
            });
        }
        Ok(Plan {
            moves,
            skew_before: self.skew_before,
            skew_after: self.skew_after,
            target: self.target,
            reached: self.skew_after.is_none_or(|s| s <= self.target),
            unreachable: Vec::new(),
            loads_before: Vec::new(),
            loads_after: Vec::new(),
            caps: Vec::new(),
        })
    }
}

impl PlanFile {
    /// The primaries of the file's map whose every slot (not moved by this plan already:
    /// `done`) is now on one other primary: `(index in the file's map, index in the map now,
    /// slots)`, from `changed`, each slot on another owner `(slot, owner in the file's map,
    /// owner now)`.
    fn whole_nodes_moved(
        &self,
        planned_owner: &[Option<usize>],
        done: &[bool],
        changed: &[(usize, Option<usize>, Option<usize>)],
    ) -> Vec<(usize, usize, usize)> {
        (0..self.map.len())
            .filter_map(|i| {
                let mine: Vec<Option<usize>> = changed
                    .iter()
                    .filter(|c| c.1 == Some(i))
                    .map(|c| c.2)
                    .collect();
                let owned = (0..planned_owner.len())
                    .filter(|&slot| planned_owner[slot] == Some(i) && !done[slot])
                    .count();
                match mine.first() {
                    Some(&Some(b)) if mine.len() == owned && mine.iter().all(|&o| o == Some(b)) => {
                        Some((i, b, owned))
                    }
                    _ => None,
                }
            })
            .collect()
    }
}

/// A node of a plan file, `id (addr)`, both escaped and cut.
fn shown_node(n: &NodeRef) -> String {
    format!(
        "{} ({})",
        crate::text::escape_cut(n.id.as_bytes()),
        crate::text::escape_cut(n.addr.as_bytes())
    )
}

/// A node as a grouped change names it: `host:port (id)`.
fn shown_addr_first(n: &NodeRef) -> String {
    format!(
        "{} ({})",
        crate::text::escape_cut(n.addr.as_bytes()),
        crate::text::escape_cut(n.id.as_bytes())
    )
}

/// The map of `topology`: each primary and its slot ranges.
fn map_of(topology: &Topology) -> Vec<MapShard> {
    let owners = topology.owners();
    topology
        .shards
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let slots: Vec<u16> = (0..owners.len())
                .filter(|&slot| owners[slot] == Some(i))
                .map(|slot| u16::try_from(slot).unwrap_or(u16::MAX))
                .collect();
            MapShard {
                primary: NodeRef {
                    id: s.primary.id.clone(),
                    addr: s.primary.addr.clone(),
                },
                ranges: ranges_of(&slots)
                    .into_iter()
                    .map(|r| [r.first, r.last])
                    .collect(),
            }
        })
        .collect()
}

/// The owner (index in `map`) of each of the 16384 slots.
fn owners_of(map: &[MapShard]) -> Vec<Option<usize>> {
    let mut owners = vec![None; usize::from(super::SLOTS)];
    for (i, s) in map.iter().enumerate() {
        for &[a, b] in &s.ranges {
            for slot in a..=b.min(super::SLOTS - 1) {
                owners[usize::from(slot)] = Some(i);
            }
        }
    }
    owners
}

#[cfg(test)]
mod tests {
    use super::super::{LeftOut, Node, Role, Shard, SlotRange, Source, SLOTS};
    use super::*;

    /// A primary with id `n` in 40 hex digits at 127.0.0.1:7000+n, with the slot ranges
    /// given, and one replica (id `n + 100`).
    fn shard(n: u16, ranges: &[(u16, u16)]) -> Shard {
        let node = |n: u16, role| Node {
            id: format!("{n:040x}"),
            addr: format!("127.0.0.1:{}", 7000 + n),
            role,
            health: Some("online".to_owned()),
        };
        Shard {
            primary: node(n, Role::Primary),
            replicas: vec![node(n + 100, Role::Replica)],
            ranges: ranges
                .iter()
                .map(|&(first, last)| SlotRange { first, last })
                .collect(),
        }
    }

    fn topology(shards: Vec<Shard>, left_out: Vec<LeftOut>) -> Topology {
        Topology {
            shards,
            left_out,
            migrations: Vec::new(),
            source: Source::ClusterShards,
        }
    }

    /// Three primaries (1, 2, 3) with the default thirds of the slots.
    fn thirds() -> Topology {
        topology(
            vec![
                shard(1, &[(0, 5460)]),
                shard(2, &[(5461, 10922)]),
                shard(3, &[(10923, 16383)]),
            ],
            Vec::new(),
        )
    }

    /// A plan file made on `thirds()`, moving each `(slot, from, to)` (shard indices).
    fn file(moves: &[(u16, usize, usize)]) -> PlanFile {
        let plan = Plan {
            moves: moves
                .iter()
                .map(|&(slot, from, to)| Move {
                    slot,
                    from,
                    to,
                    keys: 1,
                    amount: 1,
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
        };
        PlanFile::new(&plan, &thirds(), "keys", &[])
    }

    /// `thirds()` after primary `failed` (index) failed over to its replica: the replica a
    /// primary (its own id and address) with the same slots, the old primary left out.
    fn failed_over(failed: usize) -> Topology {
        let mut t = thirds();
        let old = t.shards[failed].clone();
        let promoted = old.replicas[0].clone();
        t.shards[failed].primary = Node {
            role: Role::Primary,
            ..promoted
        };
        t.shards[failed].replicas.clear();
        t.left_out.push(LeftOut {
            node: old.primary,
            ranges: Vec::new(),
            reason: "`CLUSTER SHARDS` gives it health `fail`".to_owned(),
            failed: true,
            followers: Vec::new(),
        });
        t
    }

    fn refusal(plan: &PlanFile, live: &Topology) -> String {
        plan.against("plan.json", live).unwrap_err().to_string()
    }

    /// A drain's file names the drained primary and its replicas as the map gave them, and
    /// reads back so; one that names a primary not in its map, or a replica whose id is no
    /// node id (which a removal command would name), is refused.
    #[test]
    fn a_drain_plan_file_keeps_the_drained_primaries_and_their_replicas() {
        let mut f = file(&[(10923, 2, 0)]);
        f = PlanFile::new(&f.against("f", &thirds()).unwrap(), &thirds(), "keys", &[2]);
        assert_eq!(f.drained.len(), 1);
        assert_eq!(f.drained[0].id, format!("{:040x}", 3));
        assert_eq!(f.drained[0].addr, "127.0.0.1:7003");
        assert_eq!(f.drained[0].replicas[0].id, format!("{:040x}", 103));
        let text = serde_json::to_vec(&f).unwrap();
        assert_eq!(PlanFile::parse("f", &text).unwrap(), f);
        // a file of a version before `drained`: none drained
        let mut old: serde_json::Value = serde_json::from_slice(&text).unwrap();
        old.as_object_mut().unwrap().remove("drained");
        let old = PlanFile::parse("f", &serde_json::to_vec(&old).unwrap()).unwrap();
        assert!(old.drained.is_empty());
        // applied again once done: the drained primary, a replica now, is no change
        let mut after = thirds();
        after.shards[0].ranges.push(SlotRange {
            first: 10923,
            last: 10923,
        });
        after.shards[2].ranges = vec![SlotRange {
            first: 10924,
            last: 16383,
        }];
        let moved_all = PlanFile::new(
            &Plan {
                moves: (10923..=16383)
                    .map(|slot| Move {
                        slot,
                        from: 2,
                        to: 0,
                        keys: 0,
                        amount: 0,
                    })
                    .collect(),
                ..f.against("f", &thirds()).unwrap()
            },
            &thirds(),
            "keys",
            &[2],
        );
        let mut drained_now = thirds();
        drained_now.shards[0].ranges = vec![
            SlotRange {
                first: 0,
                last: 5460,
            },
            SlotRange {
                first: 10923,
                last: 16383,
            },
        ];
        drained_now.shards.remove(2);
        assert!(moved_all
            .against("f", &drained_now)
            .unwrap()
            .moves
            .is_empty());
        // not drained by the plan: the same map is a change
        let mut undrained = moved_all.clone();
        undrained.drained.clear();
        let e = undrained.against("f", &drained_now).unwrap_err();
        assert!(e.to_string().contains("is no primary now"), "{e}");
        // half done: the rest of the moves (the drained primary still owns slots)
        assert_eq!(moved_all.against("f", &after).unwrap().moves.len(), 5460);
        let mut bad = f.clone();
        bad.drained[0].addr = "127.0.0.1:7999".to_owned();
        let e = PlanFile::parse("f", &serde_json::to_vec(&bad).unwrap()).unwrap_err();
        assert!(e.to_string().contains("no primary of its own map"), "{e}");
        let mut bad = f.clone();
        bad.drained[0].replicas[0].id = "x; rm -rf /\n".to_owned();
        let e = PlanFile::parse("f", &serde_json::to_vec(&bad).unwrap())
            .unwrap_err()
            .to_string();
        assert!(e.contains("not 40 hex digits") && !e.contains('\n'), "{e}");
    }

    #[test]
    fn a_failed_over_primary_is_one_change_not_a_list_of_slots() {
        let plan = file(&[(5461, 1, 0)]);
        let live = failed_over(1);
        let why = refusal(&plan, &live);
        // the slots of the second primary, counted from the map itself
        let n = thirds().shards[1].slot_count();
        let (old, new) = (&thirds().shards[1].primary, &live.shards[1].primary);
        assert!(
            why.contains(&format!(
                "the {n} slots of {} ({}) are now on {} ({}): it failed over",
                old.addr, old.id, new.addr, new.id
            )),
            "{why}"
        );
        assert!(
            !why.contains("slot 5461 was on") && !why.contains("no primary now"),
            "{why}"
        );
    }

    #[test]
    fn a_failover_after_moves_done_counts_the_slots_left() {
        // slot 5461 moved to the first primary by a former run, then the second failed over
        let plan = file(&[(5461, 1, 0), (5462, 1, 2)]);
        let mut live = failed_over(1);
        live.shards[0].ranges = vec![SlotRange {
            first: 0,
            last: 5461,
        }];
        live.shards[1].ranges = vec![SlotRange {
            first: 5462,
            last: 10922,
        }];
        let why = refusal(&plan, &live);
        let n = thirds().shards[1].slot_count() - 1;
        assert!(
            why.contains(&format!("the {n} slots of 127.0.0.1:7002 (")),
            "{why}"
        );
        assert!(why.contains(": it failed over"), "{why}");
    }

    #[test]
    fn a_slot_moved_by_hand_is_named_alone() {
        let plan = file(&[(5461, 1, 0)]);
        let mut live = thirds();
        live.shards[0].ranges = vec![SlotRange {
            first: 1,
            last: 5460,
        }];
        live.shards[2].ranges = vec![
            SlotRange { first: 0, last: 0 },
            SlotRange {
                first: 10923,
                last: 16383,
            },
        ];
        let why = refusal(&plan, &live);
        let (a, c) = (&live.shards[0].primary, &live.shards[2].primary);
        assert!(
            why.contains(&format!(
                "slot 0 was on {} ({}), now on {} ({})",
                a.id, a.addr, c.id, c.addr
            )),
            "{why}"
        );
        assert!(
            !why.contains("failed over") && !why.contains(" slots of "),
            "{why}"
        );
    }

    /// Each rule of a move is named alone (a tester's `"slot": 16384` and a move to its
    /// own source were both told "not its owner in the file's map, or twice").
    #[test]
    fn each_rule_of_a_move_is_named() {
        let edited = |edit: &dyn Fn(&mut PlanFile)| {
            let mut plan = file(&[(5461, 1, 0), (5462, 1, 2)]);
            edit(&mut plan);
            let text = serde_json::to_vec(&plan).unwrap();
            match PlanFile::parse("plan.json", &text) {
                Ok(parsed) => refusal(&parsed, &thirds()),
                Err(e) => e.to_string(),
            }
        };
        let out = edited(&|p| p.moves[0].slot = SLOTS);
        assert!(
            out.contains("moves slot 16384, out of range: a hash slot is 0 to 16383"),
            "{out}"
        );
        let out = edited(&|p| p.moves[0].to = p.moves[0].from.clone());
        assert!(
            out.contains(&format!(
                "moves slot 5461 from {:040x} (127.0.0.1:7002) to itself: a move's target is another primary",
                2
            )),
            "{out}"
        );
        let out = edited(&|p| p.moves[1].slot = 5461);
        assert!(out.contains("moves slot 5461 twice"), "{out}");
        let out = edited(&|p| p.moves[0].from = p.moves[1].to.clone());
        assert!(
            out.contains(
                "which is not its owner in the file's map: a move starts at its slot's owner"
            ),
            "{out}"
        );
        for out in [out, edited(&|p| p.moves[0].slot = SLOTS)] {
            assert!(!out.contains("or twice"), "{out}");
        }
    }

    #[test]
    fn a_plan_of_another_cluster_says_so() {
        let plan = file(&[(5461, 1, 0)]);
        // the same addresses, every id another
        let live = topology(
            vec![
                shard(11, &[(0, 5460)]),
                shard(12, &[(5461, 10922)]),
                shard(13, &[(10923, 16383)]),
            ],
            Vec::new(),
        );
        let why = refusal(&plan, &live);
        assert!(
            why.contains("was made for another cluster: none of its node ids is here"),
            "{why}"
        );
        assert!(!why.contains("slot "), "{why}");
        // every primary of the plan failed over is still this cluster (a failed node)
        let mut all = failed_over(0);
        for i in 1..3 {
            let other = failed_over(i);
            all.shards[i] = other.shards[i].clone();
            all.left_out.extend(other.left_out);
        }
        let why = refusal(&plan, &all);
        assert!(!why.contains("another cluster"), "{why}");
        assert_eq!(why.matches(": it failed over").count(), 3, "{why}");
    }
}
