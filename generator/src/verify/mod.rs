//! Verification: [`verify()`], the exhaustive check of a derivation made in this process (what
//! `slotgen derive` runs), and the checks `slotgen verify` runs on tables made elsewhere:
//! a derivation read back from JSON ([`json_derivation`]) and a per-slot tag table from any
//! tool ([`tag_table`], read with [`tags_from_lines`] or [`tags_from_source`]).

mod json;
mod literal;
mod report;
mod scheme;
mod tags;

pub use crate::json_schema::{format_of as json_format, MAX_JSON_BYTES};
pub use json::{json_derivation, JsonReport, Mismatch};
pub use literal::{tags_from_source, Language};
pub use report::{Failure, Report, MAX_LISTED};
pub use scheme::MAX_SCHEME_EXHAUSTIVE_TAGS;
pub use tags::{tag_table, tags_from_lines, Misplaced, TagReport};

use slotgen_tables::{SlotTable, MAX_TAG_LEN};

use crate::{Derivation, SlotTables, Spec};

/// The most tags [`verify`] checks one by one: `2^22`. A larger tag space (long tags,
/// large alphabets) is checked by kernel directions instead (see [`verify`]).
pub const MAX_EXHAUSTIVE_TAGS: u64 = 1 << 22;

/// [`verify`] builds the key of every `KEY_SAMPLE`-th slot (slot 0, 8, 16, ..): the key
/// functions read the tag that every slot's check has already covered, and the runtime's CRC
/// over whole keys is tested on its own.
pub const KEY_SAMPLE: u16 = 8;

/// Checks `derivation` exhaustively with the runtime's own code against an independent CRC:
/// the runtime table that the derivation is for, a CRC-16 spec's two-load
/// [`SlotTable`] (below) or a scheme's
/// [`SchemeTable`](slotgen_tables::SchemeTable) (checked for every slot of its scheme with
/// the `crc` crate's CRC and the reduction written out, every tag where there are at most
/// [`MAX_SCHEME_EXHAUSTIVE_TAGS`], and a key of each slot).
///
/// What is checked for a CRC-16 spec, for every slot:
///
/// - the runtime's [`SlotTable::tag_for_slot`](slotgen_tables::SlotTable::tag_for_slot)
///   gives a tag, and [`tags_for_slot`](slotgen_tables::SlotTable::tags_for_slot) lists
///   `2^kernel.len()` tags, the canonical one first, so that all `2^(tag_len * d)` tags are
///   accounted for;
/// - every one of those tags is made of alphabet symbols and lands on the slot by the
///   independent CRC below;
/// - for every [`KEY_SAMPLE`]-th slot, the canonical tag lands on the slot by the `crc`
///   crate's own `checksum` over its bytes (a check of the independent CRC's evaluation
///   itself), the runtime's `write_key_for_slot` builds the key `slotgen:{tag}:verify`,
///   and the runtime's `key_slot` puts that key on the slot.
///
/// Once per derivation: the runtime's checked constructor
/// [`SlotTable::try_new`](slotgen_tables::SlotTable::try_new) accepts the tables.
///
/// The independent CRC of a tag is the `crc` crate's, evaluated by linearity: over messages
/// of one length `L` a CRC is affine over GF(2), `crc(x) = crc(0) ^ A x`, so with
/// `P[j][b] = crc(b at byte j, zeros elsewhere) ^ crc(0)` (`256 * L` runs of the `crc`
/// crate), `crc(x) = crc(0) ^ P[0][x_0] ^ .. ^ P[L-1][x_(L-1)]`, exactly, in `L` table loads
/// instead of a run of the `crc` crate per tag. Each entry of `P` also carries a flag, one
/// bit per position, for a byte that is not a symbol, so that the same loads check the
/// alphabet. None of it uses slotgen's algebra or the runtime's CRC.
///
/// When there are more than [`MAX_EXHAUSTIVE_TAGS`] tags (`--tag-len 16` has `2^64`), each
/// slot's canonical tag is checked, and so is the canonical tag moved by each kernel entry,
/// with the same checks; since the tag -> slot map is affine, the `2^kernel.len()` tags of a
/// slot (the canonical tag moved by the kernel's span) then all land on it. The report says
/// which was done.
///
/// # Examples
///
/// ```
/// use slotgen::scheme::invert::SchemeSpec;
/// use slotgen_tables::SchemeName;
///
/// let d = slotgen::derive(&slotgen::Spec::default())?;
/// let report = slotgen::verify(&d);
/// assert!(report.passed());
/// assert_eq!((report.slots_checked, report.tags_checked), (16384, 65536));
///
/// let d = slotgen::derive(&SchemeSpec::new(SchemeName::TarantoolVshard))?;
/// let report = slotgen::verify(&d);
/// assert!(report.passed());
/// assert_eq!(report.slots_checked, 3000);
/// # Ok::<(), slotgen::Error>(())
/// ```
#[must_use]
pub fn verify(derivation: &Derivation) -> Report {
    let (Some(spec), Some(tables)) = (derivation.crc16_spec(), &derivation.slot_tables) else {
        return scheme::verify_scheme(derivation);
    };
    // The runtime's lookups at the narrowest of 4, 8, 16 or 32 bytes per entry that holds
    // the tag (generated tables use `N = tag_len`; the lookups are the same code for every
    // `N`), so that tags stay in registers.
    match derivation.tag_len {
        0..=4 => verify_with::<4>(derivation, spec, tables),
        5..=8 => verify_with::<8>(derivation, spec, tables),
        9..=16 => verify_with::<16>(derivation, spec, tables),
        _ => verify_with::<MAX_TAG_LEN>(derivation, spec, tables),
    }
}

fn verify_with<const N: usize>(
    derivation: &Derivation,
    spec: &Spec,
    tables: &SlotTables,
) -> Report {
    let cut = |words: &[[u8; MAX_TAG_LEN]]| -> Vec<[u8; N]> {
        words
            .iter()
            .map(|w| core::array::from_fn(|i| w[i]))
            .collect()
    };
    let words = &tables.words;
    let (low, high, kernel) = (cut(&words.low), cut(&words.high), cut(&words.kernel));
    let engine = derivation
        .crc16_engine()
        .expect("a CRC-16 spec's derivation has its engine");
    let table = SlotTable::<N>::new_unverified(
        engine,
        spec.crc_name(),
        derivation.alphabet.symbols(),
        derivation.tag_len,
        &low,
        &high,
        &kernel,
    );
    let reference = crate::catalog::reference_crc(&spec.crc);
    let symbols = derivation.alphabet.symbols();
    let independent = LinearCrc::<N>::new(&reference, derivation.tag_len, symbols);
    let slot_mask = (spec.slots - 1) as u16;
    const PREFIX: &[u8] = b"slotgen:";
    const SUFFIX: &[u8] = b":verify";
    let mut report = Report::default();
    if let Err(e) = SlotTable::try_new(
        engine,
        spec.crc_name(),
        derivation.alphabet.symbols(),
        derivation.tag_len,
        &words.low,
        &words.high,
        &words.kernel,
    ) {
        fail(
            &mut report,
            0,
            &[],
            format!("the runtime refuses the table: {e}"),
        );
    }
    let expected_tags = table.tags_per_slot();
    // `slotgen:{tag}:verify`, rebuilt in place for each slot: no allocation.
    let mut key = [0u8; PREFIX.len() + 1 + MAX_TAG_LEN + 1 + SUFFIX.len()];
    key[..PREFIX.len()].copy_from_slice(PREFIX);
    key[PREFIX.len()] = b'{';
    let mut built = [0u8; PREFIX.len() + 1 + MAX_TAG_LEN + 1 + SUFFIX.len()];
    report.exhaustive = u64::from(spec.slots)
        .checked_mul(expected_tags)
        .is_some_and(|tags| tags <= MAX_EXHAUSTIVE_TAGS);
    let kernel = table.kernel();
    for slot in 0..spec.slots {
        let slot = slot as u16;
        report.slots_checked += 1;
        let (tags, canonical) = match (table.tags_for_slot(slot), table.tag_for_slot(slot)) {
            (Ok(tags), Ok(tag)) => (tags, tag),
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
        // Small, so that it is inlined into the loops; a failure's report is out of line.
        let check_tag = |report: &mut Report, tag: &[u8; N]| {
            report.tags_checked += 1;
            let (crc, invalid) = independent.checksum(tag);
            let landed = crc & slot_mask;
            if invalid || landed != slot {
                tag_failed(report, slot, tag, derivation.tag_len, symbols, landed);
            }
        };
        if report.exhaustive {
            let mut first = true;
            for tag in tags {
                if first && tag != canonical {
                    fail(
                        &mut report,
                        slot,
                        tag.as_ref(),
                        "tags_for_slot does not list the canonical tag first".into(),
                    );
                }
                first = false;
                check_tag(&mut report, &tag.to_array());
            }
        } else {
            let bytes = canonical.to_array();
            check_tag(&mut report, &bytes);
            for k in kernel {
                let mut moved = bytes;
                for (b, d) in moved.iter_mut().zip(k) {
                    *b ^= d;
                }
                check_tag(&mut report, &moved);
            }
        }
        if slot % KEY_SAMPLE != 0 {
            continue;
        }
        let tag = canonical.as_ref();
        let direct = reference.checksum(tag) & slot_mask;
        if direct != slot {
            fail(
                &mut report,
                slot,
                tag,
                format!("the crc crate puts it on slot {direct}"),
            );
        }
        let tag_at = PREFIX.len() + 1;
        key[tag_at..tag_at + tag.len()].copy_from_slice(tag);
        key[tag_at + tag.len()] = b'}';
        let len = tag_at + tag.len() + 1 + SUFFIX.len();
        key[len - SUFFIX.len()..len].copy_from_slice(SUFFIX);
        let key = &key[..len];
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
    report
}

/// Counts a failed check and lists it while fewer than [`MAX_LISTED`] are.
fn fail(report: &mut Report, slot: u16, tag: &[u8], reason: String) {
    report.failure_count += 1;
    if report.failures.len() < MAX_LISTED {
        report.failures.push(Failure {
            slot: slot.into(),
            tag: tag.to_vec(),
            reason,
        });
    }
}

/// Reports a tag of `slot` (its first `len` of `bytes`) that holds a byte outside
/// `symbols`, is not zero past `len`, or that the independent CRC put on `landed`, another
/// slot.
#[cold]
#[inline(never)]
fn tag_failed(
    report: &mut Report,
    slot: u16,
    bytes: &[u8],
    len: usize,
    symbols: &[u8],
    landed: u16,
) {
    let tag = &bytes[..len];
    if let Some(b) = tag.iter().find(|b| !symbols.contains(b)) {
        fail(
            report,
            slot,
            tag,
            format!("byte {b:#04x} is not in the alphabet"),
        );
    } else if bytes[len..].iter().any(|&b| b != 0) {
        fail(
            report,
            slot,
            tag,
            "the lookup's bytes past the tag's length are not zero".into(),
        );
    }
    if landed != slot {
        fail(
            report,
            slot,
            tag,
            format!("the crc crate puts it on slot {landed}"),
        );
    }
}

/// The `crc` crate's CRC of messages of one length, evaluated by linearity (see [`verify`]),
/// over a tag's `N` bytes, with the alphabet check: rows at or past the message's length
/// hold zero for the byte 0, so the zero bytes that pad a tag to `N` add nothing.
struct LinearCrc<const N: usize> {
    /// `crc(0)`: the CRC of the all-zero message.
    zero: u16,
    /// Bits 0 to 15 of `positions[j][b]`: `crc(b at byte j, zeros elsewhere) ^ zero` for
    /// `j < len`, zero past; bit `16 + j`: `b` may not stand at byte `j` (not a symbol
    /// below `len`, not 0 past it). One flag bit per position, so that xors never cancel
    /// two of them.
    positions: [[u64; 256]; N],
}

impl<const N: usize> LinearCrc<N> {
    fn new(reference: &crc::Crc<u16>, len: usize, symbols: &[u8]) -> Self {
        let mut message = vec![0u8; len];
        let zero = reference.checksum(&message);
        let mut positions = [[0u64; 256]; N];
        for (j, row) in positions.iter_mut().enumerate() {
            let flag = 1u64 << (16 + j);
            for (b, entry) in row.iter_mut().enumerate() {
                let byte = b as u8;
                let allowed = if j < len {
                    symbols.contains(&byte)
                } else {
                    byte == 0
                };
                if !allowed {
                    *entry |= flag;
                }
                if j < len {
                    message[j] = byte;
                    *entry |= u64::from(reference.checksum(&message) ^ zero);
                }
            }
            if j < len {
                message[j] = 0;
            }
        }
        Self { zero, positions }
    }

    /// The CRC of the message of `tag`'s bytes, padded with zeros to `N` (the message's
    /// length is the one given to [`LinearCrc::new`]), and whether a byte is not allowed.
    fn checksum(&self, tag: &[u8; N]) -> (u16, bool) {
        let mut acc = u64::from(self.zero);
        for (row, &b) in self.positions.iter().zip(tag) {
            acc ^= row[usize::from(b)];
        }
        (acc as u16, acc >> 16 != 0)
    }
}
