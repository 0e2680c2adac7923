//! [`Spec`]: what to derive a table for.

use crc::Algorithm;

use crate::{catalog, Alphabet, Error};

/// The Redis Cluster alphabet of the seed derivation: 16 symbols `@` (0x40) to `O` (0x4f),
/// whose index is the low four bits.
pub const REDIS_CLUSTER_ALPHABET: &[u8] = b"@ABCDEFGHIJKLMNO";

/// The Redis Cluster slot count, from the Redis Cluster specification.
pub use slotgen_tables::REDIS_CLUSTER_SLOTS;

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
#[derive(Clone, Debug, PartialEq, Eq)]
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
    /// Checks every part of the spec but the tag length, which depends on the rank: the CRC
    /// ([`check_crc`]), the slot count ([`SlotCount::new`]) and the alphabet
    /// ([`Alphabet::new`]). Every entry point (derivation, charset choice, shortest tags,
    /// verification, the macro, the build.rs API) checks a spec through this function or
    /// the two it is made of.
    ///
    /// # Errors
    ///
    /// As [`check_crc`], [`SlotCount::new`] and [`Alphabet::new`].
    pub fn check(&self) -> Result<(Alphabet, SlotCount), Error> {
        check_crc(&self.crc)?;
        let slots = SlotCount::new(u64::from(self.slots))?;
        Ok((Alphabet::new(&self.alphabet)?, slots))
    }

    /// This spec with the catalogue CRC of that name or alias (see [`catalog::find`]).
    ///
    /// # Errors
    ///
    /// [`Error::UnknownCrc`] when no catalogue CRC-16 has that name.
    pub fn with_crc(mut self, name: &str) -> Result<Self, Error> {
        self.crc = *crate::crc_catalog::find_crc16(name)?.algorithm;
        Ok(self)
    }

    /// The CRC's catalogue name, or `custom` when its parameters are no catalogue entry's.
    #[must_use]
    pub fn crc_name(&self) -> &'static str {
        catalog::name_of(&self.crc).unwrap_or("custom")
    }
}

/// Checks that `crc` is a CRC-16 whose parameters give its stated check value, the CRC of
/// `"123456789"` (the CRC catalogue's `check`), so that a typo in a parameter is caught
/// before anything is derived from it.
///
/// # Errors
///
/// - [`Error::UnsupportedWidth`] when `width` is not 16.
/// - [`Error::EvenPoly`] when `poly` is even and `refout` false: without the x^0 term, each
///   input byte leaves the register's low bits (as many as the polynomial's trailing zero
///   bits, up to 8) zero, so the CRC's low bits, the slot's, are the same for every input.
///   (With `refout`, those constant bits are the high bits, and the slot count decides.)
/// - [`Error::CheckMismatch`] when the parameters compute another check value.
///
/// # Examples
///
/// ```
/// let mut crc = crc::CRC_16_XMODEM;
/// assert!(slotgen::spec::check_crc(&crc).is_ok());
/// crc.init = 0xffff; // CRC-16/IBM-3740's parameters with XMODEM's check value
/// assert!(slotgen::spec::check_crc(&crc).is_err());
/// ```
pub fn check_crc(crc: &Algorithm<u16>) -> Result<(), Error> {
    if crc.width != 16 {
        return Err(Error::UnsupportedWidth { width: crc.width });
    }
    if crc.poly % 2 == 0 && !crc.refout {
        return Err(Error::EvenPoly { poly: crc.poly });
    }
    let computed = catalog::reference_crc(crc).checksum(b"123456789");
    if computed != crc.check {
        return Err(Error::CheckMismatch {
            computed,
            stated: crc.check,
        });
    }
    Ok(())
}

/// A number of hash slots, checked: a power of two from 2 to 65536, so that the slot of a
/// key is the CRC's low [`bits`](Self::bits) bits. This type's constructor is the one place
/// that rule lives.
///
/// # Examples
///
/// ```
/// use slotgen::spec::SlotCount;
///
/// let slots = SlotCount::new(16384)?;
/// assert_eq!((slots.get(), slots.bits(), slots.mask()), (16384, 14, 0x3fff));
/// assert!(SlotCount::new(3000).is_err());
/// # Ok::<(), slotgen::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SlotCount(u32);

impl SlotCount {
    /// Redis Cluster's 16384 slots.
    pub const REDIS_CLUSTER: Self = Self(REDIS_CLUSTER_SLOTS);

    /// `slots`, when it is a power of two from 2 to 65536.
    ///
    /// # Errors
    ///
    /// [`Error::SlotCount`] otherwise.
    pub fn new(slots: u64) -> Result<Self, Error> {
        u32::try_from(slots)
            .ok()
            .filter(|s| (2..=65536).contains(s) && s.is_power_of_two())
            .map(Self)
            .ok_or(Error::SlotCount { slots })
    }

    /// The number of slots; a slot is in `0..get()`.
    #[must_use]
    pub const fn get(self) -> u32 {
        self.0
    }

    /// `log2` of the slot count: the slot's bits.
    #[must_use]
    pub const fn bits(self) -> u32 {
        self.0.trailing_zeros()
    }

    /// `slots - 1`: the mask that keeps a slot's bits of a CRC.
    #[must_use]
    pub const fn mask(self) -> u16 {
        // at most 65536 slots, so the mask fits 16 bits
        (self.0 - 1) as u16
    }
}
