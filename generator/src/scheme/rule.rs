//! A scheme's hashtag rule as a reader of keys meets it: the hashtag a key has, and the
//! traps of the rule it falls into, for `slotgen check` and the conformance corpus
//! ([`crate::vectors`]).
//!
//! Redis Cluster's traps are the runtime's [`Warning`]s ([`warnings`](slotgen_tables::warnings)).
//! The other rules that pick a hashtag (Codis, twemproxy's `hash_tag`) have the same traps,
//! read with their own delimiters and their own answer for an empty tag; a rule that hashes
//! the whole key has one: a key that looks tagged ([`Trap::HashtagIgnored`]).
//!
//! ```
//! use slotgen::scheme::rule::{traps, Trap};
//! use slotgen_tables::HashtagRule;
//!
//! let colons = HashtagRule::Delimited { open: b':', close: b':' };
//! assert!(traps(colons, b"user::name").contains(Trap::EmptyHashtag));
//! assert!(traps(HashtagRule::WholeKey, b"user:{42}").contains(Trap::HashtagIgnored));
//! assert!(traps(HashtagRule::Redis, b"user:{42}").is_empty());
//! ```

use std::fmt;

use slotgen_tables::{HashtagRule, Warning};

/// One trap of a scheme's hashtag rule: a key whose hashed bytes are probably not the ones
/// its author meant, or that clients are known to hash differently. The first six are the
/// runtime's [`Warning`]s, with their names, under any rule with delimiters ("brace" is the
/// rule's opening or closing byte); the last is for rules that hash the whole key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Trap {
    /// `empty-hashtag`: the first opening byte is followed at once by the closing one; the
    /// whole key is hashed, or for Codis the empty string.
    EmptyHashtag,
    /// `unclosed-brace`: no closing byte follows the first opening one.
    UnclosedBrace,
    /// `nested-brace`: the hashtag holds the opening byte.
    NestedBrace,
    /// `later-pairs-ignored`: another delimited pair follows the first one.
    LaterPairsIgnored,
    /// `brace-before-tag`: a closing byte stands before the first opening one.
    BraceBeforeTag,
    /// `binary-brace`: the key is not UTF-8 text and holds a delimiter byte.
    BinaryBrace,
    /// `hashtag-ignored`: the scheme hashes the whole key (it has no hashtag rule, or its
    /// delimiters are not braces and the key has no tag of theirs), and the key has a
    /// `{...}` pair that Redis Cluster would take as its hashtag: the pair keeps no keys
    /// together here.
    HashtagIgnored,
}

impl Trap {
    /// Every trap, in the order [`Traps`] lists them.
    pub const ALL: [Trap; 7] = [
        Trap::EmptyHashtag,
        Trap::UnclosedBrace,
        Trap::NestedBrace,
        Trap::LaterPairsIgnored,
        Trap::BraceBeforeTag,
        Trap::BinaryBrace,
        Trap::HashtagIgnored,
    ];

    /// The runtime's warning of the same name, for the first six.
    #[must_use]
    pub const fn warning(self) -> Option<Warning> {
        match self {
            Trap::EmptyHashtag => Some(Warning::EmptyHashtag),
            Trap::UnclosedBrace => Some(Warning::UnclosedBrace),
            Trap::NestedBrace => Some(Warning::NestedBrace),
            Trap::LaterPairsIgnored => Some(Warning::LaterPairsIgnored),
            Trap::BraceBeforeTag => Some(Warning::BraceBeforeTag),
            Trap::BinaryBrace => Some(Warning::BinaryBrace),
            Trap::HashtagIgnored => None,
        }
    }

    /// The stable kebab-case name: the [`Warning`]'s (`empty-hashtag`, ...), or
    /// `hashtag-ignored`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self.warning() {
            Some(w) => w.name(),
            None => "hashtag-ignored",
        }
    }

    /// One line saying what a key with this trap does under `rule` and why it matters,
    /// lowercase, no trailing period: for the Redis rule, the [`Warning`]'s own
    /// explanation; for another rule, the same spelled with its delimiters.
    ///
    /// # Examples
    ///
    /// ```
    /// use slotgen::scheme::rule::Trap;
    /// use slotgen_tables::HashtagRule;
    ///
    /// assert_eq!(
    ///     Trap::UnclosedBrace.explanation(HashtagRule::Delimited { open: b'<', close: b'>' }),
    ///     "no `>` follows the first `<`, so the whole key is hashed"
    /// );
    /// assert!(Trap::EmptyHashtag.explanation(HashtagRule::Codis).contains("the empty string"));
    /// ```
    #[must_use]
    pub fn explanation(self, rule: HashtagRule) -> String {
        if let (HashtagRule::Redis, Some(w)) = (rule, self.warning()) {
            return w.explanation().to_owned();
        }
        let [open, close] = rule.delimiters().unwrap_or(*b"{}");
        let (o, c) = (show(open), show(close));
        match self {
            Trap::EmptyHashtag if rule == HashtagRule::Codis => format!(
                "the first `{o}` is followed at once by `{c}`, and Codis hashes that empty tag: every such key lands on the slot of the empty string"
            ),
            Trap::EmptyHashtag => {
                format!("the first `{o}` is followed at once by `{c}`, so the whole key is hashed")
            }
            Trap::UnclosedBrace => {
                format!("no `{c}` follows the first `{o}`, so the whole key is hashed")
            }
            Trap::NestedBrace => format!(
                "the hashtag contains `{o}`: it ends at the first `{c}`, not at the matching one"
            ),
            Trap::LaterPairsIgnored => format!(
                "more `{o}...{c}` follow the first pair, and only the first pair is hashed"
            ),
            Trap::BraceBeforeTag => format!(
                "a `{c}` stands before the first `{o}`: the rule ignores it, some clients end the tag there"
            ),
            Trap::BinaryBrace => format!(
                "the key is not UTF-8 text and holds a delimiter byte ({open:#04x} or {close:#04x}), which makes a hashtag nobody meant"
            ),
            Trap::HashtagIgnored if rule == HashtagRule::WholeKey => "the key has a `{...}` pair, but this scheme hashes the whole key: the pair keeps no keys together (a Redis Cluster client would hash the tag alone)".to_owned(),
            Trap::HashtagIgnored => format!("the key has a `{{...}}` pair but no `{o}...{c}` tag, so the whole key is hashed: the braces keep no keys together under this rule (a Redis Cluster client would hash the tag alone)"),
        }
    }

    const fn bit(self) -> u8 {
        1 << self as u8
    }
}

/// A delimiter byte for a message: the character when printable ASCII, else `\xNN`.
fn show(byte: u8) -> String {
    crate::text::escape(&[byte])
}

impl fmt::Display for Trap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A set of [`Trap`]s, as one byte: what [`traps`] finds in a key. Iterates in
/// [`Trap::ALL`] order; `Display` writes the names joined by `,`, or `-` for none (as the
/// runtime's [`Warnings`](slotgen_tables::Warnings) does).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Traps(u8);

impl Traps {
    /// The empty set.
    pub const NONE: Traps = Traps(0);

    /// This set with `trap` added.
    #[must_use]
    pub const fn with(self, trap: Trap) -> Self {
        Traps(self.0 | trap.bit())
    }

    /// Whether the set holds `trap`.
    #[must_use]
    pub const fn contains(self, trap: Trap) -> bool {
        self.0 & trap.bit() != 0
    }

    /// Whether the set is empty.
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The traps, in [`Trap::ALL`] order.
    pub fn iter(self) -> impl Iterator<Item = Trap> {
        Trap::ALL.into_iter().filter(move |t| self.contains(*t))
    }
}

impl fmt::Display for Traps {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("-");
        }
        for (i, t) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            f.write_str(t.name())?;
        }
        Ok(())
    }
}

/// The hashtag of `key` under `rule` when it has one: the bytes the rule hashes when they
/// are not the whole key (empty for Codis's `{}`); `None` when the whole key is hashed.
///
/// # Examples
///
/// ```
/// use slotgen::scheme::rule::hashtag;
/// use slotgen_tables::HashtagRule;
///
/// assert_eq!(hashtag(HashtagRule::Redis, b"emq:{orders}:x"), Some(&b"orders"[..]));
/// assert_eq!(hashtag(HashtagRule::Redis, b"emq:{}:x"), None);
/// assert_eq!(hashtag(HashtagRule::Codis, b"emq:{}:x"), Some(&b""[..]));
/// assert_eq!(hashtag(HashtagRule::WholeKey, b"emq:{orders}:x"), None);
/// ```
#[must_use]
pub fn hashtag(rule: HashtagRule, key: &[u8]) -> Option<&[u8]> {
    let hashed = rule.apply(key);
    // a hashtag is strictly shorter than its key, which holds its delimiters too
    (hashed.len() < key.len()).then_some(hashed)
}

/// The traps of `rule` that `key` falls into (see [`Trap`]). For the Redis rule these are
/// exactly the runtime's [`warnings`](slotgen_tables::warnings); a rule with other
/// delimiters reads them with its own (a rule whose opening and closing bytes are one byte,
/// such as `::`, has no nested tag and no closing byte before the first opening one), and
/// flags a `{...}` pair it does not read ([`Trap::HashtagIgnored`]), as a rule that hashes
/// the whole key does.
#[must_use]
pub fn traps(rule: HashtagRule, key: &[u8]) -> Traps {
    braces_ignored(rule, key, delimited_traps(rule, key))
}

/// The traps of `rule`'s delimiters in `key` (none for a rule that hashes the whole key).
fn delimited_traps(rule: HashtagRule, key: &[u8]) -> Traps {
    let Some([open, close]) = rule.delimiters() else {
        return Traps::NONE;
    };
    let binary = |found: Traps| {
        if key.iter().any(|&b| b == open || b == close) && std::str::from_utf8(key).is_err() {
            found.with(Trap::BinaryBrace)
        } else {
            found
        }
    };
    let mut found = Traps::NONE;
    let Some(first) = key.iter().position(|&b| b == open) else {
        return binary(found);
    };
    if open != close && key[..first].contains(&close) {
        found = found.with(Trap::BraceBeforeTag);
    }
    let inside = &key[first + 1..];
    let Some(end) = inside.iter().position(|&b| b == close) else {
        return binary(found.with(Trap::UnclosedBrace));
    };
    if end == 0 {
        found = found.with(Trap::EmptyHashtag);
    } else if inside[..end].contains(&open) {
        found = found.with(Trap::NestedBrace);
    }
    let after = &inside[end + 1..];
    if let Some(next) = after.iter().position(|&b| b == open) {
        if after[next + 1..].contains(&close) {
            found = found.with(Trap::LaterPairsIgnored);
        }
    }
    binary(found)
}

/// [`traps`] under a rule with delimiters: `found` by them, and [`Trap::HashtagIgnored`]
/// when they are not braces, the rule hashes the whole key, and the key has a `{...}` pair
/// that a Redis Cluster client would hash alone.
fn braces_ignored(rule: HashtagRule, key: &[u8], found: Traps) -> Traps {
    let braces = rule.delimiters() == Some(*b"{}");
    if !braces && hashtag(rule, key).is_none() && slotgen_tables::explicit_hashtag(key).is_some() {
        found.with(Trap::HashtagIgnored)
    } else {
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every key of up to 7 bytes over `{`, `}`, `a` and `\xff` (21,845 keys).
    fn small_keys(bytes: &[u8]) -> Vec<Vec<u8>> {
        let mut keys = vec![Vec::new()];
        let mut last = vec![Vec::new()];
        for _ in 0..7 {
            last = last
                .iter()
                .flat_map(|k: &Vec<u8>| {
                    bytes.iter().map(move |&b| {
                        let mut k = k.clone();
                        k.push(b);
                        k
                    })
                })
                .collect();
            keys.extend(last.iter().cloned());
        }
        keys
    }

    /// The Redis rule's traps are the runtime's warnings, name for name, on every small key.
    #[test]
    fn redis_traps_are_the_runtimes_warnings() {
        for key in small_keys(b"{}a\xff") {
            let ours: Vec<&str> = traps(HashtagRule::Redis, &key)
                .iter()
                .map(Trap::name)
                .collect();
            let runtime: Vec<&str> = slotgen_tables::warnings(&key)
                .iter()
                .map(Warning::name)
                .collect();
            assert_eq!(ours, runtime, "{key:?}");
            assert_eq!(
                hashtag(HashtagRule::Redis, &key),
                slotgen_tables::explicit_hashtag(&key)
            );
        }
        for trap in Trap::ALL.into_iter().take(6) {
            let w = trap.warning().unwrap();
            assert_eq!(trap.explanation(HashtagRule::Redis), w.explanation());
        }
    }

    /// Another pair of delimiters reads the same as braces: the traps of a key over `<`, `>`
    /// are those of the same key with `{`, `}` in their place, and its hashtag is the one
    /// the runtime's rule picks.
    #[test]
    fn other_delimiters_read_as_braces() {
        let angle = HashtagRule::Delimited {
            open: b'<',
            close: b'>',
        };
        for key in small_keys(b"<>a\xff") {
            let braced: Vec<u8> = key
                .iter()
                .map(|&b| match b {
                    b'<' => b'{',
                    b'>' => b'}',
                    b => b,
                })
                .collect();
            assert_eq!(
                traps(angle, &key),
                traps(HashtagRule::Redis, &braced),
                "{key:?}"
            );
            assert_eq!(
                hashtag(angle, &key).map(<[u8]>::len),
                hashtag(HashtagRule::Redis, &braced).map(<[u8]>::len)
            );
        }
    }

    /// Codis's `{}` is a hashtag (the empty string), with the same trap as Redis's; one
    /// delimiter byte for both ends has no nested tag and no closing byte before the tag;
    /// a whole-key rule flags a key that looks tagged, and nothing else.
    #[test]
    fn codis_colons_and_whole_keys() {
        assert_eq!(hashtag(HashtagRule::Codis, b"a{}b"), Some(&b""[..]));
        assert!(traps(HashtagRule::Codis, b"a{}b").contains(Trap::EmptyHashtag));
        let colons = HashtagRule::Delimited {
            open: b':',
            close: b':',
        };
        assert_eq!(hashtag(colons, b"user:42:name"), Some(&b"42"[..]));
        assert!(traps(colons, b"user:42:name").is_empty());
        assert_eq!(
            traps(colons, b"a:b:c:d:e").to_string(),
            "later-pairs-ignored"
        );
        assert_eq!(traps(colons, b"a:b").to_string(), "unclosed-brace");
        for key in small_keys(b":a\xff") {
            let found = traps(colons, &key);
            assert!(!found.contains(Trap::NestedBrace) && !found.contains(Trap::BraceBeforeTag));
        }
        for (key, tagged) in [
            (&b"a{b}c"[..], true),
            (b"a{}c", false),
            (b"a}b{", false),
            (b"plain", false),
        ] {
            let found = traps(HashtagRule::WholeKey, key);
            assert_eq!(found.contains(Trap::HashtagIgnored), tagged, "{key:?}");
            assert_eq!(found.iter().count(), usize::from(tagged));
            assert_eq!(hashtag(HashtagRule::WholeKey, key), None);
        }
    }
}
