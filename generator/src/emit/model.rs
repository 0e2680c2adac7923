//! The one model of an emitted module: what every language's module needs, built from a
//! [`Derivation`] (of a CRC-16 spec or of a scheme).
//!
//! A Redis Cluster table is one scheme among others, so every module computes the same two
//! things, whatever its language and whatever derivation it came from:
//!
//! - `slot(key) = ((crc(hashed(key)) >> shift) & mask) % slots + first`, where `hashed` is
//!   the [`KeyRule`] and `crc` a table-driven [`Register`] of any width 8 to 32 (for Redis
//!   Cluster: shift 0, mask `0x3fff`, 16384 slots from 0, where the `% slots` is a no-op and
//!   a module may leave it out, see [`Reduction::needs_modulus`]);
//! - `tag(value) = zero ^ columns[i]` over the set bits `i` of `value = slot - first`, the
//!   tag's bytes being affine in the value's bits; [`Lookup`] says how a module holds that
//!   map: as two tables indexed by the value's low and high bits (two loads and a xor), or
//!   as the columns themselves (one xor per set bit). The other tags of a slot are those of
//!   the values `value + k * slots` below [`Tags::value_limit`], each with every
//!   combination of the kernel xored in, in binary counting order: the runtime's order.
//!
//! The model holds only data; each language's template turns it into text, and the
//! language's emitter (`emit/<language>.rs`) quotes its literals.

use slotgen_tables::{AnyCrc, HashtagRule, MAX_TAG_LEN};

use super::common::comment_text;
use crate::crc_catalog::{AnyAlgorithm, Parameters};
use crate::request::TableSpec;
use crate::scheme::invert::SchemeSpec;
use crate::{Derivation, Error, Spec};

/// A CRC as the modules compute it: a table-driven register of `width` bits (8, 16, 24 or
/// 32), shifting right when `refin` (the register holds the reflected value) and left
/// otherwise.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Register {
    /// The CRC's parameters in the RevEng model.
    pub params: Parameters,
    /// Entry `i`: the register after feeding byte `i` into a zero register, in the low
    /// `width` bits (reflected when `refin`).
    pub table: [u64; 256],
    /// The register before the first byte: `init`, reflected when `refin`.
    pub start: u64,
}

impl Register {
    /// The register of an engine of any width.
    ///
    /// # Errors
    ///
    /// [`Error::SchemeCrcWidth`] when the width is not 8, 16, 24 or 32.
    fn of(crc: AnyCrc<'static>) -> Result<Self, Error> {
        // the engine's algorithm, its table, and the bits of its register type
        let (algorithm, table, bits) = match crc {
            AnyCrc::W8(e) => (AnyAlgorithm::W8(e.algorithm()), e.table().map(u64::from), 8),
            AnyCrc::W16(e) => (
                AnyAlgorithm::W16(e.algorithm()),
                e.table().map(u64::from),
                16,
            ),
            AnyCrc::W32(e) => (
                AnyAlgorithm::W32(e.algorithm()),
                e.table().map(u64::from),
                32,
            ),
            AnyCrc::W64(e) => {
                return Err(Error::SchemeCrcWidth {
                    width: e.algorithm().width,
                })
            }
        };
        let params = algorithm.parameters();
        if params.width % 8 != 0 {
            return Err(Error::SchemeCrcWidth {
                width: params.width,
            });
        }
        // The engine keeps an unreflected register in the high bits of its type.
        let table = if params.refin {
            table
        } else {
            table.map(|entry| entry >> (bits - u32::from(params.width)))
        };
        Ok(Self::new(params, table))
    }

    /// The register of a CRC-16 in the `crc` crate's model.
    fn of_crc16(alg: &crc::Algorithm<u16>) -> Self {
        let params = Parameters {
            width: alg.width,
            poly: alg.poly.into(),
            init: alg.init.into(),
            refin: alg.refin,
            refout: alg.refout,
            xorout: alg.xorout.into(),
            check: alg.check.into(),
            residue: alg.residue.into(),
        };
        Self::new(
            params,
            slotgen_tables::Crc16::new(alg).table().map(u64::from),
        )
    }

    /// The register of `params` with `table` (entries in the low `width` bits).
    fn new(params: Parameters, table: [u64; 256]) -> Self {
        Self {
            table,
            start: if params.refin {
                reflect(params.init, params.width)
            } else {
                params.init
            },
            params,
        }
    }

    /// Whether the register is reflected at the end (`refin != refout`).
    #[must_use]
    pub fn reflect_out(&self) -> bool {
        self.params.refin != self.params.refout
    }

    /// The catalogue CRC whose polynomial and bit order this register shares, which
    /// languages' standard libraries compute natively; `None` for any other. Its `init`
    /// and `xorout` may differ from the catalogue's: a native function that takes a
    /// starting register (Python's `binascii.crc_hqx(data, start)`, `zlib.crc32(data,
    /// value)`) computes any of them, and an emitter whose function takes none uses it only
    /// when [`start`](Self::start) is the catalogue's. The one owner of the native-or-table
    /// choice's question; each language's emitter answers it for the functions it has.
    ///
    /// ```
    /// use slotgen::emit::model::{Model, NativeCrc};
    ///
    /// let d = slotgen::derive(&slotgen::Spec::default())?;
    /// let model = Model::of(&d, "python", usize::MAX)?;
    /// assert_eq!(model.crc.native(), Some(NativeCrc::Xmodem));
    /// # Ok::<(), slotgen::Error>(())
    /// ```
    #[must_use]
    pub fn native(&self) -> Option<NativeCrc> {
        let p = &self.params;
        match (p.width, p.poly, p.refin, p.refout) {
            (16, 0x1021, false, false) => Some(NativeCrc::Xmodem),
            (32, 0x04c1_1db7, true, true) => Some(NativeCrc::IsoHdlc),
            (32, 0x1edc_6f41, true, true) => Some(NativeCrc::Iscsi),
            _ => None,
        }
    }

    /// `width` low bits set.
    #[must_use]
    pub fn width_mask(&self) -> u64 {
        crate::scheme::invert::low_mask(u32::from(self.params.width))
    }

    /// Hex digits of a register value.
    #[must_use]
    pub fn digits(&self) -> usize {
        usize::from(self.params.width / 4)
    }
}

/// A catalogue CRC's polynomial and bit order, by the catalogue CRC named for it: what
/// [`Register::native`] answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NativeCrc {
    /// CRC-16/XMODEM's: polynomial `0x1021`, unreflected (Python's `binascii.crc_hqx`,
    /// which starts from any register and xors nothing out).
    Xmodem,
    /// CRC-32/ISO-HDLC's: polynomial `0x04c11db7`, reflected both ways, whose start and
    /// xorout are `0xffffffff` (zlib's `crc32`: the Python module calls `zlib.crc32`, the
    /// PHP module `crc32()`, the Ruby module `Zlib.crc32`, the Go module `hash/crc32`, the
    /// Java module `java.util.zip.CRC32`, the Erlang module `erlang:crc32/2`).
    IsoHdlc,
    /// CRC-32/ISCSI's (CRC-32C): polynomial `0x1edc6f41`, reflected both ways, whose start
    /// and xorout are `0xffffffff` (the Go module's `crc` of a `[]byte` calls `hash/crc32`
    /// with `crc32.Castagnoli`, the Java module `java.util.zip.CRC32C`; Go's `crcString`
    /// keeps the table, as a string key would be copied into a `[]byte`).
    Iscsi,
}

/// `value`'s low `width` bits in reverse order.
fn reflect(value: u64, width: u8) -> u64 {
    value.reverse_bits() >> (64 - u32::from(width))
}

/// Which bytes of a key are hashed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyRule {
    /// The whole key (Couchbase, Tarantool vshard, librdkafka, twemproxy without
    /// `hash_tag`): a key that lands on a slot is the tag alone.
    WholeKey,
    /// The bytes between the first `open` and the first `close` after it, when there are at
    /// least `min_len` of them; else the whole key. Redis Cluster's is `{`, `}`, 1; Codis's
    /// `{`, `}`, 0 (`{}` hashes the empty string).
    Delimited {
        /// The byte that opens a hashtag.
        open: u8,
        /// The byte that closes it.
        close: u8,
        /// The shortest hashtag that is hashed: 1, or 0 for Codis.
        min_len: usize,
    },
}

impl KeyRule {
    /// The rule of a scheme.
    pub(crate) fn of(rule: HashtagRule) -> Self {
        match rule.delimiters() {
            None => Self::WholeKey,
            Some([open, close]) => Self::Delimited {
                open,
                close,
                min_len: usize::from(!rule.hashes_empty_tag()),
            },
        }
    }

    /// The delimiters, `None` for the whole key.
    #[must_use]
    pub fn delimiters(self) -> Option<[u8; 2]> {
        match self {
            Self::WholeKey => None,
            Self::Delimited { open, close, .. } => Some([open, close]),
        }
    }

    /// The rule in words, for comments ([`crate::key_layout::rule_words`]).
    #[must_use]
    pub fn describe(self) -> String {
        let (delimiters, hashes_empty_tag) = match self {
            Self::WholeKey => (None, false),
            Self::Delimited {
                open,
                close,
                min_len,
            } => (Some([open, close]), min_len == 0),
        };
        crate::key_layout::rule_words(delimiters, hashes_empty_tag, comment_text)
    }
}

/// How the CRC becomes a slot: `((crc >> shift) & mask) % slots + first`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reduction {
    /// The right shift.
    pub shift: u32,
    /// The mask after the shift, a run of `value_bits` low bits within the register.
    pub mask: u64,
    /// The transformed value's width in bits: the mask's.
    pub value_bits: u32,
    /// The slot count.
    pub slots: u32,
    /// The first slot: 0, or 1 for Tarantool vshard.
    pub first: u32,
    /// The last slot: the scheme's [`Scheme::last`](slotgen_tables::Scheme::last), or
    /// `slots - 1` for a CRC-16 table.
    last_slot: u32,
}

impl Reduction {
    /// The last slot.
    #[must_use]
    pub fn last(&self) -> u32 {
        self.last_slot
    }

    /// The slot of the CRC `crc` (an expression) as every module's header writes it, in the
    /// infix operators of C: `crc & 0x3fff` for Redis Cluster, `((crc >> 16) & 0x7fff) %
    /// 1024` for Couchbase, `(crc & 0xffffffff) % 3000 + 1` for Tarantool vshard. The text
    /// is the templates' own (the macro `infix` of `emit/template/reduction.jinja`, which
    /// each language's template calls with its operators), so that a header and the code
    /// below it spell the slot alike.
    ///
    /// ```
    /// use slotgen::emit::model::Model;
    ///
    /// let d = slotgen::derive(&slotgen::Spec::default())?;
    /// let model = Model::of(&d, "python", usize::MAX)?;
    /// assert_eq!(model.reduction.formula("crc"), "crc & 0x3fff");
    /// # Ok::<(), slotgen::Error>(())
    /// ```
    #[must_use]
    pub fn formula(&self, crc: &str) -> String {
        super::engine::render_source(
            "formula",
            "<% from \"reduction.jinja\" import infix %>{{ infix(r, crc, r.mask | hex) }}",
            &minijinja::context! { r => self.value(), crc },
        )
    }

    /// The reduction as the templates' value `reduction`: `shift`, `mask`, `value_bits`,
    /// `slots`, `first`, and `modulus` ([`needs_modulus`](Self::needs_modulus)).
    pub(crate) fn value(&self) -> minijinja::Value {
        minijinja::context! {
            shift => self.shift,
            mask => self.mask,
            value_bits => self.value_bits,
            slots => self.slots,
            first => self.first,
            modulus => self.needs_modulus(),
        }
    }

    /// Whether `% slots` changes a masked value: false when the mask keeps exactly the
    /// slot's bits (Redis Cluster), so that a module may leave the division out.
    #[must_use]
    pub fn needs_modulus(&self) -> bool {
        self.mask.checked_add(1) != Some(u64::from(self.slots))
    }
}

/// The tags, as byte rows of `len` bytes each.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tags {
    /// Symbols (bytes) per tag.
    pub len: usize,
    /// The tag of value 0.
    pub zero: Vec<u8>,
    /// `columns[i]`: the bytes that flip bit `i` of the value; one per solved bit.
    pub columns: Vec<Vec<u8>>,
    /// A basis of the kernel: bytes whose xor keeps the value.
    pub kernel: Vec<Vec<u8>>,
    /// `2^columns.len()`: the values a tag reaches; a slot's are `slot - first + k * slots`
    /// below it.
    pub value_limit: u64,
}

impl Tags {
    /// The tag of `value` (below [`value_limit`](Self::value_limit)): `zero` xor the
    /// columns of its set bits.
    #[must_use]
    pub fn of_value(&self, value: u64) -> Vec<u8> {
        let mut tag = self.zero.clone();
        for (i, column) in self.columns.iter().enumerate() {
            if value >> i & 1 == 1 {
                xor_into(&mut tag, column);
            }
        }
        tag
    }

    /// How many tags one value has: `2^kernel` (a `u128`: it may pass 64 bits).
    #[must_use]
    pub fn per_value(&self) -> u128 {
        1u128 << self.kernel.len()
    }
}

/// `row ^= other`, byte by byte.
fn xor_into(row: &mut [u8], other: &[u8]) {
    for (b, o) in row.iter_mut().zip(other) {
        *b ^= o;
    }
}

/// How a module holds the map from value to tag.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Lookup {
    /// Two tables: the tag of `value` is `low[value & (2^low_bits - 1)] ^ high[value >>
    /// low_bits]`, with the zero tag folded into `low` (whole tags) and `high` holding
    /// byte differences. Chosen when at most [`Lookup::SPLIT_MAX_BITS`] bits are solved for.
    Split {
        /// The bits of the value that index `low`: `ceil(bits / 2)`.
        low_bits: u32,
        /// `2^low_bits` whole tags.
        low: Vec<Vec<u8>>,
        /// `2^(bits - low_bits)` byte differences.
        high: Vec<Vec<u8>>,
    },
    /// The columns of [`Tags`] themselves: one xor per set bit of the value.
    Columns,
}

impl Lookup {
    /// The most solved bits that are held as two tables (of 256 entries each at most).
    pub const SPLIT_MAX_BITS: usize = 16;

    /// The lookup of `tags`: [`Lookup::Split`] for up to
    /// [`SPLIT_MAX_BITS`](Self::SPLIT_MAX_BITS) solved bits, else [`Lookup::Columns`].
    fn of(tags: &Tags) -> Self {
        let bits = tags.columns.len();
        if bits > Self::SPLIT_MAX_BITS {
            return Self::Columns;
        }
        let low_bits = u32::try_from(bits.div_ceil(2)).expect("at most 16 bits");
        let high_bits = u32::try_from(bits).expect("at most 16 bits") - low_bits;
        let low = (0..1u64 << low_bits).map(|v| tags.of_value(v)).collect();
        let high = (0..1u64 << high_bits)
            .map(|v| {
                let mut row = tags.of_value(v << low_bits);
                xor_into(&mut row, &tags.zero);
                row
            })
            .collect();
        Self::Split {
            low_bits,
            low,
            high,
        }
    }
}

/// Real values for a module's usage comment, computed by the Rust runtime.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Examples {
    /// The slot of the key `123456789`.
    pub check_slot: u32,
    /// The canonical tag of the first slot.
    pub tag: Vec<u8>,
    /// The prefix and suffix of the example key: `user:` and `:profile`, or another pair
    /// whose prefix holds no opening delimiter; none when the whole key is hashed.
    pub prefix: &'static [u8],
    /// See [`prefix`](Self::prefix).
    pub suffix: &'static [u8],
    /// The key of the first slot with the prefix and suffix.
    pub key: Vec<u8>,
}

/// What a module's header says: the command that makes it and the spec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The `slotgen` options after `slotgen emit LANGUAGE`, every one spelled out
    /// ([`spec_options`](super::spec_options)).
    pub options: String,
    /// The spec in one paragraph.
    pub spec: String,
    /// The CRC's parameters and the slot formula, one line.
    pub crc: String,
}

/// Everything an emitted module is made of, from one derivation. See the module's docs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Model {
    /// The scheme's name: `redis-cluster` for a CRC-16 table.
    pub scheme: &'static str,
    /// The systems that use the scheme, for docs.
    pub systems: &'static str,
    /// The CRC.
    pub crc: Register,
    /// Which bytes of a key are hashed.
    pub rule: KeyRule,
    /// From CRC to slot.
    pub reduction: Reduction,
    /// The alphabet's symbols.
    pub alphabet: Vec<u8>,
    /// The tags.
    pub tags: Tags,
    /// How the value -> tag map is held.
    pub lookup: Lookup,
    /// The usage example's values.
    pub examples: Examples,
    /// The header's lines.
    pub header: Header,
}

/// The most slots whose tags a module keeps ready, every slot's tag made once (at import,
/// at compile time, or written in its source) so that `tag_for_slot` is one lookup: 16384
/// tags of at most 16 bytes, 256 KiB and a few milliseconds. Redis Cluster's 16384 slots,
/// Codis's and Couchbase's 1024, Tarantool's 3000 by default are within it; a module of more
/// slots (up to the hundreds of millions a scheme takes) computes each tag at its call, so
/// that its import, compile time and memory stay small whatever the slot count.
pub const READY_TAGS: u32 = 16384;

impl Model {
    /// Whether the module keeps every slot's tag ready: at most [`READY_TAGS`] slots.
    #[must_use]
    pub fn ready_tags(&self) -> bool {
        self.reduction.slots <= READY_TAGS
    }

    /// The model of `derivation`, for the module of `language` (as `slotgen emit` names it),
    /// whose counter of a value's tags holds `2^max_kernel_len` at most. A CRC-16 spec's
    /// module reads as Redis Cluster's (the scheme `redis-cluster`, its header naming the
    /// CRC); a scheme's names the scheme.
    ///
    /// # Errors
    ///
    /// - [`Error::SchemeRegister`] when the CRC runs in a register of its own
    ///   (`twemproxy-crc16`), which the modules do not model.
    /// - [`Error::SchemeCrcWidth`] when the CRC's width is not 8, 16, 24 or 32.
    /// - [`Error::TagCount`] when a value has more tags than the language counts.
    ///
    /// # Examples
    ///
    /// ```
    /// use slotgen::emit::model::{Model, Lookup};
    ///
    /// let d = slotgen::derive(&slotgen::Spec::default())?;
    /// let model = Model::of(&d, "python", usize::MAX)?;
    /// assert_eq!(model.examples.tag, b"DLH@");
    /// assert_eq!((model.reduction.slots, model.reduction.mask), (16384, 0x3fff));
    /// assert!(matches!(model.lookup, Lookup::Split { low_bits: 7, .. }));
    /// # Ok::<(), slotgen::Error>(())
    /// ```
    pub fn of(
        derivation: &Derivation,
        language: &'static str,
        max_kernel_len: usize,
    ) -> Result<Self, Error> {
        let model = match &derivation.spec {
            TableSpec::Crc16(spec) => Self::of_crc16(derivation, spec),
            TableSpec::Scheme(spec) => Self::of_scheme(derivation, spec, language)?,
        };
        if model.tags.kernel.len() > max_kernel_len {
            return Err(Error::TagCount {
                language,
                kernel_len: model.tags.kernel.len(),
                max_kernel_len,
            });
        }
        Ok(model)
    }

    fn of_crc16(d: &Derivation, spec: &Spec) -> Self {
        let table = d
            .slot_table()
            .expect("a CRC-16 spec's derivation has its slot tables");
        let words = &d.slot_tables.as_ref().expect("as above").words;
        let tag_len = d.tag_len;
        let row = |entry: &[u8; MAX_TAG_LEN]| entry[..tag_len].to_vec();
        let tag = |slot: u16| {
            table
                .tag_for_slot(slot)
                .expect("a power of two below the slot count is a slot")
                .as_ref()
                .to_vec()
        };
        let zero = tag(0);
        let bits = d.slot_bits();
        let columns = (0..bits)
            .map(|i| {
                let mut column = tag(1 << i);
                xor_into(&mut column, &zero);
                column
            })
            .collect();
        let tags = Tags {
            len: tag_len,
            zero,
            columns,
            kernel: words.kernel.iter().map(row).collect(),
            value_limit: u64::from(spec.slots),
        };
        let reduction = Reduction {
            shift: 0,
            mask: u64::from(spec.slots - 1),
            value_bits: bits,
            slots: spec.slots,
            first: 0,
            last_slot: spec.slots - 1,
        };
        let crc = Register::of_crc16(&spec.crc);
        let (prefix, suffix) = (&b"user:"[..], &b":profile"[..]);
        let examples = Examples {
            check_slot: u32::from(table.key_slot(b"123456789")),
            tag: tags.zero.clone(),
            prefix,
            suffix,
            key: table
                .key_for_slot(prefix, 0, suffix)
                .expect("slot 0 is in range and the prefix has no `{`"),
        };
        let header = Header {
            options: super::spec_options(d),
            spec: super::describe(d),
            crc: crc_line(&crc, &reduction),
        };
        Self {
            scheme: slotgen_tables::SchemeName::RedisCluster.name(),
            systems: slotgen_tables::SchemeName::RedisCluster.systems(),
            rule: KeyRule::Delimited {
                open: b'{',
                close: b'}',
                min_len: 1,
            },
            alphabet: d.alphabet.symbols().to_vec(),
            lookup: Lookup::of(&tags),
            tags,
            reduction,
            crc,
            examples,
            header,
        }
    }

    fn of_scheme(d: &Derivation, spec: &SchemeSpec, language: &'static str) -> Result<Self, Error> {
        let scheme = &d.scheme;
        if scheme.register() != slotgen_tables::Register::Crc {
            return Err(Error::SchemeRegister {
                scheme: spec.name.name(),
                language,
            });
        }
        let crc = Register::of(scheme.crc())?;
        let (shift, mask) = scheme.transform();
        let value_bits = scheme
            .value_bits()
            .expect("a derived scheme's mask is a run of low bits");
        let tag_len = d.tag_len;
        let row = |entry: &[u8; MAX_TAG_LEN]| entry[..tag_len].to_vec();
        let table = d.table();
        let tags = Tags {
            len: tag_len,
            zero: table.tag_for_value(0).as_ref().to_vec(),
            columns: d.columns.iter().map(row).collect(),
            kernel: d.kernel_words.iter().map(row).collect(),
            value_limit: 1u64 << d.solved.bits(),
        };
        let slots = scheme.slots();
        let mask = mask & crc.width_mask() >> shift;
        // `(value & mask) % slots` keeps the low bits alone when `slots` is a power of two
        // that the mask holds: one reduction, the mask's, as a CRC-16 table has it.
        let (mask, value_bits) = if slots.is_power_of_two() && u64::from(slots) <= mask + 1 {
            (u64::from(slots - 1), slots.trailing_zeros())
        } else {
            (mask, value_bits)
        };
        let reduction = Reduction {
            shift,
            mask,
            value_bits,
            slots,
            first: scheme.offset(),
            last_slot: scheme.last(),
        };
        let rule = KeyRule::of(scheme.hashtag());
        let (prefix, suffix) = example_affixes(rule);
        let first = reduction.first;
        let mut key = vec![0; prefix.len() + tag_len + 2 + suffix.len()];
        let len = table
            .write_key_for_slot(prefix, first, suffix, &mut key)
            .expect("the example affixes hold no delimiter");
        key.truncate(len);
        let examples = Examples {
            check_slot: scheme.slot(b"123456789"),
            tag: table
                .tag_for_slot(first)
                .expect("the first slot is in range")
                .as_ref()
                .to_vec(),
            prefix,
            suffix,
            key,
        };
        let name = spec.name;
        let header = Header {
            options: super::spec_options(d),
            spec: format!(
                "scheme {} ({}), {} slots ({} to {}), hashtag: {}; alphabet `{}`, {}-symbol tags, solved for {}",
                name.name(),
                name.systems(),
                reduction.slots,
                first,
                reduction.last(),
                rule.describe(),
                crate::text::show_bytes(d.alphabet.symbols()),
                tag_len,
                d.solved.describe(),
            ),
            crc: crc_line(&crc, &reduction),
        };
        Ok(Self {
            scheme: name.name(),
            systems: name.systems(),
            crc,
            rule,
            reduction,
            alphabet: d.alphabet.symbols().to_vec(),
            lookup: Lookup::of(&tags),
            tags,
            examples,
            header,
        })
    }

    /// The header every module starts with, each line behind `comment`: the command that
    /// makes the file (`slotgen emit {language} {options}`, `language` carrying the
    /// language's own options), the spec, and the CRC and its slot formula.
    #[must_use]
    pub fn header(&self, language: &str, comment: &str) -> String {
        super::common::comment_header(
            &format!("slotgen emit {language} {}", self.header.options),
            &self.header.spec,
            &self.header.crc,
            comment,
        )
    }
}

/// The CRC line of a header: its parameters and the slot formula.
fn crc_line(crc: &Register, r: &Reduction) -> String {
    let c = &crc.params;
    let w = crc.digits() + 2;
    format!(
        "CRC: width {}, poly {:#0w$x}, init {:#0w$x}, refin {}, refout {}, xorout {:#0w$x}, check {:#0w$x}; slot = {}.",
        c.width, c.poly, c.init, c.refin, c.refout, c.xorout, c.check, r.formula("crc")
    )
}

/// The prefix and suffix of every emitted file's usage example: `user:` and `:profile`, or
/// `user-` and `-profile`, or `user` and `profile`, the first whose prefix holds no opening
/// delimiter of the rule; none when the whole key is hashed.
pub(crate) fn example_affixes(rule: KeyRule) -> (&'static [u8], &'static [u8]) {
    const CANDIDATES: [(&[u8], &[u8]); 3] = [
        (b"user:", b":profile"),
        (b"user-", b"-profile"),
        (b"user", b"profile"),
    ];
    match rule.delimiters() {
        None => (b"", b""),
        // an opening delimiter among the letters of `user`: no affixes
        Some([open, _]) => CANDIDATES
            .into_iter()
            .find(|(prefix, _)| !prefix.contains(&open))
            .unwrap_or((b"", b"")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::derive;
    use crate::scheme::invert::SchemeSpec;
    use slotgen_tables::SchemeName;

    /// The split tables give every slot's tag as the runtime does, for CRC-16 tables and
    /// for schemes whose low bits are solved for.
    #[test]
    fn split_tables_give_the_runtimes_tags() {
        for slots in [256, 4096, 16384] {
            let spec = crate::Spec {
                slots,
                ..crate::Spec::default()
            };
            let d = crate::derive(&spec).unwrap();
            let model = Model::of(&d, "test", usize::MAX).unwrap();
            let Lookup::Split {
                low_bits,
                low,
                high,
            } = &model.lookup
            else {
                panic!("{slots} slots: split");
            };
            assert_eq!(*low_bits, d.slot_tables.as_ref().unwrap().low_bits);
            let table = d.slot_table().unwrap();
            for slot in 0..u16::try_from(slots).unwrap_or(u16::MAX) {
                let (a, b) = (
                    usize::from(slot) & ((1 << low_bits) - 1),
                    usize::from(slot) >> low_bits,
                );
                let tag: Vec<u8> = low[a].iter().zip(&high[b]).map(|(x, y)| x ^ y).collect();
                assert_eq!(
                    tag,
                    table.tag_for_slot(slot).unwrap().as_ref(),
                    "{slots} slots, slot {slot}"
                );
            }
        }
        let d = derive(&SchemeSpec::new(SchemeName::Codis)).unwrap();
        let model = Model::of(&d, "test", usize::MAX).unwrap();
        let Lookup::Split {
            low_bits,
            low,
            high,
        } = &model.lookup
        else {
            panic!("codis: split");
        };
        let table = d.table();
        for slot in 0..1024u32 {
            let s = slot as usize;
            let tag: Vec<u8> = low[s & ((1 << low_bits) - 1)]
                .iter()
                .zip(&high[s >> low_bits])
                .map(|(x, y)| x ^ y)
                .collect();
            assert_eq!(
                tag,
                table.tag_for_slot(slot).unwrap().as_ref(),
                "codis slot {slot}"
            );
        }
    }

    /// Every slot's tag by the model's columns is the runtime's, for a CRC-16 table and for
    /// a scheme whose whole value is solved for.
    #[test]
    fn columns_give_the_runtimes_tags() {
        let d = crate::derive(&crate::Spec::default()).unwrap();
        let model = Model::of(&d, "test", usize::MAX).unwrap();
        let table = d.slot_table().unwrap();
        for slot in 0..16384u16 {
            let want = table.tag_for_slot(slot).unwrap();
            assert_eq!(
                model.tags.of_value(slot.into()),
                want.as_ref(),
                "slot {slot}"
            );
        }
        let d = derive(&SchemeSpec::new(SchemeName::TarantoolVshard)).unwrap();
        let model = Model::of(&d, "test", usize::MAX).unwrap();
        assert_eq!(model.lookup, Lookup::Columns);
        let table = d.table();
        for slot in 1..=3000 {
            let want = table.tag_for_slot(slot).unwrap();
            let value = u64::from(slot - 1);
            assert_eq!(model.tags.of_value(value), want.as_ref(), "bucket {slot}");
        }
    }

    /// Redis Cluster is one scheme among others: its CRC-16 derivation and its scheme
    /// derivation give the same model but for the header's command line.
    #[test]
    fn redis_cluster_is_one_model() {
        let crc16 = crate::derive(&crate::Spec::default()).unwrap();
        let scheme = derive(&SchemeSpec::new(SchemeName::RedisCluster)).unwrap();
        let a = Model::of(&crc16, "test", usize::MAX).unwrap();
        let b = Model::of(&scheme, "test", usize::MAX).unwrap();
        assert_eq!(a.crc, b.crc);
        assert_eq!(a.rule, b.rule);
        assert_eq!(a.reduction, b.reduction);
        assert_eq!(a.alphabet, b.alphabet);
        assert_eq!(a.tags, b.tags);
        assert_eq!(a.lookup, b.lookup);
        assert_eq!(a.examples, b.examples);
        assert_eq!(a.header.crc, b.header.crc);
    }
}
