//! The one harness that runs every emitted module for real: every language of the registry
//! ([`slotgen::emit::language::LANGUAGES`] with `module: true`) over one matrix of cases
//! ([`cases`]: CRC-16 tables and every named scheme), each language's driver a real source
//! file under `tests/drivers/<language>/`, built and run by its row of the toolchain table
//! ([`crate::toolchains`]), the one place where strict compiler flags live.
//!
//! # The driver protocol
//!
//! A driver takes, after whatever its toolchain passes first (the module's directory or
//! path): the keys file (one hex key a line), the groups file (one group a line: the count
//! of its keys, `:`, and the keys as hex joined by `,`; `0:` for none, `1:` for the empty
//! key), the counts `few` and `deep`, and the
//! hex of a prefix, a suffix, a refused prefix and a refused suffix. It prints one answer a
//! line, fields separated by tabs, bytes as lowercase hex:
//!
//! - `const <first slot> <last slot> <slots> <tag length>`, from the module's constants;
//! - `tag <slot> <tag>` for every slot, from `tag_for_slot`;
//! - `tags <slot> <tag>,...`: the first `few` tags of every slot, from `tags_for_slot`;
//! - `deep <slot> <tag>,...`: the first `deep` tags of the first and of the last slot;
//! - `key <slot> <key>` for every slot, from `key_for_slot(prefix, slot, suffix)` (for a
//!   scheme that hashes the whole key, inside the frame [`FRAME`], solved by the module);
//! - `slot <key> <slot>` for every key, the key passed as bytes; then, for each kind of
//!   key its toolchain row names (`str`: as a string, for the keys that are UTF-8;
//!   `buffer`: as a Node `Buffer`), `<kind> <key> <slot>` the same way;
//! - `hashtag <key> <bytes>` for every key: the bytes its slot is computed from (the
//!   hashtag, or the whole key);
//! - `same <group> <slot>` and `shared <group> <hashtag>` for every group (numbered from
//!   0), from `same_slot` and `shared_hashtag`, `-` for none;
//! - `refused <case> <message>` (or `accepted <case> <value>`) for `tag_above`
//!   (`tag_for_slot(last + 1)`), `tag_below` (`tag_for_slot(first - 1)`), `tags_above`,
//!   `key_above` and `key_rule` (`key_for_slot` of the refused prefix and suffix: a prefix
//!   that holds the opening delimiter, or a frame whose tags cannot reach every slot).
//!
//! Every expected answer comes from elsewhere: tags and keys from the Rust runtime
//! (`SlotTable`, `SchemeTable`), slots and hashtags from `tests/drivers/reference.py`
//! (each system's rule and CRC written from its sources, with Python's own CRCs), checked
//! against a real Redis server's answers where the spec is Redis Cluster's: the stored
//! `tests/data/` vectors and a live `redis-server`'s `CLUSTER KEYSLOT` of every key.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use slotgen::emit::model::READY_TAGS;
use slotgen::request::{CustomCrc, Request, TableSpec};
use slotgen::scheme::invert::{FramedKeys, SchemeSpec};
use slotgen_tables::{SchemeName, MAX_TAG_LEN};

use crate::emitted::{fresh_dir, run};

/// Tags of every slot the drivers print.
pub const FEW: usize = 3;

/// Below this many tags a slot, `deep` lists all of them, and one more is asked for.
const ALL_TAGS_BELOW: u64 = 25_000;

/// A derivation the harness owns: the library's one type for a table's tables.
pub use slotgen::Derivation as Table;

/// One case of the matrix.
pub struct Case {
    /// A short name, for directories, module names and messages: `[a-z0-9_]`.
    pub name: &'static str,
    /// Its derivation.
    pub table: Table,
    /// The affixes of the `key` lines.
    pub prefix: Vec<u8>,
    /// See [`prefix`](Self::prefix).
    pub suffix: Vec<u8>,
    /// The affixes of the `key_rule` refusal.
    pub bad_prefix: Vec<u8>,
    /// See [`bad_prefix`](Self::bad_prefix).
    pub bad_suffix: Vec<u8>,
    /// A piece of the `key_rule` refusal's message: a prefix that holds the opening
    /// delimiter, or a frame whose tags cannot reach every slot; `None` where no frame is
    /// refused (a whole-key scheme whose whole value is solved for).
    pub bad_fragment: Option<&'static str>,
    /// How many tags the `deep` lines list.
    pub deep: usize,
    /// For a scheme that hashes the whole key: the keys `order-<tag>:eu` of every slot,
    /// solved inside the frame by [`FramedKeys`] at the case's tag length.
    pub frame: Option<FramedKeys>,
}

/// The frame of a whole-key scheme's `key` lines, for a module that solves tags inside one.
pub const FRAME: (&[u8], &[u8]) = (b"order-", b":eu");

impl Case {
    /// The case of `request`, resolved and derived as every front end does it.
    fn of(name: &'static str, request: &Request) -> Self {
        let resolved = request.resolve().unwrap_or_else(|e| panic!("{name}: {e}"));
        Self::from_spec(name, &resolved.spec)
    }

    fn from_spec(name: &'static str, spec: &TableSpec) -> Self {
        Self::new(
            name,
            spec.derive().unwrap_or_else(|e| panic!("{name}: {e}")),
        )
    }

    fn new(name: &'static str, table: Table) -> Self {
        let delimiters = table.scheme.hashtag().delimiters();
        let mut case = Self {
            name,
            table,
            prefix: b"user/".to_vec(),
            suffix: b"/profile".to_vec(),
            bad_prefix: vec![],
            bad_suffix: vec![],
            bad_fragment: None,
            deep: 0,
            frame: None,
        };
        match (delimiters, &case.table.spec) {
            (Some([open, _]), _) => {
                case.bad_prefix = vec![b'a', open, b'b'];
                case.bad_fragment = Some("prefix contains");
            }
            (None, TableSpec::Scheme(spec)) => {
                (case.prefix, case.suffix) = (FRAME.0.to_vec(), FRAME.1.to_vec());
                case.frame = FramedKeys::derive(spec, FRAME.0, FRAME.1).ok();
                assert!(
                    case.frame.is_some() || case.name == "kafka_one",
                    "{name}: the frame {FRAME:?} does not solve"
                );
                if case.frame.is_none() {
                    (case.prefix, case.suffix) = (vec![], vec![]);
                }
                // a frame that tags of this length cannot steer to every slot, where the
                // value's low bits are solved for: refused
                if let Some(k) =
                    (1..=8).find(|&k| FramedKeys::derive(spec, b"a", &b"x".repeat(k)).is_err())
                {
                    (case.bad_prefix, case.bad_suffix) = (b"a".to_vec(), b"x".repeat(k));
                    case.bad_fragment = Some("symbols control");
                }
            }
            (None, TableSpec::Crc16(_)) => unreachable!("a CRC-16 table has Redis's rule"),
        }
        let total = case.tags_per_slot(case.last());
        case.deep = if total < ALL_TAGS_BELOW {
            usize::try_from(total).unwrap() + 1
        } else {
            (1usize << case.kernel_len().min(10)) + 3
        };
        case
    }

    /// The derivation as the emitters take it.
    #[must_use]
    pub fn source(&self) -> &Table {
        &self.table
    }

    /// The first slot.
    #[must_use]
    pub fn first(&self) -> u32 {
        self.table.first_slot()
    }

    /// The slot count.
    #[must_use]
    pub fn slots(&self) -> u32 {
        self.table.slots()
    }

    /// The last slot.
    #[must_use]
    pub fn last(&self) -> u32 {
        self.first() + (self.slots() - 1)
    }

    fn tag_len(&self) -> usize {
        self.table.tag_len
    }

    fn kernel_len(&self) -> usize {
        self.table.kernel.len()
    }

    fn tags_per_slot(&self, slot: u32) -> u64 {
        match self.table.slot_table() {
            Some(table) => table.tags_per_slot(),
            None => self.table.table().tags_per_slot(slot),
        }
    }

    /// The first `n` tags of `slot`, by the Rust runtime.
    fn tags(&self, slot: u32, n: usize) -> Vec<Vec<u8>> {
        let owned = |t: slotgen_tables::Tag<MAX_TAG_LEN>| t.as_ref().to_vec();
        match self.table.slot_table() {
            Some(table) => {
                let slot = u16::try_from(slot).unwrap();
                table
                    .tags_for_slot(slot)
                    .unwrap()
                    .take(n)
                    .map(owned)
                    .collect()
            }
            None => self
                .table
                .table()
                .tags_for_slot(slot)
                .unwrap()
                .take(n)
                .map(owned)
                .collect(),
        }
    }

    /// The key of `slot` with the case's affixes (inside [`FRAME`] where the scheme hashes
    /// the whole key), by the Rust runtime.
    fn key(&self, slot: u32) -> Vec<u8> {
        if let Some(frame) = &self.frame {
            return frame.key_for_slot(slot).unwrap();
        }
        match self.table.slot_table() {
            Some(table) => table
                .key_for_slot(&self.prefix, u16::try_from(slot).unwrap(), &self.suffix)
                .unwrap(),
            None => self
                .table
                .table()
                .key_for_slot(&self.prefix, slot, &self.suffix)
                .unwrap(),
        }
    }

    /// The case as `reference.py` takes it.
    fn reference_arg(&self) -> String {
        match &self.table.spec {
            TableSpec::Crc16(spec) => {
                let c = &spec.crc;
                format!(
                    "{}:crc16:{:#x}:{:#x}:{}:{}:{:#x}:{}",
                    self.name, c.poly, c.init, c.refin, c.refout, c.xorout, spec.slots
                )
            }
            TableSpec::Scheme(spec) => format!(
                "{}:scheme:{}:{}:{}",
                self.name,
                spec.name.name(),
                self.table.scheme.slots(),
                spec.hash_tag.map_or(String::new(), hex::encode)
            ),
        }
    }

    /// The arguments of a driver after what its toolchain passes first.
    #[must_use]
    pub fn driver_args(&self, shared: &Shared) -> Vec<String> {
        let (prefix, suffix) = (&self.prefix[..], &self.suffix[..]);
        vec![
            shared.keys_path.display().to_string(),
            shared.groups_path.display().to_string(),
            FEW.to_string(),
            self.deep.to_string(),
            hex::encode(prefix),
            hex::encode(suffix),
            hex::encode(&self.bad_prefix),
            hex::encode(&self.bad_suffix),
        ]
    }
}

/// The matrix: five CRC-16 tables (Redis Cluster; CRC-16/KERMIT, reflected; a 32-symbol
/// alphabet `@`..`_`; a custom CRC with `refin != refout`, nonzero `init` and `xorout`
/// over 4096 slots and an 8-symbol alphabet; 256 slots with one tag a slot) and every named
/// scheme: Redis Cluster over 1024 slots through the scheme path, Codis and Couchbase
/// (low bits), Tarantool vshard's 3000 buckets from 1 (the whole value, CRC-32C),
/// librdkafka over 12 partitions and over one (nothing solved for), twemproxy's crc32a over
/// 3 servers without and with `hash_tag: "{}"` and over 16385 with it (one more than the
/// modules keep ready tags for, [`READY_TAGS`]), crc32 over 3 servers with `hash_tag: "::"`,
/// and Codis with the 32 symbols `\x80` to `\x9f`. Then the awkward: Redis Cluster with
/// 16-symbol tags (2^50 tags a slot, which every module's `tags_for_slot` gives lazily),
/// and three 8-symbol alphabets over 1024 slots whose bytes a module's text must hold
/// safely (a newline, a carriage return, quotes, a backslash, `*/`, `?>`, `\u`, a control
/// byte).
///
/// # Panics
///
/// When a case does not derive (a bug in slotgen).
#[must_use]
pub fn cases() -> Vec<Case> {
    let crc16 = |alphabet: Option<&[u8]>, tag_len: Option<usize>, slots: Option<u64>| Request {
        alphabet: alphabet.map(<[u8]>::to_vec),
        tag_len,
        slots,
        ..Request::default()
    };
    let scheme = |name: &str, slots: Option<u64>, hash_tag: Option<&str>| Request {
        scheme: Some(name.to_owned()),
        slots,
        hash_tag: hash_tag.map(str::to_owned),
        ..Request::default()
    };
    let wide: Vec<u8> = (0x40..0x60).collect();
    let high: Vec<u8> = (0x80..0xa0).collect();
    vec![
        Case::of("redis", &Request::default()),
        Case::of(
            "kermit",
            &Request {
                crc: Some("CRC-16/KERMIT".to_owned()),
                ..Request::default()
            },
        ),
        Case::of("wide", &crc16(Some(&wide), None, None)),
        Case::of(
            "custom",
            &Request {
                custom: Some(CustomCrc {
                    poly: 0x8005,
                    init: Some(0x1234),
                    refin: Some(true),
                    refout: Some(false),
                    xorout: Some(0xbeef),
                }),
                ..crc16(Some(b"01234567"), None, Some(4096))
            },
        ),
        Case::of("bijective", &crc16(None, Some(2), Some(256))),
        // A `redis-cluster` request resolves to the CRC-16 table; this case takes the
        // scheme path on purpose.
        Case::from_spec(
            "s_redis",
            &TableSpec::Scheme(SchemeSpec {
                slots: Some(1024),
                ..SchemeSpec::new(SchemeName::RedisCluster)
            }),
        ),
        Case::of("codis", &scheme("codis", None, None)),
        Case::of("couchbase", &scheme("couchbase", None, None)),
        Case::of("tarantool", &scheme("tarantool-vshard", None, None)),
        Case::of("kafka", &scheme("librdkafka", Some(12), None)),
        // one server over the slots whose tags a module keeps ready (`READY_TAGS`): each tag,
        // and each key's framed tag, made at its call
        Case::of(
            "twem_many",
            &scheme(
                "twemproxy-crc32a",
                Some(u64::from(READY_TAGS) + 1),
                Some("{}"),
            ),
        ),
        Case::of("twem_a", &scheme("twemproxy-crc32a", Some(3), None)),
        Case::of(
            "twem_a_tag",
            &scheme("twemproxy-crc32a", Some(3), Some("{}")),
        ),
        Case::of("twem_tag", &scheme("twemproxy-crc32", Some(3), Some("::"))),
        Case::of("kafka_one", &scheme("librdkafka", Some(1), None)),
        Case::of("big_kernel", &crc16(None, Some(16), None)),
        Case::of(
            "awkward_lines",
            &crc16(Some(b"\n\r\"\\%[ts"), None, Some(1024)),
        ),
        Case::of("awkward_ends", &crc16(Some(b"?>*/+.:;"), None, Some(1024))),
        Case::of(
            "awkward_escape",
            &crc16(Some(b"\\u'-\x04\x0eV\x7f"), None, Some(1024)),
        ),
        Case::of(
            "codis_high",
            &Request {
                alphabet: Some(high),
                ..scheme("codis", None, None)
            },
        ),
    ]
}

/// The keys every module hashes: pinned edge cases of every hashtag rule, the keys a real
/// Redis server answered, keys that share hashtags under `{}` and `::`, then seeded random
/// keys of 0 to 20 bytes, half of their bytes from `{}:` and lowercase letters.
#[must_use]
pub fn keys() -> Vec<Vec<u8>> {
    let mut keys: Vec<Vec<u8>> = [
        &b""[..],
        b"123456789",
        b"{}",
        b"a{}b",
        b"b{}a",
        b"{}{a}",
        b"{a}",
        b"a",
        b"x{a}1",
        b"a{b",
        b"a}b{",
        b"{{a}}",
        b"foo{bar}{zap}",
        b"emq:{orders}:pending",
        b"emq:{orders}:active",
        b"{orders}",
        b"emq:{}:pending",
        b"::",
        b"a::b",
        b"a:b:c",
        b"x:b:y",
        b":a",
        b"{:a:}",
        "\u{1F480}".as_bytes(),
        "user:{\u{1F480}}:profile".as_bytes(),
        "caf\u{e9} {\u{e9}t\u{e9}}".as_bytes(),
        b"\xff\x80{\xfe}",
        b"\xff\x00{\x80}",
    ]
    .iter()
    .map(|k| k.to_vec())
    .collect();
    keys.extend(crate::redis_vectors().into_iter().map(|v| v.key));
    let mut rng = StdRng::seed_from_u64(13);
    while keys.len() < 3000 {
        let len = rng.random_range(0..=20usize);
        keys.push(
            (0..len)
                .map(|_| match rng.random_range(0..8) {
                    0 => b'{',
                    1 => b'}',
                    2 => b':',
                    3 | 4 => rng.random_range(b'a'..=b'z'),
                    _ => rng.random::<u8>(),
                })
                .collect(),
        );
    }
    keys
}

/// The groups of keys for `same_slot` and `shared_hashtag`: none; each pinned key alone;
/// keys sharing a hashtag (`emq:{orders}:...`, `a:b:c` and `x:b:y` under `::`); keys with
/// one slot but no shared hashtag (`{a}` and `a`); `{}` keys; and pairs of random keys.
fn groups(keys: &[Vec<u8>]) -> Vec<Vec<Vec<u8>>> {
    let key = |k: &[u8]| k.to_vec();
    let mut groups: Vec<Vec<Vec<u8>>> = vec![vec![]];
    groups.extend(keys[..28].iter().map(|k| vec![k.clone()]));
    for group in [
        &[
            &b"emq:{orders}:pending"[..],
            b"emq:{orders}:active",
            b"{orders}",
        ][..],
        &[b"{a}", b"a"],
        &[b"{a}", b"x{a}1", b"{}{a}"],
        &[b"a{}b", b"b{}a"],
        &[b"a{}b", b"a{}b"],
        &[b"a:b:c", b"x:b:y"],
        &[b"{{a}}", b"{a}"],
        &[b"", b""],
        // the seed's layouts and the rule's traps
        &[b"emq:{orders}:pending", b"{emq}:version"],
        &[b"emq:{}:pending", b"emq:{}:active"],
        &[b"{a}1", b"{a}2", b"{a}3"],
        &[b"{}a", b"{}a"],
        &[b"a{b}{c}", b"{b}"],
        &[b"{{a}}", b"{{a}x"],
        &[b"{a", b"{a"],
        &[b"x{", b"x{}"],
        &[b"{a}", b"{b}"],
        &[b"\xff{\x80}", b"{\x80}z"],
        &[
            "user:{\u{1F480}}:profile".as_bytes(),
            "{\u{1F480}}".as_bytes(),
        ],
    ] {
        groups.push(group.iter().map(|k| key(k)).collect());
    }
    groups.extend(keys[1000..1400].chunks(2).map(<[Vec<u8>]>::to_vec));
    groups
}

/// What every language shares, made once for the whole test binary: the cases, the keys
/// and groups files, and the lines each case's driver must print.
pub struct Shared {
    /// The directory every driver runs under.
    pub dir: PathBuf,
    /// The matrix.
    pub cases: Vec<Case>,
    /// The keys file.
    pub keys_path: PathBuf,
    /// The groups file.
    pub groups_path: PathBuf,
    keys: Vec<Vec<u8>>,
    groups: Vec<Vec<Vec<u8>>>,
    /// Per case: the slot, hashed bytes and explicit hashtag of each key, by the reference.
    reference: HashMap<&'static str, Answers>,
}

static SHARED: OnceLock<Shared> = OnceLock::new();

/// [`Shared`], its files under `tmp` (the test binary's `CARGO_TARGET_TMPDIR`), or `None`
/// (the language skips) when python3, which runs the reference, is missing.
#[must_use]
pub fn shared(tmp: &Path) -> Option<&'static Shared> {
    if !crate::require_tool("python3") {
        return None;
    }
    Some(SHARED.get_or_init(|| {
        let dir = fresh_dir(tmp, "harness");
        let cases = cases();
        let mut keys = keys();
        let groups = groups(&keys);
        // every key of a group is a key of the keys file too, with its reference answers
        for key in groups.iter().flatten() {
            if !keys.contains(key) {
                keys.push(key.clone());
            }
        }
        let keys_path = dir.join("keys.txt");
        let text: String = keys.iter().map(|k| hex::encode(k) + "\n").collect();
        std::fs::write(&keys_path, text).unwrap();
        let groups_path = dir.join("groups.txt");
        let text: String = groups
            .iter()
            .map(|g| {
                let keys: Vec<String> = g.iter().map(hex::encode).collect();
                format!("{}:{}\n", g.len(), keys.join(","))
            })
            .collect();
        std::fs::write(&groups_path, text).unwrap();
        let reference = reference(&cases, &keys_path);
        check_reference_against_redis(&reference["redis"], &keys);
        Shared {
            dir,
            cases,
            keys_path,
            groups_path,
            keys,
            groups,
            reference,
        }
    }))
}

type Answers = HashMap<Vec<u8>, (u32, Vec<u8>, Option<Vec<u8>>)>;

/// Every key's answers for every case, by `tests/drivers/reference.py`.
fn reference(cases: &[Case], keys_path: &Path) -> HashMap<&'static str, Answers> {
    let mut command = Command::new("python3");
    command
        .arg(crate::workspace_root().join("tests/drivers/reference.py"))
        .arg(keys_path);
    command.args(cases.iter().map(Case::reference_arg));
    let mut answers: HashMap<&'static str, Answers> = HashMap::new();
    for line in run(&mut command).lines() {
        let fields: Vec<&str> = line.split('\t').collect();
        let [name, key, slot, hashed, explicit] = fields[..] else {
            panic!("reference.py printed `{line}`");
        };
        let case = cases.iter().find(|c| c.name == name).unwrap().name;
        let explicit = (explicit != "-").then(|| hex::decode(explicit).unwrap());
        answers.entry(case).or_default().insert(
            hex::decode(key).unwrap(),
            (
                slot.parse().unwrap(),
                hex::decode(hashed).unwrap(),
                explicit,
            ),
        );
    }
    answers
}

/// The reference agrees with a real Redis server on every key: the answers stored in
/// `tests/data/` (`CLUSTER KEYSLOT` of Redis 7.0.15), and a live `redis-server`'s
/// `CLUSTER KEYSLOT` of every key of the keys file, asked now (skipped, or failed under
/// `SLOTGEN_REQUIRE_TOOLS=1`, without `redis-server`). Every module's Redis Cluster slots
/// are compared with the reference, so with the server's too.
fn check_reference_against_redis(answers: &Answers, keys: &[Vec<u8>]) {
    for vector in crate::redis_vectors() {
        assert_eq!(
            answers[&vector.key].0,
            u32::from(vector.slot),
            "reference.py disagrees with Redis on key {}",
            hex::encode(&vector.key)
        );
    }
    if !crate::require_tool("redis-server") {
        return;
    }
    let server = crate::redis_server::RedisServer::start(true).expect("redis-server starts");
    for (key, slot) in keys.iter().zip(server.keyslots(keys)) {
        assert_eq!(
            answers[key].0,
            u32::from(slot),
            "reference.py disagrees with CLUSTER KEYSLOT of a live redis-server on key {}",
            hex::encode(key)
        );
    }
}

impl Shared {
    /// The groups of keys for `same_slot` and `shared_hashtag`, in the groups file's order.
    #[must_use]
    pub fn groups(&self) -> &[Vec<Vec<u8>>] {
        &self.groups
    }

    /// A fresh directory for `language` and `case`.
    #[must_use]
    pub fn dir(&self, language: &str, case: &Case) -> PathBuf {
        fresh_dir(&self.dir, &format!("{language}-{}", case.name))
    }

    /// The lines `case`'s driver must print before its refusals, for a language that
    /// prints the key kinds `kinds` after `slot`.
    #[must_use]
    pub fn expected(&self, case: &Case, kinds: &[&str]) -> Vec<String> {
        let answers = &self.reference[case.name];
        let hex_tags = |slot: u32, n: usize| {
            case.tags(slot, n)
                .iter()
                .map(hex::encode)
                .collect::<Vec<_>>()
                .join(",")
        };
        let (first, last) = (case.first(), case.last());
        let mut lines = vec![format!(
            "const\t{first}\t{last}\t{}\t{}",
            case.slots(),
            case.tag_len()
        )];
        for slot in first..=last {
            lines.push(format!("tag\t{slot}\t{}", hex_tags(slot, 1)));
        }
        for slot in first..=last {
            lines.push(format!("tags\t{slot}\t{}", hex_tags(slot, FEW)));
        }
        for slot in [first, last] {
            lines.push(format!("deep\t{slot}\t{}", hex_tags(slot, case.deep)));
        }
        for slot in first..=last {
            lines.push(format!("key\t{slot}\t{}", hex::encode(case.key(slot))));
        }
        for kind in std::iter::once(&"slot").chain(kinds) {
            for key in &self.keys {
                if *kind == "str" && std::str::from_utf8(key).is_err() {
                    continue;
                }
                lines.push(format!("{kind}\t{}\t{}", hex::encode(key), answers[key].0));
            }
        }
        for key in &self.keys {
            lines.push(format!(
                "hashtag\t{}\t{}",
                hex::encode(key),
                hex::encode(&answers[key].1)
            ));
        }
        for (i, group) in self.groups.iter().enumerate() {
            let slots: Vec<u32> = group.iter().map(|k| answers[k].0).collect();
            let same = match slots.first() {
                Some(&s) if slots.iter().all(|&t| t == s) => s.to_string(),
                _ => "-".to_owned(),
            };
            lines.push(format!("same\t{i}\t{same}"));
        }
        for (i, group) in self.groups.iter().enumerate() {
            let tags: Vec<&Option<Vec<u8>>> = group.iter().map(|k| &answers[k].2).collect();
            let shared = match tags.first() {
                Some(Some(t)) if tags.iter().all(|u| u.as_ref() == Some(t)) => hex::encode(t),
                _ => "-".to_owned(),
            };
            lines.push(format!("shared\t{i}\t{shared}"));
        }
        lines
    }

    /// Checks `case`'s output of `language`: the expected lines in order, then every
    /// refusal.
    ///
    /// # Panics
    ///
    /// With the first difference.
    pub fn check(&self, language: &str, case: &Case, kinds: &[&str], output: &str) {
        let mut refusals = vec![
            ("tag_above", "out of range"),
            ("tag_below", "out of range"),
            ("tags_above", "out of range"),
            ("key_above", "out of range"),
        ];
        if let Some(fragment) = case.bad_fragment {
            refusals.push(("key_rule", fragment));
        }
        crate::emitted::check_output_with(
            &format!("{language}, case {}", case.name),
            output,
            &self.expected(case, kinds),
            &refusals,
        );
    }
}
