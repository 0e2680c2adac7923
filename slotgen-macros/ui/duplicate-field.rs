slotgen_macros::slot_table! {
    static ORDERS = {
        crc: "CRC-16/XMODEM",
        alphabet: "@ABCDEFGHIJKLMNO",
        crc: "CRC-16/MODBUS",
    };
}

fn main() {
    let _ = ORDERS.tag_for_slot(0);
}
