slotgen_macros::slot_table! {
    static VSHARD = {
        scheme: "tarantool-vshard",
        crc: "CRC-16/XMODEM",
        shortest: { charset: "alnum", max_len: 3 },
    };
}

fn main() {
    let _ = VSHARD.tag_for_slot(1);
}
