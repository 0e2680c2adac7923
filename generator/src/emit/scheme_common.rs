//! What every module of a sharding scheme shares (the `scheme_module` of each language,
//! for a [`SchemeDerivation`]): the scheme's facts, computed once here from the derivation
//! and the runtime, and the template values they give every language ([`shared`]).
//!
//! Every scheme module computes the same two things, whatever its language:
//!
//! - `slot(key) = ((crc(hashed(key)) >> shift) & mask) % slots + first`, where `hashed` is the
//!   scheme's hashtag rule and `crc` a table-driven register of the scheme's CRC (the
//!   reduction by a mask of Redis Cluster is `% slots` too: its slot count is a power of
//!   two);
//! - `tag(value) = zero_tag ^ columns[i]` over the set bits `i` of `value`, for `value =
//!   slot - first`: the columns of the runtime's [`SchemeTable`](slotgen_tables::SchemeTable)
//!   with its base value folded into the tag of value 0, because the lookup is linear in
//!   the value's bits. The other tags of a slot are those of the values `value + k * slots`
//!   below `2^solved_bits` (only when the whole value is solved for), each with every
//!   combination of the kernel xored in, in binary counting order: the runtime's order.

use slotgen_tables::{AnyCrc, HashtagRule, SchemeName};

use super::common::{comment_header, comment_text, hex, rows, Syntax};
use crate::crc_catalog::{AnyAlgorithm, Parameters};
use crate::scheme::invert::SchemeDerivation;
use crate::Error;

/// A scheme's CRC as the modules compute it: a table-driven register of `width` bits (8,
/// 16, 24 or 32), shifting right when `refin` (the register holds the reflected value) and
/// left otherwise.
pub(crate) struct SchemeCrc {
    /// The CRC's parameters in the RevEng model.
    pub params: Parameters,
    /// Entry `i`: the register after feeding byte `i` into a zero register, in the low
    /// `width` bits (reflected when `refin`).
    pub table: [u64; 256],
    /// The register before the first byte: `init`, reflected when `refin`.
    pub start: u64,
}

impl SchemeCrc {
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
        Ok(Self {
            table,
            start: if params.refin {
                reflect(params.init, params.width)
            } else {
                params.init
            },
            params,
        })
    }

    /// Whether the register is reflected at the end (`refin != refout`).
    pub fn reflect_out(&self) -> bool {
        self.params.refin != self.params.refout
    }

    /// `width` low bits set.
    pub fn width_mask(&self) -> u64 {
        crate::scheme::invert::low_mask(u32::from(self.params.width))
    }

    /// Hex digits of a register value.
    pub fn digits(&self) -> usize {
        usize::from(self.params.width / 4)
    }

    /// The register's bytes, `width / 8` of them.
    pub fn bytes(&self) -> usize {
        usize::from(self.params.width / 8)
    }

    /// The lines that finish the register after the last byte, in one language: `reflect`
    /// when `refin != refout`, then `xor(xorout)` when `xorout` is not zero.
    pub fn finish(&self, reflect: &str, xor: impl FnOnce(u64) -> String) -> String {
        let mut lines = String::new();
        if self.reflect_out() {
            lines += reflect;
        }
        if self.params.xorout != 0 {
            lines += &xor(self.params.xorout);
        }
        lines
    }
}

/// `value`'s low `width` bits in reverse order.
fn reflect(value: u64, width: u8) -> u64 {
    value.reverse_bits() >> (64 - u32::from(width))
}

/// Everything a scheme module is made of, from one derivation.
pub(crate) struct SchemeFacts<'d> {
    /// The derivation.
    pub derivation: &'d SchemeDerivation,
    /// The named scheme.
    pub name: SchemeName,
    /// The CRC.
    pub crc: SchemeCrc,
    /// The output transform's right shift.
    pub shift: u32,
    /// The output transform's mask, a run of low bits.
    pub mask: u64,
    /// The transformed value's width in bits: the mask's.
    pub value_bits: u32,
    /// The slot count.
    pub slots: u32,
    /// The first slot: 0, or 1 for Tarantool vshard.
    pub first: u32,
    /// The last slot.
    pub last: u32,
    /// The bytes that open and close a hashtag; `None` when the whole key is hashed.
    pub delimiters: Option<[u8; 2]>,
    /// The shortest hashtag that is hashed: 1, or 0 for Codis (whose `{}` hashes the empty
    /// string); a shorter one hashes the whole key.
    pub min_tag_len: usize,
    /// Symbols per tag.
    pub tag_len: usize,
    /// The tag whose value is 0: the base tag (`tag_len` copies of the alphabet's first
    /// symbol) with the columns of the base value's set bits xored in.
    pub zero_tag: Vec<u8>,
    /// `columns[i]`: the byte differences that flip bit `i` of the value, `tag_len` bytes.
    pub columns: Vec<Vec<u8>>,
    /// The kernel: byte differences that keep the solved bits, `tag_len` bytes each.
    pub kernel: Vec<Vec<u8>>,
    /// `2^solved_bits`: the values a tag reaches; a slot's values are below it.
    pub value_limit: u64,
}

impl<'d> SchemeFacts<'d> {
    /// The facts of `derivation`, for the module of `language` (as `slotgen emit` names it),
    /// whose counter of a value's tags holds `2^max_kernel_len` at most.
    ///
    /// # Errors
    ///
    /// - [`Error::SchemeRegister`] when the CRC runs in a register of its own
    ///   (`twemproxy-crc16`).
    /// - [`Error::SchemeCrcWidth`] when the CRC's width is not 8, 16, 24 or 32.
    /// - [`Error::TagCount`] when a value has more tags than the language counts.
    pub fn of(
        derivation: &'d SchemeDerivation,
        language: &'static str,
        max_kernel_len: usize,
    ) -> Result<Self, Error> {
        let scheme = &derivation.scheme;
        if scheme.register() != slotgen_tables::Register::Crc {
            return Err(Error::SchemeRegister {
                scheme: derivation.spec.name.name(),
                language,
            });
        }
        let crc = SchemeCrc::of(scheme.crc())?;
        if derivation.kernel.len() > max_kernel_len {
            return Err(Error::TagCount {
                language,
                kernel_len: derivation.kernel.len(),
                max_kernel_len,
            });
        }
        let (shift, mask) = scheme.transform();
        let value_bits = scheme
            .value_bits()
            .expect("a derived scheme's mask is a run of low bits");
        let tag_len = derivation.tag_len;
        let row = |entry: &[u8; slotgen_tables::MAX_TAG_LEN]| entry[..tag_len].to_vec();
        let zero_tag = derivation.table().tag_for_value(0).as_ref().to_vec();
        let first = scheme.offset();
        Ok(Self {
            derivation,
            name: derivation.spec.name,
            shift,
            mask: mask & crc.width_mask() >> shift,
            value_bits,
            slots: scheme.slots(),
            first,
            last: first + (scheme.slots() - 1),
            delimiters: scheme.hashtag().delimiters(),
            min_tag_len: usize::from(!matches!(scheme.hashtag(), HashtagRule::Codis)),
            tag_len,
            zero_tag,
            columns: derivation.columns.iter().map(row).collect(),
            kernel: derivation.kernel_words.iter().map(row).collect(),
            value_limit: 1u64 << derivation.solved.bits(),
            crc,
        })
    }

    /// The slot of the key `123456789`, by the runtime.
    pub fn check_slot(&self) -> u32 {
        self.derivation.scheme.slot(b"123456789")
    }

    /// The tag of the first slot, by the runtime.
    pub fn first_tag(&self) -> Vec<u8> {
        self.derivation
            .table()
            .tag_for_slot(self.first)
            .expect("the first slot is in range")
            .as_ref()
            .to_vec()
    }

    /// The prefix and suffix of the usage examples ([`example_affixes`]).
    pub fn example_affixes(&self) -> (&'static [u8], &'static [u8]) {
        example_affixes(self.derivation)
    }

    /// The key of the first slot with [`example_affixes`](Self::example_affixes), by the
    /// runtime.
    pub fn first_key(&self) -> Vec<u8> {
        let (prefix, suffix) = self.example_affixes();
        let table = self.derivation.table();
        let mut key = vec![0; prefix.len() + self.tag_len + 2 + suffix.len()];
        let len = table
            .write_key_for_slot(prefix, self.first, suffix, &mut key)
            .expect("the example affixes hold no delimiter");
        key.truncate(len);
        key
    }

    /// The hashtag rule in words, for comments.
    pub fn rule_doc(&self) -> String {
        let show = |b: u8| comment_text(&[b]);
        match (self.delimiters, self.min_tag_len) {
            (None, _) => "the whole key (this scheme has no hashtag)".to_owned(),
            (Some([open, close]), 0) => format!(
                "the bytes between the first `{}` and the first `{}` after it, even none (an empty hashtag hashes the empty string); the whole key when there is no such pair",
                show(open),
                show(close)
            ),
            (Some([open, close]), _) => format!(
                "the bytes between the first `{}` and the first `{}` after it; the whole key when there is no such pair or the hashtag is empty",
                show(open),
                show(close)
            ),
        }
    }

    /// The `slotgen` options that name this derivation ([`super::common::scheme_options`]).
    pub fn options(&self) -> String {
        super::common::scheme_options(self.derivation)
    }

    /// The header every scheme module starts with, each line behind `comment`: the command
    /// that makes the file (`slotgen emit {language} {options}`, `language` carrying the
    /// language's own options), the spec, and the CRC and its transform.
    pub fn header(&self, language: &str, comment: &str) -> String {
        let c = &self.crc.params;
        let d = self.derivation;
        let spec = format!(
            "scheme {} ({}), {} slots ({} to {}), hashtag: {}; alphabet `{}`, {}-symbol tags, solved for {}",
            self.name.name(),
            self.name.systems(),
            self.slots,
            self.first,
            self.last,
            self.rule_doc(),
            crate::error::show_bytes(d.alphabet.symbols()),
            self.tag_len,
            d.solved.describe(),
        );
        let w = self.crc.digits() + 2;
        let crc = format!(
            "CRC: width {}, poly {:#0w$x}, init {:#0w$x}, refin {}, refout {}, xorout {:#0w$x}, check {:#0w$x}; slot = ((crc >> {}) & {:#x}) % {} + {}.",
            c.width, c.poly, c.init, c.refin, c.refout, c.xorout, c.check, self.shift, self.mask, self.slots, self.first
        );
        comment_header(
            &format!("slotgen emit {language} {}", self.options()),
            &spec,
            &crc,
            comment,
        )
    }
}

/// The prefix and suffix of every emitted file's usage example: `user:` and `:profile`, or
/// `user-` and `-profile`, or `user` and `profile`, the first whose prefix holds no opening
/// delimiter of the scheme's hashtag; none when the whole key is hashed.
pub(crate) fn example_affixes(derivation: &SchemeDerivation) -> (&'static [u8], &'static [u8]) {
    const CANDIDATES: [(&[u8], &[u8]); 3] = [
        (b"user:", b":profile"),
        (b"user-", b"-profile"),
        (b"user", b"profile"),
    ];
    match derivation.scheme.hashtag().delimiters() {
        None => (b"", b""),
        // an opening delimiter among the letters of `user`: no affixes
        Some([open, _]) => CANDIDATES
            .into_iter()
            .find(|(prefix, _)| !prefix.contains(&open))
            .unwrap_or((b"", b"")),
    }
}

/// Byte rows as hex literals, one row of `tag_len` bytes to a line behind `indent`, each
/// byte followed by `,`. No final newline; empty for no rows.
pub(crate) fn byte_rows(rows_of: &[Vec<u8>], indent: &str) -> String {
    rows_of
        .iter()
        .map(|row| {
            rows(
                &hex(row.iter().map(|&b| u64::from(b)), 2),
                row.len(),
                indent,
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A row of bytes as one little-endian integer in hex (`0x` and two digits a byte, the last
/// byte first), for the languages whose integers have no bound.
pub(crate) fn little_endian_hex(row: &[u8]) -> String {
    let digits: String = row.iter().rev().map(|b| format!("{b:02x}")).collect();
    format!("0x{digits}")
}

/// The template values that mean the same in every scheme module, spelled in `syntax`
/// (`command` is what follows `slotgen emit`, `int_suffix` goes after the CRC's start value
/// and table entries):
///
/// - `header` ([`SchemeFacts::header`]) and the usage examples `check_slot`, `tag`, `key`
///   (comment text), `rule_doc`, `solved_doc`;
/// - the slots: `slots`, `first_slot`, `last_slot`, `value_limit`;
/// - the CRC: `crc_width`, `crc_table` (hex rows of 8), `crc_start`, `reflected_note`,
///   `shift`, `value_mask`, `value_bits`;
/// - the tags: `tag_len`, `zero_tag`, `columns`, `kernel` (hex byte rows), `zero_int`,
///   `column_ints`, `kernel_ints` (little-endian integers, one a line), `solved_bits`,
///   `kernel_len`, `tags_per_value` (`2^kernel_len`);
/// - the hashtag: `open`, `close` (hex bytes, `0x00` for a whole-key scheme),
///   `min_tag_len`;
/// - the usage example's affixes as double-quoted strings, `example_prefix` and
///   `example_suffix` ([`SchemeFacts::example_affixes`], plain ASCII);
/// - for languages without shifts (Lua 5.1): `shift_divisor` (`2^shift`) and
///   `value_modulus` (`2^value_bits`).
pub(crate) fn shared(facts: &SchemeFacts, syntax: &Syntax) -> Vec<(&'static str, String)> {
    let c = &facts.crc;
    let suffixed = |v: u64| format!("{v:#0w$x}{}", syntax.int_suffix, w = c.digits() + 2);
    let table: Vec<String> = c.table.iter().map(|&v| suffixed(v)).collect();
    let ints = |rows_of: &[Vec<u8>]| {
        rows(
            &rows_of
                .iter()
                .map(|r| little_endian_hex(r))
                .collect::<Vec<_>>(),
            1,
            syntax.indent,
        )
    };
    let [open, close] = facts.delimiters.unwrap_or([0, 0]);
    let (prefix, suffix) = facts.example_affixes();
    let quoted = |b: &[u8]| format!("\"{}\"", String::from_utf8_lossy(b));
    vec![
        ("header", facts.header(syntax.command, syntax.comment)),
        ("scheme", facts.name.name().to_owned()),
        ("check_slot", facts.check_slot().to_string()),
        ("tag", comment_text(&facts.first_tag())),
        ("key", comment_text(&facts.first_key())),
        ("rule_doc", facts.rule_doc()),
        ("solved_doc", facts.derivation.solved.describe()),
        ("slots", facts.slots.to_string()),
        ("first_slot", facts.first.to_string()),
        ("last_slot", facts.last.to_string()),
        ("value_limit", facts.value_limit.to_string()),
        ("crc_width", c.params.width.to_string()),
        ("crc_table", rows(&table, 8, syntax.indent)),
        ("crc_start", suffixed(c.start)),
        (
            "reflected_note",
            if c.params.refin {
                ", reflected (the register shifts right)"
            } else {
                ""
            }
            .to_owned(),
        ),
        ("shift", facts.shift.to_string()),
        ("value_mask", format!("{:#x}", facts.mask)),
        ("value_bits", facts.value_bits.to_string()),
        ("tag_len", facts.tag_len.to_string()),
        (
            "zero_tag",
            byte_rows(std::slice::from_ref(&facts.zero_tag), syntax.indent),
        ),
        ("columns", byte_rows(&facts.columns, syntax.indent)),
        ("kernel", byte_rows(&facts.kernel, syntax.indent)),
        ("zero_int", little_endian_hex(&facts.zero_tag)),
        ("column_ints", ints(&facts.columns)),
        ("kernel_ints", ints(&facts.kernel)),
        ("solved_bits", facts.columns.len().to_string()),
        ("kernel_len", facts.kernel.len().to_string()),
        ("tags_per_value", (1u128 << facts.kernel.len()).to_string()),
        ("open", format!("{open:#04x}")),
        ("close", format!("{close:#04x}")),
        ("min_tag_len", facts.min_tag_len.to_string()),
        ("example_prefix", quoted(prefix)),
        ("example_suffix", quoted(suffix)),
        ("shift_divisor", (1u64 << facts.shift).to_string()),
        ("value_modulus", (1u64 << facts.value_bits).to_string()),
    ]
}
