//! What `slotgen nodes`, `slotgen keys` and `slotgen placement` share: the server options,
//! reading the topology, and the notes about slots in migration.

use std::collections::BTreeMap;
use std::time::Duration;

use anyhow::{anyhow, Result};
use clap::Args;
use slotgen::cluster::{self, MigrationKind, Node, Source, Topology};
use slotgen::text::field;

/// How to reach a cluster.
#[derive(Debug, Clone, Args)]
pub struct ServerArgs {
    /// A node of the cluster: `redis://host:port`, `redis://:PASSWORD@host:port`,
    /// `redis://USER:PASSWORD@host:port` or `unix:///path/to/socket?pass=PASSWORD`. The
    /// other primaries are reached at the addresses the cluster gives, with the same user
    /// and password. Passwords are never printed.
    #[arg(long, value_name = "URL")]
    pub redis: String,
    #[command(flatten)]
    pub timeout: TimeoutArgs,
}

/// The deadline of the whole exchange with the cluster.
#[derive(Debug, Clone, Args)]
pub struct TimeoutArgs {
    /// The time allowed for the whole exchange with the cluster, connecting to every primary
    /// included: seconds (`10`, `0.5`), or with a unit (`500ms`, `2s`) [default: 10].
    #[arg(long, value_name = "TIME", value_parser = super::values::parse_timeout)]
    pub timeout: Option<Duration>,
}

impl TimeoutArgs {
    /// `--timeout`, or its default of 10 s.
    pub fn get(&self) -> Duration {
        self.timeout.unwrap_or(Duration::from_secs(10))
    }
}

/// Reads the topology at `url`, and notes on standard error where it came from when that
/// was not `CLUSTER SHARDS`, and every node left out of it (failed, or of a shard without a
/// primary).
pub fn topology(url: &str, timeout: Duration) -> Result<Topology> {
    let topology = Topology::fetch(url, timeout).map_err(|e| match e {
        cluster::Error::TimedOut { .. } => anyhow!("{e}: raise `--timeout`"),
        cluster::Error::Url { .. } => crate::exit::usage(e),
        e => e.into(),
    })?;
    if let Source::ClusterSlots { shards_refused } = &topology.source {
        eprintln!(
            "slotgen: note: {} refused CLUSTER SHARDS ({shards_refused}); the map is read from CLUSTER SLOTS",
            slotgen::url::redact(url)
        );
    }
    for gone in &topology.left_out {
        let slots = if gone.ranges.is_empty() {
            String::new()
        } else {
            format!(
                " (the map still gives it slots {})",
                cluster::show_ranges(&gone.ranges)
            )
        };
        eprintln!(
            "slotgen: note: {} {} ({}) is left out{slots}: {}; it is not asked and gets no keys",
            gone.node.role,
            field(gone.node.id.as_bytes()),
            field(gone.node.addr.as_bytes()),
            gone.reason
        );
    }
    Ok(topology)
}

/// A node's health as a TSV cell: the server's word escaped, `-` where the map does not say
/// (`CLUSTER SLOTS`).
pub fn health(node: &Node) -> String {
    node.health
        .as_deref()
        .map_or_else(|| "-".to_owned(), |h| field(h.as_bytes()))
}

/// One line per pair of nodes moving slots: `slots 0-99 are migrating from ID (ADDR) to ID
/// (ADDR)`, from what either end reports.
pub fn migration_lines(topology: &Topology) -> Vec<String> {
    let mut moves: BTreeMap<(&str, &str), Vec<u16>> = BTreeMap::new();
    for m in &topology.migrations {
        let (from, to) = match m.kind {
            MigrationKind::Migrating => (m.node.as_str(), m.peer.as_str()),
            MigrationKind::Importing => (m.peer.as_str(), m.node.as_str()),
        };
        moves.entry((from, to)).or_default().push(m.slot);
    }
    let name = |id: &str| match topology.find(id) {
        Ok((_, node)) => format!("{id} ({})", node.addr),
        Err(_) => id.to_owned(),
    };
    moves
        .into_iter()
        .map(|((from, to), mut slots)| {
            slots.sort_unstable();
            slots.dedup();
            format!(
                "slots {} ({}) are migrating from {} to {}",
                cluster::show_ranges(&cluster::ranges_of(&slots)),
                slots.len(),
                name(from),
                name(to)
            )
        })
        .collect()
}

/// Notes on standard error each migration, and what is done with its slots.
pub fn note_migrations(topology: &Topology, what: &str) {
    for line in migration_lines(topology) {
        eprintln!("slotgen: note: {line}; {what}");
    }
}
