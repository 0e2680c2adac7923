//! Two emitted C headers of different specs, prefixed by `--name`, included in one program
//! (compiled with `-std=c99 -Wall -Wextra -Werror -pedantic -fsanitize=address,undefined`):
//! each answers with its own spec. And the prefix names are checked.

use std::path::Path;
use std::process::Command;

use slotgen::emit::language::{self, Options};
use slotgen::Derivation;
use slotgen_tests::emitted::{fresh_dir, gcc_strict, run};
use slotgen_tests::{require_tool, speakers};

/// The header of `derivation` with `--name name`, or without `--name`.
fn header(derivation: &Derivation, name: Option<&str>) -> Result<String, slotgen::Error> {
    let options = Options {
        name,
        ..Options::default()
    };
    language::find("c").unwrap().emit(derivation, &options)
}

/// Prints the `pair` lines of [`speakers`] for the headers `a.h` and `b.h`.
const PAIR_DRIVER: &str = include_str!("../../drivers/c/pair.c");

#[test]
fn two_c_headers_of_different_specs_in_one_program() {
    if !require_tool("gcc") {
        return;
    }
    let dir = fresh_dir(Path::new(env!("CARGO_TARGET_TMPDIR")), "c-pair");
    for case in speakers::pair_cases() {
        let text = header(&case.derivation, Some(case.name)).unwrap();
        std::fs::write(dir.join(format!("{}.h", case.name)), text).unwrap();
    }
    std::fs::write(dir.join("pair.c"), PAIR_DRIVER).unwrap();
    let _ = run(gcc_strict()
        .arg("-o")
        .arg(dir.join("pair"))
        .arg(dir.join("pair.c")));
    let output = run(&mut Command::new(dir.join("pair")));
    speakers::check_pair("C", &output);
}

#[test]
fn default_name_is_the_old_header() {
    let d = slotgen::derive(&slotgen::Spec::default()).unwrap();
    assert_eq!(
        header(&d, Some("slotgen")).unwrap(),
        header(&d, None).unwrap()
    );
}

#[test]
fn c_names_are_checked() {
    let d = slotgen::derive(&slotgen::Spec::default()).unwrap();
    for bad in ["", "Orders", "9lives", "int", "slot-gen", "süß"] {
        let error = header(&d, Some(bad)).unwrap_err();
        assert!(
            error.to_string().contains("is not a name for `emit c`"),
            "{bad}: {error}"
        );
    }
}
