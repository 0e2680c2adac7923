//! JavaScript: the driver `tests/drivers/js/driver.mjs`, run by Node, and the module's
//! usage examples (`tests/drivers/js/usage.mjs`).

use std::process::Command;

use super::row::{check_refusals, driver, Toolchain};
use crate::emitted::run;

/// The refusals only JavaScript has, each with a piece of its message.
const JS_REFUSALS: [(&str, &str); 8] = [
    ("fraction_slot", "slot 1.5 is not an integer"),
    ("string_slot", "slot must be a number, got string"),
    ("object_slot", "slot must be a number, got object"),
    ("number_key", "key must be a Uint8Array"),
    (
        "one_key_string",
        "sameSlot takes an iterable of keys, not one key",
    ),
    ("one_key_buffer", "write sameSlot([key])"),
    ("one_key_shared", "write sharedHashtag([key])"),
    (
        "number_keys",
        "sameSlot takes an iterable of keys, got number",
    ),
];

/// Node with deprecations as errors; keys as `Uint8Array`, string and `Buffer`; and the
/// refusals only JavaScript has.
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
        check_refusals("JavaScript", case, &output, &JS_REFUSALS);
        output
    },
};
