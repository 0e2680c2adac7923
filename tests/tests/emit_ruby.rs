//! The emitted Ruby module, run by `ruby -w` (which must stay silent) for every test spec,
//! against the Rust runtime and a real Redis server's answers; against the
//! `Redis::Cluster::KeySlotConverter` of the `redis` gem (Debian's `ruby-redis`) on the
//! shared vectors; and two modules of different specs in one program.

use std::path::Path;
use std::process::Command;

use slotgen::emit;
use slotgen_tests::emitted::{self, cases, fresh_dir, keys};
use slotgen_tests::{redis_vectors, require_tool, speakers};

/// Prints the driver protocol of [`slotgen_tests::emitted`] and [`speakers`] for the module
/// file `ARGV[0]` (module `Slots`) and the keys file `ARGV[1]`.
const DRIVER: &str = r#"
require_relative ARGV[0]
def hex(s) = s.unpack1("H*")
keys = File.readlines(ARGV[1], chomp: true)
out = []
Slots::SLOTS.times { |s| out << "tag\t#{s}\t#{hex(Slots.tag_for_slot(s))}" }
Slots::SLOTS.times { |s| out << "tags\t#{s}\t#{Slots.tags_for_slot(s).map { |t| hex(t) }.join(",")}" }
Slots::SLOTS.times { |s| out << "key\t#{s}\t#{hex(Slots.key_for_slot("user:", s, ":profile"))}" }
keys.each { |k| out << "slot\t#{k}\t#{Slots.slot([k].pack("H*"))}" }
keys.each do |k|
  text = [k].pack("H*").force_encoding(Encoding::UTF_8)
  out << "str\t#{k}\t#{Slots.slot(text)}" if text.valid_encoding?
end
keys.each { |k| out << "hashtag\t#{k}\t#{hex(Slots.hashtag([k].pack("H*")))}" }
def refusal(out, name)
  value = yield
  out << "accepted\t#{name}\t#{value.inspect}"
rescue ArgumentError => e
  out << "refused\t#{name}\t#{e.message}"
end
refusal(out, "tag_out_of_range") { Slots.tag_for_slot(Slots::SLOTS) }
refusal(out, "tag_negative") { Slots.tag_for_slot(-1) }
refusal(out, "tags_out_of_range") { Slots.tags_for_slot(Slots::SLOTS) }
refusal(out, "key_out_of_range") { Slots.key_for_slot("user:", Slots::SLOTS, "") }
refusal(out, "prefix_brace") { Slots.key_for_slot("a{b", 0, "") }
$stdout.write(out.join("\n"), "\n")
"#;

/// Prints the `pair` lines of [`speakers`] for the modules `A` (`ARGV[0]`) and `B`
/// (`ARGV[1]`).
const PAIR_DRIVER: &str = r#"
require_relative ARGV[0]
require_relative ARGV[1]
{ "a" => A, "b" => B }.each do |name, m|
  puts ["pair", name, m.slot("123456789"), m.tag_for_slot(1).unpack1("H*"),
        m.tag_for_slot(m::SLOTS - 1).unpack1("H*")].join("\t")
end
"#;

/// Prints `converter <key> <slot>` from the `redis` gem's own path (the hashed bytes of
/// `Redis::Cluster::Command#extract_first_key`, then `KeySlotConverter.convert`) and
/// `slot <key> <slot>` from the module `ARGV[0]` for every key of `ARGV[1]`.
const CONVERTER_DRIVER: &str = r#"
require "redis"
require "redis/cluster/command"
require "redis/cluster/key_slot_converter"
require_relative ARGV[0]
command = Redis::Cluster::Command.new({ "get" => { first: 1, flags: ["readonly"] } })
File.readlines(ARGV[1], chomp: true).each do |k|
  key = [k].pack("H*")
  hashed = command.extract_first_key(["get", key])
  puts "converter\t#{k}\t#{Redis::Cluster::KeySlotConverter.convert(hashed)}"
  puts "slot\t#{k}\t#{Slots.slot(key)}"
end
"#;

/// Runs `ruby -w` with `args`; fails when it fails or writes anything to standard error.
fn ruby(dir: &Path, args: &[&str]) -> String {
    let output = Command::new("ruby")
        .arg("-w")
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
fn ruby_module_matches_runtime() {
    if !require_tool("ruby") {
        return;
    }
    let keys = keys();
    for case in cases() {
        let dir = fresh_dir(
            Path::new(env!("CARGO_TARGET_TMPDIR")),
            &format!("ruby-{}", case.name),
        );
        std::fs::write(
            dir.join("slots.rb"),
            emit::ruby::module(&case.derivation, "Slots").unwrap(),
        )
        .unwrap();
        std::fs::write(dir.join("driver.rb"), DRIVER).unwrap();
        let _ = emitted::write_keys(&dir, &keys);
        let output = ruby(&dir, &["driver.rb", "./slots.rb", "keys.txt"]);
        speakers::check_output(
            &format!("Ruby, spec {}", case.name),
            &output,
            &case.derivation,
            &keys,
            &["slot", "str"],
        );
    }
}

#[test]
fn two_ruby_modules_of_different_specs_in_one_program() {
    if !require_tool("ruby") {
        return;
    }
    let dir = fresh_dir(Path::new(env!("CARGO_TARGET_TMPDIR")), "ruby-pair");
    for case in speakers::pair_cases() {
        let module = emit::ruby::module(&case.derivation, &case.name.to_uppercase()).unwrap();
        std::fs::write(dir.join(format!("{}.rb", case.name)), module).unwrap();
    }
    std::fs::write(dir.join("pair.rb"), PAIR_DRIVER).unwrap();
    let output = ruby(&dir, &["pair.rb", "./a.rb", "./b.rb"]);
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
    std::fs::write(
        dir.join("slots.rb"),
        emit::ruby::module(&default, "Slots").unwrap(),
    )
    .unwrap();
    std::fs::write(dir.join("converter.rb"), CONVERTER_DRIVER).unwrap();
    let vectors = redis_vectors();
    let keys: Vec<Vec<u8>> = vectors.iter().map(|v| v.key.clone()).collect();
    let _ = emitted::write_keys(&dir, &keys);
    let output = ruby(&dir, &["converter.rb", "./slots.rb", "keys.txt"]);
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
        "Slöts",
        "A-B",
    ] {
        let error = emit::ruby::module(&d, bad).unwrap_err();
        assert!(
            error.to_string().contains("is not a name for `emit ruby`"),
            "{bad}: {error}"
        );
    }
    assert!(emit::ruby::module(&d, "RedisSlots2").is_ok());
}
