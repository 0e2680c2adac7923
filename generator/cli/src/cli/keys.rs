//! `slotgen keys`: keys that land on every node of a live cluster.

use std::io::Write;
use std::process::ExitCode;

use anyhow::{anyhow, bail, Result};
use clap::{ArgGroup, Args, ValueEnum};
use slotgen::cluster::{keys_over_slots, split_evenly, Node, Role, Shard};

use super::cluster::{note_migrations, topology, ServerArgs};
use crate::exit::usage;

/// The form of `slotgen keys`' output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    /// One key per line, tab-separated: `node_id addr slot key`; with
    /// --include-migrating a fifth column, `migrating` or `stable`.
    Tsv,
    /// A JSON array of `{"node_id", "addr", "role", "slot", "key", "migrating"}`.
    Json,
    /// Only the keys, one per line.
    Keys,
}

/// Which nodes get keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum RoleArg {
    /// Every shard's primary.
    Primary,
    /// Every replica: keys of its primary's slots, to read after `READONLY`.
    Replica,
}

#[derive(Debug, Args)]
#[command(group(ArgGroup::new("how_many").required(true).args(["per_node", "count"])))]
pub struct KeysArgs {
    #[command(flatten)]
    server: ServerArgs,
    /// Keys for each node, distinct, spread evenly over the slots it owns: distinct slots at
    /// even spacing; past one key per slot, the slot's alternative tags, then a counter
    /// after the suffix.
    #[arg(long, value_name = "K")]
    per_node: Option<u64>,
    /// Instead of --per-node, this many keys over the whole cluster, split as evenly as can
    /// be between the nodes (the first nodes take one more).
    #[arg(long, value_name = "N")]
    count: Option<u64>,
    /// Bytes before the `{tag}`; must not contain `{`.
    #[arg(long, value_name = "P", default_value = "")]
    prefix: String,
    /// Bytes after the `{tag}` (and before the counter).
    #[arg(long, value_name = "S", default_value = "")]
    suffix: String,
    /// The nodes that get keys [default: primary].
    #[arg(long, value_enum)]
    role: Option<RoleArg>,
    /// Only this node, by id or `host:port` (primary or replica).
    #[arg(long, value_name = "ID|ADDR")]
    node: Option<String>,
    /// Keep slots that are migrating or importing (left out by default, as a key there may
    /// be answered with ASK), and mark their keys.
    #[arg(long)]
    include_migrating: bool,
    /// The output form.
    #[arg(long, value_enum, default_value_t = Format::Tsv)]
    format: Format,
    #[command(flatten)]
    records: super::output::RecordArgs,
}

pub fn run(args: &KeysArgs) -> Result<ExitCode> {
    let terminator = args.records.terminator();
    match args.format {
        Format::Json => args
            .records
            .refuse_header("`--format json` names every field")?,
        Format::Keys => args
            .records
            .refuse_header("`--format keys` prints keys alone")?,
        Format::Tsv => {}
    }
    if args.records.null && args.format == Format::Json {
        return Err(usage(anyhow!(
            "`-z` applies to TSV records and keys, and JSON needs no terminator: remove it"
        )));
    }
    // with -z a record ends at NUL (which no argument holds), and a line feed is part of the
    // key
    let (splits, what, way): (&[char], &str, &str) = match (args.format, args.records.null) {
        (Format::Json, _) | (Format::Keys, true) => (&[], "", ""),
        (Format::Tsv, true) => (&['\t'], "a tab", ""),
        (_, false) => (
            &['\n', '\r', '\t'],
            "a tab or line break",
            " (`-z` for a line break: NUL-terminated records)",
        ),
    };
    for (option, value) in [("--prefix", &args.prefix), ("--suffix", &args.suffix)] {
        if value.contains(splits) {
            return Err(usage(anyhow!(
                "{option} holds {what}, which would split the key over columns or lines: use `--format json`{way}, or leave it out"
            )));
        }
    }
    if let Some(position) = args.prefix.find('{') {
        let error = slotgen_tables::Error::PrefixHasBrace { position };
        return Err(usage(anyhow::Error::from(error).context("--prefix")));
    }
    let topology = topology(&args.server.redis, args.server.timeout.timeout)?;
    let migrating = topology.migrating_slots();
    let role = match args.role {
        Some(RoleArg::Replica) => Role::Replica,
        _ => Role::Primary,
    };
    let nodes: Vec<(&Shard, &Node)> = match &args.node {
        Some(wanted) => {
            let (shard, node) = topology.find(wanted)?;
            if args.role.is_some() && node.role != role {
                // the cluster's answer, not the command line, makes this wrong: exit 1
                bail!(
                    "--node {} is a {}, and --role asks for a {role}: leave --role out, or name a {role}",
                    node.addr,
                    node.role
                );
            }
            vec![(shard, node)]
        }
        None => topology
            .shards
            .iter()
            .flat_map(|shard| shard.nodes().map(move |node| (shard, node)))
            .filter(|(_, node)| node.role == role)
            .collect(),
    };
    if nodes.is_empty() {
        bail!("the cluster has no {role}: give --role primary, or add replicas to the cluster");
    }
    if args.include_migrating {
        note_migrations(&topology, "kept and marked (--include-migrating)");
    } else {
        note_migrations(&topology, "left out (--include-migrating keeps them)");
    }
    // The slots each node's keys may use, then how many keys each takes.
    let slots: Vec<Vec<u16>> = nodes
        .iter()
        .map(|(shard, _)| topology.usable_slots(shard, args.include_migrating))
        .collect();
    for ((_, node), slots) in nodes.iter().zip(&slots) {
        if slots.is_empty() {
            eprintln!(
                "slotgen: note: {} ({}) has no slot to put keys on; it gets none",
                node.id, node.addr
            );
        }
    }
    let with_slots = slots.iter().filter(|s| !s.is_empty()).count();
    if with_slots == 0 {
        bail!(
            "no node of the selection owns a slot that is not in migration: no key can land on one"
        );
    }
    let mut shares = match (args.per_node, args.count) {
        (Some(k), _) => vec![k; with_slots],
        (None, Some(n)) => split_evenly(n, with_slots),
        (None, None) => unreachable!("clap requires --per-node or --count"),
    }
    .into_iter();

    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut first = true;
    match args.format {
        Format::Json => write!(out, "[")?,
        Format::Tsv if args.records.header => {
            out.write_all(b"node_id\taddr\tslot\tkey")?;
            if args.include_migrating {
                out.write_all(b"\tmigrating")?;
            }
            out.write_all(&[terminator])?;
        }
        _ => {}
    }
    for ((_, node), slots) in nodes.iter().zip(&slots) {
        if slots.is_empty() {
            continue;
        }
        let count = shares.next().unwrap_or(0);
        let keys = keys_over_slots(slots, count, args.prefix.as_bytes(), args.suffix.as_bytes())?;
        for (slot, key) in keys {
            let marked = migrating.binary_search(&slot).is_ok();
            match args.format {
                Format::Keys => {
                    out.write_all(&key)?;
                    out.write_all(&[terminator])?;
                }
                Format::Tsv => {
                    write!(out, "{}\t{}\t{slot}\t", node.id, node.addr)?;
                    out.write_all(&key)?;
                    if args.include_migrating {
                        write!(out, "\t{}", if marked { "migrating" } else { "stable" })?;
                    }
                    out.write_all(&[terminator])?;
                }
                Format::Json => {
                    let entry = serde_json::json!({
                        "node_id": node.id,
                        "addr": node.addr,
                        "role": node.role,
                        "slot": slot,
                        // prefix, suffix and tags are UTF-8 text
                        "key": String::from_utf8_lossy(&key),
                        "migrating": marked,
                    });
                    write!(out, "{}\n  {entry}", if first { "" } else { "," })?;
                    first = false;
                }
            }
        }
    }
    if args.format == Format::Json {
        writeln!(out, "{}]", if first { "" } else { "\n" })?;
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
