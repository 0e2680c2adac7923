//! A fake cluster of two primaries for answers no real server gives (keys that `MIGRATE`
//! moved listed again, an atomic job that never ends, a migration of a node to itself):
//! RESP2 over loopback, each node a thread. Node 0 owns slots 0 to 8191, node 1 the rest;
//! each answers what a Redis 7.0 node of an empty cluster answers to what slotgen sends
//! (`CLUSTER SHARDS`, `NODES`, `SETSLOT`, `GETKEYSINSLOT`, ...) unless the test's `answer`
//! gives another reply. Every command is logged.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// A test's answer: the node (0 or 1) and the command's words give RESP bytes, or `None`
/// for the node's usual answer.
pub(crate) type Answer = dyn Fn(usize, &[String]) -> Option<Vec<u8>> + Send + Sync;

/// Two fake primaries; stopped when dropped.
pub(crate) struct FakeCluster {
    pub(crate) ports: [u16; 2],
    log: Arc<Mutex<Vec<(usize, String)>>>,
    stop: Arc<AtomicBool>,
}

/// The node id of fake node `i`: 40 hex digits.
pub(crate) fn id(i: usize) -> String {
    format!("{:040x}", 0xabcd_ef01_2345_6789_u128 * (i as u128 + 1))
}

pub(crate) fn bulk(s: &str) -> Vec<u8> {
    format!("${}\r\n{s}\r\n", s.len()).into_bytes()
}

pub(crate) fn int(n: i64) -> Vec<u8> {
    format!(":{n}\r\n").into_bytes()
}

pub(crate) fn array(items: &[Vec<u8>]) -> Vec<u8> {
    let mut out = format!("*{}\r\n", items.len()).into_bytes();
    for i in items {
        out.extend_from_slice(i);
    }
    out
}

/// `CLUSTER NODES` as node `me` gives it, with `extra` after each node's slots (its
/// migrations: ` [0->-id]`).
pub(crate) fn nodes(ports: [u16; 2], me: usize, extra: [&str; 2]) -> Vec<u8> {
    let mut text = String::new();
    for i in 0..2 {
        let port = ports[i];
        let myself = if i == me { "myself," } else { "" };
        let (lo, hi) = (i * 8192, i * 8192 + 8191);
        text.push_str(&format!(
            "{} 127.0.0.1:{port}@{} {myself}master - 0 0 {} connected {lo}-{hi}{}\n",
            id(i),
            u32::from(port) + 10000,
            i + 1,
            extra[i]
        ));
    }
    bulk(&text)
}

impl FakeCluster {
    /// Starts the two nodes; `answer` is asked first for every command.
    pub(crate) fn start(answer: Arc<Answer>) -> Self {
        let listeners = [(); 2].map(|()| TcpListener::bind("127.0.0.1:0").unwrap());
        let ports = [0, 1].map(|i| listeners[i].local_addr().unwrap().port());
        let log: Arc<Mutex<Vec<(usize, String)>>> = Arc::default();
        let stop = Arc::new(AtomicBool::new(false));
        for (me, listener) in listeners.into_iter().enumerate() {
            listener.set_nonblocking(true).unwrap();
            let (answer, log, stop) = (Arc::clone(&answer), Arc::clone(&log), Arc::clone(&stop));
            std::thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let Ok((stream, _)) = listener.accept() else {
                        std::thread::sleep(Duration::from_millis(5));
                        continue;
                    };
                    stream.set_nonblocking(false).unwrap();
                    let (answer, log, stop) =
                        (Arc::clone(&answer), Arc::clone(&log), Arc::clone(&stop));
                    std::thread::spawn(move || {
                        let mut out = stream.try_clone().unwrap();
                        let mut reader = BufReader::new(stream);
                        while let Some(words) = read_command(&mut reader) {
                            if stop.load(Ordering::Relaxed) {
                                return;
                            }
                            log.lock().unwrap().push((me, words.join(" ")));
                            let reply =
                                answer(me, &words).unwrap_or_else(|| usual(ports, me, &words));
                            if out.write_all(&reply).is_err() {
                                return;
                            }
                        }
                    });
                }
            });
        }
        Self { ports, log, stop }
    }

    /// The URL of node `i`.
    pub(crate) fn url(&self, i: usize) -> String {
        format!("redis://127.0.0.1:{}", self.ports[i])
    }

    /// The commands sent so far, each with its node.
    pub(crate) fn sent(&self) -> Vec<(usize, String)> {
        self.log.lock().unwrap().clone()
    }
}

impl Drop for FakeCluster {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// One command (a RESP array of bulk strings), its words; `None` at the end.
fn read_command(reader: &mut impl BufRead) -> Option<Vec<String>> {
    let mut line = String::new();
    reader.read_line(&mut line).ok()?;
    let n: usize = line.trim_end().strip_prefix('*')?.parse().ok()?;
    let mut words = Vec::with_capacity(n);
    for _ in 0..n {
        line.clear();
        reader.read_line(&mut line).ok()?;
        let len: usize = line.trim_end().strip_prefix('$')?.parse().ok()?;
        let mut word = vec![0; len + 2];
        reader.read_exact(&mut word).ok()?;
        word.truncate(len);
        words.push(String::from_utf8_lossy(&word).into_owned());
    }
    Some(words)
}

/// What node `me` of an empty two-node Redis 7.0 cluster answers.
fn usual(ports: [u16; 2], me: usize, words: &[String]) -> Vec<u8> {
    let upper: Vec<String> = words.iter().map(|w| w.to_ascii_uppercase()).collect();
    let word = |i: usize| upper.get(i).map_or("", String::as_str);
    let ok = b"+OK\r\n".to_vec();
    match (word(0), word(1)) {
        ("PING", _) => b"+PONG\r\n".to_vec(),
        ("INFO", "KEYSPACE") => bulk("# Keyspace\r\n"),
        ("INFO", _) => bulk(
            "# Server\r\nredis_version:7.0.15\r\nredis_mode:cluster\r\n\r\n# Cluster\r\ncluster_enabled:1\r\n",
        ),
        ("SELECT" | "READONLY" | "ASKING" | "MIGRATE", _) => ok,
        ("CLIENT", "LIST") => bulk(""),
        ("CLIENT", _) => ok,
        ("MULTI", _) => ok,
        ("EXEC", _) => array(&[]),
        ("CONFIG" | "COMMAND", _) => array(&[]),
        ("CLUSTER", "INFO") => bulk(
            "cluster_state:ok\r\ncluster_slots_assigned:16384\r\ncluster_slots_ok:16384\r\ncluster_known_nodes:2\r\ncluster_size:2\r\ncluster_current_epoch:2\r\ncluster_my_epoch:1\r\n",
        ),
        ("CLUSTER", "SHARDS") => array(
            &[0, 1].map(|i| {
                let lo = i as i64 * 8192;
                array(&[
                    bulk("slots"),
                    array(&[int(lo), int(lo + 8191)]),
                    bulk("nodes"),
                    array(&[array(&[
                        bulk("id"),
                        bulk(&id(i)),
                        bulk("port"),
                        int(i64::from(ports[i])),
                        bulk("ip"),
                        bulk("127.0.0.1"),
                        bulk("endpoint"),
                        bulk("127.0.0.1"),
                        bulk("role"),
                        bulk("master"),
                        bulk("replication-offset"),
                        int(0),
                        bulk("health"),
                        bulk("online"),
                    ])]),
                ])
            }),
        ),
        ("CLUSTER", "NODES") => nodes(ports, me, ["", ""]),
        ("CLUSTER", "MYID") => bulk(&id(me)),
        ("CLUSTER", "SETSLOT") => ok,
        ("CLUSTER", "COUNTKEYSINSLOT") => int(0),
        ("CLUSTER", "GETKEYSINSLOT" | "GETSLOTMIGRATIONS") => array(&[]),
        _ => format!("-ERR unknown command '{}'\r\n", word(0)).into_bytes(),
    }
}
