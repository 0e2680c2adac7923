//! Outside bytes as they may be shown in one line of output: [`escape`] and [`shorten`].
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
