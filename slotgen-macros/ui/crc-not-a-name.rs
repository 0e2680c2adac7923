slotgen_macros::slot_table! {
    static ORDERS = { crc: 0x1021, alphabet: "@ABCDEFGHIJKLMNO" };
}

fn main() {
    let _ = ORDERS.tag_for_slot(0);
}
