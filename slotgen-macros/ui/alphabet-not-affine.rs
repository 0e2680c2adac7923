slotgen_macros::slot_table! {
    static ORDERS = { crc: "CRC-16/XMODEM", alphabet: "0123456789abcdef" };
}

fn main() {
    let _ = ORDERS.tag_for_slot(0);
}
