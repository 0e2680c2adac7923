// placeholder, regenerated below
use crate::{crc::CRC_16_XMODEM, Crc16, SlotTable};
/// placeholder
pub static REDIS_CLUSTER: SlotTable<'static, u16> = SlotTable {
    crc: Crc16::new(&CRC_16_XMODEM), crc_name: "CRC-16/XMODEM", slots: 16384, alphabet: b"@ABCDEFGHIJKLMNO",
    symbol_bits: 4, tag_len: 4, base_slot: 13881, low_bits: 7, low: &[0; 128], high: &[0; 128], kernel: &[],
};
