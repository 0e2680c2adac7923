//! Shared helpers for slotgen's cross-crate tests.

pub mod redis_server;

/// The README's Rust examples, compiled and run as doctests.
#[doc = include_str!("../../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

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
