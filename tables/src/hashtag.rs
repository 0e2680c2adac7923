//! The Redis Cluster hashtag rule.

/// The bytes of `key` that Redis Cluster hashes: its hashtag.
///
/// The rule, from the Redis Cluster specification ("Hash tags"): if the key contains a `{`,
/// and a `}` follows that first `{`, and at least one byte stands between them, then only
/// those bytes are hashed. Otherwise (no `{`, no `}` after the first `{`, or `{}` with
/// nothing between) the whole key is hashed. Only the first `{` counts, and the tag ends at
/// the first `}` after it: `{{a}}` has the hashtag `{a`, and `a{}b{c}` hashes whole, because
/// its first pair of braces is empty.
///
/// The result borrows from `key`; the rule is byte-exact and knows nothing of UTF-8. The
/// braces are found with `memchr` (32 bytes per instruction) in keys of 32 bytes
/// or more, which matters for long keys: the scan reads the whole key when it has no `{`.
/// Keys of 8 to 31 bytes are scanned eight bytes a step in a `u64`, which is faster than
/// memchr's setup, and shorter ones a byte at a time.
///
/// # Examples
///
/// ```
/// use slotgen_tables::hashtag;
///
/// assert_eq!(hashtag(b"emq:{orders}:pending"), b"orders");
/// assert_eq!(hashtag(b"emq:{}:pending"), b"emq:{}:pending"); // empty: whole key
/// assert_eq!(hashtag(b"{{a}}"), b"{a");
/// assert_eq!(hashtag(b"foo{bar}{zap}"), b"bar"); // only the first pair counts
/// ```
#[must_use]
#[inline(always)]
pub fn hashtag(key: &[u8]) -> &[u8] {
    if key.len() >= SHORT_SCAN {
        return hashtag_long(key);
    }
    rule(key, find_short)
}

/// [`hashtag`] of a key of `SHORT_SCAN` bytes or more.
#[inline]
fn hashtag_long(key: &[u8]) -> &[u8] {
    rule(key, memchr::memchr)
}

/// The rule of [`hashtag`], with `find` for the first position of a byte.
#[inline(always)]
fn rule(key: &[u8], find: impl Fn(u8, &[u8]) -> Option<usize>) -> &[u8] {
    let Some(open) = find(b'{', key) else {
        return key;
    };
    let rest = &key[open + 1..];
    match find(b'}', rest) {
        Some(close) if close > 0 => &rest[..close],
        _ => key,
    }
}

/// Keys at least this long are scanned with `memchr`, shorter ones eight bytes a step, or a
/// byte at a time below eight bytes.
const SHORT_SCAN: usize = 32;

/// The first position of `byte` in `haystack`, shorter than `SHORT_SCAN`.
#[inline(always)]
fn find_short(byte: u8, haystack: &[u8]) -> Option<usize> {
    if haystack.len() >= WORD {
        find_by_words(byte, haystack)
    } else {
        haystack.iter().position(|&b| b == byte)
    }
}

const WORD: usize = 8;

/// The first position of `byte` in `haystack` (at least `WORD` bytes), a word of eight
/// bytes a step, the last word ending at the haystack's end (so overlapping the one before):
/// for a word `x` of the haystack xor eight copies of `byte`, `(x - 0x0101..01) & !x &
/// 0x8080..80` has the top bit of each zero byte of `x` set, and of no byte below the first
/// zero byte (a borrow only runs upwards from a zero byte), so that its lowest set bit,
/// over 8, is the first match in the word (bytes read little-endian: byte 0 lowest).
#[inline(always)]
fn find_by_words(byte: u8, haystack: &[u8]) -> Option<usize> {
    const ONES: u64 = u64::from_ne_bytes([0x01; WORD]);
    const HIGHS: u64 = u64::from_ne_bytes([0x80; WORD]);
    let pattern = ONES * u64::from(byte);
    let last = haystack.len() - WORD;
    let mut at = 0;
    loop {
        // The words before this one held no match, so the first one here is past them.
        let start = at.min(last);
        let mut word = [0; WORD];
        word.copy_from_slice(&haystack[start..start + WORD]);
        let x = u64::from_le_bytes(word) ^ pattern;
        let zeros = x.wrapping_sub(ONES) & !x & HIGHS;
        if zeros != 0 {
            return Some(start + (zeros.trailing_zeros() / 8) as usize);
        }
        if start == last {
            return None;
        }
        at += WORD;
    }
}
