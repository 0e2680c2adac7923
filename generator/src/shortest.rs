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
//! deltas from the scheme's value of `L * n` strings (a CRC-16 spec is the scheme of its
//! CRC, masked to the slot count), then walks the `n^L` strings in order with one xor per string
//! (a running xor per position), recording the first string of each slot, and stops as
//! soon as every slot has one. The 62-symbol table up to length 3 (242 234 strings) takes
//! well under a millisecond.

use crc::Algorithm;
use slotgen_tables::{Crc16, Scheme, SchemeName, SchemeShortestTable, ShortestTable, MAX_TAG_LEN};

pub use crate::charset::Charset;
use crate::scheme::SlotFunction;
use crate::spec::check_crc;
use crate::{catalog, Error};

/// The order of redis-benchmark's table: digits, then lower case, then upper case.
pub const REDIS_BENCHMARK_ORDER: &str = "0-9a-zA-Z";

/// The most strings [`shortest`] tries for one length: `2^32`. A length whose `n^L` strings
/// exceed it is refused with [`Error::SearchTooLarge`].
pub const MAX_CANDIDATES: u64 = 1 << 32;

/// What to search: the slot function (a CRC-16 spec's CRC and slot count, the slot of a
/// tag `crc(tag) & (slots - 1)`; or a named scheme's), the charset in search order, and the
/// longest tag to try.
///
/// `ShortestSpec::default()` is redis-benchmark's table: CRC-16/XMODEM, 16384 slots, the 62
/// letters and digits in the order `0-9a-zA-Z`, tags of at most 3 symbols.
#[derive(Clone, Debug)]
pub struct ShortestSpec {
    /// What gives a tag's slot: a CRC-16 spec's ([`SlotFunction::try_from`] a
    /// [`Spec`](crate::Spec)), whose CRC must have width 16, or a named scheme's
    /// ([`SlotFunction::scheme`]).
    pub function: SlotFunction,
    /// The symbols, in search order.
    pub charset: Charset,
    /// The longest tag to try, in symbols: 1 to [`MAX_TAG_LEN`] (32).
    pub max_len: usize,
}

impl Default for ShortestSpec {
    fn default() -> Self {
        let alnum = Charset::parse("alnum").and_then(|c| c.with_order(REDIS_BENCHMARK_ORDER));
        Self {
            function: SlotFunction::default(),
            charset: alnum.expect("the named charset `alnum` in REDIS_BENCHMARK_ORDER parses"),
            max_len: 3,
        }
    }
}

/// The first tag of each slot of a slot function, or a gap where no tag of at most
/// `max_len` symbols lands on it: what [`shortest`] finds for a CRC-16 spec or a named
/// scheme (the per-slot table to use where the exact
/// inversion needs long tags: a modulus that is not a power of two solves the whole value,
/// 7 symbols of 32 for CRC-32, where 3 alphanumeric characters reach all 3000 Tarantool
/// vshard buckets).
///
/// A CRC-16 spec is searched as its scheme (its CRC under the Redis rule, masked to the slot
/// count); the runtime keeps two shapes, and [`crc16`](Self::crc16) picks: a CRC-16 table
/// is a [`ShortestTable`] ([`shortest_table`](Self::shortest_table)), which names its CRC;
/// a named scheme's a [`SchemeShortestTable`] ([`scheme_table`](Self::scheme_table)).
#[derive(Clone, Debug)]
pub struct Shortest {
    /// The named scheme searched: `redis-cluster` for a CRC-16 spec's table.
    pub name: SchemeName,
    /// The scheme, with its slot count.
    pub scheme: Scheme<'static>,
    /// The CRC of a CRC-16 spec's table; `None` for a named scheme's.
    pub crc16: Option<Algorithm<u16>>,
    /// The charset, in search order.
    pub charset: Charset,
    /// The longest tag tried.
    pub max_len: usize,
    /// The length of the longest tag found (0 when none was).
    width: usize,
    /// `slots * width` bytes: each slot's tag, NUL-padded (the runtime's layout).
    tags: Vec<u8>,
}

impl Shortest {
    /// The tag of `slot` (in `first..first + slots`), or `None` for a gap or a slot out of
    /// range.
    #[must_use]
    pub fn tag(&self, slot: u32) -> Option<&[u8]> {
        let i = slot.checked_sub(self.scheme.offset())? as usize;
        packed_tag(&self.tags, self.width, i)
    }

    /// Every slot's tag in slot order (from the first slot), `None` for a gap.
    pub fn tags(&self) -> impl Iterator<Item = Option<&[u8]>> + '_ {
        let first = self.scheme.offset();
        (first..first + self.scheme.slots()).map(|slot| self.tag(slot))
    }

    /// The slots without a tag, ascending.
    #[must_use]
    pub fn gaps(&self) -> Vec<u32> {
        let first = self.scheme.offset();
        (first..first + self.scheme.slots())
            .filter(|&s| self.tag(s).is_none())
            .collect()
    }

    /// The length of the longest tag (0 when every slot is a gap): the entry width of
    /// [`packed`](Self::packed).
    #[must_use]
    pub fn width(&self) -> usize {
        self.width
    }

    /// `slots * width` bytes: the tag of the slot `first + i` at `i * width`, NUL-padded;
    /// all NUL for a gap. The layout of [`ShortestTable::tags`] and
    /// [`SchemeShortestTable::tags`].
    #[must_use]
    pub fn packed(&self) -> &[u8] {
        &self.tags
    }

    /// twemproxy's `hash_tag` delimiters the scheme reads, if any.
    #[must_use]
    pub fn hash_tag(&self) -> Option<[u8; 2]> {
        match self.scheme.hashtag() {
            slotgen_tables::HashtagRule::Delimited { open, close } => Some([open, close]),
            _ => None,
        }
    }

    /// The slot function searched.
    #[must_use]
    pub fn function(&self) -> SlotFunction {
        match self.crc16 {
            Some(crc) => SlotFunction::try_from(&crate::Spec {
                crc,
                slots: self.scheme.slots(),
                ..crate::Spec::default()
            })
            .expect("the slot count of a searched table"),
            None => SlotFunction::scheme(self.name, Some(self.scheme.slots()), self.hash_tag())
                .expect("the scheme of a searched table"),
        }
    }

    /// The runtime's [`ShortestTable`] of a CRC-16 spec's table, borrowing its data; `None`
    /// for a named scheme's.
    #[must_use]
    pub fn shortest_table(&self) -> Option<ShortestTable<'_>> {
        let crc = self.crc16.as_ref()?;
        Some(ShortestTable {
            crc: Crc16::new(crc),
            crc_name: catalog::name_of(crc).unwrap_or("custom"),
            slots: self.scheme.slots(),
            charset: self.charset.symbols(),
            max_len: self.max_len,
            width: self.width,
            tags: &self.tags,
        })
    }

    /// The runtime's [`SchemeShortestTable`] of this table (of any kind), borrowing its data.
    #[must_use]
    pub fn scheme_table(&self) -> SchemeShortestTable<'_> {
        SchemeShortestTable {
            scheme: self.scheme,
            charset: self.charset.symbols(),
            max_len: self.max_len,
            width: self.width,
            tags: &self.tags,
        }
    }
}

/// For every slot of `spec`'s slot function, the first tag in order of length, then of
/// the charset's order (the first symbol most significant), whose key lands on it (the tag
/// hashed alone: the key itself for a whole-key scheme, its hashtag otherwise). Uses the
/// affine structure of the scheme's value for each length (see the [module
/// documentation](self)), reduced to the slot for each string, and stops at the first
/// length after which every slot has a tag. A CRC-16 spec is searched as its scheme (its
/// CRC under the Redis rule, masked to the slot count).
///
/// # Errors
///
/// - [`Error::UnsupportedWidth`], [`Error::CheckMismatch`]: a CRC-16 spec's CRC (see
///   [`check_crc`]).
/// - [`Error::MaxLen`] when `max_len` is not in `1..=32`; [`Error::CharsetSymbol`] for a
///   symbol that is not printable ASCII.
/// - [`Error::DelimiterInAlphabet`] when the charset has one of the hashtag delimiters.
/// - [`Error::SearchTooLarge`] when slots are left after a length and the next length has
///   more than [`MAX_CANDIDATES`] strings.
///
/// # Examples
///
/// ```
/// use slotgen::scheme::SlotFunction;
/// use slotgen::shortest::{shortest, Charset, ShortestSpec};
/// use slotgen::Spec;
/// use slotgen_tables::SchemeName;
///
/// let spec = ShortestSpec {
///     function: SlotFunction::try_from(&Spec { slots: 16, ..Spec::default() })?,
///     charset: Charset::parse("digits")?,
///     ..ShortestSpec::default()
/// };
/// let table = shortest(&spec)?;
/// assert_eq!(table.tag(2), Some(&b"1"[..])); // CRC-16/XMODEM("1") = 0x2672
///
/// // 3 alphanumeric characters reach all 3000 Tarantool vshard buckets
/// let vshard = SlotFunction::scheme(SchemeName::TarantoolVshard, None, None)?;
/// let spec = ShortestSpec {
///     function: vshard.clone(),
///     charset: Charset::parse("alnum")?,
///     max_len: 3,
/// };
/// let table = shortest(&spec)?;
/// assert!(table.gaps().is_empty());
/// assert_eq!(table.width(), 3);
/// assert_eq!(vshard.slot(table.tag(1).unwrap()), 1);
/// # Ok::<(), slotgen::Error>(())
/// ```
pub fn shortest(spec: &ShortestSpec) -> Result<Shortest, Error> {
    let crc16 = spec.function.spec().map(|spec| spec.crc);
    if let Some(crc) = &crc16 {
        check_crc(crc)?;
    }
    let name = spec
        .function
        .scheme_name()
        .map_or(SchemeName::RedisCluster, |(name, _)| name);
    search_scheme(
        name,
        spec.function.runtime(),
        crc16,
        &spec.charset,
        spec.max_len,
    )
}

/// Refuses a search the tables cannot hold: `max_len` outside `1..=32`, a symbol that is
/// not printable ASCII.
fn check_search(charset: &Charset, max_len: usize) -> Result<(), Error> {
    if !(1..=MAX_TAG_LEN).contains(&max_len) {
        return Err(Error::MaxLen {
            max_len,
            limit: MAX_TAG_LEN,
        });
    }
    if let Some(&symbol) = charset.symbols().iter().find(|b| !b.is_ascii_graphic()) {
        return Err(Error::CharsetSymbol {
            symbol,
            rule: "shortest tags are printable ASCII (`!` to `~`), so that every output format can write them as text",
        });
    }
    Ok(())
}

/// The first tag of each of `slots` slots over `symbols` in order, up to `max_len` symbols
/// (see [`shortest`]): `(width, packed)`, the layout of [`Shortest::packed`].
///
/// For each length `len`, `decompose(len)` gives the affine decomposition of the value
/// that decides the slot: the value of `z` (`len` copies of the first symbol) and, at
/// `k * n + i`, the value delta of symbol `i` at position `k` of `z`; `index(value)` is the
/// slot's index in `0..slots`. The value of a string is `base ^ delta[0][s_0] ^ ..`, one
/// xor per string with a running xor per position.
fn search(
    symbols: &[u8],
    slots: u32,
    max_len: usize,
    mut decompose: impl FnMut(usize) -> (u64, Vec<u64>),
    index: impl Fn(u64) -> usize,
) -> Result<(usize, Vec<u8>), Error> {
    let n = symbols.len();
    let slots = slots as usize;
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
        let (base, delta) = decompose(len);
        // An odometer over positions `0..last` (position 0 most significant), the last
        // position walked in the inner loop. `prefix[k]`: `base` xor the deltas of the
        // symbols at positions `0..k`.
        let last = len - 1;
        let mut position = vec![0usize; len];
        let mut prefix = vec![base; len];
        for k in 1..len {
            prefix[k] = prefix[k - 1] ^ delta[(k - 1) * n];
        }
        'walk: loop {
            let p = prefix[last];
            for (i, &d) in delta[last * n..].iter().enumerate() {
                let slot = index(p ^ d);
                if lens[slot] == 0 {
                    lens[slot] = len as u8;
                    let entry = &mut found[slot * max_len..slot * max_len + len];
                    for (byte, &at) in entry.iter_mut().zip(&position[..last]) {
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
                position[k] += 1;
                if position[k] < n {
                    break;
                }
                position[k] = 0;
            }
            for j in k + 1..=last {
                prefix[j] = prefix[j - 1] ^ delta[(j - 1) * n + position[j - 1]];
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
    Ok((width, tags))
}

/// Entry `i` of a packed table of `width`-byte NUL-padded tags; `None` for a gap or past
/// the end.
fn packed_tag(tags: &[u8], width: usize, i: usize) -> Option<&[u8]> {
    let entry = tags.get(i * width..(i + 1) * width)?;
    let len = entry.iter().position(|&b| b == 0).unwrap_or(width);
    (len > 0).then(|| &entry[..len])
}

/// [`shortest`]: the search over the scheme's value, which is affine in a string's bytes
/// for each length, reduced to the slot for each string.
fn search_scheme(
    name: SchemeName,
    scheme: &Scheme<'static>,
    crc16: Option<Algorithm<u16>>,
    charset: &Charset,
    max_len: usize,
) -> Result<Shortest, Error> {
    check_search(charset, max_len)?;
    let symbols = charset.symbols();
    let delimiters = scheme.hashtag().delimiters().unwrap_or(*b"{}");
    if let Some(&byte) = symbols.iter().find(|b| delimiters.contains(b)) {
        return Err(Error::DelimiterInAlphabet { byte, delimiters });
    }
    let slots = scheme.slots();
    let reduction = scheme.reduction();
    let (width, tags) = search(
        symbols,
        slots,
        max_len,
        |len| {
            let mut z = vec![symbols[0]; len];
            let base = scheme.value(&z);
            let mut delta = Vec::with_capacity(len * symbols.len());
            for k in 0..len {
                for &symbol in symbols {
                    z[k] = symbol;
                    delta.push(scheme.value(&z) ^ base);
                }
                z[k] = symbols[0];
            }
            (base, delta)
        },
        |value| {
            let reduced = match reduction {
                slotgen_tables::Reduction::Mask => value & u64::from(slots - 1),
                slotgen_tables::Reduction::Modulus => value % u64::from(slots),
            };
            // below `slots`: the index of slot `offset + reduced`
            reduced as usize
        },
    )?;
    Ok(Shortest {
        name,
        scheme: *scheme,
        crc16,
        charset: charset.clone(),
        max_len,
        width,
        tags,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plain enumeration for a scheme: every string in order, its CRC by the `crc`
    /// crate from scratch, reduced here.
    fn naive_scheme(
        crc: &'static crc::Algorithm<u32>,
        reduce: impl Fn(u32) -> u32,
        slots: u32,
        charset: &Charset,
        max_len: usize,
    ) -> Vec<Option<Vec<u8>>> {
        let crc = crc::Crc::<u32>::new(crc);
        let symbols = charset.symbols();
        let mut table = vec![None; slots as usize];
        for len in 1..=max_len {
            for i in 0..symbols.len().pow(len as u32) {
                let tag: Vec<u8> = (0..len)
                    .map(|k| symbols[i / symbols.len().pow((len - 1 - k) as u32) % symbols.len()])
                    .collect();
                let slot = reduce(crc.checksum(&tag)) as usize;
                table[slot].get_or_insert(tag);
            }
        }
        table
    }

    /// The search of a named scheme's slots.
    fn scheme_spec(
        name: SchemeName,
        slots: Option<u32>,
        charset: &Charset,
        max_len: usize,
    ) -> ShortestSpec {
        ShortestSpec {
            function: SlotFunction::scheme(name, slots, None).unwrap(),
            charset: charset.clone(),
            max_len,
        }
    }

    #[test]
    fn scheme_tables_match_the_enumeration() {
        let alnum = Charset::parse("alnum").unwrap();
        let found = shortest(&scheme_spec(SchemeName::TarantoolVshard, None, &alnum, 3)).unwrap();
        let naive = naive_scheme(
            &slotgen_tables::CRC_32_TARANTOOL,
            |c| c % 3000,
            3000,
            &alnum,
            3,
        );
        assert!(found.tags().map(|t| t.map(<[u8]>::to_vec)).eq(naive));
        assert_eq!(found.tag(0), None); // bucket ids start at 1
        let digits = Charset::parse("digits").unwrap();
        let found = shortest(&scheme_spec(SchemeName::Librdkafka, Some(12), &digits, 2)).unwrap();
        let naive = naive_scheme(&crc::CRC_32_ISO_HDLC, |c| c % 12, 12, &digits, 2);
        assert!(found.tags().map(|t| t.map(<[u8]>::to_vec)).eq(naive));
        let found = shortest(&scheme_spec(SchemeName::Couchbase, None, &alnum, 2)).unwrap();
        let naive = naive_scheme(
            &crc::CRC_32_ISO_HDLC,
            |c| (c >> 16 & 0x7fff) % 1024,
            1024,
            &alnum,
            2,
        );
        assert!(found.tags().map(|t| t.map(<[u8]>::to_vec)).eq(naive));
        // twemproxy's `crc16` with 3 servers, which the exact inversion refuses: its
        // register from three CRC-16/XMODEM values of the `crc` crate (the key's, and the
        // high bytes of its prefixes without one and two bytes)
        let xmodem = crc::Crc::<u16>::new(&crc::CRC_16_XMODEM);
        let register = |tag: &[u8]| {
            let high = |drop: usize| {
                tag.len()
                    .checked_sub(drop)
                    .map_or(0, |n| u32::from(xmodem.checksum(&tag[..n]) >> 8))
            };
            u32::from(xmodem.checksum(tag)) | high(1) << 16 | high(2) << 24
        };
        for servers in [3u32, 5] {
            let pool = scheme_spec(SchemeName::TwemproxyCrc16, Some(servers), &alnum, 2);
            let found = shortest(&pool).unwrap();
            let mut naive = vec![None; servers as usize];
            for len in 1..=2 {
                for i in 0..alnum.symbols().len().pow(len) {
                    let n = alnum.symbols().len();
                    let tag: Vec<u8> = (0..len)
                        .map(|k| alnum.symbols()[i / n.pow(len - 1 - k) % n])
                        .collect();
                    naive[(register(&tag) % servers) as usize].get_or_insert(tag);
                }
            }
            assert!(found.tags().map(|t| t.map(<[u8]>::to_vec)).eq(naive));
            let table = found.scheme_table();
            for server in 0..servers {
                let tag = table.tag_for_slot(server).unwrap();
                assert_eq!(register(tag) % servers, server);
            }
        }
    }

    /// The plain enumeration: every string of length 1, 2, ... in order, each CRC computed
    /// by the `crc` crate from scratch.
    fn naive(spec: &ShortestSpec) -> Vec<Option<Vec<u8>>> {
        let crc16 = spec.function.spec().expect("a CRC-16 spec");
        let crc = catalog::reference_crc(&crc16.crc);
        let slots = crc16.slots;
        let symbols = spec.charset.symbols();
        let mut table = vec![None; slots as usize];
        for len in 1..=spec.max_len {
            let count = symbols.len().pow(len as u32);
            for mut number in 0..count {
                // Digits of `number` in base n, the first symbol most significant.
                let mut tag = vec![0u8; len];
                for byte in tag.iter_mut().rev() {
                    *byte = symbols[number % symbols.len()];
                    number /= symbols.len();
                }
                let slot = (crc.checksum(&tag) as u32 & (slots - 1)) as usize;
                if table[slot].is_none() {
                    table[slot] = Some(tag);
                }
            }
        }
        table
    }

    fn spec(crc: &str, slots: u32, charset: &str, max_len: usize) -> ShortestSpec {
        let spec = crate::Spec {
            crc: *catalog::find(crc).unwrap().algorithm,
            slots,
            ..crate::Spec::default()
        };
        ShortestSpec {
            function: SlotFunction::try_from(&spec).unwrap(),
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
            spec("CRC-16/DNP", 8192, "[-09]", 4),
        ];
        for case in &cases {
            let fast = shortest(case).unwrap();
            let plain = naive(case);
            let got: Vec<Option<Vec<u8>>> = fast.tags().map(|t| t.map(<[u8]>::to_vec)).collect();
            assert_eq!(got, plain, "{} {:?}", case.function.options(), case.charset);
            let gaps: Vec<u32> = (0..case.function.slots())
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
                table.shortest_table().unwrap().tag_for_slot(slot as u16),
                Err(slotgen_tables::Error::NoShortTag { max_len: 3, .. })
            ));
        }
    }

    #[test]
    fn charset_syntax() {
        let symbols = |s: &str| Charset::parse(s).unwrap().symbols().to_vec();
        assert_eq!(symbols("digits"), b"0123456789");
        assert_eq!(symbols("upper").len(), 26);
        assert_eq!(symbols("xz[-"), b"xz[-"); // an explicit list: no ranges
        assert_eq!(symbols("[-a-c]"), b"-abc");
        assert_eq!(symbols("[ab-]"), b"-ab");
        assert_eq!(symbols("[\\]\\\\]"), b"\\]");
        assert_eq!(symbols("[a\\-c]"), b"-ac");
        // `x-z[` would be the bytes `x`, `-`, `z`, `[`, but reads as a range
        for bad in [
            "", "[]", "[a-c", "[c-a]", "aa", "{x}", "[a\\]", "[z-a]x", "x-z[",
        ] {
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
        let s = spec("XMODEM", 16, "digits", 0);
        assert_eq!(
            shortest(&s).unwrap_err(),
            Error::MaxLen {
                max_len: 0,
                limit: 32
            }
        );
        // a slot count that is not a power of two: refused by the slot function
        let twelve = crate::Spec {
            slots: 12,
            ..crate::Spec::default()
        };
        assert_eq!(
            SlotFunction::try_from(&twelve).unwrap_err(),
            Error::SlotCount { slots: 12 }
        );
        let wide = spec("XMODEM", 16384, "alnum", 32);
        // Every slot is reached by length 3, so the search stops long before its bound.
        assert!(shortest(&wide).unwrap().gaps().is_empty());
        // An even polynomial with an unreflected output leaves the slot's low bits constant:
        // refused before any search.
        let mut stuck = spec("XMODEM", 65536, "[!-z]", 5);
        let with_crc = |crc| {
            let spec = crate::Spec {
                crc,
                slots: 65536,
                ..crate::Spec::default()
            };
            SlotFunction::try_from(&spec).unwrap()
        };
        stuck.function = with_crc(catalog::custom(0, 0, false, false, 0));
        assert_eq!(shortest(&stuck).unwrap_err(), Error::EvenPoly { poly: 0 });
        // Reflected, poly 0 passes that rule, and the CRC of every string is still 0: one
        // slot is reached, and the search runs on until the next length has more than 2^32
        // strings.
        stuck.function = with_crc(catalog::custom(0, 0, true, true, 0));
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
