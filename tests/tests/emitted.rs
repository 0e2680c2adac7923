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
fn js() {
    check_language("js", Path::new(env!("CARGO_TARGET_TMPDIR")));
}
