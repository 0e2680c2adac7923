//! Bounded memory and time whatever the input: a 700 MB line to every command that reads
//! keys, and `verify --exec` commands that print without end, write without end to their
//! standard error, or never end their line. Peak memory by GNU `/usr/bin/time`; each run
//! is given its input by a thread that streams it, never stored. Also `-z` and `--header`,
//! which mean the same on every command that reads or prints keys.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{ChildStdin, Command};
use std::time::{Duration, Instant};

use crate::common::{self, require_tool, run_measured, run_measured_fed, slotgen_with_stdin, Run};

/// The peak resident memory allowed, in KiB: 64 MiB (the debug binary takes some 10 MiB at
/// rest; reading a 700 MB line whole takes 700 MB).
const PEAK_KIB: u64 = 64 * 1024;

/// The longest key every command reads, as docs/cli.md documents it: 1 MiB.
const MAX_KEY_BYTES: usize = 1 << 20;

/// The message of a key past the limit, for key `number` of `source`, as docs/cli.md
/// documents it.
fn too_long(number: u64, source: &str) -> String {
    format!(
        "slotgen: error: key {number} of {source} is longer than 1048576 bytes (1 MiB), the longest key slotgen reads: give one key per line (with -z, one per NUL-terminated record), each of at most 1 MiB\n"
    )
}

fn assert_bounded(peak: Option<u64>, what: &str) {
    if let Some(peak) = peak {
        assert!(peak < PEAK_KIB, "{what}: peak memory {peak} KiB");
    }
}

/// Writes `first`, then a line of 700 MB of `a` (written 1 MiB at a time, until slotgen
/// stops reading), then `end`.
fn huge_line(first: &'static [u8], end: &'static [u8]) -> impl FnOnce(&mut ChildStdin) + Send {
    move |input| {
        let chunk = vec![b'a'; 1 << 20];
        let _ = (|| -> std::io::Result<()> {
            input.write_all(first)?;
            for _ in 0..700 {
                input.write_all(&chunk)?;
            }
            input.write_all(end)
        })();
    }
}

#[test]
fn a_700_mb_line_is_refused_by_every_command_that_reads_keys_with_one_message() {
    // `verify --keys` reads its first keys before it dials the server, which is not there
    let commands: [&[&str]; 6] = [
        &["slot"],
        &["slot", "-z", "--with-key"],
        &["check"],
        &["check", "--format", "json"],
        &["placement"],
        &["verify", "--redis", "redis://127.0.0.1:1", "--keys", "-"],
    ];
    for args in commands {
        let (first, end): (&'static [u8], &'static [u8]) = if args.contains(&"-z") {
            (b"k\0", b"\0")
        } else {
            (b"k\n", b"\n")
        };
        let (run, peak) = run_measured_fed(args, huge_line(first, end));
        assert_eq!(run.code, Some(1), "{args:?}: {}", run.stderr);
        assert_eq!(run.stderr, too_long(2, "standard input"), "{args:?}");
        assert_bounded(peak, &format!("{args:?}"));
    }
}

#[test]
fn a_key_at_the_limit_is_read_and_one_byte_more_is_not() {
    let mut input = vec![b'{'; MAX_KEY_BYTES];
    input.extend_from_slice(b"\r\n");
    // `{` repeated has no closing brace: the whole key is hashed
    let expected = crc::Crc::<u16>::new(&crc::CRC_16_XMODEM).checksum(&input[..MAX_KEY_BYTES]);
    let run = Run::from(slotgen_with_stdin(&["slot"], &input));
    run.ok();
    assert_eq!(run.stdout, format!("{}\n", expected & 16383));
    input.insert(0, b'{');
    for args in [&["slot"][..], &["check"], &["placement"]] {
        let run = Run::from(slotgen_with_stdin(args, &input));
        assert_eq!(run.stderr, too_long(1, "standard input"), "{args:?}");
    }
    // with --hex, the key's bytes count, not its digits
    let hex = "7b".repeat(MAX_KEY_BYTES);
    let run = Run::from(slotgen_with_stdin(&["slot", "--hex"], hex.as_bytes()));
    run.ok();
    assert_eq!(run.stdout, format!("{}\n", expected & 16383));
}

#[test]
fn the_keys_before_a_key_past_the_limit_deep_in_the_input_are_answered_then_it_is_refused() {
    // 100,000 keys (some 30 blocks of the reader, read on its own thread), then a key of
    // 1 MiB and a byte, then one more key that is never reached
    let mut input = Vec::new();
    let mut expected = String::new();
    let xmodem = crc::Crc::<u16>::new(&crc::CRC_16_XMODEM);
    for i in 0..100_000 {
        let key = format!("key:{i:012}");
        input.extend_from_slice(key.as_bytes());
        input.push(b'\n');
        // no brace: the whole key is hashed
        expected += &format!("{}\n", xmodem.checksum(key.as_bytes()) & 16383);
    }
    input.extend(std::iter::repeat_n(b'x', MAX_KEY_BYTES + 1));
    input.extend_from_slice(b"\nb\n");
    let run = Run::from(slotgen_with_stdin(&["slot"], &input));
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert_eq!(run.stderr, too_long(100_001, "standard input"));
    assert!(
        run.stdout == expected,
        "{} lines",
        run.stdout.lines().count()
    );
}

#[test]
fn slot_whose_reader_goes_away_ends_while_keys_keep_coming() {
    let mut child = common::spawn_piped(Command::new(env!("CARGO_BIN_EXE_slotgen")).arg("slot"));
    // keys without end, until slotgen's standard input is closed
    let mut input = child.stdin.take().unwrap();
    let feeder = std::thread::spawn(move || {
        let chunk = b"key:{user42}:x\n".repeat(4096);
        while input.write_all(&chunk).is_ok() {}
    });
    // one line, then the pipe is closed (`slotgen slot | head -1`): the next writes fail
    // with EPIPE, and the reading of the keys must end too
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let slot = crc::Crc::<u16>::new(&crc::CRC_16_XMODEM).checksum(b"user42") & 16383;
    assert_eq!(line, format!("{slot}\n"));
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > Duration::from_secs(90) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("slotgen slot did not end after its reader went away: it hangs");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    assert_eq!(status.code(), Some(0), "{stderr}");
    assert!(stderr.is_empty(), "{stderr}");
    feeder.join().unwrap();
}

/// A writer that sends a key and waits for its answer (`coproc`, a script talking to
/// `slot` over pipes) gets each answer while the input stays open: `slot` and `check` write
/// out what they have answered whenever they wait for more keys. (They answered only at
/// the end of the input, or past 64 KiB of output, before.)
#[test]
fn a_key_is_answered_while_the_input_stays_open() {
    for (args, key, answer) in [
        (&["slot"][..], "{user42}:cart", "slot"),
        (&["check"][..], "{user42}:cart", "check"),
    ] {
        let mut child = common::spawn_piped(Command::new(env!("CARGO_BIN_EXE_slotgen")).args(args));
        let mut input = child.stdin.take().unwrap();
        let (lines, read) = std::sync::mpsc::channel();
        let stdout = child.stdout.take().unwrap();
        let reader = std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                if lines.send(line.unwrap()).is_err() {
                    break;
                }
            }
        });
        let slot = crc::Crc::<u16>::new(&crc::CRC_16_XMODEM).checksum(b"user42") & 16383;
        for _ in 0..2 {
            input.write_all(format!("{key}\n").as_bytes()).unwrap();
            input.flush().unwrap();
            // the key's row, with the input still open
            let line = read
                .recv_timeout(Duration::from_secs(20))
                .unwrap_or_else(|_| panic!("{answer}: no answer while the input is open"));
            assert!(
                line == slot.to_string() || line.starts_with(&format!("{slot}\t")),
                "{answer}: {line}"
            );
        }
        drop(input);
        let status = child.wait().unwrap();
        assert!(status.success(), "{answer}: {status}");
        reader.join().unwrap();
    }
}

/// A note on stderr whose reader is gone (`2>&1 | head -c 100` after `head` ended): the
/// write fails, and the command's output and exit status stand (it panicked, exit 101).
#[test]
fn a_note_to_a_closed_stderr_leaves_the_output_and_the_exit_status() {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let out = Command::new(env!("CARGO_BIN_EXE_slotgen"))
        .args(["tag", "--charset", "alnum", "0"])
        .stderr(writer)
        .output()
        .unwrap();
    // the tag of slot 0 under the alphabet that --charset alnum's note names
    let mut said = Command::new(env!("CARGO_BIN_EXE_slotgen"));
    let noted = Run::from(
        said.args(["tag", "--charset", "alnum", "0"])
            .output()
            .unwrap(),
    );
    assert!(
        noted.stderr.starts_with("slotgen: --charset alnum: "),
        "{}",
        noted.stderr
    );
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stdout), noted.stdout);
    assert!(noted.stdout.starts_with("0\t"), "{}", noted.stdout);
}

#[test]
fn a_key_file_without_line_feeds_is_refused_by_verify_keys() {
    let file = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(file.path(), vec![b'x'; MAX_KEY_BYTES + 1]).unwrap();
    let path = file.path().to_str().unwrap();
    let run = Run::from(slotgen_with_stdin(
        &["verify", "--redis", "redis://127.0.0.1:1", "--keys", path],
        b"",
    ));
    assert_eq!(run.stderr, too_long(1, &format!("`{path}`")));
}

#[test]
fn an_exec_command_that_prints_without_end_is_stopped_at_the_line_budget() {
    if !require_tool("cat") {
        return;
    }
    let (run, peak) = run_measured(&["verify", "--exec", "cat /dev/zero"]);
    run.fails_with("the command printed a line of more than 4096 bytes (line 1), and was stopped");
    assert_bounded(peak, "cat /dev/zero");
    // a line that long after good answers is named by its number
    let (run, peak) = run_measured(&[
        "verify",
        "--exec",
        "sh -c 'printf \"0\\n1\\n\"; cat /dev/zero'",
        "--count",
        "5",
    ]);
    run.fails_with("a line of more than 4096 bytes (line 3)");
    assert_bounded(peak, "sh -c 'printf ...; cat /dev/zero'");
}

#[test]
fn an_exec_command_that_writes_without_end_to_stderr_or_never_ends_its_line_is_killed() {
    if !require_tool("sh") || !require_tool("yes") {
        return;
    }
    for command in [
        "sh -c 'exec yes slotgen >&2'",
        "sh -c 'printf 12; exec sleep 60'",
    ] {
        let (run, peak) = run_measured(&["verify", "--exec", command, "--timeout", "2"]);
        run.fails_with("the command did not finish within 2 s and was killed");
        assert_bounded(peak, command);
    }
}

#[test]
fn exec_examples_and_stderr_are_escaped() {
    if !require_tool("sh") {
        return;
    }
    let command = "sh -c 'while read k; do printf \"\\033[2J\\n\"; done; printf \"\\033]0;x\\007\\n\" >&2; exit 1'";
    let output = slotgen_with_stdin(&["verify", "--exec", command, "--count", "3"], b"");
    assert!(
        !output.stdout.iter().any(|&b| b < b' ' && b != b'\n'),
        "a control byte reached standard output: {:?}",
        String::from_utf8_lossy(&output.stdout)
    );
    let run = Run::from(output);
    run.prints("got \\x1b[2J")
        .prints("            \\x1b]0;x\\x07");
    assert_eq!(run.code, Some(1));
}

/// The CRC-16/XMODEM slot of a key without braces: the crc crate's, not slotgen's.
fn slot_of(key: &[u8]) -> u16 {
    crc::Crc::<u16>::new(&crc::CRC_16_XMODEM).checksum(key) & 16383
}

#[test]
fn dash_z_reads_nul_records_and_ends_records_with_nul_on_every_command() {
    let input = b"a\nb\0c\r\0";
    let (ab, c) = (slot_of(b"a\nb"), slot_of(b"c\r"));
    let run = Run::from(slotgen_with_stdin(&["slot", "-z"], input));
    run.ok();
    assert_eq!(run.stdout, format!("{ab}\0{c}\0"));
    let run = Run::from(slotgen_with_stdin(&["check", "-z"], input));
    run.ok();
    let records: Vec<&str> = run.stdout.split_terminator('\0').collect();
    assert_eq!(records[0], format!("{ab}\t-\ta\\x0ab\t-"));
    assert_eq!(records[1], format!("{c}\t-\tc\\x0d\t-"));
    assert!(records[2].starts_with("# keys: 2,"), "{records:?}");
    assert!(!run.stdout.contains('\n'), "{}", run.stdout);
    let run = Run::from(slotgen_with_stdin(&["placement", "-z"], input));
    run.ok();
    assert!(
        run.stdout.starts_with("keys\t2\tslots_used\t2\n"),
        "{}",
        run.stdout
    );
    // without -z, each command reads the same three lines the same way
    let lines = b"a\nb\r\nc";
    let run = Run::from(slotgen_with_stdin(&["slot"], lines));
    assert_eq!(
        run.stdout,
        format!("{}\n{}\n{}\n", slot_of(b"a"), slot_of(b"b"), slot_of(b"c"))
    );
    let run = Run::from(slotgen_with_stdin(&["check"], lines));
    assert_eq!(run.rows().len(), 3, "{}", run.stdout);
    let run = Run::from(slotgen_with_stdin(&["placement"], lines));
    assert!(run.stdout.starts_with("keys\t3\t"), "{}", run.stdout);
    // -z where no record is read or printed is refused
    Run::from(slotgen_with_stdin(
        &["verify", "--redis", "redis://127.0.0.1:1", "-z"],
        b"",
    ))
    .fails_with_code(2, "`-z` applies to the keys of `--keys`");
}

#[test]
fn placement_takes_its_keys_as_arguments_as_slot_does() {
    // `user:{42}:a` and `user:{42}:b` share the hashtag `42`: one slot with two keys
    let xmodem = crc::Crc::<u16>::new(&crc::CRC_16_XMODEM);
    let slot = |hashed: &[u8]| xmodem.checksum(hashed) & 16383;
    let run = Run::from(common::slotgen(&[
        "placement",
        "--",
        "user:{42}:a",
        "user:{42}:b",
        "-x",
    ]));
    run.ok();
    let mut rows: Vec<String> = run
        .rows()
        .iter()
        .filter(|r| r[0] == "slot")
        .map(|r| r.join("\t"))
        .collect();
    rows.sort();
    let mut expected = vec![
        format!("slot\t{}\t2", slot(b"42")),
        format!("slot\t{}\t1", slot(b"-x")),
    ];
    expected.sort();
    assert_eq!(rows, expected, "{}", run.stdout);
    assert!(
        run.stdout.starts_with("keys\t3\tslots_used\t2\n"),
        "{}",
        run.stdout
    );
    // with --hex, each argument is hex; a bad one is named, with what is wrong
    let run = Run::from(common::slotgen(&["placement", "--hex", "7b617d", "7b6"]));
    run.fails_with_code(2, "key 2 is not hex: it has an odd count of hex digits, 3");
    Run::from(common::slotgen(&["slot", "--hex", "7g"]))
        .fails_with_code(2, "key 1 is not hex: byte 2 (`g`) is no hex digit");
}

#[test]
fn header_names_the_fields_where_records_have_them_and_is_refused_elsewhere() {
    let run = Run::from(slotgen_with_stdin(
        &["slot", "--format", "tsv", "--header", "--with-key"],
        b"a\n",
    ));
    assert_eq!(run.stdout, format!("slot\tkey\n{}\ta\n", slot_of(b"a")));
    let run = Run::from(slotgen_with_stdin(&["check", "--header"], b"a\n"));
    run.ok();
    assert_eq!(
        run.stdout.lines().next(),
        Some("slot\thashtag\tkey\twarnings")
    );
    let run = Run::from(slotgen_with_stdin(&["check", "--header", "-z"], b"a"));
    assert!(
        run.stdout.starts_with("slot\thashtag\tkey\twarnings\0"),
        "{:?}",
        run.stdout
    );
    let run = Run::from(slotgen_with_stdin(
        &["key", "0", "--format", "tsv", "--header"],
        b"",
    ));
    assert!(run.stdout.starts_with("slot\tkey\n"), "{}", run.stdout);
    for (args, needle) in [
        (
            &["slot", "--header"][..],
            "`--header` applies to `--format tsv` only",
        ),
        (
            &["check", "--header", "--format", "json"],
            "`--header` applies to TSV records",
        ),
        (
            &["placement", "--header"],
            "`--header` applies to TSV records",
        ),
        (
            &["verify", "--redis", "redis://127.0.0.1:1", "--header"],
            "`--header` applies to TSV records",
        ),
    ] {
        Run::from(slotgen_with_stdin(args, b"a\n")).fails_with_code(2, needle);
    }
}

/// `--cacert`, `--cert`, `--key`, `--password-file` and `verify`'s file given a device
/// without end or a FIFO without a writer: each refused in one line naming the option's file and the rule, in
/// bounded memory, not an allocator abort or a hang (issue 31). The certificate before a
/// `--key` is any PEM block: its bytes are not parsed before the key is read.
#[test]
fn user_files_are_bounded_in_size_and_time() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success(), "mkfifo");
    let fifo = fifo.to_str().unwrap();
    let cert = dir.path().join("cert.pem");
    std::fs::write(
        &cert,
        "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n",
    )
    .unwrap();
    let cert = cert.to_str().unwrap();
    let tls = ["nodes", "--redis", "rediss://127.0.0.1:1"];
    for file in ["/dev/zero", "/dev/urandom", fifo] {
        let reason = if file == fifo {
            "it gave no end within 5 s (a FIFO or a pipe whose writer waits, or a device): give a regular file, or write the whole of it to the pipe at once".to_owned()
        } else {
            "it holds more than 1048576 bytes, more than such a file ever does: give the file itself, not a device such as `/dev/zero`".to_owned()
        };
        // a password file within `--timeout`, given 1 s here, which the refusal says to raise
        let password = if file == fifo {
            format!("{}, or raise `--timeout`", reason.replace("5 s", "1 s"))
        } else {
            reason.replace("1048576", "65536")
        };
        for (options, message) in [
            (
                vec!["--cacert", file],
                format!("the CA certificate file `{file}` cannot be used: {reason}"),
            ),
            (
                vec!["--insecure", "--cert", file, "--key", file],
                format!("the client certificate file `{file}` cannot be used: {reason}"),
            ),
            (
                vec!["--insecure", "--cert", cert, "--key", file],
                format!("the client key file `{file}` cannot be used: {reason}"),
            ),
        ] {
            let args: Vec<&str> = tls.iter().copied().chain(options).collect();
            let (run, peak) = run_measured(&args);
            // with --insecure, its warning comes first
            run.exits(1, &message);
            assert_bounded(peak, &format!("{args:?}"));
        }
        // verify's derivation or tag table, through the same reader
        let (run, peak) = run_measured(&["verify", file]);
        if file == fifo {
            run.fails_with_code(1, &format!("cannot read `{file}`: {reason}"));
        } else {
            run.fails_with_code(1, &format!("`{file}` has more than 1048576 bytes"));
        }
        assert_bounded(peak, &format!("verify {file}"));
        let args = [
            "nodes",
            "--redis",
            "redis://127.0.0.1:1",
            "--password-file",
            file,
            "--timeout",
            "1",
        ];
        let (run, peak) = run_measured(&args);
        run.fails_with_code(
            1,
            &format!("cannot read --password-file {file}: {password}"),
        );
        assert_bounded(peak, &format!("{args:?}"));
    }
}
