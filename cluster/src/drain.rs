//! Draining primaries: a plan that moves every slot of some primaries, empty ones included,
//! to the others, so that the drained primaries own no slot afterwards and can leave the
//! cluster (`--cluster del-node` refuses a primary that owns a slot).
//!
//! # How the slots are placed
//!
//! The primaries that stay have fair shares of the whole total (the drained primaries'
//! load included) by their weights alone: `fair_r = T * w_r / W_stay`.
//!
//! 1. The drained primaries' slots of a positive amount, largest first (ties: fewer keys,
//!    the lower slot), each to the staying primary whose ratio to its fair share is the
//!    lowest with the slot on it (ties: the lowest shard index), among those that read the
//!    source's `DUMP` payloads ([`Receiving::takes`]): largest first onto the least full,
//!    which leaves the largest ratio within one slot of the best.
//! 2. Their slots of no amount (an empty slot has no gain, so the planner alone never
//!    moves one), each to the staying primary of the fewest slots for its weight with the
//!    slot on it (ties: the lowest shard index): the slot counts even out as far as these
//!    slots can even them.
//! 3. Then [`plan_with`](super::plan_with)'s plan over the staying primaries, with the
//!    slots placed so far fixed ([`super::rebalance`]'s `plan_fixed`): it evens out the
//!    staying primaries by moving their own slots, within the limits asked. The drain's
//!    moves come first, each slot moved once.
//!
//! [`Limits::max_moves`] caps step 3 only: a drain moves every slot of the drained
//! primaries, however many, or it is no drain.
//!
//! The plan's [`Planned::moves_lower_bound`] is `drain_lower_bound`'s (the drained slots,
//! and the fewest own slots each staying primary over its cap must shed), which its doc
//! proves; the plan is [`Planned::minimal`] where step 3 had nothing to do or the plan
//! meets it.

use super::rebalance::{check_min_gain, plan_fixed, Limits, Move, Planned};
use super::version::Receiving;
use super::{weighted_skew, Error};

/// A plan that empties the primaries `drained` (shard indices) and evens out the others:
/// the module's docs. Inputs as [`plan_with`](super::plan_with), `receiving` as
/// [`plan_receiving`](super::plan_receiving); `drained` empty gives `plan_receiving`'s
/// plan. In the plan given, the drained shards' caps and loads after are 0, `skew_before`
/// is the skew now (every primary by its weight, the drained ones included) and
/// `skew_after` the skew over the primaries that stay; [`Planned::drained`] names them.
///
/// # Errors
///
/// As [`plan_with`](super::plan_with), and [`Error::PlanInput`] when `drained` names a
/// shard twice or one that is not there, names every shard (no primary would be left to
/// take the slots), or holds a slot of keys no staying primary can read.
///
/// # Examples
///
/// ```
/// use slotgen_cluster::{plan_draining, Limits, Receiving};
///
/// // three primaries; shard 2 holds slots 4-5 (30 and 0 keys): both move, the empty one too
/// let amounts = [10, 10, 10, 10, 30, 0];
/// let owners = [Some(0), Some(0), Some(1), Some(1), Some(2), Some(2)];
/// let p = plan_draining(&amounts, &amounts, &owners, &[1.0; 3], &[2], &Limits::target(1.5), &Receiving::none())?;
/// assert!(p.plan.moves.iter().all(|m| m.from == 2));
/// assert_eq!(p.plan.moves.len(), 2);
/// assert_eq!(p.plan.loads_after[2], 0);
/// assert_eq!(p.drained, [2]);
/// # Ok::<(), slotgen_cluster::Error>(())
/// ```
pub fn plan_draining(
    amounts: &[u64],
    keys: &[u64],
    owners: &[Option<usize>],
    weights: &[f64],
    drained: &[usize],
    limits: &Limits,
    receiving: &Receiving,
) -> Result<Planned, Error> {
    if drained.is_empty() {
        return plan_fixed(amounts, keys, owners, weights, limits, receiving, &[]);
    }
    let bad = |rule: String| Err(Error::PlanInput { rule });
    // the whole input's rules first (lengths, owners, weights, target, least gain)
    super::rebalance::check(amounts, keys, owners, weights, limits.target)?;
    check_min_gain(limits)?;
    let shards = weights.len();
    let mut draining = vec![false; shards];
    for &d in drained {
        if d >= shards {
            return bad(format!(
                "shard {d} to drain, but there are {shards} primaries"
            ));
        }
        if std::mem::replace(&mut draining[d], true) {
            return bad(format!("shard {d} is drained twice: name it once"));
        }
    }
    // the staying shards, and each one's index among them
    let stay: Vec<usize> = (0..shards).filter(|&s| !draining[s]).collect();
    if stay.is_empty() {
        return bad(
            "every primary is drained: no primary would be left to take the slots; keep one at least"
                .to_owned(),
        );
    }
    let mut index_of = vec![usize::MAX; shards];
    for (i, &s) in stay.iter().enumerate() {
        index_of[s] = i;
    }
    let stay_weights: Vec<f64> = stay.iter().map(|&s| weights[s]).collect();
    let total: u64 = amounts
        .iter()
        .zip(owners)
        .filter(|(_, o)| o.is_some())
        .fold(0u64, |t, (a, _)| t.saturating_add(*a));
    let weight: f64 = stay_weights.iter().sum();
    let fair = |i: usize| (total.max(1)) as f64 * stay_weights[i] / weight;
    let mut loads = vec![0u64; stay.len()];
    let mut slots = vec![0usize; stay.len()];
    for (slot, owner) in owners.iter().enumerate() {
        if let Some(i) = owner.map(|o| index_of[o]).filter(|&i| i != usize::MAX) {
            loads[i] = loads[i].saturating_add(amounts[slot]);
            slots[i] += 1;
        }
    }
    // the drained slots: step 1 (an amount, largest first), then step 2 (none)
    let mut leaving: Vec<usize> = (0..owners.len())
        .filter(|&s| owners[s].is_some_and(|o| draining[o]))
        .collect();
    leaving.sort_by(|&a, &b| {
        amounts[b]
            .cmp(&amounts[a])
            .then(keys[a].cmp(&keys[b]))
            .then(a.cmp(&b))
    });
    let mut moves = Vec::with_capacity(leaving.len());
    let mut after: Vec<Option<usize>> = owners.to_vec();
    let mut fixed = vec![false; owners.len()];
    for slot in leaving {
        let from = owners[slot].expect("a drained slot has an owner");
        let measure = |i: usize| {
            if amounts[slot] > 0 {
                loads[i].saturating_add(amounts[slot]) as f64 / fair(i)
            } else {
                (slots[i] + 1) as f64 / stay_weights[i]
            }
        };
        let Some(to) = (0..stay.len())
            .filter(|&i| receiving.takes(from, stay[i], keys[slot]))
            .min_by(|&a, &b| measure(a).total_cmp(&measure(b)).then(a.cmp(&b)))
        else {
            return bad(format!(
                "slot {slot} of the drained shard {from} holds {} keys, and no primary that stays can read its `DUMP` payloads (an older server): upgrade one, or drain it with `CLUSTER SETSLOT` and a copy of the keys",
                keys[slot]
            ));
        };
        loads[to] = loads[to].saturating_add(amounts[slot]);
        slots[to] += 1;
        after[slot] = Some(stay[to]);
        fixed[slot] = true;
        moves.push(Move {
            slot: u16::try_from(slot).expect("checked: at most 16384 slots"),
            from,
            to: stay[to],
            keys: keys[slot],
            amount: amounts[slot],
        });
    }
    // step 3: the staying shards alone, the drained slots fixed where step 1 and 2 put them
    for o in after.iter_mut().flatten() {
        if draining[*o] {
            unreachable!("every drained slot was placed");
        }
        *o = index_of[*o];
    }
    let stay_receiving = receiving.of_shards(&stay);
    let mut planned = plan_fixed(
        amounts,
        keys,
        &after,
        &stay_weights,
        limits,
        &stay_receiving,
        &fixed,
    )?;
    // back to the shard indices of the whole cluster
    let expand = |v: &[f64]| -> Vec<f64> {
        let mut all = vec![0.0; shards];
        for (i, &s) in stay.iter().enumerate() {
            all[s] = v[i];
        }
        all
    };
    let plan = &mut planned.plan;
    let step3 = plan.moves.len();
    for m in &mut plan.moves {
        m.from = stay[m.from];
        m.to = stay[m.to];
    }
    moves.append(&mut plan.moves);
    plan.moves = moves;
    let before = crate::shard_totals(amounts, owners, shards);
    let mut loads_after = vec![0u64; shards];
    for (i, &s) in stay.iter().enumerate() {
        loads_after[s] = plan.loads_after[i];
    }
    plan.skew_before = weighted_skew(&before, weights);
    plan.loads_before = before;
    plan.loads_after = loads_after;
    plan.caps = expand(&plan.caps);
    // a bound of the whole plan ([`drain_lower_bound`]; the bound of step 3 alone is no bound
    // of the whole: another placement of the drained slots may need fewer moves after it)
    let bound = drain_lower_bound(amounts, owners, &draining, &plan.caps);
    let done = plan.moves.len();
    planned.moves_lower_bound = planned.moves_lower_bound.map(|_| bound);
    planned.minimal = planned.minimal.map(|_| step3 == 0 || done == bound);
    planned.drained = drained.to_vec();
    Ok(planned)
}

/// The fewest moves of any plan that empties the shards `draining` and leaves every other
/// shard `i` within `caps[i]`: every drained slot (`owners`), plus, for each staying shard
/// whose own slots' `amounts` sum over its cap, the fewest of its own slots whose amounts
/// cover the excess (its largest first).
///
/// Why no plan has fewer: every drained slot must leave its shard, one move each. A
/// staying shard `i` of own load `L_i > cap_i` ends with `L_i - out_i + in_i <= cap_i`,
/// where `out_i` is the amount of its own slots that left and `in_i >= 0` what arrived
/// (drained slots or others'), so `out_i >= L_i - cap_i`: the slots that leave `i` sum to
/// its excess at least, and no `k` of its slots sum to more than its `k` largest, so at
/// least the count taken here leave it. These slots are each staying shard's own, so no
/// slot is counted twice (by two shards, or as a drained slot), and each leaving slot is
/// one move at least. The bound ignores the least gain, so it holds for plans of any gain.
/// Where the plan made meets it (the drained shard's slots and the fullest staying
/// shard's largest: a 5-primary drain of 3277 slots whose fullest other primary must shed
/// 500, 3777 moves), the plan is the fewest moves.
fn drain_lower_bound(
    amounts: &[u64],
    owners: &[Option<usize>],
    draining: &[bool],
    caps: &[f64],
) -> usize {
    let mut own: Vec<Vec<u64>> = vec![Vec::new(); draining.len()];
    let mut forced = 0;
    for (slot, owner) in owners.iter().enumerate() {
        match *owner {
            Some(o) if draining[o] => forced += 1,
            Some(o) => own[o].push(amounts[slot]),
            None => {}
        }
    }
    let shed: usize = own
        .iter_mut()
        .zip(caps)
        .map(|(mine, &cap)| {
            let load: u64 = mine.iter().fold(0u64, |t, &a| t.saturating_add(a));
            if super::rebalance::within(load, cap) {
                return 0;
            }
            mine.sort_unstable_by(|a, b| b.cmp(a));
            let mut left = load;
            // the fewest largest slots that bring it within its cap
            mine.iter()
                .take_while(|&&a| {
                    let over = !super::rebalance::within(left, cap);
                    left -= a;
                    over
                })
                .count()
        })
        .sum();
    forced + shed
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    static ANY: Receiving = Receiving::none();

    /// The owners after `moves`, each checked to leave its slot's owner, no slot twice.
    fn moved(owners: &[Option<usize>], moves: &[Move]) -> Vec<Option<usize>> {
        let mut after = owners.to_vec();
        let mut seen = vec![false; owners.len()];
        for m in moves {
            let s = usize::from(m.slot);
            assert!(
                !std::mem::replace(&mut seen[s], true),
                "slot {s} moved twice"
            );
            assert_eq!(after[s], Some(m.from), "slot {s} moved from its owner");
            after[s] = Some(m.to);
        }
        after
    }

    /// The largest load over fair share of the shards `stay`, the test's own sums.
    fn skew_over(
        amounts: &[u64],
        owners: &[Option<usize>],
        weights: &[f64],
        stay: &[usize],
    ) -> f64 {
        let total: u64 = amounts
            .iter()
            .zip(owners)
            .filter(|(_, o)| o.is_some())
            .map(|(a, _)| a)
            .sum();
        let w: f64 = stay.iter().map(|&s| weights[s]).sum();
        stay.iter()
            .map(|&s| {
                let load: u64 = amounts
                    .iter()
                    .zip(owners)
                    .filter(|(_, o)| **o == Some(s))
                    .map(|(a, _)| a)
                    .sum();
                load as f64 / (total as f64 * weights[s] / w)
            })
            .fold(0.0, f64::max)
    }

    proptest! {
        /// Every slot of the drained shard leaves it, empty ones included, each once, none
        /// arrives there; the skew given is the moved map's; and it is within one slot of
        /// even (list scheduling: the fullest primary took its last slot where it was the
        /// least full), or the staying primaries' own skew before, whichever is higher.
        #[test]
        fn a_drain_empties_the_primary_and_spreads_its_slots(
            slots in proptest::collection::vec((0u64..40, 0usize..4), 1..14),
            weights in proptest::collection::vec(prop_oneof![Just(1.0), Just(2.0), Just(0.5)], 4),
            drained in 0usize..4,
            target in prop_oneof![Just(1.0), Just(1.1), Just(1.5)],
        ) {
            let amounts: Vec<u64> = slots.iter().map(|s| s.0).collect();
            let owners: Vec<Option<usize>> = slots.iter().map(|s| Some(s.1)).collect();
            let limits = Limits { min_gain: Some(0.0), ..Limits::target(target) };
            let p = plan_draining(&amounts, &amounts, &owners, &weights, &[drained], &limits, &ANY).unwrap();
            let after = moved(&owners, &p.plan.moves);
            prop_assert!(after.iter().all(|o| *o != Some(drained)));
            prop_assert_eq!(p.plan.loads_after[drained], 0);
            let leaving = owners.iter().filter(|o| **o == Some(drained)).count();
            // the bound counts every drained slot, and is no more than the plan made
            if let Some(bound) = p.moves_lower_bound {
                prop_assert!(bound >= leaving, "{bound} < {leaving}");
                if p.plan.reached {
                    prop_assert!(bound <= p.plan.moves.len(), "{bound} > {}", p.plan.moves.len());
                }
            }
            let stay: Vec<usize> = (0..4).filter(|&s| s != drained).collect();
            let total: u64 = amounts.iter().sum();
            if total > 0 {
                let skew = skew_over(&amounts, &after, &weights, &stay);
                prop_assert!((p.plan.skew_after.unwrap() - skew).abs() < 1e-9, "{:?} {}", p.plan.skew_after, skew);
                let own = skew_over(&amounts, &owners.iter().map(|o| o.filter(|&o| o != drained)).collect::<Vec<_>>(), &weights, &stay)
                    * (amounts.iter().zip(&owners).filter(|(_, o)| **o != Some(drained)).map(|(a, _)| a).sum::<u64>() as f64 / total as f64);
                let largest = amounts.iter().zip(&owners).filter(|(_, o)| **o == Some(drained)).map(|(a, _)| *a).max().unwrap_or(0);
                let w: f64 = stay.iter().map(|&s| weights[s]).sum();
                let least_fair = stay.iter().map(|&s| total as f64 * weights[s] / w).fold(f64::INFINITY, f64::min);
                let even = 1.0 + largest as f64 / least_fair;
                prop_assert!(skew <= own.max(even) + 1e-9, "{skew} over {own} and {even}");
            }
        }
    }

    /// The fewest moves of any assignment of the slots to the staying shards `stay` that
    /// leaves each within `caps`, by trying every one (`None` when none does).
    fn fewest_by_brute_force(
        amounts: &[u64],
        owners: &[Option<usize>],
        stay: &[usize],
        caps: &[f64],
    ) -> Option<usize> {
        let n = amounts.len();
        let mut best: Option<usize> = None;
        for code in 0..stay.len().pow(n as u32) {
            let (mut c, mut loads, mut moves) = (code, vec![0u64; caps.len()], 0);
            for slot in 0..n {
                let to = stay[c % stay.len()];
                c /= stay.len();
                loads[to] += amounts[slot];
                moves += usize::from(owners[slot] != Some(to));
            }
            let fits = stay
                .iter()
                .all(|&s| loads[s] as f64 <= caps[s] * (1.0 + 1e-12));
            if fits && best.is_none_or(|b| moves < b) {
                best = Some(moves);
            }
        }
        best
    }

    proptest! {
        /// The drain's lower bound against every assignment of up to 8 slots to 3 staying
        /// primaries (one of 4 drained), at the caps the plan aimed at: never more than the
        /// fewest moves that reach them; and a plan that meets it is the fewest, so said.
        #[test]
        fn the_drain_bound_is_at_most_the_fewest_moves_by_brute_force(
            slots in proptest::collection::vec((0u64..30, 0usize..4), 1..9),
            drained in 0usize..4,
            target in prop_oneof![Just(1.0), Just(1.1), Just(1.3)],
        ) {
            let amounts: Vec<u64> = slots.iter().map(|s| s.0).collect();
            let owners: Vec<Option<usize>> = slots.iter().map(|s| Some(s.1)).collect();
            let weights = [1.0; 4];
            let limits = Limits { min_gain: Some(0.0), ..Limits::target(target) };
            let p = plan_draining(&amounts, &amounts, &owners, &weights, &[drained], &limits, &ANY).unwrap();
            let mut draining = [false; 4];
            draining[drained] = true;
            let bound = drain_lower_bound(&amounts, &owners, &draining, &p.plan.caps);
            let stay: Vec<usize> = (0..4).filter(|&s| s != drained).collect();
            let fewest = fewest_by_brute_force(&amounts, &owners, &stay, &p.plan.caps);
            if let Some(fewest) = fewest {
                prop_assert!(bound <= fewest, "bound {bound} over the fewest {fewest}");
            }
            if let Some(given) = p.moves_lower_bound {
                prop_assert_eq!(given, bound);
            }
            if p.minimal == Some(true) {
                prop_assert_eq!(Some(p.plan.moves.len()), fewest);
            }
        }
    }

    /// The tester's drain (5 primaries, the drained one's slots and the fullest other's
    /// excess): the bound counts both, so the plan that meets it is said to be the fewest.
    /// In small: shard 4 drained (3 slots of 1), shard 0 holds 8 slots of 10 against a
    /// fair share of (80 + 3 * 2 + 3) / 4 = 22.25, cap 24.475 at 1.1: it must shed 6.
    #[test]
    fn a_drain_bound_counts_the_fullest_primarys_excess_too() {
        let mut amounts = vec![10u64; 8];
        let mut owners: Vec<Option<usize>> = vec![Some(0); 8];
        for s in 1..4 {
            amounts.extend([1, 1]);
            owners.extend([Some(s), Some(s)]);
        }
        amounts.extend([1; 3]);
        owners.extend([Some(4); 3]);
        let limits = Limits {
            min_gain: Some(0.0),
            ..Limits::target(1.1)
        };
        let p = plan_draining(&amounts, &amounts, &owners, &[1.0; 5], &[4], &limits, &ANY).unwrap();
        // the fewest, counted apart: 3 drained slots + 6 of shard 0's (80 - 6 * 10 = 20 is
        // within the cap, 80 - 5 * 10 = 30 over it)
        let cap = 1.1 * amounts.iter().sum::<u64>() as f64 / 4.0;
        assert!((20.0..30.0).contains(&cap), "{cap}");
        assert_eq!(p.moves_lower_bound, Some(3 + 6));
        assert_eq!(p.plan.moves.len(), 9);
        assert_eq!(p.minimal, Some(true));
    }

    /// Empty slots even out the slot counts: 5 and 2 slots, 7 drained, 7 and 7 after.
    #[test]
    fn empty_slots_are_spread_by_slot_count() {
        let owners: Vec<Option<usize>> = [0; 5]
            .iter()
            .chain(&[1; 2])
            .chain(&[2; 7])
            .map(|&o| Some(o))
            .collect();
        let amounts = vec![0u64; owners.len()];
        let p = plan_draining(
            &amounts,
            &amounts,
            &owners,
            &[1.0; 3],
            &[2],
            &Limits::target(1.1),
            &ANY,
        )
        .unwrap();
        let after = moved(&owners, &p.plan.moves);
        let count = |s: usize| after.iter().filter(|o| **o == Some(s)).count();
        assert_eq!((count(0), count(1), count(2)), (7, 7, 0));
        assert_eq!(p.plan.moves.len(), 7);
        // by weight: shard 1 of weight 2 takes twice shard 0's count, as far as 14 slots go
        let p = plan_draining(
            &amounts,
            &amounts,
            &owners,
            &[1.0, 2.0, 1.0],
            &[2],
            &Limits::target(1.1),
            &ANY,
        )
        .unwrap();
        let after = moved(&owners, &p.plan.moves);
        let count = |s: usize| after.iter().filter(|o| **o == Some(s)).count();
        assert_eq!((count(0), count(1)), (5, 9));
    }

    #[test]
    fn a_drain_of_every_primary_or_of_one_twice_is_refused() {
        let amounts = [1, 2];
        let owners = [Some(0), Some(1)];
        let limits = Limits::target(1.1);
        for (drained, says) in [
            (&[0, 1][..], "every primary is drained"),
            (&[1, 1][..], "drained twice"),
            (&[2][..], "there are 2 primaries"),
        ] {
            let e = plan_draining(
                &amounts, &amounts, &owners, &[1.0; 2], drained, &limits, &ANY,
            )
            .unwrap_err();
            assert!(e.to_string().contains(says), "{e}");
        }
    }

    /// A slot of keys goes only where the keys can be read: a Valkey 8.0 primary cannot
    /// read 9.1's `DUMP`, an empty slot goes anywhere; with no reader left, refused.
    #[test]
    fn a_drained_slot_of_keys_goes_only_to_a_primary_that_reads_it() {
        let receiving = Receiving::from_info(&[
            Some("valkey_version:8.0.1"),
            Some("valkey_version:9.1.2"),
            Some("valkey_version:9.1.2"),
        ]);
        let amounts = [5, 5, 5, 0, 0];
        let owners = [Some(0), Some(1), Some(2), Some(2), Some(2)];
        let p = plan_draining(
            &amounts,
            &amounts,
            &owners,
            &[1.0; 3],
            &[2],
            &Limits::target(2.0),
            &receiving,
        )
        .unwrap();
        let to_of = |slot: u16| p.plan.moves.iter().find(|m| m.slot == slot).unwrap().to;
        assert_eq!(to_of(2), 1);
        assert_eq!((to_of(3), to_of(4)), (0, 0));
        let e = plan_draining(
            &amounts,
            &amounts,
            &owners,
            &[1.0; 3],
            &[1, 2],
            &Limits::target(2.0),
            &receiving,
        )
        .unwrap_err();
        assert!(
            e.to_string().contains("no primary that stays can read"),
            "{e}"
        );
    }
}
