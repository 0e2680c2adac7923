//! One shared [`Crc16`] engine per CRC-16 of the CRC catalogue, as `static`s named like the
//! `crc` crate's `CRC_16_*` constants: `static` generated tables (`slot_table! { static NAME
//! = .. }`) borrow these, so that every such table of one CRC shares one engine (8 KiB of
//! lookup tables) instead of carrying its own. A `const` generated table (what `slotgen emit
//! rust` writes, and [`REDIS_CLUSTER`](crate::REDIS_CLUSTER)) has its own `const` engine,
//! whose parameters its callers see.
//!
//! A static that no code names is left out of the final binary by the linker.
//!
//! # Examples
//!
//! ```
//! use slotgen_tables::catalog;
//!
//! assert_eq!(catalog::CRC_16_XMODEM.checksum(b"123456789"), 0x31c3);
//! assert_eq!(catalog::CRC_16_MODBUS.checksum(b"123456789"), 0x4b37);
//! assert_eq!(catalog::ALL.len(), 31);
//! ```

use crc::Algorithm;

use crate::Crc16;

/// The engine of this module whose algorithm has exactly the parameters of `algorithm`
/// (`width`, `poly`, `init`, `refin`, `refout`, `xorout`), if any.
///
/// # Examples
///
/// ```
/// use slotgen_tables::{catalog, crc::CRC_16_KERMIT};
///
/// let engine = catalog::find(&CRC_16_KERMIT).unwrap();
/// assert!(core::ptr::eq(engine, &catalog::CRC_16_KERMIT));
/// ```
#[must_use]
pub fn find(algorithm: &Algorithm<u16>) -> Option<&'static Crc16> {
    ALL.iter().copied().find(|engine| {
        let a = engine.algorithm();
        (a.width, a.poly, a.init, a.refin, a.refout, a.xorout)
            == (
                algorithm.width,
                algorithm.poly,
                algorithm.init,
                algorithm.refin,
                algorithm.refout,
                algorithm.xorout,
            )
    })
}

macro_rules! engines {
    ($($konst:ident),* $(,)?) => {
        $(
            #[doc = concat!("The engine of `crc::", stringify!($konst), "`.")]
            pub static $konst: Crc16 = Crc16::new(&crc::$konst);
        )*
        /// Every engine of this module, in catalogue order.
        pub static ALL: [&Crc16; 31] = [$(&$konst),*];
    };
}

engines! {
    CRC_16_ARC, CRC_16_CDMA2000, CRC_16_CMS, CRC_16_DDS_110, CRC_16_DECT_R, CRC_16_DECT_X,
    CRC_16_DNP, CRC_16_EN_13757, CRC_16_GENIBUS, CRC_16_GSM, CRC_16_IBM_3740, CRC_16_IBM_SDLC,
    CRC_16_ISO_IEC_14443_3_A, CRC_16_KERMIT, CRC_16_LJ1200, CRC_16_M17, CRC_16_MAXIM_DOW,
    CRC_16_MCRF4XX, CRC_16_MODBUS, CRC_16_NRSC_5, CRC_16_OPENSAFETY_A, CRC_16_OPENSAFETY_B,
    CRC_16_PROFIBUS, CRC_16_RIELLO, CRC_16_SPI_FUJITSU, CRC_16_T10_DIF, CRC_16_TELEDISK,
    CRC_16_TMS37157, CRC_16_UMTS, CRC_16_USB, CRC_16_XMODEM,
}
