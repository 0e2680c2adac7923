slotgen_macros::slot_table! {
    static CHOSEN = { crc: "CRC-16/XMODEM", charset: "alnum", slots: 3 };
}

fn main() {
    let _ = CHOSEN.tag_for_slot(0);
}
