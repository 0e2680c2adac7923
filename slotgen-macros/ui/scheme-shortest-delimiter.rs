slotgen_macros::slot_table! {
    static POOL = {
        scheme: "twemproxy-crc32a",
        slots: 3,
        hash_tag: "::",
        shortest: { charset: "[0-9:]", max_len: 2 },
    };
}

fn main() {
    let _ = POOL.tag_for_slot(0);
}
