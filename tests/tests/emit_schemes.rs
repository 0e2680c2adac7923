//! The modules of every named scheme (`slotgen emit <language> --scheme NAME`), run by their
//! real interpreters and compilers: Python, Go, C (gcc), Lua 5.1, Lua 5.4 and
//! LuaJIT, Java, Ruby, PHP, Elixir, and the `EVAL` block and Functions library inside
//! `redis-server` and `valkey-server`.
//!
//! For each scheme, one process per language prints the answers of the driver protocol
//! below, and the test compares them: the tag of every slot, the first tags of every slot
//! and many of the first and last slot's (all of them where there are few), and the key of
//! every slot, against the Rust runtime ([`SchemeTable`] of
//! [`slotgen::scheme::invert::derive`]); and the slot of every key of a few thousand random
//! keys (with `{`, `}` and `:` among their bytes) against Python's own CRCs
//! (`zlib.crc32`, `binascii.crc_hqx` for CRC-16/XMODEM, and a bitwise CRC-32C without the
//! final xor for Tarantool), with each scheme's hashtag rule and slot formula written out
//! in the reference script from the systems' sources, not from slotgen's.
//!
//! The driver protocol, one answer a line, fields separated by tabs, bytes as lowercase hex;
//! a driver takes the module, the keys file (hex, one a line), the counts `few` and `deep`,
//! and the hex of a prefix, a suffix, a refused prefix and a refused suffix:
//!
//! - `const <first slot> <slots> <tag length>`, from the module's constants;
//! - `tag <slot> <tag>` for every slot, from `tag_for_slot`;
//! - `tags <slot> <tag>,...`: the first `few` tags of every slot, from `tags_for_slot`;
//! - `deep <slot> <tag>,...`: the first `deep` tags of the first and the last slot;
//! - `key <slot> <key>` for every slot, from `key_for_slot(prefix, slot, suffix)`;
//! - `slot <key> <slot>` for every key;
//! - `refused <case> <message>` (or `accepted <case> <value>`) for `tag_above`
//!   (`tag_for_slot(last + 1)`), `tag_below` (`tag_for_slot(first - 1)`), `tags_above`,
//!   `key_above` and `key_rule` (`key_for_slot` of the refused prefix and suffix: a prefix
//!   with the opening delimiter, or any prefix where the whole key is hashed).
//!
//! Each language is skipped with a message when its program is missing, unless
//! `SLOTGEN_REQUIRE_TOOLS=1`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use slotgen::emit;
use slotgen::scheme::invert::{derive, SchemeDerivation, SchemeSpec};
use slotgen_tables::{SchemeName, SchemeTable, MAX_TAG_LEN};
use slotgen_tests::emitted::{check_output_with, fresh_dir, gcc_strict, go_command as go, run};
use slotgen_tests::redis_server::RedisServer;
use slotgen_tests::require_tool;

/// Tags of every slot the drivers print.
const FEW: usize = 3;

/// Below this many tags a slot, `deep` lists all of them, and one more is asked for.
const ALL_TAGS_BELOW: u64 = 25_000;

/// One scheme the modules are run for.
struct Case {
    /// A short name, for directories, module names and messages: `[a-z0-9_]`.
    name: &'static str,
    derivation: SchemeDerivation,
    /// The affixes of the `key` lines.
    prefix: Vec<u8>,
    suffix: Vec<u8>,
    /// The affixes of the `key_rule` refusal, and a piece of its message.
    bad_prefix: Vec<u8>,
    bad_suffix: Vec<u8>,
    bad_fragment: &'static str,
    /// How many tags the `deep` lines list.
    deep: usize,
}

impl Case {
    fn new(
        name: &'static str,
        scheme: SchemeName,
        slots: Option<u32>,
        hash_tag: Option<&[u8; 2]>,
    ) -> Self {
        Self::of(
            name,
            SchemeSpec {
                slots,
                hash_tag: hash_tag.copied(),
                ..SchemeSpec::new(scheme)
            },
        )
    }

    fn of(name: &'static str, spec: SchemeSpec) -> Self {
        let derivation = derive(&spec).unwrap_or_else(|e| panic!("{name}: {e}"));
        let table = derivation.table();
        let (prefix, suffix, bad_prefix, bad_fragment) =
            match derivation.scheme.hashtag().delimiters() {
                None => (vec![], vec![], b"user:".to_vec(), "hashes the whole key"),
                Some([open, _]) => (
                    b"user/".to_vec(),
                    b"/profile".to_vec(),
                    vec![b'a', open, b'b'],
                    "prefix contains",
                ),
            };
        let last = derivation.scheme.offset() + (derivation.scheme.slots() - 1);
        let total = table.tags_per_slot(last);
        let deep = if total < ALL_TAGS_BELOW {
            usize::try_from(total).unwrap() + 1
        } else {
            (1usize << derivation.kernel.len()) + 3
        };
        Self {
            name,
            derivation,
            prefix,
            suffix,
            bad_prefix,
            bad_suffix: vec![],
            bad_fragment,
            deep,
        }
    }

    fn table(&self) -> SchemeTable<'_, MAX_TAG_LEN> {
        self.derivation.table()
    }

    fn first(&self) -> u32 {
        self.derivation.scheme.offset()
    }

    fn last(&self) -> u32 {
        self.first() + (self.derivation.scheme.slots() - 1)
    }

    /// The arguments of a driver after the module: keys file, `few`, `deep`, affixes.
    fn driver_args(&self, keys: &Path) -> Vec<String> {
        vec![
            keys.display().to_string(),
            FEW.to_string(),
            self.deep.to_string(),
            hex::encode(&self.prefix),
            hex::encode(&self.suffix),
            hex::encode(&self.bad_prefix),
            hex::encode(&self.bad_suffix),
        ]
    }
}

/// Every named scheme: Redis Cluster over 1024 slots through the scheme path (CRC-16, a
/// mask), Codis and Couchbase at their 1024 slots (low bits), Tarantool vshard's 3000
/// buckets from 1 (the whole value, CRC-32C), librdkafka over 12 partitions, twemproxy's
/// crc32a over 3 servers without and with `hash_tag: "{}"`, crc32 (a 15-bit value) over 3
/// servers with `hash_tag: "::"`, whose every tag of a slot is listed, librdkafka over one
/// partition, where nothing is solved for (no columns) and every tag lands on it, and Codis
/// with the 32 symbols `\x80` to `\x9f` (bytes that are no ASCII, one tag a slot).
fn cases() -> Vec<Case> {
    vec![
        Case::new("redis", SchemeName::RedisCluster, Some(1024), None),
        Case::new("codis", SchemeName::Codis, None, None),
        Case::new("couchbase", SchemeName::Couchbase, None, None),
        Case::new("tarantool", SchemeName::TarantoolVshard, None, None),
        Case::new("kafka", SchemeName::Librdkafka, Some(12), None),
        Case::new("twem_a", SchemeName::TwemproxyCrc32a, Some(3), None),
        Case::new(
            "twem_a_tag",
            SchemeName::TwemproxyCrc32a,
            Some(3),
            Some(b"{}"),
        ),
        Case::new("twem_tag", SchemeName::TwemproxyCrc32, Some(3), Some(b"::")),
        Case::new("kafka_one", SchemeName::Librdkafka, Some(1), None),
        Case::of(
            "codis_high",
            SchemeSpec {
                alphabet: (0x80..0xa0).collect(),
                ..SchemeSpec::new(SchemeName::Codis)
            },
        ),
    ]
}

/// 3000 keys: pinned edge cases of every hashtag rule, then seeded random keys of 0 to 20
/// bytes, half of their bytes from `{}:` and lowercase letters.
fn keys() -> Vec<Vec<u8>> {
    let mut keys: Vec<Vec<u8>> = [
        &b""[..],
        b"123456789",
        b"{}",
        b"a{}b",
        b"{}{a}",
        b"{a}",
        b"a{b",
        b"a}b{",
        b"{{a}}",
        b"foo{bar}{zap}",
        b"::",
        b"a::b",
        b"a:b:c",
        b":a",
        b"{:a:}",
        b"\xff\x80{\xfe}",
    ]
    .iter()
    .map(|k| k.to_vec())
    .collect();
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

/// Prints `<case> <key hex> <slot>` for every case `name:scheme:slots:hash_tag_hex` of the
/// arguments after the keys file, with each system's CRC and hashtag rule written here from
/// the systems' sources, not from slotgen's.
const REFERENCE: &str = r#"
import binascii, sys, zlib

def crc32c_no_final_xor(data):
    # Tarantool's digest.crc32: CRC-32C (Castagnoli, reflected polynomial 0x82f63b78),
    # initial value 0xffffffff, no final xor.
    crc = 0xFFFFFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 if crc & 1 else 0)
    return crc

def between(key, open_, close):
    start = key.find(open_)
    if start < 0:
        return None
    end = key.find(close, start + 1)
    return None if end < 0 else key[start + 1:end]

def redis_rule(key):  # cluster.c keyHashSlot: an empty {} hashes the whole key
    tag = between(key, b"{", b"}")
    return tag if tag else key

def codis_rule(key):  # codis hashSlot: {} hashes the empty string
    tag = between(key, b"{", b"}")
    return key if tag is None else tag

def twemproxy_rule(hash_tag):  # nc_request: an empty tag hashes the whole key
    if not hash_tag:
        return lambda key: key
    def rule(key):
        tag = between(key, hash_tag[:1], hash_tag[1:])
        return tag if tag else key
    return rule

whole = lambda key: key
# name: (rule, crc, shift, mask, offset); slot = ((crc >> shift) & mask) % slots + offset
SCHEMES = {
    "redis-cluster": (lambda tag: redis_rule, lambda d: binascii.crc_hqx(d, 0), 0, 0xFFFF, 0),
    "codis": (lambda tag: codis_rule, zlib.crc32, 0, 0xFFFFFFFF, 0),
    "couchbase": (lambda tag: whole, zlib.crc32, 16, 0x7FFF, 0),
    "tarantool-vshard": (lambda tag: whole, crc32c_no_final_xor, 0, 0xFFFFFFFF, 1),
    "librdkafka": (lambda tag: whole, zlib.crc32, 0, 0xFFFFFFFF, 0),
    "twemproxy-crc32a": (twemproxy_rule, zlib.crc32, 0, 0xFFFFFFFF, 0),
    "twemproxy-crc32": (twemproxy_rule, zlib.crc32, 16, 0x7FFF, 0),
}

assert crc32c_no_final_xor(b"123456789") == 0x1CF96D7C  # its check value
with open(sys.argv[1]) as f:
    keys = [bytes.fromhex(line.strip()) for line in f]
out = []
for case in sys.argv[2:]:
    name, scheme, slots, hash_tag = case.split(":")
    rule, crc, shift, mask, offset = SCHEMES[scheme]
    rule = rule(bytes.fromhex(hash_tag))
    for key in keys:
        slot = ((crc(rule(key)) >> shift) & mask) % int(slots) + offset
        out.append(f"{name}\t{key.hex()}\t{slot}")
print("\n".join(out))
"#;

/// The slot of every key for every case, by [`REFERENCE`].
fn reference_slots(
    dir: &Path,
    cases: &[Case],
    keys_path: &Path,
) -> HashMap<&'static str, Vec<String>> {
    std::fs::write(dir.join("reference.py"), REFERENCE).unwrap();
    let mut command = Command::new("python3");
    command.arg(dir.join("reference.py")).arg(keys_path);
    for case in cases {
        let spec = &case.derivation.spec;
        command.arg(format!(
            "{}:{}:{}:{}",
            case.name,
            spec.name.name(),
            case.derivation.scheme.slots(),
            spec.hash_tag.map_or(String::new(), hex::encode)
        ));
    }
    let mut slots: HashMap<&'static str, Vec<String>> = HashMap::new();
    for line in run(&mut command).lines() {
        let (name, rest) = line.split_once('\t').unwrap();
        let case = cases.iter().find(|c| c.name == name).unwrap();
        slots
            .entry(case.name)
            .or_default()
            .push(format!("slot\t{rest}"));
    }
    slots
}

/// The lines a driver must print before its refusals: from the runtime, then `slots`.
fn expected_lines(case: &Case, slots: &[String]) -> Vec<String> {
    let table = case.table();
    let hex_tags = |slot: u32, n: usize| {
        table
            .tags_for_slot(slot)
            .unwrap()
            .take(n)
            .map(hex::encode)
            .collect::<Vec<_>>()
            .join(",")
    };
    let (first, last) = (case.first(), case.last());
    let mut lines = vec![format!(
        "const\t{first}\t{}\t{}",
        case.derivation.scheme.slots(),
        case.derivation.tag_len
    )];
    for slot in first..=last {
        lines.push(format!(
            "tag\t{slot}\t{}",
            hex::encode(table.tag_for_slot(slot).unwrap())
        ));
    }
    for slot in first..=last {
        lines.push(format!("tags\t{slot}\t{}", hex_tags(slot, FEW)));
    }
    for slot in [first, last] {
        lines.push(format!("deep\t{slot}\t{}", hex_tags(slot, case.deep)));
    }
    for slot in first..=last {
        let key = table
            .key_for_slot(&case.prefix, slot, &case.suffix)
            .unwrap();
        lines.push(format!("key\t{slot}\t{}", hex::encode(key)));
    }
    lines.extend(slots.iter().cloned());
    lines
}

/// Checks a driver's output: the expected lines in order, then every refusal.
fn check_output(what: &str, case: &Case, output: &str, expected: &[String]) {
    check_output_with(
        what,
        output,
        expected,
        &[
            ("tag_above", "out of range"),
            ("tag_below", "out of range"),
            ("tags_above", "out of range"),
            ("key_above", "out of range"),
            ("key_rule", case.bad_fragment),
        ],
    );
}

/// What every language's test shares, made once for the whole test binary: the cases,
/// the keys file and the lines each case's driver must print.
struct Shared {
    dir: PathBuf,
    cases: Vec<Case>,
    keys_path: PathBuf,
    expected: HashMap<&'static str, Vec<String>>,
}

static SHARED: OnceLock<Shared> = OnceLock::new();

/// [`Shared`], or `None` (the language skips) when `tools` or python3 (for the reference)
/// are missing.
fn setup(tools: &[&str]) -> Option<&'static Shared> {
    if !tools.iter().chain(&["python3"]).all(|t| require_tool(t)) {
        return None;
    }
    Some(SHARED.get_or_init(|| {
        let dir = fresh_dir(Path::new(env!("CARGO_TARGET_TMPDIR")), "schemes");
        let cases = cases();
        let keys_path = dir.join("keys.txt");
        let text: String = keys().iter().map(|k| hex::encode(k) + "\n").collect();
        std::fs::write(&keys_path, text).unwrap();
        let slots = reference_slots(&dir, &cases, &keys_path);
        let expected = cases
            .iter()
            .map(|c| (c.name, expected_lines(c, &slots[c.name])))
            .collect();
        Shared {
            dir,
            cases,
            keys_path,
            expected,
        }
    }))
}

impl Shared {
    /// A fresh directory for `language` and `case`.
    fn dir(&self, language: &str, case: &Case) -> PathBuf {
        fresh_dir(&self.dir, &format!("{language}-{}", case.name))
    }

    /// Checks one case's output of `language`.
    fn check(&self, language: &str, case: &Case, output: &str) {
        check_output(
            &format!("{language}, scheme case {}", case.name),
            case,
            output,
            &self.expected[case.name],
        );
    }
}

/// The Go driver: `go run`-less, one binary for every case's package, the case named by
/// `os.Args[1]`; `{{imports}}` and `{{modules}}` are filled per test run. A refusal counts
/// only when its error wraps the package's sentinel.
const GO_DRIVER: &str = r#"package main

import (
	"bufio"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
{{imports}}
)

type module struct {
	first, slots uint32
	tagLen       int
	tagForSlot   func(uint32) ([]byte, error)
	tagsForSlot  func(uint32) (func(func([]byte) bool), error)
	keyForSlot   func([]byte, uint32, []byte) ([]byte, error)
	slot         func([]byte) uint32
	outOfRange   error
	keyRule      error
}

var modules = map[string]module{
{{modules}}
}

func unhex(h string) []byte {
	b, err := hex.DecodeString(h)
	if err != nil {
		panic(err)
	}
	return b
}

func main() {
	m := modules[os.Args[1]]
	few, _ := strconv.Atoi(os.Args[3])
	deep, _ := strconv.Atoi(os.Args[4])
	prefix, suffix, badPrefix, badSuffix := unhex(os.Args[5]), unhex(os.Args[6]), unhex(os.Args[7]), unhex(os.Args[8])
	last := m.first + m.slots - 1
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	fmt.Fprintf(w, "const\t%d\t%d\t%d\n", m.first, m.slots, m.tagLen)
	for s := m.first; s <= last; s++ {
		tag, err := m.tagForSlot(s)
		if err != nil {
			panic(err)
		}
		fmt.Fprintf(w, "tag\t%d\t%x\n", s, tag)
	}
	take := func(s uint32, n int) string {
		tags, err := m.tagsForSlot(s)
		if err != nil {
			panic(err)
		}
		var hexes []string
		tags(func(tag []byte) bool {
			if len(hexes) == n {
				return false
			}
			hexes = append(hexes, hex.EncodeToString(tag))
			return true
		})
		return strings.Join(hexes, ",")
	}
	for s := m.first; s <= last; s++ {
		fmt.Fprintf(w, "tags\t%d\t%s\n", s, take(s, few))
	}
	for _, s := range []uint32{m.first, last} {
		fmt.Fprintf(w, "deep\t%d\t%s\n", s, take(s, deep))
	}
	for s := m.first; s <= last; s++ {
		key, err := m.keyForSlot(prefix, s, suffix)
		if err != nil {
			panic(err)
		}
		fmt.Fprintf(w, "key\t%d\t%x\n", s, key)
	}
	data, err := os.ReadFile(os.Args[2])
	if err != nil {
		panic(err)
	}
	for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		fmt.Fprintf(w, "slot\t%s\t%d\n", line, m.slot(unhex(line)))
	}
	refusal := func(name string, err error, sentinel error) {
		switch {
		case err == nil:
			fmt.Fprintf(w, "accepted\t%s\t\n", name)
		case errors.Is(err, sentinel):
			fmt.Fprintf(w, "refused\t%s\t%s\n", name, err)
		default:
			fmt.Fprintf(w, "accepted\t%s\twrong error: %s\n", name, err)
		}
	}
	_, err = m.tagForSlot(last + 1)
	refusal("tag_above", err, m.outOfRange)
	_, err = m.tagForSlot(m.first - 1)
	refusal("tag_below", err, m.outOfRange)
	_, err = m.tagsForSlot(last + 1)
	refusal("tags_above", err, m.outOfRange)
	_, err = m.keyForSlot(prefix, last+1, suffix)
	refusal("key_above", err, m.outOfRange)
	_, err = m.keyForSlot(badPrefix, m.first, badSuffix)
	refusal("key_rule", err, m.keyRule)
}
"#;

/// Every case's package in one module, `gofmt`-clean and `go vet`-clean, built once into
/// one driver.
#[test]
fn go_scheme_packages() {
    let Some(setup) = setup(&["go"]) else {
        return;
    };
    let dir = fresh_dir(&setup.dir, "go");
    let (mut imports, mut modules) = (String::new(), String::new());
    for case in &setup.cases {
        std::fs::create_dir(dir.join(case.name)).unwrap();
        let source = emit::go::scheme_package(&case.derivation, case.name).unwrap();
        std::fs::write(dir.join(case.name).join("slotgen.go"), source).unwrap();
        let n = case.name;
        let key_rule = match case.derivation.scheme.hashtag().delimiters() {
            None => "ErrWholeKeyHashed",
            Some(_) => "ErrPrefixHasDelimiter",
        };
        imports += &format!("\t\"slotgentest/{n}\"\n");
        modules += &format!(
            "\t\"{n}\": {{{n}.FirstSlot, {n}.Slots, {n}.TagLen, {n}.TagForSlot, {n}.TagsForSlot, {n}.KeyForSlot, {n}.Slot, {n}.ErrSlotOutOfRange, {n}.{key_rule}}},\n"
        );
    }
    let driver = GO_DRIVER
        .replace("{{imports}}", &imports)
        .replace("{{modules}}", &modules);
    std::fs::write(dir.join("main.go"), driver).unwrap();
    std::fs::write(dir.join("go.mod"), "module slotgentest\n\ngo 1.19\n").unwrap();
    let names: Vec<String> = setup
        .cases
        .iter()
        .map(|c| format!("./{}", c.name))
        .collect();
    let unformatted = run(go(&dir).arg("fmt").args(&names));
    assert_eq!(unformatted, "", "the emitted packages are not gofmt-clean");
    let _ = run(go(&dir).args(["vet", "./..."]));
    let _ = run(go(&dir).args(["build", "-o", "driver", "."]));
    for case in &setup.cases {
        let output = run(Command::new(dir.join("driver"))
            .arg(case.name)
            .args(case.driver_args(&setup.keys_path)));
        setup.check("Go", case, &output);
    }
}

/// The C driver of one header, as a function `slotgen_run`; every case's copy is renamed
/// with its header's prefix, and one `main` calls the case named by `argv[1]`.
const C_DRIVER: &str = r#"
static void slotgen_print_tags(unsigned long s, unsigned long long n) {
    unsigned char tag[SLOTGEN_TAG_LEN];
    unsigned long long i;
    for (i = 0; i < n && slotgen_tags_for_slot(s, i, tag) == SLOTGEN_OK; i++) {
        if (i != 0) {
            putchar(',');
        }
        print_hex(tag, SLOTGEN_TAG_LEN);
    }
}

static int slotgen_run(char **argv) {
    static char line[8192];
    static unsigned char key[4096];
    unsigned char tag[SLOTGEN_TAG_LEN];
    unsigned char prefix[64], suffix[64], bad_prefix[64], bad_suffix[64];
    size_t prefix_len = unhex(argv[5], prefix), suffix_len = unhex(argv[6], suffix);
    size_t bad_prefix_len = unhex(argv[7], bad_prefix), bad_suffix_len = unhex(argv[8], bad_suffix);
    unsigned long long few = strtoull(argv[3], NULL, 10), deep = strtoull(argv[4], NULL, 10);
    unsigned long s, ends[2];
    size_t len, e;
    FILE *keys = fopen(argv[2], "r");
    if (keys == NULL) {
        return 2;
    }
    printf("const\t%lu\t%lu\t%u\n", SLOTGEN_FIRST_SLOT, SLOTGEN_SLOTS, SLOTGEN_TAG_LEN);
    for (s = SLOTGEN_FIRST_SLOT; s <= SLOTGEN_LAST_SLOT; s++) {
        if (slotgen_tag_for_slot(s, tag) != SLOTGEN_OK) {
            return 1;
        }
        printf("tag\t%lu\t", s);
        print_hex(tag, SLOTGEN_TAG_LEN);
        putchar('\n');
    }
    for (s = SLOTGEN_FIRST_SLOT; s <= SLOTGEN_LAST_SLOT; s++) {
        printf("tags\t%lu\t", s);
        slotgen_print_tags(s, few);
        putchar('\n');
    }
    ends[0] = SLOTGEN_FIRST_SLOT;
    ends[1] = SLOTGEN_LAST_SLOT;
    for (e = 0; e < 2; e++) {
        printf("deep\t%lu\t", ends[e]);
        slotgen_print_tags(ends[e], deep);
        putchar('\n');
    }
    for (s = SLOTGEN_FIRST_SLOT; s <= SLOTGEN_LAST_SLOT; s++) {
        if (slotgen_key_for_slot(prefix, prefix_len, s, suffix, suffix_len, key, sizeof key, &len) != SLOTGEN_OK) {
            return 1;
        }
        printf("key\t%lu\t", s);
        print_hex(key, len);
        putchar('\n');
    }
    while (fgets(line, sizeof line, keys) != NULL) {
        line[strcspn(line, "\n")] = '\0';
        len = unhex(line, key);
        printf("slot\t%s\t%lu\n", line, slotgen_slot(key, len));
    }
    refusal("tag_above", slotgen_tag_for_slot(SLOTGEN_LAST_SLOT + 1, tag), slotgen_strerror);
    refusal("tag_below", slotgen_tag_for_slot(SLOTGEN_FIRST_SLOT - 1, tag), slotgen_strerror);
    refusal("tags_above", slotgen_tags_for_slot(SLOTGEN_LAST_SLOT + 1, 0, tag), slotgen_strerror);
    refusal("key_above", slotgen_key_for_slot(prefix, prefix_len, SLOTGEN_LAST_SLOT + 1, suffix, suffix_len, key, sizeof key, &len), slotgen_strerror);
    refusal("key_rule", slotgen_key_for_slot(bad_prefix, bad_prefix_len, SLOTGEN_FIRST_SLOT, bad_suffix, bad_suffix_len, key, sizeof key, &len), slotgen_strerror);
    refusal("buffer_small", slotgen_key_for_slot(prefix, prefix_len, SLOTGEN_FIRST_SLOT, suffix, suffix_len, key, SLOTGEN_TAG_LEN - 1, &len), slotgen_strerror);
    refusal("null_tag", slotgen_tag_for_slot(SLOTGEN_FIRST_SLOT, NULL), slotgen_strerror);
    fclose(keys);
    return 0;
}

"#;

/// What every case's C driver shares.
const C_COMMON: &str = r#"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void print_hex(const unsigned char *bytes, size_t len) {
    size_t i;
    for (i = 0; i < len; i++) {
        printf("%02x", bytes[i]);
    }
}

static size_t unhex(const char *text, unsigned char *out) {
    size_t i, len = strlen(text) / 2;
    for (i = 0; i < len; i++) {
        unsigned value;
        sscanf(text + 2 * i, "%2x", &value);
        out[i] = (unsigned char)value;
    }
    return len;
}

static void refusal(const char *name, int status, const char *(*message)(int)) {
    if (status != 0) {
        printf("refused\t%s\t%s\n", name, message(status));
    } else {
        printf("accepted\t%s\t\n", name);
    }
}
"#;

/// Every case's header (`--name` its case) in one program, compiled once by gcc under
/// `-std=c99 -Wall -Wextra -Werror -pedantic` with the address and undefined-behaviour
/// sanitizers.
#[test]
fn c_scheme_headers() {
    let Some(setup) = setup(&["gcc"]) else {
        return;
    };
    let dir = fresh_dir(&setup.dir, "c");
    let mut program = String::new();
    let mut includes = String::from(C_COMMON);
    let mut dispatch = String::new();
    for case in &setup.cases {
        let header = emit::c::scheme_header(&case.derivation, case.name).unwrap();
        std::fs::write(dir.join(format!("{}.h", case.name)), header).unwrap();
        includes += &format!("#include \"{}.h\"\n", case.name);
        let upper = case.name.to_ascii_uppercase();
        program += &C_DRIVER
            .replace("slotgen_", &format!("{}_", case.name))
            .replace("SLOTGEN_", &format!("{upper}_"));
        dispatch += &format!(
            "    if (strcmp(argv[1], \"{0}\") == 0) {{\n        return {0}_run(argv);\n    }}\n",
            case.name
        );
    }
    let program = format!(
        "{includes}{}\nint main(int argc, char **argv) {{\n    if (argc != 9) {{\n        return 2;\n    }}\n{dispatch}    return 2;\n}}\n",
        program.replace("slotgen_print_tags", "print_tags_")
    );
    std::fs::write(dir.join("driver.c"), program).unwrap();
    let _ = run(gcc_strict()
        .arg("-o")
        .arg(dir.join("driver"))
        .arg(dir.join("driver.c")));
    for case in &setup.cases {
        let output = run(Command::new(dir.join("driver"))
            .arg(case.name)
            .args(case.driver_args(&setup.keys_path)));
        setup.check("C", case, &output);
        for (name, fragment) in [("buffer_small", "pass a buffer"), ("null_tag", "is NULL")] {
            assert!(
                output
                    .lines()
                    .any(|l| l.starts_with(&format!("refused\t{name}\t")) && l.contains(fragment)),
                "C, scheme case {}: `{name}` must be refused with `{fragment}`",
                case.name
            );
        }
    }
}

/// Prints the driver protocol for the module `arg[1]`.
const LUA_DRIVER: &str = r#"
local M = dofile(arg[1])
local keys_path, few, deep = arg[2], tonumber(arg[3]), tonumber(arg[4])
local function unhex(h)
    return (h:gsub("..", function(x) return string.char(tonumber(x, 16)) end))
end
local function hex(s)
    return (s:gsub(".", function(c) return string.format("%02x", c:byte()) end))
end
local prefix, suffix, bad_prefix, bad_suffix = unhex(arg[5]), unhex(arg[6]), unhex(arg[7]), unhex(arg[8])
local out = {}
local function emit(...) out[#out + 1] = table.concat({ ... }, "\t") end
local function take(s, n)
    local tags = {}
    if n == 0 then return "" end
    for tag in M.tags_for_slot(s) do
        tags[#tags + 1] = hex(tag)
        if #tags == n then break end
    end
    return table.concat(tags, ",")
end
emit("const", M.first_slot, M.slots, M.tag_len)
for s = M.first_slot, M.last_slot do emit("tag", s, hex(M.tag_for_slot(s))) end
for s = M.first_slot, M.last_slot do emit("tags", s, take(s, few)) end
for _, s in ipairs({ M.first_slot, M.last_slot }) do emit("deep", s, take(s, deep)) end
for s = M.first_slot, M.last_slot do emit("key", s, hex(M.key_for_slot(prefix, s, suffix))) end
for line in io.lines(keys_path) do emit("slot", line, M.slot(unhex(line))) end
local function refusal(case, value, message)
    if value == nil then emit("refused", case, message)
    else emit("accepted", case, tostring(value)) end
end
refusal("tag_above", M.tag_for_slot(M.last_slot + 1))
refusal("tag_below", M.tag_for_slot(M.first_slot - 1))
refusal("tags_above", M.tags_for_slot(M.last_slot + 1))
refusal("key_above", M.key_for_slot(prefix, M.last_slot + 1, suffix))
refusal("key_rule", M.key_for_slot(bad_prefix, M.first_slot, bad_suffix))
io.write(table.concat(out, "\n"), "\n")
"#;

/// The module on Lua 5.1, Lua 5.4 and LuaJIT, each that is installed.
#[test]
fn lua_scheme_modules() {
    let Some(setup) = setup(&[]) else {
        return;
    };
    for lua in ["lua5.1", "lua5.4", "luajit"] {
        if !require_tool(lua) {
            continue;
        }
        for case in &setup.cases {
            let dir = setup.dir(lua, case);
            let module = emit::lua::scheme_module(&case.derivation).unwrap();
            std::fs::write(dir.join("slotgen.lua"), module).unwrap();
            std::fs::write(dir.join("driver.lua"), LUA_DRIVER).unwrap();
            let output = run(Command::new(lua)
                .arg(dir.join("driver.lua"))
                .arg(dir.join("slotgen.lua"))
                .args(case.driver_args(&setup.keys_path)));
            setup.check(lua, case, &output);
        }
    }
}

/// The Java driver: every case's class `<case>.Slots`, the case named by `args[0]`;
/// `{{modules}}` is filled per test run.
const JAVA_DRIVER: &str = r#"
import java.io.BufferedWriter;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.Map;
import java.util.function.LongFunction;
import java.util.function.ToLongFunction;
import java.util.stream.Collectors;
import java.util.stream.Stream;

public final class Driver {
    interface Key {
        byte[] apply(byte[] prefix, long slot, byte[] suffix);
    }

    static final class Module {
        final long first, slots;
        final int tagLen;
        final LongFunction<byte[]> tag;
        final LongFunction<Stream<byte[]>> tags;
        final Key key;
        final ToLongFunction<byte[]> slot;

        Module(long first, long slots, int tagLen, LongFunction<byte[]> tag,
                LongFunction<Stream<byte[]>> tags, Key key, ToLongFunction<byte[]> slot) {
            this.first = first;
            this.slots = slots;
            this.tagLen = tagLen;
            this.tag = tag;
            this.tags = tags;
            this.key = key;
            this.slot = slot;
        }
    }

    static final Map<String, Module> MODULES = Map.of(
{{modules}}
    );

    private static final char[] DIGITS = "0123456789abcdef".toCharArray();

    static String hex(byte[] bytes) {
        char[] out = new char[bytes.length * 2];
        for (int i = 0; i < bytes.length; i++) {
            out[2 * i] = DIGITS[(bytes[i] >> 4) & 0xf];
            out[2 * i + 1] = DIGITS[bytes[i] & 0xf];
        }
        return new String(out);
    }

    static byte[] unhex(String text) {
        byte[] out = new byte[text.length() / 2];
        for (int i = 0; i < out.length; i++) {
            out[i] = (byte) Integer.parseInt(text.substring(2 * i, 2 * i + 2), 16);
        }
        return out;
    }

    interface Call {
        Object run();
    }

    static void refusal(PrintWriter out, String name, Call call) {
        try {
            out.println("accepted\t" + name + "\t" + call.run());
        } catch (IllegalArgumentException e) {
            out.println("refused\t" + name + "\t" + e.getMessage());
        }
    }

    public static void main(String[] args) throws Exception {
        Module m = MODULES.get(args[0]);
        int few = Integer.parseInt(args[2]), deep = Integer.parseInt(args[3]);
        byte[] prefix = unhex(args[4]), suffix = unhex(args[5]), badPrefix = unhex(args[6]), badSuffix = unhex(args[7]);
        long last = m.first + m.slots - 1;
        PrintWriter out = new PrintWriter(new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.US_ASCII)));
        out.println("const\t" + m.first + "\t" + m.slots + "\t" + m.tagLen);
        for (long s = m.first; s <= last; s++) {
            out.println("tag\t" + s + "\t" + hex(m.tag.apply(s)));
        }
        for (long s = m.first; s <= last; s++) {
            out.println("tags\t" + s + "\t" + m.tags.apply(s).limit(few).map(Driver::hex).collect(Collectors.joining(",")));
        }
        for (long s : new long[] {m.first, last}) {
            out.println("deep\t" + s + "\t" + m.tags.apply(s).limit(deep).map(Driver::hex).collect(Collectors.joining(",")));
        }
        for (long s = m.first; s <= last; s++) {
            out.println("key\t" + s + "\t" + hex(m.key.apply(prefix, s, suffix)));
        }
        for (String k : Files.readAllLines(Paths.get(args[1]))) {
            out.println("slot\t" + k + "\t" + m.slot.applyAsLong(unhex(k)));
        }
        refusal(out, "tag_above", () -> m.tag.apply(last + 1));
        refusal(out, "tag_below", () -> m.tag.apply(m.first - 1));
        refusal(out, "tags_above", () -> m.tags.apply(last + 1));
        refusal(out, "key_above", () -> m.key.apply(prefix, last + 1, suffix));
        refusal(out, "key_rule", () -> m.key.apply(badPrefix, m.first, badSuffix));
        out.flush();
    }
}
"#;

/// Every case's class in its own package, compiled once by `javac --release 11 -Xlint:all
/// -Werror` with one driver.
#[test]
fn java_scheme_classes() {
    let Some(setup) = setup(&["javac", "java"]) else {
        return;
    };
    let dir = fresh_dir(&setup.dir, "java");
    let mut files = vec![dir.join("Driver.java")];
    let mut modules = Vec::new();
    for case in &setup.cases {
        let n = case.name;
        let class = emit::java::scheme_class(&case.derivation, &format!("{n}.Slots")).unwrap();
        std::fs::create_dir(dir.join(n)).unwrap();
        std::fs::write(dir.join(n).join("Slots.java"), class).unwrap();
        files.push(dir.join(n).join("Slots.java"));
        modules.push(format!(
            "        \"{n}\", new Module({n}.Slots.FIRST_SLOT, {n}.Slots.SLOTS, {n}.Slots.TAG_LEN, {n}.Slots::tagForSlot, {n}.Slots::tagsForSlot, {n}.Slots::keyForSlot, {n}.Slots::slot)"
        ));
    }
    let driver = JAVA_DRIVER.replace("{{modules}}", &modules.join(",\n"));
    std::fs::write(dir.join("Driver.java"), driver).unwrap();
    let _ = run(Command::new("javac")
        .args(["--release", "11", "-Xlint:all", "-Werror", "-d"])
        .arg(dir.join("classes"))
        .args(&files));
    for case in &setup.cases {
        let output = run(Command::new("java")
            .arg("-cp")
            .arg(dir.join("classes"))
            .arg("Driver")
            .arg(case.name)
            .args(case.driver_args(&setup.keys_path)));
        setup.check("Java", case, &output);
    }
}

/// Prints the driver protocol for the module `Slots` in the file `ARGV[0]`.
const RUBY_DRIVER: &str = r#"
require_relative ARGV[0]
def hex(s) = s.unpack1("H*")
def unhex(h) = [h].pack("H*")
keys_path, few, deep = ARGV[1], ARGV[2].to_i, ARGV[3].to_i
prefix, suffix, bad_prefix, bad_suffix = ARGV[4, 4].map { |h| unhex(h) }
slots = Slots::FIRST_SLOT..Slots::LAST_SLOT
out = ["const\t#{Slots::FIRST_SLOT}\t#{Slots::SLOTS}\t#{Slots::TAG_LEN}"]
take = ->(s, n) { Slots.tags_for_slot(s).first(n).map { |t| hex(t) }.join(",") }
slots.each { |s| out << "tag\t#{s}\t#{hex(Slots.tag_for_slot(s))}" }
slots.each { |s| out << "tags\t#{s}\t#{take.(s, few)}" }
[Slots::FIRST_SLOT, Slots::LAST_SLOT].each { |s| out << "deep\t#{s}\t#{take.(s, deep)}" }
slots.each { |s| out << "key\t#{s}\t#{hex(Slots.key_for_slot(prefix, s, suffix))}" }
File.readlines(keys_path, chomp: true).each { |k| out << "slot\t#{k}\t#{Slots.slot(unhex(k))}" }
def refusal(out, name)
  value = yield
  out << "accepted\t#{name}\t#{value.inspect}"
rescue ArgumentError => e
  out << "refused\t#{name}\t#{e.message}"
end
refusal(out, "tag_above") { Slots.tag_for_slot(Slots::LAST_SLOT + 1) }
refusal(out, "tag_below") { Slots.tag_for_slot(Slots::FIRST_SLOT - 1) }
refusal(out, "tags_above") { Slots.tags_for_slot(Slots::LAST_SLOT + 1) }
refusal(out, "key_above") { Slots.key_for_slot(prefix, Slots::LAST_SLOT + 1, suffix) }
refusal(out, "key_rule") { Slots.key_for_slot(bad_prefix, Slots::FIRST_SLOT, bad_suffix) }
$stdout.write(out.join("\n"), "\n")
"#;

/// The module under `ruby -w`, which must stay silent.
#[test]
fn ruby_scheme_modules() {
    let Some(setup) = setup(&["ruby"]) else {
        return;
    };
    for case in &setup.cases {
        let dir = setup.dir("ruby", case);
        let module = emit::ruby::scheme_module(&case.derivation, "Slots").unwrap();
        std::fs::write(dir.join("slots.rb"), module).unwrap();
        std::fs::write(dir.join("driver.rb"), RUBY_DRIVER).unwrap();
        let output = Command::new("ruby")
            .arg("-w")
            .arg("driver.rb")
            .arg("./slots.rb")
            .args(case.driver_args(&setup.keys_path))
            .current_dir(&dir)
            .output()
            .expect("running ruby");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            output.status.success() && stderr.is_empty(),
            "Ruby, scheme case {}: ruby -w must succeed silently:\n{stderr}",
            case.name
        );
        setup.check("Ruby", case, &String::from_utf8(output.stdout).unwrap());
    }
}

/// Prints the driver protocol for the class `Test\Slots` in the file `$argv[1]`.
const PHP_DRIVER: &str = r#"<?php
declare(strict_types=1);
require $argv[1];
use Test\Slots;
[$keysPath, $few, $deep] = [$argv[2], (int) $argv[3], (int) $argv[4]];
[$prefix, $suffix, $badPrefix, $badSuffix] = array_map('hex2bin', array_slice($argv, 5, 4));
function take(int $s, int $n): string {
    $tags = [];
    foreach (Slots::tagsForSlot($s) as $tag) {
        if (count($tags) === $n) {
            break;
        }
        $tags[] = bin2hex($tag);
    }
    return implode(',', $tags);
}
$out = ["const\t" . Slots::FIRST_SLOT . "\t" . Slots::SLOTS . "\t" . Slots::TAG_LEN];
$slots = range(Slots::FIRST_SLOT, Slots::LAST_SLOT);
foreach ($slots as $s) {
    $out[] = "tag\t$s\t" . bin2hex(Slots::tagForSlot($s));
}
foreach ($slots as $s) {
    $out[] = "tags\t$s\t" . take($s, $few);
}
foreach ([Slots::FIRST_SLOT, Slots::LAST_SLOT] as $s) {
    $out[] = "deep\t$s\t" . take($s, $deep);
}
foreach ($slots as $s) {
    $out[] = "key\t$s\t" . bin2hex(Slots::keyForSlot($prefix, $s, $suffix));
}
foreach (file($keysPath, FILE_IGNORE_NEW_LINES) as $k) {
    $out[] = "slot\t$k\t" . Slots::slot(hex2bin($k));
}
function refusal(array &$out, string $name, callable $call): void {
    try {
        $out[] = "accepted\t$name\t" . var_export($call(), true);
    } catch (ValueError | InvalidArgumentException $e) {
        $out[] = "refused\t$name\t" . $e->getMessage();
    }
}
refusal($out, 'tag_above', fn () => Slots::tagForSlot(Slots::LAST_SLOT + 1));
refusal($out, 'tag_below', fn () => Slots::tagForSlot(Slots::FIRST_SLOT - 1));
refusal($out, 'tags_above', fn () => Slots::tagsForSlot(Slots::LAST_SLOT + 1));
refusal($out, 'key_above', fn () => Slots::keyForSlot($prefix, Slots::LAST_SLOT + 1, $suffix));
refusal($out, 'key_rule', fn () => Slots::keyForSlot($badPrefix, Slots::FIRST_SLOT, $badSuffix));
echo implode("\n", $out), "\n";
"#;

/// The class, checked by `php -l` and run with every error reported.
#[test]
fn php_scheme_classes() {
    let Some(setup) = setup(&["php"]) else {
        return;
    };
    for case in &setup.cases {
        let dir = setup.dir("php", case);
        let class = emit::php::scheme_class(&case.derivation, r"Test\Slots").unwrap();
        std::fs::write(dir.join("Slots.php"), class).unwrap();
        std::fs::write(dir.join("driver.php"), PHP_DRIVER).unwrap();
        let lint = run(Command::new("php").arg("-l").arg(dir.join("Slots.php")));
        assert!(lint.contains("No syntax errors detected"), "{lint}");
        let output = run(Command::new("php")
            .args(["-d", "error_reporting=-1", "-d", "display_errors=stderr"])
            .arg(dir.join("driver.php"))
            .arg(dir.join("Slots.php"))
            .args(case.driver_args(&setup.keys_path)));
        setup.check("PHP", case, &output);
    }
}

/// Prints the driver protocol for the module `Slots.<Case>` named by the first argument.
const ELIXIR_DRIVER: &str = r##"
[name, keys_path, few, deep | affixes] = System.argv()
m = Module.concat(["Slots", name])
[prefix, suffix, bad_prefix, bad_suffix] = Enum.map(affixes, &Base.decode16!(&1, case: :lower))
hex = &Base.encode16(&1, case: :lower)
{few, deep} = {String.to_integer(few), String.to_integer(deep)}
{first, last} = {m.first_slot(), m.last_slot()}
take = fn s, n -> m.tags_for_slot!(s) |> Enum.take(n) |> Enum.map(hex) |> Enum.join(",") end
consts = ["const\t#{first}\t#{m.slots()}\t#{m.tag_len()}\n"]
tags = for s <- first..last, do: ["tag\t#{s}\t", hex.(m.tag_for_slot!(s)), "\n"]
few_tags = for s <- first..last, do: ["tags\t#{s}\t", take.(s, few), "\n"]
deep_tags = for s <- [first, last], do: ["deep\t#{s}\t", take.(s, deep), "\n"]
built = for s <- first..last, do: ["key\t#{s}\t", hex.(m.key_for_slot!(prefix, s, suffix)), "\n"]
keys = keys_path |> File.read!() |> String.split("\n") |> Enum.drop(-1)
slots = for k <- keys, do: ["slot\t", k, "\t", "#{m.slot(Base.decode16!(k, case: :lower))}", "\n"]
refusal = fn name, result ->
  case result do
    {:error, %{message: message}} -> ["refused\t", name, "\t", message, "\n"]
    other -> ["accepted\t", name, "\t", inspect(other), "\n"]
  end
end
refusals = [
  refusal.("tag_above", m.tag_for_slot(last + 1)),
  refusal.("tag_below", m.tag_for_slot(first - 1)),
  refusal.("tags_above", m.tags_for_slot(last + 1)),
  refusal.("key_above", m.key_for_slot(prefix, last + 1, suffix)),
  refusal.("key_rule", m.key_for_slot(bad_prefix, first, bad_suffix))
]
IO.binwrite([consts, tags, few_tags, deep_tags, built, slots, refusals])
"##;

/// Every case's module (`Slots.<Case>`), compiled once by `elixirc --warnings-as-errors`.
#[test]
fn elixir_scheme_modules() {
    let Some(setup) = setup(&["elixirc", "elixir"]) else {
        return;
    };
    let dir = fresh_dir(&setup.dir, "elixir");
    let capitalized = |name: &str| name[..1].to_ascii_uppercase() + &name[1..];
    let mut files = Vec::new();
    for case in &setup.cases {
        let name = format!("Slots.{}", capitalized(case.name));
        let module = emit::elixir::scheme_module(&case.derivation, &name).unwrap();
        let file = dir.join(format!("{}.ex", case.name));
        std::fs::write(&file, module).unwrap();
        files.push(file);
    }
    std::fs::write(dir.join("driver.exs"), ELIXIR_DRIVER).unwrap();
    let _ = run(Command::new("elixirc")
        .arg("--warnings-as-errors")
        .arg("-o")
        .arg(dir.join("ebin"))
        .args(&files));
    for case in &setup.cases {
        let output = run(Command::new("elixir")
            .arg("-pa")
            .arg(dir.join("ebin"))
            .arg(dir.join("driver.exs"))
            .arg(capitalized(case.name))
            .args(case.driver_args(&setup.keys_path)));
        setup.check("Elixir", case, &output);
    }
}

/// The script that answers the driver protocol's questions one at a time, after a block of
/// `lua --for-script` named `slots`: `ARGV[1]` is the question.
const EVAL_BODY: &str = r#"
local op = ARGV[1]
if op == "const" then
    return { slots.first_slot, slots.slots, slots.tag_len }
elseif op == "tag" then
    return assert(slots.tag_for_slot(ARGV[2]))
elseif op == "tags" then
    local out, n = {}, tonumber(ARGV[3])
    if n == 0 then return out end
    for tag in assert(slots.tags_for_slot(ARGV[2])) do
        out[#out + 1] = tag
        if #out == n then break end
    end
    return out
elseif op == "key" then
    return assert(slots.key_for_slot(ARGV[3], ARGV[2], ARGV[4]))
elseif op == "slot" then
    return slots.slot(ARGV[2])
elseif op == "tag_refused" then
    return { select(2, slots.tag_for_slot(ARGV[2])) }
elseif op == "tags_refused" then
    return { select(2, slots.tags_for_slot(ARGV[2])) }
elseif op == "key_refused" then
    return { select(2, slots.key_for_slot(ARGV[3], ARGV[2], ARGV[4])) }
end
"#;

/// A server for the server-side Lua, or `None` (skipped) when it is missing.
fn server(program: &str) -> Option<RedisServer> {
    require_tool(program).then(|| {
        RedisServer::start_program(program, false, None)
            .unwrap_or_else(|e| panic!("{program}: {e}"))
    })
}

/// Runs the driver protocol through `EVALSHA` of the block and the body, and returns the
/// lines it answers.
fn eval_driver(con: &mut redis::Connection, case: &Case, keys: &[Vec<u8>]) -> String {
    let block = emit::redis_function::scheme_script_block(&case.derivation, "slots").unwrap();
    let sha: String = redis::cmd("SCRIPT")
        .arg("LOAD")
        .arg(format!("{block}{EVAL_BODY}"))
        .query(con)
        .unwrap_or_else(|e| panic!("{}: SCRIPT LOAD: {e}", case.name));
    let eval = |args: &[&[u8]]| {
        let mut cmd = redis::cmd("EVALSHA");
        cmd.arg(&sha).arg(0).arg(args);
        cmd
    };
    let (first, last) = (case.first(), case.last());
    let slots: Vec<String> = (first..=last).map(|s| s.to_string()).collect();
    let mut out = Vec::new();
    let consts: Vec<u64> = eval(&[b"const"]).query(con).unwrap();
    out.push(format!(
        "const\t{}\t{}\t{}",
        consts[0], consts[1], consts[2]
    ));
    let mut pipe = redis::pipe();
    for s in &slots {
        pipe.add_command(eval(&[b"tag", s.as_bytes()]));
    }
    let tags: Vec<Vec<u8>> = pipe
        .query(con)
        .unwrap_or_else(|e| panic!("{}: {e}", case.name));
    out.extend(
        slots
            .iter()
            .zip(tags)
            .map(|(s, t)| format!("tag\t{s}\t{}", hex::encode(t))),
    );
    let mut lists = |which: &str, slots: &[String], n: usize| {
        let mut pipe = redis::pipe();
        let n = n.to_string();
        for s in slots {
            pipe.add_command(eval(&[b"tags", s.as_bytes(), n.as_bytes()]));
        }
        let tags: Vec<Vec<Vec<u8>>> = pipe
            .query(con)
            .unwrap_or_else(|e| panic!("{}: {e}", case.name));
        for (s, list) in slots.iter().zip(tags) {
            let hexes: Vec<String> = list.iter().map(hex::encode).collect();
            out.push(format!("{which}\t{s}\t{}", hexes.join(",")));
        }
    };
    lists("tags", &slots, FEW);
    lists("deep", &[first.to_string(), last.to_string()], case.deep);
    let mut pipe = redis::pipe();
    for s in &slots {
        pipe.add_command(eval(&[b"key", s.as_bytes(), &case.prefix, &case.suffix]));
    }
    let built: Vec<Vec<u8>> = pipe
        .query(con)
        .unwrap_or_else(|e| panic!("{}: {e}", case.name));
    out.extend(
        slots
            .iter()
            .zip(built)
            .map(|(s, k)| format!("key\t{s}\t{}", hex::encode(k))),
    );
    let mut pipe = redis::pipe();
    for key in keys {
        pipe.add_command(eval(&[b"slot", key]));
    }
    let hashed: Vec<u64> = pipe
        .query(con)
        .unwrap_or_else(|e| panic!("{}: {e}", case.name));
    out.extend(
        keys.iter()
            .zip(hashed)
            .map(|(k, s)| format!("slot\t{}\t{s}", hex::encode(k))),
    );
    let (above, below) = ((last + 1).to_string(), first.wrapping_sub(1).to_string());
    for (name, args) in [
        ("tag_above", vec![&b"tag_refused"[..], above.as_bytes()]),
        ("tag_below", vec![b"tag_refused", below.as_bytes()]),
        ("tags_above", vec![b"tags_refused", above.as_bytes()]),
        (
            "key_above",
            vec![b"key_refused", above.as_bytes(), &case.prefix, &case.suffix],
        ),
        (
            "key_rule",
            vec![
                b"key_refused",
                slots[0].as_bytes(),
                &case.bad_prefix,
                &case.bad_suffix,
            ],
        ),
    ] {
        let message: Vec<String> = eval(&args).query(con).unwrap();
        out.push(format!("refused\t{name}\t{}", message.join("")));
    }
    out.join("\n")
}

/// The `lua --for-script` block, run by `EVALSHA` in a real `redis-server` and
/// `valkey-server` for every scheme whose keys live on servers that run `EVAL` (Redis
/// Cluster's, codis-server, twemproxy's Redis servers), over the whole driver protocol;
/// the other schemes are refused. And the Functions library of Redis Cluster's scheme,
/// loaded there and called for every slot and key.
#[test]
fn server_lua_of_schemes() {
    let Some(setup) = setup(&[]) else {
        return;
    };
    let keys: Vec<Vec<u8>> = std::fs::read_to_string(&setup.keys_path)
        .unwrap()
        .lines()
        .map(|l| hex::decode(l).unwrap())
        .collect();
    for program in ["redis-server", "valkey-server"] {
        let Some(server) = server(program) else {
            continue;
        };
        let mut con = server.connect();
        for case in &setup.cases {
            let what = format!("{program} EVAL");
            let Ok(_) = emit::redis_function::scheme_script_block(&case.derivation, "slots") else {
                let scheme = case.derivation.spec.name;
                assert!(
                    matches!(
                        scheme,
                        SchemeName::Couchbase
                            | SchemeName::TarantoolVshard
                            | SchemeName::Librdkafka
                    ),
                    "{what}: the block of {scheme:?} must not be refused"
                );
                continue;
            };
            let output = eval_driver(&mut con, case, &keys);
            setup.check(&what, case, &output);
        }
        let case = setup.cases.iter().find(|c| c.name == "redis").unwrap();
        let library = emit::redis_function::scheme_library(&case.derivation, "schemes").unwrap();
        let loaded: String = redis::cmd("FUNCTION")
            .arg("LOAD")
            .arg("REPLACE")
            .arg(&library)
            .query(&mut con)
            .unwrap_or_else(|e| panic!("{program}: FUNCTION LOAD: {e}"));
        assert_eq!(loaded, "schemes");
        let slots: Vec<u32> = (case.first()..=case.last()).collect();
        let mut tags = redis::pipe();
        let mut built = redis::pipe();
        for s in &slots {
            tags.cmd("FCALL_RO")
                .arg("schemes_tag_for_slot")
                .arg(0)
                .arg(s);
            built
                .cmd("FCALL_RO")
                .arg("schemes_key_for_slot")
                .arg(0)
                .arg(&case.prefix)
                .arg(s)
                .arg(&case.suffix);
        }
        let tags: Vec<Vec<u8>> = tags.query(&mut con).unwrap();
        let built: Vec<Vec<u8>> = built.query(&mut con).unwrap();
        let mut hashed = redis::pipe();
        for key in &keys {
            hashed.cmd("FCALL_RO").arg("schemes_slot").arg(0).arg(key);
        }
        let hashed: Vec<u64> = hashed.query(&mut con).unwrap();
        let mut answers: Vec<String> = slots
            .iter()
            .zip(&tags)
            .map(|(s, t)| format!("tag\t{s}\t{}", hex::encode(t)))
            .collect();
        answers.extend(
            slots
                .iter()
                .zip(&built)
                .map(|(s, k)| format!("key\t{s}\t{}", hex::encode(k))),
        );
        answers.extend(
            keys.iter()
                .zip(&hashed)
                .map(|(k, s)| format!("slot\t{}\t{s}", hex::encode(k))),
        );
        let expected: Vec<&String> = setup.expected[case.name]
            .iter()
            .filter(|l| l.starts_with("tag\t") || l.starts_with("key\t") || l.starts_with("slot\t"))
            .collect();
        assert_eq!(
            answers.len(),
            expected.len(),
            "{program}: the library's answers"
        );
        for (got, want) in answers.iter().zip(expected) {
            assert_eq!(got, want, "{program}: the library differs");
        }
        let refused: redis::RedisResult<Vec<u8>> = redis::cmd("FCALL")
            .arg("schemes_tag_for_slot")
            .arg(0)
            .arg(case.last() + 1)
            .query(&mut con);
        let error = refused
            .expect_err("a slot out of range is refused")
            .to_string();
        assert!(error.contains("out of range"), "{program}: {error}");
    }
}
