//! Emitters: a [`Derivation`](crate::Derivation) as source code.
//!
//! [`rust`] is the one Rust emitter: the `slot_table!` macro returns its tokens, and the
//! build.rs API and `slotgen emit rust` print them through `prettyplease`.
//!
//! [`lua`], [`c`], [`python`], [`js`], [`go`], [`java`], [`ruby`], [`php`] and [`elixir`]
//! emit a standalone module for one spec that offers the same operations under each
//! language's casing: `slot` (the hash slot of a key, by the full hashtag rule, over
//! bytes), `tag_for_slot`, `key_for_slot` (refusing a prefix that contains `{`) and
//! `tags_for_slot` (lazy, with an exact count), and in the newer ones `hashtag`.
//! [`redis_function`] emits Lua that runs inside the server: a Functions library and a
//! block for `EVAL` scripts; [`js::types`] the TypeScript declarations of the JS module.
//! Each is a pure function of the derivation (and the name given): the same spec gives
//! byte-identical output, and any alphabet byte is safe in it. Every file starts with a
//! header naming the slotgen version, the command that made it (one that reruns as
//! written) and the full spec. [`json`] writes the whole derivation as data.
//!
//! Every language but Rust and JSON also emits a module for a
//! [`SchemeDerivation`](crate::scheme::invert::SchemeDerivation), any named sharding scheme
//! (`python::scheme_module`, `js::scheme_module`, `go::scheme_package`, `c::scheme_header`,
//! `...`): the same operations with the scheme's
//! hashtag rule and delimiters, its first slot (1 for Tarantool vshard), and for a scheme
//! that hashes the whole key a key that is the tag alone. What they share (the CRC register,
//! the transform, the tables) is computed once, in `scheme_common`.
//!
//! [`lua`] and [`redis_function`] emit from one [`model::Model`], built from either
//! derivation: one template set (`template/lua/`) for the module, the `EVAL` block and the
//! Functions library, which share the key rule, lookup and surface parts.

pub mod c;
pub mod common;
pub mod csharp;
pub mod elixir;
pub mod erlang;
pub mod go;
pub mod java;
pub mod js;
pub mod json;
pub mod language;
pub mod lua;
pub mod model;
pub mod php;
pub mod python;
pub mod redis_function;
pub mod ruby;
pub mod rust;
pub mod shortest;
mod values;

pub use common::{describe, describe_scheme, scheme_options, spec_options};
