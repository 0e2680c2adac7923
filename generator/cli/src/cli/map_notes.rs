//! What a command says of the map it read before it works on it: the nodes left out (and,
//! for a failed one, the commands that remove it: [`Removal`]), a map with slots that no
//! node serves refused, and for `load` and `rebalance` where the load came from. Above
//! [`super::shell`], which builds the commands, and [`super::cluster`], which says the rest.

use anyhow::{bail, Result};
use slotgen::text::field;
use slotgen_cluster::{self as cluster, SlotLoad, Topology};

use super::cluster::{
    note_load_source, note_migrations, note_stranded, note_topology, note_unowned, MIGRATING_LOAD,
};
use super::shell::{Reach, Removal};

/// Notes on standard error every node left out of the map (failed, or of a shard without a
/// primary), and for one the cluster marks failed without slots, the commands that take it
/// out of every node table ([`Removal::forget_text`]).
pub fn note_left_out(topology: &Topology, reach: &Reach) {
    let removal = Removal::for_left_out(reach, topology);
    for gone in &topology.left_out {
        let remove = match &removal {
            Some(r) if gone.forgettable() => format!("; {}", r.forget_text(gone, topology)),
            _ => String::new(),
        };
        let slots = if gone.ranges.is_empty() {
            String::new()
        } else {
            format!(
                " (the map still gives it slots {})",
                cluster::show_ranges(&gone.ranges)
            )
        };
        say!(
            "slotgen: note: {} {} ({}) is left out{slots}: {}; it is not asked and gets no keys{remove}",
            gone.node.role,
            field(gone.node.id.as_bytes()),
            field(gone.node.addr.as_bytes()),
            gone.reason
        );
    }
}

/// What `load` and `rebalance` say of the load they read, once its metric is accepted:
/// refuses a map in which a failed primary still holds slots
/// ([`require_every_slot_served`], which notes the nodes left out), then notes where the map
/// and the load came from, the slots in migration, and the keys stranded on a primary
/// ([`note_stranded`]).
pub fn note_load(reach: &Reach, load: &SlotLoad) -> Result<()> {
    require_every_slot_served(&load.topology, reach)?;
    note_topology(reach.url, &load.topology);
    note_unowned(&load.topology);
    note_load_source(reach.url, &load.source);
    note_migrations(&load.topology, MIGRATING_LOAD);
    note_stranded(load);
    Ok(())
}

/// Refuses a map in which a failed primary still holds slots (the cluster has not promoted
/// a replica yet, or cannot): what `keys` and `placement` make of it would miss a node that
/// is coming back as another (keys for some primaries only, keys counted on no node), so
/// they stop (exit 1), where `nodes` lists the map as it is. Slots that no node holds at all
/// (a cluster without full coverage) are the map's answer, not a failover's. When the map
/// is whole, the nodes left out are noted ([`note_left_out`]).
pub fn require_every_slot_served(topology: &Topology, reach: &Reach) -> Result<()> {
    if let Some(gone) = topology.left_out.iter().find(|g| !g.ranges.is_empty()) {
        bail!(
            "slots {} are served by no node: their primary {} ({}) is left out ({}); a failover may be under way: run again once a replica has taken over (`slotgen nodes` shows the map)",
            cluster::show_ranges(&gone.ranges),
            field(gone.node.id.as_bytes()),
            field(gone.node.addr.as_bytes()),
            gone.reason
        );
    }
    note_left_out(topology, reach);
    Ok(())
}
