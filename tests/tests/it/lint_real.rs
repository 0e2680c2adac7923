//! `slotgen lint` over the Lua scripts that users run, installed from the registries (never
//! copied here): bullmq's commands (npm, pinned in `tests/conformance/package.json`: `local
//! rcall = redis.call`, `--- @include "includes/..."`, keys from msgpack'd ARGV), bee-queue's
//! (npm, the same file) and the Python `limits` package's (PyPI, pinned in `.ci/run`). Every
//! one is read without error, every call the files write out is found (counted by a plain
//! text scan, independent of the parser), and the findings are printed for docs/lint.md.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use slotgen_lint::{lua, Outcome, Target, Values};
use slotgen_tests::workspace_root;

/// A package's folder, or a skip (a failure under `SLOTGEN_REQUIRE_TOOLS=1`).
fn installed(path: Option<PathBuf>, what: &str) -> Option<PathBuf> {
    if let Some(path) = path.filter(|p| p.is_dir()) {
        return Some(path);
    }
    assert!(
        std::env::var("SLOTGEN_REQUIRE_TOOLS").as_deref() != Ok("1"),
        "{what} is not installed, and SLOTGEN_REQUIRE_TOOLS=1 requires it (.ci/run installs it)"
    );
    eprintln!("skipping: {what} is not installed (.ci/run installs it)");
    None
}

fn lua_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("the package's folder")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "lua"))
        .collect();
    files.sort();
    files
}

/// The calls a file writes out, by text: `redis.call(`, `redis.pcall(`, `rcall(` outside
/// `--` comments and `--[[ ]]` blocks.
fn calls_by_text(source: &str) -> usize {
    let mut count = 0;
    let mut in_block = false;
    for line in source.lines() {
        let mut line = line;
        if in_block {
            match line.find("]]") {
                Some(at) => {
                    in_block = false;
                    line = &line[at + 2..];
                }
                None => continue,
            }
        }
        if let Some(at) = line.find("--[[") {
            in_block = !line[at..].contains("]]");
            line = &line[..at];
        }
        let code = line.split("--").next().unwrap_or("");
        count += code.matches("redis.call(").count()
            + code.matches("redis.pcall(").count()
            + code
                .match_indices("rcall(")
                .filter(|(at, _)| {
                    *at == 0
                        || !code.as_bytes()[at - 1].is_ascii_alphanumeric()
                            && code.as_bytes()[at - 1] != b'.'
                })
                .count();
    }
    count
}

#[test]
fn lint_reads_real_world_scripts() {
    let modules = workspace_root().join("tests/conformance/node_modules");
    let bullmq = installed(
        Some(modules.join("bullmq/dist/cjs/commands")),
        "bullmq (npm ci --prefix tests/conformance)",
    );
    let bee = installed(
        Some(modules.join("bee-queue/lib/lua")),
        "bee-queue (npm ci --prefix tests/conformance)",
    );
    let limits = installed(
        std::process::Command::new("python3")
            .args([
                "-c",
                "import importlib.util as u; print(u.find_spec('limits').submodule_search_locations[0])",
            ])
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| {
                PathBuf::from(String::from_utf8_lossy(&o.stdout).trim())
                    .join("resources/redis/lua_scripts")
            }),
        "the PyPI package limits (pip install limits==5.8.0)",
    );
    let mut sets: Vec<(&str, Vec<PathBuf>)> = Vec::new();
    if let Some(dir) = &bullmq {
        let scripts = lua_files(dir);
        assert_eq!(scripts.len(), 64, "bullmq 6.7.6 ships 64 commands");
        assert_eq!(
            lua_files(&dir.join("includes")).len(),
            72,
            "and 72 includes"
        );
        sets.push(("bullmq", scripts));
    }
    if let Some(dir) = &bee {
        sets.push(("bee-queue", lua_files(dir)));
    }
    if let Some(dir) = &limits {
        sets.push(("limits", lua_files(dir)));
    }
    let targets = Target::ALL;
    let started = Instant::now();
    let mut summary = String::new();
    for (package, files) in &sets {
        let mut verdicts: BTreeMap<String, usize> = BTreeMap::new();
        let mut rules: BTreeMap<&str, usize> = BTreeMap::new();
        let mut included = 0;
        for file in files {
            let source = std::fs::read_to_string(file).expect("a script");
            let script = lua::read(file, &source)
                .unwrap_or_else(|e| panic!("{}: the lint cannot read it: {e}", file.display()));
            // Every call written out, in the script and in what it includes, is found (a
            // helper's call once for each call of the helper: one place).
            let by_text: usize = script
                .files
                .iter()
                .map(|f| calls_by_text(&std::fs::read_to_string(f).expect("a file")))
                .sum();
            let places: std::collections::BTreeSet<_> = script.calls.iter().map(|c| c.at).collect();
            assert_eq!(
                places.len(),
                by_text,
                "{}: the calls found against those written",
                file.display()
            );
            included += script.files.len() - 1;
            let report = slotgen_lint::lint_script(file, &source, &Values::default(), &targets)
                .expect("read once already");
            let verdict: Vec<String> = targets
                .iter()
                .map(|&t| {
                    format!(
                        "{} {}",
                        t.name(),
                        match report.verdict(t) {
                            Outcome::Runs => "runs",
                            Outcome::Depends => "depends",
                            Outcome::Fails => "fails",
                        }
                    )
                })
                .collect();
            *verdicts.entry(verdict.join(", ")).or_default() += 1;
            for f in &report.findings {
                *rules.entry(f.rule.name()).or_default() += 1;
            }
        }
        summary.push_str(&format!(
            "{package}: {} scripts ({included} includes followed)\n  verdicts: {verdicts:?}\n  findings by rule: {rules:?}\n",
            files.len()
        ));
    }
    eprintln!(
        "{summary}(linted in {:?}, a debug build)",
        started.elapsed()
    );
}
