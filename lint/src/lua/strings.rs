//! Lua string literals as the server reads them.

use full_moon::tokenizer::{TokenReference, TokenType};

/// The value of a Lua string literal token, escapes read as Lua 5.1 reads them.
pub(super) fn string_value(token: &TokenReference) -> String {
    String::from_utf8_lossy(&string_bytes(token)).into_owned()
}

pub(super) fn string_bytes(token: &TokenReference) -> Vec<u8> {
    match token.token_type() {
        TokenType::StringLiteral {
            literal,
            multi_line_depth,
            ..
        } => {
            let raw = literal.as_str().as_bytes();
            if *multi_line_depth > 0 || token.token().to_string().starts_with('[') {
                let raw = raw
                    .strip_prefix(b"\r\n")
                    .or(raw.strip_prefix(b"\n"))
                    .unwrap_or(raw);
                return raw.to_vec();
            }
            unescape(raw)
        }
        _ => token.token().to_string().into_bytes(),
    }
}

/// Lua 5.1's escapes: `\n`, `\t`, `\\`, `\"`, `\'`, `\a\b\f\r\v`, `\ddd` and a backslash
/// before a line feed.
pub(super) fn unescape(raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(raw.len());
    let mut i = 0;
    while i < raw.len() {
        if raw[i] != b'\\' || i + 1 == raw.len() {
            out.push(raw[i]);
            i += 1;
            continue;
        }
        let c = raw[i + 1];
        i += 2;
        match c {
            b'n' => out.push(b'\n'),
            b't' => out.push(b'\t'),
            b'r' => out.push(b'\r'),
            b'a' => out.push(7),
            b'b' => out.push(8),
            b'f' => out.push(12),
            b'v' => out.push(11),
            b'0'..=b'9' => {
                let mut value = u32::from(c - b'0');
                let mut n = 1;
                while n < 3 && i < raw.len() && raw[i].is_ascii_digit() {
                    value = value * 10 + u32::from(raw[i] - b'0');
                    i += 1;
                    n += 1;
                }
                out.push(value.min(255) as u8);
            }
            other => out.push(other),
        }
    }
    out
}
