//! Command files: one command a line as `redis-cli` reads them (words split at spaces,
//! `"..."` with backslash escapes and `'...'` quoted; empty lines skipped, and a `#` line
//! sent as a command, as redis-cli does: [`comment_line`]),
//! with MULTI/EXEC blocks. Each command's keys must share a slot; at EXEC, every key of the
//! queued commands must share one slot, even on one node (`CROSSSLOT`).

use std::path::Path;

use slotgen_tables::REDIS_CLUSTER;

use crate::commands::{self, Arg};
use crate::key::Values;
use crate::lua;
use crate::verdict::{
    self, list, suggested_tag, Condition, Finding, Outcome, Report, Rule, Target,
};
use crate::{Error, Position, MAX_SOURCE_BYTES};

/// A line of a command file that begins with `#`, in a transaction when `in_multi`: no
/// comment, as redis-cli has none. It sends the line as a command, and every server
/// answers "ERR unknown command '#'" (the rest of the file runs); in a transaction the
/// command is refused as it is queued and EXEC answers EXECABORT (measured with redis-cli
/// 7.0.15 and valkey-cli 8.0.1 on Redis 7.0, Valkey 8.0 and 9.1). `fails` on every target.
fn comment_line(at: Position, in_multi: bool, targets: &[Target]) -> Finding {
    let then = if in_multi {
        "; in a transaction it is refused as it is queued, and EXEC answers EXECABORT \
         (the transaction discarded)"
    } else {
        "; the other lines run"
    };
    Finding {
        at,
        rule: Rule::UnknownCommand,
        kind: None,
        message: format!(
            "a line that begins with `#` is no comment for redis-cli: it sends the line as a \
             command, and the server answers \"ERR unknown command '#'\"{then}"
        ),
        fix: "remove the line (redis-cli reads no comments; keep notes beside the file)".to_owned(),
        condition: None,
        targets: targets.iter().map(|&t| (t, Outcome::Fails)).collect(),
    }
}

/// Lints the command file `source` of `path` for `targets`.
///
/// # Errors
///
/// [`Error::TooLarge`] past [`MAX_SOURCE_BYTES`], [`Error::Quotes`] for a line whose quotes
/// do not close.
pub fn lint_commands(path: &Path, source: &str, targets: &[Target]) -> Result<Report, Error> {
    lint_commands_with(path, source, targets, &[])
}

/// [`lint_commands`], with the Functions libraries `libraries` (read by [`lua::read`]) whose
/// functions an `FCALL`/`FCALL_RO` line calls: such a call is judged with the line's keys and
/// arguments, and an `FCALL_RO` of a function without `no-writes` fails.
///
/// # Errors
///
/// As [`lint_commands`].
pub fn lint_commands_with(
    path: &Path,
    source: &str,
    targets: &[Target],
    libraries: &[lua::Script],
) -> Result<Report, Error> {
    if source.len() > MAX_SOURCE_BYTES {
        return Err(Error::TooLarge {
            file: crate::shown(path),
            max: MAX_SOURCE_BYTES,
        });
    }
    let every = |o| targets.iter().map(|&t| (t, o)).collect::<Vec<_>>();
    let mut findings = Vec::new();
    // The open transaction: each queued key with its slot and place.
    let mut multi: Option<Vec<Queued>> = None;
    // The watched keys, until EXEC, DISCARD or UNWATCH: at EXEC each must be on the
    // transaction's node (`watch-other-slot`).
    let mut watched: Vec<Queued> = Vec::new();
    // The watched keys written since their WATCH, on this connection, by a command outside
    // the transaction (`watch-written`).
    let mut written: Vec<Written> = Vec::new();
    // The key the connection was last sent to outside a transaction, with its slot, its line
    // and whether that line is a WATCH: `redis-cli -c` follows MOVED to the key's node and
    // stays there, so a transaction opened after it runs there (`transaction-other-node`).
    let mut connection: Option<Queued> = None;
    // Where the open transaction's MULTI is.
    let mut multi_at = None;
    // whether a line before selected a database other than 0 (`MOVE key 0` may then move)
    let mut selected = false;
    // the libraries and scripts this file's own LOAD lines load, for its later calls
    let mut loaded = Loaded::default();
    for (n, line) in source.lines().enumerate() {
        let at = Position {
            file: 0,
            line: n + 1,
            column: 1,
        };
        let trimmed = line.trim();
        if trimmed.is_empty() {
            continue;
        }
        // redis-cli has no comments: it sends a `#` line as a command (measured with
        // redis-cli 7.0 and valkey-cli 8.0, `printf '# x\nSET a 1\n' | redis-cli`)
        if trimmed.starts_with('#') {
            findings.push(comment_line(at, multi.is_some(), targets));
            continue;
        }
        let words = commands::split(trimmed).ok_or_else(|| Error::Quotes {
            file: crate::shown(path),
            line: n + 1,
        })?;
        let Some(first) = words.first() else { continue };
        let mut name = String::from_utf8_lossy(first).to_ascii_lowercase();
        // MULTI, WATCH, EXEC and DISCARD out of their place: the server refuses the line
        // (`transaction-order`), `why` says what each server does and `fix` the way out.
        let misplaced = |why: &str, fix: &str| Finding {
            at,
            rule: Rule::TransactionOrder,
            kind: None,
            message: why.to_owned(),
            fix: fix.to_owned(),
            condition: None,
            targets: every(Outcome::Fails),
        };
        match name.as_str() {
            "multi" if multi.is_some() => {
                // The open transaction goes on (its keys still count at EXEC).
                findings.push(misplaced(
                    "MULTI inside MULTI: Redis refuses it (\"MULTI calls can not be nested\") and \
                     goes on with the open transaction; Valkey refuses it and discards the \
                     transaction at EXEC (EXECABORT)",
                    "remove this MULTI, or EXEC the open transaction before it",
                ));
                continue;
            }
            "multi" => {
                multi = Some(Vec::new());
                multi_at = Some(at);
                continue;
            }
            "watch" if multi.is_some() => {
                findings.push(misplaced(
                    "WATCH inside MULTI: Redis refuses it (\"WATCH inside MULTI is not allowed\") \
                     and goes on with the transaction unwatched; Valkey refuses it and discards \
                     the transaction at EXEC (EXECABORT)",
                    "WATCH the keys before MULTI",
                ));
                continue;
            }
            "exec" | "discard" if multi.is_none() => {
                let word = name.to_ascii_uppercase();
                findings.push(misplaced(
                    &format!(
                        "{word} without MULTI: every server refuses it (\"{word} without MULTI\")"
                    ),
                    &format!("open the transaction with MULTI before it, or remove this {word}"),
                ));
                // refused before the server forgets the watched keys: they stay watched
                continue;
            }
            "discard" => {
                multi = None;
                watched.clear();
                written.clear();
                continue;
            }
            "unwatch" => {
                watched.clear();
                written.clear();
                continue;
            }
            // RESET ends the transaction (it is not queued: a later EXEC is "EXEC without
            // MULTI"), forgets the watched keys and selects database 0 (measured on Redis
            // 7.0, Valkey 8.0 and 9.1); with an argument the server refuses it (arity)
            "reset" if words.len() == 1 => {
                multi = None;
                watched.clear();
                written.clear();
                selected = false;
                continue;
            }
            "exec" => {
                let watches = std::mem::take(&mut watched);
                findings.extend(
                    std::mem::take(&mut written)
                        .into_iter()
                        .map(|w| watch_written(&w, at, targets)),
                );
                if let Some(queued) = multi.take() {
                    if let Some(first) = queued.first() {
                        findings.extend(watch_findings(&watches, first.1, at, targets, &queued));
                        // a watched key is `watch-other-slot`'s, on the same condition
                        let moved = connection
                            .as_ref()
                            .filter(|c| c.1 != first.1 && !watches.iter().any(|w| w.0 == c.0));
                        if let (Some(on), Some(multi_at)) = (moved, multi_at) {
                            findings.push(other_node(on, first, multi_at, targets));
                        }
                        connection = Some(first.clone());
                    }
                    if let Some((k, s, _)) = queued.first() {
                        if let Some((other, t, other_at)) = queued.iter().find(|(_, t, _)| t != s) {
                            let tag = suggested_tag(queued.iter().map(|(k, _, _)| k.as_slice()));
                            findings.push(Finding {
                                at,
                                rule: Rule::TransactionCrossSlot,
                                kind: None,
                                message: format!(
                                    "EXEC: the queued keys `{}` (slot {s}) and `{}` (slot {t}, \
                                     line {}) are on different slots: where both slots are on \
                                     one node, EXEC answers CROSSSLOT and discards the \
                                     transaction; elsewhere the key of another node's slot is \
                                     answered MOVED as it is queued, and EXEC EXECABORT",
                                    slotgen::text::escape(k),
                                    slotgen::text::escape(other),
                                    other_at.line
                                ),
                                fix: format!("put `{{{tag}}}` in every key of the transaction"),
                                condition: None,
                                targets: every(Outcome::Fails),
                            });
                        }
                    }
                }
                continue;
            }
            _ => {}
        }
        if commands::has_subcommands(&name) {
            if let Some(sub) = words.get(1) {
                name = format!(
                    "{name}|{}",
                    String::from_utf8_lossy(sub).to_ascii_lowercase()
                );
            }
        }
        let Some(command) = commands::find(&name, u8::MAX) else {
            findings.push(Finding {
                at,
                rule: Rule::UnknownKeys,
                kind: None,
                message: format!(
                    "`{}` is not in the servers' command table, so its keys cannot be placed",
                    slotgen::text::escape(name.as_bytes())
                ),
                fix: match commands::nearest(&name) {
                    Some(near) => format!(
                        "check the command's name: did you mean `{}`? (every server answers \
                         \"unknown command\" to a name it lacks; a module may give it one)",
                        near.to_ascii_uppercase()
                    ),
                    None => "check the command's name".to_owned(),
                },
                condition: None,
                targets: every(Outcome::Depends),
            });
            continue;
        };
        // The arity, each server by its own entry (`ZRANK ... WITHSCORE` is Valkey's only).
        let entry = |t: Target| commands::find(&name, t.commands());
        let refused: Vec<(Target, Outcome)> = targets
            .iter()
            .filter(|&&t| entry(t).is_some_and(|c| !c.takes(words.len())))
            .map(|&t| (t, Outcome::Fails))
            .collect();
        if let Some(table) = refused.first().and_then(|&(t, _)| entry(t)) {
            findings.push(Finding {
                at,
                rule: Rule::Arity,
                kind: None,
                message: format!(
                    "`{}` takes {} arguments (its name counted) on {}, this line gives {}: the \
                     server refuses it (\"wrong number of arguments\"){}",
                    slotgen::text::escape(name.as_bytes()),
                    table.arity_words(),
                    refused
                        .iter()
                        .map(|(t, _)| t.name())
                        .collect::<Vec<_>>()
                        .join(" and "),
                    words.len(),
                    if multi.is_some() {
                        ", and discards the transaction at EXEC (EXECABORT)"
                    } else {
                        ""
                    }
                ),
                fix: format!("give {} arguments", table.arity_words()),
                condition: None,
                targets: refused,
            });
        }
        // In a transaction the server refuses a command it lacks when it is queued (EXEC
        // then answers EXECABORT and runs nothing), but reads a command's options only when
        // EXEC runs it: `SET k v IFEQ x` is QUEUED on Redis 7.0 and Valkey 8.0, and EXEC
        // runs the others and answers this one "syntax error" (measured on both).
        let (how, how_option) = if multi.is_some() {
            (
                "in a transaction (EXECABORT at EXEC)",
                "at EXEC, not when it is queued: EXEC runs the transaction's other commands \
                 and answers this one with the error",
            )
        } else {
            ("on the command line", "on the command line")
        };
        findings.extend(verdict::unknown_command(&name, at, targets, how));
        let args: Vec<Arg<'_>> = words.iter().map(|w| Arg::Known(w)).collect();
        findings.extend(verdict::unknown_options(
            &name, &args, at, targets, how_option,
        ));
        if let Some(db) = commands::other_database(&name, &args) {
            findings.extend(verdict::cluster_database(&name, &db, at, targets, selected));
            selected |= name == "select";
        }
        // a numkeys refused: the server refuses the line before it reads any key
        if let Some(f) = numkeys_refused(&name, &words, at, targets) {
            findings.push(f);
            continue;
        }
        if let Some(load) = load_line(path, &name, &words, at, targets, &mut loaded) {
            findings.extend(load);
        }
        let mut body_writes = None;
        if let Some((body, writes)) =
            script_call(path, &name, &words, at, targets, libraries, &loaded)
        {
            findings.extend(body);
            body_writes = Some(writes);
        }
        let found = commands::key_positions(command, &args, false);
        if let Some(why) = found.uncertain {
            findings.push(Finding {
                at,
                rule: Rule::UnknownKeys,
                kind: None,
                message: format!(
                    "`{}`: {why}, so its keys cannot all be placed",
                    slotgen::text::escape(name.as_bytes())
                ),
                fix: "check its keys with `slotgen check --same-slot`".to_owned(),
                condition: Some(Condition::Values(why.to_owned())),
                targets: every(Outcome::Depends),
            });
        }
        let keys: Vec<(&[u8], u16)> = found
            .positions
            .iter()
            .map(|&i| {
                let k = words[i].as_slice();
                (k, REDIS_CLUSTER.key_slot(k))
            })
            .collect();
        let mut slots: Vec<u16> = keys.iter().map(|&(_, s)| s).collect();
        slots.sort_unstable();
        slots.dedup();
        if slots.len() > 1 {
            let tag = suggested_tag(keys.iter().map(|&(k, _)| k));
            findings.push(Finding {
                at,
                rule: Rule::CommandCrossSlot,
                kind: None,
                message: format!(
                    "`{}` takes keys on slots {}: CROSSSLOT{}",
                    slotgen::text::escape(name.as_bytes()),
                    list(&slots),
                    if multi.is_some() {
                        ", and the transaction is aborted at EXEC (EXECABORT)"
                    } else {
                        ""
                    }
                ),
                fix: format!("put `{{{tag}}}` in each key of the command"),
                condition: None,
                targets: every(Outcome::Fails),
            });
        }
        if let Some(queued) = &mut multi {
            queued.extend(keys.iter().map(|&(k, s)| (k.to_vec(), s, at)));
            continue;
        }
        if let (Some(&(k, s)), 1) = (keys.first(), slots.len()) {
            connection = Some((k.to_vec(), s, at));
        }
        if name == "watch" {
            watched.extend(keys.iter().map(|&(k, s)| (k.to_vec(), s, at)));
            continue;
        }
        // a script whose declared keys are on several slots is refused before it runs
        let body_writes = body_writes.filter(|_| slots.len() < 2);
        for w in &watched {
            if written.iter().any(|x| x.watch.0 == w.0) {
                continue;
            }
            let how = match &body_writes {
                Some(writes) => writes.of(&w.0, &name, &words, at),
                None if matches!(name.as_str(), "flushall" | "flushdb") => Some((
                    format!(
                        "is flushed on line {} (`{}`)",
                        at.line,
                        name.to_ascii_uppercase()
                    ),
                    Some(format!(
                        "`{}` is missing when line {} flushes (a flush aborts the transaction \
                         only where the watched key existed)",
                        slotgen::text::escape(&w.0),
                        at.line
                    )),
                )),
                None if command.write && keys.iter().any(|&(k, _)| k == w.0.as_slice()) => {
                    Some(if overwrites(&name, &words) {
                        (format!("is written on line {}", at.line), None)
                    } else {
                        (
                            format!(
                                "is written on line {}, which changes it unless the write \
                                 finds nothing to change or is refused",
                                at.line
                            ),
                            Some(format!(
                                "the write on line {} changes nothing (`DEL` of a missing key) \
                                 or is refused",
                                at.line
                            )),
                        )
                    })
                }
                None => None,
            };
            if let Some((how, unless)) = how {
                written.push(Written {
                    watch: w.clone(),
                    at,
                    how,
                    unless,
                });
            }
        }
    }
    // a transaction the file leaves open: the server drops it when the connection closes
    if let (Some(_), Some(at)) = (&multi, multi_at) {
        findings.push(Finding {
            at,
            rule: Rule::TransactionOrder,
            kind: None,
            message: "MULTI without EXEC: the file ends with the transaction open, and the \
                      server discards its queued commands when the connection closes (none \
                      of them runs)"
                .to_owned(),
            fix: "end the transaction with EXEC (or DISCARD, to drop it on purpose)".to_owned(),
            condition: None,
            targets: every(Outcome::Fails),
        });
    }
    findings.retain(|f| !f.targets.is_empty());
    Ok(Report {
        files: vec![path.to_path_buf()],
        targets: targets.to_vec(),
        findings,
    })
}

/// The finding on a script call (`EVAL`, `EVALSHA`, `FCALL` and their `_RO` forms) whose
/// `numkeys` the server refuses, before it runs anything: no integer as the servers read
/// one ([`commands::integer_value`]: `1.0`, `01`, `+1`), a negative one, or more keys than
/// the arguments after it. The words are each server's, measured alike on Redis 7.0,
/// Valkey 8.0 and 9.1: EVAL "value is not an integer or out of range", FCALL "Bad number
/// of keys provided"; both "Number of keys can't be negative" and "... can't be greater
/// than number of args". `None` for another command or a numkeys taken.
fn numkeys_refused(
    name: &str,
    words: &[Vec<u8>],
    at: Position,
    targets: &[Target],
) -> Option<Finding> {
    if !matches!(
        name,
        "eval" | "eval_ro" | "evalsha" | "evalsha_ro" | "fcall" | "fcall_ro"
    ) {
        return None;
    }
    let upper = name.to_ascii_uppercase();
    let word = words.get(2)?;
    let shown = slotgen::text::escape(word);
    let (rule, message, fix) = match commands::integer_value(word) {
        None => (
            Rule::ArgumentValue,
            format!(
                "`{upper}`'s numkeys `{shown}` is no integer as the server reads one (digits, \
                 an optional `-`, no leading zero): it refuses the line (\"{}\")",
                if name.starts_with("fcall") {
                    "Bad number of keys provided"
                } else {
                    "value is not an integer or out of range"
                }
            ),
            "write numkeys as the count of the keys that follow it, in digits (`1`)",
        ),
        Some(n) if n < 0 => (
            Rule::ArgumentValue,
            format!(
                "`{upper}`'s numkeys is `{shown}`: the server refuses the line (\"Number of \
                 keys can't be negative\")"
            ),
            "write numkeys as the count of the keys that follow it, 0 or more",
        ),
        Some(n) if usize::try_from(n).map_or(true, |n| n.saturating_add(3) > words.len()) => (
            Rule::NilKey,
            format!(
                "`{upper}` takes `numkeys` then that many keys: numkeys is {n}, and this line \
                 gives {} arguments after it, so the server refuses the line (\"Number of \
                 keys can't be greater than number of args\")",
                words.len().saturating_sub(3)
            ),
            "give numkeys as the count of the keys that follow it",
        ),
        Some(_) => return None,
    };
    Some(Finding {
        at,
        rule,
        kind: None,
        message,
        fix: fix.to_owned(),
        condition: None,
        targets: targets.iter().map(|&t| (t, Outcome::Fails)).collect(),
    })
}

/// The findings of a script call's body (`EVAL`, `EVAL_RO`: the inline script linted with
/// the line's keys and arguments; `EVALSHA`, `FCALL` and their `_RO` forms: the body is not
/// in the file, `unseen-body`), each at the command's line with the script's own line in the
/// message; `None` for any other command. The declared keys' slot is the command's own rule,
/// checked with every command.
fn script_call(
    path: &Path,
    name: &str,
    words: &[Vec<u8>],
    at: Position,
    targets: &[Target],
    libraries: &[lua::Script],
    loaded: &Loaded,
) -> Option<(Vec<Finding>, BodyWrites)> {
    let every = |o| targets.iter().map(|&t| (t, o)).collect::<Vec<_>>();
    let upper = name.to_ascii_uppercase();
    // the file's own loads first, the last first: FUNCTION LOAD REPLACE replaces a library
    // given (or loaded before) of the same name
    let libraries: Vec<&lua::Script> = loaded
        .libraries
        .iter()
        .rev()
        .map(|l| &l.script)
        .chain(libraries)
        .collect();
    let finding = |rule, message: String, fix: String, outcome| Finding {
        at,
        rule,
        kind: None,
        message,
        fix,
        condition: None,
        targets: every(outcome),
    };
    if !matches!(
        name,
        "eval" | "eval_ro" | "evalsha" | "evalsha_ro" | "fcall" | "fcall_ro"
    ) {
        return None;
    }
    // a numkeys the server refuses is [`numkeys_refused`]'s, found before
    let numkeys = words
        .get(2)
        .and_then(|n| commands::integer_value(n))
        .and_then(|n| usize::try_from(n).ok())
        .filter(|&n| n + 3 <= words.len())?;
    let values = Values {
        keys: Some(words[3..3 + numkeys].to_vec()),
        argv: Some(words[3 + numkeys..].to_vec()),
        function: None,
    };
    // `FCALL name`: the function of a library linted in the same run (the servers find a
    // function's name in any case: `FCALL SETPAIR` runs `setpair`).
    let function = String::from_utf8_lossy(&words[1]).into_owned();
    let library = libraries.iter().find_map(|script| match &script.kind {
        lua::ScriptKind::Library { functions, .. } => functions
            .iter()
            .find(|f| f.is_called(&function))
            .map(|f| (script, f)),
        _ => None,
    });
    if let (true, Some((script, f))) = (name.starts_with("fcall"), library) {
        let mut out = Vec::new();
        if name == "fcall_ro" && !f.flags.iter().any(|flag| flag == "no-writes") {
            // flags the lint cannot read may hold `no-writes`
            let (may, outcome) = match f.flags_unread {
                Some(_) => ("may have", Outcome::Depends),
                None => ("has", Outcome::Fails),
            };
            out.push(finding(
                Rule::WriteInReadOnly,
                format!(
                    "`FCALL_RO {}`: the function {may} no flag `no-writes`, and the server \
                     refuses it then (\"Can not execute a script with write flag using *_ro \
                     command\")",
                    slotgen::text::escape(function.as_bytes())
                ),
                "call it by FCALL, or register it with `flags={'no-writes'}`".to_owned(),
                outcome,
            ));
            if outcome == Outcome::Depends {
                if let Some(f) = out.last_mut() {
                    f.condition = Some(Condition::Values(
                        "the flags the function is registered with".to_owned(),
                    ));
                }
            }
        }
        if let Some(load) = loaded
            .libraries
            .iter()
            .find(|l| std::ptr::eq(&l.script, *script))
        {
            out.push(one_node(
                &upper,
                &format!(
                    "the library `{}`",
                    slotgen::text::escape(load.name.as_bytes())
                ),
                load.at,
                &words[3..3 + numkeys],
                at,
                targets,
                "FUNCTION LOAD REPLACE",
            ));
        }
        let values = Values {
            function: Some(f.name.clone()),
            ..values
        };
        let file = crate::shown(&script.files[0]);
        let report = verdict::script(script, &values, targets);
        out.extend(
            report
                .findings
                .into_iter()
                .filter(|f| f.rule != Rule::DeclaredCrossSlot)
                .map(|mut f| {
                    f.message = format!(
                        "`{upper}` of `{file}`, its line {}: {}",
                        f.at.line, f.message
                    );
                    f.at = at;
                    f
                }),
        );
        // FCALL_RO runs a `no-writes` function only, whose writes are refused
        let writes = if name == "fcall_ro" {
            BodyWrites::Calls(Vec::new())
        } else {
            BodyWrites::Calls(body_writes(script, &values))
        };
        return Some((out, writes));
    }
    // `FCALL setpar` where a library given registers `setpair`: a misspelling, which the
    // server answers "Function not found"; a name near none may be a library not given.
    // Each function with its file and whether it writes (no `no-writes`, or flags unread).
    // A function whose name the lint cannot read may be the one called.
    let unread = libraries.iter().find_map(|script| match &script.kind {
        lua::ScriptKind::Library { functions, .. } => functions
            .iter()
            .find(|f| f.known_name().is_none())
            .map(|f| (crate::shown(&script.files[0]), f.shown())),
        _ => None,
    });
    if let (true, Some((file, unread))) = (name.starts_with("fcall"), unread) {
        let what = slotgen::text::escape(function.as_bytes());
        let writes = BodyWrites::Unseen(format!("`{upper} {what}`, a {unread} of `{file}`"));
        return Some((
            vec![Finding {
                condition: Some(Condition::Values(format!(
                    "the {unread} of `{file}` is `{what}` where the library is loaded"
                ))),
                ..finding(
                    Rule::UnknownFunction,
                    format!(
                        "`{upper} {what}`: no library given registers `{what}` by a name the lint \
                     reads, but `{file}` registers a {unread}, which may be it; the server \
                     answers \"Function not found\" for a name no loaded library registers"
                    ),
                    "register the function with its name as a string literal \
                 (`function_name = 'name'`), so that its calls can be checked"
                        .to_owned(),
                    Outcome::Depends,
                )
            }],
            writes,
        ));
    }
    let registered: Vec<(&str, String, bool)> = libraries
        .iter()
        .filter_map(|script| match &script.kind {
            lua::ScriptKind::Library { functions, .. } => Some(functions.iter().map(|f| {
                (
                    f.name.as_str(),
                    crate::shown(&script.files[0]),
                    f.flags_unread.is_some() || !f.flags.iter().any(|flag| flag == "no-writes"),
                )
            })),
            _ => None,
        })
        .flatten()
        .collect();
    if name.starts_with("fcall") {
        let nearest = |writes: Option<bool>| {
            let candidates = registered
                .iter()
                .filter(|(_, _, w)| writes.is_none_or(|writes| *w == writes))
                .map(|(n, _, _)| (*n, *n));
            slotgen::text::nearest(&function, candidates)
                .first()
                .copied()
        };
        // FCALL_RO runs only a function registered `no-writes`: a writing one is no fix
        let read_only = name == "fcall_ro";
        let near = if read_only {
            nearest(Some(false))
        } else {
            nearest(None)
        };
        let any_near = near.or_else(|| nearest(None));
        if let Some(found) = any_near {
            let (_, file, writes) = registered
                .iter()
                .find(|(n, _, _)| *n == found)
                .map_or((found, String::new(), false), |(n, f, w)| {
                    (*n, f.clone(), *w)
                });
            let what = slotgen::text::escape(function.as_bytes());
            // FCALL_RO of a near miss of a writing function, beside a read-only one: the
            // write may be what was meant (`FCALL_RO setpar` of `setpair`), and then FCALL
            let writer = nearest(None).filter(|w| read_only && Some(*w) != near);
            let fix = match near {
                Some(near) if writer.is_some() => format!(
                    "`{}`, the nearest name registered, writes: if it is the function meant, \
                     call it with FCALL; for a read, `{near}` (registered `no-writes`)",
                    writer.unwrap_or_default()
                ),
                Some(near) if writes => format!(
                    "write `{near}`, the nearest name registered, if that is the function \
                     meant: it writes (registered without `no-writes`)"
                ),
                Some(near) => format!("write `{near}`: the function's name as registered"),
                None => format!(
                    "register `{what}` with `flags={{'no-writes'}}`, or call a function \
                     registered so: `{found}`, the nearest name registered, writes, and \
                     FCALL_RO refuses it (\"Can not execute a script with write flag using \
                     *_ro command\")"
                ),
            };
            // the server answers "Function not found": nothing runs
            return Some((
                vec![finding(
                    Rule::UnknownFunction,
                    format!(
                        "`{upper} {what}`: no library given registers a function `{what}`; `{}` \
                     registers `{found}`, and the server answers \"Function not found\" for \
                     a name no loaded library registers",
                        slotgen::text::escape(file.as_bytes())
                    ),
                    fix,
                    Outcome::Fails,
                )],
                BodyWrites::Calls(Vec::new()),
            ));
        }
    }
    // `EVALSHA sha` of a script a SCRIPT LOAD line of the file loads: judged as EVAL of it
    let script_loaded = loaded
        .scripts
        .iter()
        .rev()
        .find(|l| name.starts_with("evalsha") && l.sha.eq_ignore_ascii_case(&function));
    if (name.starts_with("evalsha") && script_loaded.is_none()) || name.starts_with("fcall") {
        let what = slotgen::text::escape(words.get(1).map_or(&[][..], Vec::as_slice));
        let writes = BodyWrites::Unseen(format!("`{upper} {what}`, its body not in the file"));
        return Some((
            vec![Finding {
                condition: Some(Condition::Values(format!(
                    "the body of `{what}` decides, and it is not in the file"
                ))),
                ..finding(
                    Rule::UnseenBody,
                    format!(
                        "`{upper} {what}`: the script's body is not in the file, so the keys it \
                     touches are unseen"
                    ),
                    if name.starts_with("fcall") && !registered.is_empty() {
                        let mut files: Vec<&str> =
                            registered.iter().map(|(_, f, _)| f.as_str()).collect();
                        files.dedup();
                        format!(
                            "the libraries given ({}) register no `{what}`: lint the file of the \
                         library that does with them",
                            slotgen::text::escape(files.join(", ").as_bytes())
                        )
                    } else if name.starts_with("fcall") {
                        "lint the library's file too: `slotgen lint --function NAME --keys ... \
                     library.lua`"
                            .to_owned()
                    } else {
                        "write the script inline with EVAL here, or lint its file with the same \
                     --keys and --argv"
                            .to_owned()
                    },
                    Outcome::Depends,
                )
            }],
            writes,
        ));
    }
    let body = match script_loaded {
        Some(l) => String::from_utf8_lossy(&l.body).into_owned(),
        None => function,
    };
    let script = match lua::read(path, &body) {
        Ok(script) => script,
        Err(e) => {
            return Some((
                vec![not_compiled(&upper, "script", &e, at, targets)],
                BodyWrites::Calls(Vec::new()),
            ))
        }
    };
    if let lua::ScriptKind::Library { name: library, .. } = &script.kind {
        let library = slotgen::text::escape(library.as_bytes());
        return Some((
            vec![finding(
                Rule::UnknownFlag,
                format!(
                    "`{upper}` takes no `name=` in the shebang: the server refuses the script \
                     (\"Unknown lua shebang option: name={library}\")"
                ),
                "load a library by FUNCTION LOAD and call it by FCALL, or remove `name=` for \
                 EVAL"
                    .to_owned(),
                Outcome::Fails,
            )],
            BodyWrites::Calls(Vec::new()),
        ));
    }
    let via = match name {
        "eval_ro" => Some("EVAL_RO"),
        "evalsha_ro" => Some("EVALSHA_RO"),
        _ => None,
    };
    let report = verdict::script_called(&script, &values, targets, via);
    let mut out: Vec<Finding> = report
        .findings
        .into_iter()
        // the declared keys are the command's own rule, checked with every command
        .filter(|f| f.rule != Rule::DeclaredCrossSlot)
        .map(|mut f| {
            f.message = format!("`{upper}` script, its line {}: {}", f.at.line, f.message);
            f.at = at;
            f
        })
        .collect();
    if let Some(l) = script_loaded {
        out.push(one_node(
            &upper,
            &format!("the script `{}`", l.sha),
            l.at,
            &words[3..3 + numkeys],
            at,
            targets,
            "SCRIPT LOAD",
        ));
    }
    // EVAL_RO and EVALSHA_RO refuse the script's writes
    let writes = match via {
        Some(_) => Vec::new(),
        None => body_writes(&script, &values),
    };
    Some((out, BodyWrites::Calls(writes)))
}

/// The finding on a command line's script (`upper`: `EVAL`, `SCRIPT LOAD`, ...) or library
/// (`FUNCTION LOAD`) that the lint cannot read, `e` (`compile-error` when it is no Lua 5.1:
/// the server answers "Error compiling script" or, for a library, "Error compiling
/// function"; `what` says which).
fn not_compiled(upper: &str, what: &str, e: &Error, at: Position, targets: &[Target]) -> Finding {
    Finding {
        at,
        rule: match e {
            Error::Parse { .. } => Rule::CompileError,
            _ => Rule::UnknownKeys,
        },
        kind: None,
        message: format!(
            "`{upper}`: the server cannot compile the {what} (\"Error compiling {what}\"): {}",
            slotgen::text::escape(e.to_string().as_bytes())
        ),
        fix: format!(
            "fix the {} (Lua 5.1)",
            if what == "function" { "library" } else { what }
        ),
        condition: None,
        targets: targets.iter().map(|&t| (t, Outcome::Fails)).collect(),
    }
}

/// The libraries and scripts a command file's own `FUNCTION LOAD` and `SCRIPT LOAD` lines
/// load, in the file's order, for its later `FCALL` and `EVALSHA` lines.
#[derive(Default)]
struct Loaded {
    libraries: Vec<LoadedLibrary>,
    scripts: Vec<LoadedScript>,
}

/// A library a `FUNCTION LOAD` line loads: read as a `.lua` file, its name, and its line.
struct LoadedLibrary {
    script: lua::Script,
    name: String,
    at: Position,
}

/// A script a `SCRIPT LOAD` line loads: its text, its SHA1 in hex (the name `EVALSHA`
/// calls it by), and its line.
struct LoadedScript {
    body: Vec<u8>,
    sha: String,
    at: Position,
}

/// The findings of a `FUNCTION LOAD [REPLACE] "<library>"` or `SCRIPT LOAD "<script>"` line
/// (`None` for any other line, or one whose arity is refused): what the LOAD meets, as the
/// same text in a `.lua` file is linted (a library: what FUNCTION LOAD runs and reads,
/// [`verdict::library_at_load`], `library-load` among them; a script: what SCRIPT LOAD
/// refuses, its shebang and its compiling), for a LOAD runs no function nor script: what
/// the code does when called is the FCALL's or EVALSHA's. Each at the line, with the
/// text's own line in the message. What it loads is kept in `loaded` for the
/// file's later FCALL and EVALSHA lines.
fn load_line(
    path: &Path,
    name: &str,
    words: &[Vec<u8>],
    at: Position,
    targets: &[Target],
    loaded: &mut Loaded,
) -> Option<Vec<Finding>> {
    let every = |o| targets.iter().map(|&t| (t, o)).collect::<Vec<_>>();
    let (upper, text) = match (name, words) {
        ("function|load", [_, _, text]) => ("FUNCTION LOAD", text),
        ("function|load", [_, _, replace, text]) if replace.eq_ignore_ascii_case(b"replace") => {
            ("FUNCTION LOAD", text)
        }
        ("script|load", [_, _, text]) => ("SCRIPT LOAD", text),
        _ => return None,
    };
    let body = String::from_utf8_lossy(text);
    let refused = |message: String, fix: &str| Finding {
        at,
        rule: Rule::LibraryLoad,
        kind: None,
        message,
        fix: fix.to_owned(),
        condition: None,
        targets: every(Outcome::Fails),
    };
    let script = match lua::read(path, &body) {
        Ok(script) => script,
        Err(e) => {
            let what = if upper == "SCRIPT LOAD" {
                "script"
            } else {
                "function"
            };
            return Some(vec![not_compiled(upper, what, &e, at, targets)]);
        }
    };
    let shown = |findings: Vec<Finding>| -> Vec<Finding> {
        findings
            .into_iter()
            .map(|mut f| {
                f.message = format!("`{upper}` text, its line {}: {}", f.at.line, f.message);
                f.at = at;
                f
            })
            .collect()
    };
    if upper == "SCRIPT LOAD" {
        if let lua::ScriptKind::Library { name: library, .. } = &script.kind {
            let library = slotgen::text::escape(library.as_bytes());
            return Some(vec![Finding {
                rule: Rule::UnknownFlag,
                ..refused(
                    format!(
                        "`SCRIPT LOAD` takes no `name=` in the shebang: the server refuses the \
                         script (\"Unknown lua shebang option: name={library}\")"
                    ),
                    "load a library by FUNCTION LOAD and call it by FCALL, or remove `name=` \
                     for SCRIPT LOAD",
                )
            }]);
        }
        // SCRIPT LOAD compiles the script and runs nothing: what it refuses is the
        // shebang's and the parser's; the rest is judged where EVALSHA calls it
        let report = verdict::script(&script, &Values::default(), targets);
        let out = shown(
            report
                .findings
                .into_iter()
                .filter(|f| {
                    matches!(
                        f.rule,
                        Rule::UnknownFlag | Rule::ShebangEngine | Rule::SyntaxLevels
                    )
                })
                .collect(),
        );
        loaded.scripts.push(LoadedScript {
            sha: sha1_smol::Sha1::from(text.as_slice()).digest().to_string(),
            body: text.clone(),
            at,
        });
        return Some(out);
    }
    let lua::ScriptKind::Library { name: library, .. } = &script.kind else {
        return Some(vec![refused(
            "`FUNCTION LOAD` of a text without a `#!lua name=<library>` shebang: the server \
             refuses it (\"Missing library metadata\")"
                .to_owned(),
            "begin the text with `#!lua name=<library>` and register its functions with \
             `redis.register_function`, or call a script by EVAL",
        )]);
    };
    let library = library.clone();
    let mut out = Vec::new();
    let replace = words.len() == 4;
    if let Some(before) = loaded.libraries.iter().find(|l| l.name == library) {
        if !replace {
            out.push(refused(
                format!(
                    "`FUNCTION LOAD` without REPLACE of the library `{}`, which line {} of this \
                     file loads: the server refuses it (\"Library '{}' already exists\")",
                    slotgen::text::escape(library.as_bytes()),
                    before.at.line,
                    slotgen::text::escape(library.as_bytes()),
                ),
                "load it with `FUNCTION LOAD REPLACE`, or load it once",
            ));
        }
    }
    let others: Vec<lua::Script> = loaded.libraries.iter().map(|l| l.script.clone()).collect();
    let mut findings = verdict::library_at_load(&script, targets);
    findings.extend(verdict::library_clash(&script, &others, targets));
    out.extend(shown(findings));
    loaded.libraries.push(LoadedLibrary {
        script,
        name: library,
        at,
    });
    Some(out)
}

/// The finding on a call (`upper`: `FCALL`, `EVALSHA` and their `_RO` forms) of `what`,
/// which a LOAD line of the file (`load`, at `loaded_at`) loads (`loaded-one-node`): in a
/// cluster the LOAD reaches one node, the one the connection is on, and the call is sent to
/// the node of its keys' slot (`keys`; with none, to the node the connection is on). There
/// the call runs; elsewhere the server answers "Function not found" (FCALL) or "NOSCRIPT No
/// matching script" (EVALSHA), measured with `redis-cli -c` on Redis 7.0, Valkey 8.0 and
/// 9.1 (break23 G2).
fn one_node(
    upper: &str,
    what: &str,
    loaded_at: Position,
    keys: &[Vec<u8>],
    at: Position,
    targets: &[Target],
    load: &str,
) -> Finding {
    let (refusal, sent) = if upper.starts_with("FCALL") {
        ("ERR Function not found", "FCALL")
    } else {
        ("NOSCRIPT No matching script", "EVALSHA")
    };
    let line = loaded_at.line;
    let (message, condition) = match keys.first() {
        Some(key) => {
            let slot = REDIS_CLUSTER.key_slot(key);
            (
                format!(
                    "`{upper}` of {what}, which line {line} of this file loads: in a cluster \
                     `{load}` reaches one node, the one the connection is on, and this {sent} \
                     is sent to the node of slot {slot} (`{}`); where that is another node, the \
                     server answers \"{refusal}\"",
                    slotgen::text::escape(key)
                ),
                format!("the node that line {line} is sent to owns slot {slot}"),
            )
        }
        None => (
            format!(
                "`{upper}` of {what}, which line {line} of this file loads: in a cluster \
                 `{load}` reaches one node, the one the connection is on, and this {sent} \
                 without keys runs on the node it is sent to; on another node the server \
                 answers \"{refusal}\""
            ),
            format!("this line is sent to the node that line {line} is sent to"),
        ),
    };
    Finding {
        at,
        rule: Rule::LoadedOneNode,
        kind: None,
        message,
        fix: format!(
            "load it on every primary before the file runs (`redis-cli --cluster call \
             HOST:PORT {load} ... --cluster-only-masters`; valkey-cli: \
             `--cluster-only-primaries`), and remove line {line}"
        ),
        condition: Some(Condition::Values(condition)),
        targets: targets.iter().map(|&t| (t, Outcome::Depends)).collect(),
    }
}

/// The `watch-other-slot` findings at EXEC: a watched key on another slot than the
/// transaction's (`slot`). WATCH went to the node the transaction runs on, so the watch
/// holds only while that slot is there too: on another node WATCH answered MOVED and the
/// transaction runs unguarded.
fn watch_findings(
    watches: &[Queued],
    slot: u16,
    at: Position,
    targets: &[Target],
    queued: &[Queued],
) -> Vec<Finding> {
    watches
        .iter()
        .filter(|(_, s, _)| *s != slot)
        .map(|(k, s, watch_at)| {
            let tag = suggested_tag(queued.iter().chain(watches).map(|(k, _, _)| k.as_slice()));
            Finding {
                at,
                rule: Rule::WatchOtherSlot,
                kind: None,
                message: format!(
                    "EXEC: the watched key `{}` (slot {s}, line {}) is not on the \
                     transaction's slot {slot}: the watch holds only while both slots are on \
                     the node that runs the transaction; elsewhere WATCH answers MOVED and \
                     the transaction runs unwatched (redis-cli -c follows WATCH to its node, \
                     and EXEC answers \"EXEC without MULTI\")",
                    slotgen::text::escape(k),
                    watch_at.line
                ),
                fix: format!("put `{{{tag}}}` in every watched and queued key"),
                condition: Some(Condition::SameNode(vec![slot, *s])),
                targets: targets.iter().map(|&t| (t, Outcome::Depends)).collect(),
            }
        })
        .collect()
}

/// Whether the write `words` (of the command `name`) changes its keys whatever they hold,
/// which is what ends a WATCH: `SET` without a condition (`NX`, `XX`, `IFEQ`), `SETEX`,
/// `PSETEX`, `MSET` overwrite any value (measured on Redis 7.0, Valkey 8.0 and 9.1, `SET`
/// of the value the key holds too). Another write may change nothing (`DEL` of a missing
/// key, `HSET` refused on a string, measured: the watch holds).
fn overwrites(name: &str, words: &[Vec<u8>]) -> bool {
    match name {
        "setex" | "psetex" | "mset" => true,
        "set" => !words.iter().skip(3).any(|w| {
            [&b"nx"[..], b"xx", b"ifeq"]
                .iter()
                .any(|c| w.eq_ignore_ascii_case(c))
        }),
        _ => false,
    }
}

/// A watched key written (or that may be) on this connection after its WATCH, before the
/// transaction (`watch-written`): the watch, the line, how the line writes it ("is written
/// on line 2"), and what must hold for the key to be left as it was (`None` where the
/// write changes it whatever it holds).
struct Written {
    watch: Queued,
    at: Position,
    how: String,
    unless: Option<String>,
}

/// The `watch-written` finding at EXEC (`at`) of the write `w`. The servers abort a
/// transaction whose watched key changed after WATCH, by any client, this one too, a
/// script's write and a flush of the key included: EXEC answers nil and runs nothing
/// (measured on Redis 7.0, Valkey 8.0 and 9.1; a flush only where the key existed).
/// `fails` where the write changes the key whatever it holds, else `depends`.
fn watch_written(w: &Written, at: Position, targets: &[Target]) -> Finding {
    let key = slotgen::text::escape(&w.watch.0);
    let outcome = match w.unless {
        None => Outcome::Fails,
        Some(_) => Outcome::Depends,
    };
    Finding {
        at,
        rule: Rule::WatchWritten,
        kind: None,
        message: format!(
            "EXEC: the watched key `{key}` (WATCH on line {}) {} by this connection before the \
             transaction: the server aborts a transaction whose watched key changed, and EXEC \
             answers nil (none of its commands runs)",
            w.watch.2.line, w.how,
        ),
        fix: format!(
            "WATCH `{key}` after line {} (or send line {} inside the transaction, after MULTI)",
            w.at.line, w.at.line
        ),
        condition: w.unless.clone().map(Condition::Values),
        targets: targets.iter().map(|&t| (t, outcome)).collect(),
    }
}

/// What a script call line (`EVAL`, `EVALSHA`, `FCALL`) may write, for `watch-written`.
enum BodyWrites {
    /// The body is not in the file (`EVALSHA` of a script no line loads, `FCALL` of a
    /// library not given): it may write any key; what is called.
    Unseen(String),
    /// The write calls of what runs (the script, or the function called).
    Calls(Vec<CallWrite>),
}

/// A write call of a script: its line in the script, its command, the key it writes with
/// the call's values (`None`: any key: a flush, a command the lint cannot read, a key it
/// cannot place) and whether it changes that key whatever it holds, whenever the script
/// runs.
struct CallWrite {
    line: usize,
    command: String,
    key: Option<Vec<u8>>,
    certain: bool,
}

impl BodyWrites {
    /// How the script call `name` (`words`, at `at`) writes the watched key `key`: the
    /// words of [`Written::how`] and [`Written::unless`]; `None` where it writes no such key.
    fn of(
        &self,
        key: &[u8],
        name: &str,
        words: &[Vec<u8>],
        at: Position,
    ) -> Option<(String, Option<String>)> {
        let upper = name.to_ascii_uppercase();
        let what = slotgen::text::escape(words.get(1).map_or(&[][..], Vec::as_slice));
        let shown = slotgen::text::escape(key);
        let n = at.line;
        let calls = match self {
            BodyWrites::Unseen(called) => {
                return Some((
                    format!("may be written on line {n} ({called})"),
                    Some(format!(
                        "what `{upper} {what}` runs on line {n} leaves `{shown}` as it was"
                    )),
                ))
            }
            BodyWrites::Calls(calls) => calls,
        };
        let by = |c: &CallWrite| {
            let called = if name.starts_with("fcall") {
                format!("`{upper} {what}`")
            } else {
                format!("`{upper}`'s script")
            };
            format!(
                "{called}, its line {}: `{}`",
                c.line,
                c.command.to_ascii_uppercase()
            )
        };
        if let Some(c) = calls
            .iter()
            .find(|c| c.certain && c.key.as_deref() == Some(key))
        {
            return Some((format!("is written on line {n} ({})", by(c)), None));
        }
        let c = calls
            .iter()
            .find(|c| c.key.as_deref().is_none_or(|k| k == key))?;
        let (may, unless) = match c.key {
            Some(_) => (
                "may be written",
                "changes nothing (`DEL` of a missing key), is refused or does not run",
            ),
            None => (
                "may be written",
                "writes another key (the lint cannot place the keys it writes), changes \
                 nothing or does not run",
            ),
        };
        Some((
            format!("{may} on line {n} ({})", by(c)),
            Some(format!(
                "the `{}` of line {n}'s {} (its line {}) {unless}",
                c.command.to_ascii_uppercase(),
                if name.starts_with("fcall") {
                    "function"
                } else {
                    "script"
                },
                c.line
            )),
        ))
    }
}

/// The write calls of what a script call runs (`values.function` of a library, else the
/// script's own code), with `values`: each key they write, placed with the call's values
/// (the lint's own reading of the script), [`CallWrite`]. None where the script or the
/// function has the flag `no-writes` (the servers refuse its writes).
fn body_writes(script: &lua::Script, values: &Values) -> Vec<CallWrite> {
    let (unit, flags) = match (&script.kind, &values.function) {
        (lua::ScriptKind::Library { functions, .. }, Some(name)) => {
            match functions.iter().position(|f| f.is_called(name)) {
                Some(i) => (Some(i), functions[i].flags.clone()),
                None => return Vec::new(),
            }
        }
        (lua::ScriptKind::Shebang { flags }, _) => (None, flags.clone()),
        _ => (None, Vec::new()),
    };
    if flags.iter().any(|f| f == "no-writes") {
        return Vec::new();
    }
    let mut out = Vec::new();
    for call in &script.calls {
        let in_unit = match unit {
            None => call.functions.is_empty(),
            Some(i) => call.functions.contains(&i),
        };
        if !in_unit || call.top_level && unit.is_some() {
            continue;
        }
        let line = call.at.line;
        let command = call.command.clone().unwrap_or_else(|| "?".to_owned());
        let entry = call
            .command
            .as_deref()
            .filter(|_| call.known)
            .and_then(|c| commands::find(c, u8::MAX));
        let any = |command: String| CallWrite {
            line,
            command,
            key: None,
            certain: false,
        };
        let Some(entry) = entry else {
            out.push(any(command));
            continue;
        };
        if !entry.write {
            continue;
        }
        if matches!(command.as_str(), "flushall" | "flushdb") || call.uncertain.is_some() {
            out.push(any(command.clone()));
        }
        let words: Option<Vec<Vec<u8>>> = call.args.iter().map(|a| a.value(values)).collect();
        let certain = call.maybe.is_none()
            && call.unpacked.is_none()
            && call.choices.is_empty()
            && words.is_some_and(|w| overwrites(&command, &w));
        for k in &call.keys {
            out.push(CallWrite {
                line,
                command: command.clone(),
                key: k.value(values),
                certain,
            });
        }
    }
    out
}

/// The `transaction-other-node` finding at MULTI (`multi_at`): the connection is on the
/// node of `on` (the key a line before sent it to), the transaction's first key `first`
/// on another slot. redis-cli -c follows MOVED to a key's node and stays there; a queued
/// command of another node is answered MOVED (which flags the transaction), redis-cli -c
/// sends it there alone, outside any transaction, and EXEC there answers "EXEC without
/// MULTI"; a client that does not follow MOVED gets EXECABORT (measured with redis-cli 7.0
/// on Redis 7.0, break26 on Valkey 8.0 and 9.1).
fn other_node(on: &Queued, first: &Queued, multi_at: Position, targets: &[Target]) -> Finding {
    let key = slotgen::text::escape(&first.0);
    Finding {
        at: multi_at,
        rule: Rule::TransactionOtherNode,
        kind: None,
        message: format!(
            "MULTI: the connection is on the node of slot {} (`{}`, line {}), as redis-cli \
             -c leaves it, and this transaction's keys are on slot {} (`{key}`, line {}): \
             where that is another node, the queued command is answered MOVED, redis-cli -c \
             sends it there alone, outside the transaction, and EXEC answers \"EXEC without \
             MULTI\" (a client that does not follow MOVED: EXECABORT)",
            on.1,
            slotgen::text::escape(&on.0),
            on.2.line,
            first.1,
            first.2.line
        ),
        fix: format!(
            "send a command on `{key}` before MULTI (`EXISTS {key}`): redis-cli -c then moves \
             the connection to its node, where the transaction runs"
        ),
        condition: Some(Condition::SameNode(vec![on.1, first.1])),
        targets: targets.iter().map(|&t| (t, Outcome::Depends)).collect(),
    }
}

/// A key queued in a transaction: its bytes, its slot, and where its command is.
type Queued = (Vec<u8>, u16, Position);
