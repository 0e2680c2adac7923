//! `slotgen verify --redis` and `slotgen nodes --redis` against servers that misbehave:
//! silent, trickling, sending huge replies, stopping mid-reply, not speaking RESP, and
//! well-behaved fakes to count what arrives when. The fake servers are test code on
//! loopback, each stopped with its listener; the product's side is the real binary, its peak
//! memory measured by `/usr/bin/time`.

use crate::common::{run_measured, slotgen_with_stdin, Run};
use std::io::Write;
use std::net::{Ipv4Addr, TcpListener, TcpStream};
use std::process::{Child, Command, Output, Stdio};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How the fake server answers.
#[derive(Clone, Copy)]
enum Behaviour {
    /// Reads and never answers.
    Silent,
    /// Answers AUTH and INFO (cluster-enabled), then reads and never answers.
    InfoThenSilent,
    /// Answers INFO, then announces a bulk reply of 10^9 bytes and sends bytes until the
    /// client leaves or all were sent.
    InfoThenHuge,
    /// Answers INFO with `cluster_enabled:0`.
    NotCluster,
    /// Answers HTTP.
    Http,
    /// Answers INFO, and every CLUSTER KEYSLOT with the true XMODEM slot, or with 0.
    Keyslot { wrong: bool },
    /// A cluster of one node, itself, owning every slot: answers AUTH, INFO, CLUSTER INFO,
    /// CLUSTER SHARDS and CLUSTER NODES as a Redis 7 node does, except the command `at`
    /// (`CLUSTER SHARDS`), which gets `reply`.
    Node { at: &'static str, reply: Hostile },
}

/// What a [`Behaviour::Node`] answers its command `at` with. The long ones stop after
/// [`HOSTILE_CAP`] bytes and then hold the connection open without a word, so that a client
/// that reads them all is left to its deadline.
#[derive(Clone, Copy, Debug)]
enum Hostile {
    /// The true answer.
    Truth,
    /// `$1000000000`, then bytes.
    HugeString,
    /// `*1000000000`, then empty simple strings (`+\r\n`, 3 bytes for a value of 56).
    HugeArray,
    /// `*400000`, then arrays of three empty strings: 1.6 million values.
    ManyValues,
    /// `*400000`, then strings of 1000 bytes: 400 MB.
    ManyBytes,
    /// The start of an answer, then nothing: `*1`, `*4`, `$5 slots` for CLUSTER SHARDS, the
    /// first line of a text of 1000 bytes for the others.
    Stop,
    /// The true `CLUSTER SHARDS`, with the node's field `name` (`id`, `endpoint`, `port`,
    /// `health`, ...) given the bulk string `value`.
    Field {
        name: &'static str,
        value: &'static [u8],
    },
    /// These bytes, a whole RESP reply (an error, a text), then on as the truth.
    Reply(&'static [u8]),
    /// No answer: the connection is closed (the node failed after answering the map).
    Close,
    /// The true `CLUSTER SHARDS` with the slots 8192-16383 given to a second primary, online,
    /// at a port where nothing listens (it failed after the cluster's last word on it).
    SecondPrimaryGone,
}

/// The most bytes a hostile answer sends: more than [`PEAK_KIB`], so that a client which
/// keeps what it is sent fails the memory bound whatever it keeps.
const HOSTILE_CAP: usize = 160 << 20;

/// The node id of [`Behaviour::Node`].
const NODE_ID: &str = "0123456789abcdef0123456789abcdef01234567";

/// A fake server on a loopback port, serving connections one after another in a thread.
struct Fake {
    port: u16,
    /// CLUSTER KEYSLOT queries answered so far; for a [`Behaviour::Node`], the `AUTH`s.
    queries: Arc<AtomicUsize>,
    /// Bytes of the huge reply sent before the client left.
    huge_sent: Arc<AtomicU64>,
}

impl Fake {
    fn start(behaviour: Behaviour) -> Self {
        let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).unwrap();
        let port = listener.local_addr().unwrap().port();
        let queries = Arc::new(AtomicUsize::new(0));
        let huge_sent = Arc::new(AtomicU64::new(0));
        let (q, h) = (queries.clone(), huge_sent.clone());
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { return };
                let (q, h) = (q.clone(), h.clone());
                std::thread::spawn(move || serve(stream, behaviour, port, &q, &h));
            }
        });
        Self {
            port,
            queries,
            huge_sent,
        }
    }

    fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }
}

/// Serves one connection: reads commands with the `redis` crate's parser (requests are RESP
/// arrays too), answers by `behaviour`; `port` is the fake's own.
fn serve(
    mut stream: TcpStream,
    behaviour: Behaviour,
    port: u16,
    queries: &AtomicUsize,
    huge: &AtomicU64,
) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(120)));
    let mut reader = stream.try_clone().unwrap();
    let mut parser = redis::Parser::new();
    let xmodem = crc::Crc::<u16>::new(&crc::CRC_16_XMODEM);
    loop {
        let Ok(redis::Value::Array(args)) = parser.parse_value(&mut reader) else {
            return;
        };
        let args: Vec<Vec<u8>> = args
            .into_iter()
            .map(|a| match a {
                redis::Value::BulkString(b) => b,
                _ => Vec::new(),
            })
            .collect();
        let command = String::from_utf8_lossy(&args[0]).to_ascii_uppercase();
        if let Behaviour::Node { at, reply } = behaviour {
            let mut name = command.clone();
            if let (Some(sub), "CLUSTER") = (args.get(1), command.as_str()) {
                name = format!(
                    "CLUSTER {}",
                    String::from_utf8_lossy(sub).to_ascii_uppercase()
                );
            }
            if name == "AUTH" {
                queries.fetch_add(1, Ordering::SeqCst);
            }
            let answer = if name == at {
                match reply {
                    Hostile::Close => return,
                    Hostile::Reply(bytes) => bytes.to_vec(),
                    Hostile::Field { name: field, value } => {
                        shards_answer(port, Some((field, value)), None)
                    }
                    Hostile::SecondPrimaryGone => shards_answer(port, None, Some(closed_port())),
                    _ => match hostile(reply, at) {
                        Some((head, unit)) => {
                            send_hostile(&mut stream, &head, &unit, huge);
                            // hold the connection, silent, until the client leaves
                            let _ = std::io::copy(&mut reader, &mut std::io::sink());
                            return;
                        }
                        None => node_answer(&name, port),
                    },
                }
            } else {
                node_answer(&name, port)
            };
            if stream.write_all(&answer).is_err() {
                return;
            }
            continue;
        }
        let reply: Vec<u8> = match (behaviour, command.as_str()) {
            (Behaviour::Silent, _) => continue,
            (Behaviour::Http, _) => {
                b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n".to_vec()
            }
            (_, "AUTH") => b"+OK\r\n".to_vec(),
            (Behaviour::NotCluster, "INFO") => bulk(b"# Cluster\r\ncluster_enabled:0\r\n"),
            (_, "INFO") => bulk(b"# Cluster\r\ncluster_enabled:1\r\n"),
            (Behaviour::InfoThenSilent, _) => continue,
            (Behaviour::InfoThenHuge, _) => {
                let _ = stream.write_all(b"$1000000000\r\n");
                let block = vec![b'x'; 1 << 16];
                let mut sent = 0u64;
                while sent < 1_000_000_000 && stream.write_all(&block).is_ok() {
                    sent += block.len() as u64;
                    huge.store(sent, Ordering::SeqCst);
                }
                return;
            }
            (Behaviour::Node { .. }, _) => unreachable!("answered above"),
            (Behaviour::Keyslot { wrong }, "CLUSTER") => {
                queries.fetch_add(1, Ordering::SeqCst);
                let key = &args[2];
                let slot = if wrong {
                    0
                } else {
                    xmodem.checksum(hashtag(key)) & 16383
                };
                format!(":{slot}\r\n").into_bytes()
            }
            _ => b"-ERR unknown command\r\n".to_vec(),
        };
        if stream.write_all(&reply).is_err() {
            return;
        }
    }
}

/// What a Redis 7 node that is the whole cluster, on `port`, answers to `name`.
fn node_answer(name: &str, port: u16) -> Vec<u8> {
    match name {
        "AUTH" => b"+OK\r\n".to_vec(),
        "INFO" => bulk(b"# Cluster\r\ncluster_enabled:1\r\n"),
        "CLUSTER INFO" => bulk(
            b"cluster_state:ok\r\ncluster_slots_assigned:16384\r\ncluster_slots_ok:16384\r\n\
              cluster_slots_pfail:0\r\ncluster_slots_fail:0\r\ncluster_known_nodes:1\r\n\
              cluster_size:1\r\n",
        ),
        "CLUSTER SHARDS" => shards_answer(port, None, None),
        // an empty cluster, of a server without CLUSTER SLOT-STATS
        "CLUSTER COUNTKEYSINSLOT" => b":0\r\n".to_vec(),
        "CLUSTER SLOT-STATS" => {
            b"-ERR unknown subcommand 'SLOT-STATS'. Try CLUSTER HELP.\r\n".to_vec()
        }
        "CLUSTER NODES" => bulk(
            format!("{NODE_ID} 127.0.0.1:{port}@1{port} myself,master - 0 0 1 connected 0-16383\n")
                .as_bytes(),
        ),
        _ => b"-ERR unknown command\r\n".to_vec(),
    }
}

/// `CLUSTER SHARDS` of the fake on `port`: the node itself, its field `name` given `value`
/// when `change` says so; with `gone`, the slots 8192-16383 are a second primary's, online,
/// at that port.
fn shards_answer(port: u16, change: Option<(&str, &[u8])>, gone: Option<u16>) -> Vec<u8> {
    let node = |id: &str, port: u16| {
        let mut node = b"*14\r\n".to_vec();
        for (field, value) in [
            ("id", bulk(id.as_bytes())),
            ("port", format!(":{port}\r\n").into_bytes()),
            ("ip", bulk(b"127.0.0.1")),
            ("endpoint", bulk(b"127.0.0.1")),
            ("role", bulk(b"master")),
            ("replication-offset", b":0\r\n".to_vec()),
            ("health", bulk(b"online")),
        ] {
            node.extend(bulk(field.as_bytes()));
            match change {
                Some((name, value)) if name == field && id == NODE_ID => node.extend(bulk(value)),
                _ => node.extend(value),
            }
        }
        node
    };
    let shard = |first: u16, last: u16, node: Vec<u8>| {
        let mut shard = b"*4\r\n".to_vec();
        shard.extend(bulk(b"slots"));
        shard.extend(format!("*2\r\n:{first}\r\n:{last}\r\n").into_bytes());
        shard.extend(bulk(b"nodes"));
        shard.extend(b"*1\r\n");
        shard.extend(node);
        shard
    };
    match gone {
        None => {
            let mut shards = b"*1\r\n".to_vec();
            shards.extend(shard(0, 16383, node(NODE_ID, port)));
            shards
        }
        Some(gone) => {
            let mut shards = b"*2\r\n".to_vec();
            shards.extend(shard(0, 8191, node(NODE_ID, port)));
            shards.extend(shard(8192, 16383, node(GONE_ID, gone)));
            shards
        }
    }
}

/// The node id of the second primary of [`Hostile::SecondPrimaryGone`].
const GONE_ID: &str = "fedcba9876543210fedcba9876543210fedcba98";

/// A loopback port where nothing listens (bound, then let go).
fn closed_port() -> u16 {
    let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).unwrap();
    listener.local_addr().unwrap().port()
}

/// The head of a hostile answer to `at` and the unit repeated after it; `None` for the truth.
fn hostile(reply: Hostile, at: &str) -> Option<(Vec<u8>, Vec<u8>)> {
    let (head, unit): (&[u8], Vec<u8>) = match reply {
        Hostile::Truth
        | Hostile::Field { .. }
        | Hostile::Reply(_)
        | Hostile::Close
        | Hostile::SecondPrimaryGone => return None,
        Hostile::HugeString => (b"$1000000000\r\n", b"x".to_vec()),
        Hostile::HugeArray => (b"*1000000000\r\n", b"+\r\n".to_vec()),
        Hostile::ManyValues => (b"*400000\r\n", b"*3\r\n+\r\n+\r\n+\r\n".to_vec()),
        Hostile::ManyBytes => (b"*400000\r\n", bulk(&[b'x'; 1000])),
        Hostile::Stop if at == "CLUSTER SHARDS" => (b"*1\r\n*4\r\n$5\r\nslots\r\n", Vec::new()),
        Hostile::Stop => (b"$1000\r\ncluster_state:ok\r\n", Vec::new()),
    };
    Some((head.to_vec(), unit))
}

/// Writes `head`, then `unit` over and over up to [`HOSTILE_CAP`] bytes in all or until the
/// client leaves, counting the bytes sent in `sent`.
fn send_hostile(stream: &mut TcpStream, head: &[u8], unit: &[u8], sent: &AtomicU64) {
    if stream.write_all(head).is_err() || unit.is_empty() {
        return;
    }
    let block: Vec<u8> = unit.repeat((1 << 16) / unit.len() + 1);
    let mut total = head.len();
    while total < HOSTILE_CAP && stream.write_all(&block).is_ok() {
        total += block.len();
        sent.store(total as u64, Ordering::SeqCst);
    }
}

/// The Redis Cluster specification's hashtag rule, written again here.
fn hashtag(key: &[u8]) -> &[u8] {
    if let Some(open) = key.iter().position(|&b| b == b'{') {
        if let Some(len) = key[open + 1..].iter().position(|&b| b == b'}') {
            if len > 0 {
                return &key[open + 1..open + 1 + len];
            }
        }
    }
    key
}

fn bulk(text: &[u8]) -> Vec<u8> {
    let mut reply = format!("${}\r\n", text.len()).into_bytes();
    reply.extend_from_slice(text);
    reply.extend_from_slice(b"\r\n");
    reply
}

fn spawn(args: &[&str]) -> Child {
    spawn_program(env!("CARGO_BIN_EXE_slotgen"), args)
}

fn spawn_program(program: &str, args: &[&str]) -> Child {
    Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("slotgen runs")
}

/// Waits for `child`, killing it (by its own id) and failing after `limit`: a guard against
/// a hang, not a timing assertion.
fn finish(mut child: Child, limit: Duration) -> Output {
    drop(child.stdin.take());
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("slotgen did not finish within {limit:?}: it hangs");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

fn run(args: &[&str]) -> Run {
    let output = finish(spawn(args), Duration::from_secs(90));
    Run::from(output)
}

/// The peak resident memory allowed a run against a hostile server, in KiB: the debug
/// binary takes about 10 MiB at rest; a client that stores what it is sent takes more than
/// [`HOSTILE_CAP`] of a string, and some 19 bytes per byte of small values.
const PEAK_KIB: u64 = 100 * 1024;

#[test]
fn a_server_that_stops_answering_times_out_within_the_overall_deadline() {
    for behaviour in [Behaviour::Silent, Behaviour::InfoThenSilent] {
        let fake = Fake::start(behaviour);
        let run = run(&["verify", "--redis", &fake.url(), "--timeout", "2"]);
        run.fails_with("timed out");
        assert!(run.stderr.contains("within 2s"), "{}", run.stderr);
    }
}

#[test]
fn a_huge_reply_is_refused_after_a_bounded_read() {
    let fake = Fake::start(Behaviour::InfoThenHuge);
    let (run, peak) = run_measured(&["verify", "--redis", &fake.url(), "--timeout", "20"]);
    run.fails_with(
        "sent a reply too large for `CLUSTER KEYSLOT`: more than 4096 bytes in one string",
    );
    // the client left at the announcement, having read what the kernel's socket buffers
    // took: far from the 10^9 bytes announced
    let sent = fake.huge_sent.load(Ordering::SeqCst);
    assert!(
        sent < 64 << 20,
        "the fake sent {sent} bytes before slotgen left"
    );
    if let Some(peak) = peak {
        assert!(peak < PEAK_KIB, "slotgen's peak memory was {peak} KiB");
    }
}

#[test]
fn a_node_that_is_the_whole_cluster_is_read() {
    // the fake of the tests below, answering the truth: its map is read
    let fake = Fake::start(Behaviour::Node {
        at: "CLUSTER SHARDS",
        reply: Hostile::Truth,
    });
    let run = run(&["nodes", "--redis", &fake.url()]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(
        run.stdout,
        format!(
            "{NODE_ID}\t127.0.0.1:{}\tprimary\t16384\t0-16383\tonline\n",
            fake.port
        )
    );
}

#[test]
fn huge_cluster_answers_are_refused_in_bounded_memory() {
    let secret = "s3cret";
    for (command, at, reply, limit) in [
        (
            "nodes",
            "CLUSTER SHARDS",
            Hostile::HugeString,
            "1024 bytes in one string",
        ),
        (
            "keys",
            "CLUSTER SHARDS",
            Hostile::HugeString,
            "1024 bytes in one string",
        ),
        (
            "placement",
            "CLUSTER SHARDS",
            Hostile::HugeString,
            "1024 bytes in one string",
        ),
        (
            "nodes",
            "CLUSTER SHARDS",
            Hostile::HugeArray,
            "573441 values",
        ),
        (
            "nodes",
            "CLUSTER SHARDS",
            Hostile::ManyValues,
            "573441 values",
        ),
        (
            "nodes",
            "CLUSTER SHARDS",
            Hostile::ManyBytes,
            "17170448 bytes",
        ),
        (
            "nodes",
            "INFO",
            Hostile::HugeString,
            "4096 bytes in one string",
        ),
        ("nodes", "CLUSTER INFO", Hostile::HugeArray, "1 value,"),
        (
            "load",
            "CLUSTER SLOT-STATS",
            Hostile::HugeArray,
            "327681 values",
        ),
        (
            "load",
            "CLUSTER SLOT-STATS",
            Hostile::HugeString,
            "1024 bytes in one string",
        ),
        (
            "nodes",
            "CLUSTER NODES",
            Hostile::HugeString,
            "bytes in one string",
        ),
    ] {
        let fake = Fake::start(Behaviour::Node { at, reply });
        let url = format!("redis://:{secret}@127.0.0.1:{}", fake.port);
        let mut args = vec![command, "--redis", &url, "--timeout", "60"];
        if command == "keys" {
            args.extend(["--per-node", "1"]);
        }
        let (run, peak) = run_measured(&args);
        // refused by the bound, long before the deadline of 60 s
        run.fails_with("too large");
        let case = format!("{at}, {reply:?}: {}", run.stderr);
        assert!(
            run.stderr.contains(at) && run.stderr.contains(limit),
            "{case}"
        );
        assert!(
            run.stderr.contains("***@") && !run.stderr.contains(secret),
            "{case}"
        );
        if let Some(peak) = peak {
            assert!(
                peak < PEAK_KIB,
                "{case}: slotgen's peak memory was {peak} KiB"
            );
        }
    }
}

#[test]
fn load_reads_slot_stats_or_counts_keys_and_refuses_a_partial_answer() {
    // the fake refuses CLUSTER SLOT-STATS: 16384 CLUSTER COUNTKEYSINSLOT, pipelined
    let fake = Fake::start(Behaviour::Node {
        at: "none",
        reply: Hostile::Truth,
    });
    let counted = run(&["load", "--redis", &fake.url()]);
    assert_eq!(counted.code, Some(0), "{}", counted.stderr);
    assert!(
        counted
            .stdout
            .starts_with("source\tCLUSTER COUNTKEYSINSLOT\tkeys\n"),
        "{}",
        counted.stdout
    );
    assert!(counted.stdout.contains(&format!(
        "node\t{NODE_ID}\t127.0.0.1:{}\t16384\tkeys\t0\t0.00%\n",
        fake.port
    )));
    assert!(counted.stdout.contains("skew\tkeys\t-\n"));
    assert!(
        counted.stderr.contains("unknown subcommand"),
        "{}",
        counted.stderr
    );
    // slot stats of slot 0 alone, from a node that owns them all
    let partial = Fake::start(Behaviour::Node {
        at: "CLUSTER SLOT-STATS",
        reply: Hostile::Reply(b"*1\r\n*2\r\n:0\r\n*2\r\n$9\r\nkey-count\r\n:5\r\n"),
    });
    run(&["load", "--redis", &partial.url()])
        .fails_with("gives `key-count` for 1 of the 16384 slots it owns");
    // a slot given twice, and a count that is not one
    for reply in [
        &b"*2\r\n*2\r\n:0\r\n*0\r\n*2\r\n:0\r\n*0\r\n"[..],
        b"*1\r\n*2\r\n:0\r\n*2\r\n$9\r\nkey-count\r\n$1\r\n\x1b\r\n",
    ] {
        let fake = Fake::start(Behaviour::Node {
            at: "CLUSTER SLOT-STATS",
            reply: Hostile::Reply(reply.to_vec().leak()),
        });
        let run = run(&["load", "--redis", &fake.url()]);
        run.fails_with("`CLUSTER SLOT-STATS` with something that is not a cluster node's answer");
        assert!(!has_control(&run.stderr, false), "{}", run.stderr);
    }
}

#[test]
fn a_node_that_stops_mid_reply_times_out_at_the_deadline() {
    for at in ["CLUSTER INFO", "CLUSTER SHARDS", "CLUSTER NODES"] {
        let fake = Fake::start(Behaviour::Node {
            at,
            reply: Hostile::Stop,
        });
        let run = run(&["nodes", "--redis", &fake.url(), "--timeout", "2"]);
        run.fails_with("timed out");
        assert!(
            run.stderr.contains("within 2s") && run.stderr.contains(&format!("`{at}`")),
            "{}",
            run.stderr
        );
    }
}

/// A server that echoes the password sent, whole or in part, in any reply (break28: a
/// port that quotes the request, a proxy): no part of it of 4 letters or more is printed,
/// in any case; and `AUTH` answered with what is not RESP is not sent again.
#[test]
fn a_password_a_server_echoes_in_any_reply_is_not_printed() {
    let secret = "S3cr3tPw!x";
    // every 4 letters of the password, as a reader would find them, in any case
    let parts: Vec<String> = (0..=secret.len() - 4)
        .map(|i| secret[i..i + 4].to_ascii_lowercase())
        .collect();
    let refused = "refused the password of user `default` (ERR (the rest";
    for (at, reply, needle, auths) in [
        ("AUTH", &b"+S3cr3tPw!x\r\n"[..], "`AUTH`", 1),
        ("AUTH", b"$10\r\nS3cr3tPw!x\r\n", "`AUTH`", 1),
        ("AUTH", b"S3cr3tPw!x\r\n", "`AUTH`", 1),
        ("AUTH", b"-ERR S3cr3tP\r\n", refused, 1),
        ("AUTH", b"-ERR wrong password s3CR3TPW\r\n", refused, 1),
        (
            "CLUSTER NODES",
            b"$10\r\nS3cr3tPw!x\r\n",
            "`CLUSTER NODES`",
            5,
        ),
    ] {
        let fake = Fake::start(Behaviour::Node {
            at,
            reply: Hostile::Reply(reply),
        });
        let url = format!("redis://:S3cr3tPw%21x@127.0.0.1:{}", fake.port);
        let run = run(&["nodes", "--redis", &url, "--timeout", "10"]);
        run.fails_with(needle);
        let said = format!("{}{}", run.stdout, run.stderr).to_ascii_lowercase();
        for part in &parts {
            assert!(
                !said.contains(part.as_str()),
                "{at} {reply:?}: {}",
                run.stderr
            );
        }
        // a map malformed at each read is read 5 times; AUTH's answer that is no RESP once
        assert_eq!(fake.queries.load(Ordering::SeqCst), auths, "{}", run.stderr);
    }
}

#[test]
fn passwords_are_never_shown() {
    let secret = "s3cret";
    let closed = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).unwrap();
    let port = closed.local_addr().unwrap().port();
    drop(closed);
    let not_cluster = Fake::start(Behaviour::NotCluster);
    let agreeing = Fake::start(Behaviour::Keyslot { wrong: false });
    let silent = Fake::start(Behaviour::InfoThenSilent);
    for (url, needle) in [
        (
            format!("redis://:{secret}@127.0.0.1:{port}"),
            "cannot reach",
        ),
        (
            format!("redis://app:{secret}@127.0.0.1:{}", not_cluster.port),
            "is not cluster-enabled",
        ),
        (
            format!("redis://:{secret}@127.0.0.1:{}", silent.port),
            "timed out",
        ),
        (
            format!("redis://:{secret}@127.0.0.1:{port}x"),
            "is not a server URL",
        ),
    ] {
        let run = run(&["verify", "--redis", &url, "--timeout", "2"]);
        // a URL that does not parse is a usage error (2); the rest could not be done (1)
        let code = if needle == "is not a server URL" {
            2
        } else {
            1
        };
        run.fails_with_code(code, needle);
        assert!(run.stderr.contains(":***@"), "{}", run.stderr);
        assert!(!run.stderr.contains(secret) && !run.stdout.contains(secret));
    }
    let url = format!("redis://:{secret}@127.0.0.1:{}", agreeing.port);
    let run = run(&["verify", "--redis", &url]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    run.prints("server:     redis://:***@127.0.0.1:");
    assert!(!run.stderr.contains(secret) && !run.stdout.contains(secret));
}

#[test]
fn keys_are_streamed_to_the_server_while_standard_input_is_open() {
    let fake = Fake::start(Behaviour::Keyslot { wrong: false });
    let url = fake.url();
    let mut child = spawn(&["verify", "--redis", &url, "--keys", "-"]);
    let mut stdin = child.stdin.take().unwrap();
    let keys: String = (0..3000).map(|i| format!("user:{i}\n")).collect();
    stdin.write_all(keys.as_bytes()).unwrap();
    // standard input stays open: a streaming reader has sent the first chunks of keys
    // (after the 16384 tags) by now, one that reads everything first has sent nothing
    let start = Instant::now();
    while fake.queries.load(Ordering::SeqCst) < 16384 + 1024 {
        if start.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "the server saw {} queries with standard input open: keys are not streamed",
                fake.queries.load(Ordering::SeqCst)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    drop(stdin);
    let output = finish(child, Duration::from_secs(60));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.contains("keys:       3000 of 3000 keys get the same slot"),
        "{stdout}"
    );
    assert_eq!(fake.queries.load(Ordering::SeqCst), 16384 + 3000);
}

#[test]
fn disagreements_are_listed_up_to_max_errors() {
    let fake = Fake::start(Behaviour::Keyslot { wrong: true });
    for (args, listed) in [(vec![], 20), (vec!["--max-errors", "3"], 3)] {
        let mut all = vec!["verify", "--redis"];
        let url = fake.url();
        all.push(&url);
        all.extend(args);
        let run = run(&all);
        run.fails_with("16383 answers of");
        let lines = run
            .stdout
            .lines()
            .filter(|l| l.starts_with("disagree:"))
            .count();
        assert_eq!(lines, listed, "{}", run.stdout);
        assert!(
            run.stderr
                .contains(&format!("the first {listed} are listed")),
            "{}",
            run.stderr
        );
    }
}

#[test]
fn a_server_that_is_not_redis_gets_one_line() {
    let fake = Fake::start(Behaviour::Http);
    let run = run(&["verify", "--redis", &fake.url(), "--timeout", "5"]);
    run.fails_with("is not a cluster node's answer");
}

#[test]
fn urls_that_do_not_parse_are_refused_in_our_words() {
    for url in ["redis://[", "http://127.0.0.1/", "redis://127.0.0.1:99999"] {
        let run = run(&["verify", "--redis", url]);
        run.fails_with_code(2, "is not a server URL");
        assert!(
            !run.stderr.contains("InvalidClientConfig"),
            "{}",
            run.stderr
        );
    }
}

/// Whether `text` holds a control byte other than the line feeds (and, with `tabs`, the tabs)
/// that slotgen's own lines and columns are made of.
fn has_control(text: &str, tabs: bool) -> bool {
    text.bytes()
        .any(|b| (b < 0x20 || b == 0x7f) && b != b'\n' && !(tabs && b == b'\t'))
}

#[test]
fn hostile_strings_are_refused_naming_the_node_or_printed_escaped() {
    // refused: one line naming the node (by address when the id is the bad string), escaped
    for (at, reply, needle) in [
        (
            "CLUSTER SHARDS",
            Hostile::Field {
                name: "id",
                value: b"0123\t4567\n89ab\x1b[2Jcdef",
            },
            r"has id `0123\x094567\x0a89ab\x1b[2Jcdef`, not 40 hex digits",
        ),
        (
            "CLUSTER SHARDS",
            Hostile::Field {
                name: "endpoint",
                value: b"h\tx\n\x1b[2J",
            },
            r"has host `h\x09x\x0a\x1b[2J`, which is neither an IP address nor a hostname",
        ),
        (
            "CLUSTER SHARDS",
            Hostile::Field {
                name: "port",
                value: b"70\x0700",
            },
            r"has port `70\x0700`, not a number in 1..65535",
        ),
        (
            "CLUSTER NODES",
            Hostile::Reply(
                b"$63\r\nab\tcd\x1b[2J 127.0.0.1:1@2 myself,master - 0 0 1 connected 0-16383\r\n",
            ),
            r"has id `ab\x09cd\x1b[2J`, not 40 hex digits",
        ),
        (
            "CLUSTER NODES",
            Hostile::Reply(b"-ERR no\x1b[2J\x07 way\tout\r\n"),
            "refused `CLUSTER NODES`",
        ),
        (
            "CLUSTER INFO",
            Hostile::Reply(b"$26\r\ncluster_state:f\x1b[2J\tail\x07\r\n\r\n"),
            r"is in state `f\x1b[2J\x09ail\x07`",
        ),
        // a reply of the wrong type is named by its RESP type and value
        (
            "CLUSTER INFO",
            Hostile::Reply(b"+OK\r\n"),
            "the answer is not text but the status `+OK`",
        ),
        (
            "CLUSTER NODES",
            Hostile::Reply(b":7\r\n"),
            "the answer is not text but the integer 7",
        ),
    ] {
        let fake = Fake::start(Behaviour::Node { at, reply });
        for command in ["nodes", "keys", "placement"] {
            let mut args = vec![command, "--redis"];
            let url = fake.url();
            args.push(&url);
            if command == "keys" {
                args.extend(["--count", "3"]);
            }
            let run = run(&args);
            let case = format!("{command}, {at}, {reply:?}: {:?}", run.stderr);
            run.fails_with(needle);
            assert!(!has_control(&run.stderr, false), "{case}");
        }
    }
}

#[test]
fn a_health_that_is_not_known_stays_in_its_column_escaped() {
    let fake = Fake::start(Behaviour::Node {
        at: "CLUSTER SHARDS",
        reply: Hostile::Field {
            name: "health",
            value: b"on\tline\n\x1b[2J",
        },
    });
    let run = run(&["nodes", "--redis", &fake.url()]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(
        run.stdout,
        format!(
            "{NODE_ID}\t127.0.0.1:{}\tprimary\t16384\t0-16383\ton\\x09line\\x0a\\x1b[2J\n",
            fake.port
        )
    );
    assert!(!has_control(&run.stdout, true), "{:?}", run.stdout);
    // not taken for a node that serves: no keys for it
    let keys = run_with_node(&fake);
    keys.fails_with("does not serve requests yet");
    assert!(!has_control(&keys.stderr, false), "{:?}", keys.stderr);
}

#[test]
fn a_failed_primary_that_still_holds_slots_stops_keys_placement_load_and_rebalance_in_one_line() {
    // the node asked marks its only primary `fail`, which still holds every slot: a failover
    // not done yet
    let fake = Fake::start(Behaviour::Node {
        at: "CLUSTER SHARDS",
        reply: Hostile::Field {
            name: "health",
            value: b"fail",
        },
    });
    let url = fake.url();
    let needle = format!(
        "slots 0-16383 are served by no node: their primary {NODE_ID} (127.0.0.1:{}) is left out (`CLUSTER SHARDS` gives it health `fail`); a failover may be under way",
        fake.port
    );
    let keys = run(&["keys", "--redis", &url, "--per-node", "1"]);
    keys.fails_with(&needle);
    assert_eq!(keys.stderr.lines().count(), 1, "{}", keys.stderr);
    let placement = Run::from(slotgen_with_stdin(&["placement", "--redis", &url], b"a\n"));
    placement.fails_with(&needle);
    assert_eq!(placement.stderr.lines().count(), 1, "{}", placement.stderr);
    // load and rebalance read the same map
    for args in [
        &["load", "--redis", &url][..],
        &["rebalance", "--redis", &url, "--by", "keys"],
    ] {
        let run = run(args);
        run.fails_with(&needle);
        assert_eq!(run.stderr.lines().count(), 1, "{args:?}: {}", run.stderr);
    }
    // `nodes` lists the map as it is: no row, the node noted with its slots
    let nodes = run(&["nodes", "--redis", &url]);
    assert_eq!(nodes.code, Some(0), "{}", nodes.stderr);
    assert_eq!(nodes.stdout, "");
    assert!(
        nodes
            .stderr
            .contains("is left out (the map still gives it slots 0-16383)"),
        "{}",
        nodes.stderr
    );
}

fn run_with_node(fake: &Fake) -> Run {
    run(&[
        "keys",
        "--redis",
        &fake.url(),
        "--per-node",
        "1",
        "--node",
        NODE_ID,
    ])
}

#[test]
fn a_node_that_fails_between_two_questions_ends_in_one_line() {
    // the node asked answers the map, then closes instead of answering CLUSTER NODES
    let fake = Fake::start(Behaviour::Node {
        at: "CLUSTER NODES",
        reply: Hostile::Close,
    });
    let closed = run(&["keys", "--redis", &fake.url(), "--per-node", "1"]);
    closed.fails_with("cannot reach");
    assert!(closed.stderr.contains("CLUSTER NODES"), "{}", closed.stderr);
    // the map names a second primary, online, that does not answer
    let fake = Fake::start(Behaviour::Node {
        at: "CLUSTER SHARDS",
        reply: Hostile::SecondPrimaryGone,
    });
    for command in ["nodes", "keys", "placement"] {
        let url = fake.url();
        let mut args = vec![command, "--redis", &url];
        if command == "keys" {
            args.extend(["--per-node", "1"]);
        }
        let run = run(&args);
        run.fails_with(&format!(
            "the cluster's map names node {GONE_ID} there, which may have failed since"
        ));
        assert!(run.stdout.is_empty());
    }
}
