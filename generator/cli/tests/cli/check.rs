//! `slotgen check`, run as a program: rows and summaries, every warning, exit codes, the
//! JSON form read back, templates, standard input. Slots are the ones a real redis-server
//! 7.0 answers to `CLUSTER KEYSLOT` (105 for `emq:{orders}:...`, 7387 and 5857 for the
//! `emq:{}:...` keys, 12682 for `emq:{billing}:...`, 9051 for `{emq}:version`, 13828, 5061,
//! 7365 and 15602 for the four traps of docs/verification.md), written out.

use crate::common;
use crate::common::{crc::hash_crc16, crc::iso_hdlc, crc::tarantool, Run};

fn check(args: &[&str]) -> Run {
    check_with_input(args, b"")
}

fn check_with_input(args: &[&str], stdin: &[u8]) -> Run {
    let args: Vec<&str> = std::iter::once("check")
        .chain(args.iter().copied())
        .collect();
    let (output, written) = common::slotgen_fed(&args, stdin);
    // A large input is read to its end while slotgen answers, as in a pipeline; a small one
    // may be left unread by a refused command line.
    if stdin.len() >= 4096 {
        written.expect("slotgen reads all its input");
    }
    Run::from(output)
}

#[test]
fn the_readme_example_one_queue_on_one_slot() {
    let run = check(&["--same-slot", "emq:{orders}:pending", "emq:{orders}:active"]);
    run.ok();
    assert_eq!(
        run.stdout,
        "105\torders\temq:{orders}:pending\t-\n\
         105\torders\temq:{orders}:active\t-\n\
         # keys: 2, distinct slots: 1, keys with warnings: 0\n\
         # same slot 105\n\
         # shared hashtag: orders\n"
    );
}

#[test]
fn the_readme_example_empty_hashtags_are_crossslot() {
    let run = check(&["--same-slot", "emq:{}:pending", "emq:{}:active"]);
    run.fails_with("the 2 keys land on 2 slots");
    assert_eq!(
        run.stdout,
        "7387\t-\temq:{}:pending\tempty-hashtag\n\
         5857\t-\temq:{}:active\tempty-hashtag\n\
         # keys: 2, distinct slots: 2, keys with warnings: 2\n\
         # empty-hashtag: 2 keys: the first `{` is followed at once by `}`, so the whole key is hashed\n\
         # CROSSSLOT: 2 slots\n\
         # shared hashtag: none\n"
    );
    // The advice names a hashtag from the keys themselves; followed, the keys meet.
    run.says("such as `{emq}`, taken from your keys");
    check(&["--same-slot", "emq:{emq}:pending", "emq:{emq}:active"])
        .ok()
        .prints("# same slot ");
    let run = check(&["--same-slot", "jobs:pending", "queue:{billing}:active"]);
    run.says("such as `{billing}`");
    check(&[
        "--same-slot",
        "jobs:{billing}:pending",
        "queue:{billing}:active",
    ])
    .ok();
}

#[test]
fn the_readme_example_four_traps() {
    let run = check(&[
        "app:s:{authz_{orgid}_groups_1}",
        "foo{bar}{zap}",
        "a}b{c}",
        "emq:{orders",
    ]);
    run.ok();
    assert_eq!(
        run.stdout,
        "13828\tauthz_{orgid\tapp:s:{authz_{orgid}_groups_1}\tnested-brace\n\
         5061\tbar\tfoo{bar}{zap}\tlater-pairs-ignored\n\
         7365\tc\ta}b{c}\tbrace-before-tag\n\
         15602\t-\temq:{orders\tunclosed-brace\n\
         # keys: 4, distinct slots: 4, keys with warnings: 4\n\
         # unclosed-brace: 1 key: no `}` follows the first `{`, so the whole key is hashed\n\
         # nested-brace: 1 key: the hashtag contains `{`: it ends at the first `}`, not at the matching one\n\
         # later-pairs-ignored: 1 key: more `{...}` follow the first pair, and only the first pair is hashed\n\
         # brace-before-tag: 1 key: a `}` stands before the first `{`: Redis ignores it, some clients end the tag there\n"
    );
}

#[test]
fn the_readme_example_templates_and_json() {
    let run = check(&[
        "--template",
        "emq:{q}:pending",
        "--template",
        "emq:{q}:active",
        "--template",
        "{emq}:version",
        "--with",
        "q=orders,billing",
    ]);
    assert_eq!(
        run.stdout,
        "105\torders\temq:{orders}:pending\t-\n\
         105\torders\temq:{orders}:active\t-\n\
         9051\temq\t{emq}:version\t-\n\
         12682\tbilling\temq:{billing}:pending\t-\n\
         12682\tbilling\temq:{billing}:active\t-\n\
         9051\temq\t{emq}:version\t-\n\
         # keys: 6, distinct slots: 3, keys with warnings: 0\n\
         # instance q=orders: CROSSSLOT: 2 slots; off slot 105: {emq}:version\n\
         # instance q=billing: CROSSSLOT: 2 slots; off slot 12682: {emq}:version\n\
         # template {emq}:version: off its instance's slot in 2 of 2 instances\n"
    );
    assert_eq!(
        run.stderr,
        "slotgen: error: 2 of 2 template instances land on more than one slot (CROSSSLOT in one command); \
         off the slot of the others: `{emq}:version`: put every key of an instance under the same hashtag\n"
    );
    let run = check_with_input(&["--hex", "--format", "json"], b"ff7b617d\n");
    run.ok();
    assert_eq!(
        run.stdout,
        "{\"crc\":\"CRC-16/XMODEM\",\"format\":\"slotgen-check/1\",\"slots\":16384,\"keys\":[\n\
         {\"hashtag\":\"a\",\"hashtag_hex\":\"61\",\"key\":null,\"key_hex\":\"ff7b617d\",\"slot\":15495,\"warnings\":[\"binary-brace\"]}],\
         \"summary\":{\"distinct_slots\":1,\"explanations\":{\"binary-brace\":\"the key is not UTF-8 text and holds a brace byte (0x7b or 0x7d), which makes a hashtag nobody meant\"},\
         \"keys\":1,\"keys_with_warnings\":1,\"same_slot\":null,\"slots\":[15495],\"strict\":null,\"warnings\":{\"binary-brace\":1}}}\n"
    );
}

#[test]
fn the_readme_example_vectors() {
    let output =
        common::slotgen_with_stdin(&["emit", "vectors", "--count", "6", "--seed", "1"], b"");
    assert!(output.status.success());
    assert_eq!(
        String::from_utf8(output.stdout).unwrap(),
        "# slotgen vectors 1: CRC-16/XMODEM, 16384 slots, seed 1, 6 keys; key_hex<TAB>slot<TAB>class\n\
         313233343536373839\t12739\tplain\n\
         656d713a7b6f72646572737d3a70656e64696e67\t105\ttagged\n\
         656d713a7b6f72646572737d3a616374697665\t105\ttagged\n\
         656d713a7b7d3a70656e64696e67\t7387\tempty-hashtag\n\
         656d713a7b7d3a616374697665\t5857\tempty-hashtag\n\
         7b656d717d3a76657273696f6e\t9051\ttagged\n"
    );
}

#[test]
fn every_warning_in_the_warnings_column() {
    let cases = [
        ("emq:{}:pending", "-", "empty-hashtag"),
        ("emq:{orders:pending", "-", "unclosed-brace"),
        (
            "app:s:{authz_{orgid}_groups_1}",
            "authz_{orgid",
            "nested-brace",
        ),
        ("foo{bar}{zap}", "bar", "later-pairs-ignored"),
        ("a}b{c}", "c", "brace-before-tag"),
        (
            "}{}{x}",
            "-",
            "empty-hashtag,later-pairs-ignored,brace-before-tag",
        ),
        ("plain", "-", "-"),
    ];
    let keys: Vec<&str> = cases.iter().map(|c| c.0).collect();
    let run = check(&keys);
    run.ok();
    let rows = run.rows();
    assert_eq!(rows.len(), cases.len());
    for (row, (key, tag, warnings)) in rows.iter().zip(cases) {
        assert_eq!(&row[1..], [tag, key, warnings], "{}", run.stdout);
    }
    for name in [
        "empty-hashtag",
        "unclosed-brace",
        "nested-brace",
        "later-pairs-ignored",
        "brace-before-tag",
    ] {
        assert!(
            run.stdout.contains(&format!("\n# {name}: ")),
            "{name}: {}",
            run.stdout
        );
    }
    // a binary key, by --hex: 0xff, `{a}`
    let run = check(&["--hex", "ff7b617d"]);
    run.ok();
    assert_eq!(run.rows()[0][1..], ["a", "\\xff{a}", "binary-brace"]);
}

#[test]
fn strict_fails_on_any_warning_and_only_then() {
    check(&["--strict", "emq:{orders}:pending"]).ok();
    check(&["--strict", "emq:{orders}:pending", "foo{bar}{zap}"])
        .fails_with("--strict: 1 of 2 keys fall into a trap");
    // without --strict, warnings do not fail
    check(&["foo{bar}{zap}"]).ok();
    // --same-slot passes but --strict fails
    check(&["--same-slot", "--strict", "{{a}1", "{{a}2"]).fails_with("--strict");
}

#[test]
fn templates_name_the_one_that_breaks_co_location() {
    let run = check(&[
        "--template",
        "emq:{q}:pending",
        "--template",
        "emq:{q}:active",
        "--template",
        "{emq}:version",
        "--with",
        "q=orders,billing",
    ]);
    run.fails_with("2 of 2 template instances land on more than one slot")
        .fails_with("`{emq}:version`");
    let slots: Vec<&str> = run.rows().iter().map(|r| r[0]).collect();
    assert_eq!(slots, ["105", "105", "9051", "12682", "12682", "9051"]);
    assert!(
        run.stdout
            .contains("# instance q=orders: CROSSSLOT: 2 slots; off slot 105: {emq}:version\n"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("# instance q=billing: CROSSSLOT: 2 slots; off slot 12682: {emq}:version\n"),
        "{}",
        run.stdout
    );
    assert!(run
        .stdout
        .contains("# template {emq}:version: off its instance's slot in 2 of 2 instances\n"));

    // without it, every instance is on one slot and shares its hashtag
    let run = check(&[
        "--template",
        "emq:{q}:pending",
        "--template",
        "emq:{q}:active",
        "--with",
        "q=orders,billing",
    ]);
    run.ok();
    assert!(run
        .stdout
        .contains("# instance q=orders: same slot 105, shared hashtag orders\n"));
    assert!(run
        .stdout
        .contains("# instance q=billing: same slot 12682, shared hashtag billing\n"));

    // an empty value is the `{}` trap
    let run = check(&[
        "--template",
        "emq:{q}:pending",
        "--template",
        "emq:{q}:active",
        "--with",
        "q=",
    ]);
    run.fails_with("1 of 1 template instances");
    run.prints("# instance q=: CROSSSLOT: 2 slots");
}

/// `--with 'q=a\,b'` gave the values `a\` and `b`: no value could hold a comma. `\,` is a
/// comma within a value and `\\` a backslash; each instance's key is the key a plain check
/// reads.
#[test]
fn with_values_hold_escaped_commas() {
    let run = check(&["--template", "x{q}", "--with", r"q=a\,b,c\\,d\t"]);
    run.ok();
    // the key column, a backslash shown escaped
    let keys: Vec<&str> = run.rows().iter().map(|r| r[2]).collect();
    assert_eq!(keys, ["x{a,b}", r"x{c\\}", r"x{d\\t}"]);
    let plain = check(&["x{a,b}", r"x{c\}", r"x{d\t}"]);
    assert_eq!(run.rows(), plain.rows());
    // an instance's name writes its values as --with takes them: one value `a,b` and two
    // placeholders `q=a`, `r=b` are told apart
    run.prints(r"# instance q=a\,b: same slot");
    run.prints(r"# instance q=c\\: same slot");
    let two = check(&["--template", "x{q}{r}", "--with", "q=a", "--with", "r=b"]);
    two.prints("# instance q=a,r=b: ");
}

#[test]
fn summary_lines_escape_template_and_with_values() {
    // a --with value that sets a terminal's title, and one that would forge a summary line
    // (found by a newcomer: the key rows were escaped, the summary lines not)
    let run = check(&[
        "--template",
        "a{q}",
        "--template",
        "{z}\u{1b}",
        "--with",
        "q=\u{1b}]0;x\u{7},b\n# same slot 7",
    ]);
    run.fails_with("2 of 2 template instances");
    assert!(
        !run.stdout.contains(['\u{1b}', '\u{7}']),
        "{:?}",
        run.stdout
    );
    run.prints("# instance q=\\x1b]0;x\\x07: CROSSSLOT: 2 slots; off slot");
    run.prints("# instance q=b\\x0a# same slot 7: CROSSSLOT");
    run.prints("# template {z}\\x1b: off its instance's slot in 2 of 2 instances");
    assert!(
        !run.stdout.lines().any(|l| l.starts_with("# same slot 7")),
        "{}",
        run.stdout
    );
}

#[test]
fn template_mistakes_are_named() {
    // each a usage error (exit 2), found before any key is read
    check(&["--template", "emq:{q}:pending", "--with", "queue=a"])
        .fails_with_code(2, "no --template has the placeholder `{queue}`");
    check(&["--template", "emq:{q}:pending", "--with", "q"]).fails_with_code(2, "has no `=`");
    check(&["--template", "{q}", "--with", "q=a", "--with", "q=b"])
        .fails_with_code(2, "is given twice");
    // --with without --template, and templates with keys, are usage errors
    assert_eq!(check(&["--with", "q=a"]).code, Some(2));
    assert_eq!(check(&["--template", "{q}", "key"]).code, Some(2));
}

#[test]
fn json_reads_back() {
    let run = check(&[
        "--format",
        "json",
        "--same-slot",
        "--strict",
        "emq:{}:pending",
        "emq:{}:active",
    ]);
    assert_eq!(run.code, Some(1));
    let value: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(value["format"], "slotgen-check/1");
    assert_eq!(value["crc"], "CRC-16/XMODEM");
    assert_eq!(value["slots"], 16384);
    let keys = value["keys"].as_array().unwrap();
    assert_eq!(keys.len(), 2);
    assert_eq!(keys[0]["key"], "emq:{}:pending");
    assert_eq!(keys[0]["key_hex"], hex::encode("emq:{}:pending"));
    assert_eq!(keys[0]["slot"], 7387);
    assert_eq!(keys[1]["slot"], 5857);
    assert_eq!(keys[0]["hashtag"], serde_json::Value::Null);
    assert_eq!(keys[0]["warnings"], serde_json::json!(["empty-hashtag"]));
    let summary = &value["summary"];
    assert_eq!(summary["keys"], 2);
    assert_eq!(summary["distinct_slots"], 2);
    assert_eq!(summary["slots"], serde_json::json!([5857, 7387]));
    assert_eq!(summary["warnings"]["empty-hashtag"], 2);
    assert!(summary["explanations"]["empty-hashtag"]
        .as_str()
        .unwrap()
        .contains("whole key"));
    assert_eq!(summary["same_slot"]["passed"], false);
    assert_eq!(summary["same_slot"]["verdict"], "CROSSSLOT: 2 slots");
    assert_eq!(summary["strict"]["passed"], false);

    // a binary key: no text, its hex and its hashtag's
    let run = check(&["--format", "json", "--hex", "ff7b617d"]);
    let value: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let row = &value["keys"][0];
    assert_eq!(row["key"], serde_json::Value::Null);
    assert_eq!(row["hashtag"], "a");
    assert_eq!(row["hashtag_hex"], "61");
    assert_eq!(value["summary"]["same_slot"], serde_json::Value::Null);

    // templates: each row names its template and instance
    let run = check(&[
        "--format",
        "json",
        "--template",
        "emq:{q}:pending",
        "--template",
        "{emq}:version",
        "--with",
        "q=orders",
    ]);
    let value: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(value["keys"][1]["template"], "{emq}:version");
    assert_eq!(value["keys"][1]["instance"]["q"], "orders");
    assert_eq!(
        value["instances"][0]["off"],
        serde_json::json!(["{emq}:version"])
    );
    assert_eq!(value["instances"][0]["slot"], 105);
}

#[test]
fn keys_from_standard_input_stream() {
    // CRLF and LF lines, and an empty line (the empty key)
    let run = check_with_input(
        &["--same-slot"],
        b"emq:{orders}:pending\r\nemq:{orders}:active\n",
    );
    run.ok();
    assert!(run.stdout.contains("# same slot 105\n"));
    let run = check_with_input(&[], b"\n");
    run.ok();
    assert_eq!(run.rows(), [["0", "-", "", "-"]]);
    // hex lines, and a line that is not hex
    let run = check_with_input(&["--hex"], b"7b617d\n7b7d\n");
    run.ok();
    assert_eq!(run.rows()[1][3], "empty-hashtag");
    check_with_input(&["--hex"], b"7b617d\nzz\n").fails_with("key 2 of standard input is not hex");
    // a key argument that is not hex is a usage error, as in `slot` and `placement`
    check(&["--hex", "7b617d", "zz"]).exits(2, "key 2 is not hex: byte 1 (`z`)");
    // `-` alone is standard input, as in `slot`
    let run = check_with_input(&["-"], b"{a}\nb\n");
    run.ok();
    assert_eq!(
        run.rows(),
        [["15495", "a", "{a}", "-"], ["3300", "-", "b", "-"]]
    );
    // many keys: one row each, and the summary counts them
    let input: String = (0..200_000)
        .map(|n| format!("user:{{{}}}:x\n", n % 1000))
        .collect();
    let run = check_with_input(&[], input.as_bytes());
    run.ok();
    assert_eq!(run.rows().len(), 200_000);
    assert!(
        run.stdout.contains("# keys: 200000, distinct slots: "),
        "{}",
        &run.stdout[run.stdout.len() - 200..]
    );
}

#[test]
fn fields_are_escaped() {
    let run = check(&["a\tb", "{-}", "x\\y"]);
    run.ok();
    let rows = run.rows();
    assert_eq!(rows[0][2], "a\\x09b");
    assert_eq!(rows[1][1], "\\x2d"); // a hashtag `-`, not "no hashtag"
    assert_eq!(rows[2][2], "x\\\\y");
}

#[test]
fn another_spec_gives_its_slots() {
    // CRC-16/XMODEM mod 4096 of `orders`: 105, as 105 < 4096
    let run = check(&[
        "--slots",
        "4096",
        "--same-slot",
        "emq:{orders}:pending",
        "x{orders}",
    ]);
    run.ok();
    assert!(run.stdout.contains("# same slot 105\n"));
    // `--slots` is checked as elsewhere: a value not of its option's form is a usage
    // error, exit 2
    let bad = check(&["--slots", "1000", "k"]);
    assert_eq!(bad.code, Some(2), "{}", bad.stderr);
    assert!(
        bad.stderr
            .starts_with("slotgen: error: --slots: 1000 slots"),
        "{}",
        bad.stderr
    );
}

/// A check whose reader goes away before the end has no verdict: `check` (and `verify`)
/// exit 1 and say so, where a command that only prints (`slot`) stops quietly with 0.
#[test]
fn a_check_cut_short_by_a_closed_pipe_is_no_verdict() {
    use std::io::{BufRead, BufReader, Write};
    use std::process::Command;
    // 200,000 keys on one slot: the report is far larger than a pipe's buffer
    let keys: Vec<u8> = (0..200_000)
        .flat_map(|n| format!("emq:{{orders}}:{n}\n").into_bytes())
        .collect();
    for (args, expected) in [(&["check", "--same-slot"][..], 1), (&["slot"][..], 0)] {
        let mut child = common::spawn_piped(Command::new(env!("CARGO_BIN_EXE_slotgen")).args(args));
        let mut stdin = child.stdin.take().unwrap();
        let input = keys.clone();
        let writer = std::thread::spawn(move || {
            let _ = stdin.write_all(&input); // the program may stop reading first
        });
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut first)
            .unwrap();
        assert!(!first.is_empty(), "{args:?} printed nothing");
        // the reader is dropped here: the next writes meet a closed pipe
        let out = child.wait_with_output().unwrap();
        writer.join().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(expected), "{args:?}: {stderr}");
        if expected == 1 {
            assert!(
                stderr.contains("closed before the check finished"),
                "{stderr}"
            );
        } else {
            assert!(stderr.is_empty(), "{stderr}");
        }
    }
}

/// `check --scheme`: each key's slot by the scheme (the CRCs above, the rules written out
/// in the expected rows), its hashtag by the scheme's own rule and delimiters, and the
/// rule's traps: Codis's `{}` hashes the empty string (slot 0), twemproxy's `hash_tag`
/// reads its own delimiters and ignores braces, a whole-key scheme flags a key that looks
/// tagged; `--same-slot` fails with the scheme's way out.
#[test]
fn a_scheme_gives_its_slots_hashtags_and_traps() {
    let codis = check(&[
        "--scheme",
        "codis",
        "--same-slot",
        "emq:{}:pending",
        "emq:{}:active",
    ]);
    codis.ok();
    assert_eq!(
        codis.rows(),
        [
            ["0", "", "emq:{}:pending", "empty-hashtag"],
            ["0", "", "emq:{}:active", "empty-hashtag"],
        ]
    );
    assert!(codis.stdout.contains("# scheme codis, 1024 slots; hashtag: the bytes between the first `{` and the first `}` after it, even none"), "{}", codis.stdout);
    codis.prints("Codis hashes that empty tag");
    assert!(
        codis
            .stdout
            .contains("# same slot 0\n# shared hashtag: \"\"\n"),
        "{}",
        codis.stdout
    );
    let codis = check(&["--scheme", "codis", "emq:{orders}:x", "a}b{c}", "{a"]);
    codis.ok();
    let slot = |crc: u32| (crc % 1024).to_string();
    assert_eq!(
        codis.rows(),
        [
            vec![
                &slot(iso_hdlc(b"orders"))[..],
                "orders",
                "emq:{orders}:x",
                "-"
            ],
            vec![&slot(iso_hdlc(b"c"))[..], "c", "a}b{c}", "brace-before-tag"],
            vec![&slot(iso_hdlc(b"{a"))[..], "-", "{a", "unclosed-brace"],
        ]
    );

    let pool = [
        "--scheme",
        "twemproxy-crc16",
        "--slots",
        "5",
        "--hash-tag",
        "::",
    ];
    let keys = ["user:42:name", "user:42:mail", "a::b", "u{42}", "x:y"];
    let mut args = pool.to_vec();
    args.extend(keys);
    let run = check(&args);
    run.ok();
    let slot = |key: &[u8]| (hash_crc16(key) % 5).to_string();
    assert_eq!(
        run.rows(),
        [
            vec![&slot(b"42")[..], "42", keys[0], "-"],
            vec![&slot(b"42")[..], "42", keys[1], "-"],
            vec![&slot(b"a::b")[..], "-", keys[2], "empty-hashtag"],
            vec![&slot(b"u{42}")[..], "-", keys[3], "hashtag-ignored"],
            vec![&slot(b"x:y")[..], "-", keys[4], "unclosed-brace"],
        ]
    );
    assert!(
        run.stdout
            .contains("the first `:` is followed at once by `:`, so the whole key is hashed"),
        "{}",
        run.stdout
    );
    let mut args = pool.to_vec();
    args.extend(["--same-slot", "user:42:name", "u{42}"]);
    let apart = check(&args);
    if hash_crc16(b"42") % 5 != hash_crc16(b"u{42}") % 5 {
        apart.fails_with(
            "put them under one non-empty hashtag, such as `:42:`, taken from your keys",
        );
    }

    let kafka = check(&[
        "--scheme",
        "librdkafka",
        "--slots",
        "12",
        "--same-slot",
        "a{x}",
        "b{x}",
    ]);
    assert_eq!(
        kafka.rows(),
        [
            vec![
                &(iso_hdlc(b"a{x}") % 12).to_string()[..],
                "-",
                "a{x}",
                "hashtag-ignored"
            ],
            vec![
                &(iso_hdlc(b"b{x}") % 12).to_string()[..],
                "-",
                "b{x}",
                "hashtag-ignored"
            ],
        ]
    );
    assert!(kafka
        .stdout
        .contains("hashtag: the whole key (this scheme has no hashtag)"));
    kafka.fails_with(
        "this scheme hashes the whole key, so distinct keys meet on a slot only by chance",
    );
    let twemproxy = check(&[
        "--scheme",
        "twemproxy-crc32a",
        "--slots",
        "3",
        "--same-slot",
        "a{x}",
        "b{x}",
        "c{x}",
    ]);
    if [b"a{x}", b"b{x}", b"c{x}"]
        .iter()
        .any(|k| iso_hdlc(*k) % 3 != iso_hdlc(b"a{x}") % 3)
    {
        twemproxy.fails_with("give the pool a `hash_tag`");
    }
    // twemproxy's pair, as Redis's, hashes the whole key when the hashtag is empty
    let colons = check(&[
        "--scheme",
        "twemproxy-crc32a",
        "--slots",
        "3",
        "--hash-tag",
        "::",
        "a::b",
    ]);
    assert!(colons.stdout.contains("hashtag: the bytes between the first `:` and the first `:` after it; the whole key when there is no such pair or the hashtag is empty"), "{}", colons.stdout);
    assert!(
        colons
            .stdout
            .starts_with(&format!("{}\t", iso_hdlc(b"a::b") % 3)),
        "{}",
        colons.stdout
    );

    // JSON: the scheme in the head, bucket ids from 1
    let vshard = check(&[
        "--scheme",
        "tarantool-vshard",
        "--format",
        "json",
        "123456789",
    ]);
    vshard.ok();
    let value: serde_json::Value = serde_json::from_str(&vshard.stdout).unwrap();
    assert_eq!(value["scheme"]["name"], "tarantool-vshard");
    assert_eq!(value["scheme"]["first_slot"], 1);
    assert_eq!(value["hashtag_rule"], "whole-key");
    assert_eq!(value["slots"], 3000);
    assert_eq!(
        value["keys"][0]["slot"],
        u64::from(tarantool(b"123456789") % 3000 + 1)
    );
    // redis-cluster is the default: the same bytes as no --scheme
    let plain = check(&["emq:{orders}:x", "emq:{}:y"]);
    let named = check(&["--scheme", "redis-cluster", "emq:{orders}:x", "emq:{}:y"]);
    assert_eq!((plain.code, &plain.stdout), (named.code, &named.stdout));
}
