slotgen_macros::slot_table! {
    static VBUCKETS = { scheme: "couchbase", slots: 0 };
}

fn main() {
    let _ = VBUCKETS.tag_for_slot(0);
}
