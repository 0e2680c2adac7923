//! The choice of an affine alphabet inside a charset: [`choose`].

use std::fmt;
use std::ops::ControlFlow;

use slotgen_tables::SchemeName;

use super::Charset;
use crate::alphabet::max_tag_len;
use crate::alphabet::{for_each_affine_subset, largest_affine_subset};
use crate::derive::TableSpec;
use crate::gf2::Span;
use crate::spec::{check_crc, SlotCount};
use crate::text::show_bytes;
use crate::{Alphabet, Error};

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

/// Picks an affine alphabet inside `charset` for the table of `spec` (a CRC-16 spec, or a
/// named scheme's), and the tag length to use with it: the alphabet without the scheme's
/// hashtag delimiters (twemproxy's `hash_tag`; braces are never in a charset) whose tags
/// hashed alone control every bit the tags are solved for
/// ([`solved`](crate::scheme::invert::solved): the slot's bits for a CRC-16 spec or a
/// power of two, the whole value otherwise). The rule, in order:
///
/// 1. the shortest tag that reaches every slot (or, with `spec`'s `tag_len` given, tags
///    of that length that reach every slot);
/// 2. then the larger alphabet (more tags per slot);
/// 3. then the alphabet whose symbols, in ascending byte order, come first (so `0` before
///    `A` before `a`).
///
/// The choice depends only on the arguments (`spec`'s alphabet is not read). It examines
/// the alphabets by size, largest first, each size in lexicographic order
/// ([`affine_subsets`](crate::alphabet::affine_subsets)), and stops as soon as no remaining
/// size can give a shorter tag. Rank is cheap to test: a scheme's value is affine in a tag's
/// bytes, and the change that flipping a byte makes depends only on its distance from the
/// tag's end (a CRC's linear part; for the unmasked register of `twemproxy-crc16` the same
/// holds for each of the CRCs it holds), so the deltas of each distance are measured once
/// and a longer tag only adds columns.
///
/// # Errors
///
/// - [`Error::UnsupportedWidth`], [`Error::CheckMismatch`], [`Error::SlotCount`]: a CRC-16
///   spec, as [`derive`](crate::derive()).
/// - As [`SchemeSpec::scheme`](crate::scheme::invert::SchemeSpec::scheme) and
///   [`solved`](crate::scheme::invert::solved) for a scheme.
/// - [`Error::NoAlphabetInCharset`]: no affine alphabet of at least 2 symbols inside the
///   charset reaches every slot with tags up to the longest a table holds (or of length
///   `tag_len`).
///
/// # Examples
///
/// ```
/// use slotgen::charset::{choose, Charset};
/// use slotgen::scheme::invert::SchemeSpec;
/// use slotgen::Spec;
/// use slotgen_tables::SchemeName;
///
/// let alnum = Charset::parse("alnum")?;
/// let choice = choose(&alnum, &Spec::default().into())?;
/// // the only 32-symbol affine alphabet inside `alnum`: 0x48..=0x57 and 0x68..=0x77
/// assert_eq!(choice.alphabet.symbols(), b"HIJKLMNOPQRSTUVWhijklmnopqrstuvw");
/// assert_eq!(choice.tag_len, 3); // 15 input bits for the 14 slot bits
///
/// // CRC-16/MODBUS needs 4 symbols of that alphabet
/// let modbus = choose(&alnum, &Spec { crc: crc::CRC_16_MODBUS, ..Spec::default() }.into())?;
/// assert_eq!(modbus.tag_len, 4);
///
/// // librdkafka, 12 partitions: the whole 32-bit value is solved for, and the 32-symbol
/// // affine alphabet inside `alnum` needs 7 symbols
/// let kafka = SchemeSpec { slots: Some(12), ..SchemeSpec::new(SchemeName::Librdkafka) };
/// let choice = choose(&alnum, &kafka.into())?;
/// assert_eq!(choice.alphabet.symbols(), b"HIJKLMNOPQRSTUVWhijklmnopqrstuvw");
/// assert_eq!(choice.tag_len, 7);
/// # Ok::<(), slotgen::Error>(())
/// ```
pub fn choose(charset: &Charset, spec: &TableSpec) -> Result<Choice, Error> {
    let (name, scheme, tag_len) = match spec {
        TableSpec::Crc16(spec) => {
            check_crc(&spec.crc)?;
            let slots = SlotCount::new(u64::from(spec.slots))?;
            let scheme = crate::scheme::table_spec::crc16_scheme(&spec.crc, slots);
            (SchemeName::RedisCluster, scheme, spec.tag_len)
        }
        TableSpec::Scheme(spec) => (spec.name, spec.scheme()?, spec.tag_len),
    };
    let solved = crate::scheme::invert::solved(name, &scheme)?;
    let mask = crate::scheme::invert::low_mask(solved.bits());
    let delimiters = scheme.hashtag().delimiters().unwrap_or(*b"{}");
    let bytes: Vec<u8> = charset
        .bytes()
        .iter()
        .copied()
        .filter(|b| !delimiters.contains(b))
        .collect();
    // `at[k][j]`: the change of flipping bit `j` of the byte `k` places before the last
    let longest = max_tag_len(1);
    let at: Vec<[u64; 8]> = (0..longest)
        .map(|k| {
            let zero = vec![0u8; k + 1];
            let base = scheme.value_of_hashed(&zero);
            std::array::from_fn(|j| {
                let mut flipped = zero.clone();
                flipped[0] = 1 << j;
                (scheme.value_of_hashed(&flipped) ^ base) & mask
            })
        })
        .collect();
    choose_by(
        charset,
        &bytes,
        solved.bits() as usize,
        u64::from(scheme.slots()),
        tag_len,
        |distance, diff| {
            (0..8)
                .filter(|&j| diff >> j & 1 == 1)
                .fold(0, |acc, j| acc ^ at[distance][j])
        },
    )
}

/// The choice of [`choose`] among the affine alphabets inside `bytes` (ascending), for
/// `needed` bits whose change by flipping `diff` into the byte `distance` places before a
/// tag's last one is `delta(distance, diff)`; `charset` and `slots` name what was asked in
/// the error.
fn choose_by(
    charset: &Charset,
    bytes: &[u8],
    needed: usize,
    slots: u64,
    tag_len: Option<usize>,
    delta: impl Fn(usize, u8) -> u64,
) -> Result<Choice, Error> {
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
        for_each_affine_subset(bytes, dim, |subset| {
            examined += 1;
            let Some(n) = shortest_len(&delta, subset, needed, lengths.clone()) else {
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
            slots,
            tag_len,
            largest: largest_affine_subset(bytes).len(),
        }),
    }
}

/// The shortest length in `lengths` at which tags over `subset` (an affine alphabet,
/// ascending) reach all `2^needed` slots. A longer tag only adds columns (one more symbol
/// before the others), so one [`Span`] grows symbol by symbol.
fn shortest_len(
    delta: &impl Fn(usize, u8) -> u64,
    subset: &[u8],
    needed: usize,
    lengths: std::ops::RangeInclusive<usize>,
) -> Option<usize> {
    let dim = subset.len().trailing_zeros();
    let mut span = Span::default();
    for len in 1..=*lengths.end() {
        for j in 0..dim {
            span.insert(delta(len - 1, subset[1 << j] ^ subset[0]));
        }
        if span.rank() == needed && lengths.contains(&len) {
            return Some(len);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::alphabet::affine_subsets;
    use crate::catalog;
    use crate::gf2::Matrix;
    use crate::scheme::invert::SchemeSpec;
    use crc::Algorithm;

    /// The spec of a CRC-16 table, for [`choose`].
    fn crc16(crc: &Algorithm<u16>, slots: u32, tag_len: Option<usize>) -> TableSpec {
        TableSpec::Crc16(crate::Spec {
            crc: *crc,
            slots,
            tag_len,
            ..crate::Spec::default()
        })
    }

    /// The spec of a named scheme's table, for [`choose`].
    fn scheme(name: SchemeName, slots: u32, hash_tag: Option<[u8; 2]>) -> TableSpec {
        TableSpec::Scheme(SchemeSpec {
            slots: Some(slots),
            hash_tag,
            ..SchemeSpec::new(name)
        })
    }

    #[test]
    fn charsets_without_a_working_alphabet_are_refused() {
        let one = Charset::parse("a").unwrap();
        let e = choose(&one, &crc16(&crc::CRC_16_XMODEM, 16384, None)).unwrap_err();
        assert!(
            matches!(e, Error::NoAlphabetInCharset { largest: 1, .. }),
            "{e:?}"
        );
        // two symbols, one bit per symbol: 14 bits need 14 symbols, so 4 are too few
        let two = Charset::parse("ab").unwrap();
        let e = choose(&two, &crc16(&crc::CRC_16_XMODEM, 16384, Some(4))).unwrap_err();
        assert_eq!(
            e.to_string(),
            "no affine alphabet inside charset `ab` reaches all 16384 slots with 4-symbol tags: \
             its largest affine alphabet has 2 symbols; use a larger charset, another tag length, \
             or fewer slots"
        );
    }

    /// The rank of `n`-symbol tags over `alphabet`, from the `crc` crate's CRC of each tag
    /// with one input bit set (not from the deltas `choose` uses), by a full elimination.
    fn rank_by_evaluation(
        crc: &Algorithm<u16>,
        alphabet: &Alphabet,
        n: usize,
        slots: u32,
    ) -> usize {
        let crc = catalog::reference_crc(crc);
        let slot = |tag: &[u8]| u64::from(crc.checksum(tag) & (slots - 1) as u16);
        let zero = vec![alphabet.offset(); n];
        let mut columns = Vec::new();
        for k in 0..n {
            for b in alphabet.basis() {
                let mut tag = zero.clone();
                tag[k] ^= b;
                columns.push(slot(&tag) ^ slot(&zero));
            }
        }
        Matrix::from_columns(slots.trailing_zeros() as usize, &columns).rank()
    }

    /// The rule of [`choose`], applied by brute force: every affine alphabet inside the
    /// charset and every tag length that could still win, ranked by [`rank_by_evaluation`],
    /// then the order of the rule.
    fn choose_by_brute_force(charset: &[u8], crc: &Algorithm<u16>, slots: u32) -> (usize, Vec<u8>) {
        let needed = slots.trailing_zeros() as usize;
        let mut candidates = Vec::new();
        let mut bound = max_tag_len(1);
        for dim in (1..=7).rev() {
            for subset in affine_subsets(charset, dim) {
                let alphabet = Alphabet::new(&subset).unwrap();
                let shortest = (1..=bound.min(max_tag_len(dim)))
                    .find(|&n| rank_by_evaluation(crc, &alphabet, n, slots) == needed);
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
            let bytes = Charset::parse(charset).unwrap().bytes().to_vec();
            let parsed = Charset::parse(charset).unwrap();
            for entry in catalog::CATALOG.iter().step_by(10) {
                for slots in [16384, 16] {
                    let choice = choose(&parsed, &crc16(entry.algorithm, slots, None)).unwrap();
                    let expected = choose_by_brute_force(&bytes, entry.algorithm, slots);
                    assert_eq!(
                        (choice.tag_len, choice.alphabet.symbols().to_vec()),
                        expected,
                        "{charset} {} {slots}",
                        entry.name
                    );
                    let fixed = choose(
                        &parsed,
                        &crc16(entry.algorithm, slots, Some(expected.0 + 1)),
                    )
                    .unwrap();
                    assert_eq!(fixed.tag_len, expected.0 + 1);
                }
            }
        }
    }

    /// The rule of [`choose`] for a scheme, applied by brute force: every affine alphabet
    /// inside the charset (without the scheme's delimiters) and every tag length, ranked by
    /// [`value_rank`](crate::scheme::value_rank) (the scheme's value of whole tags, not the
    /// per-distance deltas), then the order of the rule.
    #[test]
    fn scheme_choice_follows_the_rule_by_brute_force() {
        use crate::scheme::{controlled_bits, value_rank};
        for (name, slots, hash_tag, charset) in [
            (SchemeName::Librdkafka, 12, None, "[0-9a-f]"),
            (SchemeName::Codis, 1024, None, "[0-9_-]"),
            (SchemeName::Couchbase, 1000, None, "[0-9a-f]"),
            (SchemeName::TarantoolVshard, 3000, None, "[0-9_-]"),
            (SchemeName::TwemproxyCrc32, 5, Some(*b"01"), "[0-9a-f]"),
            (SchemeName::TwemproxyCrc16, 8, Some(*b"::"), "[0-9:;<=>?]"),
        ] {
            let scheme = name.scheme(Some(slots), hash_tag).unwrap();
            let parsed = Charset::parse(charset).unwrap();
            let choice = choose(&parsed, &self::scheme(name, slots, hash_tag)).unwrap();
            let delimiters = hash_tag.unwrap_or(*b"{}");
            let bytes: Vec<u8> = parsed
                .bytes()
                .iter()
                .copied()
                .filter(|b| !delimiters.contains(b))
                .collect();
            let needed = controlled_bits(&scheme).count_ones() as usize;
            let mut candidates = Vec::new();
            for dim in 1..=7 {
                for subset in affine_subsets(&bytes, dim) {
                    let alphabet = Alphabet::new(&subset).unwrap();
                    if let Some(n) = (1..=max_tag_len(dim))
                        .find(|&n| value_rank(&scheme, &alphabet, n).rank == needed)
                    {
                        candidates.push((n, std::cmp::Reverse(subset.len()), subset));
                    }
                }
            }
            let (n, _, subset) = candidates.into_iter().min().unwrap();
            assert_eq!(
                (choice.tag_len, choice.alphabet.symbols()),
                (n, &subset[..]),
                "{name:?} {charset}"
            );
            assert!(choice
                .alphabet
                .symbols()
                .iter()
                .all(|b| !delimiters.contains(b)));
        }
        // twemproxy's `crc16` with 3 servers: refused as the inversion refuses it
        let alnum = Charset::parse("alnum").unwrap();
        assert!(matches!(
            choose(&alnum, &scheme(SchemeName::TwemproxyCrc16, 3, None)),
            Err(Error::UnsolvableRegister { .. })
        ));
    }
}
