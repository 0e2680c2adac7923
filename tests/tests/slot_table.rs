//! `slot_table!`: the expansion pinned by snapshots, and every table checked over all its
//! slots against the `crc` crate. The file denies warnings and missing docs, as a careful
//! caller would, so the expansion must compile clean under them.
#![deny(warnings, missing_docs)]

use crc::{Algorithm, Crc, CRC_16_KERMIT, CRC_16_MODBUS, CRC_16_UMTS, CRC_16_XMODEM};
use slotgen_macros::slot_table;
use slotgen_tables::SlotTable;

/// Declares the tables and binds `$source` to the prettyplease-formatted expansion of the
/// same tokens, so that the snapshot is of exactly the tables the tests check.
macro_rules! tables {
    ($source:ident: $($tables:tt)*) => {
        slot_table! { $($tables)* }
        const $source: &str = slotgen_macros::slot_table_source! { $($tables)* };
    };
}

tables! {
    DEFAULT_SOURCE:
    pub static DEFAULT = {
        crc: "CRC-16/XMODEM",
        alphabet: "@ABCDEFGHIJKLMNO",
        tag_len: 4,
    };
}

tables! {
    KERMIT_SOURCE:
    /// CRC-16/KERMIT, reflected in and out; the tag length left to slotgen.
    static KERMIT = {
        crc: "kermit",
        alphabet: b"@ABCDEFGHIJKLMNO",
    };
}

tables! {
    ORDERS_SOURCE:
    /// Tags for the orders queue: MODBUS CRC, digits and letters.
    #[allow(dead_code)]
    pub(crate) static ORDERS = {
        crc: "CRC-16/MODBUS",
        alphabet: "01234567PQRSTUVW",
        tag_len: 4,
        slots: 16384,
    };
}

tables! {
    FAST_SOURCE:
    /// A `const` table: its own `const` engine, whose parameters callers see.
    pub const FAST = {
        crc: "CRC-16/KERMIT",
        alphabet: "@ABCDEFGHIJKLMNO",
        tag_len: 4,
    };
}

slot_table! {
    /// A `const` table of a CRC in no catalogue.
    const FAST_CUSTOM = {
        crc: { poly: 0x8bb7, init: 0x1234, refin: false, refout: true, xorout: 0x5555 },
        alphabet: "0123456789:;<=>?",
        slots: 1024,
    };
}

slot_table! {
    /// A CRC in no catalogue, by its parameters; 1024 slots.
    static CUSTOM = {
        crc: { poly: 0x8bb7, init: 0x1234, refin: false, refout: true, xorout: 0x5555 },
        alphabet: "0123456789:;<=>?",
        slots: 1024,
    };
    /// Two tables in one invocation: the second, with 8 symbols.
    static EIGHT = { crc: "CRC-16/XMODEM", alphabet: "pqrstuvw", tag_len: 6 };
}

tables! {
    REDIS_SOURCE:
    pub static REDIS = {};
}

slot_table! {
    /// A custom CRC by its polynomial alone: `init` 0, `refin` false, `refout` as
    /// `refin`, `xorout` 0, the defaults of `slotgen --poly` (CRC-16/UMTS's parameters).
    static POLY_ONLY = { crc: { poly: 0x8005 } };
    /// A custom CRC without `refout`, which follows `refin` (CRC-16/MODBUS's parameters).
    static REFOUT_AS_REFIN = { crc: { poly: 0x8005, init: 0xffff, refin: true, xorout: 0 } };
}

/// Checks every slot of `table`: each of its tags has `tag_len` symbols of `alphabet`, and
/// lands on the slot by `reference` (the `crc` crate); the tags of all slots together are
/// every tag of that length, each once.
fn check_every_slot<const N: usize>(
    table: &SlotTable<'_, N>,
    reference: &'static Algorithm<u16>,
    alphabet: &[u8],
    tag_len: usize,
    slots: u16,
) {
    let reference = Crc::<u16>::new(reference);
    let mut seen = vec![false; alphabet.len().pow(tag_len as u32)];
    for slot in 0..slots {
        let mut count = 0;
        for tag in table.tags_for_slot(slot).unwrap() {
            let tag = tag.as_ref();
            assert_eq!(tag.len(), tag_len, "tag {tag:?}");
            assert_eq!(reference.checksum(tag) % slots, slot, "tag {tag:?}");
            let index = tag.iter().fold(0, |acc, b| {
                let position = alphabet.iter().position(|a| a == b);
                acc * alphabet.len() + position.expect("a symbol of the alphabet")
            });
            assert!(
                !std::mem::replace(&mut seen[index], true),
                "tag {tag:?} twice"
            );
            count += 1;
        }
        assert_eq!(count, table.tags_per_slot());
    }
    assert!(seen.iter().all(|&s| s), "some tag lands on no slot");
    assert!(table.tag_for_slot(slots).is_err());
}

#[test]
fn default_expansion() {
    insta::assert_snapshot!("slot_table_default", DEFAULT_SOURCE);
}

#[test]
fn default_every_slot() {
    check_every_slot(&DEFAULT, &CRC_16_XMODEM, b"@ABCDEFGHIJKLMNO", 4, 16384);
    // The seed vectors of the Redis Cluster derivation.
    assert_eq!(DEFAULT.base_slot(), 13881);
    assert_eq!(DEFAULT.tag_for_slot(0).unwrap().to_string(), "DLH@");
}

/// A table of no fields is the Redis Cluster table, as `slotgen derive` with no options:
/// the expansion of the explicit Redis Cluster table but for its name, and every slot by
/// the `crc` crate.
#[test]
fn no_fields_is_redis_cluster() {
    assert_eq!(REDIS_SOURCE.replace("REDIS", "DEFAULT"), DEFAULT_SOURCE);
    check_every_slot(&REDIS, &CRC_16_XMODEM, b"@ABCDEFGHIJKLMNO", 4, 16384);
}

/// The custom CRC parameters not given take the command line's defaults: checked against
/// the `crc` crate's catalogue CRCs of the same parameters.
#[test]
fn custom_crc_defaults_every_slot() {
    for (table, reference) in [
        (&POLY_ONLY, &CRC_16_UMTS),
        (&REFOUT_AS_REFIN, &CRC_16_MODBUS),
    ] {
        let tag_len = table.tag_len();
        check_every_slot(table, reference, b"@ABCDEFGHIJKLMNO", tag_len, 16384);
    }
}

#[test]
fn kermit_expansion() {
    insta::assert_snapshot!("slot_table_kermit", KERMIT_SOURCE);
}

#[test]
fn kermit_every_slot() {
    assert_eq!(KERMIT.crc_name(), "CRC-16/KERMIT");
    check_every_slot(&KERMIT, &CRC_16_KERMIT, b"@ABCDEFGHIJKLMNO", 4, 16384);
}

#[test]
fn orders_expansion() {
    insta::assert_snapshot!("slot_table_orders", ORDERS_SOURCE);
}

#[test]
fn orders_every_slot() {
    check_every_slot(&ORDERS, &CRC_16_MODBUS, b"01234567PQRSTUVW", 4, 16384);
}

#[test]
fn custom_crc_every_slot() {
    static PARAMETERS: Algorithm<u16> = Algorithm {
        width: 16,
        poly: 0x8bb7,
        init: 0x1234,
        refin: false,
        refout: true,
        xorout: 0x5555,
        check: 0, // not read by `Crc::checksum`
        residue: 0,
    };
    assert_eq!(CUSTOM.crc_name(), "custom");
    assert_eq!(CUSTOM.slots(), 1024);
    check_every_slot(
        &CUSTOM,
        &PARAMETERS,
        b"0123456789:;<=>?",
        CUSTOM.tag_len(),
        1024,
    );
    // 10 slot bits need at least 3 symbols of 4 bits.
    assert!(CUSTOM.tag_len() >= 3);
}

#[test]
fn const_expansion() {
    insta::assert_snapshot!("slot_table_const", FAST_SOURCE);
}

/// A `const` table gives the tags and slots of the `static` one of the same spec, by the
/// `crc` crate on every slot; its engine is its own, not the catalogue's static.
#[test]
fn const_tables_every_slot() {
    check_every_slot(&FAST, &CRC_16_KERMIT, b"@ABCDEFGHIJKLMNO", 4, 16384);
    for slot in 0..16384 {
        assert_eq!(FAST.tag_for_slot(slot), KERMIT.tag_for_slot(slot));
    }
    assert!(!std::ptr::eq(
        FAST.crc(),
        &slotgen_tables::catalog::CRC_16_KERMIT
    ));
    assert!(std::ptr::eq(
        KERMIT.crc(),
        &slotgen_tables::catalog::CRC_16_KERMIT
    ));
    assert_eq!(FAST_CUSTOM.crc_name(), "custom");
    for slot in 0..1024 {
        assert_eq!(FAST_CUSTOM.tag_for_slot(slot), CUSTOM.tag_for_slot(slot));
        let tag = FAST_CUSTOM.tag_for_slot(slot).unwrap();
        assert_eq!(FAST_CUSTOM.key_slot(tag.as_ref()), slot);
    }
    // Usable where a constant is required.
    const COPY: SlotTable<'static, 4> = FAST;
    assert_eq!(COPY.tag_for_slot(0), FAST.tag_for_slot(0));
}

#[test]
fn second_table_of_an_invocation_every_slot() {
    check_every_slot(&EIGHT, &CRC_16_XMODEM, b"pqrstuvw", 6, 16384);
}

#[test]
fn doc_comment_passes_through_or_is_generated() {
    assert!(KERMIT_SOURCE.contains("/// CRC-16/KERMIT, reflected in and out;"));
    assert!(!KERMIT_SOURCE.contains("Slot table:"));
    assert!(DEFAULT_SOURCE.contains("/// Slot table: CRC-16/XMODEM, 16384 slots"));
    assert!(ORDERS_SOURCE.contains("#[allow(dead_code)]\npub(crate) static ORDERS"));
}

slot_table! {
    /// redis-benchmark's table: the first alphanumeric tag of each slot, `0-9a-zA-Z` order.
    static BENCHMARK = {
        crc: "XMODEM",
        shortest: { charset: "alnum", order: "0-9a-zA-Z", max_len: 3 },
    };
    /// Two-digit tags over 1024 slots: most slots have none.
    static TWO_DIGITS = {
        crc: "CRC-16/KERMIT",
        slots: 1024,
        shortest: { charset: "digits", max_len: 2 },
        allow_gaps: true,
    };
}

/// The macro's shortest-tag tables: every entry lands on its slot by the `crc` crate, and
/// the table is the generator's, entry for entry (the generator's is pinned against
/// redis-benchmark's own table in `tests/shortest.rs`).
#[test]
fn shortest_tables_from_the_macro() {
    use slotgen::shortest::{shortest, Charset, ShortestSpec};

    let xmodem = Crc::<u16>::new(&CRC_16_XMODEM);
    let generated = shortest(&ShortestSpec::default()).unwrap();
    for slot in 0..16384u16 {
        let tag = BENCHMARK.tag_for_slot(slot).unwrap();
        assert_eq!(xmodem.checksum(tag) & 0x3fff, slot, "tag {tag:?}");
        assert_eq!(Some(tag), generated.tag(u32::from(slot)));
    }
    assert_eq!(BENCHMARK.gaps(), 0);

    let kermit = Crc::<u16>::new(&CRC_16_KERMIT);
    let mut found = 0;
    for slot in 0..1024u16 {
        if let Ok(tag) = TWO_DIGITS.tag_for_slot(slot) {
            assert!(
                tag.len() <= 2 && tag.iter().all(u8::is_ascii_digit),
                "{tag:?}"
            );
            assert_eq!(kermit.checksum(tag) & 0x3ff, slot, "tag {tag:?}");
            found += 1;
        }
    }
    // 110 strings of at most two digits, over 1024 slots: at most 110 slots have a tag.
    assert!(found > 0 && found <= 110, "{found}");
    assert_eq!(TWO_DIGITS.gaps(), 1024 - found);
    let kermit = slotgen::Spec {
        crc: CRC_16_KERMIT,
        slots: 1024,
        ..slotgen::Spec::default()
    };
    let spec = ShortestSpec {
        function: slotgen::scheme::SlotFunction::try_from(&kermit).unwrap(),
        charset: Charset::parse("digits").unwrap(),
        max_len: 2,
    };
    assert_eq!(shortest(&spec).unwrap().gaps().len(), 1024 - found);
}

slot_table! {
    /// Letters only, the alphabet chosen by slotgen inside `alnum`.
    static CHOSEN = { crc: "CRC-16/MODBUS", charset: "alnum" };
}

/// `charset:` picks the alphabet: the one `slotgen::charset::choose` picks, and every tag
/// of every slot lands there by the `crc` crate.
#[test]
fn charset_field_chooses_the_alphabet() {
    let alnum = slotgen::charset::Charset::parse("alnum").unwrap();
    let modbus = slotgen::Spec {
        crc: CRC_16_MODBUS,
        ..slotgen::Spec::default()
    };
    let choice = slotgen::charset::choose(&alnum, &modbus.into()).unwrap();
    assert_eq!(CHOSEN.alphabet(), choice.alphabet.symbols());
    assert_eq!(CHOSEN.tag_len(), choice.tag_len);
    assert!(CHOSEN.alphabet().iter().all(u8::is_ascii_alphanumeric));
    let modbus = Crc::<u16>::new(&CRC_16_MODBUS);
    for slot in 0..16384u16 {
        for tag in CHOSEN.tags_for_slot(slot).unwrap() {
            assert_eq!(modbus.checksum(tag.as_ref()) & 0x3fff, slot, "{tag}");
        }
    }
}
