//! Lua: the driver `tests/drivers/lua/driver.lua`, run by Lua 5.1, Lua 5.4 and LuaJIT, which
//! must print the same lines.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use slotgen::emit::language::Options;

use super::row::{check_refusals, driver, Toolchain};
use crate::emitted::run;

/// The refusals only Lua checks, each with a piece of its message: a string is no array of
/// keys (`#"zz"` is 2, and `("zz")[1]` nil); a suffix not given is said missing, not "must
/// be strings" of both.
const LUA_REFUSALS: [(&str, &str); 4] = [
    ("one_key_str", "write same_slot({key})"),
    ("one_key_shared", "write shared_hashtag({key})"),
    ("no_suffix", "suffix is missing: give a string"),
    ("number_prefix", "prefix must be a string, not a number"),
];

/// The interpreters the one module runs on, unmodified.
const INTERPRETERS: [&str; 3] = ["lua5.1", "lua5.4", "luajit"];

/// The module under every interpreter, with warnings (`lua5.4 -W`) on and nothing written
/// to stderr; what each prints must be what Lua 5.1 prints.
pub const LUA: Toolchain = Toolchain {
    language: "lua",
    programs: &INTERPRETERS,
    kinds: &[],
    run: |shared, case, dir, module| {
        let path = dir.join("slotgen.lua");
        std::fs::write(&path, module).unwrap();
        let outputs = INTERPRETERS.map(|lua| {
            let mut command = Command::new(lua);
            if lua == "lua5.4" {
                command.arg("-W");
            }
            let output = command
                .arg(driver("lua", "driver.lua"))
                .arg(&path)
                .args(case.driver_args(shared))
                .output()
                .unwrap_or_else(|e| panic!("cannot run {lua}: {e}"));
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert!(
                output.status.success() && stderr.is_empty(),
                "{lua}, case {} ({}):\n{stderr}",
                case.name,
                output.status
            );
            String::from_utf8(output.stdout).expect("the driver prints ASCII")
        });
        for (lua, output) in INTERPRETERS.iter().zip(&outputs).skip(1) {
            assert!(
                *output == outputs[0],
                "Lua, case {}: {lua} prints other lines than {}",
                case.name,
                INTERPRETERS[0]
            );
        }
        check_refusals("Lua", case, &outputs[0], &LUA_REFUSALS);
        outputs.into_iter().next().unwrap()
    },
};

/// The seed document: `shared/seeds/001_074cc5bdf0f18b58.txt` beside the workspace (where
/// CI places `shared/`), or beside one of its ancestors (a worktree under `wt/`).
fn seed_path() -> Option<PathBuf> {
    crate::workspace_root()
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

/// The Redis Cluster module (the harness's case `redis`) gives the seed document's Lua
/// module's tag for every slot and its slot for every key of the harness, under LuaJIT and
/// Lua 5.4.
/// Skipped when the seed document is not beside the workspace: a document, not a program,
/// whose absence skips even under `SLOTGEN_REQUIRE_TOOLS` (a clean checkout alone has no
/// `shared/` beside it).
///
/// # Panics
///
/// When a line of the seed module's is not one of the emitted module's.
pub fn check_seed(tmp: &Path) {
    let Some(seed) = seed_module() else {
        eprintln!("skipping: the seed document shared/seeds/001_074cc5bdf0f18b58.txt is not beside the workspace");
        return;
    };
    let Some(shared) = crate::harness::shared(tmp) else {
        return;
    };
    let case = shared.cases.iter().find(|c| c.name == "redis").unwrap();
    let module = slotgen::emit::language::find("lua")
        .unwrap()
        .emit(case.source(), &Options::default())
        .unwrap();
    for lua in ["luajit", "lua5.4"] {
        if !crate::require_tool(lua) {
            continue;
        }
        let dir = crate::emitted::fresh_dir(tmp, &format!("lua-seed-{lua}"));
        std::fs::write(dir.join("seed.lua"), &seed).unwrap();
        let seed_output = run(Command::new(lua)
            .arg(driver("lua", "seed.lua"))
            .arg(dir.join("seed.lua"))
            .arg(&shared.keys_path));
        std::fs::write(dir.join("slotgen.lua"), &module).unwrap();
        let ours = run(Command::new(lua)
            .arg(driver("lua", "driver.lua"))
            .arg(dir.join("slotgen.lua"))
            .args(case.driver_args(shared)));
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
