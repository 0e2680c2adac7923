//! What the tests of the second round of emitted languages (Java, Ruby, PHP, Elixir, Lua
//! inside the server) add to the driver protocol of [`emitted`]:
//!
//! - `hashtag <key> <hashtag>` for every key of the keys file, from the module's `hashtag`,
//!   compared with [`slotgen_tables::hashtag`];
//! - `pair <module> <slot of "123456789"> <tag of slot 1> <tag of the last slot>`, printed
//!   by a driver that loads two modules of different specs into one program (module `a`
//!   of [`pair_cases`]' first spec, `b` of its second), compared with the Rust runtime of
//!   each spec: each module answers with its own spec.

use slotgen::Derivation;

use crate::emitted::{self, Case};

/// The two specs of the two-module test: Redis Cluster (`a`) and the 32-symbol alphabet
/// over 16384 slots with CRC-16/KERMIT's reflected register (`b`, from [`emitted::cases`]'
/// `kermit` with the `wide` alphabet): their tags and the slot of `123456789` differ.
///
/// # Panics
///
/// When a spec does not derive (a bug in slotgen).
#[must_use]
pub fn pair_cases() -> [Case; 2] {
    let kermit_wide = slotgen::Spec {
        alphabet: (0x40..0x60).collect(),
        tag_len: None,
        ..slotgen::Spec::default()
            .with_crc("CRC-16/KERMIT")
            .expect("KERMIT is catalogued")
    };
    [
        Case {
            name: "a",
            derivation: slotgen::derive(&slotgen::Spec::default()).expect("the default derives"),
        },
        Case {
            name: "b",
            derivation: slotgen::derive(&kermit_wide).expect("a test spec derives"),
        },
    ]
}

/// The `pair` line of one module, from the Rust runtime.
///
/// # Panics
///
/// When the runtime fails on a slot in range (a bug in slotgen).
#[must_use]
pub fn pair_line(name: &str, derivation: &Derivation) -> String {
    let table = derivation.slot_table().expect("a CRC-16 spec's table");
    let last = u16::try_from(derivation.slots() - 1).expect("slots fit 16 bits");
    format!(
        "pair\t{name}\t{}\t{}\t{}",
        table.key_slot(b"123456789"),
        hex::encode(table.tag_for_slot(1).expect("slot 1 is in range")),
        hex::encode(table.tag_for_slot(last).expect("the last slot is in range")),
    )
}

/// Checks a two-module driver's output: exactly the `pair` lines of both modules.
///
/// # Panics
///
/// When a line differs.
pub fn check_pair(what: &str, output: &str) {
    let [a, b] = pair_cases();
    let expected = [pair_line("a", &a.derivation), pair_line("b", &b.derivation)];
    let got: Vec<&str> = output.lines().collect();
    assert_eq!(
        got, expected,
        "{what}: two modules of different specs in one program must each answer with their own spec"
    );
}

/// Checks a driver's output: the `hashtag` lines against [`slotgen_tables::hashtag`] of every
/// key, in order, and every other line with [`emitted::check_output`] against
/// [`emitted::expected_lines`] of `key_kinds`.
///
/// # Panics
///
/// With the first difference.
pub fn check_output(
    what: &str,
    output: &str,
    derivation: &Derivation,
    keys: &[Vec<u8>],
    key_kinds: &[&str],
) {
    let (hashtags, rest): (Vec<&str>, Vec<&str>) =
        output.lines().partition(|l| l.starts_with("hashtag\t"));
    let expected: Vec<String> = keys
        .iter()
        .map(|key| {
            format!(
                "hashtag\t{}\t{}",
                hex::encode(key),
                hex::encode(slotgen_tables::hashtag(key))
            )
        })
        .collect();
    assert_eq!(
        hashtags.len(),
        expected.len(),
        "{what}: one hashtag line per key"
    );
    for (got, want) in hashtags.iter().zip(&expected) {
        assert_eq!(got, want, "{what}: the hashtag differs from the runtime's");
    }
    let rest = rest.join("\n");
    emitted::check_output(
        what,
        &rest,
        &emitted::expected_lines(derivation, keys, key_kinds),
    );
}
