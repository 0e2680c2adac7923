//! `slotgen nodes`: a cluster's shards, from `CLUSTER SHARDS` (or `CLUSTER SLOTS`).

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;
use clap::{Args, ValueEnum};
use slotgen_cluster::show_ranges;

use slotgen::text::field;

use super::cluster::{health, note_migrations, note_unowned, topology, ServerArgs};
use super::map_notes::note_left_out;

/// The form of `slotgen nodes`' output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    /// One line per node, its shard's primary first, tab-separated:
    /// `node_id addr role slots ranges health` (ranges such as `0-99,200`; health as
    /// `CLUSTER SHARDS` gives it, `online` or `loading`, `-` from `CLUSTER SLOTS`), and
    /// where any node has one (Valkey 9.1's `availability-zone`), a seventh column, the
    /// node's availability zone or `-`. Failed nodes are left out, each named on stderr.
    Tsv,
    /// The topology as one JSON object: `shards` (each with `primary` and `replicas`, nodes of
    /// `id`, `addr`, `role` and `health`, `ranges` and `slots`), `left_out` (`node`, `ranges`,
    /// `reason`), `migrations`, `source`, and `availability_zones` (node id to zone, for the
    /// nodes that have one).
    Json,
}

#[derive(Debug, Args)]
pub struct NodesArgs {
    #[command(flatten)]
    server: ServerArgs,
    /// The output form.
    #[arg(long, value_enum, default_value_t = Format::Tsv)]
    format: Format,
}

pub fn run(args: &NodesArgs) -> Result<ExitCode> {
    let options = args.server.options(None)?;
    let topology = topology(&args.server.redis, &options, args.server.timeout.get())?;
    note_left_out(&topology, &args.server.reach(&options));
    note_unowned(&topology);
    note_migrations(&topology, "each belongs to the primary the map gives it");
    let zones = slotgen_cluster::Topology::availability_zones(
        &args.server.redis,
        &options,
        args.server.timeout.get(),
    )
    .map_err(super::cluster::explain)?;
    let zone = |id: &str| {
        zones
            .iter()
            .find(|(node, _)| node == id)
            .map_or("-", |(_, z)| z.as_str())
    };
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    match args.format {
        Format::Tsv => {
            for shard in &topology.shards {
                let ranges = show_ranges(&shard.ranges);
                for node in shard.nodes() {
                    write!(
                        out,
                        "{}\t{}\t{}\t{}\t{ranges}\t{}",
                        field(node.id.as_bytes()),
                        field(node.addr.as_bytes()),
                        node.role,
                        shard.slot_count(),
                        health(node)
                    )?;
                    if zones.is_empty() {
                        writeln!(out)?;
                    } else {
                        writeln!(out, "\t{}", field(zone(&node.id).as_bytes()))?;
                    }
                }
            }
        }
        Format::Json => {
            let shards: Vec<serde_json::Value> = topology
                .shards
                .iter()
                .map(|shard| {
                    serde_json::json!({
                        "primary": shard.primary,
                        "replicas": shard.replicas,
                        "slots": shard.slot_count(),
                        "ranges": shard.ranges.iter().map(|r| [r.first, r.last]).collect::<Vec<_>>(),
                    })
                })
                .collect();
            let json = serde_json::json!({
                "shards": shards,
                "left_out": topology.left_out.iter().map(|gone| serde_json::json!({
                    "node": gone.node,
                    "ranges": gone.ranges.iter().map(|r| [r.first, r.last]).collect::<Vec<_>>(),
                    "reason": gone.reason,
                })).collect::<Vec<_>>(),
                "migrations": topology.migrations,
                "source": topology.source,
                "availability_zones": zones.iter().cloned().collect::<std::collections::BTreeMap<_, _>>(),
            });
            writeln!(out, "{}", serde_json::to_string_pretty(&json)?)?;
        }
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
