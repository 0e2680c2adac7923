//! The TypeScript declarations of `emit js --types` (and of a scheme's module), checked by
//! `tsc --strict --noEmit` (npm `typescript`, pinned in `tests/typescript/package.json`;
//! `npm ci` there installs it) beside the emitted module, for every test spec, three
//! schemes and a non-ASCII alphabet, with a program whose typed uses must compile and whose
//! wrong uses (`@ts-expect-error`) must not.

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
    tsc_check(tsc, &dir, case.name);
}

/// `tsc --strict --noEmit` of `dir/check.mts` against `dir/slotgen.d.mts`.
fn tsc_check(tsc: &Path, dir: &Path, name: &str) {
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
        name,
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

/// Uses of a scheme's module that hold for every scheme, and misuses that must not compile.
const SCHEME_COMMON: &str = r#"
import { slot, tagForSlot, keyForSlot, tagsForSlot, SLOTS, FIRST_SLOT, LAST_SLOT, TAG_LEN, SlotgenError } from "./slotgen.mjs";
import type { Key, SlotgenErrorCode } from "./slotgen.mjs";

const slots: number = SLOTS + LAST_SLOT + TAG_LEN;
const fromText: number = slot("123456789");
const key: Key = new Uint8Array([0x31]);
const tag: Uint8Array = tagForSlot(FIRST_SLOT);
const bytesKey: Uint8Array = keyForSlot(new Uint8Array(), FIRST_SLOT, new Uint8Array());
const tags: Generator<Uint8Array, void, undefined> = tagsForSlot(FIRST_SLOT);
try {
  tagForSlot(LAST_SLOT + 1);
} catch (e) {
  if (e instanceof SlotgenError) {
    const code: SlotgenErrorCode = e.code;
    console.log(code, e.message);
  }
}
// @ts-expect-error a slot is a number
tagForSlot("1");
// @ts-expect-error the key of bytes is bytes
const wrong: string = keyForSlot(new Uint8Array(), FIRST_SLOT, "");
console.log(slots, fromText, key, tag, bytesKey, tags, wrong);
"#;

/// A scheme with hashtag delimiters exports them.
const SCHEME_DELIMITED: &str = r#"
import { OPEN, CLOSE } from "./slotgen.mjs";
const delimiters: number[] = [OPEN, CLOSE];
const textKey: string = keyForSlot("user:", FIRST_SLOT, ":profile");
console.log(delimiters, textKey);
"#;

/// A scheme that hashes the whole key, with an ASCII alphabet: the key of strings is a
/// string.
const ASCII_WHOLE_KEY: &str = r#"
const textKey: string = keyForSlot("", FIRST_SLOT, "");
console.log(textKey);
"#;

/// The declarations of a scheme's module, for a scheme with delimiters, one that hashes the
/// whole key, and a non-ASCII alphabet.
#[test]
fn scheme_declarations_pass_tsc_strict() {
    use slotgen::scheme::invert::{derive, SchemeSpec};
    use slotgen_tables::SchemeName;

    if !require_tool("node") {
        return;
    }
    let Some(tsc) = tsc() else {
        return;
    };
    let high_bytes = SchemeSpec {
        alphabet: (0x80..0x90).collect(),
        ..SchemeSpec::new(SchemeName::Codis)
    };
    for (name, spec, extra) in [
        (
            "scheme-codis",
            SchemeSpec::new(SchemeName::Codis),
            SCHEME_DELIMITED,
        ),
        (
            "scheme-vshard",
            SchemeSpec::new(SchemeName::TarantoolVshard),
            ASCII_WHOLE_KEY,
        ),
        ("scheme-high-bytes", high_bytes, OTHER),
    ] {
        let derivation = derive(&spec).expect("a test scheme derives");
        let dir = fresh_dir(
            Path::new(env!("CARGO_TARGET_TMPDIR")),
            &format!("ts-{name}"),
        );
        let types = emit::js::scheme_types(&derivation).unwrap();
        std::fs::write(
            dir.join("slotgen.mjs"),
            emit::js::scheme_module(&derivation).unwrap(),
        )
        .unwrap();
        std::fs::write(dir.join("slotgen.d.mts"), types).unwrap();
        let program = format!(
            "{SCHEME_COMMON}{}",
            extra.replace("(\"user:\", 0, ", "(\"user:\", FIRST_SLOT, ")
        );
        std::fs::write(dir.join("check.mts"), program).unwrap();
        tsc_check(&tsc, &dir, name);
    }
}
