//! [`TableSpec`], the spec of one table, and the scheme a CRC-16 spec is
//! ([`crc16_scheme`]): below the derivation, which solves tags for that scheme, and beside
//! [`SlotFunction`](super::SlotFunction), which computes slots with it.

use slotgen_tables::{AnyCrc, Crc16, HashtagRule, Reduction, Scheme};

use super::invert::SchemeSpec;
use crate::spec::SlotCount;
use crate::Spec;

/// The spec of one table, as a [`Request`](crate::request::Request) resolves it: a CRC-16
/// one (derived with the two-load tables of a
/// [`SlotTable`](slotgen_tables::SlotTable)) or a named scheme's (a
/// [`SchemeTable`](slotgen_tables::SchemeTable)).
#[derive(Clone, Debug, PartialEq)]
pub enum TableSpec {
    /// A CRC-16 table with a power-of-two slot count (Redis Cluster and its kin).
    Crc16(Spec),
    /// A named scheme's table.
    Scheme(SchemeSpec),
}

impl Default for TableSpec {
    fn default() -> Self {
        Self::Crc16(Spec::default())
    }
}

impl From<Spec> for TableSpec {
    fn from(spec: Spec) -> Self {
        Self::Crc16(spec)
    }
}

impl From<SchemeSpec> for TableSpec {
    fn from(spec: SchemeSpec) -> Self {
        Self::Scheme(spec)
    }
}

/// The runtime's engine for a CRC-16, borrowed for `'static` as a [`Scheme`] borrows it:
/// the shared static of a catalogue CRC (no work), or, for a custom CRC, one built the
/// first time its parameters are seen and kept for the process's life (8 KiB each; a
/// process derives a handful).
pub(crate) fn engine_of(algorithm: &crc::Algorithm<u16>) -> &'static Crc16 {
    use std::sync::Mutex;
    static CUSTOM: Mutex<Vec<(crc::Algorithm<u16>, &'static Crc16)>> = Mutex::new(Vec::new());
    if let Some(engine) = slotgen_tables::catalog::find(algorithm) {
        return engine;
    }
    let mut custom = CUSTOM
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some((_, engine)) = custom
        .iter()
        .find(|(a, _)| crate::catalog::same_parameters(a, algorithm))
    {
        return engine;
    }
    let engine: &'static Crc16 = Box::leak(Box::new(Crc16::new(algorithm)));
    custom.push((*algorithm, engine));
    engine
}

/// The scheme a CRC-16 spec is: its CRC (the runtime's engine) under the Redis Cluster
/// hashtag rule, the 16-bit register masked to the slot count. The one owner of that
/// reading, for [`derive()`](crate::derive()), [`crate::shortest::shortest`] and
/// [`SlotFunction`](super::SlotFunction).
pub(crate) fn crc16_scheme(crc: &crc::Algorithm<u16>, slots: SlotCount) -> Scheme<'static> {
    Scheme::new(
        HashtagRule::Redis,
        AnyCrc::W16(engine_of(crc)),
        0,
        0xffff,
        Reduction::Mask,
        slots.get(),
        0,
    )
    .expect("a power-of-two slot count up to 65536 under a 16-bit mask is a scheme")
}
