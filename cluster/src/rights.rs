//! What each slotgen command sends to a cluster as its user ([`Run`]), and the `ACL SETUSER`
//! rules that grant it: one list, that a refusal (`NOPERM`) quotes whole, so that one grant
//! covers a run, and that docs/cluster.md and docs/operations.md show (a docs test compares
//! them).
//!
//! A user granted only some of these cannot ask which others it lacks: `ACL DRYRUN`,
//! `ACL GETUSER`, `ACL WHOAMI`, `ACL LOG` and `COMMAND DOCS` each need a right of their own
//! (`NOPERM` to a user with `+info +cluster|info` alone, measured on Redis 7.0 and Valkey
//! 8.0), and a command sent with too few arguments is refused for its arity before its
//! rights are checked. So a refusal names the whole run's rules, narrow ones (`+command|info`,
//! not `+command`), in one `ACL SETUSER` for every primary; rules the user already holds are
//! granted again, harmlessly.

use crate::transport::Denied;
use crate::{Dialect, Metric};

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
/// `NODE`), `CLUSTER GETKEYSINSLOT` and `MIGRATE` in each database of `CONFIG GET
/// cluster-databases`, and `DUMP` and `DEL` where a key is on both nodes. With several
/// databases (Valkey 9) each is chosen by `SELECT` too, which [`LOAD`] holds: a source of one
/// database is never sent it, so `ACL DRYRUN` does not ask it there.
pub const MOVE_SOURCE: [&str; 6] = [
    "CLUSTER SETSLOT",
    "CLUSTER GETKEYSINSLOT",
    "MIGRATE",
    "CONFIG GET",
    "DUMP",
    "DEL",
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

/// What `rebalance --apply` sends besides the moves: `COMMAND INFO` (whether the servers
/// have `CLUSTER MIGRATESLOTS`, for the dialect), `INFO server` (each end's version), and
/// `CLUSTER SETSLOT ... NODE` to the other primaries.
pub const APPLY: [&str; 3] = ["COMMAND INFO", "INFO server", "CLUSTER SETSLOT"];

/// What an atomic move sends on Valkey 9.0 and later (the `migrateslots` dialect), where
/// the servers know these commands (an older server refuses an `ACL SETUSER` that names
/// them): `CLUSTER MIGRATESLOTS` on the source, `CLUSTER GETSLOTMIGRATIONS` for its
/// progress and for the jobs a former run left running, `CLUSTER CANCELSLOTMIGRATIONS` when
/// a job shows no progress or is interrupted.
pub const ATOMIC: [&str; 3] = [
    "CLUSTER MIGRATESLOTS",
    "CLUSTER GETSLOTMIGRATIONS",
    "CLUSTER CANCELSLOTMIGRATIONS",
];

/// What `verify --redis` sends: `INFO cluster`, then `CLUSTER KEYSLOT` of each key.
pub const VERIFY: [&str; 2] = ["INFO cluster", "CLUSTER KEYSLOT"];

/// A slotgen command that talks to a cluster, as far as what it sends depends on its options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Run {
    /// `nodes`, `keys`, `placement`: the map ([`MAP`]).
    Map,
    /// `verify --redis` ([`VERIFY`]).
    Verify,
    /// `load --by METRIC` and `rebalance --by METRIC` (the plan): the map, the load of each
    /// slot and the sample of the hot ones ([`MAP`], [`LOAD`], [`SAMPLE`]).
    Plan(Metric),
    /// `rebalance --apply` in a dialect: the plan, and its moves ([`APPLY`], [`MOVE_SOURCE`],
    /// [`MOVE_TARGET`]; [`ATOMIC`] in the `migrateslots` dialect). A classic move is sent
    /// in every dialect, to finish a slot a former run left half moved.
    Apply(Metric, Dialect),
}

impl Run {
    /// The commands the run sends as the user, each once, as a refusal names them
    /// (`CLUSTER SETSLOT`, `INFO cluster`).
    #[must_use]
    pub fn commands(self) -> Vec<&'static str> {
        // a metric besides keys comes from `CLUSTER SLOT-STATS` alone (Valkey 8.0 and later,
        // which know every command named here)
        let weigh = |metric: Metric| match metric {
            Metric::Keys => &[][..],
            Metric::Memory => &["CLUSTER SLOT-STATS", "MEMORY USAGE"][..],
            _ => &["CLUSTER SLOT-STATS", "OBJECT FREQ"][..],
        };
        let lists: Vec<&[&'static str]> = match self {
            Run::Map => vec![&MAP],
            Run::Verify => vec![&VERIFY],
            Run::Plan(metric) => vec![&MAP, &LOAD, &SAMPLE, weigh(metric)],
            Run::Apply(metric, dialect) => vec![
                &MAP,
                &LOAD,
                &SAMPLE,
                weigh(metric),
                &APPLY,
                &MOVE_SOURCE,
                &MOVE_TARGET,
                if dialect == Dialect::Migrateslots {
                    &ATOMIC
                } else {
                    &[]
                },
            ],
        };
        let mut commands: Vec<&'static str> = Vec::new();
        for &command in lists.into_iter().flatten() {
            if !commands.contains(&command) {
                commands.push(command);
            }
        }
        commands
    }

    /// The `ACL SETUSER` rules that grant [`commands`](Self::commands), each once
    /// (`+info` for both `INFO cluster` and `INFO server`).
    ///
    /// # Examples
    ///
    /// ```
    /// use slotgen_cluster::rights::Run;
    ///
    /// assert_eq!(
    ///     Run::Map.rules(),
    ///     ["+info", "+cluster|info", "+cluster|shards", "+cluster|nodes"]
    /// );
    /// ```
    #[must_use]
    pub fn rules(self) -> Vec<String> {
        rules(&self.commands())
    }

    /// `ACL SETUSER USER +rule ...`, every rule of the run for `user` as a message shows it
    /// (escaped, as [`Denied::user`] holds it), to run on every node (ACL users are each
    /// node's own).
    ///
    /// # Examples
    ///
    /// ```
    /// use slotgen_cluster::rights::Run;
    ///
    /// assert_eq!(
    ///     Run::Verify.grant("app"),
    ///     "ACL SETUSER app +info +cluster|keyslot"
    /// );
    /// ```
    #[must_use]
    pub fn grant(self, user: &str) -> String {
        format!("ACL SETUSER {user} {}", self.rules().join(" "))
    }
}

/// The `ACL SETUSER` rules that grant `commands` (as a refusal names them: `CLUSTER
/// SETSLOT`, `INFO cluster`), each once, in their order ([`Denied::rule`]).
///
/// # Examples
///
/// ```
/// use slotgen_cluster::rights::{rules, MOVE_TARGET};
///
/// assert_eq!(
///     rules(&MOVE_TARGET).join(" "),
///     "+cluster|setslot +select +restore-asking +asking +dump +cluster|countkeysinslot"
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
    rules
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_run_reads_the_map_and_apply_holds_the_plan() {
        let plan = Run::Plan(Metric::Memory).rules();
        for rule in Run::Map.rules() {
            assert!(plan.contains(&rule), "{rule}");
        }
        let apply = Run::Apply(Metric::Memory, Dialect::Classic).rules();
        for rule in &plan {
            assert!(apply.contains(rule), "{rule}");
        }
        // narrow rules: a container command's subcommand, never the whole command
        for rule in Run::Apply(Metric::Cpu, Dialect::Migrateslots).rules() {
            assert!(
                !["+cluster", "+command", "+config", "+memory", "+object", "+acl"]
                    .contains(&rule.as_str()),
                "{rule}"
            );
        }
        assert!(apply.contains(&"+command|info".to_owned()));
        assert!(apply.contains(&"+memory|usage".to_owned()));
        assert!(!apply.contains(&"+cluster|getslotmigrations".to_owned()));
    }
}
