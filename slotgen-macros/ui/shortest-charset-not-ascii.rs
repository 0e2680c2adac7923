slotgen_macros::slot_table! {
    static SHORT = { crc: "CRC-16/XMODEM", shortest: { charset: "[a-zé]", max_len: 3 } };
}

fn main() {
    let _ = SHORT.tag_for_slot(0);
}
