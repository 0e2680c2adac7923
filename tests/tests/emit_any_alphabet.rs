//! Any alphabet byte is safe in every emitted file: for alphabets holding a newline and a
//! carriage return, quotes, a backslash, `*/`, `--`, `?>` and `\u`, each language's real
//! toolchain loads or compiles the file (Python also runs its doctests), and the file's
//! slot of `123456789` and tag of slot 0 are the Rust runtime's.

use std::path::Path;
use std::process::Command;

use slotgen::{derive, emit, Derivation, Spec};
use slotgen_tests::emitted::{fresh_dir, run};
use slotgen_tests::require_tool;

/// Two-symbol alphabets (any two bytes are an affine set) over 1024 slots, so that tags of
/// ten or more symbols repeat each byte and hold every pair of them.
fn awkward() -> Vec<(&'static str, Derivation)> {
    [
        ("newline", &b"\n\r"[..]),
        ("double-quote", b"\"#"),
        ("quotes", b"\"'"),
        ("backslash", b"'\\"),
        ("comment-end", b"*/"),
        ("dashes", b"-x"),
        ("php-end", b">?"),
        ("unicode-escape", b"\\u"),
    ]
    .into_iter()
    .map(|(name, alphabet)| {
        let spec = Spec {
            alphabet: alphabet.to_vec(),
            tag_len: None,
            slots: 1024,
            ..Spec::default()
        };
        (name, derive(&spec).expect("a two-symbol alphabet derives"))
    })
    .collect()
}

/// `<slot of "123456789"> <hex tag of slot 0>`, from the Rust runtime.
fn expected(derivation: &Derivation) -> String {
    let table = derivation.table();
    format!(
        "{} {}",
        table.key_slot(b"123456789"),
        hex::encode(table.tag_for_slot(0).unwrap())
    )
}

/// For each awkward alphabet: writes `file` (from `emit`) into a fresh directory, runs
/// `command` there, and compares its last line of output with [`expected`].
fn check(
    language: &str,
    tools: &[&str],
    file: &str,
    emit: impl Fn(&Derivation) -> String,
    command: impl Fn(&Path) -> Command,
) {
    if !tools.iter().all(|tool| require_tool(tool)) {
        return;
    }
    for (name, derivation) in awkward() {
        let dir = fresh_dir(
            Path::new(env!("CARGO_TARGET_TMPDIR")),
            &format!("awkward-{language}-{name}"),
        );
        std::fs::write(dir.join(file), emit(&derivation)).unwrap();
        let output = run(command(&dir).current_dir(&dir));
        assert_eq!(
            output.lines().last().unwrap_or(""),
            expected(&derivation),
            "{language}, alphabet {name}"
        );
    }
}

fn sh(script: &str) -> Command {
    let mut command = Command::new("sh");
    command.args(["-c", script]);
    command
}

#[test]
fn lua() {
    for lua in ["lua5.1", "lua5.4", "luajit"] {
        check(lua, &[lua], "slotgen.lua", emit::lua::module, |_| {
            sh(&format!("{lua} -e 'local m = dofile(\"slotgen.lua\"); print(m.slot(\"123456789\") .. \" \" .. (m.tag_for_slot(0):gsub(\".\", function(c) return string.format(\"%02x\", c:byte()) end)))'"))
        });
    }
}

const C_MAIN: &str = r#"
#include <stdio.h>
#include "slotgen.h"
int main(void) {
    unsigned char tag[SLOTGEN_TAG_LEN];
    unsigned i;
    if (slotgen_tag_for_slot(0, tag) != SLOTGEN_OK) return 1;
    printf("%u ", slotgen_slot("123456789", 9));
    for (i = 0; i < SLOTGEN_TAG_LEN; i++) printf("%02x", tag[i]);
    printf("\n");
    return 0;
}
"#;

#[test]
fn c() {
    check("c", &["gcc"], "slotgen.h", emit::c::header, |dir| {
        std::fs::write(dir.join("main.c"), C_MAIN).unwrap();
        sh("gcc -std=c99 -Wall -Wextra -Werror -pedantic -o main main.c && ./main")
    });
}

const GO_MAIN: &str = r#"package main

import (
	"encoding/hex"
	"fmt"

	"awkward/slotgen"
)

func main() {
	tag, err := slotgen.TagForSlot(0)
	if err != nil {
		panic(err)
	}
	fmt.Println(slotgen.Slot([]byte("123456789")), hex.EncodeToString(tag))
}
"#;

#[test]
fn go() {
    check(
        "go",
        &["go", "gofmt"],
        "slotgen.go",
        |d| emit::go::package(d, "slotgen").unwrap(),
        |dir| {
            std::fs::create_dir_all(dir.join("slotgen")).unwrap();
            std::fs::rename(dir.join("slotgen.go"), dir.join("slotgen/slotgen.go")).unwrap();
            std::fs::write(dir.join("main.go"), GO_MAIN).unwrap();
            std::fs::write(dir.join("go.mod"), "module awkward\n\ngo 1.19\n").unwrap();
            let mut command = sh("test -z \"$(gofmt -l .)\" && go vet ./... && go run .");
            command
                .env("GOFLAGS", "-mod=mod")
                .env("GOTOOLCHAIN", "local");
            command
        },
    );
}

const JAVA_MAIN: &str = r#"
public final class Main {
    public static void main(String[] args) {
        StringBuilder tag = new StringBuilder();
        for (byte b : Slotgen.tagForSlot(0)) tag.append(String.format("%02x", b & 0xff));
        System.out.println(Slotgen.slot("123456789") + " " + tag);
    }
}
"#;

#[test]
fn java() {
    check(
        "java",
        &["javac", "java"],
        "Slotgen.java",
        |d| emit::java::class(d, "Slotgen").unwrap(),
        |dir| {
            std::fs::write(dir.join("Main.java"), JAVA_MAIN).unwrap();
            sh("javac --release 11 -Xlint:all -Werror -d classes Slotgen.java Main.java && java -cp classes Main")
        },
    );
}

#[test]
fn ruby() {
    check(
        "ruby",
        &["ruby"],
        "slotgen.rb",
        |d| emit::ruby::module(d, "Slotgen").unwrap(),
        |_| {
            sh("ruby -w -e 'require \"./slotgen\"; puts \"#{Slotgen.slot(\"123456789\")} #{Slotgen.tag_for_slot(0).unpack1(\"H*\")}\"' 2>&1")
        },
    );
}

#[test]
fn php() {
    check(
        "php",
        &["php"],
        "slotgen.php",
        |d| emit::php::class(d, "Slotgen").unwrap(),
        |_| {
            sh("php -l slotgen.php >/dev/null && php -r 'require \"slotgen.php\"; echo Slotgen::slot(\"123456789\"), \" \", bin2hex(Slotgen::tagForSlot(0)), \"\\n\";'")
        },
    );
}

#[test]
fn elixir() {
    check(
        "elixir",
        &["elixirc", "elixir"],
        "slotgen.ex",
        |d| emit::elixir::module(d, "Slotgen").unwrap(),
        |_| {
            sh("elixirc --warnings-as-errors -o ebin slotgen.ex && elixir -pa ebin -e 'IO.puts(\"#{Slotgen.slot(\"123456789\")} #{Base.encode16(Slotgen.tag_for_slot!(0), case: :lower)}\")'")
        },
    );
}

/// The `lua --for-script` block, run by LuaJIT (whose `bit` is the server's), and the
/// Functions library compiled by it (`luajit -b` parses without running).
#[test]
fn server_lua() {
    if !require_tool("luajit") {
        return;
    }
    check(
        "server-lua",
        &["luajit"],
        "block.lua",
        |d| {
            let block = emit::redis_function::script_block(d, "slotgen").unwrap();
            format!(
                "{block}local hex = slotgen.tag_for_slot(0):gsub('.', function(c) return string.format('%02x', c:byte()) end)\n\
                 print(slotgen.slot('123456789') .. ' ' .. hex)\n"
            )
        },
        |_| sh("luajit block.lua"),
    );
    for (name, derivation) in awkward() {
        let dir = fresh_dir(
            Path::new(env!("CARGO_TARGET_TMPDIR")),
            &format!("awkward-function-{name}"),
        );
        let library = emit::redis_function::library(&derivation, "slotgen").unwrap();
        // The `#!lua` line is the server's; Lua reads a first line starting with `#` as a
        // comment too.
        std::fs::write(dir.join("library.lua"), library).unwrap();
        let _ = run(Command::new("luajit")
            .args(["-b", "library.lua", "library.out"])
            .current_dir(&dir));
    }
}
