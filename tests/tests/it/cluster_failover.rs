//! `slotgen nodes`, `keys` and `placement` through a failover, against live clusters of three
//! primaries and three replicas of `redis-server` and of `valkey-server` started here with a
//! node timeout of 1 s (`cluster-replica-validity-factor 0`: a replica always may take over).
//! A primary is stopped by its own process id; at once (before the cluster marks it failed)
//! a command either fails with one line naming it or answers from a map without it, and once
//! its replica is promoted and the cluster is `ok`, the commands answer from the new map,
//! with the stopped node left out and named on stderr.
//!
//! What the output is compared with comes from the servers: `CLUSTER MYID` of every node,
//! `INFO replication` for its role, `CLUSTER KEYSLOT` for each key's slot, and `SET` on a
//! plain connection to the node a key names (a MOVED would fail it).

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

use crate::cluster_live::{keyslots, map_rows, plain, slotgen, wait_all_online, Run};
use slotgen_tests::live::{self, Server};
use slotgen_tests::redis_server::{RedisServer, ReplicatedCluster, RANGES};

#[test]
fn a_redis_server_cluster_fails_over() {
    if let Some(cluster) = live::cluster(Server::Redis, 1, None, &live::FAILOVER_OPTIONS) {
        failover(cluster);
    }
}

#[test]
fn a_valkey_server_cluster_fails_over() {
    if let Some(cluster) = live::cluster(Server::Valkey, 1, None, &live::FAILOVER_OPTIONS) {
        failover(cluster);
    }
}

/// `INFO replication`'s `role`: `master` or `slave`.
fn role(node: &RedisServer) -> String {
    node.info("replication")
        .lines()
        .find_map(|l| l.trim().strip_prefix("role:").map(str::to_owned))
        .unwrap_or_default()
}

/// Waits (60 s at most) until `settled` holds for every node of `nodes`.
fn wait_for(what: &str, nodes: &[&RedisServer], settled: impl Fn(&RedisServer) -> bool) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while !nodes.iter().all(|n| settled(n)) {
        assert!(Instant::now() < deadline, "not within 60 s: {what}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Exit 1 with one line naming the stopped node, or exit 0 with no row that names it: never
/// a row for a node that is gone.
fn gone_or_left_out(run: &Run, dead_id: &str, dead_addr: &str) {
    match run.code {
        Some(1) => {
            assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
            assert!(run.stdout.is_empty(), "{}", run.stdout);
            assert!(
                run.stderr.contains(dead_addr) || run.stderr.contains("state `fail`"),
                "{}",
                run.stderr
            );
        }
        Some(0) => {
            assert!(
                !run.stdout.contains(dead_id) && !run.stdout.contains(dead_addr),
                "{}",
                run.stdout
            );
            assert!(run.stderr.contains(dead_id), "{}", run.stderr);
        }
        other => panic!("exit {other:?}: {}{}", run.stdout, run.stderr),
    }
}

fn failover(mut cluster: ReplicatedCluster) {
    // a write on every shard, so that every replica's offset moves from 0 (`online`): a key
    // whose slot, by the server's CLUSTER KEYSLOT, is the shard's
    for (primary, &(first, last)) in cluster.primaries.iter().zip(&RANGES) {
        let mut con = primary.connect();
        let key = (0..)
            .map(|n| format!("warm:{n}"))
            .find(|key| {
                let slot: u16 = redis::cmd("CLUSTER")
                    .arg("KEYSLOT")
                    .arg(key)
                    .query(&mut con)
                    .unwrap();
                (first..=last).contains(&slot)
            })
            .unwrap();
        redis::cmd("SET")
            .arg(&key)
            .arg(1)
            .query::<()>(&mut con)
            .unwrap();
        let acked: i64 = redis::cmd("WAIT")
            .arg(1)
            .arg(10_000)
            .query(&mut con)
            .unwrap();
        assert_eq!(acked, 1);
    }
    // and the node asked has heard of every replica's new offset
    wait_all_online(&mut cluster.primaries[1].connect());
    let url = format!("redis://127.0.0.1:{}", cluster.primaries[1].port);
    let dead_id = cluster.primaries[0].node_id();
    let dead_addr = format!("127.0.0.1:{}", cluster.primaries[0].port);
    let heir_id = cluster.replicas[0][0].node_id();

    // --- the primary of slots 0-5460 stops; at once, the map still names it
    cluster.primaries[0].stop();
    let at_once = slotgen(&["nodes", "--redis", &url], b"");
    gone_or_left_out(&at_once, &dead_id, &dead_addr);
    let keys_at_once = slotgen(&["keys", "--redis", &url, "--per-node", "5"], b"");
    gone_or_left_out(&keys_at_once, &dead_id, &dead_addr);

    // --- its replica takes over, and every live node says `cluster_state:ok`
    let live: Vec<&RedisServer> = cluster.primaries[1..]
        .iter()
        .chain(cluster.replicas.iter().flatten())
        .collect();
    wait_for("the replica is promoted", &[&cluster.replicas[0][0]], |n| {
        role(n) == "master"
    });
    wait_for(
        "the cluster is ok, the stopped node marked fail",
        &live,
        |n| {
            let nodes = n.cluster_nodes();
            n.info("cluster").contains("cluster_enabled:1")
                && redis::cmd("CLUSTER")
                    .arg("INFO")
                    .query::<String>(&mut n.connect())
                    .is_ok_and(|i| i.contains("cluster_state:ok"))
                && nodes.lines().any(|l| {
                    l.starts_with(&dead_id)
                        && l.split(' ')
                            .nth(2)
                            .is_some_and(|f| f.split(',').any(|f| f == "fail"))
                })
        },
    );

    // --- nodes: the five live nodes, by their own CLUSTER MYID and INFO replication role;
    // the stopped one named on stderr, left out
    let nodes = slotgen(&["nodes", "--redis", &url], b"");
    let rows = map_rows(&nodes);
    let expected: BTreeMap<String, (String, &str)> = live
        .iter()
        .map(|n| {
            let role = if role(n) == "master" {
                "primary"
            } else {
                "replica"
            };
            (n.node_id(), (format!("127.0.0.1:{}", n.port), role))
        })
        .collect();
    let got: BTreeMap<String, (String, &str)> = rows
        .iter()
        .map(|r| (r[0].clone(), (r[1].clone(), r[2].as_str())))
        .collect();
    assert_eq!(got, expected, "{}", nodes.stdout);
    assert_eq!(rows.len(), 5);
    let heir = rows.iter().find(|r| r[0] == heir_id).unwrap();
    assert_eq!(heir[2..], ["primary", "5461", "0-5460"]);
    assert!(
        nodes
            .stderr
            .contains(&format!("primary {dead_id} ({dead_addr}) is left out"))
            && nodes.stderr.contains("health `fail`")
            && nodes.stderr.lines().count() == 1,
        "{}",
        nodes.stderr
    );
    let json: serde_json::Value =
        serde_json::from_str(slotgen(&["nodes", "--redis", &url, "--format", "json"], b"").ok())
            .unwrap();
    assert_eq!(json["left_out"][0]["node"]["id"], dead_id.as_str());
    assert_eq!(json["left_out"][0]["node"]["health"], "fail");

    // --- keys: every key on the node it names (no MOVED), its slot by CLUSTER KEYSLOT
    let keys = slotgen(&["keys", "--redis", &url, "--per-node", "20"], b"");
    let primaries: BTreeSet<String> = live
        .iter()
        .filter(|n| role(n) == "master")
        .map(|n| n.node_id())
        .collect();
    let mut by_node: BTreeMap<String, Vec<(String, u16, String)>> = BTreeMap::new();
    for row in keys.rows() {
        by_node.entry(row[0].clone()).or_default().push((
            row[1].clone(),
            row[2].parse().unwrap(),
            row[3].clone(),
        ));
    }
    assert_eq!(by_node.keys().cloned().collect::<BTreeSet<_>>(), primaries);
    for rows in by_node.values() {
        assert_eq!(rows.len(), 20);
        let mut con = plain(&rows[0].0, None);
        for (_, _, key) in rows {
            redis::cmd("SET")
                .arg(key)
                .arg(1)
                .query::<()>(&mut con)
                .unwrap_or_else(|e| panic!("SET {key} on {}: {e}", rows[0].0));
        }
        let names: Vec<&str> = rows.iter().map(|r| r.2.as_str()).collect();
        let slots = keyslots(&mut con, &names);
        assert_eq!(rows.iter().map(|r| r.1).collect::<Vec<_>>(), slots);
    }

    // --- keys --role replica: the shard of the promoted replica has none left, and says so
    let replica_keys = slotgen(
        &[
            "keys",
            "--redis",
            &url,
            "--per-node",
            "3",
            "--role",
            "replica",
        ],
        b"",
    );
    let replicas: BTreeSet<String> = live
        .iter()
        .filter(|n| role(n) == "slave")
        .map(|n| n.node_id())
        .collect();
    let named: BTreeSet<String> = replica_keys.rows().iter().map(|r| r[0].clone()).collect();
    assert_eq!(named, replicas);
    assert!(
        replica_keys
            .stderr
            .contains(&format!("no replica serves the slots 0-5460 of {heir_id}")),
        "{}",
        replica_keys.stderr
    );

    // --- placement: the keys above counted on the nodes that hold them
    let stdin: String = by_node
        .values()
        .flatten()
        .map(|(_, _, key)| format!("{key}\n"))
        .collect();
    let placement = slotgen(&["placement", "--redis", &url], stdin.as_bytes());
    for row in placement.rows().iter().filter(|r| r[0] == "node") {
        assert!(primaries.contains(&row[1]), "{row:?}");
        assert_eq!(row[3], "20", "{row:?}");
    }
    assert!(placement.rows().iter().any(|r| r == &["unowned", "0"]));
}

/// The map read while one shard of a Valkey 8.0 cluster fails over back and forth (`CLUSTER
/// FAILOVER` on its replica every 0.5 s, for 8 s): `slotgen nodes` against another primary,
/// run again and again meanwhile, answers every time, with the three primaries. For a
/// moment after each failover that primary's `CLUSTER SHARDS` gives the shard two primaries
/// that are not failed (measured: from 40-60 ms to 140-460 ms after it, and 198 of 2594
/// reads failed so before slotgen read a malformed map again): slotgen reads it again
/// rather than call the server malformed. The failovers are counted by the roles `INFO
/// replication` gives, so that a run without one fails instead of passing for nothing.
#[test]
fn a_map_read_during_failovers_is_read_again_not_called_malformed() {
    let Some(cluster) = live::cluster(Server::Valkey, 1, None, &live::FAILOVER_OPTIONS) else {
        return;
    };
    let url = format!("redis://127.0.0.1:{}", cluster.primaries[2].port);
    // once before (the first run of the test binary builds slotgen)
    slotgen(&["nodes", "--redis", &url], b"").ok();
    let shard = [&cluster.primaries[0], &cluster.replicas[0][0]];
    let stop = std::sync::atomic::AtomicBool::new(false);
    let (failovers, runs) = std::thread::scope(|scope| {
        let failing = scope.spawn(|| {
            let mut failovers = 0;
            let end = Instant::now() + Duration::from_secs(8);
            while Instant::now() < end {
                if let Some(replica) = shard.iter().find(|n| role(n) == "slave") {
                    let asked: redis::RedisResult<()> = redis::cmd("CLUSTER")
                        .arg("FAILOVER")
                        .query(&mut replica.connect());
                    if asked.is_ok() {
                        failovers += 1;
                    }
                }
                std::thread::sleep(Duration::from_millis(500));
            }
            stop.store(true, std::sync::atomic::Ordering::SeqCst);
            failovers
        });
        let mut runs = 0;
        while !stop.load(std::sync::atomic::Ordering::SeqCst) {
            let run = slotgen(&["nodes", "--redis", &url], b"");
            assert_eq!(run.code, Some(0), "read {runs}: {}", run.stderr);
            let primaries = run
                .stdout
                .lines()
                .filter(|l| l.split('\t').nth(2) == Some("primary"))
                .count();
            assert_eq!(primaries, 3, "{}", run.stdout);
            runs += 1;
        }
        (failing.join().unwrap(), runs)
    });
    println!("{runs} reads of the map during {failovers} failovers");
    assert!(
        failovers >= 4 && runs >= 50,
        "{failovers} failovers, {runs} reads"
    );
}
