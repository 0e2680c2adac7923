slotgen_macros::slot_table! {
    static ORDERS = {
        crc: { poly: 0x18005, init: 0xffff, refin: true, refout: true, xorout: 0 },
        alphabet: "@ABCDEFGHIJKLMNO",
    };
}

fn main() {
    let _ = ORDERS.tag_for_slot(0);
}
