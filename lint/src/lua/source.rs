//! A script's text: read within bounds, its `--- @include` lines, its shebang and flags,
//! and its parse, bounded in nesting.

use std::path::Path;

use full_moon::ast;

use super::kind::ScriptKind;
use crate::{Error, Position, MAX_NESTING, MAX_SOURCE_BYTES};

/// Reads a file of at most [`MAX_SOURCE_BYTES`] as UTF-8, within
/// [`slotgen::user_file::WAIT`]: the one bounded reader of a user's file, so that a FIFO or
/// a device neither hangs the lint nor fills its memory. A file that is not UTF-8 is refused
/// (a byte replaced would change the slot of a key that holds it), with `escape` in the fix:
/// how the file's language writes that byte in a string.
pub(crate) fn read_bounded(path: &Path, escape: fn(u8) -> String) -> Result<String, String> {
    let bytes =
        slotgen::user_file::read_small(path, MAX_SOURCE_BYTES as u64, slotgen::user_file::WAIT)
            .map_err(|e| match e {
                // a regular file past the bound: the bound, not the device advice
                slotgen::user_file::FileError::TooLarge { limit }
                    if std::fs::metadata(path).is_ok_and(|m| m.is_file()) =>
                {
                    format!(
                        "it is larger than {limit} bytes, the most the lint reads of a script \
                         with its includes; lint it in parts"
                    )
                }
                e => e.to_string(),
            })?;
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let bytes = e.as_bytes();
        let line = 1 + bytes[..at].iter().filter(|&&b| b == b'\n').count();
        format!(
            "it is not UTF-8 (line {line}, byte {} of the file, `{}`): the lint reads text as \
             UTF-8, and a byte it replaced would change the slot of a key that holds it; write \
             such a byte in a string as {}",
            at + 1,
            slotgen::text::escape(&bytes[at..=at]),
            escape(bytes[at])
        )
    })
}

/// How a Lua string writes `byte`: a decimal escape, as Lua 5.1 (Redis, Valkey) reads it.
pub(crate) fn lua_byte_escape(byte: u8) -> String {
    format!("a decimal escape (`'\\{byte}'`)")
}

/// The names of the `--- @include "name"` lines (bullmq's convention), each with the byte
/// its line starts at.
pub(super) fn includes(source: &str) -> Vec<(String, usize)> {
    let mut start = 0;
    source
        .split_inclusive('\n')
        .filter_map(|line| {
            let at = start;
            start += line.len();
            let rest = line.trim_start().strip_prefix("---")?.trim_start();
            let rest = rest.strip_prefix("@include")?.trim();
            let name = rest.strip_prefix('"')?.split('"').next()?;
            (!name.is_empty()).then(|| (name.to_owned(), at))
        })
        .collect()
}

/// A script's kind, where its shebang is, the shebang's engine as written when it is not
/// `lua` (`LUA`), and why the servers refuse the shebang, if they do.
pub(super) type Shebang = (
    ScriptKind,
    Option<Position>,
    Option<String>,
    Option<ShebangRefusal>,
);

/// Why Redis 7.0, Valkey 8.0 and Valkey 9.1 refuse a script's first line, read as they read
/// it: EVAL's `evalExtractShebangFlags`, FUNCTION LOAD's `functionExtractLibMetaData` (the
/// line up to its `\n` split as `sdssplitargs` splits words; each refusal measured on the
/// three servers).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShebangRefusal {
    /// Whether the engine word is at fault (`#! lua`), rather than an option.
    pub engine: bool,
    /// What is wrong, with the servers' words.
    pub reason: String,
    /// What to write instead.
    pub fix: String,
}

/// The script's kind from its first line: `#!lua flags=a,b`, or a library's `#!lua name=lib`
/// (any `name=`, in any case, makes it one). A line the servers refuse is read as far as it
/// goes and said in the refusal; an engine no server has (`#!python`) is an error.
pub(super) fn shebang(path: &Path, source: &str) -> Result<Shebang, Error> {
    if !source.starts_with("#!") {
        return Ok((ScriptKind::Eval, None, None, None));
    }
    let at = Some(Position {
        file: 0,
        line: 1,
        column: 1,
    });
    let line = source.lines().next().unwrap_or("");
    let unknown_engine = || Error::Shebang {
        file: crate::shown(path),
        line: slotgen::text::escape(&line.as_bytes()[2..]),
    };
    let refusal = |engine: bool, reason: String, fix: &str| ShebangRefusal {
        engine,
        reason,
        fix: fix.to_owned(),
    };
    let quoted = |word: &[u8]| slotgen::text::escape(word);
    // the words as the servers split the line (without its `\n`)
    let words = crate::commands::split(line).filter(|w| !w.is_empty());
    let library = words.as_ref().is_some_and(|w| {
        w[1..]
            .iter()
            .any(|p| p.len() >= 5 && p[..5].eq_ignore_ascii_case(b"name="))
    });
    let Some(words) = words.filter(|_| source.contains('\n')) else {
        let reason = if library || line.contains("name=") {
            "FUNCTION LOAD refuses the library (\"Invalid library metadata\")"
        } else if source.contains('\n') {
            "the servers refuse it (\"Invalid engine in script shebang\")"
        } else {
            "the servers refuse it (\"Invalid script shebang\")"
        };
        let kind = if library || line.contains("name=") {
            ScriptKind::Library {
                name: String::new(),
                functions: Vec::new(),
            }
        } else {
            ScriptKind::Shebang { flags: Vec::new() }
        };
        return Ok((
            kind,
            at,
            None,
            Some(refusal(
                false,
                format!(
                    "the shebang `{}` is no words the servers can split (a quote left open or \
                     followed by more than a space), or has no line end: {reason}",
                    quoted(line.as_bytes())
                ),
                "write the shebang as `#!lua` and its options, on a line of its own",
            )),
        ));
    };
    let engine_word = &words[0][2..];
    let lua = engine_word.eq_ignore_ascii_case(b"lua");
    let engine =
        (lua && engine_word != b"lua").then(|| String::from_utf8_lossy(engine_word).into_owned());
    // `#! lua`: the engine split from `#!`, which the servers read as no engine
    let spaced =
        engine_word.is_empty() && words.get(1).is_some_and(|w| w.eq_ignore_ascii_case(b"lua"));
    if library {
        // FUNCTION LOAD: every option `name=` (any case), once
        let mut name = None;
        let mut refused = None;
        for word in &words[1..] {
            if word.len() >= 5 && word[..5].eq_ignore_ascii_case(b"name=") {
                if name.is_some() {
                    refused = Some(refusal(
                        false,
                        "the library's shebang gives `name=` twice: FUNCTION LOAD refuses it \
                         (\"Invalid metadata value, name argument was given multiple times\")"
                            .to_owned(),
                        "give the library one `name=`",
                    ));
                    break;
                }
                name = Some(String::from_utf8_lossy(&word[5..]).into_owned());
                continue;
            }
            let flags = word.starts_with(b"flags=");
            refused = Some(refusal(
                spaced,
                format!(
                    "the library's shebang has `{}`, which FUNCTION LOAD does not take (\"Invalid \
                     metadata value given: {}\"): a library's shebang takes `name=` alone",
                    quoted(word),
                    quoted(word)
                ),
                if spaced {
                    "write `#!lua` without a space"
                } else if flags {
                    "give each function its flags in `redis.register_function{..., flags={'no-writes'}}`, \
                     not in the shebang"
                } else {
                    "keep `#!lua name=NAME` alone on the first line"
                },
            ));
            break;
        }
        if refused.is_none() && !lua {
            return Err(unknown_engine());
        }
        let kind = ScriptKind::Library {
            name: name.unwrap_or_default(),
            functions: Vec::new(),
        };
        return Ok((kind, at, engine, refused));
    }
    // EVAL: Redis 7.0 and Valkey 8 take the first word `#!lua` alone, then options
    // `flags=`; Valkey 9 reads the options first, then the engine in any case
    let mut flags = Vec::new();
    let mut refused = None;
    for word in &words[1..] {
        if let Some(list) = word.strip_prefix(b"flags=") {
            // as the server splits them: `flags=` is none, an empty one between commas is
            // a flag (which it refuses)
            if !list.is_empty() {
                flags.extend(
                    list.split(|&b| b == b',')
                        .map(|f| String::from_utf8_lossy(f).into_owned()),
                );
            }
        } else if refused.is_none() {
            refused = Some(refusal(
                spaced,
                if spaced {
                    format!(
                        "the shebang `{}` has a space after `#!`: Redis 7.0 and Valkey 8 refuse \
                         it (\"Unexpected engine in script shebang: #!\"), Valkey 9 too \
                         (\"Unknown lua shebang option: lua\")",
                        quoted(line.as_bytes())
                    )
                } else {
                    format!(
                        "the shebang has `{}`, which EVAL does not take: the servers refuse it \
                         (\"Unknown lua shebang option: {}\")",
                        quoted(word),
                        quoted(word)
                    )
                },
                if spaced {
                    "write `#!lua` without a space"
                } else {
                    "give EVAL's shebang `flags=` alone (`#!lua flags=no-writes`)"
                },
            ));
        }
    }
    if refused.is_none() && !lua {
        return Err(unknown_engine());
    }
    Ok((ScriptKind::Shebang { flags }, at, engine, refused))
}

/// Parses one file, after the nesting bound (on [`read`]'s thread with a large stack: the
/// parser, the visitors and the tree's drop all recurse).
pub(super) fn parse(file: &Path, text: String) -> Result<ast::Ast, Error> {
    let depth = nesting(&text, MAX_NESTING * LEVEL).map_err(|at| {
        let line = text.as_bytes()[..at]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
            + 1;
        let column = text[..at].chars().rev().take_while(|&c| c != '\n').count() + 1;
        Error::Parse {
            file: crate::shown(file),
            line,
            column,
            message: "unexpected symbol '`'".to_owned(),
        }
    })?;
    if depth > MAX_NESTING * LEVEL {
        return Err(Error::TooDeep {
            file: crate::shown(file),
            max: MAX_NESTING,
        });
    }
    let parsed = parse_guarded(&text);
    parsed.map_err(|(line, column, message)| Error::Parse {
        file: crate::shown(file),
        line,
        column,
        message: slotgen::text::escape(message.as_bytes()),
    })
}

thread_local! {
    /// Whether this thread is inside [`parse_guarded`]: its panic, if any, is caught and said
    /// as a parse error, so the panic hook stays quiet.
    static IN_PARSER: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// `full_moon::parse`, with a panic of the parser turned into a parse error. full_moon 3.0.0's
/// lexer reaches `unreachable!` on some texts that are not Lua 5.1 (a backtick it reads
/// outside a string, as after a malformed number: `return 2e('`')`); [`nesting`] refuses
/// the plain case first, with its place, and this catches the rest (found by the fuzz
/// target `lint`), pointing at the first backtick when there is one.
pub(super) fn parse_guarded(text: &str) -> Result<ast::Ast, (usize, usize, String)> {
    static QUIET_HOOK: std::sync::Once = std::sync::Once::new();
    QUIET_HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !IN_PARSER.with(std::cell::Cell::get) {
                previous(info);
            }
        }));
    });
    IN_PARSER.with(|inside| inside.set(true));
    let result = std::panic::catch_unwind(|| full_moon::parse(text));
    IN_PARSER.with(|inside| inside.set(false));
    let Ok(parsed) = result else {
        let at = text.find('`').unwrap_or(0);
        let line = text[..at].matches('\n').count() + 1;
        let column = text[..at].chars().rev().take_while(|&c| c != '\n').count() + 1;
        return Err((line, column, "unexpected symbol '`'".to_owned()));
    };
    parsed.map_err(|errors| {
        errors
            .first()
            .map(|e| {
                let (start, _) = e.range();
                (
                    start.line(),
                    start.character(),
                    e.error_message().into_owned(),
                )
            })
            .unwrap_or((0, 0, "no syntax tree".to_owned()))
    })
}

/// An upper bound of the parser's recursion over `text`, in chain steps: brackets, blocks
/// (`function`, `do`, `then`, `repeat` to `end`/`until`) and runs of unary operators (`not`,
/// `-`, `#`) each weigh [`LEVEL`]; each `..` or `^` of a chain (right-associative, a level of
/// recursion each) weighs 1 and counts until the expression ends. Strings and comments are
/// skipped. Never below the real depth. The scan stops at the first byte where the depth
/// passes `limit`, and gives the depth there (so a text nested too deep is refused in time
/// linear in the bytes before that point, as the servers' parser refuses it where it gets
/// there, whatever follows). `Err(byte)` at a backtick outside strings and comments before
/// that point.
pub(super) fn nesting(text: &str, limit: usize) -> Result<usize, usize> {
    let b = text.as_bytes();
    let (mut depth, mut max, mut unary) = (0usize, 0usize, 0usize);
    // The chain of `..`/`^` at this bracket level, those of the outer levels, and their sum
    // (kept as they are pushed and popped: summed again at each byte, the scan was
    // quadratic in the depth).
    let (mut chain, mut outer, mut outer_sum) = (0usize, Vec::<usize>::new(), 0usize);
    let load = |depth: usize, unary: usize, chain: usize, outer_sum: usize| {
        (depth + unary) * LEVEL + chain + outer_sum
    };
    // Whether the last token ends an operand (so a `-` after it is binary).
    let mut operand = false;
    let mut i = 0;
    // The `]=*]` closing a long bracket opened at `at` (`[[`, `[==[`), and its end.
    let long_close = |at: usize| -> Option<usize> {
        let mut j = at + 1;
        while b.get(j) == Some(&b'=') {
            j += 1;
        }
        if b.get(j) != Some(&b'[') {
            return None;
        }
        let level = j - at - 1;
        let mut close = Vec::with_capacity(level + 2);
        close.push(b']');
        close.extend(std::iter::repeat_n(b'=', level));
        close.push(b']');
        let from = j + 1;
        Some(
            b[from..]
                .windows(close.len())
                .position(|w| w == close.as_slice())
                .map_or(b.len(), |p| from + p + close.len()),
        )
    };
    while i < b.len() {
        let c = b[i];
        if c == b'-' && b.get(i + 1) == Some(&b'-') {
            i = match (b.get(i + 2) == Some(&b'['))
                .then(|| long_close(i + 2))
                .flatten()
            {
                Some(end) => end,
                None => b[i..]
                    .iter()
                    .position(|&c| c == b'\n')
                    .map_or(b.len(), |p| i + p),
            };
            continue;
        }
        if c == b'[' {
            if let Some(end) = long_close(i) {
                i = end;
                operand = true;
                unary = 0;
                continue;
            }
        }
        if c == b'"' || c == b'\'' {
            let mut j = i + 1;
            while j < b.len() && b[j] != c && b[j] != b'\n' {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            i = j + 1;
            operand = true;
            unary = 0;
            continue;
        }
        if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            match &b[start..i] {
                b"function" | b"do" | b"then" | b"repeat" => {
                    depth += 1;
                    operand = false;
                    chain = 0;
                }
                b"elseif" => {
                    depth = depth.saturating_sub(1);
                    operand = false;
                }
                b"end" | b"until" => {
                    depth = depth.saturating_sub(1);
                    operand = true;
                }
                b"not" => {
                    unary += 1;
                    operand = false;
                }
                b"local" | b"return" | b"else" | b"if" | b"while" | b"for" => {
                    operand = false;
                    chain = 0;
                }
                b"and" | b"or" | b"in" => operand = false,
                _ => {
                    operand = true;
                    unary = 0;
                }
            }
            max = max.max(load(depth, unary, chain, outer_sum));
            if max > limit {
                return Ok(max);
            }
            continue;
        }
        match c {
            b'(' | b'{' | b'[' => {
                depth += 1;
                operand = false;
                outer.push(chain);
                outer_sum += chain;
                chain = 0;
            }
            b')' | b'}' | b']' => {
                depth = depth.saturating_sub(1);
                operand = true;
                unary = 0;
                chain = outer.pop().unwrap_or(0);
                outer_sum -= chain;
            }
            b'.' if b.get(i + 1) == Some(&b'.') && b.get(i + 2) != Some(&b'.') => {
                chain += 1;
                operand = false;
                i += 1;
            }
            b'^' => {
                chain += 1;
                operand = false;
            }
            // full_moon 3.0.0's lexer panics on a backtick outside a string (its `read_string`
            // reaches `unreachable!` without the `cfxlua` feature); Lua 5.1 has none.
            b'`' => return Err(i),
            b'=' | b',' | b';' if b.get(i + 1) != Some(&b'=') => {
                operand = false;
                chain = 0;
            }
            b'-' | b'#' if !operand => unary += 1,
            b'0'..=b'9' => {
                operand = true;
                unary = 0;
            }
            c if c.is_ascii_whitespace() => {}
            _ => operand = false,
        }
        max = max.max(load(depth, unary, chain, outer_sum));
        if max > limit {
            return Ok(max);
        }
        i += 1;
    }
    Ok(max)
}

/// The weight of a bracket, block or unary level in [`nesting`]'s chain steps.
pub(super) const LEVEL: usize = 25;

#[cfg(test)]
mod tests {
    use std::path::Path;

    use crate::{Error, MAX_NESTING};

    /// What [`crate::lua::read`] says of `source`, as the CLI prints it.
    fn refusal(source: &str) -> String {
        match crate::lua::read(Path::new("d.lua"), source) {
            Ok(_) => panic!("read: {}", &source[..source.len().min(40)]),
            Err(e) => e.to_string(),
        }
    }

    fn too_deep(source: &str) {
        match crate::lua::read(Path::new("d.lua"), source) {
            Err(e @ Error::TooDeep { max, .. }) => {
                assert_eq!(max, MAX_NESTING);
                assert!(
                    e.to_string()
                        .contains("nests deeper than 200 levels (brackets, blocks"),
                    "{e}"
                );
            }
            other => panic!(
                "{}...: {:?}",
                &source[..source.len().min(40)],
                other.map(|_| "read")
            ),
        }
    }

    #[test]
    fn a_text_nested_past_the_bound_is_refused_where_it_passes_it() {
        // the texts of break16's F13 (each within the size bound), refused as nested too deep
        let texts = [
            format!("x={}", "(".repeat(262_000)),
            format!("x={}", "{".repeat(262_000)),
            format!("x={}{}", "{".repeat(100_000), "}".repeat(100_000)),
            format!("return {}1", "not ".repeat(50_000)),
        ];
        for text in &texts {
            assert!(text.len() <= crate::MAX_SOURCE_BYTES);
            too_deep(text);
            // the scan stops where the depth passes the bound: a backtick after that point,
            // which the scan refuses where it reads one, is never read (as the servers'
            // parser refuses the script at its 200th level, whatever follows)
            too_deep(&format!("{text}`"));
            let middle = text.len() / 2;
            too_deep(&format!("{}`{}", &text[..middle], &text[middle..]));
        }
        // and a backtick before that point is what the scan reads first
        let early = format!("x={}`{}", "(".repeat(10), "(".repeat(262_000));
        assert!(
            refusal(&early).contains(":1:13: not Lua 5.1: unexpected symbol '`'"),
            "{}",
            refusal(&early)
        );
    }

    #[test]
    fn the_bound_is_where_it_was() {
        // brackets: `MAX_NESTING` are read, one more is refused, with the scan stopping early
        let nested = |n: usize| format!("x={}1{}", "(".repeat(n), ")".repeat(n));
        assert!(crate::lua::read(Path::new("d.lua"), &nested(MAX_NESTING)).is_ok());
        too_deep(&nested(MAX_NESTING + 1));
        // a chain of concatenations: 25 of them weigh one bracket
        let chain = |n: usize| format!("return {}", vec!["a"; n + 1].join(" .. "));
        assert!(crate::lua::read(Path::new("d.lua"), &chain(MAX_NESTING * 25)).is_ok());
        too_deep(&chain(MAX_NESTING * 25 + 1));
    }
}
