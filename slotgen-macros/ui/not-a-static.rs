slotgen_macros::slot_table! {
    let ORDERS = { crc: "CRC-16/XMODEM", alphabet: "@ABCDEFGHIJKLMNO" };
}

fn main() {}
