//! What each step of a slotgen command sends to a cluster as its user, and the `ACL SETUSER`
//! rules that grant it ([`rules`]; a whole command's in [`crate::grant::Run`]): one list,
//! that a refusal (`NOPERM`) quotes whole, so that one grant covers a run, and that
//! docs/cluster.md and docs/operations.md show (a docs test compares them).
//!
//! A user granted only some of these cannot ask which others it lacks: `ACL DRYRUN`,
//! `ACL GETUSER`, `ACL WHOAMI`, `ACL LOG` and `COMMAND DOCS` each need a right of their own
//! (`NOPERM` to a user with `+info +cluster|info` alone, measured on Redis 7.0 and Valkey
//! 8.0), and a command sent with too few arguments is refused for its arity before its
//! rights are checked. So a refusal names the whole run's rules, narrow ones (`+command|info`,
//! not `+command`), in one `ACL SETUSER` for every primary; rules the user already holds are
//! granted again, harmlessly.

use crate::transport::Denied;

/// Reading the cluster's map, which every command does first: `INFO cluster` (is the
/// node a cluster's), `CLUSTER INFO` (its state), `CLUSTER SHARDS` (the map; `CLUSTER SLOTS`
/// where it is refused) and `CLUSTER NODES` (the nodes' flags).
pub const MAP: [&str; 4] = [
    "INFO cluster",
    "CLUSTER INFO",
    "CLUSTER SHARDS",
    "CLUSTER NODES",
];

/// The load of each slot: `CLUSTER COUNTKEYSINSLOT` (keys; also where `CLUSTER SLOT-STATS`,
/// Valkey 8.0 and later, is refused or unknown), in each database of `CONFIG GET
/// cluster-databases` (Valkey 9), each chosen by `SELECT`.
pub const LOAD: [&str; 3] = ["CLUSTER COUNTKEYSINSLOT", "CONFIG GET", "SELECT"];

/// The sample of a hot slot's keys (the hashtag split offered): `CLUSTER COUNTKEYSINSLOT`
/// then `CLUSTER GETKEYSINSLOT` in each database (`CONFIG GET cluster-databases`, `SELECT`).
/// For a metric besides keys, which `CLUSTER SLOT-STATS` alone gives, each key is weighed
/// by `MEMORY USAGE` (`--by memory`) or, under an LFU `maxmemory-policy` (`CONFIG GET`), by
/// `OBJECT FREQ` (the CPU and network metrics).
pub const SAMPLE: [&str; 4] = [
    "CLUSTER COUNTKEYSINSLOT",
    "CLUSTER GETKEYSINSLOT",
    "CONFIG GET",
    "SELECT",
];

/// What a classic move of a slot sends to its source: `CLUSTER SETSLOT` (`MIGRATING`, then
/// `NODE`), `CLUSTER COUNTKEYSINSLOT` (the bound of what it lists), `CLUSTER GETKEYSINSLOT`
/// and `MIGRATE` in each database of `CONFIG GET cluster-databases`, and `DUMP` and `DEL`
/// where a key is on both nodes; `INFO replication` where it refuses the last `SETSLOT NODE`
/// of its last slot (a primary that gave its last slot away turns replica). With several
/// databases (Valkey 9) each is chosen by `SELECT` too, which [`LOAD`] holds: a source of one
/// database is never sent it, so `ACL DRYRUN` does not ask it there.
pub const MOVE_SOURCE: [&str; 8] = [
    "CLUSTER SETSLOT",
    "CLUSTER COUNTKEYSINSLOT",
    "CLUSTER GETKEYSINSLOT",
    "MIGRATE",
    "CONFIG GET",
    "DUMP",
    "DEL",
    "INFO replication",
];

/// What a classic move of a slot sends to its target: `CLUSTER SETSLOT` (`IMPORTING`, then
/// `NODE`); what `MIGRATE` sends there as the same user, `SELECT` then `RESTORE-ASKING`
/// (after `AUTH`, which needs no grant); `ASKING` and `DUMP` where a key is on both nodes;
/// `CLUSTER COUNTKEYSINSLOT` before a refused move is undone.
pub const MOVE_TARGET: [&str; 6] = [
    "CLUSTER SETSLOT",
    "SELECT",
    "RESTORE-ASKING",
    "ASKING",
    "DUMP",
    "CLUSTER COUNTKEYSINSLOT",
];

/// What `rebalance --apply` sends to claim the cluster (one apply at a time:
/// [`crate::claim`]): `CLIENT SETNAME` and `CLIENT LIST` in one `MULTI`/`EXEC` on one
/// primary.
pub const CLAIM: [&str; 4] = ["MULTI", "CLIENT SETNAME", "CLIENT LIST", "EXEC"];

/// What `rebalance --apply` sends besides the moves: [`CLAIM`], `COMMAND INFO` (whether
/// the servers have `CLUSTER MIGRATESLOTS`, for the dialect), `INFO server` (each end's
/// version), and `CLUSTER SETSLOT ... NODE` to the other primaries.
pub const APPLY: [&str; 7] = [
    CLAIM[0],
    CLAIM[1],
    CLAIM[2],
    CLAIM[3],
    "COMMAND INFO",
    "INFO server",
    "CLUSTER SETSLOT",
];

/// What `rebalance --apply` asks each primary its plan moves slots from or to, once, before
/// the first move: `CONFIG GET save` and `CONFIG GET appendonly`, whether it keeps its keys
/// on disk, so that a stop says plainly of one that died keeping none that its keys are
/// lost and it comes back empty. A refusal leaves that not known (the stop says the
/// condition); [`LOAD`] grants it already.
pub const KEEPS: [&str; 1] = ["CONFIG GET"];

/// What every `rebalance --apply` sends on Valkey 9.0 and later, in either dialect, where
/// the servers know it (an older server refuses an `ACL SETUSER` that names it): `CLUSTER
/// GETSLOTMIGRATIONS`, for the jobs a former run left running, waited for before the plan.
pub const JOBS: [&str; 1] = ["CLUSTER GETSLOTMIGRATIONS"];

/// What an atomic move sends on Valkey 9.0 and later (the `migrateslots` dialect), where
/// the servers know these commands (an older server refuses an `ACL SETUSER` that names
/// them): `CLUSTER MIGRATESLOTS` on the source, `CLUSTER GETSLOTMIGRATIONS` for its
/// progress (and [`JOBS`]), `CLUSTER CANCELSLOTMIGRATIONS` when a job shows no progress or
/// is interrupted, `INFO replication` on the target once a job ends (whether its replicas
/// have it).
pub const ATOMIC: [&str; 4] = [
    "CLUSTER MIGRATESLOTS",
    "CLUSTER GETSLOTMIGRATIONS",
    "CLUSTER CANCELSLOTMIGRATIONS",
    "INFO replication",
];

/// What `rebalance --apply` asks a replica of a move's end that stopped answering, whether
/// it can take its place (`heir.rs`, by the server's own rule): `INFO replication`
/// and `CONFIG GET` of its failover settings. A refusal of them stops the run, naming the
/// grant, rather than wait for a failover that may not come.
pub const HEIR: [&str; 2] = ["INFO replication", "CONFIG GET"];

/// What `verify --redis` sends: `INFO cluster`, then `CLUSTER KEYSLOT` of each key.
pub const VERIFY: [&str; 2] = ["INFO cluster", "CLUSTER KEYSLOT"];

/// The `ACL SETUSER` rules that grant `commands` (as a refusal names them: `CLUSTER
/// SETSLOT`, `INFO cluster`), each once, in their order ([`Denied::rule`]), then the key
/// pattern that lets them at every key where one names keys ([`Denied::keys_rule`]: `~*`,
/// or `%R~*` where they only read keys).
///
/// # Examples
///
/// ```
/// use slotgen_cluster::rights::{rules, MOVE_TARGET};
///
/// assert_eq!(
///     rules(&MOVE_TARGET).join(" "),
///     "+cluster|setslot +select +restore-asking +asking +dump +cluster|countkeysinslot ~*"
/// );
/// ```
#[must_use]
pub fn rules(commands: &[&str]) -> Vec<String> {
    let mut rules: Vec<String> = Vec::new();
    for &command in commands {
        let rule = Denied::rule(command);
        if !rules.contains(&rule) {
            rules.push(rule);
        }
    }
    rules.extend(Denied::keys_rule(commands.iter().copied()).map(str::to_owned));
    rules
}
