//! Elixir: the driver `tests/drivers/elixir/driver.exs`. BEAM starts slowly, so the first
//! case builds every case's module at once: one `elixirc --warnings-as-errors` over all of
//! them (each under its own `--name`, `Slotgen.Harness.<Case>`), then one `elixir` that runs
//! the driver for each (its `--plan` mode), each case's answers in a file of its own.

use std::collections::HashMap;
use std::path::Path;
use std::process::Command;
use std::sync::OnceLock;

use slotgen::emit::language::{self, Options};

use super::row::{driver, Toolchain};
use crate::emitted::fresh_dir;
use crate::harness::Shared;

/// Every case's module compiled at once, and each driven in one BEAM.
pub const ELIXIR: Toolchain = Toolchain {
    language: "elixir",
    programs: &["elixirc", "elixir"],
    kinds: &[],
    run: |shared, case, dir, module| {
        let name = module_name(case.name);
        std::fs::write(dir.join("slotgen.ex"), module).unwrap();
        // The module the driver ran is this one, but for its name.
        let named = language::find("elixir")
            .unwrap()
            .emit(
                case.source(),
                &Options {
                    name: Some(&name),
                    ..Options::default()
                },
            )
            .unwrap();
        assert_eq!(
            named,
            module.replace("Slotgen", &name),
            "elixir, case {}: --name changes only the name",
            case.name
        );
        static OUTPUTS: OnceLock<HashMap<&'static str, String>> = OnceLock::new();
        OUTPUTS.get_or_init(|| run_all(shared))[case.name].clone()
    },
};

/// `Slotgen.Harness.TwemATag` for the case `twem_a_tag`.
fn module_name(case: &str) -> String {
    let camel: String = case
        .split('_')
        .map(|part| part[..1].to_ascii_uppercase() + &part[1..])
        .collect();
    format!("Slotgen.Harness.{camel}")
}

/// Compiles every case's module in one `elixirc` and runs the driver over all of them in
/// one `elixir`; returns each case's output.
fn run_all(shared: &Shared) -> HashMap<&'static str, String> {
    let dir = fresh_dir(&shared.dir, "elixir");
    let elixir = language::find("elixir").unwrap();
    let mut files = Vec::new();
    let mut plan = String::new();
    for case in &shared.cases {
        let name = module_name(case.name);
        let options = Options {
            name: Some(&name),
            ..Options::default()
        };
        let module = elixir.emit(case.source(), &options).unwrap();
        let file = dir.join(format!("{}.ex", case.name));
        std::fs::write(&file, module).unwrap();
        files.push(file);
        let out = dir.join(format!("{}.out", case.name));
        let mut line = vec![out.display().to_string(), name];
        line.extend(case.driver_args(shared));
        plan += &(line.join("\t") + "\n");
    }
    let ebin = dir.join("ebin");
    quiet(
        Command::new("elixirc")
            .arg("--warnings-as-errors")
            .arg("-o")
            .arg(&ebin)
            .args(&files),
    );
    let plan_path = dir.join("plan.txt");
    std::fs::write(&plan_path, plan).unwrap();
    quiet(
        Command::new("elixir")
            .arg("-pa")
            .arg(&ebin)
            .arg(driver("elixir", "driver.exs"))
            .arg("--plan")
            .arg(&plan_path),
    );
    shared
        .cases
        .iter()
        .map(|case| {
            let out = dir.join(format!("{}.out", case.name));
            (case.name, read(&out))
        })
        .collect()
}

/// Runs `command`, which must succeed and write nothing to stderr (no warning).
fn quiet(command: &mut Command) {
    let output = command.output().expect("elixir runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success() && stderr.is_empty(),
        "{command:?} must succeed silently:\n{stderr}"
    );
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}
