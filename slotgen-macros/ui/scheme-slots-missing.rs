slotgen_macros::slot_table! {
    static PARTITIONS = { scheme: "librdkafka" };
}

fn main() {
    let _ = PARTITIONS.tag_for_slot(0);
}
