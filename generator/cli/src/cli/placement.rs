//! `slotgen placement`: where a workload's keys land, per slot and per node.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;
use clap::{Args, ValueEnum};
use slotgen_cluster::{self as cluster, skew, Placement, Topology, SKEW_MIN_MEAN};

use super::cluster::{note_migrations, topology, ConnectArgs, TimeoutArgs};
use super::key_input::{for_each_key_batch, BATCH};
use super::output::RecordArgs;

/// How many keys in migrating slots are listed by name.
const MIGRATING_LISTED: usize = 20;

/// The form of `slotgen placement`'s output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    /// Tab-separated lines, each led by what it holds: `keys`, `node`, `unowned`, `skew`,
    /// `slot`, `migrating`, `migrating_key`. `skew` is the fullest slot's keys (with --redis,
    /// node's) over the mean per slot (node), then a sentence; `-` and why when there are
    /// fewer than 10 keys a slot (node) on average, too few for the ratio to mean anything.
    Tsv,
    /// One JSON object with the same fields: `keys`, `slots_used`, `skew` (`ratio`, null
    /// below `min_keys`; `max`, `mean`, `per`: `slot` or `node`, `min_keys`), `top_slots`;
    /// with --redis `nodes`, `unowned` and `migrating`.
    Json,
    /// The slot map as SVG: 128 x 128 cells (slot s at row s/128, column s%128) shaded by
    /// keys; with --redis a colour per primary, its share and the hot slots circled (a slot
    /// with more keys than a primary's fair share).
    Svg,
}

#[derive(Debug, Args)]
pub struct PlacementArgs {
    /// A node of the cluster (`redis://HOST:PORT`, `rediss://HOST:PORT` for TLS, as
    /// `slotgen nodes --redis` takes it): counts per node of its current map. Without it,
    /// counts per slot only.
    #[arg(long, value_name = "URL")]
    redis: Option<String>,
    #[command(flatten)]
    connect: ConnectArgs,
    #[command(flatten)]
    timeout: TimeoutArgs,
    /// The keys on standard input are hex-encoded bytes (`7b617d` is `{a}`).
    #[arg(long)]
    hex: bool,
    #[command(flatten)]
    records: RecordArgs,
    /// How many of the fullest slots to list.
    #[arg(long, value_name = "N", default_value_t = 10)]
    top: usize,
    /// The output form.
    #[arg(long, value_enum, default_value_t = Format::Tsv)]
    format: Format,
    /// The keys; with none, or `-` alone, one key per line from standard input (as `slotgen
    /// slot` reads them), or with `-z` one key per NUL-terminated record.
    #[arg(value_name = "KEY")]
    keys: Vec<String>,
}

pub fn run(args: &PlacementArgs) -> Result<ExitCode> {
    if args.redis.is_none() && args.timeout.timeout.is_some() {
        return Err(crate::exit::usage(anyhow::anyhow!(
            "`--timeout` applies to `--redis` only: without it no server is asked; remove it"
        )));
    }
    let topology = match &args.redis {
        Some(url) => {
            // the keys take standard input unless they are arguments
            let from_stdin = args.keys.is_empty() || args.keys == ["-"];
            let options =
                args.connect
                    .options(url, from_stdin.then_some("the keys"), args.timeout.get())?;
            let topology = topology(url, &options, args.timeout.get())?;
            let reach = super::shell::Reach {
                url,
                connect: &args.connect,
                options: &options,
                timeout: args.timeout.get(),
            };
            super::map_notes::require_every_slot_served(&topology, &reach)?;
            note_migrations(&topology, "their keys are counted on the first, and listed");
            Some(topology)
        }
        None => None,
    };
    let migrating = topology
        .as_ref()
        .map(Topology::migrating_slots)
        .unwrap_or_default();
    let mut placement = Placement::new();
    let mut migrating_keys = 0u64;
    // each key as shown: escaped, and cut when long
    let mut listed: Vec<(String, u16)> = Vec::new();
    args.records
        .refuse_header("placement's TSV lines are of several kinds, each led by its name")?;
    // counted per slot a batch of keys at a time; per node once, from the slots' counts
    let mut slots = vec![0; BATCH];
    // the answer is a summary of every key: nothing to write out before the end
    let summed = |keys: &[&[u8]]| {
        let slots = &mut slots[..keys.len()];
        placement.add_keys(keys, slots);
        if migrating.is_empty() {
            return Ok(());
        }
        for (key, &slot) in keys.iter().zip(&*slots) {
            if migrating.binary_search(&slot).is_ok() {
                migrating_keys += 1;
                if listed.len() < MIGRATING_LISTED {
                    listed.push((super::show_short(key), slot));
                }
            }
        }
        Ok(())
    };
    for_each_key_batch(
        &args.keys,
        args.records.terminator(),
        args.hex,
        summed,
        || Ok(()),
    )?;

    let top = placement.top_slots(args.top);
    let owners = topology.as_ref().map(Topology::owners);
    let owner_of = |slot: u16| -> Option<&cluster::Node> {
        let (t, o) = (topology.as_ref()?, owners.as_ref()?);
        o[usize::from(slot)].map(|i| &t.shards[i].primary)
    };
    let per_node = topology.as_ref().map(|t| {
        let (loads, unowned) = placement.by_node(t);
        (loads, unowned)
    });
    let counts: Vec<u64> = match &per_node {
        Some((loads, _)) => loads.iter().map(|l| l.keys).collect(),
        None => placement.per_slot.clone(),
    };
    let skew = skew(&counts);
    let over = if per_node.is_some() { "node" } else { "slot" };
    let share = |keys: u64| {
        if placement.keys == 0 {
            0.0
        } else {
            100.0 * keys as f64 / placement.keys as f64
        }
    };
    let migrating_ranges = cluster::show_ranges(&cluster::ranges_of(&migrating));

    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    match args.format {
        Format::Tsv => {
            writeln!(
                out,
                "keys\t{}\tslots_used\t{}",
                placement.keys,
                placement.slots_used()
            )?;
            if let (Some(t), Some((loads, unowned))) = (&topology, &per_node) {
                for load in loads {
                    let node = &t.shards[load.shard].primary;
                    writeln!(
                        out,
                        "node\t{}\t{}\t{}\t{:.2}%\t{}",
                        slotgen::text::field(node.id.as_bytes()),
                        slotgen::text::field(node.addr.as_bytes()),
                        load.keys,
                        share(load.keys),
                        load.slots_used
                    )?;
                }
                writeln!(out, "unowned\t{unowned}")?;
            }
            match skew.ratio {
                Some(ratio) => writeln!(
                    out,
                    "skew\t{ratio:.4}\tmax / mean keys per {over}: the fullest {over} has {}, the mean is {:.2}",
                    skew.max, skew.mean
                )?,
                None => writeln!(
                    out,
                    "skew\t-\tnot measured: {} over {}, fewer than {SKEW_MIN_MEAN} a {over} ({} keys); max / mean would measure chance",
                    super::plural(placement.keys, "key", "keys"),
                    super::plural(skew.buckets as u64, over, &format!("{over}s")),
                    skew.min_keys
                )?,
            }
            for (slot, keys) in &top {
                match owner_of(*slot) {
                    Some(node) => writeln!(
                        out,
                        "slot\t{slot}\t{keys}\t{}",
                        slotgen::text::field(node.addr.as_bytes())
                    )?,
                    None => writeln!(out, "slot\t{slot}\t{keys}")?,
                }
            }
            if topology.is_some() {
                writeln!(out, "migrating\t{migrating_keys}\t{migrating_ranges}")?;
                for (key, slot) in &listed {
                    writeln!(out, "migrating_key\t{slot}\t{key}")?;
                }
            }
        }
        Format::Json => {
            let nodes: Option<Vec<serde_json::Value>> = match (&topology, &per_node) {
                (Some(t), Some((loads, _))) => Some(
                    loads
                        .iter()
                        .map(|load| {
                            let node = &t.shards[load.shard].primary;
                            serde_json::json!({
                                "node_id": node.id,
                                "addr": node.addr,
                                "keys": load.keys,
                                "share": share(load.keys) / 100.0,
                                "slots_used": load.slots_used,
                            })
                        })
                        .collect(),
                ),
                _ => None,
            };
            let top: Vec<serde_json::Value> = top
                .iter()
                .map(|&(slot, keys)| {
                    serde_json::json!({
                        "slot": slot,
                        "keys": keys,
                        "addr": owner_of(slot).map(|n| n.addr.clone()),
                    })
                })
                .collect();
            let mut json = serde_json::json!({
                "keys": placement.keys,
                "slots_used": placement.slots_used(),
                "skew": {
                    "ratio": skew.ratio,
                    "max": skew.max,
                    "mean": skew.mean,
                    "per": over,
                    "min_keys": skew.min_keys,
                },
                "top_slots": top,
            });
            if let Some(nodes) = nodes {
                json["nodes"] = nodes.into();
                json["unowned"] = per_node.as_ref().map_or(0, |p| p.1).into();
                json["migrating"] = serde_json::json!({
                    "keys": migrating_keys,
                    "slots": migrating,
                    "listed": listed.iter().map(|(k, s)| serde_json::json!({"slot": s, "key": k})).collect::<Vec<_>>(),
                });
            }
            writeln!(out, "{}", serde_json::to_string_pretty(&json)?)?;
        }
        Format::Svg => {
            let title = format!(
                "keys per slot: {}",
                super::plural(placement.keys, "key", "keys")
            );
            let svg = match &topology {
                Some(t) => {
                    cluster::Summary::of(cluster::Metric::Keys, &placement.per_slot, t, 0, &[])
                        .map_err(super::cluster::explain)?
                        .picture(&title, &placement.per_slot, t)
                }
                None => slotgen_cluster::slot_map::SlotMap {
                    title: title.clone(),
                    metric: "keys".to_owned(),
                    values: placement.per_slot.clone(),
                    owners: vec![Some(0); placement.per_slot.len()],
                    primaries: vec![slotgen_cluster::slot_map::LegendEntry {
                        node: "every slot (no cluster map: give --redis for the nodes)".to_owned(),
                        addr: "-".to_owned(),
                        share: 1.0,
                        ratio: None,
                    }],
                    skew: skew.ratio,
                    target: None,
                    floor: None,
                    hot: Vec::new(),
                    remedies: Vec::new(),
                }
                .render(),
            };
            out.write_all(svg.as_bytes())?;
        }
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
