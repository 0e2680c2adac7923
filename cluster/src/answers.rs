//! Reading a node's answers: the shards of `CLUSTER SHARDS` and of `CLUSTER SLOTS`, the
//! migrations of `CLUSTER NODES`, the fields of `INFO`. Every answer is checked before use
//! (slots in `0..16384`, at most [`MAX_NODES`] nodes, strings of at most [`MAX_TEXT`] bytes);
//! a check that fails is a reason, for the caller to name the node and the command.

use std::collections::BTreeMap;

use redis::Value;

use super::node::{Node, Role};
use super::slot_range::{show_ranges, SlotRange};
use super::topology::{LeftOut, Migration, MigrationKind, Shard, Source, Topology};
use super::{Error, MAX_NODES, SLOTS};
use crate::text::escape_cut;

/// Node ids, hosts and other strings of an answer are at most this many bytes.
pub(super) const MAX_TEXT: usize = 1024;

/// The value of `name` in `INFO`-style `name:value` lines.
pub(super) fn info_field<'t>(text: &'t str, name: &str) -> Option<&'t str> {
    text.lines().find_map(|line| {
        let (key, value) = line.trim().split_once(':')?;
        (key == name).then_some(value)
    })
}

pub(super) fn info_has(text: &str, name: &str, value: &str) -> bool {
    info_field(text, name) == Some(value)
}

/// `host:port` or `[v6]:port`, split.
pub(super) fn split_addr(addr: &str) -> Option<(&str, u16)> {
    let (host, port) = addr.rsplit_once(':')?;
    let host = host
        .strip_prefix('[')
        .and_then(|h| h.strip_suffix(']'))
        .unwrap_or(host);
    Some((host, port.parse().ok()?))
}

/// A node id: 40 hex digits, as `CLUSTER MYID` gives it; `at` names the node (its address)
/// in the reason when the id is anything else.
pub(super) fn node_id(id: &str, at: &str) -> Result<String, String> {
    if id.len() == 40 && id.bytes().all(|b| b.is_ascii_hexdigit()) {
        Ok(id.to_owned())
    } else {
        Err(format!(
            "the node at {at} has id `{}`, not 40 hex digits",
            escape_cut(id.as_bytes())
        ))
    }
}

/// A host as a node gives it (`ip`, `endpoint`, `hostname`, or the first field of a
/// `CLUSTER SLOTS` entry): an IPv4 or IPv6 address (with a zone, `fe80::1%eth0`), or a
/// hostname by its rules (RFC 1123: labels of 1 to 63 letters, digits and `-`, neither
/// first nor last, split by `.`, 253 bytes at most, one final `.` allowed; `_` taken too,
/// as container names have it); anything else (`10.0.0.1:22`, `a..b`) is refused, naming
/// the node.
fn host_of(host: &str, node: &str) -> Result<String, String> {
    if is_host(host) {
        Ok(host.to_owned())
    } else {
        Err(format!(
            "node {node} has host `{}`, which is neither an IP address nor a hostname (labels of letters, digits and `-`, split by `.`)",
            escape_cut(host.as_bytes())
        ))
    }
}

/// Whether `host` is an IP address or a hostname, by [`host_of`]'s rule.
fn is_host(host: &str) -> bool {
    use std::net::{Ipv4Addr, Ipv6Addr};
    if host.parse::<Ipv4Addr>().is_ok() {
        return true;
    }
    let (ip, zone) = host.split_once('%').unwrap_or((host, ""));
    let zone_ok = |z: &str| {
        z.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b))
    };
    if ip.parse::<Ipv6Addr>().is_ok() && (host == ip || (!zone.is_empty() && zone_ok(zone))) {
        return true;
    }
    let name = host.strip_suffix('.').unwrap_or(host);
    let label = |l: &str| {
        (1..=63).contains(&l.len())
            && l.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
            && !l.starts_with('-')
            && !l.ends_with('-')
    };
    !name.is_empty() && name.len() <= 253 && name.split('.').all(label)
}

/// A port: a number in 1..65535; anything else is refused, naming the node.
fn port_of(value: Option<&Value>, node: &str) -> Result<u16, String> {
    let Some(value) = value else {
        return Err(format!("node {node} has no port"));
    };
    int(value)
        .and_then(|p| u16::try_from(p).ok())
        .filter(|&p| p > 0)
        .ok_or_else(|| {
            format!(
                "node {node} has port `{}`, not a number in 1..65535",
                shown(value)
            )
        })
}

/// A value of an answer as a message shows it: its text escaped and cut, or its kind.
fn shown(value: &Value) -> String {
    match value {
        Value::BulkString(bytes) => escape_cut(bytes),
        Value::SimpleString(s) | Value::VerbatimString { text: s, .. } => escape_cut(s.as_bytes()),
        Value::Int(n) => n.to_string(),
        Value::Nil => "nil".to_owned(),
        _ => "a value that is not text".to_owned(),
    }
}

/// The reason a node is left out of the map, when `health` (of `CLUSTER SHARDS`) or the
/// flags that the node asked gives it in `CLUSTER NODES` (`flagged`) say it failed: health
/// `fail` (Redis 7.0, Valkey 8.0) or `failed` (the documentation's word), flags `fail`,
/// `fail?` (suspected by the node asked) or `noaddr`; and whether the cluster agrees that it
/// failed ([`LeftOut::failed`]: the health, or the flag `fail`).
fn failed(id: &str, health: Option<&str>, flagged: &Flagged) -> Option<(String, bool)> {
    if let Some(h @ ("fail" | "failed")) = health {
        return Some((format!("`CLUSTER SHARDS` gives it health `{h}`"), true));
    }
    flagged.get(id).map(|flags| {
        (
            format!("the node asked flags it `{flags}` in `CLUSTER NODES`"),
            flags.split(',').any(|f| f == "fail"),
        )
    })
}

/// The nodes that the node asked flags as failed in its `CLUSTER NODES` (`fail`, `fail?`,
/// `noaddr`), by id, with those flags.
pub(super) type Flagged = BTreeMap<String, String>;

/// The ids of the nodes that a `CLUSTER NODES` answer flags `fail`, `fail?` or `noaddr`,
/// with those flags joined by commas. Every line's id must be 40 hex digits.
pub(super) fn parse_flags(text: &str) -> Result<Flagged, String> {
    let mut flagged = Flagged::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let words: Vec<&str> = line.split(' ').take(3).collect();
        let [id, addr, flags] = words[..] else {
            return Err(format!(
                "the line `{}` has no id, address and flags",
                escape_cut(line.as_bytes())
            ));
        };
        let id = node_id(id, &escape_cut(addr.as_bytes()))?;
        let bad: Vec<&str> = flags
            .split(',')
            .filter(|f| matches!(*f, "fail" | "fail?" | "noaddr"))
            .collect();
        if !bad.is_empty() {
            flagged.insert(id, bad.join(","));
        }
        if flagged.len() > MAX_NODES {
            return Err(format!("more than {MAX_NODES} nodes"));
        }
    }
    Ok(flagged)
}

fn join_addr(host: &str, port: u16) -> String {
    if host.contains(':') {
        format!("[{host}]:{port}")
    } else {
        format!("{host}:{port}")
    }
}

/// The text of a bulk, simple or verbatim string, or of an integer.
fn text(value: &Value) -> Option<String> {
    let s = match value {
        Value::BulkString(bytes) => String::from_utf8_lossy(bytes).into_owned(),
        Value::SimpleString(s) => s.clone(),
        Value::VerbatimString { text, .. } => text.clone(),
        Value::Int(n) => n.to_string(),
        Value::Okay => "OK".to_owned(),
        _ => return None,
    };
    (s.len() <= MAX_TEXT).then_some(s)
}

fn int(value: &Value) -> Option<i64> {
    match value {
        Value::Int(n) => Some(*n),
        other => text(other)?.parse().ok(),
    }
}

fn items(value: &Value) -> Option<&[Value]> {
    match value {
        Value::Array(items) | Value::Set(items) => Some(items),
        _ => None,
    }
}

/// The fields of a RESP3 map, or of a RESP2 array of alternating names and values.
fn fields(value: &Value) -> Result<Vec<(String, &Value)>, String> {
    match value {
        Value::Map(pairs) => pairs
            .iter()
            .map(|(k, v)| Ok((text(k).ok_or("a field name is not text")?, v)))
            .collect(),
        Value::Array(items) if items.len() % 2 == 0 => items
            .chunks_exact(2)
            .map(|pair| Ok((text(&pair[0]).ok_or("a field name is not text")?, &pair[1])))
            .collect(),
        _ => Err("a shard or node is not a map of fields".to_owned()),
    }
}

fn field<'v>(fields: &[(String, &'v Value)], name: &str) -> Option<&'v Value> {
    fields.iter().find(|(k, _)| k == name).map(|(_, v)| *v)
}

fn slot(value: &Value) -> Result<u16, String> {
    let last = SLOTS - 1;
    match int(value) {
        Some(n) => u16::try_from(n)
            .ok()
            .filter(|&n| n < SLOTS)
            .ok_or_else(|| format!("slot {n} is not in 0 to {last}")),
        None => Err(match text(value) {
            Some(t) => format!(
                "a slot is `{}`, not a number from 0 to {last}",
                escape_cut(t.as_bytes())
            ),
            None => format!("a slot is not a number from 0 to {last}"),
        }),
    }
}

fn range(first: &Value, last: &Value) -> Result<SlotRange, String> {
    let (first, last) = (slot(first)?, slot(last)?);
    if first > last {
        return Err(format!("slot range {first}-{last} runs backwards"));
    }
    Ok(SlotRange { first, last })
}

/// Sorts and merges ranges; overlapping ranges of one shard are an error.
pub(super) fn merge(mut ranges: Vec<SlotRange>) -> Result<Vec<SlotRange>, String> {
    ranges.sort();
    let mut merged: Vec<SlotRange> = Vec::with_capacity(ranges.len());
    for r in ranges {
        match merged.last_mut() {
            Some(last) if r.first <= last.last => {
                return Err(format!("slot ranges {last} and {r} overlap"));
            }
            Some(last) if u32::from(last.last) + 1 == u32::from(r.first) => last.last = r.last,
            _ => merged.push(r),
        }
    }
    Ok(merged)
}

/// The map of an answer: its shards, and the nodes left out of them.
pub(super) type Map = (Vec<Shard>, Vec<LeftOut>);

/// One shard of an answer, its nodes read: the failed ones go to `left_out`, the others make
/// the shard, which must have one primary when it owns slots.
fn shard_of(
    nodes: Vec<Node>,
    ranges: Vec<SlotRange>,
    flagged: &Flagged,
    left_out: &mut Vec<LeftOut>,
) -> Result<Option<Shard>, String> {
    let mut primaries = Vec::new();
    let mut replicas = Vec::new();
    let mut failed_primaries = Vec::new();
    for node in nodes {
        if let Some((reason, failed)) = failed(&node.id, node.health.as_deref(), flagged) {
            // After a failover, the replaced primary stays listed as a failed `master`:
            // in the new primary's shard (Valkey 8.0), or in a shard of its own without
            // slots (Redis 7.0), until it comes back as a replica.
            let out = LeftOut {
                node,
                ranges: Vec::new(),
                reason,
                failed,
                followers: Vec::new(),
            };
            match out.node.role {
                Role::Primary => failed_primaries.push(out),
                Role::Replica => left_out.push(out),
            }
            continue;
        }
        match node.role {
            Role::Primary => primaries.push(node),
            Role::Replica => replicas.push(node),
        }
    }
    // The slots are a failed primary's only when no other primary took them; so are the
    // shard's replicas, which still follow it.
    let replaced = !failed_primaries.is_empty();
    for mut out in failed_primaries {
        if primaries.is_empty() {
            out.ranges.clone_from(&ranges);
            out.followers = replicas.iter().map(|r| r.id.clone()).collect();
        }
        left_out.push(out);
    }
    if primaries.len() > 1 {
        return Err(format!(
            "a shard has {} primaries that are not failed: {}",
            primaries.len(),
            primaries
                .iter()
                .map(|p| format!("`{}`", p.id))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    match primaries.pop() {
        Some(primary) => Ok(Some(Shard {
            primary,
            replicas,
            ranges,
        })),
        None if !ranges.is_empty() && !replaced => Err(format!(
            "the shard of slots {} has no primary",
            show_ranges(&ranges)
        )),
        // A shard whose primary failed and no replica took over (yet): its slots are
        // served by no node.
        None => {
            for node in replicas {
                left_out.push(LeftOut {
                    node,
                    ranges: Vec::new(),
                    reason: "its shard has no primary".to_owned(),
                    failed: false,
                    followers: Vec::new(),
                });
            }
            Ok(None)
        }
    }
}

/// The shards of a `CLUSTER SHARDS` answer, and the nodes left out: those that it gives
/// health `fail` or `failed`, or that `flagged` names. Every node has an id of 40 hex
/// digits, a host that is an IP address or a hostname, and a port in 1..65535: read over
/// TLS (`tls`), each node at its `tls-port`, else its `port` (with `tls-cluster yes` Redis 7.0
/// and Valkey 8.0 give a node's TLS port as `tls-port`, and its plain port, when it has one,
/// as `port`); else at its `port`, else its `tls-port`.
pub(super) fn parse_shards(
    value: &Value,
    entry_host: &str,
    flagged: &Flagged,
    tls: bool,
) -> Result<Map, String> {
    let list = items(value).ok_or("the answer is not a list of shards")?;
    let mut shards = Vec::new();
    let mut left_out = Vec::new();
    let mut nodes_seen = 0usize;
    for shard in list {
        let shard = fields(shard)?;
        let slots = field(&shard, "slots").and_then(items).unwrap_or(&[]);
        if slots.len() % 2 != 0 || slots.len() > 2 * usize::from(SLOTS) {
            return Err("`slots` is not a list of first and last slots".to_owned());
        }
        let ranges = merge(
            slots
                .chunks_exact(2)
                .map(|p| range(&p[0], &p[1]))
                .collect::<Result<_, _>>()?,
        )?;
        let members = field(&shard, "nodes")
            .and_then(items)
            .ok_or("a shard has no `nodes` list")?;
        nodes_seen += members.len();
        if nodes_seen > MAX_NODES {
            return Err(format!("more than {MAX_NODES} nodes"));
        }
        let mut nodes = Vec::new();
        for member in members {
            let member = fields(member)?;
            let get = |name| field(&member, name).and_then(text);
            let id = get("id").unwrap_or_default();
            let named = format!("`{}`", escape_cut(id.as_bytes()));
            let host = match get("endpoint")
                .filter(|h| !h.is_empty() && h != "?")
                .or_else(|| get("ip").filter(|h| !h.is_empty() && h != "?"))
            {
                Some(host) => host_of(&host, &named)?,
                None => entry_host.to_owned(),
            };
            let (first, second) = if tls {
                ("tls-port", "port")
            } else {
                ("port", "tls-port")
            };
            let port = port_of(
                field(&member, first).or_else(|| field(&member, second)),
                &named,
            )?;
            let addr = join_addr(&host, port);
            let id = node_id(&id, &addr)?;
            let role = match get("role").as_deref() {
                Some("master" | "primary") => Role::Primary,
                Some("replica" | "slave") => Role::Replica,
                _ => {
                    return Err(format!(
                        "node `{id}` has role `{}`, neither `master` nor `replica`",
                        field(&member, "role").map_or_else(|| "nil".to_owned(), shown)
                    ))
                }
            };
            nodes.push(Node {
                id,
                addr,
                role,
                health: get("health"),
            });
        }
        shards.extend(shard_of(nodes, ranges, flagged, &mut left_out)?);
    }
    Ok((shards, left_out))
}

/// The availability zone of every node of a `CLUSTER SHARDS` answer that gives one (Valkey
/// 9.1's `availability-zone`, the server setting of that name; empty or absent elsewhere):
/// `(node id, zone)`, the zone as sent (its bytes not UTF-8 replaced by U+FFFD; escape it
/// before printing it, as a node's `health`), in the answer's order.
///
/// # Errors
///
/// What is wrong with the answer, as [`parse_shards`] finds it.
pub(super) fn parse_zones(value: &Value) -> Result<Vec<(String, String)>, String> {
    let list = items(value).ok_or("the answer is not a list of shards")?;
    let mut zones = Vec::new();
    for shard in list {
        let shard = fields(shard)?;
        let members = field(&shard, "nodes")
            .and_then(items)
            .ok_or("a shard has no `nodes` list")?;
        for member in members.iter().take(MAX_NODES) {
            let member = fields(member)?;
            let get = |name| field(&member, name).and_then(text);
            if let (Some(id), Some(zone)) = (get("id"), get("availability-zone")) {
                if !zone.is_empty() {
                    zones.push((node_id(&id, "CLUSTER SHARDS")?, zone));
                }
            }
        }
    }
    Ok(zones)
}

/// The shards of a `CLUSTER SLOTS` answer: `[first, last, [host, port, id, ...], replicas...]`
/// per range, grouped by primary; the nodes that `flagged` names are left out.
pub(super) fn parse_slots(
    value: &Value,
    entry_host: &str,
    flagged: &Flagged,
) -> Result<Map, String> {
    let list = items(value).ok_or("the answer is not a list of slot ranges")?;
    if list.len() > usize::from(SLOTS) {
        return Err("more slot ranges than slots".to_owned());
    }
    let mut by_primary: BTreeMap<String, (Node, Vec<Node>, Vec<SlotRange>)> = BTreeMap::new();
    let mut nodes_seen = 0usize;
    for entry in list {
        let entry = items(entry).ok_or("a slot range is not a list")?;
        if entry.len() < 3 {
            return Err("a slot range has no primary".to_owned());
        }
        nodes_seen += entry.len() - 2;
        if nodes_seen > MAX_NODES {
            return Err(format!("more than {MAX_NODES} nodes"));
        }
        let r = range(&entry[0], &entry[1])?;
        let node = |value: &Value, role| -> Result<Node, String> {
            let parts = items(value).ok_or("a node is not a list")?;
            let id = parts.get(2).and_then(text);
            let named = id.as_ref().map_or_else(
                || format!("of slots {r}"),
                |id| format!("`{}`", escape_cut(id.as_bytes())),
            );
            let host = match parts
                .first()
                .and_then(text)
                .filter(|h| !h.is_empty() && h != "?")
            {
                Some(host) => host_of(&host, &named)?,
                None => entry_host.to_owned(),
            };
            let port = port_of(parts.get(1), &named)?;
            let addr = join_addr(&host, port);
            Ok(Node {
                // a server older than Redis 4.0 gives no id: the address stands in for it
                id: match id {
                    Some(id) => node_id(&id, &addr)?,
                    None => addr.clone(),
                },
                addr,
                role,
                health: None,
            })
        };
        let primary = node(&entry[2], Role::Primary)?;
        let replicas = entry[3..]
            .iter()
            .map(|v| node(v, Role::Replica))
            .collect::<Result<Vec<_>, _>>()?;
        let (_, known, ranges) = by_primary
            .entry(primary.id.clone())
            .or_insert_with(|| (primary, Vec::new(), Vec::new()));
        for replica in replicas {
            if !known.iter().any(|n| n.id == replica.id) {
                known.push(replica);
            }
        }
        ranges.push(r);
    }
    let mut shards = Vec::new();
    let mut left_out = Vec::new();
    for (primary, replicas, ranges) in by_primary.into_values() {
        let nodes = std::iter::once(primary).chain(replicas).collect();
        shards.extend(shard_of(nodes, merge(ranges)?, flagged, &mut left_out)?);
    }
    Ok((shards, left_out))
}

/// The most nodes [`failing_nodes`] names; the others are counted.
const FAILING_SHOWN: usize = 8;

/// The nodes a `CLUSTER NODES` answer flags failing (`fail`, or `fail?`: not confirmed yet),
/// each as `id (address) flags`, escaped and cut, at most [`FAILING_SHOWN`] and the count of
/// the others: what a map in state `fail` says of why.
pub(super) fn failing_nodes(text: &str) -> Vec<String> {
    let failing: Vec<Vec<&str>> = text
        .lines()
        .map(|line| line.split(' ').collect::<Vec<_>>())
        .filter(|w| {
            w.get(2)
                .is_some_and(|flags| flags.split(',').any(|f| f == "fail" || f == "fail?"))
        })
        .collect();
    let mut out: Vec<String> = failing
        .iter()
        .take(FAILING_SHOWN)
        .map(|w| {
            let addr = w[1].split('@').next().unwrap_or_default();
            format!(
                "{} ({}) {}",
                escape_cut(w[0].as_bytes()),
                escape_cut(addr.as_bytes()),
                escape_cut(w[2].as_bytes())
            )
        })
        .collect();
    if failing.len() > FAILING_SHOWN {
        out.push(format!("{} more", failing.len() - FAILING_SHOWN));
    }
    out
}

/// The node that a `CLUSTER NODES` answer gives as the owner of `slot`, `id (addr)` (the
/// address without its bus port), escaped: the line whose slot ranges (the words from the
/// ninth, `a-b` or `a`; `[...]` migrations skipped) hold it. `None` where no line does.
pub(super) fn owner_in_nodes(text: &str, slot: u16) -> Option<String> {
    text.lines().find_map(|line| {
        let words: Vec<&str> = line.split(' ').collect();
        let holds = words.iter().skip(8).any(|w| {
            let (a, b) = w.split_once('-').unwrap_or((w, w));
            matches!((a.parse::<u16>(), b.parse::<u16>()), (Ok(a), Ok(b)) if (a..=b).contains(&slot))
        });
        let addr = words.get(1)?.split(['@', ',']).next().unwrap_or_default();
        holds.then(|| {
            format!(
                "{} ({})",
                escape_cut(words[0].as_bytes()),
                escape_cut(addr.as_bytes())
            )
        })
    })
}

/// The id of the `myself` node of a `CLUSTER NODES` answer, and the slots that node reports
/// migrating (`[slot->-peer]`) and importing (`[slot-<-peer]`). Ids are 40 hex digits.
pub(super) fn parse_nodes(text: &str) -> Result<(String, Vec<Migration>), String> {
    let line = text
        .lines()
        .find(|line| {
            line.split(' ')
                .nth(2)
                .is_some_and(|flags| flags.split(',').any(|f| f == "myself"))
        })
        .ok_or("no line is flagged `myself`")?;
    let words: Vec<&str> = line.split(' ').collect();
    let at = escape_cut(words[1].as_bytes());
    let myself = node_id(words[0], &at)?;
    let mut migrations = Vec::new();
    for word in words.iter().skip(8) {
        let Some(inner) = word.strip_prefix('[').and_then(|w| w.strip_suffix(']')) else {
            continue;
        };
        let (slot, kind, peer) = if let Some((slot, peer)) = inner.split_once("->-") {
            (slot, MigrationKind::Migrating, peer)
        } else if let Some((slot, peer)) = inner.split_once("-<-") {
            (slot, MigrationKind::Importing, peer)
        } else {
            return Err(format!(
                "`{}` is neither `[slot->-id]` nor `[slot-<-id]`",
                escape_cut(word.as_bytes())
            ));
        };
        let slot = slot
            .parse::<u16>()
            .ok()
            .filter(|&s| s < SLOTS)
            .ok_or_else(|| {
                format!(
                    "`{}`: the slot is not in 0 to {}",
                    escape_cut(word.as_bytes()),
                    SLOTS - 1
                )
            })?;
        if migrations.len() >= usize::from(SLOTS) {
            return Err("more migrations than slots".to_owned());
        }
        let peer = node_id(peer, &format!("the other end of slot {slot}"))?;
        migrations.push(Migration {
            slot,
            kind,
            node: myself.clone(),
            peer,
        });
    }
    Ok((myself, migrations))
}

// Reading a map from recorded answers (here, beside the readers of each answer), so that
// topology.rs, the map's types, imports neither the exchange nor the answers.
impl Topology {
    /// A topology from the answers of one node, without asking anything (for answers
    /// recorded elsewhere): `shards` is the value of `CLUSTER SHARDS`, `nodes` the text of
    /// `CLUSTER NODES` of each primary, the first of the node that answered `shards` (its
    /// flags leave failed nodes out, as [`fetch`](Self::fetch) does). `host` stands in for an
    /// empty or `?` endpoint (the node asked).
    ///
    /// # Errors
    ///
    /// [`Error::Malformed`] as [`fetch`](Self::fetch) checks the answers, with `url` as
    /// given.
    pub fn from_answers(
        url: &str,
        host: &str,
        shards: &Value,
        nodes: &[&str],
    ) -> Result<Topology, Error> {
        let malformed = |command: &'static str| {
            move |reason| Error::Malformed {
                url: url.to_owned(),
                command: command.to_owned(),
                reason,
            }
        };
        let flagged = match nodes.first() {
            Some(text) => parse_flags(text).map_err(malformed("CLUSTER NODES"))?,
            None => Flagged::new(),
        };
        let (shards, left_out) =
            parse_shards(shards, host, &flagged, false).map_err(malformed("CLUSTER SHARDS"))?;
        let mut topology = Topology {
            shards,
            left_out,
            migrations: Vec::new(),
            source: Source::ClusterShards,
        };
        topology
            .sort_and_check()
            .map_err(malformed("CLUSTER SHARDS"))?;
        for text in nodes {
            let (_, migrations) = parse_nodes(text).map_err(malformed("CLUSTER NODES"))?;
            topology.migrations.extend(migrations);
        }
        topology.sort_migrations();
        Ok(topology)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Hosts by their rules, not by their letters: `10.0.0.1:22` was shown as the address
    /// `[10.0.0.1:22]:7901` (break28), and `-`, `a..b` or a label of 300 letters passed.
    #[test]
    fn a_host_is_an_ip_address_or_a_hostname() {
        let label63 = "a".repeat(63);
        let long = vec!["a".repeat(50); 5].join(".");
        for good in [
            "10.0.0.1",
            "::1",
            "fe80::1%eth0",
            "2001:db8::7",
            "redis-0.redis.default.svc.cluster.local",
            "node_1",
            "host.",
            label63.as_str(),
        ] {
            assert!(is_host(good), "{good}");
        }
        let label64 = "a".repeat(64);
        for bad in [
            "10.0.0.1:22",
            "-",
            ".",
            "a..b",
            "-a.b",
            "a-.b",
            "%",
            "::1%",
            "1.2.3.4%x",
            "a b",
            label64.as_str(),
            long.as_str(),
        ] {
            assert!(!is_host(bad), "{bad}");
        }
        assert_eq!(long.len(), 254);
        let refused = host_of("10.0.0.1:22", "`a`").unwrap_err();
        assert!(
            refused.starts_with("node `a` has host `10.0.0.1:22`, which is neither"),
            "{refused}"
        );
    }
    use crate::{SlotRange, Topology};

    /// A node id of 40 hex digits, made of `c`.
    fn id(c: char) -> String {
        c.to_string().repeat(40)
    }

    /// The owner of a slot in a `CLUSTER NODES` answer: by its ranges (a single slot, a
    /// range), migrations skipped, the bus port and hostname cut from the address.
    #[test]
    fn the_owner_of_a_slot_is_read_from_cluster_nodes() {
        let text = format!(
            "{a} 127.0.0.1:7001@17001,host myself,master - 0 0 1 connected 0-99 [100->-{b}]\n{b} 127.0.0.1:7002@17002 master - 0 0 3 connected 100 101-200\n{c} 127.0.0.1:7003@17003 slave {a} 0 0 1 connected\n",
            a = id('a'),
            b = id('b'),
            c = id('c')
        );
        assert_eq!(
            owner_in_nodes(&text, 0).as_deref(),
            Some(format!("{} (127.0.0.1:7001)", id('a')).as_str())
        );
        assert_eq!(
            owner_in_nodes(&text, 100).as_deref(),
            Some(format!("{} (127.0.0.1:7002)", id('b')).as_str())
        );
        assert_eq!(
            owner_in_nodes(&text, 150).as_deref(),
            Some(format!("{} (127.0.0.1:7002)", id('b')).as_str())
        );
        assert_eq!(owner_in_nodes(&text, 201), None);
    }

    #[test]
    fn overlapping_ranges_are_refused() {
        assert!(merge(vec![
            SlotRange { first: 0, last: 5 },
            SlotRange { first: 5, last: 6 }
        ])
        .is_err());
    }

    #[test]
    fn failing_nodes_are_named_with_their_flags() {
        let a = "a".repeat(40);
        let b = "b".repeat(40);
        let c = "c".repeat(40);
        let text = format!(
            "{a} 127.0.0.1:7001@17001 myself,master - 0 0 1 connected 0-5460\n\
             {b} 127.0.0.1:7002@17002 master,fail - 1 1 2 connected 5461-10922\n\
             {c} 127.0.0.1:7003@17003 slave,fail? {b} 1 1 2 connected\n"
        );
        assert_eq!(
            failing_nodes(&text),
            [
                format!("{b} (127.0.0.1:7002) master,fail"),
                format!("{c} (127.0.0.1:7003) slave,fail?")
            ]
        );
        // a flag only like it (`nofailover`) is no failure; bytes from outside escaped
        let text = format!(
            "{a} 127.0.0.1:7001@1 slave,nofailover - 0 0 1 connected\n\
                            x\x1b 1:2@3 master,fail - 0 0 1 connected\n"
        );
        assert_eq!(failing_nodes(&text), [r"x\x1b (1:2) master,fail"]);
        let many: String = (0..10)
            .map(|i| format!("{i} 1:{i}@1 master,fail - 0 0 1 connected\n"))
            .collect();
        let named = failing_nodes(&many);
        assert_eq!(named.len(), FAILING_SHOWN + 1);
        assert_eq!(named[FAILING_SHOWN], "2 more");
    }

    #[test]
    fn nodes_lines_give_migrations_and_flags() {
        let (a, b, c) = (id('a'), id('b'), id('c'));
        let text = format!(
            "{a} 127.0.0.1:7000@17000 myself,master - 0 0 1 connected 0-5460 [5461-<-{b}] [10->-{c}]\n\
             {b} 127.0.0.1:7001@17001 master - 0 0 2 connected 5461-10922 [5461->-{a}]\n\
             {c} 127.0.0.1:7002@17002 master,fail? - 0 0 3 connected\n"
        );
        let (me, migrations) = parse_nodes(&text).unwrap();
        assert_eq!(me, a);
        assert_eq!(migrations.len(), 2);
        assert_eq!(migrations[0].slot, 5461);
        assert_eq!(migrations[0].kind, MigrationKind::Importing);
        assert_eq!(migrations[1].peer, c);
        assert_eq!(
            parse_flags(&text).unwrap(),
            Flagged::from([(c, "fail?".to_owned())])
        );
        assert!(parse_nodes("a b master").is_err());
        let bad_slot = format!("{a} h:1@2 myself,master - 0 0 1 connected [16384->-{b}]");
        assert!(parse_nodes(&bad_slot).is_err());
        // ids that are not 40 hex digits, named by the node's address, escaped
        let short = parse_nodes("a1 h:1@2 myself,master - 0 0 1 connected").unwrap_err();
        assert!(short.contains("the node at h:1@2 has id `a1`"), "{short}");
        let peer = format!("{a} h:1@2 myself,master - 0 0 1 connected [5->-x\x1by]");
        let e = parse_nodes(&peer).unwrap_err();
        assert!(e.contains(r"x\x1by") && !e.contains('\x1b'), "{e}");
        let e = parse_flags(&format!("{a}\t1 h:1@2 master\n")).unwrap_err();
        assert!(e.contains(r"\x09") && !e.contains('\t'), "{e}");
    }

    fn node(id: &str, role: &str, health: &str) -> Value {
        Value::Array(
            [
                ("id", Value::BulkString(id.as_bytes().to_vec())),
                ("port", Value::Int(7000)),
                ("ip", Value::BulkString(b"127.0.0.1".to_vec())),
                ("role", Value::BulkString(role.as_bytes().to_vec())),
                ("health", Value::BulkString(health.as_bytes().to_vec())),
            ]
            .into_iter()
            .flat_map(|(k, v)| [Value::BulkString(k.as_bytes().to_vec()), v])
            .collect(),
        )
    }

    fn shard(slots: Vec<i64>, nodes: Vec<Value>) -> Value {
        Value::Array(vec![
            Value::BulkString(b"slots".to_vec()),
            Value::Array(slots.into_iter().map(Value::Int).collect()),
            Value::BulkString(b"nodes".to_vec()),
            Value::Array(nodes),
        ])
    }

    #[test]
    fn bad_shards_are_refused() {
        let (a, b) = (id('a'), id('b'));
        let none = Flagged::new();
        let primary = || node(&a, "master", "online");
        let ok = Value::Array(vec![shard(vec![0, 9], vec![primary()])]);
        assert_eq!(
            parse_shards(&ok, "h", &none, false).unwrap().0[0].slot_count(),
            10
        );
        for bad in [
            Value::Array(vec![shard(vec![0, 16384], vec![primary()])]),
            Value::Array(vec![shard(vec![9, 0], vec![primary()])]),
            Value::Array(vec![shard(vec![0], vec![primary()])]),
            Value::Array(vec![shard(vec![0, 9], vec![node(&a, "replica", "online")])]),
            Value::Array(vec![shard(
                vec![0, 9],
                vec![primary(), node(&b, "master", "online")],
            )]),
            Value::Array(vec![shard(vec![0, 9], vec![node(&b, "replica", "online")])]),
            Value::Int(3),
        ] {
            assert!(parse_shards(&bad, "h", &none, false).is_err(), "{bad:?}");
        }
        let twice = Value::Array(vec![
            shard(vec![0, 9], vec![primary()]),
            shard(vec![9, 9], vec![node(&b, "master", "online")]),
        ]);
        assert!(Topology::from_answers("u", "h", &twice, &[]).is_err());
        // one id for two nodes: the map is refused, naming the id (issue 31)
        let mut other = node(&a, "master", "online");
        if let Value::Array(fields) = &mut other {
            fields[3] = Value::Int(7001);
        }
        let same_id = Value::Array(vec![
            shard(vec![0, 9], vec![primary()]),
            shard(vec![10, 19], vec![other]),
        ]);
        let e = Topology::from_answers("u", "h", &same_id, &[]).unwrap_err();
        assert!(
            e.to_string().contains(&format!(
                "node id `{a}` is given to two nodes, `127.0.0.1:7000` and `127.0.0.1:7001`, and an id names one node"
            )),
            "{e}"
        );
    }

    #[test]
    fn a_predicted_map_takes_the_owners_given() {
        let (a, b) = (id('a'), id('b'));
        let mut second = node(&b, "master", "online");
        if let Value::Array(fields) = &mut second {
            fields[3] = Value::Int(7001);
        }
        let map = Value::Array(vec![
            shard(vec![0, 8191], vec![node(&a, "master", "online")]),
            shard(vec![8192, 16383], vec![second]),
        ]);
        let topology = Topology::from_answers("u", "h", &map, &[]).unwrap();
        let mut owners = topology.owners();
        owners[5] = Some(1);
        owners[9000] = None;
        let after = topology.with_owners(&owners);
        assert_eq!(after.owners(), owners);
        assert_eq!(after.shards[0].primary, topology.shards[0].primary);
        assert_eq!(
            after.shards[1].ranges,
            [
                SlotRange { first: 5, last: 5 },
                SlotRange {
                    first: 8192,
                    last: 8999
                },
                SlotRange {
                    first: 9001,
                    last: 16383
                }
            ]
        );
        assert_eq!(
            after.unowned(),
            [SlotRange {
                first: 9000,
                last: 9000
            }]
        );
    }

    #[test]
    fn failed_nodes_are_left_out() {
        let (old, new, r, s) = (id('0'), id('1'), id('2'), id('3'));
        let none = Flagged::new();
        // Valkey 8.0 after a failover: the replaced primary, `fail`, in the new one's shard
        let valkey = Value::Array(vec![shard(
            vec![0, 9],
            vec![
                node(&old, "master", "fail"),
                node(&new, "master", "online"),
                node(&r, "replica", "loading"),
            ],
        )]);
        let (shards, left_out) = parse_shards(&valkey, "h", &none, false).unwrap();
        assert_eq!(shards[0].primary.id, new);
        assert_eq!(shards[0].replicas.len(), 1);
        assert!(!shards[0].replicas[0].serves());
        assert_eq!(left_out[0].node.id, old);
        assert_eq!(
            left_out[0].reason,
            "`CLUSTER SHARDS` gives it health `fail`"
        );
        // the slots are the new primary's
        assert!(left_out[0].ranges.is_empty());
        // Redis 7.0: the replaced primary in a shard of its own, without slots
        let redis = Value::Array(vec![
            shard(vec![], vec![node(&old, "master", "fail")]),
            shard(vec![0, 9], vec![node(&new, "master", "online")]),
        ]);
        let (shards, left_out) = parse_shards(&redis, "h", &none, false).unwrap();
        assert_eq!((shards.len(), left_out.len()), (1, 1));
        assert!(left_out[0].ranges.is_empty());
        // a replica the node asked suspects (`fail?`): left out by the flags
        let flagged = Flagged::from([(s.clone(), "fail?".to_owned())]);
        let suspect = Value::Array(vec![shard(
            vec![0, 9],
            vec![
                node(&new, "master", "online"),
                node(&s, "replica", "online"),
            ],
        )]);
        let (shards, left_out) = parse_shards(&suspect, "h", &flagged, false).unwrap();
        assert!(shards[0].replicas.is_empty());
        assert_eq!(
            left_out[0].reason,
            "the node asked flags it `fail?` in `CLUSTER NODES`"
        );
        // a failed primary that no replica replaced (a cluster that does not require full
        // coverage stays `ok`): left out with its slots, which no shard owns; its replica,
        // without a primary, too
        let alone = Value::Array(vec![shard(
            vec![0, 9],
            vec![node(&old, "master", "fail"), node(&r, "replica", "online")],
        )]);
        let (shards, left_out) = parse_shards(&alone, "h", &none, false).unwrap();
        assert!(shards.is_empty());
        assert_eq!(show_ranges(&left_out[0].ranges), "0-9");
        assert_eq!(left_out[1].reason, "its shard has no primary");
        assert!(!left_out[0].forgettable(), "it holds slots");
    }

    /// Which left-out node the cluster agrees failed, and who still follows it: a replaced
    /// primary can be forgotten; a suspected one (`fail?`) cannot; a failed primary without
    /// slots whose replica still follows it names that replica (it refuses to forget it).
    #[test]
    fn a_failed_node_without_slots_is_forgettable_and_names_its_followers() {
        let (old, new, r, s) = (id('0'), id('1'), id('2'), id('3'));
        let none = Flagged::new();
        let replaced = Value::Array(vec![
            shard(vec![], vec![node(&old, "master", "fail")]),
            shard(vec![0, 9], vec![node(&new, "master", "online")]),
        ]);
        let (_, left_out) = parse_shards(&replaced, "h", &none, false).unwrap();
        assert!(left_out[0].failed && left_out[0].forgettable());
        assert!(left_out[0].followers.is_empty());
        // by the flags of the node asked: `fail` agreed, `fail?` only suspected
        let online = Value::Array(vec![shard(
            vec![0, 9],
            vec![
                node(&new, "master", "online"),
                node(&s, "replica", "online"),
            ],
        )]);
        for (flags, agreed) in [("fail", true), ("fail?", false), ("noaddr", false)] {
            let flagged = Flagged::from([(s.clone(), flags.to_owned())]);
            let (_, left_out) = parse_shards(&online, "h", &flagged, false).unwrap();
            assert_eq!(left_out[0].forgettable(), agreed, "{flags}");
        }
        // a failed primary without slots, its replica still following it
        let followed = Value::Array(vec![
            shard(
                vec![],
                vec![node(&old, "master", "fail"), node(&r, "replica", "online")],
            ),
            shard(vec![0, 9], vec![node(&new, "master", "online")]),
        ]);
        let (shards, left_out) = parse_shards(&followed, "h", &none, false).unwrap();
        assert_eq!(shards.len(), 1);
        assert!(left_out[0].forgettable());
        assert_eq!(left_out[0].followers, std::slice::from_ref(&r));
        assert_eq!(left_out[1].node.id, r);
        assert!(!left_out[1].forgettable(), "it serves: no FORGET for it");
    }

    #[test]
    fn hostile_fields_are_refused_naming_the_node_escaped() {
        let a = id('a');
        let none = Flagged::new();
        let with = |name: &str, value: Value| {
            let Value::Array(mut fields) = node(&a, "master", "online") else {
                unreachable!()
            };
            let at = fields
                .chunks(2)
                .position(|p| p[0] == Value::BulkString(name.as_bytes().to_vec()));
            match at {
                Some(i) => fields[2 * i + 1] = value,
                None => fields.extend([Value::BulkString(name.as_bytes().to_vec()), value]),
            }
            Value::Array(vec![shard(vec![0, 16383], vec![Value::Array(fields)])])
        };
        let bulk = |s: &[u8]| Value::BulkString(s.to_vec());
        for (name, value, needle) in [
            (
                "id",
                bulk(b"a\tb\nc"),
                r"has id `a\x09b\x0ac`, not 40 hex digits",
            ),
            ("id", bulk(&[b'g'; 40]), "the node at 127.0.0.1:7000 has id"),
            ("endpoint", bulk(b"h\x1b[2J"), r"has host `h\x1b[2J`"),
            ("ip", bulk(b"10.0.0.1\tx"), r"has host `10.0.0.1\x09x`"),
            (
                "port",
                bulk(b"70\n00"),
                r"has port `70\x0a00`, not a number in 1..65535",
            ),
            ("port", Value::Int(0), "has port `0`"),
            ("port", Value::Int(65536), "has port `65536`"),
            ("role", bulk(b"boss\x1b"), r"has role `boss\x1b`"),
        ] {
            let reason = parse_shards(&with(name, value), "h", &none, false).unwrap_err();
            assert!(reason.contains(needle), "{name}: {reason}");
            assert!(!reason.bytes().any(|b| b.is_ascii_control()), "{reason:?}");
        }
        // a health slotgen does not know is kept, and not taken as serving
        let (shards, _) =
            parse_shards(&with("health", bulk(b"odd\x1b")), "h", &none, false).unwrap();
        assert_eq!(shards[0].primary.health.as_deref(), Some("odd\x1b"));
        assert!(!shards[0].primary.serves());
    }

    #[test]
    fn over_tls_a_node_is_at_its_tls_port() {
        // a node with both ports, as a server with `port` and `tls-port` gives it
        let node = Value::Array(
            [
                ("id", Value::BulkString(id('a').into_bytes())),
                ("port", Value::Int(7000)),
                ("tls-port", Value::Int(7100)),
                ("ip", Value::BulkString(b"127.0.0.1".to_vec())),
                ("role", Value::BulkString(b"master".to_vec())),
            ]
            .into_iter()
            .flat_map(|(k, v)| [Value::BulkString(k.as_bytes().to_vec()), v])
            .collect(),
        );
        let shards = Value::Array(vec![Value::Array(vec![
            Value::BulkString(b"slots".to_vec()),
            Value::Array(vec![Value::Int(0), Value::Int(16383)]),
            Value::BulkString(b"nodes".to_vec()),
            Value::Array(vec![node]),
        ])]);
        let addr = |tls| {
            parse_shards(&shards, "h", &Flagged::new(), tls).unwrap().0[0]
                .primary
                .addr
                .clone()
        };
        assert_eq!(addr(false), "127.0.0.1:7000");
        assert_eq!(addr(true), "127.0.0.1:7100");
    }
}
