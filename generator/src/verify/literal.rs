//! The string literals of a C or Lua source, read as the language reads them: for a file that
//! holds a tag table as an array of strings.

use crate::Error;

/// The language of a source file whose string literals are a tag table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Language {
    /// C (and C++): `"..."` literals with C escapes (octal `\ooo`, `\xhh`) and line splices,
    /// raw strings `R"delim(...)delim"` (also `u8R`, `uR`, `UR`, `LR`), adjacent literals
    /// concatenated; `'...'` character constants, `//` comments (continued by a `\` at the
    /// end of the line) and `/* */` comments and preprocessor lines (`#include "x.h"`)
    /// skipped.
    C,
    /// Lua: `"..."` and `'...'` literals with Lua escapes (decimal `\ddd`, `\xhh`, `\z`,
    /// `\u{XXX}`), and long strings `[[...]]`, `[==[...]==]` as Lua reads them (no escapes,
    /// a newline right after the opening skipped); `--` and `--[[ ]]` comments skipped, and
    /// a long comment or string never closed is an error.
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
/// use slotgen::verify::{tags_from_source, Language};
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
        pending: None,
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
            if let Some(e) = scanner.pending.take() {
                return Err(e);
            }
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
            (Language::Lua, b'[') => match scanner.long_bracket() {
                Some(level) => tags.push(scanner.long_string(level, "string")?),
                None => scanner.at += 1,
            },
            (Language::C, b'A'..=b'Z' | b'a'..=b'z' | b'_') => {
                let start = scanner.at;
                while scanner
                    .text
                    .get(scanner.at)
                    .is_some_and(|&c| c.is_ascii_alphanumeric() || c == b'_')
                {
                    scanner.at += 1;
                }
                let raw = matches!(
                    &text[start..scanner.at],
                    b"R" | b"u8R" | b"uR" | b"UR" | b"LR"
                );
                if raw && text.get(scanner.at) == Some(&b'"') {
                    let literal = scanner.raw_string()?;
                    match tags.last_mut() {
                        Some(last) if after_literal => last.extend(literal),
                        _ => tags.push(literal),
                    }
                    after_literal = true;
                } else {
                    after_literal = false;
                }
            }
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
    /// An error found while skipping a comment, returned by the main loop.
    pending: Option<Error>,
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
                // a `\` ending the line splices the next one into the comment (the line
                // splices of translation phase 2 come before comments)
                loop {
                    self.skip_line();
                    let line = &self.text[..self.at];
                    let line = line.strip_suffix(b"\r").unwrap_or(line);
                    if !line.ends_with(b"\\") || self.at >= self.text.len() {
                        break;
                    }
                    self.at += 1;
                    self.line += 1;
                }
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
                        // an error when never closed, as Lua's "unfinished long comment"
                        if let Err(e) = self.long_string(level, "comment") {
                            self.pending = Some(e);
                        }
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

    /// Reads a Lua long string (or comment) whose opening bracket of `level` was consumed,
    /// as Lua does: a newline right after the opening is skipped, each newline sequence
    /// (`\n`, `\r`, `\r\n`, `\n\r`) is one `\n`, and nothing is an escape.
    fn long_string(&mut self, level: usize, what: &str) -> Result<Vec<u8>, Error> {
        let opened_on = self.line;
        let close = [b"]".as_slice(), &b"=".repeat(level), b"]"].concat();
        let mut bytes = Vec::new();
        let mut first = true;
        loop {
            if self.rest().starts_with(&close) {
                self.at += close.len();
                return Ok(bytes);
            }
            let Some(&b) = self.text.get(self.at) else {
                return Err(Error::SourceLiteral {
                    line: opened_on,
                    reason: format!(
                        "a long {what} opened with `[{}[` is never closed: close it with `{}`",
                        "=".repeat(level),
                        String::from_utf8_lossy(&close)
                    ),
                });
            };
            self.at += 1;
            if b == b'\n' || b == b'\r' {
                let other = if b == b'\n' { b'\r' } else { b'\n' };
                if self.text.get(self.at) == Some(&other) {
                    self.at += 1;
                }
                self.line += 1;
                if !first {
                    bytes.push(b'\n');
                }
            } else {
                bytes.push(b);
            }
            first = false;
        }
    }

    /// Reads a C++ raw string `R"delim(...)delim"` whose prefix was consumed: nothing in it is
    /// an escape, and it may span lines.
    fn raw_string(&mut self) -> Result<Vec<u8>, Error> {
        let opened_on = self.line;
        self.at += 1; // the `"`
        let rest = self.rest();
        let open = rest.iter().take(17).position(|&c| c == b'(');
        let delimiter = match open {
            Some(n) if rest[..n]
                .iter()
                .all(|&c| c.is_ascii_graphic() && !b"()\\\"".contains(&c)) => rest[..n].to_vec(),
            _ => {
                return Err(self.error(
                    "a raw string's delimiter is up to 16 characters before `(`, without spaces, parentheses or backslashes".to_owned(),
                ))
            }
        };
        self.at += delimiter.len() + 1;
        let close = [b")".as_slice(), &delimiter, b"\""].concat();
        let Some(end) = self
            .rest()
            .windows(close.len())
            .position(|w| w == close.as_slice())
        else {
            return Err(Error::SourceLiteral {
                line: opened_on,
                reason: format!(
                    "a raw string is never closed: close it with `{}`",
                    String::from_utf8_lossy(&close)
                ),
            });
        };
        let bytes = self.rest()[..end].to_vec();
        self.line += bytes.iter().filter(|&&c| c == b'\n').count();
        self.at += end + close.len();
        Ok(bytes)
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
                    crate::text::escape(&[b]),
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
}
