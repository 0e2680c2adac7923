//! Lua inside the server: the emitted Functions library, loaded by `FUNCTION LOAD` into a
//! real cluster-enabled `redis-server` (7.0) and `valkey-server` (8.0), and the
//! `lua --for-script` block, run by `EVALSHA` there, for every test spec. Their answers on
//! every slot are compared with the Rust runtime, and for Redis Cluster's spec the key built
//! for each slot with the server's own `CLUSTER KEYSLOT`. All five libraries live in one
//! server at once, each answering with its own spec.

use std::collections::HashMap;

use redis::{Connection, RedisResult};
use slotgen::emit;
use slotgen_tests::emitted::{cases, keys, reference_slot, Case};
use slotgen_tests::redis_server::RedisServer;
use slotgen_tests::{redis_vectors, require_tool, speakers};

/// The servers the tests run on.
const SERVERS: [&str; 2] = ["redis-server", "valkey-server"];

fn start(program: &str) -> Option<RedisServer> {
    if !require_tool(program) {
        return None;
    }
    Some(
        RedisServer::start_program(program, true, None)
            .unwrap_or_else(|e| panic!("{program}: {e}")),
    )
}

fn is_redis_cluster(case: &Case) -> bool {
    case.name == "redis"
}

fn vector_slots() -> HashMap<Vec<u8>, u16> {
    redis_vectors()
        .into_iter()
        .map(|v| (v.key, v.slot))
        .collect()
}

/// Checks that `keys_built[s]`, the key built for every slot `s`, lands on `s` by the
/// server's own `CLUSTER KEYSLOT`.
fn check_keyslots(what: &str, server: &RedisServer, keys_built: &[Vec<u8>]) {
    for (slot, answer) in server.keyslots(keys_built).into_iter().enumerate() {
        assert_eq!(
            usize::from(answer),
            slot,
            "{what}: CLUSTER KEYSLOT of the key built for slot {slot}"
        );
    }
}

/// The runtime's tag and `user:{tag}:profile` key of every slot.
fn runtime_tags_and_keys(case: &Case) -> (Vec<Vec<u8>>, Vec<Vec<u8>>) {
    let table = case.derivation.table();
    let slots = u16::try_from(case.derivation.spec.slots).expect("slots fit 16 bits");
    (0..slots)
        .map(|s| {
            (
                table.tag_for_slot(s).unwrap().as_ref().to_vec(),
                table.key_for_slot(b"user:", s, b":profile").unwrap(),
            )
        })
        .unzip()
}

fn fcall_error(con: &mut Connection, function: &str, args: &[&str]) -> String {
    let result: RedisResult<redis::Value> = redis::cmd("FCALL")
        .arg(function)
        .arg(0)
        .arg(args)
        .query(con);
    match result {
        Ok(value) => panic!("FCALL {function} {args:?} must be refused, got {value:?}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn functions_library_matches_runtime_and_cluster_keyslot() {
    for program in SERVERS {
        let Some(server) = start(program) else {
            continue;
        };
        let mut con = server.connect();
        let vectors = vector_slots();
        let keys = keys();
        for case in cases() {
            let what = format!("{program}, library of spec {}", case.name);
            let name = format!("slotgen_{}", case.name);
            let library = emit::redis_function::library(&case.derivation, &name).unwrap();
            let loaded: String = redis::cmd("FUNCTION")
                .arg("LOAD")
                .arg("REPLACE")
                .arg(&library)
                .query(&mut con)
                .unwrap_or_else(|e| panic!("{what}: FUNCTION LOAD: {e}"));
            assert_eq!(loaded, name);
            let slots = case.derivation.spec.slots;
            let mut tags = redis::pipe();
            let mut built = redis::pipe();
            for s in 0..slots {
                tags.cmd("FCALL_RO")
                    .arg(format!("{name}_tag_for_slot"))
                    .arg(0)
                    .arg(s);
                built
                    .cmd("FCALL_RO")
                    .arg(format!("{name}_key_for_slot"))
                    .arg(0)
                    .arg("user:")
                    .arg(s)
                    .arg(":profile");
            }
            let tags: Vec<Vec<u8>> = tags
                .query(&mut con)
                .unwrap_or_else(|e| panic!("{what}: {e}"));
            let built: Vec<Vec<u8>> = built
                .query(&mut con)
                .unwrap_or_else(|e| panic!("{what}: {e}"));
            let (want_tags, want_keys) = runtime_tags_and_keys(&case);
            assert_eq!(tags, want_tags, "{what}: tags differ from the runtime's");
            assert_eq!(built, want_keys, "{what}: keys differ from the runtime's");
            if is_redis_cluster(&case) {
                check_keyslots(&what, &server, &built);
            }
            let mut hashed = redis::pipe();
            for key in &keys {
                hashed
                    .cmd("FCALL_RO")
                    .arg(format!("{name}_slot"))
                    .arg(0)
                    .arg(key);
            }
            let hashed: Vec<u16> = hashed
                .query(&mut con)
                .unwrap_or_else(|e| panic!("{what}: {e}"));
            for (key, slot) in keys.iter().zip(hashed) {
                assert_eq!(
                    slot,
                    reference_slot(&case.derivation, &vectors, key),
                    "{what}: slot of {key:?}"
                );
            }
            let last = slots.to_string();
            for (args, fragment) in [
                (vec![last.as_str()], "out of range"),
                (vec!["-1"], "out of range"),
                (vec!["1.5"], "out of range"),
                (vec!["0x10"], "out of range"),
            ] {
                let error = fcall_error(&mut con, &format!("{name}_tag_for_slot"), &args);
                assert!(error.contains(fragment), "{what}: {args:?}: {error}");
            }
            let error = fcall_error(&mut con, &format!("{name}_key_for_slot"), &["a{b", "0", ""]);
            assert!(error.contains("prefix contains `{`"), "{what}: {error}");
        }
        // Every library still answers with its own spec once all are loaded.
        for case in cases() {
            let name = format!("slotgen_{}", case.name);
            let tag: Vec<u8> = redis::cmd("FCALL")
                .arg(format!("{name}_tag_for_slot"))
                .arg(0)
                .arg(1)
                .query(&mut con)
                .unwrap();
            let want = case.derivation.table().tag_for_slot(1).unwrap();
            assert_eq!(tag, want.as_ref(), "{program}: library {name}");
        }
    }
}

/// The script `a` block, `b` block, then `body`: one EVAL script holding both blocks of
/// [`speakers::pair_cases`].
fn pair_script(body: &str) -> String {
    let [a, b] = speakers::pair_cases();
    format!(
        "{}{}{body}",
        emit::redis_function::script_block(&a.derivation, "a").unwrap(),
        emit::redis_function::script_block(&b.derivation, "b").unwrap()
    )
}

#[test]
fn script_block_matches_runtime_and_cluster_keyslot() {
    for program in SERVERS {
        let Some(server) = start(program) else {
            continue;
        };
        let mut con = server.connect();
        let vectors = vector_slots();
        let keys = keys();
        for case in cases() {
            let what = format!("{program}, EVAL block of spec {}", case.name);
            let block = emit::redis_function::script_block(&case.derivation, "slots").unwrap();
            let script = format!(
                "{block}if ARGV[1] == 'slot' then return slots.slot(ARGV[2]) end\n\
                 local tag = assert(slots.tag_for_slot(ARGV[2]))\n\
                 return {{tag, assert(slots.key_for_slot('user:', tonumber(ARGV[2]), ':profile'))}}\n"
            );
            let sha: String = redis::cmd("SCRIPT")
                .arg("LOAD")
                .arg(&script)
                .query(&mut con)
                .unwrap_or_else(|e| panic!("{what}: SCRIPT LOAD: {e}"));
            let mut pipe = redis::pipe();
            for s in 0..case.derivation.spec.slots {
                pipe.cmd("EVALSHA").arg(&sha).arg(0).arg("tag").arg(s);
            }
            let answers: Vec<(Vec<u8>, Vec<u8>)> = pipe
                .query(&mut con)
                .unwrap_or_else(|e| panic!("{what}: {e}"));
            let (tags, built): (Vec<Vec<u8>>, Vec<Vec<u8>>) = answers.into_iter().unzip();
            let (want_tags, want_keys) = runtime_tags_and_keys(&case);
            assert_eq!(tags, want_tags, "{what}: tags differ from the runtime's");
            assert_eq!(built, want_keys, "{what}: keys differ from the runtime's");
            if is_redis_cluster(&case) {
                check_keyslots(&what, &server, &built);
            }
            let mut pipe = redis::pipe();
            for key in &keys {
                pipe.cmd("EVALSHA").arg(&sha).arg(0).arg("slot").arg(key);
            }
            let hashed: Vec<u16> = pipe
                .query(&mut con)
                .unwrap_or_else(|e| panic!("{what}: {e}"));
            for (key, slot) in keys.iter().zip(hashed) {
                assert_eq!(
                    slot,
                    reference_slot(&case.derivation, &vectors, key),
                    "{what}: slot of {key:?}"
                );
            }
        }
        // Refusals are `nil` plus the message.
        let [a, _] = speakers::pair_cases();
        let block = emit::redis_function::script_block(&a.derivation, "slots").unwrap();
        let refused: Vec<String> = redis::cmd("EVAL")
            .arg(format!(
                "{block}return {{select(2, slots.tag_for_slot(16384)), select(2, slots.tag_for_slot(-1)), \
                 select(2, slots.key_for_slot('a{{b', 0, ''))}}"
            ))
            .arg(0)
            .query(&mut con)
            .unwrap();
        assert!(refused[0].contains("out of range"), "{refused:?}");
        assert!(refused[1].contains("out of range"), "{refused:?}");
        assert!(refused[2].contains("prefix contains `{`"), "{refused:?}");
        // Two blocks of different specs in one script, each answering with its own spec.
        let pair: Vec<String> = redis::cmd("EVAL")
            .arg(pair_script(
                "local out = {}\n\
                 for name, m in pairs({a = a, b = b}) do\n\
                   local function hex(s) return (s:gsub('.', function(c) return string.format('%02x', c:byte()) end)) end\n\
                   out[#out + 1] = table.concat({'pair', name, m.slot('123456789'), hex(m.tag_for_slot(1)), hex(m.tag_for_slot(m.slots - 1))}, '\\t')\n\
                 end\n\
                 table.sort(out)\n\
                 return out\n",
            ))
            .arg(0)
            .query(&mut con)
            .unwrap_or_else(|e| panic!("{program}: the two-block script: {e}"));
        speakers::check_pair(&format!("{program}, EVAL"), &pair.join("\n"));
    }
}

#[test]
fn server_lua_names_are_checked() {
    let d = slotgen::derive(&slotgen::Spec::default()).unwrap();
    for bad in ["", "9lives", "end", "bit", "redis", "slot-gen", "süß"] {
        let error = emit::redis_function::library(&d, bad).unwrap_err();
        assert!(
            error
                .to_string()
                .contains("is not a name for `emit redis-function`"),
            "{bad}: {error}"
        );
        assert!(emit::redis_function::script_block(&d, bad).is_err());
    }
}
