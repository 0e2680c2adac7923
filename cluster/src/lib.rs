//! A live Redis Cluster (or Valkey cluster): its topology, keys that land on every node, and
//! where a workload's keys land. The live-cluster half of slotgen, apart from the generator
//! (the crate `slotgen`, which has no network code) so that a build script or proc macro
//! depending on the generator compiles no network client; every exchange with a
//! server goes through the bounded connection that [`crate::server`] uses (the
//! [`redis`] crate packs the commands and parses the replies), one deadline over all of them
//! and a budget on every reply, from what a real answer can need.
//!
//! - [`Topology::fetch`] asks a node for the cluster's shards (`CLUSTER SHARDS`, Redis 7+ and
//!   Valkey; `CLUSTER SLOTS` on servers that refuse it) and every primary for the slots it is
//!   migrating or importing (`CLUSTER NODES`: a node reports only its own), all within one
//!   deadline.
//! - [`keys_over_slots`] makes distinct keys spread evenly over a node's slots, with the
//!   tags of [`REDIS_CLUSTER`](slotgen_tables::REDIS_CLUSTER): a load test that must hit
//!   every primary takes K keys per node instead of trying random keys until one routes
//!   there.
//! - [`Placement`] counts where keys fall: per slot, and with a [`Topology`] per node.
//! - [`SlotLoad::fetch`] reads the load of every slot (`CLUSTER SLOT-STATS`: keys, CPU,
//!   network bytes; keys by `CLUSTER COUNTKEYSINSLOT` on older servers), and
//!   [`SlotLoad::summary`] sums a metric per primary: shares, skew, top and hot slots.
//!
//! ```
//! use slotgen_cluster::{keys_over_slots, SlotRange};
//!
//! // Three keys over the slots 0-5460 (the first primary of a 3-primary cluster), at even
//! // spacing: slots 0, 1820 and 3640.
//! let slots: Vec<u16> = SlotRange { first: 0, last: 5460 }.slots().collect();
//! let keys: Vec<(u16, Vec<u8>)> = keys_over_slots(&slots, 3, b"load:", b"")?.collect();
//! assert_eq!(keys[0], (0, b"load:{DLH@}".to_vec()));
//! assert_eq!(keys.iter().map(|k| k.0).collect::<Vec<_>>(), [0, 1820, 3640]);
//! # Ok::<(), slotgen_cluster::Error>(())
//! ```

#![warn(missing_docs)]

// The code by job, from the bottom: the bounded connection
// (`transport/`, `url.rs`), the cluster's map and its types (`topology.rs`), reading the
// answers of `CLUSTER SHARDS`, `CLUSTER SLOTS`, `CLUSTER NODES` and `INFO` (`answers.rs`),
// asking the nodes within one deadline and a budget per command (`exchange.rs`), keys over
// a node's slots (`spread.rs`), where keys land (`placement.rs`), where the load lands
// (`load.rs`, read by `slot_stats.rs`), and the error they share (`error.rs`).
mod answers;
mod atomic;
mod dialect;
mod error;
mod exchange;
mod load;
mod migrate;
mod placement;
mod plan_file;
mod rebalance;
mod remedy;
mod resume;
mod slot_stats;
mod spread;
mod topology;

pub mod server;
pub mod slot_map;
pub mod transport;
pub mod url;

// The generator's escaping of outside bytes (`slotgen::text`), by the path the moved modules
// name it (`crate::text`).
use slotgen::text;

pub use dialect::{commands, migrate_timeout, script, server_dialect, Dialect, Shell};
pub use error::Error;
pub use load::{
    fair_ratios, hot_slots, weighted_skew, HotSlot, LoadSource, MapNotes, Metric, PrimaryLoad,
    SlotLoad, Summary,
};
pub use migrate::{
    apply, apply_dialect, Applied, ApplyOptions, DialectChoice, Step, ASM_WRONG_DATABASE,
    MAX_MIGRATED_KEY_BYTES,
};
pub use placement::{skew, top_slots, NodeLoad, Placement, Skew, SKEW_MIN_MEAN};
pub use plan_file::{FileMove, MapShard, NodeRef, PlanFile, MAX_PLAN_FILE_BYTES, PLAN_FORMAT};
pub use rebalance::{
    plan, plan_with, Further, Limits, Move, Plan, Planned, Stop, DEFAULT_MIN_GAIN, MIN_GAINS,
    MIN_GAIN_RULE, SEARCH_DEPTH, SEARCH_NODES, TARGET_SKEWS, TARGET_SKEW_RULE, WEIGHTS,
    WEIGHT_RULE,
};
pub use remedy::{
    sample_hot, shares, split, Basis, HashtagShare, SlotSample, Split, SplitTag, SAMPLE_KEYS,
};
pub use resume::{finish_moves, wait_jobs, Finished, Waited};
pub use slot_stats::COUNT_BATCH;
pub use spread::{keys_over_slots, split_evenly, KeysOverSlots};
pub use topology::{
    ranges_of, refuse_migrations, show_ranges, LeftOut, Migration, MigrationKind, Node, Role,
    Shard, SlotRange, Source, Topology,
};

/// The number of hash slots of a Redis Cluster (the Redis Cluster specification).
#[allow(clippy::cast_possible_truncation)]
pub const SLOTS: u16 = slotgen_tables::REDIS_CLUSTER_SLOTS as u16;

/// At most this many nodes are read from one answer: Redis recommends clusters of up to
/// 1000 nodes, and a cluster cannot use more primaries than slots.
pub const MAX_NODES: usize = SLOTS as usize;

/// The examples of this crate's README (its registry page), run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct CrateReadme;
