//! The CRC-16 algorithms of the CRC catalogue, by name and alias.
//!
//! Names and aliases are those of Greg Cook's "Catalogue of parametrised CRC algorithms"
//! (the RevEng catalogue); the parameters are the `crc` crate's `CRC_16_*` constants.

use crc::Algorithm;

use crate::Error;

/// One algorithm of the CRC catalogue.
#[derive(Clone, Copy, Debug)]
pub struct CatalogEntry {
    /// The catalogue name, such as `CRC-16/XMODEM`.
    pub name: &'static str,
    /// The catalogue's aliases, such as `XMODEM` and `ZMODEM`.
    pub aliases: &'static [&'static str],
    /// The parameters in the RevEng model.
    pub algorithm: &'static Algorithm<u16>,
    /// The name of the `crc` crate's constant, such as `CRC_16_XMODEM`.
    pub constant: &'static str,
}

macro_rules! catalog {
    ($($name:literal $konst:ident [$($alias:literal),*];)*) => {
        /// All 31 CRC-16 algorithms of the CRC catalogue, in catalogue order.
        pub static CATALOG: &[CatalogEntry] = &[
            $(CatalogEntry {
                name: $name,
                aliases: &[$($alias),*],
                algorithm: &crc::$konst,
                constant: stringify!($konst),
            },)*
        ];
    };
}

catalog! {
    "CRC-16/ARC" CRC_16_ARC ["ARC", "CRC-16", "CRC-16/LHA", "CRC-IBM"];
    "CRC-16/CDMA2000" CRC_16_CDMA2000 [];
    "CRC-16/CMS" CRC_16_CMS [];
    "CRC-16/DDS-110" CRC_16_DDS_110 [];
    "CRC-16/DECT-R" CRC_16_DECT_R ["R-CRC-16"];
    "CRC-16/DECT-X" CRC_16_DECT_X ["X-CRC-16"];
    "CRC-16/DNP" CRC_16_DNP [];
    "CRC-16/EN-13757" CRC_16_EN_13757 [];
    "CRC-16/GENIBUS" CRC_16_GENIBUS ["CRC-16/DARC", "CRC-16/EPC", "CRC-16/EPC-C1G2", "CRC-16/I-CODE"];
    "CRC-16/GSM" CRC_16_GSM [];
    "CRC-16/IBM-3740" CRC_16_IBM_3740 ["CRC-16/AUTOSAR", "CRC-16/CCITT-FALSE"];
    "CRC-16/IBM-SDLC" CRC_16_IBM_SDLC ["CRC-16/ISO-HDLC", "CRC-16/ISO-IEC-14443-3-B", "CRC-16/X-25", "CRC-B", "X-25"];
    "CRC-16/ISO-IEC-14443-3-A" CRC_16_ISO_IEC_14443_3_A ["CRC-A"];
    "CRC-16/KERMIT" CRC_16_KERMIT ["CRC-16/BLUETOOTH", "CRC-16/CCITT", "CRC-16/CCITT-TRUE", "CRC-16/V-41-LSB", "CRC-CCITT", "KERMIT"];
    "CRC-16/LJ1200" CRC_16_LJ1200 [];
    "CRC-16/M17" CRC_16_M17 [];
    "CRC-16/MAXIM-DOW" CRC_16_MAXIM_DOW ["CRC-16/MAXIM"];
    "CRC-16/MCRF4XX" CRC_16_MCRF4XX [];
    "CRC-16/MODBUS" CRC_16_MODBUS ["MODBUS"];
    "CRC-16/NRSC-5" CRC_16_NRSC_5 [];
    "CRC-16/OPENSAFETY-A" CRC_16_OPENSAFETY_A [];
    "CRC-16/OPENSAFETY-B" CRC_16_OPENSAFETY_B [];
    "CRC-16/PROFIBUS" CRC_16_PROFIBUS ["CRC-16/IEC-61158-2"];
    "CRC-16/RIELLO" CRC_16_RIELLO [];
    "CRC-16/SPI-FUJITSU" CRC_16_SPI_FUJITSU ["CRC-16/AUG-CCITT"];
    "CRC-16/T10-DIF" CRC_16_T10_DIF [];
    "CRC-16/TELEDISK" CRC_16_TELEDISK [];
    "CRC-16/TMS37157" CRC_16_TMS37157 [];
    "CRC-16/UMTS" CRC_16_UMTS ["CRC-16/BUYPASS", "CRC-16/VERIFONE"];
    "CRC-16/USB" CRC_16_USB [];
    "CRC-16/XMODEM" CRC_16_XMODEM ["CRC-16/ACORN", "CRC-16/LTE", "CRC-16/V-41-MSB", "XMODEM", "ZMODEM"];
}

/// A CRC's name as the catalogues compare it: trimmed, upper case, `_` read as `-`.
pub(crate) fn normalize(name: &str) -> String {
    name.trim().to_ascii_uppercase().replace('_', "-")
}

/// Finds a catalogue algorithm by its name or an alias, case-insensitive, with `_` read as
/// `-`; the `CRC-16/` prefix may be left out (`modbus`, `XMODEM`, `ibm-3740`).
///
/// # Errors
///
/// [`Error::UnknownCrc`] when nothing matches, with the nearest names.
///
/// # Examples
///
/// ```
/// let entry = slotgen::catalog::find("zmodem").unwrap();
/// assert_eq!(entry.name, "CRC-16/XMODEM");
/// assert_eq!(entry.algorithm.check, 0x31c3);
/// ```
pub fn find(name: &str) -> Result<&'static CatalogEntry, Error> {
    let wanted = normalize(name);
    let prefixed = format!("CRC-16/{wanted}");
    let matches = |candidate: &str| candidate == wanted || candidate == prefixed;
    CATALOG
        .iter()
        .find(|e| matches(e.name) || e.aliases.iter().any(|a| matches(a)))
        .ok_or_else(|| Error::UnknownCrc {
            name: name.to_owned(),
            nearest: nearest(&wanted),
        })
}

/// The catalogue name of `algorithm`, when its parameters are a catalogue algorithm's.
#[must_use]
pub fn name_of(algorithm: &Algorithm<u16>) -> Option<&'static str> {
    CATALOG
        .iter()
        .find(|e| same_parameters(e.algorithm, algorithm))
        .map(|e| e.name)
}

/// Whether two algorithms have the same defining parameters (`width`, `poly`, `init`,
/// `refin`, `refout`, `xorout`); `check` and `residue` follow from those.
#[must_use]
pub fn same_parameters(a: &Algorithm<u16>, b: &Algorithm<u16>) -> bool {
    (a.width, a.poly, a.init, a.refin, a.refout, a.xorout)
        == (b.width, b.poly, b.init, b.refin, b.refout, b.xorout)
}

/// A CRC-16 from its defining parameters in the RevEng model, with `check` (the CRC of
/// `"123456789"`) and `residue` (the register after an error-free codeword, before
/// `xorout`) computed from them.
///
/// # Examples
///
/// ```
/// let modbus = slotgen::catalog::custom(0x8005, 0xffff, true, true, 0x0000);
/// assert_eq!(modbus.check, 0x4b37); // the catalogue's CRC-16/MODBUS check value
/// assert_eq!(slotgen::catalog::name_of(&modbus), Some("CRC-16/MODBUS"));
/// ```
#[must_use]
pub fn custom(poly: u16, init: u16, refin: bool, refout: bool, xorout: u16) -> Algorithm<u16> {
    let mut algorithm = Algorithm {
        width: 16,
        poly,
        init,
        refin,
        refout,
        xorout,
        check: 0,
        residue: 0,
    };
    let crc = slotgen_tables::Crc16::new(&algorithm);
    algorithm.check = crc.checksum(b"123456789");
    // An error-free codeword: a message and its CRC, least significant byte first for a
    // reflected output, most significant first otherwise. Without `xorout`, the register
    // after it is the residue.
    let sum = crc.checksum(b"");
    let codeword = if refout {
        sum.to_le_bytes()
    } else {
        sum.to_be_bytes()
    };
    let bare = slotgen_tables::Crc16::new(&Algorithm {
        xorout: 0,
        ..algorithm
    });
    algorithm.residue = bare.checksum(&codeword);
    algorithm
}

/// The catalogue names nearest to `wanted` (already normalized), by their names and aliases
/// without the `CRC-16/` prefix, as [`find`] reads them ([`crate::text::nearest`]).
fn nearest(wanted: &str) -> Vec<&'static str> {
    fn short(s: &str) -> &str {
        s.strip_prefix("CRC-16/").unwrap_or(s)
    }
    let spellings = CATALOG.iter().flat_map(|e| {
        std::iter::once(e.name)
            .chain(e.aliases.iter().copied())
            .map(move |n| (e.name, short(n)))
    });
    crate::text::nearest(short(wanted), spellings)
}

/// The `crc` crate's engine for `algorithm`, the independent reference CRC of slotgen.
///
/// `crc::Crc` borrows its algorithm for `'static`. Catalogue algorithms are statics already;
/// other parameter sets are interned, each distinct one leaked once for the process's life.
#[must_use]
pub fn reference_crc(algorithm: &Algorithm<u16>) -> crc::Crc<u16> {
    use std::sync::Mutex;
    static INTERNED: Mutex<Vec<&'static Algorithm<u16>>> = Mutex::new(Vec::new());
    let exact = |a: &Algorithm<u16>| same_parameters(a, algorithm) && a.check == algorithm.check;
    if let Some(entry) = CATALOG.iter().find(|e| exact(e.algorithm)) {
        return crc::Crc::<u16>::new(entry.algorithm);
    }
    let mut interned = INTERNED
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let stored = match interned.iter().find(|a| exact(a)) {
        Some(a) => *a,
        None => {
            let leaked: &'static Algorithm<u16> = Box::leak(Box::new(*algorithm));
            interned.push(leaked);
            leaked
        }
    };
    crc::Crc::<u16>::new(stored)
}

/// The `slotgen` options that name a CRC: `--crc NAME` for a catalogue CRC, else the custom
/// parameters, every one spelled out.
///
/// # Examples
///
/// ```
/// use slotgen::catalog::crc_options;
///
/// assert_eq!(crc_options(&crc::CRC_16_XMODEM), "--crc CRC-16/XMODEM");
/// let custom = slotgen::catalog::custom(0x1021, 0x1234, false, false, 0);
/// assert_eq!(
///     crc_options(&custom),
///     "--poly 0x1021 --init 0x1234 --refin false --refout false --xorout 0x0000",
/// );
/// ```
#[must_use]
pub fn crc_options(alg: &Algorithm<u16>) -> String {
    match name_of(alg) {
        Some(name) => format!("--crc {name}"),
        None => format!(
            "--poly {:#06x} --init {:#06x} --refin {} --refout {} --xorout {:#06x}",
            alg.poly, alg.init, alg.refin, alg.refout, alg.xorout
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn catalogue_has_31_distinct_algorithms() {
        assert_eq!(CATALOG.len(), 31);
        for (i, a) in CATALOG.iter().enumerate() {
            for b in &CATALOG[i + 1..] {
                assert!(
                    !same_parameters(a.algorithm, b.algorithm),
                    "{} = {}",
                    a.name,
                    b.name
                );
            }
        }
    }

    #[test]
    fn custom_parameters_reproduce_catalogue_check_and_residue() {
        for e in CATALOG {
            let a = e.algorithm;
            let c = custom(a.poly, a.init, a.refin, a.refout, a.xorout);
            assert_eq!((c.check, c.residue), (a.check, a.residue), "{}", e.name);
        }
    }

    #[test]
    fn names_and_aliases_resolve() {
        for (name, expected) in [
            ("CRC-16/XMODEM", "CRC-16/XMODEM"),
            ("xmodem", "CRC-16/XMODEM"),
            ("ZMODEM", "CRC-16/XMODEM"),
            ("CCITT-FALSE", "CRC-16/IBM-3740"),
            ("autosar", "CRC-16/IBM-3740"),
            ("X-25", "CRC-16/IBM-SDLC"),
            ("x_25", "CRC-16/IBM-SDLC"),
            ("modbus", "CRC-16/MODBUS"),
            ("crc-16/kermit", "CRC-16/KERMIT"),
        ] {
            assert_eq!(find(name).map(|e| e.name), Ok(expected), "{name}");
        }
        match find("XMODEN") {
            Err(Error::UnknownCrc { nearest, .. }) => assert_eq!(nearest[0], "CRC-16/XMODEM"),
            other => panic!("{other:?}"),
        }
    }
}
