//! `SlotTable::tag_from_mask` and `mask_for_slot`'s numbering against a symbol-by-symbol
//! reading of the mask, for every symbol width and every tag length up to the longest
//! (`MAX_TAG_LEN` symbols, at most `MAX_MASK_BITS` bits).

use slotgen_tables::{catalog, SlotTable, MAX_MASK_BITS, MAX_TAG_LEN};

/// Symbol `k` is bits `bits * k ..` of the mask, as an alphabet index.
fn by_hand(alphabet: &[u8], bits: u32, tag_len: usize, mask: u64) -> Vec<u8> {
    (0..tag_len)
        .map(|k| alphabet[((mask >> (bits as usize * k)) & ((1 << bits) - 1)) as usize])
        .collect()
}

#[test]
fn every_width_and_length_reads_the_mask_symbol_by_symbol() {
    let symbols: Vec<u8> = (0x20..0xb0).filter(|&b| b != b'{' && b != b'}').collect();
    let mut state = 0x1234_5678_9abc_def0u64;
    let mut checked = 0;
    for bits in 1..=7u32 {
        let alphabet = &symbols[..1 << bits];
        for tag_len in 1..=MAX_TAG_LEN.min(MAX_MASK_BITS / bits as usize) {
            // `tag_from_mask` reads only the alphabet and the tag length: a table of the
            // right shape, whose content is not used.
            let table = SlotTable::<MAX_TAG_LEN>::new_unverified(
                &catalog::CRC_16_XMODEM,
                "CRC-16/XMODEM",
                alphabet,
                tag_len,
                &[[0; MAX_TAG_LEN]; 2],
                &[[0; MAX_TAG_LEN]; 1],
                &[],
            );
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
                assert!(tag.to_array()[tag_len..].iter().all(|&b| b == 0));
                checked += 1;
            }
        }
    }
    // 32 lengths for 1 and 2 bits, then 21, 16, 12, 10, 9.
    assert_eq!(checked, (32 + 32 + 21 + 16 + 12 + 10 + 9) * 64);
}
