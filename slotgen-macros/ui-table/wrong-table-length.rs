// A hand-built table whose `low` (3 entries) is not a power of two.
use slotgen_tables::{catalog, SlotTable};

static LOW: [[u8; 1]; 3] = [*b"@", *b"A", *b"@"];
static SHAPELESS: SlotTable<'static, 1> =
    SlotTable::new(&catalog::CRC_16_XMODEM, "CRC-16/XMODEM", b"@A", 1, &LOW, &[[0]], &[]);

fn main() {
    let _ = SHAPELESS.tag_for_slot(0);
}
