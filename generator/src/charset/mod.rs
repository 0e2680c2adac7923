//! Charsets: the bytes a tag may use, and the deterministic choice of an affine alphabet
//! inside them ([`choose`]).
//!
//! A charset need not be an affine subspace of GF(2)^8 (the 62 bytes of `alnum` are not);
//! slotgen searches the affine alphabets inside it and picks one whose tags reach every
//! slot with the fewest symbols.

use std::fmt;
use std::ops::ControlFlow;

use crc::Algorithm;

use crate::alphabet::{for_each_affine_subset, largest_affine_subset};
use crate::derive::{check_crc_and_slots, max_tag_len};
use crate::error::show_bytes;
use crate::{Alphabet, Error};

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
/// serves both uses: [`choose`] reads it as a set ([`bytes`](Self::bytes)), the
/// shortest-tag search ([`crate::shortest`]) in its order ([`symbols`](Self::symbols)).
///
/// A spec is one of:
/// - a name of [`NAMED`]: `alnum`, `alpha`, `digits`, `lower`, `upper`, or `printable`
///   (the visible ASCII bytes `!` to `~`, without the space);
/// - a bracket expression `[...]` of bytes and inclusive ranges `a-z`; `-` is literal
///   first or last, and `\` escapes the next byte (`\]`, `\-`, `\\`) or writes one in hex
///   (`\x7f`);
/// - anything else: the bytes themselves, each once (write `[digits]` for the six
///   letters).
///
/// Names and bracket expressions are sets, in ascending byte order, and `{` and `}` are
/// never members of them (a brace in a tag would change the key's hashtag: `printable` has
/// 92 bytes, not 94). An explicit list keeps the order written, and a brace in it is an
/// error. [`with_order`](Self::with_order) sets another order.
///
/// # Errors
///
/// [`Error::CharsetSyntax`] for an empty spec, an unclosed or empty bracket expression, a
/// backwards range, a bad escape, `[^...]`, or a byte listed twice;
/// [`Error::CharsetSymbol`] for a brace in an explicit list.
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
        let expression = NAMED
            .iter()
            .find(|(name, _)| *name == spec)
            .map(|&(_, expression)| expression)
            .or_else(|| spec.starts_with('[').then_some(spec));
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

impl std::str::FromStr for Charset {
    type Err = Error;

    fn from_str(spec: &str) -> Result<Self, Error> {
        Self::parse(spec)
    }
}

/// `symbols` as bytes and runs of three or more consecutive bytes `a-c`, escaping `-`, `\`
/// and `]`, and writing bytes that are not printable ASCII as `\xNN`.
fn ranges(symbols: &[u8]) -> String {
    let escaped = |b: u8| match b {
        b'-' | b'\\' | b']' => format!("\\{}", char::from(b)),
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

/// An error naming the first byte listed twice.
fn check_distinct(symbols: &[u8]) -> Result<(), String> {
    let mut seen = [false; 256];
    for &b in symbols {
        if std::mem::replace(&mut seen[usize::from(b)], true) {
            return Err(format!(
                "{} is listed twice: list each byte once",
                crate::error::show_byte(b)
            ));
        }
    }
    Ok(())
}

/// The alphabet [`choose`] picked inside a charset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The chosen alphabet.
    pub alphabet: Alphabet,
    /// Symbols per tag: the shortest length at which this alphabet's tags reach every slot.
    pub tag_len: usize,
    /// How many affine alphabets inside the charset were examined.
    pub examined: usize,
}

impl fmt::Display for Choice {
    /// `` alphabet `...` (16 symbols): 4-symbol tags reach every slot; 3 affine alphabets
    /// examined ``.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "alphabet `{}` ({} symbols): {}-symbol tags reach every slot; {} affine alphabet{} examined",
            show_bytes(self.alphabet.symbols()),
            self.alphabet.len(),
            self.tag_len,
            self.examined,
            if self.examined == 1 { "" } else { "s" }
        )
    }
}

/// Picks an affine alphabet inside `charset` for the CRC `crc` and `slots` slots, and the
/// tag length to use with it. The rule, in order:
///
/// 1. the shortest tag that reaches every slot (or, with `tag_len` given, tags of that
///    length that reach every slot);
/// 2. then the larger alphabet (more tags per slot);
/// 3. then the alphabet whose symbols, in ascending byte order, come first (so `0` before
///    `A` before `a`).
///
/// The choice depends only on the arguments. It examines the alphabets by size, largest
/// first, each size in lexicographic order
/// ([`affine_subsets`](crate::alphabet::affine_subsets)), and stops as soon as no remaining
/// size can give a shorter tag. Rank is cheap to test: a CRC's linear part depends only on
/// a symbol's distance from the end of the tag, so the slot deltas of each distance are
/// computed once and a longer tag only adds columns.
///
/// # Errors
///
/// - [`Error::UnsupportedWidth`], [`Error::CheckMismatch`], [`Error::SlotCount`]: as
///   [`derive`](crate::derive()).
/// - [`Error::NoAlphabetInCharset`]: no affine alphabet of at least 2 symbols inside the
///   charset reaches every slot with tags up to the longest a table holds (or of length
///   `tag_len`).
///
/// # Examples
///
/// ```
/// use slotgen::charset::{choose, Charset};
///
/// let alnum = Charset::parse("alnum")?;
/// let choice = choose(&alnum, &crc::CRC_16_XMODEM, 16384, None)?;
/// // the only 32-symbol affine alphabet inside `alnum`: 0x48..=0x57 and 0x68..=0x77
/// assert_eq!(choice.alphabet.symbols(), b"HIJKLMNOPQRSTUVWhijklmnopqrstuvw");
/// assert_eq!(choice.tag_len, 3); // 15 input bits for the 14 slot bits
///
/// // CRC-16/MODBUS needs 4 symbols of that alphabet
/// let modbus = choose(&alnum, &crc::CRC_16_MODBUS, 16384, None)?;
/// assert_eq!(modbus.tag_len, 4);
/// # Ok::<(), slotgen::Error>(())
/// ```
pub fn choose(
    charset: &Charset,
    crc: &Algorithm<u16>,
    slots: u32,
    tag_len: Option<usize>,
) -> Result<Choice, Error> {
    check_crc_and_slots(crc, slots)?;
    let needed = slots.trailing_zeros() as usize;
    let deltas = Deltas::new(crc, slots);
    let mut examined = 0;
    // the best so far: tag length and alphabet
    let mut best: Option<(usize, Vec<u8>)> = None;
    for dim in (1..=7u32).rev() {
        let shortest_possible = needed.div_ceil(dim as usize);
        let mut lengths = match tag_len {
            Some(n) => n.max(shortest_possible)..=n.min(max_tag_len(dim)),
            None => shortest_possible..=max_tag_len(dim),
        };
        if let Some((n, _)) = &best {
            if *n <= *lengths.start() {
                break; // smaller alphabets need at least as many symbols
            }
            lengths = *lengths.start()..=(*lengths.end()).min(n - 1);
        }
        if lengths.is_empty() {
            continue;
        }
        for_each_affine_subset(charset.bytes(), dim, |subset| {
            examined += 1;
            let Some(n) = deltas.shortest_len(subset, needed, lengths.clone()) else {
                return ControlFlow::Continue(());
            };
            best = Some((n, subset.to_vec()));
            if n == *lengths.start() {
                return ControlFlow::Break(()); // the later ones of this size cannot be shorter
            }
            lengths = *lengths.start()..=n - 1;
            ControlFlow::Continue(())
        });
    }
    match best {
        Some((tag_len, subset)) => Ok(Choice {
            alphabet: Alphabet::new(&subset)?,
            tag_len,
            examined,
        }),
        None => Err(Error::NoAlphabetInCharset {
            charset: charset.spec().to_owned(),
            slots: u64::from(slots),
            tag_len,
            largest: largest_affine_subset(charset.bytes()).len(),
        }),
    }
}

/// The linear part of a CRC by distance from the end of the message: `at[k][b]` is the slot
/// delta of flipping bit `b` of the byte `k` positions before the last one.
struct Deltas {
    at: Vec<[u16; 8]>,
}

impl Deltas {
    fn new(crc: &Algorithm<u16>, slots: u32) -> Self {
        let crc = crate::catalog::reference_crc(crc);
        let mask = (slots - 1) as u16;
        let longest = max_tag_len(1);
        let mut message = vec![0u8; longest];
        let at = (1..=longest)
            .map(|len| {
                let zero = crc.checksum(&message[..len]);
                std::array::from_fn(|b| {
                    message[0] = 1 << b;
                    let flipped = crc.checksum(&message[..len]);
                    message[0] = 0;
                    (flipped ^ zero) & mask
                })
            })
            .collect();
        Self { at }
    }

    /// The slot delta of xoring `diff` into the byte `k` positions before the last one.
    fn delta(&self, k: usize, diff: u8) -> u16 {
        (0..8)
            .filter(|&b| diff >> b & 1 == 1)
            .fold(0, |acc, b| acc ^ self.at[k][b])
    }

    /// The shortest length in `lengths` at which tags over `subset` (an affine alphabet,
    /// ascending) reach all `2^needed` slots.
    fn shortest_len(
        &self,
        subset: &[u8],
        needed: usize,
        lengths: std::ops::RangeInclusive<usize>,
    ) -> Option<usize> {
        let dim = subset.len().trailing_zeros();
        let basis: Vec<u8> = (0..dim).map(|j| subset[1 << j] ^ subset[0]).collect();
        // a basis of the span of the columns so far, indexed by leading bit
        let mut echelon = [0u16; 16];
        let mut rank = 0;
        for len in 1..=*lengths.end() {
            for &b in &basis {
                let mut column = self.delta(len - 1, b);
                while column != 0 {
                    let top = 15 - column.leading_zeros() as usize;
                    if echelon[top] == 0 {
                        echelon[top] = column;
                        rank += 1;
                        break;
                    }
                    column ^= echelon[top];
                }
            }
            if rank == needed && lengths.contains(&len) {
                return Some(len);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::alphabet::affine_subsets;
    use crate::catalog;

    fn bytes(spec: &str) -> Vec<u8> {
        Charset::parse(spec).unwrap().bytes().to_vec()
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

    #[test]
    fn charsets_without_a_working_alphabet_are_refused() {
        let one = Charset::parse("a").unwrap();
        let e = choose(&one, &crc::CRC_16_XMODEM, 16384, None).unwrap_err();
        assert!(
            matches!(e, Error::NoAlphabetInCharset { largest: 1, .. }),
            "{e:?}"
        );
        // two symbols, one bit per symbol: 14 bits need 14 symbols, so 4 are too few
        let two = Charset::parse("ab").unwrap();
        let e = choose(&two, &crc::CRC_16_XMODEM, 16384, Some(4)).unwrap_err();
        assert_eq!(
            e.to_string(),
            "no affine alphabet inside charset `ab` reaches all 16384 slots with 4-symbol tags: \
             its largest affine alphabet has 2 symbols; use a larger charset, another tag length, \
             or fewer slots"
        );
    }

    /// The rule of [`choose`], applied by brute force: every affine alphabet inside the
    /// charset and every tag length that could still win, ranked by the elimination of
    /// [`AffineMap`](crate::AffineMap) (not by the distance deltas `choose` uses), then the
    /// order of the rule.
    fn choose_by_brute_force(charset: &[u8], crc: &Algorithm<u16>, slots: u32) -> (usize, Vec<u8>) {
        let needed = slots.trailing_zeros() as usize;
        let mut candidates = Vec::new();
        let mut bound = max_tag_len(1);
        for dim in (1..=7).rev() {
            for subset in affine_subsets(charset, dim) {
                let alphabet = Alphabet::new(&subset).unwrap();
                let shortest = (1..=bound.min(max_tag_len(dim))).find(|&n| {
                    crate::AffineMap::extract(crc, &alphabet, n, slots)
                        .linear()
                        .rank()
                        == needed
                });
                if let Some(n) = shortest {
                    bound = n;
                    candidates.push((n, std::cmp::Reverse(subset.len()), subset));
                }
            }
        }
        let (n, _, subset) = candidates.into_iter().min().unwrap();
        (n, subset)
    }

    #[test]
    fn choice_follows_the_rule_by_brute_force() {
        for charset in ["[0-9a-f]", "[0-9_-]"] {
            let bytes = bytes(charset);
            let parsed = Charset::parse(charset).unwrap();
            for entry in catalog::CATALOG.iter().step_by(10) {
                for slots in [16384, 16] {
                    let choice = choose(&parsed, entry.algorithm, slots, None).unwrap();
                    let expected = choose_by_brute_force(&bytes, entry.algorithm, slots);
                    assert_eq!(
                        (choice.tag_len, choice.alphabet.symbols().to_vec()),
                        expected,
                        "{charset} {} {slots}",
                        entry.name
                    );
                    let fixed =
                        choose(&parsed, entry.algorithm, slots, Some(expected.0 + 1)).unwrap();
                    assert_eq!(fixed.tag_len, expected.0 + 1);
                }
            }
        }
    }
}
