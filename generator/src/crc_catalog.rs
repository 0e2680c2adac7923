//! Every CRC of the CRC catalogue of width 8 to 64, by name and alias: the 31 CRC-16
//! algorithms of [`catalog`](crate::catalog) and the 66 of the other widths.
//!
//! Names are those of Greg Cook's "Catalogue of parametrised CRC algorithms" (the RevEng
//! catalogue); the parameters are the `crc` crate's `CRC_8_*` to `CRC_64_*` constants. Only
//! the CRC-16 algorithms derive tables so far; every entry computes slots through a
//! [`Scheme`](slotgen_tables::Scheme) and is checked against the `crc` crate.

use crc::Algorithm;
use slotgen_tables::{AnyCrc, CrcEngine};

use crate::catalog::{compact, normalize, suggest, CATALOG};
use crate::Error;

/// A catalogue algorithm's parameters, in the `crc` crate's type for its width.
#[derive(Clone, Copy, Debug)]
pub enum AnyAlgorithm {
    /// Width 8.
    W8(&'static Algorithm<u8>),
    /// Width 9 to 16.
    W16(&'static Algorithm<u16>),
    /// Width 17 to 32.
    W32(&'static Algorithm<u32>),
    /// Width 33 to 64.
    W64(&'static Algorithm<u64>),
}

/// The defining parameters of a CRC in the RevEng model, widened to `u64`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Parameters {
    /// The register's width in bits, 8 to 64.
    pub width: u8,
    /// The polynomial, normal form, without the `x^width` term.
    pub poly: u64,
    /// The register's initial value.
    pub init: u64,
    /// Whether each input byte is reflected.
    pub refin: bool,
    /// Whether the output is reflected.
    pub refout: bool,
    /// The value xored into the output.
    pub xorout: u64,
    /// The CRC of `"123456789"`.
    pub check: u64,
    /// The register after an error-free codeword, before `xorout`.
    pub residue: u64,
}

macro_rules! widen {
    ($a:expr) => {{
        let a = $a;
        Parameters {
            width: a.width,
            poly: a.poly.into(),
            init: a.init.into(),
            refin: a.refin,
            refout: a.refout,
            xorout: a.xorout.into(),
            check: a.check.into(),
            residue: a.residue.into(),
        }
    }};
}

pub(crate) use widen;

impl AnyAlgorithm {
    /// The parameters, widened to `u64`.
    #[must_use]
    pub fn parameters(self) -> Parameters {
        match self {
            Self::W8(a) => widen!(a),
            Self::W16(a) => widen!(a),
            Self::W32(a) => widen!(a),
            Self::W64(a) => widen!(a),
        }
    }

    /// The `crc` crate's CRC of `bytes`: the independent reference.
    #[must_use]
    pub fn reference_checksum(self, bytes: &[u8]) -> u64 {
        match self {
            Self::W8(a) => crc::Crc::<u8>::new(a).checksum(bytes).into(),
            Self::W16(a) => crc::Crc::<u16>::new(a).checksum(bytes).into(),
            Self::W32(a) => crc::Crc::<u32>::new(a).checksum(bytes).into(),
            Self::W64(a) => crc::Crc::<u64>::new(a).checksum(bytes),
        }
    }

    /// The runtime's engine for this algorithm: for a CRC-16 of the catalogue, the runtime's
    /// shared static ([`slotgen_tables::catalog`]); otherwise built once per process and
    /// algorithm and kept for the process's life (a `u64` engine holds 32 KiB of tables).
    #[must_use]
    pub fn engine(self) -> AnyCrc<'static> {
        if let Self::W16(a) = self {
            if let Some(shared) = slotgen_tables::catalog::find(a) {
                return AnyCrc::W16(shared);
            }
        }
        use std::sync::Mutex;
        /// Engines built so far, by catalogue name.
        static BUILT: Mutex<Vec<(Parameters, AnyCrc<'static>)>> = Mutex::new(Vec::new());
        let key = self.parameters();
        let mut built = BUILT.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((_, e)) = built.iter().find(|(p, _)| *p == key) {
            return *e;
        }
        let engine = match self {
            Self::W8(a) => AnyCrc::W8(Box::leak(Box::new(CrcEngine::<u8>::new(a)))),
            Self::W16(a) => AnyCrc::W16(Box::leak(Box::new(CrcEngine::<u16>::new(a)))),
            Self::W32(a) => AnyCrc::W32(Box::leak(Box::new(CrcEngine::<u32>::new(a)))),
            Self::W64(a) => AnyCrc::W64(Box::leak(Box::new(CrcEngine::<u64>::new(a)))),
        };
        built.push((key, engine));
        engine
    }
}

/// One algorithm of the CRC catalogue, of any width from 8 to 64.
#[derive(Clone, Copy, Debug)]
pub struct AnyEntry {
    /// The catalogue name, such as `CRC-32/ISO-HDLC`.
    pub name: &'static str,
    /// The catalogue's aliases, such as `CRC-32` and `PKZIP`.
    pub aliases: &'static [&'static str],
    /// The parameters.
    pub algorithm: AnyAlgorithm,
    /// The name of the `crc` crate's constant, such as `CRC_32_ISO_HDLC`.
    pub constant: &'static str,
}

macro_rules! others {
    ($($w:ident $name:literal $konst:ident [$($alias:literal),*];)*) => {
        /// The 66 catalogue algorithms of widths 8 to 64 other than 16, by width, then in
        /// catalogue order.
        pub static OTHER_WIDTHS: &[AnyEntry] = &[
            $(AnyEntry {
                name: $name,
                aliases: &[$($alias),*],
                algorithm: AnyAlgorithm::$w(&crc::$konst),
                constant: stringify!($konst),
            },)*
        ];
    };
}

others! {
    W8 "CRC-8/AUTOSAR" CRC_8_AUTOSAR [];
    W8 "CRC-8/BLUETOOTH" CRC_8_BLUETOOTH [];
    W8 "CRC-8/CDMA2000" CRC_8_CDMA2000 [];
    W8 "CRC-8/DARC" CRC_8_DARC [];
    W8 "CRC-8/DVB-S2" CRC_8_DVB_S2 [];
    W8 "CRC-8/GSM-A" CRC_8_GSM_A [];
    W8 "CRC-8/GSM-B" CRC_8_GSM_B [];
    W8 "CRC-8/HITAG" CRC_8_HITAG [];
    W8 "CRC-8/I-432-1" CRC_8_I_432_1 ["CRC-8/ITU"];
    W8 "CRC-8/I-CODE" CRC_8_I_CODE [];
    W8 "CRC-8/LTE" CRC_8_LTE [];
    W8 "CRC-8/MAXIM-DOW" CRC_8_MAXIM_DOW ["CRC-8/MAXIM", "DOW-CRC"];
    W8 "CRC-8/MIFARE-MAD" CRC_8_MIFARE_MAD [];
    W8 "CRC-8/NRSC-5" CRC_8_NRSC_5 [];
    W8 "CRC-8/OPENSAFETY" CRC_8_OPENSAFETY [];
    W8 "CRC-8/ROHC" CRC_8_ROHC [];
    W8 "CRC-8/SAE-J1850" CRC_8_SAE_J1850 [];
    W8 "CRC-8/SMBUS" CRC_8_SMBUS ["CRC-8"];
    W8 "CRC-8/TECH-3250" CRC_8_TECH_3250 ["CRC-8/AES", "CRC-8/EBU"];
    W8 "CRC-8/WCDMA" CRC_8_WCDMA [];
    W16 "CRC-10/ATM" CRC_10_ATM ["CRC-10", "CRC-10/I-610"];
    W16 "CRC-10/CDMA2000" CRC_10_CDMA2000 [];
    W16 "CRC-10/GSM" CRC_10_GSM [];
    W16 "CRC-11/FLEXRAY" CRC_11_FLEXRAY ["CRC-11"];
    W16 "CRC-11/UMTS" CRC_11_UMTS [];
    W16 "CRC-12/CDMA2000" CRC_12_CDMA2000 [];
    W16 "CRC-12/DECT" CRC_12_DECT ["X-CRC-12"];
    W16 "CRC-12/GSM" CRC_12_GSM [];
    W16 "CRC-12/UMTS" CRC_12_UMTS ["CRC-12/3GPP"];
    W16 "CRC-13/BBC" CRC_13_BBC [];
    W16 "CRC-14/DARC" CRC_14_DARC [];
    W16 "CRC-14/GSM" CRC_14_GSM [];
    W16 "CRC-15/CAN" CRC_15_CAN ["CRC-15"];
    W16 "CRC-15/MPT1327" CRC_15_MPT1327 [];
    W32 "CRC-17/CAN-FD" CRC_17_CAN_FD [];
    W32 "CRC-21/CAN-FD" CRC_21_CAN_FD [];
    W32 "CRC-24/BLE" CRC_24_BLE [];
    W32 "CRC-24/FLEXRAY-A" CRC_24_FLEXRAY_A [];
    W32 "CRC-24/FLEXRAY-B" CRC_24_FLEXRAY_B [];
    W32 "CRC-24/INTERLAKEN" CRC_24_INTERLAKEN [];
    W32 "CRC-24/LTE-A" CRC_24_LTE_A [];
    W32 "CRC-24/LTE-B" CRC_24_LTE_B [];
    W32 "CRC-24/OPENPGP" CRC_24_OPENPGP ["CRC-24"];
    W32 "CRC-24/OS-9" CRC_24_OS_9 [];
    W32 "CRC-30/CDMA" CRC_30_CDMA [];
    W32 "CRC-31/PHILIPS" CRC_31_PHILIPS [];
    W32 "CRC-32/AIXM" CRC_32_AIXM ["CRC-32Q"];
    W32 "CRC-32/AUTOSAR" CRC_32_AUTOSAR [];
    W32 "CRC-32/BASE91-D" CRC_32_BASE91_D ["CRC-32D"];
    W32 "CRC-32/BZIP2" CRC_32_BZIP2 ["CRC-32/AAL5", "CRC-32/DECT-B", "B-CRC-32"];
    W32 "CRC-32/CD-ROM-EDC" CRC_32_CD_ROM_EDC [];
    W32 "CRC-32/CKSUM" CRC_32_CKSUM ["CKSUM", "CRC-32/POSIX"];
    W32 "CRC-32/ISCSI" CRC_32_ISCSI ["CRC-32/BASE91-C", "CRC-32/CASTAGNOLI", "CRC-32/INTERLAKEN", "CRC-32C"];
    W32 "CRC-32/ISO-HDLC" CRC_32_ISO_HDLC ["CRC-32", "CRC-32/ADCCP", "CRC-32/V-42", "CRC-32/XZ", "PKZIP"];
    W32 "CRC-32/JAMCRC" CRC_32_JAMCRC ["JAMCRC"];
    W32 "CRC-32/MEF" CRC_32_MEF [];
    W32 "CRC-32/MPEG-2" CRC_32_MPEG_2 [];
    W32 "CRC-32/XFER" CRC_32_XFER ["XFER"];
    W64 "CRC-40/GSM" CRC_40_GSM [];
    W64 "CRC-64/ECMA-182" CRC_64_ECMA_182 ["CRC-64"];
    W64 "CRC-64/GO-ISO" CRC_64_GO_ISO [];
    W64 "CRC-64/MS" CRC_64_MS [];
    W64 "CRC-64/NVME" CRC_64_NVME [];
    W64 "CRC-64/REDIS" CRC_64_REDIS [];
    W64 "CRC-64/WE" CRC_64_WE [];
    W64 "CRC-64/XZ" CRC_64_XZ ["CRC-64/GO-ECMA"];
}

/// Every catalogue algorithm of width 8 to 64 (97), by width, then in catalogue order.
///
/// # Examples
///
/// ```
/// let all = slotgen::crc_catalog::all();
/// assert_eq!(all.len(), 97);
/// assert!(all.iter().any(|e| e.name == "CRC-64/XZ"));
/// ```
#[must_use]
pub fn all() -> Vec<AnyEntry> {
    let sixteen = CATALOG.iter().map(|e| AnyEntry {
        name: e.name,
        aliases: e.aliases,
        algorithm: AnyAlgorithm::W16(e.algorithm),
        constant: e.constant,
    });
    let below = OTHER_WIDTHS
        .iter()
        .copied()
        .filter(|e| e.algorithm.parameters().width < 16);
    let above = OTHER_WIDTHS
        .iter()
        .copied()
        .filter(|e| e.algorithm.parameters().width > 16);
    below.chain(sixteen).chain(above).collect()
}

/// Finds a catalogue algorithm of any width by its name or an alias, case-insensitive,
/// with `_` read as `-`, or by its name with other punctuation or none, as its `crc` crate
/// constant spells it (`crc-32/iso-hdlc`, `CRC-32C`, `CRC_64_XZ`, `crc32isohdlc`). As
/// [`catalog::find`](crate::catalog::find): `crc16`, `redis` and `redis-cluster` find
/// nothing and get CRC-16/XMODEM, Redis Cluster's CRC16, suggested first.
///
/// # Errors
///
/// [`Error::UnknownCrc`] when nothing matches, with the nearest names.
///
/// # Examples
///
/// ```
/// let entry = slotgen::crc_catalog::find("crc-32c").unwrap();
/// assert_eq!(entry.name, "CRC-32/ISCSI");
/// assert_eq!(entry.algorithm.parameters().check, 0xe306_9283);
/// ```
pub fn find(name: &str) -> Result<AnyEntry, Error> {
    let wanted = normalize(name);
    let loose = compact(name);
    let entries = all();
    if let Some(e) = entries
        .iter()
        .find(|e| e.name == wanted || e.aliases.contains(&wanted.as_str()))
        .or_else(|| entries.iter().find(|e| compact(e.name) == loose))
    {
        return Ok(*e);
    }
    let spellings = || {
        entries.iter().flat_map(|e| {
            std::iter::once(e.name)
                .chain(e.aliases.iter().copied())
                .map(|n| (e.name, n))
        })
    };
    Err(Error::UnknownCrc {
        name: name.to_owned(),
        nearest: suggest(&wanted, spellings),
    })
}

/// A CRC-16 of the catalogue by a name a user gave ([`crate::catalog::find`]); a catalogue
/// CRC of another width, named where a CRC-16 is taken (`crc-32`), is said to be one
/// rather than answered with the nearest CRC-16s.
///
/// # Errors
///
/// [`Error::NotCrc16`] for a catalogue CRC of another width, else as
/// [`crate::catalog::find`].
///
/// # Examples
///
/// ```
/// use slotgen::{crc_catalog, Error};
///
/// assert_eq!(crc_catalog::find_crc16("xmodem").unwrap().name, "CRC-16/XMODEM");
/// assert!(matches!(crc_catalog::find_crc16("crc-32"), Err(Error::NotCrc16 { width: 32, .. })));
/// ```
pub fn find_crc16(name: &str) -> Result<&'static crate::catalog::CatalogEntry, Error> {
    crate::catalog::find(name).map_err(|e| match find(name) {
        Ok(other) if other.algorithm.parameters().width != 16 => Error::NotCrc16 {
            name: other.name,
            width: other.algorithm.parameters().width,
        },
        _ => e,
    })
}

/// The `crc` object of the JSON forms: `{ name, width, poly, init, refin, refout, xorout,
/// check, residue }`, the RevEng model, `name` the catalogue name or `custom`.
pub(crate) fn crc_value(name: &str, alg: &crc::Algorithm<u16>) -> serde_json::Value {
    parameters_value(name, &widen!(alg))
}

/// The `crc` object of [`crc_value`] for a CRC of any width (a scheme's).
pub(crate) fn parameters_value(name: &str, crc: &Parameters) -> serde_json::Value {
    serde_json::json!({
        "name": name,
        "width": crc.width,
        "poly": crc.poly,
        "init": crc.init,
        "refin": crc.refin,
        "refout": crc.refout,
        "xorout": crc.xorout,
        "check": crc.check,
        "residue": crc.residue,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A catalogue CRC of another width, by any of its names, is said to be one (a tester's
    /// `--crc crc-32` was offered three CRC-16s); every such name of the wider catalogue.
    #[test]
    fn a_crc_of_another_width_is_named_so() {
        for entry in all() {
            let width = entry.algorithm.parameters().width;
            if width == 16 {
                continue;
            }
            for name in std::iter::once(entry.name).chain(entry.aliases.iter().copied()) {
                match find_crc16(name) {
                    Err(Error::NotCrc16 {
                        name: said,
                        width: w,
                    }) => {
                        assert_eq!((said, w), (entry.name, width), "{name}");
                    }
                    other => panic!("{name}: {other:?}"),
                }
            }
        }
    }

    #[test]
    fn ninety_seven_distinct_algorithms_of_widths_8_to_64() {
        let all = all();
        assert_eq!(all.len(), 97);
        for (i, a) in all.iter().enumerate() {
            let p = a.algorithm.parameters();
            assert!((8..=64).contains(&p.width), "{}", a.name);
            assert!(
                a.name.starts_with(&format!("CRC-{}/", p.width)),
                "{}",
                a.name
            );
            assert!(
                a.constant.starts_with(&format!("CRC_{}_", p.width)),
                "{}",
                a.name
            );
            for b in &all[i + 1..] {
                let q = b.algorithm.parameters();
                assert!(
                    (p.width, p.poly, p.init, p.refin, p.refout, p.xorout)
                        != (q.width, q.poly, q.init, q.refin, q.refout, q.xorout),
                    "{} = {}",
                    a.name,
                    b.name
                );
            }
        }
    }

    #[test]
    fn names_and_aliases_resolve() {
        for (name, expected) in [
            ("CRC-32", "CRC-32/ISO-HDLC"),
            ("crc-32c", "CRC-32/ISCSI"),
            ("crc_64_xz", "CRC-64/XZ"),
            ("CRC-16/XMODEM", "CRC-16/XMODEM"),
            ("zmodem", "CRC-16/XMODEM"),
            ("crc-8", "CRC-8/SMBUS"),
        ] {
            assert_eq!(find(name).map(|e| e.name), Ok(expected), "{name}");
        }
        match find("CRC-32/ISO-HDCL") {
            Err(Error::UnknownCrc { nearest, .. }) => assert_eq!(nearest[0], "CRC-32/ISO-HDLC"),
            other => panic!("{other:?}"),
        }
        for name in ["redis", "crc16"] {
            match find(name) {
                Err(Error::UnknownCrc { nearest, .. }) => assert_eq!(nearest[0], "CRC-16/XMODEM"),
                other => panic!("{other:?}"),
            }
        }
    }

    /// A name's letters and digits name one algorithm, so that a spelling with other
    /// punctuation is unambiguous: no two names have the same, none is another algorithm's
    /// alias spelled otherwise, and each is its `crc` constant's. Each resolves.
    #[test]
    fn names_without_punctuation_are_unambiguous_and_resolve() {
        let all = all();
        for a in &all {
            assert_eq!(compact(a.name), compact(a.constant), "{}", a.name);
            for b in &all {
                if a.name == b.name {
                    continue;
                }
                assert_ne!(compact(a.name), compact(b.name), "{} {}", a.name, b.name);
                for alias in b.aliases {
                    assert_ne!(compact(a.name), compact(alias), "{} {alias}", a.name);
                }
            }
            for spelling in [
                a.name.replace(['-', '/'], "").to_lowercase(),
                a.name.replace(['-', '/'], "_"),
                a.name.replace('/', "-"),
            ] {
                assert_eq!(find(&spelling).map(|e| e.name), Ok(a.name), "{spelling}");
            }
        }
    }
}
