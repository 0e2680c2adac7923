//! The charset mini-language: [`Charset`], the bytes a tag may use, in a search order.

use crate::text::{ranges, show_bytes};
use crate::Error;

/// The named charsets: name and bracket expression.
pub const NAMED: &[(&str, &str)] = &[
    ("alnum", "[0-9A-Za-z]"),
    ("alpha", "[A-Za-z]"),
    ("digits", "[0-9]"),
    ("lower", "[a-z]"),
    ("upper", "[A-Z]"),
    ("printable", "[!-~]"),
];

/// The bytes that tags may use, in a search order, parsed from a charset spec. One type
/// serves both uses: [`choose`](super::choose) reads it as a set ([`bytes`](Self::bytes)), the
/// shortest-tag search ([`crate::shortest`]) in its order ([`symbols`](Self::symbols)).
///
/// A spec is one of:
/// - a name of [`NAMED`], in any case (`alnum`, `ALNUM`): `alnum`, `alpha`, `digits`,
///   `lower`, `upper`, or `printable` (the visible ASCII bytes `!` to `~`, without the
///   space);
/// - a bracket expression `[...]` of bytes and inclusive ranges `a-z`; `-` is literal
///   first or last, and `\` escapes the next byte (`\]`, `\-`, `\\`) or writes one in hex
///   (`\x7f`);
/// - anything else: the bytes themselves, each once, in ASCII (a byte above `0x7f` is
///   written `\xNN` in a bracket expression). Letters that look like a misspelled name
///   (`alnm`, `Digts`) or another tool's name of a set of bytes ([`OTHER_TOOLS_NAMES`]:
///   `numeric`, `hex`, `base64`) are refused, the latter with what to write instead
///   (`digits`, `[0-9a-f]`): write `[digits]` for the six letters.
///
/// Names and bracket expressions are sets, in ascending byte order, and `{` and `}` are
/// never members of them (a brace in a tag would change the key's hashtag: `printable` has
/// 92 bytes, not 94). An explicit list keeps the order written, and a brace in it is an
/// error. [`with_order`](Self::with_order) sets another order.
///
/// # Errors
///
/// [`Error::CharsetSyntax`] for an empty spec, a character that is not ASCII, an unclosed
/// or empty bracket expression, a backwards range, a bad escape, `[^...]`, or a byte listed
/// twice; [`Error::UnknownCharset`] for another tool's name (`hex`, `numeric`) or letters
/// that look like a misspelled name (`alnm`); [`Error::CharsetSymbol`] for a brace in an explicit list.
///
/// # Examples
///
/// ```
/// use slotgen::charset::Charset;
///
/// assert_eq!(Charset::parse("alnum")?.bytes().len(), 62);
/// assert_eq!(Charset::parse("[0-9a-f_-]")?.bytes(), b"-0123456789_abcdef");
/// assert_eq!(Charset::parse("printable")?.bytes().len(), 92);
/// assert_eq!(Charset::parse("xy-")?.symbols(), b"xy-"); // the order written
/// let redis = Charset::parse("alnum")?.with_order("0-9a-zA-Z")?;
/// assert_eq!(redis.symbols()[..11], *b"0123456789a");
/// assert!(Charset::parse("[z-a]").is_err());
/// assert_eq!(Charset::parse("ALNUM")?.bytes().len(), 62);
/// assert!(Charset::parse("hex").is_err()); // a misspelled name? `[hex]` is the bytes
/// # Ok::<(), slotgen::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Charset {
    spec: String,
    /// In search order.
    symbols: Vec<u8>,
    /// Ascending.
    bytes: Vec<u8>,
}

impl Charset {
    /// Parses a charset spec (see [`Charset`]).
    ///
    /// # Errors
    ///
    /// As listed on [`Charset`].
    pub fn parse(spec: &str) -> Result<Self, Error> {
        let syntax = |reason: String| Error::CharsetSyntax {
            spec: spec.to_owned(),
            reason,
        };
        if let Some(c) = spec.chars().find(|c| !c.is_ascii()) {
            return Err(syntax(format!(
                "`{c}` is not ASCII, and a tag symbol is one byte: write a byte above 0x7f as `\\xNN` in a bracket expression, such as `[a-z\\xe9]`"
            )));
        }
        let named = NAMED
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case(spec))
            .map(|&(_, expression)| expression);
        if named.is_none() {
            if let Some(instead) = other_tools_name(spec) {
                return Err(Error::UnknownCharset {
                    spec: spec.to_owned(),
                    instead: Some(instead),
                    nearest: Vec::new(),
                });
            }
            if looks_like_a_name(spec) {
                return Err(Error::UnknownCharset {
                    spec: spec.to_owned(),
                    instead: None,
                    nearest: nearest_names(spec),
                });
            }
        }
        let expression = named.or_else(|| spec.starts_with('[').then_some(spec));
        let symbols = match expression {
            Some(expression) => {
                let inside = bracket_inside(expression.as_bytes()).map_err(syntax)?;
                let mut set = sequence(inside).map_err(syntax)?;
                set.retain(|&b| b != b'{' && b != b'}');
                set.sort_unstable();
                set.dedup();
                set
            }
            None if spec.is_empty() => return Err(syntax("it is empty".to_owned())),
            None => {
                let list = spec.as_bytes().to_vec();
                if let Some(&symbol) = list.iter().find(|&&b| b == b'{' || b == b'}') {
                    return Err(Error::CharsetSymbol {
                        symbol,
                        rule: "a brace in a tag would change the key's hashtag",
                    });
                }
                if let Some(reason) = looks_like_a_range(&list) {
                    return Err(syntax(reason));
                }
                check_distinct(&list).map_err(syntax)?;
                list
            }
        };
        if symbols.is_empty() {
            return Err(syntax("it has no byte but braces".to_owned()));
        }
        Ok(Self::from_symbols(spec.to_owned(), symbols))
    }

    fn from_symbols(spec: String, symbols: Vec<u8>) -> Self {
        let mut bytes = symbols.clone();
        bytes.sort_unstable();
        Self {
            spec,
            symbols,
            bytes,
        }
    }

    /// This charset in `order`: bytes and ranges (`0-9a-zA-Z`) with the syntax of the inside
    /// of a bracket expression, listing every byte of the charset exactly once and nothing
    /// else.
    ///
    /// # Errors
    ///
    /// - [`Error::CharsetSyntax`] when `order` does not parse or lists a byte twice.
    /// - [`Error::OrderMismatch`] when `order` leaves out a byte of the charset or lists
    ///   one that is not in it.
    pub fn with_order(self, order: &str) -> Result<Self, Error> {
        let syntax = |reason: String| Error::CharsetSyntax {
            spec: order.to_owned(),
            reason,
        };
        let ordered = sequence(order.as_bytes()).map_err(syntax)?;
        check_distinct(&ordered).map_err(syntax)?;
        let missing: Vec<u8> = self
            .bytes
            .iter()
            .copied()
            .filter(|s| !ordered.contains(s))
            .collect();
        let extra: Vec<u8> = ordered
            .iter()
            .copied()
            .filter(|s| self.bytes.binary_search(s).is_err())
            .collect();
        if !missing.is_empty() || !extra.is_empty() {
            return Err(Error::OrderMismatch {
                order: order.to_owned(),
                missing,
                extra,
            });
        }
        Ok(Self::from_symbols(self.spec, ordered))
    }

    /// The spec as given.
    #[must_use]
    pub fn spec(&self) -> &str {
        &self.spec
    }

    /// The member bytes, ascending, without `{` and `}`.
    #[must_use]
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The member bytes in search order.
    #[must_use]
    pub fn symbols(&self) -> &[u8] {
        &self.symbols
    }

    /// The bytes as a set, ascending, as ranges: the inside of a bracket expression that
    /// [`parse`](Self::parse) reads back (`0-9A-Za-z`).
    #[must_use]
    pub fn set_ranges(&self) -> String {
        ranges(&self.bytes)
    }

    /// The bytes in search order as bytes and ranges, the shortest form that
    /// [`with_order`](Self::with_order) reads back (`0-9a-zA-Z`).
    ///
    /// # Examples
    ///
    /// ```
    /// use slotgen::charset::Charset;
    ///
    /// let c = Charset::parse("alnum")?.with_order("0-9a-zA-Z")?;
    /// assert_eq!(c.ranges(), "0-9a-zA-Z");
    /// assert_eq!(Charset::parse("ab-")?.ranges(), "ab\\-");
    /// # Ok::<(), slotgen::Error>(())
    /// ```
    #[must_use]
    pub fn ranges(&self) -> String {
        ranges(&self.symbols)
    }
}

/// Names that other tools give a set of bytes (POSIX bracket classes, regular expression
/// classes, encodings, other programs' options), each with what to write instead: a name
/// of [`NAMED`], or the bracket expression that means it where no name does. A spec is
/// likelier to mean one of these than its letters as bytes, so [`Charset::parse`] refuses
/// them (case ignored) with the spelling to write.
pub const OTHER_TOOLS_NAMES: &[(&str, &str)] = &[
    ("alphanum", "alnum"),
    ("alphanumeric", "alnum"),
    ("alphabetic", "alpha"),
    ("letters", "alpha"),
    ("numeric", "digits"),
    ("num", "digits"),
    ("number", "digits"),
    ("numbers", "digits"),
    ("decimal", "digits"),
    ("dec", "digits"),
    ("digit", "digits"),
    ("lowercase", "lower"),
    ("uppercase", "upper"),
    ("print", "printable"),
    ("graph", "printable"),
    ("ascii", "printable"),
    ("hex", "[0-9a-f]"),
    ("xdigit", "[0-9a-f]"),
    ("base16", "[0-9A-F]"),
    ("base32", "[A-Z2-7]"),
    ("base36", "[0-9a-z]"),
    ("base58", "[1-9A-HJ-NP-Za-km-z]"),
    ("base62", "alnum"),
    ("base64", "[A-Za-z0-9+/]"),
    ("base64url", "[A-Za-z0-9_-]"),
    ("word", "[A-Za-z0-9_]"),
    ("punct", "[!-/:-@\\[-`|~]"),
];

/// What to write instead of `spec` when it is another tool's name of a set of bytes
/// ([`OTHER_TOOLS_NAMES`], case ignored).
/// A POSIX class, `[:alnum:]` or `[[:alnum:]]`, is read as its name.
fn other_tools_name(spec: &str) -> Option<&'static str> {
    let class = ["[[:", "[:"].iter().find_map(|open| {
        let close = if open.len() == 3 { ":]]" } else { ":]" };
        spec.strip_prefix(open)?.strip_suffix(close)
    });
    if let Some(name) = class {
        if let Some(&(named, _)) = NAMED.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)) {
            return Some(named);
        }
        return other_tools_name(name);
    }
    OTHER_TOOLS_NAMES
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case(spec))
        .map(|&(_, instead)| instead)
}

/// Whether `spec`, which is no name of [`NAMED`] nor of [`OTHER_TOOLS_NAMES`], looks like a
/// name misspelled: three or more ASCII letters [within reach](crate::text::within_reach)
/// of a name, case ignored. `cabge` or `zyx` is a list of bytes; `alnm`, `Digts` are names.
fn looks_like_a_name(spec: &str) -> bool {
    spec.len() >= 3
        && spec.bytes().all(|b| b.is_ascii_alphabetic())
        && known().any(|(_, name)| crate::text::within_reach(spec, name))
}

/// Every name a spec may be near, with what to write for it: the names of [`NAMED`], then
/// other tools' names ([`OTHER_TOOLS_NAMES`]) with what they mean here (`hexx` is near
/// `hex`: `[0-9a-f]`).
fn known() -> impl Iterator<Item = (&'static str, &'static str)> {
    NAMED.iter().map(|&(name, _)| (name, name)).chain(
        OTHER_TOOLS_NAMES
            .iter()
            .map(|&(name, instead)| (instead, name)),
    )
}

/// What to write for the names nearest to `spec` ([`crate::text::nearest`] over
/// [`known`]).
fn nearest_names(spec: &str) -> Vec<&'static str> {
    crate::text::nearest(spec, known())
}

impl std::str::FromStr for Charset {
    type Err = Error;

    fn from_str(spec: &str) -> Result<Self, Error> {
        Self::parse(spec)
    }
}

/// The inside of the bracket expression `expression` (`[` ... `]`).
fn bracket_inside(expression: &[u8]) -> Result<&[u8], String> {
    let inside = &expression[1..];
    // the closing `]` is the first one not escaped by `\`
    let mut i = 0;
    while i < inside.len() {
        match inside[i] {
            b'\\' => i += 2,
            b']' if i + 1 == inside.len() => {
                let inside = &inside[..i];
                if inside.first() == Some(&b'^') {
                    return Err(
                        "negation `[^...]` is not supported: list the bytes to use".to_owned()
                    );
                }
                if inside.is_empty() {
                    return Err(
                        "the bracket expression `[]` is empty: list bytes or ranges inside"
                            .to_owned(),
                    );
                }
                return Ok(inside);
            }
            b']' => {
                return Err("bytes follow the closing `]`: escape a `]` inside as `\\]`".to_owned())
            }
            _ => i += 1,
        }
    }
    Err("the bracket expression has no closing `]`".to_owned())
}

/// The bytes of a sequence of bytes and ranges `a-z`, in the order written; `-` is literal
/// first or last, `\` escapes the next byte or writes one in hex (`\x7f`).
fn sequence(text: &[u8]) -> Result<Vec<u8>, String> {
    // the bytes, escapes resolved, each with whether it was escaped
    let mut items: Vec<(u8, bool)> = Vec::new();
    let mut rest = text;
    loop {
        match rest {
            [] => break,
            [b'\\', b'x', hi, lo, tail @ ..] => {
                let digits = [*hi, *lo];
                let text = std::str::from_utf8(&digits).unwrap_or("");
                let byte = u8::from_str_radix(text, 16).map_err(|_| {
                    format!(
                        "`\\x{}` is not a hex byte: write two hex digits, as `\\x7f`",
                        show_bytes(&digits)
                    )
                })?;
                items.push((byte, true));
                rest = tail;
            }
            [b'\\'] => {
                return Err(
                    "`\\` at the end escapes nothing: write `\\\\` for a backslash".to_owned(),
                )
            }
            [b'\\', escaped, tail @ ..] => {
                items.push((*escaped, true));
                rest = tail;
            }
            [b, tail @ ..] => {
                items.push((*b, false));
                rest = tail;
            }
        }
    }
    let mut out = Vec::new();
    let mut i = 0;
    while i < items.len() {
        let (first, _) = items[i];
        let range = items.get(i + 1) == Some(&(b'-', false)) && i + 2 < items.len();
        if range {
            let (last, _) = items[i + 2];
            if last < first {
                return Err(format!(
                    "range `{}-{}` runs backwards: write the lower byte first",
                    show_bytes(&[first]),
                    show_bytes(&[last])
                ));
            }
            out.extend(first..=last);
            i += 3;
        } else {
            out.push(first);
            i += 1;
        }
    }
    Ok(out)
}

/// Why the explicit list `list` is refused when a `-` in it has a byte on each side
/// (`A-Z`, `a-z0-9`): outside brackets it is a byte, so `A-Z` is three bytes, but it is
/// written as a range would be. The refusal names the bracket expression of the range and
/// the one of the bytes themselves, `-` first (`[-AZ]`).
fn looks_like_a_range(list: &[u8]) -> Option<String> {
    let inner = list.get(1..list.len().saturating_sub(1))?;
    if !inner.contains(&b'-') {
        return None;
    }
    // the list inside brackets, with what brackets read otherwise escaped
    let mut range = String::from("[");
    for (i, &b) in list.iter().enumerate() {
        match b {
            b']' | b'\\' => range.push('\\'),
            b'^' if i == 0 => range.push('\\'),
            _ => {}
        }
        match b {
            b' '..=b'~' => range.push(char::from(b)),
            _ => range += &format!("\\x{b:02x}"),
        }
    }
    range.push(']');
    let mut others: Vec<u8> = list.iter().copied().filter(|&b| b != b'-').collect();
    others.sort_unstable();
    others.dedup();
    Some(format!(
        "outside brackets `-` is a byte, not a range: write `{range}` for the range, or `[-{}]` for these bytes",
        ranges(&others)
    ))
}

/// An error naming the first byte listed twice.
fn check_distinct(symbols: &[u8]) -> Result<(), String> {
    let mut seen = [false; 256];
    for &b in symbols {
        if std::mem::replace(&mut seen[usize::from(b)], true) {
            return Err(format!(
                "{} is listed twice: list each byte once",
                crate::text::show_byte(b)
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bytes(spec: &str) -> Vec<u8> {
        Charset::parse(spec).unwrap().bytes().to_vec()
    }

    /// Every printable byte set that starts at `^` or above (so that `^` comes first when
    /// it is in the set) reads back from `[set_ranges]` and from `ranges` as an order: the
    /// `^` is escaped, not taken as a negation (found by the `charset` fuzz target with
    /// the spec `^ulmn`).
    #[test]
    fn a_leading_caret_reads_back() {
        for spec in ["^ulmn", "^", "^_`", "^a-", "[\\^-a]", "[\\^a]"] {
            let c = Charset::parse(spec).unwrap();
            let again = Charset::parse(&format!("[{}]", c.set_ranges())).unwrap();
            assert_eq!(again.bytes(), c.bytes(), "{spec}: {}", c.set_ranges());
            let ordered = c.clone().with_order(&c.ranges()).unwrap();
            assert_eq!(ordered.symbols(), c.symbols(), "{spec}");
        }
    }

    #[test]
    fn named_charsets() {
        let range = |a: u8, b: u8| (a..=b).collect::<Vec<u8>>();
        let alnum = [range(b'0', b'9'), range(b'A', b'Z'), range(b'a', b'z')].concat();
        assert_eq!(bytes("alnum"), alnum);
        assert_eq!(bytes("digits"), range(b'0', b'9'));
        assert_eq!(bytes("lower"), range(b'a', b'z'));
        assert_eq!(bytes("upper"), range(b'A', b'Z'));
        let printable: Vec<u8> = range(b'!', b'~')
            .into_iter()
            .filter(|&b| b != b'{' && b != b'}')
            .collect();
        assert_eq!(bytes("printable"), printable);
    }

    #[test]
    fn bracket_expressions_and_lists() {
        assert_eq!(bytes("[0-9A-Za-z_-]").len(), 64);
        assert_eq!(bytes("[-a]"), b"-a");
        assert_eq!(bytes("[a\\-c]"), b"-ac");
        assert_eq!(bytes("[\\x41-\\x43\\]]"), b"ABC]");
        assert_eq!(bytes("[x-z{}]"), b"xyz", "braces are never members");
        assert_eq!(bytes("cabge"), b"abceg");
        assert_eq!(
            Charset::parse("cabge").unwrap().symbols(),
            b"cabge",
            "a list keeps its order"
        );
        assert_eq!(bytes("[digits]"), b"dgist");
    }

    #[test]
    fn malformed_specs_are_refused_with_the_reason() {
        for (spec, reason) in [
            ("", "empty"),
            ("[]", "empty"),
            ("[abc", "closing"),
            ("[z-a]", "backwards"),
            ("[^a]", "negation"),
            ("[\\xg0]", "hex byte"),
            ("[a\\]", "closing"),
            ("cabbage", "listed twice"),
            (
                "A-Z",
                "write `[A-Z]` for the range, or `[-AZ]` for these bytes",
            ),
            (
                "a-z0-9",
                "write `[a-z0-9]` for the range, or `[-09az]` for these bytes",
            ),
            (
                "^-a]",
                "write `[\\^-a\\]]` for the range, or `[-\\]\\^a]` for these bytes",
            ),
        ] {
            match Charset::parse(spec) {
                Err(e @ Error::CharsetSyntax { .. }) => {
                    let message = e.to_string();
                    assert!(message.contains(reason), "{spec}: {message}");
                }
                other => panic!("{spec}: {other:?}"),
            }
        }
    }
}
