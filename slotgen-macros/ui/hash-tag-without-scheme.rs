slotgen_macros::slot_table! {
    static ORDERS = { crc: "CRC-16/XMODEM", hash_tag: "{}" };
}

fn main() {
    let _ = ORDERS.tag_for_slot(0);
}
