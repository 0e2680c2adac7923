slotgen_macros::slot_table! {
    static CODIS = { scheme: "codis", crc: { poly: 0x1021 } };
}

fn main() {
    let _ = CODIS.tag_for_slot(0);
}
