slotgen_macros::slot_table! {
    static CODIS = { scheme: "codis", hash_tag: "{}" };
}

fn main() {
    let _ = CODIS.tag_for_slot(0);
}
