slotgen_macros::slot_table! {
    static ORDERS = { crc: "CRC-16/XMODEM", alphabet: "@ABCDEFGHIJKLMNO", slots: 131072 };
}

fn main() {
    let _ = ORDERS.tag_for_slot(0);
}
