//! What a whole slotgen command sends to a cluster as its user ([`Run`]): the lists of
//! [`crate::rights`] its steps send, chosen by its options ([`Metric`], [`Dialect`]), and the
//! one `ACL SETUSER` that grants them all, which a refusal (`NOPERM`) quotes so that one
//! grant covers the run. A file apart from the lists: the map's reading and its errors,
//! below the options' types, ask the lists.

use crate::rights::{
    rules, APPLY, ATOMIC, HEIR, JOBS, KEEPS, LOAD, MAP, MOVE_SOURCE, MOVE_TARGET, SAMPLE, VERIFY,
};
use crate::{Dialect, Metric};

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
    /// `rebalance --apply` in a dialect, on servers with atomic migration (Valkey 9.0 and
    /// later: `true`) or without: the plan, and its moves ([`APPLY`], [`KEEPS`],
    /// [`MOVE_SOURCE`], [`MOVE_TARGET`], and [`HEIR`] of a replica where an end stops
    /// answering; [`ATOMIC`] in the `migrateslots` dialect; else [`JOBS`] on servers
    /// with atomic migration, whose jobs running are waited for in either dialect). A
    /// classic move is sent in every dialect, to finish a slot a former run left half moved.
    Apply(Metric, Dialect, bool),
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
            Run::Apply(metric, dialect, atomic) => vec![
                &MAP,
                &LOAD,
                &SAMPLE,
                weigh(metric),
                &APPLY,
                &KEEPS,
                &MOVE_SOURCE,
                &MOVE_TARGET,
                &HEIR,
                match (dialect, atomic) {
                    (Dialect::Migrateslots, _) => &ATOMIC[..],
                    (_, true) => &JOBS[..],
                    (_, false) => &[][..],
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
    /// use slotgen_cluster::grant::Run;
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
    /// (escaped, as [`Denied::user`](crate::transport::Denied::user) holds it), to run on every node (ACL users are each
    /// node's own).
    ///
    /// # Examples
    ///
    /// ```
    /// use slotgen_cluster::grant::Run;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_run_reads_the_map_and_apply_holds_the_plan() {
        let plan = Run::Plan(Metric::Memory).rules();
        for rule in Run::Map.rules() {
            assert!(plan.contains(&rule), "{rule}");
        }
        let apply = Run::Apply(Metric::Memory, Dialect::Classic, false).rules();
        // the plan reads keys (`%R~*`), which apply's `~*` (read and write) holds
        assert_eq!(plan.last().map(String::as_str), Some("%R~*"));
        assert_eq!(apply.last().map(String::as_str), Some("~*"));
        for rule in plan.iter().filter(|r| *r != "%R~*") {
            assert!(apply.contains(rule), "{rule}");
        }
        assert!(!Run::Plan(Metric::Keys)
            .rules()
            .iter()
            .any(|r| r.contains('~')));
        // narrow rules: a container command's subcommand, never the whole command
        for rule in Run::Apply(Metric::Cpu, Dialect::Migrateslots, true).rules() {
            assert!(
                !["+cluster", "+command", "+config", "+memory", "+object", "+acl"]
                    .contains(&rule.as_str()),
                "{rule}"
            );
        }
        assert!(apply.contains(&"+command|info".to_owned()));
        // what a replica is asked where an end stops answering is the run's too
        let sent = Run::Apply(Metric::Keys, Dialect::Classic, false).commands();
        for command in crate::rights::HEIR {
            assert!(sent.contains(&command), "{command}");
        }
        assert!(apply.contains(&"+memory|usage".to_owned()));
        assert!(!apply.contains(&"+cluster|getslotmigrations".to_owned()));
    }

    /// The classic dialect on servers with atomic migration asks for the jobs running, and
    /// sends no atomic move; the atomic dialect sends both.
    #[test]
    fn the_classic_dialect_on_valkey_9_asks_for_jobs_alone() {
        let atomic = |d| -> Vec<String> {
            let all = Run::Apply(Metric::Keys, d, true).rules();
            let classic = Run::Apply(Metric::Keys, Dialect::Classic, false).rules();
            all.into_iter().filter(|r| !classic.contains(r)).collect()
        };
        assert_eq!(atomic(Dialect::Classic), ["+cluster|getslotmigrations"]);
        assert_eq!(
            atomic(Dialect::Migrateslots),
            [
                "+cluster|migrateslots",
                "+cluster|getslotmigrations",
                "+cluster|cancelslotmigrations"
            ]
        );
    }
}
