// A hand-built 2-slot table whose two tags are swapped: `@` lands on slot 0 and `A` on
// slot 1, so this table would give each slot the other's tag.
use slotgen_tables::{catalog, SlotTable};

static LOW: [[u8; 1]; 2] = [*b"A", *b"@"];
static SWAPPED: SlotTable<'static, 1> =
    SlotTable::new(&catalog::CRC_16_XMODEM, "CRC-16/XMODEM", b"@A", 1, &LOW, &[[0]], &[]);

fn main() {
    let _ = SWAPPED.tag_for_slot(0);
}
