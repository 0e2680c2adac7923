//! Tags for a chosen slot of any scheme: the one elimination, under [`crate::derive()`], solves the scheme's value over GF(2)
//! and gives the tables of a [`SchemeTable`].
//!
//! A scheme's value `(crc(tag) >> shift) & mask` is affine over GF(2) in the bits of a tag's
//! symbol indices, for tags of one length over an affine alphabet (see [`value_rank`](super::value_rank)). A
//! reduction by a mask, or by a modulus that is a power of two `2^b`, keeps the value's low
//! `b` bits, which are solved for as Redis Cluster's slot bits are. Any other modulus `N` is
//! not affine, so the tag is solved for the whole value instead, set to `slot - offset`
//! itself: the smallest value of the slot's residue class, whose remainder is the slot.
//! That needs the value's every bit to be controlled (full rank on the value's width), so
//! tags are longer: 9 symbols of 16 for the 32 bits of CRC-32/ISO-HDLC.

#[cfg(doc)]
use slotgen_tables::SchemeTable;
use slotgen_tables::{Reduction, Register, Scheme, SchemeName};

use crate::alphabet::max_tag_len;
use crate::{gf2, Alphabet, Error};

/// What the tag of a slot is solved for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Solved {
    /// The value's low `bits` bits, which are the slot: a mask, or a modulus by `2^bits`.
    LowBits(u32),
    /// The whole value, `bits` wide, set to `slot - offset`: a modulus that is not a power
    /// of two.
    WholeValue(u32),
}

impl Solved {
    /// The solved bits: one column of the inverse each.
    #[must_use]
    pub fn bits(self) -> u32 {
        match self {
            Self::LowBits(bits) | Self::WholeValue(bits) => bits,
        }
    }

    /// What is solved for, in words, for messages and generated comments.
    #[must_use]
    pub fn describe(self) -> String {
        match self {
            Self::LowBits(bits) => format!(
                "the value's low {bits} {} (the slot)",
                if bits == 1 { "bit" } else { "bits" }
            ),
            Self::WholeValue(bits) => format!(
                "the whole {bits}-bit value (the modulus is not a power of two, so the tag is solved for the value `slot - offset` itself)"
            ),
        }
    }
}

/// What [`crate::derive()`] solves for a named scheme: a named scheme with its slot count and, for twemproxy, its
/// hashtag delimiters; an alphabet; and a tag length (the shortest with full rank when
/// `None`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SchemeSpec {
    /// The named scheme.
    pub name: SchemeName,
    /// The slot count (vBuckets, buckets, partitions or servers); the scheme's default when
    /// `None`.
    pub slots: Option<u32>,
    /// twemproxy's `hash_tag` delimiters, opening then closing byte.
    pub hash_tag: Option<[u8; 2]>,
    /// The alphabet: an affine subspace of GF(2)^8, 2 to 128 bytes, without `{`, `}` or the
    /// scheme's delimiters.
    pub alphabet: Vec<u8>,
    /// Symbols per tag; the shortest length whose tags control every solved bit when
    /// `None`.
    pub tag_len: Option<usize>,
}

impl SchemeSpec {
    /// The named scheme with its default slot count, the Redis Cluster alphabet
    /// `@ABCDEFGHIJKLMNO` and the shortest tag length.
    #[must_use]
    pub fn new(name: SchemeName) -> Self {
        Self {
            name,
            slots: None,
            hash_tag: None,
            alphabet: crate::spec::REDIS_CLUSTER_ALPHABET.to_vec(),
            tag_len: None,
        }
    }

    /// The scheme these parts make.
    ///
    /// # Errors
    ///
    /// [`Error::Scheme`] as [`SchemeName::scheme`].
    pub fn scheme(&self) -> Result<Scheme<'static>, Error> {
        Ok(self.name.scheme(self.slots, self.hash_tag)?)
    }
}

/// What a scheme's reduction makes a tag solve for (see [`Solved`]).
///
/// # Errors
///
/// - [`Error::SchemeValueMask`] when the scheme's value mask has holes.
/// - [`Error::SlotsAboveValues`] when the scheme has more slots than values, so that some
///   slots are reached by no key.
/// - [`Error::UnsolvableRegister`] when the whole value is to be solved and the register
///   is one no tag controls whole ([`Register::Unmasked32`]: `twemproxy-crc16` with a
///   server count that is not a power of two).
///
/// # Examples
///
/// ```
/// use slotgen::scheme::invert::{solved, Solved};
/// use slotgen_tables::{Scheme, SchemeName};
///
/// let kafka = Scheme::librdkafka(12)?;
/// assert_eq!(solved(SchemeName::Librdkafka, &kafka)?, Solved::WholeValue(32));
/// // twemproxy's `crc16` with 4 servers: the low 2 bits, which are CRC-16/XMODEM's
/// let pool = Scheme::twemproxy_crc16(4, None)?;
/// assert_eq!(solved(SchemeName::TwemproxyCrc16, &pool)?, Solved::LowBits(2));
/// // with 3, the whole 32-bit register, which tags do not control
/// let pool = Scheme::twemproxy_crc16(3, None)?;
/// assert!(solved(SchemeName::TwemproxyCrc16, &pool).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn solved(name: SchemeName, scheme: &Scheme<'_>) -> Result<Solved, Error> {
    let value_bits = scheme.value_bits().ok_or(Error::SchemeValueMask {
        scheme: name.name(),
    })?;
    let slots = u64::from(scheme.slots());
    if value_bits < 64 && slots > 1u64 << value_bits {
        return Err(Error::SlotsAboveValues {
            scheme: name.name(),
            slots,
            value_bits,
        });
    }
    let solved = solved_unchecked(scheme);
    if let (Register::Unmasked32, Solved::WholeValue(_)) = (scheme.register(), solved) {
        return Err(Error::UnsolvableRegister {
            scheme: name.name(),
            slots: scheme.slots(),
        });
    }
    Ok(solved)
}

/// [`solved`] without its checks: for a mask with holes, the value's width is its highest
/// bit; with more slots than values, the low bits are the slot's, as many as the value has.
pub(crate) fn solved_unchecked(scheme: &Scheme<'_>) -> Solved {
    let (shift, mask) = scheme.transform();
    let kept = scheme.register().width(scheme.crc()) - shift;
    let value_bits = scheme
        .value_bits()
        .unwrap_or(64 - (mask & low_mask(kept)).leading_zeros());
    let slots = scheme.slots();
    match scheme.reduction() {
        Reduction::Mask => Solved::LowBits(slots.trailing_zeros().min(value_bits)),
        Reduction::Modulus if slots.is_power_of_two() => {
            Solved::LowBits(slots.trailing_zeros().min(value_bits))
        }
        Reduction::Modulus => Solved::WholeValue(value_bits),
    }
}

/// What [`eliminate`] finds: the core of a [`Derivation`](crate::Derivation).
#[derive(Clone, Debug)]
pub(crate) struct Solution {
    /// The spec, with `slots` and `tag_len` resolved.
    pub spec: SchemeSpec,
    pub scheme: Scheme<'static>,
    pub alphabet: Alphabet,
    pub tag_len: usize,
    pub solved: Solved,
    pub base_value: u64,
    pub pivots: Vec<usize>,
    pub inverse: Vec<u64>,
    pub kernel: Vec<u64>,
    /// The linear part's columns: column `v` is the solved bits' delta of flipping input
    /// bit `v`.
    pub linear: Vec<u64>,
}

/// Solves `scheme` for tags of `spec`'s alphabet by Gaussian elimination over GF(2), with
/// `value` giving the transformed CRC value of a tag: the scheme's own [`Scheme::value`] of
/// the tag ([`derive_with`](crate::derive::derive_with)), or of the tag inside a key's frame
/// ([`FramedKeys`]). `value` is affine in the tag's bits for a fixed tag length, as a CRC of
/// a message of fixed length is. The one elimination of every derivation.
///
/// The linear part (`solved bits x tag_len * d`) is brought to reduced row echelon form; its
/// right inverse sets the free coordinates to zero, so `inverse[i]` is the unique solution
/// supported on the pivot columns that flips solved bit `i` alone, and the kernel has one
/// vector per free column. Pivot choice is fixed: the lowest-indexed independent input bits.
///
/// # Errors
///
/// As [`derive_with`](crate::derive::derive_with).
pub(crate) fn eliminate(
    spec: &SchemeSpec,
    scheme: Scheme<'static>,
    value: &dyn Fn(&[u8]) -> u64,
) -> Result<Solution, Error> {
    let solved = solved(spec.name, &scheme)?;
    let alphabet = Alphabet::new(&spec.alphabet)?;
    if let slotgen_tables::HashtagRule::Delimited { open, close } = scheme.hashtag() {
        if let Some(&byte) = alphabet
            .symbols()
            .iter()
            .find(|&&b| b == open || b == close)
        {
            return Err(Error::DelimiterInAlphabet {
                byte,
                delimiters: [open, close],
            });
        }
    }
    let max = max_tag_len(alphabet.symbol_bits());
    let needed = solved.bits() as usize;
    let solved_mask = low_mask(solved.bits());
    let shortest =
        || (1..=max).find(|&len| solved_rank(value, &alphabet, len, solved_mask) == needed);
    let tag_len = match spec.tag_len {
        Some(n) if (1..=max).contains(&n) => n,
        Some(n) => {
            return Err(Error::TagLen {
                tag_len: n,
                max,
                symbol_bits: alphabet.symbol_bits(),
            })
        }
        None => shortest().unwrap_or(max),
    };
    let base_tag = vec![alphabet.offset(); tag_len];
    let base_value = value(&base_tag) & solved_mask;
    let linear = linear_part(value, &alphabet, tag_len, solved_mask);
    let echelon = gf2::Matrix::from_columns(needed, &linear).echelon();
    if echelon.rank() < needed {
        return Err(Error::SchemeRankDeficient {
            scheme: spec.name.name(),
            rank: echelon.rank(),
            needed,
            solved: solved.describe(),
            tag_len,
            shortest: shortest(),
            max,
        });
    }
    let right_inverse = echelon
        .right_inverse()
        .expect("full row rank was just checked");
    let inverse: Vec<u64> = (0..needed).map(|i| right_inverse.column_bits(i)).collect();
    let kernel: Vec<u64> = echelon.kernel().iter().map(gf2::row_bits).collect();
    Ok(Solution {
        spec: SchemeSpec {
            slots: Some(scheme.slots()),
            tag_len: Some(tag_len),
            ..spec.clone()
        },
        scheme,
        alphabet,
        tag_len,
        solved,
        base_value,
        pivots: echelon.pivots,
        inverse,
        kernel,
        linear,
    })
}

/// Keys `prefix ‖ tag ‖ suffix` that land on a chosen slot of a scheme that hashes the
/// whole key (Couchbase, Tarantool vshard, librdkafka, twemproxy without `hash_tag`), so
/// that such keys can carry a name: `order-` and a tag for each Kafka partition, say.
///
/// Over keys of one length with a fixed prefix and suffix, the scheme's value is still
/// affine in the tag's bits, so the tag is solved exactly as for a bare tag
/// ([`derive_with`](crate::derive::derive_with)), with the frame inside every evaluation of the scheme. The tag length is
/// the shortest that reaches every slot through the frame (a frame may need another length
/// than the bare tag when only some value bits are solved), or the spec's `tag_len`.
///
/// # Examples
///
/// ```
/// use slotgen::scheme::invert::{FramedKeys, SchemeSpec};
/// use slotgen_tables::{Scheme, SchemeName};
///
/// let spec = SchemeSpec { slots: Some(12), ..SchemeSpec::new(SchemeName::Librdkafka) };
/// let keys = FramedKeys::derive(&spec, b"order-", b":eu")?;
/// let key = keys.key_for_slot(7)?;
/// assert!(key.starts_with(b"order-") && key.ends_with(b":eu"));
/// assert_eq!(Scheme::librdkafka(12)?.slot(&key), 7);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct FramedKeys {
    /// A derivation whose tables solve for the framed key's value, not the bare tag's.
    derivation: Solution,
    prefix: Vec<u8>,
    suffix: Vec<u8>,
}

impl FramedKeys {
    /// Solves `spec`'s scheme for tags inside `prefix ‖ tag ‖ suffix`.
    ///
    /// # Errors
    ///
    /// - [`Error::FrameNeedsWholeKey`] when the scheme hashes a hashtag: its keys are built
    ///   around the tag's delimiters ([`SchemeTable::write_key`]).
    /// - As [`derive_with`](crate::derive::derive_with) otherwise (rank too low for the frame, with the shortest length
    ///   that works).
    pub fn derive(spec: &SchemeSpec, prefix: &[u8], suffix: &[u8]) -> Result<Self, Error> {
        let scheme = spec.scheme()?;
        if scheme.hashtag() != slotgen_tables::HashtagRule::WholeKey {
            return Err(Error::FrameNeedsWholeKey {
                scheme: spec.name.name(),
            });
        }
        // a few hundred evaluations per derivation: a key allocated for each is nothing
        let value = |tag: &[u8]| scheme.value(&[prefix, tag, suffix].concat());
        let derivation = eliminate(spec, scheme, &value).map_err(|e| match e {
            // bytes before the tag move the value by a constant only (the CRC is affine);
            // bytes after it multiply the tag's part, which changes the bits it controls
            Error::SchemeRankDeficient {
                scheme,
                rank,
                needed,
                solved,
                tag_len,
                shortest,
                max,
            } if !suffix.is_empty() => Error::SchemeRankDeficient {
                scheme,
                rank,
                needed,
                solved: format!(
                    "{solved}, with the suffix `{}` after the tag: the bytes after a tag change which bits of the value it controls (without a suffix, or with another, a shorter tag may do)",
                    crate::text::escape_cut(suffix)
                ),
                tag_len,
                shortest,
                max,
            },
            other => other,
        })?;
        Ok(Self {
            derivation,
            prefix: prefix.to_vec(),
            suffix: suffix.to_vec(),
        })
    }

    /// Symbols per tag.
    #[must_use]
    pub fn tag_len(&self) -> usize {
        self.derivation.tag_len
    }

    /// The scheme.
    #[must_use]
    pub fn scheme(&self) -> Scheme<'static> {
        self.derivation.scheme
    }

    /// Every key of `slot`, the canonical tag's first, lazily (as
    /// [`SchemeTable::tags_for_slot`]).
    ///
    /// # Errors
    ///
    /// [`slotgen_tables::Error::SlotOutOfRange`] for a slot that is not the scheme's.
    pub fn keys_for_slot(
        &self,
        slot: u32,
    ) -> Result<impl Iterator<Item = Vec<u8>> + '_, slotgen_tables::Error> {
        // As the runtime's `SchemeTable` does, from this derivation's own columns (the
        // runtime's table checks its columns against the bare tag's value, not the frame's).
        let d = &self.derivation;
        let (first, last) = (d.scheme.offset(), d.scheme.last());
        if !(first..=last).contains(&slot) {
            return Err(slotgen_tables::Error::SlotOutOfRange { slot, first, last });
        }
        let flips = u64::from(slot - first) ^ d.base_value;
        let canonical = d
            .inverse
            .iter()
            .enumerate()
            .filter(|(i, _)| flips >> i & 1 == 1)
            .fold(0, |mask, (_, column)| mask ^ column);
        // in the order of the runtime's `tags_for_slot`: bit `i` of `n` adds kernel entry `i`
        Ok((0..1u64 << d.kernel.len()).map(move |n| {
            let mask = d
                .kernel
                .iter()
                .enumerate()
                .filter(|(i, _)| n >> i & 1 == 1)
                .fold(canonical, |mask, (_, k)| mask ^ k);
            [
                &self.prefix[..],
                &d.alphabet.tag(mask, d.tag_len),
                &self.suffix[..],
            ]
            .concat()
        }))
    }

    /// The key of `slot` from its canonical tag.
    ///
    /// # Errors
    ///
    /// As [`keys_for_slot`](Self::keys_for_slot).
    pub fn key_for_slot(&self, slot: u32) -> Result<Vec<u8>, slotgen_tables::Error> {
        Ok(self
            .keys_for_slot(slot)?
            .next()
            .expect("every slot has its canonical tag"))
    }
}

/// `bits` low bits set.
pub(crate) fn low_mask(bits: u32) -> u64 {
    u64::MAX.checked_shr(64 - bits).unwrap_or(0)
}

/// The linear part's columns: column `d * k + j` is the solved bits' delta of moving symbol
/// `k` from the alphabet's first symbol to `alphabet[1 << j]`, each from `value` of a tag
/// (the scheme's own value: the runtime's CRC engine).
fn linear_part(
    value: &dyn Fn(&[u8]) -> u64,
    alphabet: &Alphabet,
    tag_len: usize,
    mask: u64,
) -> Vec<u64> {
    let mut tag = vec![alphabet.offset(); tag_len];
    let base = value(&tag);
    let mut columns = Vec::with_capacity(tag_len * alphabet.symbol_bits() as usize);
    for k in 0..tag_len {
        for b in alphabet.basis() {
            tag[k] = alphabet.offset() ^ b;
            columns.push((value(&tag) ^ base) & mask);
            tag[k] = alphabet.offset();
        }
    }
    columns
}

fn solved_rank(
    value: &dyn Fn(&[u8]) -> u64,
    alphabet: &Alphabet,
    tag_len: usize,
    mask: u64,
) -> usize {
    let mut span = gf2::Span::default();
    for column in linear_part(value, alphabet, tag_len, mask) {
        span.insert(column);
    }
    span.rank()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::derive;
    use std::collections::HashSet;

    fn spec(name: SchemeName, slots: Option<u32>, alphabet: &[u8]) -> SchemeSpec {
        SchemeSpec {
            slots,
            alphabet: alphabet.to_vec(),
            ..SchemeSpec::new(name)
        }
    }

    /// Whether `scheme` is one whose register no tag controls whole, with a slot count
    /// that needs the whole value (`twemproxy-crc16` and no power of two): refused, and
    /// the refusal is asserted where it happens.
    fn unsolvable(scheme: &Scheme<'_>) -> bool {
        scheme.register() == Register::Unmasked32 && !scheme.slots().is_power_of_two()
    }

    /// Framed keys of every whole-key scheme land on every slot through the runtime's
    /// forward function, for frames of every shape; every key of a slot is distinct; a
    /// hashtag scheme refuses a frame by name.
    #[test]
    fn framed_keys_of_every_whole_key_scheme() {
        let frames: [(&[u8], &[u8]); 4] = [
            (b"", b""),
            (b"user:", b""),
            (b"", b":x"),
            (b"a\x00{", b"}\xff"),
        ];
        for name in SchemeName::ALL {
            for slots in [None, Some(3), Some(100), Some(1024)] {
                let spec = spec(name, slots, b"@ABCDEFGHIJKLMNO");
                let Ok(scheme) = spec.scheme() else { continue };
                if scheme.hashtag() != slotgen_tables::HashtagRule::WholeKey {
                    assert!(matches!(
                        FramedKeys::derive(&spec, b"a", b""),
                        Err(Error::FrameNeedsWholeKey { .. })
                    ));
                    continue;
                }
                for (prefix, suffix) in frames {
                    if unsolvable(&scheme) {
                        assert!(matches!(
                            FramedKeys::derive(&spec, prefix, suffix),
                            Err(Error::UnsolvableRegister { .. })
                        ));
                        continue;
                    }
                    let keys = FramedKeys::derive(&spec, prefix, suffix).unwrap();
                    let first = scheme.offset();
                    for slot in first..first + scheme.slots() {
                        let key = keys.key_for_slot(slot).unwrap();
                        assert!(key.starts_with(prefix) && key.ends_with(suffix));
                        assert_eq!(key.len(), prefix.len() + keys.tag_len() + suffix.len());
                        assert_eq!(scheme.slot(&key), slot, "{name:?} {slots:?} {key:?}");
                    }
                    let all: HashSet<Vec<u8>> =
                        keys.keys_for_slot(first).unwrap().take(64).collect();
                    assert!(all.iter().all(|k| scheme.slot(k) == first));
                    assert_eq!(
                        all.len(),
                        keys.keys_for_slot(first).unwrap().take(64).count()
                    );
                    assert!(keys.key_for_slot(first + scheme.slots()).is_err());
                }
            }
        }
    }

    /// Every slot of every named scheme, at its default slot count and at counts that are
    /// and are not powers of two: the tag lands on its slot through the runtime's forward
    /// function, which the tests against the real systems pin.
    #[test]
    fn every_slot_of_every_scheme() {
        for name in SchemeName::ALL {
            for slots in [
                None,
                Some(1),
                Some(2),
                Some(3),
                Some(12),
                Some(100),
                Some(1024),
                Some(3000),
            ] {
                let s = spec(
                    name,
                    slots.or(name.default_slots()).or(Some(7)),
                    b"@ABCDEFGHIJKLMNO",
                );
                let Ok(scheme) = s.scheme() else {
                    continue; // Redis Cluster with a count that is no power of two
                };
                if unsolvable(&scheme) {
                    assert!(
                        matches!(derive(&s), Err(Error::UnsolvableRegister { .. })),
                        "{name:?} {slots:?}"
                    );
                    continue;
                }
                let d = derive(&s).unwrap_or_else(|e| panic!("{name:?} {slots:?}: {e}"));
                let table = d.table();
                let first = scheme.offset();
                for slot in first..first + scheme.slots() {
                    let tag = table.tag_for_slot(slot).unwrap();
                    assert_eq!(tag.len(), d.tag_len);
                    assert!(tag
                        .as_ref()
                        .iter()
                        .all(|b| d.alphabet.symbols().contains(b)));
                    assert_eq!(
                        scheme.slot(tag.as_ref()),
                        slot,
                        "{name:?} {slots:?} slot {slot}"
                    );
                }
                assert!(table.tag_for_slot(first + scheme.slots()).is_err());
                if first > 0 {
                    assert!(table.tag_for_slot(0).is_err());
                }
            }
        }
    }

    /// The tag lengths from the rank, against a separate Python elimination over
    /// `zlib.crc32` and a bitwise CRC-32C: whole 32-bit values need 9 symbols of 16 (10
    /// for Tarantool's CRC) and 7 of 32; 15 bits need 4 of either; 10 low bits 3 of either.
    #[test]
    fn tag_lengths() {
        let sixteen = b"@ABCDEFGHIJKLMNO";
        let thirty_two = b"@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_";
        for (name, slots, solved, len16, len32) in [
            (SchemeName::Librdkafka, 12, Solved::WholeValue(32), 9, 7),
            (
                SchemeName::TarantoolVshard,
                3000,
                Solved::WholeValue(32),
                10,
                7,
            ),
            (SchemeName::TwemproxyCrc32a, 3, Solved::WholeValue(32), 9, 7),
            (SchemeName::TwemproxyCrc32, 5, Solved::WholeValue(15), 4, 4),
            (SchemeName::Couchbase, 1000, Solved::WholeValue(15), 4, 4),
            (SchemeName::Couchbase, 1024, Solved::LowBits(10), 3, 3),
            (SchemeName::Codis, 1024, Solved::LowBits(10), 3, 3),
            (SchemeName::RedisCluster, 16384, Solved::LowBits(14), 4, 4),
            // nutcracker's `crc16` with a power of two of servers: the register's low bits
            // (a separate Python elimination over `binascii.crc_hqx` steps in an unmasked
            // register gives these lengths)
            (SchemeName::TwemproxyCrc16, 4, Solved::LowBits(2), 1, 1),
            (
                SchemeName::TwemproxyCrc16,
                1 << 16,
                Solved::LowBits(16),
                5,
                4,
            ),
            (
                SchemeName::TwemproxyCrc16,
                1 << 20,
                Solved::LowBits(20),
                6,
                5,
            ),
        ] {
            for (alphabet, len) in [(&sixteen[..], len16), (&thirty_two[..], len32)] {
                let d = derive(&spec(name, Some(slots), alphabet)).unwrap();
                assert_eq!((d.solved, d.tag_len), (solved, len), "{name:?} {slots}");
            }
        }
    }

    /// twemproxy's `crc16` register is never controlled whole: over tags of any length,
    /// alphabets of 2^d symbols control 16 + 2d of its 32 bits (24, 26 and 30 for d = 4, 5
    /// and 7 by a separate Python elimination over `binascii.crc_hqx` steps in an unmasked
    /// register), so a server count that is no power of two is refused by name, with
    /// `shortest --scheme` as the way out.
    #[test]
    fn twemproxy_crc16_register_rank_and_refusal() {
        let pool = SchemeName::TwemproxyCrc16.scheme(Some(3), None).unwrap();
        // 0x80..=0xff has the linear part of Python's 0..=127 (bit 7 fixed)
        let high: Vec<u8> = (0x80..=0xff).collect();
        for (alphabet, rank) in [
            (&b"@ABCDEFGHIJKLMNO"[..], 24),
            (&b"@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_"[..], 26),
            (&high[..], 30),
        ] {
            let alphabet = Alphabet::new(alphabet).unwrap();
            for len in [8, 9, max_tag_len(alphabet.symbol_bits())] {
                let found = crate::scheme::value_rank(&pool, &alphabet, len);
                assert_eq!((found.rank, found.needed), (rank, 32), "len {len}");
            }
        }
        let text = derive(&spec(
            SchemeName::TwemproxyCrc16,
            Some(3),
            b"@ABCDEFGHIJKLMNO",
        ))
        .unwrap_err()
        .to_string();
        assert!(text.contains("at most 30 of the 32 bits"), "{text}");
        assert!(
            text.contains("slotgen shortest --scheme twemproxy-crc16"),
            "{text}"
        );
    }

    /// Redis Cluster through this path gives the tags of the CRC-16 derivation, which is
    /// pinned to the seed document (slot 0 -> `DLH@`).
    #[test]
    fn redis_cluster_matches_the_crc16_derivation() {
        let d = derive(&SchemeSpec::new(SchemeName::RedisCluster)).unwrap();
        let crc16 = crate::derive(&crate::Spec::default()).unwrap();
        for slot in 0..16384u16 {
            let ours: Vec<_> = d.table().tags_for_slot(u32::from(slot)).unwrap().collect();
            let theirs: HashSet<_> = crc16
                .slot_table()
                .unwrap()
                .tags_for_slot(slot)
                .unwrap()
                .map(|t| t.as_ref().to_vec())
                .collect();
            assert_eq!(ours.len(), theirs.len());
            assert!(
                ours.iter().all(|t| theirs.contains(t.as_ref())),
                "slot {slot}"
            );
        }
        assert_eq!(d.table().tag_for_slot(0).unwrap().as_ref(), b"DLH@");
    }

    /// A CRC-16 spec as a scheme: the CRC (a catalogue engine or a custom one), the Redis
    /// hashtag rule, the 16-bit register masked to a power-of-two slot count. Its
    /// derivation (the value of tags, evaluated by the runtime's engine, which
    /// [`crate::derive()`] now uses for every CRC-16 spec) and the former CRC-16 elimination
    /// (byte deltas of the `crc` crate's algorithm, [`AffineMap::extract`], its echelon form)
    /// are separate computations; they agree on the tag length (against the byte deltas'
    /// [`crate::derive::shortest_tag_len`]), the map, the pivots, every inverse column and
    /// the kernel basis, for every catalogue CRC-16, custom CRCs, slot counts from 2 to 65536
    /// and alphabets of 4 to 128 symbols; and both refuse the same specs.
    #[test]
    fn a_crc16_spec_as_a_scheme_has_the_crc16_derivation() {
        use crate::AffineMap;
        let customs = [
            crate::catalog::custom(0x8005, 0xffff, true, true, 0),
            crate::catalog::custom(0x1021, 0, false, false, 0x1234),
            crate::catalog::custom(0x3d65, 0x0102, true, false, 0xffff),
        ];
        let algorithms = crate::catalog::CATALOG
            .iter()
            .map(|entry| *entry.algorithm)
            .chain(customs);
        let high: Vec<u8> = (0x80..=0xff).collect();
        let alphabets: [&[u8]; 4] = [
            b"@ABCDEFGHIJKLMNO",
            b"0123",
            b"@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_",
            &high,
        ];
        let (mut compared, mut refused) = (0, 0);
        for algorithm in algorithms {
            for slots in [2u32, 64, 1024, 16384, 65536] {
                for alphabet in alphabets {
                    let spec = crate::Spec {
                        crc: algorithm,
                        slots,
                        alphabet: alphabet.to_vec(),
                        tag_len: None,
                    };
                    let what = format!("{} {slots} {:?}", algorithm.check, alphabet.len());
                    let (symbols, count) = spec.check().unwrap();
                    let Some(tag_len) = crate::derive::shortest_tag_len(&spec).unwrap() else {
                        assert!(
                            matches!(derive(&spec), Err(Error::RankDeficient { .. })),
                            "{what}"
                        );
                        refused += 1;
                        continue;
                    };
                    let map = AffineMap::extract(&spec.crc, &symbols, tag_len, count);
                    let echelon = map.linear().echelon();
                    let right_inverse = echelon.right_inverse().unwrap();
                    let inverse: Vec<u64> = (0..count.bits() as usize)
                        .map(|i| right_inverse.column_bits(i))
                        .collect();
                    let kernel: Vec<u64> = echelon.kernel().iter().map(gf2::row_bits).collect();
                    let d = derive(&spec).unwrap();
                    let tables = d.slot_tables.as_ref().unwrap();
                    assert_eq!(d.solved, Solved::LowBits(slots.trailing_zeros()), "{what}");
                    assert_eq!(d.tag_len, tag_len, "{what}");
                    assert_eq!(d.base_value, u64::from(map.offset), "{what}");
                    assert_eq!(tables.map, map, "{what}");
                    assert_eq!(d.pivots, echelon.pivots, "{what}");
                    assert_eq!(d.inverse, inverse, "{what}");
                    assert_eq!(d.kernel, kernel, "{what}");
                    compared += 1;
                }
            }
        }
        // every catalogue CRC and every custom one, at every slot count and alphabet
        assert_eq!(
            compared + refused,
            (crate::catalog::CATALOG.len() + 3) * 5 * 4
        );
        assert!(compared > refused, "{compared} compared, {refused} refused");
    }

    /// Where the space is small, all of it: every tag of the length, enumerated, lands in
    /// exactly one slot's `tags_for_slot`, each once, and the counts agree.
    #[test]
    fn tags_for_slot_partition_every_tag() {
        for (name, slots, alphabet, tag_len) in [
            (SchemeName::Couchbase, 1000, &b"@ABCDEFGHIJKLMNO"[..], 4),
            (SchemeName::Couchbase, 64, &b"@ABCDEFG"[..], 3),
            (SchemeName::TwemproxyCrc32, 5, &b"@ABCDEFGHIJKLMNO"[..], 4),
            (SchemeName::Codis, 1024, &b"@ABCDEFGHIJKLMNO"[..], 3),
            (SchemeName::Librdkafka, 3, &b"@A"[..], 32),
            (SchemeName::TwemproxyCrc16, 16, &b"@ABCDEFGHIJKLMNO"[..], 4),
        ] {
            let s = SchemeSpec {
                tag_len: Some(tag_len),
                ..spec(name, Some(slots), alphabet)
            };
            let d = derive(&s).unwrap();
            let table = d.table();
            let total_bits = tag_len as u32 * d.alphabet.symbol_bits();
            if total_bits > 20 {
                // too many to list: check the counts and a slot's first tags
                for slot in 0..slots {
                    let tags: Vec<_> = table.tags_for_slot(slot).unwrap().take(64).collect();
                    assert!(tags.iter().all(|t| d.scheme.slot(t.as_ref()) == slot));
                    let distinct: HashSet<_> = tags.iter().collect();
                    assert_eq!(distinct.len(), tags.len());
                }
                continue;
            }
            let mut seen = HashSet::new();
            let mut count = 0u64;
            for slot in 0..slots {
                let tags: Vec<_> = table.tags_for_slot(slot).unwrap().collect();
                assert_eq!(
                    tags.len() as u64,
                    table.tags_per_slot(slot),
                    "{name:?} {slot}"
                );
                for t in tags {
                    assert_eq!(d.scheme.slot(t.as_ref()), slot);
                    assert!(seen.insert(t.as_ref().to_vec()), "{name:?}: {t} twice");
                    count += 1;
                }
            }
            // the solved value is `slot - offset` or a later value of its class, so every
            // tag whose value is below 2^solved is listed: all of them
            assert_eq!(count, 1u64 << total_bits, "{name:?} {slots}");
        }
    }

    /// The exhaustive verifier passes every scheme's derivation, and checks every tag where
    /// the space is small.
    #[test]
    fn verify_passes_every_scheme() {
        for name in SchemeName::ALL {
            let slots = match name {
                SchemeName::TwemproxyCrc16 => 16,
                _ => name.default_slots().unwrap_or(12),
            };
            let s = spec(name, Some(slots), b"@ABCDEFGHIJKLMNO");
            let d = derive(&s).unwrap();
            let report = crate::verify(&d);
            assert!(report.passed(), "{name:?}: {:?}", report.failures);
            assert_eq!(report.slots_checked, u64::from(d.scheme.slots()));
        }
        let small = SchemeSpec {
            tag_len: Some(4),
            ..spec(SchemeName::Couchbase, Some(1000), b"@ABCDEFGHIJKLMNO")
        };
        let report = crate::verify(&derive(&small).unwrap());
        assert!(report.passed() && report.exhaustive, "{report:?}");
        assert_eq!(report.tags_checked, 1 << 16);
    }

    /// A table whose column is wrong is caught by the verifier's independent CRC, not only
    /// by the runtime's constructor.
    #[test]
    fn verify_catches_a_wrong_column() {
        let mut d = derive(&SchemeSpec::new(SchemeName::TarantoolVshard)).unwrap();
        d.columns.swap(0, 1);
        let report = crate::verify(&d);
        assert!(!report.passed());
        assert!(
            report.failures[0].reason.contains("refuses"),
            "{:?}",
            report.failures
        );
    }

    #[test]
    fn refusals() {
        let short = SchemeSpec {
            tag_len: Some(8),
            ..SchemeSpec::new(SchemeName::TarantoolVshard)
        };
        let text = derive(&short).unwrap_err().to_string();
        assert!(text.contains("8-symbol tags control"), "{text}");
        assert!(text.contains("at least 10"), "{text}");
        let too_many = spec(SchemeName::Couchbase, Some(65536), b"@ABCDEFGHIJKLMNO");
        assert!(matches!(
            derive(&too_many),
            Err(Error::SlotsAboveValues { value_bits: 15, .. })
        ));
        let colons = SchemeSpec {
            slots: Some(3),
            hash_tag: Some(*b"::"),
            alphabet: b"01234567:;<=>?".to_vec(),
            ..SchemeSpec::new(SchemeName::TwemproxyCrc32a)
        };
        assert!(derive(&colons).is_err());
        let colons = SchemeSpec {
            alphabet: b"89:;<=>?".to_vec(),
            ..colons
        };
        assert!(matches!(
            derive(&colons),
            Err(Error::DelimiterInAlphabet { byte: b':', .. })
        ));
    }
}
