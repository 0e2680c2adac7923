//! `slotgen load` (and `slotgen placement --format svg`) against live clusters that the
//! tests start on loopback: a 3+3 `valkey-server` 8.0 cluster with
//! `cluster-slot-stats-enabled yes`, and a password-protected `redis-server` 7.0 cluster,
//! which has no `CLUSTER SLOT-STATS` (keys by `CLUSTER COUNTKEYSINSLOT`).
//!
//! What the output is compared with comes from the servers, read here through the `redis`
//! crate: `CLUSTER KEYSLOT` places the workload's keys, `CLUSTER SLOT-STATS` and `DBSIZE`
//! of every primary give the sums. The slot map is rendered by `rsvg-convert` and its PNG
//! decoded here, to read the colours of known slots' cells and of the legend.

use std::collections::BTreeMap;
use std::process::Command;

use slotgen_cluster::slot_map::{
    bar_y, color, grid_origin, side_by_side, HotLabel, LegendEntry, SlotMap, BAR_H, BAR_W, BAR_X,
    CELL, CHAR_W, MARGIN, PANEL_W, SIDE,
};
use slotgen_tests::live::{self, Server};
use slotgen_tests::redis_server::{ReplicatedCluster, RANGES};
use slotgen_tests::require_tool;

use super::cluster_drain::{owners, read_back, write_keys};
use super::cluster_live::{keyslots, plain, rebalance, rebalance_args, run_help_examples, slotgen};

/// Keys of the workload on the hot hashtag: more than half of all other keys, so that its
/// one slot holds more than a third (a primary's fair share) of the total.
const HOT_KEYS: usize = 2500;

/// The primary (index in [`RANGES`]) that owns `slot`.
fn owner(slot: u16) -> usize {
    RANGES
        .iter()
        .position(|&(a, b)| (a..=b).contains(&slot))
        .expect("every slot is in RANGES")
}

/// Writes a skewed workload, each key `SET` on a plain connection to its owner (a MOVED
/// fails it), placed by the server's `CLUSTER KEYSLOT`: of `u:0` to `u:5999`, every key of
/// primary 0's slots and one in six of the others', and [`HOT_KEYS`] keys `{hot}:N`. Then
/// reads primary 0's keys back 5 times, for CPU and network load on its slots. Returns the
/// keys per primary, and the hot slot.
fn write_workload(cluster: &ReplicatedCluster) -> ([u64; 3], u16) {
    let password = cluster.password.as_deref();
    let addr = |i: usize| format!("127.0.0.1:{}", cluster.primaries[i].port);
    let mut first = plain(&addr(0), password);
    let names: Vec<String> = (0..6000).map(|i| format!("u:{i}")).collect();
    let slots = keyslots(
        &mut first,
        &names.iter().map(String::as_str).collect::<Vec<_>>(),
    );
    let hot_names: Vec<String> = (0..HOT_KEYS).map(|i| format!("{{hot}}:{i}")).collect();
    let hot_slot = keyslots(&mut first, &["{hot}"])[0];
    let mut by_owner: BTreeMap<usize, Vec<&str>> = BTreeMap::new();
    for (i, (name, slot)) in names.iter().zip(&slots).enumerate() {
        let o = owner(*slot);
        if o == 0 || i % 6 == 0 {
            by_owner.entry(o).or_default().push(name);
        }
    }
    by_owner
        .entry(owner(hot_slot))
        .or_default()
        .extend(hot_names.iter().map(String::as_str));
    let mut keys = [0u64; 3];
    for (o, names) in &by_owner {
        let mut con = plain(&addr(*o), password);
        let mut pipe = redis::pipe();
        for name in names {
            pipe.cmd("SET").arg(*name).arg("value").ignore();
        }
        pipe.query::<()>(&mut con)
            .unwrap_or_else(|e| panic!("SET on primary {o}: {e}"));
        keys[*o] = names.len() as u64;
    }
    let mut con = plain(&addr(0), password);
    for _ in 0..5 {
        let mut pipe = redis::pipe();
        for name in &by_owner[&0] {
            pipe.cmd("GET").arg(*name).ignore();
        }
        pipe.query::<()>(&mut con).unwrap();
    }
    (keys, hot_slot)
}

/// `DBSIZE` of each primary.
fn dbsizes(cluster: &ReplicatedCluster) -> Vec<u64> {
    cluster
        .primaries
        .iter()
        .map(|p| redis::cmd("DBSIZE").query(&mut p.connect()).unwrap())
        .collect()
}

/// Per primary, each field of `CLUSTER SLOT-STATS SLOTSRANGE` over its own slots, summed.
fn slot_stats_sums(cluster: &ReplicatedCluster) -> Vec<BTreeMap<String, u64>> {
    cluster
        .primaries
        .iter()
        .zip(RANGES)
        .map(|(p, (first, last))| {
            let answer: Vec<(u16, BTreeMap<String, u64>)> = redis::cmd("CLUSTER")
                .arg("SLOT-STATS")
                .arg("SLOTSRANGE")
                .arg(first)
                .arg(last)
                .query(&mut p.connect())
                .unwrap();
            assert_eq!(answer.len(), usize::from(last - first) + 1);
            let mut sums = BTreeMap::new();
            for (slot, fields) in answer {
                assert!((first..=last).contains(&slot));
                for (name, value) in fields {
                    *sums.entry(name).or_insert(0) += value;
                }
            }
            sums
        })
        .collect()
}

/// The `primaries` of `slotgen load --format json`, as `(node_id, addr, totals)`.
fn json_primaries(stdout: &str) -> Vec<(String, String, BTreeMap<String, u64>)> {
    let json: serde_json::Value = serde_json::from_str(stdout).unwrap();
    json["primaries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let totals = p["totals"]
                .as_object()
                .unwrap()
                .iter()
                .map(|(k, v)| (k.clone(), v.as_u64().unwrap()))
                .collect();
            (
                p["node_id"].as_str().unwrap().to_owned(),
                p["addr"].as_str().unwrap().to_owned(),
                totals,
            )
        })
        .collect()
}

#[test]
fn a_valkey_cluster_with_slot_stats() {
    let Some(cluster) = live::cluster(
        Server::Valkey,
        1,
        None,
        &["--cluster-slot-stats-enabled", "yes"],
    ) else {
        return;
    };
    let url = cluster.url();
    let (keys, hot_slot) = write_workload(&cluster);
    let sums = slot_stats_sums(&cluster);
    let sizes = dbsizes(&cluster);
    assert_eq!(sizes, keys, "DBSIZE against the keys written");

    let run = slotgen(
        &["load", "--redis", &url, "--format", "json", "--top", "3"],
        b"",
    );
    let primaries = json_primaries(run.ok());
    // nothing ran on the cluster meanwhile but slot-stats reads, which no slot is charged for
    assert_eq!(slot_stats_sums(&cluster), sums);
    assert_eq!(primaries.len(), 3);
    for (i, (id, addr, totals)) in primaries.iter().enumerate() {
        assert_eq!(*id, cluster.primaries[i].node_id());
        assert_eq!(*addr, format!("127.0.0.1:{}", cluster.primaries[i].port));
        assert_eq!(
            totals["keys"], sizes[i],
            "keys of primary {i} against DBSIZE"
        );
        assert_eq!(totals["keys"], sums[i]["key-count"]);
        assert_eq!(totals["cpu"], sums[i]["cpu-usec"], "cpu of primary {i}");
        assert_eq!(totals["net-in"], sums[i]["network-bytes-in"]);
        assert_eq!(totals["net-out"], sums[i]["network-bytes-out"]);
        assert_eq!(
            totals["net"],
            sums[i]["network-bytes-in"] + sums[i]["network-bytes-out"]
        );
        assert!(!totals.contains_key("memory"), "{totals:?}");
    }
    assert!(primaries[0].2["cpu"] > 0);
    let json: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(json["source"]["command"], "CLUSTER_SLOT_STATS");
    assert_eq!(
        json["metrics"],
        serde_json::json!(["keys", "cpu", "net-in", "net-out", "net"])
    );
    assert_eq!(json["absent"][0]["metric"], "memory");
    // the skew of keys: the fullest primary over the mean, from DBSIZE
    let total: u64 = sizes.iter().sum();
    let expected = *sizes.iter().max().unwrap() as f64 / (total as f64 / 3.0);
    let skew = json["skew"]["keys"].as_f64().unwrap();
    assert!((skew - expected).abs() < 1e-9, "{skew} against {expected}");
    // the hot slot: HOT_KEYS keys, more than a third of all
    assert_eq!(json["top"][0]["slot"], hot_slot);
    assert_eq!(json["top"][0]["value"], HOT_KEYS as u64);
    assert_eq!(json["hot"].as_array().unwrap().len(), 1, "{}", json["hot"]);
    assert_eq!(json["hot"][0]["slot"], hot_slot);
    assert_eq!(
        json["hot"][0]["addr"],
        primaries[owner(hot_slot)].1.as_str()
    );

    let tsv = slotgen(&["load", "--redis", &url, "--by", "cpu"], b"");
    let rows: Vec<Vec<String>> = tsv.rows();
    assert_eq!(
        rows[0],
        [
            "source",
            "CLUSTER SLOT-STATS",
            "keys,cpu,net-in,net-out,net"
        ]
    );
    assert!(rows.iter().any(|r| r[0] == "absent" && r[1] == "memory"));
    let node_rows = rows.iter().filter(|r| r[0] == "node").count();
    assert_eq!(node_rows, 3 * 5);
    for (i, (id, ..)) in primaries.iter().enumerate() {
        let keys_row = rows
            .iter()
            .find(|r| r[0] == "node" && r[1] == *id && r[4] == "keys")
            .unwrap();
        assert_eq!(keys_row[3], (RANGES[i].1 - RANGES[i].0 + 1).to_string());
        assert_eq!(keys_row[5], sizes[i].to_string());
    }
    assert!(rows.iter().any(|r| r[0] == "top" && r[1] == "cpu"));

    slotgen(&["load", "--redis", &url, "--by", "memory"], b"").fails_with("`memory-bytes`");
    // the examples of `load --help`, as written, against this cluster
    assert_eq!(run_help_examples(&url, &["load"]), 3);

    // the picture: rendered by rsvg-convert, its cells read back
    if require_tool("rsvg-convert") {
        // the primaries take colours and legend rows in the order of their addresses (as
        // text), the test's own: `colour[i]` is primary i's index of `color`
        let addrs: Vec<String> = (0..3)
            .map(|i| format!("127.0.0.1:{}", cluster.primaries[i].port))
            .collect();
        let colour: Vec<usize> = (0..3)
            .map(|i| addrs.iter().filter(|a| **a < addrs[i]).count())
            .collect();
        let svg = slotgen(&["load", "--redis", &url, "--format", "svg"], b"");
        well_formed(svg.ok());
        let png = render(svg.ok());
        let (hot_rgb, hot_owner) = (cell(&png, hot_slot), owner(hot_slot));
        assert_eq!(
            hot_rgb,
            color(colour[hot_owner]),
            "the hot slot is marked in its owner's full colour"
        );
        // the hot slot's label: its number and share, the share from the keys written
        let total: u64 = keys.iter().sum();
        let share = 100.0 * HOT_KEYS as f64 / total as f64;
        assert!(
            svg.stdout
                .contains(&format!("slot {hot_slot}: {share:.1}% of keys, hot</text>")),
            "no label `slot {hot_slot}: {share:.1}% of keys, hot`"
        );
        // its remedy under the grid, as the JSON gives it: the split of `{hot}` over the
        // primaries the JSON names, with the skew it predicts; the whole remedy (its
        // tooltip) on standard error, with the command to run
        let remedy = &json["hot"][0]["remedy"];
        let on: Vec<&str> = remedy["tags"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["node"]["addr"].as_str().unwrap())
            .collect();
        assert_eq!(remedy["hashtag"], "hot", "{remedy}");
        let drawn = format!(
            "slot {hot_slot} ({share:.1}%): split into {} tags, the skew then {:.2}: {{hot}} on {}</text>",
            on.len(),
            remedy["skew_after"].as_f64().unwrap(),
            on.join(", "),
        );
        assert!(svg.stdout.contains(&drawn), "no `{drawn}`:\n{}", svg.stderr);
        let said = svg
            .stderr
            .lines()
            .find_map(|l| l.strip_prefix(&format!("slotgen: note: slot {hot_slot} holds ")))
            .unwrap_or_else(|| panic!("no remedy on stderr: {}", svg.stderr));
        assert!(said.contains(remedy["command"].as_str().unwrap()), "{said}");
        // drawn inside the picture, under the grid
        let (_, grid_top) = grid_origin(3);
        let under = grid_top + SIDE * CELL + MARGIN;
        let width = png.0;
        let inked =
            (under..under + 16).any(|y| (16..width / 2).any(|x| pixel(&png, x, y)[0] < 100));
        assert!(inked, "no remedy drawn under the grid");
        // the floor it sets, over a fair share of the keys written: the fewest decimals
        // (two or more) that round it to no more than itself
        let floor = HOT_KEYS as f64 / (total as f64 / 3.0);
        let shown = (2..=6)
            .map(|d| format!("{floor:.d$}"))
            .find(|s| s.parse::<f64>().unwrap() <= floor)
            .unwrap();
        assert!(floor > 1.0, "the slot is hot: {floor}");
        assert!(
            svg.stdout.contains(&format!(">floor {shown}</text>")),
            "no line `floor {shown}`"
        );
        // another slot of each primary: a paler tint of its colour, nearest its own
        for (i, &(first, _)) in RANGES.iter().enumerate() {
            let other = (first..).find(|s| s.abs_diff(hot_slot) > 4 * 128).unwrap();
            let rgb = cell(&png, other);
            let c = colour[i];
            assert!(
                rgb.iter().zip(color(c)).all(|(v, base)| *v >= base),
                "{rgb:?} is not paler than {:?}",
                color(c)
            );
            let nearest = (0..3).min_by_key(|&j| hue_distance(rgb, color(j))).unwrap();
            assert_eq!(nearest, c, "slot {first} of primary {i}: {rgb:?}");
            // its bar, in its colour, and text in its row
            assert_eq!(pixel(&png, BAR_X + 1, bar_y(c) + BAR_H / 2), color(c));
            let text = (BAR_X + BAR_W + 8..BAR_X + BAR_W + 200)
                .any(|x| (bar_y(c)..bar_y(c) + BAR_H).any(|y| pixel(&png, x, y)[0] < 100));
            assert!(text, "no text in the bar row of primary {i}");
            assert!(
                svg.stdout.contains(&primaries[i].0),
                "node id {i} in the bars"
            );
        }
        // shading against the mean: within a primary, a slot of more keys (counted by the
        // server) is darker, up to 8x the mean (2 keys here: the mean is below 0.4)
        let mut con = cluster.primaries[0].connect();
        let mut by_count: BTreeMap<u64, u16> = BTreeMap::new();
        for slot in RANGES[0].0..RANGES[0].0 + 2000 {
            if slot.abs_diff(hot_slot) < 4 * 128 {
                continue;
            }
            let n: u64 = redis::cmd("CLUSTER")
                .arg("COUNTKEYSINSLOT")
                .arg(slot)
                .query(&mut con)
                .unwrap();
            by_count.entry(n).or_insert(slot);
        }
        assert!(
            8.0 * total as f64 / 16384.0 > 2.0,
            "2 keys within 8x the mean"
        );
        let darkness = |rgb: [u8; 3]| 3 * 255 - rgb.iter().map(|&v| u32::from(v)).sum::<u32>();
        let shades: Vec<u32> = (0..=2)
            .map(|n| darkness(cell(&png, by_count[&n])))
            .collect();
        assert!(shades[0] < shades[1] && shades[1] < shades[2], "{shades:?}");
        // a primary of more keys per slot is darker on the whole: its colour's part, the
        // mean over its cells, ordered as the test's own keys per slot
        let part = |i: usize| {
            let base = color(colour[i]);
            let (first, last) = RANGES[i];
            let sum: f64 = (first..=last)
                .map(|s| {
                    let rgb = cell(&png, s);
                    let k = (0..3).max_by_key(|&k| 255 - base[k]).unwrap();
                    f64::from(255 - rgb[k]) / f64::from(255 - base[k])
                })
                .sum();
            sum / f64::from(last - first + 1)
        };
        let per_slot = |i: usize| {
            let hot = if owner(hot_slot) == i {
                HOT_KEYS as u64
            } else {
                0
            };
            (keys[i] - hot) as f64 / f64::from(RANGES[i].1 - RANGES[i].0 + 1)
        };
        let mut order: Vec<usize> = (0..3).collect();
        order.sort_by(|&a, &b| per_slot(a).total_cmp(&per_slot(b)));
        assert!(
            part(order[0]) < part(order[2]),
            "{:?} against {:?}",
            (0..3).map(part).collect::<Vec<_>>(),
            (0..3).map(per_slot).collect::<Vec<_>>()
        );
        // rebalance's pictures, before and predicted after, side by side: every slot the
        // plan moves in the target's colour on the right, its owner's on the left
        let plan = rebalance(&url, &[]);
        let moves: Vec<(u16, String)> = plan
            .rows()
            .into_iter()
            .filter(|r| r[0] == "move")
            .map(|r| (r[1].parse().unwrap(), r[5].clone()))
            .collect();
        assert!(!moves.is_empty());
        let pictures = rebalance(&url, &["--format", "svg"]);
        well_formed(pictures.ok());
        // the floor in the picture is the figure of the note on stderr (the floor is above
        // the default target, 1.1, here), and so is the skew where the plan stops at it
        assert!(floor > 1.1, "{floor}");
        let said = pictures
            .stderr
            .split("no slot plan goes below ")
            .nth(1)
            .and_then(|t| t.split(':').next())
            .unwrap_or_else(|| panic!("no floor said: {}", pictures.stderr));
        assert_eq!(said, shown, "{}", pictures.stderr);
        assert_eq!(
            pictures
                .stdout
                .matches(&format!(">floor {said}</text>"))
                .count(),
            2,
            "{}",
            pictures.stdout
        );
        if let Some(stop) = pictures.stderr.split("it stops at ").nth(1) {
            let stop = stop.split([',', ':']).next().unwrap();
            if pictures
                .stderr
                .contains(&format!("stops at {stop}, the floor"))
            {
                assert_eq!(stop, said, "{}", pictures.stderr);
                assert!(pictures.stdout.contains(&format!("skew {said}, ")));
            }
        }
        let png = render(pictures.ok());
        assert_eq!(png.0, 2 * PANEL_W);
        for (slot, to) in moves.iter().take(50) {
            let to = addrs.iter().position(|a| a == to).unwrap();
            let left = cell(&png, *slot);
            let right = cell_at(&png, PANEL_W, *slot);
            let hue = |rgb| (0..3).min_by_key(|&j| hue_distance(rgb, color(j))).unwrap();
            if left != [255, 255, 255] && darkness(left) > 30 {
                assert_eq!(hue(left), colour[owner(*slot)], "slot {slot} before");
            }
            if darkness(right) > 30 {
                assert_eq!(hue(right), colour[to], "slot {slot} after");
            }
        }
        assert!(pictures.stdout.contains("predicted after"));
        // placement's map of the same keys, from standard input
        let keys: Vec<u8> = (0..HOT_KEYS)
            .flat_map(|i| format!("{{hot}}:{i}\n").into_bytes())
            .collect();
        let placed = slotgen(&["placement", "--redis", &url, "--format", "svg"], &keys);
        let png = render(placed.ok());
        assert_eq!(cell(&png, hot_slot), color(colour[owner(hot_slot)]));
    }

    // a primary that stops collecting: cpu is no longer known, keys still are
    redis::cmd("CONFIG")
        .arg("SET")
        .arg("cluster-slot-stats-enabled")
        .arg("no")
        .query::<()>(&mut cluster.primaries[1].connect())
        .unwrap();
    slotgen(&["load", "--redis", &url, "--by", "cpu"], b"")
        .fails_with("CONFIG SET cluster-slot-stats-enabled yes");
    let keys_only = slotgen(&["load", "--redis", &url, "--format", "json"], b"");
    let json: serde_json::Value = serde_json::from_str(keys_only.ok()).unwrap();
    assert_eq!(json["metrics"], serde_json::json!(["keys"]));
    for (i, (_, _, totals)) in json_primaries(&keys_only.stdout).iter().enumerate() {
        assert_eq!(totals["keys"], sizes[i]);
    }
    check_a_slot_in_migration(&cluster, hot_slot);
}

#[test]
fn a_redis_7_cluster_with_a_password_counts_keys_per_slot() {
    let password = "load-horse-battery";
    let Some(cluster) = live::cluster(Server::Redis, 0, Some(password), &[]) else {
        return;
    };
    let port = cluster.primaries[0].port;
    slotgen(
        &["load", "--redis", &format!("redis://127.0.0.1:{port}")],
        b"",
    )
    .fails_with("requires a password");
    let wrong = slotgen(
        &[
            "load",
            "--redis",
            &format!("redis://:wrong-{password}@127.0.0.1:{port}"),
        ],
        b"",
    );
    wrong.fails_with("refused the password");
    assert!(!wrong.stderr.contains(password), "{}", wrong.stderr);

    let (keys, hot_slot) = write_workload(&cluster);
    let sizes = dbsizes(&cluster);
    assert_eq!(sizes, keys);
    let url = cluster.url();
    let run = slotgen(&["load", "--redis", &url, "--format", "json"], b"");
    let json: serde_json::Value = serde_json::from_str(run.ok()).unwrap();
    assert_eq!(json["source"]["command"], "COUNT_KEYS_IN_SLOT");
    assert!(
        json["source"]["slot_stats_refused"]
            .as_str()
            .unwrap()
            .contains("nknown subcommand"),
        "{}",
        json["source"]
    );
    assert_eq!(json["metrics"], serde_json::json!(["keys"]));
    assert!(
        run.stderr.contains("CLUSTER COUNTKEYSINSLOT"),
        "{}",
        run.stderr
    );
    for (i, (_, _, totals)) in json_primaries(&run.stdout).iter().enumerate() {
        assert_eq!(
            totals["keys"], sizes[i],
            "keys of primary {i} against DBSIZE"
        );
    }
    assert_eq!(json["hot"][0]["slot"], hot_slot);
    // one short line per metric the server lacks; the server's refusal once, on stderr,
    // in its own words (issue 31: the client's error text repeated on five lines)
    let tsv = slotgen(&["load", "--redis", &url], b"");
    let absent: Vec<Vec<String>> = tsv
        .rows()
        .into_iter()
        .filter(|r| r[0] == "absent")
        .collect();
    assert_eq!(
        absent.iter().map(|r| r[1].as_str()).collect::<Vec<_>>(),
        ["cpu", "net-in", "net-out", "net", "memory"]
    );
    for row in &absent {
        assert_eq!(
            row[2], "CLUSTER SLOT-STATS was refused, and CLUSTER COUNTKEYSINSLOT counts keys only",
            "{row:?}"
        );
    }
    assert_eq!(
        tsv.stderr.matches("unknown subcommand").count(),
        1,
        "{}",
        tsv.stderr
    );
    assert!(
        tsv.stderr.contains("(ERR unknown subcommand 'SLOT-STATS'")
            && !tsv.stderr.contains("ResponseError"),
        "{}",
        tsv.stderr
    );
    let cpu = slotgen(&["load", "--redis", &url, "--by", "cpu"], b"");
    cpu.fails_with("refused CLUSTER SLOT-STATS");
    for run in [&run, &cpu] {
        assert!(!run.stdout.contains(password) && !run.stderr.contains(password));
    }
    check_a_slot_in_migration(&cluster, hot_slot);
}

/// `CLUSTER COUNTKEYSINSLOT slot` of `node`.
fn count_in_slot(node: &slotgen_tests::redis_server::RedisServer, slot: u16) -> u64 {
    redis::cmd("CLUSTER")
        .arg("COUNTKEYSINSLOT")
        .arg(slot)
        .query(&mut node.connect())
        .unwrap()
}

/// Sets the hot slot migrating from its owner to the next primary by hand (`CLUSTER SETSLOT
/// IMPORTING` on the target, `MIGRATING` on the source) and `MIGRATE`s half of its keys,
/// then checks `slotgen load` (and `slotgen rebalance`'s note) against what the servers
/// count: each primary's key total is its `DBSIZE`, the importer's keys of the slot moved to
/// the owner (the slot is counted on its owner), so that the totals still sum to the
/// `DBSIZE`s; the slot's value is its keys on both nodes.
fn check_a_slot_in_migration(cluster: &ReplicatedCluster, hot_slot: u16) {
    let password = cluster.password.as_deref();
    let from = owner(hot_slot);
    let to = (from + 1) % 3;
    let (a, b) = (&cluster.primaries[from], &cluster.primaries[to]);
    let setslot = |node: &slotgen_tests::redis_server::RedisServer, how: &str, peer: String| {
        redis::cmd("CLUSTER")
            .arg("SETSLOT")
            .arg(hot_slot)
            .arg(how)
            .arg(peer)
            .query::<()>(&mut node.connect())
            .unwrap_or_else(|e| panic!("SETSLOT {how}: {e}"));
    };
    setslot(b, "IMPORTING", a.node_id());
    setslot(a, "MIGRATING", b.node_id());
    let names: Vec<String> = redis::cmd("CLUSTER")
        .arg("GETKEYSINSLOT")
        .arg(hot_slot)
        .arg(HOT_KEYS / 2)
        .query(&mut a.connect())
        .unwrap();
    assert_eq!(names.len(), HOT_KEYS / 2);
    let mut migrate = redis::cmd("MIGRATE");
    migrate
        .arg("127.0.0.1")
        .arg(b.port)
        .arg("")
        .arg(0)
        .arg(10_000);
    if let Some(p) = password {
        migrate.arg("AUTH").arg(p);
    }
    migrate.arg("KEYS").arg(&names);
    assert_eq!(migrate.query::<String>(&mut a.connect()).unwrap(), "OK");

    let sizes = dbsizes(cluster);
    let (on_a, on_b) = (count_in_slot(a, hot_slot), count_in_slot(b, hot_slot));
    assert_eq!((on_a, on_b), (HOT_KEYS as u64 / 2, HOT_KEYS as u64 / 2));
    let mut expected = sizes.clone();
    expected[from] += on_b;
    expected[to] -= on_b;
    let url = cluster.url();
    let run = slotgen(&["load", "--redis", &url, "--format", "json"], b"");
    let json: serde_json::Value = serde_json::from_str(run.ok()).unwrap();
    let totals: Vec<u64> = json_primaries(&run.stdout)
        .iter()
        .map(|(_, _, t)| t["keys"])
        .collect();
    assert_eq!(
        totals, expected,
        "keys per primary, the slot in migration on its owner"
    );
    assert_eq!(totals.iter().sum::<u64>(), sizes.iter().sum::<u64>());
    assert_eq!(json["hot"][0]["slot"], hot_slot);
    assert_eq!(json["hot"][0]["value"], on_a + on_b);
    assert!(
        run.stderr
            .contains("the keys that the importing primary holds included"),
        "{}",
        run.stderr
    );
    // rebalance plans from the same numbers, and says so
    let plan = rebalance(&url, &["--format", "json"]);
    let json: serde_json::Value = serde_json::from_str(plan.ok()).unwrap();
    assert!(
        plan.stderr
            .contains(&format!("slots {hot_slot} (1) are migrating"))
            && plan
                .stderr
                .contains("the keys that the importing primary holds included"),
        "{}",
        plan.stderr
    );
    assert_eq!(json["hot"][0]["slot"], hot_slot, "{json}");
    assert_eq!(json["hot"][0]["amount"], on_a + on_b, "{json}");
}

/// A crowded pair of maps rendered by `rsvg-convert`: nothing is drawn in the margin at the
/// right of either panel, so that a label cut to its room (a 26-byte hashtag on the left, the
/// hostile 300-byte one on the right, long addresses) stays in its panel; and the bound of a
/// character's advance the layout cuts by holds for the font drawn (a line of 60 `W` is no
/// wider than 60 of it).
#[test]
fn labels_stay_in_their_panels_when_rendered() {
    if !require_tool("rsvg-convert") {
        return;
    }
    let map = |tag: &[u8], addr: &str| SlotMap {
        title: "before: keys per slot".to_owned(),
        metric: "keys".to_owned(),
        values: vec![1; 16384],
        owners: (0..16384).map(|s| Some(s * 3 / 16384)).collect(),
        primaries: (0..3)
            .map(|i| LegendEntry {
                node: format!("{i:0>40}"),
                addr: format!("{addr}{i}"),
                share: [0.62, 0.19, 0.19][i],
                ratio: Some([1.857, 0.57, 0.57][i]),
            })
            .collect(),
        skew: Some(1.857),
        target: Some(1.1),
        floor: Some(1.857),
        hot: vec![HotLabel {
            slot: 127,
            share: 0.429,
            hashtag: Some((tag.to_vec(), 1.0)),
        }],
        remedies: vec![(
            format!("slot 127: split {{{}}} into 3 tags", addr.repeat(8)),
            "the whole remedy".to_owned(),
        )],
    };
    let left = map(b"queue:emails:priority-high", "127.0.0.1:716");
    let right = map(
        &b"<b>&\"x\xff\xe2\x80\xae\n]]>".repeat(30),
        &format!("node.{}.example:7000-", "long".repeat(30)),
    );
    let svg = side_by_side(&left, &right);
    well_formed(&svg);
    let png = render(&svg);
    let height = (png.1.len() / 3) as u32 / png.0;
    for x0 in [0, PANEL_W] {
        for x in x0 + PANEL_W - MARGIN + 1..x0 + PANEL_W - 2 {
            for y in 0..height {
                assert_eq!(pixel(&png, x, y), [255; 3], "ink at ({x}, {y})");
            }
        }
    }
    let line = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="600" height="30" font-family="monospace" font-size="12"><rect width="600" height="30" fill="white"/><text x="10" y="20">{}</text></svg>"#,
        "W".repeat(60)
    );
    let png = render(&line);
    let inked = (0..600u32)
        .filter(|&x| (0..30).any(|y| pixel(&png, x, y) != [255; 3]))
        .max()
        .unwrap();
    assert!(f64::from(inked) <= 10.0 + 60.0 * CHAR_W, "{inked}");
    assert!(
        f64::from(inked) > 10.0 + 60.0 * CHAR_W * 0.7,
        "{inked}: not monospace"
    );
}

/// `svg` rendered to PNG by `rsvg-convert` at 100%, decoded: `(width, rgb rows)`.
fn render(svg: &str) -> (u32, Vec<u8>) {
    let dir = tempfile::tempdir().unwrap();
    let (svg_path, png_path) = (dir.path().join("map.svg"), dir.path().join("map.png"));
    std::fs::write(&svg_path, svg).unwrap();
    let status = Command::new("rsvg-convert")
        .arg("-o")
        .arg(&png_path)
        .arg(&svg_path)
        .status()
        .expect("rsvg-convert runs");
    assert!(status.success(), "rsvg-convert: {status}");
    let decoder = png::Decoder::new(std::io::BufReader::new(
        std::fs::File::open(&png_path).unwrap(),
    ));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!(info.bit_depth, png::BitDepth::Eight);
    let channels = info.color_type.samples();
    let rgb = buf[..info.buffer_size()]
        .chunks(channels)
        .flat_map(|p| [p[0], p[1], p[2]])
        .collect();
    (info.width, rgb)
}

fn pixel((width, rgb): &(u32, Vec<u8>), x: u32, y: u32) -> [u8; 3] {
    let i = 3 * (y * width + x) as usize;
    [rgb[i], rgb[i + 1], rgb[i + 2]]
}

/// The colour at the middle of `slot`'s cell: row `slot / 128`, column `slot % 128`, in
/// a map of three primaries.
fn cell(png: &(u32, Vec<u8>), slot: u16) -> [u8; 3] {
    cell_at(png, 0, slot)
}

/// As [`cell`], in the panel whose left edge is at `x0`.
fn cell_at(png: &(u32, Vec<u8>), x0: u32, slot: u16) -> [u8; 3] {
    let s = u32::from(slot);
    let (gx, gy) = grid_origin(3);
    pixel(
        png,
        x0 + gx + (s % SIDE) * CELL + CELL / 2,
        gy + (s / SIDE) * CELL + CELL / 2,
    )
}

/// `svg` is well-formed XML, as Python's `xml.etree.ElementTree` parses it (skipped without
/// `python3`).
fn well_formed(svg: &str) {
    if !require_tool("python3") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("map.svg");
    std::fs::write(&path, svg).unwrap();
    let out = Command::new("python3")
        .args([
            "-c",
            "import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])",
        ])
        .arg(&path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "not well-formed XML: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// How far apart two colours are in their direction from white (a tint keeps it).
fn hue_distance(a: [u8; 3], b: [u8; 3]) -> u64 {
    let dir = |c: [u8; 3]| {
        let d = c.map(|v| 255.0 - f64::from(v));
        let n = d.iter().map(|v| v * v).sum::<f64>().sqrt().max(1e-9);
        d.map(|v| v / n)
    };
    let (x, y) = (dir(a), dir(b));
    (x.iter().zip(y).map(|(p, q)| (p - q).powi(2)).sum::<f64>() * 1e6) as u64
}

/// Slots that no primary owns are said (issue 31: `load` and `rebalance` did not mention
/// them): a note on stderr and `unowned` in JSON, the slots the test took away from their
/// owner; `nodes` says the same note (it printed the map without a word, while `CLUSTER
/// INFO` says `cluster_state:ok`); the note's `CLUSTER ADDSLOTSRANGE` is followed and the
/// note goes.
#[test]
fn slots_without_an_owner_are_said() {
    let Some(cluster) = live::cluster(
        Server::Valkey,
        0,
        None,
        &["--cluster-require-full-coverage", "no"],
    ) else {
        return;
    };
    let (a, b) = (RANGES[1].0 + 7, RANGES[1].0 + 9);
    // every node forgets them (a node keeps an owner's slot until another claims it)
    for node in cluster.nodes() {
        let _: () = redis::cmd("CLUSTER")
            .arg("DELSLOTS")
            .arg(a)
            .arg(b)
            .query(&mut node.connect())
            .unwrap();
    }
    cluster
        .wait_until("every node sees 16382 slots assigned", |info, _| {
            info.contains("cluster_slots_assigned:16382") && info.contains("cluster_state:ok")
        })
        .unwrap();
    let url = cluster.url();
    let note = format!(
        "slotgen: note: 2 slots have no owner: {a},{b}; a key there is refused (CLUSTERDOWN) and no load is counted for them; `CLUSTER ADDSLOTSRANGE {a} {a} {b} {b}` on a primary assigns them"
    );
    let expected = serde_json::json!([{"first": a, "last": a}, {"first": b, "last": b}]);
    for args in [
        &["load", "--redis", &url, "--format", "json"][..],
        &rebalance_args(&url, &["--format", "json"])[..],
    ] {
        let run = slotgen(args, b"");
        let json: serde_json::Value = serde_json::from_str(run.ok()).unwrap();
        assert_eq!(json["unowned"], expected, "{args:?}");
        assert!(
            run.stderr.lines().any(|l| l == note),
            "{args:?}: {}",
            run.stderr
        );
    }
    for format in ["tsv", "json"] {
        let run = slotgen(&["nodes", "--redis", &url, "--format", format], b"");
        run.ok();
        assert!(
            run.stderr.lines().any(|l| l == note),
            "nodes --format {format}: {}",
            run.stderr
        );
    }
    // the note's command, as it says, on a primary (another than the old owner)
    let command: Vec<String> = note
        .split('`')
        .nth(1)
        .unwrap()
        .split(' ')
        .map(str::to_owned)
        .collect();
    let mut cmd = redis::cmd(&command[0]);
    for arg in &command[1..] {
        cmd.arg(arg);
    }
    let _: () = cmd.query(&mut cluster.primaries[2].connect()).unwrap();
    cluster
        .wait_until("every node sees every slot assigned", |info, _| {
            info.contains("cluster_slots_assigned:16384")
        })
        .unwrap();
    let run = slotgen(&["load", "--redis", &url, "--format", "json"], b"");
    let json: serde_json::Value = serde_json::from_str(run.ok()).unwrap();
    assert_eq!(json["unowned"], serde_json::json!([]));
    assert!(!run.stderr.contains("no owner"), "{}", run.stderr);
    let run = slotgen(&["nodes", "--redis", &url], b"");
    run.ok();
    assert!(!run.stderr.contains("no owner"), "{}", run.stderr);
    // the third primary took them
    let (first, last) = RANGES[2];
    assert_eq!(
        json["primaries"][2]["slots"],
        u64::from(last - first) + 1 + 2
    );
}

/// Keys by `CLUSTER COUNTKEYSINSLOT` on Valkey 9 with `cluster-databases 3`, for a user
/// whose ACL refuses `CLUSTER SLOT-STATS`: the command counts the selected database only, so
/// each primary's total is summed over its databases, and equals the sum of `DBSIZE` in each
/// database on that primary.
#[test]
fn keys_by_countkeysinslot_add_up_every_database_of_a_valkey_9_cluster() {
    let Some(cluster) = live::cluster(Server::Valkey9, 0, None, &["--cluster-databases", "3"])
    else {
        return;
    };
    let mut sizes = [0u64; 3];
    for (i, server) in cluster.primaries.iter().enumerate() {
        let mut con = plain(&format!("127.0.0.1:{}", server.port), None);
        redis::cmd("ACL")
            .arg(
                &[
                    "SETUSER",
                    "ops",
                    "on",
                    ">pw",
                    "+@all",
                    "-cluster|slot-stats",
                    "~*",
                ][..],
            )
            .query::<()>(&mut con)
            .unwrap();
        // database db of primary i: (i + 1) * (db + 1) * 40 keys of its own slots
        let candidates: Vec<String> = (0..2000).map(|n| format!("k{i}:{n}")).collect();
        let refs: Vec<&str> = candidates.iter().map(String::as_str).collect();
        let mine: Vec<&str> = refs
            .iter()
            .zip(keyslots(&mut con, &refs))
            .filter(|&(_, slot)| owner(slot) == i)
            .map(|(k, _)| *k)
            .collect();
        for db in 0..3usize {
            redis::cmd("SELECT").arg(db).query::<()>(&mut con).unwrap();
            let mut pipe = redis::pipe();
            for key in &mine[..(i + 1) * (db + 1) * 40] {
                pipe.set(*key, 1).ignore();
            }
            pipe.query::<()>(&mut con).unwrap();
            sizes[i] += redis::cmd("DBSIZE").query::<u64>(&mut con).unwrap();
        }
    }
    let url = format!("redis://ops:pw@127.0.0.1:{}", cluster.primaries[0].port);
    let run = slotgen(&["load", "--redis", &url, "--format", "json"], b"");
    let json: serde_json::Value = serde_json::from_str(run.ok()).unwrap();
    assert_eq!(
        json["source"]["command"], "COUNT_KEYS_IN_SLOT",
        "{}",
        json["source"]
    );
    for (i, (_, _, totals)) in json_primaries(&run.stdout).iter().enumerate() {
        assert_eq!(
            totals["keys"], sizes[i],
            "keys of primary {i} against DBSIZE"
        );
    }
}

/// A cluster of one-slot primaries (every other slot deleted), 101, 100 and 99 keys: slot
/// 0 is over the fair share (100), but it is its primary's whole load and no split of it
/// lowers the skew (1.01), so neither `load` nor `rebalance` lists it as hot (both did, with
/// a remedy that said no split helps). With 200 more keys there (301, 100, 99: skew 1.81,
/// a split over the three primaries 1.20) it is hot again, in both.
#[test]
fn a_one_slot_primary_s_whole_load_is_hot_only_where_a_split_helps() {
    let Some(cluster) = live::cluster(
        Server::Valkey,
        0,
        None,
        &["--cluster-require-full-coverage", "no"],
    ) else {
        return;
    };
    let kept: Vec<u16> = RANGES.iter().map(|r| r.0).collect();
    for node in cluster.nodes() {
        let mut con = node.connect();
        for &(first, last) in &RANGES {
            // a node may have heard of the owner's deletion by gossip first (a full run
            // met "Slot 10924 is already unassigned"): the state wanted either way
            let deleted: redis::RedisResult<()> = redis::cmd("CLUSTER")
                .arg("DELSLOTSRANGE")
                .arg(first + 1)
                .arg(last)
                .query(&mut con);
            if let Err(e) = deleted {
                assert!(e.to_string().contains("already unassigned"), "{e}");
            }
        }
    }
    cluster
        .wait_until("every node sees 3 slots assigned", |info, _| {
            info.contains("cluster_slots_assigned:3") && info.contains("cluster_state:ok")
        })
        .unwrap();
    // a hashtag of each kept slot, by the server's `CLUSTER KEYSLOT`
    let addr = |i: usize| format!("127.0.0.1:{}", cluster.primaries[i].port);
    let names: Vec<String> = (0..200_000).map(|i| format!("t{i}")).collect();
    let slots = keyslots(
        &mut plain(&addr(0), None),
        &names.iter().map(String::as_str).collect::<Vec<_>>(),
    );
    let tag = |slot: u16| &names[slots.iter().position(|&s| s == slot).unwrap()];
    let write = |i: usize, from: usize, to: usize| {
        let mut con = plain(&addr(i), None);
        for k in from..to {
            let _: () = redis::cmd("SET")
                .arg(format!("{{{}}}:{k}", tag(kept[i])))
                .arg("v")
                .query(&mut con)
                .unwrap();
        }
    };
    for (i, n) in [101, 100, 99].into_iter().enumerate() {
        write(i, 0, n);
    }
    let url = cluster.url();
    let hot = |args: &[&str]| -> Vec<u64> {
        let run = slotgen(args, b"");
        let json: serde_json::Value = serde_json::from_str(run.ok()).unwrap();
        json["hot"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| h["slot"].as_u64().unwrap())
            .collect()
    };
    let load = ["load", "--redis", &url, "--by", "keys", "--format", "json"];
    let plan = rebalance_args(&url, &["--format", "json"]);
    assert_eq!(hot(&load), Vec::<u64>::new());
    assert_eq!(hot(&plan), Vec::<u64>::new());
    let run = slotgen(&["load", "--redis", &url, "--by", "keys"], b"");
    assert!(
        run.ok().contains("skew\tkeys\t1.0100") && !run.ok().contains("\nhot\t"),
        "{}",
        run.ok()
    );
    write(0, 101, 301);
    assert_eq!(hot(&load), [u64::from(kept[0])]);
    assert_eq!(hot(&plan), [u64::from(kept[0])]);
}

/// After a weighted `rebalance --apply`, `load --weight` (the same weights) gives the skew
/// the plan predicted, computed here from the keys written and the owners the servers now
/// give their slots; without --weight, `load` gives the unweighted skew and says it is.
#[test]
fn load_with_the_plan_s_weights_gives_the_plan_s_skew() {
    let Some(cluster) = live::cluster(Server::Redis, 0, None, &[]) else {
        return;
    };
    let keys = write_keys(&cluster);
    let url = cluster.url();
    let seed = format!("127.0.0.1:{}", cluster.primaries[0].port);
    let heavy = format!("127.0.0.1:{}", cluster.primaries[2].port);
    let weight = format!("{heavy}=2");
    let plan = rebalance(&url, &["--weight", &weight, "--format", "json", "--apply"]);
    let plan: serde_json::Value = serde_json::from_str(plan.ok()).unwrap();
    assert!(!plan["moves"].as_array().unwrap().is_empty(), "{plan}");
    let predicted = plan["skew_after"].as_f64().unwrap();

    // the keys each primary holds now, read back from the owners the servers give
    let held = read_back(&keys, &owners(&seed));
    let total = keys.len() as f64;
    assert_eq!(held.values().sum::<usize>(), keys.len());
    let weight_of = |node: &str| if node == heavy { 2.0 } else { 1.0 };
    // fair share of a primary: the total split 1:1:2
    let weighted = held
        .iter()
        .map(|(node, &n)| n as f64 / (total * weight_of(node) / 4.0))
        .fold(0.0, f64::max);
    let unweighted = *held.values().max().unwrap() as f64 / (total / 3.0);
    assert!(
        (weighted - predicted).abs() < 1e-9,
        "{held:?}: {weighted} against {predicted}"
    );
    assert!(unweighted > weighted + 0.1, "{held:?}: {unweighted}");

    let skew_of = |run: &super::cluster_live::Run| -> f64 {
        let rows = run.rows();
        let skew: Vec<&Vec<String>> = rows.iter().filter(|r| r[0] == "skew").collect();
        assert_eq!(skew.len(), 1, "{rows:?}");
        assert_eq!(skew[0][1], "keys");
        skew[0][2].parse().unwrap()
    };
    let weighed = slotgen(&["load", "--redis", &url, "--weight", &weight], b"");
    weighed.ok();
    assert!(
        (skew_of(&weighed) - weighted).abs() < 5e-5,
        "{}",
        weighed.stdout
    );
    // one `weight` line per primary, the heavy one's 2
    let weights: Vec<(String, String)> = weighed
        .rows()
        .into_iter()
        .filter(|r| r[0] == "weight")
        .map(|r| (r[2].clone(), r[3].clone()))
        .collect();
    assert_eq!(weights.len(), 3, "{}", weighed.stdout);
    for (addr, w) in &weights {
        assert_eq!(w, if *addr == heavy { "2" } else { "1" }, "{weights:?}");
    }
    let json = slotgen(
        &[
            "load", "--redis", &url, "--weight", &weight, "--format", "json",
        ],
        b"",
    );
    let json: serde_json::Value = serde_json::from_str(json.ok()).unwrap();
    assert_eq!(json["weighted"], true);
    assert!(
        (json["skew"]["keys"].as_f64().unwrap() - predicted).abs() < 1e-9,
        "{json}"
    );

    // without --weight: the skew over equal shares, no `weight` line, JSON says unweighted
    let plain_run = slotgen(&["load", "--redis", &url], b"");
    plain_run.ok();
    assert!(
        (skew_of(&plain_run) - unweighted).abs() < 5e-5,
        "{}",
        plain_run.stdout
    );
    assert!(!plain_run.rows().iter().any(|r| r[0] == "weight"));
    let json = slotgen(&["load", "--redis", &url, "--format", "json"], b"");
    let json: serde_json::Value = serde_json::from_str(json.ok()).unwrap();
    assert_eq!(json["weighted"], false);
    assert!(json["primaries"]
        .as_array()
        .unwrap()
        .iter()
        .all(|p| p["weight"] == 1.0));

    // the option's refusals are rebalance's own
    let zero = slotgen(
        &["load", "--redis", &url, "--weight", &format!("{heavy}=0")],
        b"",
    );
    zero.fails_with_code(2, "give `slotgen rebalance --drain");
    let replica_or_unknown = slotgen(&["load", "--redis", &url, "--weight", "127.0.0.1:1=2"], b"");
    replica_or_unknown.fails_with_code(2, "--weight: ");
}

/// `CLUSTER SLOT-STATS` of the node at `node` for `slot`: its `cpu-usec`.
fn cpu_of_slot(node: &str, slot: u16) -> u64 {
    let answer: Vec<(u16, BTreeMap<String, u64>)> = redis::cmd("CLUSTER")
        .arg("SLOT-STATS")
        .arg("SLOTSRANGE")
        .arg(slot)
        .arg(slot)
        .query(&mut plain(node, None))
        .unwrap();
    answer[0].1["cpu-usec"]
}

/// A replica whose password is set otherwise than its primary's (`requirepass` on it alone:
/// Valkey 9.1, slot statistics on) refuses `load`'s `CLUSTER SLOT-STATS` (`NOAUTH`):
/// `load --by cpu` names it with the refusal and the fix, and goes on without it (the load
/// is its primaries'). Before, it was left out without a word. Followed (the replica's
/// password set as its primary's: none here), the note is gone.
#[test]
fn a_replica_that_refuses_the_password_is_named_by_load() {
    let Some(cluster) = live::cluster(
        Server::Valkey9,
        1,
        None,
        &["--cluster-slot-stats-enabled", "yes"],
    ) else {
        return;
    };
    let url = cluster.url();
    let primary = format!("127.0.0.1:{}", cluster.primaries[1].port);
    let replica = format!("127.0.0.1:{}", cluster.replicas[1][0].port);
    let () = redis::cmd("CONFIG")
        .arg("SET")
        .arg("requirepass")
        .arg("other")
        .query(&mut plain(&replica, None))
        .unwrap();
    let run = slotgen(&["load", "--redis", &url, "--by", "cpu"], b"");
    println!("{}", run.stderr);
    run.ok();
    let said = format!(
        "slotgen: note: {replica} (a replica of {primary}) refused slotgen's credentials (`redis://{replica}` requires a password (`NOAUTH`): "
    );
    let fix = "so what it served itself (reads after `READONLY`) is not known: give it the password and ACL user of its primary (`requirepass`, `masterauth`, `ACL SETUSER`), then run this again";
    assert!(
        run.stderr.contains(&said) && run.stderr.contains(fix),
        "`{said}` not in {}",
        run.stderr
    );
    // followed: the replica's password as its primary's (none), and the note is gone
    let mut con = plain(&replica, None);
    let () = redis::cmd("AUTH").arg("other").query(&mut con).unwrap();
    let () = redis::cmd("CONFIG")
        .arg("SET")
        .arg("requirepass")
        .arg("")
        .query(&mut con)
        .unwrap();
    let run = slotgen(&["load", "--redis", &url, "--by", "cpu"], b"");
    run.ok();
    assert!(!run.stderr.contains("refused"), "{}", run.stderr);
}

/// Reads served by a replica (after `READONLY`: Valkey 9.1, slot statistics on) are not in
/// the load, which counts each slot on its primary; `load --by cpu` says so, naming the
/// replica, its primary and its busiest slot with that slot's `cpu-usec` as the replica's
/// own `CLUSTER SLOT-STATS` gives it (a tester saw skew 1.05 and no word while one replica
/// served 70 times the primaries' CPU time). Writes alone, which replicas apply from their
/// primaries, give no such note.
#[test]
fn reads_served_by_a_replica_are_said_by_load() {
    let Some(cluster) = live::cluster(
        Server::Valkey9,
        1,
        None,
        &["--cluster-slot-stats-enabled", "yes"],
    ) else {
        return;
    };
    let url = cluster.url();
    let seed = format!("127.0.0.1:{}", cluster.primaries[0].port);
    let slot = keyslots(&mut plain(&seed, None), &["{hot}"])[0];
    let i = owner(slot);
    let primary = format!("127.0.0.1:{}", cluster.primaries[i].port);
    let replica = format!("127.0.0.1:{}", cluster.replicas[i][0].port);
    let mut pipe = redis::pipe();
    for n in 0..20 {
        pipe.cmd("SET").arg(format!("{{hot}}:{n}")).arg(n).ignore();
    }
    pipe.query::<()>(&mut plain(&primary, None)).unwrap();
    let () = redis::cmd("WAIT")
        .arg(1)
        .arg(5000)
        .query::<i64>(&mut plain(&primary, None))
        .map(|_| ())
        .unwrap();
    // writes alone: nothing served by a replica
    let run = slotgen(&["load", "--redis", &url, "--by", "cpu"], b"");
    run.ok();
    assert!(!run.stderr.contains("replicas served"), "{}", run.stderr);
    // reads on the replica
    let mut reader = plain(&replica, None);
    let () = redis::cmd("READONLY").query(&mut reader).unwrap();
    for _ in 0..500 {
        let mut pipe = redis::pipe();
        for n in 0..20 {
            pipe.cmd("GET").arg(format!("{{hot}}:{n}"));
        }
        let got: Vec<String> = pipe.query(&mut reader).unwrap();
        assert_eq!(got.len(), 20);
    }
    let run = slotgen(&["load", "--redis", &url, "--by", "cpu"], b"");
    run.ok();
    let cpu = cpu_of_slot(&replica, slot);
    assert!(cpu > 0, "the replica counted no CPU time for slot {slot}");
    let said = format!("{replica} (a replica of {primary}) ");
    let top = format!("most on slot {slot} ({cpu} µs)");
    assert!(
        run.stderr.contains("slotgen: note: replicas served reads (after `READONLY`) that the `cpu` here leaves out")
            && run.stderr.contains(&said)
            && run.stderr.contains(&top),
        "`{said}` and `{top}` not in {}",
        run.stderr
    );
    // rebalance by CPU says it too
    let run = slotgen(&["rebalance", "--redis", &url, "--by", "cpu"], b"");
    assert!(run.stderr.contains(&top), "{}", run.stderr);
    // a replica that does not answer (stopped) is left out of the note, not of the load
    let stopped = cluster.replicas[i][0].pid();
    slotgen_tests::signal("STOP", stopped);
    let run = slotgen(
        &["load", "--redis", &url, "--by", "cpu", "--timeout", "5s"],
        b"",
    );
    slotgen_tests::signal("CONT", stopped);
    run.ok();
    assert!(!run.stderr.contains("replicas served"), "{}", run.stderr);
}
