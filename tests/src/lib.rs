//! Shared helpers for slotgen's cross-crate tests.

/// Whether the outside program `name` is on `PATH`. When it is not, prints that the calling
/// test skips and returns `false`, unless `SLOTGEN_REQUIRE_TOOLS=1`, which makes a missing
/// program a failure (CI installs them all).
///
/// # Panics
///
/// When `name` is missing and `SLOTGEN_REQUIRE_TOOLS=1`.
#[must_use]
pub fn require_tool(name: &str) -> bool {
    let path = std::env::var_os("PATH").unwrap_or_default();
    if std::env::split_paths(&path).any(|dir| dir.join(name).is_file()) {
        return true;
    }
    assert!(
        std::env::var("SLOTGEN_REQUIRE_TOOLS").as_deref() != Ok("1"),
        "`{name}` is not on PATH and SLOTGEN_REQUIRE_TOOLS=1: install it (.ci/run lists the packages)"
    );
    eprintln!("skipping: `{name}` is not on PATH");
    false
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
