//! Bad input read by the library: each class refused with its rule, or read as documented,
//! never misread in silence (issue 17). The CLI's side is in `generator/cli/tests/`.

use slotgen::charset::Charset;
use slotgen::verify::{json_derivation, MAX_JSON_BYTES};
use slotgen::{derive, Error, Spec};

#[test]
fn charset_names_are_case_insensitive() {
    let alnum = Charset::parse("alnum").unwrap();
    assert_eq!(alnum.bytes().len(), 62);
    for spelling in ["ALNUM", "Alnum", "aLnUm"] {
        assert_eq!(
            Charset::parse(spelling).unwrap().bytes(),
            alnum.bytes(),
            "{spelling}"
        );
    }
    assert_eq!(Charset::parse("DIGITS").unwrap().bytes(), b"0123456789");
    assert_eq!(Charset::parse("Printable").unwrap().bytes().len(), 92);
}

#[test]
fn a_word_that_is_no_charset_name_is_refused_with_the_nearest_names() {
    for (spec, nearest) in [
        ("alnm", "alnum"),
        ("Digts", "digits"),
        ("uper", "upper"),
        ("printables", "printable"),
    ] {
        match Charset::parse(spec) {
            Err(e @ Error::UnknownCharset { .. }) => {
                let text = e.to_string();
                assert!(text.contains(&format!("nearest: `{nearest}`")), "{text}");
                assert!(text.contains(&format!("`[{spec}]`")), "{text}");
            }
            other => panic!("{spec}: {other:?}"),
        }
    }
    // the bytes themselves stay available, in brackets, and short lists or lists with a
    // non-letter are still lists
    assert_eq!(Charset::parse("[hex]").unwrap().bytes(), b"ehx");
    assert_eq!(Charset::parse("ab").unwrap().symbols(), b"ab");
    assert_eq!(Charset::parse("xy-").unwrap().symbols(), b"xy-");
    assert_eq!(Charset::parse("zyx").unwrap().symbols(), b"zyx");
    assert_eq!(Charset::parse("cabge").unwrap().symbols(), b"cabge");
}

/// Another tool's name of a set of bytes (`numeric` was read as the letters
/// `{nirirrrrrrii}`, `alphanum` refused as "`a` is listed twice") is refused with what to
/// write instead, and that advice, followed, gives the set the name means: each checked
/// against the standard library's ASCII classes, not against our table.
#[test]
fn another_tools_charset_name_is_refused_with_what_to_write_instead() {
    // each set as the standard library's ASCII classes give it, braces never members
    type Means = fn(u8) -> bool;
    let cases: &[(&[&str], &str, Means)] = &[
        (
            &[
                "numeric", "num", "number", "numbers", "decimal", "dec", "digit",
            ],
            "digits",
            |b| b.is_ascii_digit(),
        ),
        (&["alphanum", "alphanumeric"], "alnum", |b| {
            b.is_ascii_alphanumeric()
        }),
        (&["letters", "alphabetic"], "alpha", |b| {
            b.is_ascii_alphabetic()
        }),
        (&["lowercase"], "lower", |b| b.is_ascii_lowercase()),
        (&["uppercase"], "upper", |b| b.is_ascii_uppercase()),
        (&["print", "graph", "ascii"], "printable", |b| {
            b.is_ascii_graphic() && b != b'{' && b != b'}'
        }),
        (&["hex", "xdigit"], "[0-9a-f]", |b| {
            b.is_ascii_hexdigit() && !b.is_ascii_uppercase()
        }),
        (&["base16"], "[0-9A-F]", |b| {
            b.is_ascii_hexdigit() && !b.is_ascii_lowercase()
        }),
        (&["base32"], "[A-Z2-7]", |b| {
            b.is_ascii_uppercase() || (b'2'..=b'7').contains(&b)
        }),
        (&["base36"], "[0-9a-z]", |b| {
            b.is_ascii_digit() || b.is_ascii_lowercase()
        }),
        // Bitcoin's alphabet: no 0, O, I or l
        (&["base58"], "[1-9A-HJ-NP-Za-km-z]", |b| {
            b.is_ascii_alphanumeric() && !b"0OIl".contains(&b)
        }),
        (&["base62"], "alnum", |b| b.is_ascii_alphanumeric()),
        (&["base64"], "[A-Za-z0-9+/]", |b| {
            b.is_ascii_alphanumeric() || b == b'+' || b == b'/'
        }),
        (&["base64url"], "[A-Za-z0-9_-]", |b| {
            b.is_ascii_alphanumeric() || b == b'_' || b == b'-'
        }),
        (&["word"], "[A-Za-z0-9_]", |b| {
            b.is_ascii_alphanumeric() || b == b'_'
        }),
        (&["punct"], "[!-/:-@\\[-`|~]", |b| {
            b.is_ascii_punctuation() && b != b'{' && b != b'}'
        }),
    ];
    let mut tested = 0;
    for &(words, instead, means) in cases {
        let expected: Vec<u8> = (0..=255u8).filter(|&b| means(b)).collect();
        assert_eq!(
            Charset::parse(instead).unwrap().bytes(),
            expected,
            "{instead}"
        );
        for word in words {
            for spec in [word.to_string(), word.to_uppercase()] {
                match Charset::parse(&spec) {
                    Err(e @ Error::UnknownCharset { .. }) => {
                        let text = e.to_string();
                        let advice =
                            format!("for what other tools call `{spec}`, write `{instead}`");
                        assert!(text.contains(&advice), "{text}");
                        assert!(text.contains(&format!("`[{spec}]`")), "{text}");
                    }
                    other => panic!("{spec}: {other:?}"),
                }
            }
            tested += 1;
        }
    }
    // every entry of the table is tested here
    assert_eq!(tested, slotgen::charset::OTHER_TOOLS_NAMES.len());
    // a POSIX class is read as its name; a near miss of another tool's name gets what it
    // means here (`hexx`, `alphanumm` were refused as "listed twice", with no name)
    for (spec, says) in [
        ("[:alnum:]", "write `alnum`"),
        ("[[:digit:]]", "write `digits`"),
        ("[:xdigit:]", "write `[0-9a-f]`"),
        ("hexx", "nearest: `[0-9a-f]`"),
        ("alphanumm", "nearest: `alnum`"),
    ] {
        match Charset::parse(spec) {
            Err(e @ Error::UnknownCharset { .. }) => {
                let text = e.to_string();
                assert!(text.contains(says), "{spec}: {text}");
            }
            other => panic!("{spec}: {other:?}"),
        }
    }
}

#[test]
fn a_charset_that_is_not_ascii_is_refused() {
    for spec in ["é", "[a-zé]", "aé"] {
        match Charset::parse(spec) {
            Err(Error::CharsetSyntax { reason, .. }) => {
                assert!(reason.contains("not ASCII"), "{reason}");
            }
            other => panic!("{spec}: {other:?}"),
        }
    }
    assert_eq!(Charset::parse("[a\\xe9]").unwrap().bytes(), b"a\xe9");
}

#[test]
fn a_control_byte_in_a_charset_is_escaped_in_the_message() {
    let text = Charset::parse("[\x1b[2J").unwrap_err().to_string();
    assert!(!text.contains('\x1b'), "{text:?}");
    assert!(text.contains("\\x1b"), "{text:?}");
}

fn emitted() -> serde_json::Value {
    slotgen::emit::json::to_value(&derive(&Spec::default()).unwrap(), None)
}

#[test]
fn the_generator_field_of_a_json_derivation_is_not_compared() {
    let mut value = emitted();
    value["generator"] = "slotgen 9.9.9".into();
    let report = json_derivation(&value.to_string()).unwrap();
    assert!(report.passed(), "{:?}", report.mismatches);
    value.as_object_mut().unwrap().remove("generator");
    assert!(json_derivation(&value.to_string()).unwrap().passed());
}

#[test]
fn a_json_derivation_larger_than_the_cap_is_refused_before_parsing() {
    let mut value = emitted();
    value["padding"] = "x".repeat(MAX_JSON_BYTES).into();
    match json_derivation(&value.to_string()) {
        Err(e @ Error::TableTooLarge { .. }) => {
            assert!(e.to_string().contains("more than the 1048576"), "{e}");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn long_mismatch_values_are_shortened_with_a_marker() {
    let mut value = emitted();
    value["inverse"][0] = "9".repeat(20_000).into();
    value["x".repeat(5000)] = 1.into();
    let report = json_derivation(&value.to_string()).unwrap();
    assert!(!report.passed());
    assert!(!report.mismatches.is_empty());
    for m in &report.mismatches {
        let line = m.to_string();
        assert!(line.len() < 600, "{} characters", line.len());
    }
    let inverse = report
        .mismatches
        .iter()
        .find(|m| m.path == "inverse[0]")
        .unwrap();
    assert!(
        inverse.found.contains("... (20002 characters)"),
        "{}",
        inverse.found
    );
}

/// A polynomial without its x^0 term leaves the register's low bits (its trailing zero
/// bits, up to 8) zero after each byte, so when the output is not reflected the CRC's low
/// bits, the slot's, never change: checked here with the `crc` crate over many inputs, so
/// the refusal's claim is the CRC's own behaviour. Reflected, those bits are the high ones,
/// and the CRC is not refused.
#[test]
fn an_even_polynomial_is_refused_for_its_constant_low_bits() {
    for poly in [0x8004u16, 0x1020, 0x8000, 0x0002, 0x0000] {
        let constant = poly.trailing_zeros().min(8);
        for (refin, refout) in [(false, false), (true, false), (true, true)] {
            let crc: &'static _ = Box::leak(Box::new(slotgen::catalog::custom(
                poly, 0x1234, refin, refout, 0,
            )));
            let reference = crc::Crc::<u16>::new(crc);
            let bits = |v: u16| {
                let v = if refout { v.reverse_bits() } else { v };
                v & ((1 << constant) - 1)
            };
            let first = bits(reference.checksum(b"x"));
            for n in 0u32..4000 {
                let input = n.wrapping_mul(0x9e37_79b9).to_le_bytes();
                let crc = reference.checksum(&input[..(n % 4) as usize + 1]);
                assert_eq!(bits(crc), first, "{poly:#06x} refout {refout}");
            }
            let result = slotgen::spec::check_crc(crc);
            if refout {
                assert!(result.is_ok(), "{poly:#06x}: {result:?}");
                continue;
            }
            match result {
                Err(e @ Error::EvenPoly { .. }) => {
                    let text = e.to_string();
                    let says = format!("low {constant} bit");
                    assert!(text.contains(&says), "{poly:#06x}: {text}");
                    assert!(!text.contains("larger alphabet"), "{text}");
                }
                other => panic!("{poly:#06x}: {other:?}"),
            }
            // and deriving it says the same, not "use a larger alphabet"
            let spec = Spec {
                crc: *crc,
                ..Spec::default()
            };
            assert!(matches!(derive(&spec), Err(Error::EvenPoly { .. })));
        }
    }
    // every catalogue CRC-16 has an odd polynomial, and passes
    for entry in slotgen::catalog::CATALOG {
        slotgen::spec::check_crc(entry.algorithm).unwrap();
    }
}
