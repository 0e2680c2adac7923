//! The runtime's public constructor and lookups: `SlotTable::try_new` over arbitrary parts
//! never panics (it accepts a consistent table or says why not), and every lookup on a table
//! it accepts, and on the ready `REDIS_CLUSTER` table, never panics; a key built for a slot
//! holds the tag asked for, and lands on that slot.
#![no_main]

use libfuzzer_sys::fuzz_target;
use slotgen_tables::{catalog, SlotTable, REDIS_CLUSTER};

/// The tag width of the tables built here: tags of up to 8 symbols.
const N: usize = 8;

fn exercise<const W: usize>(table: &SlotTable<'_, W>, slot: u16, key: &[u8]) {
    let _ = table.key_slot(key);
    let _ = table.mask_for_slot(slot);
    if let Ok(tag) = table.tag_for_slot(slot) {
        assert_eq!(tag.as_ref().len(), table.tag_len());
        if let Ok(built) = table.key_for_slot(b"p:", slot, b":s") {
            assert_eq!(&built[3..3 + table.tag_len()], tag.as_ref());
            assert_eq!(table.key_slot(&built), slot);
        }
        let mut buf = [0u8; 8];
        let _ = table.write_key_for_slot(b"p:", slot, b":s", &mut buf);
    }
    if let Ok(tags) = table.tags_for_slot(slot) {
        for t in tags.take(8) {
            assert_eq!(t.as_ref().len(), table.tag_len());
        }
    }
    let _ = table.tag_from_mask(u64::from(slot));
}

fuzz_target!(|input: (u8, u8, u8, Vec<[u8; N]>, u16, Vec<u8>, &[u8])| {
    let (low_len, high_len, tag_len, entries, slot, alphabet, key) = input;
    exercise(&REDIS_CLUSTER, slot, key);
    // arbitrary parts, split into low, high and kernel
    let low_len = usize::from(low_len).min(entries.len());
    let high_len = usize::from(high_len).min(entries.len() - low_len);
    let (low, rest) = entries.split_at(low_len);
    let (high, kernel) = rest.split_at(high_len);
    let tag_len = usize::from(tag_len) % (N + 2);
    if let Ok(table) = SlotTable::<'_, N>::try_new(
        &catalog::CRC_16_XMODEM,
        "CRC-16/XMODEM",
        &alphabet,
        tag_len,
        low,
        high,
        kernel,
    ) {
        exercise(&table, slot, key);
    }
});
