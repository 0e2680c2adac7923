slotgen_macros::slot_table! {
    static ORDERS = {
        crc: { init: 0xffff, refin: true },
        alphabet: "@ABCDEFGHIJKLMNO",
    };
}

fn main() {
    let _ = ORDERS.tag_for_slot(0);
}
