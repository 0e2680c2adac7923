//! C: the driver `tests/drivers/c/driver.c`, compiled with the header's directory on the
//! include path.

use std::process::Command;

use super::row::{check_refusals, driver, Toolchain};
use crate::emitted::{gcc_strict, run};

/// The refusals only C has, each with a piece of its message.
const C_REFUSALS: [(&str, &str); 9] = [
    ("buffer_small", "pass a buffer"),
    ("tag_index", "tag index"),
    ("null_out", "is NULL"),
    ("null_len", "is NULL"),
    ("null_suffix", "is NULL"),
    ("null_tag", "is NULL"),
    ("null_tags", "is NULL"),
    ("key_too_long", "longer than SIZE_MAX"),
    ("key_too_long_prefix", "longer than SIZE_MAX"),
];

/// gcc as [`gcc_strict`] has it: C99, `-Wall -Wextra -Werror -pedantic`, the address and
/// undefined-behaviour sanitizers; and the refusals only C has.
pub const C: Toolchain = Toolchain {
    language: "c",
    programs: &["gcc"],
    kinds: &[],
    run: |shared, case, dir, module| {
        std::fs::write(dir.join("slotgen.h"), module).unwrap();
        let _ = run(gcc_strict()
            .arg("-I")
            .arg(dir)
            .arg("-o")
            .arg(dir.join("driver"))
            .arg(driver("c", "driver.c")));
        let output = run(Command::new(dir.join("driver")).args(case.driver_args(shared)));
        check_refusals("C", case, &output, &C_REFUSALS);
        output
    },
};
