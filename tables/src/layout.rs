//! Key layouts: the traps of the hashtag rule, and whether keys can meet in one command.
//!
//! A cluster runs a multi-key command or script only when all its keys hash to one slot;
//! otherwise it answers `CROSSSLOT` (the Redis Cluster specification, "Keys hash tags").
//! Layouts keep one unit's keys together under one hashtag (`emq:{orders}:pending`,
//! `emq:{orders}:active`), and the rule has traps that put them apart: [`Warning`] names
//! each, [`warnings`] finds them in a key, [`shared_hashtag`] checks that keys share one
//! non-empty hashtag, and [`SlotTable::same_slot`] (or [`same_slot`] for Redis Cluster)
//! that they land on one slot.
//!
//! ```
//! use slotgen_tables::{same_slot, shared_hashtag, warnings, Warning};
//!
//! assert_eq!(same_slot(["emq:{orders}:pending", "emq:{orders}:active"]), Some(105));
//! assert_eq!(shared_hashtag(["emq:{orders}:pending", "emq:{orders}:active"]), Some(&b"orders"[..]));
//!
//! // an empty hashtag hashes the whole key: the two keys land on 7387 and 5857
//! assert_eq!(same_slot(["emq:{}:pending", "emq:{}:active"]), None);
//! assert!(warnings(b"emq:{}:pending").contains(Warning::EmptyHashtag));
//! ```

use core::fmt;

use crate::{hashtag, SlotTable, REDIS_CLUSTER};

/// One trap of the hashtag rule: a key whose hashed bytes are probably not the ones its
/// author meant, or that clients are known to hash differently.
///
/// Each has a stable kebab-case [`name`](Self::name) (what `slotgen check` prints) and a
/// one-line [`explanation`](Self::explanation). `Display` writes the name.
///
/// # Examples
///
/// ```
/// use slotgen_tables::Warning;
///
/// assert_eq!(Warning::NestedBrace.name(), "nested-brace");
/// assert_eq!(Warning::from_name("nested-brace"), Some(Warning::NestedBrace));
/// assert_eq!(Warning::ALL.len(), 6);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Warning {
    /// `empty-hashtag`: the first `{` is followed at once by `}`, so the whole key is
    /// hashed (`emq:{}:pending`).
    EmptyHashtag,
    /// `unclosed-brace`: the key has a `{` but no `}` after it, so the whole key is hashed
    /// (`emq:{orders:pending`).
    UnclosedBrace,
    /// `nested-brace`: the hashtag itself contains `{`, because the tag ends at the first
    /// `}` (`app:s:{authz_{orgid}_groups_1}` hashes `authz_{orgid`).
    NestedBrace,
    /// `later-pairs-ignored`: another `{...}` pair follows the first one, and only the
    /// first counts (`foo{bar}{zap}` hashes `bar`).
    LaterPairsIgnored,
    /// `brace-before-tag`: a `}` stands before the first `{`; Redis ignores it, some
    /// clients do not (`a}b{c}` hashes `c`).
    BraceBeforeTag,
    /// `binary-brace`: the key is not valid UTF-8 text and contains a `{` (0x7b) or `}`
    /// (0x7d) byte: a binary key that happens to carry a hashtag nobody meant.
    BinaryBrace,
}

impl Warning {
    /// Every warning, in declaration order (the order [`Warnings`] iterates in).
    pub const ALL: [Warning; 6] = [
        Warning::EmptyHashtag,
        Warning::UnclosedBrace,
        Warning::NestedBrace,
        Warning::LaterPairsIgnored,
        Warning::BraceBeforeTag,
        Warning::BinaryBrace,
    ];

    /// The stable kebab-case name: `empty-hashtag`, `unclosed-brace`, `nested-brace`,
    /// `later-pairs-ignored`, `brace-before-tag` or `binary-brace`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Warning::EmptyHashtag => "empty-hashtag",
            Warning::UnclosedBrace => "unclosed-brace",
            Warning::NestedBrace => "nested-brace",
            Warning::LaterPairsIgnored => "later-pairs-ignored",
            Warning::BraceBeforeTag => "brace-before-tag",
            Warning::BinaryBrace => "binary-brace",
        }
    }

    /// One line saying what the key does and why it matters, lowercase, no trailing period.
    ///
    /// # Examples
    ///
    /// ```
    /// use slotgen_tables::Warning;
    ///
    /// assert_eq!(
    ///     Warning::EmptyHashtag.explanation(),
    ///     "the first `{` is followed at once by `}`, so the whole key is hashed"
    /// );
    /// ```
    #[must_use]
    pub const fn explanation(self) -> &'static str {
        match self {
            Warning::EmptyHashtag => {
                "the first `{` is followed at once by `}`, so the whole key is hashed"
            }
            Warning::UnclosedBrace => {
                "no `}` follows the first `{`, so the whole key is hashed"
            }
            Warning::NestedBrace => {
                "the hashtag contains `{`: it ends at the first `}`, not at the matching one"
            }
            Warning::LaterPairsIgnored => {
                "more `{...}` follow the first pair, and only the first pair is hashed"
            }
            Warning::BraceBeforeTag => {
                "a `}` stands before the first `{`: Redis ignores it, some clients end the tag there"
            }
            Warning::BinaryBrace => {
                "the key is not UTF-8 text and holds a brace byte (0x7b or 0x7d), which makes a hashtag nobody meant"
            }
        }
    }

    /// The warning of that [`name`](Self::name), if any.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|w| w.name() == name)
    }

    const fn bit(self) -> u8 {
        1 << self as u8
    }
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A set of [`Warning`]s, as one byte: what [`warnings`] finds in a key. Iterates in
/// [`Warning::ALL`] order. `Display` writes the names joined by `,`, or `-` for none.
///
/// # Examples
///
/// ```
/// use slotgen_tables::{warnings, Warning, Warnings};
///
/// let found = warnings(b"{}{a");
/// assert_eq!(found.len(), 1);
/// assert_eq!(found.to_string(), "empty-hashtag");
/// assert_eq!(Warnings::NONE.to_string(), "-");
/// let both = Warnings::NONE.with(Warning::NestedBrace).with(Warning::LaterPairsIgnored);
/// assert_eq!(warnings(b"{{a}{b}"), both);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Warnings(u8);

impl Warnings {
    /// The empty set.
    pub const NONE: Warnings = Warnings(0);

    /// This set with `warning` added.
    #[must_use]
    pub const fn with(self, warning: Warning) -> Self {
        Warnings(self.0 | warning.bit())
    }

    /// Whether the set holds `warning`.
    #[must_use]
    pub const fn contains(self, warning: Warning) -> bool {
        self.0 & warning.bit() != 0
    }

    /// Whether the set is empty.
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// How many warnings the set holds, in `0..=6`.
    #[must_use]
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// The warnings, in [`Warning::ALL`] order.
    #[must_use]
    pub fn iter(self) -> WarningsIter {
        self.into_iter()
    }
}

impl IntoIterator for Warnings {
    type Item = Warning;
    type IntoIter = WarningsIter;

    fn into_iter(self) -> WarningsIter {
        WarningsIter(self.0)
    }
}

/// The iterator of a [`Warnings`] set, in [`Warning::ALL`] order.
#[derive(Clone, Debug)]
pub struct WarningsIter(u8);

impl Iterator for WarningsIter {
    type Item = Warning;

    fn next(&mut self) -> Option<Warning> {
        let warning = *Warning::ALL.get(self.0.trailing_zeros() as usize)?;
        self.0 &= self.0 - 1;
        Some(warning)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.0.count_ones() as usize;
        (left, Some(left))
    }
}

impl ExactSizeIterator for WarningsIter {}

impl fmt::Display for Warnings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("-");
        }
        for (i, w) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            f.write_str(w.name())?;
        }
        Ok(())
    }
}

/// The traps of the hashtag rule that `key` falls into (see [`Warning`] for each). Byte
/// exact, no allocation, one pass over the key.
///
/// # Examples
///
/// ```
/// use slotgen_tables::{warnings, Warning};
///
/// assert!(warnings(b"emq:{orders}:pending").is_empty());
/// assert!(warnings(b"emq:{}:pending").contains(Warning::EmptyHashtag));
/// assert!(warnings(b"app:s:{authz_{orgid}_groups_1}").contains(Warning::NestedBrace));
/// assert!(warnings(b"foo{bar}{zap}").contains(Warning::LaterPairsIgnored));
/// assert!(warnings(b"a}b{c}").contains(Warning::BraceBeforeTag));
/// assert!(warnings(b"emq:{orders").contains(Warning::UnclosedBrace));
/// assert!(warnings(b"\xff{a}").contains(Warning::BinaryBrace));
/// ```
#[must_use]
pub fn warnings(key: &[u8]) -> Warnings {
    let mut found = Warnings::NONE;
    let Some(open) = key.iter().position(|&b| b == b'{') else {
        return binary_brace(key, found);
    };
    if key[..open].contains(&b'}') {
        found = found.with(Warning::BraceBeforeTag);
    }
    let inside = &key[open + 1..];
    let Some(close) = inside.iter().position(|&b| b == b'}') else {
        return binary_brace(key, found.with(Warning::UnclosedBrace));
    };
    if close == 0 {
        found = found.with(Warning::EmptyHashtag);
    } else if inside[..close].contains(&b'{') {
        found = found.with(Warning::NestedBrace);
    }
    let after = &inside[close + 1..];
    if let Some(next_open) = after.iter().position(|&b| b == b'{') {
        if after[next_open + 1..].contains(&b'}') {
            found = found.with(Warning::LaterPairsIgnored);
        }
    }
    binary_brace(key, found)
}

/// `found`, with [`Warning::BinaryBrace`] when `key` is not UTF-8 and holds a brace byte.
fn binary_brace(key: &[u8], found: Warnings) -> Warnings {
    if key.iter().any(|&b| b == b'{' || b == b'}') && core::str::from_utf8(key).is_err() {
        found.with(Warning::BinaryBrace)
    } else {
        found
    }
}

/// The hashtag of `key` when it has one: the non-empty bytes between the first `{` and the
/// next `}`; `None` when the whole key is hashed (no `{`, no `}` after it, or `{}`).
///
/// # Examples
///
/// ```
/// use slotgen_tables::explicit_hashtag;
///
/// assert_eq!(explicit_hashtag(b"emq:{orders}:pending"), Some(&b"orders"[..]));
/// assert_eq!(explicit_hashtag(b"emq:{}:pending"), None);
/// assert_eq!(explicit_hashtag(b"plain"), None);
/// ```
#[must_use]
pub fn explicit_hashtag(key: &[u8]) -> Option<&[u8]> {
    let tag = hashtag(key);
    // a hashtag is strictly shorter than its key, which holds its braces too
    (tag.len() < key.len()).then_some(tag)
}

/// The one non-empty hashtag that every key has, or `None` when a key has none (its whole
/// key is hashed) or two keys have different ones, or `keys` is empty.
///
/// Keys that share a hashtag land on one slot under every CRC and slot count: this is the
/// layout rule, stronger than [`same_slot`], which two unrelated keys can pass by chance.
///
/// # Examples
///
/// ```
/// use slotgen_tables::shared_hashtag;
///
/// assert_eq!(shared_hashtag(["emq:{orders}:pending", "emq:{orders}:active"]), Some(&b"orders"[..]));
/// assert_eq!(shared_hashtag(["emq:{orders}:pending", "{emq}:version"]), None);
/// assert_eq!(shared_hashtag(["emq:{}:pending", "emq:{}:pending"]), None);
/// ```
#[must_use]
pub fn shared_hashtag<'k, K>(keys: impl IntoIterator<Item = &'k K>) -> Option<&'k [u8]>
where
    K: AsRef<[u8]> + ?Sized + 'k,
{
    let mut keys = keys.into_iter();
    let tag = explicit_hashtag(keys.next()?.as_ref())?;
    keys.all(|key| explicit_hashtag(key.as_ref()) == Some(tag))
        .then_some(tag)
}

/// The slot that every key of `keys` lands on under [`REDIS_CLUSTER`]'s hash slot
/// function (CRC-16/XMODEM mod 16384), as a multi-key command needs; `None` when two keys
/// land on different slots (the server answers `CROSSSLOT`) or `keys` is empty.
///
/// # Examples
///
/// ```
/// use slotgen_tables::same_slot;
///
/// assert_eq!(same_slot(["emq:{orders}:pending", "emq:{orders}:active"]), Some(105));
/// assert_eq!(same_slot(["emq:{}:pending", "emq:{}:active"]), None); // 7387 and 5857
/// assert_eq!(same_slot::<[&str; 0]>([]), None);
/// ```
#[must_use]
pub fn same_slot<I>(keys: I) -> Option<u16>
where
    I: IntoIterator,
    I::Item: AsRef<[u8]>,
{
    REDIS_CLUSTER.same_slot(keys)
}

impl<const N: usize> SlotTable<'_, N> {
    /// The slot that every key of `keys` lands on under this table's hash slot function
    /// ([`key_slot`](Self::key_slot)); `None` when two keys land on different slots or
    /// `keys` is empty. Stops at the first key off the first key's slot.
    ///
    /// # Examples
    ///
    /// ```
    /// use slotgen_tables::REDIS_CLUSTER;
    ///
    /// assert_eq!(REDIS_CLUSTER.same_slot(["{emq}:version", "emq"]), Some(9051));
    /// assert_eq!(REDIS_CLUSTER.same_slot(["emq:{orders}:pending", "{emq}:version"]), None);
    /// ```
    #[must_use]
    pub fn same_slot<I>(&self, keys: I) -> Option<u16>
    where
        I: IntoIterator,
        I::Item: AsRef<[u8]>,
    {
        let mut keys = keys.into_iter();
        let slot = self.key_slot(keys.next()?.as_ref());
        keys.all(|key| self.key_slot(key.as_ref()) == slot)
            .then_some(slot)
    }
}
