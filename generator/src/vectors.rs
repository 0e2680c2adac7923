//! A deterministic conformance corpus: keys that exercise every trap of the hashtag rule and
//! every byte a client may mishandle, each with the slot the spec's hash slot function gives
//! it, for checking a client library's slot computation (`slotgen verify --exec`).
//!
//! The corpus is a stream: key `i` depends only on the seed and `i`, so any prefix of a
//! corpus is the smaller corpus of the same seed, and it is generated in constant memory.
//! Every key's [`Class`] is a function of its bytes alone ([`Class::of`]): the first trap it
//! falls into, in [`Class::ALL`] order. So every key whose first `{` is followed at once by
//! `}` is in [`Class::EmptyHashtag`], whatever recipe made it, and a client with one fault
//! shows its disagreements in one class.
//!
//! ```
//! use slotgen::vectors::{corpus, Class, DEFAULT_COUNT};
//! use slotgen::Spec;
//!
//! let vectors: Vec<_> = corpus(&Spec::default(), DEFAULT_COUNT, 0).collect();
//! assert_eq!(vectors.len(), 50_000);
//! // the first keys are the seed layouts, in a fixed order
//! assert_eq!(vectors[1].key, b"emq:{orders}:pending");
//! assert_eq!(vectors[1].slot, 105);
//! assert_eq!(vectors[3].key, b"emq:{}:pending");
//! assert_eq!((vectors[3].slot, vectors[3].class), (7387, Class::EmptyHashtag));
//! // every class has keys
//! for class in Class::ALL {
//!     assert!(vectors.iter().any(|v| v.class == class), "{class}");
//! }
//! ```

use std::fmt;
use std::io::{self, Write};

use slotgen_tables::{hashtag, warnings, Crc16, Warning};

use crate::Spec;

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
    pub const ALL: [Class; 14] = [
        Class::Empty,
        Class::EmptyHashtag,
        Class::BraceBeforeTag,
        Class::UnclosedBrace,
        Class::NestedBrace,
        Class::LaterPairsIgnored,
        Class::BinaryBrace,
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

    /// The class of `key`: the first in [`Class::ALL`] order that it belongs to.
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
        if key.is_empty() {
            return Class::Empty;
        }
        let found = warnings(key);
        for (warning, class) in [
            (Warning::EmptyHashtag, Class::EmptyHashtag),
            (Warning::BraceBeforeTag, Class::BraceBeforeTag),
            (Warning::UnclosedBrace, Class::UnclosedBrace),
            (Warning::NestedBrace, Class::NestedBrace),
            (Warning::LaterPairsIgnored, Class::LaterPairsIgnored),
            (Warning::BinaryBrace, Class::BinaryBrace),
        ] {
            if found.contains(warning) {
                return class;
            }
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
        } else if hashtag(key).len() < key.len() {
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

/// One key of the corpus and the slot the spec gives it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Vector {
    /// The key's bytes.
    pub key: Vec<u8>,
    /// `crc(hashtag(key)) & (slots - 1)`, by the runtime's [`hashtag`] and [`Crc16`]: for
    /// Redis Cluster what `CLUSTER KEYSLOT` answers.
    pub slot: u16,
    /// What the key exercises: [`Class::of`] the key.
    pub class: Class,
}

/// The corpus of `count` keys for `seed` under `spec`'s CRC and slot count (its alphabet
/// and tag length do not matter: a key's slot depends on the CRC and the slot count only).
///
/// The first keys are fixed (the seed layouts and the hashtag rule's textbook cases, the
/// same for every seed); the rest come from recipes aimed at each [`Class`], in turn, each
/// key drawn from a SplitMix64 generator seeded by `seed` and the key's index. The output is
/// the same on every machine and in every version that keeps [`CORPUS_VERSION`].
///
/// # Examples
///
/// ```
/// use slotgen::vectors::corpus;
/// use slotgen::Spec;
///
/// let first: Vec<_> = corpus(&Spec::default(), 3, 7).collect();
/// assert_eq!(first[0].key, b"123456789");
/// assert_eq!(first[0].slot, 12739); // CRC-16/XMODEM check value 0x31c3, mod 16384
/// // a prefix of a corpus is the smaller corpus
/// let more: Vec<_> = corpus(&Spec::default(), 1000, 7).collect();
/// assert_eq!(&more[..3], &first[..]);
/// ```
#[must_use]
pub fn corpus(spec: &Spec, count: usize, seed: u64) -> Corpus {
    Corpus {
        crc: Crc16::new(&spec.crc),
        // `slots` is a power of two in 2..=65536: the mask fits 16 bits
        mask: (spec.slots.max(1) - 1) as u16,
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
    crc: Crc16,
    mask: u16,
    seed: u64,
    next: usize,
    count: usize,
}

impl Corpus {
    /// The key at `index`, without its slot.
    fn key(&self, index: usize) -> Vec<u8> {
        if let Some(key) = FIXED.get(index) {
            return key.to_vec();
        }
        let mut rng =
            SplitMix64::new(self.seed ^ (index as u64).wrapping_mul(0xd1b5_4a32_d192_ed03));
        let recipe = RECIPES[(index - FIXED.len()) % RECIPES.len()];
        recipe(&mut rng)
    }
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
            slot: self.crc.checksum(hashtag(&key)) & self.mask,
            class: Class::of(&key),
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

/// Writes the corpus as text: a first line `# ...` naming the spec, seed and count, then
/// one row per key, `key_hex<TAB>slot<TAB>class` (`7b7d\t7387\tempty-hashtag`, lowercase
/// hex; the empty key is an empty first field). Constant memory.
///
/// # Errors
///
/// When `out` fails.
///
/// # Examples
///
/// ```
/// let mut out = Vec::new();
/// slotgen::vectors::write_tsv(&mut out, &slotgen::Spec::default(), 2, 0).unwrap();
/// let text = String::from_utf8(out).unwrap();
/// assert_eq!(text.lines().nth(1), Some("313233343536373839\t12739\tplain"));
/// ```
pub fn write_tsv(out: &mut impl Write, spec: &Spec, count: usize, seed: u64) -> io::Result<()> {
    writeln!(
        out,
        "# slotgen vectors {CORPUS_VERSION}: {}, {} slots, seed {seed}, {count} keys; key_hex<TAB>slot<TAB>class",
        spec.crc_name(),
        spec.slots
    )?;
    for v in corpus(spec, count, seed) {
        writeln!(out, "{}\t{}\t{}", hex::encode(&v.key), v.slot, v.class)?;
    }
    Ok(())
}

/// Writes the corpus as one JSON object (schema `slotgen-vectors/1`): `format`,
/// `corpus_version` (number), `crc` (the RevEng parameters, as in `slotgen emit json`),
/// `slots`, `seed` (number), `count`, `classes` (the class names in classification order)
/// and `vectors`, an array of `{ "key_hex": "7b7d", "slot": 7387, "class": "empty-hashtag" }`.
/// Constant memory: the array is written as it is generated.
///
/// # Errors
///
/// When `out` fails.
pub fn write_json(out: &mut impl Write, spec: &Spec, count: usize, seed: u64) -> io::Result<()> {
    let head = serde_json::json!({
        "format": FORMAT,
        "corpus_version": CORPUS_VERSION,
        "crc": crate::json_schema::crc_value(spec.crc_name(), &spec.crc),
        "slots": spec.slots,
        "seed": seed,
        "count": count,
        "classes": Class::ALL.iter().map(|c| c.name()).collect::<Vec<_>>(),
    });
    let head = serde_json::to_string(&head)?;
    // the head without its closing brace, then the array
    write!(out, "{},\"vectors\":[", &head[..head.len() - 1])?;
    for (i, v) in corpus(spec, count, seed).enumerate() {
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
        let a: Vec<_> = corpus(&Spec::default(), 2000, 1).collect();
        let b: Vec<_> = corpus(&Spec::default(), 2000, 1).collect();
        let c: Vec<_> = corpus(&Spec::default(), 2000, 2).collect();
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert_eq!(a[..FIXED.len()], c[..FIXED.len()]);
    }

    #[test]
    fn every_class_is_well_represented_in_the_default_corpus() {
        let mut counts = [0usize; Class::ALL.len()];
        for v in corpus(&Spec::default(), DEFAULT_COUNT, DEFAULT_SEED) {
            counts[Class::ALL.iter().position(|&c| c == v.class).unwrap()] += 1;
        }
        for (class, count) in Class::ALL.iter().zip(counts) {
            let floor = if *class == Class::Empty { 1 } else { 500 };
            assert!(count >= floor, "{class}: {count} keys");
        }
    }
}
