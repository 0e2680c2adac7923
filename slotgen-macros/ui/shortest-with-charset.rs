slotgen_macros::slot_table! {
    static MIXED = {
        crc: "CRC-16/XMODEM",
        charset: "alnum",
        shortest: { charset: "alnum", max_len: 3 },
    };
}

fn main() {
    let _ = MIXED.tag_for_slot(0);
}
