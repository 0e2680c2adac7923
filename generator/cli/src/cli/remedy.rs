//! The remedy for hot slots that `load` and `rebalance` print: the hashtags that carry each
//! hot slot (sampled by [`slotgen_cluster::sample_hot`]) and the split of the heaviest over
//! tags on the least loaded primaries ([`slotgen_cluster::split`]), with a command that
//! shows where the new keys land, keeping every connection option given.

use serde_json::json;
use slotgen::emit::common::shell_quote;
use slotgen::text::{escape, field};
use slotgen_cluster::grant::Run;
use slotgen_cluster::{self as cluster, Basis, HotSlot, Metric, SlotSample, Split, Topology};

use super::cluster::{ConnectArgs, ServerArgs};

/// A hot slot, what its sample showed and the split offered.
pub(super) struct HotRemedy {
    pub hot: HotSlot,
    pub sample: Option<SlotSample>,
    pub split: Option<Split>,
    /// The command that shows where the split's keys land.
    pub command: Option<String>,
    /// The hot slots whose splits, printed before this one, its split and skew assume
    /// carried out (its tags on other slots than theirs).
    pub after: Vec<u16>,
}

/// What a hot slot's remedy is: the one reading of a [`HotRemedy`] that the text, the
/// picture's line and JSON's fields each tell in their own words.
enum Kind<'r> {
    /// Not sampled, or no key listed was in the slot.
    Unsampled,
    /// A hashtag split over tags.
    Split(&'r Split),
    /// One key carries the slot: no rename of keys divides it (weighed by the server, or the
    /// slot's only key).
    OneKey(&'r slotgen_cluster::HashtagShare),
    /// A braced hashtag that no split over the primaries lowers the skew from what it is
    /// now ([`cluster::split`]'s `None`).
    NoSplitHelps,
    /// No key of it has a hashtag to split.
    NoHashtag,
}

impl HotRemedy {
    /// What its remedy is ([`Kind`]).
    fn kind(&self) -> Kind<'_> {
        let Some(sample) = self.sample.as_ref().filter(|s| s.keys > 0) else {
            return Kind::Unsampled;
        };
        match (&self.split, sample.one_key()) {
            (Some(split), _) => Kind::Split(split),
            (None, Some(t)) => Kind::OneKey(t),
            (None, None) if sample.hashtags.iter().any(|t| t.braced) => Kind::NoSplitHelps,
            (None, None) => Kind::NoHashtag,
        }
    }
}

/// What the picture says of the hot slots: each one's top hashtag (its bytes, escaped once
/// where the picture draws them) and its part of the slot's sample.
pub(super) fn map_hashtags(remedies: &[HotRemedy]) -> Vec<(u16, Vec<u8>, f64)> {
    remedies
        .iter()
        .filter_map(|r| {
            let top = r.sample.as_ref()?.hashtags.iter().find(|t| t.braced)?;
            Some((r.hot.slot, top.hashtag.clone(), top.share))
        })
        .collect()
}

/// The remedy of every slot of `hot`: each sampled on its primary (a failure said on stderr
/// and that slot left without a remedy), split over the map `owners` (as the plan leaves
/// it) with `amounts` of `metric` and one weight per shard. A sample refused for a right
/// names every right of `run` (`slotgen NAME`, what it sends, the dialect `--dialect`
/// gave), so that one grant covers it.
#[allow(clippy::too_many_arguments)]
pub(super) fn remedies(
    run: (&str, Run, Option<slotgen_cluster::Dialect>),
    server: &ServerArgs,
    options: &slotgen_cluster::transport::ConnectOptions,
    topology: &Topology,
    hot: &[HotSlot],
    metric: Metric,
    amounts: &[u64],
    owners: &[Option<usize>],
    weights: &[f64],
) -> Vec<HotRemedy> {
    if hot.is_empty() {
        return Vec::new();
    }
    let slots: Vec<u16> = hot.iter().map(|h| h.slot).collect();
    let samples = match cluster::sample_hot(
        &server.redis,
        options,
        server.timeout.get(),
        topology,
        &slots,
        metric,
    ) {
        Ok(samples) => samples,
        Err(e) => {
            let grant = e.denied().map(|denied| {
                super::cluster::whole_run_grant(
                    denied,
                    run.0,
                    super::cluster::as_sent(run.1, run.2, server, options),
                )
            });
            say!(
                "slotgen: note: the keys of the hot {} could not be sampled ({}{}), so no hashtag split is offered",
                if slots.len() == 1 { "slot" } else { "slots" },
                super::cluster::explain(e),
                grant.unwrap_or_default()
            );
            Vec::new()
        }
    };
    let owners_now = topology.owners();
    for sample in &samples {
        let owner = owners_now[usize::from(sample.slot)].map(|i| &topology.shards[i].primary);
        let shown = owner.map_or_else(String::new, |p| field(p.addr.as_bytes()));
        if let Some(note) = sample.foreign_note(&shown) {
            say!("slotgen: note: {note}");
        }
    }
    // each split made on the map the ones before it leave: its tags on slots of their own,
    // its skew with them carried out
    let mut amounts = amounts.to_vec();
    let mut taken = slots.clone();
    let mut split_before: Vec<u16> = Vec::new();
    hot.iter()
        .map(|h| {
            let sample = samples.iter().find(|s| s.slot == h.slot).cloned();
            // one key that carries the slot: renaming the others moves a sliver
            let split = sample
                .as_ref()
                .filter(|s| s.one_key().is_none())
                .and_then(|s| {
                    s.hashtags.iter().find(|t| t.braced).and_then(|t| {
                        cluster::split(h, (t, s.basis), &amounts, owners, weights, &taken)
                    })
                });
            let after = split_before.clone();
            if let Some(split) = &split {
                split.carry_out(&mut amounts);
                taken.extend(split.tags.iter().map(|t| t.slot));
                split_before.push(h.slot);
            }
            let command = match (&split, &sample) {
                (Some(s), _) => Some(placement_command(server, s)),
                (None, Some(sample)) => sample
                    .one_key()
                    .map(|t| keys_command(server, &t.heaviest.0)),
                _ => None,
            };
            HotRemedy {
                hot: *h,
                sample,
                split,
                command,
                after,
            }
        })
        .collect()
}

/// `slotgen keys --redis URL OPTIONS --per-node 1 --prefix P --suffix S`: a key on each
/// primary, named after `key` (the one that carries the slot), to split its value over: its
/// bytes around its hashtag kept (`{h}:0` gives `{DLH@}:0`), or, without a hashtag, the key
/// and a `:` before the tag (`clicks` gives `clicks:{DLH@}`); as hex where they are not
/// UTF-8.
fn keys_command(server: &ServerArgs, key: &[u8]) -> String {
    let tag = slotgen_tables::hashtag(key);
    // a hashtag that is a part of the key lies between its first `{` and the next `}`
    let open = key.iter().position(|&b| b == b'{');
    let (prefix, suffix): (Vec<u8>, &[u8]) = match open {
        Some(open) if tag.len() < key.len() => (key[..open].to_vec(), &key[open + tag.len() + 2..]),
        _ => ([key, b":"].concat(), b""),
    };
    let part = |name: &str, bytes: &[u8]| -> String {
        match (bytes.is_empty(), std::str::from_utf8(bytes)) {
            (true, _) => String::new(),
            (false, Ok(_)) => format!(" --{name} {}", shell_quote(bytes)),
            (false, Err(_)) => format!(" --{name}-hex {}", hex::encode(bytes)),
        }
    };
    format!(
        "slotgen keys {} --per-node 1{}{}",
        reached(server),
        part("prefix", &prefix),
        part("suffix", suffix),
    )
}

/// `--redis URL OPTIONS` as a printed `slotgen` command reaches the cluster: the URL without
/// its password, every connection option given, and `--askpass` where the password was in
/// the URL and no other source is given.
fn reached(server: &ServerArgs) -> String {
    let (url, user, password) = without_user_info(&server.redis);
    let c = &server.connect;
    let ask = password && !c.askpass && c.password_file.is_none();
    // the URL's user as `--user`: `redis://USER@HOST` alone is refused, as redis-cli reads
    // it as a password
    let user = match (&c.user, user) {
        (None, Some(user)) => format!(" --user {}", shell_quote(&user)),
        _ => String::new(),
    };
    format!(
        "--redis {}{}{user}{}",
        shell_quote(url.as_bytes()),
        connection_options(c),
        if ask { " --askpass" } else { "" }
    )
}

/// `slotgen placement --redis URL OPTIONS KEYS`: where each key of the split lands, by the
/// live map. (The keys are arguments, so that the command holds no backslash for a TSV
/// field to escape.)
fn placement_command(server: &ServerArgs, split: &Split) -> String {
    // keys that are not UTF-8 go as hex: the command line takes UTF-8 arguments only
    let hex = split
        .tags
        .iter()
        .any(|t| std::str::from_utf8(&t.key).is_err());
    let keys: Vec<String> = split
        .tags
        .iter()
        .map(|t| {
            if hex {
                hex::encode(&t.key)
            } else {
                shell_quote(&t.key)
            }
        })
        .collect();
    format!(
        "slotgen placement {}{} -- {}",
        reached(server),
        if hex { " --hex" } else { "" },
        keys.join(" ")
    )
}

/// `url` without its user info (`redis://u:p@h:1` is `redis://h:1`), with the user it named
/// (`u`; none for `redis://:p@h`) and whether it held a password: a printed command never
/// carries a secret, and gives the user by `--user`; the password then comes from the same
/// source as the user gave it, or from REDISCLI_AUTH.
pub(super) fn without_user_info(url: &str) -> (String, Option<Vec<u8>>, bool) {
    let Some(start) = url.find("://").map(|i| i + 3) else {
        return (url.to_owned(), None, false);
    };
    let authority_end = url[start..].find('/').map_or(url.len(), |i| start + i);
    let Some(at) = url[start..authority_end].rfind('@').map(|i| start + i) else {
        return (url.to_owned(), None, false);
    };
    let info = &url[start..at];
    let (user, password) = match info.split_once(':') {
        Some((user, password)) => (user, !password.is_empty()),
        None => (info, false),
    };
    (
        format!("{}{}", &url[..start], &url[at + 1..]),
        // as the URL's reader takes it: percent-decoded (`us%40er` is `us@er`)
        (!user.is_empty()).then(|| percent_encoding::percent_decode_str(user).collect()),
        password,
    )
}

/// Every connection option given, as a command line takes it (each value quoted); the
/// password source by name only: `--askpass` for a --password-file that is no regular file
/// ([`ConnectArgs::lasting_password_file`]).
pub(super) fn connection_options(c: &ConnectArgs) -> String {
    let mut out = String::new();
    let mut path = |name: &str, p: &Option<std::path::PathBuf>| {
        if let Some(p) = p {
            // absolute, so that the command runs from any directory
            let p = std::path::absolute(p).unwrap_or_else(|_| p.clone());
            out += &format!(" {name} {}", shell_quote(p.as_os_str().as_encoded_bytes()));
        }
    };
    path("--cacert", &c.cacert);
    path("--cert", &c.cert);
    path("--key", &c.key);
    path("--password-file", &c.lasting_password_file().cloned());
    if c.tls {
        out += " --tls";
    }
    if let Some(sni) = &c.sni {
        out += &format!(" --sni {}", shell_quote(sni.as_bytes()));
    }
    if c.insecure {
        out += " --insecure";
    }
    if let Some(user) = &c.user {
        out += &format!(" --user {}", shell_quote(user.as_bytes()));
    }
    // a pipe given as --password-file is gone when the command runs: it asks instead
    if c.askpass || (c.password_file.is_some() && c.lasting_password_file().is_none()) {
        out += " --askpass";
    }
    out
}

/// The remedy's [`text`] as a field of a TSV record or a comment line: [`text`] escapes
/// once what came from outside (a hashtag, a key, an address) and quotes its commands for
/// the shell, so only a control character, should one come, is escaped here; escaping the
/// `\` of that escaping again showed other bytes than the server's and made the command
/// paste as other keys.
pub(super) fn line(text: &str) -> String {
    slotgen::text::escape_controls(text)
}

/// The remedy as one line of text (for TSV and notes), the floor printed against `target`
/// (`rebalance`'s, as its notes and picture print it); `planned`: the split was made on the
/// map a plan of moves leaves (`rebalance`), so its skew needs that plan carried out too.
pub(super) fn text(
    r: &HotRemedy,
    metric: Metric,
    topology: &Topology,
    target: Option<f64>,
    planned: bool,
) -> String {
    let h = &r.hot;
    let mut s = format!(
        "slot {} holds {:.1}% of the {metric}: no slot plan goes below {} while it is whole",
        h.slot,
        100.0 * h.share,
        slotgen_cluster::skew_text::floor_text(h.floor, target)
    );
    // not sampled, or no key listed was in the slot
    let Some(sample) = r.sample.as_ref().filter(|s| s.keys > 0) else {
        return s + "; split the hashtag of its keys over several slots";
    };
    if let Some(top) = sample.hashtags.first() {
        // the sample is read from the slot's owner: in migration, the keys moved already
        // are on the importing primary, counted in the slot's amount but not here
        let its = if topology.migrations.iter().any(|m| m.slot == h.slot) {
            "the owner's"
        } else {
            "its"
        };
        let of = if (sample.listed as u64) < sample.in_slot {
            format!(
                "of the first {} of {its} {} keys as the server lists them (not a random sample)",
                sample.listed, sample.in_slot
            )
        } else if sample.keys < sample.listed {
            format!(
                "of {} of {its} {} keys, evenly spaced",
                sample.keys, sample.in_slot
            )
        } else {
            format!("of {its} {} keys", sample.keys)
        };
        let of = if its == "its" {
            of
        } else {
            format!("{of} (the slot is in migration: the importing primary holds the rest)")
        };
        let weighed = match sample.basis {
            Basis::Keys if metric != Metric::Keys => {
                format!(" (one a key: the server tells no key's {metric})")
            }
            Basis::Keys => String::new(),
            Basis::MemoryUsage => " (by MEMORY USAGE)".to_owned(),
            Basis::ObjectFreq => match sample.capped {
                Some((n, hits)) => format!(
                    " (by the hits OBJECT FREQ counts; {n} of the keys weighed {} at the counter's cap, {}, which stands for {hits} hits and perhaps many more: the shares of such keys, and a skew predicted, are bounds the load may pass)",
                    if n == 1 { "is" } else { "are" },
                    cluster::LFU_CAP,
                ),
                None => " (by the hits OBJECT FREQ counts)".to_owned(),
            },
        };
        s += &format!(
            "; {of}, {} `{}` carries {:.1}%{weighed}",
            if top.braced { "the hashtag" } else { "the key" },
            escape(&top.hashtag),
            100.0 * top.share
        );
    }
    let split = match r.kind() {
        Kind::Split(split) => split,
        Kind::OneKey(t) => {
            s += &format!(
                "; one key, `{}`, carries {:.1}% of it: no split of hashtags nor move of slots \
                 divides one key's {metric}; split its value over several keys in the \
                 application, one on each primary, or, for reads, send them to replicas",
                escape(&t.heaviest.0),
                100.0 * t.share * t.heaviest.1
            );
            if let Some(c) = &r.command {
                s += &format!("; a key on each primary: {c}");
            }
            return s;
        }
        Kind::NoSplitHelps => return s
            + "; no split of its hashtag over the primaries lowers the skew from what it is now",
        Kind::NoHashtag => {
            return s + "; no key of it has a hashtag to split: rename its keys into several slots"
        }
        Kind::Unsampled => unreachable!("a sampled slot, read above"),
    };
    let tags: Vec<String> = split
        .tags
        .iter()
        .map(|t| {
            format!(
                "`{}` (slot {} on {}, key `{}`)",
                escape(t.tag.as_bytes()),
                t.slot,
                field(topology.shards[t.shard].primary.addr.as_bytes()),
                escape(&t.key)
            )
        })
        .collect();
    s += &format!(
        "; split `{}` into {} tags: {}; keep each key's prefix and suffix, spread its keys evenly over them",
        escape(&split.hashtag),
        split.tags.len(),
        tags.join(", ")
    );
    if let Some((key, part)) = &split.whole {
        s += &format!(
            ", its heaviest key `{}` ({:.1}% of it) under the first",
            escape(key),
            100.0 * part
        );
    }
    if let Some(skew) = split.skew_after {
        // what the prediction assumes done besides the split
        let mut assumed: Vec<String> = Vec::new();
        if planned {
            assumed.push("the plan's moves".to_owned());
        }
        match r.after.as_slice() {
            [] => {}
            [one] => assumed.push(format!("the split of slot {one} above")),
            more => assumed.push(format!(
                "the splits of slots {} above",
                more.iter()
                    .map(u16::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        }
        let with_plan = if assumed.is_empty() {
            String::new()
        } else {
            format!(" with {} carried out", assumed.join(" and "))
        };
        let divides = match sample.basis {
            Basis::Keys if metric != Metric::Keys => format!(
                ", if its load divides evenly over its keys (a key that carries most of it does \
                 not divide: under an LFU `maxmemory-policy` the sample weighs each key's {metric})"
            ),
            _ if split.whole.is_some() => ", the heaviest key whole and the rest evenly".to_owned(),
            _ => ", if its load divides evenly".to_owned(),
        };
        s += &format!("; the skew is then {skew:.2}{with_plan}{divides}");
    }
    if let Some(c) = &r.command {
        s += &format!("; where the keys land: {c}");
    }
    s
}

/// The remedy as the picture draws it under the grid, one short line (what to do, where,
/// and the skew it gives) beside [`text`], which is its tooltip; `planned` as [`text`] takes
/// it.
pub(super) fn short(r: &HotRemedy, topology: &Topology, planned: bool) -> String {
    let head = format!("slot {} ({:.1}%)", r.hot.slot, 100.0 * r.hot.share);
    // what to do and what it gives first: a long hashtag, key or address list last, where
    // a narrow picture cuts it
    match r.kind() {
        Kind::Split(split) => {
            let on: Vec<String> = split
                .tags
                .iter()
                .map(|t| field(topology.shards[t.shard].primary.addr.as_bytes()))
                .collect();
            let mut with: Vec<String> = Vec::new();
            if planned {
                with.push("the moves".to_owned());
            }
            if !r.after.is_empty() {
                with.push("the splits before".to_owned());
            }
            let with = if with.is_empty() {
                String::new()
            } else {
                format!(" with {}", with.join(" and "))
            };
            let skew = split.skew_after.map_or_else(String::new, |skew| {
                format!(", the skew then {skew:.2}{with}")
            });
            format!(
                "{head}: split into {} tags{skew}: {{{}}} on {}",
                split.tags.len(),
                escape(&split.hashtag),
                on.join(", ")
            )
        }
        Kind::Unsampled => format!("{head}: split the hashtag of its keys over several slots"),
        Kind::OneKey(t) => format!(
            "{head}: one key carries {:.1}% of it: split its value over keys on each primary: `{}`",
            100.0 * t.share * t.heaviest.1,
            escape(&t.heaviest.0)
        ),
        Kind::NoSplitHelps => {
            format!("{head}: no split of its hashtag lowers the skew from what it is now")
        }
        Kind::NoHashtag => {
            format!("{head}: no key of it has a hashtag: rename its keys into several slots")
        }
    }
}

/// The remedies as the picture takes them: `(short, text)` of each.
pub(super) fn map_remedies(
    remedies: &[HotRemedy],
    texts: &[String],
    topology: &Topology,
    planned: bool,
) -> Vec<(String, String)> {
    remedies
        .iter()
        .zip(texts)
        .map(|(r, text)| (short(r, topology, planned), text.clone()))
        .collect()
}

/// The remedy as JSON: `slot`, `amount`, `share`, `floor`, `hashtags` (the sample's, up
/// to 5: `hashtag`, `braced`, `keys`, `share`, `heaviest` with `key` and `share` of the
/// hashtag), `basis`, `sampled`, and `remedy` (`null` without a split: `hashtag`, `share`,
/// `amount`, `tags` of `tag`, `slot`, `node` with `id` and `addr`, and `key`; `skew_after`,
/// `after` (the hot slots whose splits, before this one, its tags and `skew_after` assume
/// carried out), `whole` (the heaviest key kept whole under the first tag, `key` and
/// `share`, or `null`), `command`); `one_key` where one key carries the slot and no split is offered (`key`, its
/// `share` of the sample, the `command` that gives a key on each primary, `text`), else
/// `null`; `capped` where keys were weighed by an `OBJECT FREQ` counter at its cap (`keys`,
/// and `hits_at_least`, what the cap stands for), else `null`. A key or hashtag, a server's
/// bytes, is two fields as in every JSON record (`output`): its text (`null` where not
/// UTF-8) and `key_hex` or `hashtag_hex`, its bytes in hex.
pub(super) fn json(r: &HotRemedy, topology: &Topology, text: &str) -> serde_json::Value {
    let h = &r.hot;
    // a server's bytes as the records spell them (`output`): the text where UTF-8, else
    // `null`, and `NAME_hex` beside it; never made text by replacing bytes
    let utf8 = |b: &[u8]| std::str::from_utf8(b).ok().map(str::to_owned);
    json!({
        "slot": h.slot,
        "amount": h.amount,
        "share": h.share,
        "floor": h.floor,
        "sampled": r.sample.as_ref().map(|s| s.keys),
        "basis": r.sample.as_ref().map(|s| s.basis),
        "capped": r.sample.as_ref().and_then(|s| s.capped).map(|(keys, hits)| json!({
            "keys": keys,
            "hits_at_least": hits,
        })),
        "hashtags": r.sample.as_ref().map(|s| s.hashtags.iter().take(5).map(|t| json!({
            "hashtag": utf8(&t.hashtag),
            "hashtag_hex": hex::encode(&t.hashtag),
            "braced": t.braced,
            "keys": t.keys,
            "share": t.share,
            "heaviest": {
                "key": utf8(&t.heaviest.0),
                "key_hex": hex::encode(&t.heaviest.0),
                "share": t.heaviest.1,
            },
        })).collect::<Vec<_>>()),
        "one_key": r.sample.as_ref().and_then(SlotSample::one_key).map(|t| json!({
            "key": utf8(&t.heaviest.0),
            "key_hex": hex::encode(&t.heaviest.0),
            "share": t.share * t.heaviest.1,
            "command": r.command,
            "text": text,
        })),
        "remedy": r.split.as_ref().map(|s| json!({
            "hashtag": utf8(&s.hashtag),
            "hashtag_hex": hex::encode(&s.hashtag),
            "share": s.share,
            "amount": s.amount,
            "tags": s.tags.iter().map(|t| {
                let n = &topology.shards[t.shard].primary;
                json!({
                    "tag": t.tag,
                    "slot": t.slot,
                    "node": { "id": n.id, "addr": n.addr },
                    "key": utf8(&t.key),
                    "key_hex": hex::encode(&t.key),
                })
            }).collect::<Vec<_>>(),
            "skew_after": s.skew_after,
            "after": r.after,
            "whole": s.whole.as_ref().map(|(key, share)| json!({
                "key": utf8(key),
                "key_hex": hex::encode(key),
                "share": share,
            })),
            "command": r.command,
            "text": text,
        })),
    })
}

/// Checks the helpers that never print a secret.
#[cfg(test)]
mod tests {
    use super::*;

    /// A hot slot's keys that are not UTF-8 (a tester's `{hot}X\xff517`) are `null` and
    /// their bytes in hex, as docs/cli.md says every JSON key is; they were text with
    /// U+FFFD in place of the byte, and no hex.
    #[test]
    fn json_keys_that_are_not_utf8_are_null_and_hex() {
        use slotgen_cluster::{HashtagShare, Node, Role, Shard, SlotRange, Source, SplitTag};
        let node = Node {
            id: "a".repeat(40),
            addr: "127.0.0.1:7000".to_owned(),
            role: Role::Primary,
            health: Some("online".to_owned()),
        };
        let topology = Topology {
            shards: vec![Shard {
                primary: node,
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
        let (tag, key) = (b"h\xff".to_vec(), b"{h\xff}X\xff5".to_vec());
        let remedy = HotRemedy {
            hot: HotSlot {
                slot: 9,
                amount: 10,
                share: 1.0,
                floor: 2.0,
            },
            sample: Some(SlotSample {
                slot: 9,
                keys: 10,
                listed: 10,
                foreign: 0,
                capped: None,
                in_slot: 10,
                basis: Basis::Keys,
                hashtags: vec![HashtagShare {
                    hashtag: tag.clone(),
                    braced: true,
                    keys: 10,
                    share: 1.0,
                    example: key.clone(),
                    heaviest: (key.clone(), 0.6),
                }],
            }),
            split: Some(Split {
                slot: 9,
                hashtag: tag,
                share: 1.0,
                amount: 10,
                tags: vec![SplitTag {
                    tag: "A".to_owned(),
                    slot: 1,
                    shard: 0,
                    key: b"{A}X\xff5".to_vec(),
                }],
                skew_after: None,
                whole: Some((key, 0.6)),
            }),
            command: None,
            after: Vec::new(),
        };
        let j = json(&remedy, &topology, "");
        let (tag_hex, key_hex) = ("68ff", "7b68ff7d58ff35");
        let hashtag = &j["hashtags"][0];
        assert_eq!(
            (&hashtag["hashtag"], &hashtag["hashtag_hex"]),
            (&json!(null), &json!(tag_hex))
        );
        let heaviest = &hashtag["heaviest"];
        assert_eq!(
            (&heaviest["key"], &heaviest["key_hex"]),
            (&json!(null), &json!(key_hex))
        );
        let split = &j["remedy"];
        assert_eq!(
            (&split["hashtag"], &split["hashtag_hex"]),
            (&json!(null), &json!(tag_hex))
        );
        let tag = &split["tags"][0];
        assert_eq!(
            (&tag["key"], &tag["key_hex"]),
            (&json!(null), &json!("7b417d58ff35"))
        );
        let whole = &split["whole"];
        assert_eq!(
            (&whole["key"], &whole["key_hex"]),
            (&json!(null), &json!(key_hex))
        );
        assert!(!j.to_string().contains('\u{fffd}'), "{j}");
    }

    #[test]
    fn the_user_info_is_left_out_and_said() {
        let user = |u: &str| Some(u.as_bytes().to_vec());
        assert_eq!(
            without_user_info("redis://u:s3cret@127.0.0.1:7000"),
            ("redis://127.0.0.1:7000".to_owned(), user("u"), true)
        );
        assert_eq!(
            without_user_info("rediss://:s3cret@h:1/0"),
            ("rediss://h:1/0".to_owned(), None, true)
        );
        assert_eq!(
            without_user_info("redis://us%40er:@h:1"),
            ("redis://h:1".to_owned(), user("us@er"), false)
        );
        assert_eq!(
            without_user_info("redis://h:1"),
            ("redis://h:1".to_owned(), None, false)
        );
        assert_eq!(
            without_user_info("unix:///tmp/s"),
            ("unix:///tmp/s".to_owned(), None, false)
        );
    }

    /// The TLS case: the command kept neither `--cacert` nor `--user`.
    #[test]
    fn every_connection_option_is_kept() {
        let dir = tempfile::tempdir().unwrap();
        let pw = dir.path().join("pw");
        std::fs::write(&pw, "s3cret\n").unwrap();
        let c = ConnectArgs {
            tls: true,
            cacert: Some("/etc/ca dir/ca.pem".into()),
            cert: Some("c.pem".into()),
            key: Some("k.pem".into()),
            sni: Some("redis.example".into()),
            insecure: false,
            user: Some("loadgen".into()),
            askpass: false,
            password_file: Some(pw.clone()),
        };
        // relative files are given from the directory the command ran in
        let here = std::env::current_dir().unwrap();
        let here = here.to_str().unwrap();
        let pw = pw.to_str().unwrap();
        assert_eq!(
            connection_options(&c),
            format!(
                " --cacert '/etc/ca dir/ca.pem' --cert '{here}/c.pem' --key '{here}/k.pem' --password-file '{pw}' --tls --sni 'redis.example' --user 'loadgen'"
            )
        );
        // a pipe (`<(...)`, here a FIFO) is gone or empty when the advice is followed: the
        // command asks for the password instead (break28: `--password-file '/dev/fd/63'`)
        let fifo = dir.path().join("fifo");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        let piped = ConnectArgs {
            password_file: Some(fifo),
            ..c.clone()
        };
        let options = connection_options(&piped);
        assert!(!options.contains("--password-file"), "{options}");
        assert!(
            options.ends_with(" --user 'loadgen' --askpass"),
            "{options}"
        );
        let c = ConnectArgs {
            askpass: true,
            password_file: None,
            insecure: true,
            ..c
        };
        assert!(connection_options(&c).ends_with(" --insecure --user 'loadgen' --askpass"));
    }
}
