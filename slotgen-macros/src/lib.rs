//! `slot_table!`: slotgen tables emitted into the invoking crate at compile time.
//!
//! This crate is a stub for now: the macro arrives with its own issue.
