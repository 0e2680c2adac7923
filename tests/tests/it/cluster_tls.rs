//! `slotgen nodes`, `keys`, `placement` and `verify` over TLS and as ACL users, against
//! clusters of three primaries and three replicas of `redis-server` and of `valkey-server`
//! started here with TLS only (`port 0`, `tls-port`, `tls-cluster yes`, `tls-replication
//! yes`, `tls-auth-clients yes`) and certificates that `openssl` makes here
//! (`slotgen_tests::tls`); and against single servers whose certificate has expired or does
//! not hold the name asked for.
//!
//! What the output is compared with comes from the servers, over their plain unix sockets:
//! `CLUSTER SHARDS` and `CLUSTER MYID` for the map, `CLUSTER KEYSLOT` for the keys; the ACL
//! users are made with `ACL SETUSER` on every node (ACL rules are not shared by a cluster).
//! The hot-slot remedy's printed command is run as printed, as an ACL user over TLS.

use std::path::Path;
use std::time::Duration;

use slotgen_tests::redis_server::{RedisServer, ReplicatedCluster, RANGES};
use slotgen_tests::require_tool;
use slotgen_tests::tls::{Certs, ServerTls, EXPIRED_UNTIL};

use super::cluster_live::{keys_by_node, map_rows, rebalance_args, shards_rows, slotgen};

/// The certificates, or `None` (skip) when `openssl` or `program` is not installed.
fn certs(program: &str) -> Option<Certs> {
    (require_tool("openssl") && require_tool(program))
        .then(|| Certs::make().unwrap_or_else(|e| panic!("making certificates: {e}")))
}

fn path(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 temporary path")
}

#[test]
fn a_redis_server_cluster_over_tls() {
    tls_cluster("redis-server");
}

#[test]
fn a_valkey_server_cluster_over_tls() {
    tls_cluster("valkey-server");
}

/// Every user and every refusal against one TLS cluster of `program`.
fn tls_cluster(program: &str) {
    let Some(certs) = certs(program) else { return };
    let tls = ServerTls {
        pair: certs.server.clone(),
        ca: certs.ca.clone(),
        auth_clients: true,
    };
    let cluster = ReplicatedCluster::start_with(program, 1, None, Some(&tls), &[])
        .unwrap_or_else(|e| panic!("starting a {program} cluster with TLS: {e}"));
    let port = cluster.primaries[0].port;
    let url = format!("rediss://127.0.0.1:{port}");
    let client = [
        "--cacert",
        path(&certs.ca),
        "--cert",
        path(&certs.client.cert),
        "--key",
        path(&certs.client.key),
    ];
    let with = |args: &[&str]| -> Vec<String> {
        args.iter()
            .chain(&client)
            .map(|s| (*s).to_owned())
            .collect()
    };
    let run = |args: &[String], stdin: &[u8]| {
        slotgen(&args.iter().map(String::as_str).collect::<Vec<_>>(), stdin)
    };

    // --- nodes: as the server's CLUSTER SHARDS and CLUSTER MYID say
    let nodes = run(&with(&["nodes", "--redis", &url]), b"");
    let rows = map_rows(&nodes);
    assert!(nodes.stderr.is_empty(), "{}", nodes.stderr);
    assert_eq!(rows, shards_rows(&mut cluster.primaries[0].connect()));
    assert_eq!(rows.len(), 6);
    for (i, primary) in cluster.primaries.iter().enumerate() {
        assert_eq!(rows[2 * i][0], primary.node_id());
        assert_eq!(rows[2 * i][1], format!("127.0.0.1:{}", primary.port));
        assert_eq!(rows[2 * i][2], "primary");
        assert_eq!(rows[2 * i + 1][0], cluster.replicas[i][0].node_id());
        assert_eq!(rows[2 * i + 1][2], "replica");
    }
    // `--tls` with a `redis://` URL is the same
    let url_plain_scheme = format!("redis://127.0.0.1:{port}");
    let by_flag = run(
        &with(&["nodes", "--redis", &url_plain_scheme, "--tls"]),
        b"",
    );
    // the map without health: a replica's `loading` turns `online` at its first replicated
    // byte, which may come between the two runs
    by_flag.ok();
    assert_eq!(map_rows(&by_flag), rows);

    // --- a `valkeys://` URL is TLS too, also in the script of `--format commands`, whose
    // redis-cli needs `--tls` with the certificates (it once had them for `rediss://` only)
    let valkeys = format!("valkeys://127.0.0.1:{port}");
    let script = run(
        &with(&rebalance_args(&valkeys, &["--format", "commands"])),
        b"",
    );
    let options = format!("--tls --cacert {}", path(&certs.ca));
    assert!(
        script.ok().contains(&options),
        "{options} not in:\n{}",
        script.stdout
    );

    // --- keys: every key lands, by the server's CLUSTER KEYSLOT, on a slot of the node named
    let keys = run(&with(&["keys", "--redis", &url, "--per-node", "3"]), b"");
    let by_node = keys_by_node(&keys.rows());
    assert_eq!(by_node.len(), 3, "{by_node:?}");
    let mut con = cluster.primaries[0].connect();
    for (i, primary) in cluster.primaries.iter().enumerate() {
        let rows = &by_node[&primary.node_id()];
        assert_eq!(rows.len(), 3);
        for (addr, slot, key) in rows {
            assert_eq!(addr, &format!("127.0.0.1:{}", primary.port));
            let server: u16 = redis::cmd("CLUSTER")
                .arg("KEYSLOT")
                .arg(key)
                .query(&mut con)
                .unwrap();
            assert_eq!(*slot, server, "{key}");
            assert!((RANGES[i].0..=RANGES[i].1).contains(&server), "{key}");
        }
    }

    // --- placement: per node, as CLUSTER KEYSLOT and the ranges count them
    let workload: Vec<String> = (0..300).map(|i| format!("user:{i}")).collect();
    let mut expected = [0u64; 3];
    for key in &workload {
        let slot: u16 = redis::cmd("CLUSTER")
            .arg("KEYSLOT")
            .arg(key)
            .query(&mut con)
            .unwrap();
        expected[RANGES
            .iter()
            .position(|r| (r.0..=r.1).contains(&slot))
            .unwrap()] += 1;
    }
    let stdin = format!("{}\n", workload.join("\n"));
    let placement = run(&with(&["placement", "--redis", &url]), stdin.as_bytes());
    let rows = placement.rows();
    for (i, primary) in cluster.primaries.iter().enumerate() {
        let row = rows
            .iter()
            .find(|r| r[0] == "node" && r[1] == primary.node_id())
            .unwrap_or_else(|| panic!("{rows:?}"));
        assert_eq!(row[3], expected[i].to_string());
    }

    // --- verify: every tag by CLUSTER KEYSLOT, over TLS
    let verify = run(&with(&["verify", "--redis", &url]), b"");
    assert!(
        verify
            .ok()
            .contains("16384 of 16384 tags of CRC-16/XMODEM, 16384 slots"),
        "{}",
        verify.stdout
    );

    // --- --insecure: no CA, a warning, the same answer
    let insecure = slotgen(
        &[
            "nodes",
            "--redis",
            &url,
            "--insecure",
            "--cert",
            path(&certs.client.cert),
            "--key",
            path(&certs.client.key),
        ],
        b"",
    );
    insecure.ok();
    assert_eq!(map_rows(&insecure), map_rows(&nodes));
    assert!(
        insecure.stderr.starts_with("slotgen: warning: --insecure"),
        "{}",
        insecure.stderr
    );

    // --- refusals, each one line and exit 1
    // the system's roots do not hold the test CA
    slotgen(
        &["nodes", "--redis", &url, "--cert", path(&certs.client.cert), "--key", path(&certs.client.key)],
        b"",
    )
    .fails_with("the server's certificate was not issued by a trusted CA (unknown issuer): trust the CA that issued it (--cacert FILE names the CA");
    // no client certificate for `tls-auth-clients yes`
    slotgen(
        &["nodes", "--redis", &url, "--cacert", path(&certs.ca)],
        b"",
    )
    .fails_with("the server refused the client certificate");
    // a plain connection to the TLS port: refused within the deadline, with the fix
    let plain = slotgen(
        &["nodes", "--redis", &url_plain_scheme, "--timeout", "20"],
        b"",
    );
    plain.fails_with("give a `rediss://` URL");
    assert!(
        plain.elapsed < Duration::from_secs(20),
        "{:?}",
        plain.elapsed
    );
    // what is accepted, for a bare address (a usage error), and the URL of that address,
    // which `--tls` with a `redis://` URL above followed
    slotgen(&["nodes", "--redis", &format!("127.0.0.1:{port}")], b"").fails_with_code(
        2,
        &format!("is not a server URL (it has no scheme: `redis://127.0.0.1:{port}` names that address): give `redis://HOST:PORT`, `rediss://HOST:PORT` (TLS) or `unix:///PATH/TO/SOCKET`"),
    );
    slotgen(
        &[
            "nodes",
            "--redis",
            &url_plain_scheme,
            "--cacert",
            path(&certs.ca),
        ],
        b"",
    )
    .fails_with_code(
        2,
        "--cacert applies to TLS only: give --tls, or a `rediss://` URL",
    );

    // --- load (last: its writes move the replicas out of `loading`): the workload written on its owners, counted per node over TLS (Valkey by
    // CLUSTER SLOT-STATS, Redis 7.0 by CLUSTER COUNTKEYSINSLOT)
    for key in &workload {
        let slot: u16 = redis::cmd("CLUSTER")
            .arg("KEYSLOT")
            .arg(key)
            .query(&mut con)
            .unwrap();
        let owner = RANGES
            .iter()
            .position(|r| (r.0..=r.1).contains(&slot))
            .unwrap();
        redis::cmd("SET")
            .arg(key)
            .arg(1)
            .query::<()>(&mut cluster.primaries[owner].connect())
            .unwrap();
    }
    let load = run(&with(&["load", "--redis", &url, "--format", "json"]), b"");
    let json: serde_json::Value = serde_json::from_str(load.ok()).unwrap();
    for (i, primary) in cluster.primaries.iter().enumerate() {
        let node = &json["primaries"][i];
        assert_eq!(node["node_id"], primary.node_id().as_str());
        assert_eq!(node["totals"]["keys"], expected[i], "{node}");
        let dbsize: u64 = redis::cmd("DBSIZE").query(&mut primary.connect()).unwrap();
        assert_eq!(dbsize, expected[i]);
    }

    acl_users(&cluster, &url, &with);
    remedy_over_tls(&cluster, &url, &with);
}

/// The hot-slot remedy over TLS as an ACL user with a password file: the command
/// `rebalance` prints keeps every connection option (and no password), and run as printed
/// it places each of the remedy's keys on the primary the remedy names.
fn remedy_over_tls(cluster: &ReplicatedCluster, url: &str, with: &dyn Fn(&[&str]) -> Vec<String>) {
    for node in cluster.nodes() {
        redis::cmd("ACL")
            .arg("SETUSER")
            .arg(&["operator", "on", ">operator-pw", "+@all", "~*"][..])
            .query::<()>(&mut node.connect())
            .unwrap();
    }
    // a hot hashtag: 600 keys `{hot}:N` in one slot, on its owner
    let mut con = cluster.primaries[0].connect();
    let slot: u16 = redis::cmd("CLUSTER")
        .arg("KEYSLOT")
        .arg("{hot}")
        .query(&mut con)
        .unwrap();
    let owner = RANGES
        .iter()
        .position(|r| (r.0..=r.1).contains(&slot))
        .unwrap();
    let mut pipe = redis::pipe();
    for i in 0..600 {
        pipe.cmd("SET").arg(format!("{{hot}}:{i}")).arg(1).ignore();
    }
    pipe.query::<()>(&mut cluster.primaries[owner].connect())
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let secret = dir.path().join("operator-pw");
    std::fs::write(&secret, "operator-pw\n").unwrap();
    let args = with(&rebalance_args(
        url,
        &[
            "--user",
            "operator",
            "--password-file",
            secret.to_str().unwrap(),
            "--format",
            "json",
        ],
    ));
    let run = slotgen(&args.iter().map(String::as_str).collect::<Vec<_>>(), b"");
    let plan: serde_json::Value = serde_json::from_str(run.ok()).unwrap();
    let hot = plan["hot"]
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h["slot"] == slot)
        .unwrap_or_else(|| panic!("slot {slot} not hot: {plan}"));
    let remedy = &hot["remedy"];
    let tags = remedy["tags"].as_array().unwrap();
    assert!(tags.len() >= 2, "{remedy}");
    let command = remedy["command"].as_str().unwrap();
    for option in [
        "--cacert",
        "--cert",
        "--key",
        "--user 'operator'",
        "--password-file",
    ] {
        assert!(command.contains(option), "{option} in {command}");
    }
    assert!(
        !command.contains("operator-pw\n") && !command.contains(">operator"),
        "{command}"
    );
    // run as printed, with the slotgen under test first on PATH
    let out = super::cluster_live::run_printed(command, b"");
    assert!(
        out.status.success(),
        "{command}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let placed = String::from_utf8(out.stdout).unwrap();
    // each tag's key on the primary the remedy names, by the server's CLUSTER KEYSLOT
    for t in tags {
        let key = t["key"].as_str().unwrap();
        let slot: u16 = redis::cmd("CLUSTER")
            .arg("KEYSLOT")
            .arg(key)
            .query(&mut con)
            .unwrap();
        assert_eq!(u64::from(slot), t["slot"].as_u64().unwrap(), "{t}");
        let node = cluster
            .primaries
            .iter()
            .position(|p| t["node"]["id"] == p.node_id().as_str())
            .unwrap();
        assert!((RANGES[node].0..=RANGES[node].1).contains(&slot), "{t}");
    }
    for primary in &cluster.primaries {
        let id = primary.node_id();
        let named = tags
            .iter()
            .filter(|t| t["node"]["id"] == id.as_str())
            .count();
        let line = placed
            .lines()
            .find(|l| l.starts_with(&format!("node\t{id}\t")))
            .unwrap_or_else(|| panic!("{placed}"));
        let keys: usize = line.split('\t').nth(3).unwrap().parse().unwrap();
        assert_eq!(keys, named, "{placed}");
    }
}

/// ACL users on every node of `cluster`: one who may read the map but not run CLUSTER
/// SLOT-STATS, one without any CLUSTER command, and a wrong password.
fn acl_users(cluster: &ReplicatedCluster, url: &str, with: &dyn Fn(&[&str]) -> Vec<String>) {
    for node in cluster.nodes() {
        let mut con = node.connect();
        for rules in [
            &[
                "mapper",
                "on",
                ">mapper-pw",
                "+info",
                "+cluster|info",
                "+cluster|shards",
                "+cluster|nodes",
            ][..],
            &["nocluster", "on", ">nocluster-pw", "+@all", "-cluster"][..],
            &[
                "slotsonly",
                "on",
                ">slots-pw",
                "+info",
                "+cluster|info",
                "+cluster|slots",
                "+cluster|nodes",
            ][..],
        ] {
            redis::cmd("ACL")
                .arg("SETUSER")
                .arg(rules)
                .query::<()>(&mut con)
                .unwrap_or_else(|e| panic!("ACL SETUSER {rules:?}: {e}"));
        }
    }
    let run = |args: &[&str], stdin: &[u8]| {
        let args = with(args);
        slotgen(&args.iter().map(String::as_str).collect::<Vec<_>>(), stdin)
    };
    let dir = tempfile::tempdir().unwrap();
    let file = |name: &str, text: &str| {
        let p = dir.path().join(name);
        std::fs::write(&p, text).unwrap();
        p.to_str().unwrap().to_owned()
    };
    let mapper_pw = file("mapper", "mapper-pw\n");
    let wrong_pw = file("wrong", "not-the-password-42\n");

    // the map's user, with the password from a file and from standard input
    let expected = shards_rows(&mut cluster.primaries[0].connect());
    let by_file = run(
        &[
            "nodes",
            "--redis",
            url,
            "--user",
            "mapper",
            "--password-file",
            &mapper_pw,
        ],
        b"",
    );
    assert_eq!(map_rows(&by_file), expected);
    let by_stdin = run(
        &["nodes", "--redis", url, "--user", "mapper", "--askpass"],
        b"mapper-pw\n",
    );
    assert_eq!(map_rows(&by_stdin), expected);
    // nor `load`: neither CLUSTER SLOT-STATS (where the server has it) nor
    // CLUSTER COUNTKEYSINSLOT
    let load = run(
        &[
            "load",
            "--redis",
            url,
            "--user",
            "mapper",
            "--password-file",
            &mapper_pw,
        ],
        b"",
    );
    load.fails_with("grant");
    assert!(
        load.stderr.contains("CLUSTER COUNTKEYSINSLOT") && load.stderr.contains("NOPERM"),
        "{}",
        load.stderr
    );
    // it may not run CLUSTER SLOT-STATS (Valkey 8.0 has it; Redis 7.0 does not know it)
    let slot_stats: redis::RedisResult<redis::Value> = {
        let mut con = cluster.primaries[0].connect();
        redis::cmd("AUTH")
            .arg("mapper")
            .arg("mapper-pw")
            .query::<()>(&mut con)
            .unwrap();
        redis::cmd("CLUSTER")
            .arg("SLOT-STATS")
            .arg("SLOTSRANGE")
            .arg(0)
            .arg(0)
            .query(&mut con)
    };
    let refusal = slot_stats.expect_err("mapper may not run CLUSTER SLOT-STATS");
    assert!(
        refusal.code() == Some("NOPERM") || refusal.to_string().contains("unknown subcommand"),
        "{refusal}"
    );
    // it may not run CLUSTER KEYSLOT either: verify says so
    run(
        &["verify", "--redis", url, "--user", "mapper", "--password-file", &mapper_pw],
        b"",
    )
    .fails_with("user `mapper` may not run CLUSTER KEYSLOT: grant it with `ACL SETUSER mapper +cluster|keyslot` (NOPERM)");

    // passwords as the server takes them: any bytes from a file or standard input, and `#`,
    // `/`, `?` percent-encoded in the URL; the server's answer decides (the map, as above)
    let odd: &[u8] = b"b\xffy\ttes\x1b\xfe";
    let hashy = "ab#cd/e?f";
    for node in cluster.nodes() {
        let mut con = node.connect();
        for (user, password) in [("bytes", odd), ("hashy", hashy.as_bytes())] {
            let mut rule = b">".to_vec();
            rule.extend_from_slice(password);
            redis::cmd("ACL")
                .arg("SETUSER")
                .arg(user)
                .arg("on")
                .arg(rule)
                .arg(&[
                    "+info",
                    "+cluster|info",
                    "+cluster|shards",
                    "+cluster|nodes",
                ])
                .query::<()>(&mut con)
                .unwrap_or_else(|e| panic!("ACL SETUSER {user}: {e}"));
        }
    }
    let odd_pw = dir.path().join("odd");
    std::fs::write(&odd_pw, [odd, b"\n"].concat()).unwrap();
    let odd_pw = odd_pw.to_str().unwrap().to_owned();
    let as_bytes = run(
        &[
            "nodes",
            "--redis",
            url,
            "--user",
            "bytes",
            "--password-file",
            &odd_pw,
        ],
        b"",
    );
    assert_eq!(map_rows(&as_bytes), expected, "{}", as_bytes.stderr);
    let as_bytes = run(
        &["nodes", "--redis", url, "--user", "bytes", "--askpass"],
        &[odd, b"\n"].concat(),
    );
    assert_eq!(map_rows(&as_bytes), expected, "{}", as_bytes.stderr);
    let encoded = url.replacen("rediss://", "rediss://hashy:ab%23cd%2Fe%3Ff@", 1);
    let by_url = run(&["nodes", "--redis", &encoded], b"");
    assert_eq!(map_rows(&by_url), expected, "{}", by_url.stderr);
    let cut = url.replacen("rediss://", &format!("rediss://hashy:{hashy}@"), 1);
    let cut = run(&["nodes", "--redis", &cut], b"");
    cut.fails_with_code(
        2,
        "percent-encode them in the password (`%2F`, `%3F`, `%23`",
    );
    assert!(!cut.stderr.contains("TLS only"), "{}", cut.stderr);

    // CLUSTER SLOTS without CLUSTER SHARDS: the map from CLUSTER SLOTS, with a note
    let slots_pw = file("slots", "slots-pw");
    let from_slots = run(
        &[
            "nodes",
            "--redis",
            url,
            "--user",
            "slotsonly",
            "--password-file",
            &slots_pw,
        ],
        b"",
    );
    let primaries: Vec<Vec<String>> = map_rows(&from_slots)
        .into_iter()
        .filter(|row| row[2] == "primary")
        .collect();
    let expected_primaries: Vec<&Vec<String>> =
        expected.iter().filter(|row| row[2] == "primary").collect();
    assert_eq!(primaries.len(), 3);
    for (got, want) in primaries.iter().zip(expected_primaries) {
        assert_eq!(got[..2], want[..2]);
    }
    assert!(
        from_slots.stderr.contains(
            "refused CLUSTER SHARDS (NOPERM: user `slotsonly` may not run CLUSTER SHARDS: grant it with `ACL SETUSER slotsonly +cluster|shards`); the map is read from CLUSTER SLOTS"
        ),
        "{}",
        from_slots.stderr
    );

    // no CLUSTER command at all
    run(
        &["nodes", "--redis", url, "--user", "nocluster", "--askpass"],
        b"nocluster-pw\n",
    )
    .fails_with("user `nocluster` may not run CLUSTER INFO: grant it with `ACL SETUSER nocluster +cluster|info` (NOPERM)");

    // a wrong password: the user is named, the password is not
    let wrong = run(
        &[
            "nodes",
            "--redis",
            url,
            "--user",
            "mapper",
            "--password-file",
            &wrong_pw,
        ],
        b"",
    );
    wrong.fails_with("refused the password of user `mapper`");
    assert!(
        !wrong.stderr.contains("not-the-password-42"),
        "{}",
        wrong.stderr
    );
    let in_url = url.replacen("rediss://", "rediss://mapper:not-the-password-42@", 1);
    let wrong = run(&["nodes", "--redis", &in_url], b"");
    wrong.fails_with("refused the password of user `mapper`");
    assert!(
        !wrong.stderr.contains("not-the-password-42"),
        "{}",
        wrong.stderr
    );
}

/// A single TLS server with `pair` as its certificate (not a cluster: the handshake fails
/// before any command).
fn single(pair: &slotgen_tests::tls::Pair, certs: &Certs) -> RedisServer {
    let tls = ServerTls {
        pair: pair.clone(),
        ca: certs.ca.clone(),
        auth_clients: false,
    };
    RedisServer::start_with("redis-server", false, None, Some(&tls), &[])
        .unwrap_or_else(|e| panic!("starting redis-server with TLS: {e}"))
}

#[test]
fn certificates_that_are_refused_say_which_and_why() {
    let Some(certs) = certs("redis-server") else {
        return;
    };
    let ca = path(&certs.ca);

    let expired = single(&certs.expired, &certs);
    let url = format!("rediss://127.0.0.1:{}", expired.port);
    slotgen(&["nodes", "--redis", &url, "--cacert", ca], b"").fails_with(&format!(
        "TLS with `{url}`: the server's certificate has expired (it was valid until {EXPIRED_UNTIL}): renew it (--insecure skips the check)"
    ));
    // a single server's exchange says it in the same words
    slotgen(&["verify", "--redis", &url, "--cacert", ca], b"").fails_with(&format!(
        "TLS with `{url}`: the server's certificate has expired (it was valid until {EXPIRED_UNTIL}): renew it (--insecure skips the check)"
    ));

    // the CA's own certificate (`CA:TRUE`) served as the server's: said with the rule and
    // the fix (it was rustls's `Other(OtherError(CaUsedAsEndEntity))`)
    let ca_pair = slotgen_tests::tls::Pair {
        cert: certs.ca.clone(),
        key: certs.ca.with_file_name("ca.key"),
    };
    let ca_served = single(&ca_pair, &certs);
    let url = format!("rediss://127.0.0.1:{}", ca_served.port);
    slotgen(&["nodes", "--redis", &url, "--cacert", ca], b"").fails_with(&format!(
        "TLS with `{url}`: the server's certificate is a CA's certificate (`CA:TRUE`), which a server may not present as its own: give the server a certificate that a CA issued for it (its `tls-cert-file`, with `CA:FALSE`), and trust that CA (--insecure skips the check)"
    ));
    drop(ca_served);

    let wrong = single(&certs.wrong_name, &certs);
    let url = format!("rediss://127.0.0.1:{}", wrong.port);
    slotgen(&["nodes", "--redis", &url, "--cacert", ca], b"").fails_with(
        "the server's certificate is not valid for the name `127.0.0.1` (it holds `other.example`)",
    );
    // checked against the name it holds, it is accepted (and the server is no cluster)
    slotgen(
        &[
            "nodes",
            "--redis",
            &url,
            "--cacert",
            ca,
            "--sni",
            "other.example",
        ],
        b"",
    )
    .fails_with("is not cluster-enabled");

    // a CA file that is no PEM, and one that is missing: the file is named (exit 1, as for
    // every file that cannot be read)
    let url = format!("rediss://127.0.0.1:{}", wrong.port);
    slotgen(
        &["nodes", "--redis", &url, "--cacert", "/nonexistent/ca.pem"],
        b"",
    )
    .fails_with("the CA certificate file `/nonexistent/ca.pem` cannot be used");
    slotgen(
        &[
            "nodes",
            "--redis",
            &url,
            "--cacert",
            path(&certs.client.key),
        ],
        b"",
    )
    .fails_with("cannot be used: no certificate in it (PEM)");
}

/// An X.509 v1 client certificate (what the common `openssl x509 -req` recipe makes, and
/// redis-cli accepts) is refused naming its file and the reason in plain words, not as the
/// key file's fault in Rust debug text (issue 31); the reissue the message gives (`-extfile`
/// with `basicConstraints=CA:FALSE`, the same request and CA) is followed here, and the
/// v3 certificate it makes is accepted by a server with `tls-auth-clients yes`.
#[test]
fn a_v1_client_certificate_is_named_and_its_reissue_works() {
    let Some(certs) = certs("redis-server") else {
        return;
    };
    let tls = ServerTls {
        pair: certs.server.clone(),
        ca: certs.ca.clone(),
        auth_clients: true,
    };
    let server = RedisServer::start_with("redis-server", false, None, Some(&tls), &[])
        .unwrap_or_else(|e| panic!("starting redis-server with TLS: {e}"));
    let url = format!("rediss://127.0.0.1:{}", server.port);
    let v1 = &certs.client_v1;
    let run = |cert: &Path| {
        slotgen(
            &[
                "nodes",
                "--redis",
                &url,
                "--cacert",
                path(&certs.ca),
                "--cert",
                path(cert),
                "--key",
                path(&v1.key),
            ],
            b"",
        )
    };
    let refused = run(&v1.cert);
    refused.fails_with(&format!(
        "TLS with `{url}`: the client certificate file `{}` cannot be used: it is an X.509 v1 certificate",
        path(&v1.cert)
    ));
    assert!(
        refused.stderr.contains("reissue it as v3")
            && !refused.stderr.contains("OtherError")
            && !refused.stderr.contains("key file"),
        "{}",
        refused.stderr
    );
    // the fix, as the message gives it
    assert!(
        refused
            .stderr
            .contains("`-extfile FILE` where FILE holds `basicConstraints=CA:FALSE`"),
        "{}",
        refused.stderr
    );
    let dir = certs.dir();
    std::fs::write(dir.join("v3.ext"), "basicConstraints=CA:FALSE\n").unwrap();
    slotgen_tests::tls::run_openssl(
        dir,
        &[
            "x509",
            "-req",
            "-in",
            "client-v1.csr",
            "-CA",
            "ca.pem",
            "-CAkey",
            "ca.key",
            "-CAcreateserial",
            "-days",
            "2",
            "-extfile",
            "v3.ext",
            "-out",
            "client-v3.pem",
        ],
    )
    .unwrap();
    // the handshake with the client certificate passes; the server is no cluster
    run(&dir.join("client-v3.pem")).fails_with("is not cluster-enabled");
    // the same v1 certificate, which rustls refuses, is one the server takes (redis-cli)
    if require_tool("redis-cli") {
        let out = std::process::Command::new("redis-cli")
            .args([
                "--tls",
                "--cacert",
                path(&certs.ca),
                "--cert",
                path(&v1.cert),
            ])
            .args([
                "--key",
                path(&v1.key),
                "-p",
                &server.port.to_string(),
                "PING",
            ])
            .output()
            .unwrap();
        assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "PONG");
    }
}
