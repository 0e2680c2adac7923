//! Reading a node's answers: the shards of `CLUSTER SHARDS` and of `CLUSTER SLOTS`, the
//! migrations of `CLUSTER NODES`, the fields of `INFO`. Every answer is checked before use
//! (slots in `0..16384`, at most [`MAX_NODES`] nodes, strings of at most [`MAX_TEXT`] bytes);
//! a check that fails is a reason, for the caller to name the node and the command.

use std::collections::BTreeMap;

use redis::Value;

use super::topology::{show_ranges, Migration, MigrationKind, Node, Role, Shard, SlotRange};
use super::{MAX_NODES, SLOTS};

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
    int(value)
        .and_then(|n| u16::try_from(n).ok())
        .filter(|&n| n < SLOTS)
        .ok_or_else(|| format!("slot {value:?} is not in 0..{}", super::SLOTS))
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

/// The shards of a `CLUSTER SHARDS` answer, each node at its `port` (else its `tls-port`).
pub(super) fn parse_shards(value: &Value, entry_host: &str) -> Result<Vec<Shard>, String> {
    parse_shards_over(value, entry_host, false)
}

/// The shards of a `CLUSTER SHARDS` answer read over TLS (`tls`: each node at its
/// `tls-port`, else its `port`; with `tls-cluster yes` Redis 7.0 and Valkey 8.0 give a node's
/// TLS port as `tls-port`, and its plain port, when it has one, as `port`) or not.
pub(super) fn parse_shards_over(
    value: &Value,
    entry_host: &str,
    tls: bool,
) -> Result<Vec<Shard>, String> {
    let list = items(value).ok_or("the answer is not a list of shards")?;
    let mut shards = Vec::new();
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
        let mut primaries = Vec::new();
        let mut replicas = Vec::new();
        for member in members {
            let member = fields(member)?;
            let get = |name| field(&member, name).and_then(text);
            let id = get("id")
                .filter(|id| !id.is_empty())
                .ok_or("a node has no `id`")?;
            let host = get("endpoint")
                .filter(|h| !h.is_empty() && h != "?")
                .or_else(|| get("ip").filter(|h| !h.is_empty() && h != "?"))
                .unwrap_or_else(|| entry_host.to_owned());
            let (first, second) = if tls {
                ("tls-port", "port")
            } else {
                ("port", "tls-port")
            };
            let port = field(&member, first)
                .or_else(|| field(&member, second))
                .and_then(int)
                .and_then(|p| u16::try_from(p).ok())
                .ok_or_else(|| format!("node `{id}` has no port"))?;
            let role = match get("role").as_deref() {
                Some("master") | Some("primary") => Role::Primary,
                Some("replica") | Some("slave") => Role::Replica,
                other => return Err(format!("node `{id}` has role {other:?}")),
            };
            let node = Node {
                id,
                addr: join_addr(&host, port),
                role,
                health: get("health"),
            };
            match role {
                Role::Primary => primaries.push(node),
                Role::Replica => replicas.push(node),
            }
        }
        // After a failover, the replaced primary stays listed as a failed `master` of the
        // shard until it comes back as a replica: it is left out.
        if primaries.len() > 1 {
            primaries.retain(|p| p.health.as_deref() != Some("failed"));
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
        let primary = primaries.pop();
        match primary {
            Some(primary) => shards.push(Shard {
                primary,
                replicas,
                ranges,
            }),
            // A shard whose primary failed and no replica took over yet.
            None if !ranges.is_empty() => {
                return Err(format!(
                    "the shard of slots {} has no primary (a failover in progress?); try again when it has one",
                    show_ranges(&ranges)
                ));
            }
            None => {}
        }
    }
    Ok(shards)
}

/// The shards of a `CLUSTER SLOTS` answer: `[first, last, [host, port, id, ...], replicas...]`
/// per range, grouped by primary.
pub(super) fn parse_slots(value: &Value, entry_host: &str) -> Result<Vec<Shard>, String> {
    let list = items(value).ok_or("the answer is not a list of slot ranges")?;
    if list.len() > usize::from(SLOTS) {
        return Err("more slot ranges than slots".to_owned());
    }
    let mut by_primary: BTreeMap<String, (Shard, Vec<SlotRange>)> = BTreeMap::new();
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
            let host = parts
                .first()
                .and_then(text)
                .filter(|h| !h.is_empty() && h != "?")
                .unwrap_or_else(|| entry_host.to_owned());
            let port = parts
                .get(1)
                .and_then(int)
                .and_then(|p| u16::try_from(p).ok())
                .ok_or("a node has no port")?;
            let addr = join_addr(&host, port);
            Ok(Node {
                id: parts.get(2).and_then(text).unwrap_or_else(|| addr.clone()),
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
        let slot_ranges = &mut by_primary.entry(primary.id.clone()).or_insert_with(|| {
            (
                Shard {
                    primary,
                    replicas: Vec::new(),
                    ranges: Vec::new(),
                },
                Vec::new(),
            )
        });
        for replica in replicas {
            if !slot_ranges.0.replicas.iter().any(|n| n.id == replica.id) {
                slot_ranges.0.replicas.push(replica);
            }
        }
        slot_ranges.1.push(r);
    }
    by_primary
        .into_values()
        .map(|(mut shard, ranges)| {
            shard.ranges = merge(ranges)?;
            Ok(shard)
        })
        .collect()
}

/// The id of the `myself` node of a `CLUSTER NODES` answer, and the slots that node reports
/// migrating (`[slot->-peer]`) and importing (`[slot-<-peer]`).
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
    let myself = words[0].to_owned();
    if myself.is_empty() || myself.len() > MAX_TEXT {
        return Err("the `myself` line has no node id".to_owned());
    }
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
                "`{word}` is neither `[slot->-id]` nor `[slot-<-id]`"
            ));
        };
        let slot = slot
            .parse::<u16>()
            .ok()
            .filter(|&s| s < SLOTS)
            .ok_or_else(|| format!("`{word}`: the slot is not in 0..{}", super::SLOTS))?;
        if migrations.len() >= usize::from(SLOTS) {
            return Err("more migrations than slots".to_owned());
        }
        migrations.push(Migration {
            slot,
            kind,
            node: myself.clone(),
            peer: peer.to_owned(),
        });
    }
    Ok((myself, migrations))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::Topology;

    #[test]
    fn overlapping_ranges_are_refused() {
        assert!(merge(vec![
            SlotRange { first: 0, last: 5 },
            SlotRange { first: 5, last: 6 }
        ])
        .is_err());
    }

    #[test]
    fn nodes_lines_give_migrations() {
        let text = "a1 127.0.0.1:7000@17000 myself,master - 0 0 1 connected 0-5460 [5461-<-b2] [10->-c3]\n\
                    b2 127.0.0.1:7001@17001 master - 0 0 2 connected 5461-10922 [5461->-a1]\n";
        let (me, migrations) = parse_nodes(text).unwrap();
        assert_eq!(me, "a1");
        assert_eq!(migrations.len(), 2);
        assert_eq!(migrations[0].slot, 5461);
        assert_eq!(migrations[0].kind, MigrationKind::Importing);
        assert_eq!(migrations[1].peer, "c3");
        assert!(parse_nodes("a b master").is_err());
        assert!(parse_nodes("a h:1@2 myself,master - 0 0 1 connected [16384->-b]").is_err());
    }

    #[test]
    fn bad_shards_are_refused() {
        let node = |id: &str, role: &str| {
            Value::Array(vec![
                Value::BulkString(b"id".to_vec()),
                Value::BulkString(id.as_bytes().to_vec()),
                Value::BulkString(b"port".to_vec()),
                Value::Int(7000),
                Value::BulkString(b"ip".to_vec()),
                Value::BulkString(b"127.0.0.1".to_vec()),
                Value::BulkString(b"role".to_vec()),
                Value::BulkString(role.as_bytes().to_vec()),
            ])
        };
        let shard = |slots: Vec<i64>, nodes: Vec<Value>| {
            Value::Array(vec![
                Value::BulkString(b"slots".to_vec()),
                Value::Array(slots.into_iter().map(Value::Int).collect()),
                Value::BulkString(b"nodes".to_vec()),
                Value::Array(nodes),
            ])
        };
        let ok = Value::Array(vec![shard(vec![0, 9], vec![node("a", "master")])]);
        assert_eq!(parse_shards(&ok, "h").unwrap()[0].slot_count(), 10);
        for bad in [
            Value::Array(vec![shard(vec![0, 16384], vec![node("a", "master")])]),
            Value::Array(vec![shard(vec![9, 0], vec![node("a", "master")])]),
            Value::Array(vec![shard(vec![0], vec![node("a", "master")])]),
            Value::Array(vec![shard(vec![0, 9], vec![node("a", "replica")])]),
            Value::Array(vec![shard(
                vec![0, 9],
                vec![node("a", "master"), node("b", "master")],
            )]),
            Value::Int(3),
        ] {
            assert!(parse_shards(&bad, "h").is_err(), "{bad:?}");
        }
        // a replaced primary, failed, beside the new one: left out
        let failed = |id: &str| {
            let Value::Array(mut fields) = node(id, "master") else {
                unreachable!()
            };
            fields.push(Value::BulkString(b"health".to_vec()));
            fields.push(Value::BulkString(b"failed".to_vec()));
            Value::Array(fields)
        };
        let failover = Value::Array(vec![shard(
            vec![0, 9],
            vec![failed("old"), node("new", "master"), node("r", "replica")],
        )]);
        let shards = parse_shards(&failover, "h").unwrap();
        assert_eq!(shards[0].primary.id, "new");
        assert_eq!(shards[0].replicas.len(), 1);
        let twice = Value::Array(vec![
            shard(vec![0, 9], vec![node("a", "master")]),
            shard(vec![9, 9], vec![node("b", "master")]),
        ]);
        assert!(Topology::from_answers("u", "h", &twice, &[]).is_err());
    }

    #[test]
    fn over_tls_a_node_is_at_its_tls_port() {
        // a node with both ports, as a server with `port` and `tls-port` gives it
        let node = Value::Array(
            [
                ("id", Value::BulkString(b"a".to_vec())),
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
            parse_shards_over(&shards, "h", tls).unwrap()[0]
                .primary
                .addr
                .clone()
        };
        assert_eq!(addr(false), "127.0.0.1:7000");
        assert_eq!(addr(true), "127.0.0.1:7100");
    }
}
