//! Tags of every word layout: the C header holds a tag's bytes in one word of 1, 2, 4 or 8
//! bytes, or in several of 8; the JavaScript module in 32-bit words, several past 4 bytes.
//! For tag lengths from 1 to 32 (a word filled or not, one word or several, the longest tag
//! the runtime holds), each module gives every slot's tag and the first tags of every slot,
//! as the Rust runtime does. One program per language
//! runs every spec (the C header once per spec, under its own name).

use std::path::Path;
use std::process::Command;

use slotgen::emit::language::{self, Options};
use slotgen::{derive, emit, Derivation, Spec};
use slotgen_tests::emitted::{fresh_dir, gcc_strict, run};
use slotgen_tests::require_tool;

/// How many tags of each slot the drivers print (fewer where a slot has fewer).
const FIRST_TAGS: usize = 3;

/// `(name, derivation)` for tags of 1, 3, 5, 8, 9, 16 and 32 bytes.
fn specs() -> Vec<(String, Derivation)> {
    let spec = |alphabet: &[u8], tag_len: usize, slots: u32| Spec {
        alphabet: alphabet.to_vec(),
        tag_len: Some(tag_len),
        slots,
        ..Spec::default()
    };
    let sixteen = b"@ABCDEFGHIJKLMNO";
    [
        spec(&(0x40..0x60).collect::<Vec<u8>>(), 1, 32),
        spec(sixteen, 3, 1024),
        spec(sixteen, 5, 1024),
        spec(sixteen, 8, 1024),
        spec(sixteen, 9, 1024),
        spec(sixteen, 16, 1024),
        spec(b"@A", 32, 1024),
    ]
    .into_iter()
    .map(|spec| {
        let d = derive(&spec).expect("a test spec derives");
        (format!("len{}", d.tag_len), d)
    })
    .collect()
}

/// What every driver prints, from the Rust runtime: for each spec and slot,
/// `<spec> tag <slot> <tag>` and `<spec> tags <slot> <tag>,<tag>,...`, bytes in hex.
fn expected(specs: &[(String, Derivation)]) -> String {
    let mut lines = String::new();
    for (name, d) in specs {
        let table = d.slot_table().unwrap();
        for slot in 0..table.slots() {
            let slot = u16::try_from(slot).expect("test specs have at most 1024 slots");
            let tag = table.tag_for_slot(slot).unwrap();
            lines += &format!("{name} tag {slot} {}\n", hex::encode(tag));
            let first: Vec<String> = table
                .tags_for_slot(slot)
                .unwrap()
                .take(FIRST_TAGS)
                .map(hex::encode)
                .collect();
            lines += &format!("{name} tags {slot} {}\n", first.join(","));
        }
    }
    lines
}

fn check(language: &str, output: &str, specs: &[(String, Derivation)]) {
    let expected = expected(specs);
    for (got, want) in output.lines().zip(expected.lines()) {
        assert_eq!(got, want, "{language}");
    }
    assert_eq!(
        output.lines().count(),
        expected.lines().count(),
        "{language}: line count"
    );
}

#[test]
fn c_words() {
    if !require_tool("gcc") {
        return;
    }
    let specs = specs();
    let dir = fresh_dir(Path::new(env!("CARGO_TARGET_TMPDIR")), "tag-words-c");
    let mut driver = String::from("#include <stdio.h>\n");
    let mut body = String::new();
    for (name, d) in &specs {
        let options = Options {
            name: Some(name),
            ..Options::default()
        };
        let header = language::find("c").unwrap().emit(d, &options);
        std::fs::write(dir.join(format!("{name}.h")), header.unwrap()).unwrap();
        driver += &format!("#include \"{name}.h\"\n");
        let upper = name.to_ascii_uppercase();
        body += &format!(
            r#"    for (s = 0; s < {upper}_SLOTS; s++) {{
        unsigned char tag[{upper}_TAG_LEN];
        if ({name}_tag_for_slot(s, tag) != {upper}_OK) return 1;
        printf("{name} tag %lu ", s);
        for (k = 0; k < {upper}_TAG_LEN; k++) printf("%02x", tag[k]);
        printf("\n{name} tags %lu ", s);
        for (i = 0; i < {FIRST_TAGS} && {name}_tags_for_slot(s, i, tag) == {upper}_OK; i++) {{
            if (i != 0) putchar(',');
            for (k = 0; k < {upper}_TAG_LEN; k++) printf("%02x", tag[k]);
        }}
        putchar('\n');
    }}
"#
        );
    }
    driver += &format!(
        "int main(void) {{\n    unsigned long s;\n    unsigned long long i;\n    unsigned k;\n{body}    return 0;\n}}\n"
    );
    std::fs::write(dir.join("driver.c"), driver).unwrap();
    let _ = run(gcc_strict()
        .arg("-o")
        .arg(dir.join("driver"))
        .arg(dir.join("driver.c")));
    check("C", &run(&mut Command::new(dir.join("driver"))), &specs);
}

#[test]
fn js_words() {
    if !require_tool("node") {
        return;
    }
    let specs = specs();
    let dir = fresh_dir(Path::new(env!("CARGO_TARGET_TMPDIR")), "tag-words-js");
    let mut driver = String::from(
        "const hex = (tag) => Buffer.from(tag).toString(\"hex\");\nconst lines = [];\n",
    );
    for (name, d) in &specs {
        let module = emit::language::find("js")
            .unwrap()
            .emit(d, &Default::default())
            .unwrap();
        std::fs::write(dir.join(format!("{name}.mjs")), module).unwrap();
        driver += &format!(
            r#"{{
  const m = await import("./{name}.mjs");
  for (let s = 0; s < m.SLOTS; s++) {{
    lines.push(`{name} tag ${{s}} ${{hex(m.tagForSlot(s))}}`);
    const first = [];
    for (const tag of m.tagsForSlot(s)) {{
      first.push(hex(tag));
      if (first.length === {FIRST_TAGS}) break;
    }}
    lines.push(`{name} tags ${{s}} ${{first.join(",")}}`);
  }}
}}
"#
        );
    }
    driver += "process.stdout.write(lines.join(\"\\n\") + \"\\n\");\n";
    std::fs::write(dir.join("driver.mjs"), driver).unwrap();
    check(
        "JavaScript",
        &run(Command::new("node").arg("driver.mjs").current_dir(&dir)),
        &specs,
    );
}
