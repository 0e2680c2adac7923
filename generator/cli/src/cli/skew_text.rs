//! The one rule of how a note of `slotgen rebalance` or `slotgen load` prints a skew or a
//! floor: the fewest decimals that keep what the sentence claims of the number.

/// `v` rounded by `round` to the fewest decimals, two to six, whose value `keep` accepts;
/// `v` in full when none does. The one rule of how a note prints a skew so that the
/// number says what the sentence claims of it.
pub(super) fn fewest_decimals(v: f64, round: fn(f64) -> f64, keep: impl Fn(f64) -> bool) -> String {
    (2..=6)
        .map(|decimals| {
            let scale = 10f64.powi(decimals);
            (round(v * scale) / scale, decimals as usize)
        })
        .find(|&(r, _)| keep(r))
        .map_or_else(|| v.to_string(), |(r, d)| format!("{r:.d$}"))
}

/// A floor as "no plan goes below" says it: never above it (1.3954 is `1.395`, not `1.40`,
/// which a plan of 1.3954 goes below).
pub(super) fn floor_text(floor: f64) -> String {
    // up to the last bits of a double: 1.7999999999999998 is the floor 1.8, `1.80`
    fewest_decimals(floor, f64::round, |r| r <= floor + 1e-9)
}
