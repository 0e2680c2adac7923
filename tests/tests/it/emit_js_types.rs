//! The TypeScript declarations of `emit js --types`, checked against the module they
//! declare for every case of the harness (CRC-16 tables, every named scheme, awkward
//! alphabets): `tsc --strict` (npm `typescript`, pinned in `tests/typescript/package.json`;
//! `npm ci` there installs it) compiles the programs of `tests/drivers/js/types/` against
//! the declarations, beside the emitted module, with misuses (`@ts-expect-error`) that must
//! not compile; then Node runs what tsc wrote against the module itself. So every export
//! is declared and every declaration exported (a list of names checked both ways), and the
//! declared types are what the module returns.

use std::path::Path;
use std::process::Command;

use slotgen::emit::language::{self, Options};
use slotgen::emit::model::{KeyRule, Model};
use slotgen_tests::emitted::{fresh_dir, run};
use slotgen_tests::harness::cases;
use slotgen_tests::{require_tool, tsc, workspace_root};

/// The programs of `tests/drivers/js/types/` a module of `model` must pass: the common
/// uses, its key rule's, and its alphabet's key type.
fn programs(model: &Model) -> [&'static str; 3] {
    let rule = match model.rule {
        KeyRule::WholeKey => "whole_key.mts",
        KeyRule::Delimited { .. } => "delimited.mts",
    };
    let keys = if model.alphabet.is_ascii() {
        "text_keys.mts"
    } else {
        "byte_keys.mts"
    };
    ["common.mts", rule, keys]
}

#[test]
fn declarations_match_the_module() {
    if !require_tool("node") {
        return;
    }
    let Some(mut tsc) = tsc() else {
        return;
    };
    let js = language::find("js").unwrap();
    let base = fresh_dir(Path::new(env!("CARGO_TARGET_TMPDIR")), "ts");
    let mut sources = Vec::new();
    let mut compiled = Vec::new();
    for case in cases() {
        let dir = base.join(case.name);
        std::fs::create_dir(&dir).unwrap();
        let emit = |options: &Options| {
            js.emit(case.source(), options)
                .unwrap_or_else(|e| panic!("case {}: {e}", case.name))
        };
        std::fs::write(dir.join("slotgen.mjs"), emit(&Options::default())).unwrap();
        let types = Options {
            types: true,
            ..Options::default()
        };
        std::fs::write(dir.join("slotgen.d.mts"), emit(&types)).unwrap();
        let model = Model::of(case.source(), "js", usize::MAX).unwrap();
        for program in programs(&model) {
            let source = workspace_root()
                .join("tests/drivers/js/types")
                .join(program);
            std::fs::copy(source, dir.join(program)).unwrap();
            sources.push(dir.join(program));
            compiled.push(dir.join(program.replace(".mts", ".mjs")));
        }
    }
    // one compiler run for every case: its messages name the case's directory
    let _ = run(tsc.args(&sources));
    // and one Node for every program tsc wrote, each importing its case's module
    let imports: String = compiled
        .iter()
        .map(|path| format!("await import({:?});\n", url(path)))
        .collect();
    std::fs::write(base.join("run.mjs"), imports).unwrap();
    let _ = run(Command::new("node").arg(base.join("run.mjs")));
}

/// `path` as a `file://` URL, for `import`.
fn url(path: &Path) -> String {
    format!("file://{}", path.display())
}
