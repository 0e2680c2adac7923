//! Evening out a cluster's load: [`plan_with`] chooses slot moves that bring the weighted
//! skew of a per-slot metric (keys, CPU, network bytes, memory) under a target with as few
//! moves as it can, then as few keys. The planner is pure: it reads numbers and returns a
//! [`Planned`]; carrying a plan out against servers is the job of the code that talks to
//! them.
//!
//! # The skew, its floor and the goal
//!
//! Each primary (shard) `i` has a weight `w_i > 0` and a *fair share* of the metric's total
//! `T`: `fair_i = T * w_i / W`, with `W` the sum of the weights. The weighted skew is
//! `max_i load_i / fair_i`; with equal weights that is the fullest primary over the mean,
//! [`super::skew`]'s ratio (without its floor on thin loads).
//!
//! A slot cannot be split by moving it: a [hot slot](HotSlot) (its amount alone over the
//! largest fair share, `fair_max`) keeps the skew at `amount / fair_max` or more wherever it
//! lies. The *floor* of a plan is the largest of these and 1.0: no slot plan goes below it.
//! The *goal* is the target asked for, or the floor when the floor is higher; each primary
//! may hold `goal * fair_i`, its *cap*.
//!
//! # Moves worth making
//!
//! A move's *gain* is what it takes off its donor's ratio, `amount / fair_donor`: how much it
//! lowers the skew when the donor is the fullest primary. A slot whose gain is under
//! [`Limits::min_gain`] (by default [`DEFAULT_MIN_GAIN`], 0.1% of a fair share, or half the
//! mean non-empty slot where that is less) is never moved: draining a primary's tiny slots
//! costs a round trip and a cluster-bus epoch each for a skew that nobody could measure. [`Limits::max_moves`] caps the plan; it is not the
//! stopping rule: the plan stops at the goal.
//!
//! # The fewest moves: a lower bound, the greedy, an exact search
//!
//! - *Lower bound.* Every primary over its cap must give away at least its excess (`load -
//!   cap`), in slots of its own; the fewest slots that can do it are its largest (with a
//!   gain of at least `min_gain`). The sum of those counts over the primaries over their
//!   caps is [`Planned::moves_lower_bound`]: no plan reaches the goal with fewer moves.
//!   Swaps keep it a bound: it counts only the slots an over-cap primary sheds, and a
//!   swap's slot `y` leaves a primary only together with a larger `x` arriving there, so
//!   `y`s never cover an excess (the slots a primary sheds of gain `>= min_gain` still sum
//!   to its excess or more); the `y` moves are more moves the bound does not count.
//! - *Greedy (deterministic).* While the skew is over the goal: the *donor* is the primary
//!   of the highest ratio (ties: the lowest shard index); a *candidate* is a slot of it not
//!   yet moved, of gain `>= min_gain`, that some other primary has the room (`cap - load`)
//!   to take. If some candidates alone remove the donor's excess, the one with the fewest
//!   keys moves (ties: the smaller amount, the lower slot); otherwise the largest amount
//!   (ties: fewer keys, the lower slot). Largest first, then the cheapest finishing slot,
//!   takes the fewest slots off one donor. The *receiver* is the primary with the least
//!   room that still takes the slot (best fit; ties: the lowest shard index).
//! - *Swaps (in the greedy).* When no candidate fits (every slot of the donor is larger
//!   than any other primary's room), the greedy trades: a slot `x` of the donor (not yet
//!   moved) goes to another primary `r`, and a smaller slot `y` of `r` (not yet moved)
//!   comes back, where `r` stays within its cap (`load_r + x - y <= cap_r`) and the net
//!   gain `(x - y) / fair_donor` is at least `min_gain`. Of those, the largest `x - y`
//!   (the donor's ratio left lowest; ties: fewer keys moved, then the lower slot `x`, then
//!   the lower slot `y`). For each `x` and `r` the `y`s that fit are the amounts in
//!   `[x - room_r, x - min_gain * fair_donor]`; `r`'s slots sorted by amount, a binary
//!   search finds the smallest: O(slots * primaries * log slots) per swap. A swap is two
//!   moves, `x` first (donor to `r`), then `y` (`r` to the donor); both count toward
//!   [`Limits::max_moves`], and a swap that would pass it is not made. A swap never raises
//!   the skew: `r` ends within its cap, under the donor's ratio, and the donor goes down.
//!   Where one move of a donor's slot to another primary (over its cap, then) leaves a
//!   skew as low as the swap's, that move is made instead: one move fewer, and no shard
//!   further over its cap than the swap leaves the donor (ties: fewer keys, the lower
//!   slot, the lower shard).
//! - *Exact search.* When the greedy's count is over the lower bound, or it stops short, a
//!   depth-first search over sets of moves (slots in order of amount, each to any other
//!   primary, pruned by the lower bound of what is left) looks for fewer moves, and at the
//!   fewest for fewer keys, within [`SEARCH_NODES`] nodes (a tenth of it when the greedy
//!   meets the lower bound) and [`SEARCH_DEPTH`] moves. Finished, the plan is proven the
//!   fewest moves ([`Planned::minimal`]); cut short, the plan is the best found and its
//!   distance to [`Planned::moves_lower_bound`] is what is known.
//!
//! On small clusters (the property tests: up to 9 slots, 3 primaries, against every
//! assignment of slots) the search always finishes and the plan has the fewest moves of any
//! that reach the target. On a real cluster (16384 slots) the search is cut short; in the
//! measured cases the greedy met the lower bound (the plan is then proven minimal in moves),
//! which the tests report.
//!
//! # When the goal is out of reach
//!
//! Where the plan for the goal stops short of it (no whole-slot plan found reaches it), a
//! plan for a higher target can go lower: the greedy's first move may fill the primary that
//! a later donor needed. The planner then plans higher targets, between the goal and the
//! skew the plan leaves (forty in equal ratios, rounded up to two decimals), by the greedy
//! and, where it stops short of one, by the exact search on a twentieth of its budget; of
//! the plans that reach their own target, the one of the least skew chooses the target,
//! refined by halving the step below it five times, whose plan (made
//! as the goal's is) replaces the plan when it is lower by [`Limits::min_gain`] for each
//! move it has more and by [`LEAST_YIELD`] (a tenth) of the gains it carries more: a plan
//! the target did not ask for pays for its moves and its keys, so that a hot slot does not
//! change primary to take a sliver off the skew ([`Stop::Relaxed`] names its target and
//! what the plan for the goal reached). Only higher targets whose plans pay so are
//! compared.
//!
//! # What it guarantees
//!
//! - No slot moves twice (a slot a swap moves, either one, is moved); each move's `from` is
//!   the slot's owner before the plan; every move alone gains at least `min_gain`, and so
//!   does every swap's net `x - y` (its `y` alone may gain less); at most `max_moves`.
//! - `skew_after` is the skew recomputed from the moved map (the property tests check it),
//!   and the greedy's is never above `skew_before`.
//! - The plan never goes under the floor, and says where it stops ([`Stop`]): at the target,
//!   at the floor, at the move cap (with what more moves would reach), at the gain threshold
//!   (with what smaller moves would reach), or where neither a move nor a swap fits.

use std::ops::RangeInclusive;

use serde::Serialize;

use super::load::{check_weights, hot_slots, HotSlot};
use super::version::Receiving;
use super::{weighted_skew, Error};

/// One slot move of a [`Plan`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Move {
    /// The hash slot, in 0..16384.
    pub slot: u16,
    /// The shard index it leaves (the index in the weights and owners given to [`plan`]).
    pub from: usize,
    /// The shard index it goes to.
    pub to: usize,
    /// Its keys (what `MIGRATE` carries).
    pub keys: u64,
    /// Its amount of the metric planned by.
    pub amount: u64,
}

/// What [`plan`] gives: the moves in order and the skews they give.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Plan {
    /// The moves, in the order chosen.
    pub moves: Vec<Move>,
    /// The weighted skew before ([`weighted_skew`]: `max_i load_i / fair_i`; `None` for a
    /// total of 0).
    pub skew_before: Option<f64>,
    /// The weighted skew after every move, recomputed from the moved map.
    pub skew_after: Option<f64>,
    /// The target asked for.
    pub target: f64,
    /// Whether `skew_after <= target` (a total of 0 is even).
    pub reached: bool,
    /// The hot slots whose floor is above the target ([`HotSlot`]), highest amount first
    /// (ties: lower slot): they break the target wherever they lie.
    pub unreachable: Vec<u16>,
    /// The metric's total on each shard before, indexed by shard.
    pub loads_before: Vec<u64>,
    /// The metric's total on each shard after the moves.
    pub loads_after: Vec<u64>,
    /// Each shard's cap, the most of the metric it may hold within the goal (the target, or
    /// the floor when it is higher): `goal * total * w_i / sum(w)`.
    pub caps: Vec<f64>,
}

impl Plan {
    /// The keys every move carries, summed.
    #[must_use]
    pub fn keys_moved(&self) -> u64 {
        self.moves.iter().map(|m| m.keys).sum()
    }
}

/// A primary whose share of the slots, after a plan, is far from its share of the metric
/// ([`Planned::slot_shares_apart`]): keys added later over many hashtags land by slot
/// share, so the two drift toward each other as the data grows, the plan's evening undone.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SlotShare {
    /// The shard index.
    pub shard: usize,
    /// Its share of the owned slots after the plan, 0 to 1.
    pub slots: f64,
    /// Its share of the metric after the plan, 0 to 1.
    pub metric: f64,
    /// Its fair share (its weight over the sum of the weights of the primaries that keep
    /// slots), 0 to 1.
    pub fair: f64,
}

/// How far apart a primary's share of the slots and its share of the metric may be, in
/// fair shares, before [`Planned::slot_shares_apart`] names it: a half. A new primary with
/// 0.9% of the slots and 17.5% of the keys (a fair share of 25%) is 0.66 fair shares apart;
/// the shares of a metric spread evenly over the slots are apart by noise alone.
pub const SLOT_SHARE_MARGIN: f64 = 0.5;

impl Planned {
    /// The primaries whose share of the slots after the plan differs from their share of
    /// the metric after it by [`SLOT_SHARE_MARGIN`] of their fair share or more, in shard
    /// order. `owners` is the map the plan was made on (the shard of each slot, `None`:
    /// unowned), `weights` its weights; the drained primaries ([`Planned::drained`]) are
    /// left out (they keep neither). Empty when the metric's total is 0.
    #[must_use]
    pub fn slot_shares_apart(&self, owners: &[Option<usize>], weights: &[f64]) -> Vec<SlotShare> {
        let plan = &self.plan;
        let mut slots = vec![0usize; weights.len()];
        let mut after = owners.to_vec();
        for m in &plan.moves {
            after[usize::from(m.slot)] = Some(m.to);
        }
        for shard in after.iter().flatten() {
            slots[*shard] += 1;
        }
        let owned: usize = slots.iter().sum();
        let total: u64 = plan.loads_after.iter().sum();
        let stays = |s: usize| !self.drained.contains(&s);
        let weight: f64 = (0..weights.len())
            .filter(|&s| stays(s))
            .map(|s| weights[s])
            .sum();
        if total == 0 || owned == 0 {
            return Vec::new();
        }
        (0..weights.len())
            .filter(|&s| stays(s))
            .map(|shard| SlotShare {
                shard,
                slots: slots[shard] as f64 / owned as f64,
                metric: plan.loads_after[shard] as f64 / total as f64,
                fair: weights[shard] / weight,
            })
            .filter(|s| (s.slots - s.metric).abs() >= SLOT_SHARE_MARGIN * s.fair)
            .collect()
    }
}

/// The limits of a plan ([`plan_with`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limits {
    /// The highest weighted skew allowed, in [`TARGET_SKEWS`].
    pub target: f64,
    /// At most this many moves (a cap: the plan stops at its goal).
    pub max_moves: usize,
    /// The least gain of a move, in [`MIN_GAINS`]: a slot moves only if it lowers its
    /// donor's ratio (`load / fair`) by at least this much (0.001: 0.1% of a fair share).
    /// `None`: the default for the loads planned, [`DEFAULT_MIN_GAIN`] or half the mean
    /// non-empty slot where that is less ([`Planned::min_gain`] gives it).
    pub min_gain: Option<f64>,
}

impl Limits {
    /// `target` with no cap on moves and the default least gain.
    #[must_use]
    pub fn target(target: f64) -> Self {
        Limits {
            target,
            max_moves: usize::MAX,
            min_gain: None,
        }
    }
}

/// Why a plan stops where it does.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Stop {
    /// The skew after is within the target (or the total is 0).
    Reached,
    /// The target is under the floor; the plan reaches the floor.
    Floor,
    /// `max_moves` moves were planned, or one fewer where the next step is a swap (two
    /// moves); `further`: what the same plan without the cap reaches, when it reaches lower
    /// (`None`: more moves would not help, with this least gain or with none).
    MaxMoves {
        /// Moves and skew of the plan without the cap.
        further: Option<Further>,
    },
    /// Every slot left that would lower the skew gains less than `min_gain`; `further`: what
    /// the plan with no threshold reaches, when it reaches lower: within the same cap, or
    /// past it when the cap was reached too (its `moves` then above `max_moves`).
    MinGain {
        /// Moves and skew of the plan with `min_gain` 0.
        further: Option<Further>,
    },
    /// No slot of the fullest primary fits under another primary's cap, alone or in a swap
    /// for a smaller slot of it: the remaining slots are too large for the room there is.
    /// `least_target`: the least target at which one of them moves to another primary,
    /// alone or in a swap (that primary's load after the step over its fair share), when it
    /// is below the skew the plan leaves; `None`: no move or swap of whole slots lowers the
    /// skew.
    NoRoom {
        /// The least `--target-skew` that lets a slot of the fullest primary move (alone or
        /// in a swap).
        least_target: Option<f64>,
    },
    /// The plan for the target asked stopped short of it, at `asked`; the plan given is
    /// the one for the higher `target`, which goes lower (the least skew of the higher
    /// targets tried: see the module's docs). `--target-skew` of `target` gives the same
    /// moves.
    Relaxed {
        /// The target whose plan this is.
        target: f64,
        /// Moves and skew of the plan for the target asked.
        asked: Further,
    },
}

/// What a plan with a relaxed limit reaches ([`Stop`]).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Further {
    /// Its moves.
    pub moves: usize,
    /// Its skew after.
    pub skew: f64,
}

/// What [`plan_with`] gives: the [`Plan`], the hot slots and the floor they set, a lower
/// bound on the moves, and why the plan stops.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Planned {
    /// The plan.
    pub plan: Plan,
    /// The hot slots of the metric ([`hot_slots`]), highest first.
    pub hot: Vec<HotSlot>,
    /// The least skew of any slot plan: the first hot slot's floor, or 1.0 when none
    /// (`None` for a total of 0).
    pub floor: Option<f64>,
    /// The skew the plan aims at: the target, or the floor when it is higher.
    pub goal: f64,
    /// No plan reaches the goal with fewer moves (the module's docs); 0 when it is reached
    /// already; `None` when no set of moves of at least the least gain reaches it.
    pub moves_lower_bound: Option<usize>,
    /// Whether the plan is proven the fewest moves that reach the goal (it meets the lower
    /// bound, or the exact search finished); `None` where the plan does not reach its goal
    /// (the fewest moves that reach it is then no question the plan answers).
    pub minimal: Option<bool>,
    /// Why it stops.
    pub stop: Stop,
    /// The least gain of a move it was made with: [`Limits::min_gain`], or its default for
    /// these loads.
    pub min_gain: f64,
    /// The shards the plan empties ([`super::plan_draining`]): every slot of theirs moves,
    /// empty ones included, and none arrives; empty for a plan that drains none.
    pub drained: Vec<usize>,
}

/// A plan of slot moves that brings the weighted skew of a metric under `target`, with
/// [`DEFAULT_MIN_GAIN`] and at most `max_moves` moves: [`plan_with`]'s plan.
///
/// - `amounts`: the metric on each slot (index = slot; up to 16384 entries);
/// - `keys`: the keys on each slot, as long as `amounts`;
/// - `owners`: the shard owning each slot, as long as `amounts` (`None`: no owner, left out);
/// - `weights`: one per shard, in [`WEIGHTS`] (shards without slots take part: they can
///   receive);
/// - `target`: the highest weighted skew allowed, in [`TARGET_SKEWS`];
/// - `max_moves`: at most this many moves.
///
/// # Errors
///
/// As [`plan_with`].
///
/// # Examples
///
/// ```
/// use slotgen_cluster::plan;
///
/// // two primaries: slots 0-2 on shard 0 with 20, 20 and 5 keys; slot 3 on shard 1 with 5
/// let amounts = [20, 20, 5, 5];
/// let owners = [Some(0), Some(0), Some(0), Some(1)];
/// let plan = plan(&amounts, &amounts, &owners, &[1.0, 1.0], 1.1, 100)?;
/// assert_eq!(plan.skew_before, Some(45.0 / 25.0));
/// // one move of 20 keys: 25 | 25
/// assert_eq!(plan.moves.len(), 1);
/// assert_eq!((plan.moves[0].slot, plan.moves[0].from, plan.moves[0].to), (0, 0, 1));
/// assert_eq!(plan.skew_after, Some(1.0));
/// assert!(plan.reached);
/// # Ok::<(), slotgen_cluster::Error>(())
/// ```
pub fn plan(
    amounts: &[u64],
    keys: &[u64],
    owners: &[Option<usize>],
    weights: &[f64],
    target: f64,
    max_moves: usize,
) -> Result<Plan, Error> {
    let limits = Limits {
        max_moves,
        ..Limits::target(target)
    };
    Ok(plan_with(amounts, keys, owners, weights, &limits)?.plan)
}

/// A plan of slot moves toward `limits.target` (see the module's docs for the goal, the
/// algorithm, its tie-breaks and what it guarantees), with the hot slots, the floor, a
/// lower bound on the moves and why it stops. Inputs as [`plan`].
///
/// # Errors
///
/// [`Error::PlanInput`] when the lengths differ, an owner is no shard, the target is out of
/// [`TARGET_SKEWS`] or the least gain out of [`MIN_GAINS`]; [`Error::Weights`] for a weight
/// out of [`WEIGHTS`].
///
/// # Examples
///
/// ```
/// use slotgen_cluster::{plan_with, Limits, Stop};
///
/// // slot 0 holds 60 of 100 keys: no slot plan goes below 60 / 50 = 1.2
/// let amounts = [60, 10, 10, 10, 10];
/// let owners = [Some(0), Some(0), Some(0), Some(1), Some(1)];
/// let p = plan_with(&amounts, &amounts, &owners, &[1.0, 1.0], &Limits::target(1.1))?;
/// assert_eq!(p.floor, Some(1.2));
/// assert_eq!(p.hot[0].slot, 0);
/// // two moves (slots 1 and 2) leave slot 0 alone at the floor: 60 | 40
/// assert_eq!(p.plan.moves.len(), 2);
/// assert_eq!(p.plan.skew_after, Some(1.2));
/// assert_eq!(p.stop, Stop::Floor);
/// assert_eq!(p.minimal, Some(true));
/// # Ok::<(), slotgen_cluster::Error>(())
/// ```
pub fn plan_with(
    amounts: &[u64],
    keys: &[u64],
    owners: &[Option<usize>],
    weights: &[f64],
    limits: &Limits,
) -> Result<Planned, Error> {
    plan_receiving(
        amounts,
        keys,
        owners,
        weights,
        limits,
        &Receiving::default(),
    )
}

/// [`plan_with`]'s plan with no move that `receiving` refuses: a slot with keys goes from a
/// primary to another only where [`Receiving::takes`] says the target reads the source's
/// `DUMP` payloads (not to an older server); a slot without keys goes anywhere. The apply
/// refuses such a move by the same rule, so a plan made here is one it carries out.
///
/// # Errors
///
/// As [`plan_with`].
///
/// # Examples
///
/// ```
/// use slotgen_cluster::{plan_receiving, Limits, Receiving};
///
/// // shard 0 (Valkey 9.1) holds 30 keys in slots 0-2, shard 1 (Valkey 8.0) none, shard 2
/// // (Valkey 9.1) 10 in slot 3: 8.0 cannot read 9.1's `DUMP`, so slots go to shard 2 only
/// let amounts = [10, 10, 10, 10];
/// let owners = [Some(0), Some(0), Some(0), Some(2)];
/// let receiving = Receiving::from_info(&[
///     Some("valkey_version:9.1.2"),
///     Some("valkey_version:8.0.1"),
///     Some("valkey_version:9.1.2"),
/// ]);
/// let limits = Limits::target(2.0);
/// let p = plan_receiving(&amounts, &amounts, &owners, &[1.0; 3], &limits, &receiving)?;
/// assert_eq!(p.plan.moves.len(), 1);
/// assert_eq!((p.plan.moves[0].from, p.plan.moves[0].to), (0, 2));
/// # Ok::<(), slotgen_cluster::Error>(())
/// ```
pub fn plan_receiving(
    amounts: &[u64],
    keys: &[u64],
    owners: &[Option<usize>],
    weights: &[f64],
    limits: &Limits,
    receiving: &Receiving,
) -> Result<Planned, Error> {
    plan_fixed(amounts, keys, owners, weights, limits, receiving, &[])
}

/// [`plan_receiving`]'s plan where no slot marked in `fixed` (index = slot; shorter: the
/// slots past it are not fixed) moves: its amount counts on its owner, it is never a
/// candidate. [`super::drain`] fixes the slots its drain has placed already.
pub(crate) fn plan_fixed(
    amounts: &[u64],
    keys: &[u64],
    owners: &[Option<usize>],
    weights: &[f64],
    limits: &Limits,
    receiving: &Receiving,
    fixed: &[bool],
) -> Result<Planned, Error> {
    check(amounts, keys, owners, weights, limits.target)?;
    check_min_gain(limits)?;
    let problem = Problem::new(amounts, keys, owners, weights, limits, receiving).fixing(fixed);
    let min_gain = limits
        .min_gain
        .unwrap_or_else(|| problem.default_min_gain());
    let (best, lower, searched) = problem.solve(limits.max_moves, min_gain);
    let reached_goal = problem.within_caps(&best);
    let minimal = reached_goal && (Some(best.moves.len()) == lower || searched);
    let mut stop = problem.stop(&best, reached_goal, limits.max_moves, min_gain);
    let mut best = best;
    if !reached_goal {
        if let Some((target, relaxed)) = relaxed(&problem, &best, limits, min_gain) {
            let asked = Further {
                moves: best.moves.len(),
                skew: weighted_skew(&best.loads, weights).unwrap_or(0.0),
            };
            stop = Stop::Relaxed { target, asked };
            best = relaxed;
        }
    }
    let plan = problem.plan(best.moves);
    Ok(Planned {
        plan,
        hot: problem.hot,
        floor: problem.floor,
        goal: problem.goal,
        moves_lower_bound: lower,
        minimal: reached_goal.then_some(minimal),
        stop,
        min_gain,
        drained: Vec::new(),
    })
}

/// The rule of [`Limits::min_gain`]: in [`MIN_GAINS`].
pub(crate) fn check_min_gain(limits: &Limits) -> Result<(), Error> {
    match limits.min_gain.filter(|g| !MIN_GAINS.contains(g)) {
        Some(gain) => Err(Error::PlanInput {
            rule: format!("least gain {gain:?}: {MIN_GAIN_RULE}"),
        }),
        None => Ok(()),
    }
}

/// How many higher targets [`relaxed`] tries.
const RELAXED_TARGETS: usize = 40;

/// How many times [`relaxed`] halves the step below the target it found.
const RELAXED_HALVINGS: usize = 5;

/// Where the plan for the goal stops short of it, the plans for higher targets: the
/// targets between the goal and the skew `best` leaves, [`RELAXED_TARGETS`] of them in
/// equal ratios (a geometric series) and each rounded up to two decimals, each planned by
/// the greedy with the same cap on moves and least gain, and where the greedy stops short
/// of it by the exact search with a twentieth of its budget. Of the plans that reach their
/// own target, the one of the least skew (ties: fewer moves, the lower target) chooses the
/// target, and the step below it (to the target tried before it, or the goal) is halved
/// [`RELAXED_HALVINGS`] times, each half's plan taken where it is lower; its plan is then
/// made as [`plan_with`] makes it (the greedy, then the exact search), and taken when it is
/// lower than `best`'s by `min_gain` for each move it has more (and lower at all):
/// a first move that fills the primary the next donor needed can leave the plan for a low
/// target far above the plan for a higher one. Gives that target, which `--target-skew`
/// takes to give the same moves, and its plan.
fn relaxed(
    problem: &Problem<'_>,
    best: &Candidate,
    limits: &Limits,
    min_gain: f64,
) -> Option<(f64, Candidate)> {
    let skew = weighted_skew(&best.loads, problem.weights)?;
    // in equal ratios, not equal steps: where the plan for the goal stops a thousand times
    // above it, even steps start at a twenty-fifth of the way and pass every target near the
    // floor, where the plan that drains a primary is
    let ratio = skew / problem.goal;
    let mut targets: Vec<f64> = (1..RELAXED_TARGETS)
        .map(|i| {
            let t = problem.goal * ratio.powf(i as f64 / RELAXED_TARGETS as f64);
            // up to hundredths, a product's last bit aside (1.2 * 100 is 120.00000000000001)
            ((t * 100.0) - 1e-9).ceil() / 100.0
        })
        .filter(|t| *t > problem.goal && *t < skew && TARGET_SKEWS.contains(t))
        .collect();
    targets.dedup();
    // the same problem under another target
    let at = |target: f64| {
        let limits = Limits { target, ..*limits };
        Problem::new(
            problem.amounts,
            problem.keys,
            problem.owners,
            problem.weights,
            &limits,
            problem.receiving,
        )
        .fixing(problem.fixed)
    };
    // the plan of one target, when it reaches it: the greedy to compare the targets, and
    // where it stops short a search of a twentieth of the budget (the whole search only for
    // the target chosen)
    let reach = |target: f64| -> Option<(f64, Candidate)> {
        let p = at(target);
        let mut c = p.greedy(limits.max_moves, min_gain);
        if !p.within_caps(&c) {
            let lower = p.lower_bound(min_gain);
            c = p
                .search(&c, lower, limits.max_moves, min_gain, SEARCH_NODES / 20)
                .0;
        }
        let s = weighted_skew(&c.loads, problem.weights)?;
        p.within_caps(&c).then_some((s, c))
    };
    // the least skew, then the fewest moves, then the lower target (the least target that
    // makes the plan is the one the note names)
    let better = |s: f64, c: &Candidate, target: f64, found: &Option<(f64, f64, Candidate)>| {
        found.as_ref().is_none_or(|(fs, ft, fc)| {
            s < fs - 1e-12
                || ((s - fs).abs() <= 1e-12 && (c.moves.len(), target) < (fc.moves.len(), *ft))
        })
    };
    let mut found: Option<(f64, f64, Candidate)> = None;
    for &target in &targets {
        if let Some((s, c)) = reach(target)
            .filter(|(s, c)| problem.pays_over(c, best, min_gain) && better(*s, c, target, &found))
        {
            found = Some((s, target, c));
        }
    }
    // then halves the step between the target found and the one tried below it (or the
    // goal) a few times: where the ratio's step is 19%, the target chosen comes within 1%
    // of the least one that is reached
    if let Some((_, mut above, _)) = found {
        let mut below = targets
            .iter()
            .copied()
            .filter(|t| *t < above)
            .fold(problem.goal, f64::max);
        for _ in 0..RELAXED_HALVINGS {
            let mid = ((below + above) / 2.0 * 100.0).round() / 100.0;
            if mid <= below || mid >= above {
                break;
            }
            match reach(mid) {
                Some((s, c))
                    if problem.pays_over(&c, best, min_gain) && better(s, &c, mid, &found) =>
                {
                    found = Some((s, mid, c));
                    above = mid;
                }
                _ => below = mid,
            }
        }
    }
    let (_, target, _) = found?;
    // the plan of that target as plan_with makes it: the greedy's, or fewer moves to it
    let p = at(target);
    let (c, _, _) = p.solve(limits.max_moves, min_gain);
    (p.within_caps(&c) && problem.pays_over(&c, best, min_gain)).then_some((target, c))
}

/// The least share of what a plan carries more than another (the sum of its moves' gains,
/// each move's amount over its donor's fair share) that it must take off the skew to be
/// made instead, where the planner looks at higher targets on its own (the module's docs,
/// "When the goal is out of reach"): a tenth. A move of gain `g` from the fullest primary
/// takes up to `g` off the skew; a plan that takes off a tenth of what it carries or less
/// mostly moves the load from one primary to another (a tester's case: a slot of two thirds
/// of the keys moved off the fullest primary made the receiver the fullest, 2.338 to 2.327,
/// 0.011 for a gain of 2.0).
pub const LEAST_YIELD: f64 = 0.1;

/// The most moves the exact search looks at in one plan (its depth of recursion): past it,
/// the greedy's plan stands, proven the fewest moves only where it meets the lower bound.
pub const SEARCH_DEPTH: usize = 1024;

/// The most nodes the exact search visits (each a set of moves tried); a tenth of it when
/// the greedy meets the lower bound and only fewer keys are looked for.
pub const SEARCH_NODES: usize = 100_000;

/// A planning problem: the input and what follows from it.
struct Problem<'a> {
    amounts: &'a [u64],
    keys: &'a [u64],
    owners: &'a [Option<usize>],
    weights: &'a [f64],
    /// Which shard may receive a slot's keys from which.
    receiving: &'a Receiving,
    /// The slots that stay where they are ([`plan_fixed`]), index = slot.
    fixed: &'a [bool],
    target: f64,
    total: u64,
    loads: Vec<u64>,
    fairs: Vec<f64>,
    caps: Vec<f64>,
    hot: Vec<HotSlot>,
    floor: Option<f64>,
    goal: f64,
    /// The owned slots of a positive amount, largest first (ties: fewer keys, lower slot).
    order: Vec<usize>,
    /// For each shard, the positions in `order` of its slots, ascending.
    positions: Vec<Vec<usize>>,
}

/// A set of moves and the loads it leaves.
#[derive(Clone)]
struct Candidate {
    moves: Vec<Move>,
    loads: Vec<u64>,
    /// The greedy stopped at the cap on moves with a step still to make: `max_moves`
    /// moves, or one fewer where the next step is a swap (two moves).
    cut: bool,
}

impl Candidate {
    fn keys(&self) -> u64 {
        self.moves.iter().map(|m| m.keys).sum()
    }
}

/// Loads within a cap up to rounding: a floor goal puts a hot slot's primary exactly at it.
pub(super) fn within(load: u64, cap: f64) -> bool {
    load as f64 <= cap * (1.0 + 1e-12)
}

impl<'a> Problem<'a> {
    fn new(
        amounts: &'a [u64],
        keys: &'a [u64],
        owners: &'a [Option<usize>],
        weights: &'a [f64],
        limits: &Limits,
        receiving: &'a Receiving,
    ) -> Self {
        let shards = weights.len();
        let loads = crate::shard_totals(amounts, owners, shards);
        let total = loads.iter().fold(0u64, |sum, l| sum.saturating_add(*l));
        let weight: f64 = weights.iter().sum();
        let fairs: Vec<f64> = weights.iter().map(|w| total as f64 * w / weight).collect();
        let hot = hot_slots(amounts, owners, shards, weights);
        let floor = (total > 0).then(|| hot.first().map_or(1.0, |h| h.floor.max(1.0)));
        let goal = floor.map_or(limits.target, |f| f.max(limits.target));
        let caps = fairs.iter().map(|f| goal * f).collect();
        let mut order: Vec<usize> = (0..amounts.len())
            .filter(|&s| owners[s].is_some() && amounts[s] > 0)
            .collect();
        order.sort_by(|&a, &b| {
            amounts[b]
                .cmp(&amounts[a])
                .then(keys[a].cmp(&keys[b]))
                .then(a.cmp(&b))
        });
        let mut positions = vec![Vec::new(); shards];
        for (pos, &slot) in order.iter().enumerate() {
            if let Some(shard) = owners[slot] {
                positions[shard].push(pos);
            }
        }
        Problem {
            positions,
            amounts,
            keys,
            owners,
            weights,
            receiving,
            fixed: &[],
            target: limits.target,
            total,
            loads,
            fairs,
            caps,
            hot,
            floor,
            goal,
            order,
        }
    }

    /// The same problem where the slots marked in `fixed` stay on their owners: out of
    /// `order` (every candidate comes from it), their amounts still on their shards' loads.
    fn fixing(mut self, fixed: &'a [bool]) -> Self {
        if fixed.iter().any(|&f| f) {
            let stays = |slot: usize| fixed.get(slot).copied().unwrap_or(false);
            self.order.retain(|&slot| !stays(slot));
            self.positions = vec![Vec::new(); self.shards()];
            for (pos, &slot) in self.order.iter().enumerate() {
                if let Some(shard) = self.owners[slot] {
                    self.positions[shard].push(pos);
                }
            }
        }
        self.fixed = fixed;
        self
    }

    fn shards(&self) -> usize {
        self.weights.len()
    }

    /// Whether `slot` may move from shard `from` to shard `to` ([`Receiving::takes`]).
    fn may(&self, slot: usize, from: usize, to: usize) -> bool {
        from != to && self.receiving.takes(from, to, self.keys[slot])
    }

    fn within_caps(&self, c: &Candidate) -> bool {
        self.total == 0 || (0..self.shards()).all(|i| within(c.loads[i], self.caps[i]))
    }

    /// A shard's `load` over its fair share.
    fn ratio(&self, load: u64, shard: usize) -> f64 {
        load as f64 / self.fairs[shard]
    }

    /// The shard of the highest ratio to its fair share under `loads`, the first of a tie.
    fn fullest(&self, loads: &[u64]) -> usize {
        (0..loads.len())
            .reduce(|b, i| {
                if self.ratio(loads[b], b) >= self.ratio(loads[i], i) {
                    b
                } else {
                    i
                }
            })
            .expect("at least one shard")
    }

    /// The least gain of a move by default ([`Limits::min_gain`] `None`): [`DEFAULT_MIN_GAIN`],
    /// or the gain of half the mean owned non-empty slot on the shard of the largest fair
    /// share, where that is less (two significant digits, so that a note prints it as it
    /// is). A metric spread evenly over 16384 slots puts each at `primaries / 16384` of a
    /// fair share, under 0.001 below 17 primaries: 0.001 alone would move no slot of a
    /// cluster whose slots are merely owned unevenly, while slots far under the typical one
    /// still stay.
    fn default_min_gain(&self) -> f64 {
        let largest_fair = self.fairs.iter().copied().fold(0.0, f64::max);
        if self.order.is_empty() || largest_fair <= 0.0 {
            return DEFAULT_MIN_GAIN;
        }
        let half_mean = 0.5 * self.total as f64 / self.order.len() as f64 / largest_fair;
        let half_mean: f64 = format!("{half_mean:.1e}")
            .parse()
            .unwrap_or(DEFAULT_MIN_GAIN);
        half_mean.min(DEFAULT_MIN_GAIN)
    }

    /// What the moves of `c` carry, each over its donor's fair share: the sum of their
    /// gains (the module's docs), in fair shares.
    fn carried(&self, c: &Candidate) -> f64 {
        c.moves
            .iter()
            .map(|m| m.amount as f64 / self.fairs[m.from])
            .sum()
    }

    /// Whether the plan `c` is worth making instead of `than` (the plan for the goal, where
    /// the planner looks at higher targets on its own: [`relaxed`]): it leaves a lower
    /// skew, lower by [`Limits::min_gain`] for each move it has more and by
    /// [`LEAST_YIELD`] of what it carries more ([`Problem::carried`]). The one rule of
    /// what a plan the target asked for does not need must pay for: its moves and its keys.
    fn pays_over(&self, c: &Candidate, than: &Candidate, min_gain: f64) -> bool {
        let (Some(s), Some(before)) = (
            weighted_skew(&c.loads, self.weights),
            weighted_skew(&than.loads, self.weights),
        ) else {
            return false;
        };
        let more_moves = c.moves.len().saturating_sub(than.moves.len()) as f64;
        let more_carried = (self.carried(c) - self.carried(than)).max(0.0);
        s < before - min_gain * more_moves - LEAST_YIELD * more_carried - 1e-9
    }

    /// Whether a slot of `amount` on `shard` gains at least `min_gain`.
    fn worth(&self, amount: u64, shard: usize, min_gain: f64) -> bool {
        amount > 0 && amount as f64 >= min_gain * self.fairs[shard]
    }

    fn mv(&self, slot: usize, from: usize, to: usize) -> Move {
        Move {
            slot: slot_of(slot),
            from,
            to,
            keys: self.keys[slot],
            amount: self.amounts[slot],
        }
    }

    /// The room `shard` has under its cap with `loads`, up to [`within`]'s rounding.
    fn room(&self, shard: usize, loads: &[u64]) -> f64 {
        self.caps[shard] * (1.0 + 1e-12) - loads[shard] as f64
    }

    /// Each shard's slots of `owners` (each slot's shard), smallest amount first (ties:
    /// fewer keys, lower slot): where a swap finds the slot it brings back by a binary
    /// search on the amount ([`Problem::swap`], [`Problem::least_target`]).
    fn ascending(&self, owners: &[Option<usize>]) -> Vec<Vec<usize>> {
        let mut held = vec![Vec::new(); self.shards()];
        for &slot in &self.order {
            if let Some(shard) = owners[slot] {
                held[shard].push(slot);
            }
        }
        for slots in &mut held {
            slots.sort_by_key(|&s| self.ascending_key(s));
        }
        held
    }

    /// The order of [`Problem::ascending`].
    fn ascending_key(&self, slot: usize) -> (u64, u64, usize) {
        (self.amounts[slot], self.keys[slot], slot)
    }

    /// The first slot of `held` (one shard's, in [`Problem::ascending`]'s order) of an
    /// amount of at least `least`, when it is under `x` and at most `most`: the smallest
    /// slot a swap of `x` may bring back, the one of the largest net amount.
    fn smallest_from(&self, held: &[usize], least: f64, most: f64, x: u64) -> Option<usize> {
        let first = held.partition_point(|&s| (self.amounts[s] as f64) < least);
        held.get(first)
            .copied()
            .filter(|&y| self.amounts[y] < x && self.amounts[y] as f64 <= most)
    }

    /// The greedy's swap for `donor` under `loads` (the module's docs): of the donor's
    /// slots `xs` (not moved, largest first) and the slots not moved of each other shard
    /// `held` (in [`Problem::ascending`]'s order), the slot `x` and the smaller slot `y` of
    /// another shard `r` whose trade leaves `r` within its cap and lowers the donor's ratio by
    /// at least `min_gain`: the largest net amount `x - y` (ties: fewer keys, then the lower
    /// slot `x`, then the lower slot `y`). Gives `(x, r, y)`. For each `x` and `r`, the
    /// `y`s that fit are the amounts in `[x - room_r, x - min_gain * fair_donor]`, and the
    /// smallest of them is found by a binary search: O(slots * shards * log slots).
    fn swap(
        &self,
        donor: usize,
        loads: &[u64],
        xs: impl Iterator<Item = usize>,
        held: &[Vec<usize>],
        min_gain: f64,
    ) -> Option<(usize, usize, usize)> {
        // (net, keys, x, y, r): the first four decide
        let mut best: Option<(u64, u64, usize, usize, usize)> = None;
        for x in xs {
            let amount = self.amounts[x];
            // every net of this slot or a smaller one is under its amount
            if best.is_some_and(|b| amount <= b.0) {
                break;
            }
            let most = amount as f64 - min_gain * self.fairs[donor];
            // `y` comes back: only from a shard the donor takes keys from
            for r in (0..self.shards())
                .filter(|&r| self.may(x, donor, r) && self.receiving.takes_keys(r, donor))
            {
                let least = amount as f64 - self.room(r, loads);
                let Some(y) = self.smallest_from(&held[r], least, most, amount) else {
                    continue;
                };
                let found = (
                    amount - self.amounts[y],
                    self.keys[x].saturating_add(self.keys[y]),
                    x,
                    y,
                    r,
                );
                let better = best.is_none_or(|b| {
                    found.0 > b.0
                        || (found.0 == b.0 && (found.1, found.2, found.3) < (b.1, b.2, b.3))
                });
                if better {
                    best = Some(found);
                }
            }
        }
        best.map(|(_, _, x, y, r)| (x, r, y))
    }

    /// The greedy's one move where no slot fits under a cap: of the donor's slots `xs` (not
    /// moved, of the least gain), the move to another shard that leaves the lowest skew,
    /// when that is below the skew now (ties: fewer keys, the lower slot, the lower shard).
    /// Gives `(x, r, skew)`. The skew is the largest of the donor's and the receiver's
    /// ratios after and the largest other ratio, which the three largest ratios now give.
    fn lowering(
        &self,
        donor: usize,
        loads: &[u64],
        xs: impl Iterator<Item = usize>,
    ) -> Option<(usize, usize, f64)> {
        let mut top: Vec<(f64, usize)> = (0..self.shards())
            .map(|i| (self.ratio(loads[i], i), i))
            .collect();
        top.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        top.truncate(3);
        let now = top.first().map_or(0.0, |t| t.0);
        let others = |r: usize| {
            top.iter()
                .find(|t| t.1 != donor && t.1 != r)
                .map_or(0.0, |t| t.0)
        };
        let mut best: Option<(f64, u64, usize, usize)> = None;
        for x in xs {
            let amount = self.amounts[x];
            for r in (0..self.shards()).filter(|&r| self.may(x, donor, r)) {
                let skew = self
                    .ratio(loads[donor] - amount, donor)
                    .max(self.ratio(loads[r] + amount, r))
                    .max(others(r));
                if skew >= now - 1e-12 {
                    continue;
                }
                let found = (skew, self.keys[x], x, r);
                let better = best.is_none_or(|b| {
                    found.0 < b.0 - 1e-12
                        || ((found.0 - b.0).abs() <= 1e-12
                            && (found.1, found.2, found.3) < (b.1, b.2, b.3))
                });
                if better {
                    best = Some(found);
                }
            }
        }
        best.map(|(skew, _, x, r)| (x, r, skew))
    }

    /// The plan of these limits: the greedy, then the exact search from it. Gives the
    /// best plan, the lower bound on moves, and whether the search was finished.
    fn solve(&self, max_moves: usize, min_gain: f64) -> (Candidate, Option<usize>, bool) {
        let greedy = self.greedy(max_moves, min_gain);
        let lower = self.lower_bound(min_gain);
        let (best, searched) = self.search(&greedy, lower, max_moves, min_gain, SEARCH_NODES);
        (best, lower, searched)
    }

    /// The greedy of the module's docs.
    fn greedy(&self, max_moves: usize, min_gain: f64) -> Candidate {
        let shards = self.shards();
        let mut loads = self.loads.clone();
        let mut moved = vec![false; self.amounts.len()];
        let mut moves = Vec::new();
        // each shard's slots, largest first
        let mut slots_of: Vec<Vec<usize>> = vec![Vec::new(); shards];
        for &slot in &self.order {
            if let Some(shard) = self.owners[slot] {
                slots_of[shard].push(slot);
            }
        }
        // each shard's slots not moved, smallest first: what a swap brings back
        let mut held = self.ascending(self.owners);
        let mut cut = false;
        let unhold = |held: &mut Vec<Vec<usize>>, shard: usize, slot: usize| {
            let list = &mut held[shard];
            if let Ok(i) =
                list.binary_search_by_key(&self.ascending_key(slot), |&s| self.ascending_key(s))
            {
                list.remove(i);
            }
        };
        while self.total > 0 && moves.len() < max_moves {
            let donor = self.fullest(&loads);
            if within(loads[donor], self.caps[donor]) {
                break;
            }
            let excess = loads[donor] as f64 - self.caps[donor];
            // the largest room of a shard that may receive `slot`
            let largest_room = |slot: usize| {
                (0..shards)
                    .filter(|&i| self.may(slot, donor, i))
                    .map(|i| self.room(i, &loads))
                    .fold(f64::NEG_INFINITY, f64::max)
            };
            let mine = slots_of[donor]
                .iter()
                .copied()
                .filter(|&s| !moved[s] && self.worth(self.amounts[s], donor, min_gain));
            let candidates = mine
                .clone()
                .filter(|&s| self.amounts[s] as f64 <= largest_room(s));
            let finishing = candidates
                .clone()
                .filter(|&s| self.amounts[s] as f64 >= excess)
                .min_by(|&a, &b| {
                    self.keys[a]
                        .cmp(&self.keys[b])
                        .then(self.amounts[a].cmp(&self.amounts[b]))
                        .then(a.cmp(&b))
                });
            // the candidates are in `order`: the first is the largest (ties: fewer keys)
            let Some(slot) = finishing.or_else(|| candidates.clone().next()) else {
                // no slot fits alone under a cap: a swap; but where one move (its receiver
                // over its cap) lowers the skew as far as the swap does, that move, one
                // fewer (the swap leaves a shard as far over its cap)
                let swap = self.swap(donor, &loads, mine.clone(), &held, min_gain);
                let swapped = swap.and_then(|(x, r, y)| {
                    let net = self.amounts[x] - self.amounts[y];
                    let mut after = loads.clone();
                    after[donor] -= net;
                    after[r] += net;
                    weighted_skew(&after, self.weights)
                });
                let single = swapped.and_then(|w| {
                    self.lowering(donor, &loads, mine)
                        .filter(|&(_, _, s)| s <= w + 1e-12)
                });
                if let Some((x, r, _)) = single {
                    let amount = self.amounts[x];
                    moved[x] = true;
                    unhold(&mut held, donor, x);
                    loads[donor] -= amount;
                    loads[r] += amount;
                    moves.push(self.mv(x, donor, r));
                    continue;
                }
                let Some((x, r, y)) = swap else {
                    break;
                };
                if max_moves - moves.len() < 2 {
                    cut = true;
                    break;
                }
                let (ax, ay) = (self.amounts[x], self.amounts[y]);
                moved[x] = true;
                moved[y] = true;
                unhold(&mut held, donor, x);
                unhold(&mut held, r, y);
                loads[donor] = loads[donor] - ax + ay;
                loads[r] = loads[r] + ax - ay;
                moves.push(self.mv(x, donor, r));
                moves.push(self.mv(y, r, donor));
                continue;
            };
            let amount = self.amounts[slot];
            let receiver = (0..shards)
                .filter(|&i| self.may(slot, donor, i) && amount as f64 <= self.room(i, &loads))
                .fold(None, |best: Option<usize>, i| match best {
                    Some(b) if self.room(b, &loads) <= self.room(i, &loads) => Some(b),
                    _ => Some(i),
                })
                .expect("a candidate fits the largest room");
            moved[slot] = true;
            unhold(&mut held, donor, slot);
            loads[donor] -= amount;
            loads[receiver] += amount;
            moves.push(self.mv(slot, donor, receiver));
        }
        let cut = cut || moves.len() >= max_moves;
        Candidate { moves, loads, cut }
    }

    /// The lower bound of the module's docs over the loads `loads`, counting for each shard
    /// over its cap only the slots at positions `from..` of `order` still on it.
    fn bound(&self, loads: &[u64], from: usize, min_gain: f64) -> Option<usize> {
        let mut need = 0;
        for (i, &load) in loads.iter().enumerate() {
            if within(load, self.caps[i]) {
                continue;
            }
            let excess = load as f64 - self.caps[i] * (1.0 + 1e-12);
            let mut shed = 0u64;
            let mut count = 0;
            let mut enough = false;
            let mine = &self.positions[i];
            for &pos in &mine[mine.partition_point(|&p| p < from)..] {
                let slot = self.order[pos];
                if self.worth(self.amounts[slot], i, min_gain) {
                    shed += self.amounts[slot];
                    count += 1;
                    if shed as f64 >= excess {
                        enough = true;
                        break;
                    }
                } else {
                    // largest first: the rest gain less still
                    break;
                }
            }
            if !enough {
                return None;
            }
            need += count;
        }
        Some(need)
    }

    /// [`Planned::moves_lower_bound`].
    fn lower_bound(&self, min_gain: f64) -> Option<usize> {
        self.bound(&self.loads, 0, min_gain)
    }

    /// The exact search of the module's docs, from the greedy's plan: the best plan found,
    /// and whether the search proved it the fewest moves that reach the goal (every smaller
    /// count was searched through).
    fn search(
        &self,
        greedy: &Candidate,
        lower: Option<usize>,
        max_moves: usize,
        min_gain: f64,
        nodes: usize,
    ) -> (Candidate, bool) {
        let greedy_ok = self.within_caps(greedy);
        // no set of moves reaches the goal, or none is needed
        let Some(lower) = lower else {
            return (greedy.clone(), true);
        };
        if self.total == 0 || (greedy_ok && greedy.moves.is_empty()) {
            return (greedy.clone(), true);
        }
        // a search is one frame a move deep: none past SEARCH_DEPTH
        if lower > SEARCH_DEPTH {
            return (greedy.clone(), false);
        }
        // the count proven by the bound, only fewer keys are looked for: a tenth of the budget
        let mut budget = if greedy_ok && greedy.moves.len() == lower {
            nodes / 10
        } else {
            nodes
        };
        let wanted = if greedy_ok {
            greedy.moves.len()
        } else {
            max_moves.min(self.order.len())
        };
        let deepest = wanted.min(SEARCH_DEPTH);
        let mut best: Option<Candidate> = None;
        let mut proven = true;
        for depth in lower..=deepest {
            let mut state = Candidate {
                moves: Vec::new(),
                loads: self.loads.clone(),
                cut: false,
            };
            let mut found: Option<Candidate> = None;
            let done = self.dfs(&mut state, 0, depth, min_gain, &mut found, &mut budget);
            if found.is_some() {
                best = found;
                break;
            }
            if depth == deepest && deepest < wanted {
                // the deeper counts were not searched
                proven = false;
            }
            if !done {
                proven = false;
                break;
            }
        }
        let best = match best {
            Some(b)
                if !greedy_ok
                    || b.moves.len() < greedy.moves.len()
                    || (b.moves.len() == greedy.moves.len() && b.keys() < greedy.keys()) =>
            {
                b
            }
            _ => greedy.clone(),
        };
        (best, proven)
    }

    /// Sets of exactly `depth` more moves of slots at positions `from..` of `order`; the
    /// fewest keys found kept in `found`. Returns false when the budget ran out.
    fn dfs(
        &self,
        state: &mut Candidate,
        from: usize,
        depth: usize,
        min_gain: f64,
        found: &mut Option<Candidate>,
        budget: &mut usize,
    ) -> bool {
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        if let Some(f) = found {
            if state.keys() >= f.keys() {
                return true;
            }
        }
        if self.within_caps(state) {
            if depth == 0 {
                *found = Some(state.clone());
            }
            // fewer moves reach it: the shallower depth found it first
            return true;
        }
        match self.bound(&state.loads, from, min_gain) {
            Some(need) if need <= depth && depth > 0 => {}
            _ => return true,
        }
        for pos in from..self.order.len() {
            let slot = self.order[pos];
            let owner = self.owners[slot].expect("ordered slots are owned");
            let amount = self.amounts[slot];
            if !self.worth(amount, owner, min_gain) {
                continue;
            }
            for to in 0..self.shards() {
                if !self.may(slot, owner, to) {
                    continue;
                }
                state.loads[owner] -= amount;
                state.loads[to] += amount;
                state.moves.push(self.mv(slot, owner, to));
                let done = self.dfs(state, pos + 1, depth - 1, min_gain, found, budget);
                state.moves.pop();
                state.loads[to] -= amount;
                state.loads[owner] += amount;
                if !done {
                    return false;
                }
            }
        }
        true
    }

    /// Why `best` stops where it does.
    fn stop(&self, best: &Candidate, reached_goal: bool, max_moves: usize, min_gain: f64) -> Stop {
        let skew = weighted_skew(&best.loads, self.weights);
        if skew.is_none_or(|s| s <= self.target) {
            return Stop::Reached;
        }
        if reached_goal {
            return Stop::Floor;
        }
        // what a relaxed limit reaches, planned as a run with that limit plans it
        let further = |max_moves: usize, min_gain: f64| {
            let (c, _, _) = self.solve(max_moves, min_gain);
            let s = weighted_skew(&c.loads, self.weights)?;
            (s < skew? - 1e-12).then_some(Further {
                moves: c.moves.len(),
                skew: s,
            })
        };
        // the cap met, or the greedy's next step a swap past it
        let capped = best.moves.len() >= max_moves || best.cut;
        if capped {
            if let Some(f) = further(usize::MAX, min_gain) {
                return Stop::MaxMoves { further: Some(f) };
            }
            // more moves of this least gain go no lower: the least gain stops it too, and
            // only both limits relaxed go further
        }
        if min_gain > 0.0 {
            let cap = if capped { usize::MAX } else { max_moves };
            if let Some(f) = further(cap, 0.0) {
                return Stop::MinGain { further: Some(f) };
            }
        }
        if capped {
            return Stop::MaxMoves { further: None };
        }
        Stop::NoRoom {
            least_target: self.least_target(best, min_gain),
        }
    }

    /// The least target at which the fullest shard `best` leaves makes a step of the
    /// greedy: a slot `x` of it moves to another shard `r`, alone or in a swap for the
    /// largest slot `y` of `r` under it that keeps the net gain `(x - y) / fair` at
    /// `min_gain` or more (alone: `y` = 0, `x` of that gain). The least, over those, of
    /// `r`'s load after the step over its fair share, `(load_r + x - y) / fair_r`; kept when
    /// it is below the skew `best` leaves, so that a plan to that target moves again
    /// ([`Stop::NoRoom`]). Only the slots `best` did not move count, as in the greedy (a
    /// swap leaves its `y` on the donor, which no step moves again): every step they make
    /// is over the goal, which is why the greedy stopped, so the least is above it.
    fn least_target(&self, best: &Candidate, min_gain: f64) -> Option<f64> {
        let skew = weighted_skew(&best.loads, self.weights)?;
        let donor = self.fullest(&best.loads);
        let mut owners = self.owners.to_vec();
        for m in &best.moves {
            owners[usize::from(m.slot)] = None;
        }
        let held = self.ascending(&owners);
        let least_gain = min_gain * self.fairs[donor];
        let least = held[donor]
            .iter()
            .flat_map(|&slot| {
                let x = self.amounts[slot];
                let held = &held;
                (0..best.loads.len())
                    .filter(move |&r| self.may(slot, donor, r))
                    .filter_map(move |r| {
                        // the largest y of r under x within the least gain, where the
                        // donor takes keys from r; none: alone
                        let most = x as f64 - least_gain;
                        let fits = |y: u64| y < x && y as f64 <= most;
                        let below = held[r].partition_point(|&s| fits(self.amounts[s]));
                        let y = below
                            .checked_sub(1)
                            .filter(|_| self.receiving.takes_keys(r, donor))
                            .map_or(0, |i| self.amounts[held[r][i]]);
                        (x > 0 && fits(y)).then(|| self.ratio(best.loads[r] + x - y, r))
                    })
            })
            .fold(f64::INFINITY, f64::min);
        (least < skew - 1e-12).then_some(least)
    }

    fn plan(&self, moves: Vec<Move>) -> Plan {
        let mut loads = self.loads.clone();
        for m in &moves {
            loads[m.from] -= m.amount;
            loads[m.to] += m.amount;
        }
        let skew_before = weighted_skew(&self.loads, self.weights);
        let skew_after = weighted_skew(&loads, self.weights);
        Plan {
            moves,
            skew_before,
            skew_after,
            target: self.target,
            reached: skew_after.is_none_or(|s| s <= self.target),
            unreachable: self
                .hot
                .iter()
                .filter(|h| h.floor > self.target)
                .map(|h| h.slot)
                .collect(),
            loads_before: self.loads.clone(),
            loads_after: loads,
            caps: self.caps.clone(),
        }
    }
}

/// The index of a slot, which [`check`] keeps under 16384.
fn slot_of(index: usize) -> u16 {
    u16::try_from(index).expect("checked: at most 16384 slots")
}

/// The rules of [`plan`]'s input.
pub(crate) fn check(
    amounts: &[u64],
    keys: &[u64],
    owners: &[Option<usize>],
    weights: &[f64],
    target: f64,
) -> Result<(), Error> {
    let bad = |rule: String| Err(Error::PlanInput { rule });
    if amounts.len() > usize::from(super::SLOTS) {
        return bad(format!(
            "{} per-slot amounts: a cluster has 16384 slots",
            amounts.len()
        ));
    }
    if keys.len() != amounts.len() || owners.len() != amounts.len() {
        return bad(format!(
            "{} amounts, {} key counts and {} owners: give one of each per slot",
            amounts.len(),
            keys.len(),
            owners.len()
        ));
    }
    if weights.is_empty() {
        return bad("no primary: give one weight per primary".to_owned());
    }
    check_weights(weights, weights.len())?;
    if let Some(shard) = owners.iter().flatten().find(|&&s| s >= weights.len()) {
        return bad(format!(
            "a slot is owned by shard {shard}, but there are {} weights: give one per shard",
            weights.len()
        ));
    }
    if let Some(w) = weights.iter().find(|&&w| !WEIGHTS.contains(&w)) {
        return Err(Error::Weights {
            reason: format!("{w:?}: {WEIGHT_RULE}"),
        });
    }
    if !TARGET_SKEWS.contains(&target) {
        return bad(format!("target skew {target:?}: {TARGET_SKEW_RULE}"));
    }
    Ok(())
}

/// The target skews [`plan`] takes: 1.0 (every primary at its fair share) to 100.
pub const TARGET_SKEWS: RangeInclusive<f64> = 1.0..=100.0;

/// The target skew when none is asked for (`slotgen rebalance --target-skew`): 1.1, each
/// primary within 10% of its fair share.
pub const DEFAULT_TARGET_SKEW: f64 = 1.1;

/// The rule of [`TARGET_SKEWS`], for a refusal.
pub const TARGET_SKEW_RULE: &str = "the skew is the fullest primary over its fair share, at least 1.0; give a ratio from 1.0 to 100 (1.1: 10% over)";

/// The weights [`plan`] takes: 0.001 to 1000 (at most a million times between two
/// primaries).
pub const WEIGHTS: RangeInclusive<f64> = 0.001..=1000.0;

/// The least gains of a move [`plan_with`] takes: 0 (every move that helps) to 1 (a
/// whole fair share).
pub const MIN_GAINS: RangeInclusive<f64> = 0.0..=1.0;

/// The least gain of a move by default: 0.001, each move lowers its donor's ratio (the skew,
/// when the donor is the fullest primary) by at least 0.1% of a fair share.
pub const DEFAULT_MIN_GAIN: f64 = 0.001;

/// The rule of [`MIN_GAINS`], for a refusal.
pub const MIN_GAIN_RULE: &str = "a move's gain is what it takes off its primary's ratio to its fair share; give a number from 0 (every move that helps) to 1 (0.001: 0.1% of a fair share)";

/// The rule of [`WEIGHTS`], for a refusal.
pub const WEIGHT_RULE: &str = "a weight is a number from 0.001 to 1000 (a primary of weight 2 is meant to carry twice the load of one of weight 1)";

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Every move taken.
    static ANY: Receiving = Receiving::none();

    /// The skew of the map after `moves`, recomputed from scratch: the test's own sums.
    fn skew_of_moved(
        amounts: &[u64],
        owners: &[Option<usize>],
        weights: &[f64],
        moves: &[Move],
    ) -> Option<f64> {
        let mut owners = owners.to_vec();
        for m in moves {
            assert_eq!(
                owners[usize::from(m.slot)],
                Some(m.from),
                "moved from its owner"
            );
            owners[usize::from(m.slot)] = Some(m.to);
        }
        let mut loads = vec![0u64; weights.len()];
        for (a, o) in amounts.iter().zip(&owners) {
            if let Some(o) = o {
                loads[*o] += a;
            }
        }
        let total: u64 = loads.iter().sum();
        if total == 0 {
            return None;
        }
        let w: f64 = weights.iter().sum();
        let mut max = 0.0f64;
        for (i, l) in loads.iter().enumerate() {
            max = max.max(*l as f64 * w / (total as f64 * weights[i]));
        }
        Some(max)
    }

    /// The fewest moves, then the fewest keys moved, over every assignment of slots to
    /// shards that reaches the target: `None` when none does. `shards ^ slots` assignments.
    fn brute_force(
        amounts: &[u64],
        keys: &[u64],
        owners: &[Option<usize>],
        weights: &[f64],
        target: f64,
    ) -> Option<(usize, u64)> {
        let n = amounts.len();
        let shards = weights.len();
        let total: u64 = amounts.iter().sum();
        let w: f64 = weights.iter().sum();
        let mut assign = vec![0usize; n];
        let mut best: Option<(usize, u64)> = None;
        loop {
            let mut loads = vec![0u64; shards];
            let (mut moves, mut moved) = (0, 0);
            for s in 0..n {
                loads[assign[s]] += amounts[s];
                if Some(assign[s]) != owners[s] {
                    moves += 1;
                    moved += keys[s];
                }
            }
            let ok = total == 0
                || (0..shards).all(|i| {
                    loads[i] as f64 <= target * total as f64 * weights[i] / w * (1.0 + 1e-12)
                });
            if ok && best.is_none_or(|b| (moves, moved) < b) {
                best = Some((moves, moved));
            }
            let mut i = 0;
            loop {
                if i == n {
                    return best;
                }
                assign[i] += 1;
                if assign[i] < shards {
                    break;
                }
                assign[i] = 0;
                i += 1;
            }
        }
    }

    /// Every move that helps, no cap.
    fn exact(target: f64) -> Limits {
        Limits {
            target,
            max_moves: usize::MAX,
            min_gain: Some(0.0),
        }
    }

    fn instance(
        max_slots: usize,
        max_shards: usize,
    ) -> impl Strategy<Value = (Vec<u64>, Vec<u64>, Vec<Option<usize>>, Vec<f64>)> {
        (2..=max_shards, 1..=max_slots).prop_flat_map(|(shards, slots)| {
            (
                prop::collection::vec(0u64..200, slots),
                prop::collection::vec(0u64..200, slots),
                prop::collection::vec(0..shards, slots),
                prop::collection::vec(1u32..4, shards),
            )
                .prop_map(|(a, k, o, w)| {
                    (
                        a,
                        k,
                        o.into_iter().map(Some).collect(),
                        w.into_iter().map(f64::from).collect(),
                    )
                })
        })
    }

    #[test]
    fn even_load_needs_no_move() {
        let p = plan(&[5, 5], &[5, 5], &[Some(0), Some(1)], &[1.0, 1.0], 1.0, 10).unwrap();
        assert!(p.moves.is_empty());
        assert_eq!(p.skew_before, Some(1.0));
        assert!(p.reached);
    }

    #[test]
    fn a_hot_slot_is_unreachable() {
        // slot 0 holds 90 of 100: the cap at 1.2 is 60 on either side
        let p = plan(
            &[90, 5, 5],
            &[90, 5, 5],
            &[Some(0), Some(0), Some(1)],
            &[1.0, 1.0],
            1.2,
            10,
        )
        .unwrap();
        assert_eq!(p.unreachable, [0]);
        assert!(!p.reached);
        // the 5 of slot 1 moves: 90 | 10
        assert_eq!(p.moves.len(), 1);
        assert_eq!(p.skew_after, Some(90.0 / 50.0));
    }

    #[test]
    fn fewest_keys_among_finishing_moves() {
        // shard 0: 40 over its cap of 55 (target 1.1, fair 50); slots of amount 10 (2 keys),
        // 10 (1 key) and 20 (50 keys): the amount-10 slot with 1 key finishes it
        let amounts = [10, 10, 20, 25, 35];
        let keys = [2, 1, 50, 25, 35];
        let owners = [Some(0), Some(0), Some(0), Some(0), Some(1)];
        let p = plan(&amounts, &keys, &owners, &[1.0, 1.0], 1.1, 10).unwrap();
        assert_eq!(
            p.moves,
            [Move {
                slot: 1,
                from: 0,
                to: 1,
                keys: 1,
                amount: 10
            }]
        );
    }

    #[test]
    fn bad_input_is_named() {
        let e = plan(&[1], &[1], &[Some(0)], &[1.0], 0.9, 1).unwrap_err();
        assert!(e.to_string().contains("at least 1.0"), "{e}");
        let e = plan(&[1], &[1], &[Some(0)], &[0.0], 1.1, 1).unwrap_err();
        assert!(e.to_string().contains("finite number above 0"), "{e}");
        let e = plan(&[1], &[1], &[Some(3)], &[1.0], 1.1, 1).unwrap_err();
        assert!(e.to_string().contains("shard 3"), "{e}");
        let e = plan(&[1, 2], &[1], &[Some(0)], &[1.0], 1.1, 1).unwrap_err();
        assert!(e.to_string().contains("one of each per slot"), "{e}");
        // bounds, the numbers shown short
        let e = plan(&[1], &[1], &[Some(0)], &[1.0], 1e308, 1).unwrap_err();
        assert!(e.to_string().contains("target skew 1e308: "), "{e}");
        assert!(plan(&[1], &[1], &[Some(0)], &[1.0], 100.0, 1).is_ok());
        assert!(plan(&[1], &[1], &[Some(0)], &[1.0], 100.5, 1).is_err());
        let e = plan(&[1], &[1], &[Some(0)], &[1e-300], 1.1, 1).unwrap_err();
        assert!(
            e.to_string()
                .contains("1e-300: a weight is a number from 0.001 to 1000"),
            "{e}"
        );
        assert!(plan(
            &[1, 1],
            &[1, 1],
            &[Some(0), Some(1)],
            &[0.001, 1000.0],
            1.1,
            1
        )
        .is_ok());
        assert!(plan(&[1], &[1], &[Some(0)], &[1000.5], 1.1, 1).is_err());
    }

    #[test]
    fn equal_weights_agree_with_skew() {
        let loads = [120, 300, 90];
        let ratio = crate::skew(&loads).ratio.unwrap();
        assert!((weighted_skew(&loads, &[1.0; 3]).unwrap() - ratio).abs() < 1e-12);
    }

    /// `INFO server` answers of a Valkey 9.1 and an 8.0 primary.
    const V91: &str = "redis_version:7.2.4\r\nvalkey_version:9.1.2\r\n";
    const V80: &str = "redis_version:7.2.4\r\nvalkey_version:8.0.1\r\n";

    /// Hand-worked: shard 0 (9.1) holds slots 0-2 of 40, 30 and 30 keys, shard 1 (8.0) and
    /// shard 2 (9.1) one slot of 10 each; total 120, fair 40, target 1.1 (cap 44). Without
    /// versions both shards 1 and 2 take a slot of 30 (40 | 40 | 40). 8.0 cannot read 9.1's
    /// `DUMP`, so shard 2 alone receives: one slot of 30 under the cap leaves 70 | 10 | 40
    /// (1.75), while slot 0 there (a higher target's plan, 1.51) leaves 60 | 10 | 50 (1.5),
    /// which the planner takes. Shard 1 receives nothing from shard 0. Slots without keys
    /// (the same amounts as CPU) move as they do without versions.
    #[test]
    fn no_slot_with_keys_goes_to_an_older_server() {
        let amounts = [40, 30, 30, 10, 10];
        let owners = [Some(0), Some(0), Some(0), Some(1), Some(2)];
        let limits = Limits::target(1.1);
        let free = plan_with(&amounts, &amounts, &owners, &[1.0; 3], &limits).unwrap();
        assert!(
            free.plan.moves.iter().any(|m| m.to == 1),
            "without versions the plan uses shard 1: {free:?}"
        );
        let receiving = Receiving::from_info(&[Some(V91), Some(V80), Some(V91)]);
        let p =
            plan_receiving(&amounts, &amounts, &owners, &[1.0; 3], &limits, &receiving).unwrap();
        assert!(p.plan.moves.iter().all(|m| m.to != 1), "{p:?}");
        assert_eq!(
            p.plan
                .moves
                .iter()
                .map(|m| (m.slot, m.from, m.to))
                .collect::<Vec<_>>(),
            [(0, 0, 2)],
            "{p:?}"
        );
        // 60 | 10 | 50 over a fair share of 40
        assert_eq!(p.plan.skew_after, Some(60.0 / 40.0));
        // the same amounts as CPU, on slots without keys: shard 1 takes them
        let no_keys = [0; 5];
        let cpu =
            plan_receiving(&amounts, &no_keys, &owners, &[1.0; 3], &limits, &receiving).unwrap();
        assert_eq!(
            cpu.plan.moves,
            free.plan
                .moves
                .iter()
                .map(|m| Move { keys: 0, ..*m })
                .collect::<Vec<_>>()
        );
        // the other way, 8.0 to 9.1, is taken
        let owners = [Some(1), Some(1), Some(1), Some(0), Some(2)];
        let back =
            plan_receiving(&amounts, &amounts, &owners, &[1.0; 3], &limits, &receiving).unwrap();
        assert!(
            !back.plan.moves.is_empty() && back.plan.moves.iter().all(|m| m.from == 1),
            "{back:?}"
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// Whatever the versions, no plan moves a slot with keys to a server older than its
        /// source, and the skew it predicts is the moved map's.
        #[test]
        fn no_plan_moves_keys_to_an_older_server(
            (amounts, keys, owners, weights) in instance(64, 6),
            versions in prop::collection::vec(0usize..3, 6),
            target in 1.0f64..2.0,
        ) {
            let infos: Vec<Option<&str>> = versions[..weights.len()]
                .iter()
                .map(|&v| [Some(V91), Some(V80), None][v])
                .collect();
            let receiving = Receiving::from_info(&infos);
            let limits = Limits::target(target);
            let p = plan_receiving(&amounts, &keys, &owners, &weights, &limits, &receiving)
                .unwrap();
            for m in &p.plan.moves {
                let older = infos[m.from] == Some(V91) && infos[m.to] == Some(V80);
                prop_assert!(m.keys == 0 || !older, "{m:?} {infos:?}");
            }
            let recomputed = skew_of_moved(&amounts, &owners, &weights, &p.plan.moves);
            match (p.plan.skew_after, recomputed) {
                (Some(ours), Some(theirs)) => prop_assert!((ours - theirs).abs() <= 1e-9 * theirs),
                (ours, theirs) => prop_assert_eq!(ours, theirs),
            }
        }

        #[test]
        fn predicted_skew_is_the_moved_maps(
            (amounts, keys, owners, weights) in instance(64, 6),
            target in 1.0f64..2.0,
            max_moves in 0usize..70,
        ) {
            let p = plan(&amounts, &keys, &owners, &weights, target, max_moves).unwrap();
            let recomputed = skew_of_moved(&amounts, &owners, &weights, &p.moves);
            match (p.skew_after, recomputed) {
                (Some(ours), Some(theirs)) => prop_assert!((ours - theirs).abs() <= 1e-9 * theirs),
                (ours, theirs) => prop_assert_eq!(ours, theirs),
            }
            prop_assert!(p.moves.len() <= max_moves);
            let mut slots: Vec<u16> = p.moves.iter().map(|m| m.slot).collect();
            slots.sort_unstable();
            slots.dedup();
            prop_assert_eq!(slots.len(), p.moves.len(), "a slot moved twice");
            for m in &p.moves {
                prop_assert_eq!(m.keys, keys[usize::from(m.slot)]);
                prop_assert_eq!(m.amount, amounts[usize::from(m.slot)]);
            }
            prop_assert_eq!(p.reached, p.skew_after.is_none_or(|s| s <= target));
            // the same input, the same plan
            prop_assert_eq!(plan(&amounts, &keys, &owners, &weights, target, max_moves).unwrap(), p);
        }

        #[test]
        fn the_guarantee_holds(
            (amounts, keys, owners, weights) in instance(48, 5),
            slack in 0.0f64..1.0,
        ) {
            // the least target within the guarantee: (t - 1) * fair_min >= max amount
            let total: u64 = amounts.iter().sum();
            prop_assume!(total > 0);
            let w: f64 = weights.iter().sum();
            let fair_min = weights.iter().copied().fold(f64::INFINITY, f64::min) * total as f64 / w;
            let max = *amounts.iter().max().unwrap() as f64;
            let target = 1.0 + max / fair_min + slack;
            let p = plan_with(&amounts, &keys, &owners, &weights, &exact(target)).unwrap().plan;
            prop_assert!(p.reached, "skew {:?} over target {}", p.skew_after, target);
        }
    }

    /// Against the brute-force optimum on small clusters (3 primaries, up to 8 slots): when
    /// some assignment reaches the target, the plan reaches it with the fewest moves of any,
    /// and among those the fewest keys; the lower bound is at most that; when none does, the
    /// plan says it stops short. Counts printed (`--nocapture`).
    #[test]
    fn fewest_moves_against_brute_force() {
        use proptest::strategy::ValueTree;
        use proptest::test_runner::{Config, TestRng, TestRunner};
        let mut runner = TestRunner::new_with_rng(
            Config::default(),
            TestRng::deterministic_rng(proptest::test_runner::RngAlgorithm::ChaCha),
        );
        let strategy = (instance(8, 3), 1.0f64..1.6);
        let (mut reachable, mut by_greedy, mut proven_by_bound) = (0, 0, 0);
        for _ in 0..400 {
            let ((amounts, keys, owners, weights), target) =
                strategy.new_tree(&mut runner).unwrap().current();
            let p = plan_with(&amounts, &keys, &owners, &weights, &exact(target)).unwrap();
            let Some((moves, moved)) = brute_force(&amounts, &keys, &owners, &weights, target)
            else {
                assert!(!p.plan.reached, "{p:?}");
                continue;
            };
            reachable += 1;
            assert!(
                p.plan.reached,
                "{amounts:?} {owners:?} {weights:?} {target}: {p:?}"
            );
            assert_eq!(
                p.plan.moves.len(),
                moves,
                "{amounts:?} {owners:?} {weights:?} {target}: {p:?}"
            );
            assert_eq!(
                p.plan.keys_moved(),
                moved,
                "{amounts:?} {keys:?} {owners:?}"
            );
            assert_eq!(p.minimal, Some(true));
            let lower = p.moves_lower_bound.unwrap();
            assert!(lower <= moves, "{lower} > {moves}");
            proven_by_bound += usize::from(lower == moves);
            let greedy = Problem::new(&amounts, &keys, &owners, &weights, &exact(target), &ANY)
                .greedy(usize::MAX, 0.0);
            by_greedy += usize::from(greedy.moves.len() == moves);
        }
        println!(
            "brute force: {reachable} reachable targets, each planned with the fewest moves and keys; the greedy alone had the fewest moves in {by_greedy}, the lower bound met them in {proven_by_bound}"
        );
        assert!(reachable > 100, "the instances exercise reachable targets");
    }

    /// One hot slot and a tail of tiny slots on the same primary (the issue's cluster):
    /// the plan moves the few large slots, not the tiny ones; it states the floor, and what
    /// the tiny moves would add.
    #[test]
    fn tiny_slots_stay_and_the_floor_is_stated() {
        // shard 0: slot 0 holds 40000 (the hot one), slots 1-3 hold 9000 each, slots 10-2009
        // hold 5 each (10000); shards 1 and 2: 10000 each in 2000 slots of 5
        let mut amounts = vec![0u64; 7000];
        let mut owners = vec![None; 7000];
        amounts[0] = 40_000;
        amounts[1..=3].fill(9000);
        amounts[10..2010].fill(5);
        owners[..2010].fill(Some(0));
        for s in 3000..5000 {
            (amounts[s], owners[s]) = (5, Some(1));
        }
        for s in 5000..7000 {
            (amounts[s], owners[s]) = (5, Some(2));
        }
        let total: u64 = amounts.iter().sum();
        assert_eq!(total, 97_000);
        let fair = total as f64 / 3.0;
        let p = plan_with(&amounts, &amounts, &owners, &[1.0; 3], &Limits::target(1.1)).unwrap();
        assert_eq!(p.hot.len(), 1);
        assert_eq!(p.hot[0].slot, 0);
        assert!((p.floor.unwrap() - 40_000.0 / fair).abs() < 1e-12);
        assert!(p.floor.unwrap() > 1.1);
        // the three slots of 9000 go; 40000 + 10000 stay, in 2000 slots of gain 5 / 32333
        assert_eq!(p.plan.moves.len(), 3, "{:?}", p.plan.moves);
        assert!(p.plan.moves.iter().all(|m| m.amount == 9000));
        assert!((p.plan.skew_after.unwrap() - 50_000.0 / fair).abs() < 1e-12);
        match p.stop {
            Stop::MinGain {
                further: Some(f), ..
            } => {
                // every tiny slot moved reaches the floor
                assert_eq!(f.moves, 2003);
                assert!((f.skew - 40_000.0 / fair).abs() < 1e-12);
            }
            other => panic!("{other:?}"),
        }
        // with every move allowed it reaches the floor, and stops there
        let all = plan_with(&amounts, &amounts, &owners, &[1.0; 3], &exact(1.1)).unwrap();
        assert_eq!(all.stop, Stop::Floor);
        assert!(all.plan.moves.len() <= 2003);
        assert!(all.moves_lower_bound.unwrap() <= all.plan.moves.len());
        // under a cap of 2, the plan for the target moves two 9000s (59000 left) and says
        // what no cap would reach; a higher target's plan goes lower in one move, the hot
        // slot to another shard (37000 | 50000 | 10000), and is the one given
        let capped = Limits {
            max_moves: 2,
            ..Limits::target(1.1)
        };
        let problem = Problem::new(&amounts, &amounts, &owners, &[1.0; 3], &capped, &ANY);
        let (asked, _, _) = problem.solve(2, p.min_gain);
        assert_eq!(asked.moves.len(), 2);
        assert_eq!(
            problem.stop(&asked, false, 2, p.min_gain),
            Stop::MaxMoves {
                further: Some(Further {
                    moves: 3,
                    skew: 50_000.0 / fair
                })
            }
        );
        let p = plan_with(&amounts, &amounts, &owners, &[1.0; 3], &capped).unwrap();
        match p.stop {
            Stop::Relaxed { asked, .. } => assert_eq!(
                asked,
                Further {
                    moves: 2,
                    skew: 59_000.0 / fair
                }
            ),
            other => panic!("{other:?}"),
        }
        assert_eq!(p.plan.moves.len(), 1, "{p:?}");
        assert_eq!(p.plan.moves[0].slot, 0);
        assert!((p.plan.skew_after.unwrap() - 50_000.0 / fair).abs() < 1e-12);
        // that advice followed, a cap of 3: the least gain stops it too, and only both
        // limits relaxed go further (every tiny slot, to the floor), past the cap
        let followed = Limits {
            max_moves: 3,
            ..Limits::target(1.1)
        };
        let p = plan_with(&amounts, &amounts, &owners, &[1.0; 3], &followed).unwrap();
        assert_eq!(p.plan.moves.len(), 3);
        assert!((p.plan.skew_after.unwrap() - 50_000.0 / fair).abs() < 1e-12);
        match p.stop {
            Stop::MinGain { further: Some(f) } => {
                assert_eq!(f.moves, 2003);
                assert!((f.skew - 40_000.0 / fair).abs() < 1e-12);
            }
            other => panic!("{other:?}"),
        }
    }

    /// The default least gain: 0.001 where slots differ in size; half the mean non-empty
    /// slot where every slot is small alike (the figures worked by hand).
    #[test]
    fn the_default_least_gain_is_half_the_mean_slot_where_that_is_less() {
        let owners: Vec<Option<usize>> = (0..16384).map(|s| Some(s * 3 / 16384)).collect();
        // every slot of 3 keys: half a slot, 1.5, over a fair share of 16384: 9.2e-5
        let even = vec![3u64; 16384];
        let p = plan_with(&even, &even, &owners, &[1.0; 3], &Limits::target(1.1)).unwrap();
        assert_eq!(p.min_gain, 0.000092);
        // one slot of 1000 among three of 1: half the mean (125.4) is 0.375 of a fair share
        let mut uneven = vec![0u64; 16384];
        uneven[0] = 1000;
        uneven[1..4].fill(1);
        let p = plan_with(&uneven, &uneven, &owners, &[1.0; 3], &Limits::target(1.1)).unwrap();
        assert_eq!(p.min_gain, DEFAULT_MIN_GAIN);
        // given, it is kept
        let given = Limits {
            min_gain: Some(0.01),
            ..Limits::target(1.1)
        };
        let p = plan_with(&even, &even, &owners, &[1.0; 3], &given).unwrap();
        assert_eq!(p.min_gain, 0.01);
    }

    /// Three slots of 400 on one shard, one of 410 on each other: no slot fits elsewhere
    /// alone, and none of the others is smaller to swap back. The stop names the least
    /// target that lets one move, and a plan to that target moves it.
    #[test]
    fn no_room_names_the_least_target_that_lets_a_slot_move() {
        // a fair share is 2020 / 3; under 1.1 of it (740.7) a slot of 400 fits on neither
        // other shard (810), and a swap needs a slot under 400 there
        let amounts = [400, 400, 400, 410, 410];
        let owners = [Some(0), Some(0), Some(0), Some(1), Some(2)];
        let fair = 2020.0 / 3.0;
        let problem = Problem::new(
            &amounts,
            &amounts,
            &owners,
            &[1.0; 3],
            &Limits::target(1.1),
            &ANY,
        );
        let (asked, _, _) = problem.solve(usize::MAX, DEFAULT_MIN_GAIN);
        assert!(asked.moves.is_empty(), "{:?}", asked.moves);
        // 400 on a shard of 410: 810 over a fair share
        let least = 810.0 / fair;
        match problem.stop(&asked, false, usize::MAX, DEFAULT_MIN_GAIN) {
            Stop::NoRoom {
                least_target: Some(t),
            } => assert!((t - least).abs() < 1e-12, "{t}"),
            other => panic!("{other:?}"),
        }
        // the plan given is a higher target's, which moves that slot
        let given =
            plan_with(&amounts, &amounts, &owners, &[1.0; 3], &Limits::target(1.1)).unwrap();
        assert!(matches!(given.stop, Stop::Relaxed { .. }), "{given:?}");
        assert!(
            (given.plan.skew_after.unwrap() - least).abs() < 1e-12,
            "{given:?}"
        );
        let p = plan_with(
            &amounts,
            &amounts,
            &owners,
            &[1.0; 3],
            &Limits::target(least),
        )
        .unwrap();
        assert_eq!(p.plan.moves.len(), 1, "{:?}", p.plan.moves);
        assert!((p.plan.skew_after.unwrap() - least).abs() < 1e-12);
        assert_eq!(p.stop, Stop::Reached);
        // two slots of 400 on one shard beside one on each other: no move or swap of whole
        // slots lowers the skew (800 anywhere else is as high; no slot is smaller)
        let even = [400, 400, 400, 400];
        let owners = [Some(0), Some(0), Some(1), Some(2)];
        let p = plan_with(&even, &even, &owners, &[1.0; 3], &Limits::target(1.1)).unwrap();
        assert_eq!(p.stop, Stop::NoRoom { least_target: None }, "{p:?}");
    }

    /// Where one move lowers the skew as far as the best swap, the one move (a tester's case:
    /// 400 + 400 | 300 | 410 at 1.1, where the swap took 2 moves and 700 keys to the skew one
    /// move of 400 reaches); where none does, the swap (300 + 100 on the second primary).
    #[test]
    fn one_move_where_it_lowers_the_skew_as_far_as_a_swap() {
        let owners = [Some(0), Some(0), Some(1), Some(2)];
        let amounts = [400, 400, 300, 410];
        let limits = Limits::target(1.1);
        let problem = Problem::new(&amounts, &amounts, &owners, &[1.0; 3], &limits, &ANY);
        let c = problem.greedy(usize::MAX, 0.001);
        // 400 on the second primary: 400 | 700 | 410, the skew 700 / (1510 / 3)
        assert_eq!(c.moves.len(), 1, "{:?}", c.moves);
        assert_eq!((c.moves[0].slot, c.moves[0].to), (0, 1));
        assert_eq!(c.loads, [400, 700, 410]);
        let owners = [Some(0), Some(0), Some(1), Some(1), Some(2)];
        let amounts = [400, 400, 300, 100, 410];
        let problem = Problem::new(&amounts, &amounts, &owners, &[1.0; 3], &limits, &ANY);
        let c = problem.greedy(usize::MAX, 0.001);
        // 400 anywhere makes 800 or 810: only the trade of 400 for 300 lowers it, to 700
        assert_eq!(c.moves.len(), 2, "{:?}", c.moves);
        assert_eq!(c.loads, [700, 500, 410]);
    }

    /// Slots of the given amounts on their shards: amounts, keys (the same) and owners.
    fn on_shards(shards: &[&[u64]]) -> (Vec<u64>, Vec<Option<usize>>) {
        let mut amounts = Vec::new();
        let mut owners = Vec::new();
        for (shard, slots) in shards.iter().enumerate() {
            for &a in *slots {
                amounts.push(a);
                owners.push(Some(shard));
            }
        }
        (amounts, owners)
    }

    /// Asserts that `--target-skew target` plans `moves` (the slots' amounts their keys) and
    /// reaches it, as a [`Stop::Relaxed`] plan's note says.
    fn reproduces(
        amounts: &[u64],
        owners: &[Option<usize>],
        weights: &[f64],
        target: f64,
        moves: &[Move],
    ) {
        let again = plan_with(amounts, amounts, owners, weights, &Limits::target(target)).unwrap();
        assert_eq!(again.stop, Stop::Reached, "{again:?}");
        assert_eq!(again.plan.moves, moves, "{again:?}");
    }

    /// A first move that fills the primary the next donor needed: at 1.1 the greedy moves
    /// the third shard's 1500 (the one slot that alone removes its excess) to the first,
    /// where the second shard's 1500 then no longer fits, and stops at 3068 / 2129 = 1.44.
    /// At 1.3 it moves an 800 first and the 1500 after: 1.156. A plan as low or lower is
    /// given, and its target gives the same moves.
    #[test]
    fn a_higher_target_whose_plan_goes_lower_is_taken() {
        // a tester's cluster: the singles gain less than the least gain (0.001)
        let mut first = vec![2];
        first.extend([1; 56]);
        let mut second = vec![1500, 1500];
        second.extend([1; 68]);
        let mut third = vec![1500, 800, 800, 100];
        third.extend([1; 61]);
        let (amounts, owners) = on_shards(&[&first, &second, &third]);
        let weights = [1.0; 3];
        let fair = 6387.0 / 3.0;
        let p = plan_with(&amounts, &amounts, &owners, &weights, &Limits::target(1.1)).unwrap();
        let Stop::Relaxed { target, asked } = p.stop else {
            panic!("{:?}", p.stop);
        };
        // the plan for 1.1 itself: one move, 3068 left on the second shard
        assert_eq!(asked.moves, 1, "{p:?}");
        assert!((asked.skew - 3068.0 / fair).abs() < 1e-12, "{asked:?}");
        // at 1.3 by hand: an 800 and the second shard's 1500 to the first, 2358 | 1568 |
        // 2461. The plan given goes as low or lower, its loads and skew those of its moves
        let skew = skew_of_moved(&amounts, &owners, &weights, &p.plan.moves).unwrap();
        assert!((p.plan.skew_after.unwrap() - skew).abs() < 1e-12, "{p:?}");
        assert!(skew <= 2461.0 / fair + 1e-12, "{p:?}");
        assert!(p
            .plan
            .moves
            .iter()
            .all(|m| owners[usize::from(m.slot)] == Some(m.from)));
        assert!(skew <= target, "{p:?}");
        // its target gives the same moves, and reaches it
        reproduces(&amounts, &owners, &weights, target, &p.plan.moves);
    }

    /// A hot slot that only the primary of weight 3 can take (a tester's case): at the
    /// floor goal (30000 over that primary's fair share) the slot does not fit beside the
    /// 3000 keys there, every other slot is a single key under the least gain, and the plan
    /// for the goal moves nothing (4.30); a higher target's plan moves the hot slot, 1.55.
    #[test]
    fn a_hot_slot_that_fits_only_a_higher_target_moves() {
        let mut second = vec![30_000];
        second.extend([1; 500]);
        let (amounts, owners) = on_shards(&[&[1; 3000], &second, &[1; 2000]]);
        let weights = [3.0, 1.0, 1.0];
        let total = 3000.0 + 30_500.0 + 2000.0;
        let fairs = [total * 3.0 / 5.0, total / 5.0, total / 5.0];
        let p = plan_with(&amounts, &amounts, &owners, &weights, &Limits::target(1.1)).unwrap();
        let Stop::Relaxed { target, asked } = p.stop else {
            panic!("{:?}", p.stop);
        };
        assert_eq!(asked.moves, 0, "{p:?}");
        assert!(
            (asked.skew - 30_500.0 / fairs[1]).abs() < 1e-12,
            "{asked:?}"
        );
        // the hot slot to the heavy primary: 33000 | 500 | 2000
        assert_eq!(p.plan.moves.len(), 1, "{p:?}");
        assert_eq!((p.plan.moves[0].slot, p.plan.moves[0].to), (3000, 0));
        assert!((p.plan.skew_after.unwrap() - 33_000.0 / fairs[0]).abs() < 1e-12);
        reproduces(&amounts, &owners, &weights, target, &p.plan.moves);
    }

    /// A primary drained by a weight of 0.001 that holds a hot slot (a tester's Valkey 9.1
    /// cluster): 2495 single keys | a slot of 41801 keys, 130 slots of 2 and 540 of 1 |
    /// 1537 single keys, weights 1, 0.001, 1. The fair shares are 23,311.3 | 23.3 |
    /// 23,311.3 (46,633 keys). By hand: the hot slot to the first primary and every other
    /// slot of the drained one to the third leaves 44,296 | 0 | 2,337, a skew of
    /// 44,296 / 23,311.3 = 1.90 in 671 moves, where the plan for 1.1 stops at 1772 and the
    /// higher targets were spaced evenly up to it (the first 46.04): the plan given moved
    /// the hot slot alone and stopped at 32.5.
    #[test]
    fn a_drained_primary_with_a_hot_slot_is_drained() {
        let mut drained = vec![41_801];
        drained.extend([2; 130]);
        drained.extend([1; 540]);
        let (amounts, owners) = on_shards(&[&[1; 2495], &drained, &[1; 1537]]);
        let weights = [1.0, 0.001, 1.0];
        let fair = 46_633.0 / 2.001;
        let p = plan_with(&amounts, &amounts, &owners, &weights, &Limits::target(1.1)).unwrap();
        let skew = p.plan.skew_after.unwrap();
        // as low as the plan by hand, or lower (1.86 in 628 moves, 2026-12-05)
        assert!(skew <= 44_296.0 / fair + 1e-9, "{skew} {:?}", p.stop);
        let moved = skew_of_moved(&amounts, &owners, &weights, &p.plan.moves).unwrap();
        assert!((moved - skew).abs() < 1e-9, "{p:?}");
        if let Stop::Relaxed { target, .. } = p.stop {
            reproduces(&amounts, &owners, &weights, target, &p.plan.moves);
        }
    }

    /// A tester's cluster where the greedy reaches no target under 1.28 but the search
    /// does: 80 | 300 | 50 + 50 + 50 with weights 1, 1, 3 (fair shares 106, 106, 318). By
    /// hand, the least skew of any assignment: the 300 to the third primary and two of its
    /// 50s to the second, 80 | 100 | 350, 350 / 318 = 1.1006 in three moves (the greedy's
    /// best target gave a swap to 1.2579). The plan given is that one.
    #[test]
    fn a_higher_target_the_search_reaches_is_compared_too() {
        let (amounts, owners) = on_shards(&[&[80], &[300], &[50, 50, 50]]);
        let weights = [1.0, 1.0, 3.0];
        let p = plan_with(&amounts, &amounts, &owners, &weights, &Limits::target(1.1)).unwrap();
        let Stop::Relaxed { target, .. } = p.stop else {
            panic!("{:?}", p.stop);
        };
        assert_eq!(p.plan.moves.len(), 3, "{p:?}");
        assert!(
            (p.plan.skew_after.unwrap() - 350.0 / 318.0).abs() < 1e-12,
            "{p:?}"
        );
        reproduces(&amounts, &owners, &weights, target, &p.plan.moves);
        // one move more than the greedy's swap for 0.157 less: taken at a least gain of 0.1
        let strict = Limits {
            min_gain: Some(0.1),
            ..Limits::target(1.1)
        };
        let p = plan_with(&amounts, &amounts, &owners, &weights, &strict).unwrap();
        assert!(matches!(p.stop, Stop::Relaxed { .. }), "{p:?}");
    }

    /// Where a swap fits at a lower target than any slot alone, the stop names the swap's.
    #[test]
    fn no_room_names_the_least_target_of_a_swap() {
        // 400 x 3 | 410 + 20 | 410 + 20: a fair share is 2060 / 3 (686.7), 1.1 of it 755.3.
        // A 400 alone makes 830 on another shard; traded for its 20, 810: neither fits
        let amounts = [400, 400, 400, 410, 20, 410, 20];
        let owners = [
            Some(0),
            Some(0),
            Some(0),
            Some(1),
            Some(1),
            Some(2),
            Some(2),
        ];
        let fair = 2060.0 / 3.0;
        let problem = Problem::new(
            &amounts,
            &amounts,
            &owners,
            &[1.0; 3],
            &Limits::target(1.1),
            &ANY,
        );
        let (asked, _, _) = problem.solve(usize::MAX, DEFAULT_MIN_GAIN);
        assert!(asked.moves.is_empty(), "{:?}", asked.moves);
        let least = 810.0 / fair;
        match problem.stop(&asked, false, usize::MAX, DEFAULT_MIN_GAIN) {
            Stop::NoRoom {
                least_target: Some(t),
            } => assert!((t - least).abs() < 1e-12, "{t} against {least}"),
            other => panic!("{other:?}"),
        }
        // the plan given is a higher target's: as low as that least target or lower
        let given =
            plan_with(&amounts, &amounts, &owners, &[1.0; 3], &Limits::target(1.1)).unwrap();
        assert!(matches!(given.stop, Stop::Relaxed { .. }), "{given:?}");
        assert!(given.plan.skew_after.unwrap() <= least + 1e-12, "{given:?}");
        // at that target the plan reaches it, with the fewest moves of any assignment
        let p = plan_with(&amounts, &amounts, &owners, &[1.0; 3], &exact(least)).unwrap();
        assert!(p.plan.reached, "{p:?}");
        let (moves, _) = brute_force(&amounts, &amounts, &owners, &[1.0; 3], least).unwrap();
        assert_eq!(p.plan.moves.len(), moves);
    }

    /// The brief's cluster: shards A = {400, 400}, B = {300, 50}, C = {300, 50} at 1.2 (a
    /// fair share of 500, caps of 600). No slot of A fits alone anywhere (room 250); by hand,
    /// the greedy swaps a 400 for B's 300 (B: 450, A: 700), then the other 400 for C's 300
    /// (C: 450, A: 600): four moves, skew 600 / 500 = 1.2.
    #[test]
    fn the_greedy_swaps_where_no_slot_fits_alone() {
        let amounts = [400, 400, 300, 50, 300, 50];
        let keys = [40, 41, 30, 5, 31, 6];
        let owners = [Some(0), Some(0), Some(1), Some(1), Some(2), Some(2)];
        let weights = [1.0; 3];
        let problem = Problem::new(
            &amounts,
            &keys,
            &owners,
            &weights,
            &Limits::target(1.2),
            &ANY,
        );
        let greedy = problem.greedy(usize::MAX, DEFAULT_MIN_GAIN);
        let steps: Vec<(u16, usize, usize)> = greedy
            .moves
            .iter()
            .map(|m| (m.slot, m.from, m.to))
            .collect();
        // ties between B and C (net 100) go to fewer keys: slot 0 (40) with slot 2 (30)
        assert_eq!(steps, [(0, 0, 1), (2, 1, 0), (1, 0, 2), (4, 2, 0)]);
        assert_eq!(greedy.loads, [600, 450, 450]);
        let skew = skew_of_moved(&amounts, &owners, &weights, &greedy.moves).unwrap();
        assert!((skew - 1.2).abs() < 1e-12, "{skew}");
        // on so small a problem the exact search beats it: B takes both 300s, each 400 goes
        // with a 50 (A = {400, 50}, C = {400, 50}): three moves, found by hand
        let p = plan_with(&amounts, &keys, &owners, &weights, &Limits::target(1.2)).unwrap();
        assert!(p.plan.reached, "{p:?}");
        assert_eq!(p.plan.moves.len(), 3, "{:?}", p.plan.moves);
        assert_eq!(p.minimal, Some(true));
        // the cap one short of the second swap: the first only, and the greedy stops there
        let capped = problem.greedy(3, DEFAULT_MIN_GAIN);
        assert_eq!(capped.moves, greedy.moves[..2]);
    }

    /// A swap is the only plan of two moves (the brute force's fewest), and no slot fits
    /// alone: the plan is that swap; under a cap one move short of it, no swap is made and
    /// the stop says what the swap would reach.
    #[test]
    fn a_swap_is_planned_and_not_past_the_cap() {
        // A = {100, 200}, B = {50, 150}, C = {250}: a fair share of 250, caps of 275 at 1.1.
        // Rooms: B 75, C 25, under every slot of A. By hand: 100 for B's 50 (net 50, 150
        // keys) or 200 for B's 150 (net 50, 350 keys); C has nothing under either slot
        let amounts = [100, 200, 50, 150, 250];
        let owners = [Some(0), Some(0), Some(1), Some(1), Some(2)];
        let weights = [1.0; 3];
        assert_eq!(
            brute_force(&amounts, &amounts, &owners, &weights, 1.1),
            Some((2, 150))
        );
        let p = plan_with(&amounts, &amounts, &owners, &weights, &Limits::target(1.1)).unwrap();
        let steps: Vec<(u16, usize, usize)> = p
            .plan
            .moves
            .iter()
            .map(|m| (m.slot, m.from, m.to))
            .collect();
        assert_eq!(steps, [(0, 0, 1), (2, 1, 0)]);
        assert_eq!(p.plan.loads_after, [250, 250, 250]);
        assert_eq!(p.stop, Stop::Reached);
        assert_eq!(p.minimal, Some(true));
        // the greedy alone finds it (the search only confirms)
        let greedy = Problem::new(
            &amounts,
            &amounts,
            &owners,
            &weights,
            &Limits::target(1.1),
            &ANY,
        )
        .greedy(usize::MAX, DEFAULT_MIN_GAIN);
        assert_eq!(greedy.moves, p.plan.moves);
        // one move allowed: the swap would pass the cap, no single move fits
        let one = Limits {
            max_moves: 1,
            ..Limits::target(1.1)
        };
        let p = plan_with(&amounts, &amounts, &owners, &weights, &one).unwrap();
        assert!(p.plan.moves.is_empty(), "{:?}", p.plan.moves);
        assert_eq!(
            p.stop,
            Stop::MaxMoves {
                further: Some(Further {
                    moves: 2,
                    skew: 1.0
                })
            }
        );
    }

    /// The greedy alone, on random clusters with random caps and least gains: its skew,
    /// recomputed from the moved map, is never above the skew before; each move leaves its
    /// slot's owner at that point (`skew_of_moved` checks it); no slot moves twice; at most
    /// the cap; each single move gains `min_gain` or more, and each swap (a move followed
    /// by a smaller one back) nets it. Some plans must hold swaps. The plan's least target,
    /// where it names one, is above its goal, and a larger cap it names is above the cap.
    #[test]
    fn the_greedy_never_raises_the_skew() {
        use proptest::strategy::ValueTree;
        use proptest::test_runner::{Config, TestRng, TestRunner};
        let mut runner = TestRunner::new_with_rng(
            Config::default(),
            TestRng::deterministic_rng(proptest::test_runner::RngAlgorithm::ChaCha),
        );
        let strategy = (
            instance(24, 4),
            1.0f64..1.6,
            prop::sample::select(vec![0.0, 0.001, 0.05]),
            0usize..16,
        );
        let (mut swaps, mut no_room) = (0, 0);
        for _ in 0..2000 {
            let ((amounts, keys, owners, weights), target, min_gain, max_moves) =
                strategy.new_tree(&mut runner).unwrap().current();
            let limits = Limits::target(target);
            let problem = Problem::new(&amounts, &keys, &owners, &weights, &limits, &ANY);
            let c = problem.greedy(max_moves, min_gain);
            let case = format!("{amounts:?} {owners:?} {weights:?} {target} {min_gain}");
            let before = skew_of_moved(&amounts, &owners, &weights, &[]);
            let after = skew_of_moved(&amounts, &owners, &weights, &c.moves);
            if let (Some(b), Some(a)) = (before, after) {
                assert!(a <= b * (1.0 + 1e-12), "{a} > {b}: {case} {:?}", c.moves);
            }
            assert!(c.moves.len() <= max_moves, "{case}");
            let mut slots: Vec<u16> = c.moves.iter().map(|m| m.slot).collect();
            slots.sort_unstable();
            slots.dedup();
            assert_eq!(slots.len(), c.moves.len(), "a slot moved twice: {case}");
            let total: u64 = amounts.iter().sum();
            let w: f64 = weights.iter().sum();
            let fair = |shard: usize| total as f64 * weights[shard] / w;
            let mut i = 0;
            while i < c.moves.len() {
                let m = c.moves[i];
                match c.moves.get(i + 1) {
                    // a swap's net gains the least gain; two single moves that look like
                    // one (the second back the way the first went) gain it each
                    Some(y) if (y.from, y.to) == (m.to, m.from) && y.amount < m.amount => {
                        let net = (m.amount - y.amount) as f64;
                        let each = m.amount as f64 >= min_gain * fair(m.from)
                            && y.amount as f64 >= min_gain * fair(y.from);
                        assert!(
                            net >= min_gain * fair(m.from) || each,
                            "{case} {:?}",
                            c.moves
                        );
                        swaps += 1;
                        i += 2;
                    }
                    _ => {
                        assert!(
                            m.amount as f64 >= min_gain * fair(m.from),
                            "{case} {:?}",
                            c.moves
                        );
                        i += 1;
                    }
                }
            }
            // the plan's stop: a least target names a step the goal did not allow
            let limits = Limits {
                target,
                max_moves,
                min_gain: Some(min_gain),
            };
            let p = plan_with(&amounts, &keys, &owners, &weights, &limits).unwrap();
            skew_of_moved(&amounts, &owners, &weights, &p.plan.moves);
            match p.stop {
                Stop::NoRoom {
                    least_target: Some(t),
                } => {
                    no_room += 1;
                    assert!(t > p.goal, "{t} <= {}: {case} {p:?}", p.goal);
                }
                Stop::MaxMoves { further: Some(f) } => {
                    assert!(f.moves > max_moves, "{case} {p:?}");
                }
                _ => {}
            }
        }
        println!("the greedy made {swaps} swaps; {no_room} plans named a least target");
        assert!(swaps > 20, "the instances exercise swaps: {swaps}");
    }

    /// Moving the hot slot itself can be the fewest moves: the exact search finds it.
    #[test]
    fn the_hot_slot_itself_may_move() {
        // shard 0: 40000 + 3 x 9000 + 10000 in tiny slots; shards 1, 2: one slot of 10000
        let mut amounts = vec![0u64; 7000];
        let mut owners = vec![None; 7000];
        amounts[0] = 40_000;
        amounts[1..=3].fill(9000);
        amounts[10..2010].fill(5);
        owners[..2010].fill(Some(0));
        (amounts[3000], owners[3000]) = (10_000, Some(1));
        (amounts[6000], owners[6000]) = (10_000, Some(2));
        let p = plan_with(&amounts, &amounts, &owners, &[1.0; 3], &Limits::target(1.1)).unwrap();
        // slot 0 to shard 1, whose slot 3000 goes to shard 2: 37000 | 40000 | 20000
        assert_eq!(
            p.plan
                .moves
                .iter()
                .map(|m| (m.slot, m.from, m.to))
                .collect::<Vec<_>>(),
            [(0, 0, 1), (3000, 1, 2)]
        );
        assert_eq!(p.stop, Stop::Floor);
        assert_eq!(p.plan.skew_after, p.floor);
        assert_eq!(p.minimal, Some(true));
    }

    /// The adversarial pass's `--by cpu` under a cap: a few hot slots of much CPU and few keys
    /// beside many of little CPU and many keys. The plan takes the few, whatever their keys.
    #[test]
    fn a_cap_reaches_the_heavy_slots_first() {
        let mut amounts = vec![0u64; 4000];
        let mut keys = vec![0u64; 4000];
        let mut owners = vec![Some(1); 4000];
        // shard 0: slots 0-5 of 10000 µs and 1 key; slots 6-1005 of 20 µs and 0 keys
        for s in 0..1006 {
            owners[s] = Some(0);
            (amounts[s], keys[s]) = if s < 6 { (10_000, 1) } else { (20, 0) };
        }
        // shards 1 and 2: 10 µs in each of their slots, 10 keys
        for s in 1006..4000 {
            owners[s] = Some(if s < 2500 { 1 } else { 2 });
            (amounts[s], keys[s]) = (10, 10);
        }
        let capped = Limits {
            max_moves: 1000,
            ..Limits::target(1.1)
        };
        let p = plan_with(&amounts, &keys, &owners, &[1.0; 3], &capped).unwrap();
        assert!(p.plan.reached, "{:?}", p.plan.skew_after);
        // 80000 | 14940 | 15000, caps 40311: four slots of 10000, two on each
        assert_eq!(p.plan.moves.len(), 4, "{:?}", p.plan.moves);
        assert_eq!(Some(p.plan.moves.len()), p.moves_lower_bound);
        assert_eq!(p.minimal, Some(true));
    }

    /// A tester's cluster (3000 keys, a hashtag of 2000 on the second primary): 335 single
    /// keys | the hot slot of 2000, 300 single keys and 19 slots of 2 | 327 single keys. At
    /// `--max-moves 3` no plan reaches the floor (2.0); the hot slot alone to the third
    /// primary leaves 335 | 338 | 2327, 2.327 for 2.338: 2000 keys, two thirds of all, for
    /// 0.011 of the skew. Not planned: the skew it takes off is far under what it carries.
    #[test]
    fn a_hot_slot_does_not_move_for_a_sliver_of_the_skew() {
        let mut hot = vec![2000];
        hot.extend([1; 300]);
        hot.extend([2; 19]);
        let (amounts, owners) = on_shards(&[&[1; 335], &hot, &[1; 327]]);
        let capped = Limits {
            max_moves: 3,
            ..Limits::target(1.1)
        };
        let weights = [1.0; 3];
        let p = plan_with(&amounts, &amounts, &owners, &weights, &capped).unwrap();
        assert_eq!(p.hot[0].slot, 335);
        // the three largest other slots of the hot primary (2 keys each), to the others:
        // 2338 - 6 = 2332 over the fair share of 1000
        assert!(p.plan.moves.iter().all(|m| m.slot != 335), "{p:?}");
        assert_eq!(p.plan.moves.len(), 3, "{p:?}");
        assert_eq!(p.plan.keys_moved(), 6, "{p:?}");
        let skew = skew_of_moved(&amounts, &owners, &weights, &p.plan.moves).unwrap();
        assert!((skew - 2.332).abs() < 1e-12, "{skew}");
        // more moves reach the floor (single keys off the hot primary), without the hot slot
        let Stop::MaxMoves { further: Some(f) } = p.stop else {
            panic!("{:?}", p.stop);
        };
        assert!((f.skew - 2.0).abs() < 1e-12, "{f:?}");
        let further = plan_with(&amounts, &amounts, &owners, &weights, &Limits::target(1.1));
        let further = further.unwrap();
        assert_eq!(further.stop, Stop::Floor);
        assert!(further.plan.moves.iter().all(|m| m.slot != 335));
        // what the hot slot's move would give, by hand: 335 | 338 | 2327
        let hot = Move {
            slot: 335,
            from: 1,
            to: 2,
            keys: 2000,
            amount: 2000,
        };
        let moved = skew_of_moved(&amounts, &owners, &weights, &[hot]).unwrap();
        assert!((moved - 2.327).abs() < 1e-12, "{moved}");
        // lower than the plan's 2.332, but by 0.005 for a gain of 2.0, under LEAST_YIELD
        assert!(skew - moved < LEAST_YIELD * 2.0, "{skew} {moved}");
    }

    proptest! {
        /// A primary is named exactly when its share of the slots and of the metric after
        /// the plan, counted here from the moved map, differ by half its fair share or more.
        #[test]
        fn slot_shares_apart_are_those_half_a_fair_share_apart(
            slots in proptest::collection::vec((0u64..50, 0usize..3), 1..40),
        ) {
            let amounts: Vec<u64> = slots.iter().map(|s| s.0).collect();
            let owners: Vec<Option<usize>> = slots.iter().map(|s| Some(s.1)).collect();
            let weights = [1.0, 1.0, 2.0];
            let p = plan_with(&amounts, &amounts, &owners, &weights, &Limits::target(1.1)).unwrap();
            let mut after = owners.clone();
            for m in &p.plan.moves {
                after[usize::from(m.slot)] = Some(m.to);
            }
            let total: u64 = amounts.iter().sum();
            let named: Vec<usize> = p.slot_shares_apart(&owners, &weights).iter().map(|s| s.shard).collect();
            let expected: Vec<usize> = (0..3)
                .filter(|&s| {
                    let count = after.iter().filter(|o| **o == Some(s)).count() as f64 / after.len() as f64;
                    let load: u64 = amounts.iter().zip(&after).filter(|(_, o)| **o == Some(s)).map(|(a, _)| a).sum();
                    total > 0 && (count - load as f64 / total as f64).abs() >= 0.5 * weights[s] / 4.0
                })
                .collect();
            prop_assert_eq!(named, expected);
        }
    }

    /// A tester's case: 45, 40 and 35 keys on one primary, 30 on each other. The plan
    /// stops at 70 / 60 (no move or swap lowers it: checked by hand over every partition),
    /// short of 1.1: the fewest moves to a goal not reached is no question, so `minimal` is
    /// `None`, not `false` beside a bound.
    #[test]
    fn minimal_is_none_where_the_goal_is_not_reached() {
        let amounts = [45, 40, 35, 30, 30];
        let owners = [Some(0), Some(0), Some(0), Some(1), Some(2)];
        let p = plan_with(&amounts, &amounts, &owners, &[1.0; 3], &Limits::target(1.1)).unwrap();
        assert!(!p.plan.reached);
        assert_eq!(p.plan.skew_after, Some(70.0 / 60.0));
        assert_eq!(p.minimal, None);
        // and reached, it is said either way
        let p = plan_with(&amounts, &amounts, &owners, &[1.0; 3], &Limits::target(1.2)).unwrap();
        assert!(p.plan.reached);
        assert!(p.minimal.is_some());
    }

    /// A tester's floor plan (break13 F20, Valkey 8.0): `{hot}` (2000 keys) and 484 slots
    /// of `s:N` on the second primary, 30 tags of 50 keys and 495 slots of `s:N` on the
    /// first, 485 slots of `s:N` on the third (the slots' amounts from `CLUSTER KEYSLOT`'s
    /// rule over those keys: 2009 / 2496 / 495). The floor is 2000 / (5000 / 3) = 1.2, each
    /// primary's cap 2000. The plan sends 9 single-key slots to the first primary after a
    /// 50-key slot left it, which read as a detour (sending the 9 to the third instead, 484
    /// moves and 496 keys). It is not: the first primary starts 9 over its cap, so that
    /// plan stops at 2009 / 1666.7; the plan's 485 moves and 546 keys are the fewest, by
    /// the bound computed here, and each move lands under its receiver's cap.
    #[test]
    fn a_floor_plan_routes_load_only_under_a_cap_and_is_the_fewest() {
        let mut first = vec![51, 51];
        first.extend([50; 28]);
        first.extend([2; 14]);
        first.extend([1; 479]);
        let mut second = vec![2000];
        second.extend([2; 12]);
        second.extend([1; 472]);
        let mut third = vec![2; 10];
        third.extend([1; 475]);
        let (amounts, owners) = on_shards(&[&first, &second, &third]);
        let p = plan_with(&amounts, &amounts, &owners, &[1.0; 3], &exact(1.1)).unwrap();
        let loads: Vec<u64> = [&first, &second, &third]
            .iter()
            .map(|s| s.iter().sum())
            .collect();
        assert_eq!(loads, [2009, 2496, 495]);
        let fair = loads.iter().sum::<u64>() as f64 / 3.0;
        assert_eq!(p.floor, Some(2000.0 / fair));
        let cap = 2000.0;
        assert_eq!(
            skew_of_moved(&amounts, &owners, &[1.0; 3], &p.plan.moves),
            p.floor
        );
        // the bound: the second primary's hot slot fills a cap alone, so its 484 other
        // slots (496 keys) all go; the first sheds 9 at least, by one slot of 9 or more
        // (the cheapest: 50 keys) or by five of 1 and 2 keys
        let excess = loads[0] - 2000;
        let cheapest = first.iter().filter(|&&a| a >= excess).min().unwrap();
        let need = second.len() - 1 + 1;
        let need_keys = second[1..].iter().sum::<u64>() + cheapest;
        assert_eq!((need, need_keys), (485, 546));
        let keys: u64 = p.plan.moves.iter().map(|m| m.keys).sum();
        assert_eq!(
            (p.plan.moves.len(), keys),
            (need, need_keys),
            "{:?}",
            p.plan
        );
        // the tester's 484 moves: every slot but the hot one to the third primary
        let theirs: Vec<Move> = (first.len() + 1..first.len() + second.len())
            .map(|slot| Move {
                slot: slot_of(slot),
                from: 1,
                to: 2,
                keys: amounts[slot],
                amount: amounts[slot],
            })
            .collect();
        let left = skew_of_moved(&amounts, &owners, &[1.0; 3], &theirs).unwrap();
        assert!(left > p.floor.unwrap() + 1e-3, "{left}");
        // in the plan's order, no move sends load over its receiver's cap
        let mut now = loads.clone();
        for m in &p.plan.moves {
            now[m.from] -= m.amount;
            now[m.to] += m.amount;
            assert!(now[m.to] as f64 <= cap * (1.0 + 1e-12), "{m:?}: {now:?}");
        }
    }
}
