//! The runtime's lookups on tables built through the public constructor (the struct's public
//! fields) with arbitrary contents inside the documented field rules: never a panic, and
//! every key built for a slot holds the tag asked for.
#![no_main]

use libfuzzer_sys::fuzz_target;
use slotgen_tables::{Crc16, SlotTable, MAX_TAG_LEN};

fuzz_target!(
    |input: (u8, u8, u8, u16, Vec<u16>, u16, [u8; 128], &[u8])| {
        let (slot_bits, symbol_bits, tag_len, base_slot, masks, slot, alphabet, key) = input;
        let slot_bits = 1 + u32::from(slot_bits) % 16;
        let symbol_bits = 1 + u32::from(symbol_bits) % 7;
        let tag_len = 1 + usize::from(tag_len) % MAX_TAG_LEN;
        let low_bits = slot_bits.div_ceil(2);
        let high_bits = slot_bits - low_bits;
        let need = (1usize << low_bits) + (1usize << high_bits);
        let mut masks = masks;
        masks.resize(need + 3, 0);
        let (low, rest) = masks.split_at(1 << low_bits);
        let (high, kernel) = rest.split_at(1 << high_bits);
        // the alphabet: 2^symbol_bits distinct bytes, no brace
        let mut symbols: Vec<u8> = Vec::new();
        for b in alphabet.iter().copied().chain(0u8..=255) {
            if symbols.len() == 1 << symbol_bits {
                break;
            }
            if b != b'{' && b != b'}' && !symbols.contains(&b) {
                symbols.push(b);
            }
        }
        symbols.sort_unstable();
        let table: SlotTable<'_, u16> = SlotTable {
            crc: Crc16::new(&crc::CRC_16_XMODEM),
            crc_name: "CRC-16/XMODEM",
            slots: 1 << slot_bits,
            alphabet: &symbols,
            symbol_bits,
            tag_len,
            base_slot: base_slot & ((1 << slot_bits) - 1) as u16,
            low_bits,
            low,
            high,
            kernel,
        };
        let _ = table.key_slot(key);
        let _ = table.mask_for_slot(slot);
        if let Ok(tag) = table.tag_for_slot(slot) {
            assert_eq!(tag.as_ref().len(), tag_len);
            if let Ok(built) = table.key_for_slot(b"p:", slot, b":s") {
                let inner = &built[3..3 + tag_len];
                assert_eq!(inner, tag.as_ref());
            }
            let mut buf = [0u8; 8];
            let _ = table.write_key_for_slot(b"p:", slot, b":s", &mut buf);
        }
        if let Ok(tags) = table.tags_for_slot(slot) {
            for t in tags.take(8) {
                assert_eq!(t.as_ref().len(), tag_len);
            }
        }
        let _ = table.tag_from_mask(u64::from(base_slot));
    }
);
