slotgen_macros::slot_table! {
    static CODIS = { scheme: "codis", crc: "CRC-16/XMODEM" };
}

fn main() {
    let _ = CODIS.tag_for_slot(0);
}
