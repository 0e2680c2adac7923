//! Emitters: a derivation as source code.
//!
//! [`language::LANGUAGES`] is the registry: one [`language::Language`] per `slotgen emit`
//! language, with its options (`--name` and its default, `--package`, `--types`,
//! `--for-script`), the file a user saves, and the function that emits it. The CLI, the
//! docs' table of languages and the tests ask it; adding a language is a template, an emitter
//! and one registry entry.
//!
//! Each module is emitted from one [`model::Model`], built from a
//! [`Derivation`](crate::Derivation): of a CRC-16 spec or of any named sharding scheme. The
//! model holds what every
//! language shares (the hashtag rule, the CRC register and its tables, the transform to a
//! slot, the inverse tables and their lookup) and each emitter renders it through its
//! language's template (`template/<language>/`, one file that chooses its own parts, by
//! the one engine, minijinja, configured in `engine.rs`, over the model as one structured
//! value): [`lua::module`], [`c::header`],
//! [`python::module`], [`js::module`] (and [`js::types`], its TypeScript declarations),
//! [`go::package`], [`java::class`], [`ruby::module`], [`php::class`], [`elixir::module`],
//! [`csharp::class`], [`erlang::module`], and for Lua inside the server
//! [`redis_function::library`] (a Functions library) and [`redis_function::script_block`]
//! (a block for `EVAL` scripts). Every module offers one surface under its language's
//! casing: `slot` (the hash slot of a key, by the full hashtag rule), `hashtag`,
//! `tag_for_slot`, `key_for_slot` (refusing a prefix that holds the opening delimiter),
//! `tags_for_slot` (lazy, with an exact count), `same_slot` and `shared_hashtag`.
//!
//! [`rust`] is the Rust emitter: the `slot_table!` macro returns its tokens, and the
//! build.rs API and `slotgen emit rust` print them through `prettyplease`; [`json`] writes
//! the whole derivation as data; [`shortest`] the shortest tag of each slot over a charset.
//!
//! Each is a pure function of the derivation and the options: the same spec gives
//! byte-identical output, and any alphabet byte is safe in it. Every file starts with a
//! header naming the slotgen version, the command that made it (one that reruns as written)
//! and the full spec.

pub mod c;
pub mod common;
pub mod csharp;
pub mod elixir;
mod engine;
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

pub use common::{describe, spec_options};
