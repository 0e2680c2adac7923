//! `SlotTable::tag_from_mask` (two 16-byte words per tag) against a symbol-by-symbol reading
//! of the mask, for every symbol width and tag lengths up to `MAX_TAG_LEN`.

use slotgen_tables::{crc::CRC_16_XMODEM, Crc16, SlotTable, MAX_TAG_LEN};

/// Symbol `k` is bits `bits * k ..` of the mask (see `Mask`), as an alphabet index.
fn by_hand(alphabet: &[u8], bits: u32, tag_len: usize, mask: u64) -> Vec<u8> {
    (0..tag_len)
        .map(|k| {
            let shift = bits as usize * k;
            let index = if shift < 64 {
                (mask >> shift) & ((1 << bits) - 1)
            } else {
                0
            };
            alphabet[index as usize]
        })
        .collect()
}

#[test]
fn every_width_and_length_reads_the_mask_symbol_by_symbol() {
    let symbols: Vec<u8> = (0x20..0xb0).filter(|&b| b != b'{' && b != b'}').collect();
    let mut state = 0x1234_5678_9abc_def0u64;
    let mut checked = 0;
    for bits in 1..=7u32 {
        let alphabet = &symbols[..1 << bits];
        for tag_len in 1..=MAX_TAG_LEN {
            let table: SlotTable<'_, u64> = SlotTable {
                crc: Crc16::new(&CRC_16_XMODEM),
                crc_name: "CRC-16/XMODEM",
                slots: 2,
                alphabet,
                symbol_bits: bits,
                tag_len,
                base_slot: 0,
                low_bits: 1,
                low: &[0, 1],
                high: &[0],
                kernel: &[],
            };
            for _ in 0..64 {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let tag = table.tag_from_mask(state);
                assert_eq!(tag.len(), tag_len);
                assert_eq!(
                    tag.as_ref(),
                    by_hand(alphabet, bits, tag_len, state).as_slice(),
                    "{bits} bits, {tag_len} symbols, mask {state:#x}"
                );
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 7 * MAX_TAG_LEN * 64);
}
