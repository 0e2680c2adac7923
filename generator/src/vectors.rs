//! A deterministic conformance corpus: keys that exercise every trap of a hashtag rule and
//! every byte a client may mishandle, each with the slot a slot function gives it (a CRC-16
//! spec's, or a named scheme's: [`SlotFunction`]), for checking a client library's slot
//! computation (`slotgen verify --exec`).
//!
//! The corpus is a stream: key `i` depends only on the seed, the rule's delimiters and `i`,
//! so any prefix of a corpus is the smaller corpus of the same seed, and it is generated in
//! constant memory. Every key's [`Class`] is a function of its bytes and the rule alone
//! ([`Class::of_rule`]): the first trap it falls into, in [`Class::ALL`] order. So every key
//! whose first `{` is followed at once by `}` is in [`Class::EmptyHashtag`] under the Redis
//! rule, whatever recipe made it, and a client with one fault shows its disagreements in one
//! class.
//!
//! The keys probe the rule they are for. Under a rule with delimiters other than `{` and
//! `}` (twemproxy's `hash_tag`), three keys in four of the recipes (and every fixed key)
//! carry the rule's delimiters where the braces were, and the rest keep their braces, which
//! such a rule ignores; under a rule that hashes the whole key, the braces stay, and
//! [`Class::HashtagIgnored`] gathers the keys that a Redis Cluster client would hash
//! differently. The corpus of a rule with braces (Redis Cluster, Codis, `hash_tag: "{}"`)
//! is the Redis Cluster corpus, its slots and classes by its own rule (Codis hashes `{}` as
//! the empty string).
//!
//! ```
//! use slotgen::scheme::SlotFunction;
//! use slotgen::vectors::{corpus, Class, DEFAULT_COUNT};
//!
//! let vectors: Vec<_> = corpus(SlotFunction::default(), DEFAULT_COUNT, 0).collect();
//! assert_eq!(vectors.len(), 50_000);
//! // the first keys are the seed layouts, in a fixed order
//! assert_eq!(vectors[1].key, b"emq:{orders}:pending");
//! assert_eq!(vectors[1].slot, 105);
//! assert_eq!(vectors[3].key, b"emq:{}:pending");
//! assert_eq!((vectors[3].slot, vectors[3].class), (7387, Class::EmptyHashtag));
//! // every class of the rule has keys
//! for class in Class::for_rule(slotgen_tables::HashtagRule::Redis) {
//!     assert!(vectors.iter().any(|v| v.class == class), "{class}");
//! }
//! ```

use std::fmt;
use std::io::{self, Write};

use slotgen_tables::{HashtagRule, Warning};

use crate::scheme::rule::{self, Trap};
pub use crate::scheme::SlotFunction;

/// The number of keys of `slotgen emit vectors` when no count is given.
pub const DEFAULT_COUNT: usize = 50_000;

/// The seed of `slotgen emit vectors` when none is given.
pub const DEFAULT_SEED: u64 = 0;

/// What a key exercises: the first of these that it falls into, in [`Class::ALL`] order.
/// Each has a stable kebab-case [`name`](Self::name), which `Display` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Class {
    /// `empty`: the key of no bytes (slot `crc("")`, 0 for Redis Cluster).
    Empty,
    /// `empty-hashtag`: [`Warning::EmptyHashtag`].
    EmptyHashtag,
    /// `brace-before-tag`: [`Warning::BraceBeforeTag`].
    BraceBeforeTag,
    /// `unclosed-brace`: [`Warning::UnclosedBrace`].
    UnclosedBrace,
    /// `nested-brace`: [`Warning::NestedBrace`].
    NestedBrace,
    /// `later-pairs-ignored`: [`Warning::LaterPairsIgnored`].
    LaterPairsIgnored,
    /// `binary-brace`: [`Warning::BinaryBrace`].
    BinaryBrace,
    /// `hashtag-ignored`: [`Trap::HashtagIgnored`]: a `{...}` pair that a Redis Cluster
    /// client hashes alone, under a rule that does not (the whole key, or other
    /// delimiters).
    HashtagIgnored,
    /// `nul`: a 0x00 byte, which C strings end at.
    Nul,
    /// `invalid-utf8`: not UTF-8 text (bytes 0x80-0xff alone, truncated or overlong
    /// sequences, encoded surrogates), which text-only clients mangle.
    InvalidUtf8,
    /// `utf8-4byte`: UTF-8 text with a 4-byte sequence (U+10000 and up: a surrogate pair in
    /// UTF-16 strings).
    Utf8FourByte,
    /// `utf8-multibyte`: UTF-8 text with 2- or 3-byte sequences.
    Utf8Multibyte,
    /// `long`: ASCII of 32 bytes or more, lengths weighted around the ones where CRC and
    /// scanning code switch paths (32, 64, 128, 256, ... up to 4096).
    Long,
    /// `tagged`: short ASCII with a plain non-empty hashtag.
    Tagged,
    /// `plain`: short ASCII without braces in a hashtag: the whole key is hashed.
    Plain,
}

impl Class {
    /// Every class, in classification order.
    pub const ALL: [Class; 15] = [
        Class::Empty,
        Class::EmptyHashtag,
        Class::BraceBeforeTag,
        Class::UnclosedBrace,
        Class::NestedBrace,
        Class::LaterPairsIgnored,
        Class::BinaryBrace,
        Class::HashtagIgnored,
        Class::Nul,
        Class::InvalidUtf8,
        Class::Utf8FourByte,
        Class::Utf8Multibyte,
        Class::Long,
        Class::Tagged,
        Class::Plain,
    ];

    /// The stable kebab-case name, as in the corpus's third column.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Class::Empty => "empty",
            Class::EmptyHashtag => Warning::EmptyHashtag.name(),
            Class::BraceBeforeTag => Warning::BraceBeforeTag.name(),
            Class::UnclosedBrace => Warning::UnclosedBrace.name(),
            Class::NestedBrace => Warning::NestedBrace.name(),
            Class::LaterPairsIgnored => Warning::LaterPairsIgnored.name(),
            Class::BinaryBrace => Warning::BinaryBrace.name(),
            Class::HashtagIgnored => Trap::HashtagIgnored.name(),
            Class::Nul => "nul",
            Class::InvalidUtf8 => "invalid-utf8",
            Class::Utf8FourByte => "utf8-4byte",
            Class::Utf8Multibyte => "utf8-multibyte",
            Class::Long => "long",
            Class::Tagged => "tagged",
            Class::Plain => "plain",
        }
    }

    /// The class of that name, if any.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|c| c.name() == name)
    }

    /// The classes keys have under `rule`, in classification order: the traps a rule with
    /// braces has (the 14 of Redis Cluster's corpus), a rule with other delimiters has
    /// those and [`Class::HashtagIgnored`] (but no nested tag and no closing byte before
    /// the tag when one byte opens and closes it), and a rule that hashes the whole key has
    /// none of them but that one, and no [`Class::Tagged`].
    ///
    /// # Examples
    ///
    /// ```
    /// use slotgen::vectors::Class;
    /// use slotgen_tables::HashtagRule;
    ///
    /// assert_eq!(Class::for_rule(HashtagRule::Redis).len(), 14);
    /// assert_eq!(Class::for_rule(HashtagRule::Delimited { open: b'<', close: b'>' }).len(), 15);
    /// assert_eq!(Class::for_rule(HashtagRule::Delimited { open: b':', close: b':' }).len(), 13);
    /// assert_eq!(Class::for_rule(HashtagRule::WholeKey).len(), 8);
    /// ```
    #[must_use]
    pub fn for_rule(rule: HashtagRule) -> Vec<Class> {
        let braces = rule.delimiters() == Some(*b"{}");
        let whole = rule.delimiters().is_none();
        // one byte for both ends: a tag holds no opening byte, none closes before it
        let one_byte = rule.delimiters().is_some_and(|[open, close]| open == close);
        Self::ALL
            .into_iter()
            .filter(|c| match c {
                Class::HashtagIgnored => !braces,
                Class::Tagged => !whole,
                Class::NestedBrace | Class::BraceBeforeTag => !whole && !one_byte,
                c => !whole || c.trap().is_none(),
            })
            .collect()
    }

    /// The trap this class gathers, for the classes of traps.
    const fn trap(self) -> Option<Trap> {
        match self {
            Class::EmptyHashtag => Some(Trap::EmptyHashtag),
            Class::BraceBeforeTag => Some(Trap::BraceBeforeTag),
            Class::UnclosedBrace => Some(Trap::UnclosedBrace),
            Class::NestedBrace => Some(Trap::NestedBrace),
            Class::LaterPairsIgnored => Some(Trap::LaterPairsIgnored),
            Class::BinaryBrace => Some(Trap::BinaryBrace),
            Class::HashtagIgnored => Some(Trap::HashtagIgnored),
            _ => None,
        }
    }

    /// The class of `key` under the Redis rule: [`Class::of_rule`] with
    /// [`HashtagRule::Redis`].
    ///
    /// # Examples
    ///
    /// ```
    /// use slotgen::vectors::Class;
    ///
    /// assert_eq!(Class::of(b""), Class::Empty);
    /// assert_eq!(Class::of(b"a{}b}"), Class::EmptyHashtag);
    /// assert_eq!(Class::of(b"}{}"), Class::EmptyHashtag); // also brace-before-tag
    /// assert_eq!(Class::of("\u{1F600}".as_bytes()), Class::Utf8FourByte);
    /// assert_eq!(Class::of(b"emq:{orders}:pending"), Class::Tagged);
    /// ```
    #[must_use]
    pub fn of(key: &[u8]) -> Class {
        Self::of_rule(HashtagRule::Redis, key)
    }

    /// The class of `key` under `rule`: the first in [`Class::ALL`] order that it belongs
    /// to, the traps read by the rule ([`rule::traps`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use slotgen::vectors::Class;
    /// use slotgen_tables::HashtagRule;
    ///
    /// assert_eq!(Class::of_rule(HashtagRule::WholeKey, b"emq:{orders}"), Class::HashtagIgnored);
    /// let colons = HashtagRule::Delimited { open: b':', close: b':' };
    /// assert_eq!(Class::of_rule(colons, b"emq::x"), Class::EmptyHashtag);
    /// assert_eq!(Class::of_rule(colons, b"emq:orders:x"), Class::Tagged);
    /// ```
    #[must_use]
    pub fn of_rule(rule: HashtagRule, key: &[u8]) -> Class {
        if key.is_empty() {
            return Class::Empty;
        }
        let found = rule::traps(rule, key);
        if let Some(class) = Self::ALL
            .into_iter()
            .find(|c| c.trap().is_some_and(|t| found.contains(t)))
        {
            return class;
        }
        if key.contains(&0) {
            return Class::Nul;
        }
        let Ok(text) = std::str::from_utf8(key) else {
            return Class::InvalidUtf8;
        };
        if text.chars().any(|c| c.len_utf8() == 4) {
            Class::Utf8FourByte
        } else if !text.is_ascii() {
            Class::Utf8Multibyte
        } else if key.len() >= LONG {
            Class::Long
        } else if rule::hashtag(rule, key).is_some() {
            Class::Tagged
        } else {
            Class::Plain
        }
    }
}

impl fmt::Display for Class {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// ASCII keys at least this long are [`Class::Long`]: the runtime scans them with memchr.
const LONG: usize = 32;

/// One key of the corpus and the slot the slot function gives it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Vector {
    /// The key's bytes.
    pub key: Vec<u8>,
    /// The key's slot by the runtime ([`SlotFunction::slot`]): for Redis Cluster what
    /// `CLUSTER KEYSLOT` answers (`crc(hashtag(key)) & (slots - 1)`), for a scheme
    /// [`Scheme::slot`](slotgen_tables::Scheme::slot).
    pub slot: u32,
    /// What the key exercises: [`Class::of_rule`] the key, under the function's rule.
    pub class: Class,
}

/// The corpus of `count` keys for `seed` under `function`: a CRC-16 spec's CRC and slot
/// count (its alphabet and tag length do not matter: a key's slot depends on those only),
/// or a named scheme ([`SlotFunction::scheme`]).
///
/// The first keys are fixed (the seed layouts and the hashtag rule's textbook cases, the
/// same for every seed); the rest come from recipes aimed at each [`Class`], in turn, each
/// key drawn from a SplitMix64 generator seeded by `seed` and the key's index, then, under
/// a rule with delimiters other than braces, given the rule's delimiters in three keys of
/// four (see the [module documentation](self)). The output is the same on every machine
/// and in every version that keeps [`CORPUS_VERSION`].
///
/// # Examples
///
/// ```
/// use slotgen::vectors::{corpus, Class, SlotFunction};
/// use slotgen::Spec;
/// use slotgen_tables::SchemeName;
///
/// let redis = SlotFunction::try_from(&Spec::default())?;
/// let first: Vec<_> = corpus(redis.clone(), 3, 7).collect();
/// assert_eq!(first[0].key, b"123456789");
/// assert_eq!(first[0].slot, 12739); // CRC-16/XMODEM check value 0x31c3, mod 16384
/// // a prefix of a corpus is the smaller corpus
/// let more: Vec<_> = corpus(redis, 1000, 7).collect();
/// assert_eq!(&more[..3], &first[..]);
///
/// // Codis: the same keys, its own slots; `emq:{}:pending` hashes the empty string
/// let codis = SlotFunction::scheme(SchemeName::Codis, None, None)?;
/// let codis: Vec<_> = corpus(codis, 4, 7).collect();
/// assert_eq!(codis[0].slot, 0xcbf4_3926 % 1024);
/// assert_eq!((codis[3].slot, codis[3].class), (0, Class::EmptyHashtag));
/// # Ok::<(), slotgen::Error>(())
/// ```
#[must_use]
pub fn corpus(function: SlotFunction, count: usize, seed: u64) -> Corpus {
    let rule = function.rule();
    Corpus {
        delimiters: rule.delimiters().filter(|d| d != b"{}"),
        rule,
        function,
        seed,
        next: 0,
        count,
    }
}

/// Bumped whenever the keys of a (count, seed) change.
pub const CORPUS_VERSION: u32 = 1;

/// The iterator of [`corpus`]: [`Vector`]s, generated one at a time.
#[derive(Clone, Debug)]
pub struct Corpus {
    function: SlotFunction,
    rule: HashtagRule,
    /// The rule's delimiters, when they are not braces: put where the braces were.
    delimiters: Option<[u8; 2]>,
    seed: u64,
    next: usize,
    count: usize,
}

impl Corpus {
    /// The key at `index`, without its slot.
    fn key(&self, index: usize) -> Vec<u8> {
        if let Some(key) = FIXED.get(index) {
            return match self.delimiters {
                Some(pair) => with_delimiters(key, pair),
                None => key.to_vec(),
            };
        }
        let mut rng =
            SplitMix64::new(self.seed ^ (index as u64).wrapping_mul(0xd1b5_4a32_d192_ed03));
        let recipe = RECIPES[(index - FIXED.len()) % RECIPES.len()];
        let key = recipe(&mut rng);
        match self.delimiters {
            // one key in four keeps its braces, which this rule does not read
            Some(pair) if !rng.chance(4) => with_delimiters(&key, pair),
            _ => key,
        }
    }
}

/// `key` with each `{` replaced by `pair[0]` and each `}` by `pair[1]`.
fn with_delimiters(key: &[u8], [open, close]: [u8; 2]) -> Vec<u8> {
    key.iter()
        .map(|&b| match b {
            b'{' => open,
            b'}' => close,
            b => b,
        })
        .collect()
}

impl Iterator for Corpus {
    type Item = Vector;

    fn next(&mut self) -> Option<Vector> {
        if self.next >= self.count {
            return None;
        }
        let key = self.key(self.next);
        self.next += 1;
        Some(Vector {
            slot: self.function.slot(&key),
            class: Class::of_rule(self.rule, &key),
            key,
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.count - self.next;
        (left, Some(left))
    }
}

impl ExactSizeIterator for Corpus {}

/// The keys every corpus starts with.
const FIXED: &[&[u8]] = &[
    b"123456789",
    b"emq:{orders}:pending",
    b"emq:{orders}:active",
    b"emq:{}:pending",
    b"emq:{}:active",
    b"{emq}:version",
    b"app:s:{authz_{orgid}_groups_1}",
    b"foo{bar}{zap}",
    b"",
    b"{",
    b"}",
    b"{}",
    b"}{",
    b"{}}",
    b"{{}}",
    b"{{a}}",
    b"a{}b{c}",
    b"a{}b}",
    b"a}b{c}",
    b"{a",
    b"\x00",
    b"{\x00}",
    b"\xff{a}",
    b"\xc3\xa9",
    b"\xf0\x9f\x98\x80",
    b"{\xed\xa0\x80}",
];

/// One recipe per class, in turn; some classes get two turns.
const RECIPES: &[fn(&mut SplitMix64) -> Vec<u8>] = &[
    empty_hashtag,
    brace_before_tag,
    unclosed_brace,
    nested_brace,
    later_pairs,
    binary_brace,
    nul,
    invalid_utf8,
    utf8_four_byte,
    utf8_multibyte,
    long,
    long,
    tagged,
    plain,
    random_braces,
    random_braces,
];

/// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators",
/// 2014): fixed forever, unlike `rand`'s `StdRng`, whose stream may change between versions
/// and would change the corpus with it.
#[derive(Clone, Debug)]
struct SplitMix64(u64);

impl SplitMix64 {
    fn new(seed: u64) -> Self {
        Self(seed)
    }

    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`); the modulo bias is irrelevant here.
    fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    fn chance(&mut self, one_in: usize) -> bool {
        self.below(one_in) == 0
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// Lengths where implementations switch paths: byte-at-a-time below a vector width, memchr
/// or SIMD above; table slicing by 4, 8 or 16; the runtime's 32-byte scan switch and
/// 256-byte SIMD CRC switch; buffer sizes.
const SWITCH_LENGTHS: &[usize] = &[
    1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 47, 48, 63, 64, 65, 127, 128, 129, 255, 256,
    257, 511, 512, 513, 1023, 1024, 1025, 2047, 2048, 2049, 4095, 4096,
];

/// A length for a key's filler: mostly short, often a switch length, sometimes up to 4 KiB.
fn length(rng: &mut SplitMix64) -> usize {
    match rng.below(8) {
        0..=3 => rng.below(24),
        4..=5 => *rng.pick(SWITCH_LENGTHS),
        6 => rng.pick(SWITCH_LENGTHS) + rng.below(3) - 1,
        _ => rng.below(4097),
    }
}

/// Printable ASCII without braces.
fn text(rng: &mut SplitMix64, len: usize) -> Vec<u8> {
    const SYMBOLS: &[u8] =
        b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789:_-./|@#$%&*+= ";
    (0..len).map(|_| *rng.pick(SYMBOLS)).collect()
}

/// A short brace-free ASCII part: mostly 0 to 12 bytes, sometimes of a switch length.
fn part(rng: &mut SplitMix64) -> Vec<u8> {
    let len = if rng.chance(6) {
        length(rng)
    } else {
        rng.below(13)
    };
    text(rng, len)
}

/// A non-empty brace-free ASCII tag.
fn tag(rng: &mut SplitMix64) -> Vec<u8> {
    let len = if rng.chance(8) {
        length(rng).max(1)
    } else {
        1 + rng.below(10)
    };
    text(rng, len)
}

/// Bytes where braces are common: brace-free text with `{` and `}` sprinkled in.
fn braced(rng: &mut SplitMix64, len: usize) -> Vec<u8> {
    (0..len)
        .map(|_| match rng.below(5) {
            0 => b'{',
            1 => b'}',
            _ => *rng.pick(b"abcxyz:_0"),
        })
        .collect()
}

fn concat(parts: &[&[u8]]) -> Vec<u8> {
    parts.concat()
}

fn empty_hashtag(rng: &mut SplitMix64) -> Vec<u8> {
    let prefix = part(rng);
    // half the keys have a later `}`, the case cluster-key-slot 1.1.2 gets wrong
    let rest = match rng.below(4) {
        0 => part(rng),
        1 => concat(&[&part(rng), b"}", &part(rng)]),
        2 => concat(&[&part(rng), b"{", &tag(rng), b"}", &part(rng)]),
        _ => {
            let len = rng.below(12);
            braced(rng, len)
        }
    };
    concat(&[&prefix, b"{}", &rest])
}

fn brace_before_tag(rng: &mut SplitMix64) -> Vec<u8> {
    let before = concat(&[&part(rng), b"}", &part(rng)]);
    let tail = if rng.chance(4) {
        concat(&[b"{", &part(rng)])
    } else {
        concat(&[b"{", &tag(rng), b"}"])
    };
    concat(&[&before, &tail, &part(rng)])
}

fn unclosed_brace(rng: &mut SplitMix64) -> Vec<u8> {
    let inside: Vec<u8> = if rng.chance(3) {
        let len = rng.below(8);
        (0..len).map(|_| *rng.pick(b"{ab")).collect()
    } else {
        part(rng)
    };
    concat(&[&part(rng), b"{", &inside])
}

fn nested_brace(rng: &mut SplitMix64) -> Vec<u8> {
    let inner = concat(&[&part(rng), b"{", &part(rng)]);
    concat(&[
        &part(rng),
        b"{",
        &inner,
        b"}",
        &part(rng),
        if rng.chance(2) { b"}" } else { b"" },
    ])
}

fn later_pairs(rng: &mut SplitMix64) -> Vec<u8> {
    let second: &[u8] = if rng.chance(5) { b"" } else { &tag(rng) };
    concat(&[
        &part(rng),
        b"{",
        &tag(rng),
        b"}",
        &part(rng),
        b"{",
        second,
        b"}",
        &part(rng),
    ])
}

fn binary_brace(rng: &mut SplitMix64) -> Vec<u8> {
    let len = 1 + rng.below(40);
    let mut key: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
    let at = rng.below(key.len());
    key[at] = 0xff; // never in UTF-8
    let brace = rng.below(key.len() + 1);
    key.insert(brace, *rng.pick(b"{}"));
    if rng.chance(2) {
        let close = brace + 1 + rng.below(key.len() - brace);
        key.insert(close, b'}');
    }
    key
}

fn nul(rng: &mut SplitMix64) -> Vec<u8> {
    let mut key = match rng.below(3) {
        0 => concat(&[&part(rng), b"{", &tag(rng), b"}", &part(rng)]),
        _ => part(rng),
    };
    for _ in 0..=rng.below(3) {
        let at = rng.below(key.len() + 1);
        key.insert(at, 0);
    }
    key
}

/// Byte sequences that are never UTF-8.
const INVALID: &[&[u8]] = &[
    b"\x80",
    b"\xbf",
    b"\xc0\x80",                 // overlong NUL
    b"\xc1\xbf",                 // overlong
    b"\xe0\x80\xaf",             // overlong `/`
    b"\xed\xa0\x80",             // high surrogate U+D800
    b"\xed\xbf\xbf",             // low surrogate U+DFFF
    b"\xed\xa0\xbd\xed\xb8\x80", // surrogate pair encoded (CESU-8)
    b"\xf4\x90\x80\x80",         // above U+10FFFF
    b"\xf5",
    b"\xfe",
    b"\xff",
    b"\xc3",         // truncated 2-byte
    b"\xe2\x82",     // truncated 3-byte
    b"\xf0\x9f\x98", // truncated 4-byte
];

fn invalid_utf8(rng: &mut SplitMix64) -> Vec<u8> {
    let bad: Vec<u8> = if rng.chance(3) {
        let len = 1 + rng.below(16);
        (0..len).map(|_| 0x80 | rng.next_u64() as u8).collect()
    } else {
        rng.pick(INVALID).to_vec()
    };
    match rng.below(3) {
        0 => concat(&[&part(rng), &bad, &part(rng)]),
        1 => concat(&[&part(rng), b"{", &bad, b"}", &part(rng)]),
        _ => bad,
    }
}

/// UTF-8 text of `chars` characters, from code points drawn by `point`.
fn utf8(rng: &mut SplitMix64, chars: usize, point: fn(&mut SplitMix64) -> u32) -> Vec<u8> {
    let mut out = String::new();
    for _ in 0..chars {
        if rng.chance(3) {
            out.push(char::from(*rng.pick(b"abc:_")));
        } else if let Some(c) = char::from_u32(point(rng)) {
            out.push(c);
        }
    }
    out.into_bytes()
}

fn multibyte_point(rng: &mut SplitMix64) -> u32 {
    if rng.chance(2) {
        0x80 + rng.below(0x800 - 0x80) as u32
    } else {
        // 3-byte code points, surrogates excluded by `char::from_u32`
        0x800 + rng.below(0x1_0000 - 0x800) as u32
    }
}

fn four_byte_point(rng: &mut SplitMix64) -> u32 {
    if rng.chance(2) {
        0x1_f600 + rng.below(0x50) as u32 // emoji
    } else {
        0x1_0000 + rng.below(0x10_0000) as u32
    }
}

fn utf8_multibyte(rng: &mut SplitMix64) -> Vec<u8> {
    let chars = 1 + rng.below(12);
    let body = utf8(rng, chars, multibyte_point);
    wrap_in_tag_sometimes(rng, body)
}

fn utf8_four_byte(rng: &mut SplitMix64) -> Vec<u8> {
    let chars = 1 + rng.below(6);
    let mut body = utf8(rng, chars, four_byte_point);
    body.extend_from_slice("\u{1F600}".as_bytes()[..].as_ref());
    wrap_in_tag_sometimes(rng, body)
}

fn wrap_in_tag_sometimes(rng: &mut SplitMix64, body: Vec<u8>) -> Vec<u8> {
    match rng.below(3) {
        0 => concat(&[&part(rng), b"{", &body, b"}", &part(rng)]),
        1 => concat(&[b"{", &tag(rng), b"}", &body]),
        _ => body,
    }
}

fn long(rng: &mut SplitMix64) -> Vec<u8> {
    let len = LONG
        + match rng.below(3) {
            0 => rng.below(4097 - LONG),
            _ => rng.pick(&SWITCH_LENGTHS[12..]) - LONG + rng.below(3),
        };
    match rng.below(4) {
        0 => text(rng, len),
        // the tag at the end, after a long brace-free scan
        1 => concat(&[&text(rng, len), b"{", &tag(rng), b"}"]),
        // a tag at a switch length
        2 => {
            let at = (*rng.pick(SWITCH_LENGTHS)).min(len);
            let mut key = text(rng, len);
            let tail = key.split_off(at);
            concat(&[&key, b"{", &tag(rng), b"}", &tail])
        }
        // a long tag
        _ => concat(&[b"x{", &text(rng, len), b"}"]),
    }
}

fn tagged(rng: &mut SplitMix64) -> Vec<u8> {
    concat(&[&part(rng), b"{", &tag(rng), b"}", &part(rng)])
}

fn plain(rng: &mut SplitMix64) -> Vec<u8> {
    let len = 1 + rng.below(24);
    let mut key = text(rng, len);
    if rng.chance(4) {
        // a lone `}` after no `{` is harmless
        let at = rng.below(key.len() + 1);
        key.insert(at, b'}');
    }
    key
}

/// Every placement of braces among a few bytes: short strings over `{`, `}` and two letters.
fn random_braces(rng: &mut SplitMix64) -> Vec<u8> {
    let len = 1 + rng.below(9);
    (0..len).map(|_| *rng.pick(b"{}ab")).collect()
}

/// The schema name and version of the JSON form, written to `"format"`.
pub const FORMAT: &str = "slotgen-vectors/1";

/// Writes the corpus as text: a first line `# ...` naming the slot function, seed and
/// count, then one row per key, `key_hex<TAB>slot<TAB>class` (`7b7d\t7387\tempty-hashtag`,
/// lowercase hex; the empty key is an empty first field). Constant memory.
///
/// # Errors
///
/// When `out` fails.
///
/// # Examples
///
/// ```
/// let mut out = Vec::new();
/// let redis = slotgen::scheme::SlotFunction::try_from(&slotgen::Spec::default())?;
/// slotgen::vectors::write_tsv(&mut out, redis, 2, 0)?;
/// let text = String::from_utf8(out).unwrap();
/// assert_eq!(text.lines().nth(1), Some("313233343536373839\t12739\tplain"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn write_tsv(
    out: &mut impl Write,
    function: SlotFunction,
    count: usize,
    seed: u64,
) -> io::Result<()> {
    writeln!(
        out,
        "# slotgen vectors {CORPUS_VERSION}: {function}, seed {seed}, {count} keys; key_hex<TAB>slot<TAB>class"
    )?;
    for v in corpus(function, count, seed) {
        writeln!(out, "{}\t{}\t{}", hex::encode(&v.key), v.slot, v.class)?;
    }
    Ok(())
}

/// Writes the corpus as one JSON object (schema `slotgen-vectors/1`): `format`,
/// `corpus_version` (number), the slot function ([`SlotFunction::json_fields`]: `crc`, the
/// RevEng parameters as in `slotgen emit json`, and `slots`; or `scheme`, an object of
/// `name`, `hash_tag` and `first_slot`, and `slots`), `seed` (number), `count`, `classes`
/// (the class names of the rule, in classification order: [`Class::for_rule`]) and
/// `vectors`, an array of `{ "key_hex": "7b7d", "slot": 7387, "class": "empty-hashtag" }`.
/// Constant memory: the array is written as it is generated.
///
/// # Errors
///
/// When `out` fails.
pub fn write_json(
    out: &mut impl Write,
    function: SlotFunction,
    count: usize,
    seed: u64,
) -> io::Result<()> {
    let mut head = serde_json::json!({
        "format": FORMAT,
        "corpus_version": CORPUS_VERSION,
        "seed": seed,
        "count": count,
        "classes": Class::for_rule(function.rule()).iter().map(|c| c.name()).collect::<Vec<_>>(),
    });
    head.as_object_mut()
        .expect("an object")
        .extend(function.json_fields());
    let head = serde_json::to_string(&head)?;
    // the head without its closing brace, then the array
    write!(out, "{},\"vectors\":[", &head[..head.len() - 1])?;
    for (i, v) in corpus(function, count, seed).enumerate() {
        let row = serde_json::json!({ "key_hex": hex::encode(&v.key), "slot": v.slot, "class": v.class.name() });
        write!(out, "{}\n{row}", if i == 0 { "" } else { "," })?;
    }
    writeln!(out, "]}}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix64_reference_values() {
        // the first outputs for seed 1234567 of the reference implementation
        let mut rng = SplitMix64::new(1_234_567);
        assert_eq!(rng.next_u64(), 6_457_827_717_110_365_317);
        assert_eq!(rng.next_u64(), 3_203_168_211_198_807_973);
    }

    #[test]
    fn same_seed_same_corpus_and_another_seed_another() {
        let a: Vec<_> = corpus(SlotFunction::default(), 2000, 1).collect();
        let b: Vec<_> = corpus(SlotFunction::default(), 2000, 1).collect();
        let c: Vec<_> = corpus(SlotFunction::default(), 2000, 2).collect();
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert_eq!(a[..FIXED.len()], c[..FIXED.len()]);
    }

    #[test]
    fn every_class_is_well_represented_in_the_default_corpus() {
        let colons = SlotFunction::scheme(
            slotgen_tables::SchemeName::TwemproxyCrc32a,
            Some(3),
            Some(*b"::"),
        );
        let angles = SlotFunction::scheme(
            slotgen_tables::SchemeName::TwemproxyCrc16,
            Some(5),
            Some(*b"<>"),
        );
        let codis = SlotFunction::scheme(slotgen_tables::SchemeName::Codis, None, None);
        let kafka = SlotFunction::scheme(slotgen_tables::SchemeName::Librdkafka, Some(12), None);
        for function in [
            SlotFunction::default(),
            colons.unwrap(),
            angles.unwrap(),
            codis.unwrap(),
            kafka.unwrap(),
        ] {
            let mut counts = [0usize; Class::ALL.len()];
            for v in corpus(function.clone(), DEFAULT_COUNT, DEFAULT_SEED) {
                counts[Class::ALL.iter().position(|&c| c == v.class).unwrap()] += 1;
            }
            let classes = Class::for_rule(function.rule());
            for (class, count) in Class::ALL.iter().zip(counts) {
                if !classes.contains(class) {
                    assert_eq!(count, 0, "{function}: {class}");
                    continue;
                }
                let floor = if *class == Class::Empty { 1 } else { 500 };
                assert!(count >= floor, "{function}: {class}: {count} keys");
            }
        }
    }

    /// Under a rule with braces the keys are Redis Cluster's, whatever the slots; under
    /// other delimiters three keys of four of the recipes carry them instead.
    #[test]
    fn keys_follow_the_rules_delimiters() {
        let redis: Vec<_> = corpus(SlotFunction::default(), 3000, 5).collect();
        let codis = SlotFunction::scheme(slotgen_tables::SchemeName::Codis, None, None).unwrap();
        let codis: Vec<_> = corpus(codis, 3000, 5).collect();
        assert!(redis.iter().zip(&codis).all(|(r, c)| r.key == c.key));
        let colons = SlotFunction::scheme(
            slotgen_tables::SchemeName::TwemproxyCrc32,
            Some(3),
            Some(*b"::"),
        )
        .unwrap();
        let colons: Vec<_> = corpus(colons, 3000, 5).collect();
        let (mut braced, mut mapped) = (0, 0);
        for (r, c) in redis.iter().zip(&colons) {
            assert_eq!(r.key.len(), c.key.len());
            if r.key.contains(&b'{') || r.key.contains(&b'}') {
                if c.key == r.key {
                    braced += 1;
                } else {
                    assert_eq!(with_delimiters(&r.key, *b"::"), c.key);
                    mapped += 1;
                }
            }
        }
        assert!(mapped > 2 * braced && braced > 100, "{mapped} {braced}");
    }
}
