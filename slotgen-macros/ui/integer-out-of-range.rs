slotgen_macros::slot_table! {
    static HUGE = {
        crc: "CRC-16/XMODEM",
        alphabet: "@ABCDEFGHIJKLMNO",
        tag_len: 99999999999999999999999,
        slots: 99999999999999999999999,
    };
}

fn main() {
    let _ = HUGE.tag_for_slot(0);
}
