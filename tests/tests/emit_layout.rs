//! The layout checks of every emitted module (`same_slot` and `shared_hashtag`, in each
//! language's spelling), run for real in Python, Lua 5.1, Lua 5.4, LuaJIT, Go, C, Java,
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

const GO: &str = r#"package main

import (
	"bufio"
	"encoding/hex"
	"fmt"
	"os"
	"strings"

	"layout/slotgen"
)

func main() {
	file, err := os.Open(os.Args[1])
	if err != nil {
		panic(err)
	}
	in := bufio.NewScanner(file)
	for in.Scan() {
		var keys [][]byte
		if in.Text() != "-" {
			for _, h := range strings.Split(in.Text(), ",") {
				k, err := hex.DecodeString(h)
				if err != nil {
					panic(err)
				}
				keys = append(keys, k)
			}
		}
		same, shared := "none", "none"
		if s, ok := slotgen.SameSlot(keys...); ok {
			same = fmt.Sprint(s)
		}
		if t, ok := slotgen.SharedHashtag(keys...); ok {
			shared = hex.EncodeToString(t)
		}
		fmt.Printf("%s\t%s\n", same, shared)
	}
}
"#;

#[test]
fn go() {
    if !require_tool("go") {
        return;
    }
    for case in cases() {
        let dir = fresh_dir(
            Path::new(env!("CARGO_TARGET_TMPDIR")),
            &format!("layout-go-{}", case.name),
        );
        std::fs::create_dir(dir.join("slotgen")).unwrap();
        std::fs::write(
            dir.join("slotgen/slotgen.go"),
            emit::go::package(&case.derivation, "slotgen").unwrap(),
        )
        .unwrap();
        std::fs::write(dir.join("main.go"), GO).unwrap();
        std::fs::write(dir.join("go.mod"), "module layout\n\ngo 1.19\n").unwrap();
        let groups = write_groups(&dir);
        let go = |args: &[&str]| {
            let mut command = Command::new("go");
            command
                .args(args)
                .current_dir(&dir)
                .env("GOPATH", dir.join("gopath"))
                .env("GOCACHE", dir.join("gocache"))
                .env("GOFLAGS", "-mod=mod")
                .env("GOPROXY", "off")
                .env("GO111MODULE", "on")
                .env("CGO_ENABLED", "0");
            command
        };
        let _ = run(&mut go(&["vet", "./..."]));
        let output = run(&mut go(&["run", ".", groups.to_str().unwrap()]));
        check("Go", &case, &output);
    }
}

const C: &str = r#"
#include <stdio.h>
#include "slotgen.h"

static int unhex(char c) {
    return c <= '9' ? c - '0' : c - 'a' + 10;
}

int main(int argc, char **argv) {
    static char line[8192];
    static unsigned char bytes[4096];
    const void *keys[64];
    size_t lens[64], n, at, len, i, j, offset, tag_len;
    long same;
    FILE *groups;
    if (argc != 2 || (groups = fopen(argv[1], "r")) == NULL) {
        return 2;
    }
    {
        /* NULL pointers are refused, not followed; a NULL key of length 0 is the empty key */
        const void *tagged[1] = {"{a}"}, *null_key[1] = {NULL};
        size_t three = 3, zero = 0;
        if (slotgen_same_slot(NULL, &three, 1) != -1 || slotgen_same_slot(tagged, NULL, 1) != -1
            || slotgen_same_slot(null_key, &three, 1) != -1
            || slotgen_same_slot(null_key, &zero, 1) != (long)slotgen_slot("", 0)
            || slotgen_shared_hashtag(NULL, &three, 1, &offset, &tag_len) != 0
            || slotgen_shared_hashtag(null_key, &three, 1, &offset, &tag_len) != 0
            || slotgen_shared_hashtag(tagged, &three, 1, NULL, &tag_len) != 0
            || slotgen_shared_hashtag(tagged, &three, 1, &offset, NULL) != 0
            || slotgen_shared_hashtag(tagged, &three, 1, &offset, &tag_len) != 1) {
            fprintf(stderr, "a NULL pointer was not refused\n");
            return 3;
        }
    }
    while (fgets(line, sizeof line, groups) != NULL) {
        n = 0;
        at = 0;
        len = strlen(line);
        if (len > 0 && line[len - 1] == '\n') {
            line[--len] = '\0';
        }
        if (strcmp(line, "-") != 0) {
            i = 0;
            for (;;) {
                keys[n] = bytes + at;
                lens[n] = 0;
                while (line[i] != ',' && line[i] != '\0') {
                    bytes[at++] = (unsigned char)(unhex(line[i]) * 16 + unhex(line[i + 1]));
                    lens[n]++;
                    i += 2;
                }
                n++;
                if (line[i] == '\0') {
                    break;
                }
                i++;
            }
        }
        same = slotgen_same_slot(keys, lens, n);
        if (same < 0) {
            printf("none\t");
        } else {
            printf("%ld\t", same);
        }
        if (slotgen_shared_hashtag(keys, lens, n, &offset, &tag_len)) {
            for (j = 0; j < tag_len; j++) {
                printf("%02x", ((const unsigned char *)keys[0])[offset + j]);
            }
            putchar('\n');
        } else {
            printf("none\n");
        }
    }
    return 0;
}
"#;

#[test]
fn c() {
    if !require_tool("gcc") {
        return;
    }
    for case in cases() {
        let dir = fresh_dir(
            Path::new(env!("CARGO_TARGET_TMPDIR")),
            &format!("layout-c-{}", case.name),
        );
        std::fs::write(dir.join("slotgen.h"), emit::c::header(&case.derivation)).unwrap();
        std::fs::write(dir.join("driver.c"), C).unwrap();
        let groups = write_groups(&dir);
        let _ = run(Command::new("gcc")
            .args(["-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic", "-o"])
            .arg(dir.join("driver"))
            .arg(dir.join("driver.c"))
            .current_dir(&dir));
        let output = run(Command::new(dir.join("driver")).arg(&groups));
        check("C", &case, &output);
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
