//! Ruby: the driver `tests/drivers/ruby/driver.rb`.

use std::process::Command;

use super::row::{driver, Toolchain};

/// `ruby -w`, which must print no warning.
pub const RUBY: Toolchain = Toolchain {
    language: "ruby",
    programs: &["ruby"],
    kinds: &["str"],
    run: |shared, case, dir, module| {
        let path = dir.join("slotgen.rb");
        std::fs::write(&path, module).unwrap();
        let output = Command::new("ruby")
            .arg("-w")
            .arg(driver("ruby", "driver.rb"))
            .arg(&path)
            .args(case.driver_args(shared))
            .output()
            .expect("running ruby");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            output.status.success() && stderr.is_empty(),
            "ruby, case {}: ruby -w must succeed silently ({}):\n{stderr}",
            case.name,
            output.status
        );
        String::from_utf8(output.stdout).expect("the driver prints ASCII")
    },
};
