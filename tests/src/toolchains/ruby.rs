//! Ruby: the driver `tests/drivers/ruby/driver.rb`.

use std::process::Command;

use super::row::{check_refusals, driver, Toolchain};

/// The refusals only Ruby's driver asks, each with a piece of its message: one String is
/// one key, not a collection (it was a `NoMethodError` of `each`).
const RUBY_REFUSALS: [(&str, &str); 2] = [
    ("one_key_str", "write same_slot([key])"),
    ("one_key_shared", "write shared_hashtag([key])"),
];

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
        let output = String::from_utf8(output.stdout).expect("the driver prints ASCII");
        check_refusals("Ruby", case, &output, &RUBY_REFUSALS);
        output
    },
};
