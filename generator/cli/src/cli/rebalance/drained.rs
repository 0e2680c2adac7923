//! The removal list of a drain: the command that takes each drained primary out of the
//! cluster once its slots are moved, its replicas', and the failed nodes every node table
//! still lists (a drained primary's former self, where a replica took its place). One list,
//! its notes and its lines, whether the drain was planned now or read from a plan file.

use std::io::Write;

use anyhow::Result;
use serde_json::json;
use slotgen::text::field;
use slotgen_cluster::{LeftOut, Topology};

use super::super::shell::{Reach, Removal};

/// A primary that a drain empties, as the removal list needs it: its id and address, the
/// slots and keys it gives away, and its replicas (id, address) when the plan was made.
pub(super) struct Drained {
    pub id: String,
    pub addr: String,
    pub slots: usize,
    pub keys: u64,
    pub replicas: Vec<(String, String)>,
}

/// A drained primary and the commands that remove it and its replicas, with the note that
/// says all of it.
pub(super) struct Drain {
    pub id: String,
    pub addr: String,
    pub slots: usize,
    pub remove: String,
    /// Each replica: id, address, the command that removes it.
    pub replicas: Vec<(String, String, String)>,
    pub note: String,
}

/// A failed node without slots that every node table still lists, and the commands that
/// take it out of them ([`Removal::forget`]), in order.
pub(super) struct Failed {
    pub id: String,
    pub addr: String,
    pub remove: Vec<String>,
    pub note: String,
}

/// The removal list of a drain.
#[derive(Default)]
pub(super) struct Removals {
    pub drains: Vec<Drain>,
    pub failed: Vec<Failed>,
}

/// The removal list of the primaries `drained` of the cluster `reach` reaches, whose map
/// (now) is `topology`: each command seeded at a primary of it that is not drained, the
/// failed nodes its `left_out` can forget ([`LeftOut::forgettable`]) after the drained ones.
/// Empty where nothing is drained. A primary that gives its last slot away turns replica of
/// the node that took it, its replicas with it (the servers'
/// `cluster-allow-replica-migration`, on by default): they stay in the cluster, and
/// `del-node` removes each.
pub(super) fn removals(
    reach: &Reach,
    topology: &Topology,
    drained: &[Drained],
) -> Result<Removals> {
    if drained.is_empty() {
        return Ok(Removals::default());
    }
    let seed = topology
        .shards
        .iter()
        .map(|s| &s.primary)
        .find(|p| !drained.iter().any(|d| d.id == p.id))
        .expect("a drain keeps a primary");
    let removal = Removal::new(reach, &seed.addr)?;
    let password = removal.password();
    let drains = drained
        .iter()
        .map(|d| {
            let replicas: Vec<(String, String, String)> = d
                .replicas
                .iter()
                .map(|(id, addr)| (id.clone(), addr.clone(), removal.del_node(id)))
                .collect();
            let replica_text = if replicas.is_empty() {
                String::new()
            } else {
                format!(
                    "; its replicas stay, each replicating a primary that keeps slots: to remove them too, {}",
                    replicas
                        .iter()
                        .map(|(_, addr, cmd)| format!("`{cmd}` ({})", field(addr.as_bytes())))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            };
            let remove = removal.del_node(&d.id);
            // a primary that owns no slot now (one just added, or drained by hand): no move
            // of its, and no turn to replica, only the removal
            let note = if d.slots == 0 {
                format!(
                    "{} ({}) owns no slot already: remove it with `{remove}`{password}, which makes every other node forget it and resets it (`CLUSTER RESET SOFT`), its server left running for you to stop{replica_text}",
                    field(d.addr.as_bytes()),
                    field(d.id.as_bytes()),
                )
            } else {
                format!(
                    "{} ({}) gives all {} away ({}): it owns no slot after the plan, and turns replica of the primary that takes its last slot (its replicas with it), unless `cluster-allow-replica-migration` is `no`; once the moves are done, remove it with `{remove}`{password}, which makes every other node forget it and resets it (`CLUSTER RESET SOFT`), its server left running for you to stop{replica_text}",
                    field(d.addr.as_bytes()),
                    field(d.id.as_bytes()),
                    super::super::plural(d.slots as u64, "slot", "slots"),
                    super::super::plural(d.keys, "key", "keys"),
                )
            };
            Drain {
                id: d.id.clone(),
                addr: d.addr.clone(),
                slots: d.slots,
                remove,
                replicas,
                note,
            }
        })
        .collect();
    let failed = topology
        .left_out
        .iter()
        .filter(|g| g.forgettable())
        .map(|g: &LeftOut| Failed {
            id: g.node.id.clone(),
            addr: g.node.addr.clone(),
            remove: removal.forget(g),
            note: format!(
                "the failed {} {} ({}) is still in every node table (a drained primary's former self, where its replica took its place, or another node that failed): {}",
                g.node.role,
                field(g.node.id.as_bytes()),
                field(g.node.addr.as_bytes()),
                removal.forget_text(g, topology)
            ),
        })
        .collect();
    Ok(Removals { drains, failed })
}

impl Removals {
    /// Each note on standard error, the drained primaries first.
    pub(super) fn say(&self) {
        for note in self
            .drains
            .iter()
            .map(|d| &d.note)
            .chain(self.failed.iter().map(|f| &f.note))
        {
            say!("slotgen: note: {note}");
        }
    }

    /// The TSV lines: `drain` (id, address, the slots it gives away, the command that
    /// removes it), then `forget` (id, address, a command), one line a command of a failed
    /// node, in order.
    pub(super) fn write_tsv(&self, out: &mut impl Write) -> std::io::Result<()> {
        for d in &self.drains {
            writeln!(
                out,
                "drain\t{}\t{}\t{}\t{}",
                field(d.id.as_bytes()),
                field(d.addr.as_bytes()),
                d.slots,
                field(d.remove.as_bytes())
            )?;
        }
        for f in &self.failed {
            for command in &f.remove {
                writeln!(
                    out,
                    "forget\t{}\t{}\t{}",
                    field(f.id.as_bytes()),
                    field(f.addr.as_bytes()),
                    field(command.as_bytes())
                )?;
            }
        }
        Ok(())
    }

    /// The JSON of `drained` (`id`, `addr`, `slots`, `remove`, `replicas` of `id`, `addr`,
    /// `remove`) and `forget` (`id`, `addr`, `remove`: the commands in order).
    pub(super) fn json(&self) -> (serde_json::Value, serde_json::Value) {
        let drained = self
            .drains
            .iter()
            .map(|d| {
                json!({
                    "id": d.id,
                    "addr": d.addr,
                    "slots": d.slots,
                    "remove": d.remove,
                    "replicas": d.replicas.iter().map(|(id, addr, remove)| {
                        json!({ "id": id, "addr": addr, "remove": remove })
                    }).collect::<Vec<_>>(),
                })
            })
            .collect();
        let forget = self
            .failed
            .iter()
            .map(|f| json!({ "id": f.id, "addr": f.addr, "remove": f.remove }))
            .collect();
        (
            serde_json::Value::Array(drained),
            serde_json::Value::Array(forget),
        )
    }
}
