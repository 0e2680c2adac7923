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
/// Shorter keys are scanned a byte at a time, which is faster than memchr's setup.
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
#[inline]
pub fn hashtag(key: &[u8]) -> &[u8] {
    let Some(open) = find(b'{', key) else {
        return key;
    };
    let rest = &key[open + 1..];
    match find(b'}', rest) {
        Some(close) if close > 0 => &rest[..close],
        _ => key,
    }
}

/// Keys at least this long are scanned with `memchr`, shorter ones a byte at a time.
const SHORT_SCAN: usize = 32;

/// The first position of `byte` in `haystack`.
#[inline]
fn find(byte: u8, haystack: &[u8]) -> Option<usize> {
    if haystack.len() < SHORT_SCAN {
        haystack.iter().position(|&b| b == byte)
    } else {
        memchr::memchr(byte, haystack)
    }
}
