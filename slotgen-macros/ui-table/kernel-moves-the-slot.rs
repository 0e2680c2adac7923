// A hand-built 2-slot table of 2-symbol tags over `@A`: the right tags, but a kernel entry
// (flip the first symbol) that moves the slot, so `tags_for_slot` would list wrong tags.
use slotgen_tables::{catalog, SlotTable};

static LOW: [[u8; 2]; 2] = [*b"@@", *b"A@"];
static KERNEL: [[u8; 2]; 1] = [[0x01, 0x00]];
static MOVING: SlotTable<'static, 2> =
    SlotTable::new(&catalog::CRC_16_XMODEM, "CRC-16/XMODEM", b"@A", 2, &LOW, &[[0, 0]], &KERNEL);

fn main() {
    let _ = MOVING.tag_for_slot(0);
}
