//! The emitted Python module, run by python3 for every test spec, against the Rust runtime
//! and a real Redis server's answers, with keys as `bytes` and as `str`; its docstring's
//! examples run as doctests.

use std::path::Path;
use std::process::Command;

use slotgen::emit;
use slotgen_tests::emitted::{self, cases, check_output, expected_lines, fresh_dir, keys, run};
use slotgen_tests::require_tool;

/// Prints the driver protocol of [`slotgen_tests::emitted`] for the module in the directory
/// `argv[1]` and the keys file `argv[2]`.
const DRIVER: &str = r#"
import sys

sys.path.insert(0, sys.argv[1])
import slotgen as m

out = []
for s in range(m.SLOTS):
    out.append(f"tag\t{s}\t{m.tag_for_slot(s).hex()}")
for s in range(m.SLOTS):
    out.append(f"tags\t{s}\t" + ",".join(t.hex() for t in m.tags_for_slot(s)))
for s in range(m.SLOTS):
    out.append(f"key\t{s}\t{m.key_for_slot('user:', s, b':profile').hex()}")
with open(sys.argv[2]) as f:
    keys = [line.rstrip("\n") for line in f]
for h in keys:
    out.append(f"slot\t{h}\t{m.slot(bytes.fromhex(h))}")
for h in keys:
    try:
        text = bytes.fromhex(h).decode("utf-8")
    except UnicodeDecodeError:
        continue
    out.append(f"str\t{h}\t{m.slot(text)}")


def refusal(case, call):
    try:
        value = call()
    except (m.SlotgenError, TypeError) as e:
        out.append(f"refused\t{case}\t{type(e).__name__}: {e}")
    else:
        out.append(f"accepted\t{case}\t{value!r}")


refusal("tag_out_of_range", lambda: m.tag_for_slot(m.SLOTS))
refusal("tag_negative", lambda: m.tag_for_slot(-1))
refusal("tags_out_of_range", lambda: m.tags_for_slot(m.SLOTS))
refusal("key_out_of_range", lambda: m.key_for_slot("user:", m.SLOTS, ""))
refusal("prefix_brace", lambda: m.key_for_slot(b"a{b", 0, b""))
refusal("float_slot", lambda: m.tag_for_slot(1.0))
refusal("str_slot", lambda: m.tag_for_slot("5"))
print("\n".join(out))
"#;

#[test]
fn python_module_matches_runtime() {
    if !require_tool("python3") {
        return;
    }
    let keys = keys();
    for case in cases() {
        let dir = fresh_dir(
            Path::new(env!("CARGO_TARGET_TMPDIR")),
            &format!("python-{}", case.name),
        );
        std::fs::write(
            dir.join("slotgen.py"),
            emit::python::module(&case.derivation),
        )
        .unwrap();
        std::fs::write(dir.join("driver.py"), DRIVER).unwrap();
        let keys_path = emitted::write_keys(&dir, &keys);
        let output = run(Command::new("python3")
            .arg(dir.join("driver.py"))
            .arg(&dir)
            .arg(&keys_path));
        let what = format!("Python, spec {}", case.name);
        check_output(
            &what,
            &output,
            &expected_lines(&case.derivation, &keys, &["slot", "str"]),
        );
        for case in ["float_slot", "str_slot"] {
            let refused = format!("refused\t{case}\tTypeError: slot must be an int");
            assert!(
                output.lines().any(|l| l.starts_with(&refused)),
                "{what}: `{case}` must be refused with a TypeError"
            );
        }
        let doctest = run(Command::new("python3")
            .args(["-m", "doctest", "-v", "slotgen.py"])
            .current_dir(&dir));
        assert!(
            doctest.contains("5 passed and 0 failed"),
            "{what}: doctests:\n{doctest}"
        );
    }
}
