//! Emitters: a [`Derivation`] as source code.
//!
//! [`rust`] is the one Rust emitter: the `slot_table!` macro returns its tokens, and the
//! build.rs API and `slotgen emit rust` print them through `prettyplease`.
//!
//! [`lua`], [`c`], [`python`], [`js`] and [`go`] emit a standalone module for one spec that
//! offers the same four operations under each language's casing: `slot` (the hash slot of
//! a key, by the full hashtag rule, over bytes), `tag_for_slot`, `key_for_slot` (refusing a
//! prefix that contains `{`) and `tags_for_slot`. Each is a pure function of the
//! derivation: the same spec gives byte-identical output. Every file starts with a header
//! naming the slotgen version, the command that made it and the full spec. [`json`] writes
//! the whole derivation as data.

pub mod c;
pub mod common;
pub mod go;
pub mod js;
pub mod json;
pub mod lua;
pub mod python;
pub mod rust;
pub mod shortest;

pub use common::{describe, spec_options};
