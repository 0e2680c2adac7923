//! `slotgen slot --scheme`: every named scheme's slot of the check string "123456789",
//! from the catalogue check values (CRC-32/ISO-HDLC 0xcbf43926, Tarantool's CRC-32C without
//! its final xor 0x1cf96d7c, CRC-16/XMODEM's CLUSTER KEYSLOT 12739), the hashtag rules, and
//! the errors of each scheme option. The real systems are checked in
//! `tests/tests/scheme_oracles.rs`.

use crate::common;
use crate::common::{crc::iso_hdlc, crc::tarantool};

use crate::common::slotgen_with_stdin;

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
    // The exit status: 2 for an option wrong by itself, 1 for work that cannot be done.
    // Each case: the arguments, split at spaces; the exit status; a part of the message.
    for (args, code, needle) in [
        (
            "slot --scheme librdkafka a",
            2,
            "(`--slots N` on the command line)",
        ),
        (
            "slot --scheme twemproxy-crc32 a",
            2,
            "(`--slots N` on the command line)",
        ),
        ("slot --scheme kafka a", 2, "unknown scheme `kafka`"),
        ("slot --scheme kafka a", 2, "nearest: `librdkafka`"),
        (
            "slot --scheme codis --hash-tag {} a",
            2,
            "remove `--hash-tag`",
        ),
        (
            "slot --scheme twemproxy-crc32a --slots 3 --hash-tag { a",
            2,
            "are not two bytes",
        ),
        (
            "slot --scheme librdkafka --slots 0 a",
            2,
            "at least one slot",
        ),
        (
            "slot --scheme redis-cluster --slots 3000 a",
            2,
            "a power of two from 2 to 65536",
        ),
        ("tag --scheme tarantool-vshard 0", 2, "slots are 1 to 3000"),
        (
            "tag --scheme twemproxy-crc16 --slots 3 --charset alnum 0",
            2,
            "at most 30 of the 32 bits",
        ),
        (
            "tag --scheme twemproxy-crc32a --slots 3 --hash-tag :: --charset : 0",
            1,
            "no affine alphabet inside charset `:`",
        ),
        (
            "tag --scheme codis --crc modbus 0",
            2,
            "cannot be given together",
        ),
        (
            "tag --scheme tarantool-vshard --tag-len 9 1",
            1,
            "at least 10",
        ),
        (
            "tag --scheme twemproxy-crc32a --slots 3 --hash-tag :: --alphabet 89:;<=>? 0",
            2,
            "hashtag delimiters",
        ),
        (
            "tag --scheme couchbase --slots 65536 0",
            2,
            "give at most 32768 slots",
        ),
        (
            "verify --redis redis://127.0.0.1:1 --scheme codis",
            2,
            "CLUSTER KEYSLOT answers by Redis Cluster's rule",
        ),
        ("slot --scheme nope a", 2, "unknown scheme `nope`"),
        (
            "slot --scheme librdkafka --slots 4294967296 a",
            2,
            "give at most 4294967295",
        ),
        ("tag --scheme nope 0", 2, "unknown scheme `nope`"),
        (
            "key --scheme librdkafka 0",
            2,
            "(`--slots N` on the command line)",
        ),
        (
            "emit python --scheme twemproxy-crc32 --slots 3 --hash-tag {}}",
            2,
            "are not two bytes",
        ),
    ]
    .into_iter()
    .map(|(line, code, needle)| (line.split(' ').collect::<Vec<_>>(), code, needle))
    // An empty scheme name, which words split by spaces cannot spell.
    .chain([(vec!["slot", "--scheme", "", "a"], 2, "unknown scheme ``")])
    {
        let out = slotgen_with_stdin(&args, b"");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(code), "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
    // redis-cluster is the default scheme: derived commands take it.
    let (ok, out, err) = slot(&["tag", "--scheme", "redis-cluster", "0"]);
    assert!(ok, "{err}");
    assert_eq!(out, "0\tDLH@\n");
}

/// The hashtag of a key under a `{}` rule, written out: the bytes between the first `{`
/// and the first `}` after it; with `empty_is_whole`, an empty tag hashes the whole key.
fn braces(key: &[u8], empty_is_whole: bool) -> &[u8] {
    let Some(open) = key.iter().position(|&b| b == b'{') else {
        return key;
    };
    match key[open + 1..].iter().position(|&b| b == b'}') {
        Some(0) if empty_is_whole => key,
        Some(len) => &key[open + 1..open + 1 + len],
        None => key,
    }
}

/// `tag`, `key` and `tag --all` for every slot of every scheme: each tag and key lands on
/// its slot by the formulas written out here over independent CRCs.
#[test]
fn tags_and_keys_land_by_an_independent_crc() {
    type Slot = fn(&[u8]) -> u32;
    let cases: [(&[&str], &str, Slot); 8] = [
        (&["--scheme", "codis"], "0-1023", |k| {
            iso_hdlc(braces(k, false)) % 1024
        }),
        (&["--scheme", "couchbase"], "0-1023", |k| {
            (iso_hdlc(k) >> 16 & 0x7fff) % 1024
        }),
        (
            &["--scheme", "couchbase", "--slots", "1000"],
            "0-999",
            |k| (iso_hdlc(k) >> 16 & 0x7fff) % 1000,
        ),
        (&["--scheme", "tarantool-vshard"], "1-3000", |k| {
            tarantool(k) % 3000 + 1
        }),
        (&["--scheme", "librdkafka", "--slots", "12"], "0-11", |k| {
            iso_hdlc(k) % 12
        }),
        (
            &[
                "--scheme",
                "twemproxy-crc32a",
                "--slots",
                "3",
                "--hash-tag",
                "{}",
            ],
            "0-2",
            |k| iso_hdlc(braces(k, true)) % 3,
        ),
        (
            &["--scheme", "twemproxy-crc32", "--slots", "5"],
            "0-4",
            |k| (iso_hdlc(k) >> 16 & 0x7fff) % 5,
        ),
        (
            &["--scheme", "redis-cluster", "--slots", "1024"],
            "0-1023",
            |k| {
                u32::from(crc::Crc::<u16>::new(&crc::CRC_16_XMODEM).checksum(braces(k, true)))
                    % 1024
            },
        ),
    ];
    for (options, range, slot_of) in cases {
        for (command, extra) in [
            ("tag", &[][..]),
            ("tag", &["--all"][..]),
            ("key", &["--prefix", "user:", "--suffix", ":x"][..]),
        ] {
            let whole_key = matches!(
                options[1],
                "couchbase" | "tarantool-vshard" | "librdkafka" | "twemproxy-crc32"
            );
            if command == "key" && whole_key {
                continue; // a whole-key scheme's key is its tag
            }
            // a whole 32-bit value has 2^32 / slots values per slot, each with its kernel
            let huge = matches!(
                options[1],
                "tarantool-vshard" | "librdkafka" | "twemproxy-crc32a"
            );
            if extra == ["--all"] && huge {
                continue;
            }
            let mut args = vec![command];
            args.extend(options);
            args.extend(extra);
            args.push(range);
            let (ok, out, err) = slot(&args);
            assert!(ok, "{args:?}: {err}");
            let mut lines = 0;
            for line in out.lines() {
                let (slot, text) = line.split_once('\t').unwrap();
                let slot: u32 = slot.parse().unwrap();
                let key = if command == "tag" && !whole_key {
                    format!("{{{text}}}")
                } else {
                    text.to_owned()
                };
                assert_eq!(slot_of(key.as_bytes()), slot, "{args:?}: {line}");
                lines += 1;
            }
            let (first, last) = range.split_once('-').unwrap();
            let slots = last.parse::<u32>().unwrap() - first.parse::<u32>().unwrap() + 1;
            if extra.is_empty() {
                assert_eq!(lines, slots, "{args:?}");
            } else {
                assert!(lines >= slots, "{args:?}");
            }
        }
    }
}

/// `derive --scheme` and `emit json --scheme` write a derivation that `verify` reads back
/// and passes; an edited value fails it, naming the value.
#[test]
fn scheme_json_round_trips_through_verify() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("vshard.json");
    let path_text = path.to_str().unwrap();
    let (ok, _, err) = slot(&[
        "emit",
        "json",
        "--scheme",
        "tarantool-vshard",
        "-o",
        path_text,
    ]);
    assert!(ok, "{err}");
    let (ok, out, err) = slot(&["verify", path_text]);
    assert!(ok, "{err}");
    assert!(out.contains("verified:   3000/3000 slots"), "{out}");
    let (ok, derived, err) = slot(&["derive", "--scheme", "tarantool-vshard", "--json"]);
    assert!(ok, "{err}");
    assert_eq!(derived, std::fs::read_to_string(&path).unwrap());
    let mut value: serde_json::Value = serde_json::from_str(&derived).unwrap();
    value["columns"][3] = "00000000000000000001".into();
    std::fs::write(&path, value.to_string()).unwrap();
    let out = common::slotgen_with_stdin(&["verify", path_text], b"");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("mismatch:   `columns[3]`"));
    // the text form says what was solved for
    let (ok, text, _) = slot(&["derive", "--scheme", "librdkafka", "--slots", "12"]);
    assert!(ok);
    assert!(
        text.contains("solved:     the whole 32-bit value"),
        "{text}"
    );
    assert!(text.contains("tag length: 9 symbols"), "{text}");
}

/// `shortest --scheme`: a tag per line from the first slot, each landing by the
/// independent CRC; `verify --tags --scheme` reads it back.
#[test]
fn shortest_tags_for_a_scheme() {
    let (ok, out, err) = slot(&[
        "shortest",
        "--scheme",
        "tarantool-vshard",
        "--charset",
        "alnum",
    ]);
    assert!(ok, "{err}");
    let tags: Vec<&str> = out.lines().collect();
    assert_eq!(tags.len(), 3000);
    for (i, tag) in tags.iter().enumerate() {
        assert!((1..=3).contains(&tag.len()), "{tag}");
        assert_eq!(tarantool(tag.as_bytes()) % 3000 + 1, i as u32 + 1, "{tag}");
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tags.txt");
    std::fs::write(&path, &out).unwrap();
    let path_text = path.to_str().unwrap();
    let (ok, _, err) = slot(&[
        "verify",
        "--tags",
        path_text,
        "--scheme",
        "tarantool-vshard",
    ]);
    assert!(ok, "{err}");
    let (ok, _, _) = slot(&[
        "verify",
        "--tags",
        path_text,
        "--scheme",
        "tarantool-vshard",
        "--slots",
        "2999",
    ]);
    assert!(!ok);
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

/// `emit rust --scheme`: the file is the library's `emit::rust::file` for the same spec, byte for
/// byte (the tests crate snapshots that file and compiles the emitter's tokens), and the
/// command on its `@generated` line, rerun as written, gives the same file.
#[test]
fn emit_rust_takes_every_scheme() {
    use slotgen::derive;
    use slotgen::scheme::invert::SchemeSpec;
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
        let expected = slotgen::emit::rust::file(&derive(&spec).unwrap(), "TABLE").unwrap();
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
    assert!(err.contains("(`--slots N` on the command line)"), "{err}");
}

/// The command line and the build.rs API resolve one request alike: for each list of
/// options, `emit rust` prints exactly the file `build::Table` renders from the
/// `slotgen::request::Request` of the same options, written out by hand here (a CRC-16
/// table, a custom CRC whole and by `--poly` with the defaults, a charset for either shape,
/// and `redis-cluster`, whose request is the CRC-16 table).
#[test]
fn emit_rust_is_the_build_api_file_of_the_same_request() {
    use slotgen::charset::Charset;
    use slotgen::request::{CustomCrc, Request};

    let charset = |c: &str| Some(Charset::parse(c).unwrap());
    for (args, request) in [
        (
            vec!["--crc", "MODBUS", "--charset", "[0-9a-f]"],
            Request {
                crc: Some("MODBUS".to_owned()),
                charset: charset("[0-9a-f]"),
                ..Request::default()
            },
        ),
        (
            vec![
                "--poly",
                "0x8005",
                "--init",
                "0x1234",
                "--refin",
                "true",
                "--refout",
                "false",
                "--xorout",
                "0xbeef",
                "--alphabet",
                "01234567",
                "--slots",
                "4096",
            ],
            Request {
                custom: Some(CustomCrc {
                    poly: 0x8005,
                    init: Some(0x1234),
                    refin: Some(true),
                    refout: Some(false),
                    xorout: Some(0xbeef),
                }),
                alphabet: Some(b"01234567".to_vec()),
                slots: Some(4096),
                ..Request::default()
            },
        ),
        (
            vec!["--poly", "0x8005", "--refin", "true"],
            Request {
                custom: Some(CustomCrc {
                    poly: 0x8005,
                    refin: Some(true),
                    ..CustomCrc::default()
                }),
                ..Request::default()
            },
        ),
        (
            vec!["--scheme", "codis", "--charset", "alnum", "--tag-len", "3"],
            Request {
                scheme: Some("codis".to_owned()),
                charset: charset("alnum"),
                tag_len: Some(3),
                ..Request::default()
            },
        ),
        (
            vec!["--scheme", "redis-cluster", "--slots", "1024"],
            Request {
                scheme: Some("redis-cluster".to_owned()),
                slots: Some(1024),
                ..Request::default()
            },
        ),
    ] {
        let mut full = vec!["emit", "rust", "--name", "TABLE"];
        full.extend(&args);
        let (ok, out, err) = slot(&full);
        assert!(ok, "{args:?}: {err}");
        let expected = slotgen::build::Table::new("TABLE")
            .request(&request)
            .render()
            .unwrap_or_else(|e| panic!("{args:?}: {e}"));
        assert_eq!(out, expected, "{args:?}");
    }
}

/// Keys with a prefix and a suffix for the schemes that hash the whole key: the tag is
/// solved inside the frame, and every key lands on its slot by the independent CRCs above,
/// for every slot (every key of a slot with `--all`, for librdkafka).
#[test]
fn whole_key_schemes_take_a_prefix_and_a_suffix() {
    /// The scheme's options, the prefix, the suffix, the first and last slot, and the slot
    /// of a key by an independent CRC.
    type Case = (
        &'static [&'static str],
        &'static str,
        &'static str,
        u32,
        u32,
        fn(&[u8]) -> u32,
    );
    let cases: [Case; 5] = [
        (
            &["--scheme", "librdkafka", "--slots", "12"],
            "order-",
            ":eu",
            0,
            11,
            |k| iso_hdlc(k) % 12,
        ),
        (
            &["--scheme", "tarantool-vshard"],
            "user:",
            "",
            1,
            3000,
            |k| tarantool(k) % 3000 + 1,
        ),
        (&["--scheme", "couchbase"], "doc::", "", 0, 1023, |k| {
            ((iso_hdlc(k) >> 16) & 0x7fff) % 1024
        }),
        (
            &["--scheme", "twemproxy-crc32a", "--slots", "5"],
            "",
            "-session",
            0,
            4,
            |k| iso_hdlc(k) % 5,
        ),
        (
            &["--scheme", "twemproxy-crc32", "--slots", "7"],
            "k",
            "v",
            0,
            6,
            |k| ((iso_hdlc(k) >> 16) & 0x7fff) % 7,
        ),
    ];
    for (scheme, prefix, suffix, first, last, slot_of) in cases {
        let range = format!("{first}-{last}");
        let mut args = vec!["key"];
        args.extend_from_slice(scheme);
        let (p, x) = (format!("--prefix={prefix}"), format!("--suffix={suffix}"));
        args.extend_from_slice(&[&p, &x, &range]);
        let (ok, out, err) = slot(&args);
        assert!(ok, "{args:?}: {err}");
        let mut seen = 0;
        for (line, expected) in out.lines().zip(first..=last) {
            let (slot, key) = line.split_once('\t').expect("slot, tab, key");
            assert_eq!(slot, expected.to_string(), "{args:?}");
            assert!(key.starts_with(prefix) && key.ends_with(suffix), "{key}");
            assert!(key.len() > prefix.len() + suffix.len(), "{key}");
            assert_eq!(slot_of(key.as_bytes()), expected, "{args:?}: {key}");
            seen += 1;
        }
        assert_eq!(seen, last - first + 1, "{args:?}");
    }
    // every key of one slot: distinct, all on the slot
    let (ok, out, err) = slot(&[
        "key",
        "--scheme",
        "librdkafka",
        "--slots",
        "12",
        "--prefix",
        "order-",
        "--all",
        "7",
    ]);
    assert!(ok, "{err}");
    let keys: std::collections::HashSet<&str> = out
        .lines()
        .map(|l| l.strip_prefix("7\t").unwrap())
        .collect();
    assert_eq!(keys.len(), out.lines().count());
    assert!(keys.len() >= 16, "{}", keys.len());
    assert!(keys.iter().all(|k| iso_hdlc(k.as_bytes()) % 12 == 7));
    // a hashtag scheme keeps its delimiters around the tag
    let (ok, out, _) = slot(&[
        "key", "--scheme", "codis", "--prefix", "a", "--suffix", "b", "0",
    ]);
    assert!(ok);
    let key = out.trim_end().strip_prefix("0\t").unwrap();
    assert!(key.starts_with("a{") && key.ends_with("}b"), "{key}");
}

/// `--charset` with `--scheme`: the alphabet is chosen inside the charset as for a CRC-16
/// table, without the scheme's delimiters, and reported on standard error; every tag and
/// key lands on its slot by the independent CRCs above.
#[test]
fn a_charset_chooses_a_schemes_alphabet() {
    type Slot = fn(&[u8]) -> u32;
    let cases: [(&[&str], &str, &str, Slot); 4] = [
        (
            &[
                "--scheme",
                "librdkafka",
                "--slots",
                "12",
                "--charset",
                "alnum",
            ],
            "0-11",
            "alphabet `HIJKLMNOPQRSTUVWhijklmnopqrstuvw` (32 symbols): 7-symbol tags",
            |k| iso_hdlc(k) % 12,
        ),
        (
            &["--scheme", "codis", "--charset", "alnum"],
            "0-1023",
            "alphabet `HIJKLMNOPQRSTUVWhijklmnopqrstuvw` (32 symbols)",
            |k| iso_hdlc(braces(k, false)) % 1024,
        ),
        (
            &["--scheme", "tarantool-vshard", "--charset", "digits"],
            "1-3000",
            "alphabet `01234567` (8 symbols): 11-symbol tags",
            |k| tarantool(k) % 3000 + 1,
        ),
        (
            &[
                "--scheme",
                "twemproxy-crc32a",
                "--slots",
                "3",
                "--hash-tag",
                "::",
                "--charset",
                "[0-9:;<=>?]",
            ],
            "0-2",
            "alphabet `0123<=>?` (8 symbols)",
            |k| {
                let tag = k.split(|&b| b == b':').nth(1).unwrap_or(k);
                iso_hdlc(tag) % 3
            },
        ),
    ];
    for (options, range, chosen, slot_of) in cases {
        let mut args = vec!["key"];
        args.extend(options);
        args.push(range);
        let out = slotgen_with_stdin(&args, b"");
        let (stdout, stderr) = (
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr),
        );
        assert!(out.status.success(), "{args:?}: {stderr}");
        assert!(stderr.contains(chosen), "{args:?}: {stderr}");
        for line in stdout.lines() {
            let (slot, key) = line.split_once('\t').unwrap();
            assert_eq!(
                slot_of(key.as_bytes()).to_string(),
                slot,
                "{args:?}: {line}"
            );
        }
        let (first, last) = range.split_once('-').unwrap();
        let count = last.parse::<usize>().unwrap() - first.parse::<usize>().unwrap() + 1;
        assert_eq!(stdout.lines().count(), count);
    }
}
