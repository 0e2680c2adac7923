//! Verification: [`verify()`], the exhaustive check of a derivation made in this process (what
//! `slotgen derive` runs), and the checks `slotgen verify` runs on tables made elsewhere:
//! a derivation read back from JSON ([`json_derivation`]) and a per-slot tag table from any
//! tool ([`tag_table`], read with [`tags_from_lines`] or [`tags_from_source`]).

mod json;
mod literal;
#[cfg(feature = "redis")]
pub mod server;
mod tags;

pub use json::{json_derivation, JsonReport, Mismatch, MAX_JSON_BYTES};
pub use literal::{tags_from_source, Language};
pub use tags::{tag_table, tags_from_lines, Misplaced, TagReport};

use serde::Serialize;

use slotgen_tables::MAX_TAG_LEN;

use slotgen_tables::Mask;

use crate::Derivation;

/// Entries listed in any report of this module ([`Report`], [`JsonReport`], [`TagReport`]);
/// its counts cover all of them.
pub const MAX_LISTED: usize = 20;

/// The most tags [`verify`] checks one by one: `2^22`. A larger tag space (long tags,
/// large alphabets) is checked by kernel directions instead (see [`verify`]).
pub const MAX_EXHAUSTIVE_TAGS: u64 = 1 << 22;

/// The outcome of [`verify`].
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Report {
    /// Slots checked: all of them.
    pub slots_checked: u64,
    /// Tags checked: every tag of every slot (`slots * 2^kernel.len()` when all is well,
    /// which is every tag of the alphabet and length).
    pub tags_checked: u64,
    /// Whether every tag was checked one by one; false when the tag space exceeds
    /// [`MAX_EXHAUSTIVE_TAGS`] and each slot's tags were checked by kernel directions.
    pub exhaustive: bool,
    /// How many checks failed.
    pub failure_count: u64,
    /// The first [`MAX_LISTED`] failures.
    pub failures: Vec<Failure>,
}

impl Report {
    /// Whether every check held.
    #[must_use]
    pub fn passed(&self) -> bool {
        self.failure_count == 0
    }
}

/// One failed check.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Failure {
    /// The slot asked for.
    pub slot: u16,
    /// The tag the table gave, or empty when it gave none.
    pub tag: Vec<u8>,
    /// What went wrong.
    pub reason: String,
}

/// Checks `derivation` exhaustively with the runtime's own code: for every slot, the
/// canonical tag and every alternative tag (from [`slotgen_tables::SlotTable`]) is made of
/// alphabet symbols, and the key `slotgen:{tag}:verify` lands on the slot both by an
/// independent CRC (the `crc` crate over the tag bytes) and by the runtime's `key_slot`;
/// the runtime's `write_key_for_slot` builds that same key for the canonical tag; and each slot
/// has `2^kernel.len()` tags, so that all `2^(tag_len * d)` tags are accounted for.
///
/// When there are more than [`MAX_EXHAUSTIVE_TAGS`] tags (`--tag-len 16` has `2^64`), each
/// slot's canonical tag is checked, and so is the canonical tag moved by each kernel basis
/// vector, with the same checks; since the tag -> slot map is affine, the `2^kernel.len()`
/// tags of a slot (the canonical tag moved by the kernel's span) then all land on it. The
/// report says which was done.
///
/// # Examples
///
/// ```
/// let d = slotgen::derive(&slotgen::Spec::default()).unwrap();
/// let report = slotgen::verify(&d);
/// assert!(report.passed());
/// assert_eq!((report.slots_checked, report.tags_checked), (16384, 65536));
/// ```
#[must_use]
pub fn verify(derivation: &Derivation) -> Report {
    let table = derivation.table();
    let reference = crate::catalog::reference_crc(&derivation.spec.crc);
    let slot_mask = (derivation.spec.slots - 1) as u16;
    let mut in_alphabet = [false; 256];
    for &s in derivation.alphabet.symbols() {
        in_alphabet[usize::from(s)] = true;
    }
    const PREFIX: &[u8] = b"slotgen:";
    const SUFFIX: &[u8] = b":verify";
    let mut report = Report::default();
    let fail = |report: &mut Report, slot: u16, tag: &[u8], reason: String| {
        report.failure_count += 1;
        if report.failures.len() < MAX_LISTED {
            report.failures.push(Failure {
                slot,
                tag: tag.to_vec(),
                reason,
            });
        }
    };
    let expected_tags = table.tags_per_slot();
    // `slotgen:{tag}:verify`, rebuilt in place for each tag: only the tag, the `}` and the
    // suffix move; no allocation per tag or per slot.
    let mut key = [0u8; PREFIX.len() + 1 + MAX_TAG_LEN + 1 + SUFFIX.len()];
    key[..PREFIX.len()].copy_from_slice(PREFIX);
    key[PREFIX.len()] = b'{';
    let mut built = [0u8; PREFIX.len() + 1 + MAX_TAG_LEN + 1 + SUFFIX.len()];
    report.exhaustive = u64::from(derivation.spec.slots)
        .checked_mul(expected_tags)
        .is_some_and(|tags| tags <= MAX_EXHAUSTIVE_TAGS);
    for slot in 0..derivation.spec.slots {
        let slot = slot as u16;
        report.slots_checked += 1;
        let (tags, mask) = match (table.tags_for_slot(slot), table.mask_for_slot(slot)) {
            (Ok(tags), Ok(mask)) => (tags, mask.to_u64()),
            (Err(e), _) | (_, Err(e)) => {
                fail(&mut report, slot, &[], e.to_string());
                continue;
            }
        };
        let listed = tags.len() as u64;
        if listed != expected_tags {
            fail(
                &mut report,
                slot,
                &[],
                format!("tags_for_slot lists {listed} tags instead of {expected_tags}"),
            );
        }
        let tags: Box<dyn Iterator<Item = slotgen_tables::Tag>> = if report.exhaustive {
            Box::new(tags)
        } else {
            let table = &table;
            let directions = derivation
                .kernel
                .iter()
                .map(move |&k| table.tag_from_mask(mask ^ k));
            Box::new(std::iter::once(table.tag_from_mask(mask)).chain(directions))
        };
        let mut count = 0;
        for tag in tags {
            let tag = tag.as_ref();
            count += 1;
            report.tags_checked += 1;
            if let Some(&b) = tag.iter().find(|&&b| !in_alphabet[usize::from(b)]) {
                fail(
                    &mut report,
                    slot,
                    tag,
                    format!("byte {b:#04x} is not in the alphabet"),
                );
            }
            let tag_at = PREFIX.len() + 1;
            key[tag_at..tag_at + tag.len()].copy_from_slice(tag);
            key[tag_at + tag.len()] = b'}';
            let len = tag_at + tag.len() + 1 + SUFFIX.len();
            key[len - SUFFIX.len()..len].copy_from_slice(SUFFIX);
            let key = &key[..len];
            if count == 1 {
                match table.write_key_for_slot(PREFIX, slot, SUFFIX, &mut built) {
                    Ok(n) if &built[..n] == key => {}
                    Ok(n) => fail(
                        &mut report,
                        slot,
                        tag,
                        format!(
                            "write_key_for_slot built {:?}",
                            String::from_utf8_lossy(&built[..n])
                        ),
                    ),
                    Err(e) => fail(
                        &mut report,
                        slot,
                        tag,
                        format!("write_key_for_slot failed: {e}"),
                    ),
                }
            }
            let independent = reference.checksum(tag) & slot_mask;
            if independent != slot {
                fail(
                    &mut report,
                    slot,
                    tag,
                    format!("the crc crate puts it on slot {independent}"),
                );
            }
            let runtime = table.key_slot(key);
            if runtime != slot {
                fail(
                    &mut report,
                    slot,
                    tag,
                    format!("key_slot puts its key on slot {runtime}"),
                );
            }
        }
    }
    report
}
