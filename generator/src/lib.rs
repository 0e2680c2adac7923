#![doc = include_str!("../README.md")]
#![warn(missing_docs)]

pub mod algebra;
pub mod alphabet;
pub mod build;
pub mod catalog;
pub mod charset;
pub mod crc_catalog;
pub mod derive;
pub mod emit;
mod error;
pub mod json_schema;
pub mod key_layout;
pub mod request;
pub mod scheme;
pub mod shortest;
pub mod spec;
pub mod text;
pub mod user_file;
pub mod vectors;
pub mod verify;

pub use algebra::affine::AffineMap;
pub use algebra::gf2;
pub use alphabet::Alphabet;
pub use derive::{derive, Derivation, SlotTables, TagWords};
pub use error::Error;
pub use spec::Spec;
pub use verify::{verify, Report};
