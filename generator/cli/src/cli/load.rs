//! `slotgen load`: where the load of a live cluster lands, per slot and per primary, from
//! `CLUSTER SLOT-STATS` (or `CLUSTER COUNTKEYSINSLOT`).

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;
use clap::{Args, ValueEnum};
use slotgen::text::field;
use slotgen_cluster::grant::Run;
use slotgen_cluster::transport::ConnectOptions;
use slotgen_cluster::{LoadSource, Metric, SlotLoad, Summary};

use super::cluster::{explain, ServerArgs};
use super::weights::WeightArgs;

/// The form of `slotgen load`'s output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    /// Tab-separated lines, each led by what it holds: `source` (the command read, then the
    /// metrics collected), `absent` (a metric not collected, and how to collect it), `node`
    /// (`node_id addr slots metric total share`, one line per primary and metric, share in
    /// percent), with --weight `weight` (`node_id addr weight`, one line per primary),
    /// `skew` (`metric ratio`: the largest of a primary's total over its fair share, the
    /// mean without --weight, `-` when the total is 0), `top` (`metric slot value addr`) and `hot` (`metric slot value addr`: a
    /// slot that alone holds more than a primary's fair share), these two of the --by metric,
    /// and `remedy` (`metric slot text`: the hashtag that carries a hot slot, and its split
    /// over tags on the least loaded primaries).
    Tsv,
    /// One JSON object: `source`, `metrics`, `absent`, `by`, `weighted` (whether --weight
    /// was given), `primaries` (one object per primary: `node_id`, `addr`, `slots`,
    /// `weight` (1 unless --weight gave another), and per metric its `totals`, `shares` and
    /// `ratios` to the fair share), `skew` per metric, `top` and `hot` (`slot`, `value`,
    /// `addr`) of the --by metric; each `hot` slot with its sampled `hashtags` and its
    /// `remedy` (`tags`: each `tag`, its `slot` and `node`, and the `key`).
    Json,
    /// The slot map as SVG: 128 x 128 cells (slot s at row s/128, column s%128), a colour
    /// per primary, shaded by the --by metric; a bar per primary (its load over its fair
    /// share) with the fair share and, where a slot is hot, the floor it sets; the hot
    /// slots marked and labelled `hot`.
    Svg,
}

/// `--by`'s default where a command has one (`load`; `rebalance --drain`, whose slots all
/// move whatever the metric): `keys`, the one metric every server gives (by `CLUSTER
/// COUNTKEYSINSLOT` where `CLUSTER SLOT-STATS` is missing, as on Redis 7.0) and the one a
/// counter's reset or a new server does not zero. `rebalance` without `--drain` has none: what
/// to even out is the user's choice.
pub(super) const DEFAULT_METRIC: Metric = Metric::Keys;

/// `--by`: a metric by its name, the values offered being [`Metric::ALL`]'s names.
pub(super) fn metric_parser() -> impl clap::builder::TypedValueParser<Value = Metric> {
    use clap::builder::TypedValueParser;
    // the server's field names (`key-count`) are aliases, as `Metric`'s parser takes them
    clap::builder::PossibleValuesParser::new(
        Metric::ALL.map(|m| clap::builder::PossibleValue::new(m.name()).aliases(m.field())),
    )
    .try_map(|name| name.parse::<Metric>())
}

/// The help of `--by`, from [`Metric::ALL`].
fn by_help() -> String {
    let metrics: Vec<String> = Metric::ALL
        .iter()
        .map(|m| match m.field() {
            Some(field) => format!("`{m}` ({field}, {})", m.unit()),
            None => format!("`{m}` (network-bytes-in + network-bytes-out, {})", m.unit()),
        })
        .collect();
    format!(
        "The metric that orders the top slots, finds the hot ones and shades the map: {}",
        metrics.join(", ")
    )
}

#[derive(Debug, Args)]
pub struct LoadArgs {
    #[command(flatten)]
    server: ServerArgs,
    #[arg(long, value_name = "METRIC", default_value_t = DEFAULT_METRIC, value_parser = metric_parser(), help = by_help())]
    by: Metric,
    #[command(flatten)]
    weights: WeightArgs,
    /// How many of the slots of the most load to list.
    #[arg(long, value_name = "N", default_value_t = 10)]
    top: usize,
    /// The output form.
    #[arg(long, value_enum, default_value_t = Format::Tsv)]
    format: Format,
}

/// How much more skewed another metric collected must be than `--by`'s, and how skewed at
/// least, for a note to point to it: a load that one metric hides (keys even, one key read
/// by every client) is the one an operator came for.
const MORE_SKEWED: (f64, f64) = (1.25, 1.5);

/// A note on stderr where other metrics collected are [`MORE_SKEWED`] than `by`'s: each
/// with its skew, the most skewed first (ties: in the order collected), and the option that
/// orders by the first.
fn note_more_skewed(by: Metric, summaries: &[Summary]) {
    let Some(chosen) = summaries
        .iter()
        .find(|s| s.metric == by)
        .and_then(|s| s.skew)
    else {
        return;
    };
    let mut more: Vec<(Metric, f64)> = summaries
        .iter()
        .filter(|s| s.metric != by)
        .filter_map(|s| Some((s.metric, s.skew?)))
        .filter(|&(_, skew)| skew >= MORE_SKEWED.1 && skew > chosen * MORE_SKEWED.0)
        .collect();
    more.sort_by(|a, b| b.1.total_cmp(&a.1));
    let Some(&(first, _)) = more.first() else {
        return;
    };
    let listed: Vec<String> = more
        .iter()
        .map(|(metric, skew)| format!("`{metric}` ({skew:.2})"))
        .collect();
    say!(
        "slotgen: note: the load is more skewed by {} than by `{by}` ({chosen:.2}): `--by {}` orders the slots and finds the hot ones by it",
        listed.join(", "),
        first.name()
    );
}

pub fn run(args: &LoadArgs) -> Result<ExitCode> {
    args.weights.check()?;
    let options = args.server.options(None)?;
    run_with(args, &options)
        .map_err(|e| super::cluster::with_whole_run_grant(e, "load", || Run::Plan(args.by)))
}

/// [`run`] with the connection's options.
fn run_with(args: &LoadArgs, options: &ConnectOptions) -> Result<ExitCode> {
    let url = &args.server.redis;
    let load = SlotLoad::fetch(url, options, args.server.timeout.get()).map_err(explain)?;
    // a metric not collected, and a --weight naming no primary, are refused before any note
    let by = args.by;
    let weights = args.weights.of(&load.topology)?;
    let chosen = load.summary(by, args.top, &weights).map_err(explain)?;
    super::map_notes::note_load(&args.server.reach(options), &load)?;
    // one line per metric not collected; the refusal of CLUSTER SLOT-STATS is in the note
    let mut absent = load.absent();
    let mut summaries: Vec<Summary> = Vec::new();
    for metric in load.metrics() {
        match load.summary(metric, 0, &weights) {
            Ok(summary) => summaries.push(summary),
            // another metric than --by, not a measurement: said, left out
            Err(e @ slotgen_cluster::Error::Overflow { .. }) => {
                absent.push((metric, e.to_string()));
            }
            Err(e) => return Err(explain(e)),
        }
    }
    note_more_skewed(by, &summaries);
    if let Some(note) = load.replicas_note(by) {
        say!("slotgen: note: {note}");
    }
    let topology = &load.topology;
    // the hot slots (the definition `rebalance` shares) and their remedies on this map
    let owners = topology.owners();
    let values = load.require(by).map_err(explain)?;
    let shards = topology.shards.len();
    let hot = slotgen_cluster::hot_slots(values, &owners, shards, &weights);
    let remedies = super::remedy::remedies(
        ("load", Run::Plan(by), None),
        &args.server,
        options,
        topology,
        &hot,
        by,
        values,
        &owners,
        &weights,
    );
    let remedy_text: Vec<String> = remedies
        .iter()
        .map(|r| super::remedy::text(r, by, topology, None, false))
        .collect();
    let addr = |slot: u16| {
        topology.owners()[usize::from(slot)]
            .map(|i| topology.shards[i].primary.addr.clone())
            .unwrap_or_default()
    };
    let source = match &load.source {
        LoadSource::ClusterSlotStats => "CLUSTER SLOT-STATS",
        LoadSource::CountKeysInSlot { .. } => "CLUSTER COUNTKEYSINSLOT",
    };
    let metric_names: Vec<&str> = summaries.iter().map(|s| s.metric.name()).collect();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    match args.format {
        Format::Tsv => {
            writeln!(out, "source\t{source}\t{}", metric_names.join(","))?;
            for (metric, why) in &absent {
                writeln!(out, "absent\t{metric}\t{}", field(why.as_bytes()))?;
            }
            for (i, shard) in topology.shards.iter().enumerate() {
                for s in &summaries {
                    let p = &s.primaries[i];
                    writeln!(
                        out,
                        "node\t{}\t{}\t{}\t{}\t{}\t{:.2}%",
                        field(shard.primary.id.as_bytes()),
                        field(shard.primary.addr.as_bytes()),
                        p.slots,
                        s.metric,
                        p.total,
                        100.0 * p.share
                    )?;
                }
            }
            if args.weights.given() {
                for (shard, w) in topology.shards.iter().zip(&weights) {
                    writeln!(
                        out,
                        "weight\t{}\t{}\t{w}",
                        field(shard.primary.id.as_bytes()),
                        field(shard.primary.addr.as_bytes())
                    )?;
                }
            }
            for s in &summaries {
                match s.skew {
                    Some(skew) => writeln!(out, "skew\t{}\t{skew:.4}", s.metric)?,
                    None => writeln!(out, "skew\t{}\t-", s.metric)?,
                }
            }
            for &(slot, value) in &chosen.top {
                writeln!(
                    out,
                    "top\t{by}\t{slot}\t{value}\t{}",
                    field(addr(slot).as_bytes())
                )?;
            }
            for &(slot, value) in &chosen.hot {
                writeln!(
                    out,
                    "hot\t{by}\t{slot}\t{value}\t{}",
                    field(addr(slot).as_bytes())
                )?;
            }
            for (r, text) in remedies.iter().zip(&remedy_text) {
                writeln!(
                    out,
                    "remedy\t{by}\t{}\t{}",
                    r.hot.slot,
                    super::remedy::line(text)
                )?;
            }
        }
        Format::Json => {
            let primaries: Vec<serde_json::Value> = topology
                .shards
                .iter()
                .enumerate()
                .map(|(i, shard)| {
                    let per = |f: &dyn Fn(&Summary) -> serde_json::Value| {
                        summaries
                            .iter()
                            .map(|s| (s.metric.name().to_owned(), f(s)))
                            .collect::<serde_json::Map<_, _>>()
                    };
                    serde_json::json!({
                        "node_id": shard.primary.id,
                        "addr": shard.primary.addr,
                        "slots": shard.slot_count(),
                        "weight": weights[i],
                        "totals": per(&|s| s.primaries[i].total.into()),
                        "shares": per(&|s| s.primaries[i].share.into()),
                        "ratios": per(&|s| s.primaries[i].ratio.into()),
                    })
                })
                .collect();
            let slots = |list: &[(u16, u64)]| {
                list.iter()
                    .map(|&(slot, value)| {
                        serde_json::json!({"slot": slot, "value": value, "addr": addr(slot)})
                    })
                    .collect::<Vec<_>>()
            };
            let json = serde_json::json!({
                "source": load.source,
                "metrics": metric_names,
                "absent": absent.iter().map(|(m, why)| serde_json::json!({"metric": m, "why": why})).collect::<Vec<_>>(),
                "by": by,
                "weighted": args.weights.given(),
                "unowned": topology.unowned(),
                "primaries": primaries,
                "skew": summaries.iter().map(|s| (s.metric.name().to_owned(), serde_json::json!(s.skew))).collect::<serde_json::Map<_, _>>(),
                "top": slots(&chosen.top),
                "hot": remedies.iter().zip(&remedy_text).map(|(r, text)| {
                    let mut j = super::remedy::json(r, topology, text);
                    j["value"] = r.hot.amount.into();
                    j["addr"] = addr(r.hot.slot).into();
                    j
                }).collect::<Vec<_>>(),
            });
            writeln!(out, "{}", serde_json::to_string_pretty(&json)?)?;
        }
        Format::Svg => {
            let values = load.require(by).map_err(explain)?;
            let unit = if by.unit() == by.name() {
                String::new()
            } else {
                format!(" ({})", by.unit())
            };
            let weighed = if args.weights.given() {
                ", fair shares by --weight"
            } else {
                ""
            };
            let title = format!("{by}{unit} per slot, from {source}{weighed}");
            let notes = slotgen_cluster::MapNotes {
                hashtags: super::remedy::map_hashtags(&remedies),
                remedies: super::remedy::map_remedies(&remedies, &remedy_text, topology, false),
                ..slotgen_cluster::MapNotes::default()
            };
            // the whole remedies, with their commands, where a command can be copied from
            for text in &remedy_text {
                say!("slotgen: note: {}", super::remedy::line(text));
            }
            let map = chosen.slot_map(&title, values, topology, &notes);
            out.write_all(map.render().as_bytes())?;
        }
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
