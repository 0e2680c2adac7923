//! The numeric arguments of the commands, as the servers read them: where each is (from the
//! servers' own `COMMAND DOCS`: its type `integer`, `unix-time` or `double`), which servers
//! refuse a value there that is no number or, for an expire time, no number above 0
//! (measured on each server with a script on an empty database), generated once into
//! [`ARGUMENTS`] and checked against live servers by a test
//! (`tests/tests/it/lint_commands.rs`).
//!
//! Only two shapes of argument list are read, the ones a call shows without guessing: the
//! arguments a command always takes first, at fixed places (`SETEX key seconds value`), and
//! options that each start with their own word (`GETEX key EX seconds`, `ZRANGEBYSCORE key
//! min max LIMIT offset count`). A command whose options mix with free values (`ZADD`'s
//! score-member pairs) has its first arguments read only.

use std::fmt::Write as _;

use crate::commands::{integer_value, Arg, REDIS, VALKEY8, VALKEY9};

/// What a server reads an argument as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A word, a key, or a number the lint does not check.
    Other,
    /// A 64-bit integer (`integer` and `unix-time` in `COMMAND DOCS`), read by the servers'
    /// `string2ll`: [`integer_value`].
    Integer,
    /// A float (`double`), read by `strtod` ([`no_float`]).
    Double,
}

/// One argument of a command's list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Value {
    /// Its name in `COMMAND DOCS` (`seconds`, `min`).
    pub name: &'static str,
    /// What it is read as.
    pub kind: Kind,
    /// The servers (a mask of [`REDIS`], [`VALKEY8`], [`VALKEY9`]) that refuse a value here
    /// that is no number, measured on an empty database: a server not in it reads the value
    /// later, once the key exists (Redis 7.0's `GETEX`), or never.
    pub not_number: u8,
    /// The servers that refuse a value of 0 here ("invalid expire time"): an expire time
    /// that must be above 0 (`SETEX`, `SET ... EX`), measured as [`Value::not_number`].
    pub not_positive: u8,
}

/// An option that starts with its own word, and the values after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token {
    /// The word, upper case (`EX`, `LIMIT`).
    pub word: &'static str,
    /// The values that follow it (`LIMIT offset count`).
    pub values: &'static [Value],
}

/// The arguments of one command on some servers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Arguments {
    /// The command, lower case.
    pub command: &'static str,
    /// The servers whose `COMMAND DOCS` give this list.
    pub servers: u8,
    /// The arguments every call has first, from argument 1 on.
    pub leading: &'static [Value],
    /// The options that may follow them, any order; empty when other arguments follow.
    pub tokens: &'static [Token],
}

include!("numbers_table.rs");

/// Whether every server refuses `text` as a float, whichever of its readings the command
/// uses: `strtod` over the whole text, not NaN. The reading that takes the most is the
/// score range's (`ZRANGEBYSCORE`: an optional `(`, spaces before the number, the empty
/// string as 0), so a text is refused only when that reading refuses it too. Measured on
/// the three servers with `ZADD`, `INCRBYFLOAT` and `ZRANGEBYSCORE`: `1.5`, `+1`, `01`,
/// `-0`, `1e3`, `.5`, `5.`, `inf`, `-inf`, `infinity`, `1e999` are taken by some reading;
/// `1 `, `nan`, `abc` by none; `0x10` by Redis 7.0 and Valkey 8.0 (Valkey 9.1 refuses it).
///
/// # Examples
///
/// ```
/// use slotgen_lint::numbers::no_float;
///
/// assert!(!no_float(b"-inf"));
/// assert!(!no_float(b"(1.5"));
/// assert!(no_float(b"{rsmq}1733434343434"));
/// assert!(no_float(b"nan"));
/// ```
#[must_use]
pub fn no_float(text: &[u8]) -> bool {
    let text = text.strip_prefix(b"(").unwrap_or(text);
    let start = text
        .iter()
        .position(|b| !b" \t\n\x0b\x0c\r".contains(b))
        .unwrap_or(text.len());
    let text = &text[start..];
    !text.is_empty() && !strtod_whole(text)
}

/// Whether C's `strtod` reads all of `text` (no space before it) as a number that is not
/// NaN: a sign, then `inf` or `infinity`, a decimal with an optional exponent, or a
/// hexadecimal float (`0x1.8p3`).
fn strtod_whole(text: &[u8]) -> bool {
    let body = match text.first() {
        Some(b'+' | b'-') => &text[1..],
        _ => text,
    };
    let lower = body.to_ascii_lowercase();
    if lower == b"inf" || lower == b"infinity" {
        return true;
    }
    let (digit, exponent, body): (fn(&u8) -> bool, u8, &[u8]) = match lower.strip_prefix(b"0x") {
        Some(rest) => (u8::is_ascii_hexdigit, b'p', rest),
        None => (u8::is_ascii_digit, b'e', &lower[..]),
    };
    let run = |s: &[u8]| s.iter().take_while(|b| digit(b)).count();
    let whole = run(body);
    let mut rest = &body[whole..];
    let mut digits = whole;
    if let Some(after) = rest.strip_prefix(b".") {
        let fraction = run(after);
        digits += fraction;
        rest = &after[fraction..];
    }
    if digits == 0 {
        return false;
    }
    if let Some(after) = rest.strip_prefix(&[exponent][..]) {
        let after = match after.first() {
            Some(b'+' | b'-') => &after[1..],
            _ => after,
        };
        let n = after.iter().take_while(|b| b.is_ascii_digit()).count();
        return n > 0 && n == after.len();
    }
    rest.is_empty()
}

/// What is wrong with a known value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Problem {
    /// No integer as `string2ll` reads it.
    NotInteger,
    /// No float as `strtod` reads it.
    NotFloat,
    /// An expire time of 0 or below.
    NotPositive,
}

/// A known argument value that a server refuses ([`value_refusal`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValueRefusal {
    /// The index of the argument in the call (the name first).
    pub at: usize,
    /// The argument's name in `COMMAND DOCS`.
    pub name: &'static str,
    /// The value, as written.
    pub value: Vec<u8>,
    /// What is wrong with it.
    pub problem: Problem,
    /// The servers that refuse it whatever the keys hold.
    pub servers: u8,
    /// The servers that read it once the key exists, or that may not read it.
    pub unsure: u8,
}

/// The list of `command` (lower case) on the server `server` (one bit).
fn arguments_of(command: &str, server: u8) -> Option<&'static Arguments> {
    ARGUMENTS
        .iter()
        .find(|a| a.command == command && a.servers & server != 0)
}

/// The first known value of `args` that `value` refuses on one server, with its index.
fn first_refused(list: &Arguments, args: &[Arg<'_>]) -> Option<(usize, Value, Problem)> {
    let check = |at: usize, value: &Value| -> Option<(usize, Value, Problem)> {
        let Some(Arg::Known(text)) = args.get(at) else {
            return None;
        };
        let problem = match value.kind {
            Kind::Other => return None,
            Kind::Integer => match integer_value(text) {
                None => Problem::NotInteger,
                Some(n) if n <= 0 && value.not_positive != 0 => Problem::NotPositive,
                Some(_) => return None,
            },
            Kind::Double if no_float(text) => Problem::NotFloat,
            Kind::Double => return None,
        };
        Some((at, *value, problem))
    };
    for (n, value) in list.leading.iter().enumerate() {
        if let Some(found) = check(1 + n, value) {
            return Some(found);
        }
    }
    let mut i = 1 + list.leading.len();
    while let Some(Arg::Known(word)) = args.get(i) {
        let token = list
            .tokens
            .iter()
            .find(|t| word.eq_ignore_ascii_case(t.word.as_bytes()))?;
        for (n, value) in token.values.iter().enumerate() {
            if let Some(found) = check(i + 1 + n, value) {
                return Some(found);
            }
        }
        i += 1 + token.values.len();
    }
    None
}

/// The first argument of the call `args` (the name first, lower case in `command`) whose
/// known value the servers refuse: no integer where `COMMAND DOCS` give `integer` or
/// `unix-time`, no float where `double`, an expire time of 0 or below where a server
/// measured refuses 0 (`SETEX`, `PSETEX`, `SET ... EX`, `GETEX ... EX`; `EXPIRE` takes 0
/// and below). An argument the lint cannot read is not judged; options are read up to the
/// first one that is unknown or no option.
///
/// # Examples
///
/// ```
/// use slotgen_lint::commands::{Arg, REDIS, VALKEY8, VALKEY9};
/// use slotgen_lint::numbers::{value_refusal, Problem};
///
/// let call = |words: &[&'static str]| -> Vec<Arg<'static>> {
///     words.iter().map(|w| Arg::Known(w.as_bytes())).collect()
/// };
/// let r = value_refusal("setex", &call(&["SETEX", "k", "0", "v"])).unwrap();
/// assert_eq!((r.at, r.problem), (2, Problem::NotPositive));
/// assert_eq!(value_refusal("expire", &call(&["EXPIRE", "k", "0"])), None);
/// let r = value_refusal("getex", &call(&["GETEX", "k", "EX", "1.5"])).unwrap();
/// assert_eq!((r.servers, r.unsure), (VALKEY9, REDIS | VALKEY8));
/// ```
#[must_use]
pub fn value_refusal(command: &str, args: &[Arg<'_>]) -> Option<ValueRefusal> {
    let found: Vec<(u8, (usize, Value, Problem))> = [REDIS, VALKEY8, VALKEY9]
        .into_iter()
        .filter_map(|server| {
            let list = arguments_of(command, server)?;
            Some((server, first_refused(list, args)?))
        })
        .collect();
    let &(_, (at, value, problem)) = found.iter().min_by_key(|(_, (at, _, _))| *at)?;
    let mut out = ValueRefusal {
        at,
        name: value.name,
        value: match args.get(at) {
            Some(Arg::Known(text)) => text.to_vec(),
            _ => Vec::new(),
        },
        problem,
        servers: 0,
        unsure: 0,
    };
    for &(server, (other, value, problem)) in &found {
        if other != at {
            continue;
        }
        let measured = match problem {
            Problem::NotPositive => value.not_positive,
            Problem::NotInteger | Problem::NotFloat => value.not_number,
        };
        if measured & server != 0 {
            out.servers |= server;
        } else {
            out.unsure |= server;
        }
    }
    Some(out)
}

/// The name `COMMAND DOCS` give argument `at` of `command` (lower case; the name is
/// argument 0) among the arguments every call has first, on any server measured, for the
/// commands of [`ARGUMENTS`]: `max` for `zrangebyscore` at 3.
///
/// # Examples
///
/// ```
/// use slotgen_lint::numbers::argument_name;
///
/// assert_eq!(argument_name("zrangebyscore", 3), Some("max"));
/// assert_eq!(argument_name("zrangebyscore", 9), None);
/// ```
#[must_use]
pub fn argument_name(command: &str, at: usize) -> Option<&'static str> {
    let n = at.checked_sub(1)?;
    ARGUMENTS
        .iter()
        .filter(|a| a.command == command)
        .find_map(|a| a.leading.get(n))
        .map(|v| v.name)
}

/// The Rust source of [`ARGUMENTS`] (`numbers_table.rs`) from the lists `lists`, sorted by
/// command then servers: the committed file is this function's output, and the staleness
/// test compares them.
#[must_use]
pub fn render(lists: &[Arguments]) -> String {
    let mut out = String::from(
        "// @generated by `SLOTGEN_BLESS=1 cargo test -p slotgen-tests --test it -- \
         lint_commands`\n// from COMMAND DOCS (and EVAL of each numeric argument on an empty \
         database) of\n// redis-server 7.0, valkey-server 8.0 and Valkey 9.1. Do not edit.\n\n\
         /// The commands with a numeric argument some server refuses when it is no number.\n\
         pub static ARGUMENTS: &[Arguments] = &[\n",
    );
    let values = |values: &[Value]| -> String {
        let shown: Vec<String> = values
            .iter()
            .map(|v| {
                format!(
                    "Value {{ name: {:?}, kind: Kind::{:?}, not_number: {}, not_positive: {} }}",
                    v.name, v.kind, v.not_number, v.not_positive
                )
            })
            .collect();
        format!("&[{}]", shown.join(", "))
    };
    let mut sorted = lists.to_vec();
    sorted.sort_by(|a, b| a.command.cmp(b.command).then(a.servers.cmp(&b.servers)));
    for a in &sorted {
        let tokens: Vec<String> = a
            .tokens
            .iter()
            .map(|t| {
                format!(
                    "Token {{ word: {:?}, values: {} }}",
                    t.word,
                    values(t.values)
                )
            })
            .collect();
        let _ = writeln!(
            out,
            "    Arguments {{ command: {:?}, servers: {}, leading: {}, tokens: &[{}] }},",
            a.command,
            a.servers,
            values(a.leading),
            tokens.join(", ")
        );
    }
    out.push_str("];\n");
    out
}
