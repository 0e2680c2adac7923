//! `rebalance --apply`: a plan carried out (the dialect chosen, a progress line, Ctrl-C, what
//! was done said when a move stops), a slot a former run left half moved finished first,
//! a reviewed plan file carried out as it stands, and the `sh` script of `--format commands`
//! reaching the servers with the options given.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;
use std::time::Instant;

use anyhow::{anyhow, Result};
use serde_json::json;
use slotgen::text::field;
use slotgen_cluster::{self as cluster, Dialect, Topology};

use super::super::cluster::explain;
use super::again::{again_said, drain_taken_over};
use super::args::{Format, RebalanceArgs};
use super::drained::{removals, Drained};

/// The flag `--apply`'s Ctrl-C sets, its handler installed at the first call, for SIGINT,
/// SIGTERM and SIGHUP alike (what `timeout`, `systemctl stop`, Kubernetes and CI
/// cancellation send, and a closed terminal): the first of them asks for a stop after the slot in flight (a half-moved slot being finished, a
/// planned move) or the cancellation of the atomic job in flight; a handler that cannot be
/// set (one is already) leaves the default.
fn interrupt_flag() -> &'static AtomicBool {
    static FLAG: OnceLock<&'static AtomicBool> = OnceLock::new();
    FLAG.get_or_init(|| {
        let interrupted: &'static AtomicBool = Box::leak(Box::new(AtomicBool::new(false)));
        let _ = ctrlc::set_handler(move || {
            if !interrupted.swap(true, Ordering::SeqCst) {
                say!("\nslotgen: interrupted: finishing the slot in flight (or cancelling the job), then stopping");
            }
        });
        interrupted
    })
}

/// `--apply`: the cluster claimed for this run ([`cluster::claim`]), before anything is
/// changed, to be held until the run ends; refused where another `--apply` is under way.
/// Where the user may not run what the check sends, stderr says once that it was skipped.
pub(super) fn claim(
    args: &RebalanceArgs,
    options: &slotgen_cluster::transport::ConnectOptions,
) -> Result<cluster::Claim> {
    let claim =
        cluster::claim(&args.server.redis, options, args.server.timeout.get()).map_err(explain)?;
    if let Some(why) = &claim.skipped {
        say!("slotgen: note: the check that no other `rebalance --apply` is under way was skipped: {why}");
    }
    Ok(claim)
}

/// `--apply`: every atomic job still running on a primary (as a killed run leaves one)
/// waited for, each said on stderr with the state it ended in, before the map is read.
pub(super) fn wait_for_jobs(
    args: &RebalanceArgs,
    options: &slotgen_cluster::transport::ConnectOptions,
) -> Result<()> {
    let waited = cluster::wait_jobs(
        &args.server.redis,
        options,
        args.server.timeout.get(),
        &|line| say!("slotgen: note: {line}"),
    )
    .map_err(explain)?;
    for w in &waited {
        say!(
            "slotgen: waited for the atomic migration job under way on {} (slots {} to {}): it ended in `{}`",
            field(w.from.as_bytes()),
            w.slots,
            w.to,
            w.state
        );
    }
    Ok(())
}

/// `--apply` on a map with a slot a former run left half moved: that move finished first
/// (its keys carried to the target, a key on both ends resolved by their `DUMP`s; an end that
/// failed over stood in for by the primary that took its place), each said on stderr; an
/// atomic job still running waited for. A slot found empty on both ends is an error (exit
/// 1) after every slot is finished: its keys, if it had any, are gone.
pub(super) fn finish_half_moved(
    args: &RebalanceArgs,
    options: &slotgen_cluster::transport::ConnectOptions,
) -> Result<()> {
    let finished = cluster::finish_moves(
        &args.server.redis,
        options,
        args.batch as usize,
        args.server.timeout.get(),
        interrupt_flag(),
    )
    .map_err(explain)?;
    for f in &finished {
        say!(
            "slotgen: finished the half-moved slot {} from {} to {}: {} moved{}{}",
            f.slot,
            field(f.from.as_bytes()),
            field(f.to.as_bytes()),
            super::super::plural(f.keys, "key", "keys"),
            if f.resolved.is_empty() {
                String::new()
            } else {
                format!(
                    "; on both nodes with equal `DUMP`s, the source's copy deleted: {}",
                    field(f.resolved.join(", ").as_bytes())
                )
            },
            f.stood_in
                .as_ref()
                .map(|s| format!("; {}", field(s.as_bytes())))
                .unwrap_or_default()
        );
    }
    // a slot empty on both ends: any keys it had are gone, which the exit status says
    // (slotgen cannot tell them from an empty slot's move, and stops before planning on)
    let empty: Vec<String> = finished
        .iter()
        .filter(|f| f.empty)
        .map(|f| {
            format!(
                "slot {} (from {} to {})",
                f.slot,
                field(f.from.as_bytes()),
                field(f.to.as_bytes())
            )
        })
        .collect();
    if !empty.is_empty() {
        return Err(anyhow!(
            "{} half moved and empty on both ends as slotgen came to finish the move (`CLUSTER COUNTKEYSINSLOT` on both, every database): {}; any keys {} before the move was interrupted are on neither node now (as after a node started again without its data, or a replica that kept none took its place), and slotgen records no count of a slot's keys before a move, so it cannot tell such a loss from a slot that was empty. If {} keys, restore them from a backup; each slot is its target's now, and `slotgen rebalance --apply` again carries out the plan",
            if empty.len() == 1 { "a slot was" } else { "slots were" },
            empty.join(", "),
            if empty.len() == 1 { "it held" } else { "they held" },
            if empty.len() == 1 { "it held" } else { "they held" },
        ));
    }
    Ok(())
}

/// `--apply`: `plan` carried out on `topology` (in `dialect`, the one printed beside it;
/// otherwise the one --dialect chose, or the one every primary has), a progress line on a
/// terminal and one summary line at the end (done, or done before a stop), the first
/// Ctrl-C a stop after the slot in flight. When a move fails or is interrupted, standard
/// output says what was done, for a script to take up: --format json prints `report()` with
/// `stopped` in place of `applied` (the moves and keys done, the slot the stop left half
/// moved with its keys on the target, and why it stopped), TSV a line `stopped MOVES KEYS
/// ERROR`, the commands form a comment, each KEYS counting a half-moved slot's keys on the
/// target; and the error is returned.
pub(super) fn carry_out(
    args: &RebalanceArgs,
    options: &slotgen_cluster::transport::ConnectOptions,
    plan: &cluster::Plan,
    topology: &Topology,
    dialect: Option<Dialect>,
    report: &dyn Fn() -> serde_json::Value,
) -> Result<cluster::Applied> {
    let interrupted = interrupt_flag();
    // the dialect: the one printed beside it, or apply's choice, with its caution
    let dialect = match dialect {
        Some(d) => d,
        None => {
            let chosen = cluster::apply_dialect(
                &args.server.redis,
                options,
                args.server.timeout.get(),
                args.dialect.map(Dialect::from),
            )
            .map_err(explain)?;
            if let Some(caution) = &chosen.caution {
                say!("slotgen: note: {caution}");
            }
            chosen.dialect
        }
    };
    let how = cluster::ApplyOptions {
        batch: args.batch as usize,
        timeout: args.server.timeout.get(),
        dialect: Some(dialect),
        interrupted,
        waiting: &|line| say!("slotgen: note: {line}"),
    };
    let mut done = (0usize, 0u64);
    let mut line = Progress::new(plan.moves.len(), plan.keys_moved());
    let result = cluster::apply(
        &args.server.redis,
        options,
        plan,
        topology,
        &how,
        &mut |_, keys| {
            done = (done.0 + 1, done.1 + keys);
            line.show(done.0, done.1);
        },
    );
    line.end();
    // a source that failed over mid-move: the slot finished now, where that can be done
    let result = result.map_err(|e| {
        cluster::after_stop(&args.server.redis, options, &how, Some(topology), e, &mut |end, bound| {
            say!(
                "slotgen: note: {} does not answer: waiting {:.1} s at most for its replica to take its place (twice the cluster's node timeout and 3 s, within --timeout)",
                field(end.as_bytes()),
                bound.as_secs_f64()
            );
        })
    });
    // a drained source that failed over: the drain goes on as the drain of the node that
    // took its place, which the stop names
    let result = result.map_err(|mut e| {
        if let cluster::Error::SourceFailedOver {
            from,
            slot,
            drained,
            ..
        } = &mut e
        {
            *drained = drain_heir(args, options, plan, topology, from, *slot);
        }
        e
    });
    // a slot the stop left half moved: its keys on the target count among those moved; a
    // slot finished after its source or its target failed over counts as a move done
    let half = match &result {
        Err(
            cluster::Error::MoveStopped { slot, keys, .. }
            | cluster::Error::SourceRestartedEmpty {
                slot,
                keys,
                at_source: true,
                ..
            },
        ) if *keys > 0 => Some((*slot, *keys)),
        Err(
            cluster::Error::SourceFailedOver {
                slot,
                before,
                finished: Err(_),
                ..
            }
            | cluster::Error::TargetFailedOver {
                slot,
                before,
                finished: Err(_),
                ..
            },
        ) if *before > 0 => Some((*slot, *before)),
        _ => None,
    };
    if let Err(
        cluster::Error::SourceFailedOver {
            before,
            finished: Ok(keys),
            ..
        }
        | cluster::Error::TargetFailedOver {
            before,
            finished: Ok(keys),
            ..
        },
    ) = &result
    {
        done = (done.0 + 1, done.1 + before + keys);
    }
    let moved = done.1 + half.map_or(0, |(_, keys)| keys);
    // one summary (a terminal had the progress line)
    match &result {
        Ok(applied) => say!(
            "slotgen: applied {} of {} moves in the {} dialect: {} keys in {:.2} s",
            applied.moves,
            plan.moves.len(),
            applied.dialect,
            applied.keys,
            line.started.elapsed().as_secs_f64()
        ),
        Err(_) => say!(
            "slotgen: {} of {} moves done ({} keys) before the stop{}",
            done.0,
            plan.moves.len(),
            moved,
            half.map_or_else(String::new, |(slot, keys)| format!(
                ", and slot {slot} half moved: {keys} of its keys on the target"
            ))
        ),
    }
    if let Ok(applied) = &result {
        for node in &applied.untold {
            say!(
                "slotgen: note: the primary {} did not answer `CLUSTER SETSLOT ... NODE`; the cluster's gossip tells it the new owners",
                field(node.as_bytes())
            );
        }
        for note in &applied.gone {
            say!("slotgen: note: {}", field(note.as_bytes()));
        }
    }
    result.map_err(|e| {
        // what was done before the stop, for a script to take up: the plan printed above
        // is not what was done
        let mut out = std::io::stdout().lock();
        let _ = match args.format {
            Format::Json => {
                // `stopped`, not `applied`: `applied` is there only when the whole plan was
                // carried out, so that no script takes a stopped run's object for it
                let mut json = report();
                json["stopped"] = json!({
                    "moves": done.0,
                    "keys": moved,
                    "half_moved": half.map(|(slot, keys)| json!({ "slot": slot, "keys": keys })),
                    "error": again_said(&e.to_string(), drain_taken_over(args, &e).as_ref()),
                    // an atomic job's every range (the message gives the first and last)
                    "slots": match &e {
                        cluster::Error::AtomicStopped { ranges, .. }
                        | cluster::Error::AtomicUnknown { ranges, .. } => {
                            Some(cluster::show_ranges(ranges))
                        }
                        _ => None,
                    },
                });
                serde_json::to_string_pretty(&json).map_or(Ok(()), |text| writeln!(out, "{text}"))
            }
            Format::Tsv => writeln!(
                out,
                "stopped\t{}\t{}\t{}",
                done.0,
                moved,
                field(again_said(&e.to_string(), drain_taken_over(args, &e).as_ref()).as_bytes())
            ),
            Format::Commands => writeln!(
                out,
                "# stopped after {} ({} keys): {}",
                super::super::plural(done.0 as u64, "slot", "slots"),
                moved,
                field(again_said(&e.to_string(), drain_taken_over(args, &e).as_ref()).as_bytes())
            ),
            Format::Svg => Ok(()),
        };
        explain(e)
    })
}

/// Where `--drain` named the source `from` (`id (addr)`) of a stop at `slot` after which
/// it is a replica (it failed over), and the plan had more of its slots to move: the
/// address of the primary it replicates now by a map read again, which took its place with
/// those slots, for the stop to name its drain. `None` where the source is not drained, the
/// stop's slot was its last (a primary that gives its last slot away turns replica: the
/// drain is done), or the map cannot be read.
fn drain_heir(
    args: &RebalanceArgs,
    options: &slotgen_cluster::transport::ConnectOptions,
    plan: &cluster::Plan,
    topology: &Topology,
    from: &str,
    slot: u16,
) -> Option<Box<str>> {
    let source = from.split(' ').next().unwrap_or_default();
    let shard = topology
        .shards
        .iter()
        .position(|s| s.primary.id == source)?;
    let drained = args.drain.iter().any(|node| {
        topology
            .find(node)
            .is_ok_and(|(s, _)| s.primary.id == source)
    });
    let last = plan.moves.iter().rev().find(|m| m.from == shard)?.slot;
    if !drained || last == slot {
        return None;
    }
    let fresh = Topology::fetch(&args.server.redis, options, args.server.timeout.get()).ok()?;
    fresh
        .shards
        .iter()
        .find(|s| s.replicas.iter().any(|r| r.id == source))
        .map(|s| field(s.primary.addr.as_bytes()).into())
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
        if !self.on_terminal {
            return;
        }
        let secs = self.started.elapsed().as_secs_f64().max(1e-3);
        let rate = keys as f64 / secs;
        let left = if rate > 0.0 {
            format!("{:.0} s left", self.keys.saturating_sub(keys) as f64 / rate)
        } else {
            "time left unknown".to_owned()
        };
        say!(@line
            "\r\x1b[Kslotgen: {moves}/{} moves, {keys}/{} keys, {rate:.0} keys/s, {left}",
            self.moves, self.keys
        );
        self.shown = true;
    }

    fn end(&self) {
        if self.shown {
            say!();
        }
    }
}

/// `--apply --plan FILE`: the moves of FILE, carried out exactly when the cluster's map is
/// the one they were planned on.
pub(super) fn apply_file(
    args: &RebalanceArgs,
    file: &std::path::Path,
    options: &slotgen_cluster::transport::ConnectOptions,
) -> Result<ExitCode> {
    use std::io::Read;
    let url = &args.server.redis;
    let timeout = args.server.timeout.get();
    let shown = slotgen::text::path(file);
    let cannot = |why: String| anyhow!("cannot read the plan file `{shown}`: {why}");
    // a regular file only (a FIFO or a device would hold the read), and bounded in size
    let meta = std::fs::metadata(file).map_err(|e| cannot(slotgen::text::os_reason(&e)))?;
    // a file that cannot be read, as every other (exit 1): the path is no usage error
    if !meta.is_file() {
        return Err(cannot(
            "it is not a regular file: give the file `--out` wrote".to_owned(),
        ));
    }
    let mut text = Vec::new();
    std::fs::File::open(file)
        .and_then(|f| {
            f.take(cluster::MAX_PLAN_FILE_BYTES + 1)
                .read_to_end(&mut text)
        })
        .map_err(|e| cannot(slotgen::text::os_reason(&e)))?;
    if text.len() as u64 > cluster::MAX_PLAN_FILE_BYTES {
        return Err(cannot(format!(
            "it is larger than {} bytes, more than any plan takes: give the file `--out` wrote",
            cluster::MAX_PLAN_FILE_BYTES
        )));
    }
    let planned = cluster::PlanFile::parse(&shown, &text)?;
    // one apply at a time: the claim is held until this run ends
    let _claim = claim(args, options)?;
    // a job under way ends first: the plan file is then checked against the map it left
    wait_for_jobs(args, options)?;
    let mut live = Topology::fetch(url, options, timeout).map_err(explain)?;
    if !live.migrations.is_empty() {
        finish_half_moved(args, options)?;
        live = Topology::fetch(url, options, timeout).map_err(explain)?;
    }
    cluster::refuse_migrations(&live)?;
    let plan = planned.against(&shown, &live)?;
    let done = planned.moves.len() - plan.moves.len();
    if done > 0 && plan.moves.is_empty() {
        say!(
            "slotgen: note: every move of this plan is done already (each slot on its target: an earlier run, or by hand): nothing to do"
        );
    } else if done > 0 {
        let left: std::collections::BTreeSet<u16> = plan.moves.iter().map(|m| m.slot).collect();
        let mut slots: Vec<u16> = planned
            .moves
            .iter()
            .map(|m| m.slot)
            .filter(|s| !left.contains(s))
            .collect();
        slots.sort_unstable();
        say!(
            "slotgen: note: {done} of the plan's {} moves are done already (each slot on its target: an earlier run, or by hand), so they are left out: slots {}",
            planned.moves.len(),
            cluster::show_ranges_brief(&cluster::ranges_of(&slots))
        );
    }
    if done > 0 {
        // the skews printed below are the file's: `before` is the map it was made on, which
        // the moves done already changed
        say!(
            "slotgen: note: the skews printed are the plan file's (`before` on the map it was made on, `predicted` after all its moves), not the cluster's now: `slotgen load --redis URL --by {}` gives the skew now",
            field(planned.metric.as_bytes())
        );
    }
    // a drain's plan ends as the planning run's `--drain --apply` does: the commands that
    // remove the drained primaries, their replicas, and the failed nodes still listed;
    // made before the moves (the server's CLI asked), said after them
    let drains = removals(
        &args.server.reach(options),
        &live,
        &drained_of_file(&planned),
    )?;
    let report = || serde_json::to_value(&planned).unwrap_or(serde_json::Value::Null);
    let applied = if plan.moves.is_empty() {
        // nothing to carry out: no dialect to choose, no line of moves applied
        cluster::Applied {
            dialect: Dialect::Classic,
            moves: 0,
            keys: 0,
            untold: Vec::new(),
            gone: Vec::new(),
        }
    } else {
        carry_out(args, options, &plan, &live, None, &report)?
    };
    drains.say();
    let mut out = std::io::stdout().lock();
    match args.format {
        Format::Json => {
            let mut json = serde_json::to_value(&planned)?;
            json["applied"] = json!(applied);
            if !planned.drained.is_empty() {
                let (drained, forget) = drains.json();
                json["drained"] = drained;
                json["forget"] = forget;
            }
            writeln!(out, "{}", serde_json::to_string_pretty(&json)?)?;
        }
        Format::Tsv | Format::Commands | Format::Svg => {
            let show = |s: Option<f64>| s.map_or_else(|| "-".to_owned(), |s| format!("{s:.4}"));
            writeln!(
                out,
                "skew\t{}\tbefore\t{}\tpredicted\t{}\ttarget\t{}",
                field(planned.metric.as_bytes()),
                show(planned.skew_before),
                show(planned.skew_after),
                planned.target
            )?;
            for m in &planned.moves {
                writeln!(
                    out,
                    "move\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
                    m.slot,
                    field(m.from.id.as_bytes()),
                    field(m.from.addr.as_bytes()),
                    field(m.to.id.as_bytes()),
                    field(m.to.addr.as_bytes()),
                    m.keys,
                    m.amount
                )?;
            }
            drains.write_tsv(&mut out)?;
            writeln!(out, "applied\t{}\t{}", applied.moves, applied.keys)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The primaries a plan file drains, each with the slots and keys its moves take away and
/// its replicas when the plan was made, as the removal list names them.
fn drained_of_file(planned: &cluster::PlanFile) -> Vec<Drained> {
    planned
        .drained
        .iter()
        .map(|d| {
            let leaving = planned.moves.iter().filter(|m| m.from.id == d.id);
            Drained {
                id: d.id.clone(),
                addr: d.addr.clone(),
                slots: leaving.clone().count(),
                keys: leaving.map(|m| m.keys).sum(),
                replicas: d
                    .replicas
                    .iter()
                    .map(|r| (r.id.clone(), r.addr.clone()))
                    .collect(),
            }
        })
        .collect()
}
