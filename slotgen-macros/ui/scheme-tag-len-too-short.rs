slotgen_macros::slot_table! {
    static VSHARD = { scheme: "tarantool-vshard", tag_len: 8 };
}

fn main() {
    let _ = VSHARD.tag_for_slot(1);
}
