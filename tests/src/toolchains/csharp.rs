//! C#: every case's module and a copy of the driver `tests/drivers/csharp/Driver.cs` in a
//! namespace of the case's name, compiled by one strict `mcs` and run by one `mono`
//! (`tests/drivers/csharp/Cases.cs`), as Mono and its compiler start slowly. Each case's
//! module is the file `slotgen emit csharp` writes (no `--name`) put inside the namespace
//! block as it is; the module under a namespaced `--name` is compiled with them.

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

use slotgen::emit::language::{self, Options};

use super::row::{driver, Toolchain};
use crate::emitted::{fresh_dir, run};
use crate::harness::Shared;

/// The module and the driver built by strict `mcs` and run by `mono`, with every other
/// case's (see the module's docs).
pub const CSHARP: Toolchain = Toolchain {
    language: "csharp",
    programs: &["mcs", "mono"],
    kinds: &["str"],
    run: |shared, case, _, _| OUTPUTS.get_or_init(|| run_all(shared))[case.name].clone(),
};

/// What each case's driver printed, by case name.
static OUTPUTS: OnceLock<HashMap<&'static str, String>> = OnceLock::new();

/// `text` (using directives, then types) inside `namespace name { ... }`, where C# takes
/// both.
fn in_namespace(name: &str, text: &str) -> String {
    format!("namespace {name}\n{{\n{text}\n}}\n")
}

/// Emits every case's module, compiles them with a driver each, the runner and the module
/// under `--name Example.RedisSlots` by one `mcs` with every warning (level 4) an error and
/// the doc comments checked (`-doc`: a public member without its `<summary>`, or one that is
/// not well-formed XML, fails), runs every case's driver in one `mono`, and returns each
/// case's output.
fn run_all(shared: &Shared) -> HashMap<&'static str, String> {
    let dir = fresh_dir(&shared.dir, "csharp");
    let csharp = language::find("csharp").unwrap();
    let driver_text = std::fs::read_to_string(driver("csharp", "Driver.cs")).unwrap();
    let named = csharp
        .emit(
            shared.cases[0].source(),
            &Options {
                name: Some("Example.RedisSlots"),
                ..Options::default()
            },
        )
        .unwrap_or_else(|e| panic!("csharp, `--name Example.RedisSlots`: {e}"));
    std::fs::write(dir.join("RedisSlots.cs"), named).unwrap();
    let mut sources = vec![driver("csharp", "Cases.cs"), dir.join("RedisSlots.cs")];
    let mut args = Vec::new();
    let mut outputs: Vec<(&'static str, PathBuf)> = Vec::new();
    for case in &shared.cases {
        let module = csharp
            .emit(case.source(), &Options::default())
            .unwrap_or_else(|e| panic!("csharp, case {}: {e}", case.name));
        let folder = dir.join(case.name);
        std::fs::create_dir(&folder).unwrap();
        std::fs::write(folder.join("Slotgen.cs"), in_namespace(case.name, &module)).unwrap();
        std::fs::write(
            folder.join("Driver.cs"),
            in_namespace(case.name, &driver_text),
        )
        .unwrap();
        sources.extend([folder.join("Slotgen.cs"), folder.join("Driver.cs")]);
        let output = folder.join("output.txt");
        args.push(case.name.to_owned());
        args.push(output.display().to_string());
        args.extend(case.driver_args(shared));
        outputs.push((case.name, output));
    }
    let built = run(Command::new("mcs")
        .current_dir(&dir)
        .args(["-warnaserror", "-warn:4", "-doc:slotgen.xml"])
        .args(["-main:Cases", "-out:cases.exe"])
        .args(&sources));
    assert!(built.is_empty(), "mcs:\n{built}");
    let _ = run(Command::new("mono").arg(dir.join("cases.exe")).args(&args));
    outputs
        .into_iter()
        .map(|(name, path)| (name, std::fs::read_to_string(path).unwrap()))
        .collect()
}
