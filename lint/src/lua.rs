//! Reading a Lua script into the calls it makes: the shebang and its flags, `--- @include`
//! lines (bullmq's), Functions libraries with their functions and flags, and for every
//! `redis.call`/`redis.pcall` (also `server.call`, and any local alias such as `local rcall =
//! redis.call`) its command and its key arguments as [`KeyExpr`]s.
//!
//! The dataflow is small on purpose: a local assigned once keeps the value it was given
//! (`local k = KEYS[2]`, `local q = '{q}:' .. ARGV[1]`); a binding assigned in several
//! places, a function's parameter, a loop variable or a value read from the server is
//! opaque. Values are kept per binding (`names::Holder`), as Lua scopes names.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use full_moon::ast::{self, BinOp, Call, Expression, FunctionArgs, Index, Prefix, Suffix, Var};
use full_moon::node::Node;
use full_moon::tokenizer::{TokenReference, TokenType};
use full_moon::visitors::{Visit, Visitor};

use crate::commands::{self, Arg};
use crate::key::{Edit, KeyExpr, Part};
use crate::{Error, Position, MAX_FILES, MAX_SOURCE_BYTES};

mod arguments;
mod changes;
mod instances;
mod kind;
mod levels;
mod names;
mod source;
mod strings;
mod syntax;

use changes::{Changes, Read, Which};
use instances::Helpers;
pub use kind::{Function, ScriptKind};
use names::*;
pub use source::ShebangRefusal;
use source::*;
pub(crate) use source::{lua_byte_escape, read_bounded};
use strings::*;
use syntax::*;

/// One `redis.call` (or `pcall`) of a script.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallSite {
    /// Where the call is.
    pub at: Position,
    /// The command, lower case (`object|encoding` for a subcommand), when it is a literal.
    pub command: Option<String>,
    /// Whether the command is in the command table.
    pub known: bool,
    /// The key arguments, in order.
    pub keys: Vec<KeyExpr>,
    /// Why the call may have keys the lint cannot place, if it may.
    pub uncertain: Option<&'static str>,
    /// The library functions that may run the call, for a Functions library: the one whose
    /// body holds it, and those that reach the local function holding it by name (empty for
    /// a script that is no library, and for code outside every function).
    pub functions: Vec<usize>,
    /// Whether an error of the call is handed to the script instead of ending it:
    /// `redis.pcall`, `pcall(redis.call, ...)`, or a call inside `pcall(function() ... end)`.
    pub protected: bool,
    /// Whether the call is outside every function of the file: in a Functions library,
    /// FUNCTION LOAD runs it, where `redis.call` does not exist.
    pub top_level: bool,
    /// How many arguments the call passes, the command's name counted, when the lint can
    /// count them (no `unpack(...)` or call last).
    pub arguments: Option<usize>,
    /// Every argument as the lint reads it, the command's name first (none when the
    /// command is no literal): the verdict reads them with the call's values (`SELECT
    /// ARGV[1]` with `--argv 1`).
    pub args: Vec<KeyExpr>,
    /// The call's last argument when it is `unpack(KEYS or ARGV[, i[, j]])` of the caller's
    /// table (not changed by the script; `i`, `j` integer literals): with the call's
    /// values, the count of arguments is known (`redis.call('HSET', KEYS[1],
    /// unpack(ARGV))`). Its values are not in [`CallSite::args`].
    pub unpacked: Option<Unpacked>,
    /// Why the call may not run when the script (or its library function) does: a branch,
    /// a loop's body, the right of `and`/`or`, after a `return`, a function that may not be
    /// called (`maybe_at`); `None` when it runs whenever they do.
    pub maybe: Option<&'static str>,
    /// The wrapper the call goes through (`rcall('SET', k)` after `local function rcall(...)
    /// return redis.call(...) end`), the innermost wrapper (itself, or the one it forwards
    /// to) and where that one's body runs the command: the servers name that line in their
    /// errors.
    pub via: Option<(String, String, Position)>,
    /// Whether a refusal of the call, caught, reaches neither the script's code nor its
    /// reply: the call is a statement of its own (`redis.pcall('SET', k, v)` on a line
    /// alone), or inside a function run by a `pcall` that drops the error (a statement, or
    /// `local ok = pcall(function() ... end)`).
    pub dropped: bool,
    /// Whether the call is `redis.pcall` (or an alias of it) whose values are the reply of
    /// the script or of its function (`return redis.pcall(...)`): the error a refusal gives
    /// is then the reply the caller gets.
    pub reply: bool,
    /// The helper calls the call is reached through, outermost first: the helper's name and
    /// where it is called (`get(keys[1])` at line 4 for the `redis.call` in `local function
    /// get(k) ... end`). Each call of a helper of `Names::passed` is followed into its
    /// body with the values that call gives (as the servers run it), so a helper called
    /// with two keys is two calls, each with its caller's key and its caller's function;
    /// empty for a call not in such a helper.
    pub through: Vec<(String, Position)>,
    /// The arguments that are a local the script gives more than one value (`local t =
    /// ARGV[1] if c then t = '10' end`): each with its index in `args` and every value it
    /// is given, any of which it may hold at the call (the lint reads values per name, not
    /// per place in the code).
    pub choices: Vec<(usize, Vec<KeyExpr>)>,
    /// Why the count of the call's arguments is not known where its last one is `unpack`
    /// the lint does not count.
    pub uncounted: Option<Uncounted>,
}

/// Why the lint does not count the values of a call's last argument `unpack(...)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Uncounted {
    /// Of KEYS or ARGV, which the script may have changed before (the change, with its
    /// line).
    Changed(String),
    /// Of a table the script fills or reads (`local t = {}` then `table.insert(t, ...)`),
    /// or with bounds that are no literals: the call and its table as written.
    NotCounted(String, String),
}

/// `unpack(t, i, j)` of the caller's KEYS or ARGV as a call's last argument: Lua 5.1 gives
/// `t[i]` to `t[j]` (`i` 1 and `j` `#t` when absent), none when `i > j`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Unpacked {
    /// Whether the table is KEYS (else ARGV).
    pub keys: bool,
    /// `i`.
    pub from: i64,
    /// `j`, when given.
    pub to: Option<i64>,
}

impl Unpacked {
    /// How many values it gives from a table of `len` elements, when all are strings:
    /// `None` when `j` is past the end (the call gets `nil`, which the servers refuse as
    /// no string) or a bound is out of the table's range.
    ///
    /// ```
    /// use slotgen_lint::lua::Unpacked;
    ///
    /// let u = Unpacked { keys: false, from: 4, to: None };
    /// assert_eq!(u.count(4), Some(1));
    /// assert_eq!(u.count(3), Some(0));
    /// assert_eq!(Unpacked { keys: false, from: 1, to: Some(5) }.count(4), None);
    /// ```
    #[must_use]
    pub fn count(self, len: usize) -> Option<usize> {
        let len = i64::try_from(len).ok()?;
        let to = self.to.unwrap_or(len);
        if self.from > to {
            return Some(0);
        }
        (self.from >= 1 && to <= len).then(|| usize::try_from(to - self.from + 1).ok())?
    }
}

/// An assignment to a global (`helper = ...`, `function helper()`) or into a global table
/// (`redis.x = ...`): Redis and Valkey keep the globals read-only and refuse the script
/// when it runs ("Attempt to modify a readonly table"), a library's body at FUNCTION LOAD.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GlobalWrite {
    /// Where it is.
    pub at: Position,
    /// What is assigned, as written (`helper`, `redis.x`, `r.x`).
    pub name: String,
    /// The global table written into when the write goes through a local that holds it
    /// (`local r = redis` then `r.x = 1`: `redis`).
    pub aliased: Option<String>,
    /// The library functions that may run it (as [`CallSite::functions`]).
    pub functions: Vec<usize>,
    /// Whether the script catches its error (inside `pcall(function() ... end)`).
    pub protected: bool,
    /// Whether it is outside every function of the file (a library's: run at load).
    pub top_level: bool,
}

/// A call of a function of `redis` whose literal argument the servers refuse when it runs
/// (`redis.setresp(4)`, `redis.set_repl(99)`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArgumentRefusal {
    /// Where the call is.
    pub at: Position,
    /// Why the server refuses it, with its words.
    pub reason: String,
    /// What to pass instead.
    pub fix: String,
    /// What must hold for the refusal, when it is not certain whenever the call runs.
    pub condition: Option<String>,
    /// The library functions that may run it (as [`CallSite::functions`]).
    pub functions: Vec<usize>,
    /// Whether the script catches its error (inside `pcall(function() ... end)`).
    pub protected: bool,
    /// Whether it is outside every function of the file (a library's: run at load).
    pub top_level: bool,
    /// Why it may not run when the script (or the function holding it) runs, if it may
    /// not (as [`GlobalRead::maybe`]).
    pub maybe: Option<&'static str>,
}

/// A read of a global some server does not have in the place it runs (`KEY[1]`,
/// `tonumbr(x)`, `os.clock()` on Redis 7.0, `KEYS` in a function, `string` in a library's
/// body): the server refuses the script when the read runs ("Script attempted to access
/// nonexistent global variable").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GlobalRead {
    /// Where it is.
    pub at: Position,
    /// The name read.
    pub name: String,
    /// The library functions that may run it (as [`CallSite::functions`]).
    pub functions: Vec<usize>,
    /// Whether the script catches its error (inside `pcall(function() ... end)`).
    pub protected: bool,
    /// Whether it is outside every function of the file (a library's: run at load).
    pub top_level: bool,
    /// Why it may not run when the script (or the function holding it) runs, if it may
    /// not: in a branch of an `if`, a loop's body, the right of `and`/`or`, after a
    /// `return` in a block, inside a function that may not be called.
    pub maybe: Option<&'static str>,
    /// The line of a local of the same name declared below the read (`local function f`
    /// after its first call), if there is one.
    pub declared_below: Option<usize>,
    /// The field called, when the read is of a field of the global table `name` that some
    /// server does not have ([`crate::globals::fields`]): `redis.cal(...)` is the read of
    /// `cal` in `redis` (the server refuses the call, "attempt to call field 'cal' (a nil
    /// value)"; at FUNCTION LOAD the read, "nonexistent global variable 'cal'").
    pub field: Option<String>,
    /// The locals and parameters visible where it is read, innermost first (for the
    /// nearest name a fix suggests).
    pub in_scope: Vec<String>,
    /// The global table `name` holds, when `name` is a local declared with one and not
    /// assigned again (`local r = redis` then `r.cal(...)`: `redis`): its fields are
    /// checked as the table's.
    pub aliased: Option<String>,
    /// Whether that local is declared in a library's body, outside every function: it holds
    /// the `redis` FUNCTION LOAD gives the body (`register_function`, `log`, the constants),
    /// and keeps it for the functions that read it when they run (`r.call` there is refused:
    /// "Script attempted to access nonexistent global variable 'call'", measured on the three
    /// servers).
    pub loaded: bool,
    /// Whether `field` is a method called on `name`, a string (`s:sbu()`): strings' methods
    /// are the functions of `string`.
    pub method: bool,
}

/// A script read: its kind, its files (the first is the script, the rest its includes)
/// and its calls.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Script {
    /// Eval, shebang or library, with the flags.
    pub kind: ScriptKind,
    /// The files read: the script, then the files it includes.
    pub files: Vec<PathBuf>,
    /// Every call, in file and source order.
    pub calls: Vec<CallSite>,
    /// Where the shebang is, when there is one.
    pub shebang: Option<Position>,
    /// Dragonfly's flags, from `--!df flags=a,b` comment lines of the script.
    pub dragonfly_flags: Vec<String>,
    /// The assignments to globals of the script (not of its includes), in source order.
    pub global_writes: Vec<GlobalWrite>,
    /// The reads of globals that some server does not have where they run (of the script,
    /// not of its includes), in source order.
    pub global_reads: Vec<GlobalRead>,
    /// The shebang's engine as written when it is not `lua` (`#!LUA`): FUNCTION LOAD takes
    /// any case, EVAL on Valkey 9 too, on Redis 7.0 and Valkey 8 only `lua`.
    pub engine: Option<String>,
    /// Why the servers refuse the shebang line, when they do (`#! lua`, an option EVAL or
    /// FUNCTION LOAD does not take, `name=` twice).
    pub shebang_refused: Option<ShebangRefusal>,
    /// The calls of file 0 whose literal argument the servers refuse (`redis.setresp(4)`).
    pub refused_arguments: Vec<ArgumentRefusal>,
    /// The syntax levels of Lua 5.1's parser over the script and its includes (its nested
    /// blocks, function bodies and expressions: each operand of a `..` or `^` chain, each
    /// bracket, each unary operator): entry `n` is where the count first reaches `n + 1`, as
    /// many entries as the deepest count. A server refuses the script whose count passes
    /// its limit ([`crate::globals::Server::syntax_levels`]) where it does.
    pub syntax_levels: Vec<Position>,
    /// The calls of `redis.log` (Valkey's `server.log` too, or through a local that holds
    /// the table) in a library's body, outside every function: FUNCTION LOAD runs them, and
    /// Valkey 9.1.2 stops there (an assertion in `script_lua.c`).
    pub load_logs: Vec<LoadLog>,
}

/// A call of the `log` of the global table `table` (`redis`, `server`) in a library's body,
/// run by FUNCTION LOAD.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadLog {
    /// Where the call is.
    pub at: Position,
    /// The table as written (`redis`, `server`, or the local that holds it).
    pub table: String,
    /// Why it may not run when FUNCTION LOAD runs the body (a branch, a loop's body), if it
    /// may not (as [`GlobalRead::maybe`]).
    pub maybe: Option<&'static str>,
}

/// Reads the script `source` of the file `path` (its `--- @include "x"` lines resolved
/// against `path`'s folder as `x.lua`), and finds its calls.
///
/// # Errors
///
/// [`Error::TooLarge`], [`Error::TooDeep`] past the bounds, [`Error::Parse`] with the line
/// and column of the first syntax error, [`Error::Include`] for an include that cannot be
/// read, [`Error::Shebang`] for a shebang of an unknown engine.
pub fn read(path: &Path, source: &str) -> Result<Script, Error> {
    let (owned_path, owned_source) = (path.to_path_buf(), source.to_owned());
    let stopped = |message: String| Error::Parse {
        file: crate::shown(path),
        line: 0,
        column: 0,
        message,
    };
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(move || read_here(&owned_path, &owned_source))
        .map_err(|e| stopped(e.to_string()))?
        .join()
        .map_err(|_| stopped("the parser stopped".to_owned()))?
}

/// [`read`] on the calling thread.
fn read_here(path: &Path, source: &str) -> Result<Script, Error> {
    let mut files = vec![(path.to_path_buf(), source.to_owned())];
    let mut total = source.len();
    let mut i = 0;
    while i < files.len() {
        let includes = includes(&files[i].1);
        let dir = files[i]
            .0
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default();
        for (name, _) in includes {
            let file = include_path(&dir, &name);
            if files.iter().any(|(p, _)| *p == file) {
                continue;
            }
            if files.len() >= MAX_FILES {
                return Err(Error::TooManyIncludes {
                    file: crate::shown(path),
                    max: MAX_FILES,
                });
            }
            let text = read_bounded(&file, lua_byte_escape).map_err(|reason| Error::Include {
                file: crate::shown(&files[i].0),
                include: slotgen::text::escape_controls(&name),
                reason: if file.exists() {
                    format!("`{}`: {reason}", crate::shown(&file))
                } else {
                    format!(
                        "{reason}; the file must be beside the script as `{}.lua`",
                        slotgen::text::escape_controls(&name)
                    )
                },
            })?;
            total += text.len();
            if total > MAX_SOURCE_BYTES {
                return Err(Error::TooLarge {
                    file: crate::shown(path),
                    max: MAX_SOURCE_BYTES,
                });
            }
            files.push((file, text));
        }
        i += 1;
    }
    if total > MAX_SOURCE_BYTES {
        return Err(Error::TooLarge {
            file: crate::shown(path),
            max: MAX_SOURCE_BYTES,
        });
    }
    let (kind, shebang, engine, shebang_refused) = shebang(path, source)?;
    let mut asts = Vec::with_capacity(files.len());
    // each file parsed on its own, as the servers' parser reads each include at the top
    let mut syntax_levels: Vec<Position> = Vec::new();
    for (n, (file, text)) in files.iter().enumerate() {
        let text = if n == 0 && text.starts_with("#!") {
            format!("--{}", &text[2..])
        } else {
            text.clone()
        };
        let ast = parse(file, text)?;
        let reached = levels::levels(&ast, n);
        if reached.len() > syntax_levels.len() {
            let known = syntax_levels.len();
            syntax_levels.extend_from_slice(&reached[known..]);
        }
        asts.push(ast);
    }
    // Pass one: the names that stand for redis.call, for KEYS and for ARGV, over every file
    // (an include uses the script's `rcall`), and the library's functions; the includes
    // placed where the server runs them first, so that the files are one scope.
    let mut names = Names::default();
    let lines: Vec<Vec<(usize, usize)>> = files
        .iter()
        .map(|(path, text)| {
            let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
            includes(text)
                .into_iter()
                .filter_map(|(name, at)| {
                    let file = include_path(&dir, &name);
                    let child = files.iter().position(|(p, _)| *p == file)?;
                    Some((child, at))
                })
                .collect()
        })
        .collect();
    let nested = asts.first().map(block_depths).unwrap_or_default();
    names.place_includes(&lines, |byte| {
        let before = nested.partition_point(|&(at, _)| at < byte);
        before > 0 && nested[before - 1].1 > 0
    });
    for (n, ast) in asts.iter().enumerate() {
        names.file = n;
        names.visit_ast(ast);
    }
    names.settle();
    let idents: Vec<Vec<(String, usize)>> = asts.iter().map(identifiers).collect();
    if let Some(own) = idents.first() {
        names.reach(own);
        names.settle_flags(own);
        names.settle_aliases();
        names.catch_pcalled(own);
        names.settle_passed(&idents);
        names.settle_tables(own);
    }
    let mut kind = kind;
    if let ScriptKind::Library { functions, .. } = &mut kind {
        functions.clone_from(&names.functions);
    }
    let library = matches!(kind, ScriptKind::Library { .. });
    let global_writes = names
        .globals
        .iter()
        .map(|&(ref name, at, byte, ref aliased)| GlobalWrite {
            at,
            name: name.clone(),
            aliased: aliased.clone(),
            functions: if library {
                names.functions_at(byte)
            } else {
                Vec::new()
            },
            protected: within(&names.caught, 0, byte),
            top_level: !within(&names.bodies, 0, byte),
        })
        .collect();
    let mut global_reads = global_reads(&names, source, library);
    let refused_arguments = asts
        .first()
        .map(|ast| arguments::refused(ast, &names))
        .unwrap_or_default()
        .into_iter()
        .map(|r| ArgumentRefusal {
            at: r.at,
            reason: r.reason,
            fix: r.fix.to_owned(),
            condition: r.condition,
            functions: if library {
                names.functions_at(r.byte)
            } else {
                Vec::new()
            },
            protected: within(&names.caught, 0, r.byte),
            top_level: !within(&names.bodies, 0, r.byte),
            maybe: maybe_at(&names, r.byte),
        })
        .collect();
    let sources: Vec<&str> = files.iter().map(|(_, text)| text.as_str()).collect();
    let changes = Changes::find(&asts, &sources, &names, &|byte| {
        maybe_in_place(&names, byte).is_none()
    });
    let mut calls = Vec::new();
    let helpers = Helpers::find(&asts, &names);
    let (values, choices) = values(&asts, &names, &changes);
    for (n, ast) in asts.iter().enumerate() {
        let mut flow = Flow {
            names: &names,
            changes: &changes,
            following: std::cell::Cell::new(false),
            notes: std::cell::RefCell::new(Vec::new()),
            pending: std::cell::Cell::new(false),
            deferred: std::cell::RefCell::new(std::collections::HashSet::new()),
            file: n,
            values: values.clone(),
            given: HashMap::new(),
            choices: &choices,
            frozen: true,
            calls: Vec::new(),
            library: matches!(kind, ScriptKind::Library { .. }),
            helpers: &helpers,
            root: None,
        };
        if n == 0 {
            global_reads.extend(method_misses(ast, source, &names, &flow.values, library));
        }
        flow.visit_ast(ast);
        calls.extend(flow.calls);
        calls.extend(unfollowed(ast, n, &names, &kind));
    }
    global_reads.sort_by_key(|r| r.at);
    calls.sort_by_key(|c| c.at);
    let dragonfly_flags = source
        .lines()
        .filter_map(|l| l.trim().strip_prefix("--!df"))
        .flat_map(|rest| rest.split_whitespace())
        .filter_map(|w| w.strip_prefix("flags="))
        .flat_map(|list| list.split(','))
        .filter(|f| !f.is_empty())
        .map(str::to_owned)
        .collect();
    Ok(Script {
        kind,
        files: files.into_iter().map(|(p, _)| p).collect(),
        calls,
        shebang,
        dragonfly_flags,
        global_writes,
        global_reads,
        engine,
        shebang_refused,
        refused_arguments,
        syntax_levels,
        load_logs: if library {
            load_logs(&names)
        } else {
            Vec::new()
        },
    })
}

/// The calls of `T.log(...)` in file 0 outside every function (a library's body, run by
/// FUNCTION LOAD), `T` the global `redis` or `server` or a local that holds one of them.
fn load_logs(names: &Names) -> Vec<LoadLog> {
    names
        .reads
        .iter()
        .filter(|&&(_, byte, _, top_level)| {
            top_level && names.field_calls.get(&byte).is_some_and(|f| f == "log")
        })
        .filter(|&&(ref name, byte, _, _)| {
            let table = match names.resolve(name, byte) {
                Some(b) => names.holds(b),
                None => Some(name.as_str()),
            };
            matches!(table, Some("redis" | "server")) && !within(&names.dead, 0, byte)
        })
        .map(|&(ref name, byte, at, _)| LoadLog {
            at,
            table: name.clone(),
            maybe: maybe_at(names, byte),
        })
        // `local log = redis.log` / `log(...)`
        .chain(
            names
                .load_log_calls
                .iter()
                .filter(|(table, byte, call, _)| {
                    names.api(0, table, *byte) && !within(&names.dead, 0, *call)
                })
                .map(|&(ref table, _, call, at)| LoadLog {
                    at,
                    table: table.clone(),
                    maybe: maybe_at(names, call),
                }),
        )
        .collect()
}

/// The file that `--- @include "name"` in a file of the folder `dir` reads: `name.lua`
/// when the name has no extension.
fn include_path(dir: &Path, name: &str) -> PathBuf {
    let mut file = dir.join(name);
    if file.extension().is_none() {
        file.set_extension("lua");
    }
    file
}

/// The depth of blocks (a function's body, `do`, `then`, `repeat`) after each keyword of
/// `ast` that opens or closes one, by the keyword's byte, in source order: a byte is
/// inside a block when the last such keyword before it leaves a depth above 0.
fn block_depths(ast: &ast::Ast) -> Vec<(usize, usize)> {
    let mut tokens: Vec<&TokenReference> = ast.nodes().tokens().rev().collect();
    tokens.sort_by_key(|t| t.token().start_position().bytes());
    let mut depth: usize = 0;
    let mut out = Vec::new();
    for t in tokens {
        if !matches!(t.token_type(), TokenType::Symbol { .. }) {
            continue;
        }
        depth = match t.token().to_string().as_str() {
            "function" | "do" | "then" | "repeat" => depth + 1,
            // `elseif` closes the branch before it; its `then` opens the next
            "end" | "until" | "elseif" => depth.saturating_sub(1),
            _ => continue,
        };
        out.push((t.token().start_position().bytes(), depth));
    }
    out
}

/// The reads of file 0 (`source`) of globals some server does not have where they run
/// ([`crate::globals`]): no binding covers them, outside dead code, and neither assigned
/// as globals by the script (`global-write` owns those) nor declared by an include.
fn global_reads(names: &Names, source: &str, library: bool) -> Vec<GlobalRead> {
    use crate::globals::{everywhere, functions, Place, Server};
    let written: std::collections::HashSet<&str> = names
        .globals
        .iter()
        .filter_map(|(text, _, _, _)| text.split(['.', ':', '[']).next())
        .collect();
    let newlines: Vec<usize> = source
        .bytes()
        .enumerate()
        .filter(|&(_, b)| b == b'\n')
        .map(|(i, _)| i)
        .collect();
    let line_of = |byte: usize| newlines.partition_point(|&n| n < byte) + 1;
    // the bytes of file 0 where a name is assigned (a write there is no read), in a set: a
    // search of the lists for each read was quadratic in a script of many assignments
    let assigned_at: std::collections::HashSet<usize> = names
        .assigned
        .iter()
        .filter(|&&(f, _, _)| f == 0)
        .map(|&(_, _, b)| b)
        .chain(names.globals.iter().map(|&(_, _, b, _)| b))
        .collect();
    let mut out = Vec::new();
    for &(ref name, byte, at, top_level) in &names.reads {
        let place = match (library, top_level) {
            (false, _) => Place::Eval,
            (true, true) => Place::Load,
            (true, false) => Place::Function,
        };
        // a local that holds a global table, not assigned again (`local r = redis`, `local s
        // = r`): its fields are the table's, as it was where the first local of the chain was
        // declared (a library's body keeps FUNCTION LOAD's `redis` for its functions)
        let bound = names.resolve(name, byte);
        let root = bound.and_then(|b| names.root(b));
        let alias: Option<&str> = bound.and_then(|b| names.holds(b));
        let table: &str = alias.unwrap_or(name);
        let loaded = library
            && root.is_some_and(|r| {
                let binding = &names.bindings[r];
                !within(&names.bodies, binding.file, binding.declared)
            });
        let table_place = if loaded { Place::Load } else { place };
        // a field called that some server with the table lacks (`redis.cal(...)`) or has as
        // no function (`redis.LOG_WARNING(...)`): at FUNCTION LOAD `redis.call` and
        // `redis.pcall` are `library-load`'s
        let field = names.field_calls.get(&byte).filter(|f| {
            Server::ALL.iter().any(|&s| {
                functions(s, table_place, table).is_some_and(|fs| !fs.contains(&f.as_str()))
            }) && !(place == Place::Load && matches!(f.as_str(), "call" | "pcall"))
        });
        // a call of `T.f` inside `if T.f then`: it runs only where the field is
        let guarded = field.is_some_and(|f| {
            names.guarded.iter().any(|(file, a, b, path)| {
                *file == 0
                    && *a <= byte
                    && byte < *b
                    && path.len() == 2
                    && path[0] == *name
                    && path[1] == *f
            })
        });
        if guarded
            || (everywhere(place, table) && field.is_none())
            || (names.resolve(name, byte).is_some() && (alias.is_none() || field.is_none()))
            || assigned_at.contains(&byte)
            || written.contains(name.as_str())
            || (names.included.contains(name) && bound.is_none())
            || within(&names.dead, 0, byte)
        {
            continue;
        }
        let declared_below = names
            .named(0, name)
            .iter()
            .map(|&b| names.bindings[b].declared)
            .find(|&d| d > byte)
            .map(line_of);
        let mut read = read_at(names, name, byte, at, top_level, library);
        read.declared_below = declared_below;
        out.push(read);
        if let Some(field) = field {
            let mut read = out.last().cloned().expect("pushed above");
            read.field = Some(field.clone());
            read.aliased = alias.map(str::to_owned);
            read.loaded = loaded;
            if everywhere(place, table) || alias.is_some() {
                out.pop();
            }
            out.push(read);
        }
    }
    out
}

/// The read of `name` at `byte` (`at`) of file 0, `top_level` when outside every function,
/// with where it runs: the library functions that may run it, whether `pcall` catches its
/// error, why it may not run when its unit does, and the names in scope there.
fn read_at(
    names: &Names,
    name: &str,
    byte: usize,
    at: Position,
    top_level: bool,
    library: bool,
) -> GlobalRead {
    let functions = if library {
        names.functions_at(byte)
    } else {
        Vec::new()
    };
    // The body the read's unit runs: a registered function's (the innermost that holds
    // the read), else the whole file; a range around the read inside it may not run.
    let maybe = maybe_at(names, byte);
    GlobalRead {
        at,
        name: name.to_owned(),
        functions,
        protected: within(&names.caught, 0, byte),
        top_level,
        maybe,
        declared_below: None,
        field: None,
        aliased: None,
        loaded: false,
        method: false,
        in_scope: {
            let mut seen = std::collections::HashSet::new();
            names
                .bindings
                .iter()
                .rev()
                .filter(|b| b.from <= byte && byte < b.end)
                .filter(|b| seen.insert(b.name.as_str()))
                .map(|b| b.name.clone())
                .collect()
        },
    }
}

/// The body (byte range) of the innermost registered function of file 0 that holds
/// `byte`: the unit the code there runs in (`None`: the whole file).
fn unit_at(names: &Names, byte: usize) -> Option<(usize, usize)> {
    names
        .functions
        .iter()
        .map(|f| f.body)
        .filter(|&(a, b)| a <= byte && byte < b)
        .min_by_key(|&(a, b)| b - a)
}

/// The most helpers [`maybe_at`] follows from a body to a call of it (a helper that calls
/// itself, or two that call each other, would loop); past it, the body may not be called.
const MAX_HELPER_CALLS: usize = 16;

/// Why the code at `byte` of file 0 may not run when its unit does, `None` when it runs
/// whenever the unit does. The unit is the body of the innermost registered function that
/// holds it, else the whole file ([`maybe_in`], helpers followed to their calls).
fn maybe_at(names: &Names, byte: usize) -> Option<&'static str> {
    maybe_in(names, 0, byte, file_unit(names, byte), MAX_HELPER_CALLS)
}

/// [`maybe_at`] where a helper's body may not be called: code placed where it is written,
/// as a change of `KEYS` is (a helper's body runs where it is called, not where it is).
fn maybe_in_place(names: &Names, byte: usize) -> Option<&'static str> {
    maybe_in(names, 0, byte, file_unit(names, byte), 0)
}

/// The unit the code at `byte` of file 0 runs in: [`unit_at`], else the whole file.
fn file_unit(names: &Names, byte: usize) -> (usize, usize) {
    unit_at(names, byte).unwrap_or((0, usize::MAX))
}

/// Why the code at `byte` of `file` may not run when the body `unit` around it runs (a
/// registered function's, a helper's followed for one call, or a whole file's: `(0,
/// usize::MAX)`), `None` when it runs whenever `unit` does: inside `unit`, a branch, a
/// loop's body, the right of `and`/`or`, code after a `return`, or a function's body,
/// unless that is a helper called only directly ([`Names::passed`]) with a call in `unit`
/// that runs whenever `unit` does (`local function log(k) ... end` then `log(KEYS[1])`:
/// its body runs), followed through at most `calls` helpers to their calls (0: a body runs
/// where it is called, not where it is written). The one answer to "may this code not run"
/// for the script's own walk, a change of KEYS, a helper followed per call and an include.
fn maybe_in(
    names: &Names,
    file: usize,
    byte: usize,
    unit: (usize, usize),
    calls: usize,
) -> Option<&'static str> {
    maybe_in_once(names, (file, unit), byte, calls, &mut HashMap::new())
}

/// [`maybe_in`] in `file` and `unit` (`at`), each code's byte and count of calls left
/// answered once (`memo`): a helper called twice by one called twice, followed to their
/// calls each time, was exponential (22 such helpers took 57 s).
fn maybe_in_once(
    names: &Names,
    at: (usize, (usize, usize)),
    byte: usize,
    calls: usize,
    memo: &mut HashMap<(usize, usize), Option<&'static str>>,
) -> Option<&'static str> {
    if let Some(&known) = memo.get(&(byte, calls)) {
        return known;
    }
    let (file, unit) = at;
    let inside = |(a, b): (usize, usize)| unit.0 <= a && b <= unit.1 && (a, b) != unit;
    let mut why = names
        .maybe_over(file, byte)
        .filter(|&(a, b, _)| inside((a, b)))
        .map(|(_, _, why)| why)
        .next();
    if why.is_none() {
        for &(f, a, b) in &names.bodies {
            if f == file
                && a <= byte
                && byte < b
                && inside((a, b))
                && !called_whenever(names, at, (a, b), calls, memo)
            {
                why = Some("inside a function, which may not be called");
                break;
            }
        }
    }
    memo.insert((byte, calls), why);
    why
}

/// Whether the body `(a, b)` runs whenever the unit of `at` does ([`maybe_in`]): a
/// helper's, called in the same unit where that call runs whenever the unit does.
fn called_whenever(
    names: &Names,
    at: (usize, (usize, usize)),
    (a, b): (usize, usize),
    calls: usize,
    memo: &mut HashMap<(usize, usize), Option<&'static str>>,
) -> bool {
    let (file, unit) = at;
    if calls == 0 {
        return false;
    }
    for &j in &names.passed {
        if names.locals[j].file != file || names.locals[j].body != (a, b) {
            continue;
        }
        for &(f, c) in names.called_at.get(&j).into_iter().flatten() {
            if f == file
                && !(a <= c && c < b)
                && unit.0 <= c
                && c < unit.1
                && maybe_in_once(names, at, c, calls - 1, memo).is_none()
            {
                return true;
            }
        }
    }
    false
}

/// The method calls of `ast` (file 0) on a value that is a string, of a method strings
/// lack (`s:sbu()` for `s:sub()`: "attempt to call method 'sbu' (a nil value)"), as reads
/// whose `field` is the method and `method` set, `name` the value as written. A string
/// here: a string literal or a `..` in brackets (`('x'):f()`), the result of a call of
/// `string.f`, `KEYS[i]`/`ARGV[i]`, or a local whose value the lint knows
/// (`local s = ARGV[1] .. ':x'`). Outside dead code, not in a library's body.
fn method_misses(
    ast: &ast::Ast,
    source: &str,
    names: &Names,
    values: &HashMap<Holder, Option<KeyExpr>>,
    library: bool,
) -> Vec<GlobalRead> {
    use crate::globals::{fields, Place, Server};
    let mut found = Vec::new();
    let mut visitor = MethodCalls {
        source,
        found: &mut found,
    };
    visitor.visit_ast(ast);
    let methods: Vec<&'static str> = Server::ALL
        .iter()
        .filter_map(|&s| fields(s, Place::Eval, "string"))
        .flatten()
        .collect();
    let mut out = Vec::new();
    for (receiver, text, byte, at, method) in found {
        let known = match receiver {
            Receiver::String => true,
            Receiver::Local(name, at) => match values.get(&names.holder(0, &name, at)) {
                Some(Some(value)) => {
                    value.parts.len() > 1
                        || value
                            .parts
                            .iter()
                            .all(|p| !matches!(p, Part::Opaque { .. } | Part::NoString(_)))
                }
                _ => false,
            },
        };
        let top_level = !within(&names.bodies, 0, byte);
        if !known
            || methods.contains(&method.as_str())
            || within(&names.dead, 0, byte)
            || (library && top_level)
        {
            continue;
        }
        let mut read = read_at(names, &text, byte, at, top_level, library);
        read.field = Some(method);
        read.method = true;
        out.push(read);
    }
    out
}

/// What a method is called on, as far as it is known to be a string.
enum Receiver {
    /// A string for sure.
    String,
    /// A name, with its byte: a string when it is a local whose value is known.
    Local(String, usize),
}

/// The method calls whose receiver may be a string: the receiver, its text, byte and
/// place, and the method.
struct MethodCalls<'a> {
    /// The file's text, for the receiver as written.
    source: &'a str,
    found: &'a mut Vec<(Receiver, String, usize, Position, String)>,
}

impl Visitor for MethodCalls<'_> {
    fn visit_function_call(&mut self, call: &ast::FunctionCall) {
        let suffixes: Vec<&Suffix> = call.suffixes().collect();
        let Some(i) = suffixes
            .iter()
            .position(|s| matches!(s, Suffix::Call(Call::MethodCall(_))))
        else {
            return;
        };
        let Suffix::Call(Call::MethodCall(m)) = suffixes[i] else {
            return;
        };
        let receiver = match (call.prefix(), &suffixes[..i]) {
            (Prefix::Expression(e), []) => match &**e {
                Expression::Parentheses { expression, .. } => match &**expression {
                    Expression::String(_)
                    | Expression::BinaryOperator {
                        binop: BinOp::TwoDots(_),
                        ..
                    } => Some(Receiver::String),
                    _ => None,
                },
                _ => None,
            },
            (Prefix::Name(n), []) => Some(Receiver::Local(name_of(n), byte_start(n).unwrap_or(0))),
            (Prefix::Name(n), [Suffix::Index(Index::Brackets { .. })])
                if matches!(name_of(n).as_str(), "KEYS" | "ARGV") =>
            {
                Some(Receiver::String)
            }
            (
                Prefix::Name(n),
                [Suffix::Index(Index::Dot { .. }), Suffix::Call(Call::AnonymousCall(_))],
            ) if name_of(n) == "string" => Some(Receiver::String),
            _ => None,
        };
        let Some(receiver) = receiver else { return };
        let (Some(byte), Some(colon)) = (byte_start(call), byte_start(m.colon_token())) else {
            return;
        };
        let Some(text) = self.source.get(byte..colon) else {
            return;
        };
        self.found.push((
            receiver,
            text.trim_end().to_owned(),
            byte,
            position(0, call),
            name_of(m.name()),
        ));
    }
}

/// The most bytes a value the lint follows may take ([`size`]): a longer one is opaque.
/// Keys are short, and a value may double at each link (`local b = a .. a`, a helper
/// returning `g(k) .. g(k)`): unbounded, 25 such lines of a 1 KB script took 22 GB.
const MAX_VALUE_BYTES: usize = 4096;

/// About how many bytes of memory `parts` take: a part each, its literal's bytes and the
/// parts it edits.
fn size(parts: &[Part]) -> usize {
    parts
        .iter()
        .map(|p| match p {
            Part::Literal(bytes) => 16 + bytes.len(),
            Part::Edited { of, .. } => 16 + size(of),
            _ => 16,
        })
        .sum()
}

/// `parts`, the value of `expr`, cut at [`MAX_VALUE_BYTES`] when longer: what comes
/// before the cut (which holds the hashtag if the value has one there), then an opaque part.
fn bounded(mut parts: Vec<Part>, expr: &Expression) -> Vec<Part> {
    if size(&parts) <= MAX_VALUE_BYTES {
        return parts;
    }
    let mut room = MAX_VALUE_BYTES;
    let mut kept = 0;
    for part in &mut parts {
        let taken = size(std::slice::from_ref(part));
        if taken > room {
            if let Part::Literal(bytes) = part {
                bytes.truncate(room.saturating_sub(16));
                kept += 1;
            }
            break;
        }
        room -= taken;
        kept += 1;
    }
    parts.truncate(kept);
    parts.push(Part::Opaque {
        text: short(&expr.to_string()),
        why: Some(format!(
            "its value is longer than the lint follows ({} KiB: it stopped reading it \
             there)",
            MAX_VALUE_BYTES >> 10
        )),
    });
    parts
}

/// The most passes [`values`] makes before it gives up on every local's value.
const MAX_VALUE_PASSES: usize = 16;

/// The value of every binding of the script and its includes (`asts`, file by file:
/// [`Names::holder`]), over the whole text whatever the order: a binding assigned one value
/// everywhere keeps it, one assigned two (also in a loop, or after a closure that reads it
/// was made) is opaque everywhere. One map for every file, as the server runs them as one
/// text (a script's call of an include's helper gives its parameters their values, an
/// include's top-level local is read by the script); the includes walked first, the last
/// brought in first, as their text comes before the script's code that uses it. Passes
/// until no value changes (a value built from a name that turned opaque changes too), at
/// most [`MAX_VALUE_PASSES`], past which every name is opaque.
fn values(asts: &[ast::Ast], names: &Names, changes: &Changes) -> Values {
    let mut values = HashMap::new();
    let none = HashMap::new();
    for _ in 0..MAX_VALUE_PASSES {
        let mut flow = Flow {
            names,
            changes,
            following: std::cell::Cell::new(false),
            notes: std::cell::RefCell::new(Vec::new()),
            pending: std::cell::Cell::new(false),
            deferred: std::cell::RefCell::new(std::collections::HashSet::new()),
            file: 0,
            values: values.clone(),
            given: HashMap::new(),
            choices: &none,
            frozen: false,
            calls: Vec::new(),
            library: false,
            helpers: &Helpers::default(),
            root: None,
        };
        for (file, ast) in asts.iter().enumerate().rev() {
            flow.file = file;
            flow.visit_ast(ast);
        }
        if flow.values == values {
            let mut choices = flow.given;
            choices.retain(|_, v| v.len() > 1);
            return (values, choices);
        }
        values = flow.values;
    }
    let opaque = values.into_keys().map(|name| (name, None)).collect();
    (opaque, HashMap::new())
}

/// The locals' values ([`values`]), and the values of each local given more than one.
type Values = (
    HashMap<Holder, Option<KeyExpr>>,
    HashMap<Holder, Vec<KeyExpr>>,
);

/// The most values of a name kept as its choices ([`Flow::given`]).
const MAX_CHOICES: usize = 8;

/// Every name token of `ast` with its byte, in source order.
fn identifiers(ast: &ast::Ast) -> Vec<(String, usize)> {
    // from the back, as in `unfollowed` (full_moon's forward walk is quadratic)
    let mut out: Vec<(String, usize)> = ast
        .nodes()
        .tokens()
        .rev()
        .filter_map(|t| match t.token_type() {
            TokenType::Identifier { identifier } => {
                Some((identifier.to_string(), t.token().start_position().bytes()))
            }
            _ => None,
        })
        .collect();
    out.sort_by_key(|&(_, at)| at);
    out
}

/// Why a use of `redis` is a finding when the lint cannot follow it.
pub(crate) const UNFOLLOWED: &str =
    "`redis` (or `server`, or an alias of `redis.call`) is used where the \
                          lint cannot follow it: as a value, passed on, or indexed by a name \
                          that is not a literal, so the commands it runs and their keys are \
                          unseen";

/// The uses of `redis`/`server` (and of the aliases of `redis.call`) in `ast` that the lint
/// does not follow, each as a call whose commands and keys are unknown: `redis` as a value
/// (`local s = server or redis`, `f(redis)`), `redis.call` passed as a value other than to
/// `pcall`, `redis[name]` with a name that is not a literal. Found over the tokens, so that
/// no form of use is missed: every use is followed by the call pass, or reported here.
fn unfollowed(ast: &ast::Ast, file: usize, names: &Names, kind: &ScriptKind) -> Vec<CallSite> {
    // Taken from the back: full_moon 3.0.0's forward `Tokens::next` removes the first item
    // of a vector each step (quadratic: 5x the whole lint's time on a 256 KiB script), its
    // `next_back` pops. Then in source order (a node yields a bracket pair's tokens before
    // what they hold).
    let mut tokens: Vec<&TokenReference> = ast.nodes().tokens().rev().collect();
    tokens.sort_by_key(|t| t.token().start_position().bytes());
    let symbol = |i: usize, text: &str| {
        tokens.get(i).is_some_and(|t| {
            matches!(t.token_type(), TokenType::Symbol { .. }) && t.token().to_string() == text
        })
    };
    let ident = |i: usize| match tokens.get(i).map(|t| t.token_type()) {
        Some(TokenType::Identifier { identifier }) => Some(identifier.as_str()),
        _ => None,
    };
    let string = |i: usize| {
        tokens
            .get(i)
            .filter(|t| matches!(t.token_type(), TokenType::StringLiteral { .. }))
            .map(|t| string_value(t))
    };
    // A call starts at `i`: `(`, a string or a table constructor.
    let call_at = |i: usize| symbol(i, "(") || symbol(i, "{") || string(i).is_some();
    // The name at `i` compared with `nil` (`redis ~= nil`, `nil == server`): a test that
    // runs no command. An operator that binds tighter than `==` on `nil`'s other side
    // (`redis == nil .. x`) makes it no such test.
    let tighter = |i: usize| {
        ["..", "+", "-", "*", "/", "%", "^"]
            .iter()
            .any(|op| symbol(i, op))
    };
    let equality = |i: usize| symbol(i, "==") || symbol(i, "~=");
    let nil_compared = |i: usize| {
        (equality(i + 1) && symbol(i + 2, "nil") && !tighter(i + 3))
            || (i >= 3 && equality(i - 1) && symbol(i - 2, "nil") && !tighter(i - 3))
            || (i == 2 && equality(1) && symbol(0, "nil"))
    };
    // `pcall(` before `i`, itself not a field.
    let pcall_arg = |i: usize| {
        i >= 2
            && symbol(i - 1, "(")
            && ident(i - 2) == Some("pcall")
            && !(i >= 3 && (symbol(i - 3, ".") || symbol(i - 3, ":")))
    };
    // the locals declared with a name (`local r = redis`, `local s = r`, `local d = rcall`),
    // by the bytes of their name and of the value: both are followed while the local is
    // the API or an alias of a call (then its uses are)
    let copies: HashMap<usize, (&str, usize)> = names
        .copies
        .iter()
        .filter(|l| l.0 == file)
        .flat_map(|(_, at, value, name, _)| {
            [(*at, (name.as_str(), *at)), (*value, (name.as_str(), *at))]
        })
        .collect();
    let mut out = Vec::new();
    for (i, token) in tokens.iter().enumerate() {
        let Some(name) = ident(i) else { continue };
        if i > 0 && (symbol(i - 1, ".") || symbol(i - 1, ":")) {
            continue;
        }
        let start = token.token().start_position();
        let byte = start.bytes();
        let api = names.api(file, name, byte);
        let alias = names.calls.iter().any(|c| c == name);
        if !api && !alias || within(&names.dead, file, byte) {
            continue;
        }
        let declared = copies.get(&byte).is_some_and(|&(local, at)| {
            names.api(file, local, at) || names.calls.iter().any(|c| c == local)
        });
        // `{ call = redis.call }` of a local table followed, but in a library's body, where
        // FUNCTION LOAD reads `redis.call` and refuses it (as `local call = redis.call`)
        let loaded =
            matches!(kind, ScriptKind::Library { .. }) && !within(&names.bodies, file, byte);
        let tabled = file == 0 && names.table_values.contains(&byte) && !loaded;
        // the table tested for truth (`server and server.register_function or ...`, `if
        // server then`, `not server`): a test that runs no command
        let tested = api
            && (symbol(i + 1, "and") || symbol(i + 1, "then") || (i >= 1 && symbol(i - 1, "not")));
        let followed = if declared || tabled || nil_compared(i) || tested {
            true
        } else if api {
            // `redis.f` / `redis['f']`: a field other than call/pcall is harmless API
            // (`redis.log`, `redis.register_function`); call and pcall must be called, made
            // an alias (`local rcall = redis.call`), or handed to pcall.
            let field = if symbol(i + 1, ".") {
                ident(i + 2).map(|f| (f.to_owned(), i + 3))
            } else if symbol(i + 1, "[") && symbol(i + 3, "]") {
                string(i + 2).map(|f| (f, i + 4))
            } else {
                None
            };
            match field {
                // made an alias in a library's body, the read itself fails: FUNCTION LOAD
                // runs the body with a `redis` that has no `call` (a call there is the call
                // pass's, `library-load`'s too)
                Some((f, next)) if f == "call" || f == "pcall" => {
                    call_at(next)
                        || pcall_arg(i)
                        || (i >= 2
                            && symbol(i - 1, "=")
                            && ident(i - 2).is_some_and(|a| names.calls.iter().any(|c| c == a))
                            && !(file == 0
                                && matches!(kind, ScriptKind::Library { .. })
                                && !within(&names.bodies, file, byte)))
                }
                Some(_) => true,
                None => false,
            }
        } else {
            // an alias: called, declared (`local rcall = ...`), or handed to pcall
            call_at(i + 1) || (i >= 1 && symbol(i - 1, "local")) || pcall_arg(i)
        };
        if followed {
            continue;
        }
        let at = Position {
            file,
            line: start.line(),
            column: start.character(),
        };
        let functions = match kind {
            ScriptKind::Library { .. } if file == 0 => names.functions_at(byte),
            _ => Vec::new(),
        };
        out.push(CallSite {
            at,
            command: None,
            known: false,
            keys: Vec::new(),
            uncertain: Some(UNFOLLOWED),
            functions,
            protected: false,
            top_level: !within(&names.bodies, file, byte),
            arguments: None,
            args: Vec::new(),
            unpacked: None,
            maybe: (file == 0).then(|| maybe_at(names, byte)).flatten(),
            via: None,
            dropped: false,
            reply: false,
            through: Vec::new(),
            choices: Vec::new(),
            uncounted: None,
        });
    }
    out
}

/// Pass two: the locals' values ([`values`], not `frozen`), then the calls with those
/// values (`frozen`).
struct Flow<'a> {
    names: &'a Names,
    /// Where the script may change KEYS and ARGV: a read there is not the caller's value
    /// (not known, or the value the script put there: [`Changes::of`]).
    changes: &'a Changes,
    /// Whether a value the script assigned into KEYS or ARGV is being read (one inside it
    /// is not followed again).
    following: std::cell::Cell<bool>,
    /// The values followed while reading an expression (`KEYS[1] = ARGV[1] since line 4`),
    /// shown with its text.
    notes: std::cell::RefCell<Vec<String>>,
    /// Whether the value being read needs one not known yet in this pass (a helper's
    /// return whose parameters its calls have not given yet, a local [`Flow::deferred`]):
    /// then it is not assigned this pass, rather than assigned a value that a later pass
    /// would change (a local assigned two values is opaque).
    pending: std::cell::Cell<bool>,
    /// The locals whose value was pending in this pass: a read of one is pending too.
    deferred: std::cell::RefCell<std::collections::HashSet<Holder>>,
    file: usize,
    values: HashMap<Holder, Option<KeyExpr>>,
    /// Every value each name is given in this walk, while not `frozen` (at most
    /// [`MAX_CHOICES`] a name).
    given: HashMap<Holder, Vec<KeyExpr>>,
    /// The values each name given more than one is given, as the last pass of [`values`]
    /// read them: a call's argument that names one may be any ([`CallSite::choices`]).
    choices: &'a HashMap<Holder, Vec<KeyExpr>>,
    /// The values are known: assignments are not read again, calls are recorded.
    frozen: bool,
    calls: Vec<CallSite>,
    library: bool,
    /// The helpers followed per call ([`instances`]).
    helpers: &'a Helpers,
    /// The helper whose body this walk follows for one of its calls, `None` for the walk of
    /// a whole file.
    root: Option<usize>,
}

impl<'a> Flow<'a> {
    /// A walk with `values`, following the body of the helper `root` (in its file), or of
    /// the same file (`None`).
    fn walk(
        &self,
        root: Option<usize>,
        values: HashMap<Holder, Option<KeyExpr>>,
        frozen: bool,
    ) -> Flow<'a> {
        Flow {
            names: self.names,
            changes: self.changes,
            following: std::cell::Cell::new(false),
            notes: std::cell::RefCell::new(Vec::new()),
            pending: std::cell::Cell::new(false),
            deferred: std::cell::RefCell::new(std::collections::HashSet::new()),
            file: root.map_or(self.file, |j| self.names.locals[j].file),
            values,
            given: HashMap::new(),
            choices: self.choices,
            frozen,
            calls: Vec::new(),
            library: self.library,
            helpers: self.helpers,
            root,
        }
    }
}

impl Flow<'_> {
    /// The value a loop variable takes over the elements of `table` (`ipairs({a, b})`):
    /// `Some(None)` where the lint cannot follow them (a field with a key, a call or `...`
    /// last, which may give any number of values, values that share no start), `None`
    /// while one is pending ([`Flow::pending`]); a declared key where each element is one
    /// (which one is not known, as for `ipairs(KEYS)`), else what they all begin with
    /// ([`KeyExpr::either`]).
    fn each_of(&self, table: &ast::TableConstructor) -> Option<Option<KeyExpr>> {
        let mut values = Vec::new();
        for field in table.fields() {
            let ast::Field::NoKey(e) = field else {
                return Some(None);
            };
            if matches!(e, Expression::FunctionCall(_))
                || matches!(e, Expression::Symbol(s) if s.token().to_string() == "...")
            {
                return Some(None);
            }
            values.push(self.eval_now(e)?);
        }
        if values.is_empty() {
            return Some(None);
        }
        if values
            .iter()
            .all(|v| matches!(v.parts[..], [Part::Key(i)] if i > 0))
        {
            return Some(Some(KeyExpr {
                parts: vec![Part::Key(0)],
                text: String::new(),
            }));
        }
        let mut either = values[0].clone();
        for value in &values[1..] {
            match either.either(value) {
                Some(e) => either = e,
                None => return Some(None),
            }
        }
        Some(Some(either))
    }

    /// [`Flow::eval`] of a value to assign, `None` while it is pending ([`Flow::pending`]).
    fn eval_now(&self, expr: &Expression) -> Option<KeyExpr> {
        self.pending.set(false);
        let value = self.eval(expr);
        (self.frozen || !self.pending.get()).then_some(value)
    }

    /// [`Flow::assign`] of a value [`Flow::eval_now`] read; a pending one is deferred.
    fn assign_now(&mut self, name: Holder, value: Option<KeyExpr>) {
        match value {
            Some(value) => self.assign(name, value),
            None => {
                self.deferred.borrow_mut().insert(name);
            }
        }
    }

    /// What holds the value of the name `token` of the file walked ([`Names::holder`]).
    fn holder(&self, token: &TokenReference) -> Holder {
        self.names
            .holder(self.file, &name_of(token), byte_start(token).unwrap_or(0))
    }

    fn assign(&mut self, name: Holder, value: KeyExpr) {
        if self.frozen {
            return;
        }
        let given = self.given.entry(name.clone()).or_default();
        if given.len() < MAX_CHOICES && !given.contains(&value) {
            given.push(value.clone());
        }
        match self.values.get(&name) {
            None => {
                self.values.insert(name, Some(value));
            }
            Some(Some(old)) if *old == value => {}
            // a second value: what both start with, when that is something
            Some(Some(old)) => {
                let either = old.either(&value);
                self.values.insert(name, either);
            }
            Some(None) => {}
        }
    }

    /// The parts of an expression's value; its text says which values of KEYS and ARGV
    /// it reads are the script's (`KEYS[1] (KEYS[1] = ARGV[1] since line 4)`).
    fn eval(&self, expr: &Expression) -> KeyExpr {
        self.notes.borrow_mut().clear();
        let parts = bounded(self.parts(expr), expr);
        let notes = std::mem::take(&mut *self.notes.borrow_mut());
        let text = short(&expr.to_string());
        KeyExpr {
            parts,
            text: if notes.is_empty() {
                text
            } else {
                format!("{text} ({})", notes.join("; "))
            },
        }
    }

    /// The parts of an expression's value; an opaque part's text is that subexpression's
    /// (so a long chain is written out once, not once a link).
    fn parts(&self, expr: &Expression) -> Vec<Part> {
        let opaque = || {
            vec![Part::Opaque {
                text: short(&expr.to_string()),
                why: self.why_opaque(expr),
            }]
        };
        match expr {
            Expression::String(s) => vec![Part::Literal(string_bytes(s))],
            Expression::Number(n) => {
                let token = n.token().to_string();
                match number_text(&token) {
                    Some(text) => vec![Part::Literal(text.into_bytes())],
                    None => vec![Part::Number(token)],
                }
            }
            Expression::Parentheses { expression, .. } => self.parts(expression),
            Expression::BinaryOperator {
                lhs,
                binop: BinOp::TwoDots(_),
                rhs,
            } => {
                let mut parts = self.parts(lhs);
                parts.extend(self.parts(rhs));
                bounded(parts, expr)
            }
            Expression::Var(Var::Name(n)) => match self.values.get(&self.holder(n)) {
                Some(Some(value)) => {
                    // a parameter of the helper followed: the value this call gives it
                    let name = name_of(n);
                    if value.text != name
                        && self.root.is_some_and(|j| {
                            self.names.parameter(j, &name).map(Holder::Binding)
                                == Some(self.holder(n))
                        })
                    {
                        self.notes
                            .borrow_mut()
                            .push(format!("{name} = {} at this call", value.text));
                    }
                    value.parts.clone()
                }
                Some(None) => opaque(),
                None => {
                    let holder = self.holder(n);
                    if self.deferred.borrow().contains(&holder) || self.given_by_calls(&holder) {
                        self.pending.set(true);
                    }
                    opaque()
                }
            },
            Expression::Var(Var::Expression(v)) => {
                let suffixes: Vec<&Suffix> = v.suffixes().collect();
                match (v.prefix(), &suffixes[..]) {
                    (Prefix::Name(table), [Suffix::Index(Index::Brackets { expression, .. })]) => {
                        self.indexed(&name_of(table), expression, expr)
                    }
                    _ => opaque(),
                }
            }
            Expression::FunctionCall(call) => self.computed(call).unwrap_or_else(opaque),
            Expression::Symbol(s) if s.token().to_string() != "..." => {
                vec![Part::NoString(s.token().to_string())]
            }
            Expression::TableConstructor(_) => vec![Part::NoString(short(&expr.to_string()))],
            _ => opaque(),
        }
    }

    /// Whether `holder` is a parameter of a helper of [`Names::passed`] in the file walked,
    /// whose calls give it its values (one below its body, or in another helper's body
    /// below, not given yet in this pass).
    fn given_by_calls(&self, holder: &Holder) -> bool {
        let Holder::Binding(b) = *holder else {
            return false;
        };
        let binding = &self.names.bindings[b];
        binding.kind == BindingKind::Parameter
            && self.names.passed.iter().any(|&j| {
                let local = &self.names.locals[j];
                local.file == binding.file && local.body.0 == binding.from
            })
    }

    /// The parts of `table[expression]` (`expr` as written): `KEYS[i]`, `ARGV[i]` (also
    /// through a local that holds the table), nil at an index never set, the value a local
    /// table's element is followed to ([`Changes::of`]), else opaque.
    fn indexed(
        &self,
        table: &str,
        expression: &Expression,
        expr: &impl std::fmt::Display,
    ) -> Vec<Part> {
        let opaque = || {
            vec![Part::Opaque {
                text: short(&expr.to_string()),
                why: None,
            }]
        };
        let table = table.to_owned();
        let is_keys = table == "KEYS" || self.names.keys.contains(&table);
        let is_argv = table == "ARGV" || self.names.argv.contains(&table);
        let literal_index = match expression {
            Expression::Number(n) => number_text(&n.token().to_string())
                .and_then(|text| text.parse::<usize>().ok())
                .filter(|&i| i > 0),
            _ => None,
        };
        let byte = byte_start(expression).unwrap_or(0);
        let bound = self.names.resolve_in(self.file, &table, byte);
        let which = match (is_keys, is_argv) {
            (true, _) => Some(Which::Keys),
            (_, true) => Some(Which::Argv),
            _ => bound.map(Which::Local),
        };
        if let Some(which) = which {
            let local = matches!(which, Which::Local(_));
            let changed = |why| {
                vec![Part::Changed {
                    text: short(&expr.to_string()),
                    why,
                }]
            };
            match self
                .changes
                .of(which, Some((&table, bound)), literal_index, self.file, byte)
            {
                Read::Caller => {}
                // a local table's element not followed is not known, as before
                Read::Changed(_) if local => return opaque(),
                Read::Followed(..) if local && self.following.get() => return opaque(),
                Read::Changed(why) => return changed(why),
                // a value read inside the value followed is not followed again
                Read::Followed(_, _, why) if self.following.get() => return changed(why),
                Read::Followed(value, note, _) => {
                    self.following.set(true);
                    let parts = self.parts(value);
                    self.following.set(false);
                    self.notes
                        .borrow_mut()
                        .push(format!("{} {note}", short(&expr.to_string())));
                    return parts;
                }
            }
        }
        // An index never set: 0, a negative, a fraction or a string (Lua
        // keeps `1` and `'1'` apart).
        let (index, never_set) = match expression {
            Expression::Number(n) => {
                let index =
                    number_text(&n.token().to_string()).and_then(|text| text.parse::<usize>().ok());
                (index, index.is_none_or(|i| i == 0))
            }
            Expression::String(_) => (None, true),
            Expression::UnaryOperator {
                unop: ast::UnOp::Minus(_),
                expression,
            } => (None, matches!(&**expression, Expression::Number(_))),
            _ => (None, false),
        };
        if (is_keys || is_argv) && never_set {
            return vec![Part::Nil(short(&expr.to_string()))];
        }
        match (is_keys, is_argv, index) {
            (true, _, Some(i)) if i > 0 => vec![Part::Key(i)],
            (true, _, _) => vec![Part::Key(0)],
            (_, true, Some(i)) if i > 0 => vec![Part::Arg(i)],
            _ => opaque(),
        }
    }

    /// The parts of a string method the lint computes ([`Edit`]) called on a value:
    /// `x:upper()`, `x:lower()`, `x:sub(i, j)` chained (`ARGV[1]:upper():sub(1, 3)`), and
    /// The parts of the one value of a call the lint computes: `tostring(x)`, `tonumber(x)`
    /// ([`Edit::ToNumber`]), a string
    /// method, `string.format` ([`Flow::edited`]), a helper of one `return x` only ever
    /// called directly (`local function key(s) return KEYS[1] .. ':' .. s end`: `x` with the
    /// values its calls pass); `None` for another call.
    fn computed(&self, call: &ast::FunctionCall) -> Option<Vec<Part>> {
        match (callee(call), call.prefix()) {
            (Some((path, FunctionArgs::Parentheses { arguments, .. })), _)
                if path == ["tostring"] && arguments.len() == 1 =>
            {
                // `tostring(nil)` is the string `nil` (`true`, `false` alike); a table's
                // is its address
                arguments.iter().next().map(|a| match &self.parts(a)[..] {
                    [Part::NoString(t)] if Part::no_string_kind(t) == "a table" => {
                        vec![Part::Opaque {
                            text: short(&a.to_string()),
                            why: Some("a table's `tostring` is its address".to_owned()),
                        }]
                    }
                    [Part::NoString(t)] => vec![Part::Literal(t.clone().into_bytes())],
                    parts => parts.to_vec(),
                })
            }
            // `tonumber(x)`: the number `x` reads as, as the servers write it
            (Some((path, FunctionArgs::Parentheses { arguments, .. })), _)
                if path == ["tonumber"] && arguments.len() == 1 =>
            {
                let of = self.parts(arguments.iter().next()?);
                Some(vec![Part::Edited {
                    of,
                    edits: vec![Edit::ToNumber],
                    text: short(&call.to_string()),
                }])
            }
            _ if self.helper_call(call).is_some() => {
                let (j, _, _) = self.helper_call(call)?;
                match self.values.get(&Holder::Returned(j)) {
                    Some(Some(value)) => Some(value.parts.clone()),
                    Some(None) => None,
                    // its parameters not given yet in this pass
                    None => {
                        self.pending.set(true);
                        None
                    }
                }
            }
            _ => self.edited(call),
        }
    }

    /// The one value a helper's body `block` returns when it is one `return x` (`x` one
    /// value: no `...`, no call but one the lint computes), as the values stand.
    fn returned_by(&self, block: &ast::Block) -> Option<KeyExpr> {
        let (None, Some(ast::LastStmt::Return(r))) = (block.stmts().next(), block.last_stmt())
        else {
            return None;
        };
        let mut returns = r.returns().iter();
        let (Some(x), None) = (returns.next(), returns.next()) else {
            return None;
        };
        let one = match x {
            Expression::FunctionCall(call) => self.single_valued(call),
            Expression::Symbol(s) => s.token().to_string() != "...",
            _ => true,
        };
        one.then(|| self.eval(x))
    }

    /// Whether `call` gives exactly one value ([`Flow::computed`]), so that last in a
    /// call's arguments it is one argument, not any number.
    fn single_valued(&self, call: &ast::FunctionCall) -> bool {
        self.computed(call).is_some()
    }

    /// `string.format(form, ...)` of a literal form whose directives are `%s` (with the flag
    /// `-`, a width and a precision: [`Edit::Format`]), `%q` ([`Edit::Quote`]), and `%d`,
    /// `%i`, `%x`, `%X` and `%%` without them (`'%s:%d'`), a value for each `%s` and `%q`
    /// and a number literal for each other (Lua 5.1 hands it to C's `%lld` or
    /// `%llx` cast to an integer, toward zero: `5.7` is `5`, [`truncated`]): the form's text
    /// with each value as its directive writes it and each number in decimal or hexadecimal
    /// digits. `Err` says why the lint does not compute it.
    fn formatted<'e>(
        &self,
        form: &Expression,
        mut values: impl Iterator<Item = &'e Expression>,
    ) -> Result<Vec<Part>, String> {
        let Expression::String(form) = form else {
            return Err("the form of `string.format` is no string literal".to_owned());
        };
        let form = string_bytes(form);
        let mut parts = Vec::new();
        let mut text: Vec<u8> = Vec::new();
        let mut bytes = form.iter();
        let mut n = 1;
        // "bad argument #3 to 'format' (no value)": the form is argument 1
        let missing = |n: usize| {
            format!(
                "`string.format` is given no value for its directive {n}: the server stops the \
                 script there (\"bad argument #{} to 'format' (no value)\")",
                n + 1
            )
        };
        while let Some(&b) = bytes.next() {
            if b != b'%' {
                text.push(b);
                continue;
            }
            // Lua 5.1's `scanformat`: flags of `-+ #0`, a width and a precision of two
            // digits at most, then the conversion
            let mut spec: Vec<u8> = Vec::new();
            let mut directive = None;
            for &c in bytes.by_ref() {
                if c.is_ascii_alphabetic() || c == b'%' || spec.len() >= 8 {
                    directive = Some(c);
                    break;
                }
                spec.push(c);
            }
            let written = || {
                let mut w = vec![b'%'];
                w.extend(&spec);
                w.extend(directive);
                slotgen::text::escape(&w)
            };
            let refused = || {
                format!(
                    "`string.format`'s directive `{}` is one the lint does not compute (it \
                     computes `%s` with `-`, a width and a precision, `%q`, and `%d`, `%i`, \
                     `%x`, `%X` and `%%` without them)",
                    written()
                )
            };
            let string_spec = || -> Option<Edit> {
                let text = std::str::from_utf8(&spec).ok()?;
                let (left, rest) = match text.strip_prefix('-') {
                    Some(rest) => (true, rest),
                    None => (false, text),
                };
                let (width, precision) = match rest.split_once('.') {
                    Some((w, p)) => (w, Some(p)),
                    None => (rest, None),
                };
                let digits = |d: &str| d.len() <= 2 && d.bytes().all(|b| b.is_ascii_digit());
                if !digits(width) || precision.is_some_and(|p| !digits(p)) {
                    return None;
                }
                Some(Edit::Format {
                    left,
                    width: width.parse().unwrap_or(0),
                    precision: precision.map(|p| p.parse().unwrap_or(0)),
                })
            };
            match directive {
                Some(b'%') if spec.is_empty() => text.push(b'%'),
                Some(d @ (b's' | b'q')) => {
                    let edit = match d {
                        b's' => string_spec().ok_or_else(refused)?,
                        _ if spec.is_empty() => Edit::Quote,
                        _ => return Err(refused()),
                    };
                    let value = values.next().ok_or_else(|| missing(n))?;
                    if !text.is_empty() {
                        parts.push(Part::Literal(std::mem::take(&mut text)));
                    }
                    parts.push(Part::Edited {
                        of: self.parts(value),
                        edits: vec![edit],
                        text: short(&value.to_string()),
                    });
                }
                Some(d @ (b'd' | b'i' | b'x' | b'X')) if spec.is_empty() => {
                    let value = values.next().ok_or_else(|| missing(n))?;
                    match truncated(value) {
                        Some(number) => {
                            let digits = match d {
                                b'x' => format!("{:x}", number as u64),
                                b'X' => format!("{:X}", number as u64),
                                _ => number.to_string(),
                            };
                            text.extend_from_slice(digits.as_bytes());
                        }
                        // a number not known here: digits the lint cannot read, as a
                        // concatenation's value it cannot follow (a hashtag written
                        // before it still decides the slot)
                        None => {
                            if !text.is_empty() {
                                parts.push(Part::Literal(std::mem::take(&mut text)));
                            }
                            parts.push(Part::Opaque {
                                text: short(&value.to_string()),
                                why: Some(format!(
                                    "`%{}` of `{}`, a number the lint does not know",
                                    char::from(d),
                                    short(&value.to_string())
                                )),
                            });
                        }
                    }
                }
                _ => return Err(refused()),
            }
            if directive != Some(b'%') {
                n += 1;
            }
        }
        if !text.is_empty() {
            parts.push(Part::Literal(text));
        }
        Ok(parts)
    }

    /// `string.upper(x)`, `string.lower(x)`, `string.sub(x, i, j)`, the positions integer
    /// literals; `x` a name, `KEYS[i]`/`ARGV[i]` or an expression in brackets. `None` for
    /// another call.
    fn edited(&self, call: &ast::FunctionCall) -> Option<Vec<Part>> {
        let integers = |args: &FunctionArgs, skip: usize| -> Option<Vec<i64>> {
            let FunctionArgs::Parentheses { arguments, .. } = args else {
                return None;
            };
            arguments.iter().skip(skip).map(integer).collect()
        };
        let edit = |name: &str, positions: &[i64]| match (name, positions) {
            ("upper", []) => Some(Edit::Upper),
            ("lower", []) => Some(Edit::Lower),
            ("sub", [i]) => Some(Edit::Sub(*i, -1)),
            ("sub", [i, j]) => Some(Edit::Sub(*i, *j)),
            ("rep", [n]) => Some(Edit::Rep(*n)),
            _ => None,
        };
        // `string.f(x, ...)` (`string` the global table): its parts
        let string_call = |n: &TokenReference, name: &TokenReference, args: &FunctionArgs| {
            let FunctionArgs::Parentheses { arguments, .. } = args else {
                return None;
            };
            let first = arguments.iter().next()?;
            if name_of(n) != "string"
                || self
                    .names
                    .resolve_in(self.file, "string", byte_range(n)?.0)
                    .is_some()
            {
                return None;
            }
            if name_of(name) == "format" {
                return self.formatted(first, arguments.iter().skip(1)).ok();
            }
            let e = edit(&name_of(name), &integers(args, 1)?)?;
            Some(vec![Part::Edited {
                of: self.parts(first),
                edits: vec![e],
                text: short(&format!("string.{}{args}", name_of(name))),
            }])
        };
        let suffixes: Vec<&Suffix> = call.suffixes().collect();
        if let (
            Prefix::Name(n),
            [Suffix::Index(Index::Dot { name, .. }), Suffix::Call(Call::AnonymousCall(args))],
        ) = (call.prefix(), &suffixes[..])
        {
            return string_call(n, name, args);
        }
        // `x:f(...)`, chained
        let methods = suffixes
            .iter()
            .position(|s| matches!(s, Suffix::Call(Call::MethodCall(_))))?;
        let (of, first) = match (call.prefix(), &suffixes[..methods], suffixes[methods]) {
            // `('%s:x'):format(v)`: `string.format` of that form, then the methods after it
            (Prefix::Expression(e), [], Suffix::Call(Call::MethodCall(m)))
                if name_of(m.name()) == "format" =>
            {
                let FunctionArgs::Parentheses { arguments, .. } = m.args() else {
                    return None;
                };
                let form = match &**e {
                    Expression::Parentheses { expression, .. } => &**expression,
                    other => other,
                };
                let formatted = self.formatted(form, arguments.iter()).ok()?;
                if methods + 1 == suffixes.len() {
                    return Some(formatted);
                }
                (formatted, methods + 1)
            }
            (Prefix::Name(n), [], _) => match self.values.get(&self.holder(n)) {
                Some(Some(value)) => (value.parts.clone(), methods),
                _ => return None,
            },
            // `string.format('%s', k):sub(2)`
            (
                Prefix::Name(n),
                [Suffix::Index(Index::Dot { name, .. }), Suffix::Call(Call::AnonymousCall(args))],
                _,
            ) => (string_call(n, name, args)?, methods),
            (Prefix::Name(n), [Suffix::Index(Index::Brackets { expression, .. })], _) => {
                let text = format!("{}{}", name_of(n), suffixes[0]);
                (self.indexed(&name_of(n), expression, &text), methods)
            }
            (Prefix::Expression(e), [], _) => (self.parts(e), methods),
            _ => return None,
        };
        let mut edits = Vec::new();
        for s in &suffixes[first..] {
            let Suffix::Call(Call::MethodCall(m)) = s else {
                return None;
            };
            edits.push(edit(&name_of(m.name()), &integers(m.args(), 0)?)?);
        }
        Some(vec![Part::Edited {
            of,
            edits,
            text: short(&call.to_string()),
        }])
    }
}

impl Flow<'_> {
    /// Why the lint cannot follow the value of `expr`, when it can say: a parameter of a
    /// function whose calls it does not follow (and why not), a loop variable, a local
    /// given more than one value, a value the server returns, a `string.format` it does not
    /// compute.
    fn why_opaque(&self, expr: &Expression) -> Option<String> {
        match expr {
            Expression::Var(Var::Name(n)) => {
                let name = name_of(n);
                let Some(b) =
                    byte_start(n).and_then(|at| self.names.resolve_in(self.file, &name, at))
                else {
                    return Some(format!("`{name}` is no local of the script"));
                };
                let binding = &self.names.bindings[b];
                match binding.kind {
                    BindingKind::Loop => {
                        Some(format!("`{name}` is a loop variable, a value each turn"))
                    }
                    BindingKind::Parameter => Some(self.why_parameter(&name, binding.from)),
                    BindingKind::Local => {
                        matches!(self.values.get(&Holder::Binding(b)), Some(None)).then(|| {
                            format!(
                                "`{name}` is given more than one value (assigned again, or in a \
                                 loop), and the lint keeps one value a local"
                            )
                        })
                    }
                }
            }
            Expression::Parentheses { expression, .. } => self.why_opaque(expression),
            Expression::FunctionCall(call) => self.why_call(call),
            _ => None,
        }
    }

    /// Why the parameter `name` of the function whose body starts at `from` is not
    /// followed.
    fn why_parameter(&self, name: &str, from: usize) -> String {
        let helper = self
            .names
            .locals
            .iter()
            .position(|l| l.file == self.file && l.body.0 == from);
        match helper {
            Some(j) if self.names.passed.contains(&j) => format!(
                "`{name}` is a parameter of `{}`, and {}",
                self.names.locals[j].name,
                self.helpers
                    .why_not(j)
                    .unwrap_or_else(|| "its calls pass it a value not known".to_owned())
            ),
            Some(j) if self.names.locals[j].reach == Reach::Field => {
                let local = &self.names.locals[j];
                match &local.table {
                    Some((table, _, _)) => format!(
                        "`{name}` is a parameter of `{table}.{f}`, and the table `{table}` is \
                         used other than to define its fields once and call them below (declared \
                         other than `{{}}` or `{{ {f} = function ... }}`, assigned again, handed \
                         on, a field read or called in \
                         another form than it is defined, `{table}:{f}` for `{table}.{f}`, or \
                         defined in a branch, a loop or a function, or called above its \
                         definition), so the lint does not follow its calls",
                        f = local.name
                    ),
                    None => format!(
                        "`{name}` is a parameter of `{f}`, a field of a table that is no local's \
                         own (nested, `a.b.{f}` or `{{ t = {{ {f} = function }} }}`, or handed on \
                         as it is made), whose calls the lint does not follow",
                        f = local.name
                    ),
                }
            }
            Some(j) if self.names.locals[j].reach == Reach::Global => format!(
                "`{name}` is a parameter of `{f}`, a global function, whose calls the lint does \
                 not follow",
                f = self.names.locals[j].name
            ),
            Some(j) => format!(
                "`{name}` is a parameter of `{f}`, whose name is used other than to call it \
                 (handed to `pcall` or another function, stored in a table, copied to a local \
                 that is not only called, or assigned again), so the lint does not see every \
                 call",
                f = self.names.locals[j].name
            ),
            None if self.file != 0 => format!(
                "`{name}` is a parameter of a function of an included file, whose calls the \
                 lint does not follow"
            ),
            None => format!(
                "`{name}` is a parameter of a function that is no local helper (one passed as \
                 a value, or a table's), whose calls the lint does not follow"
            ),
        }
    }

    /// Why the lint cannot follow the value `call` gives.
    fn why_call(&self, call: &ast::FunctionCall) -> Option<String> {
        if let Some((path, args)) = callee(call) {
            let api = self
                .names
                .api(self.file, &path[0], byte_start(call).unwrap_or(0));
            if (api && path.len() == 2 && (path[1] == "call" || path[1] == "pcall"))
                || (path.len() == 1 && self.names.calls.contains(&path[0]))
            {
                return Some("a value the server returns when the script runs".to_owned());
            }
            if path == ["string", "format"] {
                let FunctionArgs::Parentheses { arguments, .. } = args else {
                    return None;
                };
                let mut values = arguments.iter();
                let form = values.next()?;
                return self.formatted(form, values).err();
            }
        }
        let suffixes: Vec<&Suffix> = call.suffixes().collect();
        if let (Prefix::Expression(e), [Suffix::Call(Call::MethodCall(m)), ..]) =
            (call.prefix(), &suffixes[..])
        {
            if name_of(m.name()) == "format" {
                let FunctionArgs::Parentheses { arguments, .. } = m.args() else {
                    return None;
                };
                let form = match &**e {
                    Expression::Parentheses { expression, .. } => &**expression,
                    other => other,
                };
                return self.formatted(form, arguments.iter()).err();
            }
        }
        None
    }
}

impl Visitor for Flow<'_> {
    fn visit_local_assignment(&mut self, node: &ast::LocalAssignment) {
        let exprs: Vec<&Expression> = node.expressions().iter().collect();
        for (n, name) in node.names().iter().enumerate() {
            let value = match exprs.get(n) {
                Some(e) => self.eval_now(e),
                // `local k` given a value on every way before it is read: those values
                None if exprs.is_empty()
                    && byte_start(name).is_some_and(|at| {
                        self.names.set_before_read.contains(&(self.file, at))
                    }) =>
                {
                    continue;
                }
                None => Some(KeyExpr::opaque(name_of(name))),
            };
            self.assign_now(self.holder(name), value);
        }
    }

    fn visit_assignment(&mut self, node: &ast::Assignment) {
        let exprs: Vec<&Expression> = node.expressions().iter().collect();
        for (n, var) in node.variables().iter().enumerate() {
            if let Var::Name(name) = var {
                let value = match exprs.get(n) {
                    Some(e) => self.eval_now(e),
                    None => Some(KeyExpr::opaque(name_of(name))),
                };
                self.assign_now(self.holder(name), value);
            }
        }
    }

    fn visit_generic_for(&mut self, node: &ast::GenericFor) {
        if self.frozen {
            return;
        }
        // `for i, k in ipairs(KEYS)`: k is a declared key (which one is not known)
        let over_keys = match node.expressions().iter().collect::<Vec<_>>()[..] {
            [Expression::FunctionCall(call)] => match callee(call) {
                Some((path, FunctionArgs::Parentheses { arguments, .. }))
                    if (path == ["ipairs"] || path == ["pairs"]) && arguments.len() == 1 =>
                {
                    matches!(arguments.iter().next(), Some(Expression::Var(Var::Name(t)))
                        if name_of(t) == "KEYS" || self.names.keys.contains(&name_of(t)))
                }
                _ => false,
            },
            _ => false,
        };
        // `for _, k in ipairs({jkey, tkey})` (celery's chord script): k is each element in
        // turn: a declared key where each is one, else what they all begin with
        let over_list = match node.expressions().iter().collect::<Vec<_>>()[..] {
            [Expression::FunctionCall(call)] if !over_keys => match callee(call) {
                Some((path, FunctionArgs::Parentheses { arguments, .. }))
                    if (path == ["ipairs"] || path == ["pairs"]) && arguments.len() == 1 =>
                {
                    match arguments.iter().next() {
                        Some(Expression::TableConstructor(table)) => Some(self.each_of(table)),
                        _ => None,
                    }
                }
                _ => None,
            },
            _ => None,
        };
        for (n, name) in node.names().iter().enumerate() {
            if over_keys && n == 1 {
                let value = KeyExpr {
                    parts: vec![self.any_key(node.expressions())],
                    text: name_of(name),
                };
                self.assign(self.holder(name), value);
            } else if let (Some(each), 1) = (&over_list, n) {
                match each {
                    // pending: deferred, as any value read before it is known
                    None => self.assign_now(self.holder(name), None),
                    Some(Some(value)) => {
                        let value = KeyExpr {
                            parts: value.parts.clone(),
                            text: name_of(name),
                        };
                        self.assign(self.holder(name), value);
                    }
                    Some(None) => {
                        self.values.insert(self.holder(name), None);
                    }
                }
            } else {
                self.values.insert(self.holder(name), None);
            }
        }
    }

    fn visit_numeric_for(&mut self, node: &ast::NumericFor) {
        if !self.frozen {
            self.values.insert(self.holder(node.index_variable()), None);
        }
    }

    fn visit_function_body(&mut self, node: &ast::FunctionBody) {
        if self.frozen {
            return;
        }
        // a helper only ever called directly: its calls give its parameters their values,
        // and a body of one `return x` gives each call the value of `x`
        // a body is known by its start (its end takes a walk over every token)
        let start = byte_start(node);
        let helper = self.names.passed.iter().copied().find(|&j| {
            self.names.locals[j].file == self.file && Some(self.names.locals[j].body.0) == start
        });
        if let Some(j) = helper {
            // known once its calls have given every parameter a value
            let given = self.names.locals[j].parameters.iter().all(|p| {
                self.names
                    .parameter(j, p)
                    .is_some_and(|b| self.values.contains_key(&Holder::Binding(b)))
            });
            self.pending.set(false);
            let value = self.returned_by(node.block());
            if given && !self.pending.get() {
                self.values.insert(Holder::Returned(j), value);
            } else {
                self.values.remove(&Holder::Returned(j));
            }
            return;
        }
        for p in node.parameters() {
            if let ast::Parameter::Name(n) = p {
                self.values.insert(self.holder(n), None);
            }
        }
    }

    fn visit_function_call(&mut self, call: &ast::FunctionCall) {
        if self.frozen {
            if !self.read_elsewhere(byte_start(call).unwrap_or(0)) {
                self.call(call, callee(call));
                self.follow(call);
            }
        } else {
            self.pass(call);
        }
    }

    fn visit_var_expression(&mut self, var: &ast::VarExpression) {
        if self.frozen {
            self.call(var, callee_of(var.prefix(), var.suffixes()));
        }
    }
}

impl Flow<'_> {
    /// `touch(KEYS[1], 'v')` of a helper of [`Names::passed`]: each parameter takes the
    /// value of its argument (a parameter past the arguments, or past a call or `...` that
    /// ends them, is opaque: nil, or values the lint does not count), as a local assigned
    /// once per call does.
    fn pass(&mut self, call: &ast::FunctionCall) {
        let Some((j, _, args)) = self.helper_call(call) else {
            return;
        };
        let values = self.given(j, args);
        for (p, value) in values {
            self.assign_now(p, value);
        }
    }

    /// A declared key of an index not known (a loop over KEYS, `unpack(KEYS)`: `node`),
    /// or the value the script may have put there when it changes KEYS.
    fn any_key(&self, node: &(impl Node + std::fmt::Display)) -> Part {
        let byte = byte_start(node).unwrap_or(0);
        match self.changes.of(Which::Keys, None, None, self.file, byte) {
            Read::Caller => Part::Key(0),
            Read::Changed(why) | Read::Followed(_, _, why) => Part::Changed {
                text: short(&node.to_string()),
                why,
            },
        }
    }

    /// Whether `expr` is `unpack(KEYS, ...)` (also `table.unpack`, or of a name for KEYS):
    /// declared keys only, however many.
    fn unpacks_keys(&self, expr: &Expression) -> bool {
        let Expression::FunctionCall(call) = expr else {
            return false;
        };
        match callee(call) {
            Some((path, FunctionArgs::Parentheses { arguments, .. }))
                if self.is_unpack(&path) || path == ["table", "unpack"] =>
            {
                matches!(arguments.iter().next(), Some(Expression::Var(Var::Name(t)))
                    if name_of(t) == "KEYS" || self.names.keys.contains(&name_of(t)))
            }
            _ => false,
        }
    }

    /// Whether `expr` is Lua 5.1's `string.gsub`, which gives two values (the string and the
    /// count of its changes): `string.gsub(...)` of the global `string`, or `x:gsub(...)` of
    /// a string `x` the lint follows (`ARGV[1]`, `KEYS[1]`, a literal in brackets, a local
    /// of such a value), so not a table's own `gsub`.
    fn string_gsub(&self, expr: &Expression) -> bool {
        let Expression::FunctionCall(call) = expr else {
            return false;
        };
        let suffixes: Vec<&Suffix> = call.suffixes().collect();
        match (call.prefix(), &suffixes[..]) {
            (
                Prefix::Name(n),
                [Suffix::Index(Index::Dot { name, .. }), Suffix::Call(Call::AnonymousCall(_))],
            ) => {
                name_of(n) == "string"
                    && name_of(name) == "gsub"
                    && byte_range(n).is_some_and(|(a, _)| {
                        self.names.resolve_in(self.file, "string", a).is_none()
                    })
            }
            (prefix, [receiver @ .., Suffix::Call(Call::MethodCall(m))])
                if name_of(m.name()) == "gsub" =>
            {
                let parts = match (prefix, receiver) {
                    (Prefix::Name(n), [Suffix::Index(Index::Brackets { expression, .. })]) => {
                        let text = format!("{}{}", name_of(n), receiver[0]);
                        self.indexed(&name_of(n), expression, &text)
                    }
                    (Prefix::Name(n), []) => match self.values.get(&self.holder(n)) {
                        Some(Some(value)) => value.parts.clone(),
                        _ => return false,
                    },
                    (Prefix::Expression(e), []) => match &**e {
                        Expression::Parentheses { expression, .. }
                            if matches!(&**expression, Expression::String(_)) =>
                        {
                            self.parts(expression)
                        }
                        _ => return false,
                    },
                    _ => return false,
                };
                parts
                    .iter()
                    .all(|p| matches!(p, Part::Literal(_) | Part::Key(_) | Part::Arg(_)))
            }
            _ => false,
        }
    }

    /// Whether a call of `path` is one of Lua's `unpack`: by its name, or a name bound to it
    /// (`local u = unpack`).
    fn is_unpack(&self, path: &[String]) -> bool {
        matches!(path, [name] if name == "unpack" || self.names.unpacks.contains(name))
    }

    /// The table `expr` unpacks, as written, when it is a call of Lua's `unpack`
    /// ([`Flow::is_unpack`]).
    fn unpack_of(&self, expr: &Expression) -> Option<String> {
        let Expression::FunctionCall(call) = expr else {
            return None;
        };
        let (path, FunctionArgs::Parentheses { arguments, .. }) = callee(call)? else {
            return None;
        };
        let table = arguments.iter().next()?;
        self.is_unpack(&path).then(|| short(&table.to_string()))
    }

    /// `expr` as [`Unpacked`]: `unpack(KEYS or ARGV[, i[, j]])` (or of a name for them) with
    /// number literals, or strings Lua reads as numbers, as bounds ([`truncated`]), of the
    /// caller's table at `byte`; `Err` with why when the script may have changed the table
    /// there (the count is then not known).
    fn unpacked(&self, expr: &Expression, byte: usize) -> Option<Result<Unpacked, String>> {
        let Expression::FunctionCall(call) = expr else {
            return None;
        };
        let Some((path, FunctionArgs::Parentheses { arguments, .. })) = callee(call) else {
            return None;
        };
        if !self.is_unpack(&path) {
            return None;
        }
        let mut arguments = arguments.iter();
        let Some(Expression::Var(Var::Name(t))) = arguments.next() else {
            return None;
        };
        let name = name_of(t);
        let (keys, which) = if name == "KEYS" || self.names.keys.contains(&name) {
            (true, Which::Keys)
        } else if name == "ARGV" || self.names.argv.contains(&name) {
            (false, Which::Argv)
        } else {
            return None;
        };
        let bounds: Vec<i64> = arguments.map(truncated).collect::<Option<_>>()?;
        let (from, to) = match bounds[..] {
            [] => (1, None),
            [i] => (i, None),
            [i, j] => (i, Some(j)),
            _ => return None,
        };
        match self.changes.of(which, None, None, self.file, byte) {
            Read::Caller => Some(Ok(Unpacked { keys, from, to })),
            Read::Changed(why) | Read::Followed(_, _, why) => Some(Err(why)),
        }
    }

    /// The fields of `unpack({a, b})`, a table the script writes, given whole (no bounds):
    /// each field one value (no key, no `nil`, no `...`, no call that may give any number);
    /// `None` for another expression.
    fn unpacked_table<'e>(&self, expr: &'e Expression) -> Option<Vec<&'e Expression>> {
        let Expression::FunctionCall(call) = expr else {
            return None;
        };
        let (path, FunctionArgs::Parentheses { arguments, .. }) = callee(call)? else {
            return None;
        };
        let (true, 1, Some(Expression::TableConstructor(table))) = (
            self.is_unpack(&path),
            arguments.len(),
            arguments.iter().next(),
        ) else {
            return None;
        };
        table
            .fields()
            .iter()
            .map(|field| match field {
                ast::Field::NoKey(e) => match e {
                    Expression::FunctionCall(c) if !self.single_valued(c) => None,
                    Expression::Symbol(s)
                        if matches!(s.token().to_string().as_str(), "..." | "nil") =>
                    {
                        None
                    }
                    _ => Some(e),
                },
                _ => None,
            })
            .collect()
    }

    /// A call of `redis.call` or an alias at `node`, with its callee and arguments.
    fn call(&mut self, call: &impl Node, callee: Option<(Vec<String>, &FunctionArgs)>) {
        let Some((mut path, args)) = callee else {
            return;
        };
        let byte = byte_start(call).unwrap_or(0);
        // a name that is the API (`redis`, `local r = redis`) is `redis`; `redis` that is
        // not (a local table of that name) calls no server
        let api = self.names.api(self.file, &path[0], byte);
        if api {
            "redis".clone_into(&mut path[0]);
        } else if API.contains(&path[0].as_str()) && within(&self.names.shadowed, self.file, byte) {
            return;
        } else if let [name, field] = &path[..] {
            // `r.call(...)` after `local r = { call = redis.call }`
            if let Some(field) = self.names.api_field(self.file, name, field, byte) {
                path = vec!["redis".to_owned(), field];
            }
        }
        // `redis.cal(...)`: checked as `redis.call(...)` (its `unknown-field` finding says so)
        if let [table, field] = &path[..] {
            if let Some(meant) = crate::globals::call_meant(table, field) {
                path[1] = meant.to_owned();
            }
        }
        // the call in a wrapper's body that forwards its `...`: each call of the wrapper is
        // the command
        if within(&self.names.dead, self.file, byte)
            || self.names.forwarders.contains(&(self.file, byte))
            || self.read_elsewhere(byte)
        {
            return;
        }
        let maybe = self.maybe_here(byte);
        // its error dropped: a statement of its own, or inside a function whose `pcall`
        // drops the error it catches
        let dropped = self.names.statements.contains(&(self.file, byte))
            || within(&self.names.caught_dropped, self.file, byte);
        let is_call = |path: &[String]| {
            is_call_path(path) || (path.len() == 1 && self.names.calls.contains(&path[0]))
        };
        let is_pcall = |path: &[String]| {
            (is_call_path(path) && path[1] == "pcall")
                || (path.len() == 1 && self.names.pcalls.contains(&path[0]))
        };
        let mut exprs: Vec<&Expression> = match args {
            FunctionArgs::Parentheses { arguments, .. } => arguments.iter().collect(),
            _ => Vec::new(),
        };
        let mut protected = is_pcall(&path) || within(&self.names.caught, self.file, byte);
        let reply = is_pcall(&path) && self.names.replies(self.file, byte);
        if !is_call(&path) {
            // `pcall(redis.call, 'set', k, v)`: the call with its error caught.
            let inner = match exprs.first() {
                Some(Expression::Var(Var::Expression(v))) => callee_path(v.prefix(), v.suffixes())
                    .map(|mut p| {
                        let at = byte_start(v.prefix()).unwrap_or(0);
                        if let [name, field] = &p[..] {
                            if let Some(field) = self.names.api_field(self.file, name, field, at) {
                                p = vec!["redis".to_owned(), field];
                            }
                        } else if self.names.api(self.file, &p[0], at) {
                            "redis".clone_into(&mut p[0]);
                        }
                        p
                    }),
                Some(Expression::Var(Var::Name(n))) => Some(vec![name_of(n)]),
                _ => None,
            };
            if path != ["pcall"] || !inner.is_some_and(|p| is_call(&p)) {
                // `s.call(...)` on a name the lint cannot tie to `redis` (`local s = server
                // or redis`): a call it cannot follow, at its place.
                if path.len() == 2 && (path[1] == "call" || path[1] == "pcall") {
                    self.calls.push(CallSite {
                        at: position(self.file, call),
                        command: None,
                        known: false,
                        keys: Vec::new(),
                        uncertain: Some(UNFOLLOWED),
                        functions: if self.library && self.file == 0 {
                            self.names.functions_at(byte)
                        } else {
                            Vec::new()
                        },
                        protected,
                        top_level: !within(&self.names.bodies, self.file, byte),
                        arguments: None,
                        args: Vec::new(),
                        unpacked: None,
                        maybe,
                        via: None,
                        dropped,
                        reply: false,
                        through: Vec::new(),
                        choices: Vec::new(),
                        uncounted: None,
                    });
                }
                return;
            }
            exprs.remove(0);
            protected = true;
        }
        let at = position(self.file, call);
        let via = match &path[..] {
            [name] => self
                .names
                .wrapped
                .get(name)
                .map(|(inner, at)| (name.clone(), inner.clone(), *at)),
            _ => None,
        };
        let mut open_end = false;
        let mut counted = true;
        let (unpacked, uncounted) = match exprs.last().and_then(|e| self.unpacked(e, byte)) {
            Some(Ok(u)) => (Some(u), None),
            Some(Err(why)) => (None, Some(Uncounted::Changed(why))),
            // `unpack(t)` of another table (one the script fills, possibly with nothing):
            // any count, none included
            None => match exprs.last() {
                Some(e) if self.unpacked_table(e).is_none() => match self.unpack_of(e) {
                    Some(table) => (
                        None,
                        Some(Uncounted::NotCounted(short(&e.to_string()), table)),
                    ),
                    None => (None, None),
                },
                _ => (None, None),
            },
        };
        let mut values: Vec<KeyExpr> = Vec::with_capacity(exprs.len());
        for (n, e) in exprs.iter().enumerate() {
            let last = n + 1 == exprs.len();
            // `unpack({a, b})` last: its fields are the arguments
            if let Some(fields) = self.unpacked_table(e).filter(|_| last) {
                values.extend(fields.into_iter().map(|f| self.eval(f)));
                break;
            }
            // `s:gsub(p, r)` last: the string and the count of its changes
            if last && self.string_gsub(e) {
                values.push(self.eval(e));
                values.push(KeyExpr::opaque(format!(
                    "the count {} gives",
                    short(&e.to_string())
                )));
                break;
            }
            if last && self.unpacks_keys(e) {
                // `unpack(KEYS)` last: every argument it gives is a declared key
                values.push(KeyExpr {
                    parts: vec![self.any_key(*e)],
                    text: short(&e.to_string()),
                });
                counted = false;
                break;
            }
            if last && matches!(e, Expression::FunctionCall(c) if !self.single_valued(c))
                || matches!(e, Expression::Symbol(s) if s.token().to_string() == "...")
            {
                open_end = true;
                break;
            }
            values.push(self.eval(e));
        }
        // an argument that names a local given more than one value may hold any of them
        let choices: Vec<(usize, Vec<KeyExpr>)> = exprs
            .iter()
            .enumerate()
            .take(values.len())
            .filter_map(|(n, e)| {
                let mut e = *e;
                while let Expression::Parentheses { expression, .. } = e {
                    e = expression;
                }
                let Expression::Var(Var::Name(name)) = e else {
                    return None;
                };
                Some((n, self.choices.get(&self.holder(name))?.clone()))
            })
            .collect();
        let functions = if self.library && self.file == 0 {
            self.names.functions_at(byte)
        } else {
            Vec::new()
        };
        let literal = |k: &KeyExpr| {
            k.literal()
                .map(|b| String::from_utf8_lossy(&b).to_ascii_lowercase())
        };
        let Some(mut command) = values.first().and_then(literal) else {
            self.calls.push(CallSite {
                at,
                command: None,
                known: false,
                keys: Vec::new(),
                uncertain: Some("the command is not a literal"),
                functions,
                protected,
                top_level: !within(&self.names.bodies, self.file, byte),
                arguments: None,
                args: Vec::new(),
                unpacked: None,
                maybe,
                via,
                dropped,
                reply,
                through: Vec::new(),
                choices: Vec::new(),
                uncounted: None,
            });
            return;
        };
        if commands::has_subcommands(&command) {
            if let Some(sub) = values.get(1).and_then(literal) {
                command = format!("{command}|{sub}");
            }
        }
        let literals: Vec<Option<Vec<u8>>> = values.iter().map(KeyExpr::literal).collect();
        let args: Vec<Arg<'_>> = literals
            .iter()
            .map(|l| l.as_deref().map_or(Arg::Unknown, Arg::Known))
            .collect();
        let (known, keys, uncertain) = match commands::find(&command, u8::MAX) {
            Some(table) => {
                let found = commands::key_positions(table, &args, open_end);
                let keys = found.positions.iter().map(|&i| values[i].clone()).collect();
                (true, keys, found.uncertain)
            }
            None => (
                false,
                Vec::new(),
                Some("the command is not in the servers' command table"),
            ),
        };
        self.calls.push(CallSite {
            at,
            command: Some(command),
            known,
            keys,
            uncertain,
            functions,
            protected,
            top_level: !within(&self.names.bodies, self.file, byte),
            arguments: (counted && !open_end).then_some(values.len()),
            args: values,
            unpacked,
            maybe,
            via,
            dropped,
            reply,
            through: Vec::new(),
            choices,
            uncounted,
        });
    }
}

impl Flow<'_> {
    /// Whether the code at `byte` is read elsewhere: in the body of a helper followed per
    /// call, which this walk is not following.
    pub(super) fn read_elsewhere(&self, byte: usize) -> bool {
        self.helpers
            .elsewhere(self.names, self.root, self.file, byte)
    }

    /// Why the code at `byte` may not run when what this walk reads runs: the script or
    /// its function ([`maybe_at`]), an include as placed, or the helper's body followed
    /// ([`maybe_in`]).
    pub(super) fn maybe_here(&self, byte: usize) -> Option<&'static str> {
        match self.root {
            None if self.file == 0 => maybe_at(self.names, byte),
            // an include's code, outside the helpers followed per call: a branch, a loop, a
            // function's body that may not be called, as written in its file
            None => maybe_in(
                self.names,
                self.file,
                byte,
                (0, usize::MAX),
                MAX_HELPER_CALLS,
            ),
            // a helper's body read for one call: the helpers it calls are read at their calls
            Some(j) => {
                let helper = &self.names.locals[j];
                maybe_in(self.names, helper.file, byte, helper.body, 0)
            }
        }
    }

    /// The helper of [`Names::passed`] that `call` calls (`get(...)`, `M.get(...)`,
    /// `M:get(...)`), the byte of its callee's first name, and the arguments.
    fn helper_call<'c>(
        &self,
        call: &'c ast::FunctionCall,
    ) -> Option<(usize, usize, &'c FunctionArgs)> {
        let Prefix::Name(n) = call.prefix() else {
            return None;
        };
        let site = byte_start(n)?;
        let j = self.names.called_helper(self.file, site)?;
        let args = match call.suffixes().next() {
            Some(Suffix::Call(Call::MethodCall(m))) => m.args(),
            _ => callee(call)?.1,
        };
        Some((j, site, args))
    }

    /// The values the parameters of the helper `j` take from a call's arguments `args`: each
    /// its argument's (a parameter past the arguments, or past a call or `...` that ends
    /// them, is opaque: nil, or values the lint does not count).
    pub(super) fn given(&self, j: usize, args: &FunctionArgs) -> Vec<(Holder, Option<KeyExpr>)> {
        let helper = &self.names.locals[j];
        let exprs: Vec<&Expression> = match args {
            FunctionArgs::Parentheses { arguments, .. } => arguments.iter().collect(),
            _ => Vec::new(),
        };
        // `get 'x'`: one string argument
        let single = match args {
            FunctionArgs::String(s) => Some(KeyExpr {
                parts: vec![Part::Literal(string_bytes(s))],
                text: short(&s.to_string()),
            }),
            _ => None,
        };
        let open = exprs.last().is_some_and(|e| {
            matches!(e, Expression::FunctionCall(c) if !self.single_valued(c))
                || matches!(e, Expression::Symbol(s) if s.token().to_string() == "...")
        });
        helper
            .parameters
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let value = match (exprs.get(i), &single) {
                    (Some(e), _) if !(open && i + 1 == exprs.len()) => self.eval_now(e),
                    (None, Some(s)) if i == 0 => Some(s.clone()),
                    _ => Some(KeyExpr::opaque(p.clone())),
                };
                let holder = match self.names.parameter(j, p) {
                    Some(b) => Holder::Binding(b),
                    None => Holder::Global(p.clone()),
                };
                (holder, value)
            })
            .collect()
    }

    /// The call `call` of a helper followed per call: its body read with the values this
    /// call gives its parameters, each command found there a call of its own, reached
    /// through this one (its functions, whether it may run, whether an error is caught: this
    /// call's): [`instances`].
    pub(super) fn follow(&mut self, call: &ast::FunctionCall) {
        let Some((j, site, args)) = self.helper_call(call) else {
            return;
        };
        let Some(body) = self.helpers.body(j) else {
            return;
        };
        if within(&self.names.dead, self.file, site) {
            return;
        }
        let (file, (a, b)) = (self.names.locals[j].file, self.names.locals[j].body);
        let mut values = self.values.clone();
        for (i, binding) in self.names.bindings.iter().enumerate() {
            if binding.file == file && a <= binding.declared && binding.declared < b {
                values.remove(&Holder::Binding(i));
            }
        }
        for (p, value) in self.given(j, args) {
            values.insert(p, value);
        }
        // the body's locals with these values, as `values` reads a file's
        let mut settled = false;
        for _ in 0..MAX_VALUE_PASSES {
            let mut flow = self.walk(Some(j), values.clone(), false);
            body.block().visit(&mut flow);
            if flow.values == values {
                settled = true;
                break;
            }
            values = flow.values;
        }
        if !settled {
            values = values.into_keys().map(|name| (name, None)).collect();
        }
        let mut inner = self.walk(Some(j), values, true);
        body.block().visit(&mut inner);
        let calls = std::mem::take(&mut inner.calls);
        let at = position(self.file, call);
        let maybe = self.maybe_here(site);
        let functions = if self.library && self.file == 0 {
            self.names.functions_at(site)
        } else {
            Vec::new()
        };
        let caught = within(&self.names.caught, self.file, site);
        let dropped = within(&self.names.caught_dropped, self.file, site);
        let top_level = self.root.is_none() && !within(&self.names.bodies, self.file, site);
        let name = match &self.names.locals[j].table {
            Some((table, _, true)) => format!("{table}:{}", self.names.locals[j].name),
            Some((table, _, false)) => format!("{table}.{}", self.names.locals[j].name),
            None => match call.prefix() {
                Prefix::Name(n) => name_of(n),
                _ => self.names.locals[j].name.clone(),
            },
        };
        for mut c in calls {
            c.functions.clone_from(&functions);
            c.maybe = maybe.or(c.maybe);
            c.dropped = c.dropped || (dropped && !c.protected);
            c.protected |= caught;
            c.top_level = top_level;
            c.through.insert(0, (name.clone(), at));
            self.calls.push(c);
        }
    }
}
