slotgen_macros::slot_table! {
    static TYPO = { crc: "CRC-16/XMODEM", alphabt: "@ABCDEFGHIJKLMNO" };
}

fn main() {
    let _ = TYPO.tag_for_slot(0);
}
