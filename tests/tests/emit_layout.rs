//! The layout checks of every emitted module (`same_slot` and `shared_hashtag`, in each
//! language's spelling), run for real in Python, Node, Lua 5.1, Lua 5.4, LuaJIT, Java,
//! Ruby, PHP and Elixir for every test spec, against the Rust runtime's
//! `SlotTable::same_slot` and `shared_hashtag`.
//!
//! A driver reads a groups file, one group of keys a line (hex keys joined by `,`; `-` is
//! the group of no keys), and prints for each `<same>\t<shared>`: the slot or `none`, the
//! shared hashtag in hex or `none`.

use std::path::Path;
use std::process::Command;

use slotgen::emit;
use slotgen_tables::shared_hashtag;
use slotgen_tests::emitted::{cases, fresh_dir, run, Case};
use slotgen_tests::require_tool;

/// The groups: the seed layouts, the traps, binary and 4-byte UTF-8 tags, none and one key.
fn groups() -> Vec<Vec<Vec<u8>>> {
    let group = |keys: &[&[u8]]| keys.iter().map(|k| k.to_vec()).collect::<Vec<_>>();
    vec![
        group(&[b"emq:{orders}:pending", b"emq:{orders}:active"]),
        group(&[b"emq:{}:pending", b"emq:{}:active"]),
        group(&[b"emq:{orders}:pending", b"{emq}:version"]),
        group(&[]),
        group(&[b""]),
        group(&[b"k"]),
        group(&[b"{a}1", b"{a}2", b"{a}3"]),
        group(&[b"{}a", b"{}a"]),
        group(&[b"a{b}{c}", b"{b}"]),
        group(&[b"{{a}}", b"{{a}x"]),
        group(&[b"{a", b"{a"]),
        group(&[b"x{", b"x{}"]),
        group(&[b"{a}", b"{b}"]),
        group(&[b"\xff{\x80}", b"{\x80}z"]),
        group(&[
            "user:{\u{1F480}}:profile".as_bytes(),
            "{\u{1F480}}".as_bytes(),
        ]),
    ]
}

fn write_groups(dir: &Path) -> std::path::PathBuf {
    let text: String = groups()
        .iter()
        .map(|g| {
            if g.is_empty() {
                "-\n".to_owned()
            } else {
                g.iter().map(hex::encode).collect::<Vec<_>>().join(",") + "\n"
            }
        })
        .collect();
    let path = dir.join("groups.txt");
    std::fs::write(&path, text).unwrap();
    path
}

/// What the Rust runtime answers for each group.
fn expected(case: &Case) -> String {
    let table = case.derivation.table();
    groups()
        .iter()
        .map(|g| {
            let same = table
                .same_slot(g)
                .map_or("none".to_owned(), |s| s.to_string());
            let shared = shared_hashtag(g).map_or("none".to_owned(), hex::encode);
            format!("{same}\t{shared}\n")
        })
        .collect()
}

fn check(language: &str, case: &Case, output: &str) {
    assert_eq!(output, expected(case), "{language}, spec {}", case.name);
}

#[test]
fn the_runtime_answers_the_seed_layouts() {
    // the expectations themselves, for Redis Cluster: slots a real server gave
    let case = cases().into_iter().find(|c| c.name == "redis").unwrap();
    let lines: Vec<String> = expected(&case).lines().map(str::to_owned).collect();
    assert_eq!(lines[0], format!("105\t{}", hex::encode("orders")));
    assert_eq!(lines[1], "none\tnone");
    assert_eq!(lines[2], "none\tnone");
    assert_eq!(lines[3], "none\tnone");
    assert_eq!(lines[4], "0\tnone");
    assert_eq!(
        lines[9],
        format!(
            "{}\t{}",
            lines[9].split('\t').next().unwrap(),
            hex::encode("{a")
        )
    );
}

const JS: &str = r#"
import { readFileSync } from "node:fs";
import { sameSlot, sharedHashtag } from "./slotgen.mjs";
const hex = (b) => Buffer.from(b).toString("hex");
let out = "";
for (const line of readFileSync(process.argv[2], "latin1").split("\n").slice(0, -1)) {
  const keys = line === "-" ? [] : line.split(",").map((h) => new Uint8Array(Buffer.from(h, "hex")));
  const same = sameSlot(keys.values());
  const shared = sharedHashtag(keys);
  out += `${same === null ? "none" : same}\t${shared === null ? "none" : hex(shared)}\n`;
}
process.stdout.write(out);
"#;

#[test]
fn javascript() {
    if !require_tool("node") {
        return;
    }
    for case in cases() {
        let dir = fresh_dir(
            Path::new(env!("CARGO_TARGET_TMPDIR")),
            &format!("layout-js-{}", case.name),
        );
        std::fs::write(dir.join("slotgen.mjs"), emit::js::module(&case.derivation)).unwrap();
        std::fs::write(dir.join("driver.mjs"), JS).unwrap();
        let groups = write_groups(&dir);
        let output = run(Command::new("node")
            .arg(dir.join("driver.mjs"))
            .arg(&groups));
        check("JavaScript", &case, &output);
    }
}

const LUA: &str = r#"
package.path = arg[1] .. "/?.lua;" .. package.path
local m = require("slotgen")
local function unhex(h)
    return (h:gsub("..", function(x) return string.char(tonumber(x, 16)) end))
end
local function hex(s)
    return (s:gsub(".", function(c) return string.format("%02x", string.byte(c)) end))
end
for line in io.lines(arg[2]) do
    local keys = {}
    if line ~= "-" then
        for h in (line .. ","):gmatch("([^,]*),") do
            keys[#keys + 1] = unhex(h)
        end
    end
    local same, shared = m.same_slot(keys), m.shared_hashtag(keys)
    io.write(same == nil and "none" or string.format("%d", same), "\t",
        shared == nil and "none" or hex(shared), "\n")
end
"#;

#[test]
fn lua() {
    for lua in ["lua5.1", "lua5.4", "luajit"] {
        if !require_tool(lua) {
            continue;
        }
        for case in cases() {
            let dir = fresh_dir(
                Path::new(env!("CARGO_TARGET_TMPDIR")),
                &format!("layout-{lua}-{}", case.name),
            );
            std::fs::write(dir.join("slotgen.lua"), emit::lua::module(&case.derivation)).unwrap();
            std::fs::write(dir.join("driver.lua"), LUA).unwrap();
            let groups = write_groups(&dir);
            let output = run(Command::new(lua)
                .arg(dir.join("driver.lua"))
                .arg(&dir)
                .arg(&groups));
            check(lua, &case, &output);
        }
    }
}

/// Also checks that the `byte[]...` forms answer as the `Iterable<byte[]>` forms do.
const JAVA: &str = r#"
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

public final class Driver {
    static String hex(byte[] bytes) {
        StringBuilder out = new StringBuilder();
        for (byte b : bytes) {
            out.append(String.format("%02x", b & 0xff));
        }
        return out.toString();
    }

    static byte[] unhex(String text) {
        byte[] out = new byte[text.length() / 2];
        for (int i = 0; i < out.length; i++) {
            out[i] = (byte) Integer.parseInt(text.substring(2 * i, 2 * i + 2), 16);
        }
        return out;
    }

    public static void main(String[] args) throws Exception {
        StringBuilder out = new StringBuilder();
        for (String line : Files.readAllLines(Paths.get(args[0]))) {
            List<byte[]> keys = new ArrayList<>();
            if (!line.equals("-")) {
                for (String h : line.split(",", -1)) {
                    keys.add(unhex(h));
                }
            }
            OptionalInt same = Slots.sameSlot(keys);
            Optional<String> shared = Slots.sharedHashtag(keys).map(Driver::hex);
            byte[][] array = keys.toArray(new byte[0][]);
            if (!Slots.sameSlot(array).equals(same)
                    || !Slots.sharedHashtag(array).map(Driver::hex).equals(shared)) {
                throw new AssertionError("the byte[]... forms differ on " + line);
            }
            out.append(same.isPresent() ? Integer.toString(same.getAsInt()) : "none")
                    .append('\t')
                    .append(shared.orElse("none"))
                    .append('\n');
        }
        System.out.print(out);
    }
}
"#;

#[test]
fn java() {
    if !require_tool("javac") || !require_tool("java") {
        return;
    }
    for case in cases() {
        let dir = fresh_dir(
            Path::new(env!("CARGO_TARGET_TMPDIR")),
            &format!("layout-java-{}", case.name),
        );
        std::fs::write(
            dir.join("Slots.java"),
            emit::java::class(&case.derivation, "Slots").unwrap(),
        )
        .unwrap();
        std::fs::write(dir.join("Driver.java"), JAVA).unwrap();
        let groups = write_groups(&dir);
        let _ = run(Command::new("javac")
            .args(["--release", "11", "-Xlint:all", "-Werror", "-d"])
            .arg(dir.join("classes"))
            .arg(dir.join("Slots.java"))
            .arg(dir.join("Driver.java")));
        let output = run(Command::new("java")
            .arg("-cp")
            .arg(dir.join("classes"))
            .arg("Driver")
            .arg(&groups));
        check("Java", &case, &output);
    }
}

/// The keys go to `same_slot` as an Enumerator, to `shared_hashtag` as an Array.
const RUBY: &str = r##"
require ARGV[0]
File.foreach(ARGV[1], chomp: true) do |line|
  hexes = if line == "-" then [] elsif line.empty? then [""] else line.split(",", -1) end
  keys = hexes.map { |h| [h].pack("H*") }
  same = Slots.same_slot(keys.each)
  shared = Slots.shared_hashtag(keys)
  puts "#{same.nil? ? 'none' : same}\t#{shared.nil? ? 'none' : shared.unpack1('H*')}"
end
"##;

#[test]
fn ruby() {
    if !require_tool("ruby") {
        return;
    }
    for case in cases() {
        let dir = fresh_dir(
            Path::new(env!("CARGO_TARGET_TMPDIR")),
            &format!("layout-ruby-{}", case.name),
        );
        std::fs::write(
            dir.join("slots.rb"),
            emit::ruby::module(&case.derivation, "Slots").unwrap(),
        )
        .unwrap();
        std::fs::write(dir.join("driver.rb"), RUBY).unwrap();
        let groups = write_groups(&dir);
        let output = Command::new("ruby")
            .arg("-w")
            .arg(dir.join("driver.rb"))
            .arg(dir.join("slots.rb"))
            .arg(&groups)
            .output()
            .expect("running ruby");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "ruby failed:\n{stderr}");
        assert!(
            stderr.is_empty(),
            "ruby -w must be silent, it wrote:\n{stderr}"
        );
        check("Ruby", &case, &String::from_utf8(output.stdout).unwrap());
    }
}

/// The keys go to `sameSlot` as a Generator, to `sharedHashtag` as an array.
const PHP: &str = r#"<?php
declare(strict_types=1);
require $argv[1];
foreach (file($argv[2], FILE_IGNORE_NEW_LINES) as $line) {
    $keys = $line === '-' ? [] : array_map('hex2bin', explode(',', $line));
    $same = Slots::sameSlot((function () use ($keys) { yield from $keys; })());
    $shared = Slots::sharedHashtag($keys);
    echo $same === null ? 'none' : $same, "\t", $shared === null ? 'none' : bin2hex($shared), "\n";
}
"#;

#[test]
fn php() {
    if !require_tool("php") {
        return;
    }
    for case in cases() {
        let dir = fresh_dir(
            Path::new(env!("CARGO_TARGET_TMPDIR")),
            &format!("layout-php-{}", case.name),
        );
        std::fs::write(
            dir.join("Slots.php"),
            emit::php::class(&case.derivation, "Slots").unwrap(),
        )
        .unwrap();
        std::fs::write(dir.join("driver.php"), PHP).unwrap();
        let groups = write_groups(&dir);
        let output = run(Command::new("php")
            .args(["-d", "error_reporting=-1", "-d", "display_errors=stderr"])
            .arg(dir.join("driver.php"))
            .arg(dir.join("Slots.php"))
            .arg(&groups));
        check("PHP", &case, &output);
    }
}

/// The keys go to `same_slot/1` as a Stream, to `shared_hashtag/1` as a list.
const ELIXIR: &str = r#"
[groups_path] = System.argv()
for line <- groups_path |> File.read!() |> String.split("\n") |> Enum.drop(-1) do
  keys =
    if line == "-",
      do: [],
      else: line |> String.split(",") |> Enum.map(&Base.decode16!(&1, case: :lower))
  same = Slots.same_slot(Stream.map(keys, & &1))
  shared = Slots.shared_hashtag(keys)
  IO.binwrite([
    if(same == nil, do: "none", else: Integer.to_string(same)),
    "\t",
    if(shared == nil, do: "none", else: Base.encode16(shared, case: :lower)),
    "\n"
  ])
end
"#;

#[test]
fn elixir() {
    if !require_tool("elixirc") || !require_tool("elixir") {
        return;
    }
    for case in cases() {
        let dir = fresh_dir(
            Path::new(env!("CARGO_TARGET_TMPDIR")),
            &format!("layout-elixir-{}", case.name),
        );
        std::fs::write(
            dir.join("slots.ex"),
            emit::elixir::module(&case.derivation, "Slots").unwrap(),
        )
        .unwrap();
        std::fs::write(dir.join("driver.exs"), ELIXIR).unwrap();
        let groups = write_groups(&dir);
        let _ = run(Command::new("elixirc")
            .arg("--warnings-as-errors")
            .arg("-o")
            .arg(dir.join("ebin"))
            .arg(dir.join("slots.ex")));
        let output = run(Command::new("elixir")
            .arg("-pa")
            .arg(dir.join("ebin"))
            .arg(dir.join("driver.exs"))
            .arg(&groups));
        check("Elixir", &case, &output);
    }
}
