//! Bytes as text: the one owner of how slotgen shows bytes. Outside bytes in one line of
//! output ([`escape`], [`escape_cut`], [`shorten`]), a key or hashtag as a TSV field
//! ([`field`]), outside bytes in an SVG picture ([`xml`]), and the spec's own bytes in messages and comments ([`show_byte`],
//! [`show_bytes`]).
//!
//! A value read from a file, a command line or a server can hold control bytes (a terminal
//! would act on them) and can be megabytes long (a JSON string, a key). Every such value is
//! escaped and shortened before slotgen prints it.

/// The most characters of one value shown: longer values are cut by [`shorten`].
pub const MAX_SHOWN: usize = 200;

/// The marker [`shorten`] puts where it cuts, followed by the full length.
pub const CUT: &str = "...";

/// Bytes as text for a line of output: printable ASCII as is but `"` and `\` escaped (so the
/// result can sit inside double quotes), anything else as `\xNN`.
///
/// # Examples
///
/// ```
/// assert_eq!(slotgen::text::escape(b"a\"b\x1b[2J\xff"), r#"a\"b\x1b[2J\xff"#);
/// ```
#[must_use]
pub fn escape(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for &b in bytes {
        match b {
            b'"' | b'\\' => {
                out.push('\\');
                out.push(char::from(b));
            }
            b' '..=b'~' => out.push(char::from(b)),
            _ => out.push_str(&format!("\\x{b:02x}")),
        }
    }
    out
}

/// As [`escape`], of at most the first [`MAX_SHOWN`] bytes, with [`CUT`] and the full length
/// in bytes after a cut: for values from outside, which may be long.
///
/// # Examples
///
/// ```
/// use slotgen::text::escape_cut;
///
/// assert_eq!(escape_cut(b"a\n"), r"a\x0a");
/// assert_eq!(escape_cut(&[b'a'; 300]), format!("{}... (300 bytes)", "a".repeat(200)));
/// ```
#[must_use]
pub fn escape_cut(bytes: &[u8]) -> String {
    let head = &bytes[..bytes.len().min(MAX_SHOWN)];
    let shown = escape(head);
    if head.len() < bytes.len() {
        format!("{shown}{CUT} ({} bytes)", bytes.len())
    } else {
        shown
    }
}

/// Bytes as text inside an XML (SVG) element or attribute: [`escape_cut`], then `&`, `<`,
/// `>`, `"` and `'` as entities, so that no byte closes the element or adds markup.
///
/// # Examples
///
/// ```
/// assert_eq!(slotgen::text::xml(b"<a href='x'>&\x1b"), r"&lt;a href=&apos;x&apos;&gt;&amp;\x1b");
/// ```
#[must_use]
pub fn xml(bytes: &[u8]) -> String {
    let shown = escape_cut(bytes);
    let mut out = String::with_capacity(shown.len());
    for c in shown.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

/// Bytes as one TSV field: printable ASCII as is, `\` as `\\`, any other byte (tab, line
/// feed, non-ASCII) as `\xNN`, so that no byte adds a column or a row.
///
/// # Examples
///
/// ```
/// assert_eq!(slotgen::text::field(b"a\tb\\\xff"), r"a\x09b\\\xff");
/// ```
#[must_use]
pub fn field(bytes: &[u8]) -> String {
    let mut text = String::with_capacity(bytes.len());
    for &b in bytes {
        match b {
            b'\\' => text.push_str("\\\\"),
            b' '..=b'~' => text.push(char::from(b)),
            _ => text.push_str(&format!("\\x{b:02x}")),
        }
    }
    text
}

/// A byte of the spec (an alphabet symbol, a delimiter) as `` `c` `` when printable ASCII,
/// else as `0xNN`.
///
/// ```
/// assert_eq!(slotgen::text::show_byte(b'{'), "`{`");
/// assert_eq!(slotgen::text::show_byte(0x80), "0x80");
/// ```
#[must_use]
pub fn show_byte(b: u8) -> String {
    if b.is_ascii_graphic() {
        format!("`{}`", char::from(b))
    } else {
        format!("{b:#04x}")
    }
}

/// Bytes of the spec (an alphabet) as text when all are printable ASCII, else as
/// `hex:...`.
///
/// ```
/// assert_eq!(slotgen::text::show_bytes(b"@ABC"), "@ABC");
/// assert_eq!(slotgen::text::show_bytes(b"\n\r"), "hex:0a0d");
/// ```
#[must_use]
pub fn show_bytes(bytes: &[u8]) -> String {
    if bytes.iter().all(|b| b.is_ascii_graphic() || *b == b' ') {
        String::from_utf8_lossy(bytes).into_owned()
    } else {
        format!("hex:{}", hex::encode(bytes))
    }
}

/// `text` cut to its first `max` characters when longer, with [`CUT`] and the full length in
/// characters after the cut, so that a shortened value is never taken for the whole.
///
/// # Examples
///
/// ```
/// use slotgen::text::shorten;
///
/// assert_eq!(shorten("0x9007", 200), "0x9007");
/// assert_eq!(shorten(&"a".repeat(1000), 5), "aaaaa... (1000 characters)");
/// ```
#[must_use]
pub fn shorten(text: &str, max: usize) -> String {
    let count = text.chars().count();
    if count <= max {
        return text.to_owned();
    }
    let cut: String = text.chars().take(max).collect();
    format!("{cut}{CUT} ({count} characters)")
}

/// The operating system's reason for `error`, once, without the `(os error N)` that
/// `std::io::Error` adds: `No such file or directory`.
///
/// # Examples
///
/// ```
/// let e = std::fs::read("/nonexistent/x").unwrap_err();
/// assert_eq!(slotgen::text::os_reason(&e), "No such file or directory");
/// ```
#[must_use]
pub fn os_reason(error: &std::io::Error) -> String {
    reason(&error.to_string())
}

/// Another program's reason (the operating system's, a client library's, a server's) as
/// one line of a message: without the `(os error N)` that `std::io::Error` adds, its lines
/// joined by `; `, control characters escaped (`\u{1b}`) and at most [`MAX_SHOWN`]
/// characters.
///
/// # Examples
///
/// ```
/// use slotgen::text::reason;
///
/// assert_eq!(reason("Connection refused (os error 111)"), "Connection refused");
/// assert_eq!(reason("-ERR unknown\r\n+OK\r\n"), "-ERR unknown; +OK");
/// ```
#[must_use]
pub fn reason(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let line = match line.find(" (os error ") {
            Some(at) if line.ends_with(')') => &line[..at],
            _ => line,
        };
        if !out.is_empty() {
            out.push_str("; ");
        }
        for c in line.chars() {
            if c.is_control() {
                out.extend(c.escape_default());
            } else {
                out.push(c);
            }
        }
    }
    shorten(&out, MAX_SHOWN)
}
