//! Named sharding schemes by name, with their slot count and hashtag delimiters checked:
//! what `--scheme`, `--slots` and `--hash-tag` resolve to.
//!
//! The schemes themselves (hashtag rule, CRC, output transform, reduction, offset) are the
//! runtime's [`Scheme`] and [`SchemeName`]; this module parses names and options and gives
//! the library's errors.

use slotgen_tables::{Scheme, SchemeName};

use crate::Error;

pub mod invert;
pub mod rule;
mod slot_function;
pub(crate) mod table_spec;

pub use slot_function::SlotFunction;
pub use table_spec::TableSpec;

/// The named scheme called `name`, case-insensitive, with `_` read as `-`.
///
/// # Errors
///
/// [`Error::UnknownScheme`] when no scheme has that name, with the nearest one.
///
/// # Examples
///
/// ```
/// use slotgen_tables::SchemeName;
///
/// assert_eq!(slotgen::scheme::find("Tarantool_vshard")?, SchemeName::TarantoolVshard);
/// assert!(slotgen::scheme::find("kafka").is_err());
/// # Ok::<(), slotgen::Error>(())
/// ```
pub fn find(name: &str) -> Result<SchemeName, Error> {
    let wanted = name.trim().to_ascii_lowercase().replace('_', "-");
    if let Some(s) = SchemeName::ALL.iter().find(|s| s.name() == wanted) {
        return Ok(*s);
    }
    let nearest = crate::text::nearest(
        &wanted,
        SchemeName::ALL.iter().map(|s| (s.name(), s.name())),
    );
    Err(Error::UnknownScheme {
        name: name.to_owned(),
        nearest,
        known: SchemeName::ALL.iter().map(|s| s.name()).collect(),
    })
}

/// Hashtag delimiters as given in text: exactly two bytes, the opening then the closing one
/// (`{}`, `::`), as twemproxy's `hash_tag` takes them.
///
/// # Errors
///
/// [`Error::HashTagDelimiters`] when `text` is not two bytes long.
///
/// # Examples
///
/// ```
/// assert_eq!(slotgen::scheme::hash_tag("{}")?, *b"{}");
/// assert!(slotgen::scheme::hash_tag("{").is_err());
/// # Ok::<(), slotgen::Error>(())
/// ```
pub fn hash_tag(text: &str) -> Result<[u8; 2], Error> {
    <[u8; 2]>::try_from(text.as_bytes()).map_err(|_| Error::HashTagDelimiters {
        given: text.to_owned(),
    })
}

/// The scheme named `name`, with `slots` slots (its default when `None`) and, for
/// twemproxy, the hashtag delimiters `hash_tag`.
///
/// # Errors
///
/// - [`Error::UnknownScheme`] as [`find`].
/// - [`Error::HashTagDelimiters`] as [`hash_tag`].
/// - [`Error::SchemeSlots`] when `slots` is above `u32::MAX`.
/// - [`Error::Scheme`] with [`slotgen_tables::Error::SlotsRequired`] when the scheme has no
///   default slot count and none is given, [`slotgen_tables::Error::HashTagNotTaken`] when
///   delimiters are given to a scheme with a fixed rule,
///   [`slotgen_tables::Error::ZeroSlots`] for 0 slots and
///   [`slotgen_tables::Error::SlotsNotPowerOfTwo`] for Redis Cluster with a slot count that
///   is not a power of two.
///
/// # Examples
///
/// ```
/// let codis = slotgen::scheme::resolve("codis", None, None)?;
/// assert_eq!((codis.slots(), codis.slot(b"a{}b")), (1024, 0)); // `{}` hashes ""
///
/// let twemproxy = slotgen::scheme::resolve("twemproxy-crc32a", Some(3), Some("{}"))?;
/// assert_eq!(twemproxy.slot(b"x{123456789}y"), 0xcbf4_3926 % 3);
/// # Ok::<(), slotgen::Error>(())
/// ```
pub fn resolve(
    name: &str,
    slots: Option<u64>,
    hash_tag: Option<&str>,
) -> Result<Scheme<'static>, Error> {
    let scheme = find(name)?;
    let delimiters = hash_tag.map(self::hash_tag).transpose()?;
    let slots = slots
        .map(|n| u32::try_from(n).map_err(|_| Error::SchemeSlots { slots: n }))
        .transpose()?;
    Ok(scheme.scheme(slots, delimiters)?)
}

/// A scheme's CRC in the RevEng model, widened to `u64`, and its catalogue name (`custom`
/// for Tarantool's, which is CRC-32C without its final xor and no catalogue entry).
///
/// # Examples
///
/// ```
/// let vshard = slotgen::scheme::resolve("tarantool-vshard", None, None)?;
/// let (name, crc) = slotgen::scheme::crc_of(&vshard);
/// assert_eq!((name, crc.poly, crc.xorout, crc.check), ("custom", 0x1edc_6f41, 0, 0x1cf9_6d7c));
/// # Ok::<(), slotgen::Error>(())
/// ```
#[must_use]
pub fn crc_of(scheme: &Scheme<'_>) -> (&'static str, crate::crc_catalog::Parameters) {
    use crate::crc_catalog::{widen, Parameters};
    use slotgen_tables::AnyCrc;
    let parameters: Parameters = match scheme.crc() {
        AnyCrc::W8(e) => widen!(e.algorithm()),
        AnyCrc::W16(e) => widen!(e.algorithm()),
        AnyCrc::W32(e) => widen!(e.algorithm()),
        AnyCrc::W64(e) => widen!(e.algorithm()),
    };
    let name = crate::crc_catalog::all()
        .into_iter()
        .find(|entry| entry.algorithm.parameters() == parameters)
        .map_or("custom", |entry| entry.name);
    (name, parameters)
}

/// The rank of a scheme's value over tags: how many of the bits a tag must control it
/// controls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ValueRank {
    /// The rank over GF(2) of the linear part of tag -> controlled bits: the tags of this
    /// length reach `2^rank` distinct values of those bits.
    pub rank: usize,
    /// The bits a tag must control: the low `log2(slots)` bits of the value for a mask
    /// reduction; every bit of the transformed value `(crc >> shift) & mask` for a modulus
    /// (so that a tag can be solved for the value `r` itself, the smallest of its residue
    /// class).
    pub needed: usize,
}

impl ValueRank {
    /// Whether tags of this length reach every value of the needed bits, so every slot.
    #[must_use]
    pub fn full(self) -> bool {
        self.rank == self.needed
    }
}

/// The bits of a scheme's value that a tag must control (see [`ValueRank::needed`]), as a
/// mask of the value: the low bits [`invert::solved`] names.
#[must_use]
pub fn controlled_bits(scheme: &Scheme<'_>) -> u64 {
    invert::low_mask(invert::solved_unchecked(scheme).bits())
}

/// The rank of tag -> value for tags of `tag_len` symbols of `alphabet`, each hashed
/// alone (the key is the tag, or its hashtag is the tag).
///
/// The value `(crc(tag) >> shift) & mask` is affine over GF(2) in the bits of the symbols'
/// indices, because the CRC is affine in its input bits for a fixed length, the alphabet is
/// an affine subspace of GF(2)^8, and a shift and a mask are linear. So column `(p, j)` of
/// the linear part is the value of the all-offset tag xor the value of the same tag with
/// bit `j` of symbol `p`'s index set; the rank is that of these `tag_len * symbol_bits`
/// columns.
///
/// # Examples
///
/// ```
/// use slotgen::{scheme, Alphabet};
///
/// // 16 symbols carry 4 bits each: 8 reach 30 of CRC-32/ISO-HDLC's 32 bits, 9 reach all
/// let sixteen = Alphabet::new(b"@ABCDEFGHIJKLMNO")?;
/// let kafka = scheme::resolve("librdkafka", Some(12), None)?;
/// assert_eq!(scheme::value_rank(&kafka, &sixteen, 8).rank, 30);
/// assert!(scheme::value_rank(&kafka, &sixteen, 9).full());
/// # Ok::<(), slotgen::Error>(())
/// ```
#[must_use]
pub fn value_rank(scheme: &Scheme<'_>, alphabet: &crate::Alphabet, tag_len: usize) -> ValueRank {
    let bits = controlled_bits(scheme);
    let mut tag = vec![alphabet.offset(); tag_len];
    let base = scheme.value(&tag);
    let mut span = crate::gf2::Span::default();
    for p in 0..tag_len {
        for b in alphabet.basis() {
            tag[p] = alphabet.offset() ^ b;
            span.insert((scheme.value(&tag) ^ base) & bits);
            tag[p] = alphabet.offset();
        }
    }
    ValueRank {
        rank: span.rank(),
        needed: bits.count_ones() as usize,
    }
}

/// The shortest tag length, up to `longest`, whose tags of `alphabet` control every needed
/// bit of the scheme's value (see [`value_rank`]); `None` when no length up to `longest`
/// does.
///
/// # Examples
///
/// ```
/// use slotgen::{scheme, Alphabet};
///
/// let sixteen = Alphabet::new(b"@ABCDEFGHIJKLMNO")?;
/// let vshard = scheme::resolve("tarantool-vshard", None, None)?;
/// assert_eq!(scheme::shortest_full_rank(&vshard, &sixteen, 16), Some(10));
/// # Ok::<(), slotgen::Error>(())
/// ```
#[must_use]
pub fn shortest_full_rank(
    scheme: &Scheme<'_>,
    alphabet: &crate::Alphabet,
    longest: usize,
) -> Option<usize> {
    (1..=longest).find(|&len| value_rank(scheme, alphabet, len).full())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Alphabet;
    use slotgen_tables::Error as TablesError;

    /// The tag lengths the issue states, from the rank: 16-symbol alphabets need 9 symbols
    /// for the whole CRC-32/ISO-HDLC value and 10 for Tarantool's CRC-32C, a 32-symbol
    /// alphabet 7 (all also found by a separate Python elimination); the 15-bit values of
    /// Couchbase (1000 vBuckets) and twemproxy's `crc32` need 4 of either; at 1024 slots, a power
    /// of two, Codis and Couchbase solve only the low 10 bits: 3 of either; Redis Cluster's 14 bits need 4 of
    /// either, as the derivation finds (`slotgen derive`).
    #[test]
    fn shortest_full_rank_lengths() {
        let sixteen = Alphabet::new(b"@ABCDEFGHIJKLMNO").unwrap();
        let thirty_two = Alphabet::new(b"@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_").unwrap();
        for (name, slots, sixteen_len, thirty_two_len) in [
            ("librdkafka", Some(12), 9, 7),
            ("codis", None, 3, 3),
            ("twemproxy-crc32a", Some(3), 9, 7),
            ("tarantool-vshard", None, 10, 7),
            ("couchbase", None, 3, 3),
            ("couchbase", Some(1000), 4, 4),
            ("twemproxy-crc32", Some(5), 4, 4),
            ("redis-cluster", None, 4, 4),
        ] {
            let scheme = resolve(name, slots, None).unwrap();
            assert_eq!(
                shortest_full_rank(&scheme, &sixteen, 16),
                Some(sixteen_len),
                "{name} 16"
            );
            assert_eq!(
                shortest_full_rank(&scheme, &thirty_two, 16),
                Some(thirty_two_len),
                "{name} 32"
            );
        }
        let redis = resolve("redis-cluster", None, None).unwrap();
        let derived = crate::derive::shortest_tag_len(&crate::Spec::default()).unwrap();
        assert_eq!(shortest_full_rank(&redis, &sixteen, 16), derived);
    }

    /// The rank against enumeration: tags of length 1 to 4 reach exactly `2^rank` distinct
    /// values of the controlled bits.
    #[test]
    fn rank_counts_the_values_tags_reach() {
        let alphabet = Alphabet::new(b"@ABCDEFGHIJKLMNO").unwrap();
        for name in ["codis", "couchbase", "tarantool-vshard", "redis-cluster"] {
            let scheme = resolve(name, None, None).unwrap();
            let bits = controlled_bits(&scheme);
            for len in 1..=4u32 {
                let mut seen = std::collections::HashSet::new();
                for i in 0..16u32.pow(len) {
                    let tag: Vec<u8> = (0..len)
                        .map(|p| alphabet.symbols()[(i >> (4 * p)) as usize & 15])
                        .collect();
                    seen.insert(scheme.value(&tag) & bits);
                }
                let rank = value_rank(&scheme, &alphabet, len as usize).rank;
                assert_eq!(seen.len(), 1 << rank, "{name} len {len}");
            }
        }
    }

    #[test]
    fn defaults_and_required_slot_counts() {
        for (name, slots) in [
            ("redis-cluster", Some(16384)),
            ("codis", Some(1024)),
            ("couchbase", Some(1024)),
            ("tarantool-vshard", Some(3000)),
            ("librdkafka", None),
            ("twemproxy-crc32a", None),
            ("twemproxy-crc32", None),
            ("twemproxy-crc16", None),
        ] {
            match (resolve(name, None, None), slots) {
                (Ok(s), Some(n)) => assert_eq!(s.slots(), n, "{name}"),
                (Err(Error::Scheme(TablesError::SlotsRequired { scheme })), None) => {
                    assert_eq!(scheme, name);
                }
                (other, _) => panic!("{name}: {other:?}"),
            }
        }
    }

    #[test]
    fn option_errors() {
        assert!(matches!(
            resolve("codis", None, Some("{}")),
            Err(Error::Scheme(TablesError::HashTagNotTaken {
                scheme: "codis"
            }))
        ));
        assert!(matches!(
            resolve("twemproxy-crc32", Some(3), Some("{")),
            Err(Error::HashTagDelimiters { .. })
        ));
        assert!(matches!(
            resolve("librdkafka", Some(0), None),
            Err(Error::Scheme(TablesError::ZeroSlots))
        ));
        assert!(matches!(
            resolve("redis-cluster", Some(3000), None),
            Err(Error::Scheme(TablesError::SlotsNotPowerOfTwo {
                slots: 3000
            }))
        ));
        assert!(matches!(
            resolve("librdkafka", Some(1 << 32), None),
            Err(Error::SchemeSlots { .. })
        ));
        // a misspelled start of a name (found by a tester: `twemproxi` got no guess)
        match find("twemproxi") {
            Err(Error::UnknownScheme { nearest, .. }) => {
                assert!(
                    nearest.iter().all(|n| n.starts_with("twemproxy-")),
                    "{nearest:?}"
                );
                assert!(!nearest.is_empty());
            }
            other => panic!("{other:?}"),
        }
        match find("twemproxy") {
            Err(e @ Error::UnknownScheme { .. }) => {
                let text = e.to_string();
                assert!(text.contains("nearest: `twemproxy-crc32`"), "{text}");
            }
            other => panic!("{other:?}"),
        }
    }
}
