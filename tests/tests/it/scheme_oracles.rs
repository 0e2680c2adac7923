//! Every named scheme's `Scheme::slot` against the real system or an independent CRC-32:
//!
//! - `tarantool-vshard`: Tarantool's own `digest.crc32`, run by `tarantool` on 10,000
//!   random keys, with vshard's bucket formula `digest.crc32(key) % N + 1` written in the
//!   Lua script (the vshard rock is not a Debian package; `bucket_id_strcrc32` is
//!   `strcrc32(key) % total_bucket_count + 1`, and `strcrc32` of a string is
//!   `digest.crc32(key)`, in `vshard/router/init.lua` and `vshard/hash.lua`).
//! - `librdkafka`: a C program compiled against `-lrdkafka` calls the library's own
//!   `rd_kafka_msg_partitioner_consistent` on 10,000 random keys for 3, 12 and 100
//!   partitions, with a topic handle made without a broker.
//! - `twemproxy-crc32a`, `twemproxy-crc32` and `twemproxy-crc16`: `nutcracker` on loopback
//!   in front of 3, 4 and 5 `redis-server` backends; keys SET through the proxy, then
//!   EXISTS on every backend says where each landed. The server index is the backend's
//!   rank by name (see the test). `crc16` is also checked against the test's own bit by
//!   bit `hash_crc16` and against CRC-16/XMODEM mod the servers, which nutcracker does not
//!   compute.
//! - `codis` and `couchbase`: Python's `zlib.crc32` and Go's `hash/crc32`, with the hashtag
//!   rules written out in each script, on random keys and pinned empty-brace cases.
//!
//!
//! Each also checks the other direction: the keys slotgen makes for every slot (bucket,
//! partition, server index) land there by the real system's own answer; for Tarantool and
//! librdkafka also framed keys (`user:<tag>:profile`, `order-<tag>:eu`), whose tag is
//! solved inside the key. For twemproxy's `crc16`, whose 32-bit register tags do not
//! control whole, the keys of 3 and 5 servers are `slotgen shortest --scheme`'s and those
//! of 4 servers the exact inversion's.
//!
//! Each test skips when its program is missing, unless `SLOTGEN_REQUIRE_TOOLS=1`.

use std::fmt::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use slotgen::scheme::invert::SchemeSpec;
use slotgen::scheme::SlotFunction;
use slotgen_tables::{Scheme, SchemeName};
use slotgen_tests::bitwise_crc::nutcracker_crc16;
use slotgen_tests::redis_server::{free_port, RedisServer};
use slotgen_tests::{require_tool, scratch_dir};

/// How long an outside program may run.
const RUN_TIMEOUT: Duration = Duration::from_secs(120);

/// `count` random keys of 0 to 40 bytes of any value, with a `{` and a `}` put in some of
/// them, after the pinned cases.
fn random_keys(seed: u64, count: usize) -> Vec<Vec<u8>> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut keys: Vec<Vec<u8>> = [
        &b""[..],
        b"123456789",
        b"{}",
        b"a{}b",
        b"{}{a}",
        b"{a}",
        b"a{b",
        b"a}b{",
        b"{{a}}",
        b"foo{bar}{zap}",
        b"\xff\x80{\xfe}",
    ]
    .iter()
    .map(|k| k.to_vec())
    .collect();
    while keys.len() < count {
        let len = rng.random_range(0..=40usize);
        let mut key: Vec<u8> = (0..len).map(|_| rng.random::<u8>()).collect();
        if len >= 2 && rng.random_range(0..3) == 0 {
            let open = rng.random_range(0..len - 1);
            let close = rng.random_range(open + 1..len);
            key[open] = b'{';
            key[close] = b'}';
        }
        keys.push(key);
    }
    keys
}

/// One key per line, hex-encoded.
fn hex_lines(keys: &[Vec<u8>]) -> String {
    keys.iter().fold(String::new(), |mut s, k| {
        let _ = writeln!(s, "{}", hex::encode(k));
        s
    })
}

/// Runs `command` with `stdin_file` on its standard input, waits at most [`RUN_TIMEOUT`]
/// (then kills it by its process id), and returns its standard output; panics with its
/// standard error when it fails.
fn run(mut command: Command, stdin_file: &Path, dir: &Path) -> String {
    let out_path = dir.join("stdout");
    let err_path = dir.join("stderr");
    let mut child = command
        .stdin(Stdio::from(
            std::fs::File::open(stdin_file).expect("stdin file"),
        ))
        .stdout(std::fs::File::create(&out_path).expect("stdout file"))
        .stderr(std::fs::File::create(&err_path).expect("stderr file"))
        .spawn()
        .unwrap_or_else(|e| panic!("starting {command:?}: {e}"));
    let deadline = Instant::now() + RUN_TIMEOUT;
    let status = loop {
        if let Some(status) = child.try_wait().expect("waiting") {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{command:?} ran longer than {RUN_TIMEOUT:?}");
        }
        sleep(Duration::from_millis(20));
    };
    let stderr = std::fs::read_to_string(&err_path).unwrap_or_default();
    assert!(status.success(), "{command:?} failed ({status}): {stderr}");
    std::fs::read_to_string(&out_path).expect("reading stdout")
}

/// Parses whitespace-separated numbers, one row per line.
fn rows(text: &str) -> Vec<Vec<u64>> {
    text.lines()
        .map(|l| {
            l.split_whitespace()
                .map(|n| n.parse().unwrap_or_else(|_| panic!("not a number: {l:?}")))
                .collect()
        })
        .collect()
}

/// Asserts that `answers[i]` is `expected(keys[i])`, listing the first disagreements.
fn assert_agree(what: &str, keys: &[Vec<u8>], answers: &[u64], expected: impl Fn(&[u8]) -> u64) {
    assert_eq!(answers.len(), keys.len(), "{what}: one answer per key");
    let wrong: Vec<String> = keys
        .iter()
        .zip(answers)
        .filter(|(k, a)| expected(k) != **a)
        .take(5)
        .map(|(k, a)| format!("{} -> {a}, slotgen {}", hex::encode(k), expected(k)))
        .collect();
    assert!(wrong.is_empty(), "{what}: {wrong:?}");
}

/// Every slot's tag of `scheme` with `slots` slots (its default when `None`) and, for
/// twemproxy, `hash_tag`, as slotgen derives it with the default alphabet: `(slot, key)`,
/// the key made by the runtime (`prefix{tag}suffix` for a scheme with a hashtag rule, the
/// tag alone otherwise). With `all`, every tag of the slot's first value (the kernel).
fn slotgen_keys(
    scheme: SchemeName,
    slots: Option<u32>,
    hash_tag: Option<[u8; 2]>,
    all: bool,
) -> Vec<(u32, Vec<u8>)> {
    let spec = SchemeSpec {
        slots,
        hash_tag,
        ..SchemeSpec::new(scheme)
    };
    let d = slotgen::derive(&spec).expect("every named scheme derives");
    let table = d.table();
    let (prefix, suffix): (&[u8], &[u8]) = match d.scheme.hashtag().delimiters() {
        Some(_) => (b"user:", b":profile"),
        None => (b"", b""),
    };
    let first = d.scheme.offset();
    let mut keys = Vec::new();
    let mut key = [0u8; 64];
    for slot in first..first + d.scheme.slots() {
        let per_value = 1usize << table.kernel().len();
        for tag in table
            .tags_for_slot(slot)
            .unwrap()
            .take(if all { per_value } else { 1 })
        {
            let len = table
                .write_key(prefix, tag.as_ref(), suffix, &mut key)
                .unwrap();
            keys.push((slot, key[..len].to_vec()));
        }
    }
    keys
}

/// slotgen's framed keys `prefix ‖ tag ‖ suffix` for every slot of a whole-key scheme
/// ([`FramedKeys`](slotgen::scheme::invert::FramedKeys)), the canonical tag's.
fn framed_keys(
    scheme: SchemeName,
    slots: Option<u32>,
    prefix: &[u8],
    suffix: &[u8],
) -> Vec<(u32, Vec<u8>)> {
    let spec = SchemeSpec {
        slots,
        ..SchemeSpec::new(scheme)
    };
    let keys = slotgen::scheme::invert::FramedKeys::derive(&spec, prefix, suffix)
        .expect("a whole-key scheme takes a frame");
    let first = keys.scheme().offset();
    (first..first + keys.scheme().slots())
        .map(|slot| (slot, keys.key_for_slot(slot).unwrap()))
        .collect()
}

/// Asserts that the real system put each of slotgen's keys on the slot slotgen made it
/// for: `answers[i]` for `keys[i]`.
fn assert_on_their_slots(what: &str, keys: &[(u32, Vec<u8>)], answers: &[u64]) {
    assert_eq!(answers.len(), keys.len(), "{what}: one answer per key");
    let wrong: Vec<String> = keys
        .iter()
        .zip(answers)
        .filter(|((slot, _), a)| u64::from(*slot) != **a)
        .take(5)
        .map(|((slot, k), a)| {
            format!(
                "{} made for {slot} lands on {a}",
                String::from_utf8_lossy(k)
            )
        })
        .collect();
    assert!(wrong.is_empty(), "{what}: {wrong:?}");
}

#[test]
fn tarantool_digest_crc32_and_vshard_buckets() {
    if !require_tool("tarantool") {
        return;
    }
    let dir = scratch_dir("tarantool-vshard");
    let random = random_keys(13, 10_000);
    // then slotgen's tag for every bucket of 3000 and of 7 (every tag of the first value),
    // and a key `user:<tag>:profile` for every bucket of 3000
    let mut of_3000 = slotgen_keys(SchemeName::TarantoolVshard, None, None, false);
    of_3000.extend(framed_keys(
        SchemeName::TarantoolVshard,
        None,
        b"user:",
        b":profile",
    ));
    let of_7 = slotgen_keys(SchemeName::TarantoolVshard, Some(7), None, true);
    let mut keys = random.clone();
    keys.extend(of_3000.iter().chain(&of_7).map(|(_, k)| k.clone()));
    let input = dir.join("keys.hex");
    std::fs::write(&input, hex_lines(&keys)).unwrap();
    let script = dir.join("buckets.lua");
    std::fs::write(
        &script,
        r#"
local digest = require('digest')
-- vshard's bucket_id_strcrc32(key): strcrc32(key) % total_bucket_count + 1, where
-- strcrc32 of a string is digest.crc32(key) (vshard/router/init.lua, vshard/hash.lua)
local function bucket_id_strcrc32(key, total_bucket_count)
    return digest.crc32(key) % total_bucket_count + 1
end
assert(digest.crc32('123456789') == 0x1cf96d7c, 'check value')
for line in io.lines() do
    local key = line:gsub('..', function(h) return string.char(tonumber(h, 16)) end)
    io.write(string.format('%d %d %d\n', digest.crc32(key),
        bucket_id_strcrc32(key, 3000), bucket_id_strcrc32(key, 7)))
end
io.flush()
os.exit(0)
"#,
    )
    .unwrap();
    let mut command = Command::new("tarantool");
    command.arg(&script).current_dir(&dir);
    let all = rows(&run(command, &input, &dir));
    let (answers, tags) = all.split_at(random.len());
    let (tags_3000, tags_7) = tags.split_at(of_3000.len());
    let bucket = |rows: &[Vec<u64>], i: usize| rows.iter().map(|r| r[i]).collect::<Vec<_>>();
    assert_on_their_slots("tags of 3000 buckets", &of_3000, &bucket(tags_3000, 1));
    assert_on_their_slots("tags of 7 buckets", &of_7, &bucket(tags_7, 2));
    let keys = random;
    let column = |i: usize| answers.iter().map(|r| r[i]).collect::<Vec<_>>();
    let default = SchemeName::TarantoolVshard.scheme(None, None).unwrap();
    let seven = Scheme::tarantool_vshard(7).unwrap();
    assert_agree("digest.crc32", &keys, &column(0), |k| default.value(k));
    assert_agree("bucket of 3000", &keys, &column(1), |k| {
        u64::from(default.slot(k))
    });
    assert_agree("bucket of 7", &keys, &column(2), |k| {
        u64::from(seven.slot(k))
    });
    assert!(column(1).iter().all(|b| (1..=3000).contains(b)));
}

/// The C program: for each hex key on standard input, the partition of 3, 12 and 100 by
/// the library's own consistent partitioner.
const RDKAFKA_PROGRAM: &str = include_str!("../../drivers/oracles/rdkafka_partitions.c");

#[test]
fn librdkafka_consistent_partitioner() {
    if !require_tool("gcc") {
        return;
    }
    let header = Path::new("/usr/include/librdkafka/rdkafka.h");
    if !header.is_file() {
        assert!(
            std::env::var("SLOTGEN_REQUIRE_TOOLS").as_deref() != Ok("1"),
            "librdkafka's header is missing, and SLOTGEN_REQUIRE_TOOLS=1 requires it (.ci/run installs librdkafka-dev)"
        );
        eprintln!("skipping: librdkafka-dev is not installed");
        return;
    }
    let dir = scratch_dir("librdkafka");
    let source = dir.join("partition.c");
    let binary = dir.join("partition");
    std::fs::write(&source, RDKAFKA_PROGRAM).unwrap();
    let empty = dir.join("empty");
    std::fs::write(&empty, "").unwrap();
    let mut gcc = Command::new("gcc");
    gcc.arg("-O1")
        .arg("-o")
        .arg(&binary)
        .arg(&source)
        .arg("-lrdkafka");
    run(gcc, &empty, &dir);
    let random = random_keys(29, 10_000);
    // then slotgen's tags for every partition of 3, 12 and 100 (every tag of the first
    // value of each partition)
    // and a key `order-<tag>:eu` for every partition
    let made: Vec<Vec<(u32, Vec<u8>)>> = [3, 12, 100]
        .into_iter()
        .map(|n| {
            let mut keys = slotgen_keys(SchemeName::Librdkafka, Some(n), None, true);
            keys.extend(framed_keys(
                SchemeName::Librdkafka,
                Some(n),
                b"order-",
                b":eu",
            ));
            keys
        })
        .collect();
    let mut keys = random.clone();
    keys.extend(made.iter().flatten().map(|(_, k)| k.clone()));
    let input = dir.join("keys.hex");
    std::fs::write(&input, hex_lines(&keys)).unwrap();
    let all = rows(&run(Command::new(&binary), &input, &dir));
    let (answers, mut tags) = all.split_at(random.len());
    for (column, made) in made.iter().enumerate() {
        let (these, rest) = tags.split_at(made.len());
        let got: Vec<u64> = these.iter().map(|r| r[column]).collect();
        assert_on_their_slots(
            &format!("tags of {} partitions", [3, 12, 100][column]),
            made,
            &got,
        );
        tags = rest;
    }
    let keys = random;
    for (column, partitions) in [3u32, 12, 100].into_iter().enumerate() {
        let scheme = Scheme::librdkafka(partitions).unwrap();
        let got: Vec<u64> = answers.iter().map(|r| r[column]).collect();
        assert_agree(&format!("{partitions} partitions"), &keys, &got, |k| {
            u64::from(scheme.slot(k))
        });
    }
}

/// The Codis and Couchbase rules, written out independently of slotgen, on Python's
/// `zlib.crc32`: per key, Codis's slot of 1024, Couchbase's vBucket of 1024 and of 64.
const PYTHON_PROGRAM: &str = include_str!("../../drivers/oracles/zlib_slots.py");

/// The same in Go, on `hash/crc32`.
const GO_PROGRAM: &str = include_str!("../../drivers/oracles/crc32_slots.go");

fn check_codis_couchbase(what: &str, answers: &[Vec<u64>], keys: &[Vec<u8>]) {
    let codis = Scheme::codis();
    let vb1024 = SchemeName::Couchbase.scheme(None, None).unwrap();
    let vb64 = Scheme::couchbase(64).unwrap();
    let column = |i: usize| answers.iter().map(|r| r[i]).collect::<Vec<_>>();
    assert_agree(&format!("{what} codis"), keys, &column(0), |k| {
        u64::from(codis.slot(k))
    });
    assert_agree(&format!("{what} couchbase 1024"), keys, &column(1), |k| {
        u64::from(vb1024.slot(k))
    });
    assert_agree(&format!("{what} couchbase 64"), keys, &column(2), |k| {
        u64::from(vb64.slot(k))
    });
}

#[test]
fn codis_and_couchbase_against_python_zlib() {
    if !require_tool("python3") {
        return;
    }
    let dir = scratch_dir("codis-python");
    let random = random_keys(41, 10_000);
    // then slotgen's keys for every slot: Codis's 1024, Couchbase's 1024 and 64 vBuckets
    let made = [
        slotgen_keys(SchemeName::Codis, None, None, true),
        slotgen_keys(SchemeName::Couchbase, None, None, true),
        slotgen_keys(SchemeName::Couchbase, Some(64), None, true),
    ];
    let mut keys = random.clone();
    keys.extend(made.iter().flatten().map(|(_, k)| k.clone()));
    let input = dir.join("keys.hex");
    std::fs::write(&input, hex_lines(&keys)).unwrap();
    let script = dir.join("slots.py");
    std::fs::write(&script, PYTHON_PROGRAM).unwrap();
    let mut python = Command::new("python3");
    python.arg(&script);
    let all = rows(&run(python, &input, &dir));
    let (answers, mut tags) = all.split_at(random.len());
    for (column, (what, made)) in ["codis", "couchbase 1024", "couchbase 64"]
        .iter()
        .zip(&made)
        .enumerate()
    {
        let (these, rest) = tags.split_at(made.len());
        let got: Vec<u64> = these.iter().map(|r| r[column]).collect();
        assert_on_their_slots(&format!("python: slotgen's {what} keys"), made, &got);
        tags = rest;
    }
    check_codis_couchbase("python", answers, &random);
}

#[test]
fn codis_and_couchbase_against_go_hash_crc32() {
    if !require_tool("go") {
        return;
    }
    let dir = scratch_dir("codis-go");
    let keys = random_keys(43, 10_000);
    let input = dir.join("keys.hex");
    std::fs::write(&input, hex_lines(&keys)).unwrap();
    let program = dir.join("slots.go");
    std::fs::write(&program, GO_PROGRAM).unwrap();
    let mut go = Command::new("go");
    go.arg("run")
        .arg(&program)
        .env("GOCACHE", dir.join("gocache"))
        .env("GO111MODULE", "off");
    check_codis_couchbase("go", &rows(&run(go, &input, &dir)), &keys);
}

/// Codis's empty-brace rule, pinned: `{}` hashes the empty string (CRC 0, slot 0), where
/// Redis Cluster and twemproxy hash the whole key.
#[test]
fn codis_empty_braces_hash_the_empty_string() {
    let codis = Scheme::codis();
    for key in [&b"{}"[..], b"a{}b", b"{}{zap}", b"user:{}:1000"] {
        assert_eq!(codis.slot(key), 0, "{}", String::from_utf8_lossy(key));
    }
    // CRC-32/ISO-HDLC("123456789") = 0xcbf43926, and 0xcbf43926 % 1024 = 294
    assert_eq!(codis.slot(b"x{123456789}{}"), 294);
    assert_eq!(codis.slot(b"123456789"), 294);
    // no `}` after the first `{`: the whole key
    let whole = |key: &[u8]| crc::Crc::<u32>::new(&crc::CRC_32_ISO_HDLC).checksum(key) % 1024;
    for key in [&b"{123456789"[..], b"}{123456789", b"abc"] {
        assert_eq!(
            codis.slot(key),
            whole(key),
            "{}",
            String::from_utf8_lossy(key)
        );
    }
}

/// A `nutcracker` process on loopback, killed by its process id on drop.
struct Nutcracker {
    child: std::process::Child,
}

impl Drop for Nutcracker {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A connection to `port` on 127.0.0.1, retried until the deadline (nutcracker's listener
/// comes up a moment after it starts).
fn connect_with_deadline(port: u16, deadline: Instant) -> redis::Connection {
    let client = redis::Client::open(format!("redis://127.0.0.1:{port}/")).expect("a URL");
    loop {
        match client.get_connection_with_timeout(Duration::from_secs(2)) {
            Ok(c) => {
                c.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
                c.set_write_timeout(Some(Duration::from_secs(30))).unwrap();
                return c;
            }
            Err(e) if Instant::now() < deadline => {
                let _ = e;
                sleep(Duration::from_millis(50));
            }
            Err(e) => panic!("connecting to nutcracker on 127.0.0.1:{port}: {e}"),
        }
    }
}

/// SETs each key through the proxy (retrying the first until the backends answer), then
/// returns the index of the one backend that holds each key.
fn landed(proxy: &mut redis::Connection, backends: &[RedisServer], keys: &[Vec<u8>]) -> Vec<u64> {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let set: redis::RedisResult<()> = redis::cmd("SET").arg(&keys[0]).arg("1").query(proxy);
        match set {
            Ok(()) => break,
            Err(e) if Instant::now() < deadline => {
                let _ = e;
                sleep(Duration::from_millis(100));
            }
            Err(e) => panic!("SET through nutcracker: {e}"),
        }
    }
    let mut pipe = redis::pipe();
    for key in keys {
        pipe.cmd("SET").arg(key).arg("1").ignore();
    }
    let () = pipe.query(proxy).expect("SET through nutcracker");
    let mut holders = vec![Vec::new(); keys.len()];
    for (index, backend) in backends.iter().enumerate() {
        let mut pipe = redis::pipe();
        for key in keys {
            pipe.cmd("EXISTS").arg(key);
        }
        let exists: Vec<u8> = pipe.query(&mut backend.connect()).expect("EXISTS");
        for (holder, e) in holders.iter_mut().zip(exists) {
            if e == 1 {
                holder.push(index as u64);
            }
        }
    }
    holders
        .into_iter()
        .zip(keys)
        .map(|(h, k)| match h[..] {
            [one] => one,
            _ => panic!("key {} is on backends {h:?}", hex::encode(k)),
        })
        .collect()
}

#[test]
fn twemproxy_modula_pools_put_keys_where_slotgen_says() {
    if !require_tool("nutcracker") || !require_tool("redis-server") {
        return;
    }
    for servers in [3u32, 4, 5] {
        let dir = scratch_dir(&format!("twemproxy-{servers}"));
        // twemproxy's server index is not the order of the configuration's list: it sorts
        // a pool's servers by name (`conf_validate_server`, to find duplicates), comparing
        // the length first, then the bytes (`string_compare`), and a server without a name
        // is named `host:port`. So the backends here are in that order, and the
        // configuration lists them backwards, which that sort undoes.
        let name = |b: &RedisServer| format!("127.0.0.1:{}", b.port);
        let mut backends: Vec<RedisServer> = (0..servers)
            .map(|_| RedisServer::start(false).expect("starting redis-server"))
            .collect();
        backends.sort_by_key(|b| (name(b).len(), name(b)));
        let listed: String = backends
            .iter()
            .rev()
            .map(|b| format!("   - {}:1\n", name(b)))
            .collect();
        let (tagged_port, plain_port) = (free_port(), free_port());
        let (crc16_tagged_port, crc16_plain_port) = (free_port(), free_port());
        let pool = |name: &str, port: u16, hash: &str, hash_tag: &str| {
            format!(
                "{name}:\n  listen: 127.0.0.1:{port}\n  hash: {hash}\n  distribution: modula\n{hash_tag}  redis: true\n  auto_eject_hosts: false\n  servers:\n{listed}"
            )
        };
        let braces = "  hash_tag: \"{}\"\n";
        let config = [
            pool("tagged", tagged_port, "crc32a", braces),
            pool("plain", plain_port, "crc32", ""),
            pool("crc16_tagged", crc16_tagged_port, "crc16", braces),
            pool("crc16_plain", crc16_plain_port, "crc16", ""),
        ]
        .concat();
        let conf = dir.join("nutcracker.yml");
        std::fs::write(&conf, config).unwrap();
        let stats_port = free_port();
        let child = Command::new("nutcracker")
            .arg("-c")
            .arg(&conf)
            .args(["-a", "127.0.0.1", "-s", &stats_port.to_string()])
            .arg("-o")
            .arg(dir.join("nutcracker.log"))
            .arg("-p")
            .arg(dir.join("nutcracker.pid"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("starting nutcracker");
        let _proxy = Nutcracker { child };
        let deadline = Instant::now() + Duration::from_secs(20);

        // Printable keys with tags, empty tags and stray braces, and bytes above 0x7f
        // (twemproxy's crc32 reads the key through a `char`).
        let mut rng = StdRng::seed_from_u64(u64::from(servers));
        let keys: Vec<Vec<u8>> = (0..400)
            .map(|i| {
                let mut key = format!("k{i}:").into_bytes();
                let len = rng.random_range(1..12);
                key.extend((0..len).map(|_| match rng.random_range(0..8) {
                    0 => b'{',
                    1 => b'}',
                    2 => rng.random_range(0x80..=0xffu8),
                    _ => rng.random_range(b'a'..=b'z'),
                }));
                key
            })
            .collect();
        let tagged_keys: Vec<Vec<u8>> = keys.iter().map(|k| [b"t:", &k[..]].concat()).collect();
        let plain_keys: Vec<Vec<u8>> = keys.iter().map(|k| [b"p:", &k[..]].concat()).collect();

        let tagged = Scheme::twemproxy_crc32a(servers, Some(*b"{}")).unwrap();
        let mut proxy = connect_with_deadline(tagged_port, deadline);
        let got = landed(&mut proxy, &backends, &tagged_keys);
        assert_agree(
            &format!("crc32a, hash_tag {{}}, {servers} servers"),
            &tagged_keys,
            &got,
            |k| u64::from(tagged.slot(k)),
        );

        // slotgen's keys for every server index, each tag of the first value of its class
        let made = slotgen_keys(
            SchemeName::TwemproxyCrc32a,
            Some(servers),
            Some(*b"{}"),
            true,
        );
        let made_keys: Vec<Vec<u8>> = made.iter().map(|(_, k)| k.clone()).collect();
        let got = landed(&mut proxy, &backends, &made_keys);
        assert_on_their_slots(
            &format!("slotgen's crc32a keys, {servers} servers"),
            &made,
            &got,
        );

        let plain = Scheme::twemproxy_crc32(servers, None).unwrap();
        let mut proxy = connect_with_deadline(plain_port, deadline);
        let got = landed(&mut proxy, &backends, &plain_keys);
        assert_agree(
            &format!("crc32, no hash_tag, {servers} servers"),
            &plain_keys,
            &got,
            |k| u64::from(plain.slot(k)),
        );
        let made = slotgen_keys(SchemeName::TwemproxyCrc32, Some(servers), None, true);
        let made_keys: Vec<Vec<u8>> = made.iter().map(|(_, k)| k.clone()).collect();
        let got = landed(&mut proxy, &backends, &made_keys);
        assert_on_their_slots(
            &format!("slotgen's crc32 keys, {servers} servers"),
            &made,
            &got,
        );

        // `hash: crc16`, with and without `hash_tag`
        for (port, hash_tag, prefix) in [
            (crc16_tagged_port, Some(*b"{}"), "c16t:"),
            (crc16_plain_port, None, "c16p:"),
        ] {
            let what = format!("crc16, hash_tag {hash_tag:?}, {servers} servers");
            let scheme = Scheme::twemproxy_crc16(servers, hash_tag).unwrap();
            let keys: Vec<Vec<u8>> = keys
                .iter()
                .map(|k| [prefix.as_bytes(), k].concat())
                .collect();
            // the other pools' keys may be these keys too: each pool starts on empty backends
            flush(&backends);
            let mut proxy = connect_with_deadline(port, deadline);
            let got = landed(&mut proxy, &backends, &keys);
            assert_agree(&what, &keys, &got, |k| u64::from(scheme.slot(k)));
            // the test's own `hash_crc16` of the bytes the pool hashes
            let hashed = |k: &[u8]| -> Vec<u8> {
                let tag = hash_tag.and_then(|_| {
                    let open = k.iter().position(|&b| b == b'{')?;
                    let len = k[open + 1..].iter().position(|&b| b == b'}')?;
                    (len > 0).then(|| k[open + 1..open + 1 + len].to_vec())
                });
                tag.unwrap_or_else(|| k.to_vec())
            };
            assert_agree(&what, &keys, &got, |k| {
                u64::from(nutcracker_crc16(&hashed(k)) % servers)
            });
            // not CRC-16/XMODEM mod the servers: for 3 and 5, about two keys in three land
            // elsewhere (for 4, a power of two, the low bits are XMODEM's)
            let xmodem = crc::Crc::<u16>::new(&crc::CRC_16_XMODEM);
            let elsewhere = keys
                .iter()
                .zip(&got)
                .filter(|(k, g)| u64::from(u32::from(xmodem.checksum(&hashed(k))) % servers) != **g)
                .count();
            if servers.is_power_of_two() {
                assert_eq!(elsewhere, 0, "{what}");
            } else {
                assert!(
                    elsewhere * 2 > keys.len(),
                    "{what}: {elsewhere} of {}",
                    keys.len()
                );
            }
            // a key for every server index
            let made = crc16_keys(servers, hash_tag);
            let made_keys: Vec<Vec<u8>> = made.iter().map(|(_, k)| k.clone()).collect();
            let got = landed(&mut proxy, &backends, &made_keys);
            assert_on_their_slots(&format!("slotgen's {what} keys"), &made, &got);
        }
    }
}

/// Empties every backend (`FLUSHALL`).
fn flush(backends: &[RedisServer]) {
    for backend in backends {
        let () = redis::cmd("FLUSHALL")
            .query(&mut backend.connect())
            .expect("FLUSHALL");
    }
}

/// slotgen's keys for every server of a twemproxy `crc16` pool: the exact inversion's
/// (every tag of each server's first value) for a power of two of servers, and
/// `shortest --scheme`'s tags over letters and digits otherwise (its register is never
/// controlled whole, so the inversion refuses other counts); inside `{...}` for a pool with
/// `hash_tag: "{}"`.
fn crc16_keys(servers: u32, hash_tag: Option<[u8; 2]>) -> Vec<(u32, Vec<u8>)> {
    if servers.is_power_of_two() {
        return slotgen_keys(SchemeName::TwemproxyCrc16, Some(servers), hash_tag, true);
    }
    let spec = slotgen::shortest::ShortestSpec {
        function: SlotFunction::scheme(SchemeName::TwemproxyCrc16, Some(servers), hash_tag)
            .unwrap(),
        charset: slotgen::shortest::Charset::parse("alnum").unwrap(),
        max_len: 3,
    };
    let table = slotgen::shortest::shortest(&spec).unwrap();
    (0..servers)
        .map(|server| {
            let tag = table.tag(server).expect("every server has a short tag");
            let key = match hash_tag {
                Some([open, close]) => {
                    [&b"user:"[..], &[open], tag, &[close], b":profile"].concat()
                }
                None => tag.to_vec(),
            };
            (server, key)
        })
        .collect()
}
