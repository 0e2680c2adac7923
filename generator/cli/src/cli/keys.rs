//! `slotgen keys`: keys that land on every node of a live cluster.

use std::io::Write;
use std::process::ExitCode;

use anyhow::{anyhow, bail, Result};
use clap::{ArgGroup, Args, ValueEnum};
use slotgen::text::{field, write_field};
use slotgen_cluster::{keys_over_slots, show_ranges, split_evenly, Node, Role, Shard};

use super::cluster::{health, note_migrations, topology, ServerArgs};
use super::map_notes::require_every_slot_served;
use crate::exit::usage;

/// The form of `slotgen keys`' output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    /// One key per line, tab-separated: `node_id addr slot key`; with
    /// --include-migrating a fifth column, `migrating` or `stable`. Every field is escaped
    /// (`\` as `\\`, any byte but printable ASCII as `\xNN`).
    Tsv,
    /// A JSON array of `{"node_id", "addr", "role", "slot", "key", "key_hex", "migrating"}`
    /// (`key` is `null` when the key is not UTF-8; `key_hex` is always its bytes in hex).
    Json,
    /// Only the keys, as they are (raw bytes), one per line, or with -z one per
    /// NUL-terminated record.
    Keys,
}

/// Which nodes get keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum RoleArg {
    /// Every shard's primary.
    Primary,
    /// Every replica that serves reads: keys of its primary's slots, to read after
    /// `READONLY`. A replica still loading (health `loading`: it has taken no write yet) is
    /// left out, and named on stderr.
    Replica,
}

#[derive(Debug, Args)]
#[command(group(ArgGroup::new("how_many").required(true).args(["per_node", "count"])))]
pub struct KeysArgs {
    #[command(flatten)]
    server: ServerArgs,
    /// Keys for each node, distinct, spread evenly over the slots it owns: distinct slots at
    /// even spacing; past one key per slot, the slot's alternative tags, then a counter
    /// after the suffix. At most 2^32, the most keys a server holds.
    #[arg(long, value_name = "K", value_parser = key_count)]
    per_node: Option<u64>,
    /// Instead of --per-node, this many keys over the whole cluster, split as evenly as can
    /// be between the nodes (the first nodes take one more). At most 2^32.
    #[arg(long, value_name = "N", value_parser = key_count)]
    count: Option<u64>,
    #[command(flatten)]
    frame: super::lookup::FrameArgs,
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

/// The most keys `--per-node` and `--count` take: 2^32, the most keys one Redis or Valkey
/// server holds (the Redis FAQ, "What is the maximum number of keys a single Redis instance
/// can hold?"), which a key file for a node never needs more than; its output, streamed,
/// is bounded by the count asked.
const MAX_KEYS: u64 = 1 << 32;

/// `--per-node` and `--count`: 1 to [`MAX_KEYS`].
fn key_count(text: &str) -> Result<u64, String> {
    super::values::parse_count(text, Some(MAX_KEYS))
        .map_err(|e| format!("{e}: a server holds at most 2^32 keys"))
}

pub fn run(args: &KeysArgs) -> Result<ExitCode> {
    let (prefix, suffix) = (args.frame.prefix(), args.frame.suffix());
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
    // TSV escapes every byte of a key (`slotgen::text::write_field`); raw keys (`--format
    // keys`) end at a line feed, or with -z at NUL (which no argument holds)
    if args.format == Format::Keys && !args.records.null {
        for (option, value) in [
            (args.frame.prefix_option(), prefix),
            (args.frame.suffix_option(), suffix),
        ] {
            if value.iter().any(|b| matches!(b, b'\n' | b'\r')) {
                return Err(usage(anyhow!(
                    "{option} holds a line break, which would split the key over lines: use `-z` (NUL-terminated records), `--format tsv` (bytes escaped) or `--format json`, or leave it out"
                )));
            }
        }
    }
    if let Some(position) = prefix.iter().position(|&b| b == b'{') {
        let error = slotgen_tables::Error::PrefixHasDelimiter {
            position,
            open: '{',
        };
        return Err(usage(
            anyhow::Error::from(error).context(args.frame.prefix_option()),
        ));
    }
    let options = args.server.options(None)?;
    let topology = topology(&args.server.redis, &options, args.server.timeout.get())?;
    require_every_slot_served(&topology, &args.server.reach(&options))?;
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
                    field(node.addr.as_bytes()),
                    node.role
                );
            }
            if !node.serves() {
                bail!(
                    "--node {} is a {} of health `{}`: it does not serve requests yet; name another node, or wait until `slotgen nodes` shows it `online`",
                    field(node.addr.as_bytes()),
                    node.role,
                    health(node)
                );
            }
            vec![(shard, node)]
        }
        None => {
            let mut nodes = Vec::new();
            for shard in &topology.shards {
                let all: Vec<&Node> = shard.nodes().filter(|n| n.role == role).collect();
                let serving: Vec<&Node> = all.iter().copied().filter(|n| n.serves()).collect();
                for n in all.iter().filter(|n| !n.serves()) {
                    say!(
                        "slotgen: note: {role} {} ({}) is left out: its health is `{}`, it does not serve requests yet (a replica is `loading` until it has taken its first write)",
                        field(n.id.as_bytes()),
                        field(n.addr.as_bytes()),
                        health(n)
                    );
                }
                if serving.is_empty() && !shard.ranges.is_empty() && role == Role::Replica {
                    say!(
                        "slotgen: note: no replica serves the slots {} of {} ({}): they get no keys",
                        show_ranges(&shard.ranges),
                        field(shard.primary.id.as_bytes()),
                        field(shard.primary.addr.as_bytes())
                    );
                }
                nodes.extend(serving.into_iter().map(|node| (shard, node)));
            }
            nodes
        }
    };
    if nodes.is_empty() {
        bail!("the cluster has no {role} that serves requests: give --role primary, add replicas to the cluster, or write to it so that its replicas take a first write and are `online`");
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
            say!(
                "slotgen: note: {} ({}) has no slot to put keys on; it gets none",
                field(node.id.as_bytes()),
                field(node.addr.as_bytes())
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
        let keys = keys_over_slots(slots, count, prefix, suffix)?;
        for (slot, key) in keys {
            let marked = migrating.binary_search(&slot).is_ok();
            match args.format {
                Format::Keys => {
                    out.write_all(&key)?;
                    out.write_all(&[terminator])?;
                }
                Format::Tsv => {
                    write!(
                        out,
                        "{}\t{}\t{slot}\t",
                        field(node.id.as_bytes()),
                        field(node.addr.as_bytes())
                    )?;
                    write_field(&mut out, &key)?;
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
                        // as `slotgen-records/1` has it: the text when UTF-8 (a
                        // `--prefix-hex` may make it none), and the bytes in hex always
                        "key": std::str::from_utf8(&key).ok(),
                        "key_hex": hex::encode(&key),
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
