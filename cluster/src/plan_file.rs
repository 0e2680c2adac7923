//! A plan to review, then carry out exactly: [`PlanFile`] holds a [`Plan`]'s moves with the
//! map it was made on (every primary's id, address and slots), as JSON;
//! [`PlanFile::against`] gives back the plan for the live map, or refuses, naming every
//! difference, when the map is no longer the one the plan was made on.

use serde::{Deserialize, Serialize};

use super::rebalance::{Move, Plan};
use super::topology::{ranges_of, Topology};
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
}

impl PlanFile {
    /// `plan` (made on `topology`, by `metric`) as a file.
    #[must_use]
    pub fn new(plan: &Plan, topology: &Topology, metric: &str) -> Self {
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
    /// [`Error::PlanFile`] naming each difference (up to 10, then how many more): a slot
    /// owned by another primary, a primary at another address, a primary gone; or a move
    /// whose source is not its slot's owner in the file's own map.
    pub fn against(&self, file: &str, live: &Topology) -> Result<Plan, Error> {
        let bad = |reason: String| Error::PlanFile {
            file: crate::text::escape_cut(file.as_bytes()),
            reason,
        };
        let shown = |n: &NodeRef| {
            format!(
                "{} ({})",
                crate::text::escape_cut(n.id.as_bytes()),
                crate::text::escape_cut(n.addr.as_bytes())
            )
        };
        let now = map_of(live);
        let mut changes = Vec::new();
        let planned_owner = owners_of(&self.map);
        let live_owner = owners_of(&now);
        for shard in &self.map {
            match now.iter().find(|s| s.primary.id == shard.primary.id) {
                None => changes.push(format!("{} is no primary now", shown(&shard.primary))),
                Some(s) if s.primary.addr != shard.primary.addr => changes.push(format!(
                    "{} is at {} now",
                    shown(&shard.primary),
                    crate::text::escape_cut(s.primary.addr.as_bytes())
                )),
                Some(_) => {}
            }
        }
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
        for slot in 0..planned_owner.len() {
            let (a, b) = (planned_owner[slot], live_owner[slot]);
            let id = |map: &[MapShard], o: Option<usize>| o.map(|i| map[i].primary.id.clone());
            if id(&self.map, a) != id(&now, b)
                && moved_to(slot).is_some()
                && moved_to(slot) == id(&now, b)
            {
                done[slot] = true;
            } else if id(&self.map, a) != id(&now, b) {
                changes.push(format!(
                    "slot {slot} was on {}, now on {}",
                    name(&self.map, a),
                    name(&now, b)
                ));
            }
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
            let (Some(from), Some(to)) = (index(&m.from), index(&m.to)) else {
                return Err(bad(format!(
                    "moves slot {} between nodes that are not in its own map: make the plan again",
                    m.slot
                )));
            };
            let slot = usize::from(m.slot);
            let owner_id = planned_owner
                .get(slot)
                .copied()
                .flatten()
                .map(|i| &self.map[i].primary.id);
            if owner_id != Some(&m.from.id) || from == to || seen[slot] {
                return Err(bad(format!(
                    "moves slot {} from {}, which is not its owner in the file's map, or twice: make the plan again",
                    m.slot,
                    shown(&m.from)
                )));
            }
            seen[slot] = true;
            if done[slot] {
                continue;
            }
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
