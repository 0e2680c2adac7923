//! `slotgen slot --scheme`: every named scheme's slot of the check string "123456789",
//! from the catalogue check values (CRC-32/ISO-HDLC 0xcbf43926, Tarantool's CRC-32C without
//! its final xor 0x1cf96d7c, CRC-16/XMODEM's CLUSTER KEYSLOT 12739), the hashtag rules, and
//! the errors of each scheme option. The real systems are checked in
//! `tests/tests/scheme_oracles.rs`.

mod common;

use common::slotgen_with_stdin;

fn slot(args: &[&str]) -> (bool, String, String) {
    let out = slotgen_with_stdin(args, b"");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

const ISO_HDLC: u32 = 0xcbf4_3926;
const TARANTOOL: u32 = 0x1cf9_6d7c;

#[test]
fn every_scheme_on_the_check_string() {
    let couchbase = (ISO_HDLC >> 16) & 0x7fff;
    for (args, expected) in [
        (vec!["--scheme", "redis-cluster"], 12739),
        (vec!["--scheme", "codis"], ISO_HDLC % 1024),
        (
            vec!["--scheme", "codis", "--slots", "1000"],
            ISO_HDLC % 1000,
        ),
        (vec!["--scheme", "couchbase"], couchbase % 1024),
        (
            vec!["--scheme", "couchbase", "--slots", "64"],
            couchbase % 64,
        ),
        (vec!["--scheme", "tarantool-vshard"], TARANTOOL % 3000 + 1),
        (
            vec!["--scheme", "tarantool-vshard", "--slots", "30000"],
            TARANTOOL % 30000 + 1,
        ),
        (
            vec!["--scheme", "librdkafka", "--slots", "12"],
            ISO_HDLC % 12,
        ),
        (
            vec!["--scheme", "twemproxy-crc32a", "--slots", "5"],
            ISO_HDLC % 5,
        ),
        (
            vec!["--scheme", "twemproxy-crc32", "--slots", "5"],
            couchbase % 5,
        ),
    ] {
        let mut full = vec!["slot"];
        full.extend(&args);
        full.push("123456789");
        let (ok, out, err) = slot(&full);
        assert!(ok, "{args:?}: {err}");
        assert_eq!(out, format!("{expected}\n"), "{args:?}");
    }
}

#[test]
fn hashtag_rules() {
    // Codis hashes an empty `{}` as the empty string (CRC 0, slot 0); Redis and twemproxy
    // hash the whole key then.
    let (_, codis, _) = slot(&["slot", "--scheme", "codis", "a{}b", "x{123456789}y"]);
    assert_eq!(codis, format!("0\n{}\n", ISO_HDLC % 1024));
    let (_, whole, _) = slot(&["slot", "--scheme", "codis", "a{}b"]);
    let (_, twemproxy, _) = slot(&[
        "slot",
        "--scheme",
        "twemproxy-crc32a",
        "--slots",
        "7",
        "--hash-tag",
        "{}",
        "a{}b",
        "x{123456789}y",
    ]);
    let (_, plain, _) = slot(&["slot", "--scheme", "librdkafka", "--slots", "7", "a{}b"]);
    assert_eq!(twemproxy, format!("{}{}\n", plain, ISO_HDLC % 7));
    assert_ne!(whole, plain);
    // Without --hash-tag, twemproxy hashes the whole key, braces and all.
    let (_, untagged, _) = slot(&[
        "slot",
        "--scheme",
        "twemproxy-crc32a",
        "--slots",
        "7",
        "x{123456789}y",
    ]);
    let (_, kafka, _) = slot(&[
        "slot",
        "--scheme",
        "librdkafka",
        "--slots",
        "7",
        "x{123456789}y",
    ]);
    assert_eq!(untagged, kafka);
    // Any two bytes delimit twemproxy's tag.
    let (_, colons, _) = slot(&[
        "slot",
        "--scheme",
        "twemproxy-crc32a",
        "--slots",
        "7",
        "--hash-tag",
        "::",
        "user:123456789:name",
    ]);
    assert_eq!(colons, format!("{}\n", ISO_HDLC % 7));
}

#[test]
fn scheme_errors_name_the_option_and_the_fix() {
    for (args, needle) in [
        (
            vec!["slot", "--scheme", "librdkafka", "a"],
            "give `--slots N`",
        ),
        (
            vec!["slot", "--scheme", "twemproxy-crc32", "a"],
            "give `--slots N`",
        ),
        (
            vec!["slot", "--scheme", "kafka", "a"],
            "unknown scheme `kafka`",
        ),
        (
            vec!["slot", "--scheme", "kafka", "a"],
            "nearest: `librdkafka`",
        ),
        (
            vec!["slot", "--scheme", "codis", "--hash-tag", "{}", "a"],
            "remove `--hash-tag`",
        ),
        (
            vec![
                "slot",
                "--scheme",
                "twemproxy-crc32a",
                "--slots",
                "3",
                "--hash-tag",
                "{",
                "a",
            ],
            "are not two bytes",
        ),
        (
            vec!["slot", "--scheme", "librdkafka", "--slots", "0", "a"],
            "at least one slot",
        ),
        (
            vec!["slot", "--scheme", "redis-cluster", "--slots", "3000", "a"],
            "not a power of two",
        ),
        (
            vec!["derive", "--scheme", "tarantool-vshard"],
            "takes only the redis-cluster scheme",
        ),
        (
            vec![
                "shortest",
                "--charset",
                "digits",
                "--scheme",
                "librdkafka",
                "--slots",
                "3",
            ],
            "takes only the redis-cluster scheme",
        ),
    ] {
        let (ok, _, err) = slot(&args);
        assert!(!ok, "{args:?} succeeded");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
    // redis-cluster is the default scheme: derived commands take it.
    let (ok, out, err) = slot(&["tag", "--scheme", "redis-cluster", "0"]);
    assert!(ok, "{err}");
    assert_eq!(out, "0\tDLH@\n");
}

/// `catalog --all-widths`: the 97 catalogue CRCs of width 8 to 64, each with its check value
/// verified, as text and as `--format jsonl` records (the independent values: the
/// catalogue's check values of CRC-32/ISO-HDLC and CRC-64/XZ).
#[test]
fn catalog_all_widths_as_text_and_records() {
    let (ok, text, err) = slot(&["catalog", "--all-widths"]);
    assert!(ok, "{err}");
    assert_eq!(text.lines().count(), 1 + 97, "{text}");
    assert!(text.lines().skip(1).all(|l| l.ends_with(" yes")), "{text}");
    let (ok, jsonl, err) = slot(&["catalog", "--all-widths", "--format", "jsonl"]);
    assert!(ok, "{err}");
    let rows: Vec<serde_json::Value> = jsonl
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 97, "{jsonl}");
    assert!(rows.iter().all(|r| r["check_verified"] == true), "{jsonl}");
    let check = |name: &str| {
        rows.iter()
            .find(|r| r["name"] == name)
            .map(|r| r["check"].as_u64().unwrap())
    };
    assert_eq!(check("CRC-32/ISO-HDLC"), Some(0xcbf4_3926));
    assert_eq!(check("CRC-64/XZ"), Some(0x995d_c9bb_df19_39fa));
    // --header is for tsv only, as on the CRC-16 listing
    let (ok, _, err) = slot(&["catalog", "--all-widths", "--header"]);
    assert!(!ok && err.contains("--header"), "{err}");
}

/// `emit rust --scheme`: the file is the library's `scheme_file` for the same spec, byte for
/// byte (the tests crate snapshots that file and compiles the emitter's tokens), and the
/// command on its `@generated` line, rerun as written, gives the same file.
#[test]
fn emit_rust_takes_every_scheme() {
    use slotgen::scheme::invert::{derive, SchemeSpec};
    use slotgen_tables::SchemeName;

    for (args, spec) in [
        (
            vec!["--scheme", "tarantool-vshard"],
            SchemeSpec::new(SchemeName::TarantoolVshard),
        ),
        (
            vec!["--scheme", "librdkafka", "--slots", "12", "--tag-len", "10"],
            SchemeSpec {
                slots: Some(12),
                tag_len: Some(10),
                ..SchemeSpec::new(SchemeName::Librdkafka)
            },
        ),
        (
            vec![
                "--scheme",
                "twemproxy-crc32",
                "--slots",
                "5",
                "--hash-tag",
                "::",
                "--alphabet=-/=?",
            ],
            SchemeSpec {
                slots: Some(5),
                hash_tag: Some(*b"::"),
                alphabet: b"-/=?".to_vec(),
                ..SchemeSpec::new(SchemeName::TwemproxyCrc32)
            },
        ),
    ] {
        let mut full = vec!["emit", "rust", "--name", "TABLE"];
        full.extend(&args);
        let (ok, out, err) = slot(&full);
        assert!(ok, "{args:?}: {err}");
        let expected = slotgen::emit::rust::scheme_file(&derive(&spec).unwrap(), "TABLE").unwrap();
        assert_eq!(out, expected, "{args:?}");
        let command = out
            .lines()
            .next()
            .and_then(|line| line.strip_prefix("// @generated by slotgen "))
            .unwrap_or_else(|| panic!("no @generated line: {out}"));
        let words = shlex::split(command).expect("a shell command line");
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        let (ok, again, err) = slot(&words);
        assert!(ok, "{command}: {err}");
        assert_eq!(again, out, "{command}");
    }
    let (ok, _, err) = slot(&["emit", "rust", "--scheme", "librdkafka"]);
    assert!(!ok);
    assert!(err.contains("give `--slots N`"), "{err}");
}
