//! What to do about a hot slot ([`HotSlot`]): no slot move evens it out, so its keys must be
//! spread over other slots. [`sample_hot`] reads which hashtags carry a hot slot (a bounded
//! `CLUSTER GETKEYSINSLOT` on its primary, in each of its databases, each key weighed by the metric where the server
//! can tell: `MEMORY USAGE` for memory, `OBJECT FREQ` under an LFU `maxmemory-policy` for
//! CPU and network, else one a key); [`split`] turns the heaviest hashtag into `N` tags,
//! each in a slot of its own on one of the `N` primaries that the plan leaves least loaded,
//! none of them hot, with the skew predicted if the hashtag's load divides evenly.
//!
//! The tag of each chosen slot comes from the exact slot -> tag table
//! ([`REDIS_CLUSTER`](slotgen_tables::REDIS_CLUSTER)), not from a search.

use std::collections::BTreeMap;
use std::time::Duration;

use redis::Value;
use serde::Serialize;
use slotgen_tables::{hashtag, REDIS_CLUSTER};

use super::exchange::{bounded, gone, select, Exchange};
use super::load::HotSlot;
use super::{Error, Metric, Topology};
use crate::transport::{Budget, ConnectOptions};

/// At most this many keys of a hot slot are weighed one by one (`MEMORY USAGE` or `OBJECT
/// FREQ` each), evenly spaced over the keys listed.
pub const SAMPLE_KEYS: usize = 1000;

/// At most this many keys of a hot slot are listed (`CLUSTER GETKEYSINSLOT slot N`, with N
/// the slot's `CLUSTER COUNTKEYSINSLOT` up to this, in each database that `cluster-databases`
/// keeps (Valkey 9), database 0 first, until this many are listed in all): the server lists a slot's keys in
/// its own order, often grouped as they were written, so a sample is only even when taken
/// over the whole listing. Past it, the first keys listed stand for the slot, and the text
/// says so.
pub const LIST_KEYS: usize = 20_000;

/// The most bytes of one listing: keys of 1.6 KiB on average at [`LIST_KEYS`] keys. A
/// longer answer is refused as too large, and the slot is then not sampled.
const LIST_BYTES: usize = 32 * 1024 * 1024;

/// The longest key read in a sample; a longer one makes the reply too large.
const SAMPLE_KEY_BYTES: usize = 64 * 1024;

/// How each sampled key was weighed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Basis {
    /// One a key.
    Keys,
    /// `MEMORY USAGE key` (bytes).
    MemoryUsage,
    /// `OBJECT FREQ key` (the LFU counter, 0 to 255), under an LFU `maxmemory-policy`,
    /// turned back into the hits it counts ([`lfu_hits`]).
    ObjectFreq,
}

/// A hashtag of a sampled hot slot and its part of the sample.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HashtagShare {
    /// The hashtag's bytes (between the first `{` and the next `}`); for a key without
    /// one, the whole key.
    pub hashtag: Vec<u8>,
    /// Whether the keys carry it in braces (`false`: keys without a hashtag, which only a
    /// new name can move).
    pub braced: bool,
    /// The sampled keys that carry it.
    pub keys: usize,
    /// Its weight over the sample's, 0 to 1.
    pub share: f64,
    /// One of its keys, as read.
    pub example: Vec<u8>,
    /// Its heaviest key, as read, and that key's part of the hashtag's weight, 0 to 1 (one
    /// over `keys` when each key weighs one, [`Basis::Keys`]): no split of the hashtag
    /// divides one key's load.
    pub heaviest: (Vec<u8>, f64),
}

/// What [`sample_hot`] read of one hot slot.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SlotSample {
    /// The hash slot.
    pub slot: u16,
    /// The keys weighed: every key listed for [`Basis::Keys`], else at most
    /// [`SAMPLE_KEYS`] of them, evenly spaced over the listing.
    pub keys: usize,
    /// The keys listed (at most [`LIST_KEYS`]) that are in the slot.
    pub listed: usize,
    /// The keys listed that are not in the slot (their slot, as slotgen computes it, is
    /// another): a server's answer that makes no sense, left out of the sample.
    pub foreign: usize,
    /// How many keys were weighed by an `OBJECT FREQ` counter at its cap ([`LFU_CAP`]), and
    /// the hits the cap stands for under the server's `lfu-log-factor` ([`lfu_hits`]): each
    /// such key counts at least that many, perhaps many more, so its weight is a lower bound.
    /// `None` where no key's counter is at the cap.
    pub capped: Option<(usize, u64)>,
    /// The keys in the slot (`CLUSTER COUNTKEYSINSLOT`, summed over the primary's databases)
    /// when the sample was read.
    pub in_slot: u64,
    /// How they were weighed.
    pub basis: Basis,
    /// Its hashtags, the heaviest first (ties: by bytes).
    pub hashtags: Vec<HashtagShare>,
}

/// The part of a hot slot's sampled weight from which one key is said to carry it: a split
/// of keys leaves that key whole, so renaming keys is no remedy.
pub const ONE_KEY: f64 = 0.5;

impl SlotSample {
    /// The keys listed on `primary` (as the caller shows it) that are not in the slot, as
    /// a sentence for a note; `None` when every key listed is in it.
    #[must_use]
    pub fn foreign_note(&self, primary: &str) -> Option<String> {
        (self.foreign > 0).then(|| {
            format!(
                "{} of the keys that `CLUSTER GETKEYSINSLOT {}` listed on {primary} are not in \
                 slot {} (slotgen computes each key's slot from its hashtag): the server's \
                 listing makes no sense there, and those keys are left out of the slot's sample",
                self.foreign, self.slot, self.slot
            )
        })
    }

    /// The hashtag (or key without one) whose heaviest key carries [`ONE_KEY`] of the
    /// sample or more, where the sample tells: weighed by the server ([`Basis::MemoryUsage`],
    /// [`Basis::ObjectFreq`]), or the slot's only key. No split of keys divides it: the
    /// remedy is in the application (the key's value over several keys), not in the names.
    #[must_use]
    pub fn one_key(&self) -> Option<&HashtagShare> {
        self.hashtags.first().filter(|t| {
            (self.basis != Basis::Keys || self.keys == 1) && t.share * t.heaviest.1 >= ONE_KEY
        })
    }
}

/// Reads up to [`SAMPLE_KEYS`] keys of each of `slots` from its primary in `topology` (as
/// [`super::SlotLoad::fetch`] reaches it: the TLS client, user and password of `url`) and
/// weighs them for `metric` ([`Basis`]), all within `timeout`.
///
/// # Errors
///
/// As [`super::Topology::fetch`] for the connections; [`Error::Refused`] when a server
/// refuses `CLUSTER GETKEYSINSLOT`; [`Error::Malformed`] for an answer that is not keys.
pub fn sample_hot(
    url: &str,
    options: &ConnectOptions,
    timeout: Duration,
    topology: &Topology,
    slots: &[u16],
    metric: Metric,
) -> Result<Vec<SlotSample>, Error> {
    let owners = topology.owners();
    let wanted: Vec<(u16, super::Node)> = slots
        .iter()
        .filter_map(|&s| owners[usize::from(s)].map(|i| (s, topology.shards[i].primary.clone())))
        .collect();
    bounded(url, options, timeout, move |exchange| {
        let mut samples = Vec::new();
        for (slot, primary) in wanted {
            let endpoint = exchange.primary_endpoint(&primary)?;
            let gone = gone(&primary);
            let mut con = exchange.connect(&endpoint).map_err(gone)?;
            let shown = con.url().to_owned();
            let malformed = |command: &str, reason: String| Error::Malformed {
                url: shown.clone(),
                command: command.to_owned(),
                reason,
            };
            let small = Budget {
                bytes: 256,
                values: 4,
                string: 240,
            };
            // the slot's keys in every database (`cluster-databases`, Valkey 9), database 0
            // first, at most LIST_KEYS of them in all
            let databases = exchange.databases(&mut con)?;
            let mut in_slot = 0u64;
            let mut keys: Vec<(u32, Vec<u8>)> = Vec::new();
            let mut foreign = 0usize;
            for db in 0..databases {
                if databases > 1 {
                    exchange.query(&mut con, &select(db), small)?;
                }
                let count = redis::cmd("CLUSTER")
                    .arg("COUNTKEYSINSLOT")
                    .arg(slot)
                    .to_owned();
                let here = match exchange.query(&mut con, &count, small)? {
                    Value::Int(n) => u64::try_from(n).unwrap_or(0),
                    other => {
                        return Err(malformed(
                            "CLUSTER COUNTKEYSINSLOT",
                            crate::text::reason(&format!("not a count: {other:?}")),
                        ))
                    }
                };
                in_slot = in_slot.saturating_add(here);
                let room = LIST_KEYS - keys.len();
                if here == 0 || room == 0 {
                    continue;
                }
                let list = usize::try_from(here).unwrap_or(room).min(room);
                let budget = Budget {
                    bytes: LIST_BYTES,
                    values: list + 1,
                    string: SAMPLE_KEY_BYTES,
                };
                let get = redis::cmd("CLUSTER")
                    .arg("GETKEYSINSLOT")
                    .arg(slot)
                    .arg(list)
                    .to_owned();
                match exchange.query(&mut con, &get, budget)? {
                    Value::Array(listed) => {
                        for k in listed.into_iter().take(room) {
                            match k {
                                Value::BulkString(b) if REDIS_CLUSTER.key_slot(&b) == slot => {
                                    keys.push((db, b));
                                }
                                Value::BulkString(_) => foreign += 1,
                                other => {
                                    return Err(malformed(
                                        "CLUSTER GETKEYSINSLOT",
                                        crate::text::reason(&format!(
                                            "a key that is not a string: {other:?}"
                                        )),
                                    ))
                                }
                            }
                        }
                    }
                    other => {
                        return Err(malformed(
                            "CLUSTER GETKEYSINSLOT",
                            crate::text::reason(&format!("not an array of keys: {other:?}")),
                        ))
                    }
                }
            }
            let basis = match metric {
                Metric::Memory => Basis::MemoryUsage,
                Metric::Keys => Basis::Keys,
                _ => {
                    let policy = redis::cmd("CONFIG")
                        .arg("GET")
                        .arg("maxmemory-policy")
                        .to_owned();
                    // `maxmemory-policy` and its value; refused (an ACL user without CONFIG):
                    // one a key
                    let lfu = |v: &Value| matches!(v, Value::BulkString(b) if b.ends_with(b"-lfu"));
                    match exchange.query(&mut con, &policy, small) {
                        Ok(Value::Array(v)) if v.iter().any(lfu) => Basis::ObjectFreq,
                        Ok(Value::Map(v)) if v.iter().any(|(_, v)| lfu(v)) => Basis::ObjectFreq,
                        // an answer that did not come: the connection owes it
                        Err(e) if !Exchange::answered(&e) => return Err(e),
                        _ => Basis::Keys,
                    }
                }
            };
            let listed = keys.len();
            // every key listed weighs one; otherwise SAMPLE_KEYS of them, evenly spaced
            let weighed: Vec<(u32, Vec<u8>)> = match basis {
                Basis::Keys => keys,
                _ => evenly(keys, SAMPLE_KEYS),
            };
            let log_factor = match basis {
                Basis::ObjectFreq => {
                    let get = redis::cmd("CONFIG")
                        .arg("GET")
                        .arg("lfu-log-factor")
                        .to_owned();
                    let number = |v: &Value| match v {
                        Value::BulkString(b) => std::str::from_utf8(b).ok()?.parse::<u64>().ok(),
                        _ => None,
                    };
                    match exchange.query(&mut con, &get, small) {
                        Ok(Value::Array(v)) => v.get(1).and_then(number),
                        Ok(Value::Map(v)) => v.first().and_then(|(_, v)| number(v)),
                        Err(e) if !Exchange::answered(&e) => return Err(e),
                        _ => None,
                    }
                    .unwrap_or(LFU_LOG_FACTOR)
                }
                _ => LFU_LOG_FACTOR,
            };
            let mut weights = Vec::with_capacity(weighed.len());
            let mut capped = 0usize;
            // the listing ends in the last database listed: each key is weighed in its own
            let mut selected = databases.saturating_sub(1);
            for (db, key) in &weighed {
                if basis != Basis::Keys && databases > 1 && *db != selected {
                    exchange.query(&mut con, &select(*db), small)?;
                    selected = *db;
                }
                let cmd = match basis {
                    Basis::Keys => {
                        weights.push(1u64);
                        continue;
                    }
                    Basis::MemoryUsage => redis::cmd("MEMORY").arg("USAGE").arg(key).to_owned(),
                    Basis::ObjectFreq => redis::cmd("OBJECT").arg("FREQ").arg(key).to_owned(),
                };
                // a key gone since, or refused: weighed 0; an answer that did not come is
                // no weight (and the connection owes it)
                let w = match exchange.query(&mut con, &cmd, small) {
                    Ok(Value::Int(n)) => u64::try_from(n).unwrap_or(0),
                    Err(e) if !Exchange::answered(&e) => return Err(e),
                    _ => 0,
                };
                if basis == Basis::ObjectFreq && w >= LFU_CAP {
                    capped += 1;
                }
                weights.push(match basis {
                    Basis::ObjectFreq => lfu_hits(w, log_factor),
                    _ => w,
                });
            }
            let weighed: Vec<Vec<u8>> = weighed.into_iter().map(|(_, key)| key).collect();
            let mut sample = shares(slot, &weighed, &weights, basis);
            sample.listed = listed;
            sample.foreign = foreign;
            sample.capped = (capped > 0).then(|| (capped, lfu_hits(LFU_CAP, log_factor)));
            sample.in_slot = in_slot;
            samples.push(sample);
        }
        Ok(samples)
    })
}

/// The hashtags of `keys` (weighed by `weights`, one each) as a [`SlotSample`] of `slot`.
#[must_use]
pub fn shares(slot: u16, keys: &[Vec<u8>], weights: &[u64], basis: Basis) -> SlotSample {
    // (hashtag, braced) -> (keys, weight, the first key, the heaviest key and its weight)
    type Tally<'k> = BTreeMap<(&'k [u8], bool), (usize, u64, &'k [u8], (&'k [u8], u64))>;
    let mut by_tag: Tally = BTreeMap::new();
    for (key, &w) in keys.iter().zip(weights) {
        let tag = hashtag(key);
        let braced = tag.len() < key.len();
        let entry = by_tag.entry((tag, braced)).or_insert((0, 0, key, (key, w)));
        entry.0 += 1;
        entry.1 = entry.1.saturating_add(w);
        if w > entry.3 .1 {
            entry.3 = (key, w);
        }
    }
    let total = weights.iter().fold(0u64, |s, w| s.saturating_add(*w));
    let mut hashtags: Vec<HashtagShare> = by_tag
        .into_iter()
        .map(
            |((tag, braced), (count, weight, example, (heaviest, most)))| HashtagShare {
                hashtag: tag.to_vec(),
                braced,
                keys: count,
                share: if total == 0 {
                    count as f64 / keys.len().max(1) as f64
                } else {
                    weight as f64 / total as f64
                },
                example: example.to_vec(),
                heaviest: (
                    heaviest.to_vec(),
                    if weight == 0 {
                        1.0 / count as f64
                    } else {
                        most as f64 / weight as f64
                    },
                ),
            },
        )
        .collect();
    hashtags.sort_by(|a, b| {
        b.share
            .total_cmp(&a.share)
            .then_with(|| a.hashtag.cmp(&b.hashtag))
    });
    SlotSample {
        slot,
        keys: keys.len(),
        listed: keys.len(),
        foreign: 0,
        capped: None,
        in_slot: keys.len() as u64,
        basis,
        hashtags,
    }
}

/// The most an LFU counter holds (`OBJECT FREQ` answers at most 255: Redis and Valkey keep
/// it in 8 bits).
pub const LFU_CAP: u64 = 255;

/// The `OBJECT FREQ` default `lfu-log-factor` of Redis and Valkey.
pub const LFU_LOG_FACTOR: u64 = 10;

/// The hits an LFU counter of `counter` stands for (at least 1): the counter starts at 5
/// (`LFU_INIT_VAL`) and a hit raises it from `c` with probability `1 / ((c - 5) * factor +
/// 1)` (Redis and Valkey `evict.c`, `LFULogIncr`), so reaching `c` takes `(c - 5) +
/// factor * (c - 5) * (c - 6) / 2` hits on average. The counter itself is logarithmic:
/// weighing keys by it would make a key of 30,000 hits (counter 81) weigh 20 of one hit.
#[must_use]
pub fn lfu_hits(counter: u64, factor: u64) -> u64 {
    let above = counter.saturating_sub(5);
    let hits = above.saturating_add(
        factor
            .saturating_mul(above)
            .saturating_mul(above.saturating_sub(1))
            / 2,
    );
    hits.max(1)
}

/// `n` of `keys`, evenly spaced over them (all of them when there are no more).
fn evenly<T>(keys: Vec<T>, n: usize) -> Vec<T> {
    if keys.len() <= n {
        return keys;
    }
    let len = keys.len();
    // key k * len / n for k in 0..n: strictly increasing, as n < len
    let mut next = 0;
    keys.into_iter()
        .enumerate()
        .filter(|&(i, _)| {
            let take = next < n && i == next * len / n;
            next += usize::from(take);
            take
        })
        .map(|(_, k)| k)
        .collect()
}

/// One tag of a [`Split`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SplitTag {
    /// The tag, to put between `{` and `}` in place of the hashtag.
    pub tag: String,
    /// Its slot, in 0..16384.
    pub slot: u16,
    /// The shard that owns the slot once the plan is carried out.
    pub shard: usize,
    /// The example key with the hashtag replaced by this tag (prefix and suffix kept).
    pub key: Vec<u8>,
}

/// A hashtag split over several tags: what [`split`] gives.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Split {
    /// The hot slot.
    pub slot: u16,
    /// The hashtag split.
    pub hashtag: Vec<u8>,
    /// Its share of the slot's amount (from the sample).
    pub share: f64,
    /// The amount of the metric it carries: `share * the slot's amount`.
    pub amount: u64,
    /// The tags, one per primary, those of least load first.
    pub tags: Vec<SplitTag>,
    /// The skew once the plan is carried out and the hashtag's amount divides evenly over
    /// the tags, but [`Split::whole`].
    pub skew_after: Option<f64>,
    /// The hashtag's heaviest key and its part of the hashtag's amount, where the sample
    /// weighs keys ([`Basis::MemoryUsage`], [`Basis::ObjectFreq`]) and that part is more
    /// than a tag's even share: it goes whole under the first tag (of the least loaded
    /// primary), and the prediction counts it so.
    pub whole: Option<(Vec<u8>, f64)>,
}

impl Split {
    /// `amounts` (one per slot) as they are once the split is carried out, as its
    /// prediction models it ([`split`]): its amount leaves the hot slot, the heaviest key's
    /// part ([`Split::whole`]) to the first tag's slot, the rest evenly over every tag's
    /// slot (the remainder of the division one a slot, first tags first). So the next hot
    /// slot's split is made on the map this one leaves: its tags on other slots (the same
    /// tags under two hashtags would give their keys one name, and one value would
    /// overwrite the other), its skew with both carried out.
    pub fn carry_out(&self, amounts: &mut [u64]) {
        let Some(hot) = amounts.get_mut(usize::from(self.slot)) else {
            return;
        };
        *hot = hot.saturating_sub(self.amount);
        let whole = self
            .whole
            .as_ref()
            .map_or(0, |(_, part)| (self.amount as f64 * part).round() as u64)
            .min(self.amount);
        let n = self.tags.len() as u64;
        if n == 0 {
            return;
        }
        let (each, left) = ((self.amount - whole) / n, (self.amount - whole) % n);
        for (i, tag) in self.tags.iter().enumerate() {
            if let Some(a) = amounts.get_mut(usize::from(tag.slot)) {
                let extra = u64::from((i as u64) < left) + if i == 0 { whole } else { 0 };
                *a = a.saturating_add(each + extra);
            }
        }
    }
}

/// The split of `hashtag` (carrying `share` of the hot slot `hot`) over the primaries of
/// `weights` (one per shard), given the per-slot `amounts` and the map `owners` as the plan
/// leaves them (index = slot): the number of tags `N` (2 or more, at most one per primary)
/// that gives the least skew when the hashtag's amount divides evenly over the `N`
/// primaries of least load (ties: fewer tags); on each, the slot of least amount that is not
/// hot nor in `hot_slots` (ties: the lower slot), and its tag from the exact table. Where the sample weighs
/// keys (`basis` other than [`Basis::Keys`]), the hashtag's heaviest key is one amount no
/// split divides ([`Split::whole`]). `None` when the hashtag is not braced in `example`,
/// there are fewer than 2 primaries with a slot, or no split lowers the skew the map has
/// now (so where one key carries it).
#[must_use]
pub fn split(
    hot: &HotSlot,
    (hashtag, basis): (&HashtagShare, Basis),
    amounts: &[u64],
    owners: &[Option<usize>],
    weights: &[f64],
    hot_slots: &[u16],
) -> Option<Split> {
    if !hashtag.braced {
        return None;
    }
    let shards = weights.len();
    let mut loads = crate::shard_totals(amounts, owners, shards);
    let home = owners.get(usize::from(hot.slot)).copied().flatten()?;
    let now = crate::weighted_skew(&loads, weights)?;
    let carried = ((hot.amount as f64 * hashtag.share).round() as u64).min(loads[home]);
    loads[home] -= carried;
    // the slot each shard would take a tag in
    let mut least: Vec<Option<usize>> = vec![None; shards];
    for (slot, o) in owners.iter().enumerate() {
        let Some(o) = *o else { continue };
        if hot_slots.contains(&(slot as u16)) || slot == usize::from(hot.slot) {
            continue;
        }
        if least[o].is_none_or(|l| amounts[slot] < amounts[l]) {
            least[o] = Some(slot);
        }
    }
    let eligible: Vec<bool> = least.iter().map(Option::is_some).collect();
    // the heaviest key goes whole to one tag: where each key weighs one, that is the even
    // split's assumption already
    let whole = if basis == Basis::Keys {
        0
    } else {
        (carried as f64 * hashtag.heaviest.1).round() as u64
    };
    let (chosen, after) = super::load::even_split(&loads, weights, (carried, whole), &eligible)?;
    // a split that leaves the skew where it is, or higher, is no remedy (a slot just over a
    // fair share on an even cluster: its keys spread over the others raise them)
    if after >= now - 1e-12 {
        return None;
    }
    let example = &hashtag.example;
    let open = example.iter().position(|&b| b == b'{')?;
    let close = open + 1 + example[open + 1..].iter().position(|&b| b == b'}')?;
    let tags = chosen
        .iter()
        .map(|&shard| {
            let slot = least[shard].expect("kept only shards with a slot") as u16;
            let tag = REDIS_CLUSTER
                .tag_for_slot(slot)
                .expect("every slot under 16384 has a tag");
            let mut key = example[..=open].to_vec();
            key.extend_from_slice(tag.as_ref());
            key.extend_from_slice(&example[close..]);
            SplitTag {
                tag: tag.to_string(),
                slot,
                shard,
                key,
            }
        })
        .collect();
    Some(Split {
        slot: hot.slot,
        hashtag: hashtag.hashtag.clone(),
        share: hashtag.share,
        amount: carried,
        whole: (whole > 0 && hashtag.heaviest.1 > 1.0 / chosen.len() as f64)
            .then(|| hashtag.heaviest.clone()),
        tags,
        skew_after: Some(after),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A split carried out keeps the total: its amount leaves the hot slot, the heaviest
    /// key's part to the first tag, the rest evenly, the remainder one a slot.
    #[test]
    fn a_split_carried_out_moves_its_amount_to_its_tags() {
        let tag = |slot: u16| SplitTag {
            tag: String::new(),
            slot,
            shard: 0,
            key: Vec::new(),
        };
        let mut split = Split {
            slot: 5,
            hashtag: b"h".to_vec(),
            share: 1.0,
            amount: 101,
            tags: vec![tag(1), tag(2), tag(3)],
            skew_after: None,
            whole: None,
        };
        let mut amounts = vec![10u64; 8];
        amounts[5] = 110;
        split.carry_out(&mut amounts);
        assert_eq!(amounts, [10, 44, 44, 43, 10, 9, 10, 10]);
        split.whole = Some((b"k".to_vec(), 0.5));
        let mut amounts = vec![0u64; 8];
        amounts[5] = 101;
        split.carry_out(&mut amounts);
        // 51 whole (101 x 0.5, rounded) on the first, 50 evenly: 17, 17, 16
        assert_eq!(amounts, [0, 68, 17, 16, 0, 0, 0, 0]);
    }

    /// A key of slot 5 and keys of other slots in one `CLUSTER GETKEYSINSLOT 5` answer (a
    /// server whose listing makes no sense): the keys of other slots are left out of the
    /// sample and counted, so that the hashtag named is one of slot 5's, and the note says
    /// how many. (They were believed: a hashtag of slot 11694 was said to carry slot 5.)
    #[test]
    fn listed_keys_of_another_slot_are_left_out_and_counted() {
        use super::super::{Node, Role, Shard, SlotRange, Source};
        // keys of slot 5 and of other slots, found by the runtime's slot rule
        let of_slot = |slot: u16, n: usize| -> Vec<Vec<u8>> {
            (0u32..)
                .map(|i| format!("{{t{i}}}k").into_bytes())
                .filter(|k| REDIS_CLUSTER.key_slot(k) == slot)
                .take(n)
                .collect()
        };
        let ours = of_slot(5, 3);
        let theirs: Vec<Vec<u8>> = (0..40).map(|i| format!("{{h}}k{i}").into_bytes()).collect();
        assert!(theirs.iter().all(|k| REDIS_CLUSTER.key_slot(k) != 5));
        let listing: Vec<Vec<u8>> = theirs.iter().chain(&ours).cloned().collect();
        let mut reply = format!("*{}\r\n", listing.len()).into_bytes();
        for key in &listing {
            reply.extend_from_slice(format!("${}\r\n", key.len()).as_bytes());
            reply.extend_from_slice(key);
            reply.extend_from_slice(b"\r\n");
        }
        let count = format!(":{}\r\n", listing.len()).into_bytes();
        let url = super::super::exchange::tests::scripted_node(move |args| {
            match args.get(1).map(Vec::as_slice) {
                Some(b"COUNTKEYSINSLOT") => count.clone(),
                Some(b"GETKEYSINSLOT") => reply.clone(),
                // `CONFIG GET cluster-databases`: no such setting
                _ => b"*0\r\n".to_vec(),
            }
        });
        let topology = Topology {
            shards: vec![Shard {
                primary: Node {
                    id: "0".repeat(40),
                    addr: url.trim_start_matches("redis://").to_owned(),
                    role: Role::Primary,
                    health: Some("online".to_owned()),
                },
                replicas: Vec::new(),
                ranges: vec![SlotRange {
                    first: 0,
                    last: 16383,
                }],
            }],
            left_out: Vec::new(),
            migrations: Vec::new(),
            source: Source::ClusterShards,
        };
        let samples = sample_hot(
            &url,
            &ConnectOptions::default(),
            Duration::from_secs(5),
            &topology,
            &[5],
            Metric::Keys,
        )
        .unwrap();
        let sample = &samples[0];
        assert_eq!((sample.keys, sample.listed, sample.foreign), (3, 3, 40));
        let tags: Vec<&[u8]> = sample.hashtags.iter().map(|t| &t.hashtag[..]).collect();
        let expected: Vec<&[u8]> = ours.iter().map(|k| hashtag(k)).collect();
        assert_eq!(tags.len(), 3);
        assert!(tags.iter().all(|t| expected.contains(t)), "{tags:?}");
        let note = sample.foreign_note("127.0.0.1:1").unwrap();
        assert!(
            note.starts_with("40 of the keys that `CLUSTER GETKEYSINSLOT 5` listed on 127.0.0.1:1 are not in slot 5"),
            "{note}"
        );
    }

    #[test]
    fn evenly_takes_n_keys_spread_over_a_grouped_listing() {
        for (len, n) in [
            (10, 3),
            (1000, 1000),
            (4000, 1000),
            (20_000, 1000),
            (7, 7),
            (5, 9),
        ] {
            // the first half one hashtag, the second another, as a server may list them
            let keys: Vec<Vec<u8>> = (0..len)
                .map(|i| {
                    if i < len / 2 {
                        b"{a}".to_vec()
                    } else {
                        b"{b}".to_vec()
                    }
                })
                .collect();
            let got = evenly(keys, n);
            assert_eq!(got.len(), n.min(len), "{len} {n}");
            let a = got.iter().filter(|k| k.as_slice() == b"{a}").count();
            let expected = n.min(len) / 2;
            assert!(a.abs_diff(expected) <= 1, "{len} {n}: {a} of {{a}}");
        }
    }

    #[test]
    fn lfu_hits_inverts_a_simulated_counter() {
        // the counter's increment as evict.c's LFULogIncr draws it, with a seeded generator
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut random = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as f64 / (1u64 << 53) as f64
        };
        for hits in [1u64, 100, 3_000, 30_000, 300_000] {
            let mut counter = 5u64;
            for _ in 0..hits {
                let p = 1.0 / ((counter - 5) as f64 * 10.0 + 1.0);
                if counter < 255 && random() < p {
                    counter += 1;
                }
            }
            let back = lfu_hits(counter, 10) as f64;
            let ratio = back / hits as f64;
            assert!(
                hits < 100 || (0.6..1.6).contains(&ratio),
                "{hits}: {counter} -> {back}"
            );
        }
        assert_eq!(lfu_hits(0, 10), 1);
        assert_eq!(lfu_hits(5, 10), 1);
    }

    #[test]
    fn shares_by_hashtag() {
        let keys: Vec<Vec<u8>> = [&b"{a}:1"[..], b"{a}:2", b"x{b}", b"plain"]
            .iter()
            .map(|k| k.to_vec())
            .collect();
        let s = shares(7, &keys, &[1, 1, 1, 1], Basis::Keys);
        assert_eq!(s.hashtags[0].hashtag, b"a");
        assert_eq!(s.hashtags[0].keys, 2);
        assert!((s.hashtags[0].share - 0.5).abs() < 1e-12);
        let plain = s.hashtags.iter().find(|h| h.hashtag == b"plain").unwrap();
        assert!(!plain.braced);
        // weighed
        // each key one: the heaviest is the first listed, one of two
        assert_eq!(s.hashtags[0].heaviest, (b"{a}:1".to_vec(), 0.5));
        // weighed
        let s = shares(7, &keys, &[0, 0, 10, 0], Basis::MemoryUsage);
        assert_eq!(s.hashtags[0].hashtag, b"b");
        assert!((s.hashtags[0].share - 1.0).abs() < 1e-12);
        assert_eq!(s.hashtags[0].heaviest, (b"x{b}".to_vec(), 1.0));
        let s = shares(7, &keys, &[1, 3, 0, 0], Basis::ObjectFreq);
        assert_eq!(s.hashtags[0].heaviest, (b"{a}:2".to_vec(), 0.75));
    }

    /// 3 shards: slots 0-9 on 0, 10-19 on 1, 20-29 on 2, each slot 1 but slot 0, 90 (the
    /// hashtag `h`, all of it and hot), slot 10, 40, and slot 20, 20: the amounts, the
    /// owners and the hot slot.
    fn three_shards() -> (Vec<u64>, Vec<Option<usize>>, HotSlot) {
        let mut amounts = vec![1u64; 30];
        (amounts[0], amounts[10], amounts[20]) = (90, 40, 20);
        let owners: Vec<Option<usize>> = (0..30).map(|s| Some(s / 10)).collect();
        let hot = HotSlot {
            slot: 0,
            amount: 90,
            share: 90.0 / 177.0,
            floor: 90.0 * 3.0 / 177.0,
        };
        (amounts, owners, hot)
    }

    #[test]
    fn split_lands_on_the_least_loaded_and_off_hot_slots() {
        let (amounts, owners, hot) = three_shards();
        let tag = HashtagShare {
            hashtag: b"h".to_vec(),
            braced: true,
            keys: 90,
            share: 1.0,
            example: b"user:{h}:9".to_vec(),
            heaviest: (b"user:{h}:0".to_vec(), 1.0 / 90.0),
        };
        let s = split(
            &hot,
            (&tag, Basis::Keys),
            &amounts,
            &owners,
            &[1.0; 3],
            &[0],
        )
        .unwrap();
        assert_eq!(s.whole, None);
        // loads without it: 9 | 49 | 29; three tags of 30: 39 | 79 | 59 (skew 79/59 = 1.34);
        // two on 0 and 2: 54 | 49 | 74 (74/59 = 1.25): two it is
        assert_eq!(s.tags.len(), 2);
        assert_eq!(s.tags.iter().map(|t| t.shard).collect::<Vec<_>>(), [0, 2]);
        assert!((s.skew_after.unwrap() - 74.0 / 59.0).abs() < 1e-9);
        for t in &s.tags {
            assert_ne!(t.slot, 0);
            assert_eq!(owners[usize::from(t.slot)], Some(t.shard));
            // the key lands in the slot, by the runtime's own CRC
            assert_eq!(REDIS_CLUSTER.key_slot(&t.key), t.slot);
            assert!(t.key.starts_with(b"user:{") && t.key.ends_with(b"}:9"));
        }
    }

    /// Three slots of about a third each, one per shard (`redis-benchmark` keys of one
    /// hashtag a node): the fullest slot is over a fair share, but spreading its hashtag
    /// over the others raises them, so no split is offered (it offered one to 1.33).
    #[test]
    fn no_split_is_offered_where_none_lowers_the_skew() {
        let mut amounts = vec![0u64; 30];
        (amounts[0], amounts[10], amounts[20]) = (95_100, 95_000, 94_900);
        let owners: Vec<Option<usize>> = (0..30).map(|s| Some(s / 10)).collect();
        let total = 285_000.0;
        let hot = HotSlot {
            slot: 0,
            amount: 95_100,
            share: 95_100.0 / total,
            floor: 95_100.0 * 3.0 / total,
        };
        let tag = HashtagShare {
            hashtag: b"h".to_vec(),
            braced: true,
            keys: 95_100,
            share: 1.0,
            example: b"{h}:1".to_vec(),
            heaviest: (b"{h}:0".to_vec(), 1.0 / 95_100.0),
        };
        // two tags (on 0 and 2): 47_550 | 95_000 | 142_450 (skew 1.50); three: 1.33; now 1.0011
        assert_eq!(
            split(
                &hot,
                (&tag, Basis::Keys),
                &amounts,
                &owners,
                &[1.0; 3],
                &[0]
            ),
            None
        );
    }

    /// Where the sample weighs keys, the heaviest goes whole to one tag: a key of 95% of
    /// the hashtag leaves no split that lowers the skew (one key's load is not divided by
    /// renaming keys); one of 50% gives a split whose prediction counts it whole.
    #[test]
    fn a_heavy_key_is_not_divided_by_a_split() {
        // without the hashtag, loads 9 | 49 | 29 (total 177, fair share 59)
        let (amounts, owners, hot) = three_shards();
        let tag = |part: f64| HashtagShare {
            hashtag: b"h".to_vec(),
            braced: true,
            keys: 90,
            share: 1.0,
            example: b"user:{h}:9".to_vec(),
            heaviest: (b"user:{h}:hot".to_vec(), part),
        };
        // now: 99 | 49 | 29, skew 99/59 = 1.678. A key of 95% (85.5, so 86 whole): two
        // tags on 0 and 2 give 9 + 86 + 2 = 97 | 49 | 29 + 2 = 31 (97/59 = 1.64): lower,
        // by the rest's 4 moved; so a split, the key whole on shard 0
        let heavy = split(
            &hot,
            (&tag(0.95), Basis::ObjectFreq),
            &amounts,
            &owners,
            &[1.0; 3],
            &[0],
        )
        .expect("the rest moves");
        assert_eq!(heavy.tags[0].shard, 0);
        assert_eq!(heavy.whole, Some((b"user:{h}:hot".to_vec(), 0.95)));
        let n = heavy.tags.len() as f64;
        let first = 9.0 + 86.0 + 4.0 / n;
        assert!(
            (heavy.skew_after.unwrap() - first / 59.0).abs() < 1e-9,
            "{heavy:?}"
        );
        // the whole hashtag in one key: nothing moves, nothing is offered
        assert_eq!(
            split(
                &hot,
                (&tag(1.0), Basis::ObjectFreq),
                &amounts,
                &owners,
                &[1.0; 3],
                &[0]
            ),
            None
        );
        // 50% (45): two tags on 0 and 2: 9 + 45 + 22.5 = 76.5 | 49 | 29 + 22.5 = 51.5,
        // 76.5/59; three: 9 + 45 + 15 = 69 | 64 | 44, 69/59: three
        let half = split(
            &hot,
            (&tag(0.5), Basis::ObjectFreq),
            &amounts,
            &owners,
            &[1.0; 3],
            &[0],
        )
        .unwrap();
        assert_eq!(half.tags.len(), 3);
        assert!(
            (half.skew_after.unwrap() - 69.0 / 59.0).abs() < 1e-9,
            "{half:?}"
        );
        assert_eq!(half.whole, Some((b"user:{h}:hot".to_vec(), 0.5)));
        // each key weighing one: the even split of `split_lands_...` (two tags, 74/59)
        let even = split(
            &hot,
            (&tag(0.5), Basis::Keys),
            &amounts,
            &owners,
            &[1.0; 3],
            &[0],
        )
        .unwrap();
        assert!((even.skew_after.unwrap() - 74.0 / 59.0).abs() < 1e-9);
        assert_eq!(even.whole, None);
    }
}
