// Every field error of a table is reported at once, and each table of an invocation on
// its own; the valid table still expands.
slotgen_macros::slot_table! {
    static ORDERS = { crc: "CRC-16/XMODEN", alphabet: "xyz{", colour: "blue" };
    static FINE = { crc: "CRC-16/XMODEM", alphabet: "@ABCDEFGHIJKLMNO" };
    static WIDE = { crc: "CRC-16/XMODEM", alphabet: "@ABCDEFGHIJKLMNO", tag_len: 3, slots: 3 };
}

fn main() {
    let _ = ORDERS.tag_for_slot(0);
    let _ = FINE.tag_for_slot(0);
    let _ = WIDE.tag_for_slot(0);
}
