//! The `--tags` source scanner against the real readers: `lua5.4` loads a Lua file and
//! prints each string of its table as hex, a C program compiled by `gcc` prints each string
//! of a table from another file; the scanner must read the same strings from the same file.
//! Each case is a construct the scanner once misread (issue 17): Lua long strings at every
//! level, a `//` comment continued by a trailing `\`, C++ raw strings (a GCC extension in
//! gnu C modes).

use std::process::Command;

use slotgen::verify::{tags_from_source, Language};
use slotgen::Error;
use slotgen_tests::{require_tool, scratch_dir};

fn hex_lines(tags: &[Vec<u8>]) -> String {
    tags.iter()
        .map(|t| format!("{}\n", hex::encode(t)))
        .collect()
}

/// Lua entries of `return { ... }`, each with the strings Lua makes of it.
const LUA_TABLE: &str = r#"-- a tag table, as a Lua module
return {
  [[DLH@]],
  [==[a]]b]=]c]==],
  [[
first newline skipped]],
  [=[
]=],
  'sh\x41rt', "with \"quotes\"", --[[ a long comment "no" ]] "after",
  --[==[ "no" ]] still "no" ]==] [[x\ny]],
  [[one
two]],
  "\z
     z", [[]],
}
"#;

#[test]
fn lua_long_strings_read_as_lua_reads_them() {
    let scanned = tags_from_source(LUA_TABLE.as_bytes(), Language::Lua).unwrap();
    if !require_tool("lua5.4") {
        return;
    }
    let dir = scratch_dir("lua-long-strings");
    let table = dir.join("table.lua");
    std::fs::write(&table, LUA_TABLE).unwrap();
    let script = format!(
        "local t = dofile('{}') for _, s in ipairs(t) do \
         io.write((s:gsub('.', function(c) return string.format('%02x', c:byte()) end)), '\\n') end",
        table.display()
    );
    let out = Command::new("lua5.4")
        .args(["-e", &script])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lua = String::from_utf8(out.stdout).unwrap();
    assert_eq!(hex_lines(&scanned), lua);
    assert_eq!(scanned.len(), 11);
}

#[test]
fn an_unterminated_lua_long_comment_or_string_is_an_error() {
    for text in [
        "return { 'a', --[[ never closed\n 'b' }\n",
        "return { 'a', --[==[ closed at the wrong level ]=] 'b' }\n",
        "return { [[ never closed }\n",
        "return { [=[ wrong level ]] }\n",
    ] {
        match tags_from_source(text.as_bytes(), Language::Lua) {
            Err(Error::SourceLiteral { line: 1, reason }) => {
                assert!(reason.contains("long"), "{reason}");
            }
            other => panic!("{text:?}: {other:?}"),
        }
        if require_tool("lua5.4") {
            let out = Command::new("lua5.4").args(["-e", text]).output().unwrap();
            assert!(!out.status.success(), "lua accepts {text:?}");
        }
    }
}

/// A C table, in its own file, with the constructs C reads in its own way.
const C_TABLE: &str = "// a tag table for redis-benchmark \\\n\
                       const char *not_a_table[] = { \"continued comment\" };\n\
                       const char *tags[] = {\n\
                       \x20 \"DLH@\", /* \"no\" */ \"@A\" \"@H\",\n\
                       \x20 R\"(raw \\n \"quoted\")\", R\"xy(a)\"b)xy\",\n\
                       \x20 u8R\"(u8 raw)\", \"a\\\n\
                       b\", \"tab\\there\",\n\
                       \x20 R\"(two\n\
                       lines)\",\n\
                       };\n\
                       const int tag_count = sizeof tags / sizeof tags[0];\n";

#[test]
fn c_comments_splices_and_raw_strings_read_as_gcc_reads_them() {
    let scanned = tags_from_source(C_TABLE.as_bytes(), Language::C).unwrap();
    if !require_tool("gcc") {
        return;
    }
    let dir = scratch_dir("c-raw-strings");
    std::fs::write(dir.join("table.c"), C_TABLE).unwrap();
    std::fs::write(
        dir.join("main.c"),
        "#include <stdio.h>\n#include <string.h>\n\
         extern const char *tags[]; extern const int tag_count;\n\
         int main(void) { for (int i = 0; i < tag_count; i++) { \
         for (size_t j = 0; j < strlen(tags[i]); j++) printf(\"%02x\", (unsigned char)tags[i][j]); \
         printf(\"\\n\"); } return 0; }\n",
    )
    .unwrap();
    let exe = dir.join("print");
    let build = Command::new("gcc")
        .args(["-std=gnu11", "-o"])
        .arg(&exe)
        .arg(dir.join("table.c"))
        .arg(dir.join("main.c"))
        .output()
        .unwrap();
    assert!(
        build.status.success(),
        "{}",
        String::from_utf8_lossy(&build.stderr)
    );
    let out = Command::new(&exe).output().unwrap();
    assert!(out.status.success());
    let gcc = String::from_utf8(out.stdout).unwrap();
    assert_eq!(hex_lines(&scanned), gcc);
    assert_eq!(scanned.len(), 8);
}
