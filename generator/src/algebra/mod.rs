//! The algebra: matrices over GF(2) and their one elimination ([`gf2`]), and the affine map
//! of a hash slot function over tags of a fixed length ([`affine`]).
//!
//! Everything slotgen derives rests on one fact: a CRC is affine over GF(2) in its message
//! bits, so for tags of a fixed length the slot is `offset ^ M x` for a tag mask `x`.

pub mod affine;
pub mod gf2;
