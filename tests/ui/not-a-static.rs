slotgen_macros::slot_table! {
    const ORDERS = { crc: "CRC-16/XMODEM", alphabet: "@ABCDEFGHIJKLMNO" };
}

fn main() {}
