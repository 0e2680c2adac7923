//! The `slotgen` binary, run as a user runs it.

use std::process::Output;

use crate::common::{slotgen_with_stdin as slotgen, stdout};

fn stderr_of_failure(output: &Output, code: i32) -> String {
    assert_eq!(output.status.code(), Some(code), "{output:?}");
    assert!(
        output.stdout.is_empty(),
        "a failure prints nothing on stdout: {output:?}"
    );
    String::from_utf8(output.stderr.clone()).unwrap()
}

#[test]
fn key_gives_the_seed_answers() {
    let out = slotgen(
        &[
            "key",
            "0",
            "1",
            "5461",
            "8192",
            "10922",
            "16383",
            "--prefix",
            "ms_health:",
            "--suffix",
            ":write",
        ],
        b"",
    );
    assert_eq!(
        stdout(&out),
        "0\tms_health:{DLH@}:write\n1\tms_health:{@A@H}:write\n5461\tms_health:{IDKA}:write\n\
         8192\tms_health:{OKNI}:write\n10922\tms_health:{HC@@}:write\n16383\tms_health:{EKCA}:write\n"
    );
}

#[test]
fn tag_takes_ranges_and_all() {
    let out = stdout(&slotgen(&["tag", "16382-16383"], b""));
    assert_eq!(out.lines().count(), 2);
    assert!(out.ends_with("16383\tEKCA\n"), "{out}");
    let all = stdout(&slotgen(&["tag", "--all", "0"], b""));
    let tags: Vec<&str> = all
        .lines()
        .map(|l| l.strip_prefix("0\t").unwrap())
        .collect();
    assert_eq!(tags.len(), 4);
    assert_eq!(tags[0], "DLH@");
    let xmodem = crc::Crc::<u16>::new(&crc::CRC_16_XMODEM);
    for tag in tags {
        assert_eq!(xmodem.checksum(tag.as_bytes()) & 0x3fff, 0, "{tag}");
    }
}

#[test]
fn slot_reads_arguments_stdin_and_hex() {
    assert_eq!(
        stdout(&slotgen(
            &[
                "slot",
                "123456789",
                "emq:{orders}:pending",
                "emq:{}:pending"
            ],
            b""
        )),
        "12739\n105\n7387\n"
    );
    assert_eq!(
        stdout(&slotgen(&["slot"], b"123456789\r\nemq:{orders}:pending\n")),
        "12739\n105\n"
    );
    // `{{a}}`, a lone 0xa1 byte and the empty key, as Redis answers them
    assert_eq!(
        stdout(&slotgen(&["slot", "--hex"], b"7b7b617d7d\na1\n\n")),
        "10276\n9675\n0\n"
    );
}

#[test]
fn derive_prints_the_constants_and_the_verification() {
    let out = stdout(&slotgen(&["derive"], b""));
    assert!(out.contains("base slot:  13881"), "{out}");
    assert!(
        out.contains("inverse:    0x88d4 0x808a 0x9007 0x9efb"),
        "{out}"
    );
    assert!(
        out.contains("verified:   16384/16384 slots, 65536 tags"),
        "{out}"
    );
    let json: serde_json::Value =
        serde_json::from_str(&stdout(&slotgen(&["derive", "--json"], b""))).unwrap();
    assert_eq!(json["base_slot"], 13881);
    assert_eq!(json["verification"]["tags_checked"], 65536);
}

#[test]
fn emit_rust_is_the_committed_table() {
    let out = stdout(&slotgen(&["emit", "rust", "--name", "REDIS_CLUSTER"], b""));
    let committed = include_str!("../../../../tables/src/redis_cluster.rs");
    assert_eq!(out, committed);
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        &["tag", "x"][..],
        &["tag"],
        &["tag", "9-3"],
        &["frobnicate"],
        &["slot", "--crc"],
    ] {
        let err = stderr_of_failure(&slotgen(args, b""), 2);
        assert!(!err.is_empty(), "{args:?}");
    }
}

#[test]
fn failures_exit_1_with_one_clear_line() {
    // a value not of its option's form is a usage error (exit 2); the work that cannot be
    // done, or a key that is not hex, exits 1 (the exit status rule of `--help`)
    let cases: [(&[&str], &str, i32); 6] = [
        (&["tag", "16384"], "slot 16384 is out of range", 2),
        (
            &["key", "1", "--prefix", "a{"],
            "prefix contains `{` at byte 1",
            2,
        ),
        (
            &["derive", "--crc", "XMODEN"],
            "nearest: `CRC-16/XMODEM`",
            2,
        ),
        (
            &["derive", "--alphabet", "@AB{"],
            "alphabet contains `{`",
            2,
        ),
        (&["derive", "--tag-len", "3"], "use tag length 4", 1),
        (&["tag", "0", "--slots", "1000"], "power of two", 2),
    ];
    for (args, needle, code) in cases {
        let err = stderr_of_failure(&slotgen(args, b""), code);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
    let err = stderr_of_failure(&slotgen(&["slot", "--hex", "zz"], b""), 2);
    assert!(err.contains("not hex"), "{err}");
}
