//! A table-driven CRC-16 engine for any algorithm of the RevEng model.
//!
//! Two portable paths, chosen by length: keys shorter than [`Crc16::SLICE_LEN`] bytes go one
//! byte per table load (the fastest for a few bytes), longer ones 16 bytes per step with 16
//! tables ("slice-by-16"), then the tail byte by byte. With the `simd` feature, keys of
//! [`Crc16::SIMD_MIN_LEN`] bytes or more of a catalogue algorithm go to the `crc-fast`
//! crate's carry-less multiplication folding, which is faster from about that length on.

use core::fmt;

use crc::Algorithm;

const SLICE_LEN: usize = 16;

/// A CRC-16 of the RevEng model (`width` 16, `poly`, `init`, `refin`, `refout`, `xorout`),
/// with its lookup tables (16 tables of 256 `u16`, 8 KiB) built at compile time: 8,206
/// bytes (8,208 with the `simd` feature). Tables borrow one shared `static` per algorithm
/// ([`catalog`](crate::catalog) for the catalogue's).
///
/// This is the runtime's own CRC, so that [`SlotTable::key_slot`](crate::SlotTable::key_slot)
/// does not depend on how another crate computes it; slotgen's verifier checks it against the
/// `crc` crate, and slotgen's tests check every path (byte, slice-by-16, SIMD) against it on
/// every catalogue CRC and every length from 0 to 300 bytes.
///
/// # Examples
///
/// ```
/// use slotgen_tables::{crc::CRC_16_XMODEM, Crc16};
///
/// static XMODEM: Crc16 = Crc16::new(&CRC_16_XMODEM);
/// assert_eq!(XMODEM.checksum(b"123456789"), 0x31c3); // the catalogue check value
/// ```
#[derive(Clone)]
pub struct Crc16 {
    algorithm: Algorithm<u16>,
    /// `tables[k][b]`: the register after feeding byte `b` and then `k` zero bytes into a
    /// zero register. For a reflected algorithm (`refin`) the tables are built for the
    /// reflected register. `tables[0]` is the classic byte table.
    tables: [[u16; 256]; SLICE_LEN],
    /// The `crc-fast` algorithm with the same parameters, when there is one.
    #[cfg(feature = "simd")]
    simd: Option<crc_fast::CrcAlgorithm>,
}

impl Crc16 {
    /// Bytes per step of the slice-by-16 path: keys of at least this length take it.
    pub const SLICE_LEN: usize = SLICE_LEN;

    /// With the `simd` feature, keys of at least this many bytes of a catalogue algorithm go
    /// to the `crc-fast` crate (measured: below it, slice-by-16 is as fast or faster, because
    /// the SIMD path has a fixed cost of some 20 ns).
    pub const SIMD_MIN_LEN: usize = 256;

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
        let mut tables = [[0u16; 256]; SLICE_LEN];
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
            tables[0][i] = reg;
            i += 1;
        }
        // One more zero byte after `tables[k - 1][b]`: one byte step with input byte 0.
        let mut k = 1;
        while k < SLICE_LEN {
            let mut b = 0;
            while b < 256 {
                let prev = tables[k - 1][b];
                tables[k][b] = if algorithm.refin {
                    (prev >> 8) ^ tables[0][(prev & 0xff) as usize]
                } else {
                    (prev << 8) ^ tables[0][(prev >> 8) as usize]
                };
                b += 1;
            }
            k += 1;
        }
        Self {
            algorithm: *algorithm,
            tables,
            #[cfg(feature = "simd")]
            simd: simd::find(algorithm),
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
        &self.tables[0]
    }

    /// The CRC of `bytes`.
    #[must_use]
    #[inline]
    pub fn checksum(&self, bytes: &[u8]) -> u16 {
        if bytes.len() < SLICE_LEN {
            return self.finish(self.update_bytes(self.start(), bytes));
        }
        #[cfg(feature = "simd")]
        if bytes.len() >= Self::SIMD_MIN_LEN {
            if let Some(fast) = self.checksum_simd(bytes) {
                return fast;
            }
        }
        self.finish(self.update_portable(self.start(), bytes))
    }

    /// The CRC of `key`'s [`hashtag`](crate::hashtag): what
    /// [`SlotTable::key_slot`](crate::SlotTable::key_slot) masks to a slot. The same value as
    /// `self.checksum(hashtag(key))`, faster for keys shorter than [`Crc16::SLICE_LEN`]
    /// bytes: one pass feeds each byte to the CRC while looking for the `{`, instead of a
    /// scan and then a CRC, and the choice between reflected and plain registers is made
    /// once per key rather than per step. Longer keys are scanned first (with `memchr` from
    /// 32 bytes on) and then take [`checksum`](Self::checksum).
    ///
    /// # Examples
    ///
    /// ```
    /// use slotgen_tables::{catalog::CRC_16_XMODEM, hashtag};
    ///
    /// assert_eq!(CRC_16_XMODEM.key_checksum(b"{123456789}x"), 0x31c3);
    /// let key = b"a{}b";
    /// assert_eq!(CRC_16_XMODEM.key_checksum(key), CRC_16_XMODEM.checksum(hashtag(key)));
    /// ```
    #[must_use]
    #[inline]
    pub fn key_checksum(&self, key: &[u8]) -> u16 {
        if key.len() >= SLICE_LEN {
            return self.checksum(crate::hashtag(key));
        }
        if self.algorithm.refin {
            self.short_key::<true>(key)
        } else {
            self.short_key::<false>(key)
        }
    }

    /// [`key_checksum`](Self::key_checksum) of a key shorter than `SLICE_LEN`, in one pass.
    #[inline(always)]
    fn short_key<const REFIN: bool>(&self, key: &[u8]) -> u16 {
        let table = &self.tables[0];
        let step = |reg: u16, b: u8| {
            if REFIN {
                (reg >> 8) ^ table[usize::from((reg as u8) ^ b)]
            } else {
                (reg << 8) ^ table[usize::from(((reg >> 8) as u8) ^ b)]
            }
        };
        let start = self.start();
        let mut reg = start;
        for (i, &b) in key.iter().enumerate() {
            if b == b'{' {
                let rest = &key[i + 1..];
                return match rest.iter().position(|&c| c == b'}') {
                    // The hashtag: the CRC starts again on it.
                    Some(close) if close > 0 => {
                        self.finish(rest[..close].iter().fold(start, |r, &b| step(r, b)))
                    }
                    // No hashtag: the whole key, whose first `i` bytes are in `reg`.
                    _ => self.finish(key[i..].iter().fold(reg, |r, &b| step(r, b))),
                };
            }
            reg = step(reg, b);
        }
        self.finish(reg)
    }

    /// The CRC of `bytes` one byte per step, in a `const` context (the byte path, written
    /// for const evaluation). [`SlotTable::new`](crate::SlotTable::new) checks tables with it
    /// at compile time.
    ///
    /// # Examples
    ///
    /// ```
    /// use slotgen_tables::catalog::CRC_16_XMODEM;
    ///
    /// const CHECK: u16 = CRC_16_XMODEM.const_checksum(b"123456789");
    /// assert_eq!(CHECK, 0x31c3);
    /// ```
    #[must_use]
    pub const fn const_checksum(&self, bytes: &[u8]) -> u16 {
        let a = &self.algorithm;
        let table = &self.tables[0];
        let mut reg = if a.refin {
            a.init.reverse_bits()
        } else {
            a.init
        };
        let mut i = 0;
        while i < bytes.len() {
            let b = bytes[i];
            reg = if a.refin {
                (reg >> 8) ^ table[((reg as u8) ^ b) as usize]
            } else {
                (reg << 8) ^ table[(((reg >> 8) as u8) ^ b) as usize]
            };
            i += 1;
        }
        if a.refin != a.refout {
            reg = reg.reverse_bits();
        }
        reg ^ a.xorout
    }

    /// The CRC of `bytes` one byte per step, whatever its length: the byte path alone.
    /// [`checksum`](Self::checksum) gives the same value; this exists so that tests and
    /// benches can reach each path.
    #[must_use]
    pub fn checksum_bytewise(&self, bytes: &[u8]) -> u16 {
        self.finish(self.update_bytes(self.start(), bytes))
    }

    /// The CRC of `bytes` by the portable paths only (slice-by-16, then byte by byte), even
    /// with the `simd` feature.
    #[must_use]
    pub fn checksum_portable(&self, bytes: &[u8]) -> u16 {
        self.finish(self.update_portable(self.start(), bytes))
    }

    /// The CRC of `bytes` by the `crc-fast` crate, whatever its length, or `None` when this
    /// algorithm has no `crc-fast` counterpart (parameters outside the catalogue).
    #[cfg(feature = "simd")]
    #[must_use]
    pub fn checksum_simd(&self, bytes: &[u8]) -> Option<u16> {
        // A CRC-16 of `crc-fast` is below 2^16.
        self.simd.map(|fast| crc_fast::checksum(fast, bytes) as u16)
    }

    /// The register before the first byte.
    #[inline]
    fn start(&self) -> u16 {
        if self.algorithm.refin {
            self.algorithm.init.reverse_bits()
        } else {
            self.algorithm.init
        }
    }

    /// The CRC from the register after the last byte.
    #[inline]
    fn finish(&self, mut reg: u16) -> u16 {
        if self.algorithm.refin != self.algorithm.refout {
            reg = reg.reverse_bits();
        }
        reg ^ self.algorithm.xorout
    }

    #[inline]
    fn update_bytes(&self, mut reg: u16, bytes: &[u8]) -> u16 {
        let table = &self.tables[0];
        if self.algorithm.refin {
            for &b in bytes {
                reg = (reg >> 8) ^ table[usize::from((reg as u8) ^ b)];
            }
        } else {
            for &b in bytes {
                reg = (reg << 8) ^ table[usize::from(((reg >> 8) as u8) ^ b)];
            }
        }
        reg
    }

    /// Slice-by-16: the register is linear in the message, so its two bytes fold into the
    /// first two bytes of each 16-byte block, and byte `j` of the block contributes
    /// `tables[15 - j][byte]`.
    #[inline]
    fn update_portable(&self, mut reg: u16, bytes: &[u8]) -> u16 {
        let mut blocks = bytes.chunks_exact(SLICE_LEN);
        let t = &self.tables;
        for block in &mut blocks {
            let [lo, hi] = reg.to_le_bytes();
            // The byte of the register that meets the first message byte.
            let (first, second) = if self.algorithm.refin {
                (lo, hi)
            } else {
                (hi, lo)
            };
            // The bytes that do not meet the register first, so that the loop-carried
            // dependency is one table load and two xors per block, not sixteen xors.
            let mut acc = 0;
            for j in 2..SLICE_LEN {
                acc ^= t[SLICE_LEN - 1 - j][usize::from(block[j])];
            }
            acc ^= t[15][usize::from(block[0] ^ first)] ^ t[14][usize::from(block[1] ^ second)];
            reg = acc;
        }
        self.update_bytes(reg, blocks.remainder())
    }
}

impl fmt::Debug for Crc16 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Crc16")
            .field("algorithm", &self.algorithm)
            .finish_non_exhaustive()
    }
}

#[cfg(feature = "simd")]
mod simd {
    use crc::Algorithm;
    use crc_fast::CrcAlgorithm;

    /// Every CRC-16 of the catalogue with its `crc-fast` name.
    const PAIRS: [(Algorithm<u16>, CrcAlgorithm); 31] = [
        (crc::CRC_16_ARC, CrcAlgorithm::Crc16Arc),
        (crc::CRC_16_CDMA2000, CrcAlgorithm::Crc16Cdma2000),
        (crc::CRC_16_CMS, CrcAlgorithm::Crc16Cms),
        (crc::CRC_16_DDS_110, CrcAlgorithm::Crc16Dds110),
        (crc::CRC_16_DECT_R, CrcAlgorithm::Crc16DectR),
        (crc::CRC_16_DECT_X, CrcAlgorithm::Crc16DectX),
        (crc::CRC_16_DNP, CrcAlgorithm::Crc16Dnp),
        (crc::CRC_16_EN_13757, CrcAlgorithm::Crc16En13757),
        (crc::CRC_16_GENIBUS, CrcAlgorithm::Crc16Genibus),
        (crc::CRC_16_GSM, CrcAlgorithm::Crc16Gsm),
        (crc::CRC_16_IBM_3740, CrcAlgorithm::Crc16Ibm3740),
        (crc::CRC_16_IBM_SDLC, CrcAlgorithm::Crc16IbmSdlc),
        (
            crc::CRC_16_ISO_IEC_14443_3_A,
            CrcAlgorithm::Crc16IsoIec144433A,
        ),
        (crc::CRC_16_KERMIT, CrcAlgorithm::Crc16Kermit),
        (crc::CRC_16_LJ1200, CrcAlgorithm::Crc16Lj1200),
        (crc::CRC_16_M17, CrcAlgorithm::Crc16M17),
        (crc::CRC_16_MAXIM_DOW, CrcAlgorithm::Crc16MaximDow),
        (crc::CRC_16_MCRF4XX, CrcAlgorithm::Crc16Mcrf4xx),
        (crc::CRC_16_MODBUS, CrcAlgorithm::Crc16Modbus),
        (crc::CRC_16_NRSC_5, CrcAlgorithm::Crc16Nrsc5),
        (crc::CRC_16_OPENSAFETY_A, CrcAlgorithm::Crc16OpensafetyA),
        (crc::CRC_16_OPENSAFETY_B, CrcAlgorithm::Crc16OpensafetyB),
        (crc::CRC_16_PROFIBUS, CrcAlgorithm::Crc16Profibus),
        (crc::CRC_16_RIELLO, CrcAlgorithm::Crc16Riello),
        (crc::CRC_16_SPI_FUJITSU, CrcAlgorithm::Crc16SpiFujitsu),
        (crc::CRC_16_T10_DIF, CrcAlgorithm::Crc16T10Dif),
        (crc::CRC_16_TELEDISK, CrcAlgorithm::Crc16Teledisk),
        (crc::CRC_16_TMS37157, CrcAlgorithm::Crc16Tms37157),
        (crc::CRC_16_UMTS, CrcAlgorithm::Crc16Umts),
        (crc::CRC_16_USB, CrcAlgorithm::Crc16Usb),
        (crc::CRC_16_XMODEM, CrcAlgorithm::Crc16Xmodem),
    ];

    /// The `crc-fast` algorithm with exactly these parameters, if any.
    pub(super) const fn find(a: &Algorithm<u16>) -> Option<CrcAlgorithm> {
        let mut i = 0;
        while i < PAIRS.len() {
            let (b, fast) = &PAIRS[i];
            if a.width == b.width
                && a.poly == b.poly
                && a.init == b.init
                && a.refin == b.refin
                && a.refout == b.refout
                && a.xorout == b.xorout
            {
                return Some(*fast);
            }
            i += 1;
        }
        None
    }
}
