//! Snapshots of each module of the second round of languages for Redis Cluster (the
//! default spec). They freeze the generated code; the `emit_<language>` tests beside them
//! run it and prove it right.

use slotgen::{derive, emit, Spec};

fn redis() -> slotgen::Derivation {
    derive(&Spec::default()).expect("the default spec derives")
}

#[test]
fn java_class_for_redis_cluster() {
    let source = emit::java::class(&redis(), "com.example.RedisSlots").expect("a class name");
    insta::assert_snapshot!("java_redis_cluster", source);
}

#[test]
fn ruby_module_for_redis_cluster() {
    let source = emit::ruby::module(&redis(), "RedisSlots").expect("a module name");
    insta::assert_snapshot!("ruby_redis_cluster", source);
}

#[test]
fn php_class_for_redis_cluster() {
    let source = emit::php::class(&redis(), r"Example\RedisSlots").expect("a class name");
    insta::assert_snapshot!("php_redis_cluster", source);
}

#[test]
fn elixir_module_for_redis_cluster() {
    let source = emit::elixir::module(&redis(), "EchoMQ.Keyspace").expect("a module alias");
    insta::assert_snapshot!("elixir_redis_cluster", source);
}

#[test]
fn redis_function_library_for_redis_cluster() {
    let source = emit::redis_function::library(&redis(), "slotgen").expect("a library name");
    insta::assert_snapshot!("redis_function_redis_cluster", source);
}

#[test]
fn lua_script_block_for_redis_cluster() {
    let source = emit::redis_function::script_block(&redis(), "slotgen").expect("a Lua name");
    insta::assert_snapshot!("lua_for_script_redis_cluster", source);
}

#[test]
fn typescript_declarations_for_redis_cluster() {
    insta::assert_snapshot!("typescript_redis_cluster", emit::js::types(&redis()));
}

/// A slot with 2^63 tags (2 slots, 64-bit masks) cannot be counted by a signed 64-bit
/// integer: Java and PHP refuse to emit it rather than give a wrong count; the languages
/// with big integers emit it.
#[test]
fn uncountable_tags_are_refused_where_integers_are_64_bit() {
    let d = derive(&Spec {
        tag_len: Some(16),
        slots: 2,
        ..Spec::default()
    })
    .expect("2 slots derive");
    assert_eq!(d.kernel.len(), 63);
    for error in [
        emit::java::class(&d, "Slots").unwrap_err(),
        emit::php::class(&d, "Slots").unwrap_err(),
    ] {
        assert!(
            error.to_string().contains("each slot has 2^63 tags"),
            "{error}"
        );
    }
    assert!(emit::ruby::module(&d, "Slots").is_ok());
    assert!(emit::elixir::module(&d, "Slots").is_ok());
}
