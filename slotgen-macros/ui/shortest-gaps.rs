slotgen_macros::slot_table! {
    static DIGITS = { crc: "CRC-16/XMODEM", shortest: { charset: "digits", max_len: 2 } };
}

fn main() {
    let _ = DIGITS.tag_for_slot(0);
}
