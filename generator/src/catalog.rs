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

/// A CRC's name without its punctuation, upper case (`crc16_xmodem`, `CRC-16/XMODEM`:
/// `CRC16XMODEM`): a spelling whose letters and digits are a catalogue name's names that
/// algorithm, since no two catalogue names have the same letters and digits (a test checks
/// this).
pub(crate) fn compact(name: &str) -> String {
    name.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_uppercase())
        .collect()
}

/// What Redis and its users call its CRC, as [`compact`] spells them: Redis Cluster's
/// "CRC16" is CRC-16/XMODEM (the Redis Cluster specification), while the catalogue's alias
/// `CRC-16` is CRC-16/ARC. Neither finds an algorithm; each gets CRC-16/XMODEM suggested
/// first.
const REDIS_WORDS: &[&str] = &["REDIS", "REDISCLUSTER", "CRC16"];

/// The names to suggest for `wanted`, a CRC name that matched none (as the caller compares
/// it), from `known` (a catalogue name with each of its spellings, as
/// [`crate::text::nearest`] takes them): CRC-16/XMODEM first for what Redis calls its CRC
/// ([`REDIS_WORDS`]), then the nearest spellings; where none is near, those nearest to the
/// name's distinctive part, the words left without `CRC` and its width (`xmodem-crc16`:
/// `XMODEM`).
pub(crate) fn suggest<I>(wanted: &str, known: impl Fn() -> I) -> Vec<&'static str>
where
    I: IntoIterator<Item = (&'static str, &'static str)>,
{
    let redis = REDIS_WORDS
        .contains(&compact(wanted).as_str())
        .then_some("CRC-16/XMODEM");
    let mut names = crate::text::nearest(wanted, known());
    if names.is_empty() {
        let part = distinctive(wanted);
        if !part.is_empty() {
            names = crate::text::nearest(&part, known());
        }
    }
    redis
        .into_iter()
        .chain(names.into_iter().filter(|&n| Some(n) != redis))
        .take(crate::text::MAX_NEAREST)
        .collect()
}

/// The words of a CRC name without `CRC`, its width and the width after it (`CRC16`, `CRC`
/// `16`), joined by `-`: `xmodem-crc16` and `crc_16_xmodme` give `XMODEM` and `XMODME`.
fn distinctive(name: &str) -> String {
    let upper = name.to_ascii_uppercase();
    let words: Vec<&str> = upper
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let is_width = |w: &str| !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit());
    let mut kept = Vec::new();
    let mut after_crc = false;
    for w in words {
        let crc = w
            .strip_prefix("CRC")
            .is_some_and(|rest| rest.is_empty() || is_width(rest));
        let width = after_crc && is_width(w);
        if !(crc || width) {
            kept.push(w);
        }
        after_crc = w == "CRC";
    }
    kept.join("-")
}

/// Finds a catalogue algorithm by its name or an alias, case-insensitive, with `_` read as
/// `-`; the `CRC-16/` prefix may be left out (`modbus`, `XMODEM`, `ibm-3740`). A name may
/// also be spelled with other punctuation or none (`crc16xmodem`, `crc16_xmodem`,
/// `CRC_16_XMODEM`, `ibm3740`): its letters and digits name one algorithm.
///
/// What Redis calls "CRC16", the CRC of Redis Cluster's hash slots, is CRC-16/XMODEM (the
/// Redis Cluster specification); the catalogue's alias `CRC-16` is another, CRC-16/ARC.
/// `crc16` (as Redis writes it), `redis` and `redis-cluster` find no algorithm, and get
/// CRC-16/XMODEM suggested first.
///
/// # Errors
///
/// [`Error::UnknownCrc`] when nothing matches, with the nearest names: also those near the
/// name's words other than `CRC` and its width (`xmodem-crc16`: CRC-16/XMODEM).
///
/// # Examples
///
/// ```
/// let entry = slotgen::catalog::find("zmodem").unwrap();
/// assert_eq!(entry.name, "CRC-16/XMODEM");
/// assert_eq!(entry.algorithm.check, 0x31c3);
/// assert_eq!(slotgen::catalog::find("crc16_xmodem").unwrap().name, "CRC-16/XMODEM");
/// match slotgen::catalog::find("crc16") {
///     Err(slotgen::Error::UnknownCrc { nearest, .. }) => assert_eq!(nearest[0], "CRC-16/XMODEM"),
///     other => panic!("{other:?}"),
/// }
/// ```
pub fn find(name: &str) -> Result<&'static CatalogEntry, Error> {
    let wanted = normalize(name);
    let prefixed = format!("CRC-16/{wanted}");
    let matches = |candidate: &str| candidate == wanted || candidate == prefixed;
    let loose = compact(name);
    let loose_prefixed = format!("CRC16{loose}");
    let loosely = |candidate: &str| {
        let c = compact(candidate);
        c == loose || c == loose_prefixed
    };
    CATALOG
        .iter()
        .find(|e| matches(e.name) || e.aliases.iter().any(|a| matches(a)))
        .or_else(|| CATALOG.iter().find(|e| loosely(e.name)))
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
/// without the `CRC-16/` prefix, as [`find`] reads them ([`suggest`]).
fn nearest(wanted: &str) -> Vec<&'static str> {
    fn short(s: &str) -> &str {
        s.strip_prefix("CRC-16/").unwrap_or(s)
    }
    let spellings = || {
        CATALOG.iter().flat_map(|e| {
            std::iter::once(e.name)
                .chain(e.aliases.iter().copied())
                .map(move |n| (e.name, short(n)))
        })
    };
    suggest(short(wanted), spellings)
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

    /// Every catalogue name spelled with other punctuation, or none, in any case, finds its
    /// algorithm (`crc16xmodem` was refused with no suggestion).
    #[test]
    fn names_with_other_punctuation_resolve() {
        for e in CATALOG {
            let bare = e.name.replace(['-', '/'], "");
            let short = e.name.strip_prefix("CRC-16/").unwrap();
            for spelling in [
                bare.to_lowercase(),
                e.name.replace(['-', '/'], "_"),
                e.name.replace('/', "-").to_lowercase(),
                e.name.replace('/', " "),
                format!("crc16_{}", short.to_lowercase()),
                short.replace('-', ""),
                e.constant.to_owned(),
            ] {
                assert_eq!(find(&spelling).map(|f| f.name), Ok(e.name), "{spelling}");
            }
        }
    }

    fn nearest_of(name: &str) -> Vec<&'static str> {
        match find(name) {
            Err(Error::UnknownCrc { nearest, .. }) => nearest,
            other => panic!("{name}: {other:?}"),
        }
    }

    /// What Redis calls its CRC finds nothing and gets CRC-16/XMODEM first (the Redis
    /// Cluster specification's CRC16: its check value is the specification's 0x31c3), and a
    /// name holding a catalogue name's distinctive part gets that name.
    #[test]
    fn redis_words_and_distinctive_parts_are_suggested() {
        assert_eq!(
            crc::Crc::<u16>::new(&crc::CRC_16_XMODEM).checksum(b"123456789"),
            0x31c3
        );
        for name in ["redis", "redis-cluster", "Redis Cluster", "crc16", "CRC16"] {
            assert_eq!(nearest_of(name).first(), Some(&"CRC-16/XMODEM"), "{name}");
        }
        // the catalogue's alias `CRC-16` stays CRC-16/ARC, and is still suggested for `crc16`
        assert_eq!(find("CRC-16").map(|e| e.name), Ok("CRC-16/ARC"));
        assert!(nearest_of("crc16").contains(&"CRC-16/ARC"));
        for (name, expected) in [
            ("xmodem-crc16", "CRC-16/XMODEM"),
            ("xmodem_crc", "CRC-16/XMODEM"),
            ("crc16_xmodme", "CRC-16/XMODEM"),
            ("modbus-crc-16", "CRC-16/MODBUS"),
            ("kermit crc16", "CRC-16/KERMIT"),
        ] {
            assert_eq!(nearest_of(name).first(), Some(&expected), "{name}");
        }
    }
}
