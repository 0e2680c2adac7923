//! The emitted Lua module, run by Lua 5.1, Lua 5.4 and LuaJIT for every test spec, against
//! the Rust runtime, a real Redis server's answers, and the seed document's Lua module.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use slotgen::emit;
use slotgen_tests::emitted::{self, cases, check_output, expected_lines, fresh_dir, keys, run};
use slotgen_tests::{require_tool, workspace_root};

/// Prints the driver protocol of [`slotgen_tests::emitted`] for the module `arg[1]` and the
/// keys file `arg[2]`.
const DRIVER: &str = r#"
local M = dofile(arg[1])
local out = {}
local function emit(...) out[#out + 1] = table.concat({ ... }, "\t") end
local function hex(s)
    return (s:gsub(".", function(c) return string.format("%02x", c:byte()) end))
end
local function unhex(h)
    return (h:gsub("..", function(x) return string.char(tonumber(x, 16)) end))
end
for s = 0, M.slots - 1 do emit("tag", s, hex(M.tag_for_slot(s))) end
for s = 0, M.slots - 1 do
    local tags = {}
    for tag in M.tags_for_slot(s) do tags[#tags + 1] = hex(tag) end
    emit("tags", s, table.concat(tags, ","))
end
for s = 0, M.slots - 1 do emit("key", s, hex(M.key_for_slot("user:", s, ":profile"))) end
for line in io.lines(arg[2]) do emit("slot", line, M.slot(unhex(line))) end
local function refusal(case, value, message)
    if value == nil then emit("refused", case, message)
    else emit("accepted", case, tostring(value)) end
end
refusal("tag_out_of_range", M.tag_for_slot(M.slots))
refusal("tag_negative", M.tag_for_slot(-1))
refusal("tags_out_of_range", M.tags_for_slot(M.slots))
refusal("key_out_of_range", M.key_for_slot("user:", M.slots, ""))
refusal("prefix_brace", M.key_for_slot("a{b", 0, ""))
io.write(table.concat(out, "\n"), "\n")
"#;

/// Prints `tag <slot> <tag>` from the seed module's `for_slot` for every slot, and
/// `slot <key> <slot>` from its `slot` for every key.
const SEED_DRIVER: &str = r#"
local M = dofile(arg[1])
local function hex(s)
    return (s:gsub(".", function(c) return string.format("%02x", c:byte()) end))
end
local function unhex(h)
    return (h:gsub("..", function(x) return string.char(tonumber(x, 16)) end))
end
for s = 0, 16383 do print("tag\t" .. s .. "\t" .. hex(M.for_slot(s):match("{(.-)}"))) end
for line in io.lines(arg[2]) do print("slot\t" .. line .. "\t" .. M.slot(unhex(line))) end
"#;

fn run_module(lua: &str, dir: &Path, module: &str) -> String {
    let module_path = dir.join("slotgen.lua");
    std::fs::write(&module_path, module).unwrap();
    std::fs::write(dir.join("driver.lua"), DRIVER).unwrap();
    let keys_path = emitted::write_keys(dir, &keys());
    run(Command::new(lua)
        .arg(dir.join("driver.lua"))
        .arg(&module_path)
        .arg(&keys_path))
}

fn matches_runtime_on(lua: &str) {
    if !require_tool(lua) {
        return;
    }
    let keys = keys();
    for case in cases() {
        let dir = fresh_dir(
            Path::new(env!("CARGO_TARGET_TMPDIR")),
            &format!("lua-{lua}-{}", case.name),
        );
        let output = run_module(lua, &dir, &emit::lua::module(&case.derivation));
        let expected = expected_lines(&case.derivation, &keys, &["slot"]);
        check_output(&format!("{lua}, spec {}", case.name), &output, &expected);
    }
}

#[test]
fn lua51_module_matches_runtime() {
    matches_runtime_on("lua5.1");
}

#[test]
fn lua54_module_matches_runtime() {
    matches_runtime_on("lua5.4");
}

#[test]
fn luajit_module_matches_runtime() {
    matches_runtime_on("luajit");
}

/// The seed document: `shared/seeds/001_074cc5bdf0f18b58.txt` beside the workspace (where
/// CI places `shared/`), or beside one of its ancestors (a worktree under `wt/`).
fn seed_path() -> Option<PathBuf> {
    workspace_root()
        .ancestors()
        .skip(1)
        .map(|dir| dir.join("shared/seeds/001_074cc5bdf0f18b58.txt"))
        .find(|path| path.is_file())
}

/// The seed document's Lua module: from its line `local _M = {}` to the line before
/// `-- ===== `, then `return _M`. `None` when the seed file is absent.
fn seed_module() -> Option<String> {
    let text = std::fs::read_to_string(seed_path()?).ok()?;
    let lines: Vec<&str> = text.lines().collect();
    let start = lines.iter().position(|l| *l == "local _M = {}")?;
    let end = start
        + lines[start..]
            .iter()
            .position(|l| l.starts_with("-- ===== "))?;
    Some(lines[start..end].join("\n") + "\nreturn _M\n")
}

#[test]
fn lua_module_matches_seed_module_on_every_slot() {
    let Some(seed) = seed_module() else {
        // a document, not a program: its absence skips even under SLOTGEN_REQUIRE_TOOLS (a
        // clean checkout alone has no shared/ beside it)
        eprintln!("skipping: the seed document shared/seeds/001_074cc5bdf0f18b58.txt is not beside the workspace");
        return;
    };
    for lua in ["luajit", "lua5.4"] {
        if !require_tool(lua) {
            continue;
        }
        let dir = fresh_dir(
            Path::new(env!("CARGO_TARGET_TMPDIR")),
            &format!("lua-seed-{lua}"),
        );
        std::fs::write(dir.join("seed.lua"), &seed).unwrap();
        std::fs::write(dir.join("seed_driver.lua"), SEED_DRIVER).unwrap();
        let keys_path = emitted::write_keys(&dir, &keys());
        let seed_output = run(Command::new(lua)
            .arg(dir.join("seed_driver.lua"))
            .arg(dir.join("seed.lua"))
            .arg(&keys_path));
        let default = slotgen::derive(&slotgen::Spec::default()).unwrap();
        let ours = run_module(lua, &dir, &emit::lua::module(&default));
        let ours: HashSet<&str> = ours.lines().collect();
        let seed_lines: Vec<&str> = seed_output.lines().collect();
        assert_eq!(
            seed_lines.iter().filter(|l| l.starts_with("tag\t")).count(),
            16384,
            "the seed module answers every slot"
        );
        for line in seed_lines {
            assert!(
                ours.contains(line),
                "{lua}: the seed module says `{line}`, the emitted module does not"
            );
        }
    }
}
