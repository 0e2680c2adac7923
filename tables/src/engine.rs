//! A table-driven CRC engine for any algorithm of the RevEng model of width 8 to 64.
//!
//! [`CrcEngine<W>`] keeps the register in the smallest unsigned type `W` (`u8`, `u16`,
//! `u32`, `u64`) that holds `width` bits, the `crc` crate's convention for
//! [`Algorithm<W>`]: CRC-10 in a `u16`, CRC-24 in a `u32`, CRC-40 in a `u64`. A reflected
//! algorithm (`refin`) keeps its register in the low `width` bits, reflected; a
//! non-reflected one keeps it in the high `width` bits, so that the byte that meets the next
//! message byte is always the register's first byte in one fixed order.
//!
//! The portable path reads a message in steps of 16 bytes with 16 tables ("slice-by-16"),
//! then what is left (fewer than [`CrcEngine::SLICE_LEN`] bytes, or a whole short key) in
//! one step each of 8, 4, 2 and 1 bytes as its length's bits say, with the same tables: one
//! chain of dependent table loads per step rather than per byte, and no loop. A short
//! message starts from a zero register and adds the register of as many zero bytes at the
//! end (the register is affine in the message), so that its first step waits for nothing.
//! With the `simd` feature, long keys
//! of a catalogue CRC-16, CRC-32 or CRC-64 go to a crate that uses the CPU's CRC or
//! carry-less multiplication instructions, from the length where that measured faster
//! ([`CrcEngine::simd_min_len`]): CRC-32/ISO-HDLC to `crc32fast` and CRC-32C to `crc32c`
//! (the crates most Rust users pick for these two), from
//! [`CrcEngine::HARDWARE_MIN_LEN`] bytes, and every other one to `crc-fast`'s folding,
//! from [`CrcEngine::SIMD_MIN_LEN`] bytes.
//!
//! This is the runtime's one CRC engine: [`Crc16`], the CRC of every
//! [`SlotTable`](crate::SlotTable), is `CrcEngine<u16>`, and a [`Scheme`](crate::Scheme)
//! borrows an engine of any width through [`AnyCrc`].

use core::fmt;

use crc::Algorithm;

const SLICE_LEN: usize = 16;
/// See [`CrcEngine::SIMD_MIN_LEN`].
const CRC_FAST_MIN_LEN: usize = 256;
/// See [`CrcEngine::HARDWARE_MIN_LEN`].
const HARDWARE_MIN_LEN: usize = 64;

/// A CRC of the RevEng model (`width` 8 to the bits of `W`, `poly`, `init`, `refin`,
/// `refout`, `xorout`), with 16 lookup tables of 256 `W` (4 KiB for `u8`, 8 KiB for `u16`,
/// 32 KiB for `u64`), built at compile time when the engine is a `const` or `static`.
///
/// This is the runtime's own CRC, so that [`SlotTable::key_slot`](crate::SlotTable::key_slot)
/// and [`Scheme::slot`](crate::Scheme::slot) do not depend on how another crate computes
/// it; slotgen's verifier checks it against the `crc` crate, and slotgen's tests check every
/// path (byte, slice-by-16, SIMD) against the `crc` crate on every catalogue CRC of width 8
/// to 64 and every length from 0 to 300 bytes.
///
/// # Examples
///
/// ```
/// use slotgen_tables::{crc, CrcEngine};
///
/// static ISO_HDLC: CrcEngine<u32> = CrcEngine::<u32>::new(&crc::CRC_32_ISO_HDLC);
/// assert_eq!(ISO_HDLC.checksum(b"123456789"), 0xcbf4_3926); // the catalogue check value
///
/// static CRC_24: CrcEngine<u32> = CrcEngine::<u32>::new(&crc::CRC_24_OPENPGP);
/// assert_eq!(CRC_24.checksum(b"123456789"), 0x21_cf02);
/// ```
#[derive(Clone)]
pub struct CrcEngine<W: crc::Width> {
    algorithm: Algorithm<W>,
    /// `tables[k][b]`: the register after feeding byte `b` and then `k` zero bytes into a
    /// zero register (reflected and in the low bits for `refin`, in the high bits
    /// otherwise). `tables[0]` is the classic byte table.
    tables: [[W; 256]; SLICE_LEN],
    /// The register before the first byte: `init`, reflected for `refin` and placed as the
    /// tables' entries are.
    start: W,
    /// `zeros[n]`: the register after `n` zero bytes from [`start`](Self::start), for `n`
    /// below `SLICE_LEN`. The register is affine in the message: after `n` bytes it is the
    /// register from a zero start xor `zeros[n]`, so a short message's first step does not
    /// wait for `start` and its loads are independent of one another.
    zeros: [W; SLICE_LEN],
    /// Whether the register after the last byte is the CRC before `xorout`: `refin ==
    /// refout` and `width` fills the register (every CRC-16, CRC-32 and CRC-64 of the
    /// catalogue but those with `refin != refout`), so that [`finish`](Self::finish) is one
    /// xor.
    register_is_crc: bool,
    /// The SIMD crate with this CRC's parameters but perhaps its `xorout`, when there is one.
    #[cfg(feature = "simd")]
    simd: Option<simd::Route>,
}

/// The CRC-16 engine: the CRC of a [`SlotTable`](crate::SlotTable) (width 16 for every
/// table slotgen derives; the engine itself takes widths 9 to 16).
///
/// # Examples
///
/// ```
/// use slotgen_tables::{crc::CRC_16_XMODEM, Crc16};
///
/// static XMODEM: Crc16 = Crc16::new(&CRC_16_XMODEM);
/// assert_eq!(XMODEM.checksum(b"123456789"), 0x31c3); // the catalogue check value
/// assert_eq!(XMODEM.table()[1], 0x1021); // the polynomial
/// ```
pub type Crc16 = CrcEngine<u16>;

/// `CrcEngine<$w>`: the same code for each register type, because a `const fn` cannot call
/// trait methods on stable Rust.
macro_rules! engine {
    ($w:ty, $simd:expr) => {
        impl CrcEngine<$w> {
            /// Bytes per step of the slice-by-16 path: keys of at least this length take it.
            pub const SLICE_LEN: usize = SLICE_LEN;

            /// With the `simd` feature, keys of at least this many bytes of a catalogue
            /// algorithm with a `crc-fast` counterpart go to the `crc-fast` crate (measured
            /// for CRC-16 and CRC-32: below it, slice-by-16 is as fast or faster, because
            /// `crc-fast` has a fixed cost of some 20 ns).
            pub const SIMD_MIN_LEN: usize = CRC_FAST_MIN_LEN;

            /// With the `simd` feature, keys of at least this many bytes of CRC-32/ISO-HDLC
            /// (and CRC-32/JAMCRC) go to `crc32fast`, and of CRC-32C (and Tarantool's
            /// CRC-32C) to `crc32c`: measured faster than slice-by-16 from here on (both
            /// use the CPU's instructions from 64 bytes, `crc32c` its `crc32` from 8).
            pub const HARDWARE_MIN_LEN: usize = HARDWARE_MIN_LEN;

            /// The register's bits.
            const BITS: u32 = <$w>::BITS;

            /// Builds the engine for `algorithm`, at compile time when used in a `const` or
            /// `static`.
            ///
            /// # Panics
            ///
            /// When `algorithm.width` is below 8 or above the bits of the register type (at
            /// compile time, in a `const` or `static`).
            #[must_use]
            pub const fn new(algorithm: &Algorithm<$w>) -> Self {
                assert!(
                    algorithm.width >= 8 && algorithm.width as u32 <= Self::BITS,
                    "CrcEngine takes widths from 8 to the bits of its register type"
                );
                let shift = Self::BITS - algorithm.width as u32;
                let refin = algorithm.refin;
                let poly = if refin {
                    algorithm.poly.reverse_bits() >> shift
                } else {
                    algorithm.poly << shift
                };
                let top: $w = 1 << (Self::BITS - 1);
                let mut tables = [[0 as $w; 256]; SLICE_LEN];
                let start = if refin {
                    algorithm.init.reverse_bits() >> shift
                } else {
                    algorithm.init << shift
                };
                let mut i = 0;
                while i < 256 {
                    let mut reg: $w = if refin {
                        i as $w
                    } else {
                        ((i as u64) << (Self::BITS - 8)) as $w
                    };
                    let mut bit = 0;
                    while bit < 8 {
                        reg = if refin {
                            if reg & 1 != 0 {
                                (reg >> 1) ^ poly
                            } else {
                                reg >> 1
                            }
                        } else if reg & top != 0 {
                            (reg << 1) ^ poly
                        } else {
                            reg << 1
                        };
                        bit += 1;
                    }
                    tables[0][i] = reg;
                    i += 1;
                }
                // One more zero byte after `tables[k - 1][b]`: one byte step with input 0.
                let mut k = 1;
                while k < SLICE_LEN {
                    let mut b = 0;
                    while b < 256 {
                        tables[k][b] = Self::step(refin, &tables[0], tables[k - 1][b], 0);
                        b += 1;
                    }
                    k += 1;
                }
                let mut zeros = [start; SLICE_LEN];
                let mut n = 1;
                while n < SLICE_LEN {
                    zeros[n] = Self::step(refin, &tables[0], zeros[n - 1], 0);
                    n += 1;
                }
                Self {
                    algorithm: *algorithm,
                    tables,
                    start,
                    zeros,
                    register_is_crc: shift == 0 && refin == algorithm.refout,
                    #[cfg(feature = "simd")]
                    simd: simd::find(
                        &simd::Key {
                            width: algorithm.width,
                            poly: algorithm.poly as u64,
                            init: algorithm.init as u64,
                            refin: algorithm.refin,
                            refout: algorithm.refout,
                            xorout: algorithm.xorout as u64,
                        },
                        $simd,
                    ),
                }
            }

            /// The algorithm's parameters.
            #[must_use]
            pub const fn algorithm(&self) -> &Algorithm<$w> {
                &self.algorithm
            }

            /// The 256-entry byte table: entry `i` is the register after feeding byte `i`
            /// into a zero register (reflected, in the low `width` bits, for `refin`; in the
            /// high `width` bits otherwise).
            ///
            /// # Examples
            ///
            /// ```
            /// use slotgen_tables::{crc, CrcEngine};
            ///
            /// let engine = CrcEngine::<u32>::new(&crc::CRC_32_ISO_HDLC);
            /// assert_eq!(engine.table()[128], 0xedb8_8320); // the reflected polynomial
            /// ```
            #[must_use]
            pub const fn table(&self) -> &[$w; 256] {
                &self.tables[0]
            }

            /// The CRC of `bytes`, in the low `width` bits.
            #[must_use]
            #[inline]
            pub fn checksum(&self, bytes: &[u8]) -> $w {
                if bytes.len() >= SLICE_LEN {
                    return self.checksum_long(bytes);
                }
                self.checksum_short(bytes)
            }

            /// [`checksum`](Self::checksum) of `SLICE_LEN` bytes or more: out of line, so
            /// that the short path inlined into a caller is a few instructions.
            #[inline(never)]
            fn checksum_long(&self, bytes: &[u8]) -> $w {
                self.checksum_long_inline(bytes)
            }

            /// The body of [`checksum_long`](Self::checksum_long), for the paths that are
            /// out of line already.
            #[inline(always)]
            fn checksum_long_inline(&self, bytes: &[u8]) -> $w {
                #[cfg(feature = "simd")]
                if let Some(route) = &self.simd {
                    if bytes.len() >= route.min_len() {
                        return route.checksum(bytes) as $w;
                    }
                }
                self.finish(self.update_portable(self.start(), bytes))
            }

            /// The CRC of `key`'s [`hashtag`](crate::hashtag) (the Redis Cluster rule): what
            /// [`SlotTable::key_slot`](crate::SlotTable::key_slot) masks to a slot;
            /// `self.checksum(hashtag(key))`. The scan finds the hashed bytes first (see
            /// [`hashtag`](crate::hashtag)), then the CRC reads them once, several bytes a
            /// step ([`checksum`](Self::checksum)).
            // `always`: with `#[inline]` LLVM kept it out of line (its long path is large),
            // a call and four saved registers a key; inlined, 3 to 8-byte keys took 0.6x to
            // 0.85x the time (`key_slot_min`, issue 33).
            #[must_use]
            #[inline(always)]
            pub fn key_checksum(&self, key: &[u8]) -> $w {
                if key.len() >= SLICE_LEN {
                    return self.key_checksum_long(key);
                }
                // Shorter than `SLICE_LEN`, so are its hashtag and the scan's byte loops:
                // no call is left on this path.
                self.checksum_short(crate::hashtag(key))
            }

            /// The CRC of fewer than `SLICE_LEN` bytes: the register from a zero start,
            /// xor that of as many zero bytes from the true start (`zeros`).
            #[inline(always)]
            fn checksum_short(&self, bytes: &[u8]) -> $w {
                let reg = if self.algorithm.refin {
                    self.update_short::<true>(0, bytes)
                } else {
                    self.update_short::<false>(0, bytes)
                };
                // A zero `start` (XMODEM's) has zero `zeros`: known when the engine is a
                // constant, so that the load goes.
                if self.start == 0 {
                    return self.finish(reg);
                }
                // `bytes` is shorter than `SLICE_LEN`, a power of two: the mask keeps it.
                self.finish(reg ^ self.zeros[bytes.len() & (SLICE_LEN - 1)])
            }

            /// [`key_checksum`](Self::key_checksum) of a key of `SLICE_LEN` bytes or more.
            /// Inlined, unlike [`checksum_long`](Self::checksum_long): out of line, its
            /// call (a second one beside `memchr`'s, and the registers saved around it) cost
            /// 16-byte keys 0.96x and 64-byte keys 0.92x the time of the `crc` crate's
            /// `Table<16>` inlined in the same loop; inlined, 1.2x and 1.05x, for some
            /// 8-byte plain keys' speed (2.2x to 2.0x `Table<1>`).
            #[inline(always)]
            fn key_checksum_long(&self, key: &[u8]) -> $w {
                let hashed = crate::hashtag(key);
                if hashed.len() >= SLICE_LEN {
                    return self.checksum_long_inline(hashed);
                }
                self.checksum_short(hashed)
            }

            /// The CRCs of many messages at once: `out[i]` becomes
            /// [`checksum`](Self::checksum)`(messages[i])` for every `i` below
            /// `messages.len()`; `out`'s entries past that are left as they are. For a
            /// caller that has picked each key's hashed bytes already (by any hashtag rule).
            ///
            /// One message after the other: the CPU overlaps the table loads of successive
            /// messages already, and running four CRCs in lockstep measured no faster (x86-64,
            /// 8 to 64-byte keys: more instructions a key, its registers spilled).
            ///
            /// # Panics
            ///
            /// When `out` is shorter than `messages`.
            ///
            /// # Examples
            ///
            /// ```
            /// use slotgen_tables::catalog::CRC_16_XMODEM;
            ///
            /// let mut crcs = [0u16; 2];
            /// CRC_16_XMODEM.checksums(&["123456789", ""], &mut crcs);
            /// assert_eq!(crcs, [0x31c3, 0]);
            /// ```
            #[track_caller]
            pub fn checksums<M: AsRef<[u8]>>(&self, messages: &[M], out: &mut [$w]) {
                check_out(out.len(), messages.len());
                for (m, crc) in messages.iter().zip(out) {
                    *crc = self.checksum(m.as_ref());
                }
            }

            /// The CRCs of many keys' [`hashtag`](crate::hashtag)s at once: `out[i]`
            /// becomes [`key_checksum`](Self::key_checksum)`(keys[i])` for every `i` below
            /// `keys.len()`, as [`checksums`](Self::checksums) does for bytes already
            /// picked.
            ///
            /// # Panics
            ///
            /// When `out` is shorter than `keys`.
            #[track_caller]
            pub fn key_checksums<K: AsRef<[u8]>>(&self, keys: &[K], out: &mut [$w]) {
                check_out(out.len(), keys.len());
                for (key, crc) in keys.iter().zip(out) {
                    *crc = self.key_checksum(key.as_ref());
                }
            }

            /// The CRC of `bytes` one byte per step, in a `const` context (the byte path,
            /// written for const evaluation). [`SlotTable::new`](crate::SlotTable::new)
            /// checks tables with it at compile time.
            #[must_use]
            pub const fn const_checksum(&self, bytes: &[u8]) -> $w {
                let refin = self.algorithm.refin;
                let table = &self.tables[0];
                let mut reg = self.start();
                let mut i = 0;
                while i < bytes.len() {
                    reg = Self::step(refin, table, reg, bytes[i]);
                    i += 1;
                }
                self.finish(reg)
            }

            /// The CRC of `bytes` one byte per step, whatever its length: the byte path
            /// alone. [`checksum`](Self::checksum) gives the same value; this exists so
            /// that tests and benches can reach each path.
            #[must_use]
            pub fn checksum_bytewise(&self, bytes: &[u8]) -> $w {
                self.finish(self.update_bytes(self.start(), bytes))
            }

            /// The CRC of `bytes` by the portable paths only (slice-by-16, then byte by byte
            /// for the tail), whatever its length, even with the `simd` feature.
            #[must_use]
            pub fn checksum_portable(&self, bytes: &[u8]) -> $w {
                self.finish(self.update_portable(self.start(), bytes))
            }

            /// The CRC of `bytes` by the SIMD crate for this algorithm (`crc32fast`,
            /// `crc32c` or `crc-fast`, see [`simd_min_len`](Self::simd_min_len)), whatever its length, or
            /// `None` when it has none (parameters outside the catalogue but for `xorout`,
            /// and every CRC of a width other than 16, 32 and 64). The final xor is applied
            /// last, so a catalogue CRC with another `xorout` is that CRC xored with the
            /// difference.
            #[cfg(feature = "simd")]
            #[must_use]
            pub fn checksum_simd(&self, bytes: &[u8]) -> Option<$w> {
                // A CRC of this width is below 2^width.
                self.simd.as_ref().map(|route| route.checksum(bytes) as $w)
            }

            /// With the `simd` feature, the length from which [`checksum`](Self::checksum)
            /// takes [`checksum_simd`](Self::checksum_simd): [`HARDWARE_MIN_LEN`](Self::HARDWARE_MIN_LEN)
            /// for CRC-32/ISO-HDLC and CRC-32C, [`SIMD_MIN_LEN`](Self::SIMD_MIN_LEN) for
            /// the other catalogue CRCs of width 16, 32 and 64, `None` for the rest.
            #[cfg(feature = "simd")]
            #[must_use]
            pub fn simd_min_len(&self) -> Option<usize> {
                self.simd.as_ref().map(simd::Route::min_len)
            }

            /// One byte step: the register after feeding `byte`.
            #[inline(always)]
            const fn step(refin: bool, table: &[$w; 256], reg: $w, byte: u8) -> $w {
                // Through u64, so that shifting a `u8` register by 8 gives 0.
                if refin {
                    (((reg as u64) >> 8) as $w) ^ table[(reg as u8 ^ byte) as usize]
                } else {
                    (((reg as u64) << 8) as $w)
                        ^ table[((reg >> (Self::BITS - 8)) as u8 ^ byte) as usize]
                }
            }

            /// The register before the first byte.
            #[inline]
            const fn start(&self) -> $w {
                self.start
            }

            /// The CRC from the register after the last byte.
            #[inline(always)]
            const fn finish(&self, reg: $w) -> $w {
                if self.register_is_crc {
                    return reg ^ self.algorithm.xorout;
                }
                let shift = Self::BITS - self.algorithm.width as u32;
                let mut value = if self.algorithm.refin {
                    reg
                } else {
                    reg >> shift
                };
                if self.algorithm.refin != self.algorithm.refout {
                    value = value.reverse_bits() >> shift;
                }
                value ^ self.algorithm.xorout
            }

            #[inline]
            fn update_bytes(&self, mut reg: $w, bytes: &[u8]) -> $w {
                let table = &self.tables[0];
                // Two loops, so that the branch on `refin` is outside them.
                if self.algorithm.refin {
                    for &b in bytes {
                        reg = Self::step(true, table, reg, b);
                    }
                } else {
                    for &b in bytes {
                        reg = Self::step(false, table, reg, b);
                    }
                }
                reg
            }

            /// The register after `bytes`, fewer than `SLICE_LEN` of them: a step of 8
            /// bytes ([`fold`](Self::fold)) when 8 are there, then one of 4, of 2 and of 1 as
            /// the length's bits say. No loop, so no loop control, and the chain of
            /// dependent table loads is at most four long instead of fifteen. Fewer than 4
            /// bytes skip the 8 and 4 tests with one (a 1-byte hashtag such as `{x}` took
            /// four length tests for one step; with three, 3-byte keys took 0.84x to 0.94x
            /// the time, `key_slot_min`).
            #[inline(always)]
            fn update_short<const REFIN: bool>(&self, mut reg: $w, bytes: &[u8]) -> $w {
                let mut rest = bytes;
                if rest.len() >= 4 {
                    if let Some((block, tail)) = rest.split_first_chunk::<8>() {
                        reg = self.fold::<REFIN, 8>(reg, block);
                        rest = tail;
                    }
                    if let Some((block, tail)) = rest.split_first_chunk::<4>() {
                        reg = self.fold::<REFIN, 4>(reg, block);
                        rest = tail;
                    }
                }
                if let Some((block, tail)) = rest.split_first_chunk::<2>() {
                    reg = self.fold::<REFIN, 2>(reg, block);
                    rest = tail;
                }
                if let Some(&b) = rest.first() {
                    reg = Self::step(REFIN, &self.tables[0], reg, b);
                }
                reg
            }

            /// The register after the `L` bytes of `block` (`L` in `1..=SLICE_LEN`), in one
            /// step: the register is linear in the message, so its first `min(L, bytes of
            /// W)` bytes (little-endian for a reflected register, big-endian otherwise) fold
            /// into the block's first bytes, byte `j` of the block contributes
            /// `tables[L - 1 - j][byte]` (the register after that byte and `L - 1 - j` zero
            /// bytes), and what the block does not reach of the register moves on by `L`
            /// bytes. The loads are independent of each other but for the register's bytes,
            /// so the chain a step carries is one table load, not `L`.
            #[inline(always)]
            fn fold<const REFIN: bool, const L: usize>(&self, reg: $w, block: &[u8; L]) -> $w {
                const BYTES: usize = core::mem::size_of::<$w>();
                let folded = if REFIN {
                    reg.to_le_bytes()
                } else {
                    reg.to_be_bytes()
                };
                let t = &self.tables;
                // The register's bytes past the block, moved on by `L` bytes (none when the
                // block covers the register).
                let moved = if REFIN {
                    reg.checked_shr(8 * L as u32)
                } else {
                    reg.checked_shl(8 * L as u32)
                };
                // The block's last bytes first: their loads wait for nothing, so that the
                // chain from the register (its bytes folded into the block's first bytes,
                // and `moved`) adds a load and a few xors to the step, not `L` xors. In the
                // other order the xors ran one after the other behind the register's loads:
                // 64-byte keys took 0.92x the time of the `crc` crate's `Table<16>`.
                let mut acc: $w = 0;
                for j in (0..L).rev() {
                    let byte = if j < BYTES {
                        block[j] ^ folded[j]
                    } else {
                        block[j]
                    };
                    acc ^= t[L - 1 - j][usize::from(byte)];
                }
                acc ^ moved.unwrap_or(0)
            }

            /// Slice-by-16 ([`fold`](Self::fold) of 16 bytes a step), then the tail of fewer
            /// than 16 bytes by [`update_short`](Self::update_short).
            #[inline]
            fn update_portable(&self, reg: $w, bytes: &[u8]) -> $w {
                if self.algorithm.refin {
                    self.update_blocks::<true>(reg, bytes)
                } else {
                    self.update_blocks::<false>(reg, bytes)
                }
            }

            #[inline(always)]
            fn update_blocks<const REFIN: bool>(&self, mut reg: $w, bytes: &[u8]) -> $w {
                let mut blocks = bytes.chunks_exact(SLICE_LEN);
                for block in &mut blocks {
                    // `chunks_exact` gives blocks of `SLICE_LEN` bytes
                    if let Ok(block) = block.try_into() {
                        reg = self.fold::<REFIN, SLICE_LEN>(reg, block);
                    }
                }
                self.update_short::<REFIN>(reg, blocks.remainder())
            }
        }

        impl fmt::Debug for CrcEngine<$w> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_struct("CrcEngine")
                    .field("algorithm", &self.algorithm)
                    .finish_non_exhaustive()
            }
        }
    };
}

engine!(u8, &[]);
engine!(u16, &simd::CRC_16);
engine!(u32, &simd::CRC_32);
engine!(u64, &simd::CRC_64);

/// The batch calls' one rule on their output buffer.
///
/// # Panics
///
/// When `out` (entries) is shorter than `items`.
#[inline]
#[track_caller]
pub(crate) fn check_out(out: usize, items: usize) {
    if out < items {
        panic!(
            "{}",
            crate::Error::OutTooShort {
                needed: items,
                available: out
            }
        );
    }
}

/// A borrowed [`CrcEngine`] of any register type, so that one value can name a CRC of any
/// width from 8 to 64: what a [`Scheme`](crate::Scheme) holds.
///
/// # Examples
///
/// ```
/// use slotgen_tables::{crc, AnyCrc, CrcEngine};
///
/// static CRC_64: CrcEngine<u64> = CrcEngine::<u64>::new(&crc::CRC_64_XZ);
/// let any = AnyCrc::W64(&CRC_64);
/// assert_eq!((any.width(), any.checksum(b"123456789")), (64, 0x995d_c9bb_df19_39fa));
/// ```
#[derive(Clone, Copy, Debug)]
pub enum AnyCrc<'a> {
    /// A CRC of width 8.
    W8(&'a CrcEngine<u8>),
    /// A CRC of width 9 to 16.
    W16(&'a CrcEngine<u16>),
    /// A CRC of width 17 to 32.
    W32(&'a CrcEngine<u32>),
    /// A CRC of width 33 to 64.
    W64(&'a CrcEngine<u64>),
}

impl AnyCrc<'_> {
    /// The CRC of `bytes`, in the low [`width`](Self::width) bits.
    #[must_use]
    #[inline]
    pub fn checksum(&self, bytes: &[u8]) -> u64 {
        match self {
            Self::W8(e) => u64::from(e.checksum(bytes)),
            Self::W16(e) => u64::from(e.checksum(bytes)),
            Self::W32(e) => u64::from(e.checksum(bytes)),
            Self::W64(e) => e.checksum(bytes),
        }
    }

    /// The CRC of `key`'s [`hashtag`](crate::hashtag) (the Redis Cluster rule), in the low
    /// [`width`](Self::width) bits: [`CrcEngine::key_checksum`].
    #[must_use]
    #[inline]
    pub fn key_checksum(&self, key: &[u8]) -> u64 {
        match self {
            Self::W8(e) => u64::from(e.key_checksum(key)),
            Self::W16(e) => u64::from(e.key_checksum(key)),
            Self::W32(e) => u64::from(e.key_checksum(key)),
            Self::W64(e) => e.key_checksum(key),
        }
    }

    /// The CRC's width in bits, 8 to 64.
    #[must_use]
    pub const fn width(&self) -> u8 {
        match self {
            Self::W8(e) => e.algorithm().width,
            Self::W16(e) => e.algorithm().width,
            Self::W32(e) => e.algorithm().width,
            Self::W64(e) => e.algorithm().width,
        }
    }

    /// The CRC's `check` parameter as stated in its algorithm: the CRC of `"123456789"`.
    #[must_use]
    pub const fn check(&self) -> u64 {
        match self {
            Self::W8(e) => e.algorithm().check as u64,
            Self::W16(e) => e.algorithm().check as u64,
            Self::W32(e) => e.algorithm().check as u64,
            Self::W64(e) => e.algorithm().check,
        }
    }
}

#[cfg(feature = "simd")]
mod simd {
    use crc_fast::CrcAlgorithm;

    use super::{CRC_FAST_MIN_LEN, HARDWARE_MIN_LEN};

    /// A crate that computes a CRC with the CPU's instructions.
    #[derive(Clone, Copy, Debug)]
    pub(super) enum Crate {
        /// `crc-fast`, for the algorithm it names.
        CrcFast(CrcAlgorithm),
        /// `crc32fast`: CRC-32/ISO-HDLC.
        Crc32Fast,
        /// `crc32c`: CRC-32/ISCSI (CRC-32C).
        Crc32c,
    }

    /// A crate's CRC with an engine's parameters but perhaps `xorout`, and the xor of the
    /// two `xorout`s, which turns the crate's CRC into the engine's (Tarantool's CRC is
    /// CRC-32C without the final xor: CRC-32/ISCSI and `0xffffffff`).
    #[derive(Clone, Copy, Debug)]
    pub(super) struct Route {
        krate: Crate,
        xor: u64,
    }

    impl Route {
        /// The CRC of `bytes`, below `2^width`.
        #[inline]
        pub(super) fn checksum(&self, bytes: &[u8]) -> u64 {
            let crc = match self.krate {
                Crate::CrcFast(algorithm) => crc_fast::checksum(algorithm, bytes),
                Crate::Crc32Fast => u64::from(crc32fast::hash(bytes)),
                Crate::Crc32c => u64::from(crc32c::crc32c(bytes)),
            };
            crc ^ self.xor
        }

        /// The length from which the crate is faster than slice-by-16.
        #[inline]
        pub(super) const fn min_len(&self) -> usize {
            match self.krate {
                Crate::CrcFast(_) => CRC_FAST_MIN_LEN,
                Crate::Crc32Fast | Crate::Crc32c => HARDWARE_MIN_LEN,
            }
        }
    }

    /// A CRC's defining parameters (its `crc::Algorithm` without `check` and `residue`),
    /// widened to `u64`, so that one `const fn` compares them for every width.
    pub(super) struct Key {
        pub(super) width: u8,
        pub(super) poly: u64,
        pub(super) init: u64,
        pub(super) refin: bool,
        pub(super) refout: bool,
        pub(super) xorout: u64,
    }

    /// `[(Key, Crate); N]` from `crc` constants and their crates: `crc-fast` names, or
    /// `crc32fast` and `crc32c`.
    macro_rules! pairs {
        (@crate crc32fast) => { Crate::Crc32Fast };
        (@crate crc32c) => { Crate::Crc32c };
        (@crate $fast:ident) => { Crate::CrcFast(CrcAlgorithm::$fast) };
        ($($konst:expr => $fast:ident,)*) => {
            [$(
                (
                    Key {
                        width: $konst.width,
                        poly: $konst.poly as u64,
                        init: $konst.init as u64,
                        refin: $konst.refin,
                        refout: $konst.refout,
                        xorout: $konst.xorout as u64,
                    },
                    pairs!(@crate $fast),
                ),
            )*]
        };
    }

    /// Every CRC-16 of the catalogue with its `crc-fast` name.
    pub(super) const CRC_16: [(Key, Crate); 31] = pairs! {
        crc::CRC_16_ARC => Crc16Arc,
        crc::CRC_16_CDMA2000 => Crc16Cdma2000,
        crc::CRC_16_CMS => Crc16Cms,
        crc::CRC_16_DDS_110 => Crc16Dds110,
        crc::CRC_16_DECT_R => Crc16DectR,
        crc::CRC_16_DECT_X => Crc16DectX,
        crc::CRC_16_DNP => Crc16Dnp,
        crc::CRC_16_EN_13757 => Crc16En13757,
        crc::CRC_16_GENIBUS => Crc16Genibus,
        crc::CRC_16_GSM => Crc16Gsm,
        crc::CRC_16_IBM_3740 => Crc16Ibm3740,
        crc::CRC_16_IBM_SDLC => Crc16IbmSdlc,
        crc::CRC_16_ISO_IEC_14443_3_A => Crc16IsoIec144433A,
        crc::CRC_16_KERMIT => Crc16Kermit,
        crc::CRC_16_LJ1200 => Crc16Lj1200,
        crc::CRC_16_M17 => Crc16M17,
        crc::CRC_16_MAXIM_DOW => Crc16MaximDow,
        crc::CRC_16_MCRF4XX => Crc16Mcrf4xx,
        crc::CRC_16_MODBUS => Crc16Modbus,
        crc::CRC_16_NRSC_5 => Crc16Nrsc5,
        crc::CRC_16_OPENSAFETY_A => Crc16OpensafetyA,
        crc::CRC_16_OPENSAFETY_B => Crc16OpensafetyB,
        crc::CRC_16_PROFIBUS => Crc16Profibus,
        crc::CRC_16_RIELLO => Crc16Riello,
        crc::CRC_16_SPI_FUJITSU => Crc16SpiFujitsu,
        crc::CRC_16_T10_DIF => Crc16T10Dif,
        crc::CRC_16_TELEDISK => Crc16Teledisk,
        crc::CRC_16_TMS37157 => Crc16Tms37157,
        crc::CRC_16_UMTS => Crc16Umts,
        crc::CRC_16_USB => Crc16Usb,
        crc::CRC_16_XMODEM => Crc16Xmodem,
    };

    /// Every CRC-32 of the catalogue with its crate: CRC-32/ISO-HDLC with `crc32fast`
    /// (CRC-32/JAMCRC, which differs only in `xorout`, with it too), CRC-32/ISCSI with
    /// `crc32c`, the others with their `crc-fast` names.
    pub(super) const CRC_32: [(Key, Crate); 11] = pairs! {
        crc::CRC_32_AIXM => Crc32Aixm,
        crc::CRC_32_AUTOSAR => Crc32Autosar,
        crc::CRC_32_BASE91_D => Crc32Base91D,
        crc::CRC_32_BZIP2 => Crc32Bzip2,
        crc::CRC_32_CD_ROM_EDC => Crc32CdRomEdc,
        crc::CRC_32_CKSUM => Crc32Cksum,
        crc::CRC_32_ISCSI => crc32c,
        crc::CRC_32_ISO_HDLC => crc32fast,
        crc::CRC_32_MEF => Crc32Mef,
        crc::CRC_32_MPEG_2 => Crc32Mpeg2,
        crc::CRC_32_XFER => Crc32Xfer,
    };

    /// Every CRC-64 of the catalogue with its `crc-fast` name.
    pub(super) const CRC_64: [(Key, Crate); 7] = pairs! {
        crc::CRC_64_ECMA_182 => Crc64Ecma182,
        crc::CRC_64_GO_ISO => Crc64GoIso,
        crc::CRC_64_MS => Crc64Ms,
        crc::CRC_64_NVME => Crc64Nvme,
        crc::CRC_64_REDIS => Crc64Redis,
        crc::CRC_64_WE => Crc64We,
        crc::CRC_64_XZ => Crc64Xz,
    };

    /// The crate of `pairs` with the parameters `key` but perhaps `xorout`, and the xor of
    /// the two `xorout`s; an exact match first.
    pub(super) const fn find(key: &Key, pairs: &[(Key, Crate)]) -> Option<Route> {
        let mut found = None;
        let mut i = 0;
        while i < pairs.len() {
            let (b, fast) = &pairs[i];
            if key.width == b.width
                && key.poly == b.poly
                && key.init == b.init
                && key.refin == b.refin
                && key.refout == b.refout
            {
                let xor = key.xorout ^ b.xorout;
                let route = Route { krate: *fast, xor };
                if xor == 0 {
                    return Some(route);
                }
                if found.is_none() {
                    found = Some(route);
                }
            }
            i += 1;
        }
        found
    }
}
