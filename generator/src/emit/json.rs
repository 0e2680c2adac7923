//! The JSON form of a derivation: the whole derivation, for other tools and for
//! `slotgen verify`, which reads it back and checks it. The schema (`slotgen-derivation/2`
//! and `slotgen-scheme-derivation/1`: every field, its type and meaning, and the reading of
//! a spec back) is documented and owned by [`crate::json_schema`], which the verifier reads
//! through too; these are its writer's names.
//!
//! # Examples
//!
//! ```
//! let d = slotgen::derive(&slotgen::Spec::default()).unwrap();
//! let value = slotgen::emit::json::to_value(&d, None);
//! assert_eq!(value["format"], "slotgen-derivation/2");
//! assert_eq!(value["base_slot"], 13881);
//! assert_eq!(value["inverse"][0], 0x88d4);
//! ```

pub use crate::json_schema::{spec_of, to_value, FORMAT, SCHEME_FORMAT};
// For the other emitters' JSON forms (`shortest`), which share the `crc` object.
pub(crate) use crate::json_schema::CrcHeader;
