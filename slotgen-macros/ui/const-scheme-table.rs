slotgen_macros::slot_table! {
    const VSHARD = { scheme: "tarantool-vshard" };
}

fn main() {
    let _ = VSHARD.tag_for_slot(1);
}
