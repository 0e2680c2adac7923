//! [`SlotRange`], an inclusive range of hash slots, and how ranges are merged
//! ([`ranges_of`]) and printed ([`show_ranges`], [`show_ranges_brief`]): below the map and
//! the errors, which both name slots by ranges.

use std::fmt;

use serde::Serialize;

/// An inclusive range of hash slots, `first..=last`, each in `0..16384`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct SlotRange {
    /// The first slot.
    pub first: u16,
    /// The last slot, at least `first`.
    pub last: u16,
}

impl SlotRange {
    /// The number of slots in the range.
    #[must_use]
    pub fn len(&self) -> u32 {
        u32::from(self.last) - u32::from(self.first) + 1
    }

    /// Whether the range has no slot (never: a range holds at least `first`).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The slots of the range, in order.
    pub fn slots(&self) -> impl Iterator<Item = u16> {
        self.first..=self.last
    }
}

/// `first-last`, or `first` alone for a range of one slot.
impl fmt::Display for SlotRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.first == self.last {
            write!(f, "{}", self.first)
        } else {
            write!(f, "{}-{}", self.first, self.last)
        }
    }
}

/// The sorted slots as merged ranges: `[0, 1, 2, 7]` gives `0-2` and `7`.
#[must_use]
pub fn ranges_of(sorted_slots: &[u16]) -> Vec<SlotRange> {
    let mut ranges: Vec<SlotRange> = Vec::new();
    for &slot in sorted_slots {
        match ranges.last_mut() {
            Some(range) if u32::from(range.last) + 1 == u32::from(slot) => range.last = slot,
            Some(range) if range.last >= slot => {}
            _ => ranges.push(SlotRange {
                first: slot,
                last: slot,
            }),
        }
    }
    ranges
}

/// `0-99,200,300-399`: ranges joined by commas; `-` when there are none.
#[must_use]
pub fn show_ranges(ranges: &[SlotRange]) -> String {
    if ranges.is_empty() {
        return "-".to_owned();
    }
    ranges
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

/// [`show_ranges`] where there are at most [`BRIEF_RANGES`] ranges; past that the first and
/// the last with the count between: `0-2 ... 5459 (1058 slots in 1000 ranges)`, a line an
/// operator reads whole (a job of a thousand ranges is 4 KB in full).
#[must_use]
pub fn show_ranges_brief(ranges: &[SlotRange]) -> String {
    match ranges {
        [first, .., last] if ranges.len() > BRIEF_RANGES => format!(
            "{first} ... {last} ({} slots in {} ranges)",
            ranges.iter().map(SlotRange::len).sum::<u32>(),
            ranges.len()
        ),
        _ => show_ranges(ranges),
    }
}

/// The most ranges [`show_ranges_brief`] lists in full: 4.
pub const BRIEF_RANGES: usize = 4;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_merge_and_print() {
        assert_eq!(show_ranges(&ranges_of(&[0, 1, 2, 7, 9, 10])), "0-2,7,9-10");
        assert_eq!(show_ranges(&[]), "-");
        assert_eq!(
            show_ranges_brief(&ranges_of(&[0, 1, 2, 7, 9, 10, 12])),
            "0-2,7,9-10,12"
        );
        let many: Vec<u16> = (0..1000).map(|i| i * 3).collect();
        assert_eq!(
            show_ranges_brief(&ranges_of(&many)),
            "0 ... 2997 (1000 slots in 1000 ranges)"
        );
    }
}
