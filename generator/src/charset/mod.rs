//! Charsets: the bytes a tag may use ([`Charset`], its syntax in [`syntax`]), and the
//! deterministic choice of an affine alphabet inside them ([`choose`], in [`choice`]).
//!
//! A charset need not be an affine subspace of GF(2)^8 (the 62 bytes of `alnum` are not);
//! slotgen searches the affine alphabets inside it and picks one whose tags reach every
//! slot with the fewest symbols.

pub mod choice;
pub mod syntax;

pub use choice::{choose, Choice};
pub use syntax::{Charset, NAMED, OTHER_TOOLS_NAMES};
