//! slotgen against a real `redis-server`: its `CLUSTER KEYSLOT` answers for every slot's
//! tags, the committed vectors and random binary keys, and a three-master cluster that must
//! take every key made by `key_for_slot` without a MOVED.
//!
//! Each test starts its own servers (see `slotgen_tests::redis_server`) and skips when
//! `redis-server` is not installed, unless `SLOTGEN_REQUIRE_TOOLS=1`.

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use redis::ConnectionLike;
use slotgen_tables::REDIS_CLUSTER;
use slotgen_tests::redis_server::{RedisCluster, RedisServer, RANGES};
use slotgen_tests::require_tool;

fn server() -> Option<RedisServer> {
    require_tool("redis-server")
        .then(|| RedisServer::start(true).unwrap_or_else(|e| panic!("starting redis-server: {e}")))
}

#[test]
fn every_tag_of_every_slot_lands_there_by_cluster_keyslot() {
    let Some(server) = server() else { return };
    let mut tags = Vec::new();
    let mut slots = Vec::new();
    for slot in 0..16384u16 {
        for tag in REDIS_CLUSTER.tags_for_slot(slot).unwrap() {
            tags.push(tag.as_ref().to_vec());
            slots.push(slot);
        }
        // the canonical tag, inside a key
        tags.push(
            REDIS_CLUSTER
                .key_for_slot(b"user:", slot, b":profile")
                .unwrap(),
        );
        slots.push(slot);
    }
    assert_eq!(tags.len(), 16384 * 5);
    let answers = server.keyslots(&tags);
    let wrong: Vec<_> = (0..tags.len())
        .filter(|&i| answers[i] != slots[i])
        .map(|i| {
            (
                slots[i],
                String::from_utf8_lossy(&tags[i]).into_owned(),
                answers[i],
            )
        })
        .take(20)
        .collect();
    assert!(wrong.is_empty(), "(slot, tag, server's slot): {wrong:?}");
}

#[test]
fn committed_vectors_agree_with_the_server_and_the_runtime() {
    let Some(server) = server() else { return };
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/data");
    let mut rows = Vec::new();
    for entry in std::fs::read_dir(data).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "tsv") {
            let text = std::fs::read_to_string(&path).unwrap();
            for line in text
                .lines()
                .filter(|l| !l.starts_with('#') && !l.is_empty())
            {
                let mut fields = line.split('\t');
                let key = hex::decode(fields.next().unwrap()).unwrap();
                let slot: u16 = fields.next().unwrap().parse().unwrap();
                rows.push((path.clone(), key, slot));
            }
        }
    }
    assert!(rows.len() >= 400, "{} rows", rows.len());
    let keys: Vec<&[u8]> = rows.iter().map(|(_, key, _)| key.as_slice()).collect();
    let answers = server.keyslots(&keys);
    for ((path, key, slot), answer) in rows.iter().zip(answers) {
        let key_hex = hex::encode(key);
        assert_eq!(answer, *slot, "server, {key_hex} of {}", path.display());
        assert_eq!(REDIS_CLUSTER.key_slot(key), *slot, "runtime, {key_hex}");
    }
}

/// 10,000 binary keys of 0 to 24 bytes, a quarter of the bytes braces, from a fixed seed.
fn random_keys() -> Vec<Vec<u8>> {
    let mut rng = StdRng::seed_from_u64(0x5107_6e11);
    (0..10_000)
        .map(|_| {
            let len = rng.random_range(0..=24);
            (0..len)
                .map(|_| match rng.random_range(0..8) {
                    0 => b'{',
                    1 => b'}',
                    _ => rng.random::<u8>(),
                })
                .collect()
        })
        .collect()
}

#[test]
fn random_binary_keys_with_braces_agree_with_the_server() {
    let Some(server) = server() else { return };
    let keys = random_keys();
    // the keys exercise the hashtag rule: many have a non-empty tag, many an empty one
    let tagged = keys
        .iter()
        .filter(|k| slotgen_tables::hashtag(k).len() < k.len())
        .count();
    assert!(
        (2000..8000).contains(&tagged),
        "{tagged} keys with a hashtag"
    );
    let answers = server.keyslots(&keys);
    for (key, answer) in keys.iter().zip(answers) {
        assert_eq!(
            REDIS_CLUSTER.key_slot(key),
            answer,
            "key {}",
            hex::encode(key)
        );
    }
}

#[test]
fn a_server_without_cluster_mode_refuses_cluster_keyslot() {
    let Some(_) = server() else { return };
    let plain = RedisServer::start(false).unwrap();
    let refused = redis::cmd("CLUSTER")
        .arg("KEYSLOT")
        .arg("x")
        .query::<u16>(&mut plain.connect());
    assert!(refused.is_err(), "{refused:?}");
}

#[test]
fn three_masters_take_a_key_for_every_slot_without_moved() {
    if !require_tool("redis-server") {
        return;
    }
    let cluster = RedisCluster::start().unwrap_or_else(|e| panic!("starting the cluster: {e}"));
    for (node, &(first, last)) in cluster.nodes.iter().zip(&RANGES) {
        let slots: Vec<u16> = (first..=last).collect();
        assert!(slots.iter().all(|&s| std::ptr::eq(cluster.owner(s), node)));
        let mut con = node.connect();
        let mut writes = redis::pipe();
        for &slot in &slots {
            let key = REDIS_CLUSTER
                .key_for_slot(b"slotgen:", slot, b":owner")
                .unwrap();
            writes.cmd("SET").arg(key).arg(slot);
        }
        let answers = con
            .req_packed_commands(&writes.get_packed_pipeline(), 0, slots.len())
            .unwrap();
        assert_eq!(answers.len(), slots.len());
        let refused: Vec<_> = slots
            .iter()
            .zip(&answers)
            .filter(|(_, a)| !matches!(a, redis::Value::Okay))
            .take(20)
            .collect();
        assert!(
            refused.is_empty(),
            "(slot, answer), MOVED or worse: {refused:?}"
        );
        // and each key sits in its own slot, not merely on the right master
        let mut counts = redis::pipe();
        for &slot in &slots {
            counts.cmd("CLUSTER").arg("COUNTKEYSINSLOT").arg(slot);
        }
        let counts: Vec<u64> = counts.query(&mut con).unwrap();
        let wrong: Vec<_> = slots
            .iter()
            .zip(&counts)
            .filter(|&(_, &c)| c != 1)
            .take(20)
            .collect();
        assert!(wrong.is_empty(), "(slot, keys in it): {wrong:?}");
        let size: u64 = redis::cmd("DBSIZE").query(&mut con).unwrap();
        assert_eq!(size, slots.len() as u64);
    }
    // a key sent to a master that does not own its slot is answered with MOVED: the check
    // above can fail
    let key = REDIS_CLUSTER
        .key_for_slot(b"slotgen:", 0, b":elsewhere")
        .unwrap();
    let moved = redis::cmd("SET")
        .arg(key)
        .arg(0)
        .query::<()>(&mut cluster.nodes[2].connect())
        .unwrap_err();
    assert_eq!(moved.code(), Some("MOVED"), "{moved}");
}
