//! Generated shortest-tag tables run for real: the C array compiled by gcc and the Lua
//! chunk loaded by lua5.1, lua5.4 and luajit each print every entry, which must equal the
//! Rust reference, entry for entry.

use std::process::Command;

use slotgen::shortest::{shortest, Charset, Shortest, ShortestSpec};
use slotgen_tests::{require_tool, scratch_dir};

/// redis-benchmark's table, and a table with gaps whose charset needs escaping in C and Lua
/// (`"`, `\`, `?`: `??/` would be a trigraph).
fn tables() -> Vec<(&'static str, Shortest)> {
    let xmodem_4096 = slotgen::Spec {
        slots: 4096,
        ..slotgen::Spec::default()
    };
    let awkward = ShortestSpec {
        function: slotgen::scheme::SlotFunction::try_from(&xmodem_4096).unwrap(),
        charset: Charset::parse("\"\\?/a").unwrap(),
        max_len: 3,
    };
    let awkward = shortest(&awkward).unwrap();
    assert!(
        !awkward.gaps().is_empty(),
        "155 strings cannot reach 4096 slots"
    );
    vec![
        ("redis", shortest(&ShortestSpec::default()).unwrap()),
        ("awkward", awkward),
    ]
}

/// The expected output: one tag per line, an empty line for a gap.
fn expected(table: &Shortest) -> String {
    let awkward = table.gaps();
    assert!(
        table.scheme.slots() != 4096 || !awkward.is_empty(),
        "the awkward table has gaps"
    );
    slotgen::emit::shortest::lines(table)
}

#[test]
fn c_array_compiled_by_gcc() {
    if !require_tool("gcc") {
        return;
    }
    let dir = scratch_dir("shortest-c");
    for (name, table) in tables() {
        let source = format!(
            "{}\n#include <stdio.h>\nint main(void) {{\n  for (int s = 0; s < {}; s++) puts(tags[s]);\n  return 0;\n}}\n",
            slotgen::emit::shortest::c(&table, "tags"),
            table.scheme.slots()
        );
        let c = dir.join(format!("{name}.c"));
        let exe = dir.join(name);
        std::fs::write(&c, source).unwrap();
        let build = Command::new("gcc")
            .args([
                "-std=c99",
                "-Wall",
                "-Wextra",
                "-Werror",
                "-trigraphs",
                "-o",
            ])
            .arg(&exe)
            .arg(&c)
            .output()
            .unwrap();
        assert!(
            build.status.success(),
            "{}",
            String::from_utf8_lossy(&build.stderr)
        );
        let run = Command::new(&exe).output().unwrap();
        assert!(run.status.success());
        assert_eq!(
            String::from_utf8(run.stdout).unwrap(),
            expected(&table),
            "{name}"
        );
    }
}

#[test]
fn lua_chunk_run_by_every_lua() {
    let dir = scratch_dir("shortest-lua");
    for lua in ["lua5.1", "lua5.4", "luajit"] {
        if !require_tool(lua) {
            continue;
        }
        for (name, table) in tables() {
            let chunk = dir.join(format!("{name}.lua"));
            std::fs::write(&chunk, slotgen::emit::shortest::lua(&table)).unwrap();
            let driver = format!(
                "local tags = dofile(arg[1])\nfor i = 1, {} do io.write(tags[i] or '', '\\n') end",
                table.scheme.slots()
            );
            let run = Command::new(lua)
                .arg("-e")
                .arg(format!(
                    "arg = {{ [1] = {:?} }}",
                    chunk.display().to_string()
                ))
                .arg("-e")
                .arg(&driver)
                .output()
                .unwrap();
            assert!(
                run.status.success(),
                "{lua}: {}",
                String::from_utf8_lossy(&run.stderr)
            );
            assert_eq!(
                String::from_utf8(run.stdout).unwrap(),
                expected(&table),
                "{lua} {name}"
            );
        }
    }
}
