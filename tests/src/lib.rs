//! Shared helpers for slotgen's cross-crate tests.

pub mod redis_server;

/// Whether the outside program `name` can be run (`name --version` succeeds).
///
/// When it cannot, a test skips: this prints that it does and returns `false`, unless the
/// environment has `SLOTGEN_REQUIRE_TOOLS=1` (as `.ci/run` sets), where it panics instead,
/// so that a missing program fails CI rather than passing it silently.
///
/// # Panics
///
/// When the program is missing and `SLOTGEN_REQUIRE_TOOLS=1`.
#[must_use]
pub fn require_tool(name: &str) -> bool {
    let found = std::process::Command::new(name)
        .arg("--version")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|status| status.success());
    if !found {
        assert!(
            std::env::var("SLOTGEN_REQUIRE_TOOLS").as_deref() != Ok("1"),
            "`{name}` is required (SLOTGEN_REQUIRE_TOOLS=1) but cannot be run: install it"
        );
        eprintln!("skipping: `{name}` is not installed");
    }
    found
}
