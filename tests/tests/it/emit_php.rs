//! What the harness (`tests/tests/emitted.rs`) does not check of the PHP class: two classes
//! of different specs in one program, and the names `--name` takes.

use std::path::Path;
use std::process::Command;

use slotgen::emit::language::{self, Options};
use slotgen_tests::emitted::{fresh_dir, run};
use slotgen_tests::{require_tool, speakers};

/// Prints the `pair` lines of [`speakers`] for the classes `A\Slots` (`$argv[1]`) and
/// `B\Slots` (`$argv[2]`).
const PAIR_DRIVER: &str = include_str!("../../drivers/php/pair.php");

/// The PHP class of `derivation` named `name`, through the registry.
fn class(derivation: &slotgen::Derivation, name: &str) -> Result<String, slotgen::Error> {
    language::find("php").unwrap().emit(
        derivation,
        &Options {
            name: Some(name),
            ..Options::default()
        },
    )
}

#[test]
fn two_php_classes_of_different_specs_in_one_program() {
    if !require_tool("php") {
        return;
    }
    let dir = fresh_dir(Path::new(env!("CARGO_TARGET_TMPDIR")), "php-pair");
    for case in speakers::pair_cases() {
        let name = format!(r"{}\Slots", case.name.to_uppercase());
        let class = class(&case.derivation, &name).unwrap();
        std::fs::write(dir.join(format!("{}.php", case.name)), class).unwrap();
    }
    std::fs::write(dir.join("pair.php"), PAIR_DRIVER).unwrap();
    let output = run(Command::new("php")
        .arg(dir.join("pair.php"))
        .arg(dir.join("a.php"))
        .arg(dir.join("b.php")));
    speakers::check_pair("PHP", &output);
}

#[test]
fn php_names_are_checked() {
    let d = slotgen::derive(&slotgen::Spec::default()).unwrap();
    for bad in [
        "",
        r"Example\",
        r"\Slots",
        "9Slots",
        r"Example\List",
        "class",
        "Slöts",
        "A.B",
    ] {
        let error = class(&d, bad).unwrap_err();
        assert!(
            error.to_string().contains("is not a name for `emit php`"),
            "{bad}: {error}"
        );
    }
    assert!(class(&d, r"Vendor\Pkg\RedisSlots").is_ok());
}
