slotgen_macros::slot_table! {
    static VSHARD = { schem: "tarantool-vshard", charset: "alnum" };
}

fn main() {
    let _ = VSHARD.tag_for_slot(0);
}
