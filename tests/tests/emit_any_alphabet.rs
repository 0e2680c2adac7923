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
fn js() {
    check("js", &["node"], "slotgen.mjs", emit::js::module, |_| {
        sh("node -e 'import(\"./slotgen.mjs\").then(m => console.log(m.slot(\"123456789\"), Buffer.from(m.tagForSlot(0)).toString(\"hex\")))'")
    });
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
fn typescript_declarations() {
    let tsc = slotgen_tests::workspace_root().join("tests/typescript/node_modules/.bin/tsc");
    if !require_tool("node") {
        return;
    }
    if !tsc.is_file() {
        assert!(
            std::env::var("SLOTGEN_REQUIRE_TOOLS").as_deref() != Ok("1"),
            "tsc is not installed in tests/typescript: run `npm ci` there (.ci/run does)"
        );
        eprintln!("skipping: tsc is not installed in tests/typescript (run `npm ci` there)");
        return;
    }
    for (name, derivation) in awkward() {
        let dir = fresh_dir(
            Path::new(env!("CARGO_TARGET_TMPDIR")),
            &format!("awkward-ts-{name}"),
        );
        std::fs::write(dir.join("slotgen.d.mts"), emit::js::types(&derivation)).unwrap();
        let _ = run(Command::new(&tsc)
            .args(["--strict", "--noEmit", "--target", "es2022"])
            .arg(dir.join("slotgen.d.mts")));
    }
}
