//! Every emitted module, run for real by the one harness (`slotgen_tests::harness`) over
//! every case of its matrix: one test per language of the registry.

use std::path::Path;

use slotgen::emit::language::{find, Options, LANGUAGES};
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
fn csharp() {
    check_language("csharp", Path::new(env!("CARGO_TARGET_TMPDIR")));
}

/// The C# class for Redis Cluster, in a namespace: frozen here, run by `csharp` above.
#[test]
fn csharp_class_for_redis_cluster() {
    let d = slotgen::derive(&slotgen::Spec::default()).unwrap();
    let options = Options {
        name: Some("Example.RedisSlots"),
        ..Options::default()
    };
    let source = find("csharp").unwrap().emit((&d).into(), &options).unwrap();
    insta::assert_snapshot!("csharp_redis_cluster", source);
}

#[test]
fn erlang() {
    check_language("erlang", Path::new(env!("CARGO_TARGET_TMPDIR")));
}

/// The Erlang module for Redis Cluster, named: frozen here, run by `erlang` above.
#[test]
fn erlang_module_for_redis_cluster() {
    let d = slotgen::derive(&slotgen::Spec::default()).unwrap();
    let options = Options {
        name: Some("redis_slots"),
        ..Options::default()
    };
    let source = find("erlang").unwrap().emit((&d).into(), &options).unwrap();
    insta::assert_snapshot!("erlang_redis_cluster", source);
}
