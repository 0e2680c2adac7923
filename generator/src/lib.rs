//! slotgen: O(1) inverse tables for Redis Cluster style hash slots, derived exactly by
//! Gaussian elimination over GF(2), verified exhaustively, and emitted as code.
//!
//! A Redis Cluster key lands on slot `CRC-16/XMODEM(hashtag) mod 16384`. For tags of a fixed
//! length over an alphabet that is an affine subspace of GF(2)^8, the tag -> slot function
//! is affine over GF(2): flipping one input bit always flips the same slot bits. slotgen
//! extracts that [`AffineMap`], brings its linear part to reduced row echelon form
//! ([`algebra::gf2::Matrix`]), and derives the base slot, one inverse constant per slot bit, and two
//! small lookup tables, so that a tag for any slot costs two loads and an xor
//! ([`slotgen_tables::SlotTable::tag_for_slot`]).
//!
//! ```
//! use slotgen::{derive, verify, Spec};
//!
//! let derivation = derive(&Spec::default())?; // Redis Cluster
//! assert_eq!(derivation.base_slot(), 13881);
//! assert_eq!(&derivation.inverse[..3], &[0x88d4, 0x808a, 0x9007]);
//! assert!(verify(&derivation).passed());
//!
//! // With this alphabet, CRC-16/MODBUS reaches only 8192 slots with 4-symbol tags; the
//! // default `tag_len: None` picks the shortest length that reaches all of them.
//! let modbus = derive(&Spec::default().with_crc("CRC-16/MODBUS")?)?;
//! assert_eq!(modbus.tag_len, 5);
//! assert!(verify(&modbus).passed());
//! # Ok::<(), slotgen::Error>(())
//! ```
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
pub use derive::{derive, Derivation, TagWords};
pub use error::Error;
pub use spec::Spec;
pub use verify::{verify, Report};

/// The examples of this crate's README (its registry page), run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct CrateReadme;
