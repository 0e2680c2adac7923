//! Emitters: a [`Derivation`](crate::Derivation) as source code.
//!
//! [`rust`] is the one Rust emitter: the `slot_table!` macro returns its tokens, and the
//! build.rs API and `slotgen emit rust` print them through `prettyplease`.

pub mod json;
pub mod rust;
pub mod shortest;
