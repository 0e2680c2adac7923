slotgen_macros::slot_table! {
    static MIXED = {
        crc: "CRC-16/XMODEM",
        alphabet: "@ABCDEFGHIJKLMNO",
        shortest: { charset: "alnum", order: "0-9a-z" },
    };
}

fn main() {
    let _ = MIXED.tag_for_slot(0);
}
