//! Shortest tags: for every hash slot, the first string in order of length, then of a
//! charset's order, that lands on it.
//!
//! This is the table redis-benchmark ships as `crc16_slot_table` (for each of the 16384
//! slots, the first string of letters and digits, shortest first, in the order `0-9a-z`
//! then `A-Z`), computed for any CRC-16, slot count and charset:
//!
//! ```
//! use slotgen::shortest::{shortest, ShortestSpec};
//!
//! let table = shortest(&ShortestSpec::default())?; // redis-benchmark's table
//! assert_eq!(table.tag(0), Some(&b"06S"[..]));
//! assert_eq!(table.tag(16383), Some(&b"6ZJ"[..]));
//! assert!(table.gaps().is_empty());
//! # Ok::<(), slotgen::Error>(())
//! ```
//!
//! # How the search is fast
//!
//! For strings of one length `L`, the CRC is affine over GF(2) in the string's bytes, and so
//! is the slot (its low bits): with `z` the string of `L` copies of the first symbol,
//! `slot(s) = slot(z) ^ d[0][s_0] ^ ... ^ d[L-1][s_{L-1}]`, where `d[k][c]` is the slot
//! delta of putting symbol `c` at position `k` of `z`. [`shortest`] takes the `L * n`
//! deltas from the CRC's linear part ([`ByteDeltas`]), then walks the `n^L` strings in order with one xor per string
//! (a running xor per position), recording the first string of each slot, and stops as
//! soon as every slot has one. The 62-symbol table up to length 3 (242 234 strings) takes
//! well under a millisecond.

use crc::Algorithm;
use slotgen_tables::{Crc16, ShortestTable, MAX_TAG_LEN};

use crate::algebra::affine::ByteDeltas;
pub use crate::charset::Charset;
use crate::spec::{check_crc, SlotCount};
use crate::{catalog, Error};

/// The order of redis-benchmark's table: digits, then lower case, then upper case.
pub const REDIS_BENCHMARK_ORDER: &str = "0-9a-zA-Z";

/// The most strings [`shortest`] tries for one length: `2^32`. A length whose `n^L` strings
/// exceed it is refused with [`Error::SearchTooLarge`].
pub const MAX_CANDIDATES: u64 = 1 << 32;

/// What to search: the CRC, the slot count, the charset in search order, and the longest
/// tag to try. The slot of a tag is `crc(tag) & (slots - 1)`.
///
/// `ShortestSpec::default()` is redis-benchmark's table: CRC-16/XMODEM, 16384 slots, the 62
/// letters and digits in the order `0-9a-zA-Z`, tags of at most 3 symbols.
#[derive(Clone, Debug)]
pub struct ShortestSpec {
    /// The CRC, in the RevEng model. Its width must be 16.
    pub crc: Algorithm<u16>,
    /// The number of hash slots: a power of two from 2 to 65536.
    pub slots: u32,
    /// The symbols, in search order.
    pub charset: Charset,
    /// The longest tag to try, in symbols: 1 to [`MAX_TAG_LEN`] (32).
    pub max_len: usize,
}

impl Default for ShortestSpec {
    fn default() -> Self {
        let alnum = Charset::parse("alnum").and_then(|c| c.with_order(REDIS_BENCHMARK_ORDER));
        Self {
            crc: crc::CRC_16_XMODEM,
            slots: crate::spec::REDIS_CLUSTER_SLOTS,
            charset: alnum.expect("the named charset `alnum` in REDIS_BENCHMARK_ORDER parses"),
            max_len: 3,
        }
    }
}

impl ShortestSpec {
    /// The CRC's catalogue name, or `custom` when its parameters are no catalogue entry's.
    #[must_use]
    pub fn crc_name(&self) -> &'static str {
        catalog::name_of(&self.crc).unwrap_or("custom")
    }
}

/// The result of [`shortest`]: the first tag of each slot, or a gap where no tag of at most
/// `max_len` symbols lands on it.
#[derive(Clone, Debug)]
pub struct Shortest {
    /// The spec searched.
    pub spec: ShortestSpec,
    /// The length of the longest tag found (0 when none was).
    width: usize,
    /// `slots * width` bytes: each slot's tag, NUL-padded (the runtime's layout).
    tags: Vec<u8>,
}

impl Shortest {
    /// The tag of `slot`, or `None` for a gap or a slot out of range.
    #[must_use]
    pub fn tag(&self, slot: u32) -> Option<&[u8]> {
        if slot >= self.spec.slots || self.width == 0 {
            return None;
        }
        let start = slot as usize * self.width;
        let entry = &self.tags[start..start + self.width];
        let len = entry.iter().position(|&b| b == 0).unwrap_or(self.width);
        (len > 0).then(|| &entry[..len])
    }

    /// Every slot's tag in slot order, `None` for a gap.
    pub fn tags(&self) -> impl Iterator<Item = Option<&[u8]>> + '_ {
        (0..self.spec.slots).map(|slot| self.tag(slot))
    }

    /// The slots without a tag, ascending.
    #[must_use]
    pub fn gaps(&self) -> Vec<u32> {
        (0..self.spec.slots)
            .filter(|&s| self.tag(s).is_none())
            .collect()
    }

    /// The length of the longest tag (0 when every slot is a gap): the entry width of
    /// [`packed`](Self::packed).
    #[must_use]
    pub fn width(&self) -> usize {
        self.width
    }

    /// `slots * width` bytes: the tag of slot `s` at `s * width`, NUL-padded to `width`;
    /// all NUL for a gap. The layout of [`ShortestTable::tags`].
    #[must_use]
    pub fn packed(&self) -> &[u8] {
        &self.tags
    }

    /// The runtime's view of this table, borrowing its data.
    #[must_use]
    pub fn table(&self) -> ShortestTable<'_> {
        ShortestTable {
            crc: Crc16::new(&self.spec.crc),
            crc_name: self.spec.crc_name(),
            slots: self.spec.slots,
            charset: self.spec.charset.symbols(),
            max_len: self.spec.max_len,
            width: self.width,
            tags: &self.tags,
        }
    }
}

/// For every slot of `spec`, the first tag in order of length, then of the charset's order
/// (the first symbol most significant), whose slot is that slot. Uses the affine structure
/// of the CRC for each length (see the [module documentation](self)) and stops at the
/// first length after which every slot has a tag.
///
/// # Errors
///
/// - [`Error::UnsupportedWidth`], [`Error::CheckMismatch`]: the CRC (see
///   [`check_crc`]).
/// - [`Error::SlotCount`] when `slots` is not a power of two from 2 to 65536.
/// - [`Error::MaxLen`] when `max_len` is not in `1..=32`.
/// - [`Error::SearchTooLarge`] when slots are left after a length and the next length has
///   more than [`MAX_CANDIDATES`] strings.
///
/// # Examples
///
/// ```
/// use slotgen::shortest::{shortest, Charset, ShortestSpec};
///
/// let spec = ShortestSpec {
///     slots: 16,
///     charset: Charset::parse("digits")?,
///     ..ShortestSpec::default()
/// };
/// let table = shortest(&spec)?;
/// assert_eq!(table.tag(2), Some(&b"1"[..])); // CRC-16/XMODEM("1") = 0x2672
/// # Ok::<(), slotgen::Error>(())
/// ```
pub fn shortest(spec: &ShortestSpec) -> Result<Shortest, Error> {
    check_crc(&spec.crc)?;
    let slot_count = SlotCount::new(u64::from(spec.slots))?;
    if !(1..=MAX_TAG_LEN).contains(&spec.max_len) {
        return Err(Error::MaxLen {
            max_len: spec.max_len,
            limit: MAX_TAG_LEN,
        });
    }
    if let Some(&symbol) = spec
        .charset
        .symbols()
        .iter()
        .find(|b| !b.is_ascii_graphic())
    {
        return Err(Error::CharsetSymbol {
            symbol,
            rule: "shortest tags are printable ASCII (`!` to `~`), so that every output format can write them as text",
        });
    }
    let symbols = spec.charset.symbols();
    let n = symbols.len();
    let slots = spec.slots as usize;
    let max_len = spec.max_len;
    let deltas = ByteDeltas::new(&spec.crc, slot_count, max_len);
    // Entry `s`: the tag of slot `s` in `found[s * max_len..]`, its length in `lens[s]`
    // (0 while the slot has none).
    let mut found = vec![0u8; slots * max_len];
    let mut lens = vec![0u8; slots];
    let mut filled = 0;
    for len in 1..=max_len {
        if filled == slots {
            break;
        }
        let candidates = u64::try_from(n)
            .ok()
            .and_then(|n| n.checked_pow(len as u32))
            .filter(|&c| c <= MAX_CANDIDATES);
        if candidates.is_none() {
            return Err(Error::SearchTooLarge {
                len,
                symbols: n,
                left: slots - filled,
            });
        }
        // The affine decomposition for this length: `base` is the slot of `z`, and
        // `delta[k * n + i]` the slot delta of symbol `i` at position `k` of `z`.
        let base = deltas.slot(&vec![symbols[0]; len]);
        let delta: Vec<u16> = (0..len)
            .flat_map(|k| {
                let deltas = &deltas;
                symbols
                    .iter()
                    .map(move |&symbol| deltas.delta(len - 1 - k, symbol ^ symbols[0]))
            })
            .collect();
        // An odometer over positions `0..last` (position 0 most significant), the last
        // position walked in the inner loop. `prefix[k]`: `base` xor the deltas of the
        // symbols at positions `0..k`.
        let last = len - 1;
        let mut index = vec![0usize; len];
        let mut prefix = vec![base; len];
        for k in 1..len {
            prefix[k] = prefix[k - 1] ^ delta[(k - 1) * n];
        }
        'walk: loop {
            let p = prefix[last];
            for (i, &d) in delta[last * n..].iter().enumerate() {
                let slot = usize::from(p ^ d);
                if lens[slot] == 0 {
                    lens[slot] = len as u8;
                    let entry = &mut found[slot * max_len..slot * max_len + len];
                    for (byte, &at) in entry.iter_mut().zip(&index[..last]) {
                        *byte = symbols[at];
                    }
                    entry[last] = symbols[i];
                    filled += 1;
                }
            }
            if filled == slots {
                break;
            }
            // Advance the odometer at positions `last - 1` down to 0.
            let mut k = last;
            loop {
                if k == 0 {
                    break 'walk;
                }
                k -= 1;
                index[k] += 1;
                if index[k] < n {
                    break;
                }
                index[k] = 0;
            }
            for j in k + 1..=last {
                prefix[j] = prefix[j - 1] ^ delta[(j - 1) * n + index[j - 1]];
            }
        }
    }
    let width = usize::from(lens.iter().copied().max().unwrap_or(0));
    let mut tags = vec![0u8; slots * width];
    for slot in 0..slots {
        let len = usize::from(lens[slot]);
        tags[slot * width..slot * width + len]
            .copy_from_slice(&found[slot * max_len..slot * max_len + len]);
    }
    Ok(Shortest {
        spec: spec.clone(),
        width,
        tags,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plain enumeration: every string of length 1, 2, ... in order, each CRC computed
    /// by the `crc` crate from scratch.
    fn naive(spec: &ShortestSpec) -> Vec<Option<Vec<u8>>> {
        let crc = catalog::reference_crc(&spec.crc);
        let symbols = spec.charset.symbols();
        let mut table = vec![None; spec.slots as usize];
        for len in 1..=spec.max_len {
            let count = symbols.len().pow(len as u32);
            for mut number in 0..count {
                // Digits of `number` in base n, the first symbol most significant.
                let mut tag = vec![0u8; len];
                for byte in tag.iter_mut().rev() {
                    *byte = symbols[number % symbols.len()];
                    number /= symbols.len();
                }
                let slot = (crc.checksum(&tag) as u32 & (spec.slots - 1)) as usize;
                if table[slot].is_none() {
                    table[slot] = Some(tag);
                }
            }
        }
        table
    }

    fn spec(crc: &str, slots: u32, charset: &str, max_len: usize) -> ShortestSpec {
        ShortestSpec {
            crc: *catalog::find(crc).unwrap().algorithm,
            slots,
            charset: Charset::parse(charset).unwrap(),
            max_len,
        }
    }

    #[test]
    fn equals_plain_enumeration_on_small_cases() {
        let cases = [
            spec("XMODEM", 16, "digits", 2),
            spec("XMODEM", 256, "digits", 3),
            spec("XMODEM", 1024, "[a-f]", 4),
            spec("MODBUS", 512, "lower", 2),
            spec("CRC-16/ARC", 64, "zyx", 4),
            spec("CRC-16/IBM-SDLC", 2, "[!-z]", 1),
            spec("CRC-16/GENIBUS", 4096, "[A-Z0-9]", 3),
            spec("CRC-16/KERMIT", 65536, "ab", 12),
            spec("CRC-16/DNP", 8192, "0-9", 4),
        ];
        for case in &cases {
            let fast = shortest(case).unwrap();
            let plain = naive(case);
            let got: Vec<Option<Vec<u8>>> = fast.tags().map(|t| t.map(<[u8]>::to_vec)).collect();
            assert_eq!(
                got,
                plain,
                "{} {} slots {:?}",
                case.crc_name(),
                case.slots,
                case.charset
            );
            let gaps: Vec<u32> = (0..case.slots)
                .filter(|&s| plain[s as usize].is_none())
                .collect();
            assert_eq!(fast.gaps(), gaps);
        }
    }

    #[test]
    fn gaps_of_a_charset_too_small() {
        // Two symbols, at most 3 of them: 2 + 4 + 8 = 14 strings for 256 slots.
        let case = spec("XMODEM", 256, "ab", 3);
        let table = shortest(&case).unwrap();
        let reached = naive(&case).iter().filter(|t| t.is_some()).count();
        assert!(reached <= 14);
        assert_eq!(table.gaps().len(), 256 - reached);
        for slot in table.gaps() {
            assert!(table.tag(slot).is_none());
            assert!(matches!(
                table.table().tag_for_slot(slot as u16),
                Err(slotgen_tables::Error::NoShortTag { max_len: 3, .. })
            ));
        }
    }

    #[test]
    fn charset_syntax() {
        let symbols = |s: &str| Charset::parse(s).unwrap().symbols().to_vec();
        assert_eq!(symbols("digits"), b"0123456789");
        assert_eq!(symbols("upper").len(), 26);
        assert_eq!(symbols("x-z["), b"x-z["); // an explicit list: no ranges
        assert_eq!(symbols("[-a-c]"), b"-abc");
        assert_eq!(symbols("[ab-]"), b"-ab");
        assert_eq!(symbols("[\\]\\\\]"), b"\\]");
        assert_eq!(symbols("[a\\-c]"), b"-ac");
        for bad in ["", "[]", "[a-c", "[c-a]", "aa", "{x}", "[a\\]", "[z-a]x"] {
            assert!(Charset::parse(bad).is_err(), "{bad:?} parsed");
        }
        let order = |c: &str, o: &str| Charset::parse(c).unwrap().with_order(o);
        assert!(matches!(
            order("lower", "z-a"),
            Err(Error::CharsetSyntax { spec, reason }) if spec == "z-a" && reason.contains("runs backwards")
        ));
        // a space is a byte of a charset, but not a symbol of a shortest tag
        let mut with_space = spec("XMODEM", 16, "digits", 2);
        with_space.charset = Charset::parse("a b").unwrap();
        assert!(matches!(
            shortest(&with_space),
            Err(Error::CharsetSymbol { symbol: b' ', .. })
        ));
        assert_eq!(order("[abc]", "cba").unwrap().symbols(), b"cba");
        assert_eq!(
            order("[abc]", "abd"),
            Err(Error::OrderMismatch {
                order: "abd".into(),
                missing: b"c".to_vec(),
                extra: b"d".to_vec()
            })
        );
        let c = order("alnum", REDIS_BENCHMARK_ORDER).unwrap();
        assert_eq!(
            Charset::parse("alnum")
                .unwrap()
                .with_order(&c.ranges())
                .unwrap(),
            c
        );
    }

    #[test]
    fn bad_specs_are_errors() {
        let mut s = spec("XMODEM", 16, "digits", 0);
        assert_eq!(
            shortest(&s).unwrap_err(),
            Error::MaxLen {
                max_len: 0,
                limit: 32
            }
        );
        s.max_len = 2;
        s.slots = 12;
        assert_eq!(shortest(&s).unwrap_err(), Error::SlotCount { slots: 12 });
        let wide = spec("XMODEM", 16384, "alnum", 32);
        // Every slot is reached by length 3, so the search stops long before its bound.
        assert!(shortest(&wide).unwrap().gaps().is_empty());
        // An even polynomial with an unreflected output leaves the slot's low bits constant:
        // refused before any search.
        let mut stuck = spec("XMODEM", 65536, "[!-z]", 5);
        stuck.crc = catalog::custom(0, 0, false, false, 0);
        assert_eq!(shortest(&stuck).unwrap_err(), Error::EvenPoly { poly: 0 });
        // Reflected, poly 0 passes that rule, and the CRC of every string is still 0: one
        // slot is reached, and the search runs on until the next length has more than 2^32
        // strings.
        stuck.crc = catalog::custom(0, 0, true, true, 0);
        assert_eq!(
            shortest(&stuck).unwrap_err(),
            Error::SearchTooLarge {
                len: 5,
                symbols: 90,
                left: 65535
            }
        );
    }
}
