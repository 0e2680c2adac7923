//! C#: the driver `tests/drivers/csharp/Driver.cs`, compiled with the module by Mono's `mcs`
//! and run by `mono`.

use std::path::Path;
use std::process::Command;

use slotgen::emit::language::{self, Options};

use super::row::{driver, Toolchain};
use crate::emitted::run;

/// `mcs` with every warning (level 4) an error and the doc comments checked (`-doc`): a
/// public member without its `<summary>`, or one that is not well-formed XML, fails.
fn mcs_strict(dir: &Path) -> Command {
    let mut command = Command::new("mcs");
    command
        .current_dir(dir)
        .args(["-warnaserror", "-warn:4", "-doc:slotgen.xml"]);
    command
}

/// The module and the driver built by strict `mcs` and run by `mono`; for the first case,
/// the module under a namespaced `--name` is compiled too.
pub const CSHARP: Toolchain = Toolchain {
    language: "csharp",
    programs: &["mcs", "mono"],
    kinds: &["str"],
    run: |shared, case, dir, module| {
        std::fs::write(dir.join("Slotgen.cs"), module).unwrap();
        let built = run(mcs_strict(dir)
            .arg("-out:driver.exe")
            .arg("Slotgen.cs")
            .arg(driver("csharp", "Driver.cs")));
        assert!(built.is_empty(), "mcs, case {}:\n{built}", case.name);
        if std::ptr::eq(case, &shared.cases[0]) {
            let named = language::find("csharp")
                .unwrap()
                .emit(
                    case.source(),
                    &Options {
                        name: Some("Example.RedisSlots"),
                        ..Options::default()
                    },
                )
                .unwrap();
            std::fs::write(dir.join("RedisSlots.cs"), named).unwrap();
            let built =
                run(mcs_strict(dir).args(["-target:library", "-out:named.dll", "RedisSlots.cs"]));
            assert!(
                built.is_empty(),
                "mcs, `--name Example.RedisSlots`:\n{built}"
            );
        }
        run(Command::new("mono")
            .arg(dir.join("driver.exe"))
            .args(case.driver_args(shared)))
    },
};
