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

/// One test a language of the toolchain table, so that each runs, fails and is filtered on
/// its own (`cargo test -p slotgen-tests --test it -- emitted::go`); `TESTED` lists them for
/// `every_toolchain_has_its_test`.
macro_rules! per_language {
    ($($language:ident),* $(,)?) => {
        $(
            #[test]
            fn $language() {
                check_language(stringify!($language), Path::new(env!("CARGO_TARGET_TMPDIR")));
            }
        )*

        /// The languages that have a test of their own above.
        const TESTED: &[&str] = &[$(stringify!($language)),*];
    };
}

per_language!(python, php, elixir, java, ruby, lua, go, c, js, csharp, erlang);

/// The per-language tests are the toolchain table's rows, which are the registry's module
/// languages, each with its driver: a language added to one and not the others fails here
/// rather than going unrun.
#[test]
fn every_toolchain_has_its_test() {
    let sorted = |mut names: Vec<&'static str>| {
        names.sort_unstable();
        names
    };
    let tested = sorted(TESTED.to_vec());
    let toolchains = sorted(TOOLCHAINS.iter().map(|t| t.language).collect());
    let modules = sorted(
        LANGUAGES
            .iter()
            .filter(|l| l.module)
            .map(|l| l.name)
            .collect(),
    );
    assert_eq!(
        tested, toolchains,
        "the tests of `per_language!` in tests/tests/it/emitted.rs against TOOLCHAINS"
    );
    assert_eq!(
        toolchains, modules,
        "TOOLCHAINS against the registry's module languages (emit/language.rs)"
    );
    for language in toolchains {
        let driver = slotgen_tests::workspace_root()
            .join("tests/drivers")
            .join(language);
        assert!(
            driver.is_dir(),
            "`{language}` has no driver: {}",
            driver.display()
        );
    }
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
