//! `slotgen rebalance`: a plan of slot moves that evens out a metric of load over the
//! primaries ([`slotgen_cluster::plan`]), printed, as the servers' commands, or applied.

use std::io::Write;
use std::process::ExitCode;

use anyhow::{anyhow, Result};

use serde_json::json;
use slotgen::text::{escape_controls, field};
use slotgen_cluster::grant::Run;
use slotgen_cluster::transport::ConnectOptions;
use slotgen_cluster::{self as cluster, Dialect, Limits, Metric, Planned, SlotLoad, Topology};

use super::cluster::explain;
use super::remedy::{self, HotRemedy};

mod apply;
mod args;
mod notes;

#[cfg(test)]
use super::skew_text::floor_text;
use apply::{apply_file, carry_out, claim, finish_half_moved, shell, wait_for_jobs};
pub use args::RebalanceArgs;
use args::{DialectArg, Format};
use notes::notes;
#[cfg(test)]
use notes::{rounded_up_below, skew_against};

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
    for text in &args.weight {
        weight_option(text)?;
    }
    let url = &args.server.redis;
    let options = args.server.connect.options(url, None)?;
    run_with(args, &options).map_err(|e| {
        let (name, run, given) = rights(args);
        super::cluster::with_whole_run_grant(e, name, || {
            super::cluster::as_sent(run, given, &args.server, &options)
        })
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
    weights(&load.topology, &args.weight)?;
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
    super::cluster::note_load(url, &load)?;
    let keys = load.require(Metric::Keys)?;
    let weights = weights(topology, &args.weight)?;
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
    let planned = cluster::plan_receiving(amounts, keys, &owners, &weights, &limits, &receiving)?;
    let plan = &planned.plan;
    // the remedies on the map as the plan leaves it
    let mut after = owners.clone();
    for m in &plan.moves {
        after[usize::from(m.slot)] = Some(m.to);
    }
    let hot: Vec<HotRemedy> = remedy::remedies(
        rights(args),
        &args.server,
        &options,
        topology,
        &planned.hot,
        args.by(),
        amounts,
        &after,
        &weights,
    );
    let hot_text: Vec<String> = hot
        .iter()
        .map(|r| remedy::text(r, args.by(), topology, !plan.moves.is_empty()))
        .collect();
    for note in receiving.notes(topology) {
        say!("slotgen: note: {note}");
    }
    for note in notes(&planned, args, topology) {
        say!("slotgen: note: {note}");
    }
    if let Some(out) = &args.out {
        let file = cluster::PlanFile::new(plan, topology, args.by().name());
        std::fs::write(out, serde_json::to_string_pretty(&file)? + "\n").map_err(|e| {
            anyhow!(
                "cannot write the plan to `{}`: {}",
                slotgen::text::escape_cut(out.as_os_str().as_encoded_bytes()),
                slotgen::text::os_reason(&e)
            )
        })?;
        say!(
            "slotgen: note: the plan is in `{}`: review it, then carry out exactly those moves with `slotgen rebalance --redis URL --apply --plan {}`",
            slotgen::text::escape_cut(out.as_os_str().as_encoded_bytes()),
            slotgen::text::escape_cut(out.as_os_str().as_encoded_bytes())
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
            let cli = if version.starts_with("valkey") {
                "valkey-cli"
            } else {
                "redis-cli"
            };
            Some((dialect, shell(args, cli)?))
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
                    field(text.as_bytes())
                )?;
            }
            writeln!(out, "moved\t{}\t{}", plan.moves.len(), plan.keys_moved())?;
        }
        // with --apply, one object once the plan is carried out, `applied` in it
        Format::Json if args.apply => {}
        Format::Json => {
            let json = plan_json(&planned, args, topology, &load, &hot, &hot_text);
            writeln!(out, "{}", serde_json::to_string_pretty(&json)?)?;
        }
        Format::Svg => {
            let svg = pictures(&load, args, plan, &weights, &hot)?;
            out.write_all(svg.as_bytes())?;
        }
        Format::Commands => {
            let (dialect, shell) = dialect.as_ref().expect("asked above");
            write!(
                out,
                "{}",
                cluster::script(
                    plan,
                    topology,
                    *dialect,
                    args.batch as usize,
                    timeout,
                    shell
                )
            )?;
            // a comment of the script: on one line (controls escaped), and the command in
            // it as the shell reads it (no TSV doubling of its `\`: `$'p\x27w'`)
            for (r, text) in hot.iter().zip(&hot_text) {
                writeln!(out, "# slot {}: {}", r.hot.slot, escape_controls(text))?;
            }
        }
    }
    out.flush()?;
    drop(out);
    if args.apply {
        let report = || plan_json(&planned, args, topology, &load, &hot, &hot_text);
        // the dialect of the script printed above, when there is one
        let chosen = dialect.as_ref().map(|(d, _)| *d);
        let applied = carry_out(args, &options, plan, topology, chosen, &report)?;
        let mut out = std::io::stdout().lock();
        match args.format {
            Format::Json => {
                let mut json = plan_json(&planned, args, topology, &load, &hot, &hot_text);
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

/// The slot maps of `load` before and predicted after `plan`, side by side: the same
/// values of --by, the primaries in the same colours, the slots owned as the plan leaves
/// them.
fn pictures(
    load: &SlotLoad,
    args: &RebalanceArgs,
    plan: &cluster::Plan,
    weights: &[f64],
    hot: &[HotRemedy],
) -> Result<String> {
    let topology = &load.topology;
    let values = load.require(args.by())?;
    let mut owners = topology.owners();
    for m in &plan.moves {
        owners[usize::from(m.slot)] = Some(m.to);
    }
    let after = topology.with_owners(&owners);
    let notes = cluster::MapNotes {
        target: Some(args.target_skew),
        hashtags: remedy::map_hashtags(hot),
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
    let predicted = cluster::Summary::of(args.by(), values, &after, 0, weights)
        .map_err(explain)?
        .slot_map(
            &format!(
                "predicted after {}",
                super::plural(plan.moves.len() as u64, "move", "moves")
            ),
            values,
            &after,
            &notes,
        );
    Ok(slotgen_cluster::slot_map::side_by_side(&before, &predicted))
}

/// A `--weight NODE=W` option's node and weight, checked before any server is asked.
fn weight_option(text: &str) -> Result<(&str, f64)> {
    let Some((node, w)) = text.rsplit_once('=') else {
        return Err(crate::exit::usage(anyhow!(
            "--weight `{}` is not NODE=W: give a primary's id or host:port, `=`, and a number (`--weight 127.0.0.1:7000=2`)",
            field(text.as_bytes())
        )));
    };
    let w: f64 = w
        .parse()
        .ok()
        .filter(|w| cluster::WEIGHTS.contains(w))
        .ok_or_else(|| {
            crate::exit::usage(anyhow!(
                "--weight `{}`: {}",
                field(text.as_bytes()),
                cluster::WEIGHT_RULE
            ))
        })?;
    Ok((node, w))
}

/// One weight per shard of `topology`, from `NODE=W` options (1 for the others).
fn weights(topology: &Topology, given: &[String]) -> Result<Vec<f64>> {
    let mut weights = vec![1.0; topology.shards.len()];
    // the option that weighed each shard, to refuse a second
    let mut given_by: Vec<Option<&String>> = vec![None; topology.shards.len()];
    for text in given {
        let (node, w) = weight_option(text)?;
        let (shard, found) = topology
            .find(node)
            .map_err(|e| crate::exit::usage(anyhow!("--weight: {e}")))?;
        if shard.primary.id != found.id {
            return Err(crate::exit::usage(anyhow!(
                "--weight: {} is a replica: weigh its primary, {} ({})",
                field(node.as_bytes()),
                field(shard.primary.id.as_bytes()),
                field(shard.primary.addr.as_bytes())
            )));
        }
        let i = topology
            .shards
            .iter()
            .position(|s| s.primary.id == shard.primary.id)
            .expect("found in the shards");
        if let Some(first) = &given_by[i] {
            return Err(crate::exit::usage(anyhow!(
                "--weight `{}` and --weight `{}` both weigh {} ({}): give one --weight per primary",
                field(first.as_bytes()),
                field(text.as_bytes()),
                field(shard.primary.id.as_bytes()),
                field(shard.primary.addr.as_bytes())
            )));
        }
        given_by[i] = Some(text);
        weights[i] = w;
    }
    Ok(weights)
}

fn plan_json(
    planned: &Planned,
    args: &RebalanceArgs,
    topology: &Topology,
    load: &SlotLoad,
    hot: &[HotRemedy],
    hot_text: &[String],
) -> serde_json::Value {
    let plan = &planned.plan;
    let node = |shard: usize| {
        let n = &topology.shards[shard].primary;
        json!({ "id": n.id, "addr": n.addr })
    };
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

    /// A skew stays on its side of the target, and a floor is never printed above itself,
    /// each with the fewest decimals that do.
    #[test]
    fn skews_and_floors_are_printed_on_the_side_they_are() {
        for (skew, target, printed) in [
            (1.1002, 1.1, "1.1002"),
            (1.1049, 1.1, "1.105"),
            (1.5893, 1.1, "1.59"),
            (1.0998, 1.1, "1.10"),
            (1.0951, 1.095, "1.10"),
            (1.1001, 1.1001, "1.10"),
            (1.2, 1.1, "1.20"),
        ] {
            let shown = skew_against(skew, target);
            assert_eq!(shown, printed, "{skew} against {target}");
            let value: f64 = shown.parse().unwrap();
            assert_eq!(value > target, skew > target, "{skew} against {target}");
        }
        for (floor, printed) in [
            (1.3954, "1.395"),
            (1.41176, "1.41"),
            (1.2, "1.20"),
            (1.7999999999999998, "1.80"),
        ] {
            let shown = floor_text(floor);
            assert_eq!(shown, printed);
            assert!(shown.parse::<f64>().unwrap() <= floor + 1e-9);
        }
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
}
