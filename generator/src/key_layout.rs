//! Keys that must meet on one slot: key templates and their instances, and the hashtag to
//! advise, taken from the caller's own keys. `slotgen check` (`--same-slot`, `--template`)
//! and `slotgen lint` (the crate `slotgen-lint`) both ask this module; a library user can
//! call it directly.
//!
//! ```
//! use slotgen::key_layout::{fill, suggested_hashtag};
//! use slotgen_tables::HashtagRule;
//!
//! let names = ["q".to_owned()];
//! assert_eq!(fill("emq:{q}:pending", &names, &["orders"]), "emq:{orders}:pending");
//! // The hashtag to advise comes from the keys: the first non-empty one...
//! let keys: [&[u8]; 2] = [b"emq:pending", b"emq:{jobs}:active"];
//! assert_eq!(suggested_hashtag(HashtagRule::Redis, &keys).unwrap(), b"jobs");
//! // ...else the first key's first segment.
//! let keys: [&[u8]; 2] = [b"emq:{}:pending", b"emq:{}:active"];
//! assert_eq!(suggested_hashtag(HashtagRule::Redis, &keys).unwrap(), b"emq");
//! ```

use std::collections::HashMap;

use slotgen_tables::HashtagRule;

/// A hashtag rule in words, for comments, help and reports: the one wording of the rule,
/// which `check`'s summary and every emitted module's doc comment state. `delimiters` are
/// the bytes that open and close a hashtag (`None`: the whole key is hashed);
/// `hashes_empty_tag` is [`HashtagRule::hashes_empty_tag`]; `show` writes a delimiter for
/// the place the words go (escaped for a terminal, a comment).
///
/// ```
/// use slotgen::key_layout::rule_words;
/// use slotgen_tables::HashtagRule;
///
/// let rule = HashtagRule::Redis;
/// let words = rule_words(rule.delimiters(), rule.hashes_empty_tag(), slotgen::text::escape);
/// assert!(words.ends_with("the whole key when there is no such pair or the hashtag is empty"));
/// ```
#[must_use]
pub fn rule_words(
    delimiters: Option<[u8; 2]>,
    hashes_empty_tag: bool,
    show: impl Fn(&[u8]) -> String,
) -> String {
    let Some([open, close]) = delimiters else {
        return "the whole key (this scheme has no hashtag)".to_owned();
    };
    let (open, close) = (show(&[open]), show(&[close]));
    if hashes_empty_tag {
        format!(
            "the bytes between the first `{open}` and the first `{close}` after it, even none (an empty hashtag hashes the empty string); the whole key when there is no such pair"
        )
    } else {
        format!(
            "the bytes between the first `{open}` and the first `{close}` after it; the whole key when there is no such pair or the hashtag is empty"
        )
    }
}

use crate::scheme::rule;
use crate::scheme::SlotFunction;

/// `template` with each `{NAME}` of `names` replaced by `{VALUE}` of the same index in
/// `values` (the braces stay: `emq:{q}:pending` with `q = orders` is `emq:{orders}:pending`),
/// in one pass; other braces are kept as they are.
#[must_use]
pub fn fill(template: &str, names: &[String], values: &[&str]) -> String {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    'scan: while let Some(open) = rest.find('{') {
        out.push_str(&rest[..=open]);
        rest = &rest[open + 1..];
        for (name, value) in names.iter().zip(values) {
            if let Some(after) = rest
                .strip_prefix(name.as_str())
                .and_then(|r| r.strip_prefix('}'))
            {
                out.push_str(value);
                out.push('}');
                rest = after;
                continue 'scan;
            }
        }
    }
    out.push_str(rest);
    out
}

/// How many instances the placeholder value lists make (their product), or `None` past
/// `max`.
#[must_use]
pub fn instance_count(value_lists: &[Vec<String>], max: usize) -> Option<usize> {
    value_lists
        .iter()
        .try_fold(1usize, |n, v| n.checked_mul(v.len()))
        .filter(|&n| n <= max)
}

/// The values of instance `index` (0 .. [`instance_count`]), one of each list, the last
/// list varying fastest.
#[must_use]
pub fn instance_values(value_lists: &[Vec<String>], index: usize) -> Vec<&str> {
    let mut rest = index;
    let mut chosen = vec![""; value_lists.len()];
    for (k, values) in value_lists.iter().enumerate().rev() {
        chosen[k] = &values[rest % values.len()];
        rest /= values.len();
    }
    chosen
}

/// One instance of a set of templates: its keys, their slots, where most of them land, and
/// the templates off that slot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Instance {
    /// One key a template, in the templates' order.
    pub keys: Vec<String>,
    /// The slot of each key.
    pub slots: Vec<u32>,
    /// The slot of most keys (the first such on a tie).
    pub slot: u32,
    /// The indices of the templates whose key is not on `slot`.
    pub off: Vec<usize>,
}

impl Instance {
    /// The keys of `templates` filled with `values` for `names`, placed by `slot_of`.
    pub fn new(
        templates: &[String],
        names: &[String],
        values: &[&str],
        slot_of: impl Fn(&[u8]) -> u32,
    ) -> Self {
        let keys: Vec<String> = templates.iter().map(|t| fill(t, names, values)).collect();
        let slots: Vec<u32> = keys.iter().map(|k| slot_of(k.as_bytes())).collect();
        let mut tally: HashMap<u32, usize> = HashMap::new();
        for &s in &slots {
            *tally.entry(s).or_default() += 1;
        }
        let most = tally.values().copied().max().unwrap_or(0);
        let slot = slots
            .iter()
            .copied()
            .find(|s| tally[s] == most)
            .unwrap_or(0);
        let off = (0..slots.len()).filter(|&i| slots[i] != slot).collect();
        Self {
            keys,
            slots,
            slot,
            off,
        }
    }
}

/// The hashtag to advise for `keys` that must meet, under `rule`, taken from the keys
/// themselves: the first non-empty hashtag among them, else the first key's first segment
/// (up to a `:`, `/`, `.` or `-`), else the first key whole. `None` for no keys.
#[must_use]
pub fn suggested_hashtag(rule: HashtagRule, keys: &[&[u8]]) -> Option<Vec<u8>> {
    for key in keys {
        if let Some(tag) = rule::hashtag(rule, key) {
            if !tag.is_empty() {
                return Some(tag.to_vec());
            }
        }
    }
    let first = keys.first()?;
    let [open, close] = rule.delimiters().unwrap_or([b'{', b'}']);
    let usable = |b: &u8| *b != open && *b != close;
    let segment: Vec<u8> = first
        .split(|b| matches!(b, b':' | b'/' | b'.' | b'-'))
        .map(|s| s.iter().copied().filter(usable).collect::<Vec<u8>>())
        .find(|s| !s.is_empty())
        .unwrap_or_default();
    if !segment.is_empty() {
        return Some(segment);
    }
    let whole: Vec<u8> = first.iter().copied().filter(usable).collect();
    Some(if whole.is_empty() {
        b"tag".to_vec()
    } else {
        whole
    })
}

/// How keys that must meet get onto one slot under `function`, for the message of a
/// failed check: one hashtag of the rule, taken from `keys` ([`suggested_hashtag`]), or for
/// a rule that hashes the whole key, what there is instead.
#[must_use]
pub fn way_out(function: &SlotFunction, keys: &[&[u8]]) -> String {
    let rule = function.rule();
    match rule.delimiters() {
        Some([open, close]) => {
            let tag = suggested_hashtag(rule, keys).unwrap_or_else(|| b"tag".to_vec());
            let mut shown = vec![open];
            shown.extend_from_slice(&tag);
            shown.push(close);
            format!(
                "put them under one non-empty hashtag, such as `{}`, taken from your keys",
                crate::text::escape(&shown)
            )
        }
        None => match function.scheme_name() {
            Some((name, _)) if name.takes_hash_tag() => "this pool hashes the whole key, so distinct keys meet on a server only by chance: give the pool a `hash_tag` (`--hash-tag '{}'` here) and put the keys under one tag".to_owned(),
            _ => "this scheme hashes the whole key, so distinct keys meet on a slot only by chance".to_owned(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fill_keeps_the_braces_and_other_pairs() {
        let names = vec!["q".to_owned(), "id".to_owned()];
        assert_eq!(
            fill("emq:{q}:pending", &names, &["orders", "7"]),
            "emq:{orders}:pending"
        );
        assert_eq!(
            fill("{emq}:version", &names, &["orders", "7"]),
            "{emq}:version"
        );
        assert_eq!(fill("{id}{q}{qq}", &names, &["{id}", "7"]), "{7}{{id}}{qq}");
        assert_eq!(fill("a{q", &names, &["x", "y"]), "a{q");
    }

    #[test]
    fn instances_run_the_last_list_fastest() {
        let lists = vec![
            vec!["a".to_owned(), "b".to_owned()],
            vec!["1".to_owned(), "2".to_owned(), "3".to_owned()],
        ];
        assert_eq!(instance_count(&lists, 6), Some(6));
        assert_eq!(instance_count(&lists, 5), None);
        let all: Vec<Vec<&str>> = (0..6).map(|i| instance_values(&lists, i)).collect();
        assert_eq!(all[0], ["a", "1"]);
        assert_eq!(all[2], ["a", "3"]);
        assert_eq!(all[3], ["b", "1"]);
    }

    #[test]
    fn suggested_hashtags_come_from_the_keys() {
        let r = HashtagRule::Redis;
        assert_eq!(suggested_hashtag(r, &[]), None);
        assert_eq!(suggested_hashtag(r, &[b"a", b"{x}b"]).unwrap(), b"x");
        assert_eq!(suggested_hashtag(r, &[b"user:1:a"]).unwrap(), b"user");
        assert_eq!(suggested_hashtag(r, &[b"{}x"]).unwrap(), b"x");
        assert_eq!(suggested_hashtag(r, &[b"{}"]).unwrap(), b"tag");
    }
}
