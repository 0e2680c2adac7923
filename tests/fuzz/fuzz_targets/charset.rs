//! Charset specs (`--charset`, `charset:`), orders (`--order`) and alphabets (`--alphabet`):
//! never a panic; a parsed charset reads back from its ranges, and an alphabet that is
//! accepted is affine.
#![no_main]

use libfuzzer_sys::fuzz_target;
use slotgen::charset::Charset;

fuzz_target!(|input: (&str, &str, &[u8])| {
    let (spec, order, alphabet) = input;
    if let Ok(charset) = Charset::parse(spec) {
        assert!(!charset.bytes().is_empty());
        assert!(!charset.bytes().contains(&b'{') && !charset.bytes().contains(&b'}'));
        let again = Charset::parse(&format!("[{}]", charset.set_ranges())).unwrap();
        assert_eq!(again.bytes(), charset.bytes(), "{spec:?}");
        let same = charset.clone().with_order(&charset.ranges()).unwrap();
        assert_eq!(same.symbols(), charset.symbols());
        let _ = charset.with_order(order);
    }
    if let Ok(a) = slotgen::Alphabet::new(alphabet) {
        let symbols = a.symbols();
        assert!(symbols.len().is_power_of_two() && symbols.len() >= 2);
        // affine: every xor of three symbols is a symbol
        for &x in symbols.iter().take(8) {
            for &y in symbols.iter().take(8) {
                assert!(symbols.contains(&(x ^ y ^ symbols[0])));
            }
        }
    }
});
