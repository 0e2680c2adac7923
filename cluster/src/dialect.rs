//! The ways servers move a slot ([`Dialect`]), which one a server speaks
//! ([`server_dialect`]), and a plan in each as the servers' commands ([`commands`]) and as a
//! `sh` script for the server's own CLI ([`script`], the shell functions of `commands.sh`).
//! Carrying a plan out is `migrate`'s [`apply`](super::apply).

use std::fmt;
use std::time::Duration;

use super::answers::info_field;
use super::exchange::bounded;
use super::rebalance::{Move, Plan};
use super::slot_range::{ranges_of, SlotRange};
use super::topology::Topology;
use super::Error;
use crate::transport::{Budget, ConnectOptions};

/// The time `MIGRATE` is given (its `timeout` argument, milliseconds of no progress) when a
/// step has `step`: half of it, at least 1 ms, so that a target that does not answer is
/// named by the source's `IOERR` before the step's own deadline passes.
#[must_use]
pub fn migrate_timeout(step: Duration) -> Duration {
    (step / 2).max(Duration::from_millis(1))
}

/// How a server moves a slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Dialect {
    /// `CLUSTER SETSLOT ... IMPORTING/MIGRATING`, `CLUSTER GETKEYSINSLOT` + `MIGRATE ...
    /// KEYS`, `CLUSTER SETSLOT ... NODE`: every version.
    Classic,
    /// `CLUSTER MIGRATESLOTS` on the source (Valkey 9.0 and later).
    Migrateslots,
    /// `CLUSTER MIGRATION IMPORT` on the target (Redis 8.4 and later).
    MigrationImport,
}

impl Dialect {
    /// Every dialect, as the command line names them.
    pub const ALL: [Dialect; 3] = [
        Dialect::Classic,
        Dialect::Migrateslots,
        Dialect::MigrationImport,
    ];

    /// The name on the command line: `classic`, `migrateslots`, `migration-import`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Dialect::Classic => "classic",
            Dialect::Migrateslots => "migrateslots",
            Dialect::MigrationImport => "migration-import",
        }
    }

    /// The dialect of a server from its `INFO server` text: `valkey_version` 9.0 or later
    /// gives [`Dialect::Migrateslots`]; otherwise (Valkey also states a `redis_version`, 7.2.4)
    /// `redis_version` 8.4 or later gives [`Dialect::MigrationImport`]; anything else, or a
    /// version that does not parse, [`Dialect::Classic`].
    ///
    /// # Examples
    ///
    /// ```
    /// use slotgen_cluster::Dialect;
    ///
    /// let valkey8 = "# Server\r\nredis_version:7.2.4\r\nserver_name:valkey\r\nvalkey_version:8.0.2\r\n";
    /// assert_eq!(Dialect::of_info(valkey8), Dialect::Classic);
    /// assert_eq!(Dialect::of_info("valkey_version:9.0.0\r\n"), Dialect::Migrateslots);
    /// assert_eq!(Dialect::of_info("redis_version:8.4.0\r\n"), Dialect::MigrationImport);
    /// assert_eq!(Dialect::of_info("redis_version:7.0.15\r\n"), Dialect::Classic);
    /// ```
    #[must_use]
    pub fn of_info(info: &str) -> Dialect {
        let version = |name: &str| -> Option<(u32, u32)> {
            let mut parts = info_field(info, name)?.split('.');
            Some((parts.next()?.parse().ok()?, parts.next()?.parse().ok()?))
        };
        if let Some(valkey) = version("valkey_version") {
            return if valkey >= (9, 0) {
                Dialect::Migrateslots
            } else {
                Dialect::Classic
            };
        }
        match version("redis_version") {
            Some(redis) if redis >= (8, 4) => Dialect::MigrationImport,
            _ => Dialect::Classic,
        }
    }
}

impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How the script of [`script`] reaches the servers: the server's CLI and the connection
/// options it is given.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Shell {
    /// The CLI the script runs by default: `valkey-cli` or `redis-cli`.
    pub cli: String,
    /// The CLI's connection options, each word quoted for `sh` (`--tls --cacert '/x/ca.crt'`).
    pub options: String,
    /// The ACL user, quoted for `sh` (`'alice'`), or `''`.
    pub user: String,
    /// A line that sets `REDISCLI_AUTH`, or checks that it is set, or nothing: never the
    /// password itself.
    pub password: String,
}

/// The lines of the plan in the script of [`script`], one call a move (classic: `move_slot
/// SLOT SOURCE TARGET SOURCE-ID TARGET-ID OTHER-PRIMARY...`) or a pair of nodes (atomic:
/// `migrate_slots SOURCE TARGET-ID FIRST LAST ...`, `import_slots TARGET FIRST LAST ...`),
/// each after a `#` line naming it. `topology` is the map the plan was made on (its shard
/// indices).
#[must_use]
pub fn commands(plan: &Plan, topology: &Topology, dialect: Dialect) -> Vec<String> {
    let node = |shard: usize| &topology.shards[shard].primary;
    let mut lines = Vec::new();
    match dialect {
        Dialect::Classic => {
            for m in &plan.moves {
                let (from, to) = (node(m.from), node(m.to));
                lines.push(format!(
                    "# slot {}: {} -> {}, {} keys, amount {}",
                    m.slot, from.addr, to.addr, m.keys, m.amount
                ));
                let mut line = format!(
                    "move_slot {} {} {} {} {}",
                    m.slot, from.addr, to.addr, from.id, to.id
                );
                for other in others(topology, m) {
                    line.push(' ');
                    line.push_str(&other.primary.addr);
                }
                lines.push(line);
            }
        }
        Dialect::Migrateslots | Dialect::MigrationImport => {
            for ((from, to), job) in atomic_jobs(&plan.moves) {
                let (from, to) = (node(from), node(to));
                let ranges = job
                    .iter()
                    .map(|r| format!("{} {}", r.first, r.last))
                    .collect::<Vec<_>>()
                    .join(" ");
                lines.push(format!(
                    "# slots {}: {} -> {}",
                    super::show_ranges(&job),
                    from.addr,
                    to.addr
                ));
                if dialect == Dialect::Migrateslots {
                    lines.push(format!("migrate_slots {} {} {ranges}", from.addr, to.id));
                } else {
                    lines.push(format!("import_slots {} {ranges}", to.addr));
                }
            }
        }
    }
    lines
}

/// A `sh` script that carries `plan` out in `dialect` with the server's own CLI
/// (`redis-cli` or `valkey-cli`, with `shell`'s options): the functions of
/// `cluster/commands.sh`, then [`commands`]. `batch` is the keys one `CLUSTER
/// GETKEYSINSLOT` asks for, `timeout` the time of a step, of which `MIGRATE` is given
/// [`migrate_timeout`], as [`apply`](super::apply) does; an atomic job or task that shows
/// no progress for `timeout` (whole seconds, at least 1) is cancelled, as `apply` cancels
/// one, the script stopping with a message. Every address and id in it comes from the map,
/// whose addresses are `host:port` and ids 40 hex digits.
#[must_use]
pub fn script(
    plan: &Plan,
    topology: &Topology,
    dialect: Dialect,
    batch: usize,
    timeout: Duration,
    shell: &Shell,
) -> String {
    let mut text = include_str!("commands.sh")
        .replace("@CLI@", &shell.cli)
        .replace("@BATCH@", &batch.to_string())
        .replace("@STALL_S@", &timeout.as_secs().max(1).to_string())
        .replace(
            "@TIMEOUT_MS@",
            &migrate_timeout(timeout).as_millis().to_string(),
        )
        .replace(
            "@USER@",
            if shell.user.is_empty() {
                "''"
            } else {
                &shell.user
            },
        )
        .replace("@PASSWORD@", &shell.password)
        .replace(
            " @OPTIONS@",
            &if shell.options.is_empty() {
                String::new()
            } else {
                format!(" {}", shell.options)
            },
        );
    for line in commands(plan, topology, dialect) {
        text.push_str(&line);
        text.push('\n');
    }
    text
}

/// The most slot ranges one atomic job is given (`CLUSTER MIGRATESLOTS SLOTSRANGE a b ...`,
/// `CLUSTER MIGRATION IMPORT a b ...`): a pair of nodes with more gets several jobs, one
/// after the other.
///
/// Valkey 9.1.2's source opens the job on the target with `CLUSTER SYNCSLOTS ESTABLISH ...
/// SLOTSRANGE a b ...` (183 bytes, and 12 + 2 x digits a range: at most 22), which the
/// target passes on to its replicas. When that command is 16 KiB or more (16384 bytes, the
/// size in which the server reads a client's query), the target's replicas log `Receiving
/// inline protocol from primary ... Desync?`, still say `master_link_status:up`, and apply
/// nothing more from the target, neither the job's keys nor later writes, until
/// `repl-timeout`: a failover of the target then loses every key moved to it. Measured
/// (a target with one replica, one job of single-slot ranges, with keys of up to 2 KB and
/// without keys): 810 ranges of 4-digit slots (16383 bytes) left the replica intact and 811
/// (16403 bytes) desynced it; 900 ranges of 3-digit slots (16383 bytes) left it intact. So
/// the bytes of the ranges decide, not their count or the keys; 736 ranges of 5-digit slots
/// would reach it. 256 ranges are at most 5815 bytes, about a third of the limit.
pub const MAX_JOB_RANGES: usize = 256;

/// The atomic jobs of `moves`: its slots grouped by `(from, to)` ([`groups`]), each group's
/// ranges ([`ranges_of`]) cut into jobs of at most [`MAX_JOB_RANGES`], in order; the one
/// reading of a plan as jobs, which [`apply`](super::apply) runs and [`commands`] prints.
pub(super) fn atomic_jobs(moves: &[Move]) -> Vec<((usize, usize), Vec<SlotRange>)> {
    groups(moves)
        .into_iter()
        .flat_map(|(pair, slots)| {
            ranges_of(&slots)
                .chunks(MAX_JOB_RANGES)
                .map(|job| (pair, job.to_vec()))
                .collect::<Vec<_>>()
        })
        .collect()
}

/// The slots of `moves` grouped by `(from, to)`, in the order each pair first appears, the
/// slots of a group sorted.
fn groups(moves: &[Move]) -> Vec<((usize, usize), Vec<u16>)> {
    let mut groups: Vec<((usize, usize), Vec<u16>)> = Vec::new();
    for m in moves {
        match groups.iter_mut().find(|(pair, _)| *pair == (m.from, m.to)) {
            Some((_, slots)) => slots.push(m.slot),
            None => groups.push(((m.from, m.to), vec![m.slot])),
        }
    }
    for (_, slots) in &mut groups {
        slots.sort_unstable();
    }
    groups
}

/// The primaries of `topology` other than a move's two.
fn others<'t>(topology: &'t Topology, m: &Move) -> impl Iterator<Item = &'t super::Shard> {
    let (from, to) = (m.from, m.to);
    topology
        .shards
        .iter()
        .enumerate()
        .filter(move |(i, _)| *i != from && *i != to)
        .map(|(_, s)| s)
}

/// The server's `INFO server` `valkey_version` or `redis_version`, and its [`Dialect`]: one
/// exchange with the node of `url`, within `timeout`.
///
/// # Errors
///
/// What a connection gives ([`Error::Unreachable`], [`Error::TimedOut`],
/// [`Error::PasswordRequired`], ...).
pub fn server_dialect(
    url: &str,
    options: &ConnectOptions,
    timeout: Duration,
) -> Result<(Dialect, String), Error> {
    bounded(url, options, timeout, |exchange| {
        let mut con = exchange.connect(&exchange.endpoint)?;
        let info = exchange.text(
            &mut con,
            redis::cmd("INFO").arg("server"),
            Budget::SHORT.times(4),
        )?;
        let version = info_field(&info, "valkey_version")
            .map(|v| format!("valkey {v}"))
            .or_else(|| info_field(&info, "redis_version").map(|v| format!("redis {v}")))
            .unwrap_or_else(|| "unknown".to_owned());
        Ok((
            Dialect::of_info(&info),
            crate::text::escape_cut(version.as_bytes()),
        ))
    })
}
