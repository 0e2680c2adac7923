//! Checking a per-slot tag table made by any tool ([`tag_table`]), read from lines
//! ([`tags_from_lines`]) or from the string literals of a C or Lua source
//! ([`literal::tags_from_source`](super::literal::tags_from_source)).

use super::report::MAX_LISTED;
use crate::scheme::SlotFunction;

/// One entry of a tag table that does not land on its slot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Misplaced {
    /// The entry's slot: its position in the table.
    pub slot: u32,
    /// The entry's tag.
    pub tag: Vec<u8>,
    /// The slot the key `{tag}` lands on.
    pub lands_on: u32,
}

/// The outcome of [`tag_table`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TagReport {
    /// Entries checked: those with a slot, at most the slot count.
    pub entries_checked: u64,
    /// How many of them land on another slot.
    pub misplaced_count: u64,
    /// The first [`MAX_LISTED`] of them, in slot order.
    pub misplaced: Vec<Misplaced>,
    /// Slots past the last entry, which have none: `slots - entries` when positive.
    pub missing: u64,
    /// Entries past the last slot: `entries - slots` when positive.
    pub extra: u64,
}

impl TagReport {
    /// Whether every slot has exactly one entry and every entry lands on its slot.
    #[must_use]
    pub fn passed(&self) -> bool {
        self.misplaced_count == 0 && self.missing == 0 && self.extra == 0
    }
}

/// Checks a per-slot tag table of `function` (a CRC-16 spec's or a named scheme's): entry
/// `i` is a tag for the slot `first + i` (slot `i` of a CRC-16 table, bucket `i + 1` for
/// Tarantool vshard), and the key that carries it must land there by
/// [`SlotFunction::slot`]: the tag between the rule's hashtag delimiters (`{tag}` for a
/// CRC-16 table and Codis, the pool's pair for twemproxy; an empty tag or one with a
/// delimiter makes a different hashtag and lands elsewhere), or the tag alone for a scheme
/// that hashes the whole key.
///
/// # Examples
///
/// ```
/// use slotgen::scheme::SlotFunction;
/// use slotgen_tables::SchemeName;
///
/// let redis = SlotFunction::default();
/// let tags = [b"DLH@".to_vec(), b"@A@H".to_vec(), b"x".to_vec()];
/// let report = slotgen::verify::tag_table(&tags, &redis);
/// assert_eq!(report.entries_checked, 3);
/// assert_eq!(report.misplaced_count, 1); // "x" is no tag for slot 2
/// assert_eq!(report.misplaced[0].lands_on, 16287); // CLUSTER KEYSLOT x
/// assert_eq!(report.missing, 16381);
///
/// let vshard = SlotFunction::scheme(SchemeName::TarantoolVshard, None, None)?;
/// let tags = [b"@LEADJFCC@".to_vec(), b"x".to_vec()];
/// let report = slotgen::verify::tag_table(&tags, &vshard);
/// assert_eq!((report.misplaced_count, report.missing), (1, 2998));
/// assert_eq!(report.misplaced[0].slot, 2); // the entry for bucket 2
/// # Ok::<(), slotgen::Error>(())
/// ```
#[must_use]
pub fn tag_table(tags: &[Vec<u8>], function: &SlotFunction) -> TagReport {
    let delimiters = function.rule().delimiters();
    let mut key = Vec::new();
    check_entries(tags, function.first_slot(), function.slots(), |tag| {
        key.clear();
        key.extend(delimiters.map(|[open, _]| open));
        key.extend_from_slice(tag);
        key.extend(delimiters.map(|[_, close]| close));
        function.slot(&key)
    })
}

/// Checks entry `i` of `tags` against slot `first + i` of `slots`, by `slot_of`.
fn check_entries(
    tags: &[Vec<u8>],
    first: u32,
    slots: u32,
    mut slot_of: impl FnMut(&[u8]) -> u32,
) -> TagReport {
    let mut report = TagReport::default();
    for (slot, tag) in (first..first + slots).zip(tags) {
        report.entries_checked += 1;
        let lands_on = slot_of(tag);
        if lands_on != slot {
            report.misplaced_count += 1;
            if report.misplaced.len() < MAX_LISTED {
                report.misplaced.push(Misplaced {
                    slot,
                    tag: tag.clone(),
                    lands_on,
                });
            }
        }
    }
    let entries = tags.len() as u64;
    report.missing = u64::from(slots).saturating_sub(entries);
    report.extra = entries.saturating_sub(u64::from(slots));
    report
}

/// The tags of a plain tag table: one per line, in slot order. A line ends at `\n`; a `\r`
/// before it is not part of the tag; a final line feed does not start another entry.
///
/// # Examples
///
/// ```
/// let tags = slotgen::verify::tags_from_lines(b"DLH@\r\nO@H@\n");
/// assert_eq!(tags, [b"DLH@".to_vec(), b"O@H@".to_vec()]);
/// ```
#[must_use]
pub fn tags_from_lines(text: &[u8]) -> Vec<Vec<u8>> {
    let text = text.strip_suffix(b"\n").unwrap_or(text);
    if text.is_empty() {
        return Vec::new();
    }
    text.split(|&b| b == b'\n')
        .map(|line| line.strip_suffix(b"\r").unwrap_or(line).to_vec())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn lines_keep_empty_entries_but_not_the_final_line_feed() {
        assert_eq!(tags_from_lines(b""), Vec::<Vec<u8>>::new());
        assert_eq!(
            tags_from_lines(b"a\n\nb"),
            [b"a".to_vec(), vec![], b"b".to_vec()]
        );
    }
}
