//! [`verify_scheme`]: the exhaustive check of a scheme's table ([`crate::verify()`] runs it
//! for a derivation without the two-load tables).

use slotgen_tables::{AnyCrc, Reduction, Register, Scheme};

use super::report::{Failure, Report, MAX_LISTED};

/// The most tags [`verify`](crate::verify()) checks one by one in a scheme's table: `2^16`. A larger space is checked
/// through each slot's first tag, its kernel directions and the next value of its class,
/// which decides every tag because the map is affine.
pub const MAX_SCHEME_EXHAUSTIVE_TAGS: u64 = 1 << 16;
use crate::Derivation;

/// The `crc` crate's CRC for the algorithm of a scheme's engine: not the runtime's engine,
/// so the check is independent of it.
#[allow(clippy::large_enum_variant)] // one, built once per verification
enum Reference {
    W8(crc::Crc<u8>),
    W16(crc::Crc<u16>),
    W32(crc::Crc<u32>),
    W64(crc::Crc<u64>),
}

impl Reference {
    fn new(scheme: &Scheme<'static>) -> Self {
        match scheme.crc() {
            AnyCrc::W8(e) => Self::W8(crc::Crc::<u8>::new(e.algorithm())),
            AnyCrc::W16(e) => Self::W16(crc::Crc::<u16>::new(e.algorithm())),
            AnyCrc::W32(e) => Self::W32(crc::Crc::<u32>::new(e.algorithm())),
            AnyCrc::W64(e) => Self::W64(crc::Crc::<u64>::new(e.algorithm())),
        }
    }

    /// The CRC of `bytes`.
    fn checksum(&self, bytes: &[u8]) -> u64 {
        match self {
            Self::W8(c) => u64::from(c.checksum(bytes)),
            Self::W16(c) => u64::from(c.checksum(bytes)),
            Self::W32(c) => u64::from(c.checksum(bytes)),
            Self::W64(c) => c.checksum(bytes),
        }
    }

    /// The scheme's value of `bytes`: the register, shifted and masked. For
    /// [`Register::Unmasked32`], the register written as what its documentation says it
    /// holds, from three CRCs of the `crc` crate (not by stepping it): the CRC of `bytes`,
    /// with the high bytes of the CRCs of `bytes` without its last byte in bits 16 to 23
    /// and without its last two in bits 24 to 31.
    fn value(&self, scheme: &Scheme<'static>, bytes: &[u8]) -> u64 {
        let register = match scheme.register() {
            Register::Crc => self.checksum(bytes),
            Register::Unmasked32 => {
                let high_byte = |drop: usize| match bytes.len().checked_sub(drop) {
                    Some(len) => self.checksum(&bytes[..len]) >> 8 & 0xff,
                    None => 0,
                };
                self.checksum(bytes) | high_byte(1) << 16 | high_byte(2) << 24
            }
        };
        let (shift, mask) = scheme.transform();
        (register >> shift) & mask
    }
}

/// The slot of a value, by the scheme's reduction written out here.
fn reference_slot(scheme: &Scheme<'static>, value: u64) -> u64 {
    let slots = u64::from(scheme.slots());
    let reduced = match scheme.reduction() {
        Reduction::Mask => value & (slots - 1),
        Reduction::Modulus => value % slots,
    };
    reduced + u64::from(scheme.offset())
}

/// Checks `derivation` for every slot of its scheme, with the `crc` crate's CRC and the
/// reduction written out (not the runtime's engine or [`Scheme::slot`]):
///
/// - the runtime's checked constructor accepts the tables;
/// - each tag of the slot's [`tags_for_slot`], when the alphabet and length have at most
///   [`MAX_SCHEME_EXHAUSTIVE_TAGS`] tags (else the slot's first tag, it moved by each kernel entry,
///   and the first tag of the next value of its residue class), is `tag_len` symbols of the
///   alphabet and lands on the slot;
/// - a key built by the runtime's `write_key_for_slot` (`slotgen:{tag}:verify` for a scheme
///   with a hashtag rule, the tag alone otherwise) lands on the slot by [`Scheme::slot`].
///
/// The report is exhaustive when every tag of the alphabet and length was checked (all of
/// them are some slot's, each once), which holds for small tag spaces.
///
/// [`tags_for_slot`]: slotgen_tables::SchemeTable::tags_for_slot
#[must_use]
pub(super) fn verify_scheme(derivation: &Derivation) -> Report {
    let mut report = Report::default();
    let fail = |report: &mut Report, slot: u32, tag: &[u8], reason: String| {
        report.failure_count += 1;
        if report.failures.len() < MAX_LISTED {
            report.failures.push(Failure {
                slot,
                tag: tag.to_vec(),
                reason,
            });
        }
    };
    let scheme = derivation.scheme;
    let table = match slotgen_tables::SchemeTable::try_new(
        scheme,
        derivation.alphabet.symbols(),
        derivation.tag_len,
        &derivation.columns,
        &derivation.kernel_words,
    ) {
        Ok(table) => table,
        Err(e) => {
            fail(
                &mut report,
                0,
                &[],
                format!("the runtime refuses the table: {e}"),
            );
            return report;
        }
    };
    let reference = Reference::new(&scheme);
    let mut in_alphabet = [false; 256];
    for &s in derivation.alphabet.symbols() {
        in_alphabet[usize::from(s)] = true;
    }
    let whole_key = scheme.hashtag().delimiters().is_none();
    let (prefix, suffix): (&[u8], &[u8]) = if whole_key {
        (b"", b"")
    } else {
        (b"slotgen:", b":verify")
    };
    let mut key = vec![0u8; prefix.len() + derivation.tag_len + 2 + suffix.len()];
    let space = 1u64.checked_shl(derivation.tag_len as u32 * derivation.alphabet.symbol_bits());
    let one_by_one = space.is_some_and(|n| n <= MAX_SCHEME_EXHAUSTIVE_TAGS);
    let first = scheme.offset();
    for slot in first..first + scheme.slots() {
        report.slots_checked += 1;
        let check = |report: &mut Report, tag: &[u8]| {
            report.tags_checked += 1;
            if tag.len() != derivation.tag_len {
                fail(
                    report,
                    slot,
                    tag,
                    format!(
                        "the tag has {} symbols, not {}",
                        tag.len(),
                        derivation.tag_len
                    ),
                );
            } else if let Some(&b) = tag.iter().find(|&&b| !in_alphabet[usize::from(b)]) {
                fail(
                    report,
                    slot,
                    tag,
                    format!("byte {b:#04x} is not in the alphabet"),
                );
            } else {
                let landed = reference_slot(&scheme, reference.value(&scheme, tag));
                if landed != u64::from(slot) {
                    fail(report, slot, tag, format!("the tag lands on slot {landed}"));
                }
            }
        };
        let tags = match table.tags_for_slot(slot) {
            Ok(tags) => tags,
            Err(e) => {
                fail(&mut report, slot, &[], e.to_string());
                continue;
            }
        };
        let count = table.tags_per_slot(slot);
        if one_by_one {
            let mut listed = 0;
            for tag in tags {
                check(&mut report, tag.as_ref());
                listed += 1;
            }
            if listed != count {
                fail(
                    &mut report,
                    slot,
                    &[],
                    format!("tags_for_slot lists {listed} tags instead of {count}"),
                );
            }
        } else {
            let canonical = table
                .tag_for_slot(slot)
                .expect("in range: tags_for_slot answered");
            check(&mut report, canonical.as_ref());
            for k in table.kernel() {
                let moved: Vec<u8> = canonical
                    .as_ref()
                    .iter()
                    .zip(k)
                    .map(|(a, b)| a ^ b)
                    .collect();
                check(&mut report, &moved);
            }
            // the next value of the slot's residue class, when the whole value is solved
            let next = u64::from(slot - first) + u64::from(scheme.slots());
            if table.solves_whole_value()
                && next < 1u64.checked_shl(table.solved_bits()).unwrap_or(u64::MAX)
            {
                check(&mut report, table.tag_for_value(next).as_ref());
            }
        }
        match table.write_key_for_slot(prefix, slot, suffix, &mut key) {
            Ok(len) => {
                let landed = scheme.slot(&key[..len]);
                if landed != slot {
                    fail(
                        &mut report,
                        slot,
                        &key[..len],
                        format!("the key lands on slot {landed}"),
                    );
                }
            }
            Err(e) => fail(&mut report, slot, &[], e.to_string()),
        }
    }
    report.exhaustive = one_by_one && space == Some(report.tags_checked);
    report
}
