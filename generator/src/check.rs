//! Checks of tables that slotgen did not make in this process: a derivation read back from
//! its JSON form ([`check_json`]), and a per-slot tag table made by any tool
//! ([`check_tags`], with [`tags_from_lines`] and [`tags_from_source`] to read one).
//!
//! A JSON derivation is trusted for nothing but the spec it names: the CRC (catalogue name,
//! or the parameters of a `custom` one), the alphabet (`alphabet_hex`), the tag length and
//! the slot count. Everything else is derived again and compared value by value, so that an
//! edited constant is named (`inverse[2]`: expected `"0x9007"`, found `"0x9008"`); then the
//! re-derivation is verified exhaustively with [`verify`](crate::verify()).

use crc::Algorithm;
use serde::Deserialize;
use serde_json::Value;
use slotgen_tables::{hashtag, Crc16};

use crate::{catalog, derive, emit, verify, Derivation, Error, Report, Spec};

/// Entries listed in a [`TagReport`] or a [`JsonReport`]; the counts cover all of them.
pub const MAX_LISTED: usize = 20;

/// JSON fields that describe the file rather than the table, and are not compared.
const NOT_COMPARED: &[&str] = &["generator", "verification"];

/// The fields of a JSON derivation that name its spec.
#[derive(Debug, Deserialize)]
struct Header {
    format: String,
    crc: CrcHeader,
    slots: u32,
    alphabet_hex: String,
    tag_len: usize,
}

#[derive(Debug, Deserialize)]
struct CrcHeader {
    name: String,
    width: u8,
    poly: u16,
    init: u16,
    refin: bool,
    refout: bool,
    xorout: u16,
}

/// One value of a JSON derivation that differs from the re-derivation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// Where: the field and index, such as `inverse[2]` or `crc.poly`.
    pub path: String,
    /// The re-derivation's value, as JSON text (`"0x9007"`, `13881`); `(absent)` when the
    /// re-derivation has no such field.
    pub expected: String,
    /// The file's value, as JSON text; `(absent)` when the file lacks the field.
    pub found: String,
}

impl std::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "`{}`: expected {}, found {}",
            self.path, self.expected, self.found
        )
    }
}

/// The outcome of [`check_json`].
#[derive(Clone, Debug)]
pub struct JsonReport {
    /// The re-derivation of the spec the file names.
    pub derivation: Derivation,
    /// How many values (numbers, strings, booleans, array entries) were compared.
    pub values_compared: u64,
    /// How many of them differ from the re-derivation.
    pub mismatch_count: u64,
    /// The first [`MAX_LISTED`] mismatches, in file order.
    pub mismatches: Vec<Mismatch>,
    /// The exhaustive verification of the re-derivation; `None` when a value differed, since
    /// the file's table is then not the verified one.
    pub verification: Option<Report>,
}

impl JsonReport {
    /// Whether every value matched and the exhaustive verification passed.
    #[must_use]
    pub fn passed(&self) -> bool {
        self.mismatch_count == 0 && self.verification.as_ref().is_some_and(Report::passed)
    }
}

/// Checks a derivation in its JSON form (schema `slotgen-derivation/1`, written by
/// [`emit::json::to_value`]): rebuilds the spec it names, derives it again, compares every
/// value of the file with the re-derivation's, and, when all match, verifies the
/// re-derivation over every slot and every alternative tag.
///
/// The `generator` and `verification` fields are not compared. Values compare as JSON, so
/// masks must be written as the emitter writes them (`"0x88d4"`, lowercase).
///
/// # Errors
///
/// - [`Error::TableJson`]: the text is not JSON, is truncated, or lacks a field that names
///   the spec.
/// - [`Error::TableFormat`]: `format` is not [`emit::json::FORMAT`].
/// - [`Error::TableSpec`]: `alphabet_hex` is not hex.
/// - [`Error::UnsupportedWidth`]: `crc.width` is not 16.
/// - [`Error::UnknownCrc`]: `crc.name` is neither a catalogue name nor `custom`.
/// - Every error of [`derive()`] for the spec the file names.
///
/// # Examples
///
/// ```
/// let d = slotgen::derive(&slotgen::Spec::default())?;
/// let mut value = slotgen::emit::json::to_value(&d, None);
/// let report = slotgen::check::check_json(&value.to_string())?;
/// assert!(report.passed());
///
/// value["inverse"][2] = "0x9008".into(); // the seed's constant is 0x9007
/// let report = slotgen::check::check_json(&value.to_string())?;
/// assert!(!report.passed());
/// assert_eq!(report.mismatches[0].to_string(), r#"`inverse[2]`: expected "0x9007", found "0x9008""#);
/// # Ok::<(), slotgen::Error>(())
/// ```
pub fn check_json(text: &str) -> Result<JsonReport, Error> {
    let found: Value = serde_json::from_str(text).map_err(|e| Error::TableJson {
        message: e.to_string(),
    })?;
    let format = found.get("format").and_then(Value::as_str);
    if format != Some(emit::json::FORMAT) {
        return Err(Error::TableFormat {
            found: format.map_or_else(|| "(none)".to_owned(), str::to_owned),
        });
    }
    let header: Header = serde_json::from_value(found.clone()).map_err(|e| Error::TableJson {
        message: e.to_string(),
    })?;
    let derivation = derive(&spec_of(&header)?)?;
    let expected = emit::json::to_value(&derivation, None);
    let mut walk = Walk::default();
    walk.compare("", &expected, &found);
    let verification = (walk.mismatch_count == 0).then(|| verify(&derivation));
    Ok(JsonReport {
        derivation,
        values_compared: walk.values_compared,
        mismatch_count: walk.mismatch_count,
        mismatches: walk.mismatches,
        verification,
    })
}

/// The spec a JSON derivation names.
fn spec_of(header: &Header) -> Result<Spec, Error> {
    debug_assert_eq!(header.format, emit::json::FORMAT);
    let c = &header.crc;
    if c.width != 16 {
        return Err(Error::UnsupportedWidth { width: c.width });
    }
    let crc: Algorithm<u16> = if c.name == "custom" {
        catalog::custom(c.poly, c.init, c.refin, c.refout, c.xorout)
    } else {
        *catalog::find(&c.name)?.algorithm
    };
    let alphabet = hex::decode(&header.alphabet_hex).map_err(|e| Error::TableSpec {
        field: "alphabet_hex",
        reason: e.to_string(),
    })?;
    Ok(Spec {
        crc,
        alphabet,
        tag_len: Some(header.tag_len),
        slots: header.slots,
    })
}

/// A comparison of two JSON values, collecting mismatches.
#[derive(Default)]
struct Walk {
    values_compared: u64,
    mismatch_count: u64,
    mismatches: Vec<Mismatch>,
}

impl Walk {
    fn differ(&mut self, path: &str, expected: Option<&Value>, found: Option<&Value>) {
        let show = |v: Option<&Value>| v.map_or_else(|| "(absent)".to_owned(), Value::to_string);
        if expected.is_none() || found.is_none() {
            // a value on one side only is compared too, with nothing
            self.values_compared += 1;
        }
        self.mismatch_count += 1;
        if self.mismatches.len() < MAX_LISTED {
            self.mismatches.push(Mismatch {
                path: path.to_owned(),
                expected: show(expected),
                found: show(found),
            });
        }
    }

    fn compare(&mut self, path: &str, expected: &Value, found: &Value) {
        let join = |key: &str| {
            if path.is_empty() {
                key.to_owned()
            } else {
                format!("{path}.{key}")
            }
        };
        match (expected, found) {
            (Value::Object(e), Value::Object(f)) => {
                for (key, value) in e {
                    match f.get(key) {
                        Some(other) => self.compare(&join(key), value, other),
                        None => self.differ(&join(key), Some(value), None),
                    }
                }
                for (key, value) in f {
                    let ignored = path.is_empty() && NOT_COMPARED.contains(&key.as_str());
                    if !ignored && !e.contains_key(key) {
                        self.differ(&join(key), None, Some(value));
                    }
                }
            }
            (Value::Array(e), Value::Array(f)) => {
                for (i, (a, b)) in e.iter().zip(f).enumerate() {
                    self.compare(&format!("{path}[{i}]"), a, b);
                }
                for (i, a) in e.iter().enumerate().skip(f.len()) {
                    self.differ(&format!("{path}[{i}]"), Some(a), None);
                }
                for (i, b) in f.iter().enumerate().skip(e.len()) {
                    self.differ(&format!("{path}[{i}]"), None, Some(b));
                }
            }
            _ => {
                self.values_compared += 1;
                if expected != found {
                    self.differ(path, Some(expected), Some(found));
                }
            }
        }
    }
}

/// One entry of a tag table that does not land on its slot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Misplaced {
    /// The entry's slot: its position in the table.
    pub slot: u32,
    /// The entry's tag.
    pub tag: Vec<u8>,
    /// The slot the key `{tag}` lands on.
    pub lands_on: u16,
}

/// The outcome of [`check_tags`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TagReport {
    /// Entries checked: those with a slot, at most the slot count.
    pub entries_checked: u64,
    /// How many of them land on another slot.
    pub misplaced_count: u64,
    /// The first [`MAX_LISTED`] of them, in slot order.
    pub misplaced: Vec<Misplaced>,
    /// Slots past the last entry, which have none: `slots - entries` when positive.
    pub missing: u64,
    /// Entries past the last slot: `entries - slots` when positive.
    pub extra: u64,
}

impl TagReport {
    /// Whether every slot has exactly one entry and every entry lands on its slot.
    #[must_use]
    pub fn passed(&self) -> bool {
        self.misplaced_count == 0 && self.missing == 0 && self.extra == 0
    }
}

/// Checks a per-slot tag table: entry `i` is a tag for slot `i`, so the key `{tag}` must land
/// on slot `i` (its hashtag, by the runtime's [`hashtag`], is the tag; an empty tag or one
/// with a brace makes a different hashtag and lands elsewhere). The slot is the runtime's
/// [`Crc16`] of the hashtag, masked to `slots` (a power of two).
///
/// # Examples
///
/// ```
/// let tags = [b"DLH@".to_vec(), b"@A@H".to_vec(), b"x".to_vec()];
/// let report = slotgen::check::check_tags(&tags, &crc::CRC_16_XMODEM, 16384);
/// assert_eq!(report.entries_checked, 3);
/// assert_eq!(report.misplaced_count, 1); // "x" is no tag for slot 2
/// assert_eq!(report.misplaced[0].lands_on, 16287); // CLUSTER KEYSLOT x
/// assert_eq!(report.missing, 16381);
/// ```
#[must_use]
pub fn check_tags(tags: &[Vec<u8>], crc: &Algorithm<u16>, slots: u32) -> TagReport {
    let crc = Crc16::new(crc);
    let mask = slots.wrapping_sub(1) as u16;
    let mut report = TagReport::default();
    let mut key = Vec::new();
    for (slot, tag) in (0..slots).zip(tags) {
        report.entries_checked += 1;
        key.clear();
        key.push(b'{');
        key.extend_from_slice(tag);
        key.push(b'}');
        let lands_on = crc.checksum(hashtag(&key)) & mask;
        if u32::from(lands_on) != slot {
            report.misplaced_count += 1;
            if report.misplaced.len() < MAX_LISTED {
                report.misplaced.push(Misplaced {
                    slot,
                    tag: tag.clone(),
                    lands_on,
                });
            }
        }
    }
    let entries = tags.len() as u64;
    report.missing = u64::from(slots).saturating_sub(entries);
    report.extra = entries.saturating_sub(u64::from(slots));
    report
}

/// The tags of a plain tag table: one per line, in slot order. A line ends at `\n`; a `\r`
/// before it is not part of the tag; a final line feed does not start another entry.
///
/// # Examples
///
/// ```
/// let tags = slotgen::check::tags_from_lines(b"DLH@\r\nO@H@\n");
/// assert_eq!(tags, [b"DLH@".to_vec(), b"O@H@".to_vec()]);
/// ```
#[must_use]
pub fn tags_from_lines(text: &[u8]) -> Vec<Vec<u8>> {
    let text = text.strip_suffix(b"\n").unwrap_or(text);
    if text.is_empty() {
        return Vec::new();
    }
    text.split(|&b| b == b'\n')
        .map(|line| line.strip_suffix(b"\r").unwrap_or(line).to_vec())
        .collect()
}

/// The language of a source file whose string literals are a tag table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Language {
    /// C (and C++): `"..."` literals with C escapes (octal `\ooo`, `\xhh`), adjacent literals
    /// concatenated; `'...'` character constants, `//` and `/* */` comments and preprocessor
    /// lines (`#include "x.h"`) skipped.
    C,
    /// Lua: `"..."` and `'...'` literals with Lua escapes (decimal `\ddd`, `\xhh`, `\z`,
    /// `\u{XXX}`); `--` and `--[[ ]]` comments skipped. Long strings `[[...]]` are not read.
    Lua,
}

/// The quoted string literals of a C or Lua source, in order: for a file that holds a tag
/// table as an array of strings (for instance the shortest-alphanumeric table that
/// redis-benchmark is built with), the tags in slot order.
///
/// # Errors
///
/// [`Error::SourceLiteral`] for a literal left open at the end of its line or of the file, or
/// an escape the language does not have, with its line number.
///
/// # Examples
///
/// ```
/// use slotgen::check::{tags_from_source, Language};
///
/// let c = br#"#include "x.h"
/// /* slot 0, 1 */ const char *table[] = {"DLH@", "O@H" "@"};"#;
/// assert_eq!(tags_from_source(c, Language::C)?, [b"DLH@".to_vec(), b"O@H@".to_vec()]);
///
/// let lua = br#"return { 'DLH@', "O@H\64" } -- "not a tag""#;
/// assert_eq!(tags_from_source(lua, Language::Lua)?, [b"DLH@".to_vec(), b"O@H@".to_vec()]);
/// # Ok::<(), slotgen::Error>(())
/// ```
pub fn tags_from_source(text: &[u8], language: Language) -> Result<Vec<Vec<u8>>, Error> {
    let mut scanner = Scanner {
        text,
        at: 0,
        line: 1,
        language,
    };
    let mut tags: Vec<Vec<u8>> = Vec::new();
    // C concatenates adjacent literals: true while only blanks and comments follow one.
    let mut after_literal = false;
    let mut line_start = true;
    while let Some(&b) = text.get(scanner.at) {
        match b {
            b'\n' => {
                scanner.line += 1;
                scanner.at += 1;
                line_start = true;
                continue;
            }
            b' ' | b'\t' | b'\r' | b'\x0c' | b'\x0b' => {
                scanner.at += 1;
                continue;
            }
            _ => {}
        }
        if scanner.skip_comment() {
            continue;
        }
        match (language, b) {
            (Language::C, b'#') if line_start => scanner.skip_directive(),
            (Language::C, b'\'') => {
                scanner.literal(b'\'')?;
                after_literal = false;
            }
            (Language::C, b'"') => {
                let literal = scanner.literal(b'"')?;
                match tags.last_mut() {
                    Some(last) if after_literal => last.extend(literal),
                    _ => tags.push(literal),
                }
                after_literal = true;
            }
            (Language::Lua, b'"' | b'\'') => tags.push(scanner.literal(b)?),
            _ => {
                scanner.at += 1;
                after_literal = false;
            }
        }
        line_start = false;
    }
    Ok(tags)
}

struct Scanner<'t> {
    text: &'t [u8],
    at: usize,
    line: usize,
    language: Language,
}

impl Scanner<'_> {
    fn rest(&self) -> &[u8] {
        &self.text[self.at..]
    }

    /// Skips up to and including `end`, or to the end of the text, counting lines.
    fn skip_past(&mut self, end: &[u8]) {
        while self.at < self.text.len() && !self.rest().starts_with(end) {
            if self.text[self.at] == b'\n' {
                self.line += 1;
            }
            self.at += 1;
        }
        self.at = (self.at + end.len()).min(self.text.len());
    }

    /// Skips a comment starting here, if one does.
    fn skip_comment(&mut self) -> bool {
        match self.language {
            Language::C if self.rest().starts_with(b"//") => {
                self.skip_line();
                true
            }
            Language::C if self.rest().starts_with(b"/*") => {
                self.at += 2;
                self.skip_past(b"*/");
                true
            }
            Language::Lua if self.rest().starts_with(b"--") => {
                self.at += 2;
                match self.long_bracket() {
                    Some(level) => {
                        let close = [b"]".as_slice(), &b"=".repeat(level), b"]"].concat();
                        self.skip_past(&close);
                    }
                    None => self.skip_line(),
                }
                true
            }
            _ => false,
        }
    }

    /// The level of a Lua long bracket `[==[` opening here, consumed, if one does.
    fn long_bracket(&mut self) -> Option<usize> {
        let rest = self.rest();
        let level = rest.iter().skip(1).take_while(|&&b| b == b'=').count();
        (rest.first() == Some(&b'[') && rest.get(level + 1) == Some(&b'[')).then(|| {
            self.at += level + 2;
            level
        })
    }

    /// Skips to the end of the line, not past its line feed.
    fn skip_line(&mut self) {
        while self.at < self.text.len() && self.text[self.at] != b'\n' {
            self.at += 1;
        }
    }

    /// Skips a preprocessor directive, with its `\` continuation lines.
    fn skip_directive(&mut self) {
        loop {
            self.skip_line();
            let continued = self.text[..self.at].trim_ascii_end().ends_with(b"\\");
            if !continued || self.at >= self.text.len() {
                return;
            }
            self.at += 1;
            self.line += 1;
        }
    }

    fn error(&self, reason: String) -> Error {
        Error::SourceLiteral {
            line: self.line,
            reason,
        }
    }

    /// Reads the literal opening here with `quote`, escapes resolved.
    fn literal(&mut self, quote: u8) -> Result<Vec<u8>, Error> {
        self.at += 1;
        let mut bytes = Vec::new();
        loop {
            let Some(&b) = self.text.get(self.at) else {
                return Err(self.error(
                    "a string literal is left open at the end of the file: close it with its quote"
                        .to_owned(),
                ));
            };
            self.at += 1;
            match b {
                b'\n' => return Err(self.error(
                    "a string literal is left open at the end of its line: close it with its quote"
                        .to_owned(),
                )),
                b'\\' => self.escape(&mut bytes)?,
                _ if b == quote => return Ok(bytes),
                _ => bytes.push(b),
            }
        }
    }

    /// Reads the escape after a `\` into `out`.
    fn escape(&mut self, out: &mut Vec<u8>) -> Result<(), Error> {
        let Some(&b) = self.text.get(self.at) else {
            return Err(self.error("a `\\` ends the file: finish the escape".to_owned()));
        };
        self.at += 1;
        let simple = match b {
            b'a' => Some(0x07),
            b'b' => Some(0x08),
            b'f' => Some(0x0c),
            b'n' => Some(b'\n'),
            b'r' => Some(b'\r'),
            b't' => Some(b'\t'),
            b'v' => Some(0x0b),
            b'\\' | b'"' | b'\'' => Some(b),
            b'?' if self.language == Language::C => Some(b'?'),
            _ => None,
        };
        if let Some(byte) = simple {
            out.push(byte);
            return Ok(());
        }
        match (self.language, b) {
            (Language::C, b'0'..=b'7') => {
                let value = self.digits(b, 8, 3);
                out.push(u8::try_from(value).map_err(|_| self.out_of_range(value))?);
            }
            (Language::Lua, b'0'..=b'9') => {
                let value = self.digits(b, 10, 3);
                out.push(u8::try_from(value).map_err(|_| self.out_of_range(value))?);
            }
            (_, b'x') => {
                let max = if self.language == Language::C {
                    usize::MAX
                } else {
                    2
                };
                let start = self.at;
                let mut value: u32 = 0;
                while self.at - start < max {
                    match self
                        .text
                        .get(self.at)
                        .and_then(|&d| char::from(d).to_digit(16))
                    {
                        Some(d) => value = value.saturating_mul(16).saturating_add(d),
                        None => break,
                    }
                    self.at += 1;
                }
                if self.at == start || (self.language == Language::Lua && self.at - start != 2) {
                    return Err(
                        self.error("`\\x` needs hex digits (two in Lua), as in `\\x41`".to_owned())
                    );
                }
                out.push(u8::try_from(value).map_err(|_| self.out_of_range(value))?);
            }
            (Language::Lua, b'z') => {
                while let Some(&w) = self.text.get(self.at) {
                    if !w.is_ascii_whitespace() {
                        break;
                    }
                    self.line += usize::from(w == b'\n');
                    self.at += 1;
                }
            }
            (Language::C, b'\n') => self.line += 1, // a line splice
            (Language::Lua, b'\n') => {
                self.line += 1;
                out.push(b'\n');
            }
            (Language::Lua, b'u') => {
                let rest = self.rest();
                let close = rest.iter().position(|&c| c == b'}');
                let code = close
                    .filter(|_| rest.first() == Some(&b'{'))
                    .and_then(|end| std::str::from_utf8(&rest[1..end]).ok())
                    .and_then(|digits| u32::from_str_radix(digits, 16).ok())
                    .and_then(char::from_u32);
                let (Some(code), Some(end)) = (code, close) else {
                    return Err(self
                        .error("`\\u` needs a code point in braces, as in `\\u{41}`".to_owned()));
                };
                self.at += end + 1;
                out.extend_from_slice(code.encode_utf8(&mut [0; 4]).as_bytes());
            }
            _ => {
                return Err(self.error(format!(
                    "`\\{}` is not an escape of {:?}: write the byte itself or a `\\x` escape",
                    char::from(b).escape_default(),
                    self.language
                )))
            }
        }
        Ok(())
    }

    /// Reads up to `max` digits of `radix`, the first already consumed.
    fn digits(&mut self, first: u8, radix: u32, max: usize) -> u32 {
        let mut value = char::from(first).to_digit(radix).unwrap_or(0);
        let mut count = 1;
        while count < max {
            match self
                .text
                .get(self.at)
                .and_then(|&d| char::from(d).to_digit(radix))
            {
                Some(d) => value = value * radix + d,
                None => break,
            }
            self.at += 1;
            count += 1;
        }
        value
    }

    fn out_of_range(&self, value: u32) -> Error {
        self.error(format!(
            "escape value {value} does not fit a byte: use values up to 255"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn c_escapes_comments_and_directives() {
        let c = b"#define T(x) \"no\" \\\n  \"still no\"\n\
                  // \"no\"\n\
                  char c = '\"'; /* \"no\"\n \"no\" */\n\
                  const char *t[] = {\"a\\x41\\101\\n\", \"b\"\n  \"c\", \"\\\\\\\"\"};\n";
        assert_eq!(
            tags_from_source(c, Language::C).unwrap(),
            [b"aAA\n".to_vec(), b"bc".to_vec(), b"\\\"".to_vec()]
        );
    }

    #[test]
    fn lua_escapes_and_comments() {
        let lua = b"--[==[ \"no\" ]] \"no\" ]==]\nlocal t = {'a\\65\\x41', \"b\\z\n   c\", -- \"no\"\n \"\\u{41}\"}";
        assert_eq!(
            tags_from_source(lua, Language::Lua).unwrap(),
            [b"aAA".to_vec(), b"bc".to_vec(), b"A".to_vec()]
        );
    }

    #[test]
    fn bad_literals_name_their_line() {
        for (text, language, line) in [
            (b"\"a\",\n\"b".as_slice(), Language::C, 2),
            (b"\n\n\"a\nb\"", Language::C, 3),
            (b"'\\400'", Language::Lua, 1),
            (b"\"\\q\"", Language::C, 1),
            (b"x = '\\x4'", Language::Lua, 1),
        ] {
            match tags_from_source(text, language) {
                Err(Error::SourceLiteral { line: l, .. }) => assert_eq!(l, line),
                other => panic!("{other:?}"),
            }
        }
    }

    #[test]
    fn lines_keep_empty_entries_but_not_the_final_line_feed() {
        assert_eq!(tags_from_lines(b""), Vec::<Vec<u8>>::new());
        assert_eq!(
            tags_from_lines(b"a\n\nb"),
            [b"a".to_vec(), vec![], b"b".to_vec()]
        );
    }

    #[test]
    fn custom_crc_round_trips_through_json() {
        // poly 0x1021 with init 0x1234 is no catalogue CRC, so it is written as `custom`
        let spec = Spec {
            crc: catalog::custom(0x1021, 0x1234, false, false, 0x0000),
            ..Spec::default()
        };
        assert_eq!(spec.crc_name(), "custom");
        let derivation = derive(&spec).unwrap();
        let value = emit::json::to_value(&derivation, None);
        assert_eq!(value["crc"]["name"], "custom");
        let report = check_json(&value.to_string()).unwrap();
        assert!(report.passed(), "{:?}", report.mismatches);
        assert_eq!(report.verification.unwrap().slots_checked, 16384);
    }

    #[test]
    fn every_edited_value_is_named() {
        let derivation = derive(&Spec::default()).unwrap();
        let original = emit::json::to_value(&derivation, None);
        let report = check_json(&original.to_string()).unwrap();
        assert!(report.passed());
        // change each leaf in turn: every change is caught, and named by its path
        let mut leaves = Vec::new();
        collect_leaves("", &original, &mut leaves);
        assert_eq!(leaves.len() as u64, report.values_compared);
        for path in leaves {
            if [
                "format",
                "crc.name",
                "crc.width",
                "alphabet_hex",
                "slots",
                "tag_len",
            ]
            .contains(&path.as_str())
            {
                continue; // these name the spec: checked by the error tests
            }
            let mut edited = original.clone();
            let leaf = pointer_mut(&mut edited, &path);
            *leaf = match leaf.take() {
                Value::Number(n) => (n.as_u64().unwrap() ^ 1).into(),
                Value::Bool(b) => (!b).into(),
                Value::String(s) => format!("{s}0").into(),
                other => panic!("{path}: {other}"),
            };
            let report = check_json(&edited.to_string()).unwrap();
            assert!(!report.passed(), "{path}");
            assert!(report.verification.is_none(), "{path}");
            assert!(
                report.mismatches.iter().any(|m| m.path == path),
                "{path}: {:?}",
                report.mismatches
            );
        }
    }

    fn collect_leaves(path: &str, value: &Value, out: &mut Vec<String>) {
        match value {
            Value::Object(map) => {
                for (k, v) in map {
                    let p = if path.is_empty() {
                        k.clone()
                    } else {
                        format!("{path}.{k}")
                    };
                    collect_leaves(&p, v, out);
                }
            }
            Value::Array(items) => {
                for (i, v) in items.iter().enumerate() {
                    collect_leaves(&format!("{path}[{i}]"), v, out);
                }
            }
            _ => out.push(path.to_owned()),
        }
    }

    fn pointer_mut<'v>(value: &'v mut Value, path: &str) -> &'v mut Value {
        let pointer = format!("/{}", path.replace(['.', '['], "/").replace(']', ""));
        value.pointer_mut(&pointer).unwrap()
    }

    #[test]
    fn spec_errors() {
        let derivation = derive(&Spec::default()).unwrap();
        let original = emit::json::to_value(&derivation, None);
        let text = original.to_string();
        assert!(matches!(
            check_json(&text[..text.len() / 2]),
            Err(Error::TableJson { .. })
        ));
        let mut v = original.clone();
        v["format"] = "slotgen-derivation/9".into();
        assert!(matches!(
            check_json(&v.to_string()),
            Err(Error::TableFormat { .. })
        ));
        let mut v = original.clone();
        v["alphabet_hex"] = "4x".into();
        assert!(matches!(
            check_json(&v.to_string()),
            Err(Error::TableSpec { .. })
        ));
        let mut v = original.clone();
        v["crc"]["name"] = "CRC-16/XMODEN".into();
        assert!(matches!(
            check_json(&v.to_string()),
            Err(Error::UnknownCrc { .. })
        ));
        let mut v = original.clone();
        v.as_object_mut().unwrap().remove("tag_len");
        match check_json(&v.to_string()) {
            Err(Error::TableJson { message }) => assert!(message.contains("tag_len"), "{message}"),
            other => panic!("{other:?}"),
        }
        // a spec that names another catalogue CRC is derived for that CRC, and every
        // constant of the XMODEM table then differs
        let mut v = original;
        v["crc"]["name"] = "CRC-16/IBM-3740".into(); // XMODEM with init 0xffff
        let report = check_json(&v.to_string()).unwrap();
        assert!(report.mismatches.iter().any(|m| m.path == "crc.init"));
        assert!(report.mismatches.iter().any(|m| m.path == "base_slot"));
        assert!(!report.passed());
    }
}
