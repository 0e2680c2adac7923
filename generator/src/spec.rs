//! [`Spec`]: what to derive a table for.

use crc::Algorithm;

use crate::{catalog, Error};

/// The Redis Cluster alphabet of the seed derivation: 16 symbols `@` (0x40) to `O` (0x4f),
/// whose index is the low four bits.
pub const REDIS_CLUSTER_ALPHABET: &[u8] = b"@ABCDEFGHIJKLMNO";

/// The Redis Cluster slot count, from the Redis Cluster specification.
pub const REDIS_CLUSTER_SLOTS: u32 = 16384;

/// The choices that determine a table: the CRC, the alphabet, the tag length and the slot
/// count. The slot of a tag is `crc(tag) & (slots - 1)`.
///
/// `Spec::default()` is Redis Cluster: CRC-16/XMODEM, alphabet `@ABCDEFGHIJKLMNO`, 16384
/// slots, and `tag_len: None`, the shortest length that reaches every slot, which is 4
/// symbols here. The command-line tool has the same defaults. Changing the CRC keeps the
/// length automatic: CRC-16/MODBUS needs 5 symbols of this alphabet.
///
/// # Examples
///
/// ```
/// use slotgen::Spec;
///
/// let spec = Spec::default().with_crc("MODBUS").unwrap();
/// assert_eq!(spec.crc_name(), "CRC-16/MODBUS");
/// assert_eq!(spec.slots, 16384);
/// ```
#[derive(Clone, Debug)]
pub struct Spec {
    /// The CRC, in the RevEng model. Its width must be 16.
    pub crc: Algorithm<u16>,
    /// The symbols of a tag, in any order: `2^d` distinct bytes (`d` in `1..=7`) forming an
    /// affine subspace of GF(2)^8, without `{` or `}`.
    pub alphabet: Vec<u8>,
    /// Symbols per tag; `None` picks the shortest length whose tags reach every slot.
    pub tag_len: Option<usize>,
    /// The number of hash slots: a power of two from 2 to 65536.
    pub slots: u32,
}

impl Default for Spec {
    fn default() -> Self {
        Self {
            crc: crc::CRC_16_XMODEM,
            alphabet: REDIS_CLUSTER_ALPHABET.to_vec(),
            tag_len: None,
            slots: REDIS_CLUSTER_SLOTS,
        }
    }
}

impl Spec {
    /// This spec with the catalogue CRC of that name or alias (see [`catalog::find`]).
    ///
    /// # Errors
    ///
    /// [`Error::UnknownCrc`] when no catalogue CRC-16 has that name.
    pub fn with_crc(mut self, name: &str) -> Result<Self, Error> {
        self.crc = *catalog::find(name)?.algorithm;
        Ok(self)
    }

    /// The CRC's catalogue name, or `custom` when its parameters are no catalogue entry's.
    #[must_use]
    pub fn crc_name(&self) -> &'static str {
        catalog::name_of(&self.crc).unwrap_or("custom")
    }
}
