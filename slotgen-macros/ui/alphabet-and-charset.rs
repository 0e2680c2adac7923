slotgen_macros::slot_table! {
    static BOTH = { crc: "CRC-16/XMODEM", alphabet: "@ABCDEFGHIJKLMNO", charset: "alnum" };
}

fn main() {
    let _ = BOTH.tag_for_slot(0);
}
