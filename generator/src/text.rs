//! Bytes as text: the one owner of how slotgen shows bytes. Outside bytes in one line of
//! output ([`escape`], [`escape_cut`], [`shorten`]), a key or hashtag as a field of a
//! record ([`field`], [`write_field`]), outside bytes in an SVG picture ([`xml`]), and the
//! spec's own bytes in messages and comments ([`show_byte`], [`show_bytes`]), and the
//! names a misspelled one is nearest to ([`nearest`]).
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
    cut(bytes, escape)
}

/// `bytes` shown by `show`, of at most the first [`MAX_SHOWN`] bytes, with [`CUT`] and the
/// full length in bytes after a cut: the one rule of [`escape_cut`] and [`field_cut`].
fn cut(bytes: &[u8], show: fn(&[u8]) -> String) -> String {
    let head = &bytes[..bytes.len().min(MAX_SHOWN)];
    let shown = show(head);
    if head.len() < bytes.len() {
        format!("{shown}{CUT} ({} bytes)", bytes.len())
    } else {
        shown
    }
}

/// Bytes as text inside an XML (SVG) element or attribute, each byte escaped once: as
/// [`field_cut`] shows them (printable ASCII as is, `\` as `\\`, any other byte as `\xNN`),
/// then `&`, `<`, `>`, `"` and `'` as entities ([`xml_text`]), so that no byte closes the
/// element or adds markup. A `"` is `&quot;`, not `\&quot;`: a picture has no quotes to
/// keep a value in, as a line of output ([`escape`]) has.
///
/// # Examples
///
/// ```
/// assert_eq!(slotgen::text::xml(b"<a href='x'>&\x1b"), r"&lt;a href=&apos;x&apos;&gt;&amp;\x1b");
/// assert_eq!(slotgen::text::xml(b"\"\\\xff"), r"&quot;\\\xff");
/// ```
#[must_use]
pub fn xml(bytes: &[u8]) -> String {
    xml_text(&field_cut(bytes))
}

/// slotgen's own text inside an XML (SVG) element or attribute: `&`, `<`, `>`, `"` and `'`
/// as entities, every other character as is (`µs` stays `µs`). Text from outside goes
/// through [`xml`] instead.
///
/// # Examples
///
/// ```
/// assert_eq!(slotgen::text::xml_text("cpu (µs) <&>"), "cpu (µs) &lt;&amp;&gt;");
/// ```
#[must_use]
pub fn xml_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
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

/// Bytes as one field of a record (the CLI's `text` and `tsv` output, a column of a table):
/// printable ASCII as is, `\` as `\\`, any other byte (tab, line feed, ESC, non-ASCII) as
/// `\xNN`, so that no byte adds a column or a row or reaches a terminal as a control byte.
/// [`write_field`] writes the same to a stream.
///
/// # Examples
///
/// ```
/// assert_eq!(slotgen::text::field(b"a\tb\\\x1b\xff"), r"a\x09b\\\x1b\xff");
/// ```
#[must_use]
pub fn field(bytes: &[u8]) -> String {
    let mut text = Vec::with_capacity(bytes.len());
    write_field(&mut text, bytes).expect("a Vec takes every write");
    String::from_utf8(text).expect("an escaped field is ASCII")
}

/// As [`field`], of at most the first [`MAX_SHOWN`] bytes, with [`CUT`] and the full length
/// in bytes after a cut: a value from outside shown whole where no column needs it whole (a
/// label of a picture, [`xml`]).
///
/// # Examples
///
/// ```
/// use slotgen::text::field_cut;
///
/// assert_eq!(field_cut(b"a\"\\\n"), r#"a"\\\x0a"#);
/// assert_eq!(field_cut(&[b'a'; 300]), format!("{}... (300 bytes)", "a".repeat(200)));
/// ```
#[must_use]
pub fn field_cut(bytes: &[u8]) -> String {
    cut(bytes, field)
}

/// Writes `bytes` as [`field`] shows them, to `out`: the one rule of both. A field with
/// nothing to escape (the common key) is written in one call.
///
/// # Errors
///
/// `out` fails.
///
/// # Examples
///
/// ```
/// let mut out = Vec::new();
/// slotgen::text::write_field(&mut out, b"k\n").unwrap();
/// assert_eq!(out, br"k\x0a");
/// ```
pub fn write_field(out: &mut impl std::io::Write, bytes: &[u8]) -> std::io::Result<()> {
    if all_plain(bytes) {
        return out.write_all(bytes);
    }
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if is_plain(b) {
            continue;
        }
        out.write_all(&bytes[start..i])?;
        if b == b'\\' {
            out.write_all(b"\\\\")?;
        } else {
            out.write_all(&[
                b'\\',
                b'x',
                HEX[usize::from(b >> 4)],
                HEX[usize::from(b & 15)],
            ])?;
        }
        start = i + 1;
    }
    out.write_all(&bytes[start..])
}

/// Whether [`field`] writes `b` as it is: printable ASCII but `\`.
fn is_plain(b: u8) -> bool {
    matches!(b, b' '..=b'~') & (b != b'\\')
}

/// Whether every byte of `bytes` [`is_plain`], eight bytes a step (the words of a short key:
/// a loop the compiler vectorises runs 64 bytes a step, and a key of 22 bytes byte by byte).
fn all_plain(bytes: &[u8]) -> bool {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const HIGH: u64 = u64::from_ne_bytes([0x80; 8]);
    // Sets the high bit of a byte that is below 0x20, above 0x7e or 0x5c (`\`), in any
    // byte order. A borrow or carry out of such a byte may set the next one's too, and no
    // other byte's: this tells whether any byte is one, not which.
    let escaped = |word: u64| {
        let below = word.wrapping_sub(ONES * 0x20) & !word;
        let above = word.wrapping_add(ONES) | word;
        let slash = word ^ (ONES * 0x5c);
        let slash = slash.wrapping_sub(ONES) & !slash;
        (below | above | slash) & HIGH
    };
    let word = |at: usize| u64::from_ne_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
    if bytes.len() < 8 {
        return bytes.iter().all(|&b| is_plain(b));
    }
    // the last word may overlap the one before it
    let mut found = escaped(word(bytes.len() - 8));
    for at in (0..bytes.len() - 8).step_by(8) {
        found |= escaped(word(at));
    }
    found == 0
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

/// `symbols` as bytes and runs of three or more consecutive bytes `a-c`, escaping `-`, `\`
/// and `]`, and writing bytes that are not printable ASCII as `\xNN`: as an order
/// (`Charset::with_order`) or the inside of a bracket expression reads them back.
pub(crate) fn ranges(symbols: &[u8]) -> String {
    let escaped = |b: u8| match b {
        // `^` too, which would negate a bracket expression that starts with it
        b'-' | b'\\' | b']' | b'^' => format!("\\{}", char::from(b)),
        b if b.is_ascii_graphic() || b == b' ' => char::from(b).to_string(),
        b => format!("\\x{b:02x}"),
    };
    let mut out = String::new();
    let mut i = 0;
    while i < symbols.len() {
        let mut j = i;
        while j + 1 < symbols.len() && symbols[j].checked_add(1) == Some(symbols[j + 1]) {
            j += 1;
        }
        if j >= i + 2 {
            out += &format!("{}-{}", escaped(symbols[i]), escaped(symbols[j]));
        } else {
            for &b in &symbols[i..=j] {
                out += &escaped(b);
            }
        }
        i = j + 1;
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

/// `text` with `\` and `"` escaped and every character a terminal could act on or that
/// does not print (as [`escape_controls`]) as `\xNN` of its UTF-8 bytes, as [`escape`]
/// shows bytes (`\x1b`), printable characters (also beyond ASCII) kept, cut by [`shorten`]
/// to [`MAX_SHOWN`] characters: for names and values from outside that a message quotes (a
/// CRC name, a charset, a server's error text).
///
/// # Examples
///
/// ```
/// use slotgen::text::escape_text;
///
/// assert_eq!(escape_text("café\x1b[2J\n\""), r#"café\x1b[2J\x0a\""#);
/// ```
#[must_use]
pub fn escape_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '\\' | '"') {
            out.push('\\');
        }
        push_shown(&mut out, c);
    }
    shorten(&out, MAX_SHOWN)
}

/// `text` with every character that a terminal could act on or that does not print (a
/// control character, a bidirectional override: those Rust's `escape_debug` escapes, but
/// the quotes and `\`) as `\xNN` of its UTF-8 bytes, as [`escape`] shows bytes (`\x1b`,
/// not `\u{1b}`); the rest as is. Not cut: for text of a known size (a line of a script).
///
/// # Examples
///
/// ```
/// use slotgen::text::escape_controls;
///
/// assert_eq!(escape_controls("a\tb\u{202e}é'"), r"a\x09b\xe2\x80\xaeé'");
/// ```
#[must_use]
pub fn escape_controls(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        push_shown(&mut out, c);
    }
    out
}

/// Pushes `c` as [`escape_controls`] shows it.
fn push_shown(out: &mut String, c: char) {
    let prints = matches!(c, '\\' | '"' | '\'') || c.escape_debug().nth(1).is_none();
    if prints {
        out.push(c);
    } else {
        for b in c.encode_utf8(&mut [0; 4]).bytes() {
            out.push_str(&format!("\\x{b:02x}"));
        }
    }
}

/// How a message shows a path: its text with every control character escaped
/// ([`escape_controls`]: `bad\x1b[31m.lua`, no raw ESC reaches a terminal), a name that is
/// not UTF-8 byte by byte ([`escape`]). The one rule of every message that names a file;
/// a command to paste quotes it with [`shell_quote`] instead.
///
/// # Examples
///
/// ```
/// use std::path::Path;
///
/// assert_eq!(slotgen::text::path(Path::new("café/\x1b[31m.lua")), r"café/\x1b[31m.lua");
/// ```
#[must_use]
pub fn path(path: &std::path::Path) -> String {
    match path.to_str() {
        Some(text) => escape_controls(text),
        None => escape(path.as_os_str().as_encoded_bytes()),
    }
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
/// joined by `; `, control characters escaped as [`escape_controls`] does (`\x1b`) and at
/// most [`MAX_SHOWN`] characters.
///
/// # Examples
///
/// ```
/// use slotgen::text::reason;
///
/// assert_eq!(reason("Connection refused (os error 111)"), "Connection refused");
/// assert_eq!(reason("-ERR unknown\r\n+OK\r\n"), "-ERR unknown; +OK");
/// assert_eq!(reason("bad \x1b[2J"), r"bad \x1b[2J");
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
            push_shown(&mut out, c);
        }
    }
    shorten(&out, MAX_SHOWN)
}

/// Bytes as one shell word: `'...'` when they are printable ASCII other than `'` and `\`,
/// else `$'...'` (bash, zsh, ksh and POSIX 2024) with `\xNN` for every other byte and for
/// the second byte of `?>` and `*/`, so that the word holds no newline, quote, backslash
/// sequence or comment end that a comment or string literal of an emitted file would
/// misread.
pub fn shell_quote(bytes: &[u8]) -> String {
    let plain = |b: u8| (b.is_ascii_graphic() || b == b' ') && b != b'\'' && b != b'\\';
    // `?>` ends PHP code even in a comment, `*/` ends a block comment.
    let closes = |pair: &[u8]| pair == b"?>" || pair == b"*/";
    if bytes.iter().all(|&b| plain(b)) && !bytes.windows(2).any(closes) {
        return format!("'{}'", String::from_utf8_lossy(bytes));
    }
    let escaped: String = bytes
        .iter()
        .enumerate()
        .map(|(i, &b)| {
            if plain(b) && !(i > 0 && closes(&bytes[i - 1..=i])) {
                char::from(b).to_string()
            } else {
                format!("\\x{b:02x}")
            }
        })
        .collect();
    format!("$'{escaped}'")
}

/// The most names [`nearest`] suggests.
pub const MAX_NEAREST: usize = 3;

/// Whether `name` is within reach of `wanted` for a suggestion: a Damerau-Levenshtein
/// distance (an adjacent transposition is one edit), case ignored, of at most a third of
/// `wanted`'s characters and at least one. The one rule of how near a misspelling is, for
/// [`nearest`] and for a guess that a word was meant as a name.
///
/// # Examples
///
/// ```
/// use slotgen::text::within_reach;
///
/// assert!(within_reach("alnm", "alnum"));
/// assert!(within_reach("XMODME", "xmodem"));
/// assert!(!within_reach("cabge", "alnum"));
/// ```
#[must_use]
pub fn within_reach(wanted: &str, name: &str) -> bool {
    distance(wanted, name) <= reach(wanted)
}

fn reach(wanted: &str) -> usize {
    (wanted.chars().count() / 3).max(1)
}

fn distance(wanted: &str, name: &str) -> usize {
    strsim::damerau_levenshtein(&wanted.to_lowercase(), &name.to_lowercase())
}

/// The names nearest to `wanted`, a name that matched none, for a "nearest: ..." or "did you
/// mean" in an error: the one owner of slotgen's suggestions (CRC and scheme names,
/// charsets, the macro's fields, the lint's globals).
///
/// `known` gives each candidate with one of its spellings (a candidate may come several
/// times, with its name and its aliases); a candidate is suggested when a spelling is
/// [`within_reach`] of `wanted` (its start as long as `wanted` counting one edit more), or
/// contains it (case ignored; `wanted` of three characters
/// or more: `kafka` for `librdkafka`). Those containing it come first, then by distance,
/// then a name `wanted` only leaves letters out of (`bxr` -> `bxor` before `bor`: a letter
/// dropped is the commoner slip), ties in the order given; each candidate once, at most
/// [`MAX_NEAREST`]. Empty when none is near: a guess far off misleads more than none.
///
/// # Examples
///
/// ```
/// use slotgen::text::nearest;
///
/// let names = ["alphabet", "charset", "length"];
/// let known = || names.iter().map(|&n| (n, n));
/// assert_eq!(nearest("alphabte", known()), ["alphabet"]);
/// assert_eq!(nearest("set", known()), ["charset"]);
/// assert!(nearest("prefix", known()).is_empty());
/// assert_eq!(nearest("bxr", [("bor", "bor"), ("bxor", "bxor")]), ["bxor", "bor"]);
/// ```
#[must_use]
pub fn nearest<T: PartialEq, S: AsRef<str>>(
    wanted: &str,
    known: impl IntoIterator<Item = (T, S)>,
) -> Vec<T> {
    let lower = wanted.to_lowercase();
    let contains = |name: &str| lower.chars().count() >= 3 && name.to_lowercase().contains(&lower);
    // `wanted` is `name` with letters left out (case ignored)
    let dropped = |name: &str| {
        let mut rest = name.chars().flat_map(char::to_lowercase);
        lower.chars().all(|c| rest.any(|r| r == c))
    };
    // (contains it not, distance, letters left out not), the candidate's first place in
    // `known`, the candidate
    let mut ranked: Vec<((bool, usize, bool), usize, T)> = Vec::new();
    for (order, (candidate, spelling)) in known.into_iter().enumerate() {
        let spelling = spelling.as_ref();
        // a name whose start is within reach counts one edit further (`twemproxi` for
        // `twemproxy-crc16`): the whole name, when as near, comes first
        let full = distance(wanted, spelling);
        let start: String = spelling.chars().take(wanted.chars().count()).collect();
        let inside = contains(spelling);
        // among names that contain it, the nearest whole name first
        let d = if start.len() < spelling.len() && !inside {
            full.min(distance(wanted, &start) + 1)
        } else {
            full
        };
        if !inside && d > reach(wanted) {
            continue;
        }
        let rank = (!inside, d, !dropped(spelling));
        match ranked.iter_mut().find(|(_, _, c)| *c == candidate) {
            Some(kept) => kept.0 = kept.0.min(rank),
            None => ranked.push((rank, order, candidate)),
        }
    }
    ranked.sort_by_key(|&(rank, order, _)| (rank, order));
    ranked
        .into_iter()
        .take(MAX_NEAREST)
        .map(|(_, _, c)| c)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The word-at-a-time test against the byte-by-byte rule: every byte value at every
    /// place of a word and of the tail, amid plain bytes and amid each other.
    #[test]
    fn all_plain_agrees_with_the_rule_byte_by_byte() {
        for len in 0..=20 {
            for at in 0..len {
                for b in 0..=255u8 {
                    let mut bytes = vec![b'a'; len];
                    bytes[at] = b;
                    let plain = (b' '..=b'~').contains(&b) && b != b'\\';
                    assert_eq!(all_plain(&bytes), plain, "{b:#04x} at {at} of {len}");
                    for c in [0x00, 0x1f, 0x20, 0x5b, 0x5c, 0x5d, 0x7e, 0x7f, 0x80, 0xff] {
                        let mut two = bytes.clone();
                        two[(at + 1) % len] = c;
                        let expected = two
                            .iter()
                            .all(|&x| (b' '..=b'~').contains(&x) && x != b'\\');
                        assert_eq!(all_plain(&two), expected, "{two:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn write_field_escapes_as_field_documents() {
        let mut out = Vec::new();
        write_field(&mut out, b"key:{a}\t\\\x00\x1b\x7f\x80\xff~ ").unwrap();
        assert_eq!(out, br"key:{a}\x09\\\x00\x1b\x7f\x80\xff~ ");
    }
}
