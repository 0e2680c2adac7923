//! The emitted ES module, run by Node for every test spec, against the Rust runtime and a
//! real Redis server's answers, with keys as `Uint8Array`, string (UTF-8) and `Buffer`.

use std::path::Path;
use std::process::Command;

use slotgen::emit;
use slotgen_tests::emitted::{self, cases, check_output, expected_lines, fresh_dir, keys, run};
use slotgen_tests::require_tool;

/// Prints the driver protocol of [`slotgen_tests::emitted`] for the module `argv[2]` and the
/// keys file `argv[3]`.
const DRIVER: &str = r#"
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const m = await import(pathToFileURL(process.argv[2]).href);
const hex = (bytes) => Buffer.from(bytes).toString("hex");
const out = [];
for (let s = 0; s < m.SLOTS; s++) out.push(`tag\t${s}\t${hex(m.tagForSlot(s))}`);
for (let s = 0; s < m.SLOTS; s++) out.push(`tags\t${s}\t${Array.from(m.tagsForSlot(s), hex).join(",")}`);
for (let s = 0; s < m.SLOTS; s++) {
  const key = m.keyForSlot(Buffer.from("user:"), s, Buffer.from(":profile"));
  const text = m.keyForSlot("user:", s, ":profile");
  if (typeof text !== "string" || text !== new TextDecoder().decode(key)) {
    throw new Error(`keyForSlot of strings must be the string of the bytes' key, got ${text}`);
  }
  out.push(`key\t${s}\t${hex(key)}`);
}
const keys = readFileSync(process.argv[3], "utf8").split("\n").slice(0, -1);
for (const h of keys) out.push(`slot\t${h}\t${m.slot(Uint8Array.from(Buffer.from(h, "hex")))}`);
const strict = new TextDecoder("utf-8", { fatal: true });
for (const h of keys) {
  let text;
  try {
    text = strict.decode(Buffer.from(h, "hex"));
  } catch {
    continue;
  }
  out.push(`str\t${h}\t${m.slot(text)}`);
}
for (const h of keys) out.push(`buffer\t${h}\t${m.slot(Buffer.from(h, "hex"))}`);
function refusal(name, call) {
  try {
    out.push(`accepted\t${name}\t${call()}`);
  } catch (e) {
    if (e instanceof m.SlotgenError) out.push(`refused\t${name}\t${e.code}: ${e.message}`);
    else if (e instanceof TypeError) out.push(`refused\t${name}\tTypeError: ${e.message}`);
    else throw e;
  }
}
refusal("tag_out_of_range", () => m.tagForSlot(m.SLOTS));
refusal("tag_negative", () => m.tagForSlot(-1));
refusal("tags_out_of_range", () => m.tagsForSlot(m.SLOTS));
refusal("key_out_of_range", () => m.keyForSlot("user:", m.SLOTS, ""));
refusal("prefix_brace", () => m.keyForSlot("a{b", 0, ""));
refusal("fraction_slot", () => m.tagForSlot(1.5));
refusal("string_slot", () => m.tagForSlot("5"));
process.stdout.write(out.join("\n") + "\n");
"#;

#[test]
fn js_module_matches_runtime() {
    if !require_tool("node") {
        return;
    }
    let keys = keys();
    for case in cases() {
        let dir = fresh_dir(
            Path::new(env!("CARGO_TARGET_TMPDIR")),
            &format!("js-{}", case.name),
        );
        std::fs::write(dir.join("slotgen.mjs"), emit::js::module(&case.derivation)).unwrap();
        std::fs::write(dir.join("driver.mjs"), DRIVER).unwrap();
        let keys_path = emitted::write_keys(&dir, &keys);
        let output = run(Command::new("node")
            .arg(dir.join("driver.mjs"))
            .arg(dir.join("slotgen.mjs"))
            .arg(&keys_path));
        let what = format!("JavaScript, spec {}", case.name);
        let expected = expected_lines(&case.derivation, &keys, &["slot", "str", "buffer"]);
        check_output(&what, &output, &expected);
        for (name, code) in [
            ("tag_out_of_range", "SLOT_OUT_OF_RANGE"),
            ("prefix_brace", "PREFIX_HAS_BRACE"),
            ("fraction_slot", "TypeError"),
            ("string_slot", "TypeError"),
        ] {
            let line = format!("refused\t{name}\t{code}: ");
            assert!(
                output.lines().any(|l| l.starts_with(&line)),
                "{what}: `{name}` must be refused with code {code}"
            );
        }
    }
}
