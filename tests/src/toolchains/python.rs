//! Python: the driver `tests/drivers/python/driver.py`.

use std::process::Command;

use super::{driver, Toolchain};
use crate::emitted::run;

/// Python 3 with warnings as errors, and the module's doctests.
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
        output
    },
};
