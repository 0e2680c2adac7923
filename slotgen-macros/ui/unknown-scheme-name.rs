slotgen_macros::slot_table! {
    static VSHARD = { scheme: "tarantool-vshrad" };
}

fn main() {
    let _ = VSHARD.tag_for_slot(1);
}
