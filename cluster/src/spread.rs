//! Keys spread over a node's slots: [`keys_over_slots`], with the tags of [`REDIS_CLUSTER`],
//! and [`split_evenly`] to share a count of keys among nodes.

use slotgen_tables::REDIS_CLUSTER;

use super::Error;

/// `count` distinct keys `prefix{tag}suffix[n]` spread evenly over `slots` (a node's slots,
/// sorted), as `(slot, key)` pairs, made lazily with the tags of [`REDIS_CLUSTER`].
///
/// With `count <= slots.len()`, key `i` lands on `slots[i * len / count]`: distinct slots
/// at even spacing. With more, every slot takes `count / len` keys and the remainder is
/// spread as above: round `r` of a slot uses its `r % 4`-th tag (the canonical tag, then the
/// alternatives of [`SlotTable::tags_for_slot`](slotgen_tables::SlotTable::tags_for_slot)),
/// and from round 4 on, the decimal counter `r / 4` follows the suffix. Keys come in rounds:
/// one key on each slot, then the next round. No two keys are equal (`slots` is sorted and
/// made distinct first); with empty `slots` there are none.
///
/// # Errors
///
/// [`Error::Key`] when `prefix` holds `{` (the key's hashtag would start there), or a slot
/// is 16384 or more.
///
/// # Examples
///
/// ```
/// use slotgen_cluster::keys_over_slots;
///
/// // Six keys on one slot: its four tags, then a counter after the suffix.
/// let keys: Vec<String> = keys_over_slots(&[0], 6, b"", b":x")?
///     .map(|(_, key)| String::from_utf8(key).unwrap())
///     .collect();
/// assert_eq!(keys, ["{DLH@}:x", "{AKOB}:x", "{NBFE}:x", "{KEAG}:x", "{DLH@}:x1", "{AKOB}:x1"]);
/// # Ok::<(), slotgen_cluster::Error>(())
/// ```
pub fn keys_over_slots(
    slots: &[u16],
    count: u64,
    prefix: &[u8],
    suffix: &[u8],
) -> Result<KeysOverSlots, Error> {
    let mut slots = slots.to_vec();
    slots.sort_unstable();
    slots.dedup();
    if let Some(&slot) = slots.first() {
        REDIS_CLUSTER.key_for_slot(prefix, slot, suffix)?;
    }
    if let Some(&last) = slots.last() {
        REDIS_CLUSTER.tag_for_slot(last)?;
    }
    Ok(KeysOverSlots {
        count: if slots.is_empty() { 0 } else { count },
        slots,
        prefix: prefix.to_vec(),
        suffix: suffix.to_vec(),
        next: 0,
    })
}

/// The keys of [`keys_over_slots`]: `(slot, key)`.
#[derive(Clone, Debug)]
pub struct KeysOverSlots {
    slots: Vec<u16>,
    count: u64,
    prefix: Vec<u8>,
    suffix: Vec<u8>,
    next: u64,
}

impl Iterator for KeysOverSlots {
    type Item = (u16, Vec<u8>);

    fn next(&mut self) -> Option<(u16, Vec<u8>)> {
        if self.next >= self.count {
            return None;
        }
        let i = self.next;
        self.next += 1;
        let len = self.slots.len() as u64;
        let full = self.count / len * len;
        let (slot, round) = if i < full {
            (self.slots[(i % len) as usize], i / len)
        } else {
            // The last, partial round: spread at even spacing.
            let rest = self.count - full;
            let j = i - full;
            // j < rest <= len <= 16384: the product fits.
            (self.slots[(j * len / rest) as usize], self.count / len)
        };
        let per_slot = REDIS_CLUSTER.tags_per_slot();
        let tag = REDIS_CLUSTER
            .tags_for_slot(slot)
            .ok()?
            .nth((round % per_slot) as usize)?;
        let mut key = Vec::with_capacity(self.prefix.len() + tag.len() + 2 + self.suffix.len() + 4);
        key.extend_from_slice(&self.prefix);
        key.push(b'{');
        key.extend_from_slice(tag.as_ref());
        key.push(b'}');
        key.extend_from_slice(&self.suffix);
        let counter = round / per_slot;
        if counter > 0 {
            key.extend_from_slice(counter.to_string().as_bytes());
        }
        Some((slot, key))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = usize::try_from(self.count - self.next).unwrap_or(usize::MAX);
        (left, Some(left))
    }
}

/// `total` split over `parts` as evenly as can be: each part `total / parts`, the first
/// `total % parts` one more. Empty when `parts` is 0.
///
/// # Examples
///
/// ```
/// assert_eq!(slotgen_cluster::split_evenly(10, 3), [4, 3, 3]);
/// ```
#[must_use]
pub fn split_evenly(total: u64, parts: usize) -> Vec<u64> {
    if parts == 0 {
        return Vec::new();
    }
    let n = parts as u64;
    (0..n)
        .map(|i| total / n + u64::from(i < total % n))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct_and_on_their_slots() {
        let slots: Vec<u16> = (100..110).collect();
        for count in [0, 1, 3, 10, 11, 39, 40, 41, 95] {
            let keys: Vec<_> = keys_over_slots(&slots, count, b"p:", b"")
                .unwrap()
                .collect();
            assert_eq!(keys.len() as u64, count);
            let mut distinct: Vec<&Vec<u8>> = keys.iter().map(|(_, k)| k).collect();
            distinct.sort();
            distinct.dedup();
            assert_eq!(distinct.len() as u64, count, "count {count}");
            for (slot, key) in &keys {
                assert_eq!(REDIS_CLUSTER.key_slot(key), *slot);
            }
            // balanced: per-slot counts differ by at most one
            let mut per = [0u64; 10];
            for (slot, _) in &keys {
                per[usize::from(slot - 100)] += 1;
            }
            let (lo, hi) = (per.iter().min().unwrap(), per.iter().max().unwrap());
            assert!(hi - lo <= 1, "count {count}: {per:?}");
        }
    }

    #[test]
    fn fewer_keys_than_slots_take_evenly_spaced_slots() {
        let slots: Vec<u16> = (0..5461).collect();
        let got: Vec<u16> = keys_over_slots(&slots, 4, b"", b"")
            .unwrap()
            .map(|(s, _)| s)
            .collect();
        assert_eq!(got, [0, 1365, 2730, 4095]);
        assert!(keys_over_slots(&slots, 1, b"a{", b"").is_err());
    }

    #[test]
    fn a_slot_out_of_range_is_refused() {
        assert!(keys_over_slots(&[16384], 1, b"", b"").is_err());
    }

    #[test]
    fn split() {
        assert_eq!(split_evenly(2, 3), [1, 1, 0]);
        assert!(split_evenly(5, 0).is_empty());
    }
}
