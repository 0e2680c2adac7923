//! The table of toolchains: how each language's module and driver are built and run by the
//! [`harness`](crate::harness), with the strict flags of each compiler and interpreter in
//! this one place. A row per language of the registry whose output is a module
//! ([`Language::module`](slotgen::emit::language::Language)); `every_module_language_has_a_toolchain`
//! fails for a language without one. Each row is in a file of its own
//! (`tests/src/toolchains/<language>.rs`).

use std::path::Path;

use slotgen::emit::language::{self, Options};

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
mod row;
mod ruby;

pub use row::{check_refusals, driver, Toolchain};

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
