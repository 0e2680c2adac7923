//! [`Report`]: the outcome of [`verify`](crate::verify()), whichever runtime table it
//! checks.

use serde::Serialize;

/// Entries listed in any report of [`crate::verify`](mod@crate::verify) ([`Report`],
/// [`JsonReport`](super::JsonReport), [`TagReport`](super::TagReport));
/// its counts cover all of them.
pub const MAX_LISTED: usize = 20;

/// The outcome of [`verify`](crate::verify()).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Report {
    /// Slots checked: all of them.
    pub slots_checked: u64,
    /// Tags checked: every tag of every slot (`slots * 2^kernel.len()` when all is well,
    /// which is every tag of the alphabet and length).
    pub tags_checked: u64,
    /// Whether every tag was checked one by one; false when the tag space exceeds
    /// [`MAX_EXHAUSTIVE_TAGS`](super::MAX_EXHAUSTIVE_TAGS) and each slot's tags were checked by kernel directions.
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
    pub slot: u32,
    /// The tag the table gave, or empty when it gave none.
    pub tag: Vec<u8>,
    /// What went wrong.
    pub reason: String,
}
