//! Go: the driver `tests/drivers/go/main.go`, in a module with the package in `slotgen/`.

use std::process::Command;

use super::row::{driver, Toolchain};
use crate::emitted::{go_command, run};

/// `gofmt`-clean, `go vet`-clean, and built for a 32-bit target (`GOARCH=386`) as well,
/// offline; one build cache for every case and every run (beside the harness's directory,
/// which each run makes afresh).
pub const GO: Toolchain = Toolchain {
    language: "go",
    programs: &["go", "gofmt"],
    kinds: &["str"],
    run: |shared, case, dir, module| {
        std::fs::create_dir(dir.join("slotgen")).unwrap();
        std::fs::write(dir.join("slotgen/slotgen.go"), module).unwrap();
        std::fs::copy(driver("go", "main.go"), dir.join("main.go")).unwrap();
        std::fs::write(dir.join("go.mod"), "module slotgentest\n\ngo 1.19\n").unwrap();
        // the machine's own target, or `GOARCH=386`
        let go = |arch: Option<&str>| {
            let mut command = go_command(dir);
            command.env("GOCACHE", shared.dir.with_file_name("go-cache"));
            if let Some(arch) = arch {
                command.env("GOARCH", arch);
            }
            command
        };
        let unformatted = run(Command::new("gofmt")
            .args(["-l", "slotgen"])
            .current_dir(dir));
        assert_eq!(
            unformatted, "",
            "Go, case {}: the package is not gofmt-clean",
            case.name
        );
        let _ = run(go(None).args(["vet", "./..."]));
        let _ = run(go(Some("386")).args(["build", "-o", "driver386", "."]));
        let _ = run(go(None).args(["build", "-o", "driver", "."]));
        run(Command::new(dir.join("driver")).args(case.driver_args(shared)))
    },
};
