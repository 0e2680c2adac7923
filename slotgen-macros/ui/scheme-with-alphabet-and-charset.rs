slotgen_macros::slot_table! {
    static CODIS = { scheme: "codis", alphabet: "@ABCDEFGHIJKLMNO", charset: "alnum" };
}

fn main() {
    let _ = CODIS.tag_for_slot(0);
}
