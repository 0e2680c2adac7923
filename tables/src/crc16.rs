//! A table-driven CRC-16 engine for any algorithm of the RevEng model.

use crc::Algorithm;

/// A CRC-16 of the RevEng model (`width` 16, `poly`, `init`, `refin`, `refout`, `xorout`),
/// with its 256-entry lookup table built at compile time.
///
/// This is the runtime's own CRC, so that [`SlotTable::key_slot`](crate::SlotTable::key_slot)
/// does not depend on how another crate computes it; slotgen's verifier checks it against the
/// `crc` crate.
///
/// # Examples
///
/// ```
/// use slotgen_tables::{crc::CRC_16_XMODEM, Crc16};
///
/// static XMODEM: Crc16 = Crc16::new(&CRC_16_XMODEM);
/// assert_eq!(XMODEM.checksum(b"123456789"), 0x31c3); // the catalogue check value
/// ```
#[derive(Clone, Debug)]
pub struct Crc16 {
    algorithm: Algorithm<u16>,
    /// Entry `i`: the register after feeding byte `i` into a zero register. For a reflected
    /// algorithm (`refin`) the table is built for the reflected register.
    table: [u16; 256],
}

impl Crc16 {
    /// Builds the engine for `algorithm`, at compile time when used in a `const` or `static`.
    ///
    /// # Panics
    ///
    /// When `algorithm.width` is not 16 (at compile time, in a `const` or `static`).
    #[must_use]
    pub const fn new(algorithm: &Algorithm<u16>) -> Self {
        assert!(
            algorithm.width == 16,
            "Crc16 takes CRC algorithms of width 16"
        );
        let mut table = [0u16; 256];
        let mut i = 0;
        while i < 256 {
            let mut reg: u16;
            if algorithm.refin {
                let poly = algorithm.poly.reverse_bits();
                reg = i as u16;
                let mut bit = 0;
                while bit < 8 {
                    reg = if reg & 1 != 0 {
                        (reg >> 1) ^ poly
                    } else {
                        reg >> 1
                    };
                    bit += 1;
                }
            } else {
                reg = (i as u16) << 8;
                let mut bit = 0;
                while bit < 8 {
                    reg = if reg & 0x8000 != 0 {
                        (reg << 1) ^ algorithm.poly
                    } else {
                        reg << 1
                    };
                    bit += 1;
                }
            }
            table[i] = reg;
            i += 1;
        }
        Self {
            algorithm: *algorithm,
            table,
        }
    }

    /// The algorithm's parameters.
    #[must_use]
    pub const fn algorithm(&self) -> &Algorithm<u16> {
        &self.algorithm
    }

    /// The 256-entry lookup table: entry `i` is the register after feeding byte `i` into a
    /// zero register, for the reflected register when the algorithm is `refin`. Code
    /// generators emit it.
    ///
    /// # Examples
    ///
    /// ```
    /// use slotgen_tables::{crc::CRC_16_XMODEM, Crc16};
    ///
    /// assert_eq!(Crc16::new(&CRC_16_XMODEM).table()[1], 0x1021); // the polynomial
    /// ```
    #[must_use]
    pub const fn table(&self) -> &[u16; 256] {
        &self.table
    }

    /// The CRC of `bytes`.
    #[must_use]
    pub fn checksum(&self, bytes: &[u8]) -> u16 {
        let alg = &self.algorithm;
        let mut reg = if alg.refin {
            alg.init.reverse_bits()
        } else {
            alg.init
        };
        if alg.refin {
            for &b in bytes {
                reg = (reg >> 8) ^ self.table[usize::from((reg as u8) ^ b)];
            }
        } else {
            for &b in bytes {
                reg = (reg << 8) ^ self.table[usize::from(((reg >> 8) as u8) ^ b)];
            }
        }
        if alg.refin != alg.refout {
            reg = reg.reverse_bits();
        }
        reg ^ alg.xorout
    }
}
