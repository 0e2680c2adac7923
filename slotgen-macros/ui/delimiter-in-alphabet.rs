slotgen_macros::slot_table! {
    // The default alphabet `@ABCDEFGHIJKLMNO` holds the delimiter `A`.
    static POOL = { scheme: "twemproxy-crc32a", slots: 3, hash_tag: "AB" };
}

fn main() {
    let _ = POOL.tag_for_slot(0);
}
