//! The TypeScript declarations of `emit js --types`, checked by `tsc --strict --noEmit`
//! (npm `typescript`, pinned in `tests/typescript/package.json`; `npm ci` there installs it)
//! beside the emitted module, for every test spec and a non-ASCII alphabet, with a program
//! whose typed uses must compile and whose wrong uses (`@ts-expect-error`) must not.

use std::path::{Path, PathBuf};
use std::process::Command;

use slotgen::emit;
use slotgen_tests::emitted::{cases, fresh_dir, run, Case};
use slotgen_tests::{require_tool, workspace_root};

/// Uses of the module that hold for every spec, and misuses that must not compile.
const COMMON: &str = r#"
import { slot, tagForSlot, keyForSlot, tagsForSlot, SLOTS, TAG_LEN, TAGS_PER_SLOT, SlotgenError } from "./slotgen.mjs";
import type { Key, SlotgenErrorCode } from "./slotgen.mjs";

const slots: number = SLOTS;
const tagLen: number = TAG_LEN;
const count: number | bigint = TAGS_PER_SLOT;
const fromText: number = slot("123456789");
const fromBytes: number = slot(new Uint8Array([0x31]));
const key: Key = "a";
const tag: Uint8Array = tagForSlot(0);
const bytesKey: Uint8Array = keyForSlot(new Uint8Array([0x61]), 0, ":profile");
const mixedKey: Uint8Array = keyForSlot("user:", 0, new Uint8Array());
const tags: Uint8Array[] = [...tagsForSlot(0)];
try {
  tagForSlot(SLOTS);
} catch (e) {
  if (e instanceof SlotgenError) {
    const code: SlotgenErrorCode = e.code;
    console.log(code, e.message);
  }
}
// @ts-expect-error a slot is a number
tagForSlot("0");
// @ts-expect-error a key is bytes or a string
slot(5);
// @ts-expect-error the key of bytes is bytes
const wrong: string = keyForSlot(new Uint8Array(), 0, "");
console.log(slots, tagLen, count, fromText, fromBytes, key, tag, bytesKey, mixedKey, tags, wrong);
"#;

/// With an ASCII alphabet, the key of string parts is a string.
const ASCII: &str = r#"
const textKey: string = keyForSlot("user:", 0, ":profile");
console.log(textKey);
"#;

/// With another alphabet, every key is bytes.
const OTHER: &str = r#"
const onlyBytes: Uint8Array = keyForSlot("user:", 0, ":profile");
// @ts-expect-error the key of a non-ASCII alphabet is bytes
const notText: string = keyForSlot("user:", 0, ":profile");
console.log(onlyBytes, notText);
"#;

/// `tests/typescript/node_modules/.bin/tsc`, when `npm ci` has installed it there.
fn tsc() -> Option<PathBuf> {
    let path = workspace_root().join("tests/typescript/node_modules/.bin/tsc");
    if path.is_file() {
        return Some(path);
    }
    assert!(
        std::env::var("SLOTGEN_REQUIRE_TOOLS").as_deref() != Ok("1"),
        "tsc is not installed in tests/typescript: run `npm ci` there (.ci/run does)"
    );
    eprintln!("skipping: tsc is not installed in tests/typescript (run `npm ci` there)");
    None
}

fn check(tsc: &Path, case: &Case) {
    let dir = fresh_dir(
        Path::new(env!("CARGO_TARGET_TMPDIR")),
        &format!("ts-{}", case.name),
    );
    std::fs::write(dir.join("slotgen.mjs"), emit::js::module(&case.derivation)).unwrap();
    std::fs::write(dir.join("slotgen.d.mts"), emit::js::types(&case.derivation)).unwrap();
    let extra = if case.derivation.alphabet.symbols().is_ascii() {
        ASCII
    } else {
        OTHER
    };
    std::fs::write(dir.join("check.mts"), format!("{COMMON}{extra}")).unwrap();
    let output = Command::new(tsc)
        .args([
            "--strict",
            "--noEmit",
            "--target",
            "es2022",
            "--module",
            "nodenext",
            "--moduleResolution",
            "nodenext",
            "--lib",
            "es2022,dom",
        ])
        .arg(dir.join("check.mts"))
        .arg(dir.join("slotgen.d.mts"))
        .output()
        .expect("running tsc");
    assert!(
        output.status.success(),
        "tsc, spec {}:\n{}{}",
        case.name,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn declarations_pass_tsc_strict() {
    if !require_tool("node") {
        return;
    }
    let Some(tsc) = tsc() else {
        return;
    };
    let _ = run(Command::new(&tsc).arg("--version"));
    let mut all = cases();
    all.push(Case {
        name: "high-bytes",
        derivation: slotgen::derive(&slotgen::Spec {
            alphabet: (0x80..0x90).collect(),
            tag_len: None,
            ..slotgen::Spec::default()
        })
        .expect("a test spec derives"),
    });
    for case in &all {
        check(&tsc, case);
    }
}
