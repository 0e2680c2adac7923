//! `SlotTable::group_keys` against a real three-primary `redis-server` cluster: the slot ->
//! node map read from the servers' `CLUSTER SLOTS` with the `redis` crate, each key's slot
//! checked against the servers' `CLUSTER KEYSLOT`, keys written with `SET` and read back with
//! one `MGET` a slot, pipelined on plain connections to each node (no cluster client): no
//! `MOVED`, no `CROSSSLOT`, every value in the caller's order. A control `MGET` of two slots
//! is refused with `CROSSSLOT`, so the split is what makes the reads pass.
//!
//! Skips when `redis-server` is not installed, unless `SLOTGEN_REQUIRE_TOOLS=1`.

use slotgen_tables::{Placed, REDIS_CLUSTER};
use slotgen_tests::redis_server::{slot_owners, RedisCluster, RedisServer};
use slotgen_tests::require_tool;

/// The cluster's slot -> node map from `CLUSTER SLOTS`: the primaries' ports in the order
/// of their first slot, and for each slot the index of its primary in that list (`u16::MAX` for a
/// slot no node holds).
fn slot_map(node: &RedisServer) -> (Vec<u16>, Vec<u16>) {
    let mut ports: Vec<u16> = Vec::new();
    let mut node_of_slot = vec![u16::MAX; REDIS_CLUSTER.slots() as usize];
    for (slot, owner) in slot_owners(&mut node.connect()).iter().enumerate() {
        let Some((_, port)) = owner.rsplit_once(':') else {
            continue;
        };
        let port: u16 = port.parse().expect("a port");
        let index = match ports.iter().position(|&p| p == port) {
            Some(i) => i,
            None => {
                ports.push(port);
                ports.len() - 1
            }
        };
        node_of_slot[slot] = index as u16;
    }
    (ports, node_of_slot)
}

/// 600 keys: 40 groups of nine keys sharing a hashtag, plain keys, keys with an empty `{}`
/// (hashed whole) and with bytes outside ASCII; no two alike.
fn keys() -> Vec<Vec<u8>> {
    let mut keys = Vec::new();
    for i in 0..600u32 {
        let key = match i % 5 {
            0..=2 => format!("user:{{{}}}:field{i}", i / 15).into_bytes(),
            3 => format!("plain:{i}").into_bytes(),
            _ => {
                let mut k = format!("odd:{{}}{i}:").into_bytes();
                k.extend([0xff, 0x00, b'{', 0x80]);
                k
            }
        };
        keys.push(key);
    }
    keys
}

#[test]
fn mget_split_by_node_and_slot_reads_every_value_in_order() {
    if !require_tool("redis-server") {
        return;
    }
    let cluster = RedisCluster::start().unwrap_or_else(|e| panic!("starting the cluster: {e}"));
    let (ports, node_of_slot) = slot_map(&cluster.nodes[0]);
    assert_eq!(ports.len(), 3, "three primaries: {ports:?}");
    assert!(
        node_of_slot.iter().all(|&n| n != u16::MAX),
        "every slot held"
    );
    let node = |index: u16| -> &RedisServer {
        let port = ports[usize::from(index)];
        cluster
            .nodes
            .iter()
            .find(|n| n.port == port)
            .unwrap_or_else(|| panic!("no started node on port {port}"))
    };

    let keys = keys();
    let mut placed = vec![Placed::default(); keys.len()];
    let groups = REDIS_CLUSTER
        .group_keys(&keys, &node_of_slot, &mut placed)
        .expect("grouping");

    // Each key's slot is the server's.
    let server_slots = cluster.nodes[1].keyslots(&keys);
    for p in groups.as_slice() {
        let i = p.index as usize;
        assert_eq!(p.slot, server_slots[i], "slot of {:?}", keys[i]);
    }
    assert!(groups.slots().count() > 100, "keys over many slots");
    assert!(groups.slots().any(|g| g.keys.len() >= 9), "shared hashtags");

    // SET every key on its node, one pipeline a node: `OK` each, no MOVED.
    for group in groups.nodes() {
        let mut pipe = redis::pipe();
        for p in group.keys {
            pipe.cmd("SET")
                .arg(&keys[p.index as usize])
                .arg(format!("v{}", p.index))
                .ignore();
        }
        pipe.query::<()>(&mut node(group.node).connect())
            .unwrap_or_else(|e| panic!("SET on node {}: {e}", group.node));
    }

    // MGET: one a slot, pipelined on each node's connection; values back by index.
    let mut values: Vec<Option<String>> = vec![None; keys.len()];
    for group in groups.nodes() {
        let mut pipe = redis::pipe();
        for slot in group.slots() {
            let mut mget = redis::cmd("MGET");
            for i in slot.indices() {
                mget.arg(&keys[i]);
            }
            pipe.add_command(mget);
        }
        let replies: Vec<Vec<Option<String>>> = pipe
            .query(&mut node(group.node).connect())
            .unwrap_or_else(|e| panic!("MGET on node {}: {e}", group.node));
        assert_eq!(replies.len(), group.slots().count());
        for (slot, reply) in group.slots().zip(replies) {
            assert_eq!(reply.len(), slot.keys.len());
            for (i, value) in slot.indices().zip(reply) {
                values[i] = value;
            }
        }
    }
    for (i, value) in values.iter().enumerate() {
        assert_eq!(value.as_deref(), Some(format!("v{i}").as_str()), "key {i}");
    }

    // The control: one MGET over two slots of one node is refused.
    let two = groups
        .nodes()
        .flat_map(|n| {
            let mut slots = n.slots();
            Some((n.node, slots.next()?, slots.next()?))
        })
        .next()
        .expect("a node with two slots");
    let (index, a, b) = two;
    let refused = redis::cmd("MGET")
        .arg(&keys[a.keys[0].index as usize])
        .arg(&keys[b.keys[0].index as usize])
        .query::<Vec<Option<String>>>(&mut node(index).connect());
    let error = refused.expect_err("an MGET of two slots");
    // The server says `CROSSSLOT`; the `redis` crate names the kind `CrossSlot`.
    let said = error.to_string().to_ascii_uppercase();
    assert!(said.contains("CROSSSLOT"), "{error}");
}
