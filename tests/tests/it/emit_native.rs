//! Which CRC path each emitted module takes: the language's own CRC-32 function where it
//! computes the case's CRC exactly (Go's `hash/crc32` from any start, with
//! `crc32.IEEETable` or `crc32.Castagnoli`; Java's `java.util.zip.CRC32` and `CRC32C` from
//! the standard start only; Erlang's `erlang:crc32/2`, and Elixir's call of it,
//! CRC-32/ISO-HDLC's polynomial from any start), the table loop otherwise; and that the harness's cases, which `emitted.rs` runs
//! on every slot, hold both paths in each of these languages.

use slotgen::emit::language::{self, Options};
use slotgen_tests::harness::{cases, Table};

/// ISO-HDLC's polynomial (zlib, `hash/crc32`'s IEEE, `CRC32`, `erlang:crc32`).
const IEEE: u64 = 0x04c1_1db7;
/// CRC-32C's (`crc32.Castagnoli`, `CRC32C`).
const CASTAGNOLI: u64 = 0x1edc_6f41;

/// A case's CRC as (width, polynomial, init, reflected both ways), from its spec.
fn crc(table: &Table) -> (u8, u64, u64, bool) {
    match table.crc16_spec() {
        Some(spec) => {
            let a = &spec.crc;
            (a.width, a.poly.into(), a.init.into(), a.refin && a.refout)
        }
        None => {
            let (_, p) = slotgen::scheme::crc_of(&table.scheme);
            (p.width, p.poly, p.init, p.refin && p.refout)
        }
    }
}

#[test]
fn modules_call_the_languages_crc32_exactly_where_it_computes_the_crc() {
    // (language, the call that marks the native path, whether it computes a CRC)
    type Rule = fn((u8, u64, u64, bool)) -> bool;
    let languages: [(&str, &str, Rule); 4] = [
        ("go", "crc32.Update(", |(w, p, _, r)| {
            w == 32 && r && (p == IEEE || p == CASTAGNOLI)
        }),
        ("java", "new java.util.zip.CRC32", |(w, p, i, r)| {
            w == 32 && r && i == 0xffff_ffff && (p == IEEE || p == CASTAGNOLI)
        }),
        ("erlang", "erlang:crc32(", |(w, p, _, r)| {
            w == 32 && r && p == IEEE
        }),
        ("elixir", ":erlang.crc32(", |(w, p, _, r)| {
            w == 32 && r && p == IEEE
        }),
    ];
    for (name, marker, native) in languages {
        let emitter = language::find(name).unwrap();
        let (mut natives, mut tables) = (vec![], vec![]);
        for case in cases() {
            let module = emitter
                .emit(case.source(), &Options::default())
                .unwrap_or_else(|e| panic!("{name}, case {}: {e}", case.name));
            let expected = native(crc(&case.table));
            assert_eq!(
                module.contains(marker),
                expected,
                "{name}, case {}: the native path (`{marker}`) is {} where the CRC is {:?}",
                case.name,
                if expected { "expected" } else { "not expected" },
                crc(&case.table)
            );
            if expected {
                natives.push(case.name);
            } else {
                tables.push(case.name);
            }
        }
        assert!(
            !natives.is_empty() && !tables.is_empty(),
            "{name}: the harness must run both paths: native {natives:?}, table {tables:?}"
        );
    }
}
