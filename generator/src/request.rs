//! The request layer: a table's options as data ([`Request`]), resolved once into the spec
//! of a table ([`TableSpec`]) and derived into its tables ([`Derivation`]).
//!
//! Every front end asks this module: the command line (`--crc`, `--scheme`, `--slots`,
//! `--hash-tag`, `--alphabet`, `--charset`, `--tag-len`), `slot_table!` (the fields of the
//! same names), the build.rs API ([`crate::build::Table`]) and the test harness. A refusal
//! names the [`Field`] it is about and keeps the library's [`Error`], which states the rule;
//! each front end adds its own spelling of the field (the command line its option,
//! the macro the span of its field).
//!
//! Redis Cluster is both the default CRC-16 spec and the `redis-cluster` scheme: a
//! `redis-cluster` request (with its power-of-two slot count) resolves to the CRC-16 spec,
//! whose derivation has the two-load tables of a [`SlotTable`](slotgen_tables::SlotTable)
//! ([`Derivation::slot_tables`]), so both spellings give the same table.

use crc::Algorithm;
use slotgen_tables::{Scheme, SchemeName};

use crate::charset::{choose, Charset, Choice};
pub use crate::derive::TableSpec;
use crate::scheme::invert::SchemeSpec;
use crate::spec::{check_crc, SlotCount, REDIS_CLUSTER_ALPHABET};
use crate::{catalog, Derivation, Error, Spec};

/// One option of a [`Request`], for a front end to name in its own spelling.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Field {
    /// [`Request::crc`]: a catalogue CRC-16 by name.
    Crc,
    /// [`Request::custom`]: a custom CRC-16 by its parameters.
    Custom,
    /// [`Request::scheme`]: a named scheme.
    Scheme,
    /// [`Request::slots`]: the slot count.
    Slots,
    /// [`Request::hash_tag`]: twemproxy's hashtag delimiters.
    HashTag,
    /// [`Request::alphabet`]: the tag symbols.
    Alphabet,
    /// [`Request::charset`]: the bytes to choose the alphabet in.
    Charset,
    /// [`Request::tag_len`]: symbols per tag.
    TagLen,
}

/// A refused [`Request`]: the library's error, and the field it is about.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{error}")]
pub struct Refusal {
    /// The field that the error is about: the one to change.
    pub field: Field,
    /// The rule it breaks and the way out, in the library's words.
    pub error: Error,
}

impl Refusal {
    fn at(field: Field) -> impl Fn(Error) -> Self {
        move |error| Self { field, error }
    }
}

/// A custom CRC-16 in the RevEng model, by its parameters; what is not given takes the
/// command line's defaults (`init` 0, `refin` false, `refout` as `refin`, `xorout` 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct CustomCrc {
    /// The polynomial in normal form, without the x^16 term.
    pub poly: u16,
    /// The register's initial value.
    pub init: Option<u16>,
    /// Whether each input byte is reflected.
    pub refin: Option<bool>,
    /// Whether the output is reflected.
    pub refout: Option<bool>,
    /// The value xored into the output.
    pub xorout: Option<u16>,
}

impl CustomCrc {
    /// The algorithm, with its check value computed from the parameters.
    #[must_use]
    pub fn algorithm(&self) -> Algorithm<u16> {
        let refin = self.refin.unwrap_or(false);
        catalog::custom(
            self.poly,
            self.init.unwrap_or(0),
            refin,
            self.refout.unwrap_or(refin),
            self.xorout.unwrap_or(0),
        )
    }
}

/// The options that choose a table, as data: what `slotgen derive`'s options and
/// `slot_table!`'s fields say. `Request::default()` is Redis Cluster.
///
/// At most one of `crc`, `custom` and `scheme`; `hash_tag` only with `scheme`; at most one
/// of `alphabet` and `charset`.
///
/// # Examples
///
/// ```
/// use slotgen::request::Request;
///
/// let vshard = Request { scheme: Some("tarantool-vshard".into()), ..Request::default() };
/// let d = vshard.derive()?;
/// assert_eq!((d.scheme.slots(), d.tag_len), (3000, 10));
/// assert!(d.slot_tables.is_none()); // a SchemeTable
///
/// let modbus = Request { crc: Some("MODBUS".into()), ..Request::default() };
/// let d = modbus.derive()?;
/// assert_eq!(d.tag_len, 5);
/// assert!(d.slot_tables.is_some()); // a SlotTable
/// # Ok::<(), slotgen::request::Refusal>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct Request {
    /// A catalogue CRC-16 by name or alias, any case [default: CRC-16/XMODEM].
    pub crc: Option<String>,
    /// A custom CRC-16 instead of `crc`.
    pub custom: Option<CustomCrc>,
    /// A named scheme instead of a CRC, any case, `_` for `-` (see [`crate::scheme::find`]).
    pub scheme: Option<String>,
    /// The slot count: a power of two from 2 to 65536 for a CRC-16 table [default: 16384];
    /// a scheme's slot count [default: the scheme's].
    pub slots: Option<u64>,
    /// With a twemproxy scheme: the pool's `hash_tag`, two delimiter bytes such as `{}`.
    pub hash_tag: Option<String>,
    /// The tag symbols (default `@ABCDEFGHIJKLMNO`).
    pub alphabet: Option<Vec<u8>>,
    /// The bytes tags may use: the alphabet is chosen inside them (the shortest tags, then
    /// the most symbols, then the first in byte order).
    pub charset: Option<Charset>,
    /// Symbols per tag [default: the shortest length that reaches every slot].
    pub tag_len: Option<usize>,
    /// Resolve `redis-cluster` to a scheme table ([`TableSpec::Scheme`]) rather than to the
    /// CRC-16 table that is its default shape: for a front end whose table type is declared
    /// before the spec is resolved (`slot_table!`'s `scheme:` field declares a
    /// `SchemeTable`).
    pub scheme_table: bool,
}

/// A [`Request`] resolved: the table's spec, and the alphabet choice when the request gave
/// a charset (for a front end to report).
#[derive(Clone, Debug)]
pub struct Resolved {
    /// The spec.
    pub spec: TableSpec,
    /// What `charset` chose, if given.
    pub choice: Option<Choice>,
}

impl Request {
    /// The CRC-16 of `crc` or `custom` (CRC-16/XMODEM when neither), checked against its
    /// check value ([`check_crc`]).
    ///
    /// # Errors
    ///
    /// [`Error::UnknownCrc`] at [`Field::Crc`]; the errors of [`check_crc`] at the field
    /// that gave the CRC; [`Error::OptionConflict`] at [`Field::Crc`] when both are given.
    pub fn crc_algorithm(&self) -> Result<Algorithm<u16>, Refusal> {
        let (crc, field) = match (&self.custom, &self.crc) {
            (Some(_), Some(_)) => return Err(conflict(Field::Crc, Field::Custom)),
            (Some(custom), None) => (custom.algorithm(), Field::Custom),
            (None, Some(name)) => (
                *crate::crc_catalog::find_crc16(name)
                    .map_err(Refusal::at(Field::Crc))?
                    .algorithm,
                Field::Crc,
            ),
            (None, None) => (crc::CRC_16_XMODEM, Field::Crc),
        };
        check_crc(&crc).map_err(Refusal::at(field))?;
        Ok(crc)
    }

    /// The named scheme of `scheme` with its slot count and hashtag delimiters, if given.
    /// `redis-cluster` with a slot count is held to the CRC-16 tables' rule (a power of two
    /// from 2 to 65536).
    ///
    /// # Errors
    ///
    /// As [`crate::scheme::resolve`], each at its field: [`Error::UnknownScheme`] and a
    /// missing slot count at [`Field::Scheme`]; delimiters that are not two bytes or not
    /// taken at [`Field::HashTag`] (also without a scheme: a CRC-16 table has Redis's
    /// rule); the rest at [`Field::Slots`]. [`Error::OptionConflict`] at the CRC's field
    /// (`crc` or `custom`) for a CRC beside `scheme`.
    pub fn named_scheme(&self) -> Result<Option<(SchemeName, Scheme<'static>)>, Refusal> {
        let Some(name) = &self.scheme else {
            // a CRC-16 table reads keys by the Redis Cluster rule, which takes no delimiters
            return match self.hash_tag {
                Some(_) => Err(Refusal {
                    field: Field::HashTag,
                    error: Error::Scheme(slotgen_tables::Error::HashTagNotTaken {
                        scheme: SchemeName::RedisCluster.name(),
                    }),
                }),
                None => Ok(None),
            };
        };
        if self.crc.is_some() {
            return Err(conflict(Field::Crc, Field::Scheme));
        }
        if self.custom.is_some() {
            return Err(conflict(Field::Custom, Field::Scheme));
        }
        let named = crate::scheme::find(name).map_err(Refusal::at(Field::Scheme))?;
        if let (SchemeName::RedisCluster, Some(slots)) = (named, self.slots) {
            // Redis Cluster's tables are the CRC-16 ones, with their slot-count rule
            SlotCount::new(slots).map_err(Refusal::at(Field::Slots))?;
        }
        let scheme = crate::scheme::resolve(name, self.slots, self.hash_tag.as_deref()).map_err(
            |error| {
                let field = match &error {
                    Error::Scheme(slotgen_tables::Error::SlotsRequired { .. })
                    | Error::UnknownScheme { .. } => Field::Scheme,
                    Error::Scheme(slotgen_tables::Error::HashTagNotTaken { .. })
                    | Error::HashTagDelimiters { .. } => Field::HashTag,
                    _ => Field::Slots,
                };
                Refusal { field, error }
            },
        )?;
        Ok(Some((named, scheme)))
    }

    /// The slot count of a CRC-16 table (16384 when not given), or of the scheme.
    ///
    /// # Errors
    ///
    /// As [`named_scheme`](Self::named_scheme), and [`Error::SlotCount`] at
    /// [`Field::Slots`] for a CRC-16 table.
    pub fn slot_count(&self) -> Result<u32, Refusal> {
        if let Some((name, scheme)) = self.named_scheme()? {
            if name != SchemeName::RedisCluster {
                return Ok(scheme.slots());
            }
        }
        let slots = self
            .slots
            .unwrap_or(u64::from(crate::spec::REDIS_CLUSTER_SLOTS));
        Ok(SlotCount::new(slots)
            .map_err(Refusal::at(Field::Slots))?
            .get())
    }

    /// The spec of the table these options choose. A charset is resolved here: the
    /// alphabet chosen inside it (and, for a CRC-16 table, its tag length) go into the
    /// spec, and the choice is returned beside it. The alphabet itself is checked by the
    /// derivation (or by [`Alphabet::new`](crate::Alphabet::new) beforehand).
    ///
    /// # Errors
    ///
    /// As [`crc_algorithm`](Self::crc_algorithm), [`named_scheme`](Self::named_scheme) and
    /// [`slot_count`](Self::slot_count); the charset choice's errors
    /// ([`crate::charset::choose`]) at
    /// [`Field::Charset`]; [`Error::OptionConflict`] for `alphabet` beside `charset`.
    pub fn resolve(&self) -> Result<Resolved, Refusal> {
        if self.alphabet.is_some() && self.charset.is_some() {
            return Err(conflict(Field::Alphabet, Field::Charset));
        }
        let alphabet = || {
            self.alphabet
                .clone()
                .unwrap_or_else(|| REDIS_CLUSTER_ALPHABET.to_vec())
        };
        if let Some((name, scheme)) = self.named_scheme()? {
            if name != SchemeName::RedisCluster || self.scheme_table {
                // The tag length stays the one given, or the shortest for the tag's place
                // (alone, or inside a key frame).
                let mut spec = TableSpec::Scheme(SchemeSpec {
                    name,
                    slots: Some(scheme.slots()),
                    hash_tag: self
                        .hash_tag
                        .as_deref()
                        .map(crate::scheme::hash_tag)
                        .transpose()
                        .map_err(Refusal::at(Field::HashTag))?,
                    alphabet: alphabet(),
                    tag_len: self.tag_len,
                });
                let choice = self.choice(&mut spec)?;
                return Ok(Resolved { spec, choice });
            }
        }
        let mut spec = TableSpec::Crc16(Spec {
            crc: self.crc_algorithm()?,
            alphabet: alphabet(),
            tag_len: self.tag_len,
            slots: self.slot_count()?,
        });
        let choice = self.choice(&mut spec)?;
        Ok(Resolved { spec, choice })
    }

    /// The alphabet `charset` chooses for `spec` ([`choose`]), if given, put into the spec:
    /// with, for a CRC-16 table, its tag length (a scheme's stays the one given, or the
    /// shortest for the tag's place, alone or inside a key frame).
    fn choice(&self, spec: &mut TableSpec) -> Result<Option<Choice>, Refusal> {
        let Some(charset) = &self.charset else {
            return Ok(None);
        };
        let choice = choose(charset, spec).map_err(Refusal::at(Field::Charset))?;
        match spec {
            TableSpec::Crc16(spec) => {
                spec.alphabet = choice.alphabet.symbols().to_vec();
                spec.tag_len = Some(choice.tag_len);
            }
            TableSpec::Scheme(spec) => spec.alphabet = choice.alphabet.symbols().to_vec(),
        }
        Ok(Some(choice))
    }

    /// The tables of the spec these options choose: [`resolve`](Self::resolve), then
    /// [`TableSpec::derive`].
    ///
    /// # Errors
    ///
    /// As [`resolve`](Self::resolve); the derivation's errors at the field
    /// [`field_of`](Self::field_of) names.
    pub fn derive(&self) -> Result<Derivation, Refusal> {
        let resolved = self.resolve()?;
        crate::derive(&resolved.spec).map_err(|error| Refusal {
            field: self.field_of(&error),
            error,
        })
    }

    /// The field a derivation's error is about: the alphabet's own bytes at the field that
    /// gave them (`charset` or `alphabet`); a tag length at `tag_len`; too few slots
    /// reached at `tag_len` when one was given, else at the alphabet (no length works);
    /// the scheme's rules at `slots`; the rest at the CRC or scheme.
    #[must_use]
    pub fn field_of(&self, error: &Error) -> Field {
        let alphabet = if self.charset.is_some() {
            Field::Charset
        } else {
            Field::Alphabet
        };
        match error {
            Error::BraceInAlphabet { .. }
            | Error::DuplicateSymbol { .. }
            | Error::AlphabetSize { .. }
            | Error::NotAffine { .. }
            | Error::DelimiterInAlphabet { .. } => alphabet,
            Error::TagLen { .. } => Field::TagLen,
            Error::RankDeficient { .. } | Error::SchemeRankDeficient { .. }
                if self.tag_len.is_some() =>
            {
                Field::TagLen
            }
            Error::RankDeficient { .. } | Error::SchemeRankDeficient { .. } => alphabet,
            Error::SlotCount { .. } | Error::Scheme(_) | Error::SlotsAboveValues { .. } => {
                Field::Slots
            }
            _ if self.scheme.is_some() => Field::Scheme,
            _ if self.custom.is_some() => Field::Custom,
            _ => Field::Crc,
        }
    }
}

/// The refusal of two fields given together, at `field`.
fn conflict(field: Field, other: Field) -> Refusal {
    Refusal {
        field,
        error: Error::OptionConflict {
            field: field.name(),
            other: other.name(),
            rule: conflict_rule(field, other),
        },
    }
}

/// The alphabet of an alphabet given as text (a command-line argument, a string literal):
/// its bytes, one symbol a character, every character ASCII. An alphabet with bytes above
/// 0x7f is given as bytes ([`WayOut::AsBytes`]).
///
/// # Errors
///
/// [`Error::AlphabetNotAscii`] at [`Field::Alphabet`] for the first character that is not
/// ASCII.
///
/// # Examples
///
/// ```
/// use slotgen::request::{alphabet_of_text, Field};
///
/// assert_eq!(alphabet_of_text("@ABC").unwrap(), b"@ABC");
/// assert_eq!(alphabet_of_text("αβγδ").unwrap_err().field, Field::Alphabet);
/// ```
pub fn alphabet_of_text(text: &str) -> Result<Vec<u8>, Refusal> {
    match text.chars().find(|c| !c.is_ascii()) {
        Some(symbol) => Err(Refusal {
            field: Field::Alphabet,
            error: Error::AlphabetNotAscii { symbol },
        }),
        None => Ok(text.as_bytes().to_vec()),
    }
}

/// The way out of an error, by the field that applies it: the library states the rule,
/// each front end spells the field (`--tag-len 5` on the command line, `tag_len: 5` in
/// `slot_table!`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WayOut {
    /// Give the field, with this value (`N` where the value is the user's to choose) or
    /// with any value.
    Give {
        /// The field to give.
        field: Field,
        /// Its value, if one is the way out.
        value: Option<String>,
    },
    /// Remove the field, for this reason.
    Remove {
        /// The field to remove.
        field: Field,
        /// Why it goes, in words.
        reason: &'static str,
    },
    /// Remove one of two fields given together.
    Either {
        /// The field refused.
        field: Field,
        /// The field it was given with.
        other: Field,
    },
    /// Give the field these bytes, written as the front end writes bytes (`--alphabet ' A'`
    /// or `--alphabet-hex 0001` on the command line), or give `other` instead: an
    /// alphabet's largest affine subset, or a charset to let slotgen choose.
    GiveBytes {
        /// The field to give.
        field: Field,
        /// Its value.
        bytes: Vec<u8>,
        /// The field to give instead.
        other: Field,
    },
    /// Give the field's bytes in the front end's form for bytes (`--alphabet-hex` on the
    /// command line, a byte string in `slot_table!`): its text is ASCII only.
    AsBytes {
        /// The field.
        field: Field,
    },
}

impl WayOut {
    /// The way out of `error` that a field applies, if any.
    ///
    /// # Examples
    ///
    /// ```
    /// use slotgen::request::{Field, Request, WayOut};
    ///
    /// let short = Request { tag_len: Some(3), ..Request::default() };
    /// let refusal = short.derive().unwrap_err();
    /// let way_out = WayOut::of(&refusal.error);
    /// assert_eq!(way_out, Some(WayOut::Give { field: Field::TagLen, value: Some("4".into()) }));
    /// ```
    #[must_use]
    pub fn of(error: &Error) -> Option<Self> {
        use slotgen_tables::Error as Runtime;
        let give = |field, value: Option<String>| Some(Self::Give { field, value });
        match error {
            Error::RankDeficient {
                shortest: Some(n), ..
            }
            | Error::SchemeRankDeficient {
                shortest: Some(n), ..
            } => give(Field::TagLen, Some(n.to_string())),
            Error::NotAffine { largest_subset, .. } => Some(Self::GiveBytes {
                field: Field::Alphabet,
                bytes: largest_subset.clone(),
                other: Field::Charset,
            }),
            Error::Scheme(Runtime::SlotsRequired { .. }) => give(Field::Slots, Some("N".into())),
            Error::Scheme(Runtime::HashTagNotTaken { .. }) => Some(Self::Remove {
                field: Field::HashTag,
                reason: "only the twemproxy schemes take one",
            }),
            Error::OptionConflict { field, other, .. } => Some(Self::Either {
                field: Field::named(field)?,
                other: Field::named(other)?,
            }),
            Error::AlphabetNotAscii { .. } => Some(Self::AsBytes {
                field: Field::Alphabet,
            }),
            _ => None,
        }
    }
}

/// The rule two fields given together break, for [`Error::OptionConflict`], in words of no
/// front end (each names the fields in its own spelling, [`WayOut::Either`]).
fn conflict_rule(field: Field, other: Field) -> &'static str {
    match (field, other) {
        (Field::Alphabet, Field::Charset) | (Field::Charset, Field::Alphabet) => {
            "an alphabet and a charset cannot be given together: a charset lets slotgen choose the alphabet"
        }
        (Field::Scheme, _) | (_, Field::Scheme) => {
            "a scheme and a CRC cannot be given together: a scheme's CRC is fixed, and a CRC-16 table of your own names no scheme"
        }
        _ => "a catalogue CRC and custom CRC parameters cannot be given together: a catalogue CRC's parameters are fixed",
    }
}

impl Field {
    /// Every field.
    pub const ALL: [Self; 8] = [
        Self::Crc,
        Self::Custom,
        Self::Scheme,
        Self::Slots,
        Self::HashTag,
        Self::Alphabet,
        Self::Charset,
        Self::TagLen,
    ];

    /// The field of this [`name`](Self::name), if any.
    #[must_use]
    pub fn named(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|f| f.name() == name)
    }

    /// The field's name in the words of `slot_table!`'s fields (`tag_len`), for messages
    /// of the library.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Crc => "crc",
            Self::Custom => "custom crc",
            Self::Scheme => "scheme",
            Self::Slots => "slots",
            Self::HashTag => "hash_tag",
            Self::Alphabet => "alphabet",
            Self::Charset => "charset",
            Self::TagLen => "tag_len",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redis_cluster_is_the_default_and_the_scheme() {
        let default = Request::default().resolve().unwrap().spec;
        let scheme = Request {
            scheme: Some("redis-cluster".into()),
            ..Request::default()
        };
        assert_eq!(scheme.resolve().unwrap().spec, default);
        assert_eq!(default, TableSpec::Crc16(Spec::default()));
    }

    #[test]
    fn each_refusal_names_its_field() {
        let cases: [(Request, Field); 8] = [
            (
                Request {
                    crc: Some("nope".into()),
                    ..Request::default()
                },
                Field::Crc,
            ),
            (
                Request {
                    slots: Some(3000),
                    ..Request::default()
                },
                Field::Slots,
            ),
            (
                Request {
                    scheme: Some("redis-cluster".into()),
                    slots: Some(3000),
                    ..Request::default()
                },
                Field::Slots,
            ),
            (
                Request {
                    scheme: Some("librdkafka".into()),
                    ..Request::default()
                },
                Field::Scheme,
            ),
            (
                Request {
                    scheme: Some("codis".into()),
                    hash_tag: Some("{}".into()),
                    ..Request::default()
                },
                Field::HashTag,
            ),
            (
                Request {
                    hash_tag: Some("{}".into()),
                    ..Request::default()
                },
                Field::HashTag,
            ),
            (
                Request {
                    alphabet: Some(b"@ABC{".to_vec()),
                    ..Request::default()
                },
                Field::Alphabet,
            ),
            (
                Request {
                    tag_len: Some(3),
                    ..Request::default()
                },
                Field::TagLen,
            ),
        ];
        for (request, field) in cases {
            let refusal = request.derive().unwrap_err();
            assert_eq!(refusal.field, field, "{request:?}: {refusal}");
        }
    }

    #[test]
    fn fields_that_exclude_each_other_are_refused() {
        let charset = Some(Charset::parse("alnum").unwrap());
        let cases = [
            Request {
                alphabet: Some(b"@A".to_vec()),
                charset,
                ..Request::default()
            },
            Request {
                crc: Some("MODBUS".into()),
                scheme: Some("codis".into()),
                ..Request::default()
            },
            Request {
                crc: Some("MODBUS".into()),
                custom: Some(CustomCrc::default()),
                ..Request::default()
            },
        ];
        for request in cases {
            let refusal = request.resolve().unwrap_err();
            assert!(
                matches!(refusal.error, Error::OptionConflict { .. }),
                "{request:?}: {refusal}"
            );
            assert!(refusal.to_string().contains("cannot be given together"));
            let Some(WayOut::Either { field, other }) = WayOut::of(&refusal.error) else {
                panic!("{request:?}: {refusal} has no way out");
            };
            assert_eq!(field, refusal.field);
            assert_ne!(field, other);
        }
    }

    #[test]
    fn a_charset_chooses_for_either_shape() {
        let charset = Charset::parse("alnum").unwrap();
        for scheme in [None, Some("codis")] {
            let request = Request {
                scheme: scheme.map(Into::into),
                charset: Some(charset.clone()),
                ..Request::default()
            };
            let resolved = request.resolve().unwrap();
            let choice = resolved.choice.expect("a charset is chosen in");
            let derived = request.derive().unwrap();
            assert_eq!(
                derived.alphabet.symbols(),
                choice.alphabet.symbols(),
                "{scheme:?}"
            );
        }
    }
}
