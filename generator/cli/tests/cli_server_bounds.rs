//! `slotgen verify --redis` against servers that misbehave: silent, trickling, sending huge
//! replies, not speaking RESP, and a well-behaved fake to count what arrives when. The fake
//! servers are test code on loopback, each stopped with its listener; the product's side is
//! the real binary.

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
}

/// A fake server on a loopback port, serving connections one after another in a thread.
struct Fake {
    port: u16,
    /// CLUSTER KEYSLOT queries answered so far.
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
                std::thread::spawn(move || serve(stream, behaviour, &q, &h));
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
/// arrays too), answers by `behaviour`.
fn serve(mut stream: TcpStream, behaviour: Behaviour, queries: &AtomicUsize, huge: &AtomicU64) {
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
    Command::new(env!("CARGO_BIN_EXE_slotgen"))
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

struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

fn run(args: &[&str]) -> Run {
    let output = finish(spawn(args), Duration::from_secs(90));
    Run {
        code: output.status.code(),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

impl Run {
    fn fails_with(&self, needle: &str) {
        assert_eq!(self.code, Some(1), "{}{}", self.stdout, self.stderr);
        assert!(
            self.stderr.starts_with("slotgen: error: ") && self.stderr.contains(needle),
            "{}",
            self.stderr
        );
        assert_eq!(self.stderr.lines().count(), 1, "{}", self.stderr);
    }
}

#[test]
fn a_server_that_stops_answering_times_out_within_the_overall_deadline() {
    for behaviour in [Behaviour::Silent, Behaviour::InfoThenSilent] {
        let fake = Fake::start(behaviour);
        let run = run(&["verify", "--redis", &fake.url(), "--timeout", "2"]);
        run.fails_with("timed out");
        assert!(run.stderr.contains("within 2 s"), "{}", run.stderr);
    }
}

#[test]
fn a_huge_reply_is_refused_after_a_bounded_read() {
    let fake = Fake::start(Behaviour::InfoThenHuge);
    let run = run(&["verify", "--redis", &fake.url(), "--timeout", "20"]);
    run.fails_with("sent more than");
    // the client left after at most one chunk's budget (4 MiB), plus what the kernel's
    // socket buffers took: far from the 10^9 bytes announced
    let sent = fake.huge_sent.load(Ordering::SeqCst);
    assert!(
        sent < 64 << 20,
        "the fake sent {sent} bytes before slotgen left"
    );
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
            "cannot connect",
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
        run.fails_with(needle);
        assert!(run.stderr.contains(":***@"), "{}", run.stderr);
        assert!(!run.stderr.contains(secret) && !run.stdout.contains(secret));
    }
    let url = format!("redis://:{secret}@127.0.0.1:{}", agreeing.port);
    let run = run(&["verify", "--redis", &url]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(
        run.stdout.contains("server:     redis://:***@127.0.0.1:"),
        "{}",
        run.stdout
    );
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
    run.fails_with("did not answer as a Redis server");
}

#[test]
fn urls_that_do_not_parse_are_refused_in_our_words() {
    for url in ["redis://[", "http://127.0.0.1/", "redis://127.0.0.1:99999"] {
        let run = run(&["verify", "--redis", url]);
        run.fails_with("is not a server URL");
        assert!(
            !run.stderr.contains("InvalidClientConfig"),
            "{}",
            run.stderr
        );
    }
}
