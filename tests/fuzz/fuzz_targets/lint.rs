//! `slotgen lint`'s entry points: a Lua script (the first byte even) or a command file (odd),
//! with KEYS and ARGV from the input's tail. Never a panic or a stack overflow (the nesting
//! bound runs before the parser); a script that does not parse is an `Error`.
#![no_main]

use std::path::Path;

use libfuzzer_sys::fuzz_target;
use slotgen_lint::{Target, Values};

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    // The text, then after a NUL the values: KEYS and ARGV split at `\x01`.
    let (text, values) = match rest.iter().position(|&b| b == 0) {
        Some(at) => (&rest[..at], &rest[at + 1..]),
        None => (rest, &[][..]),
    };
    let text = String::from_utf8_lossy(text);
    let parts: Vec<Vec<u8>> = values.split(|&b| b == 1).map(<[u8]>::to_vec).collect();
    let (keys, argv) = parts.split_at(parts.len() / 2);
    let values = Values {
        keys: (mode & 2 == 0).then(|| keys.to_vec()),
        argv: Some(argv.to_vec()),
        function: (mode & 4 != 0).then(|| "f".to_owned()),
    };
    let result = if mode & 1 == 0 {
        slotgen_lint::lint_script(Path::new("fuzz.lua"), &text, &values, &Target::ALL)
    } else {
        slotgen_lint::lint_commands(Path::new("fuzz.redis"), &text, &Target::ALL)
    };
    if let Ok(report) = result {
        for f in &report.findings {
            assert!(f.at.file < report.files.len());
            assert!(!f.targets.is_empty());
        }
    }
});
