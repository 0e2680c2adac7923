//! `slotgen rebalance`: a plan of slot moves that evens out a metric of load over the
//! primaries ([`slotgen::cluster::plan`]), printed, as the servers' commands, or applied.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use anyhow::{anyhow, Result};
use clap::{Args, ValueEnum};
use serde_json::json;
use slotgen::cluster::{self, Dialect, Metric, Plan, SlotLoad, Topology};
use slotgen::text::field;

use super::cluster::{explain, ServerArgs};

/// The form of `slotgen rebalance`'s output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    /// Tab-separated lines, each led by what it holds: `skew` (`before`, the skew now;
    /// `predicted`, after the moves; `target`), `move` (slot, from id, from address, to id,
    /// to address, keys, amount), `hot` (slot, amount, the remedy), `moved` (slots, keys),
    /// and with --apply `applied` (slots, keys).
    Tsv,
    /// One JSON object: `metric`, `unit`, `source`, `target`, `skew_before`, `skew_after`,
    /// `reached`, `keys_moved`, `moves` (`slot`, `from` and `to` with `id` and `addr`,
    /// `keys`, `amount`), `hot` (`slot`, `amount`, `remedy`); with --apply `applied`
    /// (`moves`, `keys`, `untold`: the primaries that did not answer the final `CLUSTER
    /// SETSLOT NODE`), printed once the plan is carried out.
    Json,
    /// A sh script that carries the plan out with the server's own CLI (valkey-cli or
    /// redis-cli, the connection options kept, the password from REDISCLI_AUTH), in the
    /// dialect of --dialect (by default the server's): `sh plan.sh`.
    Commands,
}

/// The dialect of `--format commands` and `--apply`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum DialectArg {
    /// CLUSTER SETSLOT IMPORTING/MIGRATING, CLUSTER GETKEYSINSLOT + MIGRATE, CLUSTER
    /// SETSLOT NODE: every version.
    Classic,
    /// CLUSTER MIGRATESLOTS on the source (Valkey 9.0 and later).
    Migrateslots,
    /// CLUSTER MIGRATION IMPORT on the target (Redis 8.4 and later).
    MigrationImport,
}

impl From<DialectArg> for Dialect {
    fn from(d: DialectArg) -> Dialect {
        match d {
            DialectArg::Classic => Dialect::Classic,
            DialectArg::Migrateslots => Dialect::Migrateslots,
            DialectArg::MigrationImport => Dialect::MigrationImport,
        }
    }
}

#[derive(Debug, Args)]
pub struct RebalanceArgs {
    #[command(flatten)]
    server: ServerArgs,
    /// The metric to even out: `keys`, `cpu`, `net-in`, `net-out`, `net` or `memory`, per
    /// slot from CLUSTER SLOT-STATS (keys by CLUSTER COUNTKEYSINSLOT on servers without it).
    #[arg(long, value_name = "METRIC", value_parser = super::load::metric_parser())]
    by: Metric,
    /// The highest skew allowed: the fullest primary's metric over its fair share (the
    /// total split by weight), from 1.0 to 100.
    #[arg(long, value_name = "RATIO", default_value_t = 1.10)]
    target_skew: f64,
    /// At most this many slot moves.
    #[arg(long, value_name = "N", default_value_t = 1000)]
    max_moves: usize,
    /// A primary's weight (by id or `host:port`; default 1), from 0.001 to 1000: a primary of
    /// weight 2 is meant to carry twice the load of one of weight 1. Repeat for several, once
    /// per primary.
    #[arg(long, value_name = "NODE=W")]
    weight: Vec<String>,
    /// The output form.
    #[arg(long, value_enum, default_value_t = Format::Tsv)]
    format: Format,
    /// The dialect of --format commands [default: from the server's INFO server: Valkey
    /// 9.0+ migrateslots, Redis 8.4+ migration-import, otherwise classic] and of --apply
    /// [default: migrateslots where every primary has CLUSTER MIGRATESLOTS, by COMMAND INFO;
    /// otherwise classic; migration-import is printed only].
    #[arg(long, value_enum)]
    dialect: Option<DialectArg>,
    /// The keys one CLUSTER GETKEYSINSLOT asks for and one MIGRATE carries.
    #[arg(long, value_name = "N", default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    batch: u32,
    /// Carry the plan out (each step within --timeout): one atomic CLUSTER MIGRATESLOTS job
    /// per pair of nodes (Valkey 9), or the classic sequence slot by slot, the keys of every
    /// database. A slot a former run left half moved is finished first; refused when the
    /// cluster's state is not `ok`. A failed step stops it, naming the slot, the two nodes
    /// and the repair; Ctrl-C (SIGINT) stops it after the slot in flight, none left
    /// migrating. A progress line on a terminal.
    #[arg(long)]
    apply: bool,
}

pub fn run(args: &RebalanceArgs) -> Result<ExitCode> {
    if !cluster::TARGET_SKEWS.contains(&args.target_skew) {
        return Err(crate::exit::usage(anyhow!(
            "--target-skew {:?}: {}",
            args.target_skew,
            cluster::TARGET_SKEW_RULE
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
    let url = &args.server.redis;
    let options = args.server.connect.options(url, None)?;
    let timeout = args.server.timeout.get();
    let mut load = SlotLoad::fetch(url, &options, timeout).map_err(explain)?;
    if args.apply && !load.topology.migrations.is_empty() {
        // a former run's half-moved slot: finished before the plan is made on the map
        let finished =
            cluster::finish_moves(url, &options, args.batch as usize, timeout).map_err(explain)?;
        for f in &finished {
            eprintln!(
                "slotgen: finished the half-moved slot {} from {} to {}: {} keys moved{}",
                f.slot,
                field(f.from.as_bytes()),
                field(f.to.as_bytes()),
                f.keys,
                if f.resolved.is_empty() {
                    String::new()
                } else {
                    format!(
                        "; on both nodes with equal `DUMP`s, the source's copy deleted: {}",
                        field(f.resolved.join(", ").as_bytes())
                    )
                }
            );
        }
        load = SlotLoad::fetch(url, &options, timeout).map_err(explain)?;
    }
    let topology = &load.topology;
    // refusals first, each one line: a metric not collected (saying why, the source
    // included), a slot in migration under --apply; then the notes `load` gives too
    let amounts = load.require(args.by)?;
    if args.apply {
        cluster::refuse_migrations(topology)?;
    }
    super::cluster::note_load(url, &load)?;
    let keys = load.require(Metric::Keys)?;
    let weights = weights(topology, &args.weight)?;
    let owners = topology.owners();
    let plan = cluster::plan(
        amounts,
        keys,
        &owners,
        &weights,
        args.target_skew,
        args.max_moves,
    )?;
    let largest_cap = plan.caps.iter().copied().fold(0.0, f64::max);
    let hot: Vec<(u16, u64, String)> = plan
        .unreachable
        .iter()
        .map(|&slot| {
            let amount = amounts[usize::from(slot)];
            (
                slot,
                amount,
                remedy(url, slot, amount, largest_cap, topology),
            )
        })
        .collect();
    if let Some(why) = shortfall(&plan, hot.len(), args.max_moves) {
        eprintln!(
            "slotgen: note: the plan does not reach --target-skew {}: {why}",
            args.target_skew
        );
    }
    let dialect = match args.format {
        Format::Commands => {
            let (server, version) =
                cluster::server_dialect(url, &options, timeout).map_err(explain)?;
            let dialect = args.dialect.map_or(server, Dialect::from);
            eprintln!("slotgen: note: the server is {version}: the {dialect} dialect");
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
                args.by,
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
            for (slot, amount, remedy) in &hot {
                writeln!(out, "hot\t{slot}\t{amount}\t{}", field(remedy.as_bytes()))?;
            }
            writeln!(out, "moved\t{}\t{}", plan.moves.len(), plan.keys_moved())?;
        }
        // with --apply, one object once the plan is carried out, `applied` in it
        Format::Json if args.apply => {}
        Format::Json => {
            let json = plan_json(&plan, args, topology, &load, &hot);
            writeln!(out, "{}", serde_json::to_string_pretty(&json)?)?;
        }
        Format::Commands => {
            let (dialect, shell) = dialect.as_ref().expect("asked above");
            write!(
                out,
                "{}",
                cluster::script(
                    &plan,
                    topology,
                    *dialect,
                    args.batch as usize,
                    timeout,
                    shell
                )
            )?;
            for (slot, _, remedy) in &hot {
                writeln!(out, "# slot {slot}: {}", field(remedy.as_bytes()))?;
            }
        }
    }
    out.flush()?;
    drop(out);
    if args.apply {
        let interrupted: &'static AtomicBool = Box::leak(Box::new(AtomicBool::new(false)));
        // the first Ctrl-C asks for a stop after the slot in flight; a handler that cannot
        // be set (one is already) leaves the default
        let _ = ctrlc::set_handler(move || {
            if !interrupted.swap(true, Ordering::SeqCst) {
                eprintln!("\nslotgen: interrupted: finishing the slot in flight (or cancelling the job), then stopping");
            }
        });
        let how = cluster::ApplyOptions {
            batch: args.batch as usize,
            timeout,
            dialect: args.dialect.map(Dialect::from),
            interrupted,
        };
        let mut done = (0usize, 0u64);
        let mut line = Progress::new(plan.moves.len(), plan.keys_moved());
        let result = cluster::apply(url, &options, &plan, topology, &how, &mut |m, keys| {
            done = (done.0 + 1, done.1 + keys);
            if line.on_terminal {
                line.show(done.0, done.1);
            } else {
                eprintln!(
                    "slotgen: moved slot {} from {} to {}: {keys} keys",
                    m.slot,
                    field(node(m.from).addr.as_bytes()),
                    field(node(m.to).addr.as_bytes())
                );
            }
        });
        line.end();
        let applied = match result {
            Ok(applied) => applied,
            Err(e) => {
                if args.format == Format::Json {
                    // what was done before the stop, for a script to take up
                    let mut json = plan_json(&plan, args, topology, &load, &hot);
                    json["applied"] =
                        json!({ "moves": done.0, "keys": done.1, "stopped": e.to_string() });
                    writeln!(
                        std::io::stdout().lock(),
                        "{}",
                        serde_json::to_string_pretty(&json)?
                    )?;
                }
                return Err(explain(e));
            }
        };
        for node in &applied.untold {
            eprintln!(
                "slotgen: note: the primary {} did not answer `CLUSTER SETSLOT ... NODE`; the cluster's gossip tells it the new owners",
                field(node.as_bytes())
            );
        }
        let mut out = std::io::stdout().lock();
        match args.format {
            Format::Json => {
                let mut json = plan_json(&plan, args, topology, &load, &hot);
                json["applied"] = json!(applied);
                writeln!(out, "{}", serde_json::to_string_pretty(&json)?)?;
            }
            Format::Tsv => writeln!(out, "applied\t{}\t{}", applied.moves, applied.keys)?,
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

/// The progress line of `--apply` on a terminal (standard error): moves done, keys moved,
/// the rate and the time left at that rate, rewritten in place; nothing off a terminal.
struct Progress {
    on_terminal: bool,
    moves: usize,
    keys: u64,
    started: Instant,
    shown: bool,
}

impl Progress {
    fn new(moves: usize, keys: u64) -> Progress {
        Progress {
            on_terminal: std::io::stderr().is_terminal(),
            moves,
            keys,
            started: Instant::now(),
            shown: false,
        }
    }

    fn show(&mut self, moves: usize, keys: u64) {
        let secs = self.started.elapsed().as_secs_f64().max(1e-3);
        let rate = keys as f64 / secs;
        let left = if rate > 0.0 {
            format!("{:.0} s left", self.keys.saturating_sub(keys) as f64 / rate)
        } else {
            "time left unknown".to_owned()
        };
        eprint!(
            "\r\x1b[Kslotgen: {moves}/{} moves, {keys}/{} keys, {rate:.0} keys/s, {left}",
            self.moves, self.keys
        );
        self.shown = true;
    }

    fn end(&self) {
        if self.shown {
            eprintln!();
        }
    }
}

/// How the script of `--format commands` reaches the servers: `cli` with the connection
/// options given (`--tls` for a `rediss://` URL, `--cacert`, `--cert`, `--key`, `--sni`,
/// `--insecure`, `--user`), each quoted for `sh`; the password never in it: read from
/// `--password-file` by the script, or required in `REDISCLI_AUTH`.
fn shell(args: &RebalanceArgs, cli: &str) -> Result<cluster::Shell> {
    let c = &args.server.connect;
    let quote = |text: &str| -> Result<String> {
        shlex::try_quote(text).map(|q| q.into_owned()).map_err(|_| {
            crate::exit::usage(anyhow!(
                "`{}` cannot be quoted for `sh` (a NUL byte)",
                field(text.as_bytes())
            ))
        })
    };
    let url = &args.server.redis;
    let parsed = redis::parse_redis_url(url);
    let mut options = Vec::new();
    if c.tls || url.starts_with("rediss://") {
        options.push("--tls".to_owned());
    }
    for (name, path) in [
        ("--cacert", &c.cacert),
        ("--cert", &c.cert),
        ("--key", &c.key),
    ] {
        if let Some(path) = path {
            options.push(format!("{name} {}", quote(&path.to_string_lossy())?));
        }
    }
    if let Some(sni) = &c.sni {
        options.push(format!("--sni {}", quote(sni)?));
    }
    if c.insecure {
        options.push("--insecure".to_owned());
    }
    let user = c.user.clone().or_else(|| {
        parsed
            .as_ref()
            .map(|u| u.username().to_owned())
            .filter(|u| !u.is_empty())
    });
    if let Some(user) = &user {
        options.push(format!("--user {}", quote(user)?));
    }
    let password = if let Some(file) = &c.password_file {
        format!(
            "REDISCLI_AUTH=$(head -n 1 {})\nexport REDISCLI_AUTH",
            quote(&file.to_string_lossy())?
        )
    } else if c.askpass
        || parsed.as_ref().is_some_and(|u| u.password().is_some())
        || std::env::var_os(super::cluster::PASSWORD_VARIABLE).is_some()
    {
        ": \"${REDISCLI_AUTH:?set REDISCLI_AUTH to the cluster's password}\"".to_owned()
    } else {
        String::new()
    };
    Ok(cluster::Shell {
        cli: cli.to_owned(),
        options: options.join(" "),
        user: user.map(|u| quote(&u)).transpose()?.unwrap_or_default(),
        password,
    })
}

/// Why `plan` stops short of its target (`None` when it reaches it): the move limit when
/// `max_moves` moves were planned, else the `hot` slots, else no single move that helps.
fn shortfall(plan: &Plan, hot: usize, max_moves: usize) -> Option<String> {
    if plan.reached {
        None
    } else if plan.moves.len() >= max_moves {
        Some(format!(
            "--max-moves {max_moves} was reached; a larger --max-moves may reach the target"
        ))
    } else if hot > 0 {
        Some(format!(
            "{} alone {} more than any primary may (the `hot` lines)",
            super::plural(hot as u64, "slot", "slots"),
            if hot == 1 { "holds" } else { "hold" }
        ))
    } else {
        Some("no further single slot move lowers the fullest primary without taking another past the target; raise --target-skew".to_owned())
    }
}

/// One weight per shard of `topology`, from `NODE=W` options (1 for the others).
fn weights(topology: &Topology, given: &[String]) -> Result<Vec<f64>> {
    let mut weights = vec![1.0; topology.shards.len()];
    // the option that weighed each shard, to refuse a second
    let mut given_by: Vec<Option<&String>> = vec![None; topology.shards.len()];
    for text in given {
        let Some((node, w)) = text.rsplit_once('=') else {
            return Err(crate::exit::usage(anyhow!(
                "--weight `{}` is not NODE=W: give a primary's id or host:port, `=`, and a number (`--weight 127.0.0.1:7000=2`)",
                field(text.as_bytes())
            )));
        };
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

/// What to do about a hot slot: split its hashtag into as many tags as it takes to bring
/// each part under the largest primary's cap, on as many primaries.
fn remedy(url: &str, slot: u16, amount: u64, cap: f64, topology: &Topology) -> String {
    let parts = ((amount as f64 / cap).ceil() as usize)
        .max(2)
        .min(topology.shards.len().max(2));
    format!(
        "slot {slot} alone holds {amount}, more than any primary may ({cap:.0}): no slot move evens it out; split the hashtag of its keys into {parts} tags on {parts} primaries (`slotgen keys --redis {} --count {parts} --format keys --prefix PREFIX --suffix SUFFIX` gives one key of each), and spread the keys over them",
        slotgen::url::redact(url)
    )
}

fn plan_json(
    plan: &Plan,
    args: &RebalanceArgs,
    topology: &Topology,
    load: &SlotLoad,
    hot: &[(u16, u64, String)],
) -> serde_json::Value {
    let node = |shard: usize| {
        let n = &topology.shards[shard].primary;
        json!({ "id": n.id, "addr": n.addr })
    };
    json!({
        "metric": args.by,
        "unit": args.by.unit(),
        "source": load.source,
        "target": plan.target,
        "skew_before": plan.skew_before,
        "skew_after": plan.skew_after,
        "reached": plan.reached,
        "keys_moved": plan.keys_moved(),
        "moves": plan.moves.iter().map(|m| json!({
            "slot": m.slot,
            "from": node(m.from),
            "to": node(m.to),
            "keys": m.keys,
            "amount": m.amount,
        })).collect::<Vec<_>>(),
        "hot": hot.iter().map(|(slot, amount, remedy)| json!({
            "slot": slot, "amount": amount, "remedy": remedy,
        })).collect::<Vec<_>>(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use slotgen::cluster::{Node, Role, Shard, SlotRange, Source};

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

    #[test]
    fn the_note_names_the_move_limit() {
        // shard 0 holds 40 of 50 in eight slots of 5: three moves to reach 1.1 (25 | 25)
        let amounts = [5, 5, 5, 5, 5, 5, 5, 5, 10];
        let mut owners = [Some(0); 9];
        owners[8] = Some(1);
        for max in [0, 1] {
            let p = cluster::plan(&amounts, &amounts, &owners, &[1.0, 1.0], 1.1, max).unwrap();
            let why = shortfall(&p, 0, max).unwrap();
            assert!(
                why.contains(&format!("--max-moves {max} was reached")),
                "{why}"
            );
        }
        let p = cluster::plan(&amounts, &amounts, &owners, &[1.0, 1.0], 1.1, 10).unwrap();
        assert_eq!(shortfall(&p, 0, 10), None);
        // one hot slot: 90 of 100 on slot 0
        let p = cluster::plan(
            &[90, 5, 5],
            &[1, 1, 1],
            &[Some(0), Some(0), Some(1)],
            &[1.0, 1.0],
            1.2,
            10,
        )
        .unwrap();
        let why = shortfall(&p, p.unreachable.len(), 10).unwrap();
        assert!(why.starts_with("1 slot alone holds more"), "{why}");
    }
}
