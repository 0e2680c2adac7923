//! The rules between a table's options are the library's request layer's, and every front
//! end says them in its words: for each rule, the message of the library's refusal is what
//! `slotgen derive` prints and what `slot_table!` reports (issue 34). Only the way out is
//! spelled per front end (`--alphabet` on the command line, `alphabet` in the macro).

use slotgen::charset::Charset;
use slotgen::request::{alphabet_of_text, CustomCrc, Request};

use crate::cluster_live::slotgen;

/// One rule: the library's message for a request that breaks it, the command line that
/// says the same, and the expansion of a `slot_table!` that says the same.
struct Rule {
    name: &'static str,
    library: String,
    cli: &'static [&'static str],
    macro_source: &'static str,
}

/// The library's message of `request`'s refusal.
fn refused(request: &Request) -> String {
    request
        .resolve()
        .expect_err("the request breaks a rule")
        .error
        .to_string()
}

fn rules() -> Vec<Rule> {
    let charset = Charset::parse("alnum").unwrap();
    vec![
        Rule {
            name: "alphabet and charset",
            library: refused(&Request {
                alphabet: Some(b"@ABCDEFGHIJKLMNO".to_vec()),
                charset: Some(charset),
                ..Request::default()
            }),
            cli: &[
                "derive",
                "--alphabet",
                "@ABCDEFGHIJKLMNO",
                "--charset",
                "alnum",
            ],
            macro_source: slotgen_macros::slot_table_source! {
                static BOTH = { alphabet: "@ABCDEFGHIJKLMNO", charset: "alnum" };
            },
        },
        Rule {
            name: "a CRC and a scheme",
            library: refused(&Request {
                crc: Some("MODBUS".into()),
                scheme: Some("codis".into()),
                ..Request::default()
            }),
            cli: &["derive", "--crc", "MODBUS", "--scheme", "codis"],
            macro_source: slotgen_macros::slot_table_source! {
                static CODIS = { scheme: "codis", crc: "MODBUS" };
            },
        },
        Rule {
            name: "a custom CRC and a scheme",
            library: refused(&Request {
                custom: Some(CustomCrc {
                    poly: 0x1021,
                    ..CustomCrc::default()
                }),
                scheme: Some("codis".into()),
                ..Request::default()
            }),
            cli: &["derive", "--poly", "0x1021", "--scheme", "codis"],
            macro_source: slotgen_macros::slot_table_source! {
                static CODIS = { scheme: "codis", crc: { poly: 0x1021 } };
            },
        },
        Rule {
            name: "a hashtag without a scheme",
            library: refused(&Request {
                hash_tag: Some("{}".into()),
                ..Request::default()
            }),
            cli: &["derive", "--hash-tag", "{}"],
            macro_source: slotgen_macros::slot_table_source! {
                static ORDERS = { hash_tag: "{}" };
            },
        },
        Rule {
            name: "a non-ASCII alphabet",
            library: alphabet_of_text("αβγδ")
                .expect_err("not ASCII")
                .error
                .to_string(),
            cli: &["derive", "--alphabet", "αβγδ"],
            macro_source: slotgen_macros::slot_table_source! {
                static GREEK = { alphabet: "αβγδ" };
            },
        },
    ]
}

#[test]
fn each_rule_between_options_has_the_same_words_on_every_front_end() {
    for rule in rules() {
        let run = slotgen(rule.cli, b"");
        assert_eq!(run.code, Some(2), "{}: {}", rule.name, run.stderr);
        assert!(
            run.stderr.contains(&rule.library),
            "{}: the command line does not say the library's words `{}`: {}",
            rule.name,
            rule.library,
            run.stderr
        );
        assert!(
            rule.macro_source.contains("compile_error!"),
            "{}: slot_table! takes it: {}",
            rule.name,
            rule.macro_source
        );
        // the expansion holds the message as a string literal: `"` and `\` escaped
        let literal = rule.library.replace('\\', "\\\\").replace('"', "\\\"");
        assert!(
            rule.macro_source.contains(&literal),
            "{}: slot_table! does not say the library's words `{}`: {}",
            rule.name,
            rule.library,
            rule.macro_source
        );
    }
}
