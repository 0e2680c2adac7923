//! Pass one of a script: the names that stand for the server's API, `KEYS` and `ARGV`, the
//! registered functions, and the places where `redis` is shadowed, code never runs, or an
//! error is caught.

use std::collections::{HashMap, HashSet};

use full_moon::ast::{self, BinOp, Call, Expression, FunctionArgs, Index, Prefix, Suffix, Var};
use full_moon::node::Node;
use full_moon::tokenizer::TokenReference;
use full_moon::visitors::Visitor;

use super::kind::Function;
use super::strings::string_value;
use super::syntax::{
    block_range, body_range, byte_range, byte_start, callee, callee_path, name_of, position, short,
    unparenthesized,
};
use crate::{Position, MAX_SOURCE_BYTES};

/// Pass one: aliases of `redis.call`, of `KEYS` and `ARGV`, registered functions, and the
/// byte ranges (file, start, end) where `redis` is a local (shadowed), where code never
/// runs (`if false then`), and where an error is caught (`pcall(function() ... end)`).
#[derive(Default)]
pub(super) struct Names {
    pub(super) calls: Vec<String>,
    /// The aliases of `redis.pcall` (also in `calls`).
    pub(super) pcalls: Vec<String>,
    pub(super) keys: Vec<String>,
    pub(super) argv: Vec<String>,
    /// The names bound to Lua's `unpack` (`local u = unpack`).
    pub(super) unpacks: Vec<String>,
    pub(super) functions: Vec<Function>,
    /// The file being visited.
    pub(super) file: usize,
    /// The byte ranges of the blocks around the node visited.
    pub(super) blocks: Vec<(usize, usize)>,
    pub(super) shadowed: Vec<(usize, usize, usize)>,
    pub(super) dead: Vec<(usize, usize, usize)>,
    pub(super) caught: Vec<(usize, usize, usize)>,
    /// The ranges of [`Names::caught`] whose `pcall` drops the error it catches: the `pcall`
    /// a statement of its own, or the one value of a `local` of one name (`local ok =
    /// pcall(...)`: the error is its second value).
    pub(super) caught_dropped: Vec<(usize, usize, usize)>,
    /// The calls (file, byte) that are the one value of a `local` of one name.
    single_locals: std::collections::HashSet<(usize, usize)>,
    /// The table constructors of file 0 that are a local's value, by their first byte: the
    /// local's name and its byte (the functions of their `name = function` fields are that
    /// table's fields, [`LocalFunction::table`]).
    constructed: HashMap<usize, (String, usize)>,
    /// The helper functions of the script (file 0: `local function f(...)`, `local f =
    /// function(...)`, a global's, a table's) and of its includes (their locals only), each
    /// with its file, its body's byte range and its parameters' names.
    pub(super) locals: Vec<LocalFunction>,
    /// The helpers (indexes of [`Names::locals`]) whose parameters take the values of the
    /// arguments their calls give (filled by [`Names::settle_passed`]): every use of the
    /// name is a direct call (`touch(KEYS[1])`), so no other value reaches them.
    pub(super) passed: Vec<usize>,
    /// The calls (file, byte) of each helper of [`Names::passed`] (its index in
    /// [`Names::locals`]), every one a direct call of its name, in the script or an include.
    pub(super) called_at: HashMap<usize, Vec<(usize, usize)>>,
    /// The helper of [`Names::passed`] each call of [`Names::called_at`] calls, by its
    /// (file, byte) ([`Names::called_helper`]).
    callee: HashMap<(usize, usize), usize>,
    /// The names (file, byte) called directly (`f(...)`, `f 'x'`, `f{...}`).
    direct_calls: std::collections::HashSet<(usize, usize)>,
    /// The names handed to `pcall`/`xpcall` as the function to run (`pcall(f)`), with the
    /// file and byte of each such use.
    pub(super) pcalled: Vec<(String, usize, usize, bool)>,
    /// For each local function (as [`Names::locals`]), the registered functions that may
    /// run it: those that name it, or name a local function that does, and so on (filled
    /// by [`Names::reach`]).
    pub(super) reached_by: Vec<Vec<usize>>,
    /// The byte ranges (file, start, end) of every function body.
    pub(super) bodies: Vec<(usize, usize, usize)>,
    /// Every name a file declares (locals, parameters, loop variables), file by file in
    /// source order.
    pub(super) bindings: Vec<Binding>,
    /// The indexes of [`Names::bindings`] by file, then by name, in source order.
    bindings_named: Vec<HashMap<String, Vec<usize>>>,
    /// Where the text of each include goes in the script the server runs (index: the file;
    /// `None` for the script itself, and for an include whose line is inside a block of the
    /// script): the bytes of the `--- @include` lines that bring it in, from file 0's down to
    /// its own in the file that includes it (`[line in file 0]` for the script's own
    /// include). Set by [`Names::place_includes`] before pass one.
    placed: Vec<Option<Vec<usize>>>,
    /// The top-level bindings of the includes that [`Names::placed`] places, by name, each
    /// with where it is in the script the server runs.
    included_top: HashMap<String, Vec<(Place, usize)>>,
    /// The assignments of file 0 to a global or into a global table (`helper = ...`,
    /// `function helper()`, `redis.x = ...`, `r.x = ...` after `local r = redis`), outside
    /// dead code: what is assigned, written out, the place, its byte, and the global table
    /// when the write goes through a local that holds it (`redis`).
    pub(super) globals: Vec<(String, Position, usize, Option<String>)>,
    /// The writes into a table through a local that holds a global table (`local r =
    /// redis; r.x = 1`): the binding, then as [`Names::globals`]; settled by
    /// [`Names::settle_aliases`].
    pub(super) alias_writes: Vec<(usize, String, Position, usize)>,
    /// The functions registered with `flags = name` (index of [`Names::functions`]), the
    /// name and its byte: settled by [`Names::settle_flags`].
    pub(super) flag_names: Vec<(usize, String, usize)>,
    /// Every name of file 0 read as a variable (`x`, `x.y`, `x(...)`, not a field's or a
    /// declaration's name), with its byte, its place, and whether it is outside every
    /// function body: a global where no binding covers it.
    pub(super) reads: Vec<(String, usize, Position, bool)>,
    /// The names assigned to (`x = ...`: a write, not a read; `function x()`), with their
    /// file and byte.
    pub(super) assigned: Vec<(usize, String, usize)>,
    /// The byte ranges (file, start, end) whose code may not run when the code around it
    /// does, with why: an `if`'s branches, a loop's body, the right of `and`/`or`, what
    /// follows a `return` inside a block (to the end of its function). Function bodies are
    /// in [`Names::bodies`].
    pub(super) maybe: Vec<(usize, usize, usize, &'static str)>,
    /// [`Names::maybe`] by [`MAYBE_BUCKET`]-byte bucket of the file: the indexes of the
    /// ranges that overlap each bucket, in `maybe`'s order (filled at the first
    /// [`Names::maybe_over`], once `maybe` is complete), so that a byte's ranges are found
    /// without a scan of them all for each call of a long script.
    pub(super) maybe_index: std::cell::OnceCell<Vec<Vec<usize>>>,
    /// The byte ranges of the function bodies around the node visited.
    pub(super) open_bodies: Vec<(usize, usize)>,
    /// The names the includes declare (`local function f`, `local x`, `function f`): the
    /// script's text is put where it includes them, so it may read them.
    pub(super) included: std::collections::HashSet<String>,
    /// Where each block that a statement closes ends, by (file, the block's first byte),
    /// set by the statement before its block is visited: the start of the keyword that
    /// closes it (`end`, `elseif`, `else`), or for a `repeat` block the end of its `until`
    /// condition, which sees its locals. A block not there is a file's outermost.
    block_ends: HashMap<(usize, usize), usize>,
    /// The calls of file 0 of a name's field (`redis.cal(...)`, `bit['bxor'](...)`): the
    /// name's byte (as in [`Names::reads`]) and the field.
    pub(super) field_calls: HashMap<usize, String>,
    /// The method calls of file 0 of a name (`M:get(...)`): the name's byte and the method.
    method_calls: HashMap<usize, String>,
    /// The `then` blocks of `if T.f then ... end` (file, start, end, `[T, f]`): a call of
    /// `T.f` there runs only where the field is, a feature test (`if redis.setresp then
    /// redis.setresp(3) end`).
    pub(super) guarded: Vec<(usize, usize, usize, Vec<String>)>,
    /// The bindings assigned after their declaration (`x = ...`), filled by
    /// [`Names::settle`] after pass one: a local declared with a global table may hold
    /// another value where it is used.
    pub(super) reassigned: std::collections::HashSet<usize>,
    /// The locals declared without a value (`local k`) that every way through the code
    /// gives a value before any use of their name (file, byte of the name): `if c then k =
    /// a else k = b end`, the first statement below that names them. Their value is what
    /// those assignments give, not nil as well.
    pub(super) set_before_read: std::collections::HashSet<(usize, usize)>,
    /// The locals of every file declared with a name as their value (`local r = redis`,
    /// `local redis = redis`, `local s = r`, `local d = rcall`): the file, the bytes of the
    /// name and of the value, the name, and the value's name.
    pub(super) copies: Vec<(usize, usize, usize, String, String)>,
    /// [`Names::root`] of each binding (filled by [`Names::settle`]).
    roots: Vec<Option<usize>>,
    /// The names of the locals that hold the API somewhere (filled by [`Names::settle`]):
    /// [`Names::api`] looks up no scope for any other name.
    api_names: std::collections::HashSet<String>,
    /// The locals declared with a field of a table (`local rcall = redis.call`): the file,
    /// the local, the table's name and byte, and the field; [`Names::settle`] keeps in
    /// [`Names::calls`] those of the API's `call` and `pcall`.
    pending_calls: Vec<(usize, String, String, usize, String)>,
    /// The calls of a table's `register_function` (`redis.register_function(...)`, `r.
    /// register_function{...}`); [`Names::settle`] registers those of the API.
    pending_functions: Vec<Registration>,
    /// The locals declared with a table's `register_function` (`local f =
    /// redis.register_function`; `local f = server and server.register_function or
    /// redis.register_function`, the table of the last `or`): the binding, the table's name
    /// and byte. A call of the local registers a function as a call of the field does.
    register_aliases: Vec<(usize, String, usize)>,
    /// The locals declared with a table's `log` (`local log = redis.log`), as
    /// [`Names::register_aliases`].
    log_aliases: Vec<(usize, String, usize)>,
    /// The calls of file 0's outermost block of a local of [`Names::log_aliases`] (`log(...)`
    /// run by FUNCTION LOAD): the table's name and byte, the call's byte and place.
    pub(super) load_log_calls: Vec<(String, usize, usize, Position)>,
    /// The bindings of `local` statements declared without a value (`local cb`): nil
    /// until a later assignment.
    unset: std::collections::HashSet<usize>,
    /// The functions declared into a name's field (`function M.handler()`, `function
    /// M:get()`): the file, the name and its byte.
    declared_fields: Vec<(usize, String, usize)>,
    /// The local functions that forward their arguments whole ([`forwarding`]: `local
    /// function rcall(...) return redis.call(...) end`). [`Names::settle`] keeps in [`Names::calls`] those whose callee is the API's `call` or
    /// `pcall`, or an alias of one, and their calls in [`Names::forwarders`].
    pending_forwards: Vec<Wrapper>,
    /// The calls in the body of a wrapper of [`Names::calls`] that forward its `...` (file,
    /// byte): each call of the wrapper is the command, so this call is no command of its own.
    pub(super) forwarders: std::collections::HashSet<(usize, usize)>,
    /// The wrappers of [`Names::calls`], each with where the command runs: the innermost
    /// wrapper and the call in its body (`rcall` and its `redis.call(...)`, also for a
    /// wrapper of `rcall`, or a local holding it), the line the servers name in their
    /// errors.
    pub(super) wrapped: HashMap<String, RunsIn>,
    /// The calls that are statements of their own, their values dropped (file, byte of the
    /// call).
    pub(super) statements: std::collections::HashSet<(usize, usize)>,
    /// The calls of file 0 that are the one value of a `return` (by byte), with the start
    /// of the function body the `return` is in (`None`: the file's own body).
    returned: HashMap<usize, Option<usize>>,
    /// The locals of file 0 declared with a table constructor holding the API's call or
    /// pcall (`local r = { call = redis.call }`): the binding, the field, the table's name
    /// and byte, the API's field; [`Names::settle_tables`] keeps those it can follow.
    pending_tables: Vec<(usize, String, String, usize, String)>,
    /// The locals that hold a table of the API's call and pcall, followed (by binding): each
    /// field with the API's field it holds (`r.call` is `redis.call`).
    table_calls: HashMap<usize, Vec<(String, String)>>,
    /// The bytes of the names of file 0 whose field is put in such a table (`redis` in `{
    /// call = redis.call }`): followed.
    pub(super) table_values: std::collections::HashSet<usize>,
}

/// The call that the function `body` forwards its arguments to, whole: a function of `...`
/// alone whose body is one `return f(...)` or one `f(...)` statement, `f` a name or dotted
/// names (`redis.call`, `rcall`); its path, the byte of its first name and the call's byte.
/// A call of such a function is a call of `f` with the same arguments (and, for `return`,
/// the same values; without it the values are dropped, which changes nothing the lint reads).
/// Anything more in the body (a parameter named, a second statement, `f(x, ...)`) is not
/// followed.
pub(super) fn forwarding(
    body: &ast::FunctionBody,
) -> Option<(Vec<String>, usize, &ast::FunctionCall)> {
    let mut parameters = body.parameters().iter();
    let (Some(ast::Parameter::Ellipsis(_)), None) = (parameters.next(), parameters.next()) else {
        return None;
    };
    let block = body.block();
    let mut stmts = block.stmts();
    let call = match (stmts.next(), stmts.next(), block.last_stmt()) {
        (None, None, Some(ast::LastStmt::Return(r))) => {
            let mut returns = r.returns().iter();
            match (returns.next(), returns.next()) {
                (Some(Expression::FunctionCall(call)), None) => call,
                _ => return None,
            }
        }
        (Some(ast::Stmt::FunctionCall(call)), None, None) => call,
        _ => return None,
    };
    let (path, FunctionArgs::Parentheses { arguments, .. }) = callee(call)? else {
        return None;
    };
    let mut args = arguments.iter();
    match (args.next(), args.next()) {
        (Some(Expression::Symbol(s)), None) if s.token().to_string() == "..." => {}
        _ => return None,
    }
    let Prefix::Name(first) = call.prefix() else {
        return None;
    };
    Some((path, byte_range(first)?.0, call))
}

/// Where a wrapper's calls run the command: the innermost wrapper's name and the call in
/// its body.
pub(super) type RunsIn = (String, Position);

/// A local function that forwards its arguments whole ([`forwarding`]).
struct Wrapper {
    /// The file and the local's name.
    file: usize,
    name: String,
    /// The callee's path (`["redis", "call"]`, `["rcall"]`) and the byte of its first name.
    path: Vec<String>,
    byte: usize,
    /// The call in the body: its byte and place.
    call: usize,
    at: Position,
}

/// A call of `T.register_function(...)` read in pass one, registered by [`Names::settle`]
/// when `T` is the API where it is called.
struct Registration {
    /// The file, the table's name and its byte.
    file: usize,
    table: String,
    byte: usize,
    function: Function,
    /// The callback's parameters that stand for KEYS and ARGV.
    keys: Option<String>,
    argv: Option<String>,
    /// The flags given by a name, with its byte (settled by [`Names::settle_flags`]).
    flags_name: Option<(String, usize)>,
}

/// A name a local statement, a parameter or a loop variable declares: a use of the name in
/// its file from `from` to `end` (bytes) means it, unless a later binding of the name covers
/// the use too (Lua's scopes nest, so the one declared last is the innermost).
pub(super) struct Binding {
    pub(super) name: String,
    /// The file it is declared in.
    pub(super) file: usize,
    /// The byte of the declaring name token (the use there is the binding itself).
    pub(super) declared: usize,
    /// The first byte it is visible at: the name of `local function f` (its own body sees
    /// it), the end of `local f = ...` (the value does not), a body's or a loop's start.
    pub(super) from: usize,
    /// The end of the block or body it is declared in.
    pub(super) end: usize,
    /// The local functions it may hold (indexes of [`Names::locals`]): its own value, and
    /// every `f = function ...` or `function f ...` assigned to it.
    pub(super) functions: Vec<usize>,
    /// Its value when it is declared with a table of string literals (`local ro = {
    /// 'no-writes' }`): the strings.
    pub(super) strings: Option<Vec<String>>,
    /// Whether it is declared with a table constructor of `name = value` fields only, each
    /// name once (`{}`, `{ get = function(k) ... end }`): no field is there but those named.
    pub(super) named_fields: bool,
    /// The global table it is declared with (`local r = redis`), but `KEYS` and `ARGV`
    /// (the call's own tables, which a script may change).
    pub(super) alias: Option<String>,
    /// The name it is declared with when that is a local's (`local s = r`), with the
    /// name's byte: it holds what that local holds there ([`Names::root`]).
    pub(super) copy: Option<(String, usize)>,
    /// Its value when it is declared with a table for `register_function` (`local opts =
    /// { function_name = 'f', callback = ... }`): what the table gives.
    pub(super) fields: Option<Fields>,
    /// What declares it.
    pub(super) kind: BindingKind,
}

/// What holds a value where a name is used ([`Names::holder`]): Lua's scoping is lexical, so
/// `local k` in one block and `local k` in another, or a helper's parameter `k` beside a
/// caller's `local k`, are two holders, each with its own value.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub(super) enum Holder {
    /// A binding (index of [`Names::bindings`]): a local, a parameter, a loop variable.
    Binding(usize),
    /// The global of that name (a use no binding covers).
    Global(String),
    /// What the helper (index of [`Names::locals`]) of one `return x` returns.
    Returned(usize),
}

/// What declares a [`Binding`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum BindingKind {
    /// A `local` statement or `local function`.
    Local,
    /// A function's parameter; `from` is the body's first byte.
    Parameter,
    /// A `for` loop's variable.
    Loop,
}

/// Where a binding or a use is in the script the server runs, the includes put in place of
/// their lines: the bytes of the `--- @include` lines that bring its file in, from file 0's
/// down ([`Names::placed`]), then its byte in its file. Compared in that order, the first
/// byte that differs decides: an include's text comes where its line is in the file that
/// includes it, before the code after that line and after the code before it.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Place(Vec<usize>);

impl Place {
    /// The place of `byte` of a file brought in by the lines `lines` ([`Names::placed`]).
    fn of(lines: &[usize], byte: usize) -> Self {
        let mut at = lines.to_vec();
        at.push(byte);
        Place(at)
    }

    /// The byte of the line in file 0 that brings the place's text in.
    fn anchor(&self) -> usize {
        self.0[0]
    }
}

/// The most links [`Names::root`] follows from a local to the one declared with a global
/// table (`local s = r` after `local r = redis` is one). A chain of locals cannot loop (a
/// local's value is read before the local is declared), and each link is a declaration
/// of the script, so the bound is never met by a script that runs; it keeps the walk finite
/// whatever the lint is given.
const MAX_LINKS: usize = 64;

/// The strings of a table constructor of string literals only (`{ 'no-writes' }`), as
/// flags of `register_function`: in lower case, for the servers read a function's flags in
/// any case (`{ 'NO-WRITES' }` is `no-writes` in FUNCTION LIST; measured on Redis 7.0,
/// Valkey 8.0 and 9.1), unlike the shebang's.
fn literal_flags(table: &ast::TableConstructor) -> Option<Vec<String>> {
    table
        .fields()
        .iter()
        .map(|f| match f {
            ast::Field::NoKey(Expression::String(s)) => Some(string_value(s).to_ascii_lowercase()),
            _ => None,
        })
        .collect()
}

/// A helper function of the script: `local function f(...)`, `local f = function(...)`, a
/// function assigned to a name (`function f(...)`, `f = function(...)`) or kept in a table
/// (`function M.f`, `M:f`, `M.f = function`, `{ f = function }`).
pub(super) struct LocalFunction {
    pub(super) name: String,
    /// The file it is written in (an include's: a `local` of it only).
    pub(super) file: usize,
    /// How a use reaches it: through the binding it is the value of (a use resolved to that
    /// binding), as a global (a use of its name no binding covers), or as a table's field
    /// (any use of its name: the lint does not follow tables).
    pub(super) reach: Reach,
    /// Where its name is declared (in its file), a byte.
    pub(super) declared: usize,
    /// The byte range of its body.
    pub(super) body: (usize, usize),
    /// Its parameters' names, in order.
    pub(super) parameters: Vec<String>,
    /// For a field of a table named by a name (`function M.get`, `function M:get`, `M.get =
    /// function`): the table's name, that name's byte, and whether it is a method (`:`,
    /// its first parameter `self` implicit).
    pub(super) table: Option<(String, usize, bool)>,
}

/// How a use of a name reaches a helper function (see [`LocalFunction::reach`]).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Reach {
    /// The value of a binding (index of [`Names::bindings`]).
    Bound,
    /// A global of that name.
    Global,
    /// A table's field of that name.
    Field,
}

/// The names of the server's API table.
pub(super) const API: [&str; 2] = ["redis", "server"];

pub(super) fn within(ranges: &[(usize, usize, usize)], file: usize, byte: usize) -> bool {
    ranges
        .iter()
        .any(|&(f, a, b)| f == file && a <= byte && byte < b)
}

/// Whether `expr` is the literal `false` or `nil` (code under it never runs).
/// Whether `expr` is a constant Lua reads as true: `true`, a number or a string (every value
/// but `nil` and `false`, `0` and `''` too).
pub(super) fn always(expr: &Expression) -> bool {
    match expr {
        Expression::Symbol(s) => s.token().to_string() == "true",
        Expression::Number(_) | Expression::String(_) => true,
        Expression::Parentheses { expression, .. } => always(expression),
        _ => false,
    }
}

pub(super) fn never(expr: &Expression) -> bool {
    matches!(expr, Expression::Symbol(s) if matches!(s.token().to_string().as_str(), "false" | "nil"))
}

/// The bytes of a bucket of [`Names::maybe_index`].
const MAYBE_BUCKET: usize = 1024;

impl Names {
    /// The ranges of [`Names::maybe`] of `file` that hold `byte`, in `maybe`'s order.
    pub(super) fn maybe_over(
        &self,
        file: usize,
        byte: usize,
    ) -> impl Iterator<Item = (usize, usize, &'static str)> + '_ {
        // a range may end at `usize::MAX` (after a `return` outside every function): the
        // buckets stop at the longest script, the last holding every byte past it
        let bucket = |byte: usize| byte.min(MAX_SOURCE_BYTES) / MAYBE_BUCKET;
        let index = self.maybe_index.get_or_init(|| {
            let mut index: Vec<Vec<usize>> = vec![Vec::new(); bucket(usize::MAX) + 1];
            for (i, &(_, a, b, _)) in self.maybe.iter().enumerate() {
                if a < b {
                    for each in &mut index[bucket(a)..=bucket(b - 1)] {
                        each.push(i);
                    }
                }
            }
            index
        });
        index[bucket(byte)]
            .iter()
            .map(|&i| self.maybe[i])
            .filter(move |&(f, a, b, _)| f == file && a <= byte && byte < b)
            .map(|(_, a, b, why)| (a, b, why))
    }

    /// The library functions that may run the code at `byte` of the script: the one whose
    /// body holds it, and every one that reaches a local function whose body holds it.
    pub(super) fn functions_at(&self, byte: usize) -> Vec<usize> {
        let within = |(a, b): (usize, usize)| a <= byte && byte < b;
        let mut out: Vec<usize> = (0..self.functions.len())
            .filter(|&i| within(self.functions[i].body))
            .collect();
        for (j, local) in self.locals.iter().enumerate() {
            if local.file == 0 && within(local.body) {
                out.extend(self.reached_by.get(j).into_iter().flatten());
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Fills [`Names::reached_by`] from `idents` (every name token of file 0 with its byte,
    /// in source order): a registered function reaches the helpers its body names, and those
    /// that theirs name, and so on. A name means the helper of the binding that covers it
    /// ([`Names::resolve`]: a local of the same name in another scope, or a parameter that
    /// shadows it, is another name), a global helper where no binding covers it, and a
    /// table's helper of that name anywhere. One sweep puts each name's helpers in the
    /// bodies around it; then a walk of that graph from each function.
    pub(super) fn reach(&mut self, idents: &[(String, usize)]) {
        // The bodies: each registered function's, then each local function's (nested or
        // apart, as the syntax tree makes them), by start, the outer first.
        let (nf, nl) = (self.functions.len(), self.locals.len());
        let mut bodies: Vec<((usize, usize), usize)> = self
            .functions
            .iter()
            .map(|f| f.body)
            // an include's helper: a body that holds no name of file 0
            .chain(self.locals.iter().map(|l| {
                if l.file == 0 {
                    l.body
                } else {
                    (usize::MAX, usize::MAX)
                }
            }))
            .enumerate()
            .map(|(n, body)| (body, n))
            .collect();
        bodies.sort_by_key(|&((a, b), _)| (a, std::cmp::Reverse(b)));
        let mut unbound: HashMap<&str, Vec<usize>> = HashMap::new();
        let mut fields: HashMap<&str, Vec<usize>> = HashMap::new();
        for (j, local) in self.locals.iter().enumerate() {
            match local.reach {
                Reach::Bound => continue,
                Reach::Global => unbound.entry(local.name.as_str()).or_default().push(j),
                Reach::Field => fields.entry(local.name.as_str()).or_default().push(j),
            }
        }
        let helpers: std::collections::HashSet<&str> =
            self.locals.iter().map(|l| l.name.as_str()).collect();
        // each body's edges to the helpers it names, as indexes
        let mut edges: Vec<Vec<usize>> = vec![Vec::new(); nf + nl];
        let mut open: Vec<((usize, usize), usize)> = Vec::new();
        let mut next = 0;
        for (name, at) in idents {
            while next < bodies.len() && bodies[next].0 .0 <= *at {
                open.push(bodies[next]);
                next += 1;
            }
            open.retain(|&((_, b), _)| *at < b);
            if !helpers.contains(name.as_str()) {
                continue;
            }
            let mut to: Vec<usize> = fields.get(name.as_str()).cloned().unwrap_or_default();
            match self.resolve(name, *at) {
                Some(b) => to.extend(&self.bindings[b].functions),
                None => to.extend(unbound.get(name.as_str()).into_iter().flatten()),
            }
            for &(_, n) in &open {
                edges[n].extend(&to);
            }
        }
        for to in &mut edges {
            to.sort_unstable();
            to.dedup();
        }
        let mut reached_by: Vec<Vec<usize>> = vec![Vec::new(); nl];
        for i in 0..nf {
            let mut seen = vec![false; nl];
            let mut queue: Vec<usize> = vec![i];
            while let Some(node) = queue.pop() {
                for &j in &edges[node] {
                    if !seen[j] {
                        seen[j] = true;
                        reached_by[j].push(i);
                        queue.push(nf + j);
                    }
                }
            }
        }
        self.reached_by = reached_by;
    }

    /// Settles the flags of every function registered with `flags = name`: the strings of
    /// the local the name means, when it is declared with a table of string literals and
    /// named nowhere else but in `flags = name` (`idents`: every name token of file 0 with
    /// its byte); else the flags are unread (the table may change before it is given).
    pub(super) fn settle_flags(&mut self, idents: &[(String, usize)]) {
        let uses: Vec<usize> = self.flag_names.iter().map(|&(_, _, at)| at).collect();
        for (f, name, at) in std::mem::take(&mut self.flag_names) {
            let value = self.resolve(&name, at).and_then(|b| {
                let binding = &self.bindings[b];
                // the script's own local: an include's may change where the lint does not
                // look
                if binding.file != 0 {
                    return None;
                }
                let elsewhere = idents.iter().any(|(n, i)| {
                    *n == name
                        && *i != binding.declared
                        && !uses.contains(i)
                        && self.resolve(n, *i) == Some(b)
                });
                (!elsewhere).then(|| binding.strings.clone()).flatten()
            });
            match value {
                Some(flags) => self.functions[f].flags = flags,
                None => self.functions[f].flags_unread = Some(name),
            }
        }
    }

    /// Fills [`Names::passed`]: the local functions of the script and of its includes
    /// (`local function f`, `local f = function`) that are the one value of their local,
    /// never assigned again, and whose name is used (`idents`: every name token of each file
    /// with its byte, by file) only to call them directly, in any of the files (or not at
    /// all: a body never run), or as the value of a copy (`local g = f`) itself never assigned again and only
    /// called directly: their parameters hold what the calls pass, nothing else.
    /// [`Names::called_at`] gets the calls, through a copy too.
    pub(super) fn settle_passed(&mut self, idents: &[Vec<(String, usize)>]) {
        let mut uses: HashMap<&str, Vec<(usize, usize)>> = HashMap::new();
        for (file, idents) in idents.iter().enumerate() {
            for (name, at) in idents {
                uses.entry(name.as_str()).or_default().push((file, *at));
            }
        }
        // the uses (file, byte) of the binding `b` (named `name`) but its own declaration
        let uses_of = |name: &str, b: usize| -> Vec<(usize, usize)> {
            let own = (self.bindings[b].file, self.bindings[b].declared);
            uses.get(name)
                .into_iter()
                .flatten()
                .copied()
                .filter(|&(f, at)| (f, at) != own && self.resolve_in(f, name, at) == Some(b))
                .collect()
        };
        let mut passed = Vec::new();
        let mut called_at = HashMap::new();
        for (j, local) in self.locals.iter().enumerate() {
            let Some(b) = self.resolve_in(local.file, &local.name, local.declared) else {
                continue;
            };
            if local.reach != Reach::Bound
                || self.bindings[b].functions != [j]
                || self.reassigned.contains(&b)
            {
                continue;
            }
            // its copies: each a place its name is used as a value, all of whose uses are
            // direct calls
            let mut values = Vec::new();
            let mut calls = Vec::new();
            let mut copies_called = true;
            for (c, copy) in self.bindings.iter().enumerate() {
                let Some((name, at)) = &copy.copy else {
                    continue;
                };
                if *name != local.name || self.resolve_in(copy.file, name, *at) != Some(b) {
                    continue;
                }
                let used = uses_of(&copy.name, c);
                copies_called &= !self.reassigned.contains(&c)
                    && used.iter().all(|at| self.direct_calls.contains(at));
                values.push((copy.file, *at));
                calls.extend(used);
            }
            let own: Vec<(usize, usize)> = uses_of(&local.name, b)
                .into_iter()
                .filter(|at| !values.contains(at))
                .collect();
            calls.extend(&own);
            if copies_called
                && !calls.is_empty()
                && own.iter().all(|at| self.direct_calls.contains(at))
            {
                calls.sort_unstable();
                passed.push(j);
                called_at.insert(j, calls);
            }
        }
        let mut tables: HashMap<usize, TableUses> = HashMap::new();
        // a table's field (`function M.get`, `function M:get`, `M.get = function`, `local M =
        // { get = function }`) of a local declared `{}` or with a constructor of named fields
        // ([`Binding::named_fields`]) and never assigned again, whose every use is the definition of
        // a field or a direct call of one (`M.get(...)`, `M:get(...)`): the field defined
        // once, and called in the form it is defined in (`:` for `function M:get`)
        for (j, local) in self.locals.iter().enumerate() {
            let (Reach::Field, Some((table, at, method)), 0) =
                (local.reach, &local.table, local.file)
            else {
                continue;
            };
            let Some(tb) = self.resolve(table, *at) else {
                continue;
            };
            let binding = &self.bindings[tb];
            if binding.file != 0 || self.reassigned.contains(&tb) || !binding.named_fields {
                continue;
            }
            // what the table's uses are, read once a table (a table of 3000 fields, each
            // reading them all, took 112 s): the fields defined with their counts and
            // places, each name's direct calls (`M.get(...)` or `M:get(...)`: whether a
            // method call), and whether any other use (a use in an include: not followed;
            // a use as a value) keeps every field from being followed
            let uses = tables.entry(tb).or_insert_with(|| {
                let of_table = |l: &LocalFunction| {
                    l.table
                        .as_ref()
                        .is_some_and(|(t, a, _)| t == table && self.resolve(t, *a) == Some(tb))
                };
                let mut uses = TableUses::default();
                for l in self.locals.iter().filter(|l| of_table(l)) {
                    *uses.defined.entry(l.name.clone()).or_default() += 1;
                    if let Some((_, a, _)) = &l.table {
                        uses.definitions.insert(*a);
                    }
                }
                for (file, at) in uses_of(table, tb) {
                    if file != 0 {
                        uses.other = true;
                    } else if !uses.definitions.contains(&at) {
                        match (self.field_calls.get(&at), self.method_calls.get(&at)) {
                            (Some(f), None) => {
                                uses.calls.entry(f.clone()).or_default().push((at, false))
                            }
                            (None, Some(f)) => {
                                uses.calls.entry(f.clone()).or_default().push((at, true))
                            }
                            _ => uses.other = true,
                        }
                    }
                }
                uses
            });
            if uses.defined.get(&local.name) != Some(&1) {
                continue;
            }
            let named = uses.calls.get(&local.name).map_or(&[][..], Vec::as_slice);
            let only_called = !uses.other && named.iter().all(|&(_, m)| m == *method);
            let calls: Vec<(usize, usize)> = named.iter().map(|&(at, _)| (0, at)).collect();
            // the field defined where the table is, whenever the table is (no branch, loop or
            // function around the definition that is not around the table's declaration),
            // and called below it: a call before it, or where it may not be made, finds no
            // field ("attempt to call field 'get' (a nil value)"), which the lint does not
            // judge, so such a field is not followed
            let around = |x: usize, y: usize| {
                !(x <= *at && *at < y) || (x <= binding.declared && binding.declared < y)
            };
            let in_place = self
                .maybe
                .iter()
                .all(|&(f, x, y, _)| f != 0 || around(x, y))
                && self.bodies.iter().all(|&(f, x, y)| f != 0 || around(x, y));
            if only_called
                && in_place
                && !calls.is_empty()
                && calls.iter().all(|&(_, c)| c >= local.body.1)
            {
                passed.push(j);
                called_at.insert(j, calls);
            }
        }
        self.passed = passed;
        self.callee = HashMap::new();
        for &j in &self.passed {
            for &site in called_at.get(&j).into_iter().flatten() {
                self.callee.entry(site).or_insert(j);
            }
        }
        self.called_at = called_at;
    }

    /// The helper of [`Names::passed`] that the call whose callee's first name is at
    /// `byte` of `file` calls (`get(...)`, `g(...)` after `local g = get`, `M.get(...)`,
    /// `M:get(...)`).
    pub(super) fn called_helper(&self, file: usize, byte: usize) -> Option<usize> {
        self.callee.get(&(file, byte)).copied()
    }

    /// Marks as caught the body of every local function of file 0 that is only ever run by
    /// `pcall(f, ...)`/`xpcall(f, h)`: its name appears nowhere but in its declaration and as
    /// the first argument of those (`idents`: every name token of file 0 with its byte).
    pub(super) fn catch_pcalled(&mut self, idents: &[(String, usize)]) {
        let mut uses: HashMap<&str, Vec<usize>> = HashMap::new();
        for (name, at) in idents {
            uses.entry(name.as_str()).or_default().push(*at);
        }
        for local in self.locals.iter().filter(|l| l.file == 0) {
            let handed: Vec<usize> = self
                .pcalled
                .iter()
                .filter(|(name, file, _, _)| *name == local.name && *file == 0)
                .map(|&(_, _, at, _)| at)
                .collect();
            if handed.is_empty() {
                continue;
            }
            let elsewhere = uses
                .get(local.name.as_str())
                .into_iter()
                .flatten()
                .any(|at| *at != local.declared && !handed.contains(at));
            if !elsewhere {
                self.caught.push((0, local.body.0, local.body.1));
                let dropped = self
                    .pcalled
                    .iter()
                    .filter(|(name, file, _, _)| *name == local.name && *file == 0)
                    .all(|&(_, _, _, dropped)| dropped);
                if dropped {
                    self.caught_dropped.push((0, local.body.0, local.body.1));
                }
            }
        }
    }

    /// Whether the values of the call at `byte` of `file` are the reply of the script or of
    /// a registered function: the one value of a `return` in the script's own body, or in
    /// a registered function's own (not a helper's, whose values go to its caller).
    pub(super) fn replies(&self, file: usize, byte: usize) -> bool {
        match (file, self.returned.get(&byte)) {
            (0, Some(None)) => self.functions.is_empty(),
            (0, Some(Some(body))) => self.functions.iter().any(|f| f.body.0 == *body),
            _ => false,
        }
    }

    /// The API's field (`call` or `pcall`) that `name.field` at `byte` of `file` is: the
    /// API's own (`redis.call`, `r.pcall` after `local r = redis`: [`Names::api`]), or a
    /// field of a local table of them ([`Names::settle_tables`]: `r.call` after `local r =
    /// { call = redis.call }`). The one answer for a call's callee, and for a callee handed
    /// to `pcall`.
    pub(super) fn api_field(
        &self,
        file: usize,
        name: &str,
        field: &str,
        byte: usize,
    ) -> Option<String> {
        if self.api(file, name, byte) {
            return Some(field.to_owned());
        }
        if file != 0 || self.table_calls.is_empty() {
            return None;
        }
        let b = self.resolve(name, byte)?;
        self.table_calls
            .get(&b)?
            .iter()
            .find(|(f, _)| f == field)
            .map(|(_, api)| api.clone())
    }

    /// Whether the name `name` at `byte` of `file` is the server's API table: `redis` or
    /// `server` where no local of that name covers it, or a local that holds it
    /// ([`Names::holds`]: `local r = redis`, `local redis = redis`, `local s = r`, not
    /// assigned again), the script and its includes one scope ([`Names::resolve_in`]). The
    /// one answer for every use: a call (`r.call(...)`), `pcall(r.call, ...)`, an alias of a
    /// call (`local rcall = r.call`), a registration (`r.register_function`), and the uses
    /// the lint does not follow. Asked after [`Names::settle`].
    pub(super) fn api(&self, file: usize, name: &str, byte: usize) -> bool {
        // most names are neither the API's nor a local's that holds it: no scope looked up
        if !API.contains(&name) && !self.api_names.contains(name) {
            return false;
        }
        match self.resolve_in(file, name, byte) {
            Some(b) => self.holds(b).is_some_and(|t| API.contains(&t)),
            None => API.contains(&name) && !within(&self.shadowed, file, byte),
        }
    }

    /// The global table the binding `b` holds wherever it is used: the one its chain of
    /// locals starts with ([`Names::root`]: `local r = redis; local s = r`: `redis`).
    pub(super) fn holds(&self, b: usize) -> Option<&str> {
        self.bindings[self.root(b)?].alias.as_deref()
    }

    /// The binding declared with a global table that `b` holds, through its chain of locals
    /// (`local s = r` after `local r = redis`: `r`'s), when no local of the chain is assigned
    /// again (then it may hold another value where it is used); `None` otherwise, or past
    /// [`MAX_LINKS`] links. Found for every binding at once by [`Names::settle`].
    pub(super) fn root(&self, b: usize) -> Option<usize> {
        self.roots.get(b).copied().flatten()
    }

    /// [`Names::root`] of every binding, each chain walked once: the bindings a walk passes
    /// take its answer, one link further each.
    fn find_roots(&self) -> Vec<Option<usize>> {
        // per binding, once known: its root and the links to it
        let mut known: Vec<Option<Option<(usize, usize)>>> = vec![None; self.bindings.len()];
        for start in 0..self.bindings.len() {
            let mut path: Vec<usize> = Vec::new();
            let mut b = start;
            let mut found = loop {
                if let Some(k) = known[b] {
                    break k;
                }
                // a chain this long is no script's (nor can it loop): no root
                if path.len() > MAX_LINKS {
                    break None;
                }
                let binding = &self.bindings[b];
                let next = match &binding.copy {
                    _ if self.reassigned.contains(&b) => None,
                    _ if binding.alias.is_some() => {
                        known[b] = Some(Some((b, 0)));
                        break Some((b, 0));
                    }
                    Some((name, at)) => self.resolve_in(binding.file, name, *at),
                    None => None,
                };
                let Some(next) = next else {
                    known[b] = Some(None);
                    break None;
                };
                path.push(b);
                b = next;
            };
            for &p in path.iter().rev() {
                found = found.and_then(|(r, links)| (links < MAX_LINKS).then_some((r, links + 1)));
                known[p] = Some(found);
            }
        }
        known
            .into_iter()
            .map(|k| k.flatten().map(|(r, _)| r))
            .collect()
    }

    /// Settles what pass one could not decide before it had seen every assignment: the
    /// bindings assigned again ([`Names::reassigned`]), then the aliases of `call`/`pcall`
    /// (also through locals: `local d = rcall`) and the registered functions of a table that
    /// is the API ([`Names::api`]).
    pub(super) fn settle(&mut self) {
        self.reassigned = self
            .assigned
            .iter()
            .filter_map(|(file, name, at)| self.resolve_in(*file, name, *at))
            .collect();
        self.roots = self.find_roots();
        self.api_names = (0..self.bindings.len())
            .filter(|&b| self.holds(b).is_some_and(|t| API.contains(&t)))
            .map(|b| self.bindings[b].name.clone())
            .collect();
        // a wrapper of `T.call(...)`: an alias of `T.call` where `T` is the API; a wrapper
        // of a name (`return rcall(...)`): a link as `local d = rcall` is
        let wrappers = std::mem::take(&mut self.pending_forwards);
        for w in &wrappers {
            if let [table, field] = &w.path[..] {
                if field == "call" || field == "pcall" {
                    self.pending_calls.push((
                        w.file,
                        w.name.clone(),
                        table.clone(),
                        w.byte,
                        field.clone(),
                    ));
                }
            }
        }
        for (file, alias, table, byte, field) in std::mem::take(&mut self.pending_calls) {
            if self.api(file, &table, byte) {
                if field == "pcall" {
                    self.pcalls.push(alias.clone());
                }
                self.calls.push(alias);
            }
        }
        for w in wrappers.iter().filter(|w| w.path.len() == 2) {
            if self.calls.contains(&w.name) {
                self.wrapped.insert(w.name.clone(), (w.name.clone(), w.at));
            }
        }
        // `local d = rcall`: an alias of an alias, link by link (each round adds one at
        // least, or stops)
        let links: Vec<(&String, &String, Option<&Wrapper>)> = self
            .copies
            .iter()
            .map(|c| (&c.3, &c.4, None))
            .chain(wrappers.iter().filter_map(|w| match &w.path[..] {
                [of] => Some((&w.name, of, Some(w))),
                _ => None,
            }))
            .collect();
        loop {
            let more: Vec<(String, bool, Option<RunsIn>)> = links
                .iter()
                .filter(|(alias, of, _)| self.calls.contains(of) && !self.calls.contains(alias))
                .map(|&(alias, of, wrapper)| {
                    // where the command runs: in the body of the innermost wrapper
                    let at = self
                        .wrapped
                        .get(of)
                        .cloned()
                        .or(wrapper.map(|w| (w.name.clone(), w.at)));
                    (alias.clone(), self.pcalls.contains(of), at)
                })
                .collect();
            if more.is_empty() {
                break;
            }
            for (alias, pcall, at) in more {
                if let Some(at) = at {
                    self.wrapped.insert(alias.clone(), at);
                }
                if pcall {
                    self.pcalls.push(alias.clone());
                }
                self.calls.push(alias);
            }
        }
        self.forwarders = wrappers
            .iter()
            .filter(|w| self.calls.contains(&w.name))
            .map(|w| (w.file, w.call))
            .collect();
        for r in std::mem::take(&mut self.pending_functions) {
            if !self.api(r.file, &r.table, r.byte) {
                continue;
            }
            self.keys.extend(r.keys);
            self.argv.extend(r.argv);
            if let Some((flags_name, at)) = r.flags_name {
                self.flag_names.push((self.functions.len(), flags_name, at));
            }
            self.functions.push(r.function);
        }
    }

    /// The bindings of `file` named `name`, in source order.
    pub(super) fn named(&self, file: usize, name: &str) -> &[usize] {
        self.bindings_named
            .get(file)
            .and_then(|names| names.get(name))
            .map_or(&[], Vec::as_slice)
    }

    /// The binding of file 0 that the name `name` at `byte` means ([`Names::resolve_in`]).
    pub(super) fn resolve(&self, name: &str, byte: usize) -> Option<usize> {
        self.resolve_in(0, name, byte)
    }

    /// The binding that the name `name` at `byte` of `file` means, the script and its
    /// includes one scope as the server runs them (bullmq's loader puts each include's text
    /// in place of its `--- @include` line): the last declared of those of its file that
    /// cover it (the declaring token itself means its own binding), or of the top-level
    /// locals of the includes put before it, whichever comes later in the script the server
    /// runs; for a use in an include that none of its own covers, also the script's binding
    /// that covers its `--- @include` line. `None` for a global.
    pub(super) fn resolve_in(&self, file: usize, name: &str, byte: usize) -> Option<usize> {
        let own = self.covering(file, name, byte);
        let (at, script) = match file {
            0 => (Place(vec![byte]), None),
            _ if own.is_some() => return own,
            f => {
                let at = Place::of(self.placed.get(f)?.as_deref()?, byte);
                let script = self.covering(0, name, at.anchor());
                (at, script)
            }
        };
        let own = own.or(script);
        let included = self
            .included_top
            .get(name)
            .into_iter()
            .flatten()
            .filter(|(place, _)| *place < at)
            .max_by(|(x, _), (y, _)| x.cmp(y));
        match (own, included) {
            (Some(b), Some((place, i))) => Some(if place.anchor() > self.bindings[b].declared {
                *i
            } else {
                b
            }),
            (b, i) => b.or(i.map(|(_, i)| *i)),
        }
    }

    /// What holds the value of the name `name` at `byte` of `file` ([`Holder`]): the binding
    /// it means there ([`Names::resolve_in`]), else the global of that name. The one answer
    /// to "which value does this name read here" for every walk of the values.
    pub(super) fn holder(&self, file: usize, name: &str, byte: usize) -> Holder {
        match self.resolve_in(file, name, byte) {
            Some(b) => Holder::Binding(b),
            None => Holder::Global(name.to_owned()),
        }
    }

    /// The binding of the parameter `name` of the helper `j` (of [`Names::locals`]), when
    /// it has one of that name.
    pub(super) fn parameter(&self, j: usize, name: &str) -> Option<usize> {
        let (file, start) = (self.locals[j].file, self.locals[j].body.0);
        self.named(file, name).iter().rev().copied().find(|&b| {
            let binding = &self.bindings[b];
            binding.kind == BindingKind::Parameter && binding.from == start
        })
    }

    /// The binding of `file` that the name `name` at `byte` means among that file's own:
    /// the last declared of those that cover it.
    fn covering(&self, file: usize, name: &str, byte: usize) -> Option<usize> {
        let named = self.named(file, name);
        // They are in source order of their declaring tokens, and one declared after
        // `byte` covers only the tokens of a parameter list before its own, none a use.
        let upto = named.partition_point(|&b| self.bindings[b].declared <= byte);
        named[..upto].iter().rev().copied().find(|&b| {
            let binding = &self.bindings[b];
            binding.declared == byte || (binding.from <= byte && byte < binding.end)
        })
    }

    /// The helper that the name `name` at `byte` of file 0 holds when it runs there: the last
    /// assigned before `byte` to the binding it means, or of the global of that name.
    fn local_named(&self, name: &str, byte: usize) -> Option<&LocalFunction> {
        let before = |j: &&usize| self.locals[**j].file == 0 && self.locals[**j].declared < byte;
        match self.resolve(name, byte) {
            Some(b) => self.bindings[b]
                .functions
                .iter()
                .rev()
                .find(before)
                .map(|&j| &self.locals[j]),
            None => self.locals.iter().rev().find(|l| {
                l.file == 0 && l.reach == Reach::Global && l.name == name && l.declared < byte
            }),
        }
    }

    /// Whether the name `name` at `byte`, in the file's outermost block (run once, in
    /// order, at FUNCTION LOAD), is a local declared without a value and not assigned
    /// before: nil there (`local cb` / `register_function('f', cb)` / `cb = function ...`).
    fn nil_at(&self, name: &str, byte: usize) -> bool {
        if self.blocks.len() > 1 {
            return false;
        }
        let Some(b) = self.resolve_in(self.file, name, byte) else {
            return false;
        };
        let declared = self.bindings[b].declared;
        self.unset.contains(&b)
            && !self
                .assigned
                .iter()
                .any(|(f, n, at)| *f == self.file && n == name && declared < *at && *at < byte)
    }

    /// Whether `value`, in file 0's outermost block, is a field of a local declared with an
    /// empty table (`local M = {}` / `register_function('f', M.handler)` / `function
    /// M.handler ...`) that nothing touches between its declaration and `value` (no read of
    /// the local, no assignment to it, no function declared into it): nil there.
    fn nil_field_at(&self, value: &Expression) -> bool {
        let Expression::Var(Var::Expression(v)) = unparenthesized(value) else {
            return false;
        };
        let path = callee_path(v.prefix(), v.suffixes());
        let (Some([table, _]), Prefix::Name(first)) = (path.as_deref(), v.prefix()) else {
            return false;
        };
        let Some(at) = byte_start(first) else {
            return false;
        };
        if self.file != 0 || self.blocks.len() > 1 {
            return false;
        }
        let Some(b) = self.resolve_in(0, table, at) else {
            return false;
        };
        let binding = &self.bindings[b];
        let between = |byte: usize| binding.declared < byte && byte < at;
        binding.kind == BindingKind::Local
            && binding.strings.as_ref().is_some_and(Vec::is_empty)
            && !self
                .reads
                .iter()
                .any(|(n, byte, _, _)| n == table && between(*byte))
            && !self
                .assigned
                .iter()
                .chain(&self.declared_fields)
                .any(|(f, n, byte)| *f == 0 && n == table && between(*byte))
    }

    /// Declares the name `token` of file 0, visible from `from` to the end of the block
    /// around it (or `end` when given), holding the helpers `functions`.
    fn bind(&mut self, token: &TokenReference, from: usize, end: Option<usize>) -> Option<usize> {
        let declared = byte_range(token)?.0;
        // the file's outermost block: a local statement's or a function's there
        let top_level = end.is_none() && self.blocks.len() <= 1;
        let end = end.unwrap_or_else(|| self.blocks.last().map_or(usize::MAX, |&(_, e)| e));
        let b = self.bind_name(name_of(token), declared, from, end);
        if let (true, Some(Some(lines))) = (top_level, self.placed.get(self.file)) {
            let place = Place::of(lines, declared);
            self.included_top
                .entry(self.bindings[b].name.clone())
                .or_default()
                .push((place, b));
        }
        Some(b)
    }

    /// Declares `name` in the file visited, its token at the byte `declared`, visible from
    /// `from` to `end`; its index in [`Names::bindings`].
    fn bind_name(&mut self, name: String, declared: usize, from: usize, end: usize) -> usize {
        self.bindings.push(Binding {
            name,
            file: self.file,
            declared,
            from,
            end,
            functions: Vec::new(),
            strings: None,
            named_fields: false,
            alias: None,
            copy: None,
            fields: None,
            kind: BindingKind::Local,
        });
        let b = self.bindings.len() - 1;
        if self.bindings_named.len() <= self.file {
            self.bindings_named.resize_with(self.file + 1, HashMap::new);
        }
        self.bindings_named[self.file]
            .entry(self.bindings[b].name.clone())
            .or_default()
            .push(b);
        b
    }

    /// Places each include in the script the server runs (see [`Names::placed`]), from
    /// `lines`: for each file, the files its `--- @include` lines bring in, each with the
    /// line's byte, in order; `nested`: whether a byte of file 0 is inside a block (an
    /// include there is the block's, not followed across files). An include brought in
    /// twice goes where it comes first, as bullmq's loader puts it once.
    pub(super) fn place_includes(
        &mut self,
        lines: &[Vec<(usize, usize)>],
        nested: impl Fn(usize) -> bool,
    ) {
        let mut placed: Vec<Option<Vec<usize>>> = vec![None; lines.len()];
        let mut seen = vec![false; lines.len()];
        seen[0] = true;
        // a walk in the order of the text, each file once: (file, next line)
        let mut stack: Vec<(usize, usize)> = vec![(0, 0)];
        while let Some((file, next)) = stack.pop() {
            let Some(&(child, byte)) = lines[file].get(next) else {
                continue;
            };
            stack.push((file, next + 1));
            if seen[child] {
                continue;
            }
            seen[child] = true;
            let path = if file == 0 {
                (!nested(byte)).then(|| vec![byte])
            } else {
                placed[file].as_ref().map(|lines| {
                    let mut path = lines.clone();
                    path.push(byte);
                    path
                })
            };
            placed[child] = path;
            stack.push((child, 0));
        }
        self.placed = placed;
    }

    /// A helper assigned to the name `token` (`function f`, `f = function`): the value of
    /// the binding the name means there, or a global.
    fn assign_helper(&mut self, token: &TokenReference, body: &ast::FunctionBody) {
        let at = byte_start(token).unwrap_or(0);
        match self.resolve_in(self.file, &name_of(token), at) {
            Some(b) => {
                if let Some(j) = self.add_local(token, body, Reach::Bound) {
                    self.bindings[b].functions.push(j);
                }
            }
            None => {
                self.add_local(token, body, Reach::Global);
            }
        }
    }

    /// An assignment to `var` at `node`: recorded in [`Names::globals`] when it writes a
    /// global (a name no binding covers) or into a global table (`redis.x`, `string.f`:
    /// the servers keep them read-only; `KEYS` and `ARGV` are the call's own tables).
    fn global_write(&mut self, first: &TokenReference, suffixes: &[&Suffix], node: &impl Node) {
        if self.file != 0 {
            return;
        }
        let name = name_of(first);
        let Some(at) = byte_start(first) else {
            return;
        };
        let into_table = !suffixes.is_empty();
        let text = || {
            std::iter::once(name.clone())
                .chain(suffixes.iter().map(|s| s.to_string().trim().to_owned()))
                .collect::<String>()
        };
        let bound = self.resolve(&name, at);
        if let (Some(b), true, false) = (bound, into_table, within(&self.dead, 0, at)) {
            let binding = &self.bindings[b];
            if (binding.alias.is_some() || binding.copy.is_some())
                && !suffixes.iter().any(|s| matches!(s, Suffix::Call(_)))
            {
                self.alias_writes.push((b, text(), position(0, node), at));
            }
            return;
        }
        // `_G.ARGV[2] = v` (`_G['KEYS'][1]`): a write into the call's table, which `_G` holds
        let through_globals = name == "_G"
            && suffixes.len() > 1
            && matches!(
                suffixes[0].to_string().trim(),
                ".KEYS" | ".ARGV" | "['KEYS']" | "['ARGV']" | "[\"KEYS\"]" | "[\"ARGV\"]"
            );
        if bound.is_some()
            || within(&self.dead, 0, at)
            || (into_table && (name == "KEYS" || name == "ARGV"))
            || through_globals
            || suffixes.iter().any(|s| matches!(s, Suffix::Call(_)))
        {
            return;
        }
        self.globals.push((text(), position(0, node), at, None));
    }

    /// Moves to [`Names::globals`] each write through a local that holds a global table
    /// ([`Names::alias_writes`]) whose local is never assigned again (then it may hold
    /// another table when the write runs); in source order.
    pub(super) fn settle_aliases(&mut self) {
        for (b, text, at, byte) in std::mem::take(&mut self.alias_writes) {
            if let Some(table) = self.holds(b).map(str::to_owned) {
                self.globals.push((text, at, byte, Some(table)));
            }
        }
        self.globals.sort_by_key(|&(_, _, byte, _)| byte);
    }

    /// Records the helper `name` with its `body`, reached as `reach` says; its index.
    fn add_local(
        &mut self,
        name: &TokenReference,
        body: &ast::FunctionBody,
        reach: Reach,
    ) -> Option<usize> {
        // an include's: its locals only, which the script's calls reach by their binding
        if self.file != 0 && reach != Reach::Bound {
            return None;
        }
        let (Some(declared), Some(range)) = (byte_start(name), body_range(body)) else {
            return None;
        };
        self.locals.push(LocalFunction {
            name: name_of(name),
            file: self.file,
            reach,
            declared,
            body: range,
            parameters: body
                .parameters()
                .iter()
                .filter_map(|p| match p {
                    ast::Parameter::Name(n) => Some(name_of(n)),
                    _ => None,
                })
                .collect(),
            table: None,
        });
        Some(self.locals.len() - 1)
    }

    /// Code of the file visited from `range`'s start to its end may not run when the code
    /// around it does, for the reason `why`.
    fn may_skip(&mut self, range: Option<(usize, usize)>, why: &'static str) {
        if let Some((a, b)) = range {
            self.maybe.push((self.file, a, b, why));
        }
    }

    /// The name `token` of file 0 read as a variable.
    fn read(&mut self, token: &TokenReference) {
        if let (0, Some(a)) = (self.file, byte_start(token)) {
            let top_level = self.open_bodies.is_empty();
            self.reads
                .push((name_of(token), a, position(0, token), top_level));
        }
    }

    /// The fields of the constructor `table` of the local `b` that hold a table's `call` or
    /// `pcall` (`{ call = redis.call, pcall = redis.pcall }`), settled by
    /// [`Names::settle_tables`].
    fn table_of_calls(&mut self, b: usize, table: &ast::TableConstructor) {
        for field in table.fields() {
            let ast::Field::NameKey { key, value, .. } = field else {
                continue;
            };
            let Expression::Var(Var::Expression(v)) = &**value else {
                continue;
            };
            let path = callee_path(v.prefix(), v.suffixes());
            let (Some([t, f]), Prefix::Name(first)) = (path.as_deref(), v.prefix()) else {
                continue;
            };
            if let (true, Some(at)) = (f == "call" || f == "pcall", byte_start(first)) {
                self.pending_tables
                    .push((b, name_of(key), t.clone(), at, f.clone()));
            }
        }
    }

    /// Keeps in [`Names::table_calls`] the locals of [`Names::pending_tables`] whose table
    /// is the API's where it is read ([`Names::api`]) and whose every use (`idents`: every
    /// name token of file 0 with its byte) is a call of one of its fields (`r.call(...)`):
    /// never assigned, written into, handed on or indexed otherwise, so the fields keep the
    /// functions they were given. Asked after [`Names::settle`].
    pub(super) fn settle_tables(&mut self, idents: &[(String, usize)]) {
        let mut kept: HashMap<usize, Vec<(String, String)>> = HashMap::new();
        let mut values: Vec<(usize, usize)> = Vec::new();
        for (b, field, table, at, api_field) in std::mem::take(&mut self.pending_tables) {
            if self.api(0, &table, at) {
                kept.entry(b).or_default().push((field, api_field));
                values.push((b, at));
            }
        }
        kept.retain(|&b, _| {
            let binding = &self.bindings[b];
            !self.reassigned.contains(&b)
                && idents.iter().all(|(n, at)| {
                    *n != binding.name
                        || *at == binding.declared
                        || self.resolve(n, *at) != Some(b)
                        || self.field_calls.contains_key(at)
                })
        });
        self.table_values = values
            .into_iter()
            .filter(|(b, _)| kept.contains_key(b))
            .map(|(_, at)| at)
            .collect();
        self.table_calls = kept;
    }

    /// The local `name` declared with the function `body`: a wrapper when the body forwards
    /// its arguments whole ([`forwarding`]), settled by [`Names::settle`].
    fn forwards(&mut self, name: &TokenReference, body: &ast::FunctionBody) {
        if let Some((path, byte, call)) = forwarding(body) {
            self.pending_forwards.push(Wrapper {
                file: self.file,
                name: name_of(name),
                path,
                byte,
                call: byte_start(call).unwrap_or(0),
                at: position(self.file, call),
            });
        }
    }

    /// Records that `block` ends where `terminator` starts ([`Names::block_ends`]); its
    /// range ([`block_range`]).
    fn ends_at(
        &mut self,
        block: &ast::Block,
        terminator: &TokenReference,
    ) -> Option<(usize, usize)> {
        let range = block_range(block, terminator);
        if let Some((a, b)) = range {
            self.block_ends.entry((self.file, a)).or_insert(b);
        }
        range
    }

    /// An empty range at the keyword `end` that closes an empty block: the scope of names
    /// declared for that block, which no use is in.
    fn nowhere(end: &TokenReference) -> Option<(usize, usize)> {
        byte_start(end).map(|e| (e, e))
    }

    /// `redis` shadowed by a local from `start` to the end of the enclosing block.
    pub(super) fn shadow(&mut self, start: usize) {
        let end = self.blocks.last().map_or(usize::MAX, |&(_, e)| e);
        self.shadowed.push((self.file, start, end.max(start)));
    }
}

/// Whether `node` names `name` (a token of its text; a field `t.name` too, which only makes
/// the answer careful).
fn mentions(node: &impl Node, name: &str) -> bool {
    // from the back (full_moon's forward walk is quadratic)
    node.tokens().rev().any(|t| {
        matches!(t.token_type(), full_moon::tokenizer::TokenType::Identifier { identifier }
            if identifier.as_str() == name)
    })
}

/// Whether every way through `block` gives the local `name` a value before any use of it,
/// or leaves the block (`return`, `break`) without using it.
fn sets_first(block: &ast::Block, name: &str) -> bool {
    match block.stmts().find(|s| mentions(*s, name)) {
        Some(stmt) => sets(stmt, name),
        None => block.last_stmt().is_some_and(|last| !mentions(last, name)),
    }
}

/// Whether `stmt`, the first statement that names the local `name`, gives it a value on
/// every way through without reading it first: `name = x` (`x` not naming it), or an `if`
/// with an `else` whose conditions do not name it and each of whose blocks does so
/// ([`sets_first`]).
fn sets(stmt: &ast::Stmt, name: &str) -> bool {
    match stmt {
        ast::Stmt::Assignment(a) => {
            a.variables()
                .iter()
                .any(|v| matches!(v, Var::Name(n) if name_of(n) == name))
                && a.variables()
                    .iter()
                    .all(|v| matches!(v, Var::Name(_)) || !mentions(v, name))
                && !mentions(a.expressions(), name)
        }
        ast::Stmt::If(i) => {
            let Some(otherwise) = i.else_block() else {
                return false;
            };
            let else_ifs: Vec<&ast::ElseIf> = i.else_if().into_iter().flatten().collect();
            !mentions(i.condition(), name)
                && else_ifs.iter().all(|e| !mentions(e.condition(), name))
                && sets_first(i.block(), name)
                && else_ifs.iter().all(|e| sets_first(e.block(), name))
                && sets_first(otherwise, name)
        }
        _ => false,
    }
}

impl Names {
    /// Fills [`Names::set_before_read`] with the locals of `block` declared without a value.
    fn settle_unset_locals(&mut self, block: &ast::Block) {
        let stmts: Vec<&ast::Stmt> = block.stmts().collect();
        for (i, stmt) in stmts.iter().enumerate() {
            let ast::Stmt::LocalAssignment(local) = stmt else {
                continue;
            };
            if !local.expressions().is_empty() {
                continue;
            }
            for name in local.names() {
                let n = name_of(name);
                let first = stmts[i + 1..].iter().find(|s| mentions(**s, &n));
                if let (Some(first), Some(at)) = (first, byte_start(name)) {
                    if sets(first, &n) {
                        self.set_before_read.insert((self.file, at));
                    }
                }
            }
        }
    }
}

impl Visitor for Names {
    fn visit_stmt(&mut self, node: &ast::Stmt) {
        if let ast::Stmt::FunctionCall(call) = node {
            if let Some(a) = byte_start(call) {
                self.statements.insert((self.file, a));
            }
        }
    }

    fn visit_block(&mut self, node: &ast::Block) {
        self.settle_unset_locals(node);
        let range = byte_start(node).map_or((0, 0), |a| {
            let end = self.block_ends.get(&(self.file, a)).copied();
            (a, end.unwrap_or(usize::MAX))
        });
        self.blocks.push(range);
    }

    fn visit_repeat(&mut self, node: &ast::Repeat) {
        // a `repeat` block's locals are seen by its `until` condition too
        if let (Some(a), Some((_, until))) = (byte_start(node.block()), byte_range(node.until())) {
            self.block_ends.insert((self.file, a), until);
        }
    }

    fn visit_do(&mut self, node: &ast::Do) {
        self.ends_at(node.block(), node.end_token());
    }

    fn visit_block_end(&mut self, _node: &ast::Block) {
        self.blocks.pop();
    }

    // A function kept in a table (`function M.touch(k)`, `function M:touch(k)`, `M.touch =
    // function(k)`, `{ touch = function(k) ... }`): a field named by its last name, which
    // its callers write (`M.touch(...)`). `function touch(k)` is assigned to the name.
    fn visit_function_declaration(&mut self, node: &ast::FunctionDeclaration) {
        let name = node.name();
        let names: Vec<&TokenReference> = name.names().iter().collect();
        if let Some(first) = names.first() {
            let at = byte_start(*first).unwrap_or(0);
            let bound = self.resolve_in(self.file, &name_of(first), at);
            let single = names.len() == 1 && name.method_name().is_none();
            if single {
                self.assigned.push((self.file, name_of(first), at));
            } else {
                self.declared_fields.push((self.file, name_of(first), at));
            }
            if let (Some(b), false, 0) = (bound, single, self.file) {
                let binding = &self.bindings[b];
                if (binding.alias.is_some() || binding.copy.is_some()) && !within(&self.dead, 0, at)
                {
                    let written = name.to_string().trim().to_owned();
                    self.alias_writes.push((b, written, position(0, node), at));
                }
            }
            if self.file == 0 && bound.is_none() {
                let written = match name.method_name() {
                    Some(m) => format!(
                        "{}:{}",
                        names
                            .iter()
                            .map(|n| name_of(n))
                            .collect::<Vec<_>>()
                            .join("."),
                        name_of(m)
                    ),
                    None => names
                        .iter()
                        .map(|n| name_of(n))
                        .collect::<Vec<_>>()
                        .join("."),
                };
                if !within(&self.dead, 0, at) {
                    self.globals.push((written, position(0, node), at, None));
                }
            }
        }
        // a method's body has the parameter `self`
        if let (Some(_), Some((a, b)), 0) = (name.method_name(), body_range(node.body()), self.file)
        {
            self.bind_name("self".to_owned(), a, a, b);
        }
        match (name.method_name(), &names[..]) {
            (None, [only]) => {
                if self.file != 0 {
                    self.included.insert(name_of(only));
                }
                self.assign_helper(only, node.body());
            }
            (method, names) => {
                if let Some(last) = method.or_else(|| names.last().copied()) {
                    let j = self.add_local(last, node.body(), Reach::Field);
                    // `function M.get` or `function M:get`: a field of the table `M`
                    let table = match (method, names) {
                        (None, [t, _]) | (Some(_), [t]) => Some(*t),
                        _ => None,
                    };
                    if let (Some(j), Some(t), Some(at)) = (j, table, table.and_then(byte_start)) {
                        self.locals[j].table = Some((name_of(t), at, method.is_some()));
                    }
                }
            }
        }
    }

    fn visit_assignment(&mut self, node: &ast::Assignment) {
        for var in node.variables() {
            match var {
                Var::Name(n) => {
                    if let Some(a) = byte_start(n) {
                        self.assigned.push((self.file, name_of(n), a));
                    }
                    self.global_write(n, &[], var);
                }
                Var::Expression(v) => {
                    if let Prefix::Name(first) = v.prefix() {
                        let suffixes: Vec<&Suffix> = v.suffixes().collect();
                        self.global_write(first, &suffixes, var);
                    }
                }
                _ => {}
            }
        }
        for (var, expr) in node.variables().iter().zip(node.expressions().iter()) {
            let Expression::Function(f) = expr else {
                continue;
            };
            match var {
                Var::Name(n) => self.assign_helper(n, f.body()),
                Var::Expression(v) => {
                    if let Some(Suffix::Index(Index::Dot { name, .. })) = v.suffixes().last() {
                        let j = self.add_local(name, f.body(), Reach::Field);
                        // `M.get = function`: a field of the table `M`
                        if let (Some(j), Prefix::Name(t), 1) = (j, v.prefix(), v.suffixes().count())
                        {
                            if let Some(at) = byte_start(t) {
                                self.locals[j].table = Some((name_of(t), at, false));
                            }
                        }
                    }
                }
                _ => {}
            }
        }
    }

    fn visit_table_constructor(&mut self, node: &ast::TableConstructor) {
        // a local's value (`local M = { get = function(k) ... end }`): the fields are `M`'s
        let owner = byte_start(node).and_then(|at| self.constructed.get(&at).cloned());
        for field in node.fields() {
            if let ast::Field::NameKey { key, value, .. } = field {
                if let Expression::Function(f) = &**value {
                    let j = self.add_local(key, f.body(), Reach::Field);
                    if let (Some(j), Some((table, at))) = (j, &owner) {
                        self.locals[j].table = Some((table.clone(), *at, false));
                    }
                }
            }
        }
    }

    fn visit_local_function(&mut self, node: &ast::LocalFunction) {
        if self.file != 0 {
            self.included.insert(name_of(node.name()));
        }
        // its own body sees it
        let from = byte_start(node.name()).unwrap_or(0);
        if let (Some(b), Some(j)) = (
            self.bind(node.name(), from, None),
            self.add_local(node.name(), node.body(), Reach::Bound),
        ) {
            self.bindings[b].functions.push(j);
        }
        self.forwards(node.name(), node.body());
        if API.contains(&name_of(node.name()).as_str()) {
            let start = byte_start(node).unwrap_or(0);
            self.shadow(start);
        }
    }

    fn visit_function_body_end(&mut self, _node: &ast::FunctionBody) {
        self.open_bodies.pop();
    }

    fn visit_function_body(&mut self, node: &ast::FunctionBody) {
        self.ends_at(node.block(), node.end_token());
        let range = body_range(node);
        self.open_bodies
            .push(range.unwrap_or((usize::MAX, usize::MAX)));
        if let Some((a, b)) = range {
            self.bodies.push((self.file, a, b));
            for p in node.parameters() {
                if let ast::Parameter::Name(n) = p {
                    if let Some(i) = self.bind(n, a, Some(b)) {
                        self.bindings[i].kind = BindingKind::Parameter;
                    }
                }
            }
        }
        let shadows = node
            .parameters()
            .iter()
            .any(|p| matches!(p, ast::Parameter::Name(n) if API.contains(&name_of(n).as_str())));
        if let (true, Some((a, b))) = (shadows, range) {
            self.shadowed.push((self.file, a, b));
        }
    }

    fn visit_generic_for(&mut self, node: &ast::GenericFor) {
        let block = self.ends_at(node.block(), node.end_token());
        self.may_skip(block, "in a loop's body");
        // an empty body: the names are bound still (visible nowhere), so that no outer
        // binding of the same name is taken for them
        if let Some((a, b)) = block.or_else(|| Self::nowhere(node.end_token())) {
            for n in node.names() {
                if let Some(i) = self.bind(n, a, Some(b)) {
                    self.bindings[i].kind = BindingKind::Loop;
                }
            }
        }
    }

    fn visit_numeric_for(&mut self, node: &ast::NumericFor) {
        let block = self.ends_at(node.block(), node.end_token());
        self.may_skip(block, "in a loop's body");
        if let Some((a, b)) = block.or_else(|| Self::nowhere(node.end_token())) {
            if let Some(i) = self.bind(node.index_variable(), a, Some(b)) {
                self.bindings[i].kind = BindingKind::Loop;
            }
        }
    }

    fn visit_if(&mut self, node: &ast::If) {
        // each block ends where the keyword after it starts
        let else_ifs: Vec<&ast::ElseIf> = node.else_if().into_iter().flatten().collect();
        let after = |i: usize| {
            else_ifs
                .get(i)
                .map(|e| e.else_if_token())
                .or(node.else_token())
                .unwrap_or(node.end_token())
        };
        let block = self.ends_at(node.block(), after(0));
        for (i, e) in else_ifs.iter().enumerate() {
            self.ends_at(e.block(), after(i + 1));
        }
        if let Some(b) = node.else_block() {
            self.ends_at(b, node.end_token());
        }
        let then = byte_start(node.then_token());
        let end = byte_range(node.end_token()).map(|(_, b)| b);
        // `if true then`: its block surely runs, the branches after it may not
        let from = if always(node.condition()) {
            block.map(|(_, b)| b).or(then)
        } else {
            then
        };
        self.may_skip(from.zip(end), "in a branch of an `if`");
        if let (Expression::Var(Var::Expression(v)), Some((a, b))) = (node.condition(), block) {
            if let Some(path) = callee_path(v.prefix(), v.suffixes()) {
                self.guarded.push((self.file, a, b, path));
            }
        }
        if let (true, Some((a, b))) = (never(node.condition()), block) {
            self.dead.push((self.file, a, b));
        }
    }

    fn visit_while(&mut self, node: &ast::While) {
        let block = self.ends_at(node.block(), node.end_token());
        self.may_skip(block, "in a loop's body");
        if let (true, Some((a, b))) = (never(node.condition()), block) {
            self.dead.push((self.file, a, b));
        }
    }

    fn visit_expression(&mut self, node: &Expression) {
        if let Expression::BinaryOperator { binop, rhs, .. } = node {
            match binop {
                BinOp::And(_) => self.may_skip(byte_range(&**rhs), "right of `and`"),
                BinOp::Or(_) => self.may_skip(byte_range(&**rhs), "right of `or`"),
                _ => {}
            }
        }
    }

    fn visit_return(&mut self, node: &ast::Return) {
        let mut returns = node.returns().iter();
        if let (0, Some(Expression::FunctionCall(call)), None) =
            (self.file, returns.next(), returns.next())
        {
            if let Some(a) = byte_start(call) {
                let body = self.open_bodies.last().map(|&(start, _)| start);
                self.returned.insert(a, body);
            }
        }
        let end = self.open_bodies.last().map_or(usize::MAX, |&(_, b)| b);
        let after = byte_range(node).map(|(_, b)| (b, end));
        self.may_skip(after, "after a `return` that may run first");
    }

    fn visit_var(&mut self, node: &Var) {
        if let Var::Name(n) = node {
            self.read(n);
        }
    }

    fn visit_prefix(&mut self, node: &Prefix) {
        if let Prefix::Name(n) = node {
            self.read(n);
        }
    }

    fn visit_local_assignment(&mut self, node: &ast::LocalAssignment) {
        if let ([_], [Expression::FunctionCall(call)]) = (
            &node.names().iter().collect::<Vec<_>>()[..],
            &node.expressions().iter().collect::<Vec<_>>()[..],
        ) {
            if let Some(a) = byte_start(call) {
                self.single_locals.insert((self.file, a));
            }
        }
        if self.file != 0 {
            self.included.extend(node.names().iter().map(name_of));
        }
        // `local redis = redis` (also `local server = redis`) is the API still, not a shadow
        let exprs: Vec<&Expression> = node.expressions().iter().collect();
        let is_api = |e: Option<&&Expression>| matches!(e, Some(Expression::Var(Var::Name(n))) if API.contains(&name_of(n).as_str()));
        if node
            .names()
            .iter()
            .enumerate()
            .any(|(i, n)| API.contains(&name_of(n).as_str()) && !is_api(exprs.get(i)))
        {
            let start = byte_start(node).unwrap_or(0);
            self.shadow(start);
        }
        // the names are seen after the statement, not in its values
        let after = byte_range(node).map_or(0, |(_, b)| b);
        let bound: Vec<Option<usize>> = node
            .names()
            .iter()
            .map(|token| self.bind(token, after, None))
            .collect();
        let given = node.expressions().len();
        self.unset
            .extend(bound.iter().skip(given).filter_map(|b| *b));
        for ((token, expr), b) in node
            .names()
            .iter()
            .zip(node.expressions().iter())
            .zip(bound)
        {
            let name = name_of(token);
            if let (Expression::TableConstructor(t), Some(b)) = (expr, b) {
                self.bindings[b].strings = literal_flags(t);
                let mut seen = std::collections::HashSet::new();
                self.bindings[b].named_fields = t.fields().iter().all(
                    |f| matches!(f, ast::Field::NameKey { key, .. } if seen.insert(name_of(key))),
                );
                if let (0, Some(at), Some(declared)) = (self.file, byte_start(t), byte_start(token))
                {
                    self.constructed.insert(at, (name.clone(), declared));
                }
                if Fields::in_table(t) {
                    let at = byte_start(t).unwrap_or(0);
                    self.bindings[b].fields = Some(Fields::of(t, at));
                }
                if self.file == 0 {
                    self.table_of_calls(b, t);
                }
            }
            // `local r = redis`: `r.x = 1` writes into `redis`, `r.call(...)` calls it;
            // `local s = r`: `s` holds what `r` holds (settled when every file is read)
            if let Expression::Var(Var::Name(g)) = expr {
                let global = name_of(g);
                let at = byte_start(g).unwrap_or(0);
                let free = self.resolve_in(self.file, &global, at).is_none()
                    && !(API.contains(&global.as_str()) && within(&self.shadowed, self.file, at));
                if let Some(b) = b {
                    if crate::globals::is_table(&global) && free {
                        self.bindings[b].alias = Some(global.clone());
                    } else if !free {
                        self.bindings[b].copy = Some((global.clone(), at));
                    }
                }
                if let Some(declared) = byte_start(token) {
                    self.copies
                        .push((self.file, declared, at, name.clone(), global));
                }
            }
            if let (Some(b), Some((table, at))) = (b, table_field(expr, "register_function")) {
                self.register_aliases.push((b, table, at));
            }
            if let (Some(b), Some((table, at))) = (b, table_field(expr, "log")) {
                self.log_aliases.push((b, table, at));
            }
            match expr {
                Expression::Function(f) => {
                    if let (Some(b), Some(j)) = (b, self.add_local(token, f.body(), Reach::Bound)) {
                        self.bindings[b].functions.push(j);
                    }
                    self.forwards(token, f.body());
                }
                Expression::Var(Var::Expression(v)) => {
                    if let (Some([table, field]), Prefix::Name(first)) =
                        (callee_path(v.prefix(), v.suffixes()).as_deref(), v.prefix())
                    {
                        if field == "call" || field == "pcall" {
                            let at = byte_start(first).unwrap_or(0);
                            self.pending_calls.push((
                                self.file,
                                name,
                                table.clone(),
                                at,
                                field.clone(),
                            ));
                        }
                    }
                }
                Expression::Var(Var::Name(n)) if name_of(n) == "KEYS" => self.keys.push(name),
                Expression::Var(Var::Name(n)) if name_of(n) == "ARGV" => self.argv.push(name),
                Expression::Var(Var::Name(n)) if name_of(n) == "unpack" => {
                    self.unpacks.push(name);
                }
                _ => {}
            }
        }
    }

    fn visit_function_call(&mut self, call: &ast::FunctionCall) {
        // `M:get(...)`: a method call of the name `M`
        if let (0, Prefix::Name(first), Some(Suffix::Call(Call::MethodCall(m)))) =
            (self.file, call.prefix(), call.suffixes().next())
        {
            if let Some(a) = byte_start(first) {
                self.method_calls.insert(a, name_of(m.name()));
            }
        }
        let Some((path, args)) = callee(call) else {
            return;
        };
        if let ([_], Prefix::Name(first)) = (&path[..], call.prefix()) {
            if let Some(a) = byte_start(first) {
                self.direct_calls.insert((self.file, a));
            }
        }
        if let (0, [_, field], Prefix::Name(first)) = (self.file, &path[..], call.prefix()) {
            if let Some(a) = byte_start(first) {
                self.field_calls.insert(a, field.clone());
            }
        }
        // `pcall(function() ... end)`, `xpcall(function() ... end, handler)`: the errors of
        // the calls in the function are caught.
        if path == ["pcall"] || path == ["xpcall"] {
            // the error dropped: the pcall a statement, or `local ok = pcall(...)`
            let dropped = byte_start(call).is_some_and(|a| {
                self.statements.contains(&(self.file, a))
                    || self.single_locals.contains(&(self.file, a))
            });
            if let FunctionArgs::Parentheses { arguments, .. } = args {
                match arguments.iter().next() {
                    Some(Expression::Function(f)) => {
                        if let Some((a, b)) = body_range(f.body()) {
                            self.caught.push((self.file, a, b));
                            if dropped {
                                self.caught_dropped.push((self.file, a, b));
                            }
                        }
                    }
                    // `pcall(f)`: f's body is caught where f runs only so (`catch_pcalled`)
                    Some(Expression::Var(Var::Name(n))) => {
                        if let Some(a) = byte_start(n) {
                            self.pcalled.push((name_of(n), self.file, a, dropped));
                        }
                    }
                    _ => {}
                }
            }
            return;
        }
        let Prefix::Name(first) = call.prefix() else {
            return;
        };
        let (table, table_byte) = match &path[..] {
            [table, f] if f == "register_function" => {
                (table.clone(), byte_start(first).unwrap_or(0))
            }
            // `f(...)` of a local declared with `redis.register_function`
            [name] => {
                let at = byte_start(first).unwrap_or(0);
                let log = self
                    .resolve(name, at)
                    .and_then(|b| self.log_aliases.iter().find(|(alias, _, _)| *alias == b));
                if let (Some((_, table, byte)), 0, true) = (log, self.file, self.blocks.len() <= 1)
                {
                    let call_at = position(0, call);
                    self.load_log_calls
                        .push((table.clone(), *byte, at, call_at));
                }
                let Some((_, table, byte)) = self.resolve(name, at).and_then(|b| {
                    self.register_aliases
                        .iter()
                        .find(|(alias, _, _)| *alias == b)
                }) else {
                    return;
                };
                (table.clone(), *byte)
            }
            _ => return,
        };
        let at = position(0, call);
        let call_byte = byte_start(call).unwrap_or(0);
        let fields = match args {
            // `register_function{...}` and `register_function({...})` are one call to the
            // server
            FunctionArgs::TableConstructor(table) => Fields::of(table, call_byte),
            FunctionArgs::Parentheses { arguments, .. } => {
                let mut it = arguments.iter().map(unparenthesized);
                // a last argument that is a call or `...` may give any number of values
                let many = arguments.iter().last().is_some_and(|e| {
                    matches!(unparenthesized(e), Expression::FunctionCall(_))
                        || matches!(e, Expression::Symbol(s) if s.token().to_string() == "...")
                });
                let count = arguments.len();
                let mut fields = match (it.next(), it.next()) {
                    (Some(Expression::TableConstructor(table)), None) => {
                        Fields::of(table, call_byte)
                    }
                    // `register_function(opts)`: the table of a local declared with it
                    (Some(Expression::Var(Var::Name(n))), None) => {
                        let at = byte_start(n).unwrap_or(call_byte);
                        self.resolve(&name_of(n), at)
                            .and_then(|b| self.bindings[b].fields.clone())
                            .map(|mut fields| {
                                // a local's table may get its name or callback after it is
                                // declared (`opts.callback = f`)
                                fields.refused.retain(|(w, _)| !w.contains("must get"));
                                fields
                            })
                            .unwrap_or_else(|| Fields {
                                name_unread: Some(short(&n.to_string())),
                                ..Fields::default()
                            })
                    }
                    (first, callback) => {
                        let mut fields = Fields::default();
                        match first {
                            Some(Expression::String(s)) => fields.name = Some(string_value(s)),
                            Some(other) => fields.name_unread = Some(short(&other.to_string())),
                            None => {}
                        }
                        fields.callback = Callback::of(callback, call_byte);
                        let unset = match &fields.callback {
                            Callback::Named(n, at) => self.nil_at(n, *at),
                            _ => callback.is_some_and(|c| self.nil_field_at(c)),
                        };
                        if count == 2 && !many && (literal(callback).is_some() || unset) {
                            fields.refused.push((
                                "second argument to redis.register_function must be a function"
                                    .to_owned(),
                                "give the function itself (`function(keys, args) ... end`, or a \
                                 local function declared before the call)",
                            ));
                        }
                        fields
                    }
                };
                if !many {
                    let single = count == 1
                        && matches!(literal(arguments.iter().next()), Some(k) if k != "table");
                    if count == 0 || count > 2 {
                        fields.refused.push((
                            "wrong number of arguments to redis.register_function".to_owned(),
                            "give two arguments, the name and the function, or one table \
                             (`{function_name = ..., callback = ..., flags = {...}}`), where \
                             the flags go",
                        ));
                    } else if single {
                        fields.refused.push((
                            "calling redis.register_function with a single argument is only \
                             applicable to Lua table (representing named arguments)"
                                .to_owned(),
                            "give the name and the function, or one table \
                             (`{function_name = ..., callback = ...}`)",
                        ));
                    }
                }
                fields
            }
            _ => Fields::default(),
        };
        let (range, keys, argv) = match fields.callback {
            Callback::Body { range, keys, argv } => (range, keys, argv),
            // the callback given by name (`redis.register_function('f', my_f)`): the local
            // function of that name, its body and parameters
            Callback::Named(n, at) => match self.local_named(&n, at) {
                Some(local) => {
                    let mut params = local.parameters.iter();
                    (local.body, params.next().cloned(), params.next().cloned())
                }
                None => ((0, 0), None, None),
            },
            Callback::None => ((0, 0), None, None),
        };
        self.pending_functions.push(Registration {
            file: self.file,
            table,
            byte: table_byte,
            function: Function {
                name: fields.name.unwrap_or_default(),
                name_unread: fields.name_unread,
                flags: fields.flags,
                flags_unread: fields.flags_unread,
                unknown_fields: fields.unknown_fields,
                refused: fields.refused,
                at,
                body: range,
            },
            keys,
            argv,
            flags_name: fields.flags_by_name,
        });
    }
}

/// What a `register_function` call's table gives, as read in pass one (also the table of a
/// local that a call is given: `register_function(opts)`).
#[derive(Clone, Default)]
pub(super) struct Fields {
    name: Option<String>,
    /// The name as written when it is no string literal.
    name_unread: Option<String>,
    flags: Vec<String>,
    /// The flags given by a name (settled by [`Names::settle_flags`]), with its byte.
    flags_by_name: Option<(String, usize)>,
    /// The flags as written when they are neither a literal table nor a name.
    flags_unread: Option<String>,
    callback: Callback,
    /// The fields FUNCTION LOAD does not take, as written.
    unknown_fields: Vec<String>,
    /// Why FUNCTION LOAD refuses the call, with the fix ([`Function::refused`]).
    refused: Vec<(String, &'static str)>,
}

/// The table of `expr` when it is a table's `field` (`redis.register_function`), or an
/// `or` whose right is one (`server and server.register_function or
/// redis.register_function`: the right's table, which a server without the left has), with
/// the table's byte.
fn table_field(expr: &Expression, wanted: &str) -> Option<(String, usize)> {
    match unparenthesized(expr) {
        Expression::Var(Var::Expression(v)) => {
            let Prefix::Name(first) = v.prefix() else {
                return None;
            };
            match callee_path(v.prefix(), v.suffixes()).as_deref() {
                Some([table, field]) if field == wanted => {
                    Some((table.clone(), byte_start(first).unwrap_or(0)))
                }
                _ => None,
            }
        }
        Expression::BinaryOperator {
            binop: ast::BinOp::Or(_),
            rhs,
            ..
        } => table_field(rhs, wanted),
        _ => None,
    }
}

/// The type of `value` when it is a literal that is no function (a string, a number,
/// `nil`, a boolean, a table constructor), as Lua names it; `None` for anything else
/// (a name, a call, a function), whose value the lint does not judge here.
fn literal(value: Option<&Expression>) -> Option<&'static str> {
    match value.map(unparenthesized)? {
        Expression::String(_) => Some("string"),
        Expression::Number(_) => Some("number"),
        Expression::TableConstructor(_) => Some("table"),
        Expression::Symbol(s) => match s.token().to_string().as_str() {
            "nil" => Some("nil"),
            "true" | "false" => Some("boolean"),
            _ => None,
        },
        _ => None,
    }
}

/// A registered function's callback, as written.
#[derive(Clone, Default)]
enum Callback {
    #[default]
    None,
    /// A function written in place: its body's byte range, and the parameters that stand
    /// for KEYS and ARGV.
    Body {
        range: (usize, usize),
        keys: Option<String>,
        argv: Option<String>,
    },
    /// A name, with its byte: a local function's.
    Named(String, usize),
}

impl Callback {
    /// The callback `value` (of the call at `call_byte`).
    fn of(value: Option<&Expression>, call_byte: usize) -> Self {
        match value {
            Some(Expression::Function(f)) => {
                let body = f.body();
                let mut params = body.parameters().iter();
                let mut param = || match params.next() {
                    Some(ast::Parameter::Name(p)) => Some(name_of(p)),
                    _ => None,
                };
                let (keys, argv) = (param(), param());
                Callback::Body {
                    range: body_range(body).unwrap_or((0, 0)),
                    keys,
                    argv,
                }
            }
            Some(Expression::Var(Var::Name(n))) => {
                Callback::Named(name_of(n), byte_start(n).unwrap_or(call_byte))
            }
            _ => Callback::None,
        }
    }
}

impl Fields {
    /// The fields of `table`, a `register_function` call's (at `call_byte`).
    fn of(table: &ast::TableConstructor, call_byte: usize) -> Self {
        let mut out = Fields::default();
        let (mut named, mut callback) = (false, false);
        for field in table.fields() {
            let ast::Field::NameKey { key, value, .. } = field else {
                // `'extra'`, `[k] = v`: the servers read each key of the table as a string
                if !out
                    .refused
                    .iter()
                    .any(|(w, _)| w.starts_with("unknown argument"))
                {
                    out.refused.push((
                        "unknown argument given to redis.register_function".to_owned(),
                        "give the table only `name = value` fields: `function_name`, \
                         `callback`, `flags` and `description`",
                    ));
                }
                continue;
            };
            let is_nil = literal(Some(value)) == Some("nil");
            match name_of(key).as_str() {
                "function_name" => named |= !is_nil,
                "callback" => callback |= !is_nil,
                _ => {}
            }
            match (name_of(key).as_str(), literal(Some(value))) {
                ("callback", Some(kind)) if kind != "nil" => out.refused.push((
                    "callback argument given to redis.register_function must be a function"
                        .to_owned(),
                    "give `callback` the function itself (`callback = function(keys, args) \
                     ... end`)",
                )),
                ("flags", Some(kind)) if kind != "table" && kind != "nil" => out.refused.push((
                    "flags argument to redis.register_function must be a table representing \
                     function flags"
                        .to_owned(),
                    "give the flags as a table of strings: `flags = {'no-writes'}`",
                )),
                _ => {}
            }
            match (name_of(key).as_str(), unparenthesized(value)) {
                ("function_name", Expression::String(s)) => out.name = Some(string_value(s)),
                ("function_name", other) => out.name_unread = Some(short(&other.to_string())),
                ("callback", callback) => out.callback = Callback::of(Some(callback), call_byte),
                ("flags", Expression::TableConstructor(t)) => match literal_flags(t) {
                    Some(list) => out.flags = list,
                    None => {
                        // a number, a boolean or a table among the flags: no flag's name
                        let odd = t.fields().iter().any(|f| {
                            matches!(f, ast::Field::NoKey(e)
                                if matches!(literal(Some(e)), Some("number" | "boolean" | "table")))
                        });
                        if odd {
                            out.refused.push((
                                "unknown flag given".to_owned(),
                                "give the flags as strings: `flags = {'no-writes'}`",
                            ));
                        } else {
                            out.flags_unread = Some(short(&value.to_string()));
                        }
                    }
                },
                ("flags", Expression::Var(Var::Name(n))) => {
                    out.flags_by_name = Some((name_of(n), byte_start(n).unwrap_or(call_byte)));
                }
                // a literal of another type is refused above: there are no flags to read
                ("flags", other) if literal(Some(other)).is_none() => {
                    out.flags_unread = Some(short(&other.to_string()));
                }
                ("flags", _) => {}
                ("description", _) => {}
                (other, _) => out.unknown_fields.push(other.to_owned()),
            }
        }
        if !callback {
            out.refused.push((
                "redis.register_function must get a callback argument".to_owned(),
                "give the table `callback = function(keys, args) ... end`",
            ));
        }
        if !named {
            out.refused.push((
                "redis.register_function must get a function name argument".to_owned(),
                "give the table `function_name = 'name'`",
            ));
        }
        out
    }

    /// Whether `table` is one for `register_function`: it names a function or a callback.
    fn in_table(table: &ast::TableConstructor) -> bool {
        table.fields().iter().any(|field| {
            matches!(field, ast::Field::NameKey { key, .. }
                if matches!(name_of(key).as_str(), "function_name" | "callback"))
        })
    }
}

/// The uses of a local table whose fields may be helpers ([`Names::settle_passed`]).
#[derive(Default)]
struct TableUses {
    /// How many times each field is defined.
    defined: HashMap<String, usize>,
    /// The bytes of the table's name in those definitions.
    definitions: HashSet<usize>,
    /// Each field's direct calls: the byte of the table's name, and whether a method call.
    calls: HashMap<String, Vec<(usize, bool)>>,
    /// Whether the table is used other than to define or call a field.
    other: bool,
}
