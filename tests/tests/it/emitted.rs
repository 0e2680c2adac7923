//! Every emitted module, run for real by the one harness (`slotgen_tests::harness`) over
//! every case of its matrix: one test per language of the registry.

use std::path::Path;

use slotgen::emit::language::LANGUAGES;
use slotgen_tests::toolchains::{check_language, TOOLCHAINS};

#[test]
fn every_module_language_has_a_toolchain() {
    for language in LANGUAGES.iter().filter(|l| l.module) {
        assert!(
            TOOLCHAINS.iter().any(|t| t.language == language.name),
            "`{}` has no row in tests/src/toolchains.rs",
            language.name
        );
    }
}

#[test]
fn python() {
    check_language("python", Path::new(env!("CARGO_TARGET_TMPDIR")));
}

#[test]
fn php() {
    check_language("php", Path::new(env!("CARGO_TARGET_TMPDIR")));
}

#[test]
fn elixir() {
    check_language("elixir", Path::new(env!("CARGO_TARGET_TMPDIR")));
}

#[test]
fn java() {
    check_language("java", Path::new(env!("CARGO_TARGET_TMPDIR")));
}

#[test]
fn ruby() {
    check_language("ruby", Path::new(env!("CARGO_TARGET_TMPDIR")));
}

#[test]
fn lua() {
    check_language("lua", Path::new(env!("CARGO_TARGET_TMPDIR")));
}

/// The Redis Cluster Lua module gives the seed document's Lua module's answers.
#[test]
fn lua_matches_the_seed_module() {
    slotgen_tests::toolchains::lua::check_seed(Path::new(env!("CARGO_TARGET_TMPDIR")));
}

/// The `EVAL` block and the Functions library inside redis-server and valkey-server.
#[test]
fn lua_inside_servers() {
    slotgen_tests::server_lua::check_servers(Path::new(env!("CARGO_TARGET_TMPDIR")));
}

/// Two `EVAL` blocks of different specs in one script.
#[test]
fn lua_blocks_of_two_specs_in_one_script() {
    slotgen_tests::server_lua::check_pair();
}

#[test]
fn go() {
    check_language("go", Path::new(env!("CARGO_TARGET_TMPDIR")));
}

#[test]
fn c() {
    check_language("c", Path::new(env!("CARGO_TARGET_TMPDIR")));
}

#[test]
fn js() {
    check_language("js", Path::new(env!("CARGO_TARGET_TMPDIR")));
}

#[test]
fn csharp() {
    check_language("csharp", Path::new(env!("CARGO_TARGET_TMPDIR")));
}

#[test]
fn erlang() {
    check_language("erlang", Path::new(env!("CARGO_TARGET_TMPDIR")));
}

/// The guide's table of languages (docs/languages.md) is the registry's: every language that
/// `slotgen emit` writes as a module (and the Functions library) has its row, in the
/// registry's order, and no row names a language the registry lacks.
#[test]
fn the_guide_lists_every_language_of_the_registry() {
    let section =
        std::fs::read_to_string(slotgen_tests::workspace_root().join("docs/languages.md"))
            .expect("docs/languages.md");
    let rows: Vec<&str> = section
        .lines()
        .filter_map(|line| line.strip_prefix("| `"))
        .filter_map(|rest| rest.split('`').next())
        .filter(|name| *name != "<lang>")
        .collect();
    let registry: Vec<&str> = LANGUAGES
        .iter()
        .filter(|l| l.module || l.name == "redis-function")
        .map(|l| l.name)
        .collect();
    assert_eq!(rows, registry, "docs/languages.md's table of languages");
}
