//! Big kernels: with 16-symbol tags of the Redis Cluster alphabet each slot has 2^50 tags.
//! Every module's `tags_for_slot` is lazy: it gives the first tags at once (each program
//! runs under `timeout 60`), they are the Rust runtime's, and the module's count is exact.
//! The Go package also builds for a 32-bit target (`GOARCH=386`).

use std::path::Path;
use std::process::Command;

use slotgen::{derive, emit, Derivation, Spec};
use slotgen_tests::emitted::{fresh_dir, run};
use slotgen_tests::require_tool;

fn big() -> Derivation {
    derive(&Spec {
        tag_len: Some(16),
        ..Spec::default()
    })
    .expect("16-symbol tags derive")
}

/// `<count> <tag>,<tag>,<tag>`: the count and the first three tags of slot 0, from the Rust
/// runtime.
fn expected(derivation: &Derivation) -> String {
    let table = derivation.table();
    let tags: Vec<String> = table
        .tags_for_slot(0)
        .unwrap()
        .take(3)
        .map(hex::encode)
        .collect();
    format!("{} {}", table.tags_per_slot(), tags.join(","))
}

/// Writes `file` into a fresh directory and runs `script` there under `timeout 60`; its
/// last line must be [`expected`].
fn check(language: &str, tools: &[&str], file: &str, source: String, script: &str) {
    if !require_tool("timeout") || !tools.iter().all(|tool| require_tool(tool)) {
        return;
    }
    let derivation = big();
    let dir = fresh_dir(
        Path::new(env!("CARGO_TARGET_TMPDIR")),
        &format!("big-{language}"),
    );
    std::fs::write(dir.join(file), source).unwrap();
    let output = run(Command::new("timeout")
        .args(["60", "sh", "-c", script])
        .current_dir(&dir));
    assert_eq!(
        output.lines().last().unwrap_or(""),
        expected(&derivation),
        "{language}"
    );
}

#[test]
fn js() {
    check(
        "js",
        &["node"],
        "slotgen.mjs",
        emit::js::module(&big()),
        "node -e 'import(\"./slotgen.mjs\").then(m => { const it = m.tagsForSlot(0); const t = [0, 1, 2].map(() => Buffer.from(it.next().value).toString(\"hex\")); console.log(String(m.TAGS_PER_SLOT), t.join(\",\")); })'",
    );
}

const GO_MAIN: &str = r#"package main

import (
	"encoding/hex"
	"fmt"
	"strings"

	"big/slotgen"
)

func main() {
	tags, err := slotgen.TagsForSlot(0)
	if err != nil {
		panic(err)
	}
	var first []string
	tags(func(tag []byte) bool {
		first = append(first, hex.EncodeToString(tag))
		return len(first) < 3
	})
	fmt.Println(slotgen.TagsPerSlot, strings.Join(first, ","))
}
"#;
