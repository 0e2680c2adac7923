//! A row of the table of toolchains, and what rows share: where a language's driver is, how
//! a language's own refusals are checked.

use std::path::{Path, PathBuf};

use crate::harness::{Case, Shared};

/// How one language is run.
pub struct Toolchain {
    /// The language, as the registry names it.
    pub language: &'static str,
    /// The programs it needs; the language skips (or fails under
    /// `SLOTGEN_REQUIRE_TOOLS=1`) when one is missing.
    pub programs: &'static [&'static str],
    /// The kinds of key lines its driver prints after `slot` (`str`, `buffer`).
    pub kinds: &'static [&'static str],
    /// Writes the module into the case's directory, builds and runs the driver, and returns
    /// what it printed.
    pub run: fn(&Shared, &Case, &Path, &str) -> String,
}

/// The driver source file `name` of `language`: `tests/drivers/<language>/<name>`.
#[must_use]
pub fn driver(language: &str, name: &str) -> PathBuf {
    crate::workspace_root()
        .join("tests/drivers")
        .join(language)
        .join(name)
}

/// Asserts that `output` refuses each of `refusals`, a language's own refusals beyond the
/// protocol's: a `refused <name>` line holding the fragment of its message.
///
/// # Panics
///
/// With the first refusal missing.
pub fn check_refusals(language: &str, case: &Case, output: &str, refusals: &[(&str, &str)]) {
    for &(name, fragment) in refusals {
        let line = format!("refused\t{name}\t");
        assert!(
            output
                .lines()
                .any(|l| l.starts_with(&line) && l.contains(fragment)),
            "{language}, case {}: `{name}` must be refused with `{fragment}`",
            case.name
        );
    }
}
