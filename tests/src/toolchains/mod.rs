//! The table of toolchains: how each language's module and driver are built and run by the
//! [`harness`](crate::harness), with the strict flags of each compiler and interpreter in
//! this one place. A row per language of the registry whose output is a module
//! ([`Language::module`](slotgen::emit::language::Language)); `every_module_language_has_a_toolchain`
//! fails for a language without one. Each row is in a file of its own
//! (`tests/src/toolchains/<language>.rs`).

use std::path::{Path, PathBuf};

use slotgen::emit::language::{self, Options};

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

mod c;
mod csharp;
mod elixir;
mod erlang;
mod go;
mod java;
mod js;
pub mod lua;
mod php;
mod python;
mod ruby;

/// Every toolchain, a row a language, each in its own file.
pub static TOOLCHAINS: &[Toolchain] = &[
    python::PYTHON,
    java::JAVA,
    ruby::RUBY,
    php::PHP,
    elixir::ELIXIR,
    lua::LUA,
    go::GO,
    c::C,
    js::JS,
    csharp::CSHARP,
    erlang::ERLANG,
];

/// Runs `language`'s module over every case of the harness (its files under `tmp`, the
/// test binary's `CARGO_TARGET_TMPDIR`), each against the expected
/// answers; skips (with a message) when a program it needs is missing, unless
/// `SLOTGEN_REQUIRE_TOOLS=1`.
///
/// # Panics
///
/// With the first difference, or when the language has no toolchain row.
pub fn check_language(name: &str, tmp: &Path) {
    let toolchain = TOOLCHAINS
        .iter()
        .find(|t| t.language == name)
        .unwrap_or_else(|| panic!("no toolchain for `{name}`"));
    if !toolchain.programs.iter().all(|p| crate::require_tool(p)) {
        return;
    }
    let Some(shared) = crate::harness::shared(tmp) else {
        return;
    };
    let language = language::find(name).unwrap_or_else(|| panic!("`{name}` is no language"));
    for case in &shared.cases {
        let module = language
            .emit(case.source(), &Options::default())
            .unwrap_or_else(|e| panic!("{name}, case {}: {e}", case.name));
        let dir = shared.dir(name, case);
        let output = (toolchain.run)(shared, case, &dir, &module);
        shared.check(name, case, toolchain.kinds, &output);
    }
}
