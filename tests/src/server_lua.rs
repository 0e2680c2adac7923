//! Lua inside the server, through the registry: the block of `slotgen emit lua
//! --for-script`, run by `EVAL` in a real cluster-enabled `redis-server` and
//! `valkey-server` with the harness's Lua driver after it (`tests/drivers/lua/driver.lua`,
//! which answers the whole driver protocol there), for every case of the harness whose
//! servers run `EVAL` (twemproxy's without `hash_tag` with its keys solved inside the
//! harness's frame, as the module solves them); and the Functions library of `slotgen emit redis-function`, loaded by
//! `FUNCTION LOAD` there and called for every slot and key, for every case whose servers
//! run Functions (Redis Cluster's). The other cases are refused with
//! [`Error::ServerLua`]. For Redis Cluster the key built for
//! every slot also lands there by the server's own `CLUSTER KEYSLOT`.

use std::path::Path;

use redis::Connection;
use slotgen::emit::language::{self, Options};
use slotgen::Error;

use crate::harness::{Case, Shared};
use crate::redis_server::RedisServer;
use crate::toolchains::driver;

/// The servers the tests run on.
pub const SERVERS: [&str; 2] = ["redis-server", "valkey-server"];

/// A cluster-enabled `program`, or `None` (skipped) when it is missing.
fn start(program: &str) -> Option<RedisServer> {
    crate::require_tool(program).then(|| {
        RedisServer::start_program(program, true, None).unwrap_or_else(|e| panic!("{program}: {e}"))
    })
}

/// Whether the case is the Redis Cluster spec of Redis itself (CRC-16/XMODEM, 16384 slots).
fn is_redis_cluster(case: &Case) -> bool {
    case.table.slot_tables.is_some() && case.name == "redis"
}

/// The server-side Lua of `language` (`lua` with `--for-script`, or `redis-function`) for
/// `case`, named `name`; `None` when the case's servers do not run it.
fn server_lua(language: &str, case: &Case, name: &str) -> Option<String> {
    let options = Options {
        name: Some(name),
        for_script: language == "lua",
        ..Options::default()
    };
    match language::find(language)
        .unwrap()
        .emit(case.source(), &options)
    {
        Ok(text) => Some(text),
        Err(Error::ServerLua { .. }) => None,
        Err(e) => panic!("{language}, case {}: {e}", case.name),
    }
}

/// Runs every case through the server-side Lua in each server of [`SERVERS`] that is
/// installed (its files under `tmp`), against the harness's expected answers.
///
/// # Panics
///
/// With the first difference, or when a case whose servers run the Lua is refused.
pub fn check_servers(tmp: &Path) {
    let Some(shared) = crate::harness::shared(tmp) else {
        return;
    };
    let body = std::fs::read_to_string(driver("lua", "driver.lua")).unwrap();
    let keys_text = std::fs::read(&shared.keys_path).unwrap();
    let groups_text = std::fs::read(&shared.groups_path).unwrap();
    // one thread a server: each server runs its scripts on one core, so the two together
    // take the time of one (a panic in either fails the test with its message)
    std::thread::scope(|scope| {
        for program in SERVERS {
            let (body, keys_text, groups_text) = (&body, &keys_text, &groups_text);
            scope.spawn(move || check_server(shared, program, body, keys_text, groups_text));
        }
    });
}

/// [`check_servers`] on one server, `program`, when it is installed.
fn check_server(shared: &Shared, program: &str, body: &str, keys_text: &[u8], groups_text: &[u8]) {
    let Some(server) = start(program) else {
        return;
    };
    let mut con = server.connect();
    let mut refused = Vec::new();
    for case in &shared.cases {
        let what = format!("{program} EVAL");
        let Some(block) = server_lua("lua", case, "slots") else {
            refused.push(case.name);
            continue;
        };
        let mut eval = redis::cmd("EVAL");
        eval.arg(format!("{block}{body}"))
            .arg(0)
            .arg(case.driver_args(shared).split_off(2))
            .arg(keys_text)
            .arg(groups_text);
        let output: String = eval
            .query(&mut con)
            .unwrap_or_else(|e| panic!("{what}, case {}: {e}", case.name));
        shared.check(&what, case, &[], &output);
        check_library(shared, case, &server, &mut con, program);
    }
    // the schemes whose keys live elsewhere than on Redis servers
    assert_eq!(
        refused,
        ["couchbase", "tarantool", "kafka", "kafka_one"],
        "{program}: the cases refused an EVAL block"
    );
}

/// The Functions library of `case`, where its servers run Functions, called for every
/// slot's tag and key and every key's slot.
fn check_library(
    shared: &Shared,
    case: &Case,
    server: &RedisServer,
    con: &mut Connection,
    program: &str,
) {
    let name = format!("slotgen_{}", case.name);
    let what = format!("{program}, library {name}");
    let Some(library) = server_lua("redis-function", case, &name) else {
        return;
    };
    let loaded: String = redis::cmd("FUNCTION")
        .arg("LOAD")
        .arg("REPLACE")
        .arg(&library)
        .query(con)
        .unwrap_or_else(|e| panic!("{what}: FUNCTION LOAD: {e}"));
    assert_eq!(loaded, name);
    // the server took the library: the lint must not say that any server refuses it
    let targets = [
        slotgen_lint::Target::Redis,
        slotgen_lint::Target::Valkey8,
        slotgen_lint::Target::Valkey9,
    ];
    let report = slotgen_lint::lint_script(
        Path::new("library.lua"),
        &library,
        &slotgen_lint::Values::default(),
        &targets,
    )
    .unwrap_or_else(|e| panic!("{what}: the lint reads the library: {e}"));
    for target in targets {
        assert_eq!(
            report.verdict(target),
            slotgen_lint::Outcome::Runs,
            "{what}: the lint of the library {program} loaded, on {target:?}: {:?}",
            report.findings
        );
    }
    let call = |function: &str| {
        let mut cmd = redis::cmd("FCALL_RO");
        cmd.arg(format!("{name}_{function}")).arg(0);
        cmd
    };
    let slots: Vec<u32> = (case.first()..=case.last()).collect();
    let (mut tags, mut built) = (redis::pipe(), redis::pipe());
    for s in &slots {
        tags.add_command(call("tag_for_slot").arg(s).clone());
        built.add_command(
            call("key_for_slot")
                .arg(&case.prefix)
                .arg(s)
                .arg(&case.suffix)
                .clone(),
        );
    }
    let tags: Vec<Vec<u8>> = tags.query(con).unwrap_or_else(|e| panic!("{what}: {e}"));
    let built: Vec<Vec<u8>> = built.query(con).unwrap_or_else(|e| panic!("{what}: {e}"));
    let keys: Vec<Vec<u8>> = std::fs::read_to_string(&shared.keys_path)
        .unwrap()
        .lines()
        .map(|l| hex::decode(l).unwrap())
        .collect();
    let mut hashed = redis::pipe();
    for key in &keys {
        hashed.add_command(call("slot").arg(key).clone());
    }
    let hashed: Vec<u64> = hashed.query(con).unwrap_or_else(|e| panic!("{what}: {e}"));
    let mut hashtags = redis::pipe();
    for key in &keys {
        hashtags.add_command(call("hashtag").arg(key).clone());
    }
    let hashtags: Vec<Vec<u8>> = hashtags
        .query(con)
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    let (mut same, mut shared_tags) = (redis::pipe(), redis::pipe());
    for group in shared.groups() {
        same.add_command(call("same_slot").arg(group).clone());
        shared_tags.add_command(call("shared_hashtag").arg(group).clone());
    }
    let same: Vec<Option<u64>> = same.query(con).unwrap_or_else(|e| panic!("{what}: {e}"));
    let shared_tags: Vec<Option<Vec<u8>>> = shared_tags
        .query(con)
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    let mut answers: Vec<String> = slots
        .iter()
        .zip(&tags)
        .map(|(s, t)| format!("tag\t{s}\t{}", hex::encode(t)))
        .collect();
    answers.extend(
        slots
            .iter()
            .zip(&built)
            .map(|(s, k)| format!("key\t{s}\t{}", hex::encode(k))),
    );
    answers.extend(
        keys.iter()
            .zip(&hashed)
            .map(|(k, s)| format!("slot\t{}\t{s}", hex::encode(k))),
    );
    answers.extend(
        keys.iter()
            .zip(&hashtags)
            .map(|(k, h)| format!("hashtag\t{}\t{}", hex::encode(k), hex::encode(h))),
    );
    answers.extend(same.iter().enumerate().map(|(i, s)| {
        let s = s.map_or("-".to_owned(), |s| s.to_string());
        format!("same\t{i}\t{s}")
    }));
    answers.extend(shared_tags.iter().enumerate().map(|(i, t)| {
        let t = t.as_ref().map_or("-".to_owned(), hex::encode);
        format!("shared\t{i}\t{t}")
    }));
    let kept = [
        "tag\t",
        "key\t",
        "slot\t",
        "hashtag\t",
        "same\t",
        "shared\t",
    ];
    let expected: Vec<String> = shared
        .expected(case, &[])
        .into_iter()
        .filter(|l| kept.iter().any(|k| l.starts_with(k)))
        .collect();
    assert_eq!(answers.len(), expected.len(), "{what}: the answers");
    for (got, want) in answers.iter().zip(&expected) {
        assert_eq!(got, want, "{what} differs from the runtime");
    }
    if is_redis_cluster(case) {
        for (slot, answer) in server.keyslots(&built).into_iter().enumerate() {
            assert_eq!(
                usize::from(answer),
                slot,
                "{what}: CLUSTER KEYSLOT of the key built for slot {slot}"
            );
        }
    }
    // a slot past the last, in digits a Lua number rounds (`1e+20`), is shown as given; an
    // argument missing or one too many is refused by count, not read as nil or left out
    let huge = format!("{}0", u64::MAX);
    let missing = format!(
        "{name}_key_for_slot takes 3 arguments after the 0 keys (PREFIX SLOT SUFFIX), not 2"
    );
    let extra = format!("{name}_tag_for_slot takes 1 argument after the 0 keys (SLOT), not 2");
    let none = format!("{name}_tag_for_slot takes 1 argument after the 0 keys (SLOT), not 0");
    for (function, args, fragment) in [
        (
            "tag_for_slot",
            vec![(case.last() + 1).to_string()],
            "out of range".to_owned(),
        ),
        (
            "tag_for_slot",
            vec![huge.clone()],
            format!("slot {huge} is out of range"),
        ),
        (
            "tag_for_slot",
            vec!["1.5".to_owned()],
            "is not a whole number".to_owned(),
        ),
        (
            "tag_for_slot",
            vec!["0x10".to_owned()],
            "is not a whole number".to_owned(),
        ),
        (
            "tag_for_slot",
            vec!["abc".to_owned()],
            "slot abc is not a whole number".to_owned(),
        ),
        (
            "tag_for_slot",
            vec!["a\x1b".to_owned()],
            "slot a\\x1b is not".to_owned(),
        ),
        ("tag_for_slot", vec![], none),
        (
            "tag_for_slot",
            vec![case.first().to_string(), "6".to_owned()],
            extra,
        ),
        (
            "key_for_slot",
            vec!["a".to_owned(), case.first().to_string()],
            missing,
        ),
    ] {
        let error = redis::cmd("FCALL")
            .arg(format!("{name}_{function}"))
            .arg(0)
            .arg(&args)
            .query::<redis::Value>(con)
            .expect_err("a slot that is not one is refused")
            .to_string();
        assert!(error.contains(&fragment), "{what}: {args:?}: {error}");
    }
    let error = redis::cmd("FCALL")
        .arg(format!("{name}_key_for_slot"))
        .arg(0)
        .arg(&case.bad_prefix)
        .arg(case.first())
        .arg(&case.bad_suffix)
        .query::<redis::Value>(con)
        .expect_err("a prefix with the opening delimiter is refused")
        .to_string();
    let fragment = case
        .bad_fragment
        .expect("a Functions library's scheme has delimiters, which refuse the prefix");
    assert!(error.contains(fragment), "{what}: {error}");
}

/// Two blocks of different specs in one `EVAL` script (`tests/drivers/lua/pair.lua` after
/// the blocks `a` and `b` of [`speakers::pair_cases`](crate::speakers::pair_cases)), each
/// answering with its own spec, in each server of [`SERVERS`] that is installed.
///
/// # Panics
///
/// When a block answers with the other's spec.
pub fn check_pair() {
    let lua = language::find("lua").unwrap();
    let [a, b] = crate::speakers::pair_cases();
    let block = |case: &crate::emitted::Case| {
        let options = Options {
            name: Some(case.name),
            for_script: true,
            ..Options::default()
        };
        lua.emit(&case.derivation, &options).unwrap()
    };
    let body = std::fs::read_to_string(driver("lua", "pair.lua")).unwrap();
    let script = format!("{}{}{body}", block(&a), block(&b));
    for program in SERVERS {
        let Some(server) = start(program) else {
            continue;
        };
        let pair: String = redis::cmd("EVAL")
            .arg(&script)
            .arg(0)
            .query(&mut server.connect())
            .unwrap_or_else(|e| panic!("{program}: the two-block script: {e}"));
        crate::speakers::check_pair(&format!("{program}, EVAL"), &pair);
    }
}
