//! `slotgen verify`, run as a program: JSON derivations (whole, edited, truncated), tag
//! tables in three forms, and real servers (cluster-enabled, not, and absent).

use std::net::{Ipv4Addr, TcpListener};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{crc::hash_crc16, slotgen_with_stdin as slotgen, Run};

fn exec(args: &[&str]) -> Run {
    exec_with_input(args, b"")
}

fn exec_with_input(args: &[&str], stdin: &[u8]) -> Run {
    let output = slotgen(args, stdin);
    Run::from(output)
}

fn path_str(path: &Path) -> &str {
    path.to_str().unwrap()
}

fn emitted_json(dir: &Path) -> (PathBuf, serde_json::Value) {
    let path = dir.join("table.json");
    let run = exec(&["emit", "json", "-o", path_str(&path)]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    (path, value)
}

#[test]
fn an_emitted_derivation_verifies() {
    let dir = tempfile::tempdir().unwrap();
    let (path, _) = emitted_json(dir.path());
    let run = exec(&["verify", path_str(&path)]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(run.stdout.contains(
        "CRC-16/XMODEM, 16384 slots, alphabet `@ABCDEFGHIJKLMNO`, 4-symbol tags (base slot 13881"
    ));
    assert!(run
        .stdout
        .contains("verified:   16384/16384 slots, 65536 tags"));
}

#[test]
fn an_edited_constant_is_named_with_both_values() {
    let dir = tempfile::tempdir().unwrap();
    let (path, mut value) = emitted_json(dir.path());
    // the seed's third inverse constant, for slot bit 2
    assert_eq!(value["inverse"][2], 0x9007);
    value["inverse"][2] = 0x9017.into();
    std::fs::write(&path, value.to_string()).unwrap();
    let run = exec(&["verify", path_str(&path)]);
    run.fails_with("does not match its re-derivation");
    assert!(
        run.stdout
            .contains("mismatch:   `inverse[2]`: expected 36871, found 36887"),
        "{}",
        run.stdout
    );

    let (path, mut value) = emitted_json(dir.path());
    value["base_slot"] = 13880.into();
    std::fs::write(&path, value.to_string()).unwrap();
    let run = exec(&["verify", path_str(&path)]);
    run.fails_with("1 of");
    assert!(run
        .stdout
        .contains("`base_slot`: expected 13881, found 13880"));
}

#[test]
fn unreadable_or_truncated_files_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (path, value) = emitted_json(dir.path());
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, &text[..text.len() * 2 / 3]).unwrap();
    exec(&["verify", path_str(&path)]).fails_with("EOF while parsing");

    std::fs::write(&path, [0xff, 0xfe, b'{']).unwrap();
    exec(&["verify", path_str(&path)]).fails_with("is not UTF-8 text");

    let missing = dir.path().join("missing.json");
    exec(&["verify", path_str(&missing)]).fails_with("cannot read");
    exec(&["verify", path_str(dir.path())]).fails_with("cannot read");

    let mut other = value;
    other["format"] = "something-else/1".into();
    std::fs::write(&path, other.to_string()).unwrap();
    exec(&["verify", path_str(&path)]).fails_with("`format` is `something-else/1`");

    exec(&["verify", "--tags", path_str(&missing)]).fails_with("cannot read");
    let source = dir.path().join("open.lua");
    std::fs::write(&source, "return {\n'ab', 'c\n}").unwrap();
    exec(&["verify", "--tags", path_str(&source)])
        .fails_with("line 2: a string literal is left open");
}

/// The shortest alphanumeric string that lands on each slot, searched with the `crc`
/// crate's XMODEM, as the table that redis-benchmark is built with is made.
fn shortest_alphanumeric_tags() -> Vec<String> {
    let crc = crc::Crc::<u16>::new(&crc::CRC_16_XMODEM);
    let symbols: Vec<u8> = (b'0'..=b'9')
        .chain(b'A'..=b'Z')
        .chain(b'a'..=b'z')
        .collect();
    let mut table: Vec<Option<String>> = vec![None; 16384];
    let mut found = 0;
    let mut candidates: Vec<Vec<u8>> = vec![Vec::new()];
    while found < 16384 {
        candidates = candidates
            .iter()
            .flat_map(|c| {
                symbols.iter().map(move |&s| {
                    let mut next = c.clone();
                    next.push(s);
                    next
                })
            })
            .collect();
        for c in &candidates {
            let slot = usize::from(crc.checksum(c) & 16383);
            if table[slot].is_none() {
                table[slot] = Some(String::from_utf8(c.clone()).unwrap());
                found += 1;
            }
        }
    }
    table.into_iter().map(Option::unwrap).collect()
}

#[test]
fn tag_tables_in_lines_c_and_lua() {
    let dir = tempfile::tempdir().unwrap();
    let tags = shortest_alphanumeric_tags();
    let lines = dir.path().join("tags.txt");
    std::fs::write(&lines, tags.join("\n") + "\n").unwrap();
    let quoted: Vec<String> = tags.iter().map(|t| format!("\"{t}\"")).collect();
    let c = dir.path().join("crc16_slottable.h");
    std::fs::write(
        &c,
        format!(
            "/* made for \"redis-benchmark\" */\n#include \"x.h\"\nstatic const char *crc16_slot_table[] = {{\n{}\n}};\n",
            quoted.join(", ")
        ),
    )
    .unwrap();
    let lua = dir.path().join("tags.lua");
    std::fs::write(
        &lua,
        format!("-- \"tags\"\nreturn {{ {} }}\n", quoted.join(",\n")),
    )
    .unwrap();
    for (path, form) in [(&lines, "lines"), (&c, "C source"), (&lua, "Lua source")] {
        let run = exec(&["verify", "--tags", path_str(path)]);
        assert_eq!(run.code, Some(0), "{form}: {}{}", run.stdout, run.stderr);
        assert!(
            run.stdout.contains(&format!("({form}, 16384 entries)")),
            "{}",
            run.stdout
        );
        run.prints("checked:    16384 entries");
    }

    // two entries swapped: both are named, with the slot each lands on
    let mut swapped = tags.clone();
    swapped.swap(7, 9);
    std::fs::write(&lines, swapped.join("\n")).unwrap();
    let run_swapped = exec(&["verify", "--tags", path_str(&lines)]);
    run_swapped.fails_with("2 of 16384 entries land on another slot");
    for (slot, tag, lands_on) in [(7, &tags[9], 9), (9, &tags[7], 7)] {
        let line = format!("misplaced:  slot {slot} tag \"{tag}\" lands on slot {lands_on}");
        assert!(run_swapped.stdout.contains(&line), "{}", run_swapped.stdout);
    }

    // missing and extra entries
    std::fs::write(&lines, tags[..16000].join("\n")).unwrap();
    let short = exec(&["verify", "--tags", path_str(&lines)]);
    short.fails_with("384 slots have no entry");
    assert!(short
        .stdout
        .contains("missing:    slots 16000 to 16383 have no entry (384 slots)"));
    std::fs::write(&lines, tags.join("\n") + "\nAB\nCD\n").unwrap();
    let long = exec(&["verify", "--tags", path_str(&lines)]);
    long.fails_with("2 entries are extra");

    // the same table under another CRC: nearly every entry lands elsewhere, 20 are listed
    let other = exec(&["verify", "--tags", path_str(&c), "--crc", "MODBUS"]);
    other.fails_with("(the first 20 are listed)");
    assert_eq!(other.stdout.matches("misplaced:").count(), 20);

    // a misplaced tag of 1000 bytes is shown cut, with its length
    let mut long_tag = tags.clone();
    long_tag[5] = "A".repeat(1000);
    std::fs::write(&lines, long_tag.join("\n")).unwrap();
    let cut = exec(&["verify", "--tags", path_str(&lines)]);
    cut.fails_with("1 of 16384 entries lands on another slot");
    let shown = cut
        .stdout
        .lines()
        .find(|l| l.starts_with("misplaced:  slot 5 "))
        .unwrap_or_else(|| panic!("{}", cut.stdout));
    assert!(
        shown.contains("(1000 bytes)") && shown.len() < 300,
        "{shown}"
    );
}

/// A module made by `slotgen emit` lists no tags (its string literals are its messages): it
/// is refused by name, in C and in Lua.
#[test]
fn an_emitted_module_is_no_tag_table() {
    let dir = tempfile::tempdir().unwrap();
    for (language, file) in [("c", "slotgen.h"), ("lua", "slotgen.lua")] {
        let path = dir.path().join(file);
        let emitted = exec(&["emit", language, "-o", path_str(&path)]);
        assert_eq!(emitted.code, Some(0), "{}", emitted.stderr);
        exec(&["verify", "--tags", path_str(&path)])
            .fails_with("is a module made by `slotgen emit`, which computes each slot's tag");
    }
}

/// Whether `redis-server` runs; when it does not, skip, or fail with
/// `SLOTGEN_REQUIRE_TOOLS=1`.
fn have_redis_server() -> bool {
    let found = Command::new("redis-server")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        assert!(
            std::env::var("SLOTGEN_REQUIRE_TOOLS").as_deref() != Ok("1"),
            "redis-server is required (SLOTGEN_REQUIRE_TOOLS=1) but cannot be run: install it"
        );
        eprintln!("skipping: redis-server is not installed");
    }
    found
}

fn free_port() -> u16 {
    TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A `redis-server` on a unix socket in a temporary directory, with a loopback cluster bus
/// when cluster-enabled; killed and reaped on drop.
struct Server {
    child: Child,
    socket: PathBuf,
    _dir: tempfile::TempDir,
}

impl Server {
    /// Starts a server, trying three times (a free port may be taken meanwhile), and waits
    /// (20 s at most) until its socket appears.
    fn start(cluster: bool) -> Self {
        for _ in 0..3 {
            let dir = tempfile::tempdir().unwrap();
            let socket = dir.path().join("redis.sock");
            let mut command = Command::new("redis-server");
            command
                .arg("--unixsocket")
                .arg(&socket)
                .args(["--save", "", "--appendonly", "no", "--bind", "127.0.0.1"])
                .current_dir(dir.path())
                .stdout(Stdio::null());
            if cluster {
                let (port, bus_port) = (free_port().to_string(), free_port().to_string());
                command
                    .args(["--port", &port, "--cluster-enabled", "yes"])
                    .args(["--cluster-port", &bus_port]);
            } else {
                command.args(["--port", "0"]);
            }
            let mut server = Self {
                child: command.spawn().unwrap(),
                socket,
                _dir: dir,
            };
            let deadline = Instant::now() + Duration::from_secs(20);
            while !server.socket.exists() && server.child.try_wait().unwrap().is_none() {
                assert!(
                    Instant::now() < deadline,
                    "redis-server did not start in 20 s"
                );
                std::thread::sleep(Duration::from_millis(20));
            }
            if server.socket.exists() {
                return server;
            }
        }
        panic!("redis-server exited at start three times");
    }

    fn url(&self) -> String {
        format!("unix://{}", self.socket.display())
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn a_cluster_enabled_server_agrees_on_every_slot_and_key() {
    if !have_redis_server() {
        return;
    }
    let server = Server::start(true);
    let run = exec(&["verify", "--redis", &server.url()]);
    assert_eq!(run.code, Some(0), "{}{}", run.stdout, run.stderr);
    run.prints("tags:       16384 of 16384 tags");

    // the committed vectors, as hex keys on standard input
    let vectors = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/data/redis_keyslot.tsv"
    );
    let keys: String = std::fs::read_to_string(vectors)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| format!("{}\n", l.split('\t').next().unwrap()))
        .collect();
    let count = keys.lines().count();
    let args = ["verify", "--redis", &server.url(), "--keys", "-", "--hex"];
    let run = exec_with_input(&args, keys.as_bytes());
    assert_eq!(run.code, Some(0), "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout
            .contains(&format!("keys:       {count} of {count} keys")),
        "{}",
        run.stdout
    );

    // keys as text; a spec that is not the server's disagrees, and says so
    let args = ["verify", "--redis", &server.url(), "--keys", "-"];
    let run = exec_with_input(&args, b"123456789\n{user1000}.following\n");
    assert_eq!(run.code, Some(0), "{}{}", run.stdout, run.stderr);
    let args = [
        "verify",
        "--redis",
        &server.url(),
        "--crc",
        "IBM-3740",
        "--keys",
        "-",
    ];
    let run = exec_with_input(&args, b"123456789\n");
    run.fails_with("disagree with the spec");
    run.prints(
        "disagree:   key \"123456789\": slot 10673 by CRC-16/IBM-3740, slot 12739 by the server",
    );
}

#[test]
fn servers_that_refuse_are_errors() {
    if !have_redis_server() {
        return;
    }
    let plain = Server::start(false);
    exec(&["verify", "--redis", &plain.url()]).fails_with("is not cluster-enabled");
    // nothing listens on a port just freed
    let url = format!("redis://127.0.0.1:{}", free_port());
    exec(&["verify", "--redis", &url]).fails_with("cannot reach");
    let gone = plain.socket.with_file_name("gone.sock");
    exec(&["verify", "--redis", &format!("unix://{}", gone.display())]).fails_with("cannot reach");
    exec(&["verify", "--redis", "http://127.0.0.1/"]).fails_with_code(2, "is not a server URL");
}

/// `verify --tags --scheme`: a scheme's tag table in C, Lua and lines is checked entry by
/// entry from the scheme's first slot, by the scheme's own slot function (and its
/// `hash_tag`); a table for another server count or another scheme fails, naming the entry.
#[test]
fn a_schemes_tag_table_in_every_form() {
    let dir = tempfile::tempdir().unwrap();
    let pool = [
        "--scheme",
        "twemproxy-crc16",
        "--slots",
        "5",
        "--hash-tag",
        "::",
    ];
    for (format, file) in [("c", "pool.h"), ("lua", "pool.lua"), ("lines", "pool.txt")] {
        let path = dir.path().join(file);
        let mut args = vec!["shortest", "--charset", "alnum", "--format", format, "-o"];
        args.push(path_str(&path));
        args.extend(pool);
        let run = exec(&args);
        assert_eq!(run.code, Some(0), "{}", run.stderr);
        let mut args = vec!["verify", "--tags", path_str(&path)];
        args.extend(pool);
        let run = exec(&args);
        assert_eq!(run.code, Some(0), "{format}: {}{}", run.stdout, run.stderr);
        assert!(
            run.stdout
                .contains("for scheme twemproxy-crc16, 5 slots (0 to 4)"),
            "{}",
            run.stdout
        );
    }
    // the lines, checked here too: each tag hashed inside `:...:` lands on its server
    let lines = std::fs::read_to_string(dir.path().join("pool.txt")).unwrap();
    for (server, tag) in lines.lines().enumerate() {
        assert_eq!(hash_crc16(tag.as_bytes()) % 5, server as u32, "{tag}");
    }
    // the same table read as a pool of 3, or as crc32a's: a misplaced entry is named
    let path = dir.path().join("pool.txt");
    let run = exec(&[
        "verify",
        "--tags",
        path_str(&path),
        "--scheme",
        "twemproxy-crc16",
        "--slots",
        "3",
    ]);
    run.fails_with("the tag table does not hold");
    assert!(
        run.stdout
            .contains("extra:      2 entries past the last slot, 2"),
        "{}",
        run.stdout
    );
    let run = exec(&[
        "verify",
        "--tags",
        path_str(&path),
        "--scheme",
        "twemproxy-crc32a",
        "--slots",
        "5",
    ]);
    run.fails_with("on another slot");
    assert!(run.stdout.contains("misplaced:  slot"), "{}", run.stdout);
}
