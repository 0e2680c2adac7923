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

pub mod c;
pub mod common;
pub mod elixir;
pub mod go;
pub mod java;
pub mod js;
pub mod json;
pub mod lua;
pub mod php;
pub mod python;
pub mod redis_function;
pub mod ruby;
pub mod rust;
mod scheme_common;
pub mod shortest;

pub use common::{describe, spec_options};
