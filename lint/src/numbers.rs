//! The numeric arguments of the commands, as the servers read them: where each is (from the
//! servers' own `COMMAND DOCS`: its type `integer`, `unix-time` or `double`), which servers
//! refuse a value there that is no number, 0, below 0, infinite or, for an expire time,
//! past 64 bits, and in which words (measured on each server with a script on an empty
//! database), generated once into
//! [`ARGUMENTS`] and checked against live servers by a test
//! (`tests/tests/it/lint_commands.rs`).
//!
//! Four shapes of argument list are read, the ones a call shows without guessing: the
//! arguments a command always takes first, at fixed places (`SETEX key seconds value`),
//! options that each start with their own word (`GETEX key EX seconds`, `ZRANGEBYSCORE key
//! min max LIMIT offset count`), and after those options a group of values repeated to the
//! end (`ZADD key NX score member score member`, `GEOADD key longitude latitude member`):
//! the servers, as the lint, take the first word that is no option for the group's start.
//! A command whose first arguments end with one that repeats has the values after it read
//! from the end of the call (`BLPOP key key timeout`).

use crate::commands::{integer_value, Arg, REDIS, VALKEY8, VALKEY9};

/// What a server reads an argument as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A word, a key, or a number the lint does not check.
    Other,
    /// A 64-bit integer (`integer` and `unix-time` in `COMMAND DOCS`), read by the servers'
    /// `string2ll`: [`integer_value`].
    Integer,
    /// A bound of a score range (`ZRANGEBYSCORE`'s `min`): an optional `(`, then `strtod`
    /// over the rest, the empty text read as 0 ([`no_float`]).
    Bound,
    /// A float (`double`) read by the servers' `string2d`: the whole text, no space first,
    /// within a `double` (`ZADD`'s `score`, `ZINCRBY`'s `increment`) ([`no_float`]).
    Double,
    /// A float read by the servers' `string2ld`: as [`Kind::Double`] within a `long double`
    /// (`INCRBYFLOAT`'s `increment`, a blocking command's `timeout`) ([`no_float`]).
    LongDouble,
}

/// A text of the table (an argument's name, an option, a command, a server's words): text
/// `i` is the bytes of [`WORDS`] from `WORD_STARTS[i]` to `WORD_STARTS[i + 1]`, where the
/// table's generator writes each text once; 0 is the empty text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Word(pub u8);

impl Word {
    /// The text.
    #[must_use]
    pub fn text(self) -> &'static str {
        let i = usize::from(self.0);
        &WORDS[usize::from(WORD_STARTS[i])..usize::from(WORD_STARTS[i + 1])]
    }

    /// Whether the text is `text`: its bytes compared, no text made, for the lookups that
    /// scan the table.
    #[inline]
    #[must_use]
    pub fn is(self, text: &str) -> bool {
        let i = usize::from(self.0);
        let (Some(&start), Some(&end)) = (WORD_STARTS.get(i), WORD_STARTS.get(i + 1)) else {
            return false;
        };
        WORDS.as_bytes().get(usize::from(start)..usize::from(end)) == Some(text.as_bytes())
    }
}

/// One argument of a command's list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Value {
    /// Its name in `COMMAND DOCS` (`seconds`, `min`).
    pub name: Word,
    /// What it is read as.
    pub kind: Kind,
    /// The servers (a mask of [`REDIS`], [`VALKEY8`], [`VALKEY9`]) that refuse a value here
    /// that is no number, measured on an empty database: a server not in it reads the value
    /// later, once the key exists (Redis 7.0's `GETEX`), or never.
    pub not_number: u8,
    /// The server's words when it refuses a value here that is no number ("value is not
    /// an integer or out of range", "min or max is not a float"), measured.
    pub number_words: Word,
    /// The servers that refuse 0 here, a number they take 1 for ("invalid expire time in
    /// 'setex' command", "RANK can't be zero: ..."), measured as [`Value::not_number`].
    pub not_zero: u8,
    /// Their words.
    pub zero_words: Word,
    /// The servers that refuse -1 here, a number they take 1 for ("value is out of range,
    /// must be positive", "COUNT can't be negative"), measured as [`Value::not_number`].
    pub not_negative: u8,
    /// Their words.
    pub negative_words: Word,
    /// The servers that refuse `inf` here, a float they read ("increment would produce NaN
    /// or Infinity", "timeout is out of range"), measured as [`Value::not_number`].
    pub not_finite: u8,
    /// The servers that refuse a count here that is not the number of the groups after
    /// it (`FIELDS 2 f v`: "numfields should be ... match the provided number of
    /// fields"), measured with 2 before one group.
    pub not_count: u8,
    /// Their words.
    pub count_words: Word,
    /// The servers that refuse a time here above [`Value::max`] or below [`Value::min`]
    /// ("invalid expire time": the time overflows once scaled to milliseconds, or once the
    /// server's clock is added), measured as [`Value::not_number`].
    pub out_of_range: u8,
    /// Its bounds, [`Value::max`] and [`Value::min`]: an index in [`BOUNDS`], 0 for none.
    pub bounds: u8,
}

impl Value {
    /// A value no server refuses, read as [`Kind::Other`], named by the empty text: what
    /// the table's values leave unsaid.
    pub const OTHER: Value = Value {
        name: Word(0),
        kind: Kind::Other,
        not_number: 0,
        number_words: Word(0),
        not_zero: 0,
        zero_words: Word(0),
        not_negative: 0,
        negative_words: Word(0),
        not_finite: 0,
        not_count: 0,
        count_words: Word(0),
        out_of_range: 0,
        bounds: 0,
    };

    /// The largest time [`Value::out_of_range`]'s servers may take, one of [`MAX_TIMES`]
    /// (`(i64::MAX - CLOCK_SINCE_MS) / 1000` for seconds from now), `i64::MAX` for none.
    #[must_use]
    pub fn max(&self) -> i64 {
        BOUNDS[usize::from(self.bounds)].0
    }

    /// The smallest: `i64::MIN / 1000` for seconds, `i64::MIN` for none.
    #[must_use]
    pub fn min(&self) -> i64 {
        BOUNDS[usize::from(self.bounds)].1
    }
}

/// A time in milliseconds (2023-11-14) that every server's clock is past: a time of
/// milliseconds from now above `i64::MAX` less this overflows when the server adds its
/// clock, today and every day after.
pub const CLOCK_SINCE_MS: i64 = 1_700_000_000_000;

/// The largest times some server takes, the candidates [`Value::max`] is measured from
/// (the first the server refuses just above): seconds from now, seconds scaled to
/// milliseconds, milliseconds from now.
pub const MAX_TIMES: [i64; 3] = [
    (i64::MAX - CLOCK_SINCE_MS) / 1000,
    i64::MAX / 1000,
    i64::MAX - CLOCK_SINCE_MS,
];

/// An option that starts with its own word, and the values after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token {
    /// The word, upper case (`EX`, `LIMIT`).
    pub word: Word,
    /// The values that follow it (`LIMIT offset count`).
    pub values: &'static [Value],
}

/// The arguments of one command on some servers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Arguments {
    /// The command, lower case.
    pub command: Word,
    /// The servers whose `COMMAND DOCS` give this list.
    pub servers: u8,
    /// The arguments every call has first, from argument 1 on.
    pub leading: &'static [Value],
    /// The options that may follow them, any order; empty when other arguments follow.
    pub tokens: &'static [Token],
    /// The values repeated after the options to the end of the call (`score member`);
    /// empty when the command has no such group.
    pub repeated: &'static [Value],
    /// The values a call ends with after one or more of an argument that repeats
    /// (`BLPOP key [key ...] timeout`); empty when the command has none.
    pub trailing: &'static [Value],
}

include!("numbers_table.rs");

/// Whether the server `server` (one bit) refuses `text` as a float of kind `kind` (false
/// for [`Kind::Other`] and [`Kind::Integer`]). Every reading takes a sign, `inf` and
/// `infinity` in any case, decimals with an optional exponent (`.5`, `5.`, `1e3`) and
/// refuses NaN and anything after the number; [`Kind::Bound`] takes `(` first, the empty
/// text, and spaces before the number; [`Kind::Double`] refuses a number that overflows a
/// `double` or underflows to 0 (`1e400`, `1e-400`), [`Kind::LongDouble`] one beyond a
/// `long double`'s range. Redis 7.0 and Valkey 8.0 read hexadecimal floats (`0x1p4`);
/// Valkey 9.1 reads them as a `long double` only, and takes no space before a bound.
/// Checked against each server on texts at these edges by a live test
/// (`lint_numbers_read_as_the_servers_read`).
///
/// # Examples
///
/// ```
/// use slotgen_lint::commands::{REDIS, VALKEY9};
/// use slotgen_lint::numbers::{no_float, Kind};
///
/// assert!(!no_float(b"(1.5", Kind::Bound, REDIS));
/// assert!(no_float(b"(1.5", Kind::Double, REDIS));
/// assert!(!no_float(b" 1", Kind::Bound, REDIS));
/// assert!(no_float(b" 1", Kind::Bound, VALKEY9));
/// assert!(no_float(b"1e400", Kind::Double, REDIS));
/// assert!(!no_float(b"1e400", Kind::LongDouble, REDIS));
/// assert!(no_float(b"nan", Kind::LongDouble, REDIS));
/// ```
#[must_use]
pub fn no_float(text: &[u8], kind: Kind, server: u8) -> bool {
    // Valkey 9.1 reads a `double` with its own parser: no hexadecimal, no space first
    let hex = server & VALKEY9 == 0 || kind == Kind::LongDouble;
    match kind {
        Kind::Other | Kind::Integer => false,
        Kind::Bound => {
            let text = text.strip_prefix(b"(").unwrap_or(text);
            let start = if hex {
                text.iter()
                    .position(|b| !SPACES.contains(b))
                    .unwrap_or(text.len())
            } else {
                0
            };
            !text.is_empty() && !strtod_whole(&text[start..], hex)
        }
        Kind::Double | Kind::LongDouble => {
            text.first().is_none_or(|b| SPACES.contains(b))
                || text.len() >= MAX_LONG_DOUBLE_CHARS
                || !strtod_whole(text, hex)
                || out_of_range(text, kind)
        }
    }
}

/// The bytes C's `isspace` takes.
const SPACES: &[u8] = b" \t\n\x0b\x0c\r";

/// The length from which `string2ld` refuses a text (`MAX_LONG_DOUBLE_CHARS`).
const MAX_LONG_DOUBLE_CHARS: usize = 5 * 1024;

/// The powers of ten of the first significant digit an x86-64 `long double` holds without
/// overflow or underflow to 0: `3.6e-4951` to `1.2e4932`.
const LONG_DOUBLE_POWERS: (i64, i64) = (-4951, 4932);

/// Whether the decimal number `text` (read whole by [`strtod_whole`]) overflows or
/// underflows to 0 as a float of `kind` (`strtod`'s `ERANGE`, which `string2d` and
/// `string2ld` refuse): exactly for a `double`; for a `long double` by the power of ten of
/// its first significant digit, a number in the range's first or last decade taken.
/// `inf` and hexadecimal floats are taken.
fn out_of_range(text: &[u8], kind: Kind) -> bool {
    let body = match text.first() {
        Some(b'+' | b'-') => &text[1..],
        _ => text,
    };
    if body.first().is_some_and(u8::is_ascii_alphabetic)
        || body.to_ascii_lowercase().starts_with(b"0x")
    {
        return false;
    }
    let nonzero = body
        .iter()
        .take_while(|b| **b != b'e' && **b != b'E')
        .any(|b| (b'1'..=b'9').contains(b));
    if kind == Kind::Double {
        let value: Option<f64> = std::str::from_utf8(text).ok().and_then(|t| t.parse().ok());
        return value.is_some_and(|v| v.is_infinite() || (v == 0.0 && nonzero));
    }
    let (lowest, highest) = LONG_DOUBLE_POWERS;
    let (mantissa, exponent) = match body.iter().position(|b| *b == b'e' || *b == b'E') {
        Some(at) => (&body[..at], &body[at + 1..]),
        None => (body, &b""[..]),
    };
    let exponent: i64 = std::str::from_utf8(exponent)
        .ok()
        .and_then(|e| e.parse::<i64>().ok())
        .unwrap_or_else(|| match exponent.first() {
            None => 0,
            Some(b'-') => i64::MIN / 2,
            Some(_) => i64::MAX / 2,
        });
    let whole = mantissa
        .iter()
        .position(|b| *b == b'.')
        .unwrap_or(mantissa.len());
    let Some(first) = mantissa
        .iter()
        .filter(|b| **b != b'.')
        .position(|b| *b != b'0')
    else {
        return false;
    };
    // the power of ten of the first significant digit
    let power = i64::try_from(whole).unwrap_or(i64::MAX / 4)
        - 1
        - i64::try_from(first).unwrap_or(i64::MAX / 4)
        + exponent;
    power < lowest || power > highest
}

/// Whether C's `strtod` reads all of `text` (no space before it) as a number that is not
/// NaN: a sign, then `inf` or `infinity`, a decimal with an optional exponent, or (with
/// `hex`) a hexadecimal float (`0x1.8p3`).
fn strtod_whole(text: &[u8], hex: bool) -> bool {
    let body = match text.first() {
        Some(b'+' | b'-') => &text[1..],
        _ => text,
    };
    let lower = body.to_ascii_lowercase();
    if lower == b"inf" || lower == b"infinity" {
        return true;
    }
    let (digit, exponent, body): (fn(&u8) -> bool, u8, &[u8]) =
        match lower.strip_prefix(b"0x").filter(|_| hex) {
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
    /// 0 where the server takes 1.
    Zero,
    /// A number below 0 where the server takes 1.
    Negative,
    /// An infinity where the server takes finite floats only.
    NotFinite,
    /// An expire time that overflows once scaled or added to the clock.
    OutOfRange,
    /// A count of the groups after it that is not their number.
    Count,
}

/// A known argument value that a server refuses ([`value_refusal`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValueRefusal {
    /// The index of the argument in the call (the name first).
    pub at: usize,
    /// The argument's name in `COMMAND DOCS`.
    pub name: &'static str,
    /// What the servers read it as.
    pub kind: Kind,
    /// Its entry in [`ARGUMENTS`] (for a server that refuses it).
    pub value_of: Value,
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
        .find(|a| a.command.is(command) && a.servers & server != 0)
}

/// The first known value of `args` that the server `server` (one bit), reading `list`,
/// refuses, with its index.
fn first_refused(
    list: &Arguments,
    args: &[Arg<'_>],
    server: u8,
) -> Option<(usize, Value, Problem)> {
    let check = |at: usize, value: &Value| -> Option<(usize, Value, Problem)> {
        let Some(Arg::Known(text)) = args.get(at) else {
            return None;
        };
        let problem = match value.kind {
            Kind::Other => return None,
            Kind::Integer => match integer_value(text) {
                None => Problem::NotInteger,
                Some(0) if value.not_zero != 0 => Problem::Zero,
                Some(n) if n < 0 && value.not_negative != 0 => Problem::Negative,
                Some(n) if (n > value.max() || n < value.min()) && value.out_of_range != 0 => {
                    Problem::OutOfRange
                }
                Some(_) => return None,
            },
            kind if no_float(text, kind, server) => Problem::NotFloat,
            _ if value.not_finite != 0 && is_infinity(text) => Problem::NotFinite,
            _ => return None,
        };
        Some((at, *value, problem))
    };
    for (n, value) in list.leading.iter().enumerate() {
        if let Some(found) = check(1 + n, value) {
            return Some(found);
        }
    }
    // the values at the end, after at least one of the argument that repeats
    let first = args.len().saturating_sub(list.trailing.len());
    if !list.trailing.is_empty() && first > 1 + list.leading.len() {
        for (n, value) in list.trailing.iter().enumerate() {
            if let Some(found) = check(first + n, value) {
                return Some(found);
            }
        }
    }
    let mut i = 1 + list.leading.len();
    // the count of the groups that follow, where a server checks it
    let mut counted = None;
    while let Some(Arg::Known(word)) = args.get(i) {
        let Some(token) = list
            .tokens
            .iter()
            .find(|t| word.eq_ignore_ascii_case(t.word.text().as_bytes()))
        else {
            break;
        };
        for (n, value) in token.values.iter().enumerate() {
            if let Some(found) = check(i + 1 + n, value) {
                return Some(found);
            }
            if value.not_count != 0 {
                counted = Some((i + 1 + n, *value));
            }
        }
        i += 1 + token.values.len();
    }
    // the group's values, when every argument left is known and they make whole groups
    let rest = args.get(i..)?;
    let group = list.repeated.len();
    if rest.iter().any(|a| matches!(a, Arg::Unknown)) {
        return None;
    }
    if let Some((at, value)) = counted {
        let n = match args.get(at) {
            Some(Arg::Known(text)) => integer_value(text),
            _ => None,
        };
        let fits =
            |n: i64| usize::try_from(n).is_ok_and(|n| n.checked_mul(group) == Some(rest.len()));
        if n.is_some_and(|n| !fits(n)) {
            return Some((at, value, Problem::Count));
        }
    }
    if group == 0
        || rest.is_empty()
        || rest.len() % group != 0
        || rest.iter().any(|a| matches!(a, Arg::Unknown))
    {
        return None;
    }
    (i..args.len()).find_map(|at| check(at, &list.repeated[(at - i) % group]))
}

/// Whether `text` is an infinity as `strtod` reads one (`inf`, `-Infinity`).
fn is_infinity(text: &[u8]) -> bool {
    let body = match text.first() {
        Some(b'+' | b'-') => &text[1..],
        _ => text,
    };
    body.eq_ignore_ascii_case(b"inf") || body.eq_ignore_ascii_case(b"infinity")
}

/// The first argument of the call `args` (the name first, lower case in `command`) whose
/// known value the servers refuse: no integer where `COMMAND DOCS` give `integer` or
/// `unix-time`, no float where `double` as the server reads that argument ([`no_float`]),
/// an infinity where a server measured refuses `inf` (`INCRBYFLOAT`), an expire time of 0 or below where a server
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
/// assert_eq!((r.at, r.problem), (2, Problem::Zero));
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
            Some((server, first_refused(list, args, server)?))
        })
        .collect();
    let &(_, (at, value, problem)) = found.iter().min_by_key(|(_, (at, _, _))| *at)?;
    let mut out = ValueRefusal {
        at,
        name: value.name.text(),
        kind: value.kind,
        value_of: value,
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
            Problem::Zero => value.not_zero,
            Problem::Negative => value.not_negative,
            Problem::NotInteger | Problem::NotFloat => value.not_number,
            Problem::NotFinite => value.not_finite,
            Problem::OutOfRange => value.out_of_range,
            Problem::Count => value.not_count,
        };
        if measured & server != 0 {
            out.servers |= server;
        } else {
            out.unsure |= server;
        }
    }
    Some(out)
}

impl ValueRefusal {
    /// The server's words for the refusal of `command` (lower case): measured, but for an
    /// infinity and a time that overflows.
    #[must_use]
    pub fn words(&self, command: &str) -> String {
        match self.problem {
            Problem::NotInteger | Problem::NotFloat => self.value_of.number_words.text().to_owned(),
            Problem::Zero => self.value_of.zero_words.text().to_owned(),
            Problem::Count => self.value_of.count_words.text().to_owned(),
            Problem::Negative => self.value_of.negative_words.text().to_owned(),
            Problem::OutOfRange => format!("invalid expire time in '{command}' command"),
            Problem::NotFinite if self.name == "timeout" => "timeout is out of range".to_owned(),
            Problem::NotFinite if command == "incrbyfloat" => {
                "increment would produce NaN or Infinity".to_owned()
            }
            Problem::NotFinite => "value is NaN or Infinity".to_owned(),
        }
    }
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
        .filter(|a| a.command.is(command))
        .find_map(|a| a.leading.get(n))
        .map(|v| v.name.text())
}
