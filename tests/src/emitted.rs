//! Running emitted modules for real: the specs they are tested on, the answers of the Rust
//! runtime and of a real Redis server, and the comparison with what a module printed.
//!
//! Every language's test writes the emitted module and a small driver program to a
//! temporary directory and runs the driver once per spec. The driver speaks one protocol,
//! one answer a line, fields separated by tabs, bytes as lowercase hex:
//!
//! - `tag <slot> <tag>` for every slot, from `tag_for_slot`;
//! - `tags <slot> <tag>,<tag>,...` for every slot, from `tags_for_slot`;
//! - `key <slot> <key>` for every slot, from `key_for_slot("user:", slot, ":profile")`;
//! - `slot <key> <slot>` for every key of the keys file (hex, one a line), the key passed as
//!   bytes; `str <key> <slot>` the same with the key passed as a string (UTF-8 keys only, in
//!   languages whose strings are text), `buffer <key> <slot>` as a Node `Buffer`;
//! - `refused <case> <message>` (or `accepted <case> <value>`) for each [`REFUSALS`] case.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use slotgen::{catalog, derive, Derivation, Spec};

/// The calls a module must refuse, by the name a driver prints, each with a piece of the
/// message it must give.
///
/// - `tag_out_of_range`: `tag_for_slot(slots)`;
/// - `tag_negative`: `tag_for_slot(-1)` (in C, the largest `unsigned long`);
/// - `tags_out_of_range`: `tags_for_slot(slots)`;
/// - `key_out_of_range`: `key_for_slot("user:", slots, "")`;
/// - `prefix_brace`: `key_for_slot("a{b", 0, "")`.
pub const REFUSALS: [(&str, &str); 5] = [
    ("tag_out_of_range", "out of range"),
    ("tag_negative", "out of range"),
    ("tags_out_of_range", "out of range"),
    ("key_out_of_range", "out of range"),
    ("prefix_brace", "prefix contains `{`"),
];

/// One spec the modules are tested on.
pub struct Case {
    /// A short name, for directories and messages.
    pub name: &'static str,
    /// Its derivation.
    pub derivation: Derivation,
}

/// The specs every emitted module is run for: Redis Cluster; CRC-16/KERMIT (reflected);
/// a 32-symbol alphabet `@`..`_` (with `\`, `[`, `]`, `^`; 4-symbol tags, 64 per slot); a
/// custom CRC with `refin != refout`, a nonzero `xorout` and `init`, 4096 slots and an
/// 8-symbol alphabet; and 256 slots with 2-symbol tags, one per slot (an empty kernel).
///
/// # Panics
///
/// When a spec does not derive (a bug in slotgen).
#[must_use]
pub fn cases() -> Vec<Case> {
    let kermit = Spec::default()
        .with_crc("CRC-16/KERMIT")
        .expect("KERMIT is catalogued");
    let wide = Spec {
        alphabet: (0x40..0x60).collect(),
        tag_len: None,
        ..Spec::default()
    };
    let custom = Spec {
        crc: catalog::custom(0x8005, 0x1234, true, false, 0xbeef),
        alphabet: b"01234567".to_vec(),
        tag_len: None,
        slots: 4096,
    };
    let bijective = Spec {
        tag_len: Some(2),
        slots: 256,
        ..Spec::default()
    };
    [
        ("redis", Spec::default()),
        ("kermit", kermit),
        ("wide", wide),
        ("custom", custom),
        ("bijective", bijective),
    ]
    .into_iter()
    .map(|(name, spec)| Case {
        name,
        derivation: derive(&spec).expect("a test spec derives"),
    })
    .collect()
}

/// The keys every module hashes: the Redis-answered vectors, then keys that exercise the
/// hashtag rule, UTF-8 (U+1F480 is 4 bytes) and bytes that are not UTF-8.
#[must_use]
pub fn keys() -> Vec<Vec<u8>> {
    let mut keys: Vec<Vec<u8>> = crate::redis_vectors().into_iter().map(|v| v.key).collect();
    for extra in [
        &b"123456789"[..],
        b"",
        b"emq:{orders}:pending",
        b"emq:{}:pending",
        b"{",
        b"}{a}",
        b"a{b}{c}",
        "\u{1F480}".as_bytes(),
        "user:{\u{1F480}}:profile".as_bytes(),
        "caf\u{e9} {\u{e9}t\u{e9}}".as_bytes(),
        b"\xff\x00{\x80}",
    ] {
        keys.push(extra.to_vec());
    }
    keys
}

/// Writes `keys` to `dir/keys.txt`, one hex key a line, and returns the path.
///
/// # Panics
///
/// When the file cannot be written.
#[must_use]
pub fn write_keys(dir: &Path, keys: &[Vec<u8>]) -> PathBuf {
    let path = dir.join("keys.txt");
    let text: String = keys.iter().map(|k| hex::encode(k) + "\n").collect();
    std::fs::write(&path, text).expect("writing keys.txt");
    path
}

/// The slot of `key` for `derivation`, independently of the runtime's CRC: the slot a real
/// Redis server answered (from `redis`, the [`redis_vectors`](crate::redis_vectors)) when
/// the spec's slot function is Redis Cluster's and the key is a vector, else the `crc`
/// crate's checksum of the hashtag.
#[must_use]
pub fn reference_slot(derivation: &Derivation, redis: &HashMap<Vec<u8>, u16>, key: &[u8]) -> u16 {
    let spec = derivation.crc16_spec().expect("a CRC-16 spec");
    let is_redis = catalog::same_parameters(&spec.crc, &slotgen_tables::crc::CRC_16_XMODEM)
        && spec.slots == 16384;
    if let Some(&slot) = redis.get(key).filter(|_| is_redis) {
        return slot;
    }
    let crc = catalog::reference_crc(&spec.crc).checksum(slotgen_tables::hashtag(key));
    crc & ((spec.slots - 1) as u16)
}

/// The lines a driver must print before its refusals, from the Rust runtime
/// ([`Derivation::slot_table`]) and [`reference_slot`]. `key_kinds` are the kinds of key lines
/// the driver prints, in order (`slot`, and `str` or `buffer` where the language has them).
///
/// # Panics
///
/// When the runtime fails on a slot in range (a bug in slotgen).
#[must_use]
pub fn expected_lines(
    derivation: &Derivation,
    keys: &[Vec<u8>],
    key_kinds: &[&str],
) -> Vec<String> {
    let table = derivation.slot_table().expect("a CRC-16 spec's table");
    let redis: HashMap<Vec<u8>, u16> = crate::redis_vectors()
        .into_iter()
        .map(|v| (v.key, v.slot))
        .collect();
    let slots = u16::try_from(derivation.slots() - 1).expect("slots fit 16 bits");
    let mut lines = Vec::new();
    for slot in 0..=slots {
        let tag = table.tag_for_slot(slot).expect("slot in range");
        lines.push(format!("tag\t{slot}\t{}", hex::encode(tag)));
    }
    for slot in 0..=slots {
        let tags: Vec<String> = table
            .tags_for_slot(slot)
            .expect("slot in range")
            .map(hex::encode)
            .collect();
        lines.push(format!("tags\t{slot}\t{}", tags.join(",")));
    }
    for slot in 0..=slots {
        let key = table
            .key_for_slot(b"user:", slot, b":profile")
            .expect("slot in range");
        lines.push(format!("key\t{slot}\t{}", hex::encode(key)));
    }
    for kind in key_kinds {
        for key in keys {
            if *kind == "str" && std::str::from_utf8(key).is_err() {
                continue;
            }
            let slot = reference_slot(derivation, &redis, key);
            lines.push(format!("{kind}\t{}\t{slot}", hex::encode(key)));
        }
    }
    lines
}

/// Checks a driver's output against [`expected_lines`] and [`REFUSALS`].
///
/// # Panics
///
/// With the first difference, when the output is not what the runtime answers or a call
/// that must be refused was not.
pub fn check_output(what: &str, output: &str, expected: &[String]) {
    check_output_with(what, output, expected, &REFUSALS);
}

/// Checks a driver's output: its answer lines (every line but `refused` and `accepted`
/// ones) are `expected`, in order, and each case of `refusals` is refused with a message
/// that holds its piece.
///
/// # Panics
///
/// With the first difference, when the output is not `expected` or a call that must be
/// refused was not.
pub fn check_output_with(what: &str, output: &str, expected: &[String], refusals: &[(&str, &str)]) {
    let lines: Vec<&str> = output.lines().collect();
    let (answers, refused): (Vec<&str>, Vec<&str>) = lines
        .iter()
        .partition(|l| !l.starts_with("refused\t") && !l.starts_with("accepted\t"));
    for (i, want) in expected.iter().enumerate() {
        let got = answers.get(i).copied().unwrap_or("<no more lines>");
        assert_eq!(
            got, want,
            "{what}: answer line {i} differs from the runtime's"
        );
    }
    assert_eq!(
        answers.len(),
        expected.len(),
        "{what}: {} answer lines, expected {}; first extra: {:?}",
        answers.len(),
        expected.len(),
        answers.get(expected.len())
    );
    for &(case, fragment) in refusals {
        let line = refused
            .iter()
            .find(|l| l.split('\t').nth(1) == Some(case))
            .unwrap_or_else(|| panic!("{what}: the driver printed nothing for `{case}`"));
        assert!(
            line.starts_with("refused\t"),
            "{what}: `{case}` must be refused, got `{line}`"
        );
        assert!(
            line.contains(fragment),
            "{what}: the refusal of `{case}` must say `{fragment}`, got `{line}`"
        );
    }
}

/// A fresh empty directory `base/name`.
///
/// # Panics
///
/// When it cannot be made.
#[must_use]
pub fn fresh_dir(base: &Path, name: &str) -> PathBuf {
    let dir = base.join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("making a test directory");
    dir
}

/// `go` with every cache and path inside `dir`, offline (`GOPROXY=off`), modules on and cgo
/// off: the emitted packages use the standard library only.
#[must_use]
pub fn go_command(dir: &Path) -> Command {
    let mut command = Command::new("go");
    command
        .current_dir(dir)
        .env("GOPATH", dir.join("gopath"))
        .env("GOCACHE", dir.join("gocache"))
        .env("GOFLAGS", "-mod=mod")
        .env("GOPROXY", "off")
        .env("GO111MODULE", "on")
        .env("CGO_ENABLED", "0");
    command
}

/// `gcc` as every C test compiles a driver: C99, `-Wall -Wextra -Werror -pedantic`, the
/// address and undefined-behaviour sanitizers stopping at the first report, `-O1`; add
/// `-o OUTPUT SOURCE`.
#[must_use]
pub fn gcc_strict() -> Command {
    let mut command = Command::new("gcc");
    command.args([
        "-std=c99",
        "-Wall",
        "-Wextra",
        "-Werror",
        "-pedantic",
        "-fsanitize=address,undefined",
        "-fno-sanitize-recover=all",
        "-O1",
    ]);
    command
}

/// Runs `command`, and returns its standard output.
///
/// # Panics
///
/// When it cannot start or exits with failure; the message holds its standard error.
#[must_use]
pub fn run(command: &mut Command) -> String {
    let shown = format!("{command:?}");
    let output = command
        .output()
        .unwrap_or_else(|e| panic!("cannot run {shown}: {e}"));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "{shown} failed ({}):\n{stderr}",
        output.status
    );
    if !stderr.is_empty() {
        eprintln!("{shown} wrote to stderr:\n{stderr}");
    }
    String::from_utf8(output.stdout).expect("drivers print ASCII")
}
