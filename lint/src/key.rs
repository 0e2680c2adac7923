//! A key argument as the lint sees it: a concatenation of parts (literal bytes, `KEYS[i]`,
//! `ARGV[i]`, or an opaque value), its kind, and the slot it lands on, exactly when the
//! values are known and by the hashtag rule of the Redis Cluster specification otherwise.

use slotgen_tables::REDIS_CLUSTER;

/// One part of a key's value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Part {
    /// Bytes written in the script (a string or number literal).
    Literal(Vec<u8>),
    /// `KEYS[i]` (1-based); 0 for `KEYS[n]` with an index the lint cannot read, still a
    /// declared key.
    Key(usize),
    /// `ARGV[i]` (1-based).
    Arg(usize),
    /// A value the lint cannot follow (a function's parameter, a loop variable, a value
    /// read from the server).
    Opaque {
        /// Its source text.
        text: String,
        /// Why the lint cannot follow it, when it can say (`` `k` is a loop variable ``).
        why: Option<String>,
    },
    /// `KEYS`/`ARGV` at an index that is never set (`KEYS[0]`, `ARGV['1']`): nil whatever
    /// the call gives, with its source text.
    Nil(String),
    /// A value that is no string and no number, as written: `nil`, `true`, `false` or a
    /// table constructor (`{}`). No command takes it as an argument.
    NoString(String),
    /// `KEYS[i]`/`ARGV[i]` (also a function's `keys[i]`/`args[i]`, a local for them, a loop
    /// over them, `unpack`) where the script may have changed the table: not the caller's
    /// value, not known. Its text as written, and why (the change, with its line).
    Changed {
        /// The read, as written.
        text: String,
        /// Why it may not be the caller's value.
        why: String,
    },
    /// A number literal that is no integer below 10^14 (`0.1`, `1e15`), as written: the
    /// servers write it differently as an argument (Redis 7.0 with `%.17g`, `0.1` is
    /// `0.10000000000000001`; Valkey in its shortest form, `0.1`), and Lua's `tostring` in
    /// a concatenation with `%.14g`, so its bytes are not known before the server.
    Number(String),
    /// A string method applied to a value (`ARGV[1]:upper():sub(1, 3)`, `string.lower(k)`):
    /// the value's parts, then the edits in order, and the source text.
    Edited {
        /// The parts of the value edited.
        of: Vec<Part>,
        /// The edits, first applied first.
        edits: Vec<Edit>,
        /// The source text.
        text: String,
    },
}

/// A string method of Lua 5.1 that the lint computes, on bytes as the servers' Lua does (its
/// `C` locale: `upper` and `lower` change ASCII letters only).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Edit {
    /// `s:upper()`.
    Upper,
    /// `s:lower()`.
    Lower,
    /// `s:sub(i, j)`, `j` -1 when not given: 1-based, negatives from the end.
    Sub(i64, i64),
    /// `s:rep(n)`: `n` copies of `s` (none for `n` of 0 or below); more than 64 KiB is not
    /// computed.
    Rep(i64),
    /// `s` written by `string.format`'s `%s`, with its flag `-`, its width and its
    /// precision (`%s` is none of them, `%-3s` `left` and width 3, `%5.1s` width 5 and
    /// precision 1): Lua 5.1 hands a string shorter than 100 bytes, or any with a
    /// precision, to C's `sprintf`, which stops at its first NUL byte, keeps at most
    /// `precision` bytes, and pads with spaces to `width` (on the left, on the right when
    /// `left`); a longer one without a precision is kept whole, its width ignored (measured
    /// on Redis 7.0, Valkey 8.0 and 9.1: `string.format('%s|', 'a\0b')` is `a|`).
    Format {
        /// The flag `-`: padded on the right.
        left: bool,
        /// The least count of bytes (Lua takes two digits at most).
        width: u8,
        /// The most bytes kept, when given (two digits at most).
        precision: Option<u8>,
    },
    /// `s` written by `string.format`'s `%q`: in double quotes, with `"`, `\\` and a newline
    /// after a backslash, a carriage return as `\r` and a NUL byte as `\000` (Lua 5.1's
    /// `addquoted`).
    Quote,
    /// `tonumber(s)`: the Lua number `s` reads as ([`lua_number`]), as the servers write it
    /// as an argument ([`number_written`]); nil when `s` is no number.
    ToNumber,
}

impl Edit {
    /// The method's name, as the script writes it.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Upper => "upper",
            Self::Lower => "lower",
            Self::Sub(..) => "sub",
            Self::Rep(_) => "rep",
            Self::Format { .. } | Self::Quote => "format",
            Self::ToNumber => "tonumber",
        }
    }

    /// `s` edited, as Lua 5.1's `str_upper`, `str_lower`, `str_sub` and `str_rep`
    /// (`lstrlib.c`), or
    /// read by `tonumber` as the servers then write it; `None` when that is not one string
    /// on every server (nil, or a number the servers write differently: [`number_written`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use slotgen_lint::key::Edit;
    ///
    /// assert_eq!(Edit::Upper.apply(b"{p}b\xe9").unwrap(), b"{P}B\xe9");
    /// assert_eq!(Edit::Sub(1, 3).apply(b"{p}b").unwrap(), b"{p}");
    /// assert_eq!(Edit::Sub(-2, -1).apply(b"user:7").unwrap(), b":7");
    /// assert_eq!(Edit::Sub(5, 2).apply(b"abcdef").unwrap(), b"");
    /// let plain = Edit::Format { left: false, width: 0, precision: None }; // `%s`
    /// assert_eq!(plain.apply(b"{p}a\0b").unwrap(), b"{p}a");
    /// assert_eq!(plain.apply(&[b'a'; 100]).unwrap(), [b'a'; 100]);
    /// let left = Edit::Format { left: true, width: 3, precision: None };
    /// assert_eq!(left.apply(b"{c}").unwrap(), b"{c}");
    /// assert_eq!(left.apply(b"c").unwrap(), b"c  ");
    /// let cut = Edit::Format { left: false, width: 5, precision: Some(1) };
    /// assert_eq!(cut.apply(b"{c").unwrap(), b"    {");
    /// assert_eq!(Edit::Quote.apply(b"a\"b\0").unwrap(), b"\"a\\\"b\\000\"");
    /// assert_eq!(Edit::Rep(2).apply(b"ab").unwrap(), b"abab");
    /// assert_eq!(Edit::Rep(-1).apply(b"ab").unwrap(), b"");
    /// assert_eq!(Edit::ToNumber.apply(b" 0x10 ").unwrap(), b"16");
    /// assert_eq!(Edit::ToNumber.apply(b"1.5e2").unwrap(), b"150");
    /// assert_eq!(Edit::ToNumber.apply(b"0.5"), None); // a fraction: see `number_written`
    /// assert_eq!(Edit::ToNumber.apply(b"1e"), None); // nil
    /// ```
    #[must_use]
    pub fn apply(self, s: &[u8]) -> Option<Vec<u8>> {
        Some(match self {
            Self::Format {
                left,
                width,
                precision,
            } => {
                if precision.is_none() && s.len() >= 100 {
                    return Some(s.to_vec());
                }
                let mut out = s.split(|&b| b == 0).next().unwrap_or_default().to_vec();
                if let Some(p) = precision {
                    out.truncate(usize::from(p));
                }
                let pad = vec![b' '; usize::from(width).saturating_sub(out.len())];
                if left {
                    out.extend(pad);
                    out
                } else {
                    [pad, out].concat()
                }
            }
            Self::Quote => {
                let mut out = vec![b'"'];
                for &b in s {
                    match b {
                        b'"' | b'\\' | b'\n' => out.extend([b'\\', b]),
                        b'\r' => out.extend(b"\\r"),
                        0 => out.extend(b"\\000"),
                        b => out.push(b),
                    }
                }
                out.push(b'"');
                out
            }
            Self::Upper => s.to_ascii_uppercase(),
            Self::Lower => s.to_ascii_lowercase(),
            Self::Sub(i, j) => {
                let len = i64::try_from(s.len()).unwrap_or(i64::MAX);
                // posrelat: a negative position counts from the end, and stops at 0
                let relative = |p: i64| {
                    let p = if p < 0 { p.saturating_add(len + 1) } else { p };
                    p.max(0)
                };
                let (start, end) = (relative(i).max(1), relative(j).min(len));
                if start > end {
                    return Some(Vec::new());
                }
                let (a, b) = (
                    usize::try_from(start - 1).unwrap_or(0),
                    usize::try_from(end).unwrap_or(0),
                );
                s[a..b].to_vec()
            }
            Self::Rep(n) => {
                let n = usize::try_from(n).unwrap_or(0);
                if s.len().checked_mul(n)? > 1 << 16 {
                    return None;
                }
                s.repeat(n)
            }
            Self::ToNumber => number_written(lua_number(s)?)?.into_bytes(),
        })
    }
}

/// The number Lua 5.1's `tonumber(s)` reads in `s` (`luaO_str2d`: C's `strtod`, spaces
/// around it allowed, `0x` digits read as hexadecimal): `None` for nil, and for the forms
/// the lint does not read the way `strtod` does (a hexadecimal fraction or exponent,
/// `nan(...)`), which are then not known.
///
/// # Examples
///
/// ```
/// use slotgen_lint::key::lua_number;
///
/// assert_eq!(lua_number(b" 5 "), Some(5.0));
/// assert_eq!(lua_number(b"0x10"), Some(16.0));
/// assert_eq!(lua_number(b"-0"), Some(-0.0));
/// assert_eq!(lua_number(b"1e"), None);
/// assert_eq!(lua_number(b"(1"), None);
/// assert_eq!(lua_number(b"0x+5"), None);
/// ```
#[must_use]
pub fn lua_number(s: &[u8]) -> Option<f64> {
    // C's isspace in the `C` locale
    let space = |b: &u8| matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r');
    let start = s.iter().position(|b| !space(b))?;
    let end = s.iter().rposition(|b| !space(b))? + 1;
    let text = std::str::from_utf8(&s[start..end]).ok()?;
    let (negative, digits) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    if let Some(hex) = digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        // digits only: `from_str_radix` takes a sign, `strtod` not after the `0x`
        if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        let v = u64::from_str_radix(hex, 16).ok()? as f64;
        return Some(if negative { -v } else { v });
    }
    // `strtod` and Rust read the same decimal forms, `inf`, `infinity` and `nan` in any
    // case included; Rust refuses `nan(...)`, left not known as nil is
    text.parse().ok()
}

/// A Lua number as every server writes it as an argument of `redis.call`: an integer below
/// 10^14 in magnitude is its decimal digits everywhere (`1.5e2` is `150`); other numbers
/// are written differently (measured with `tonumber(ARGV[1])`: Redis 7.0 `%.17g`, `0.1` is
/// `0.10000000000000001` and `-0` is `-0`; Valkey 8.0 and 9.1 `0.1` and `0`; all three
/// `1e+20`, `inf`, `nan`), and Lua's `tostring` in a concatenation with `%.14g`: `None`.
#[must_use]
pub fn number_written(v: f64) -> Option<String> {
    let negative_zero = v == 0.0 && v.is_sign_negative();
    (v.fract() == 0.0 && v.abs() < 1e14 && !negative_zero).then(|| format!("{}", v as i64))
}

/// Whether Lua 5.1's `tonumber(s)` is certainly nil (`strtod` reads no number, or stops
/// before the end): `s` is empty or spaces only, or holds a byte no number form has (`(1`,
/// `1,5`; not `nan(...)`, which `strtod` reads, nor a NUL byte, where C stops reading).
/// Other strings no number (`1e`, `0x+5`) are not said to be nil: [`lua_number`] is `None`
/// for them, not known.
///
/// # Examples
///
/// ```
/// use slotgen_lint::key::lua_nil;
///
/// assert!(lua_nil(b"(1"));
/// assert!(lua_nil(b" "));
/// assert!(!lua_nil(b"nan(1)"));
/// assert!(!lua_nil(b"5\0x"));
/// assert!(!lua_nil(b" 5 "));
/// ```
#[must_use]
pub fn lua_nil(s: &[u8]) -> bool {
    let lower = s.to_ascii_lowercase();
    if s.contains(&0) || lower.windows(4).any(|w| w == b"nan(") {
        return false;
    }
    s.iter().all(u8::is_ascii_whitespace)
        || s.iter()
            .any(|b| !(b.is_ascii_alphanumeric() || b"+-. \t\n\x0b\x0c\r".contains(b)))
}

/// The bytes `arg` gives `tonumber` when it is `tonumber(x)` whole with `x` known from the
/// script or `values`.
#[must_use]
pub fn tonumber_of(arg: &KeyExpr, values: &Values) -> Option<Vec<u8>> {
    let [Part::Edited { of, edits, .. }] = arg.parts.as_slice() else {
        return None;
    };
    let (Edit::ToNumber, before) = edits.split_last()? else {
        return None;
    };
    let mut s = Vec::new();
    for p in of {
        s.extend(known(p, Some(values))?);
    }
    for e in before {
        s = e.apply(&s)?;
    }
    Some(s)
}

/// A number with a fraction that an argument holds whole, as the lint writes it: a literal
/// (`0.5`, [`Part::Number`]) or `tonumber(x)` of a known `x`. Its bytes differ between
/// servers ([`number_written`]), but no server's are an integer, and every server's are a
/// float.
#[must_use]
pub fn fraction(arg: &KeyExpr, values: &Values) -> Option<Vec<u8>> {
    let (value, text) = match arg.parts.as_slice() {
        [Part::Number(text)] => (text.parse::<f64>().ok()?, text.clone()),
        [Part::Edited { .. }] => {
            let s = tonumber_of(arg, values)?;
            let v = lua_number(&s)?;
            (v, v.to_string())
        }
        _ => return None,
    };
    (value.is_finite() && value.fract() != 0.0).then(|| text.into_bytes())
}

/// The bytes of `part`, when the script or `values` (when given) knows them.
fn known(part: &Part, values: Option<&Values>) -> Option<Vec<u8>> {
    match part {
        Part::Literal(b) => Some(b.clone()),
        Part::Key(i) => values?.keys.as_ref()?.get(i.checked_sub(1)?).cloned(),
        Part::Arg(i) => values?.argv.as_ref()?.get(i.checked_sub(1)?).cloned(),
        Part::Edited { of, edits, .. } => {
            let mut value = Vec::new();
            for p in of {
                value.extend(known(p, values)?);
            }
            edits.iter().try_fold(value, |v, e| e.apply(&v))
        }
        Part::Opaque { .. }
        | Part::Nil(_)
        | Part::NoString(_)
        | Part::Number(_)
        | Part::Changed { .. } => None,
    }
}

/// A key argument: the concatenation of its parts, and its source text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyExpr {
    /// The parts, in order (`'{q}:' .. ARGV[1]` is a literal then an argument).
    pub parts: Vec<Part>,
    /// The source text, cut at 60 characters.
    pub text: String,
}

/// What a key argument is made of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum KeyKind {
    /// Exactly a declared key, `KEYS[i]` (also through a local).
    Declared,
    /// Built from `KEYS` or `ARGV` with more (`KEYS[1] .. ':x'`, `ARGV[5] .. state`).
    Derived,
    /// Written in the script.
    Literal,
    /// From data, loops or functions the lint cannot follow.
    Opaque,
}

/// The values of a call when they are known (`--keys`, `--argv`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Values {
    /// `KEYS`, when known (an empty list is `numkeys 0`).
    pub keys: Option<Vec<Vec<u8>>>,
    /// `ARGV`, when known.
    pub argv: Option<Vec<Vec<u8>>>,
    /// The function of a Functions library that FCALL calls; `None` judges every function.
    pub function: Option<String>,
}

/// Where a key lands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Slot {
    /// On this slot, exactly.
    Exact(u16),
    /// On the declared keys' slot: a declared key, or one that takes `KEYS[i]`'s hashtag
    /// while `KEYS[i]` carries one (`condition` says so, `None` for a declared key itself).
    Declared {
        /// `KEYS[i]` whose slot it is, 0 when the index is not known.
        key: usize,
        /// The condition on the caller's keys, when there is one.
        condition: Option<String>,
    },
    /// Cannot be known before the call; why.
    Unknown(String),
}

impl KeyExpr {
    /// An opaque value named `text`.
    #[must_use]
    pub fn opaque(text: String) -> Self {
        Self {
            parts: vec![Part::Opaque {
                text: text.clone(),
                why: None,
            }],
            text,
        }
    }

    /// The value of a local given both `self` and `other` (assigned again, in a branch or a
    /// loop): the parts both begin with (a literal's common bytes too), then one opaque part
    /// where they differ, so that a hashtag or a declared key both start with still places
    /// the key (`KEYS[6]` and `KEYS[6] .. ':' .. group` are `KEYS[6] ..` something);
    /// `self` when they are equal, `None` when they share no start.
    ///
    /// # Examples
    ///
    /// ```
    /// use slotgen_lint::key::{KeyExpr, Part};
    ///
    /// let of = |parts: Vec<Part>| KeyExpr { parts, text: "k".into() };
    /// let key = of(vec![Part::Key(6)]);
    /// let grouped = of(vec![Part::Key(6), Part::Literal(b":g".to_vec())]);
    /// let either = key.either(&grouped).unwrap();
    /// assert_eq!(either.parts[0], Part::Key(6));
    /// assert!(matches!(either.parts[1], Part::Opaque { .. }));
    /// assert_eq!(either.either(&grouped), Some(either.clone()));
    /// let tagged = of(vec![Part::Literal(b"{q}:a".to_vec())]);
    /// let other = of(vec![Part::Literal(b"{q}:b".to_vec())]);
    /// assert_eq!(tagged.either(&other).unwrap().parts[0], Part::Literal(b"{q}:".to_vec()));
    /// assert_eq!(key.either(&tagged), None);
    /// ```
    #[must_use]
    pub fn either(&self, other: &Self) -> Option<Self> {
        if self == other {
            return Some(self.clone());
        }
        let mut parts = Vec::new();
        let mut pairs = self.parts.iter().zip(&other.parts);
        for (a, b) in pairs.by_ref() {
            if a == b {
                parts.push(a.clone());
                continue;
            }
            if let (Part::Literal(x), Part::Literal(y)) = (a, b) {
                let n = x.iter().zip(y).take_while(|(p, q)| p == q).count();
                if n > 0 {
                    parts.push(Part::Literal(x[..n].to_vec()));
                }
            }
            break;
        }
        if parts.is_empty() {
            return None;
        }
        if !matches!(parts.last(), Some(Part::Opaque { .. })) {
            parts.push(Part::Opaque {
                text: self.text.clone(),
                why: Some(
                    "it is given more than one value (assigned again, in a loop, or by several \
                     calls), alike only in their start"
                        .to_owned(),
                ),
            });
        }
        Some(Self {
            parts,
            text: self.text.clone(),
        })
    }

    /// The bytes, when every part is a literal.
    #[must_use]
    pub fn literal(&self) -> Option<Vec<u8>> {
        let mut out = Vec::new();
        for p in &self.parts {
            out.extend(known(p, None)?);
        }
        Some(out)
    }

    /// The value, when every part is known from the script or from `values`.
    #[must_use]
    pub fn value(&self, values: &Values) -> Option<Vec<u8>> {
        let mut out = Vec::new();
        for p in &self.parts {
            out.extend(known(p, Some(values))?);
        }
        Some(out)
    }

    /// Declared, derived, literal or opaque.
    #[must_use]
    pub fn kind(&self) -> KeyKind {
        match &self.parts[..] {
            [Part::Key(_)] => KeyKind::Declared,
            parts if parts.iter().all(|p| known(p, None).is_some()) => KeyKind::Literal,
            parts if parts.iter().any(Part::is_the_calls) => KeyKind::Derived,
            _ => KeyKind::Opaque,
        }
    }

    /// Whether it is literally a `KEYS[i]` expression in the source (what Alibaba Cloud's
    /// proxy requires at every key position), not through a local.
    #[must_use]
    pub fn is_keys_expression(&self) -> bool {
        self.kind() == KeyKind::Declared && self.text.starts_with("KEYS[")
    }

    /// Where the key lands, given `values`: exact when every part is known, else by its
    /// hashtag when the visible part decides it.
    #[must_use]
    pub fn slot(&self, values: &Values) -> Slot {
        // Substitute what is known; stop the known prefix at the first unknown part.
        let mut prefix: Vec<u8> = Vec::new();
        let mut rest = None;
        for (n, part) in self.parts.iter().enumerate() {
            match known(part, Some(values)) {
                Some(b) => prefix.extend(b),
                None => {
                    rest = Some(n);
                    break;
                }
            }
        }
        let Some(first_unknown) = rest else {
            return Slot::Exact(REDIS_CLUSTER.key_slot(&prefix));
        };
        // the script may have changed the part not known: said whatever decides the slot
        let changed = match &self.parts[first_unknown] {
            Part::Changed { text, why } => {
                format!(" (`{text}` may not be the caller's value: {why})")
            }
            _ => String::new(),
        };
        // A hashtag closed inside the known prefix decides the slot.
        if let Some(open) = prefix.iter().position(|&b| b == b'{') {
            return match prefix[open + 1..].iter().position(|&b| b == b'}') {
                Some(0) => Slot::Unknown(format!(
                    "`{}` has an empty hashtag `{{}}`, so its whole value is hashed and part \
                     of it is not known{changed}",
                    self.text
                )),
                Some(len) => {
                    let tag = &prefix[open + 1..open + 1 + len];
                    Slot::Exact(REDIS_CLUSTER.key_slot(tag))
                }
                None => Slot::Unknown(format!(
                    "`{}` opens a hashtag that closes in a part not known before the call{changed}",
                    self.text
                )),
            };
        }
        match &self.parts[first_unknown] {
            // No `{` before KEYS[i]: the key takes KEYS[i]'s hashtag when it has one.
            Part::Key(i) if first_unknown > 0 || self.parts.len() > 1 => Slot::Declared {
                key: *i,
                condition: Some(format!(
                    "runs only while {} carries a hashtag (`{}` is on its slot then, and on \
                     another slot without one)",
                    keys_name(*i),
                    self.text
                )),
            },
            Part::Key(i) => Slot::Declared {
                key: *i,
                condition: None,
            },
            Part::Arg(i) => Slot::Unknown(format!(
                "`{}` is built from ARGV[{i}], not known before the call (give --argv)",
                self.text
            )),
            Part::Opaque { text, why } => Slot::Unknown(match why {
                Some(why) if *text == self.text => {
                    format!("the lint cannot follow `{text}`: {why}")
                }
                Some(why) => format!(
                    "`{}` comes from `{text}`, which the lint cannot follow: {why}",
                    self.text
                ),
                None => format!(
                    "`{}` comes from `{text}`, which the lint cannot follow",
                    self.text
                ),
            }),
            Part::Nil(what) => Slot::Unknown(format!("`{}` holds `{what}`, nil", self.text)),
            Part::NoString(what) => Slot::Unknown(format!(
                "`{}` holds `{what}`, {}",
                self.text,
                Part::no_string_kind(what)
            )),
            Part::Changed { text, why } => Slot::Unknown(format!(
                "{} may not be the caller's value: {why}; a key the script may have changed is \
                 read as one not passed in KEYS, on a slot not known before the call",
                if *text == self.text {
                    format!("`{text}`")
                } else {
                    format!("`{}` reads `{text}`, which", self.text)
                }
            )),
            Part::Number(n) => Slot::Unknown(format!(
                "`{}` holds the number `{n}`, which the servers write differently (Redis 7.0 \
                 `%.17g`: `0.1` is `0.10000000000000001`; Valkey its shortest form, `0.1`; \
                 Lua's `..` `%.14g`), so its slot depends on the server; write the key as a \
                 string",
                self.text
            )),
            Part::Edited { of, edits, text } => {
                let by: Vec<String> = edits.iter().map(|e| format!("`{}`", e.name())).collect();
                let from: Vec<String> = of
                    .iter()
                    .filter_map(|p| match p {
                        Part::Key(i) => Some(keys_name(*i)),
                        Part::Arg(i) => Some(format!("ARGV[{i}]")),
                        Part::Opaque { text: what, .. }
                        | Part::Nil(what)
                        | Part::NoString(what)
                        | Part::Number(what)
                        | Part::Changed { text: what, .. } => Some(format!("`{what}`")),
                        Part::Literal(_) | Part::Edited { .. } => None,
                    })
                    .collect();
                let is = if *text == self.text {
                    String::new()
                } else {
                    format!(" is built on `{text}`,")
                };
                Slot::Unknown(format!(
                    "`{}`{is} made from {} by {}, which may change its hashtag too, is not \
                     known before the call{}",
                    self.text,
                    if from.is_empty() {
                        "a value".to_owned()
                    } else {
                        from.join(", ")
                    },
                    by.join(", "),
                    if of
                        .iter()
                        .all(|p| known(p, None).is_some() || p.is_the_calls())
                    {
                        " (give --keys and --argv)"
                    } else {
                        ""
                    }
                ))
            }
            Part::Literal(_) => unreachable!("literals are known"),
        }
    }
}

impl Part {
    /// What a [`Part::NoString`] written `text` is: `nil`, a boolean or a table.
    #[must_use]
    pub fn no_string_kind(text: &str) -> &'static str {
        match text {
            "nil" => "nil",
            "true" | "false" => "a boolean",
            _ => "a table",
        }
    }

    /// The indexes `i` of the `KEYS[i]` the part reads (also inside a string method's value).
    #[must_use]
    pub fn keys_read(&self) -> Vec<usize> {
        match self {
            Self::Key(i) => vec![*i],
            Self::Edited { of, .. } => of.iter().flat_map(Self::keys_read).collect(),
            _ => Vec::new(),
        }
    }

    /// Whether the part is the call's (`KEYS[i]`, `ARGV[i]`, or a string method of one).
    fn is_the_calls(&self) -> bool {
        match self {
            Self::Key(_) | Self::Arg(_) => true,
            Self::Edited { of, .. } => of.iter().any(Self::is_the_calls),
            _ => false,
        }
    }
}

/// `KEYS[i]`, or `KEYS[n]` for an index not known.
#[must_use]
pub fn keys_name(i: usize) -> String {
    if i == 0 {
        "KEYS[n]".to_owned()
    } else {
        format!("KEYS[{i}]")
    }
}
