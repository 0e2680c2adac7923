//! Java: every case's class and a copy of the driver `tests/drivers/java/Driver.java` in a
//! package of the case's name, compiled by one `javac` and run by one JVM
//! (`tests/drivers/java/Cases.java`), as a JVM starts slowly; so the classes of every case
//! live in one program as well.

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

use slotgen::emit::language::{self, Options};

use super::row::{driver, Toolchain};
use crate::emitted::{fresh_dir, run};
use crate::harness::Shared;

/// `javac --release 11 -Xlint:all -Werror`.
pub const JAVA: Toolchain = Toolchain {
    language: "java",
    programs: &["javac", "java"],
    kinds: &["str"],
    run: |shared, case, _, _| OUTPUTS.get_or_init(|| run_all(shared))[case.name].clone(),
};

/// What each case's driver printed, by case name.
static OUTPUTS: OnceLock<HashMap<&'static str, String>> = OnceLock::new();

/// Emits every case's class as `<case>.Slotgen`, compiles them with their drivers, runs
/// them all in one JVM, and returns each case's output.
fn run_all(shared: &Shared) -> HashMap<&'static str, String> {
    let dir = fresh_dir(&shared.dir, "java");
    let driver_text = std::fs::read_to_string(driver("java", "Driver.java")).unwrap();
    let mut sources = vec![driver("java", "Cases.java")];
    let mut args = Vec::new();
    let mut outputs: Vec<(&'static str, PathBuf)> = Vec::new();
    for case in &shared.cases {
        let package = case.name;
        let class = language::find("java")
            .unwrap()
            .emit(
                case.source(),
                &Options {
                    name: Some(&format!("{package}.Slotgen")),
                    ..Options::default()
                },
            )
            .unwrap_or_else(|e| panic!("java, case {package}: {e}"));
        let folder = dir.join(package);
        std::fs::create_dir(&folder).unwrap();
        std::fs::write(folder.join("Slotgen.java"), class).unwrap();
        // the driver as it is, in the case's package
        std::fs::write(
            folder.join("Driver.java"),
            format!("package {package};\n\n{driver_text}"),
        )
        .unwrap();
        sources.extend([folder.join("Slotgen.java"), folder.join("Driver.java")]);
        let output = folder.join("output.txt");
        args.push(package.to_owned());
        args.push(output.display().to_string());
        args.extend(case.driver_args(shared));
        outputs.push((package, output));
    }
    let classes = dir.join("classes");
    let _ = run(Command::new("javac")
        .args(["--release", "11", "-Xlint:all", "-Werror", "-d"])
        .arg(&classes)
        .args(&sources));
    let _ = run(Command::new("java")
        .arg("-cp")
        .arg(&classes)
        .arg("Cases")
        .args(&args));
    outputs
        .into_iter()
        .map(|(name, path)| (name, std::fs::read_to_string(path).unwrap()))
        .collect()
}
