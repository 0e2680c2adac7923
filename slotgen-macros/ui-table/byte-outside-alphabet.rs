// A hand-built 2-slot table with a tag byte (`B`) that is not in its alphabet `@A`.
use slotgen_tables::{catalog, SlotTable};

static LOW: [[u8; 1]; 2] = [*b"@", *b"B"];
static OUTSIDE: SlotTable<'static, 1> =
    SlotTable::new(&catalog::CRC_16_XMODEM, "CRC-16/XMODEM", b"@A", 1, &LOW, &[[0]], &[]);

fn main() {
    let _ = OUTSIDE.tag_for_slot(0);
}
