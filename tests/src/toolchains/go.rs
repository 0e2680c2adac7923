//! Go: every case's package in `<case>/slotgen/` and a copy of the driver
//! `tests/drivers/go/main.go` in `<case>/`, importing it, all in one module `slotgentest`,
//! so that the go command starts, loads the standard library and vets once for every case,
//! not three times a case: one `gofmt -l`, one `go vet ./...`, one `go build` of every
//! case's driver for the machine's target and one for `GOARCH=386`; then each case's driver
//! runs.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use slotgen::emit::language::{self, Options};

use super::row::{driver, Toolchain};
use crate::emitted::{fresh_dir, go_command, run};
use crate::harness::Shared;

/// The import path of the package in the driver, which each case's copy replaces.
const IMPORT: &str = "\"slotgentest/slotgen\"";

/// `gofmt`-clean, `go vet`-clean, and built for a 32-bit target (`GOARCH=386`) as well,
/// offline; one build cache for every run (beside the harness's directory, which each run
/// makes afresh).
pub const GO: Toolchain = Toolchain {
    language: "go",
    programs: &["go", "gofmt"],
    kinds: &["str"],
    run: |shared, case, _, _| {
        let drivers = DRIVERS.get_or_init(|| build_all(shared));
        run(Command::new(drivers.join(case.name)).args(case.driver_args(shared)))
    },
};

/// The directory of every case's driver, built for the machine's target, each named by its
/// case.
static DRIVERS: OnceLock<PathBuf> = OnceLock::new();

/// Writes every case's package and driver, checks them (`gofmt -l`, `go vet`), builds them
/// for `GOARCH=386` and for the machine's target, and returns the directory of the latter.
fn build_all(shared: &Shared) -> PathBuf {
    let dir = fresh_dir(&shared.dir, "go");
    let go = language::find("go").unwrap();
    let main = std::fs::read_to_string(driver("go", "main.go")).unwrap();
    assert!(main.contains(IMPORT), "main.go imports {IMPORT}");
    std::fs::write(dir.join("go.mod"), "module slotgentest\n\ngo 1.19\n").unwrap();
    let mut packages = Vec::new();
    for case in &shared.cases {
        let module = go
            .emit(case.source(), &Options::default())
            .unwrap_or_else(|e| panic!("go, case {}: {e}", case.name));
        let package = Path::new(case.name).join("slotgen");
        std::fs::create_dir_all(dir.join(&package)).unwrap();
        std::fs::write(dir.join(&package).join("slotgen.go"), module).unwrap();
        let import = format!("\"slotgentest/{}/slotgen\"", case.name);
        std::fs::write(
            dir.join(case.name).join("main.go"),
            main.replace(IMPORT, &import),
        )
        .unwrap();
        packages.push(package);
    }
    let unformatted = run(Command::new("gofmt")
        .arg("-l")
        .args(&packages)
        .current_dir(&dir));
    assert_eq!(unformatted, "", "Go: these packages are not gofmt-clean");
    // the machine's own target, or `GOARCH=386`
    let command = |arch: Option<&str>| {
        let mut command = go_command(&dir);
        command.env("GOCACHE", shared.dir.with_file_name("go-cache"));
        if let Some(arch) = arch {
            command.env("GOARCH", arch);
        }
        command
    };
    let _ = run(command(None).args(["vet", "./..."]));
    let _ = run(command(Some("386")).args(["build", "-o", "drivers386/", "./..."]));
    let _ = run(command(None).args(["build", "-o", "drivers/", "./..."]));
    dir.join("drivers")
}
