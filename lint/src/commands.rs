//! Which arguments of a command are keys: the servers' own key specifications (`COMMAND
//! INFO`, Redis 7 and Valkey), generated once into [`table`](crate::commands) and checked
//! against live servers by a test (`tests/tests/it/lint_commands.rs`).
//!
//! A key specification has two steps, as the Redis docs on key specs define them: a *begin
//! search* finds the first key (at a fixed index, or after a keyword), then *find keys*
//! takes the keys from there (a range to a last key, or a count read from an argument).

use crate::globals::Server;

/// Where the first key of a key specification is (`begin_search`). Indices count the
/// command name as argument 0, as the servers do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BeginSearch {
    /// The first key is argument `index`.
    Index(u32),
    /// The first key follows the first argument equal (ASCII case-insensitive) to `keyword`,
    /// searched from argument `start_from` (a negative index counts from the end, -1 the
    /// last argument, and searches backwards).
    Keyword {
        /// The keyword, upper case.
        keyword: &'static str,
        /// The index the search starts from.
        start_from: i32,
    },
    /// The server finds the keys by code of its own (no static rule).
    Unknown,
}

/// How the keys run from the first one (`find_keys`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FindKeys {
    /// Keys up to `last_key` (relative to the first key: 0 that key alone, -1 the last
    /// argument, -2 the one before it), every `key_step` arguments; `limit` > 1 with
    /// `last_key` -1 stops at 1/limit of the remaining arguments.
    Range {
        /// The last key, relative to the first; negative counts from the end.
        last_key: i32,
        /// Arguments between keys.
        key_step: u32,
        /// The fraction of the remaining arguments with `last_key` -1, 0 for all.
        limit: u32,
    },
    /// The number of keys is argument `key_num_index` (relative to the begin search), the
    /// first key is at `first_key` (relative), then every `key_step` arguments.
    KeyNum {
        /// Where the count is, relative to the begin search.
        key_num_index: u32,
        /// Where the first key is, relative to the begin search.
        first_key: u32,
        /// Arguments between keys.
        key_step: u32,
    },
    /// The server finds the keys by code of its own.
    Unknown,
}

/// One key specification of a command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeySpec {
    /// Where the first key is.
    pub begin: BeginSearch,
    /// How the keys follow.
    pub find: FindKeys,
}

/// A command's name in the table (lower case; a subcommand is `container|sub`): `len`
/// bytes from byte `at` of [`NAMES`], where the table's generator writes each name once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Name {
    /// The byte of [`NAMES`] where the name starts.
    pub at: u16,
    /// Its length in bytes.
    pub len: u8,
}

impl Name {
    /// The name.
    #[must_use]
    pub fn text(self) -> &'static str {
        let at = usize::from(self.at);
        &NAMES[at..at + usize::from(self.len)]
    }

    /// Whether the name is `name`: its length, then its bytes compared, no text made, for
    /// the lookups that scan the table (inlined: most entries end at the length).
    #[inline(always)]
    #[must_use]
    pub fn is(self, name: &str) -> bool {
        usize::from(self.len) == name.len() && self.bytes() == name.as_bytes()
    }

    /// The name's bytes.
    #[inline]
    fn bytes(self) -> &'static [u8] {
        let at = usize::from(self.at);
        NAMES
            .as_bytes()
            .get(at..at + usize::from(self.len))
            .unwrap_or_default()
    }
}

/// A command (or a subcommand, spelled `object|encoding`) and its key specifications.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Command {
    /// The name, lower case; a subcommand is `container|sub`.
    pub name: Name,
    /// The arity as the server gives it: N exactly N arguments, -N at least N (the name
    /// counts).
    pub arity: i32,
    /// Which servers answered with this entry: a mask of [`REDIS`], [`VALKEY8`], [`VALKEY9`].
    pub servers: u8,
    /// Whether the servers flag it `write`: a read-only script (`no-writes`, `EVAL_RO`,
    /// `FCALL_RO`) is refused it ("Write commands are not allowed from read-only scripts").
    pub write: bool,
    /// Whether the servers flag it `may-replicate` though not `write` (`PUBLISH`,
    /// `SPUBLISH`, `PFCOUNT`, ...): a read-only script is refused it as a write, with the
    /// same words. `COMMAND` hides this flag, so the table's generator measures it: the
    /// command in an `EVAL_RO` on each server, refused or not. Not measured (false) for a
    /// command flagged `write`.
    pub may_replicate: bool,
    /// Whether the servers flag it `noscript`: a script is refused it ("This Redis command
    /// is not allowed from script"). Redis 7.0 flags the blocking commands so, Valkey 8
    /// does not (they run without blocking there).
    pub noscript: bool,
    /// The key specifications, in the server's order ([`Command::key_specs`]): an index in
    /// [`KEY_SPECS`], where the table's generator writes each list once.
    pub keys: u8,
}

impl Command {
    /// Its key specifications, in the server's order.
    #[must_use]
    pub fn key_specs(&self) -> &'static [KeySpec] {
        KEY_SPECS[usize::from(self.keys)]
    }

    /// Whether `count` arguments (the name counted, a subcommand's container too) are what
    /// the command's arity takes: exactly N for N, at least N for -N.
    #[must_use]
    pub fn takes(&self, count: usize) -> bool {
        let n = self.arity.unsigned_abs() as usize;
        if self.arity >= 0 {
            count == n
        } else {
            count >= n
        }
    }

    /// Whether a read-only script (`no-writes`, `EVAL_RO`, `FCALL_RO`) is refused it
    /// ("Write commands are not allowed from read-only scripts"): a command flagged `write`
    /// or `may-replicate`, as the servers' `scriptVerifyWriteCommandAllow` checks.
    #[must_use]
    pub fn refused_read_only(&self) -> bool {
        self.write || self.may_replicate
    }

    /// The arity in words: `exactly 3` or `at least 3` arguments, the name counted.
    #[must_use]
    pub fn arity_words(&self) -> String {
        let n = self.arity.unsigned_abs();
        if self.arity >= 0 {
            format!("exactly {n}")
        } else {
            format!("at least {n}")
        }
    }
}

/// [`Command::servers`]: redis-server 7.0 answered with this entry.
pub const REDIS: u8 = bit(Server::Redis7_0);
/// [`Command::servers`]: valkey-server 8.0 answered with this entry.
pub const VALKEY8: u8 = bit(Server::Valkey8_0);
/// [`Command::servers`]: Valkey 9.1 answered with this entry.
pub const VALKEY9: u8 = bit(Server::Valkey9_1);

/// The bit of [`Command::servers`] that stands for `server`.
#[must_use]
pub const fn bit(server: Server) -> u8 {
    1 << server as u8
}

include!("commands_table.rs");

/// The command named `name` (any case; a subcommand as `object|encoding`) as the servers
/// in `servers` (a mask of [`REDIS`], [`VALKEY8`] and [`VALKEY9`]) know it, or any server's
/// entry when none of them has it.
#[must_use]
pub fn find(name: &str, servers: u8) -> Option<&'static Command> {
    let lower = name.to_ascii_lowercase();
    let found = |mask: u8| {
        COMMANDS
            .iter()
            .find(|c| c.name.is(&lower) && c.servers & mask != 0)
    };
    found(servers).or_else(|| found(u8::MAX))
}

/// The command nearest `name`, one no server measured has (`SETT`), for a "did you mean":
/// [`slotgen::text::nearest`] over the table's commands (not their subcommands), in lower
/// case as the table has them; `None` when none is near.
///
/// # Examples
///
/// ```
/// use slotgen_lint::commands::nearest;
///
/// assert_eq!(nearest("SETT"), Some("set"));
/// assert_eq!(nearest("hgetal"), Some("hgetall"));
/// assert_eq!(nearest("frobnicate"), None);
/// ```
#[must_use]
pub fn nearest(name: &str) -> Option<&'static str> {
    let mut names: Vec<&'static str> = COMMANDS
        .iter()
        .map(|c| c.name.text())
        .filter(|n| !n.contains('|'))
        .collect();
    names.dedup();
    slotgen::text::nearest(name, names.into_iter().map(|n| (n, n)))
        .first()
        .copied()
}

/// Whether the command named `name` is in the table, but not among `server`'s commands:
/// the server answers "Unknown command called from script" (`DELIFEQ`, Valkey 9's, on
/// Valkey 8 and Redis 7.0). A command no server measured has is not known to be missing
/// (a module's may be there).
#[must_use]
pub fn missing_on(name: &str, server: Server) -> bool {
    let lower = name.to_ascii_lowercase();
    let entries = || COMMANDS.iter().filter(|c| c.name.is(&lower));
    entries().next().is_some() && entries().all(|c| c.servers & bit(server) == 0)
}

/// The options of `SET` after its key and value, each with whether a value follows it and
/// the servers that take it (a mask of [`REDIS`], [`VALKEY8`], [`VALKEY9`]): the tokens of
/// `COMMAND DOCS SET` on each server (compared by the tests). Valkey 9.1 adds `IFEQ`; a
/// server refuses an option it lacks ("syntax error").
pub const SET_OPTIONS: [(&str, bool, u8); 9] = [
    ("NX", false, REDIS | VALKEY8 | VALKEY9),
    ("XX", false, REDIS | VALKEY8 | VALKEY9),
    ("IFEQ", true, VALKEY9),
    ("GET", false, REDIS | VALKEY8 | VALKEY9),
    ("EX", true, REDIS | VALKEY8 | VALKEY9),
    ("PX", true, REDIS | VALKEY8 | VALKEY9),
    ("EXAT", true, REDIS | VALKEY8 | VALKEY9),
    ("PXAT", true, REDIS | VALKEY8 | VALKEY9),
    ("KEEPTTL", false, REDIS | VALKEY8 | VALKEY9),
];

/// The options of the call `args` (the name first, lower case in `name`) that some server
/// measured lacks, with the index of each: `SET key value IFEQ x` gives `IFEQ` at 3. Read
/// up to the first argument that is no literal or no option of any server.
#[must_use]
pub fn options_of(name: &str, args: &[Arg<'_>]) -> Vec<(usize, &'static str, u8)> {
    let mut out = Vec::new();
    if name != "set" {
        return out;
    }
    let mut i = 3;
    while let Some(Arg::Known(word)) = args.get(i) {
        let Some(&(token, value, servers)) = SET_OPTIONS
            .iter()
            .find(|(t, _, _)| word.eq_ignore_ascii_case(t.as_bytes()))
        else {
            break;
        };
        if servers != REDIS | VALKEY8 | VALKEY9 {
            out.push((i, token, servers));
        }
        i += if value { 2 } else { 1 };
    }
    out
}

/// Why the servers refuse a `SET` whose options they all know, as measured on Redis 7.0,
/// Valkey 8.0 and 9.1 ("syntax error"): the argument where
/// it shows, the reason, the fix, and the servers that refuse (a mask of [`REDIS`],
/// [`VALKEY8`], [`VALKEY9`]). An option a server lacks is [`options_of`]'s; here `IFEQ`'s
/// rules count for Valkey 9.1 alone, which takes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetRefusal {
    /// The index of the argument in the call (the name first).
    pub at: usize,
    /// What is wrong, in words.
    pub reason: String,
    /// What to write instead.
    pub fix: String,
    /// The servers that refuse it.
    pub servers: u8,
}

/// The first [`SetRefusal`] of the call `args` (the name first, lower case in `name`), read
/// up to the first argument that is no literal: `NX` with `XX` (or `IFEQ`), two different
/// expirations, `KEEPTTL` with one, an option without its value, a word that is no option.
/// (An expire time that is no integer above 0 is [`crate::numbers::value_refusal`]'s, as for
/// every command.) The same option twice is taken (`NX NX`, `EX
/// 10 EX 20`: the last wins), but `IFEQ` twice.
///
/// ```
/// use slotgen_lint::commands::{set_refusal, Arg, REDIS, VALKEY8, VALKEY9};
///
/// let call = |words: &[&'static str]| -> Vec<Arg<'static>> {
///     words.iter().map(|w| Arg::Known(w.as_bytes())).collect()
/// };
/// let r = set_refusal("set", &call(&["SET", "k", "v", "NX", "XX"])).unwrap();
/// assert_eq!((r.at, r.servers), (4, REDIS | VALKEY8 | VALKEY9));
/// assert_eq!(set_refusal("set", &call(&["SET", "k", "v", "NX", "NX"])), None);
/// let r = set_refusal("set", &call(&["SET", "k", "v", "IFEQ", "x", "NX"])).unwrap();
/// assert_eq!(r.servers, VALKEY9);
/// assert_eq!(set_refusal("set", &call(&["SET", "k", "v", "EX", "0"])), None);
/// // an argument the lint cannot read ends the reading
/// let mut args = call(&["SET", "k", "v", "EX"]);
/// args.push(Arg::Unknown);
/// assert_eq!(set_refusal("set", &args), None);
/// ```
#[must_use]
pub fn set_refusal(name: &str, args: &[Arg<'_>]) -> Option<SetRefusal> {
    const ALL: u8 = REDIS | VALKEY8 | VALKEY9;
    if name != "set" {
        return None;
    }
    let refusal = |at: usize, reason: String, fix: &str, servers: u8| {
        Some(SetRefusal {
            at,
            reason,
            fix: fix.to_owned(),
            servers,
        })
    };
    // the condition (NX, XX, IFEQ) and the expiration (EX, PX, EXAT, PXAT, KEEPTTL) given
    let (mut condition, mut expiry): (Option<&str>, Option<&str>) = (None, None);
    let mut i = 3;
    while let Some(arg) = args.get(i) {
        let Arg::Known(word) = arg else {
            return None;
        };
        let Some(&(token, valued, _)) = SET_OPTIONS
            .iter()
            .find(|(t, _, _)| word.eq_ignore_ascii_case(t.as_bytes()))
        else {
            return refusal(
                i,
                format!(
                    "`{}` is no option of `SET` (\"syntax error\")",
                    slotgen::text::escape_cut(word)
                ),
                "write the options `SET` takes: NX or XX, GET, EX, PX, EXAT, PXAT or KEEPTTL",
                ALL,
            );
        };
        // IFEQ's rules on the one server that takes it (the others refuse IFEQ itself)
        let servers = if token == "IFEQ" || condition == Some("IFEQ") {
            VALKEY9
        } else {
            ALL
        };
        match token {
            "NX" | "XX" | "IFEQ" => match condition {
                Some(other) if other != token || token == "IFEQ" => {
                    return refusal(
                        i,
                        if other == token {
                            format!("`{token}` given twice (\"syntax error\")")
                        } else {
                            format!("`{other}` and `{token}` exclude each other (\"syntax error\")")
                        },
                        "keep one condition of NX, XX and IFEQ",
                        servers,
                    )
                }
                _ => condition = Some(token),
            },
            "GET" => {}
            _ => match expiry {
                Some(other) if other != token || token == "KEEPTTL" && other != "KEEPTTL" => {
                    return refusal(
                        i,
                        format!("`{other}` and `{token}` exclude each other (\"syntax error\")"),
                        "keep one of EX, PX, EXAT, PXAT and KEEPTTL",
                        ALL,
                    )
                }
                _ => expiry = Some(token),
            },
        }
        if valued {
            if args.get(i + 1).is_none() {
                return refusal(
                    i,
                    format!("`{token}` without its value (\"syntax error\")"),
                    "give the value after the option",
                    servers,
                );
            }
            i += 2;
        } else {
            i += 1;
        }
    }
    None
}

/// Whether the command has subcommands in the table (`object` has `object|encoding`).
#[must_use]
pub fn has_subcommands(name: &str) -> bool {
    let prefix = format!("{}|", name.to_ascii_lowercase());
    COMMANDS
        .iter()
        .any(|c| c.name.bytes().starts_with(prefix.as_bytes()))
}

/// One argument of a call as the lint sees it: its text when it is a literal, or unknown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Arg<'a> {
    /// A literal (a Lua string or number, a word of a command file).
    Known(&'a [u8]),
    /// A value the lint cannot read (an expression).
    Unknown,
}

/// A command on a database other than 0, which a cluster refuses: Redis 7.0 and Valkey
/// 8.0 have one database in cluster mode ("SELECT is not allowed in cluster mode"), Valkey
/// 9.1 as many as its `cluster-databases` (default 1: "DB index is out of range").
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OtherDatabase {
    /// `SWAPDB`: refused in cluster mode by every server measured, Valkey 9.1 with
    /// `cluster-databases 16` too.
    Swap,
    /// `SELECT n` (n not 0), `MOVE key n` (any n), `COPY ... DB n` (n not 0): the database
    /// as the server reads it, `None` when the lint cannot read it. Redis 7.0 and Valkey 8.0
    /// refuse `MOVE` whatever `n`.
    Numbered(Option<i64>),
    /// A database argument the server reads as no integer (`00`, `+1`, ` 1`, `1.5`, past
    /// 32 bits; [`database_number`]), as written: every server refuses it.
    NotInteger(String),
}

/// The integer `text` stands for as the servers read it (`string2ll`): decimal digits with
/// an optional `-`, no leading zero but `0` itself, within 64 bits. Measured on the three
/// servers with `INCRBY`: ` 1`, `1 `, `+1`, `01`, `-0`, `1e3`, `0x10`, `1.0`, `inf`, the
/// empty string and `9223372036854775808` are refused ("value is not an integer or out of
/// range"), `-9223372036854775808` is taken.
///
/// # Examples
///
/// ```
/// use slotgen_lint::commands::integer_value;
///
/// assert_eq!(integer_value(b"-5"), Some(-5));
/// assert_eq!(integer_value(b"+1"), None);
/// assert_eq!(integer_value(b"1.5"), None);
/// ```
#[must_use]
pub fn integer_value(text: &[u8]) -> Option<i64> {
    let digits = text.strip_prefix(b"-").unwrap_or(text);
    let plain = !digits.is_empty()
        && digits.iter().all(u8::is_ascii_digit)
        && (digits[0] != b'0' || text == b"0");
    plain
        .then(|| std::str::from_utf8(text).ok()?.parse::<i64>().ok())
        .flatten()
}

/// The database number `text` stands for as the servers read it ([`integer_value`], then a
/// C `int`). Measured on the three servers: `SELECT 0` runs, `SELECT 00`, `-0`, `+0`, ` 0`,
/// `0x0` and `0.0` are refused ("value is not an integer or out of range"), `2147483648`
/// too ("value is out of range").
///
/// # Examples
///
/// ```
/// use slotgen_lint::commands::database_number;
///
/// assert_eq!(database_number(b"0"), Some(0));
/// assert_eq!(database_number(b"-1"), Some(-1));
/// assert_eq!(database_number(b"00"), None);
/// assert_eq!(database_number(b"2147483648"), None);
/// ```
#[must_use]
pub fn database_number(text: &[u8]) -> Option<i64> {
    integer_value(text)
        .and_then(|n| i32::try_from(n).ok())
        .map(i64::from)
}

/// Whether the command line `args` (the name first, lower case in `name`) works on a
/// database other than 0, or names a database the server reads as no integer (measured in
/// scripts and command lines on the three servers).
#[must_use]
pub fn other_database(name: &str, args: &[Arg<'_>]) -> Option<OtherDatabase> {
    let read = |arg: Option<&Arg<'_>>| match arg {
        Some(Arg::Known(text)) => match database_number(text) {
            Some(n) => Some(OtherDatabase::Numbered(Some(n))),
            None => Some(OtherDatabase::NotInteger(
                String::from_utf8_lossy(text).into_owned(),
            )),
        },
        _ => Some(OtherDatabase::Numbered(None)),
    };
    // database 0 is no other database, but MOVE's: Redis 7.0 and Valkey 8.0 refuse MOVE
    let numbered = |arg| read(arg).filter(|db| *db != OtherDatabase::Numbered(Some(0)));
    match name {
        "swapdb" => Some(OtherDatabase::Swap),
        "select" => numbered(args.get(1)),
        "move" => read(args.get(2)),
        "copy" => {
            let at = args.iter().skip(3).position(|a| is_word(a, "DB"))?;
            numbered(args.get(3 + at + 1))
        }
        _ => None,
    }
}

/// Where the keys of a call are.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct KeyPositions {
    /// The argument indices (the command name is 0) that are keys, ascending.
    pub positions: Vec<usize>,
    /// Why more keys may exist that the lint cannot place (the arguments run on past what
    /// it can see, a keyword or count that is not a literal, a key spec of the server's
    /// own code); `None` when `positions` is all of them.
    pub uncertain: Option<&'static str>,
}

/// The key positions of a call of `command` with `args` (index 0 the command name) and,
/// when `open_end`, more arguments after them that the lint cannot count (`unpack(t)`, a
/// function call last). Follows the servers' key specs; positions past the end are dropped.
#[must_use]
pub fn key_positions(command: &Command, args: &[Arg<'_>], open_end: bool) -> KeyPositions {
    if matches!(command.name.text(), "sort" | "sort_ro") {
        return sort_keys(command.name.text(), args, open_end);
    }
    let mut out = KeyPositions::default();
    let len = args.len() as i64;
    let mut uncertain = |why| {
        out.uncertain.get_or_insert(why);
    };
    let mut found = Vec::new();
    for spec in command.key_specs() {
        let begin: i64 = match spec.begin {
            BeginSearch::Index(i) => i64::from(i),
            BeginSearch::Keyword {
                keyword,
                start_from,
            } => {
                let hit = if start_from >= 0 {
                    (i64::from(start_from)..len).find(|&i| is_word(&args[i as usize], keyword))
                } else if open_end {
                    uncertain("the arguments run past what the lint can see");
                    None
                } else {
                    let from = len + i64::from(start_from);
                    (1..=from.max(0))
                        .rev()
                        .find(|&i| i < len && is_word(&args[i as usize], keyword))
                };
                if args.contains(&Arg::Unknown) {
                    uncertain("a keyword could hide in an argument that is not a literal");
                }
                match hit {
                    Some(i) => i + 1,
                    None => {
                        if open_end {
                            uncertain("the arguments run past what the lint can see");
                        }
                        continue;
                    }
                }
            }
            BeginSearch::Unknown => {
                uncertain("the server finds this command's keys by code of its own");
                continue;
            }
        };
        match spec.find {
            FindKeys::Range {
                last_key,
                key_step,
                limit,
            } => {
                let step = i64::from(key_step.max(1));
                let last = if last_key >= 0 {
                    begin + i64::from(last_key)
                } else {
                    if open_end {
                        uncertain("the arguments run past what the lint can see");
                    }
                    let last = len + i64::from(last_key);
                    if limit > 1 {
                        begin + (last - begin + 1) / i64::from(limit) - 1
                    } else {
                        last
                    }
                };
                let mut i = begin;
                while i <= last && i < len {
                    found.push(i as usize);
                    i += step;
                }
                if last >= len && open_end {
                    uncertain("the arguments run past what the lint can see");
                }
            }
            FindKeys::KeyNum {
                key_num_index,
                first_key,
                key_step,
            } => {
                let at = begin + i64::from(key_num_index);
                let count = match args.get(at as usize) {
                    Some(Arg::Known(text)) => std::str::from_utf8(text)
                        .ok()
                        .and_then(|t| t.trim().parse::<i64>().ok()),
                    _ => None,
                };
                let Some(count) = count else {
                    uncertain("the count of keys is not a literal");
                    continue;
                };
                let step = i64::from(key_step.max(1));
                let first = begin + i64::from(first_key);
                for n in 0..count.clamp(0, len) {
                    let i = first + n * step;
                    if i >= len {
                        if open_end {
                            uncertain("the arguments run past what the lint can see");
                        }
                        break;
                    }
                    found.push(i as usize);
                }
            }
            FindKeys::Unknown => {
                uncertain("the server finds this command's keys by code of its own")
            }
        }
    }
    found.sort_unstable();
    found.dedup();
    out.positions = found;
    out
}

/// The keys of `SORT` and `SORT_RO`, whose key specs leave the rest to the server's code:
/// the servers' `sortGetKeys`, the key to sort (argument 1) and, for `SORT`, the argument
/// after the last `STORE`, the arguments of `LIMIT` (two), `BY` and `GET` (one) skipped.
/// The keys that `BY` and `GET` patterns form are no keys of the command: the servers judge
/// the patterns themselves ([`sort_refusal`]).
fn sort_keys(name: &str, args: &[Arg<'_>], open_end: bool) -> KeyPositions {
    let mut out = KeyPositions {
        positions: if args.len() > 1 { vec![1] } else { Vec::new() },
        uncertain: None,
    };
    if open_end {
        out.uncertain = Some("the arguments run past what the lint can see");
    }
    let mut store = None;
    let mut i = 2;
    while i < args.len() {
        let skip = match &args[i] {
            // the last argument, whatever word it is, moves no key: a `STORE` there has no
            // key after it, a `LIMIT`, `BY` or `GET` nothing to skip
            Arg::Unknown if i + 1 == args.len() && !open_end => 0,
            Arg::Unknown => {
                out.uncertain
                    .get_or_insert("a keyword could hide in an argument that is not a literal");
                0
            }
            Arg::Known(word) if word.eq_ignore_ascii_case(b"limit") => 2,
            Arg::Known(word)
                if word.eq_ignore_ascii_case(b"by") || word.eq_ignore_ascii_case(b"get") =>
            {
                1
            }
            Arg::Known(word) if word.eq_ignore_ascii_case(b"store") && i + 1 < args.len() => {
                store = Some(i + 1);
                0
            }
            Arg::Known(_) => 0,
        };
        i += skip + 1;
    }
    if let (Some(at), "sort") = (store, name) {
        out.positions.push(at);
    }
    out
}

/// Why a server refuses the `BY` or `GET` pattern of a `SORT` (`SORT_RO`) call in cluster
/// mode, as measured and as `sort.c` says: Redis 7.0 refuses every `BY` pattern with a `*`
/// ("BY option of SORT denied in Cluster mode.") and every `GET` ("GET option ..."); Valkey
/// 8.0 and 9.1 take a pattern whose keys all hash to the sorted key's slot (a hashtag that
/// closes before any `*`, `?`, `[` or `\\`: `{b}w_*` for `{b}1`), Valkey 9.1 also `GET #`
/// (the element itself). A `BY` without `*` (`BY nosort`) is no pattern. The argument where
/// it shows, the reason, the fix, the servers that refuse (a mask of [`REDIS`], [`VALKEY8`],
/// [`VALKEY9`]) and those whose answer depends on the sorted key's slot, which the lint
/// cannot read (the key is no literal).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SortRefusal {
    /// The index of the pattern in the call (the name first).
    pub at: usize,
    /// What is refused, in words.
    pub reason: String,
    /// What to write instead.
    pub fix: String,
    /// The servers that refuse it.
    pub servers: u8,
    /// The servers that refuse it unless the sorted key is on the pattern's slot, when the
    /// lint cannot read the key.
    pub unsure: u8,
}

/// The slot every key a `SORT` pattern forms hashes to, as Valkey's `patternHashSlot`
/// reads it, `None` when the keys may be on any slot (a `*`, `?`, `[` or `\\` before a
/// hashtag closes).
fn pattern_slot(pattern: &[u8]) -> Option<u16> {
    // the first `{`, while its tag is open; after an empty `{}` no tag opens again
    let (mut open, mut tagless) = (None, false);
    for (i, &b) in pattern.iter().enumerate() {
        match (b, open) {
            (b'*' | b'?' | b'[' | b'\\', _) => return None,
            (b'{', None) if !tagless => open = Some(i),
            (b'}', Some(o)) if o + 1 == i => (open, tagless) = (None, true),
            (b'}', Some(_)) => break,
            _ => {}
        }
    }
    Some(slotgen_tables::REDIS_CLUSTER.key_slot(pattern))
}

/// The first `BY` or `GET` pattern of the call `args` (the name first, lower case in
/// `name`) that a server refuses in cluster mode ([`SortRefusal`]), read up to the first
/// argument that is no literal or no option of `SORT`.
#[must_use]
pub fn sort_refusal(name: &str, args: &[Arg<'_>]) -> Option<SortRefusal> {
    if !matches!(name, "sort" | "sort_ro") {
        return None;
    }
    let key_slot = match args.get(1) {
        Some(Arg::Known(key)) => Some(slotgen_tables::REDIS_CLUSTER.key_slot(key)),
        _ => None,
    };
    let upper = name.to_ascii_uppercase();
    let mut i = 2;
    while let Some(Arg::Known(word)) = args.get(i) {
        let option = if word.eq_ignore_ascii_case(b"by") {
            "BY"
        } else if word.eq_ignore_ascii_case(b"get") {
            "GET"
        } else if word.eq_ignore_ascii_case(b"limit") {
            i += 3;
            continue;
        } else if word.eq_ignore_ascii_case(b"store") {
            i += 2;
            continue;
        } else if [&b"asc"[..], b"desc", b"alpha"]
            .iter()
            .any(|w| word.eq_ignore_ascii_case(w))
        {
            i += 1;
            continue;
        } else {
            return None;
        };
        let Some(Arg::Known(pattern)) = args.get(i + 1) else {
            return None;
        };
        i += 2;
        if option == "BY" && !pattern.contains(&b'*') {
            continue;
        }
        let own = option == "GET" && pattern == b"#";
        let slot = pattern_slot(pattern);
        // Valkey: refused unless the pattern's keys are on the sorted key's slot
        let (mut servers, mut unsure) = (REDIS, 0);
        let valkey = if own { VALKEY8 } else { VALKEY8 | VALKEY9 };
        match (slot, key_slot) {
            (Some(p), Some(k)) if p == k => {}
            (Some(_), None) => unsure |= valkey,
            _ => servers |= valkey,
        }
        let shown = slotgen::text::escape_cut(pattern);
        return Some(SortRefusal {
            at: i - 1,
            reason: format!(
                "`{upper} ... {option} {shown}`: in cluster mode Redis 7.0 refuses every \
                 {} (\"{option} option of SORT denied in Cluster mode\"), Valkey 8.0 and \
                 9.1 a pattern whose keys may be on another slot than the sorted key's \
                 (\"... when keys formed by the pattern may be in different slots\"){}",
                if option == "BY" {
                    "`BY` pattern"
                } else {
                    "`GET`"
                },
                if own {
                    "; Valkey 9.1 takes `GET #`"
                } else {
                    ""
                }
            ),
            fix: "sort in the client, or on Valkey give the pattern the sorted key's hashtag \
                  before any `*` (`{tag}w_*`)"
                .to_owned(),
            servers,
            unsure,
        });
    }
    None
}

fn is_word(arg: &Arg<'_>, keyword: &str) -> bool {
    matches!(arg, Arg::Known(text) if text.eq_ignore_ascii_case(keyword.as_bytes()))
}

/// The words of a line as the servers' `sdssplitargs` splits them (redis-cli's command
/// lines, a script's shebang): `"..."` with `\n`, `\r`,
/// `\t`, `\b`, `\a`, `\xHH` and `\<any>`, `'...'` with `\'`; `None` for unbalanced quotes
/// or a closing quote not followed by a space.
pub(crate) fn split(line: &str) -> Option<Vec<Vec<u8>>> {
    let b = line.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    loop {
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        if i == b.len() {
            return Some(out);
        }
        let mut word = Vec::new();
        let (mut dq, mut sq) = (false, false);
        loop {
            if dq {
                match b.get(i)? {
                    b'\\'
                        if b.get(i + 1) == Some(&b'x')
                            && b.get(i + 2).is_some_and(u8::is_ascii_hexdigit)
                            && b.get(i + 3).is_some_and(u8::is_ascii_hexdigit) =>
                    {
                        let hex = std::str::from_utf8(&b[i + 2..i + 4]).ok()?;
                        word.push(u8::from_str_radix(hex, 16).ok()?);
                        i += 3;
                    }
                    b'\\' if i + 1 < b.len() => {
                        i += 1;
                        word.push(match b[i] {
                            b'n' => b'\n',
                            b'r' => b'\r',
                            b't' => b'\t',
                            b'b' => 8,
                            b'a' => 7,
                            c => c,
                        });
                    }
                    b'"' => {
                        if b.get(i + 1).is_some_and(|c| !c.is_ascii_whitespace()) {
                            return None;
                        }
                        i += 1;
                        break;
                    }
                    &c => word.push(c),
                }
            } else if sq {
                match b.get(i)? {
                    b'\\' if b.get(i + 1) == Some(&b'\'') => {
                        word.push(b'\'');
                        i += 1;
                    }
                    b'\'' => {
                        if b.get(i + 1).is_some_and(|c| !c.is_ascii_whitespace()) {
                            return None;
                        }
                        i += 1;
                        break;
                    }
                    &c => word.push(c),
                }
            } else {
                match b.get(i) {
                    None => break,
                    Some(c) if c.is_ascii_whitespace() => break,
                    Some(b'"') => dq = true,
                    Some(b'\'') => sq = true,
                    Some(&c) => word.push(c),
                }
            }
            i += 1;
        }
        out.push(word);
    }
}
