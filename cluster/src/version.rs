//! Which primary can receive a slot's keys from which: a server reads the `DUMP` payloads of
//! its own major and minor version and older ones only, and `MIGRATE` carries keys as `DUMP`
//! payloads (`RESTORE-ASKING` on the target). [`Version::reads_dump_of`] is the one rule:
//! the planner asks it through [`Receiving`] ([`plan_receiving`](super::plan_receiving)),
//! and the apply asks it before the first `CLUSTER SETSLOT` of a move (module `migrate`,
//! [`Error::OlderTarget`]), so that no plan holds a move the apply refuses.
//!
//! A slot without keys moves without any `DUMP` (`CLUSTER GETKEYSINSLOT` gives nothing, no
//! `MIGRATE` is sent): it may go to an older server (measured on Valkey 9.1 to 8.0,
//! `tests/tests/it/cluster_apply.rs`).

use std::time::{Duration, Instant};

use super::answers::info_field;
use super::exchange::Exchange;
use super::topology::Topology;
use super::Error;
use crate::transport::{Budget, ConnectOptions};

/// A server's name and version, by `INFO server`: Valkey's `valkey_version` where it is
/// given (Valkey gives `redis_version:7.2.4` too), else `redis_version`. Valkey's numbers
/// go on from Redis 7.2's, so the two compare as one sequence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Version {
    /// `Valkey 9.1.2`, escaped.
    pub(crate) shown: String,
    /// The major and minor version: `(9, 1)`.
    pub(crate) number: (u32, u32),
}

impl Version {
    /// The version an `INFO server` answer gives, or `None` where it gives none of the form
    /// `major.minor...`.
    pub(crate) fn of(info: &str) -> Option<Self> {
        let (server, text) = match info_field(info, "valkey_version") {
            Some(text) => ("Valkey", text),
            None => ("Redis", info_field(info, "redis_version")?),
        };
        let mut parts = text.trim().split('.').map(str::parse::<u32>);
        let number = (parts.next()?.ok()?, parts.next()?.ok()?);
        Some(Self {
            shown: format!(
                "{server} {}",
                crate::text::escape_cut(text.trim().as_bytes())
            ),
            number,
        })
    }

    /// Whether a server of this version reads what one of `source` writes by `DUMP`: not
    /// where `source` is a newer major or minor version, whose RDB version is newer (so
    /// measured: Valkey 9.1 writes 80, which 8.0 refuses, 8.0 writes 11, which Redis 7.0
    /// refuses; the other way, and between equal versions, `MIGRATE` moves the keys).
    pub(crate) fn reads_dump_of(&self, source: &Self) -> bool {
        source.number <= self.number
    }

    /// The way out of a target older than this source: `upgrade ADDR to 9.1 or later
    /// first`.
    pub(crate) fn upgrade_first(&self, target_addr: &str) -> String {
        let (major, minor) = self.number;
        format!("upgrade {target_addr} to {major}.{minor} or later first")
    }
}

/// Whether a slot holding `keys` keys can move from a server of version `source` to one of
/// `target`: a slot without keys always can (no `DUMP` is sent); one with keys where the
/// target reads the source's `DUMP` payloads ([`Version::reads_dump_of`]), or where either
/// version is not known. The one rule of the planner ([`Receiving::takes`]) and of the
/// apply's check before a move.
pub(crate) fn can_move(keys: u64, source: Option<&Version>, target: Option<&Version>) -> bool {
    keys == 0
        || match (source, target) {
            (Some(source), Some(target)) => target.reads_dump_of(source),
            _ => true,
        }
}

/// Which primary of a map can receive a slot's keys from which, by each primary's version
/// (`Version::reads_dump_of`). Indexed as [`Topology::shards`]; a primary whose version is
/// not known (`INFO server` refused, or not asked) is not compared: every move to and from
/// it is taken, and a `MIGRATE` it cannot read is undone at the step. The default knows no
/// version and takes every move.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Receiving {
    versions: Vec<Option<Version>>,
}

impl Receiving {
    /// No version known: every move taken (as [`Receiving::default`]).
    #[must_use]
    pub const fn none() -> Self {
        Receiving {
            versions: Vec::new(),
        }
    }

    /// Each primary's version of the map `topology` (by `INFO server`, each primary within
    /// `timeout`, as the apply asks it). A primary that refuses `INFO` or does not answer
    /// is not compared.
    ///
    /// # Errors
    ///
    /// What opening the exchange gives ([`Error::Unreachable`], [`Error::TimedOut`],
    /// [`Error::PasswordRequired`], ...).
    pub fn fetch(
        url: &str,
        options: &ConnectOptions,
        timeout: Duration,
        topology: &Topology,
    ) -> Result<Self, Error> {
        let mut exchange = Exchange::open(url, options, timeout)?;
        let versions = topology
            .shards
            .iter()
            .map(|shard| {
                // each primary within `timeout` of its own, as the apply asks it
                exchange.deadline = Instant::now() + timeout;
                let end = exchange.primary_endpoint(&shard.primary).ok()?;
                let mut con = exchange.connect(&end).ok()?;
                let info = redis::cmd("INFO").arg("server").clone();
                let text = exchange
                    .text(&mut con, &info, Budget::SHORT.times(4))
                    .ok()?;
                Version::of(&text)
            })
            .collect();
        Ok(Receiving { versions })
    }

    /// From the `INFO server` answer of each primary, indexed by shard (`None`: not known).
    ///
    /// # Examples
    ///
    /// ```
    /// use slotgen_cluster::Receiving;
    ///
    /// let r = Receiving::from_info(&[
    ///     Some("redis_version:7.2.4\r\nvalkey_version:9.1.2\r\n"),
    ///     Some("redis_version:7.2.4\r\nvalkey_version:8.0.1\r\n"),
    ///     None,
    /// ]);
    /// // 8.0 cannot read 9.1's `DUMP` payloads; 9.1 reads 8.0's; an unknown one is taken
    /// assert!(!r.takes_keys(0, 1));
    /// assert!(r.takes_keys(1, 0));
    /// assert!(r.takes_keys(0, 2));
    /// // a slot without keys moves without `DUMP`
    /// assert!(r.takes(0, 1, 0));
    /// ```
    #[must_use]
    pub fn from_info(infos: &[Option<&str>]) -> Self {
        Receiving {
            versions: infos.iter().map(|i| i.and_then(Version::of)).collect(),
        }
    }

    /// The versions of the shards `shards` (indices here), in that order: shard `i` of the
    /// result is shard `shards[i]` of this one.
    pub(crate) fn of_shards(&self, shards: &[usize]) -> Self {
        Receiving {
            versions: shards.iter().map(|&s| self.version(s).cloned()).collect(),
        }
    }

    fn version(&self, shard: usize) -> Option<&Version> {
        self.versions.get(shard).and_then(Option::as_ref)
    }

    /// Whether a slot of `keys` keys can move from shard `from` to shard `to`: without keys
    /// always; with keys where `to` reads `from`'s `DUMP` payloads, or either version is not
    /// known (`can_move`).
    #[must_use]
    pub fn takes(&self, from: usize, to: usize, keys: u64) -> bool {
        can_move(keys, self.version(from), self.version(to))
    }

    /// Whether shard `to` can receive keys from shard `from` ([`Receiving::takes`] of a slot
    /// with keys).
    #[must_use]
    pub fn takes_keys(&self, from: usize, to: usize) -> bool {
        self.takes(from, to, 1)
    }

    /// One line for each primary of `topology` that cannot receive keys from some others:
    /// which, why, and the way out. Empty where every primary takes every other's keys.
    #[must_use]
    pub fn notes(&self, topology: &Topology) -> Vec<String> {
        let n = topology.shards.len();
        let node = |i: usize| &topology.shards[i].primary.addr;
        (0..n)
            .filter_map(|to| {
                let target = self.version(to)?;
                let from: Vec<usize> = (0..n).filter(|&f| !self.takes_keys(f, to)).collect();
                let newest = from.iter().filter_map(|&f| self.version(f)).max_by_key(|v| v.number)?;
                let sources = from
                    .iter()
                    .map(|&f| {
                        let shown = self.version(f).map_or("", |v| v.shown.as_str());
                        format!("{} ({shown})", node(f))
                    })
                    .collect::<Vec<_>>()
                    .join(", ");
                Some(format!(
                    "{} ({}) cannot receive keys from {sources}: a server cannot read the `DUMP` payloads of a newer major or minor version, which `MIGRATE` sends, so the plan moves no slot that holds keys there from them (an empty slot moves without one); {} for a plan that can use it",
                    node(to),
                    target.shown,
                    newest.upgrade_first(node(to)),
                ))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `INFO server` lines of the servers here (Redis 7.0.15, Valkey 8.0.1, which gives
    /// `redis_version:7.2.4` too, and Valkey 9.1.2), and which `DUMP` each reads: measured
    /// by `RESTORE` and `MIGRATE` between them, only a newer source's fails.
    #[test]
    fn a_target_reads_the_dump_of_an_equal_or_older_version() {
        let redis7 =
            Version::of("# Server\r\nredis_version:7.0.15\r\nredis_mode:cluster\r\n").unwrap();
        let valkey8 = Version::of(
            "# Server\r\nredis_version:7.2.4\r\nserver_name:valkey\r\nvalkey_version:8.0.1\r\n",
        )
        .unwrap();
        let valkey9 = Version::of("redis_version:7.2.4\r\nvalkey_version:9.1.2\r\n").unwrap();
        assert_eq!(
            (redis7.shown.as_str(), redis7.number),
            ("Redis 7.0.15", (7, 0))
        );
        assert_eq!(
            (valkey8.shown.as_str(), valkey8.number),
            ("Valkey 8.0.1", (8, 0))
        );
        assert_eq!(
            (valkey9.shown.as_str(), valkey9.number),
            ("Valkey 9.1.2", (9, 1))
        );
        let all = [&redis7, &valkey8, &valkey9];
        for (i, target) in all.iter().enumerate() {
            for (j, source) in all.iter().enumerate() {
                assert_eq!(
                    target.reads_dump_of(source),
                    j <= i,
                    "{source:?} -> {target:?}"
                );
            }
        }
        assert_eq!(Version::of("redis_version:unknown\r\n"), None);
        assert_eq!(Version::of("uptime_in_seconds:3\r\n"), None);
    }
}
