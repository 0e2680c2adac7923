//! [`Report`]: the outcome of [`verify`](crate::verify()), whichever runtime table it
//! checks.

use serde::Serialize;

use crate::scheme::invert::Solved;
use crate::Derivation;

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

    /// How the tags of `derivation` were covered when they were not checked one by one
    /// (`None` when they were): each slot's canonical tag and its kernel directions (and,
    /// where the whole value is solved for, the next value of the slot's residue class),
    /// which covers every tag because the map is affine.
    ///
    /// ```
    /// use slotgen::scheme::invert::SchemeSpec;
    /// use slotgen_tables::SchemeName;
    ///
    /// // 65536 tags, each checked
    /// let d = slotgen::derive(&slotgen::Spec::default())?;
    /// assert_eq!(slotgen::verify(&d).coverage(&d), None);
    /// // 3000 slots of 10-symbol tags: 2^40 tags
    /// let d = slotgen::derive(&SchemeSpec::new(SchemeName::TarantoolVshard))?;
    /// assert_eq!(
    ///     slotgen::verify(&d).coverage(&d).as_deref(),
    ///     Some(
    ///         "each slot's canonical tag, its 8 kernel directions and the next value of its \
    ///          residue class: the 2^40 tags are too many to check one by one, and the map is \
    ///          affine"
    ///     ),
    /// );
    /// # Ok::<(), slotgen::Error>(())
    /// ```
    #[must_use]
    pub fn coverage(&self, derivation: &Derivation) -> Option<String> {
        (!self.exhaustive).then(|| {
            format!(
                "each slot's canonical tag, its {} kernel directions{}: the 2^{} tags are too \
                 many to check one by one, and the map is affine",
                derivation.kernel.len(),
                if matches!(derivation.solved, Solved::WholeValue(_)) {
                    " and the next value of its residue class"
                } else {
                    ""
                },
                derivation.mask_bits()
            )
        })
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
