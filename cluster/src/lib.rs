#![doc = include_str!("../README.md")]
#![warn(missing_docs)]

// The code by job, from the bottom: the bounded connection
// (`transport/`, `url.rs`), the cluster's map and its types (`topology.rs`), reading the
// answers of `CLUSTER SHARDS`, `CLUSTER SLOTS`, `CLUSTER NODES` and `INFO` (`answers.rs`),
// asking the nodes within one deadline and a budget per command (`exchange.rs`), keys over
// a node's slots (`spread.rs`), where keys land (`placement.rs`), where the load lands
// (`load.rs`, read by `slot_stats.rs`), and the error they share (`error.rs`).
mod answers;
mod apply_options;
mod atomic;
mod dialect;
mod drain;
mod error;
mod exchange;
#[cfg(test)]
mod fake;
mod guard;
mod heir;
mod load;
mod migrate;
mod node;
mod placement;
mod plan_file;
mod rebalance;
mod remedy;
mod resume;
mod slot_range;
mod slot_stats;
mod spread;
mod topology;
mod version;

pub mod grant;
pub mod rights;
pub mod server;
pub mod skew_text;
pub mod slot_map;
pub mod transport;
pub mod url;

// The generator's escaping of outside bytes (`slotgen::text`), by the path the moved modules
// name it (`crate::text`).
use slotgen::text;

pub use apply_options::ApplyOptions;
pub use atomic::ATOMIC_WAIT_STEPS;
pub use dialect::{
    commands, migrate_timeout, script, server_dialect, Dialect, Shell, MAX_JOB_RANGES,
};
pub use drain::plan_draining;
pub use error::{Error, KeysGone};
pub use guard::{claim, Claim, CLAIM_NAME};
pub use load::{
    fair_ratios, hot_slots, shard_totals, weighted_skew, HotSlot, LoadSource, MapNotes, Metric,
    PrimaryLoad, ReplicaRefused, ReplicaServed, SlotLoad, Stranded, Summary,
};
pub use migrate::{
    apply, apply_dialect, Applied, DialectChoice, Step, ASM_WRONG_DATABASE, MAX_MIGRATED_KEY_BYTES,
};
pub use node::{Node, Role};
pub use placement::{skew, top_slots, NodeLoad, Placement, Skew, SKEW_MIN_MEAN};
pub use plan_file::{
    FileDrained, FileMove, MapShard, NodeRef, PlanFile, MAX_PLAN_FILE_BYTES, PLAN_FORMAT,
};
pub use rebalance::{
    plan, plan_receiving, plan_with, Further, Limits, Move, Plan, Planned, SlotShare, Stop,
    DEFAULT_MIN_GAIN, DEFAULT_TARGET_SKEW, LEAST_YIELD, MIN_GAINS, MIN_GAIN_RULE, SEARCH_DEPTH,
    SEARCH_NODES, SLOT_SHARE_MARGIN, TARGET_SKEWS, TARGET_SKEW_RULE, WEIGHTS, WEIGHT_RULE,
};
pub use remedy::{
    lfu_hits, sample_hot, shares, split, Basis, HashtagShare, SlotSample, Split, SplitTag, LFU_CAP,
    LIST_KEYS, ONE_KEY, SAMPLE_KEYS,
};
pub use resume::{after_stop, finish_moves, wait_jobs, Finished, Waited};
pub use slot_range::{ranges_of, show_ranges, show_ranges_brief, SlotRange, BRIEF_RANGES};
pub use slot_stats::COUNT_BATCH;
pub use spread::{keys_over_slots, split_evenly, KeysOverSlots};
pub use topology::{refuse_migrations, LeftOut, Migration, MigrationKind, Shard, Source, Topology};
pub use version::Receiving;

/// The number of hash slots of a Redis Cluster (the Redis Cluster specification).
#[allow(clippy::cast_possible_truncation)]
pub const SLOTS: u16 = slotgen_tables::REDIS_CLUSTER_SLOTS as u16;

/// At most this many nodes are read from one answer: Redis recommends clusters of up to
/// 1000 nodes, and a cluster cannot use more primaries than slots.
pub const MAX_NODES: usize = SLOTS as usize;
