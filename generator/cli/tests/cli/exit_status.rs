//! One exit-status rule for every command (0 success, and quietly when the reader of
//! standard output goes; 1 a check failed or the work could not be done; 2 a usage error),
//! and messages that are one clear line: OS errors once, control bytes escaped, counts in
//! the right number, values shortened.

use std::io::Read;
use std::process::{Command, Stdio};

use crate::common;
use crate::common::Run;

fn exec(args: &[&str]) -> Run {
    exec_with_input(args, b"")
}

fn exec_with_input(args: &[&str], stdin: &[u8]) -> Run {
    let output = common::slotgen_with_stdin(args, stdin);
    Run::from(output)
}

#[test]
fn values_not_of_their_options_form_are_usage_errors() {
    for (args, needle) in [
        (vec!["derive", "--charset", "{"], "brace"),
        (vec!["derive", "--alphabet", "{"], "brace"),
        (vec!["derive", "--alphabet", "@ABC@"], "twice"),
        (vec!["derive", "--alphabet", "abc"], "3 symbols"),
        (vec!["derive", "--alphabet", "é"], "not ASCII"),
        (vec!["derive", "--slots", "3000"], "power of two"),
        (vec!["derive", "--slots", "1"], "1 slot:"),
        (
            vec!["derive", "--crc", "NOPE"],
            "`slotgen catalog` lists them all",
        ),
        (
            vec!["derive", "--charset", "hex"],
            "write them in brackets: `[hex]`",
        ),
        (vec!["derive", "--poly", "0x8004"], "is even"),
        (
            vec!["emit", "rust", "--name", ""],
            "is not a name for `emit rust`: use a Rust identifier",
        ),
        (vec!["emit", "go", "--package", ""], "not a Go package name"),
        (
            vec![
                "shortest",
                "--charset",
                "alnum",
                "--format",
                "c",
                "--name",
                "",
            ],
            "not a C identifier",
        ),
        (vec!["shortest", "--charset", "[\\x00-\\x7f]"], "--charset"),
        (
            vec!["shortest", "--charset", "alnum", "--max-len", "0"],
            "--max-len",
        ),
        (vec!["tag", "16384"], "16384"),
        (
            vec!["verify", "x.json", "--crc", "modbus", "--alphabet", "{"],
            "do not apply",
        ),
        (
            vec!["verify", "--redis", "redis://127.0.0.1:1", "--timeout", "0"],
            "not a timeout",
        ),
        (
            vec!["verify", "--tags", "x", "--max-errors", "99"],
            "0 to 20",
        ),
        (
            vec!["emit", "java", "--name", "1x"],
            "not a name for `emit java`",
        ),
        (vec!["emit", "python", "--name", "x"], "does not apply"),
        (vec!["emit", "c", "--for-script"], "(only to `emit lua`)"),
        (vec!["emit", "lua", "--package", "x"], "only to `emit go`"),
        (
            vec!["nodes", "--redis", "redis://127.0.0.1:1", "--timeout", "0"],
            "not a timeout",
        ),
        (
            vec![
                "nodes",
                "--redis",
                "redis://127.0.0.1:1",
                "--timeout",
                "1e-300",
            ],
            "not a timeout",
        ),
        (vec!["placement", "--timeout=-1s"], "not a timeout"),
        // a command that cannot serve a scheme says by which rule
        (
            vec!["emit", "c", "--scheme", "twemproxy-crc16", "--slots", "4"],
            "a 32-bit register that is never masked",
        ),
        (
            vec!["tag", "--scheme", "twemproxy-crc16", "--slots", "3", "0"],
            "at most 30 of the 32 bits of its register",
        ),
        (
            vec![
                "key",
                "--scheme",
                "twemproxy-crc16",
                "--slots",
                "5",
                "--charset",
                "alnum",
                "0",
            ],
            "at most 30 of the 32 bits of its register",
        ),
        (
            vec![
                "verify",
                "--redis",
                "redis://127.0.0.1:1",
                "--scheme",
                "librdkafka",
                "--slots",
                "12",
            ],
            "CLUSTER KEYSLOT answers by Redis Cluster's rule",
        ),
        (
            vec![
                "keys",
                "--redis",
                "redis://127.0.0.1:1",
                "--count",
                "1",
                "--prefix",
                "a{",
            ],
            "--prefix",
        ),
        (
            vec![
                "keys",
                "--redis",
                "redis://127.0.0.1:1",
                "--count",
                "1",
                "--format",
                "keys",
                "--suffix",
                "a\nb",
            ],
            "holds a line break",
        ),
    ] {
        exec(&args).exits(2, needle);
    }
}

#[test]
fn work_that_cannot_be_done_exits_1() {
    exec(&["derive", "--tag-len", "1"]).exits(1, "rank 4 is below");
    exec(&["verify", "/nonexistent/table.json"]).exits(1, "cannot read");
    exec(&["nodes", "--redis", "redis://127.0.0.1:1"]).exits(1, "cannot reach");
    exec(&["keys", "--redis", "redis://127.0.0.1:1", "--count", "1"]).exits(1, "cannot reach");
    exec_with_input(&["placement", "--redis", "redis://127.0.0.1:1"], b"a\n")
        .exits(1, "cannot reach");
    // no keys to compare: not "the 0 keys land on 0 slots"
    exec_with_input(&["check", "--same-slot"], b"").exits(1, "there are no keys to compare");
    // 2 slots and 16-symbol tags: each slot has 2^63 tags, more than a Java `long` counts;
    // the name is fine, so this is no usage error of `--name`
    let run = exec(&["emit", "java", "--slots", "2", "--tag-len", "16"]);
    run.exits(1, "each slot has 2^63 tags");
    assert!(!run.stderr.contains("--name"), "{}", run.stderr);
}

#[test]
fn server_urls_are_shown_without_their_password_by_every_command() {
    for args in [
        vec!["verify", "--redis", "redis://:s3cret@127.0.0.1:1"],
        vec!["nodes", "--redis", "redis://:s3cret@127.0.0.1:1"],
        vec!["nodes", "--redis", "redis://app:s3cret@127.0.0.1:1/0"],
        vec!["nodes", "--redis", "unix:///nonexistent/r.sock?pass=s3cret"],
        vec![
            "keys",
            "--redis",
            "redis://:s3cret@127.0.0.1:1",
            "--count",
            "1",
        ],
        vec!["placement", "--redis", "redis://:s3cret@127.0.0.1:1"],
        vec!["nodes", "--redis", "http://:s3cret@127.0.0.1:1"],
    ] {
        let run = exec(&args);
        // `http://` does not parse (a usage error, 2); the others cannot connect (1)
        let code = if args[2].starts_with("http:") { 2 } else { 1 };
        assert_eq!(run.code, Some(code), "{args:?}: {}", run.stderr);
        assert!(!run.stderr.contains("s3cret"), "{args:?}: {}", run.stderr);
        assert!(run.stderr.contains("***"), "{args:?}: {}", run.stderr);
        // one line, and not the client's own text for a URL it cannot read
        assert_eq!(
            run.stderr.trim_end().lines().count(),
            1,
            "{args:?}: {}",
            run.stderr
        );
        assert!(
            !run.stderr.contains("InvalidClientConfig"),
            "{}",
            run.stderr
        );
    }
}

#[test]
fn charset_names_in_any_case_are_the_names() {
    let lower = exec(&["derive", "--charset", "alnum"]);
    let upper = exec(&["derive", "--charset", "ALNUM"]);
    assert_eq!(lower.code, Some(0), "{}", lower.stderr);
    assert_eq!(upper.code, Some(0), "{}", upper.stderr);
    assert_eq!(lower.stdout, upper.stdout);
    assert!(!upper.stderr.contains("`AU`"), "{}", upper.stderr);
}

#[test]
fn shortest_refuses_a_charset_past_printable_ascii_by_its_name() {
    let run = exec(&["shortest", "--charset", "[\\x00-\\x7f]"]);
    run.exits(2, "--charset");
    assert!(!run.stderr.contains("--max-len"), "{}", run.stderr);
}

#[test]
fn os_errors_are_printed_once() {
    for args in [
        vec!["verify", "/nonexistent/table.json"],
        vec!["verify", "--tags", "/nonexistent/tags.txt"],
        vec![
            "verify",
            "--redis",
            "redis://127.0.0.1:1",
            "--keys",
            "/nonexistent/keys",
        ],
    ] {
        let run = exec(&args);
        assert_eq!(run.code, Some(1), "{}", run.stderr);
        assert_eq!(
            run.stderr.matches("No such file or directory").count(),
            1,
            "{}",
            run.stderr
        );
        assert!(!run.stderr.contains("os error"), "{}", run.stderr);
    }
}

/// `-o` into a directory that does not exist said only "No such file or directory": the
/// refusal names the directory and the fix, and the fix, followed, writes the file.
#[test]
fn writing_into_a_directory_that_does_not_exist_names_it_and_the_fix() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let sub = dir.path().join("slotgen");
    for (language, name) in [("go", "slotgen.go"), ("vectors", "vectors.tsv")] {
        let file = sub.join(name);
        let file = file.to_str().expect("UTF-8");
        let run = exec(&["emit", language, "-o", file]);
        let sub = sub.to_str().expect("UTF-8");
        run.fails_with_code(
            1,
            &format!("cannot write `{file}`: the directory `{sub}` does not exist: create it first (`mkdir -p '{sub}'`)"),
        );
        assert!(!run.stderr.contains("os error"), "{}", run.stderr);
    }
    std::fs::create_dir_all(&sub).expect("created");
    for (language, name) in [("go", "slotgen.go"), ("vectors", "vectors.tsv")] {
        let file = sub.join(name);
        exec(&["emit", language, "-o", file.to_str().expect("UTF-8")]).ok();
        assert!(std::fs::metadata(&file).expect("written").len() > 0);
    }
}

#[test]
fn the_gaps_of_shortest_are_listed_up_to_a_cap() {
    let run = exec(&["shortest", "--charset", "digits", "--max-len", "3"]);
    run.exits(1, "slots have no tag of at most 3 symbols");
    assert!(run.stderr.contains(" more slots"), "{}", run.stderr);
    assert!(run.stderr.len() < 1000, "{} bytes", run.stderr.len());
    let one = exec(&["shortest", "--charset", "digits", "--max-len", "1"]);
    one.exits(1, "at most 1 symbol:");
}

#[test]
fn a_huge_json_file_is_refused_by_its_size_and_values_are_shortened() {
    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("big.json");
    std::fs::write(&big, vec![b' '; 20 << 20]).unwrap();
    exec(&["verify", big.to_str().unwrap()]).exits(1, "more than 1048576 bytes");

    let path = dir.path().join("t.json");
    let run = exec(&["emit", "json", "-o", path.to_str().unwrap()]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let mut value: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    value["inverse"][0] = "\u{1b}[2J".repeat(20_000).into();
    std::fs::write(&path, value.to_string()).unwrap();
    let run = exec(&["verify", path.to_str().unwrap()]);
    run.exits(1, "does not match its re-derivation");
    let line = run
        .stdout
        .lines()
        .find(|l| l.starts_with("mismatch:"))
        .unwrap();
    assert!(line.len() < 600, "{} bytes", line.len());
    assert!(
        !run.stdout.contains('\u{1b}'),
        "a control byte is echoed raw"
    );
}

#[test]
fn the_generator_field_names_any_version() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.json");
    exec(&["emit", "json", "-o", path.to_str().unwrap()]);
    let mut value: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    value["generator"] = "slotgen 9.9.9".into();
    std::fs::write(&path, value.to_string()).unwrap();
    let run = exec(&["verify", path.to_str().unwrap()]);
    assert_eq!(run.code, Some(0), "{}{}", run.stdout, run.stderr);
}

#[test]
fn slot_dash_reads_standard_input() {
    let run = exec_with_input(&["slot", "-"], b"a{b}{b\n{x}x:b\n");
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    // CLUSTER KEYSLOT of each, from tests/data/redis_keyslot.tsv's server
    assert_eq!(run.stdout, "3300\n16287\n");
}

#[test]
fn a_reader_that_goes_away_ends_every_command_quietly_with_0() {
    for args in [
        vec!["tag", "0-16383"],
        vec!["key", "0-16383"],
        vec!["derive", "--json"],
        vec!["emit", "c"],
        vec!["shortest", "--charset", "alnum"],
        vec!["catalog"],
        vec!["slot", "a", "b", "c"],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_slotgen"))
            .args(&args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // read one byte, then close the pipe: slotgen's next writes fail with EPIPE
        let mut stdout = child.stdout.take().unwrap();
        let mut byte = [0u8; 1];
        let _ = stdout.read(&mut byte);
        drop(stdout);
        let output = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(0), "{args:?}: {stderr}");
        assert!(!stderr.contains("Broken pipe"), "{args:?}: {stderr}");
    }
}

#[test]
fn the_rule_is_in_the_help() {
    let run = exec(&["--help"]);
    assert_eq!(run.code, Some(0));
    run.prints("Exit status: 0 success");
}

#[test]
fn control_bytes_are_escaped_in_every_message() {
    for args in [
        vec!["derive", "--crc", "\u{1b}[2J"],
        vec!["derive", "--charset", "[\u{1b}"],
        vec!["emit", "rust", "--name", "\u{1b}[2J"],
        vec!["emit", "go", "--package", "\u{1b}[2J"],
        vec!["emit", "java", "--name", "\u{1b}[2J"],
        vec!["emit", "c", "--name", "\u{1b}[2J"],
        vec![
            "shortest",
            "--charset",
            "alnum",
            "--format",
            "c",
            "--name",
            "\u{7}",
        ],
    ] {
        let run = exec(&args);
        assert_eq!(run.code, Some(2), "{args:?}: {}", run.stderr);
        assert!(
            !run.stderr.contains('\u{1b}') && !run.stderr.contains('\u{7}'),
            "{args:?}: {:?}",
            run.stderr
        );
    }
}

/// Every option a command would take and ignore, and every value out of its range, is a
/// usage error: exit 2, one `slotgen: error:` line that names the option and the way out.
/// Clap's own refusals (an unknown option, a missing or conflicting one, a value of the
/// wrong form) take the same one-line form. One row per case: the command line, the exit
/// status, a fragment of the message.
#[test]
fn usage_errors_are_one_line_and_exit_2() {
    let url = "redis://127.0.0.1:1";
    let cases: &[(&[&str], i32, &str)] = &[
        // a catalogue CRC, or a scheme, beside a custom CRC's parameter (with `--poly` or
        // without): the request layer's rule, naming the option given
        (
            &["slot", "abc", "--crc", "xmodem", "--poly", "0x1021", "--init", "0xffff"],
            2,
            "--crc: a catalogue CRC and custom CRC parameters cannot be given together: a catalogue CRC's parameters are fixed (remove `--crc` or `--poly`)",
        ),
        (&["derive", "--crc", "xmodem", "--refin", "true"], 2, "--crc: a catalogue CRC and custom CRC parameters cannot be given together: a catalogue CRC's parameters are fixed (remove `--crc` or `--refin`)"),
        (&["tag", "0", "--crc", "modbus", "--poly", "0x8005", "--refout", "true"], 2, "remove `--crc` or `--poly`"),
        (&["shortest", "--charset", "alnum", "--crc", "arc", "--xorout", "1"], 2, "(remove `--crc` or `--xorout`)"),
        (&["slot", "a", "--scheme", "codis", "--init", "1"], 2, "remove `--init` or `--scheme`"),
        (&["tag", "0", "--init", "1"], 2, "`--init` without `--poly`: a custom CRC needs its polynomial: give `--poly HEX` too"),
        (&["slot", "a", "--scheme", "codis", "--poly", "0x1021"], 2, "remove `--poly` or `--scheme`"),
        (&["slot", "a", "--crc", "modbus", "--hash-tag", "{}"], 2, "remove `--hash-tag`: only the twemproxy schemes take one"),
        // the way out names the alphabet's option as it was given
        (&["derive", "--alphabet", "@A", "--charset", "alnum"], 2, "(remove `--alphabet` or `--charset`)"),
        (&["derive", "--alphabet-hex", "4041", "--charset", "alnum"], 2, "(remove `--alphabet-hex` or `--charset`)"),
        // verify's options by the kind of check
        (&["verify", "--redis", url, "--input", "raw"], 2, "`--input` does not apply to `--redis`"),
        (&["verify", "--redis", url, "--count", "5"], 2, "`--count` does not apply to `--redis`"),
        (&["verify", "--redis", url, "--seed", "5"], 2, "`--seed` does not apply to `--redis`"),
        (&["verify", "--redis", url, "--format", "c"], 2, "`--format` does not apply to `--redis`"),
        (&["verify", "--exec", "cat", "--keys", "k.txt"], 2, "`--keys` does not apply to `--exec`"),
        (&["verify", "--exec", "cat", "--max-errors", "3"], 2, "`--max-errors` does not apply to `--exec`"),
        (&["verify", "--tags", "t.txt", "--keys", "k.txt"], 2, "`--keys` does not apply to `--tags`"),
        (&["verify", "--tags", "t.txt", "--timeout", "5"], 2, "`--timeout` does not apply to `--tags`"),
        (&["verify", "t.json", "--input", "raw"], 2, "`--input` does not apply to a JSON derivation"),
        (&["verify", "--exec", "cat", "--hex"], 2, "`slotgen verify` needs `--keys`"),
        // counts
        (&["verify", "--exec", "cat", "--count", "0"], 2, "--count: `0` is not a count of keys: give a whole number from 1 to 10000000"),
        (&["emit", "vectors", "--count", "1000000000"], 2, "from 1 to 10000000"),
        (&["emit", "vectors", "--count", "0"], 2, "from 1 to 10000000"),
        (&["keys", "--redis", url, "--count", "0"], 2, "--count: `0` is not a count of keys"),
        (&["keys", "--redis", url, "--per-node", "0"], 2, "--per-node: `0` is not a count of keys"),
        // past the most keys a server holds: refused, not streamed until the disk is full
        (&["keys", "--redis", url, "--per-node", "99999999999999"], 2, "from 1 to 4294967296: a server holds at most 2^32 keys"),
        (&["keys", "--redis", url, "--count", "4294967297"], 2, "from 1 to 4294967296"),
        (&["rebalance", "--redis", url, "--by", "keys", "--target-skew", "0.9"], 2, "--target-skew 0.9: the skew is the fullest primary over its fair share, at least 1.0"),
        (&["rebalance", "--redis", url, "--by", "keys", "--target-skew", "1e308"], 2, "--target-skew 1e308: the skew is the fullest primary over its fair share, at least 1.0; give a ratio from 1.0 to 100"),
        // the server's field names are aliases of the metrics: parsed, then the next rule
        (&["rebalance", "--redis", url, "--by", "key-count", "--target-skew", "0.9"], 2, "--target-skew 0.9"),
        (&["load", "--redis", url, "--by", "network-bytes-out", "--top", "x"], 2, "--top"),
        (&["rebalance", "--redis", url, "--by", "memory-bytes", "--dialect", "classic"], 2, "--dialect applies"),
        (&["rebalance", "--redis", url, "--by", "hits"], 2, "--by `hits` is none of `keys`, `cpu`"),
        (&["rebalance", "--redis", url, "--by", "keys", "--dialect", "classic"], 2, "--dialect applies to --format commands and --apply only"),
        (&["rebalance", "--redis", url, "--by", "keys", "--batch", "0"], 2, "--batch"),
        (&["rebalance", "--redis", url, "--by", "keys", "--min-gain", "2"], 2, "--min-gain 2.0: a move's gain is what it takes off its primary's ratio"),
        (&["lint", "x.lua", "--target", "vakley9"], 2, "`vakley9` is no target: give one of redis, valkey8, valkey9"),
        (&["lint", "x.lua", "--target", "vakley9"], 2, "; did you mean `valkey9`?"),
        // a negative number is a value out of range, not an unknown option
        (&["rebalance", "--redis", url, "--by", "keys", "--min-gain", "-1"], 2, "--min-gain -1.0: a move's gain is what it takes off its primary's ratio"),
        (&["rebalance", "--redis", url, "--by", "keys", "--target-skew", "-2"], 2, "--target-skew -2.0: the skew is the fullest primary over its fair share"),
        (&["rebalance", "--redis", url, "--plan", "p.json"], 2, "--apply"),
        (&["rebalance", "--redis", url, "--by", "keys", "--apply", "--plan", "p.json"], 2, "--plan"),
        // other commands' options that would be ignored
        (&["placement", "--timeout", "5"], 2, "`--timeout` applies to `--redis` only"),
        (&["shortest", "--charset", "digits", "--name", "x"], 2, "does not apply to `--format lines`"),
        (&["catalog", "--slots", "3"], 2, "--slots: 3 slots"),
        (&["slot", "a", "--with-key", "--format", "jsonl"], 2, "`--with-key` changes nothing"),
        (&["derive", "--scheme", "redis-cluster", "--slots", "0"], 2, "a power of two from 2 to 65536"),
        (&["slot", "a", "--scheme", "redis-cluster", "--slots", "1"], 2, "a power of two from 2 to 65536"),
        // clap's refusals, one line each
        (&["check", "--with", "q"], 2, "`slotgen check` needs `--template`"),
        (&["derive", "--charset", "{"], 2, "--charset: charset contains `{`"),
        (&["derive", "--charset", "hex"], 2, "--charset: charset `hex` is not a charset name"),
        (&["verify", "--redis", "redis://x", "--timeout", "0"], 2, "--timeout: `0` is not a timeout"),
        (&["tag", "abc"], 2, "`abc` is not a slot"),
        (&["tag", "5-3"], 2, "range `5-3` runs backwards"),
        (&["tag"], 2, "`slotgen tag` needs `SLOT`"),
        (&["derive", "--tag-len", "x"], 2, "--tag-len: `x` is not a whole number"),
        // a number too large for its type names what the option takes (it said only "too large")
        (&["derive", "--slots", "99999999999999999999"], 2, "--slots: `99999999999999999999` is too large a number: give the number of hash slots: a power of two from 2 to 65536"),
        (&["catalog", "--slots", "99999999999999999999"], 2, "is too large a number: give the slot count the tag columns are for: a power of two from 2 to 65536"),
        (&["derive", "--poly", "0x1021", "--refin", "maybe"], 2, "--refin `maybe` is none of `true` or `false`"),
        (&["slot", "--format", "xml"], 2, "`text`, `tsv`, `json` or `jsonl`"),
        (&["slot", "--fromat", "tsv"], 2, "did you mean `--format`?"),
        (&["slot", "foo", "--prefix", "x"], 2, "`slotgen slot` takes no argument `--prefix`; `--prefix` is an option of `slotgen key` and `slotgen keys`;"),
        (&["tag", "0", "--suffix-hex", "00"], 2, "`--suffix-hex` is an option of `slotgen key` and `slotgen keys`;"),
        (&["slott"], 2, "`slott` is not a command"),
        (&[], 2, "give a command"),
        (&["tag", "--all=yes", "0"], 2, "--all takes no value `yes`: give `--all` alone"),
        (&["slot", "--format", "csv"], 2, "is none of `text`, `tsv`, `json` or `jsonl`; did you mean `tsv`?"),
        (&["tag", "-1"], 2, "takes no argument `-1`; to pass `-1` as a value, use `-- -1`;"),
        // an option's negative value, read as an option: the fix joins it with `=`, which
        // then names the option's rule
        (
            &["rebalance", "--redis", "redis://127.0.0.1:1", "--max-moves", "-1"],
            2,
            "takes no argument `-1`: a value that begins with `-` is read as an option; give an option's value joined to it with `=` (`--max-moves=-1`)",
        ),
        // ... named, where clap's own tip (`-- -1`) would make it a FILE (break19 F3)
        (
            &["lint", "--argv", "a", "--argv", "-1", "x.lua"],
            2,
            "`slotgen lint` takes no argument `-1`: a value that begins with `-` is read as an option; give an option's value joined to it with `=` (`--argv=-1`)",
        ),
        (&["lint", "x.lua", "--keys", "-5"], 2, "(`--keys=-5`)"),
        (
            &["rebalance", "--redis", "redis://127.0.0.1:1", "--max-moves=-1"],
            2,
            "--max-moves: `-1` is not a whole number",
        ),
        // a URL's control bytes escaped, as every value from outside (found by a newcomer)
        (&["nodes", "--redis", "redis://127.0.0.1:1\u{1b}[2J"], 2, "`redis://127.0.0.1:1\\x1b[2J` is not a server URL"),
        (&["derive", "--json", "--format", "json"], 2, "`--json` cannot be used with `--format`"),
        (&["key", "--prefix", "a", "--prefix-hex", "00", "7"], 2, "`--prefix` cannot be used with `--prefix-hex`"),
        (&["key", "--prefix-hex", "0", "7"], 2, "--prefix-hex: `0` is not hex bytes"),
        (&["derive", "--crc", "\u{1b}[2J"], 2, "unknown CRC"),
        (&["tag", "\u{1b}[2J"], 2, "`\\x1b[2J` is not a slot"),
        (&["slot", "--\u{1b}[2J"], 2, "`--\\x1b[2J`"),
        // every path from outside escaped, and a fix to paste shell-quoted (found by a newcomer:
        // `man --dir` printed `mkdir -p a b;x`, `verify` the raw ESC)
        (
            &["man", "--dir", "/nonexistent/a b\u{1b}[2J;x"],
            1,
            "--dir /nonexistent/a b\\x1b[2J;x: no such directory: create it first (`mkdir -p $'/nonexistent/a b\\x1b[2J;x'`)",
        ),
        (&["man", "--dir", "/dev/null"], 1, "--dir /dev/null: not a directory (a file of that name is there): give a directory"),
        (&["verify", "\u{1b}[31mnope.json"], 1, "cannot read `\\x1b[31mnope.json`"),
        (&["verify", "--tags", "\u{1b}[31mnope.h"], 1, "cannot read `\\x1b[31mnope.h`"),
        (
            &["check", "--template", "a\u{1b}{q}", "--with", "q\u{1b}=1"],
            2,
            "--with `q\\x1b`: no --template has the placeholder `{q\\x1b}`",
        ),
        (
            &["check", "--template", "a{q}", "--template", "{z}\u{1b}", "--with", "q=1"],
            1,
            "off the slot of the others: `{z}\\x1b`",
        ),
        // found by the adversarial pass of issue 31: each once exited 1
        (&["check", "--template", "x:{a}", "--with", "a"], 2, "--with `a` has no `=`: give `NAME=VALUE1,VALUE2`"),
        (&["check", "--template", "x:{a}", "--with", "a=1", "--with", "b=1"], 2, "--with `b`: no --template has the placeholder `{b}`"),
        (&["check", "--template", "x:{a}", "--with", "a=1", "--with", "a=2"], 2, "--with `a` is given twice"),
        (&["nodes", "--redis", "redis://127.0.0.1:0"], 2, "port 0 is no server's port: a server listens on a port from 1 to 65535"),
        (&["load", "--redis", "rediss://127.0.0.1:0"], 2, "port 0 is no server's port"),
        // checked before connecting: no server listens on port 1
        (&["rebalance", "--redis", url, "--by", "keys", "--weight", "x"], 2, "--weight `x` is not NODE=W"),
        (&["rebalance", "--redis", url, "--by", "keys", "--weight", "a=0"], 2, "--weight `a=0`: a weight is a number from 0.001 to 1000"),
        // no tag length of this alphabet reaches every slot under this CRC: the spec itself
        (&["tag", "0", "--poly", "1"], 2, "no tag length up to the limit reaches every slot: use a larger alphabet or fewer slots"),
        // work that cannot be done is exit 1, in the same one line; a file that cannot be
        // read is such work, whatever kind of file it is
        (&["rebalance", "--redis", url, "--apply", "--plan", "/dev/zero"], 1, "cannot read the plan file `/dev/zero`: it is not a regular file"),
        (
            &["key", "--scheme", "couchbase", "--tag-len", "3", "--prefix", "p", "--suffix", "x", "7"],
            1,
            "with the suffix `x` after the tag",
        ),
    ];
    for (args, code, fragment) in cases {
        let run = exec(args);
        assert!(
            !run.stderr.contains('\u{1b}'),
            "{args:?}: a control byte is echoed raw: {:?}",
            run.stderr
        );
        run.fails_with_code(*code, fragment);
    }
    // an argument that is no UTF-8, which clap refuses itself: one line, exit 2
    use std::os::unix::ffi::OsStrExt;
    let output = Command::new(env!("CARGO_BIN_EXE_slotgen"))
        .args([
            std::ffi::OsStr::new("tag"),
            std::ffi::OsStr::from_bytes(b"\xff"),
        ])
        .output()
        .expect("slotgen runs");
    let run = Run::from(output);
    run.fails_with_code(2, "the argument `\\xff` is not UTF-8, and slotgen reads its command line as text; `slotgen tag --help` lists what it takes");
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
}

/// clap's refusals suggest what slotgen's own "nearest" finds among the command's real
/// candidates, not clap's guesses: `frobnicate` got "did you mean `rebalance`?", `slott` got
/// `shortest` before `slot`, and `javascrpt` got `java`, the aliases not being candidates.
#[test]
fn clap_refusals_suggest_the_nearest_real_candidates() {
    for (args, fragment) in [
        (
            &["frobnicate"][..],
            "`frobnicate` is not a command; `slotgen --help` lists the commands",
        ),
        (
            &["slott"],
            "`slott` is not a command; did you mean `slot`?; ",
        ),
        (&["emit", "javascrpt"], "`vectors`; did you mean `js`?"),
        (&["emit", "golnag"], "`vectors`; did you mean `go`?"),
        (
            &["load", "--by", "network-byte-out"],
            "did you mean `net-out`",
        ),
        (
            &["key", "--prefx", "a", "1"],
            "takes no argument `--prefx`; did you mean `--prefix`?; ",
        ),
        (
            &["slot", "--frobnicate", "a"],
            "takes no argument `--frobnicate`; `slotgen slot --help`",
        ),
    ] {
        exec(args).fails_with_code(2, fragment);
    }
}

/// A key or value that is not UTF-8 was refused by clap as "invalid UTF-8 was detected in
/// one or more arguments", naming neither the argument nor the fix: the refusal names it,
/// escaped, and the fix the command offers, which, followed, gives the key's slot (the `crc`
/// crate's CRC-16/XMODEM of its bytes).
#[test]
fn an_argument_that_is_not_utf8_is_named_with_its_hex_form() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let run_os = |args: &[&OsStr]| {
        let output = Command::new(env!("CARGO_BIN_EXE_slotgen"))
            .args(args)
            .output()
            .expect("slotgen runs");
        Run::from(output)
    };
    let key = OsStr::from_bytes(b"\xff\xfe");
    for command in ["slot", "check", "placement"] {
        let run = run_os(&[OsStr::new(command), OsStr::new("a"), key]);
        run.fails_with_code(
            2,
            &format!("the key `\\xff\\xfe` is not UTF-8, and the keys of a command line are text: give the keys as hex with `--hex` (`slotgen {command} --hex fffe`), or on standard input"),
        );
        assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    }
    let slot = crc::Crc::<u16>::new(&crc::CRC_16_XMODEM).checksum(b"\xff\xfe") % 16384;
    let run = exec(&["slot", "--hex", "fffe"]);
    run.ok();
    assert_eq!(run.stdout.trim(), slot.to_string());
    // an option's value: its `-hex` form, `--opt value` or `--opt=value`
    for args in [
        &[
            OsStr::new("key"),
            OsStr::new("--prefix"),
            OsStr::from_bytes(b"a\x1b\xff"),
            OsStr::new("1"),
        ][..],
        &[
            OsStr::new("key"),
            OsStr::from_bytes(b"--prefix=a\x1b\xff"),
            OsStr::new("1"),
        ],
    ] {
        run_os(args).fails_with_code(
            2,
            "the value `a\\x1b\\xff` of `--prefix` is not UTF-8, and a command line's values are text: give its bytes as hex with `--prefix-hex` (`--prefix-hex 611bff`)",
        );
    }
    // the value of an option without a `-hex` form is no key
    run_os(&[OsStr::new("slot"), OsStr::new("--crc"), key, OsStr::new("a")]).fails_with_code(
        2,
        "the value `\\xff\\xfe` of `--crc` is not UTF-8, and a command line's values are text; `slotgen slot --help`",
    );
    // `lint`'s `--hex` reads every `--keys` and `--argv` value as hex: named, with the
    // value's hex (the error named only `--help`)
    run_os(&[
        OsStr::new("lint"),
        OsStr::new("--keys"),
        OsStr::new("a"),
        OsStr::new("--argv"),
        OsStr::from_bytes(b"\xff"),
        OsStr::new("f.lua"),
    ])
    .fails_with_code(
        2,
        "the value `\\xff` of `--argv` is not UTF-8, and a command line's values are text: give the values as hex with `--hex`, every one of them (this one `--argv ff`)",
    );
    let run = exec(&["key", "--prefix-hex", "611bff", "1", "--format", "json"]);
    run.ok();
    run.prints(r#""key_hex":"611bff7b"#);
}

/// `--prefix` and `--suffix` take values that begin with `-`, and their `-hex` forms take
/// the bytes a shell cannot pass; the key is theirs byte for byte.
#[test]
fn prefixes_and_suffixes_may_begin_with_a_dash_or_be_any_bytes() {
    let run = exec(&["key", "--suffix", "-x", "--prefix", "-p", "7"]);
    run.ok();
    assert_eq!(run.rows(), [["7", "-p{MI@I}-x"]]);
    let run = exec(&[
        "key",
        "--prefix-hex",
        "00ff",
        "--suffix-hex",
        "0a",
        "7",
        "--format",
        "json",
    ]);
    run.ok();
    // `{MI@I}` is slot 7's tag, as above; the hex is the bytes around it
    run.prints(r#""key_hex":"00ff7b4d4940497d0a""#);
}

/// `--crc xmodem --init 0xffff` answered "needs `--poly`: its usage is `... --poly <HEX>
/// --crc <NAME> --init <HEX>`", a usage then refused: every command that takes a spec
/// states the rule docs/cli.md gives (a catalogue CRC's parameters are fixed), and never
/// suggests `--poly` beside `--crc`.
#[test]
fn a_catalogue_crc_with_a_custom_parameter_is_refused_by_the_conflict_rule() {
    let commands: &[&[&str]] = &[
        &["slot", "abc"],
        &["tag", "0"],
        &["key", "0"],
        &["derive"],
        &["shortest", "--charset", "alnum"],
        &["emit", "python"],
        &["emit", "vectors"],
        &["check", "abc"],
    ];
    for command in commands {
        for (option, value) in [("--init", "0xffff"), ("--xorout", "1"), ("--refin", "true")] {
            let mut args = command.to_vec();
            args.extend(["--crc", "xmodem", option, value]);
            let run = exec(&args);
            run.fails_with_code(
                2,
                &format!("--crc: a catalogue CRC and custom CRC parameters cannot be given together: a catalogue CRC's parameters are fixed (remove `--crc` or `{option}`)"),
            );
            assert!(
                !run.stderr.contains("needs `--poly`"),
                "{args:?}: {}",
                run.stderr
            );
        }
    }
}

/// `emit vectors --seed 18446744073709551616` pasted the help's scope into the message
/// ("give with `vectors`: the seed ..."): a number too large for its option names what the
/// option takes and its range. And `verify --exec true --max-errors 21` said "give a number
/// from 0 to 20", then `--max-errors 0` "does not apply to --exec": an option that does not
/// apply is refused as such first, whatever its value.
#[test]
fn a_number_too_large_says_the_range_and_an_option_that_does_not_apply_is_refused_first() {
    let past = format!("{}0", u64::MAX);
    exec(&["emit", "vectors", "--seed", &past]).fails_with_code(
        2,
        &format!(
            "--seed: `{past}` is too large a number: give the seed of the random keys (the first keys are fixed): a number from 0 to {}",
            u64::MAX
        ),
    );
    // an option whose own rule is narrower than its type names that rule's range, the
    // tables' longest tag, not the type's
    let longest = slotgen::derive::MAX_TAG_LEN;
    exec(&["shortest", "--charset", "alnum", "--max-len", &past]).fails_with_code(
        2,
        &format!(
            "is too large a number: give the longest tag to try, in symbols, from 1 to {longest}"
        ),
    );
    exec(&["tag", "0", "--tag-len", &past])
        .fails_with_code(2, &format!("give symbols per tag, at most {longest} and"));
    let cases: &[(&[&str], &str)] = &[
        (
            &["verify", "--exec", "true", "--max-errors", "21"],
            "`--max-errors` does not apply to `--exec`: remove it",
        ),
        (
            &["verify", "--exec", "true", "--max-errors", "x"],
            "`--max-errors` does not apply to `--exec`: remove it",
        ),
        (
            &["verify", "t.json", "--count", "0"],
            "`--count` does not apply to a JSON derivation",
        ),
        (
            &["verify", "t.json", "--timeout", "abc"],
            "`--timeout` does not apply to a JSON derivation",
        ),
        (
            &["emit", "python", "--count", "0"],
            "`--count` does not apply to `emit python`",
        ),
        (
            &["emit", "python", "--package", "type"],
            "`--package` does not apply to `emit python` (only to `emit go`)",
        ),
    ];
    for (args, says) in cases {
        exec(args).fails_with_code(2, says);
    }
    // where it applies, the value is still checked
    exec(&["emit", "vectors", "--count", "0"]).fails_with_code(
        2,
        "--count: `0` is not a count of keys: give a whole number from 1 to 10000000",
    );
    exec(&["verify", "--exec", "true", "--timeout", "abc"])
        .fails_with_code(2, "--timeout: `abc` is not a timeout");
    exec(&["emit", "go", "--package", "type"])
        .fails_with_code(2, "--package `type` is not a Go package name");
}
