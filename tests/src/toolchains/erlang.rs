//! Erlang: the driver `tests/drivers/erlang/driver.erl`. On the first case, one `erlc`
//! compiles every case's module, each under a name of its own (`--name slotgen_<case>`),
//! with the driver, and one VM runs the driver over all of them; each case then reads its
//! answers.

use std::collections::HashMap;
use std::process::Command;
use std::sync::OnceLock;

use slotgen::emit::language::{self, Options};

use super::row::{driver, Toolchain};
use crate::emitted::{fresh_dir, run};
use crate::harness::Shared;

/// Every case's answers, by case name, from the one VM run.
static ANSWERS: OnceLock<HashMap<&'static str, String>> = OnceLock::new();

/// Emits, compiles and runs every case at once: `erlc` with warnings as errors and a spec
/// required on every exported function, then `erl -noshell` with the driver's arguments
/// for each case in turn.
fn run_all(shared: &Shared) -> HashMap<&'static str, String> {
    let dir = fresh_dir(&shared.dir, "erlang-all");
    let erlang = language::find("erlang").unwrap();
    let mut sources = vec![driver("erlang", "driver.erl")];
    let mut args = Vec::new();
    for case in &shared.cases {
        let name = format!("slotgen_{}", case.name);
        let options = Options {
            name: Some(&name),
            ..Options::default()
        };
        let module = erlang
            .emit(case.source(), &options)
            .unwrap_or_else(|e| panic!("erlang, case {}: {e}", case.name));
        let path = dir.join(format!("{name}.erl"));
        std::fs::write(&path, module).unwrap();
        sources.push(path);
        args.push(name);
        args.push(dir.join(format!("{}.out", case.name)).display().to_string());
        args.extend(case.driver_args(shared));
    }
    let built = run(Command::new("erlc")
        .args([
            "+warnings_as_errors",
            "+warn_missing_spec",
            "+warn_export_vars",
            "+warn_unused_import",
            "-o",
        ])
        .arg(&dir)
        .args(&sources));
    assert!(built.is_empty(), "erlc:\n{built}");
    let printed = run(Command::new("erl")
        .args(["-noshell", "-pa"])
        .arg(&dir)
        .args(["-run", "driver", "main"])
        .args(&args));
    assert!(printed.is_empty(), "the driver printed:\n{printed}");
    shared
        .cases
        .iter()
        .map(|case| {
            let out = dir.join(format!("{}.out", case.name));
            (case.name, std::fs::read_to_string(out).unwrap())
        })
        .collect()
}

/// Every module built by strict `erlc` and run by one `erl` VM; the default-named module of
/// each case is written to its directory, for reading.
pub const ERLANG: Toolchain = Toolchain {
    language: "erlang",
    programs: &["erlc", "erl"],
    kinds: &["str"],
    run: |shared, case, dir, module| {
        std::fs::write(dir.join("slotgen.erl"), module).unwrap();
        ANSWERS.get_or_init(|| run_all(shared))[case.name].clone()
    },
};
