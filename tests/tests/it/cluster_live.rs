//! `slotgen nodes`, `slotgen keys` and `slotgen placement`, run as programs against live
//! clusters of three primaries and three replicas of `redis-server` and of `valkey-server`
//! that the tests start on loopback (see `slotgen_tests::redis_server`), and against
//! servers that must be refused.
//!
//! What the output is compared with comes from the servers, read here through the `redis`
//! crate: `CLUSTER SHARDS` and `CLUSTER MYID` for the map, `SET` on a plain connection to the
//! node a key names (a MOVED or ASK would fail it), `READONLY` and `GET` on replicas,
//! `CLUSTER KEYSLOT` for each key's slot, and `DBSIZE` of every primary after a workload was
//! written through a cluster client.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::net::{Ipv4Addr, TcpListener};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use redis::ConnectionLike;
use slotgen_tests::live::{self, Server};
use slotgen_tests::redis_server::{free_port, RedisServer, ReplicatedCluster, RANGES};
use slotgen_tests::{require_tool, workspace_root};

/// The `slotgen` binary, built once per test process with the profile of this test (the
/// tests package cannot name another package's binary; `SLOTGEN_BIN` overrides).
///
/// It is built as `cargo test --workspace` builds it for the CLI's tests (`--test cli`):
/// features unified over the whole workspace, dev-dependencies included. In the usual
/// `cargo test --workspace` that binary is already built, so this costs nothing; a plain
/// `cargo build --bin slotgen` resolved fewer features (no `simd` of `slotgen-tables`, no
/// `cluster` of `redis`) and rebuilt the runtime, the generator, the cluster crate and the
/// binary again in the middle of the test run (measured in CONTRIBUTING.md, "Tests").
///
/// The nested cargo runs without the variables cargo sets for this test process
/// ([`set_by_cargo_for_tests`]): `ring`'s build script asks to rerun when
/// `CARGO_MANIFEST_DIR`, `CARGO_PKG_NAME` or `OUT_DIR` change, and cargo compares them in its
/// own environment, so with this process's values it rebuilt ring, rustls, redis, the
/// cluster crate and the binary in the middle of the test run, and the next `cargo test`
/// rebuilt them back.
pub(crate) fn slotgen_bin() -> &'static PathBuf {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| {
        if let Some(bin) = std::env::var_os("SLOTGEN_BIN") {
            return PathBuf::from(bin);
        }
        // target/<profile>/deps/cluster_live-<hash>
        let exe = std::env::current_exe().expect("the test's path");
        let profile_dir = exe
            .parent()
            .and_then(|deps| deps.parent())
            .expect("target/<profile>/deps")
            .to_path_buf();
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let mut build = Command::new(cargo);
        for (name, _) in std::env::vars_os() {
            if name.to_str().is_some_and(set_by_cargo_for_tests) {
                build.env_remove(name);
            }
        }
        build
            // the binary that the CLI's integration tests (`--test cli`) need, whichever
            // package of the workspace holds them
            .args([
                "test",
                "--workspace",
                "--no-run",
                "--quiet",
                "--test",
                "cli",
            ])
            .current_dir(workspace_root());
        if profile_dir.file_name().is_some_and(|n| n == "release") {
            build.arg("--release");
        }
        let status = build.status().expect("cargo runs");
        assert!(status.success(), "building the slotgen binary: {status}");
        profile_dir.join("slotgen")
    })
}

/// Runs `command` as slotgen printed it, with `bash -o pipefail`, the slotgen under test
/// first on `PATH` and `REDISCLI_AUTH` unset, `input` on its standard input; its output.
pub(crate) fn run_printed(command: &str, input: &[u8]) -> std::process::Output {
    let bin_dir = slotgen_bin().parent().expect("a folder").to_path_buf();
    let mut dirs = vec![bin_dir];
    dirs.extend(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    ));
    let mut child = Command::new("bash")
        .args(["-o", "pipefail", "-c", command])
        .env("PATH", std::env::join_paths(&dirs).expect("a PATH"))
        .env_remove("REDISCLI_AUTH")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("bash runs");
    child
        .stdin
        .take()
        .expect("its input")
        .write_all(input)
        .expect("the input written");
    child.wait_with_output().expect("bash ends")
}

/// Whether cargo sets the variable `name` for a test process it runs (beyond `CARGO` and
/// the configuration's `[env]`), which the shell that ran `cargo test` does not have.
fn set_by_cargo_for_tests(name: &str) -> bool {
    name.starts_with("CARGO_PKG_")
        || matches!(
            name,
            "CARGO_MANIFEST_DIR"
                | "CARGO_MANIFEST_PATH"
                | "CARGO_MANIFEST_LINKS"
                | "CARGO_CRATE_NAME"
                | "CARGO_BIN_NAME"
                | "CARGO_PRIMARY_PACKAGE"
                | "CARGO_TARGET_TMPDIR"
                | "OUT_DIR"
        )
}

/// What one run of `slotgen` did.
pub(crate) struct Run {
    pub(crate) code: Option<i32>,
    pub(crate) stdout: String,
    pub(crate) stderr: String,
    pub(crate) elapsed: Duration,
}

pub(crate) fn slotgen(args: &[&str], stdin: &[u8]) -> Run {
    let start = Instant::now();
    let mut child = Command::new(slotgen_bin())
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("slotgen runs");
    let mut input = child.stdin.take().expect("a piped stdin");
    let stdin = stdin.to_vec();
    // a writer thread, so that a large input cannot block against a full stdout pipe
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&stdin);
    });
    let output = child.wait_with_output().expect("slotgen finishes");
    let _ = writer.join();
    Run {
        code: output.status.code(),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        elapsed: start.elapsed(),
    }
}

/// `slotgen rebalance --redis URL --by keys EXTRA...`, run with nothing on standard input:
/// the plan by keys held that the live-cluster tests ask for (`EXTRA` adds `--apply`,
/// `--format json`, `--weight`, `--timeout` and the like).
pub(crate) fn rebalance(url: &str, extra: &[&str]) -> Run {
    slotgen(&rebalance_args(url, extra), b"")
}

/// The command line of [`rebalance`] after the program's name, for a test that starts it
/// as a child of its own (to signal it mid-run) or hands it to another runner.
pub(crate) fn rebalance_args<'a>(url: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    [&["rebalance", "--redis", url, "--by", "keys"][..], extra].concat()
}

impl Run {
    /// Exit 0; returns stdout.
    pub(crate) fn ok(&self) -> &str {
        assert_eq!(self.code, Some(0), "{}{}", self.stdout, self.stderr);
        &self.stdout
    }

    /// Exit 1 with one `slotgen: error:` line that contains `needle`, and nothing on stdout.
    pub(crate) fn fails_with(&self, needle: &str) {
        self.fails_with_code(1, needle);
    }

    /// As [`Run::fails_with`], with exit status `code` (2 for a usage error, such as a URL
    /// that does not parse).
    pub(super) fn fails_with_code(&self, code: i32, needle: &str) {
        assert_eq!(self.code, Some(code), "{}{}", self.stdout, self.stderr);
        assert!(
            self.stderr.starts_with("slotgen: error: ") && self.stderr.contains(needle),
            "expected `{needle}` in: {}",
            self.stderr
        );
        assert_eq!(self.stderr.lines().count(), 1, "{}", self.stderr);
        assert!(self.stdout.is_empty(), "{}", self.stdout);
        assert!(!self.stderr.contains("panicked"), "{}", self.stderr);
    }

    /// The tab-separated fields of each stdout line.
    pub(crate) fn rows(&self) -> Vec<Vec<String>> {
        self.ok()
            .lines()
            .map(|line| line.split('\t').map(str::to_owned).collect())
            .collect()
    }
}

/// A connection to `addr` (`host:port`), plain: not a cluster client, so a key of another
/// node is answered with MOVED, and a migrating one with ASK, both errors here.
pub(crate) fn plain(addr: &str, password: Option<&str>) -> redis::Connection {
    let url = match password {
        Some(p) => format!("redis://:{p}@{addr}"),
        None => format!("redis://{addr}"),
    };
    let con = redis::Client::open(url)
        .unwrap()
        .get_connection_with_timeout(Duration::from_secs(5))
        .unwrap();
    con.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    con
}

fn text(value: &redis::Value) -> String {
    match value {
        redis::Value::BulkString(b) => String::from_utf8(b.clone()).unwrap(),
        redis::Value::SimpleString(s) => s.clone(),
        redis::Value::Int(n) => n.to_string(),
        other => panic!("not text: {other:?}"),
    }
}

/// The rows `slotgen nodes` should print, read from `CLUSTER SHARDS` here: per shard, the
/// primary then the replicas by address, `id addr role slots ranges`; shards by first slot.
pub(super) fn shards_rows(con: &mut redis::Connection) -> Vec<Vec<String>> {
    let shards: Vec<redis::Value> = redis::cmd("CLUSTER").arg("SHARDS").query(con).unwrap();
    let mut out: Vec<(u32, Vec<Vec<String>>)> = Vec::new();
    for shard in shards {
        let redis::Value::Array(fields) = shard else {
            panic!("a shard is an array in RESP2")
        };
        let get = |name: &str| {
            fields
                .chunks(2)
                .find(|pair| text(&pair[0]) == name)
                .map(|pair| pair[1].clone())
                .unwrap()
        };
        let redis::Value::Array(bounds) = get("slots") else {
            panic!()
        };
        let bounds: Vec<u32> = bounds.iter().map(|b| text(b).parse().unwrap()).collect();
        let mut pairs: Vec<(u32, u32)> = bounds.chunks(2).map(|p| (p[0], p[1])).collect();
        pairs.sort_unstable();
        // adjacent ranges print merged
        let mut merged: Vec<(u32, u32)> = Vec::new();
        for (a, b) in pairs {
            match merged.last_mut() {
                Some(last) if last.1 + 1 == a => last.1 = b,
                _ => merged.push((a, b)),
            }
        }
        let count: u32 = merged.iter().map(|(a, b)| b - a + 1).sum();
        let ranges = if merged.is_empty() {
            "-".to_owned()
        } else {
            merged
                .iter()
                .map(|&(a, b)| {
                    if a == b {
                        a.to_string()
                    } else {
                        format!("{a}-{b}")
                    }
                })
                .collect::<Vec<_>>()
                .join(",")
        };
        let redis::Value::Array(nodes) = get("nodes") else {
            panic!()
        };
        let mut primary = Vec::new();
        let mut replicas = Vec::new();
        for node in nodes {
            let redis::Value::Array(f) = node else {
                panic!()
            };
            let field = |name: &str| {
                f.chunks(2)
                    .find(|pair| text(&pair[0]) == name)
                    .map(|pair| text(&pair[1]))
                    .unwrap()
            };
            // a node with TLS only (`port 0`, `tls-cluster yes`) gives `tls-port` alone
            let port = f
                .chunks(2)
                .find(|pair| text(&pair[0]) == "port")
                .map_or_else(|| field("tls-port"), |pair| text(&pair[1]));
            let addr = format!("{}:{port}", field("ip"));
            let role = if field("role") == "master" {
                "primary"
            } else {
                "replica"
            };
            let row = vec![
                field("id"),
                addr,
                role.to_owned(),
                count.to_string(),
                ranges.clone(),
            ];
            if role == "primary" {
                primary.push(row);
            } else {
                replicas.push(row);
            }
        }
        replicas.sort_by(|a, b| a[1].cmp(&b[1]));
        primary.extend(replicas);
        out.push((merged.first().map_or(u32::MAX, |r| r.0), primary));
    }
    out.sort_by_key(|(first, _)| *first);
    out.into_iter().flat_map(|(_, rows)| rows).collect()
}

/// The rows of a `slotgen nodes` run without their last column, health, which is checked
/// here: `online` for a primary, `online` or `loading` for a replica (a replica is `loading`
/// in `CLUSTER SHARDS` until its replication offset moves from 0, which the replication
/// pings of its primary do at any moment), `-` from `CLUSTER SLOTS`.
pub(crate) fn map_rows(run: &Run) -> Vec<Vec<String>> {
    run.rows()
        .into_iter()
        .map(|mut row| {
            assert_eq!(row.len(), 6, "{row:?}");
            let health = row.pop().unwrap();
            let allowed: &[&str] = if row[2] == "primary" {
                &["online", "-"]
            } else {
                &["online", "loading", "-"]
            };
            assert!(
                allowed.contains(&health.as_str()),
                "{row:?}: health {health}"
            );
            row
        })
        .collect()
}

/// Waits (30 s at most) until `CLUSTER SHARDS` of `con`'s node gives every node health
/// `online`.
pub(crate) fn wait_all_online(con: &mut redis::Connection) {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let shards: redis::Value = redis::cmd("CLUSTER").arg("SHARDS").query(con).unwrap();
        let mut words = Vec::new();
        strings(&shards, &mut words);
        let health: Vec<&String> = words
            .windows(2)
            .filter(|pair| pair[0] == "health")
            .map(|pair| &pair[1])
            .collect();
        if !health.is_empty() && health.iter().all(|h| *h == "online") {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "not every node is online: {health:?}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Every string of a reply, depth first.
fn strings(value: &redis::Value, out: &mut Vec<String>) {
    match value {
        redis::Value::Array(items) => items.iter().for_each(|v| strings(v, out)),
        redis::Value::Map(pairs) => pairs.iter().for_each(|(k, v)| {
            strings(k, out);
            strings(v, out);
        }),
        redis::Value::BulkString(b) => out.push(String::from_utf8_lossy(b).into_owned()),
        redis::Value::SimpleString(s) => out.push(s.clone()),
        _ => {}
    }
}

/// `slotgen keys` rows grouped by node id: `(addr, slot, key)`.
pub(super) fn keys_by_node(rows: &[Vec<String>]) -> BTreeMap<String, Vec<(String, u16, String)>> {
    let mut by_node: BTreeMap<String, Vec<(String, u16, String)>> = BTreeMap::new();
    for row in rows {
        assert!(row.len() == 4 || row.len() == 5, "{row:?}");
        by_node.entry(row[0].clone()).or_default().push((
            row[1].clone(),
            row[2].parse().unwrap(),
            row[3].clone(),
        ));
    }
    by_node
}

/// Each key's slot by the server's `CLUSTER KEYSLOT`.
pub(crate) fn keyslots(con: &mut redis::Connection, keys: &[&str]) -> Vec<u16> {
    let mut pipe = redis::pipe();
    for key in keys {
        pipe.cmd("CLUSTER").arg("KEYSLOT").arg(*key);
    }
    pipe.query(con).unwrap()
}

/// Every key `SET` on a plain connection to the node its row names, then read back; a
/// MOVED or ASK fails the test.
fn set_on_named_nodes(keys: &BTreeMap<String, Vec<(String, u16, String)>>) {
    for rows in keys.values() {
        let addr = &rows[0].0;
        let mut con = plain(addr, None);
        let mut pipe = redis::pipe();
        for (_, _, key) in rows {
            pipe.cmd("SET").arg(key).arg(key).ignore();
        }
        pipe.query::<()>(&mut con)
            .unwrap_or_else(|e| panic!("SET on {addr}: {e}"));
        let slots = keyslots(
            &mut con,
            &rows.iter().map(|r| r.2.as_str()).collect::<Vec<_>>(),
        );
        for ((_, slot, key), server) in rows.iter().zip(slots) {
            assert_eq!(*slot, server, "slot of `{key}` by CLUSTER KEYSLOT");
        }
    }
}

#[test]
fn a_redis_server_cluster() {
    if let Some(cluster) = live::cluster(Server::Redis, 1, None, &[]) {
        scenario(&cluster);
    }
}

#[test]
fn a_valkey_server_cluster() {
    if let Some(cluster) = live::cluster(Server::Valkey, 1, None, &[]) {
        scenario(&cluster);
    }
}

/// Everything against one cluster, in order: the map, a workload's placement, keys for
/// primaries and replicas, then a resharding.
fn scenario(cluster: &ReplicatedCluster) {
    let url = cluster.url();
    let ids: Vec<String> = cluster.primaries.iter().map(RedisServer::node_id).collect();

    // --- nodes: as CLUSTER SHARDS reads here, and as the harness built it
    let nodes = slotgen(&["nodes", "--redis", &url], b"");
    let rows = map_rows(&nodes);
    assert_eq!(rows, shards_rows(&mut cluster.primaries[0].connect()));
    assert!(nodes.stderr.is_empty(), "{}", nodes.stderr);
    assert_eq!(rows.len(), 6);
    for (i, &(first, last)) in RANGES.iter().enumerate() {
        let primary = &rows[2 * i];
        let replica = &rows[2 * i + 1];
        assert_eq!(primary[0], ids[i]);
        assert_eq!(
            primary[1..],
            [
                format!("127.0.0.1:{}", cluster.primaries[i].port),
                "primary".to_owned(),
                (last - first + 1).to_string(),
                format!("{first}-{last}"),
            ]
        );
        assert_eq!(replica[0], cluster.replicas[i][0].node_id());
        assert_eq!(
            replica[1],
            format!("127.0.0.1:{}", cluster.replicas[i][0].port)
        );
        assert_eq!(replica[2], "replica");
    }
    // the same through the unix socket of a replica, and as JSON
    let over_unix = slotgen(
        &["nodes", "--redis", &cluster.replicas[2][0].unix_url()],
        b"",
    );
    assert_eq!(map_rows(&over_unix), rows);
    let json: serde_json::Value =
        serde_json::from_str(slotgen(&["nodes", "--redis", &url, "--format", "json"], b"").ok())
            .unwrap();
    assert_eq!(json["source"]["command"], "CLUSTER_SHARDS");
    for (i, shard) in json["shards"].as_array().unwrap().iter().enumerate() {
        assert_eq!(shard["primary"]["id"], ids[i].as_str());
        assert_eq!(shard["ranges"][0][0], RANGES[i].0);
        assert_eq!(shard["ranges"][0][1], RANGES[i].1);
        // `loading` until a replica has taken its first write (replication offset 0)
        let health = shard["replicas"][0]["health"].as_str().unwrap();
        assert!(["online", "loading"].contains(&health), "{health}");
    }

    // --- placement of 100,000 keys written through a cluster client, against DBSIZE
    let workload: Vec<String> = (0..100_000)
        .map(|i| match i % 10 {
            0 => format!("order:{{customer{}}}:{i}", i % 97),
            _ => format!("user:{i}:profile"),
        })
        .collect();
    let client = redis::cluster::ClusterClient::new(
        cluster
            .primaries
            .iter()
            .map(|p| p.tcp_url())
            .collect::<Vec<_>>(),
    )
    .unwrap();
    let mut cluster_con = client.get_connection().unwrap();
    for batch in workload.chunks(5_000) {
        let mut pipe = redis::cluster::cluster_pipe();
        for key in batch {
            pipe.cmd("SET").arg(key).arg(1).ignore();
        }
        pipe.query::<()>(&mut cluster_con).unwrap();
    }
    let mut stdin = workload.join("\n").into_bytes();
    stdin.push(b'\n');
    let placement = slotgen(&["placement", "--redis", &url], &stdin);
    let rows = placement.rows();
    assert_eq!(rows[0][..2], ["keys", "100000"]);
    let mut counted = 0;
    for (i, primary) in cluster.primaries.iter().enumerate() {
        let dbsize: u64 = redis::cmd("DBSIZE").query(&mut primary.connect()).unwrap();
        let row = rows
            .iter()
            .find(|r| r[0] == "node" && r[1] == ids[i])
            .unwrap_or_else(|| panic!("no node line for {}: {rows:?}", ids[i]));
        assert_eq!(row[3], dbsize.to_string(), "keys of {} by DBSIZE", ids[i]);
        counted += dbsize;
    }
    assert_eq!(counted, 100_000);
    assert!(rows.iter().any(|r| r == &["unowned", "0"]), "{rows:?}");
    // the same counts as JSON; the 97 hashtags of `order:` keys make the fullest slots
    let json: serde_json::Value = serde_json::from_str(
        slotgen(&["placement", "--redis", &url, "--format", "json"], &stdin).ok(),
    )
    .unwrap();
    for (i, node) in json["nodes"].as_array().unwrap().iter().enumerate() {
        let dbsize: u64 = redis::cmd("DBSIZE")
            .query(&mut cluster.primaries[i].connect())
            .unwrap();
        assert_eq!(node["keys"], dbsize);
    }
    let tags: Vec<String> = (0..97).map(|n| format!("{{customer{n}}}")).collect();
    let hot: BTreeSet<u16> = keyslots(
        &mut cluster.primaries[0].connect(),
        &tags.iter().map(String::as_str).collect::<Vec<_>>(),
    )
    .into_iter()
    .collect();
    let top = json["top_slots"].as_array().unwrap();
    assert_eq!(top.len(), 10);
    for entry in top {
        let slot = entry["slot"].as_u64().unwrap() as u16;
        assert!(hot.contains(&slot), "slot {slot} holds no `order:` key");
        assert!(entry["keys"].as_u64().unwrap() >= 100, "{entry}");
    }
    // --- a server that refuses CLUSTER SHARDS (an ACL user without it): CLUSTER SLOTS,
    // once the replicas have taken writes (CLUSTER SLOTS leaves out a replica whose
    // replication offset is still 0)
    for primary in &cluster.primaries {
        let acked: i64 = redis::cmd("WAIT")
            .arg(1)
            .arg(10_000)
            .query(&mut primary.connect())
            .unwrap();
        assert_eq!(acked, 1, "the replica took the writes");
    }
    // the examples of --help, once the replicas have data (`--role replica` leaves out a
    // replica that is `loading`, which it is until it has taken a write)
    wait_all_online(&mut cluster.primaries[0].connect());
    help_examples_run(&url);
    for node in cluster.nodes() {
        redis::cmd("ACL")
            .arg("SETUSER")
            .arg("noshards")
            .arg("on")
            .arg("nopass")
            .arg("+@all")
            .arg("-cluster|shards")
            .arg("~*")
            .query::<()>(&mut node.connect())
            .unwrap();
    }
    // and the node asked knows it by gossip
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let slots: Vec<Vec<redis::Value>> = redis::cmd("CLUSTER")
            .arg("SLOTS")
            .query(&mut cluster.primaries[1].connect())
            .unwrap();
        if slots.iter().all(|range| range.len() == 4) {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "CLUSTER SLOTS still leaves replicas out"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let slots_url = format!(
        "redis://noshards:any@127.0.0.1:{}",
        cluster.primaries[1].port
    );
    let from_slots = slotgen(&["nodes", "--redis", &slots_url], b"");
    // CLUSTER SLOTS does not give health: `-`
    assert!(
        from_slots.rows().iter().all(|r| r[5] == "-"),
        "{}",
        from_slots.stdout
    );
    assert_eq!(map_rows(&from_slots), map_rows(&nodes));
    assert!(
        from_slots.stderr.contains("refused CLUSTER SHARDS")
            && from_slots.stderr.contains("read from CLUSTER SLOTS")
            && from_slots.stderr.contains("noshards:***@"),
        "{}",
        from_slots.stderr
    );

    // --- a password holding `/`, `?` and `#`: refused with the fix, which then works
    for node in cluster.nodes() {
        redis::cmd("ACL")
            .arg("SETUSER")
            .arg("slash")
            .arg("on")
            .arg(">pa/ss?x#y")
            .arg("+@all")
            .arg("~*")
            .query::<()>(&mut node.connect())
            .unwrap();
    }
    let port = cluster.primaries[1].port;
    let raw = slotgen(
        &[
            "nodes",
            "--redis",
            &format!("redis://slash:pa/ss?x#y@127.0.0.1:{port}"),
        ],
        b"",
    );
    assert_eq!(raw.code, Some(2), "{}", raw.stderr);
    assert!(
        raw.stderr
            .contains("percent-encode them in the password (`%2F`, `%3F`, `%23`")
            && !raw.stderr.contains("pa/ss"),
        "{}",
        raw.stderr
    );
    let encoded = slotgen(
        &[
            "nodes",
            "--redis",
            &format!("redis://slash:pa%2Fss%3Fx%23y@127.0.0.1:{port}"),
        ],
        b"",
    );
    assert_eq!(encoded.code, Some(0), "{}", encoded.stderr);
    assert_eq!(map_rows(&encoded), map_rows(&nodes));

    for primary in &cluster.primaries {
        redis::cmd("FLUSHALL")
            .query::<()>(&mut primary.connect())
            .unwrap();
    }

    // --- 100 keys per primary, each SET on the node it names without MOVED
    let keys = slotgen(&["keys", "--redis", &url, "--per-node", "100"], b"");
    let by_node = keys_by_node(&keys.rows());
    assert_eq!(
        by_node.keys().cloned().collect::<BTreeSet<_>>(),
        ids.iter().cloned().collect()
    );
    for rows in by_node.values() {
        assert_eq!(rows.len(), 100);
        let distinct: BTreeSet<&String> = rows.iter().map(|r| &r.2).collect();
        assert_eq!(distinct.len(), 100);
        let slots: BTreeSet<u16> = rows.iter().map(|r| r.1).collect();
        assert_eq!(slots.len(), 100, "distinct slots");
    }
    set_on_named_nodes(&by_node);
    for primary in &cluster.primaries {
        let dbsize: u64 = redis::cmd("DBSIZE").query(&mut primary.connect()).unwrap();
        assert_eq!(
            dbsize, 100,
            "each primary holds its 100 keys, and only those"
        );
        let acked: i64 = redis::cmd("WAIT")
            .arg(1)
            .arg(10_000)
            .query(&mut primary.connect())
            .unwrap();
        assert_eq!(acked, 1, "the replica took the writes");
    }

    // --- and read back on the replicas, after READONLY, without MOVED
    // (once the node asked sees every replica's offset move: `keys` leaves out `loading` ones)
    wait_all_online(&mut cluster.primaries[0].connect());
    let replica_keys = slotgen(
        &[
            "keys",
            "--redis",
            &url,
            "--per-node",
            "100",
            "--role",
            "replica",
        ],
        b"",
    );
    let replica_rows = keys_by_node(&replica_keys.rows());
    assert_eq!(replica_rows.len(), 3);
    for (id, rows) in &replica_rows {
        let addr = &rows[0].0;
        assert!(!ids.contains(id));
        let mut con = plain(addr, None);
        redis::cmd("READONLY").query::<()>(&mut con).unwrap();
        for (_, _, key) in rows {
            let value: Option<String> = redis::cmd("GET")
                .arg(key)
                .query(&mut con)
                .unwrap_or_else(|e| panic!("GET {key} on replica {addr}: {e}"));
            assert_eq!(value.as_deref(), Some(key.as_str()), "{key} on {addr}");
        }
    }

    // --- --count: 10 keys over the cluster, 4 + 3 + 3; --node: one node only
    let counted = keys_by_node(&slotgen(&["keys", "--redis", &url, "--count", "10"], b"").rows());
    let mut sizes: Vec<usize> = ids.iter().map(|id| counted[id].len()).collect();
    assert_eq!(sizes, [4, 3, 3]);
    let one = slotgen(
        &[
            "keys",
            "--redis",
            &url,
            "--per-node",
            "7",
            "--node",
            &ids[2],
            "--format",
            "keys",
        ],
        b"",
    );
    let only: Vec<&str> = one.ok().lines().collect();
    assert_eq!(only.len(), 7);
    let slots = keyslots(&mut cluster.primaries[2].connect(), &only);
    assert!(slots.iter().all(|&s| s >= RANGES[2].0), "{slots:?}");

    // --- resharding: slots 0-99 move from the first primary to the second
    let (a, b) = (&cluster.primaries[0], &cluster.primaries[1]);
    let (a_id, b_id) = (&ids[0], &ids[1]);
    let moving = 0u16..100;
    let mut pipe = redis::pipe();
    for slot in moving.clone() {
        pipe.cmd("CLUSTER")
            .arg("SETSLOT")
            .arg(slot)
            .arg("IMPORTING")
            .arg(a_id)
            .ignore();
    }
    pipe.query::<()>(&mut b.connect()).unwrap();
    let mut pipe = redis::pipe();
    for slot in moving.clone() {
        pipe.cmd("CLUSTER")
            .arg("SETSLOT")
            .arg(slot)
            .arg("MIGRATING")
            .arg(b_id)
            .ignore();
    }
    pipe.query::<()>(&mut a.connect()).unwrap();

    // while they move, they are left out, and named
    let during = slotgen(&["keys", "--redis", &url, "--per-node", "100"], b"");
    let note = format!(
        "slots 0-99 (100) are migrating from {a_id} (127.0.0.1:{}) to {b_id} (127.0.0.1:{}); left out",
        a.port, b.port
    );
    assert!(during.stderr.contains(&note), "{}", during.stderr);
    let during_rows = keys_by_node(&during.rows());
    assert_eq!(during_rows[a_id].len(), 100);
    assert!(
        during_rows[a_id].iter().all(|r| r.1 >= 100),
        "{:?}",
        during_rows[a_id]
    );
    set_on_named_nodes(&during_rows);
    // kept and marked with --include-migrating: slot 0, the first of the node, is marked
    let kept = slotgen(
        &[
            "keys",
            "--redis",
            &url,
            "--per-node",
            "100",
            "--node",
            a_id,
            "--include-migrating",
        ],
        b"",
    );
    let kept_rows = kept.rows();
    assert_eq!(
        kept_rows[0][2..],
        [
            "0".to_owned(),
            kept_rows[0][3].clone(),
            "migrating".to_owned()
        ]
    );
    assert!(kept_rows.iter().filter(|r| r[4] == "migrating").count() >= 1);
    assert!(kept_rows
        .iter()
        .all(|r| (r[2].parse::<u16>().unwrap() < 100) == (r[4] == "migrating")));
    // nodes still shows the old owner, and names the migration
    let nodes_during = slotgen(&["nodes", "--redis", &url], b"");
    assert_eq!(map_rows(&nodes_during), shards_rows(&mut a.connect()));
    assert!(
        nodes_during
            .stderr
            .contains("slots 0-99 (100) are migrating"),
        "{}",
        nodes_during.stderr
    );
    // placement lists keys of migrating slots
    let placed = slotgen(
        &["placement", "--redis", &url],
        kept.ok()
            .lines()
            .map(|l| l.split('\t').nth(3).unwrap())
            .collect::<Vec<_>>()
            .join("\n")
            .as_bytes(),
    );
    let migrating_line = placed
        .rows()
        .into_iter()
        .find(|r| r[0] == "migrating")
        .unwrap();
    let marked = kept_rows.iter().filter(|r| r[4] == "migrating").count();
    assert_eq!(migrating_line[1..], [marked.to_string(), "0-99".to_owned()]);

    // move the keys, then assign the slots
    let mut a_con = a.connect();
    for slot in moving.clone() {
        let keys: Vec<String> = redis::cmd("CLUSTER")
            .arg("GETKEYSINSLOT")
            .arg(slot)
            .arg(1000)
            .query(&mut a_con)
            .unwrap();
        if keys.is_empty() {
            continue;
        }
        redis::cmd("MIGRATE")
            .arg("127.0.0.1")
            .arg(b.port)
            .arg("")
            .arg(0)
            .arg(10_000)
            .arg("KEYS")
            .arg(&keys)
            .query::<()>(&mut a_con)
            .unwrap();
    }
    for node in [b, a, &cluster.primaries[2]] {
        let mut pipe = redis::pipe();
        for slot in moving.clone() {
            pipe.cmd("CLUSTER")
                .arg("SETSLOT")
                .arg(slot)
                .arg("NODE")
                .arg(b_id)
                .ignore();
        }
        pipe.query::<()>(&mut node.connect()).unwrap();
    }
    cluster
        .wait_until(
            "every node sees slots 0-99 on the second primary",
            |info, node| {
                let text = node.cluster_nodes();
                info.contains("cluster_state:ok")
                    && !text.contains("->-")
                    && !text.contains("-<-")
                    && text
                        .lines()
                        .any(|l| l.starts_with(b_id.as_str()) && l.contains(" 0-99"))
            },
        )
        .unwrap();

    // after it: the new map
    let after = slotgen(&["nodes", "--redis", &url], b"");
    let after_rows = map_rows(&after);
    assert!(after.stderr.is_empty(), "{}", after.stderr);
    assert_eq!(after_rows, shards_rows(&mut cluster.primaries[2].connect()));
    assert_eq!(&after_rows[0][0], b_id);
    assert_eq!(
        after_rows[0][3..],
        ["5562".to_owned(), "0-99,5461-10922".to_owned()]
    );
    let a_row = after_rows.iter().find(|r| &r[0] == a_id).unwrap();
    assert_eq!(a_row[3..], ["5361".to_owned(), "100-5460".to_owned()]);
    let keys_after =
        keys_by_node(&slotgen(&["keys", "--redis", &url, "--per-node", "100"], b"").rows());
    assert!(
        keys_after[b_id].iter().any(|r| r.1 < 100),
        "{:?}",
        keys_after[b_id]
    );
    assert!(keys_after[a_id].iter().all(|r| r.1 >= 100));
    set_on_named_nodes(&keys_after);
    sizes = ids.iter().map(|id| keys_after[id].len()).collect();
    assert_eq!(sizes, [100, 100, 100]);
}

/// The examples at the end of `--help` of the live-cluster commands (which the CLI's own
/// test of the examples leaves to this one), run as written in bash in an empty directory
/// with their address, `redis://127.0.0.1:7000`, replaced by the cluster's: each exits 0
/// and prints something or writes a file.
fn help_examples_run(url: &str) {
    let ran = run_help_examples(url, &["nodes", "keys", "placement"]);
    assert!(ran >= 4, "only {ran} examples name a cluster");
}

/// Runs every example of the `--help` of `commands` that names `redis://127.0.0.1:7000`,
/// with `url` there, in bash in an empty directory: each must exit 0 and print something or
/// write a file. Returns how many ran.
pub(crate) fn run_help_examples(url: &str, commands: &[&str]) -> usize {
    let bin_dir = slotgen_bin().parent().unwrap().to_path_buf();
    let mut dirs = vec![bin_dir];
    dirs.extend(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    ));
    let path = std::env::join_paths(dirs).unwrap();
    let mut ran = 0;
    for command in commands {
        let help = slotgen(&[command, "--help"], b"");
        for line in help.ok().lines().filter_map(|l| l.strip_prefix("  $ ")) {
            if !line.contains("redis://127.0.0.1:7000") {
                continue;
            }
            let line = line.replace("redis://127.0.0.1:7000", url);
            let dir = tempfile::tempdir().unwrap();
            let out = Command::new("bash")
                .args(["-o", "pipefail", "-c", &line])
                .current_dir(dir.path())
                .env("PATH", &path)
                .output()
                .expect("bash runs");
            assert!(
                out.status.success(),
                "`{line}` exits {:?}: {}",
                out.status.code(),
                String::from_utf8_lossy(&out.stderr)
            );
            let wrote_file = std::fs::read_dir(dir.path()).unwrap().next().is_some();
            assert!(
                !out.stdout.is_empty() || wrote_file,
                "`{line}` printed nothing and wrote no file"
            );
            ran += 1;
        }
    }
    ran
}

/// A listener on loopback that accepts connections and never answers, until dropped.
struct Silent {
    port: u16,
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Silent {
    fn start() -> Self {
        let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).unwrap();
        listener.set_nonblocking(true).unwrap();
        let port = listener.local_addr().unwrap().port();
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let thread = std::thread::spawn(move || {
            let mut held = Vec::new();
            let deadline = Instant::now() + Duration::from_secs(120);
            while !flag.load(Ordering::Relaxed) && Instant::now() < deadline {
                if let Ok((stream, _)) = listener.accept() {
                    held.push(stream);
                }
                std::thread::sleep(Duration::from_millis(10));
            }
        });
        Self {
            port,
            stop,
            thread: Some(thread),
        }
    }
}

impl Drop for Silent {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

#[test]
fn servers_that_cannot_give_a_map_are_refused() {
    // no server needed for these two
    let closed = format!("redis://127.0.0.1:{}", free_port());
    for command in ["nodes", "keys", "placement"] {
        let mut args = vec![command, "--redis", closed.as_str()];
        if command == "keys" {
            args.extend(["--per-node", "1"]);
        }
        slotgen(&args, b"").fails_with("cannot reach");
    }
    let silent = Silent::start();
    let url = format!("redis://127.0.0.1:{}", silent.port);
    let hung = slotgen(&["nodes", "--redis", &url, "--timeout", "1"], b"");
    hung.fails_with("timed out");
    assert!(hung.stderr.contains("within 1s"), "{}", hung.stderr);
    // the deadline, not a hang: far below the time a stuck client would take
    assert!(hung.elapsed < Duration::from_secs(10), "{:?}", hung.elapsed);
    drop(silent);
    slotgen(&["nodes", "--redis", "http://127.0.0.1:1"], b"")
        .fails_with_code(2, "is not a server URL");
    let zero = slotgen(&["nodes", "--redis", &url, "--timeout", "0"], b"");
    assert_eq!(
        zero.code,
        Some(2),
        "clap refuses a zero timeout: {}",
        zero.stderr
    );

    if !require_tool("redis-server") {
        return;
    }
    let plain_server = RedisServer::start(false).unwrap();
    for url in [plain_server.tcp_url(), plain_server.unix_url()] {
        slotgen(&["nodes", "--redis", &url], b"").fails_with("is not cluster-enabled");
        slotgen(&["keys", "--redis", &url, "--count", "3"], b"")
            .fails_with("is not cluster-enabled");
        slotgen(&["placement", "--redis", &url], b"a\n").fails_with("is not cluster-enabled");
    }
    // a cluster-enabled node that owns no slot: state `fail`
    let lonely = RedisServer::start(true).unwrap();
    slotgen(&["nodes", "--redis", &lonely.tcp_url()], b"")
        .fails_with("is in state `fail`, not `ok`");
}

#[test]
fn a_password_protected_cluster() {
    let password = "correct-horse-battery";
    let Some(cluster) = live::cluster(Server::Redis, 0, Some(password), &[]) else {
        return;
    };
    let port = cluster.primaries[0].port;
    slotgen(
        &["nodes", "--redis", &format!("redis://127.0.0.1:{port}")],
        b"",
    )
    .fails_with("requires a password");
    let wrong = slotgen(
        &[
            "nodes",
            "--redis",
            &format!("redis://:wrong-staple@127.0.0.1:{port}"),
        ],
        b"",
    );
    wrong.fails_with("refused the password of user `default`");
    wrong.fails_with("the password sent came from the URL");
    assert!(
        !wrong.stderr.contains("wrong-staple") && wrong.stderr.contains(":***@"),
        "{}",
        wrong.stderr
    );

    // a URL as redis-cli takes it, the password alone before the `@`: redis-cli reads it
    // as the password, the `redis` client as a user; refused naming both readings, without
    // the password, and the fix it gives works with both
    let redis_cli = |url: &str| {
        let out = Command::new("redis-cli")
            .args(["--no-auth-warning", "-u", url, "ACL", "WHOAMI"])
            .output()
            .expect("redis-cli runs");
        String::from_utf8_lossy(&out.stdout).trim().to_owned()
    };
    let cli_url = format!("redis://{password}@127.0.0.1:{port}");
    assert_eq!(
        redis_cli(&cli_url),
        "default",
        "redis-cli reads it as a password"
    );
    let one_word = slotgen(&["nodes", "--redis", &cli_url], b"");
    one_word.fails_with_code(
        2,
        "redis-cli as the password (of user `default`), the `redis` client as an ACL user",
    );
    assert!(!one_word.stderr.contains(password), "{}", one_word.stderr);
    let fixed = format!("redis://default:{password}@127.0.0.1:{port}");
    assert_eq!(
        redis_cli(&fixed),
        "default",
        "redis-cli reads the fix alike"
    );

    let url = cluster.url();
    let nodes = slotgen(&["nodes", "--redis", &url], b"");
    assert_eq!(
        map_rows(&nodes),
        shards_rows(&mut cluster.primaries[0].connect())
    );
    assert_eq!(
        map_rows(&slotgen(&["nodes", "--redis", &fixed], b"")),
        map_rows(&nodes)
    );
    let keys = slotgen(
        &[
            "keys",
            "--redis",
            &url,
            "--per-node",
            "5",
            "--format",
            "json",
        ],
        b"",
    );
    let json: serde_json::Value = serde_json::from_str(keys.ok()).unwrap();
    assert_eq!(json.as_array().unwrap().len(), 15);
    for entry in json.as_array().unwrap() {
        let mut con = plain(entry["addr"].as_str().unwrap(), Some(password));
        redis::cmd("SET")
            .arg(entry["key"].as_str().unwrap())
            .arg(1)
            .query::<()>(&mut con)
            .unwrap();
    }
    // the unix socket's password, in the query
    let unix = format!("{}?pass={password}", cluster.primaries[1].unix_url());
    assert_eq!(
        map_rows(&slotgen(&["nodes", "--redis", &unix], b"")),
        map_rows(&nodes)
    );
    let bad_unix = format!("{}?pass=nope-{password}", cluster.primaries[1].unix_url());
    let refused = slotgen(&["nodes", "--redis", &bad_unix], b"");
    refused.fails_with("pass=***");
    for run in [&nodes, &keys, &refused, &wrong, &one_word] {
        assert!(!run.stdout.contains(password) && !run.stderr.contains(password));
    }
    // a cluster that stops answering mid-way: every primary paused, the deadline fires
    let mut con = cluster.primaries[1].connect();
    assert!(con.check_connection());
    redis::cmd("CLIENT")
        .arg("PAUSE")
        .arg(3_000)
        .arg("ALL")
        .query::<()>(&mut con)
        .unwrap();
    let paused = slotgen(&["nodes", "--redis", &url, "--timeout", "0.5"], b"");
    // the first primary answers; the second, paused, lets the deadline pass, and the
    // message names it, not the first (the subject of the advice to check it)
    paused.fails_with("timed out");
    let second = format!(
        "redis://:***@127.0.0.1:{}` timed out",
        cluster.primaries[1].port
    );
    assert!(paused.stderr.contains(&second), "{}", paused.stderr);
    assert!(!paused.stderr.contains(password), "{}", paused.stderr);
}

#[test]
fn placement_without_a_server_counts_per_slot() {
    // slots by an independent CRC-16/XMODEM over the hashtag, not by slotgen's runtime
    let crc = crc::Crc::<u16>::new(&crc::CRC_16_XMODEM);
    let slot = |key: &[u8]| {
        let tag = key
            .iter()
            .position(|&b| b == b'{')
            .and_then(|open| {
                let close = key[open + 1..].iter().position(|&b| b == b'}')?;
                (close > 0).then(|| &key[open + 1..open + 1 + close])
            })
            .unwrap_or(key);
        crc.checksum(tag) & 16383
    };
    let keys: Vec<Vec<u8>> = (0..5000u32)
        .map(|i| match i % 4 {
            0 => format!("{{tenant{}}}:{i}", i % 7).into_bytes(),
            1 => vec![0xff, b'\n' ^ 0xff, (i % 256) as u8, b'{', b'}'],
            _ => format!("k{i}").into_bytes(),
        })
        .collect();
    let mut expected = vec![0u64; 16384];
    for key in &keys {
        expected[usize::from(slot(key))] += 1;
    }
    let stdin: Vec<u8> = keys
        .iter()
        .flat_map(|k| {
            let mut line = hex::encode(k).into_bytes();
            line.push(b'\n');
            line
        })
        .collect();
    let run = slotgen(
        &["placement", "--hex", "--format", "json", "--top", "16384"],
        &stdin,
    );
    let json: serde_json::Value = serde_json::from_str(run.ok()).unwrap();
    assert_eq!(json["keys"], 5000);
    let used = expected.iter().filter(|&&n| n > 0).count();
    assert_eq!(json["slots_used"], used);
    let top = json["top_slots"].as_array().unwrap();
    assert_eq!(top.len(), used);
    for entry in top {
        let s = entry["slot"].as_u64().unwrap() as usize;
        assert_eq!(entry["keys"], expected[s], "slot {s}");
    }
    let max = *expected.iter().max().unwrap();
    assert_eq!(json["skew"]["max"], max);
    assert_eq!(json["skew"]["per"], "slot");
    // 5000 keys over 16384 slots: too few for max / mean to mean anything, and said so
    assert!(json["skew"]["ratio"].is_null(), "{}", json["skew"]);
    assert_eq!(json["skew"]["min_keys"], 163_840);
    let thin = slotgen(&["placement"], b"a\nb\nc\nd\ne\n");
    let skew_row = thin.rows().into_iter().find(|r| r[0] == "skew").unwrap();
    assert_eq!(skew_row[1], "-");
    assert!(
        skew_row[2].starts_with("not measured: 5 keys over 16384 slots, fewer than 10 a slot"),
        "{skew_row:?}"
    );
    // from 10 keys a slot on average: the fullest slot over the mean
    let many: Vec<String> = (0..163_840).map(|i| format!("user:{i}")).collect();
    let mut per_slot = vec![0u64; 16384];
    for key in &many {
        per_slot[usize::from(slot(key.as_bytes()))] += 1;
    }
    let fullest = *per_slot.iter().max().unwrap();
    let json: serde_json::Value = serde_json::from_str(
        slotgen(
            &["placement", "--format", "json"],
            (many.join("\n") + "\n").as_bytes(),
        )
        .ok(),
    )
    .unwrap();
    assert_eq!(json["skew"]["max"], fullest);
    assert_eq!(json["skew"]["mean"], 10.0);
    assert_eq!(json["skew"]["ratio"], fullest as f64 / 10.0);
    assert!(json.get("nodes").is_none());
    slotgen(&["placement", "--hex"], b"7b617d\nzz\n")
        .fails_with("key 2 of standard input is not hex");
}

/// `-z` and `--header` against a live cluster, as on every command that reads or prints
/// keys: `keys -z` prints keys that hold a line feed as NUL-terminated records, and
/// `verify --keys - -z` and `placement -z` read them back whole; `keys --header` names its
/// fields.
#[test]
fn nul_terminated_keys_pass_through_keys_verify_and_placement() {
    let Some(cluster) = live::cluster(Server::Redis, 0, None, &[]) else {
        return;
    };
    let url = cluster.url();
    let run = slotgen(
        &[
            "keys", "--redis", &url, "--count", "6", "--format", "keys", "-z", "--suffix", ":a\nb",
        ],
        b"",
    );
    let out = run.ok().to_owned();
    let keys: Vec<&str> = out.split_terminator('\0').collect();
    assert_eq!(keys.len(), 6, "{out:?}");
    assert!(keys.iter().all(|k| k.ends_with(":a\nb")), "{keys:?}");
    let verify = slotgen(
        &["verify", "--redis", &url, "--keys", "-", "-z"],
        out.as_bytes(),
    );
    assert!(
        verify
            .ok()
            .contains("keys:       6 of 6 keys get the same slot from the server"),
        "{}",
        verify.stdout
    );
    let placement = slotgen(&["placement", "--redis", &url, "-z"], out.as_bytes());
    assert_eq!(placement.rows()[0][..2], ["keys", "6"]);
    // raw keys without -z: the line feed would split a key over records, and is refused
    slotgen(
        &[
            "keys", "--redis", &url, "--count", "6", "--format", "keys", "--suffix", ":a\nb",
        ],
        b"",
    )
    .fails_with_code(2, "--suffix holds a line break");
    // TSV escapes it, as every byte but printable ASCII: `\x0a`
    let tsv = slotgen(
        &["keys", "--redis", &url, "--count", "6", "--suffix", ":a\nb"],
        b"",
    );
    let rows = tsv.ok().lines().count();
    assert_eq!(rows, 6, "{}", tsv.stdout);
    assert!(
        tsv.rows()
            .iter()
            .all(|r| r.len() == 4 && r[3].ends_with(":a\\x0ab")),
        "{}",
        tsv.stdout
    );
    let header = slotgen(&["keys", "--redis", &url, "--count", "3", "--header"], b"");
    assert_eq!(header.ok().lines().next(), Some("node_id\taddr\tslot\tkey"));
    assert_eq!(header.rows().len(), 4);
}
