//! The emitted Ruby module beyond the harness (`tests/tests/emitted.rs`, which runs it for
//! every case): against the `Redis::Cluster::KeySlotConverter` of the `redis` gem (Debian's
//! `ruby-redis`) on the shared vectors; two modules of different specs in one program; and
//! the module's name rules.

use std::path::Path;
use std::process::Command;

use slotgen::emit::language::{self, Options};
use slotgen_tests::emitted::{self, fresh_dir};
use slotgen_tests::toolchains::driver;
use slotgen_tests::{redis_vectors, require_tool, speakers};

/// The Ruby module named `name` for `d`, through the registry.
fn module(d: &slotgen::Derivation, name: &str) -> Result<String, slotgen::Error> {
    language::find("ruby").unwrap().emit(
        d,
        &Options {
            name: Some(name),
            ..Options::default()
        },
    )
}

/// Runs `ruby -w` with the driver `tests/drivers/ruby/<name>` and `args` in `dir`; fails
/// when it fails or writes anything to standard error.
fn ruby(dir: &Path, name: &str, args: &[&str]) -> String {
    let output = Command::new("ruby")
        .arg("-w")
        .arg(driver("ruby", name))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("running ruby");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "ruby {args:?} failed:\n{stderr}");
    assert!(
        stderr.is_empty(),
        "ruby -w must be silent, it wrote:\n{stderr}"
    );
    String::from_utf8(output.stdout).expect("drivers print ASCII")
}

#[test]
fn two_ruby_modules_of_different_specs_in_one_program() {
    if !require_tool("ruby") {
        return;
    }
    let dir = fresh_dir(Path::new(env!("CARGO_TARGET_TMPDIR")), "ruby-pair");
    for case in speakers::pair_cases() {
        let module = module(&case.derivation, &case.name.to_uppercase()).unwrap();
        std::fs::write(dir.join(format!("{}.rb", case.name)), module).unwrap();
    }
    let output = ruby(&dir, "pair.rb", &["a.rb", "b.rb"]);
    speakers::check_pair("Ruby", &output);
}

/// The Redis client's own slot function (`ruby-redis` 4.8), the emitted module and a real
/// Redis server agree on every shared vector.
#[test]
fn ruby_module_agrees_with_redis_rb_key_slot_converter() {
    if !require_tool("ruby") {
        return;
    }
    let dir = fresh_dir(Path::new(env!("CARGO_TARGET_TMPDIR")), "ruby-converter");
    let probe = Command::new("ruby")
        .args([
            "-e",
            "require 'redis'; require 'redis/cluster/command'; require 'redis/cluster/key_slot_converter'",
        ])
        .output()
        .expect("running ruby");
    if !probe.status.success() {
        assert!(
            std::env::var("SLOTGEN_REQUIRE_TOOLS").as_deref() != Ok("1"),
            "the `redis` gem (Debian `ruby-redis`) with Redis::Cluster::KeySlotConverter is not installed"
        );
        eprintln!(
            "skipping: the `redis` gem with Redis::Cluster::KeySlotConverter is not installed"
        );
        return;
    }
    let default = slotgen::derive(&slotgen::Spec::default()).unwrap();
    std::fs::write(dir.join("slotgen.rb"), module(&default, "Slotgen").unwrap()).unwrap();
    let vectors = redis_vectors();
    let keys: Vec<Vec<u8>> = vectors.iter().map(|v| v.key.clone()).collect();
    let _ = emitted::write_keys(&dir, &keys);
    let output = ruby(&dir, "redis_gem.rb", &["slotgen.rb", "keys.txt"]);
    let lines: Vec<&str> = output.lines().collect();
    assert_eq!(lines.len(), 2 * vectors.len());
    for (vector, pair) in vectors.iter().zip(lines.chunks(2)) {
        let key = hex::encode(&vector.key);
        assert_eq!(
            pair[0],
            format!("converter\t{key}\t{}", vector.slot),
            "KeySlotConverter differs from Redis"
        );
        assert_eq!(
            pair[1],
            format!("slot\t{key}\t{}", vector.slot),
            "the module differs from Redis"
        );
    }
}

#[test]
fn ruby_names_are_checked() {
    let d = slotgen::derive(&slotgen::Spec::default()).unwrap();
    for bad in [
        "",
        "slots",
        "Redis::Slots",
        "9Slots",
        "String",
        "Array",
        "Slöts",
        "A-B",
    ] {
        let error = module(&d, bad).unwrap_err();
        assert!(
            error.to_string().contains("is not a name for `emit ruby`"),
            "{bad}: {error}"
        );
    }
    assert!(module(&d, "RedisSlots2").is_ok());
}
