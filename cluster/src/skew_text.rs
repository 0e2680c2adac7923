//! The one rule of how slotgen prints a skew or a floor, in a note on standard error
//! (`slotgen rebalance`, `slotgen load`) and in a picture ([`crate::slot_map`]) alike: the
//! fewest decimals that keep what the text claims of the number. A floor is never printed
//! above itself ("no slot plan goes below" it), a skew stays on its side of the target, and a
//! skew at the floor is printed as the floor is, so that "stops at 1.2857, the floor" and
//! "floor 1.2857" name one number.

/// How near a skew is to the floor to be the floor: the last bits of a double
/// (1.7999999999999998 is the floor 1.8), relative to the floor.
const AT_FLOOR: f64 = 1e-9;

/// `v` rounded by `round` to the fewest decimals, two to six, whose value `keep` accepts;
/// `v` in full when none does.
///
/// # Examples
///
/// ```
/// use slotgen_cluster::skew_text::fewest_decimals;
///
/// assert_eq!(fewest_decimals(1.2857, f64::round, |r| r <= 1.2857), "1.2857");
/// assert_eq!(fewest_decimals(1.5, f64::round, |_| true), "1.50");
/// ```
#[must_use]
pub fn fewest_decimals(v: f64, round: fn(f64) -> f64, keep: impl Fn(f64) -> bool) -> String {
    fewest_kept(v, round, keep).unwrap_or_else(|| v.to_string())
}

/// [`fewest_decimals`], `None` where no number of decimals up to 6 keeps.
fn fewest_kept(v: f64, round: fn(f64) -> f64, keep: impl Fn(f64) -> bool) -> Option<String> {
    (2..=6)
        .map(|decimals| {
            let scale = 10f64.powi(decimals);
            (round(v * scale) / scale, decimals as usize)
        })
        .find(|&(r, _)| keep(r))
        .map(|(r, d)| format!("{r:.d$}"))
}

/// A floor as "no slot plan goes below" says it: never above it (1.3954 is `1.395`, not
/// `1.40`, which a plan of 1.3954 goes below), and above `target` where the floor is (a floor
/// of 1.1049 beside a target of 1.1 is `1.1049`, not `1.10`, which would read as the target
/// reached).
///
/// # Examples
///
/// ```
/// use slotgen_cluster::skew_text::floor_text;
///
/// assert_eq!(floor_text(9.0 / 7.0, None), "1.2857");
/// assert_eq!(floor_text(1.1049, Some(1.1)), "1.1049");
/// assert_eq!(floor_text(1.1049, None), "1.10");
/// // 5/3 rounds up at every number of decimals: cut, not 1.6666666666666667
/// assert_eq!(floor_text(5.0 / 3.0, None), "1.66");
/// assert_eq!(floor_text(5.0 / 3.0, Some(1.665)), "1.666");
/// ```
#[must_use]
pub fn floor_text(floor: f64, target: Option<f64>) -> String {
    let above_target = |r: f64| target.is_none_or(|t| floor <= t || r > t);
    let keep = |r: f64| r <= floor + AT_FLOOR * floor.abs().max(1.0) && above_target(r);
    // rounded where that stays at or under the floor, else cut (a figure that rounds up at
    // every number of decimals, 5/3, was printed with all 17 digits)
    fewest_kept(floor, f64::round, keep)
        .or_else(|| fewest_kept(floor, f64::floor, keep))
        .unwrap_or_else(|| floor.to_string())
}

/// A skew on the same side of `target` as it is: 1.1002 against 1.1 is `1.1002`, not `1.10`
/// (a plan "stops at 1.10", over 1.1).
///
/// # Examples
///
/// ```
/// use slotgen_cluster::skew_text::skew_against;
///
/// assert_eq!(skew_against(1.1002, 1.1), "1.1002");
/// assert_eq!(skew_against(1.5893, 1.1), "1.59");
/// ```
#[must_use]
pub fn skew_against(skew: f64, target: f64) -> String {
    if skew > target {
        fewest_decimals(skew, f64::round, |r| r > target)
    } else {
        fewest_decimals(skew, f64::round, |r| r <= target)
    }
}

/// A skew as a note or a picture prints it: at `floor` (within the last bits of a double),
/// as [`floor_text`] prints the floor; else on its side of `target` ([`skew_against`]); else
/// to two decimals.
///
/// # Examples
///
/// ```
/// use slotgen_cluster::skew_text::{floor_text, skew_text};
///
/// let floor = 9.0 / 7.0;
/// assert_eq!(skew_text(floor, Some(1.1), Some(floor)), floor_text(floor, Some(1.1)));
/// assert_eq!(skew_text(1.8571, Some(1.1), Some(floor)), "1.86");
/// assert_eq!(skew_text(1.8571, None, None), "1.86");
/// ```
#[must_use]
pub fn skew_text(skew: f64, target: Option<f64>, floor: Option<f64>) -> String {
    match (target, floor) {
        (_, Some(f)) if (skew - f).abs() <= AT_FLOOR * f.abs().max(1.0) => floor_text(f, target),
        (Some(t), _) => skew_against(skew, t),
        (None, _) => fewest_decimals(skew, f64::round, |_| true),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A skew stays on its side of the target, and a floor is never printed above itself
    /// nor as the target it is above, each with the fewest decimals that do.
    #[test]
    fn skews_and_floors_are_printed_on_the_side_they_are() {
        for (skew, target, printed) in [
            (1.1002, 1.1, "1.1002"),
            (1.1049, 1.1, "1.105"),
            (1.5893, 1.1, "1.59"),
            (1.0998, 1.1, "1.10"),
            (1.0951, 1.095, "1.10"),
            (1.1001, 1.1001, "1.10"),
            (1.2, 1.1, "1.20"),
        ] {
            let shown = skew_against(skew, target);
            assert_eq!(shown, printed, "{skew} against {target}");
            let value: f64 = shown.parse().unwrap();
            assert_eq!(value > target, skew > target, "{skew} against {target}");
        }
        for (floor, target, printed) in [
            (1.3954, None, "1.395"),
            (1.41176, None, "1.41"),
            (1.2, None, "1.20"),
            (1.7999999999999998, None, "1.80"),
            (1.2857142857142858, Some(1.1), "1.2857"),
            (1.1049, Some(1.1), "1.1049"),
            (1.1049, Some(1.2), "1.10"),
            (1.1049, None, "1.10"),
        ] {
            let shown = floor_text(floor, target);
            assert_eq!(shown, printed, "{floor} against {target:?}");
            let value: f64 = shown.parse().unwrap();
            assert!(value <= floor + 1e-9, "{floor}");
            if let Some(t) = target.filter(|&t| floor > t) {
                assert!(value > t, "{floor} against {t}");
            }
        }
    }

    /// A skew at the floor reads as the floor, whichever way it was computed (the last bits
    /// of two sums differ); one above it reads as above.
    #[test]
    fn a_skew_at_the_floor_is_the_floor() {
        let floor = 0.9 / 0.7;
        let skew = [0.1; 9].iter().sum::<f64>() / 0.7;
        assert_ne!(skew, floor, "computed two ways");
        assert_eq!(skew_text(skew, Some(1.1), Some(floor)), "1.2857");
        assert_eq!(skew_text(floor, None, Some(floor)), "1.2857");
        assert_eq!(skew_text(1.2858, Some(1.1), Some(floor)), "1.29");
        assert_eq!(skew_text(1.0, None, None), "1.00");
    }
}
