//! Shared helpers for slotgen's cross-crate tests.
