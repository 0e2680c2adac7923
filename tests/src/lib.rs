//! Shared helpers for slotgen's cross-crate tests.

use std::path::PathBuf;

pub mod emitted;

/// Whether the outside program `name` is on `PATH`. When it is missing, prints that the
/// calling test skips and returns false, unless the environment sets
/// `SLOTGEN_REQUIRE_TOOLS=1` (as CI does), in which case it panics.
///
/// # Panics
///
/// When `name` is missing and `SLOTGEN_REQUIRE_TOOLS=1`.
#[must_use]
pub fn require_tool(name: &str) -> bool {
    let found = std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|dir| dir.join(name).is_file()));
    if !found {
        assert!(
            std::env::var("SLOTGEN_REQUIRE_TOOLS").as_deref() != Ok("1"),
            "`{name}` is not on PATH, and SLOTGEN_REQUIRE_TOOLS=1 requires it: install it"
        );
        eprintln!("skipping: `{name}` is not on PATH");
    }
    found
}

/// The workspace root: the directory above this crate.
#[must_use]
pub fn workspace_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the tests crate sits inside the workspace")
        .to_path_buf()
}

/// The Redis-answered vectors of `tests/data/*.tsv`: each key (bytes) and the slot a real
/// Redis server gave it (CRC-16/XMODEM, 16384 slots). Comment lines start with `#`.
///
/// # Panics
///
/// When a file cannot be read or a line is malformed.
#[must_use]
pub fn redis_vectors() -> Vec<(Vec<u8>, u16)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/data exists")
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "tsv"))
        .collect();
    paths.sort();
    let mut vectors = Vec::new();
    for path in paths {
        let text = std::fs::read_to_string(&path).expect("a vector file is text");
        for line in text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
        {
            let mut fields = line.split('\t');
            let (Some(key), Some(slot)) = (fields.next(), fields.next()) else {
                panic!("{}: malformed line `{line}`", path.display());
            };
            vectors.push((
                hex::decode(key).expect("the key is hex"),
                slot.parse().expect("the slot is a number"),
            ));
        }
    }
    vectors
}
