//! Re-checking a derivation read back from its JSON form ([`json_derivation`]).
//!
//! A JSON derivation is trusted for nothing but the spec it names: the CRC (catalogue name,
//! or the parameters of a `custom` one), the alphabet (`alphabet_hex`), the tag length and
//! the slot count ([`json_schema::spec_of`], beside the writer). Everything else is derived
//! again and compared value by value, so that an edited constant is named (`inverse[2]`:
//! expected `36871`, found `36872`); then the re-derivation is verified exhaustively
//! with [`verify`](crate::verify()).

use serde_json::Value;

use super::report::MAX_LISTED;
use crate::json_schema::{self, read, FILE_FIELDS};
use crate::{derive, verify, Derivation, Error, Report};

/// One value of a JSON derivation that differs from the re-derivation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// Where: the field and index, such as `inverse[2]` or `crc.poly`.
    pub path: String,
    /// The re-derivation's value, as JSON text (`36871`, `"CRC-16/XMODEM"`); `(absent)` when
    /// the re-derivation has no such field. Cut to [`crate::text::MAX_SHOWN`] characters with
    /// a marker, as are `found` and `path`.
    pub expected: String,
    /// The file's value, as JSON text; `(absent)` when the file lacks the field.
    pub found: String,
}

impl std::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "`{}`: expected {}, found {}",
            self.path, self.expected, self.found
        )
    }
}

/// The outcome of [`json_derivation`].
#[derive(Clone, Debug)]
pub struct JsonReport {
    /// The re-derivation of the spec the file names.
    pub derivation: Derivation,
    /// How many values (numbers, strings, booleans, array entries) were compared.
    pub values_compared: u64,
    /// How many of them differ from the re-derivation.
    pub mismatch_count: u64,
    /// The first [`MAX_LISTED`] mismatches, in file order.
    pub mismatches: Vec<Mismatch>,
    /// The exhaustive verification of the re-derivation; `None` when a value differed, since
    /// the file's table is then not the verified one.
    pub verification: Option<Report>,
}

impl JsonReport {
    /// Whether every value matched and the exhaustive verification passed.
    #[must_use]
    pub fn passed(&self) -> bool {
        self.mismatch_count == 0 && self.verification.as_ref().is_some_and(Report::passed)
    }
}

/// Checks a derivation in its JSON form (schema `slotgen-derivation/2` of a CRC-16 spec,
/// or `slotgen-scheme-derivation/1` of a scheme, as [`json_schema::to_value`] writes them):
/// rebuilds the spec it names ([`json_schema::spec_of`]), derives it again, compares every value of the file with
/// the re-derivation's, and, when all match, verifies the re-derivation over every slot and
/// every alternative tag ([`verify`](crate::verify())).
///
/// The `generator` and `verification` fields are not compared. Values compare as JSON, so
/// masks must be JSON integers, as the emitter writes them (`35028`, not `"0x88d4"`).
///
/// # Errors
///
/// - [`Error::TableTooLarge`]: the text has more than [`MAX_JSON_BYTES`](super::MAX_JSON_BYTES).
/// - [`Error::TableJson`]: the text is not JSON, is truncated, or lacks a field that names
///   the spec.
/// - [`Error::TableFormat`]: `format` is neither [`json_schema::FORMAT`] nor
///   [`json_schema::SCHEME_FORMAT`] (the message names the former).
/// - [`Error::TableSpec`]: `alphabet_hex` is not hex.
/// - [`Error::UnsupportedWidth`]: `crc.width` is not 16.
/// - [`Error::UnknownCrc`]: `crc.name` is neither a catalogue name nor `custom`.
/// - Every error of [`derive()`] for the spec the file names.
///
/// # Examples
///
/// ```
/// let d = slotgen::derive(&slotgen::Spec::default())?;
/// let mut value = slotgen::json_schema::to_value(&d, None);
/// let report = slotgen::verify::json_derivation(&value.to_string())?;
/// assert!(report.passed());
///
/// value["inverse"][2] = 0x9008.into(); // the seed's constant is 0x9007 = 36871
/// let report = slotgen::verify::json_derivation(&value.to_string())?;
/// assert!(!report.passed());
/// assert_eq!(report.mismatches[0].to_string(), "`inverse[2]`: expected 36871, found 36872");
/// # Ok::<(), slotgen::Error>(())
/// ```
pub fn json_derivation(text: &str) -> Result<JsonReport, Error> {
    let format = match json_schema::format_of(text).as_deref() {
        Some(json_schema::SCHEME_FORMAT) => json_schema::SCHEME_FORMAT,
        _ => json_schema::FORMAT,
    };
    let found = read(text, format)?;
    let derivation = derive(&json_schema::spec_of(&found)?)?;
    let expected = json_schema::to_value(&derivation, None);
    let mut walk = Walk::default();
    walk.compare("", &expected, &found);
    let verification = (walk.mismatch_count == 0).then(|| verify(&derivation));
    Ok(JsonReport {
        derivation,
        values_compared: walk.values_compared,
        mismatch_count: walk.mismatch_count,
        mismatches: walk.mismatches,
        verification,
    })
}

/// A comparison of two JSON values, collecting mismatches.
#[derive(Default)]
struct Walk {
    values_compared: u64,
    mismatch_count: u64,
    mismatches: Vec<Mismatch>,
}

impl Walk {
    fn differ(&mut self, path: &str, expected: Option<&Value>, found: Option<&Value>) {
        let show = |v: Option<&Value>| {
            v.map_or_else(
                || "(absent)".to_owned(),
                |v| crate::text::shorten(&v.to_string(), crate::text::MAX_SHOWN),
            )
        };
        if expected.is_none() || found.is_none() {
            // a value on one side only is compared too, with nothing
            self.values_compared += 1;
        }
        self.mismatch_count += 1;
        if self.mismatches.len() < MAX_LISTED {
            self.mismatches.push(Mismatch {
                path: crate::text::escape_text(path),
                expected: show(expected),
                found: show(found),
            });
        }
    }

    fn compare(&mut self, path: &str, expected: &Value, found: &Value) {
        let join = |key: &str| {
            if path.is_empty() {
                key.to_owned()
            } else {
                format!("{path}.{key}")
            }
        };
        match (expected, found) {
            (Value::Object(e), Value::Object(f)) => {
                for (key, value) in e {
                    if path.is_empty() && FILE_FIELDS.contains(&key.as_str()) {
                        continue;
                    }
                    match f.get(key) {
                        Some(other) => self.compare(&join(key), value, other),
                        None => self.differ(&join(key), Some(value), None),
                    }
                }
                for (key, value) in f {
                    let ignored = path.is_empty() && FILE_FIELDS.contains(&key.as_str());
                    if !ignored && !e.contains_key(key) {
                        self.differ(&join(key), None, Some(value));
                    }
                }
            }
            (Value::Array(e), Value::Array(f)) => {
                for (i, (a, b)) in e.iter().zip(f).enumerate() {
                    self.compare(&format!("{path}[{i}]"), a, b);
                }
                for (i, a) in e.iter().enumerate().skip(f.len()) {
                    self.differ(&format!("{path}[{i}]"), Some(a), None);
                }
                for (i, b) in f.iter().enumerate().skip(e.len()) {
                    self.differ(&format!("{path}[{i}]"), None, Some(b));
                }
            }
            _ => {
                self.values_compared += 1;
                if expected != found {
                    self.differ(path, Some(expected), Some(found));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{catalog, Spec};
    #[test]
    fn custom_crc_round_trips_through_json() {
        // poly 0x1021 with init 0x1234 is no catalogue CRC, so it is written as `custom`
        let spec = Spec {
            crc: catalog::custom(0x1021, 0x1234, false, false, 0x0000),
            ..Spec::default()
        };
        assert_eq!(spec.crc_name(), "custom");
        let derivation = derive(&spec).unwrap();
        let value = json_schema::to_value(&derivation, None);
        assert_eq!(value["crc"]["name"], "custom");
        let report = json_derivation(&value.to_string()).unwrap();
        assert!(report.passed(), "{:?}", report.mismatches);
        assert_eq!(report.verification.unwrap().slots_checked, 16384);
    }

    #[test]
    fn every_edited_value_is_named() {
        let derivation = derive(&Spec::default()).unwrap();
        let original = json_schema::to_value(&derivation, None);
        let report = json_derivation(&original.to_string()).unwrap();
        assert!(report.passed());
        // change each leaf in turn: every change is caught, and named by its path
        let mut leaves = Vec::new();
        collect_leaves("", &original, &mut leaves);
        leaves.retain(|path| path != "generator"); // describes the file: not compared
        assert_eq!(leaves.len() as u64, report.values_compared);
        for path in leaves {
            if [
                "format",
                "crc.name",
                "crc.width",
                "alphabet_hex",
                "slots",
                "tag_len",
            ]
            .contains(&path.as_str())
            {
                continue; // these name the spec: checked by the error tests
            }
            let mut edited = original.clone();
            let leaf = pointer_mut(&mut edited, &path);
            *leaf = match leaf.take() {
                Value::Number(n) => (n.as_u64().unwrap() ^ 1).into(),
                Value::Bool(b) => (!b).into(),
                Value::String(s) => format!("{s}0").into(),
                other => panic!("{path}: {other}"),
            };
            let report = json_derivation(&edited.to_string()).unwrap();
            assert!(!report.passed(), "{path}");
            assert!(report.verification.is_none(), "{path}");
            assert!(
                report.mismatches.iter().any(|m| m.path == path),
                "{path}: {:?}",
                report.mismatches
            );
        }
    }

    fn collect_leaves(path: &str, value: &Value, out: &mut Vec<String>) {
        match value {
            Value::Object(map) => {
                for (k, v) in map {
                    let p = if path.is_empty() {
                        k.clone()
                    } else {
                        format!("{path}.{k}")
                    };
                    collect_leaves(&p, v, out);
                }
            }
            Value::Array(items) => {
                for (i, v) in items.iter().enumerate() {
                    collect_leaves(&format!("{path}[{i}]"), v, out);
                }
            }
            _ => out.push(path.to_owned()),
        }
    }

    fn pointer_mut<'v>(value: &'v mut Value, path: &str) -> &'v mut Value {
        let pointer = format!("/{}", path.replace(['.', '['], "/").replace(']', ""));
        value.pointer_mut(&pointer).unwrap()
    }

    #[test]
    fn spec_errors() {
        let derivation = derive(&Spec::default()).unwrap();
        let original = json_schema::to_value(&derivation, None);
        let text = original.to_string();
        assert!(matches!(
            json_derivation(&text[..text.len() / 2]),
            Err(Error::TableJson { .. })
        ));
        let mut v = original.clone();
        v["format"] = "slotgen-derivation/9".into();
        assert!(matches!(
            json_derivation(&v.to_string()),
            Err(Error::TableFormat { .. })
        ));
        let mut v = original.clone();
        v["alphabet_hex"] = "4x".into();
        assert!(matches!(
            json_derivation(&v.to_string()),
            Err(Error::TableSpec { .. })
        ));
        let mut v = original.clone();
        v["crc"]["name"] = "CRC-16/XMODEN".into();
        assert!(matches!(
            json_derivation(&v.to_string()),
            Err(Error::UnknownCrc { .. })
        ));
        let mut v = original.clone();
        v.as_object_mut().unwrap().remove("tag_len");
        match json_derivation(&v.to_string()) {
            Err(Error::TableJson { message }) => assert!(message.contains("tag_len"), "{message}"),
            other => panic!("{other:?}"),
        }
        // a spec that names another catalogue CRC is derived for that CRC, and every
        // constant of the XMODEM table then differs
        let mut v = original;
        v["crc"]["name"] = "CRC-16/IBM-3740".into(); // XMODEM with init 0xffff
        let report = json_derivation(&v.to_string()).unwrap();
        assert!(report.mismatches.iter().any(|m| m.path == "crc.init"));
        assert!(report.mismatches.iter().any(|m| m.path == "base_slot"));
        assert!(!report.passed());
    }
}
