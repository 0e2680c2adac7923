//! Python: the driver `tests/drivers/python/driver.py`.

use std::process::Command;

use super::row::{check_refusals, driver, Toolchain};
use crate::emitted::run;

/// The refusals only Python has, each with a piece of its message.
const PYTHON_REFUSALS: [(&str, &str); 5] = [
    ("float_slot", "slot must be an int"),
    ("str_slot", "slot must be an int"),
    (
        "one_key_str",
        "same_slot takes an iterable of keys, not one key",
    ),
    ("one_key_bytes", "write same_slot([key])"),
    ("one_key_shared", "write shared_hashtag([key])"),
];

/// Python 3 with warnings as errors, and the module's doctests; and the refusals only Python
/// has.
pub const PYTHON: Toolchain = Toolchain {
    language: "python",
    programs: &["python3"],
    kinds: &["str"],
    run: |shared, case, dir, module| {
        std::fs::write(dir.join("slotgen.py"), module).unwrap();
        let output = run(Command::new("python3")
            .arg("-W")
            .arg("error")
            .arg(driver("python", "driver.py"))
            .arg(dir)
            .args(case.driver_args(shared)));
        // the docstring's examples, with this case's values
        let doctest = run(Command::new("python3")
            .args(["-m", "doctest", "slotgen.py"])
            .current_dir(dir));
        assert!(
            doctest.is_empty(),
            "Python doctests, case {}:\n{doctest}",
            case.name
        );
        check_refusals("Python", case, &output, &PYTHON_REFUSALS);
        output
    },
};
