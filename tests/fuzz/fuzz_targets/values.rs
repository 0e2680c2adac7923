//! The CLI's value parsers (the very file, `generator/cli/src/cli/values.rs`): a 16-bit CRC
//! parameter, a slot range and a time limit. Never a panic; what parses reads back the same.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../../generator/cli/src/cli/values.rs"]
#[allow(dead_code)]
mod values;

fuzz_target!(|text: &str| {
    if let Ok(v) = values::parse_u16(text) {
        assert_eq!(values::parse_u16(&format!("{v:#06x}")), Ok(v));
        assert_eq!(values::parse_u16(&v.to_string()), Ok(v));
    }
    if let Ok(range) = text.parse::<values::SlotRange>() {
        assert!(range.first <= range.last, "{text:?}");
        let again: values::SlotRange = format!("{}-{}", range.first, range.last).parse().unwrap();
        assert_eq!((again.first, again.last), (range.first, range.last));
    }
    if let Ok(limit) = values::parse_timeout(text) {
        assert!(limit.as_micros() > 0, "{text:?}");
        assert!(limit <= std::time::Duration::from_secs(86_400), "{text:?}");
    }
});
