//! The modules of every named scheme (`slotgen emit <language> --scheme NAME`), run by their
//! real interpreters and compilers: Python, Node, Go, C (gcc), Lua 5.1, Lua 5.4 and
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

/// Prints the driver protocol for the module `argv[2]`, with keys as `Uint8Array`, and
/// checks that a key of strings is the bytes' key (as a string, for an ASCII alphabet).
const JS_DRIVER: &str = r#"
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const m = await import(pathToFileURL(process.argv[2]).href);
const [keysPath, few, deep, prefix, suffix, badPrefix, badSuffix] = process.argv.slice(3);
const bytes = (h) => Uint8Array.from(Buffer.from(h, "hex"));
const hex = (b) => Buffer.from(b).toString("hex");
const take = (s, n) => {
  const tags = [];
  for (const tag of m.tagsForSlot(s)) {
    if (tags.length === n) break;
    tags.push(hex(tag));
  }
  return tags.join(",");
};
const out = [`const\t${m.FIRST_SLOT}\t${m.SLOTS}\t${m.TAG_LEN}`];
const slots = [];
for (let s = m.FIRST_SLOT; s <= m.LAST_SLOT; s++) slots.push(s);
for (const s of slots) out.push(`tag\t${s}\t${hex(m.tagForSlot(s))}`);
for (const s of slots) out.push(`tags\t${s}\t${take(s, Number(few))}`);
for (const s of [m.FIRST_SLOT, m.LAST_SLOT]) out.push(`deep\t${s}\t${take(s, Number(deep))}`);
const text = (h) => Buffer.from(h, "hex").toString("latin1");
for (const s of slots) {
  const key = m.keyForSlot(bytes(prefix), s, bytes(suffix));
  const asText = m.keyForSlot(text(prefix), s, text(suffix));
  const same = typeof asText === "string" ? asText === new TextDecoder().decode(key) : hex(asText) === hex(key);
  if (!same) {
    throw new Error(`keyForSlot of strings must be the bytes' key, as a string for an ASCII tag, got ${asText}`);
  }
  out.push(`key\t${s}\t${hex(key)}`);
}
const keys = readFileSync(keysPath, "utf8").split("\n").slice(0, -1);
for (const h of keys) out.push(`slot\t${h}\t${m.slot(bytes(h))}`);
function refusal(name, call) {
  try {
    out.push(`accepted\t${name}\t${call()}`);
  } catch (e) {
    if (!(e instanceof m.SlotgenError)) throw e;
    out.push(`refused\t${name}\t${e.code}: ${e.message}`);
  }
}
refusal("tag_above", () => m.tagForSlot(m.LAST_SLOT + 1));
refusal("tag_below", () => m.tagForSlot(m.FIRST_SLOT - 1));
refusal("tags_above", () => m.tagsForSlot(m.LAST_SLOT + 1));
refusal("key_above", () => m.keyForSlot(bytes(prefix), m.LAST_SLOT + 1, bytes(suffix)));
refusal("key_rule", () => m.keyForSlot(bytes(badPrefix), m.FIRST_SLOT, bytes(badSuffix)));
process.stdout.write(out.join("\n") + "\n");
"#;

#[test]
fn js_scheme_modules() {
    let Some(setup) = setup(&["node"]) else {
        return;
    };
    for case in &setup.cases {
        let dir = setup.dir("js", case);
        let module = emit::js::scheme_module(&case.derivation).unwrap();
        std::fs::write(dir.join("slotgen.mjs"), module).unwrap();
        std::fs::write(dir.join("driver.mjs"), JS_DRIVER).unwrap();
        let output = run(Command::new("node")
            .arg(dir.join("driver.mjs"))
            .arg(dir.join("slotgen.mjs"))
            .args(case.driver_args(&setup.keys_path)));
        setup.check("JavaScript", case, &output);
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
