//! `slotgen verify --exec`, run for real: against redis-py's `key_slot` (0 disagreements),
//! against the npm package cluster-key-slot 1.1.2 (its known fault with `{}` followed by a
//! later `}`, and nothing else), against a deliberately broken adapter for each class, and
//! against commands that fail, print too few or too many lines, or hang.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::common;
use crate::common::{require, require_tool, Run};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("generator/cli/ sits two levels inside the workspace")
        .to_path_buf()
}

fn conformance(file: &str) -> String {
    root()
        .join("tests/conformance")
        .join(file)
        .to_str()
        .expect("a UTF-8 path")
        .to_owned()
}

/// Whether python3 can import redis-py's `redis.crc`.
fn have_redis_py() -> bool {
    if !require_tool("python3") {
        return false;
    }
    let ok = Command::new("python3")
        .args(["-c", "import redis.crc"])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    require(
        ok,
        "the PyPI package `redis` is not installed (`pip install redis==5.2.1`)",
    )
}

/// Whether node can load cluster-key-slot from tests/conformance/node_modules.
fn have_cluster_key_slot() -> bool {
    if !require_tool("node") {
        return false;
    }
    let ok = root()
        .join("tests/conformance/node_modules/cluster-key-slot/package.json")
        .is_file();
    require(
        ok,
        "the npm package `cluster-key-slot` is not installed (`npm ci --prefix tests/conformance`)",
    )
}

fn slotgen(args: &[&str]) -> Run {
    let output: Output = common::slotgen_with_stdin(args, b"");
    Run::from(output)
}

impl Run {
    /// `(class, disagreements, compared)` of every `class:` line.
    fn classes(&self) -> Vec<(String, u64, u64)> {
        self.stdout
            .lines()
            .filter_map(|l| l.strip_prefix("class:"))
            .map(|rest| {
                let (class, counts) = rest.trim().split_once(": ").expect("class: NAME: counts");
                let words: Vec<&str> = counts.split(' ').collect();
                // `N of M keys disagree`
                (
                    class.to_owned(),
                    words[0].parse().unwrap(),
                    words[2].parse().unwrap(),
                )
            })
            .collect()
    }

    /// `(class, key, expected, got)` of every `example:` line.
    fn examples(&self) -> Vec<(String, Vec<u8>, u16, String)> {
        self.stdout
            .lines()
            .filter_map(|l| l.strip_prefix("example:"))
            .map(|rest| {
                // `CLASS key HEX: expected N, got M`
                let (class, rest) = rest.trim().split_once(" key ").unwrap();
                let (key, rest) = rest.split_once(": expected ").unwrap();
                let (expected, got) = rest.split_once(", got ").unwrap();
                let key = if key == "\"\"" {
                    Vec::new()
                } else {
                    hex::decode(key).unwrap()
                };
                (
                    class.to_owned(),
                    key,
                    expected.parse().unwrap(),
                    got.to_owned(),
                )
            })
            .collect()
    }
}

/// The default corpus, as `slotgen emit vectors` writes it: `(key, slot, class)`.
fn default_corpus() -> Vec<(Vec<u8>, u16, String)> {
    let run = slotgen(&["emit", "vectors"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    run.stdout
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (
                hex::decode(f[0]).unwrap(),
                f[1].parse().unwrap(),
                f[2].to_owned(),
            )
        })
        .collect()
}

/// cluster-key-slot 1.1.2's fault: the first `{` is followed at once by `}`, and a later
/// `}` follows (it then hashes the bytes between them instead of the whole key).
fn empty_pair_then_brace(key: &[u8]) -> bool {
    let Some(open) = key.iter().position(|&b| b == b'{') else {
        return false;
    };
    key.get(open + 1) == Some(&b'}') && key[open + 2..].contains(&b'}')
}

#[test]
fn redis_py_agrees_on_every_key() {
    if !have_redis_py() {
        return;
    }
    let command = format!("python3 {}", conformance("redis_py.py"));
    let run = slotgen(&["verify", "--exec", &command]);
    assert_eq!(run.code, Some(0), "{}{}", run.stdout, run.stderr);
    run.prints("compared:   50000 keys, 0 disagree");
    assert!(run.stdout.contains("verified:"), "{}", run.stdout);
    assert!(run.classes().is_empty());
}

#[test]
fn redis_py_agrees_on_raw_keys_too() {
    if !have_redis_py() {
        return;
    }
    let command = "python3 -c 'import sys; from redis.crc import key_slot; sys.stdout.writelines(f\"{key_slot(l[:-1])}\\n\" for l in sys.stdin.buffer)'";
    let run = slotgen(&[
        "verify", "--exec", command, "--input", "raw", "--count", "20000",
    ]);
    assert_eq!(run.code, Some(0), "{}{}", run.stdout, run.stderr);
    // the keys with a line break are left out, and said so
    let corpus = default_corpus();
    let with_break = corpus[..20000]
        .iter()
        .filter(|(k, _, _)| k.contains(&b'\n') || k.contains(&b'\r'))
        .count();
    assert!(with_break > 0);
    assert!(
        run.stdout.contains(&format!(
            "{} keys (seed 0, {with_break} with a line break left out)",
            20000 - with_break
        )),
        "{}",
        run.stdout
    );
}

#[test]
fn cluster_key_slot_disagrees_only_on_an_empty_pair_followed_by_a_brace() {
    if !have_cluster_key_slot() {
        return;
    }
    let command = format!("node {}", conformance("cluster_key_slot.js"));
    let run = slotgen(&["verify", "--exec", &command]);
    assert_eq!(run.code, Some(1), "{}{}", run.stdout, run.stderr);
    let corpus = default_corpus();
    let faulty: Vec<_> = corpus
        .iter()
        .filter(|(k, _, _)| empty_pair_then_brace(k))
        .collect();
    let in_class = corpus
        .iter()
        .filter(|(_, _, c)| c == "empty-hashtag")
        .count() as u64;
    // one class, and in it exactly the keys of the known fault (the chance that the wrong
    // bytes hash to the right slot is 1 in 16384 per key, and none does in this corpus)
    assert_eq!(
        run.classes(),
        [("empty-hashtag".to_owned(), faulty.len() as u64, in_class)],
        "{}",
        run.stdout
    );
    assert!(faulty.iter().all(|(_, _, c)| c == "empty-hashtag"));
    let examples = run.examples();
    assert_eq!(examples.len(), 5, "{}", run.stdout);
    for (class, key, expected, got) in &examples {
        assert_eq!(class, "empty-hashtag");
        assert!(empty_pair_then_brace(key), "{}", hex::encode(key));
        assert_ne!(got.parse::<u16>().ok(), Some(*expected));
        let row = corpus
            .iter()
            .find(|(k, _, _)| k == key)
            .expect("an example is a corpus key");
        assert_eq!(row.1, *expected);
    }
    assert!(
        run.stderr
            .contains(&format!("{} of 50000 answers disagree", faulty.len())),
        "{}",
        run.stderr
    );
}

#[test]
fn a_broken_adapter_is_named_by_its_class() {
    if !require_tool("python3") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let corpus_path = dir.path().join("corpus.tsv");
    let run = slotgen(&[
        "emit",
        "vectors",
        "--count",
        "20000",
        "-o",
        corpus_path.to_str().unwrap(),
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let text = std::fs::read_to_string(&corpus_path).unwrap();
    let classes = [
        "empty",
        "empty-hashtag",
        "brace-before-tag",
        "unclosed-brace",
        "nested-brace",
        "later-pairs-ignored",
        "binary-brace",
        "nul",
        "invalid-utf8",
        "utf8-4byte",
        "utf8-multibyte",
        "long",
        "tagged",
        "plain",
    ];
    for class in classes {
        let size = text
            .lines()
            .filter(|l| l.rsplit('\t').next() == Some(class))
            .count() as u64;
        assert!(size > 0, "{class}");
        let command = format!(
            "python3 {} {} {class}",
            conformance("broken.py"),
            corpus_path.display()
        );
        let run = slotgen(&["verify", "--exec", &command, "--count", "20000"]);
        assert_eq!(run.code, Some(1), "{class}: {}{}", run.stdout, run.stderr);
        assert_eq!(
            run.classes(),
            [(class.to_owned(), size, size)],
            "{}",
            run.stdout
        );
        assert!(run.examples().iter().all(|e| e.0 == class));
        run.says(&format!("in {class}:"));
    }
}

#[test]
fn a_command_that_fails_or_miscounts_is_reported() {
    // exits at once with status 3, printing nothing
    let run = slotgen(&["verify", "--exec", "sh -c 'exit 3'", "--count", "100"]);
    assert_eq!(run.code, Some(1));
    run.prints("printed too few lines: 0 for 100 keys");
    run.prints("the command failed: exit status: 3");

    // echoes the first 10 lines: too few, and not slots
    let run = slotgen(&["verify", "--exec", "head -n 10", "--count", "100"]);
    assert_eq!(run.code, Some(1));
    run.prints("compared:   10 keys, 10 disagree");
    run.prints("too few lines: 10 for 100 keys");

    // its standard error is shown when it fails
    let run = slotgen(&[
        "verify",
        "--exec",
        "sh -c 'echo broken adapter >&2; exit 1'",
        "--count",
        "10",
    ]);
    assert!(run.stdout.contains("broken adapter"), "{}", run.stdout);

    // refused command lines
    let run = slotgen(&["verify", "--exec", "'unbalanced"]);
    assert_eq!(run.code, Some(2));
    run.says("is not a command line");
    let run = slotgen(&["verify", "--exec", "slotgen-no-such-program"]);
    assert_eq!(run.code, Some(1));
    run.says("cannot run `slotgen-no-such-program`");
    let run = slotgen(&["verify", "--exec", "true", "--count", "0"]);
    assert_eq!(run.code, Some(2));
    run.says("give a whole number from 1 to 10000000");
    let run = slotgen(&["verify", "--exec", "true", "--count", "20000000"]);
    assert_eq!(run.code, Some(2));
    run.says("give a whole number from 1 to 10000000");
}

#[test]
fn too_many_lines_are_reported() {
    if !have_redis_py() {
        return;
    }
    let command = format!("sh -c 'python3 {}; echo 0'", conformance("redis_py.py"));
    let run = slotgen(&["verify", "--exec", &command, "--count", "1000"]);
    assert_eq!(run.code, Some(1), "{}", run.stdout);
    run.prints("compared:   1000 keys, 0 disagree");
    run.prints("more lines than the 1000 keys asked, and was stopped");
}

/// A command that never stops answering (`yes 1`) is stopped at its first line past the
/// last key, with one problem line: not run to the deadline and reported killed as well.
#[test]
fn a_command_that_answers_without_end_is_stopped_at_once() {
    if !require_tool("yes") {
        return;
    }
    let run = slotgen(&[
        "verify",
        "--exec",
        "yes 1",
        "--count",
        "1",
        "--timeout",
        "10",
    ]);
    assert_eq!(run.code, Some(1), "{}{}", run.stdout, run.stderr);
    run.prints("corpus:     1 key (seed");
    run.prints("compared:   1 key, ");
    run.prints("problem:    the command printed more lines than the 1 key asked, and was stopped");
    let problems = run
        .stdout
        .lines()
        .filter(|l| l.starts_with("problem:"))
        .count();
    assert_eq!(problems, 1, "{}", run.stdout);
    assert!(!run.stdout.contains("killed"), "{}", run.stdout);
    assert!(
        !run.stdout.contains("stopped reading its input"),
        "{}",
        run.stdout
    );
}

#[test]
fn a_command_that_hangs_is_killed_at_the_deadline() {
    let start = Instant::now();
    let run = slotgen(&[
        "verify",
        "--exec",
        "sleep 600",
        "--count",
        "100",
        "--timeout",
        "2",
    ]);
    assert!(
        start.elapsed() < Duration::from_secs(60),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(run.code, Some(1));
    assert!(
        run.stdout
            .contains("did not finish within 2 s and was killed"),
        "{}",
        run.stdout
    );
}

#[test]
fn the_emitted_go_package_agrees_on_every_key() {
    if !require_tool("go") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    std::fs::create_dir(dir.join("slotgen")).unwrap();
    let go_file = dir.join("slotgen/slotgen.go");
    let run = slotgen(&["emit", "go", "-o", go_file.to_str().unwrap()]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    std::fs::copy(conformance("go/main.go"), dir.join("main.go")).unwrap();
    std::fs::write(dir.join("go.mod"), "module adapter\n\ngo 1.19\n").unwrap();
    let built = Command::new("go")
        .args(["build", "-o", "adapter", "."])
        .current_dir(dir)
        .env("GOPATH", dir.join("gopath"))
        .env("GOCACHE", dir.join("gocache"))
        .env("GOFLAGS", "-mod=mod")
        .env("GOPROXY", "off")
        .env("GO111MODULE", "on")
        .env("CGO_ENABLED", "0")
        .output()
        .unwrap();
    assert!(
        built.status.success(),
        "{}",
        String::from_utf8_lossy(&built.stderr)
    );
    let adapter = dir.join("adapter");
    let run = slotgen(&["verify", "--exec", adapter.to_str().unwrap()]);
    assert_eq!(run.code, Some(0), "{}{}", run.stdout, run.stderr);
    run.prints("compared:   50000 keys, 0 disagree");
}

#[test]
fn another_spec_is_verified_with_its_own_slots() {
    if !require_tool("python3") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let corpus_path = dir.path().join("modbus.tsv");
    let spec = ["--crc", "MODBUS", "--slots", "4096"];
    let mut args = vec![
        "emit",
        "vectors",
        "--count",
        "5000",
        "-o",
        corpus_path.to_str().unwrap(),
    ];
    args.extend(spec);
    let run = slotgen(&args);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    // an adapter that answers the MODBUS corpus's own slots (it breaks no class)
    let command = format!(
        "python3 {} {} no-class",
        conformance("broken.py"),
        corpus_path.display()
    );
    let mut args = vec!["verify", "--exec", &command, "--count", "5000"];
    args.extend(spec);
    let run = slotgen(&args);
    assert_eq!(run.code, Some(0), "{}{}", run.stdout, run.stderr);
    run.prints("CRC-16/MODBUS, 4096 slots");
    // and redis-py, which hashes as Redis Cluster, disagrees with it
    if have_redis_py() {
        let command = format!("python3 {}", conformance("redis_py.py"));
        let mut args = vec!["verify", "--exec", &command, "--count", "5000"];
        args.extend(spec);
        let run = slotgen(&args);
        assert_eq!(run.code, Some(1), "{}", run.stdout);
    }
}

#[test]
fn redis_rb_agrees_on_every_key() {
    // redis-rb 4.8 (Debian's ruby-redis): its two steps, the hashtag then the CRC
    if !require_tool("ruby") {
        return;
    }
    let ok = Command::new("ruby")
        .args(["-e", "require 'redis'; Redis::Cluster::KeySlotConverter"])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !require(
        ok,
        "the gem `redis` is not installed (Debian's `ruby-redis`)",
    ) {
        return;
    }
    let command = format!("ruby {}", conformance("redis_rb.rb"));
    let run = slotgen(&["verify", "--exec", &command]);
    assert_eq!(run.code, Some(0), "{}{}", run.stdout, run.stderr);
    run.prints("compared:   50000 keys, 0 disagree");
}

/// An adapter that computes each named scheme's slot from the system's own definition,
/// with Python's `zlib.crc32`, `binascii.crc_hqx` (stepped in an unmasked 32-bit register
/// for nutcracker's `hash_crc16`) and a CRC-32C table built bit by bit, and each rule
/// written out; `as-redis` reads every key by the Redis rule instead (a client that knows
/// only Redis Cluster's).
///
///     python3 schemes.py NAME SLOTS [HASH_TAG|-] [as-redis]
const SCHEME_ADAPTER: &str = r#"
import binascii, sys, zlib

name, slots = sys.argv[1], int(sys.argv[2])
hash_tag = sys.argv[3].encode() if len(sys.argv) > 3 and sys.argv[3] != "-" else None
as_redis = "as-redis" in sys.argv[4:]

CRC32C = []
for i in range(256):
    c = i
    for _ in range(8):
        c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
    CRC32C.append(c)

def tarantool(b):  # digest.crc32: CRC-32C without its final xor
    c = 0xFFFFFFFF
    for x in b:
        c = (c >> 8) ^ CRC32C[(c ^ x) & 0xFF]
    return c

def hash_crc16(b):  # nutcracker: XMODEM's steps, the register never masked to 16 bits
    r = 0
    for x in b:
        r = ((r << 8) & 0xFFFFFFFF) ^ binascii.crc_hqx(bytes([((r >> 8) ^ x) & 0xFF]), 0)
    return r

def between(k, o, c, empty_is_tag):
    i = k.find(o)
    if i < 0:
        return k
    j = k.find(c, i + 1)
    if j < 0 or (j == i + 1 and not empty_is_tag):
        return k
    return k[i + 1 : j]

def hashed(k):
    if as_redis or name == "redis-cluster":
        return between(k, b"{", b"}", False)
    if name == "codis":
        return between(k, b"{", b"}", True)
    if hash_tag:
        return between(k, hash_tag[:1], hash_tag[1:], False)
    return k

slot = {
    "redis-cluster": lambda b: binascii.crc_hqx(b, 0) % slots,
    "codis": lambda b: zlib.crc32(b) % slots,
    "couchbase": lambda b: ((zlib.crc32(b) >> 16) & 0x7FFF) % slots,
    "tarantool-vshard": lambda b: tarantool(b) % slots + 1,
    "librdkafka": lambda b: zlib.crc32(b) % slots,
    "twemproxy-crc32a": lambda b: zlib.crc32(b) % slots,
    "twemproxy-crc32": lambda b: ((zlib.crc32(b) >> 16) & 0x7FFF) % slots,
    "twemproxy-crc16": lambda b: hash_crc16(b) % slots,
}[name]
sys.stdout.writelines(f"{slot(hashed(bytes.fromhex(line.strip())))}\n" for line in sys.stdin)
"#;

/// `emit vectors --scheme` and `verify --exec --scheme`: for every named scheme, the
/// corpus's slots are the ones the adapter above computes from each system's definition
/// (0 disagreements over 4000 keys), and a client that reads keys by the Redis rule
/// disagrees exactly where the scheme's rule differs: Codis's `empty-hashtag` keys, a
/// whole-key scheme's `hashtag-ignored` ones, twemproxy's `::` keys.
#[test]
fn every_scheme_is_verified_with_its_own_slots_and_rule() {
    if !require_tool("python3") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let adapter = dir.path().join("schemes.py");
    std::fs::write(&adapter, SCHEME_ADAPTER).unwrap();
    let adapter = adapter.to_str().unwrap();
    for (name, slots, hash_tag, redis_differs_in) in [
        ("redis-cluster", "16384", None, &[][..]),
        ("codis", "1024", None, &["empty-hashtag"][..]),
        ("couchbase", "1024", None, &["hashtag-ignored"][..]),
        ("tarantool-vshard", "3000", None, &["hashtag-ignored"][..]),
        ("librdkafka", "12", None, &["hashtag-ignored"][..]),
        ("twemproxy-crc32a", "3", Some("{}"), &[][..]),
        ("twemproxy-crc32", "5", None, &["hashtag-ignored"][..]),
        ("twemproxy-crc16", "5", Some("::"), &[][..]),
    ] {
        let mut scheme = vec!["--scheme", name, "--slots", slots];
        if let Some(pair) = hash_tag {
            scheme.extend(["--hash-tag", pair]);
        }
        let command = format!(
            "python3 {adapter} {name} {slots} {}",
            hash_tag.unwrap_or("-")
        );
        let mut args = vec!["verify", "--exec", &command, "--count", "4000"];
        args.extend(&scheme);
        let run = slotgen(&args);
        assert_eq!(run.code, Some(0), "{name}: {}{}", run.stdout, run.stderr);
        // redis-cluster is the CRC-16 spec's corpus, named so
        let named = match name {
            "redis-cluster" => "CRC-16/XMODEM, 16384 slots".to_owned(),
            "tarantool-vshard" => "scheme tarantool-vshard, 3000 slots (1 to 3000)".to_owned(),
            _ => format!("scheme {name}, {slots} slots"),
        };
        assert!(
            run.stdout
                .contains(&format!("corpus:     4000 keys (seed 0), {named}")),
            "{}",
            run.stdout
        );

        let redis_rule = format!("{command} as-redis");
        let mut args = vec!["verify", "--exec", &redis_rule, "--count", "4000"];
        args.extend(&scheme);
        let run = slotgen(&args);
        let classes: Vec<String> = run.classes().into_iter().map(|c| c.0).collect();
        if name == "twemproxy-crc16" {
            // its `::` keys: a Redis-rule client disagrees in most classes
            assert!(classes.len() > 3, "{name}: {}", run.stdout);
        } else {
            assert_eq!(classes, redis_differs_in, "{name}: {}", run.stdout);
        }
        assert_eq!(
            run.code,
            Some(if classes.is_empty() { 0 } else { 1 }),
            "{name}"
        );
    }
    // the corpus of a scheme names it, in both forms
    let run = slotgen(&["emit", "vectors", "--scheme", "codis", "--count", "4"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(
        run.stdout.lines().next(),
        Some("# slotgen vectors 1: scheme codis, 1024 slots, seed 0, 4 keys; key_hex<TAB>slot<TAB>class")
    );
    // `emq:{}:pending`: Codis hashes the empty string, slot 0
    assert_eq!(
        run.stdout.lines().nth(4),
        Some("656d713a7b7d3a70656e64696e67\t0\tempty-hashtag")
    );
    let run = slotgen(&[
        "emit",
        "vectors",
        "--scheme",
        "tarantool-vshard",
        "--format",
        "json",
        "--count",
        "2",
    ]);
    let value: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(value["scheme"]["name"], "tarantool-vshard");
    assert_eq!(value["scheme"]["first_slot"], 1);
    assert_eq!(value["classes"][1], "hashtag-ignored");
    assert!(value.get("crc").is_none());
    // the options a corpus does not use are refused as before
    let run = slotgen(&["emit", "vectors", "--scheme", "codis", "--alphabet", "@A"]);
    assert_eq!(run.code, Some(2), "{}", run.stderr);
}

/// Whether process `pid` has ended: gone, or a zombie waiting for its new parent.
fn ended(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        // `pid (comm) S ...`: the state follows the last `)`
        Ok(stat) => stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z')),
    }
}

/// The processes a command starts end with it: killed at the deadline, or after the command
/// ended by itself leaving one in the background (issue 31: only the direct child was
/// killed). The shell writes its background child's pid; the test checks that process.
#[test]
fn the_processes_a_command_starts_end_with_it() {
    let dir = tempfile::tempdir().unwrap();
    for (script, timeout) in [
        // hangs: killed at the deadline, with the child it started
        ("sleep 600 & echo $! > {pid}; exec sleep 600", "2"),
        // ends at once, its child left in the background with no pipe of ours
        (
            "sleep 600 </dev/null >/dev/null 2>&1 & echo $! > {pid}",
            "30",
        ),
    ] {
        let pid_file = dir.path().join("pid");
        let _ = std::fs::remove_file(&pid_file);
        let script = script.replace("{pid}", pid_file.to_str().unwrap());
        let command = format!("sh -c '{script}'");
        let run = slotgen(&[
            "verify",
            "--exec",
            &command,
            "--count",
            "100",
            "--timeout",
            timeout,
        ]);
        assert_eq!(run.code, Some(1), "{script}: {}", run.stdout);
        let pid: u32 = std::fs::read_to_string(&pid_file)
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        // a guard against a slow reaper, not a timing assertion
        let start = Instant::now();
        while !ended(pid) && start.elapsed() < Duration::from_secs(30) {
            std::thread::sleep(Duration::from_millis(50));
        }
        if !ended(pid) {
            // stop it ourselves, by its id, then fail
            let _ = Command::new("kill").arg("-9").arg(pid.to_string()).status();
            panic!("{script}: the command's child {pid} outlived slotgen");
        }
    }
}

#[test]
fn the_command_line_is_shown_escaped() {
    // a command with a control byte in it (a newcomer's `printf \e[2J`): the report's
    // `command:` line shows it as the answers are shown, `\x1b`
    let run = slotgen(&["verify", "--exec", "printf '\u{1b}[2J'", "--count", "1"]);
    assert!(!run.stdout.contains('\u{1b}'), "{}", run.stdout);
    run.prints("command:    printf '\\x1b[2J' (hex input)");
}
