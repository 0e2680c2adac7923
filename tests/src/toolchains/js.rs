//! JavaScript: the driver `tests/drivers/js/driver.mjs`, run by Node, and the module's
//! usage examples (`tests/drivers/js/usage.mjs`).

use std::process::Command;

use super::{driver, Toolchain};
use crate::emitted::run;

/// Node with deprecations as errors; keys as `Uint8Array`, string and `Buffer`.
pub const JS: Toolchain = Toolchain {
    language: "js",
    programs: &["node"],
    kinds: &["str", "buffer"],
    run: |shared, case, dir, module| {
        let path = dir.join("slotgen.mjs");
        std::fs::write(&path, module).unwrap();
        let output = run(Command::new("node")
            .arg("--throw-deprecation")
            .arg(driver("js", "driver.mjs"))
            .arg(&path)
            .args(case.driver_args(shared)));
        // the usage comment's examples, with this case's values
        let usage = run(Command::new("node")
            .arg("--throw-deprecation")
            .arg(driver("js", "usage.mjs"))
            .arg(&path));
        assert!(
            usage.is_empty(),
            "JavaScript usage examples, case {}:\n{usage}",
            case.name
        );
        output
    },
};
