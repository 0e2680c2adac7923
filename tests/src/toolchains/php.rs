//! PHP: the driver `tests/drivers/php/driver.php`.

use std::process::Command;

use super::row::{driver, Toolchain};
use crate::emitted::run;

/// `php -l` on the class, then the driver with every error reported (the driver turns each
/// notice, warning and deprecation into an exception).
pub const PHP: Toolchain = Toolchain {
    language: "php",
    programs: &["php"],
    kinds: &[],
    run: |shared, case, dir, module| {
        let class = dir.join("Slotgen.php");
        std::fs::write(&class, module).unwrap();
        let lint = run(Command::new("php").arg("-l").arg(&class));
        assert!(
            lint.contains("No syntax errors detected"),
            "php -l, case {}:\n{lint}",
            case.name
        );
        run(Command::new("php")
            .args(["-d", "error_reporting=-1", "-d", "display_errors=stderr"])
            .arg(driver("php", "driver.php"))
            .arg(&class)
            .args(case.driver_args(shared)))
    },
};
