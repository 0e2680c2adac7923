//! `slotgen rebalance`: a plan of slot moves that evens out a metric of load over the
//! primaries ([`slotgen_cluster::plan`]), printed, as the servers' commands, or applied.

use std::io::Write;
use std::process::ExitCode;

use anyhow::{anyhow, Result};

use serde_json::json;
use slotgen::text::field;
use slotgen_cluster::grant::Run;
use slotgen_cluster::transport::ConnectOptions;
use slotgen_cluster::{self as cluster, Dialect, Limits, Metric, Planned, SlotLoad, Topology};

use super::cluster::explain;
use super::remedy::{self, HotRemedy};
#[cfg(test)]
use super::weights::weights;
use super::weights::{primary_of, weight_option};

mod again;
mod apply;
mod args;
mod drained;
mod notes;

use super::shell::{cli_of, shell};
use again::{again, again_said, drain_taken_over, NEXT_RUN};
use apply::{apply_file, carry_out, claim, finish_half_moved, wait_for_jobs};
pub use args::RebalanceArgs;
use args::{DialectArg, Format};
use drained::{removals, Drained, Removals};
use notes::notes;
#[cfg(test)]
use notes::rounded_up_below;

pub fn run(args: &RebalanceArgs) -> Result<ExitCode> {
    if !cluster::TARGET_SKEWS.contains(&args.target_skew) {
        return Err(crate::exit::usage(anyhow!(
            "--target-skew {:?}: {}",
            args.target_skew,
            cluster::TARGET_SKEW_RULE
        )));
    }
    if let Some(gain) = args.min_gain.filter(|g| !cluster::MIN_GAINS.contains(g)) {
        return Err(crate::exit::usage(anyhow!(
            "--min-gain {gain:?}: {}",
            cluster::MIN_GAIN_RULE
        )));
    }
    if args.dialect.is_some() && args.format != Format::Commands && !args.apply {
        return Err(crate::exit::usage(anyhow!(
            "--dialect applies to --format commands and --apply only: add one, or remove --dialect"
        )));
    }
    if args.apply && args.dialect == Some(DialectArg::MigrationImport) {
        return Err(crate::exit::usage(anyhow!(
            "--apply --dialect migration-import: Redis 8.4's `CLUSTER MIGRATION` is printed only (`--format commands`), not carried out; give --dialect classic or migrateslots"
        )));
    }
    args.weights.check()?;
    let options = args.server.options(None)?;
    run_with(args, &options).map_err(|e| {
        let (name, run, given) = rights(args);
        let swap = e
            .downcast_ref::<cluster::Error>()
            .and_then(|e| drain_taken_over(args, e));
        let e = super::cluster::with_whole_run_grant(e, name, || {
            super::cluster::as_sent(run, given, &args.server, &options)
        });
        if matches!(crate::exit::Outcome::of(&e), crate::exit::Outcome::Failure) {
            let text = format!("{e:#}");
            let said = again_said(&text, swap.as_ref());
            if said != text {
                return anyhow!("{said}");
            }
        }
        e
    })
}

/// The command as a message names it, what it sends ([`slotgen_cluster::rights`]): the
/// plan, or the plan and its moves under --apply (in the classic dialect, which
/// [`super::cluster::as_sent`] makes the one --dialect gave, or else the seed's), and the
/// dialect --dialect gave.
fn rights(args: &RebalanceArgs) -> (&'static str, Run, Option<Dialect>) {
    let given = args.dialect.map(Dialect::from);
    if args.apply {
        (
            "rebalance --apply",
            Run::Apply(args.by(), Dialect::Classic, false),
            given,
        )
    } else {
        ("rebalance", Run::Plan(args.by()), given)
    }
}

/// [`run`] once the command line is checked, with the connection's options.
fn run_with(args: &RebalanceArgs, options: &ConnectOptions) -> Result<ExitCode> {
    let url = &args.server.redis;
    let options = options.clone();
    let timeout = args.server.timeout.get();
    if let Some(file) = &args.plan {
        if matches!(args.format, Format::Svg | Format::Commands) {
            return Err(crate::exit::usage(anyhow!(
                "--plan carries out a plan already reviewed: draw it (`--format svg`) or print its script (`--format commands`) without --apply, then --apply --plan FILE with --format tsv or json"
            )));
        }
        return apply_file(args, file, &options);
    }
    // one apply at a time: the claim is held until this run ends
    let _claim = if args.apply {
        Some(claim(args, &options)?)
    } else {
        None
    };
    if args.apply {
        // an atomic job under way (as a killed run leaves one) ends first, so that the
        // plan is made on the map it leaves; waiting changes nothing
        wait_for_jobs(args, &options)?;
    }
    let mut load = SlotLoad::fetch(url, &options, timeout).map_err(explain)?;
    // what the command line asks of the map, checked before anything is changed
    load.require(args.by())?;
    load.require(Metric::Keys)?;
    args.weights.of(&load.topology)?;
    drained(&load.topology, &args.drain, &args.weights.weight)?;
    if args.apply && !load.topology.migrations.is_empty() {
        finish_half_moved(args, &options)?;
        load = SlotLoad::fetch(url, &options, timeout).map_err(explain)?;
    }
    let topology = &load.topology;
    // refusals first, each one line: a metric not collected (saying why, the source
    // included), a slot in migration under --apply; then the notes `load` gives too
    let amounts = load.require(args.by())?;
    if args.apply {
        cluster::refuse_migrations(topology)?;
    }
    super::map_notes::note_load(&args.server.reach(&options), &load)?;
    let keys = load.require(Metric::Keys)?;
    let weights = args.weights.of(topology)?;
    let drained = drained(topology, &args.drain, &args.weights.weight)?;
    let owners = topology.owners();
    let limits = Limits {
        target: args.target_skew,
        max_moves: args.max_moves,
        min_gain: args.min_gain,
    };
    // which primary reads which one's `DUMP` payloads: the apply's rule, asked by the plan
    // (not read: the apply still checks each move before it sets anything)
    let receiving =
        cluster::Receiving::fetch(url, &options, timeout, topology).unwrap_or_else(|e| {
            say!(
                "slotgen: note: the primaries' versions were not read ({e}): the plan does not know which primary cannot read another's `DUMP` payloads; --apply checks each move before it sets anything"
            );
            cluster::Receiving::default()
        });
    let planned = cluster::plan_draining(
        amounts, keys, &owners, &weights, &drained, &limits, &receiving,
    )?;
    let plan = &planned.plan;
    // the remedies on the map as the plan leaves it
    let mut after = owners.clone();
    for m in &plan.moves {
        after[usize::from(m.slot)] = Some(m.to);
    }
    // split over the primaries that stay (a drained one's weight is no fair share of the
    // map after), each tag's shard then named in the whole map's indices
    let stay = Staying::of(topology, &planned.drained);
    let mut hot: Vec<HotRemedy> = remedy::remedies(
        rights(args),
        &args.server,
        &options,
        topology,
        &planned.hot,
        args.by(),
        amounts,
        &stay.owners(&after),
        &stay.weights(&weights),
    );
    for tag in hot
        .iter_mut()
        .flat_map(|r| r.split.iter_mut())
        .flat_map(|s| s.tags.iter_mut())
    {
        tag.shard = stay.shards[tag.shard];
    }
    let hot_text: Vec<String> = hot
        .iter()
        .map(|r| {
            remedy::text(
                r,
                args.by(),
                topology,
                Some(args.target_skew),
                !plan.moves.is_empty(),
            )
        })
        .collect();
    for note in receiving.notes(topology) {
        say!("slotgen: note: {note}");
    }
    for note in notes(&planned, args, topology) {
        say!("slotgen: note: {note}");
    }
    if let Some(note) = slot_share_note(&planned, args, topology, &owners, &weights) {
        say!("slotgen: note: {note}");
    }
    for note in raised_skews(&load, args.by(), (&owners, &weights), (&after, &stay)) {
        say!("slotgen: note: {note}");
    }
    if let Some(note) = load.replicas_note(args.by()) {
        say!("slotgen: note: {note}");
    }
    if planned.drained.is_empty() {
        if let Some(note) = split_first(&hot, plan, amounts, (&owners, &weights)) {
            say!("slotgen: note: {note}");
        }
    }
    // the drained primaries: what leaves them, and the command that removes each after
    let drains = removals(
        &args.server.reach(&options),
        topology,
        &drained_of(topology, &planned),
    )?;
    drains.say();
    if let Some(out) = &args.out {
        let file = cluster::PlanFile::new(plan, topology, args.by().name(), &planned.drained);
        std::fs::write(out, serde_json::to_string_pretty(&file)? + "\n").map_err(|e| {
            anyhow!(
                "cannot write the plan to `{}`: {}",
                slotgen::text::path(out),
                slotgen::text::os_reason(&e)
            )
        })?;
        say!(
            "slotgen: note: the plan is in `{}`: review it, then carry out exactly those moves with `slotgen rebalance --redis URL --apply --plan {}`",
            slotgen::text::path(out),
            slotgen::text::shell_quote(out.as_os_str().as_encoded_bytes())
        );
    }
    let dialect = match args.format {
        Format::Commands => {
            let (server, version) =
                cluster::server_dialect(url, &options, timeout).map_err(explain)?;
            // the script is the one --apply carries out: apply's choice, wherever the
            // server has an atomic migration slotgen can run (Redis 8.4's is printed only)
            let mut said_caution = false;
            let dialect = if args.apply || server == Dialect::Migrateslots {
                let chosen =
                    cluster::apply_dialect(url, &options, timeout, args.dialect.map(Dialect::from))
                        .map_err(explain)?;
                if let Some(caution) = &chosen.caution {
                    say!("slotgen: note: {caution}");
                    said_caution = true;
                }
                chosen.dialect
            } else {
                args.dialect.map_or(server, Dialect::from)
            };
            // the server's version alone where no caution said why the dialect is this one
            // (a mixed cluster's names the primary that decides it)
            if !said_caution {
                say!("slotgen: note: the server is {version}: the {dialect} dialect");
            }
            let shell = shell(&args.server.redis, &args.server.connect, cli_of(&version))?;
            Some((dialect, shell))
        }
        _ => None,
    };
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let show = |s: Option<f64>| s.map_or_else(|| "-".to_owned(), |s| format!("{s:.4}"));
    let node = |shard: usize| &topology.shards[shard].primary;
    match args.format {
        Format::Tsv => {
            writeln!(
                out,
                "skew\t{}\tbefore\t{}\tpredicted\t{}\ttarget\t{}",
                args.by(),
                show(plan.skew_before),
                show(plan.skew_after),
                args.target_skew
            )?;
            for m in &plan.moves {
                let (from, to) = (node(m.from), node(m.to));
                writeln!(
                    out,
                    "move\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
                    m.slot,
                    field(from.id.as_bytes()),
                    field(from.addr.as_bytes()),
                    field(to.id.as_bytes()),
                    field(to.addr.as_bytes()),
                    m.keys,
                    m.amount
                )?;
            }
            for (r, text) in hot.iter().zip(&hot_text) {
                writeln!(
                    out,
                    "hot\t{}\t{}\t{}",
                    r.hot.slot,
                    r.hot.amount,
                    remedy::line(text)
                )?;
            }
            drains.write_tsv(&mut out)?;
            // with --apply the plan's total is what is to be done, not what was: `planned`,
            // then `applied` once done or `stopped` (a script reading `^moved` took a
            // stopped run's plan for moves done)
            let total = if args.apply { "planned" } else { "moved" };
            writeln!(out, "{total}\t{}\t{}", plan.moves.len(), plan.keys_moved())?;
        }
        // with --apply, one object once the plan is carried out, `applied` in it
        Format::Json if args.apply => {}
        Format::Json => {
            let json = plan_json(&planned, args, topology, &load, &hot, &hot_text, &drains);
            writeln!(out, "{}", serde_json::to_string_pretty(&json)?)?;
        }
        Format::Svg => {
            let svg = pictures(&load, args, &planned, &weights, (&hot, &hot_text))?;
            out.write_all(svg.as_bytes())?;
            // the whole remedies, with their commands, where a command can be copied from
            for text in &hot_text {
                say!("slotgen: note: {}", remedy::line(text));
            }
        }
        Format::Commands => {
            let (dialect, shell) = dialect.as_ref().expect("asked above");
            let script = cluster::script(
                plan,
                topology,
                *dialect,
                args.batch as usize,
                timeout,
                shell,
            );
            // the header's advice for a slot left half moved, as the whole command (on
            // the comment's one line)
            let again = again(None);
            let script = if again.contains('\n') {
                script
            } else {
                script.replacen(NEXT_RUN, &format!("`{again}`"), 1)
            };
            write!(out, "{script}")?;
            // a comment of the script: on one line, and the command in it as the shell
            // reads it (no doubling of its `\`: `$'p\x27w'`)
            for (r, text) in hot.iter().zip(&hot_text) {
                writeln!(out, "# slot {}: {}", r.hot.slot, remedy::line(text))?;
            }
        }
    }
    out.flush()?;
    drop(out);
    if args.apply {
        let report = || plan_json(&planned, args, topology, &load, &hot, &hot_text, &drains);
        // the dialect of the script printed above, when there is one
        let chosen = dialect.as_ref().map(|(d, _)| *d);
        let applied = carry_out(args, &options, plan, topology, chosen, &report)?;
        let mut out = std::io::stdout().lock();
        match args.format {
            Format::Json => {
                let mut json = plan_json(&planned, args, topology, &load, &hot, &hot_text, &drains);
                json["applied"] = json!(applied);
                writeln!(out, "{}", serde_json::to_string_pretty(&json)?)?;
            }
            Format::Tsv => writeln!(out, "applied\t{}\t{}", applied.moves, applied.keys)?,
            // the picture is whole already; the moves were said on stderr
            Format::Svg => {}
            Format::Commands => writeln!(
                out,
                "# applied: {}, {}",
                super::plural(applied.moves as u64, "slot", "slots"),
                super::plural(applied.keys, "key", "keys")
            )?,
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Where splitting the first hot slot's hashtag on the map as it is (no move) gives a lower
/// skew than the plan's moves (with their own split after): the note that says to split
/// first and plan again, with both figures. A newcomer's plan of 996 moves and a split
/// predicted 1.25 where `load`'s split alone, with no move, gave 1.00: a plan should not move
/// what a rename evens out. `None` where no hot slot has a split, or the plan does as well.
fn split_first(
    hot: &[HotRemedy],
    plan: &cluster::Plan,
    amounts: &[u64],
    (owners, weights): (&[Option<usize>], &[f64]),
) -> Option<String> {
    if plan.moves.is_empty() {
        return None;
    }
    let slots: Vec<u16> = hot.iter().map(|r| r.hot.slot).collect();
    let first = hot.first()?;
    let sample = first.sample.as_ref().filter(|s| s.one_key().is_none())?;
    let top = sample.hashtags.iter().find(|t| t.braced)?;
    let alone = cluster::split(
        &first.hot,
        (top, sample.basis),
        amounts,
        owners,
        weights,
        &slots,
    )?
    .skew_after?;
    // what the plan reaches: its own split's, where it has one, else its moves'
    let planned = first
        .split
        .as_ref()
        .and_then(|s| s.skew_after)
        .or(plan.skew_after)?;
    (alone < planned - 0.005).then(|| {
        format!(
            "split `{}` of slot {} first: on the map as it is, with no move, its split gives the skew {alone:.2}, where this plan's {} and its split give {planned:.2}; `slotgen load` prints that split (its `remedy` line), then plan again",
            slotgen::text::escape(&top.hashtag),
            first.hot.slot,
            super::plural(plan.moves.len() as u64, "move", "moves"),
        )
    })
}

/// The slot maps of `load` before and predicted after `plan`, side by side: the same
/// values of --by, the primaries in the same colours, the slots owned as the plan leaves
/// them, and under the predicted one the remedies of the hot slots (`hot` with their
/// `hot_text`), which are made on that map.
fn pictures(
    load: &SlotLoad,
    args: &RebalanceArgs,
    planned: &Planned,
    weights: &[f64],
    (hot, hot_text): (&[HotRemedy], &[String]),
) -> Result<String> {
    let plan = &planned.plan;
    let topology = &load.topology;
    let values = load.require(args.by())?;
    let mut owners = topology.owners();
    for m in &plan.moves {
        owners[usize::from(m.slot)] = Some(m.to);
    }
    // after, the primaries that stay (a drained one is gone from the picture, as from the
    // skew the plan predicts)
    let stay = Staying::of(topology, &planned.drained);
    let after = stay.topology.with_owners(&stay.owners(&owners));
    let after_weights = stay.weights(weights);
    let notes = cluster::MapNotes {
        target: Some(args.target_skew),
        hashtags: remedy::map_hashtags(hot),
        remedies: Vec::new(),
    };
    // the remedies are made on the map the plan leaves: drawn under the predicted one
    let after_notes = cluster::MapNotes {
        remedies: remedy::map_remedies(hot, hot_text, topology, !plan.moves.is_empty()),
        ..notes.clone()
    };
    let unit = if args.by().unit() == args.by().name() {
        String::new()
    } else {
        format!(" ({})", args.by().unit())
    };
    let before = cluster::Summary::of(args.by(), values, topology, 0, weights)
        .map_err(explain)?
        .slot_map(
            &format!("before: {}{unit} per slot", args.by()),
            values,
            topology,
            &notes,
        );
    let predicted = cluster::Summary::of(args.by(), values, &after, 0, &after_weights)
        .map_err(explain)?
        .slot_map(
            &format!(
                "predicted after {}",
                super::plural(plan.moves.len() as u64, "move", "moves")
            ),
            values,
            &after,
            &after_notes,
        );
    Ok(slotgen_cluster::slot_map::side_by_side(&before, &predicted))
}

/// The primaries that stay after a plan that drains some (all of them otherwise): the map
/// with those shards only, and the whole map's shard indices of theirs, in order.
struct Staying {
    topology: Topology,
    shards: Vec<usize>,
}

impl Staying {
    fn of(topology: &Topology, drained: &[usize]) -> Self {
        let shards: Vec<usize> = (0..topology.shards.len())
            .filter(|s| !drained.contains(s))
            .collect();
        let mut stay = topology.clone();
        stay.shards = shards.iter().map(|&s| topology.shards[s].clone()).collect();
        Staying {
            topology: stay,
            shards,
        }
    }

    /// `owners` (whole-map shard indices, none of a drained shard) in this map's indices.
    fn owners(&self, owners: &[Option<usize>]) -> Vec<Option<usize>> {
        owners
            .iter()
            .map(|o| o.and_then(|o| self.shards.iter().position(|&s| s == o)))
            .collect()
    }

    /// The weights of the shards that stay.
    fn weights(&self, weights: &[f64]) -> Vec<f64> {
        self.shards.iter().map(|&s| weights[s]).collect()
    }
}

/// The primaries `planned` drains, each with the slots and keys it gives away and its
/// replicas, as the removal list names them.
fn drained_of(topology: &Topology, planned: &Planned) -> Vec<Drained> {
    planned
        .drained
        .iter()
        .map(|&shard| {
            let s = &topology.shards[shard];
            let leaving = planned.plan.moves.iter().filter(|m| m.from == shard);
            Drained {
                id: s.primary.id.clone(),
                addr: s.primary.addr.clone(),
                slots: leaving.clone().count(),
                keys: leaving.map(|m| m.keys).sum(),
                replicas: s
                    .replicas
                    .iter()
                    .map(|r| (r.id.clone(), r.addr.clone()))
                    .collect(),
            }
        })
        .collect()
}

/// How much a plan must raise another metric's skew, and to how much at least, for a note:
/// a plan orders by one metric and moves slots that carry the others.
const RAISED: (f64, f64) = (0.1, 1.2);

/// One note for each other metric collected whose skew the plan raises by [`RAISED`]: the
/// skew before (on `before`'s map and weights) and after (on `after`'s, over the primaries
/// that stay).
fn raised_skews(
    load: &SlotLoad,
    by: Metric,
    before: (&[Option<usize>], &[f64]),
    (after, stay): (&[Option<usize>], &Staying),
) -> Vec<String> {
    let metrics = load.metrics().filter_map(|m| Some((m, load.get(m)?)));
    raised(
        metrics,
        by,
        before,
        (&stay.owners(after), &stay.weights(before.1)),
    )
}

/// [`raised_skews`] of `metrics` (each with its 16384 values, or as many as `owners`).
fn raised<'a>(
    metrics: impl Iterator<Item = (Metric, &'a [u64])>,
    by: Metric,
    (owners, weights): (&[Option<usize>], &[f64]),
    (after, after_weights): (&[Option<usize>], &[f64]),
) -> Vec<String> {
    metrics
        .filter(|&(m, _)| m != by)
        .filter_map(|(metric, values)| {
            let skew = |owners: &[Option<usize>], weights: &[f64]| {
                cluster::weighted_skew(
                    &cluster::shard_totals(values, owners, weights.len()),
                    weights,
                )
            };
            let (was, will) = (skew(owners, weights)?, skew(after, after_weights)?);
            (will >= was + RAISED.0 && will >= RAISED.1).then(|| {
                format!(
                    "the plan raises the skew by `{metric}` from {was:.2} to {will:.2}: it orders by `{by}` alone (a plan `--by {}` weighs that one)",
                    metric.name()
                )
            })
        })
        .collect()
}

/// The note of the primaries whose share of the slots after the plan is far from their
/// share of the metric ([`Planned::slot_shares_apart`]), on one line; `None` where none is.
fn slot_share_note(
    planned: &Planned,
    args: &RebalanceArgs,
    topology: &Topology,
    owners: &[Option<usize>],
    weights: &[f64],
) -> Option<String> {
    let apart = planned.slot_shares_apart(owners, weights);
    let first = apart.first()?;
    let pct = |f: f64| format!("{:.1}%", 100.0 * f);
    let each = apart
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let addr = field(topology.shards[s.shard].primary.addr.as_bytes());
            if i == 0 {
                format!(
                    "{addr} will own {} of the slots and {} of the {} (a fair share is {})",
                    pct(s.slots),
                    pct(s.metric),
                    args.by(),
                    pct(s.fair)
                )
            } else {
                format!("{addr} {} and {}", pct(s.slots), pct(s.metric))
            }
        })
        .collect::<Vec<_>>()
        .join(", ");
    Some(format!(
        "{each}: keys added later over many hashtags land by share of the slots (new keys spread so put {} of them on {}), so these shares drift apart from the plan's as the data grows; plan again then",
        pct(first.slots),
        field(topology.shards[first.shard].primary.addr.as_bytes())
    ))
}

/// The shards `--drain` names, each once, none also weighed by `--weight`.
fn drained(topology: &Topology, drain: &[String], weight: &[String]) -> Result<Vec<usize>> {
    let weighed: Vec<(usize, &String)> = weight
        .iter()
        .map(|w| Ok((primary_of(topology, "--weight", weight_option(w)?.0)?, w)))
        .collect::<Result<_>>()?;
    let mut shards: Vec<usize> = Vec::new();
    for node in drain {
        // a replica owns no slot: a drained primary turns one (of the node that took its
        // last slot), and so does a primary that failed over (of its replica that took its
        // place, with its slots); the map cannot tell the two apart, so both are said, each
        // with what to run
        if let Ok((shard, found)) = topology.find(node) {
            if shard.primary.id != found.id {
                let primary = field(shard.primary.addr.as_bytes());
                let owns = shard.slot_count();
                let failed_over = if owns == 0 {
                    format!("; {primary} owns no slot either: nothing to drain")
                } else {
                    format!(": if it failed over (a stop of `--apply` says so), {primary}, its replica then, took its place and holds what it had ({owns} slots): drain that one, `--drain {primary}`; if it gave its last slot away (a drained primary turns replica of the node that took that slot), its drain is done")
                };
                return Err(crate::exit::usage(anyhow!(
                    "--drain: {} ({}) is a replica of {} ({}) and owns no slot{failed_over}; `--cluster del-node` removes a node that owns no slot from the cluster",
                    field(node.as_bytes()),
                    field(found.id.as_bytes()),
                    field(shard.primary.id.as_bytes()),
                    primary,
                )));
            }
        }
        let shard = primary_of(topology, "--drain", node)?;
        let primary = &topology.shards[shard].primary;
        if shards.contains(&shard) {
            return Err(crate::exit::usage(anyhow!(
                "--drain names {} ({}) twice: give one --drain per primary",
                field(primary.id.as_bytes()),
                field(primary.addr.as_bytes())
            )));
        }
        if let Some((_, w)) = weighed.iter().find(|(s, _)| *s == shard) {
            return Err(crate::exit::usage(anyhow!(
                "--drain {} and --weight `{}` name the same primary, {} ({}): a drained primary keeps no load to weigh; remove the --weight",
                field(node.as_bytes()),
                field(w.as_bytes()),
                field(primary.id.as_bytes()),
                field(primary.addr.as_bytes())
            )));
        }
        shards.push(shard);
    }
    if !shards.is_empty() && shards.len() == topology.shards.len() {
        return Err(crate::exit::usage(anyhow!(
            "--drain names every primary: no primary would be left to take the slots; keep one at least"
        )));
    }
    Ok(shards)
}

fn plan_json(
    planned: &Planned,
    args: &RebalanceArgs,
    topology: &Topology,
    load: &SlotLoad,
    hot: &[HotRemedy],
    hot_text: &[String],
    drains: &Removals,
) -> serde_json::Value {
    let plan = &planned.plan;
    let node = |shard: usize| {
        let n = &topology.shards[shard].primary;
        json!({ "id": n.id, "addr": n.addr })
    };
    let (drained, forget) = drains.json();
    json!({
        "metric": args.by(),
        "unit": args.by().unit(),
        "source": load.source,
        // slots no primary owns: no load counted, none moved (issue 31)
        "unowned": load.topology.unowned(),
        "target": plan.target,
        "min_gain": planned.min_gain,
        "max_moves": args.max_moves,
        "skew_before": plan.skew_before,
        "skew_after": plan.skew_after,
        "reached": plan.reached,
        "floor": planned.floor,
        "goal": planned.goal,
        "stop": planned.stop,
        "moves_lower_bound": planned.moves_lower_bound,
        "minimal": planned.minimal,
        "keys_moved": plan.keys_moved(),
        "moves": plan.moves.iter().map(|m| json!({
            "slot": m.slot,
            "from": node(m.from),
            "to": node(m.to),
            "keys": m.keys,
            "amount": m.amount,
        })).collect::<Vec<_>>(),
        "hot": hot.iter().zip(hot_text).map(|(r, text)| remedy::json(r, topology, text)).collect::<Vec<_>>(),
        "drained": drained,
        "forget": forget,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use slotgen_cluster::{Node, Role, Shard, SlotRange, Source};

    /// Two primaries, ids `000...0a` and `...0b`, at 127.0.0.1:7000 and 7001.
    fn topology() -> Topology {
        let shard = |n: u16, first: u16, last: u16| Shard {
            primary: Node {
                id: format!("{:0>40}", format!("{:x}", 10 + n)),
                addr: format!("127.0.0.1:{}", 7000 + n),
                role: Role::Primary,
                health: Some("online".to_owned()),
            },
            replicas: Vec::new(),
            ranges: vec![SlotRange { first, last }],
        };
        Topology {
            shards: vec![shard(0, 0, 8191), shard(1, 8192, 16383)],
            left_out: Vec::new(),
            migrations: Vec::new(),
            source: Source::ClusterShards,
        }
    }

    /// The printed target admits the least one (it is not below it) and stays below the
    /// skew the plan leaves, with the fewest decimals that do.
    #[test]
    fn the_least_target_is_printed_rounded_up_below_the_skew() {
        for (t, limit, printed) in [
            (1.5, Some(1.714), "1.50"),
            (1.5000000000000002, Some(1.714), "1.51"),
            (1.501, Some(1.505), "1.501"),
            (1.5015, Some(1.5019), "1.5015"),
            (1.25, Some(1.2500001), "1.25"),
            (1.2500001, Some(1.2500002), "1.2500001"),
            (1.234, None, "1.24"),
        ] {
            let shown = rounded_up_below(t, limit);
            assert_eq!(shown, printed, "{t} below {limit:?}");
            let value: f64 = shown.parse().unwrap();
            assert!(value >= t && limit.is_none_or(|l| value < l));
        }
    }

    #[test]
    fn a_skew_the_plan_raises_is_noted() {
        // slot 1 (90 of the CPU) moves from shard 1 to shard 2: CPU 0 | 90 | 10 (skew 90 /
        // 33.3 = 2.70) becomes 0 | 0 | 100 (3.00); the keys, one a slot, 1 | 1 | 1 (1.00)
        // become 1 | 0 | 2 (2.00)
        let (keys, cpu) = ([1u64, 1, 1], [0u64, 90, 10]);
        let metrics = [(Metric::Keys, &keys[..]), (Metric::Cpu, &cpu[..])];
        let before = ([Some(0), Some(1), Some(2)], [1.0; 3]);
        let after = [Some(0), Some(2), Some(2)];
        let notes = super::raised(
            metrics.into_iter(),
            Metric::Keys,
            (&before.0, &before.1),
            (&after, &before.1),
        );
        assert_eq!(
            notes,
            ["the plan raises the skew by `cpu` from 2.70 to 3.00: it orders by `keys` alone (a plan `--by cpu` weighs that one)"]
        );
        // a raise below 0.1 says nothing: slot 3 (2) moves from shard 2 to shard 1, CPU
        // 0 | 50 | 50 (1.50) becomes 0 | 52 | 48 (1.56)
        let cpu = [0u64, 50, 48, 2];
        let metrics = [(Metric::Cpu, &cpu[..])];
        let before = [Some(0), Some(1), Some(2), Some(2)];
        let after = [Some(0), Some(1), Some(2), Some(1)];
        assert!(super::raised(
            metrics.into_iter(),
            Metric::Keys,
            (&before, &[1.0; 3]),
            (&after, &[1.0; 3])
        )
        .is_empty());
    }

    #[test]
    fn weights_are_bounded_and_given_once() {
        let t = topology();
        let a = format!("{:0>40}", "a");
        let given =
            |w: &[&str]| weights(&t, &w.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>());
        assert_eq!(given(&["127.0.0.1:7001=2.5"]).unwrap(), [1.0, 2.5]);
        assert_eq!(
            given(&["127.0.0.1:7000=0.001", "127.0.0.1:7001=1000"]).unwrap(),
            [0.001, 1000.0]
        );
        for (w, says) in [
            (
                vec!["127.0.0.1:7000=1e-300"],
                "--weight `127.0.0.1:7000=1e-300`: a weight is a number from 0.001 to 1000",
            ),
            (vec!["127.0.0.1:7000=1001"], "from 0.001 to 1000"),
            // valkey-cli's way to empty a primary, pointed to slotgen's
            (
                vec!["127.0.0.1:7000=0"],
                "to empty a primary so that it can leave the cluster, give `slotgen rebalance --drain 127.0.0.1:7000`",
            ),
            (
                vec!["127.0.0.1:7000=2", "127.0.0.1:7000=3"],
                "--weight `127.0.0.1:7000=2` and --weight `127.0.0.1:7000=3` both weigh",
            ),
        ] {
            let e = given(&w).unwrap_err();
            assert!(e.to_string().contains(says), "{e}");
            assert!(
                matches!(crate::exit::Outcome::of(&e), crate::exit::Outcome::Usage),
                "{e}"
            );
        }
        let by_id = format!("{a}=3");
        let e = given(&["127.0.0.1:7000=2", &by_id])
            .unwrap_err()
            .to_string();
        assert!(
            e.contains(&format!("both weigh {a} (127.0.0.1:7000)")),
            "{e}"
        );
    }

    #[test]
    fn a_drain_names_each_primary_once_unweighed_and_leaves_one() {
        let t = topology();
        let list = |v: &[&str]| v.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        assert_eq!(drained(&t, &list(&["127.0.0.1:7001"]), &[]).unwrap(), [1]);
        for (drain, weight, says) in [
            (
                vec!["127.0.0.1:7000", "127.0.0.1:7001"],
                vec![],
                "--drain names every primary",
            ),
            (vec!["127.0.0.1:7001", "127.0.0.1:7001"], vec![], "twice"),
            (
                vec!["127.0.0.1:7001"],
                vec!["127.0.0.1:7001=2"],
                "--drain 127.0.0.1:7001 and --weight `127.0.0.1:7001=2` name the same primary",
            ),
        ] {
            let e = drained(&t, &list(&drain), &list(&weight)).unwrap_err();
            assert!(e.to_string().contains(says), "{e}");
            assert!(
                matches!(crate::exit::Outcome::of(&e), crate::exit::Outcome::Usage),
                "{e}"
            );
        }
    }

    /// The map after a drain: the staying shards in order, owners and weights on them.
    #[test]
    fn the_staying_view_drops_the_drained_shards() {
        let mut t = topology();
        let mut third = t.shards[1].clone();
        third.primary.addr = "127.0.0.1:7002".to_owned();
        t.shards.push(third);
        let stay = Staying::of(&t, &[1]);
        assert_eq!(stay.shards, [0, 2]);
        assert_eq!(stay.topology.shards[1].primary.addr, "127.0.0.1:7002");
        assert_eq!(
            stay.owners(&[Some(2), None, Some(0)]),
            [Some(1), None, Some(0)]
        );
        assert_eq!(stay.weights(&[1.0, 2.0, 3.0]), [1.0, 3.0]);
    }
}
