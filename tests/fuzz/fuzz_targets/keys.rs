//! Hex keys, as `slot --hex` and `verify --keys --hex` read them, and their slots: the
//! runtime's `key_slot` and `Crc16` agree with the `crc` crate over the hashtag, and with the
//! hashtag rule of the Redis Cluster specification written again here.
#![no_main]

use libfuzzer_sys::fuzz_target;
use slotgen_tables::{hashtag, Crc16, REDIS_CLUSTER};

fn spec_hashtag(key: &[u8]) -> &[u8] {
    if let Some(open) = key.iter().position(|&b| b == b'{') {
        if let Some(len) = key[open + 1..].iter().position(|&b| b == b'}') {
            if len > 0 {
                return &key[open + 1..open + 1 + len];
            }
        }
    }
    key
}

fuzz_target!(|data: &[u8]| {
    let xmodem = crc::Crc::<u16>::new(&crc::CRC_16_XMODEM);
    let runtime = Crc16::new(&crc::CRC_16_XMODEM);
    let keys = slotgen::verify::tags_from_lines(data);
    for line in keys.iter().take(64) {
        let key = match hex::decode(line) {
            Ok(key) => key,
            Err(_) => line.clone(),
        };
        assert_eq!(hashtag(&key), spec_hashtag(&key));
        let expected = xmodem.checksum(spec_hashtag(&key)) & 0x3fff;
        assert_eq!(runtime.checksum(hashtag(&key)) & 0x3fff, expected);
        assert_eq!(REDIS_CLUSTER.key_slot(&key), expected);
    }
});
