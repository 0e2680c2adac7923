//! `slotgen lint`: the exit status (0 every target runs, 1 any fails or depends, 2 bad
//! usage), one error line for a file that does not parse, the JSON form, the SARIF form
//! validated against the SARIF 2.1.0 JSON schema, and outside bytes escaped.

use std::path::PathBuf;

use crate::common::{require, require_tool, run_measured, slotgen, Run};

fn corpus(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/data/lint")
        .join(name)
        .display()
        .to_string()
}

fn lint(args: &[&str]) -> Run {
    let mut all = vec!["lint"];
    all.extend_from_slice(args);
    slotgen(&all).into()
}

#[test]
fn lint_exit_status_is_the_verdict() {
    let derived = corpus("derived.lua");
    // KEYS[1] with a hashtag: `KEYS[1] .. ':x'` is on its slot.
    let run = lint(&["--keys", "{user1}:a", &derived]);
    run.ok()
        .prints("derived.lua: redis runs, valkey8 runs, valkey9 runs");
    // Without a hashtag, the derived key is on another slot: it depends on the node.
    let run = lint(&["--keys", "user1:a", &derived]);
    assert_eq!(run.code, Some(1), "{}", run.stdout);
    run.prints("other-slot")
        .prints("redis depends, valkey8 depends, valkey9 depends");
    // No keys: the condition is the caller's hashtag.
    lint(&[&derived]).prints("runs only while KEYS[1] carries a hashtag");
    // Declared keys on two slots: CROSSSLOT on every target.
    let run = lint(&["--keys", "a", "--keys", "b", &corpus("declared.lua")]);
    assert_eq!(run.code, Some(1), "{}", run.stdout);
    run.prints("declared-cross-slot")
        .prints("put `{a}` in every declared key");
    // rsmq's timestamp passed as KEYS[2]: ZRANGEBYSCORE's `max`, no key; the fix moves it to
    // ARGV and puts no hashtag into it (followed, a hashtag makes it no float: refused)
    let not_key = corpus("declared_not_key.lua");
    let run = lint(&["--keys", "rsmq:q", "--keys", "1733434343434", &not_key]);
    assert_eq!(run.code, Some(1), "{}", run.stdout);
    run.prints("`KEYS[2]` is used as `ZRANGEBYSCORE`'s `max` (line 6), not as a key")
        .prints("fix: pass `KEYS[2]`'s value in ARGV, not in KEYS");
    assert!(!run.stdout.contains("put `{"), "{}", run.stdout);
    // a database that is no integer is `cluster-database`'s alone, not `argument-value`'s too
    let dir = tempfile::tempdir().expect("a temporary directory");
    let db = dir.path().join("db.lua");
    std::fs::write(&db, "return redis.call('MOVE', KEYS[1], 'x')\n").expect("write");
    let run = lint(&["--keys", "{p}a", db.to_str().expect("a path")]);
    run.prints("cluster-database");
    assert!(!run.stdout.contains("argument-value"), "{}", run.stdout);
    let run = lint(&["--keys", "{r}q", "--keys", "{r}1733434343434", &not_key]);
    run.prints("argument-value: `ZRANGEBYSCORE`'s `max` is `{r}1733434343434`, no float")
        .prints("redis fails, valkey8 fails, valkey9 fails");
    // The stricter targets refuse a literal key that Redis and Valkey run.
    let literal = corpus("literal.lua");
    lint(&["--keys", "{p}a", &literal]).ok();
    let run = lint(&[
        "--keys",
        "{p}a",
        "--target",
        "dragonfly",
        "--target",
        "aliyun",
        &literal,
    ]);
    assert_eq!(run.code, Some(1), "{}", run.stdout);
    run.prints("undeclared-key")
        .prints("dragonfly fails, aliyun fails");
}

#[test]
fn lint_valkey_is_both_valkey_targets() {
    // `#!LUA`: Valkey 9 takes the engine in any case, Valkey 8 and Redis 7.0 do not.
    let caps = corpus("shebang_caps.lua");
    let run = lint(&["--keys", "{p}a", "--argv", "{p}b", &caps]);
    assert_eq!(run.code, Some(1), "{}", run.stdout);
    run.prints("shebang_caps.lua: redis fails, valkey8 fails, valkey9 runs");
    // The older name `valkey` judges both, as it did when they were one target.
    lint(&[
        "--keys", "{p}a", "--argv", "{p}b", "--target", "valkey", &caps,
    ])
    .prints("shebang_caps.lua: valkey8 fails, valkey9 runs");
    lint(&[
        "--keys", "{p}a", "--argv", "{p}b", "--target", "valkey9", &caps,
    ])
    .ok()
    .prints("shebang_caps.lua: valkey9 runs");
    // Valkey's `server` in a library's body: Redis 7.0 has it nowhere, so the fix is not
    // to move the read into a function.
    let dir = tempfile::tempdir().expect("a temporary directory");
    let library = dir.path().join("lib.lua");
    std::fs::write(
        &library,
        "#!lua name=lib\nserver.register_function('f', function(keys) return 1 end)\n",
    )
    .expect("written");
    let run = lint(&[library.to_str().expect("UTF-8")]);
    run.prints("lib.lua: redis fails, valkey8 runs, valkey9 runs")
        .prints("`server` exists on Valkey 8.0 and Valkey 9.1 only");
    assert!(
        !run.stdout.contains("inside a registered function"),
        "{}",
        run.stdout
    );
    // A name that is none: the targets listed.
    lint(&["--target", "valkey10", &caps]).exits(2, "give one of redis, valkey8, valkey9");
}

#[test]
fn lint_dragonfly_takes_its_flag_line() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let body = "redis.call('SET', KEYS[1], 'v')\nreturn redis.call('INCR', KEYS[1] .. ':n')\n";
    let plain = dir.path().join("plain.lua");
    std::fs::write(&plain, body).expect("written");
    let flagged = dir.path().join("flagged.lua");
    std::fs::write(
        &flagged,
        format!("--!df flags=allow-undeclared-keys\n{body}"),
    )
    .expect("written");
    let args = |file: &std::path::Path| {
        lint(&[
            "--keys",
            "{u}a",
            "--target",
            "dragonfly",
            "--target",
            "redis",
            file.to_str().expect("UTF-8"),
        ])
    };
    let run = args(&plain);
    assert_eq!(run.code, Some(1), "{}", run.stdout);
    run.prints("[dragonfly fails]")
        .prints("plain.lua: redis runs, dragonfly fails");
    args(&flagged)
        .ok()
        .prints("flagged.lua: redis runs, dragonfly runs");
}

#[test]
fn lint_judges_the_function_fcall_calls() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let lib = dir.path().join("lib.lua");
    std::fs::write(
        &lib,
        "#!lua name=two\n\
         redis.register_function('one', function(keys, args)\n\
           return redis.call('GET', keys[1])\n\
         end)\n\
         redis.register_function('other', function(keys, args)\n\
           redis.call('GET', keys[1])\n\
           return redis.call('GET', args[1])\n\
         end)\n",
    )
    .expect("written");
    let file = lib.to_str().expect("UTF-8");
    let with = |function: &str| {
        lint(&[
            "--keys",
            "{u}a",
            "--argv",
            "b",
            "--function",
            function,
            file,
        ])
    };
    with("one").ok();
    let run = with("other");
    assert_eq!(run.code, Some(1), "{}", run.stdout);
    run.prints("lib.lua:7:8: script-cross-slot");
    // the servers find a function in any case (`FCALL LW` runs `lw`: the `it` test
    // `lint_command_file_script_calls_...`), and so does `--function` (break19)
    let upper = with("OTHER");
    assert_eq!(
        (upper.code, &upper.stdout),
        (run.code, &run.stdout),
        "{}",
        upper.stderr
    );
    with("none").fails_with("no function `none` is registered here; the functions are: one, other");
    // A command file's FCALL lines are judged by the libraries given in the same run (the
    // servers' answers are compared in the `it` test `lint_command_file_script_calls_...`).
    let calls = dir.path().join("calls.redis");
    std::fs::write(&calls, "FCALL_RO one 1 {u}a\nFCALL other 1 {u}a b\n").expect("written");
    let calls = calls.to_str().expect("UTF-8");
    let run = lint(&[file, calls]);
    assert_eq!(run.code, Some(1), "{}", run.stdout);
    run.prints(
        "calls.redis:1:1: write-in-read-only: `FCALL_RO one`: the function has no flag `no-writes`",
    );
    run.prints("calls.redis:2:1: script-cross-slot: `FCALL` of `");
    let run = lint(&[calls]);
    assert_eq!(run.code, Some(1), "{}", run.stdout);
    run.prints("calls.redis:1:1: unseen-body: `FCALL_RO one`");
}

/// In a library's function, a misspelled name's fix is the nearest name in scope (the
/// function's own parameter `keys` for `key`), and no fix sends the user to `KEYS`, which a
/// function does not have (the `it` corpus test runs the fix on the servers).
#[test]
fn lint_fixes_in_a_function_name_its_parameters() {
    let run = lint(&[&corpus("unknown_global_function_param.lua")]);
    assert_eq!(run.code, Some(1), "{}", run.stdout);
    run.prints(
        "fix: write `keys`: `key` is no global, and `keys` is a parameter or local in scope here",
    )
    .prints("pass the key as keys[1]");
    assert!(!run.stdout.contains("KEYS["), "{}", run.stdout);
    assert!(
        !run.stdout.contains("declare `key` local"),
        "{}",
        run.stdout
    );
}

/// `FCALL setpar` with the library of `setpair` given: a misspelled name, which the server
/// answers "Function not found" (the `it` test `lint_command_file_script_calls_...` runs
/// it), not a library left out; a name in another case is the function (the servers find
/// names in any case); a name near none of the libraries given may be in a library not
/// given.
#[test]
fn lint_names_the_function_an_fcall_misspells() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let lib = dir.path().join("lib.lua");
    std::fs::write(
        &lib,
        "#!lua name=pairs
\
         redis.register_function('setpair', function(keys, args)\n\
           redis.call('SET', keys[1], args[1])\n\
           return redis.call('SET', keys[2], args[1])\n\
         end)\n",
    )
    .expect("written");
    let calls = dir.path().join("calls.redis");
    let (lib, calls_path) = (lib.to_str().expect("UTF-8"), calls.to_str().expect("UTF-8"));
    std::fs::write(&calls, "FCALL setpar 2 x y v\n").expect("written");
    let run = lint(&[lib, calls_path]);
    assert_eq!(run.code, Some(1), "{}", run.stdout);
    run.prints("calls.redis:1:1: unknown-function: `FCALL setpar`: no library given registers a function `setpar`")
        .prints("fix: write `setpair`")
        .prints("calls.redis: redis fails, valkey8 fails, valkey9 fails");
    assert!(!run.stdout.contains("unseen-body"), "{}", run.stdout);
    // `setpair` writes: the fix says so, and FCALL_RO, which refuses it, is given none
    run.prints("if that is the function meant: it writes (registered without `no-writes`)");
    std::fs::write(&calls, "FCALL_RO getpair 2 x y\n").expect("written");
    let run = lint(&[lib, calls_path]);
    assert_eq!(run.code, Some(1), "{}", run.stdout);
    run.prints("unknown-function: `FCALL_RO getpair`")
        .prints("`setpair`, the nearest name registered, writes, and FCALL_RO refuses it");
    assert!(
        !run.stdout.contains("fix: write `setpair`"),
        "{}",
        run.stdout
    );
    // with a read-only `getpair` beside it, `FCALL_RO setpar` (the writer misspelled) is not
    // told to read instead: the write is named, with FCALL, and the read after it
    let both = dir.path().join("both.lua");
    std::fs::write(
        &both,
        "#!lua name=pairs\n\
         redis.register_function('setpair', function(keys, args)\n\
           return redis.call('SET', keys[1], args[1])\n\
         end)\n\
         redis.register_function{function_name='getpair', callback=function(keys)\n\
           return redis.call('GET', keys[1])\n\
         end, flags={'no-writes'}}\n",
    )
    .expect("written");
    std::fs::write(&calls, "FCALL_RO setpar 1 x\n").expect("written");
    let run = lint(&[both.to_str().expect("UTF-8"), calls_path]);
    assert_eq!(run.code, Some(1), "{}", run.stdout);
    run.prints(
        "`setpair`, the nearest name registered, writes: if it is the function meant, call it \
         with FCALL; for a read, `getpair` (registered `no-writes`)",
    );
    std::fs::write(&calls, "FCALL SETPAIR 2 {u}x {u}y v\n").expect("written");
    lint(&[lib, calls_path]).ok();
    std::fs::write(&calls, "FCALL archive 1 x\n").expect("written");
    let run = lint(&[lib, calls_path]);
    assert_eq!(run.code, Some(1), "{}", run.stdout);
    run.prints("unseen-body: `FCALL archive`")
        .prints("register no `archive`: lint the file of the library that does with them");
}

/// Two libraries linted together, one function name in two cases (`hit`, `HIT`): the
/// library given second is refused at FUNCTION LOAD (the servers find functions in any
/// case, measured by the corpus test), whichever it is.
#[test]
fn lint_a_library_after_one_with_its_function_name_fails() {
    let (hit, clash) = (
        corpus("function_case_hit.lua"),
        corpus("function_case_clash.lua"),
    );
    let run = lint(&["--keys", "{p}a", &hit, &clash]);
    assert_eq!(run.code, Some(1), "{}", run.stdout);
    run.prints("function_case_hit.lua: redis runs, valkey8 runs, valkey9 runs")
        .prints("library-load: the function `HIT` is registered by the library `corpus_hit`")
        .prints("function_case_clash.lua: redis fails, valkey8 fails, valkey9 fails");
    let run = lint(&["--keys", "{p}a", &clash, &hit]);
    assert_eq!(run.code, Some(1), "{}", run.stdout);
    run.prints("function_case_clash.lua: redis runs, valkey8 runs, valkey9 runs")
        .prints("library-load: the function `hit` is registered by the library `corpus_clash`")
        .prints("function_case_hit.lua: redis fails, valkey8 fails, valkey9 fails");
    // each alone loads
    lint(&["--keys", "{p}a", &clash]).ok();
}

/// A FIFO is read once, within the one wait the message states: written once by a writer
/// that then leaves, it is linted (read twice, the second read waited for a writer that
/// never came and failed); with no writer, one error line after the wait.
#[test]
fn lint_reads_a_fifo_once() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let fifo = dir.path().join("script.lua");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success(), "mkfifo");
    let path = fifo.to_str().expect("UTF-8").to_owned();
    // opening for writing waits for the lint to open it for reading
    let writer = {
        let fifo = fifo.clone();
        std::thread::spawn(move || {
            std::fs::write(fifo, "#!lua name=once\nredis.register_function('f', function(keys, args) return redis.call('GET', keys[1]) end)\n")
        })
    };
    let run = lint(&[&path]);
    writer.join().expect("the writer").expect("written");
    run.ok()
        .prints("script.lua: redis runs, valkey8 runs, valkey9 runs");
    lint(&[&path]).fails_with_code(
        1,
        "script.lua: cannot be read: it gave no end within 5 s (a FIFO or a pipe whose writer \
         waits, or a device)",
    );
}

#[test]
fn lint_usage_errors_exit_2() {
    let derived = corpus("derived.lua");
    lint(&["--target", "nope", &derived]).exits(2, "nope");
    lint(&[]).exits(2, "FILE");
    lint(&["--keys", "a", "--no-keys", &derived]).exits(2, "--no-keys");
    lint(&["--format", "xml", &derived]).exits(2, "xml");
}

#[test]
fn lint_a_file_that_does_not_parse_is_one_error_with_its_line() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let bad = dir.path().join("bad.lua");
    std::fs::write(&bad, "redis.call('GET', KEYS[1])\nlocal x = \n").expect("written");
    let run = lint(&[bad.to_str().expect("UTF-8")]);
    run.fails_with("bad.lua:2:9: not Lua 5.1");
    let missing = dir.path().join("missing.lua");
    lint(&[missing.to_str().expect("UTF-8")]).fails_with("cannot be read");
    // A shebang of another engine.
    let other = dir.path().join("other.lua");
    std::fs::write(&other, "#!python\nreturn 1\n").expect("written");
    lint(&[other.to_str().expect("UTF-8")]).fails_with("is not `#!lua");
    // A regular file past the bound (256 KiB): the bound is said, not a device's advice;
    // an include past it too.
    let huge = dir.path().join("huge.lua");
    let line = "a = a .. 'x'\n";
    std::fs::write(&huge, line.repeat((256 << 10) / line.len() + 1)).expect("written");
    let run = lint(&[huge.to_str().expect("UTF-8")]);
    run.fails_with("larger than 262144 bytes");
    assert!(!run.stderr.contains("/dev/zero"), "{}", run.stderr);
    let includer = dir.path().join("includer.lua");
    std::fs::write(&includer, "--- @include \"huge\"\nreturn 1\n").expect("written");
    let run = lint(&[includer.to_str().expect("UTF-8")]);
    run.fails_with("larger than 262144 bytes");
    assert!(!run.stderr.contains("/dev/zero"), "{}", run.stderr);
    // 50,000 nested `not` (200 KB, within the size bound): refused before the parser, not a
    // stack overflow.
    let deep = dir.path().join("deep.lua");
    std::fs::write(&deep, format!("return {}1", "not ".repeat(50_000))).expect("written");
    lint(&[deep.to_str().expect("UTF-8")]).fails_with("nests deeper than 200 levels");
    // Within the bounds, deep scripts are read, no stack overflow: 150 brackets, a chain of
    // 3,000 concatenations, 150 nested blocks. The servers' Lua parser refuses the chain
    // (past 200 syntax levels, as the live test measures): `syntax-levels`, on its line.
    let legal = dir.path().join("legal.lua");
    let script = format!(
        "local a = {}1{}\nlocal b = 'x'{}\n{}return redis.call('GET', KEYS[1]){}\n",
        "(".repeat(150),
        ")".repeat(150),
        " .. 'x'".repeat(3_000),
        "do ".repeat(150),
        " end".repeat(150)
    );
    std::fs::write(&legal, script).expect("written");
    let run = lint(&[legal.to_str().expect("UTF-8")]);
    assert_eq!(run.code, Some(1), "{}", run.stdout);
    run.prints("legal.lua:2:")
        .prints("syntax-levels: the script nests 3002 syntax levels deep")
        .prints("legal.lua: redis fails, valkey8 fails, valkey9 fails");
    // A backtick outside a string: full_moon 3.0.0's lexer panics on it (found by the fuzz
    // target `lint`); refused before the parser with its place.
    let backtick = dir.path().join("backtick.lua");
    std::fs::write(&backtick, "local a = 1\nx = `a`\n").expect("written");
    lint(&[backtick.to_str().expect("UTF-8")]).fails_with("backtick.lua:2:5: not Lua 5.1");
    // ...and where full_moon's lexer swallows a string's quote into a malformed number, the
    // backtick in that string reaches the same panic (found by the fuzz smoke of issue 34):
    // caught, one line, exit 1, no panic message.
    let number = dir.path().join("number.lua");
    std::fs::write(&number, "return 2e('a `b`')\n").expect("written");
    let run = lint(&[number.to_str().expect("UTF-8")]);
    run.fails_with("number.lua:1:14: not Lua 5.1: unexpected symbol '`'");
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    // An include that is not there.
    let include = dir.path().join("include.lua");
    std::fs::write(&include, "--- @include \"includes/nothing\"\nreturn 1\n").expect("written");
    lint(&[include.to_str().expect("UTF-8")]).fails_with("includes/nothing.lua");
    // A closing quote with a word after it: redis-cli answers "Invalid argument(s)" and
    // skips the line; so does the lint, naming it (it said "unbalanced quotes").
    let adjacent = dir.path().join("adjacent.redis");
    std::fs::write(&adjacent, "MULTI\nSET \"{p}\"x 1\nEXEC\n").expect("written");
    lint(&[adjacent.to_str().expect("UTF-8")])
        .fails_with("adjacent.redis:2: quotes redis-cli does not read (one left open, or a closing quote followed by more than a space");
}

#[test]
fn lint_json_is_one_object_a_file() {
    let run = lint(&[
        "--format",
        "json",
        "--keys",
        "user1:a",
        &corpus("literal.lua"),
        &corpus("derived.lua"),
    ]);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    let objects: Vec<serde_json::Value> = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON object a line"))
        .collect();
    assert_eq!(objects.len(), 2);
    assert_eq!(objects[0]["format"], "slotgen-lint/1");
    assert_eq!(objects[0]["verdicts"]["redis"], "depends");
    assert_eq!(objects[0]["findings"][0]["kind"], "literal");
    let derived = &objects[1];
    assert_eq!(derived["verdicts"]["valkey8"], "depends");
    assert_eq!(derived["verdicts"]["valkey9"], "depends");
    let finding = &derived["findings"][0];
    assert_eq!(finding["line"], 4);
    assert_eq!(finding["rule"], "other-slot");
    assert_eq!(finding["kind"], "derived");
    assert_eq!(finding["targets"]["redis"], "depends");
    assert!(finding["condition"]["same_node"].is_array(), "{finding}");
}

#[test]
fn lint_sarif_is_valid_sarif_2_1_0() {
    let schema = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(
        "../../tests/conformance/node_modules/@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json",
    );
    let python_ok = require_tool("python3")
        && std::process::Command::new("python3")
            .args(["-c", "import jsonschema"])
            .status()
            .is_ok_and(|s| s.success());
    if !require(python_ok, "python3's jsonschema (pip install jsonschema==4.26.0)")
        || !require(
            schema.is_file(),
            "the SARIF 2.1.0 schema of the npm package @microsoft/jest-sarif (npm ci --prefix tests/conformance)",
        )
    {
        return;
    }
    let files: Vec<String> = [
        "declared.lua",
        "derived.lua",
        "literal.lua",
        "no_cluster.lua",
        "transaction.redis",
    ]
    .iter()
    .map(|f| corpus(f))
    .collect();
    let mut args = vec![
        "--format",
        "sarif",
        "--target",
        "dragonfly",
        "--target",
        "redis",
    ];
    args.extend(files.iter().map(String::as_str));
    let run = lint(&args);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    let log: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON");
    let results = log["runs"][0]["results"].as_array().expect("results");
    assert!(results.len() >= 5, "{log:#}");
    assert!(results.iter().any(|r| r["level"] == "error"));
    assert!(results.iter().any(|r| r["level"] == "warning"));
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("lint.sarif");
    std::fs::write(&path, &run.stdout).expect("written");
    let check = std::process::Command::new("python3")
        .args([
            "-c",
            "import json, sys, jsonschema\n\
             schema = json.load(open(sys.argv[1]))\n\
             log = json.load(open(sys.argv[2]))\n\
             jsonschema.validate(log, schema, cls=jsonschema.Draft4Validator)\n\
             print('valid')",
        ])
        .arg(&schema)
        .arg(&path)
        .output()
        .expect("python3 runs");
    assert!(
        check.status.success(),
        "{}",
        String::from_utf8_lossy(&check.stderr)
    );
    // The check can fail: a log without `version` is refused by the same schema.
    let mut broken = log.clone();
    broken.as_object_mut().expect("an object").remove("version");
    std::fs::write(&path, broken.to_string()).expect("written");
    let refused = std::process::Command::new("python3")
        .args([
            "-c",
            "import json, sys, jsonschema\n\
             jsonschema.validate(json.load(open(sys.argv[2])), json.load(open(sys.argv[1])), cls=jsonschema.Draft4Validator)",
        ])
        .arg(&schema)
        .arg(&path)
        .output()
        .expect("python3 runs");
    assert!(!refused.status.success(), "a log without version passed");
    // A file that cannot be read and one that does not parse are in the log (as error
    // notifications of a failed invocation), and a name with a space and an ESC is a valid
    // URI reference, percent-encoded; each result's outcomes are in its properties.
    let missing = dir.path().join("no such.lua");
    let bad = dir.path().join("bad\x1b[31m name.lua");
    std::fs::write(&bad, "redis.call('GET', KEYS[1])\nlocal x = \n").expect("written");
    let odd = dir.path().join("odd \x1b:name.lua");
    std::fs::write(&odd, "return redis.call('GET', 'k')\n").expect("written");
    let names: Vec<String> = [&missing, &bad, &odd]
        .iter()
        .map(|p| p.to_str().expect("UTF-8").to_owned())
        .collect();
    let mut args = vec!["--format", "sarif", "--keys", "a"];
    args.extend(names.iter().map(String::as_str));
    let run = lint(&args);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    std::fs::write(&path, &run.stdout).expect("written");
    let check = std::process::Command::new("python3")
        .args([
            "-c",
            "import json, sys, jsonschema\n\
             jsonschema.validate(json.load(open(sys.argv[2])), json.load(open(sys.argv[1])), cls=jsonschema.Draft4Validator)\n\
             from urllib.parse import unquote, urlsplit\n\
             log = json.load(open(sys.argv[2]))\n\
             run = log['runs'][0]\n\
             uris = [r['locations'][0]['physicalLocation']['artifactLocation']['uri'] for r in run['results']]\n\
             uris += [n['locations'][0]['physicalLocation']['artifactLocation']['uri'] for n in run['invocations'][0]['toolExecutionNotifications']]\n\
             import re\n\
             bad = [u for u in uris if not re.fullmatch(r\"[A-Za-z0-9\\-._~/:%]*\", u) or urlsplit(u).scheme != 'file']\n\
             assert not bad, bad\n\
             print('\\n'.join(unquote(urlsplit(u).path) for u in uris))",
        ])
        .arg(&schema)
        .arg(&path)
        .output()
        .expect("python3 runs");
    assert!(
        check.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&check.stderr),
        run.stdout
    );
    // the names the URIs decode to, by Python's own reading: the files given
    let decoded = String::from_utf8(check.stdout).expect("UTF-8");
    assert!(decoded.lines().any(|l| l == names[2]), "{decoded}");
    assert!(decoded.lines().any(|l| l == names[0]), "{decoded}");
    assert!(decoded.lines().any(|l| l == names[1]), "{decoded}");
    let log: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON");
    let invocation = &log["runs"][0]["invocations"][0];
    assert_eq!(invocation["executionSuccessful"], false, "{log:#}");
    let notes = invocation["toolExecutionNotifications"]
        .as_array()
        .expect("notifications");
    assert_eq!(notes.len(), 2, "{log:#}");
    assert!(notes.iter().all(|n| n["level"] == "error"), "{log:#}");
    assert_eq!(
        notes[1]["locations"][0]["physicalLocation"]["region"]["startLine"], 2,
        "{log:#}"
    );
    let result = &log["runs"][0]["results"][0];
    assert_eq!(
        result["properties"]["targets"]["redis"], "depends",
        "{log:#}"
    );
    assert_eq!(
        log["runs"][0]["properties"]["files"][0]["verdicts"]["valkey9"], "depends",
        "{log:#}"
    );
    // the same files as JSON: an object each, in order, the two errors with their message
    let mut args = vec!["--format", "json", "--keys", "a"];
    args.extend(names.iter().map(String::as_str));
    let run = lint(&args);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    let objects: Vec<serde_json::Value> = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON object a line"))
        .collect();
    assert_eq!(objects.len(), 3, "{}", run.stdout);
    assert_eq!(objects[0]["file"], names[0].as_str());
    assert!(
        objects[0]["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("cannot be read")),
        "{}",
        objects[0]
    );
    assert_eq!(objects[1]["error"]["line"], 2, "{}", objects[1]);
    assert_eq!(objects[1]["error"]["column"], 9, "{}", objects[1]);
    assert!(objects[2]["error"].is_null(), "{}", objects[2]);
    assert_eq!(objects[2]["verdicts"]["redis"], "depends", "{}", objects[2]);
}

/// Expressions nested `depth` deep, one per shape whose inner expression is one level
/// down: indexes of `ARGV` and of a local table, `..` chains in brackets (two syntax
/// levels each, so 90 deep stays under Lua 5.1's 200), and calls.
fn nested(depth: usize) -> Vec<(&'static str, String)> {
    let wrap = |open: &str, inner: &str, close: &str, n: usize| {
        format!("{}{inner}{}", open.repeat(n), close.repeat(n))
    };
    vec![
        (
            "argv",
            format!("return {}\n", wrap("ARGV[", "1", "]", depth)),
        ),
        (
            "table",
            format!("local t = {{}}\nreturn {}\n", wrap("t[", "1", "]", depth)),
        ),
        (
            "concat",
            format!(
                "return redis.call('GET', {})\n",
                wrap("KEYS[1] .. (", "'x'", ")", depth * 3 / 5)
            ),
        ),
        (
            "call",
            format!("return {}\n", wrap("tostring(", "ARGV[1]", ")", depth)),
        ),
    ]
}

#[test]
fn lint_reads_nested_expressions_in_linear_time() {
    // full_moon's own `Node::range` is 2^depth calls on these (8 deep took 10 s, 198 deep
    // never ended): 150 deep must finish, under the hang guard, with the verdict the same
    // shape 2 deep gets.
    let dir = tempfile::tempdir().expect("a temporary directory");
    let verdict = |run: &Run| -> String {
        let line = run.stdout.lines().last().unwrap_or_default();
        line.split_once(": ").map_or("", |(_, v)| v).to_owned()
    };
    for ((shape, deep), (_, shallow)) in nested(150).into_iter().zip(nested(2)) {
        let mut verdicts = Vec::new();
        for (depth, text) in [("deep", deep), ("shallow", shallow)] {
            let file = dir.path().join(format!("{shape}_{depth}.lua"));
            std::fs::write(&file, text).expect("written");
            let (run, _) = run_measured(&["lint", "--keys", "{p}a", file.to_str().expect("UTF-8")]);
            assert_ne!(run.code, Some(2), "{shape}: {}{}", run.stdout, run.stderr);
            verdicts.push(verdict(&run));
        }
        assert!(verdicts[0].starts_with("redis "), "{shape}: {verdicts:?}");
        assert_eq!(verdicts[0], verdicts[1], "{shape}");
    }
}

#[test]
fn lint_escapes_control_bytes_of_the_script() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let file = dir.path().join("esc.lua");
    std::fs::write(&file, "return redis.call('GET', 'k\x1b[2J')\n").expect("written");
    let run = lint(&["--keys", "a", file.to_str().expect("UTF-8")]);
    assert!(!run.stdout.contains('\x1b'), "{}", run.stdout);
    run.prints("\\x1b[2J");
}

#[test]
fn lint_a_called_constant_fails_and_no_fix_names_one() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let file = dir.path().join("constants.lua");
    std::fs::write(
        &file,
        "redis.LOG_WARNING('x')\nredis.log_warning('x')\nredis.REPL_AL()\nreturn 1\n",
    )
    .expect("written");
    let run = lint(&["--no-keys", file.to_str().expect("UTF-8")]);
    assert_eq!(run.code, Some(1), "{}{}", run.stdout, run.stderr);
    run.prints("constants.lua:1:1: unknown-field:")
        .prints("(a number value)")
        .prints("constants.lua: redis fails, valkey8 fails, valkey9 fails");
    assert!(
        !run.stdout.contains("write `redis.LOG_WARNING`"),
        "{}",
        run.stdout
    );
    assert!(
        !run.stdout.contains("write `redis.REPL_ALL`"),
        "{}",
        run.stdout
    );
}

#[test]
fn lint_escapes_control_bytes_of_a_file_name() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let name = |file: &std::path::Path| file.to_str().expect("UTF-8").to_owned();
    // a file that cannot be read, one that does not parse, one with a finding, an include
    // that cannot be read: each message names its file with the ESC escaped
    let missing = name(&dir.path().join("no\x1bsuch.lua"));
    let run = lint(&[&missing]);
    run.fails_with("no\\x1bsuch.lua: cannot be read");
    assert!(!run.stderr.contains('\x1b'), "{}", run.stderr);
    let bad = dir.path().join("bad\x1b[31m.lua");
    std::fs::write(&bad, "local x = \n").expect("written");
    let run = lint(&[&name(&bad)]);
    run.fails_with("bad\\x1b[31m.lua:1:9: not Lua 5.1");
    assert!(!run.stderr.contains('\x1b'), "{}", run.stderr);
    let includer = dir.path().join("inc\x1b.lua");
    std::fs::write(&includer, "--- @include \"gone\x1b\"\nreturn 1\n").expect("written");
    let run = lint(&[&name(&includer)]);
    run.fails_with("inc\\x1b.lua: `--- @include \"gone\\x1b\"` cannot be read");
    assert!(!run.stderr.contains('\x1b'), "{}", run.stderr);
    let literal = dir.path().join("lit\x1b.lua");
    std::fs::write(&literal, "return redis.call('GET', 'k')\n").expect("written");
    let run = lint(&["--keys", "a", &name(&literal)]);
    run.prints("lit\\x1b.lua:1:").prints("lit\\x1b.lua: redis");
    assert!(!run.stdout.contains('\x1b'), "{}", run.stdout);
    // JSON carries the real name, in the finding as at the top (JSON escapes it itself)
    let run = lint(&["--format", "json", "--keys", "a", &name(&literal)]);
    let object: serde_json::Value =
        serde_json::from_str(run.stdout.trim()).expect("one JSON object");
    assert_eq!(object["file"], name(&literal));
    assert_eq!(object["findings"][0]["file"], name(&literal), "{object}");
    assert!(!run.stdout.contains('\x1b'), "{}", run.stdout);
}

#[test]
fn lint_refuses_a_file_that_is_not_utf8_and_its_fix_keeps_the_keys_slot() {
    let xmodem = crc::Crc::<u16>::new(&crc::CRC_16_XMODEM);
    let slot = |key: &[u8]| xmodem.checksum(key) & 16383;
    // an ASCII key on the slot of `k\xff`, found by the CRC alone
    let twin = (0u32..)
        .map(|n| format!("t{n}"))
        .find(|k| slot(k.as_bytes()) == slot(b"k\xff"))
        .expect("some key of 16384 tries lands on any slot");
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = |name: &str| dir.path().join(name).to_str().expect("UTF-8").to_owned();
    // a raw 0xff byte in a Lua key: refused, naming the place and the escape to write
    let raw = path("raw.lua");
    std::fs::write(&raw, b"return redis.call('GET', 'k\xff')\n").expect("written");
    let run = lint(&[&raw]);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    run.says("it is not UTF-8 (line 1, byte 28 of the file, `\\xff`)")
        .says("as a decimal escape (`'\\255'`)");
    // the escape is the byte's own
    let e9 = path("e9.lua");
    std::fs::write(&e9, b"return redis.call('GET', 'k\xe9')\n").expect("written");
    lint(&[&e9]).says("as a decimal escape (`'\\233'`)");
    // followed: the escaped byte is the key's byte, on its slot, beside the twin
    let fixed = path("fixed.lua");
    let script = format!("#!lua\nreturn redis.call('MGET', 'k\\255', '{twin}')\n");
    std::fs::write(&fixed, script).expect("written");
    lint(&["--keys", &twin, &fixed])
        .ok()
        .prints("fixed.lua: redis runs, valkey8 runs, valkey9 runs");
    // the same in a command file, with redis-cli's escape inside double quotes
    let raw = path("raw.redis");
    std::fs::write(&raw, b"MGET k\xff x\n").expect("written");
    let run = lint(&[&raw]);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    run.says("write such a byte in a string as `\\xff` inside double quotes");
    let fixed = path("fixed.redis");
    std::fs::write(&fixed, format!("MGET \"k\\xff\" {twin}\n")).expect("written");
    lint(&[&fixed])
        .ok()
        .prints("fixed.redis: redis runs, valkey8 runs, valkey9 runs");
}

/// The fix of an option a server lacks names where its check goes: before the call "in the
/// script" for a script, before the command in a command file (it said "in the script"
/// there too).
#[test]
fn lint_an_option_s_fix_fits_the_file_it_is_in() {
    let run = lint(&[&corpus("set_ifeq.lua")]);
    run.prints("`IFEQ`'s check as a command before it in the script)");
    let run = lint(&[&corpus("multi_set_ifeq.redis")]);
    run.prints("`IFEQ`'s check as a command before it)");
    assert!(!run.stdout.contains("in the script"), "{}", run.stdout);
}

/// A key that holds the suggested hashtag after a `{` of its own (`ARGV[1] .. KEYS[1]` with
/// `{z` and `{u}:a` is `{z{u}:a`, whose hashtag is `z{u`): the fix names that `{`, not the
/// hashtag the key holds already, and followed (no `{` before the tag) the script runs.
#[test]
fn lint_a_brace_before_the_hashtag_is_named_and_its_fix_runs() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("prefixed.lua");
    std::fs::write(
        &script,
        "redis.call('SET', KEYS[1], 1)\nreturn redis.call('SET', ARGV[1] .. KEYS[1], 1)\n",
    )
    .unwrap();
    let script = script.to_str().unwrap();
    let run = lint(&["--keys", "{u}:a", "--argv", "{z", script]);
    assert_eq!(run.code, Some(1), "{}", run.stdout);
    run.prints("fix: `ARGV[1] .. KEYS[1]` is `{z{u}:a`, whose first `{` opens the hashtag `z{u` before `{u}`: keep `{` out of what comes before `{u}`");
    assert!(!run.stdout.contains("put `{u}`"), "{}", run.stdout);
    lint(&["--keys", "{u}:a", "--argv", "z", script])
        .ok()
        .prints("redis runs, valkey8 runs, valkey9 runs");
}

/// `--hex`: binary keys and arguments, as `slot --hex` takes them. `KEYS[1] .. ':x'` stays
/// on KEYS[1]'s slot when KEYS[1] carries a hashtag (`{\0\xff}a`), and not without one; a
/// value that is not hex is a usage error naming the option.
#[test]
fn lint_takes_binary_keys_as_hex() {
    let derived = corpus("derived.lua");
    lint(&["--hex", "--keys", "7b00ff7d61", &derived])
        .ok()
        .prints("redis runs, valkey8 runs, valkey9 runs");
    let run = lint(&["--hex", "--keys", "00ff61", &derived]);
    assert_eq!(run.code, Some(1), "{}", run.stdout);
    run.prints("redis depends, valkey8 depends, valkey9 depends");
    let run = lint(&["--hex", "--argv", "zz", &derived]);
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert!(
        run.stderr.contains("--argv: `zz` is not hex bytes"),
        "{}",
        run.stderr
    );
}

/// Two files whose names are not UTF-8 and differ in one byte (`b\xff.lua`, `b\xfe.lua`)
/// were one name in JSON (`b\u{fffd}.lua`, lossily): each `file` is the name's bytes
/// escaped as text output shows them, `file_escaped` saying so, and a UTF-8 name is as is.
#[test]
fn lint_json_gives_a_name_that_is_not_utf8_exactly() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().expect("a temporary directory");
    let base = dir.path().to_str().expect("UTF-8").to_owned();
    let mut paths = Vec::new();
    for name in [&b"b\xff.lua"[..], b"b\xfe.lua", b"plain.lua"] {
        let path = dir.path().join(OsStr::from_bytes(name));
        std::fs::write(&path, "return redis.call('GET', KEYS[1])\n").expect("written");
        paths.push(path);
    }
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_slotgen"))
        .args(["lint", "--format", "json", "--keys", "a"])
        .args(&paths)
        .output()
        .expect("slotgen runs");
    assert!(output.status.success(), "{output:?}");
    let objects: Vec<serde_json::Value> = String::from_utf8(output.stdout)
        .expect("UTF-8")
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON object a line"))
        .collect();
    assert_eq!(objects.len(), 3);
    // each byte that is not printable ASCII as `\xNN`, the two-character escape per byte
    let escaped = |byte: u8| format!("{base}/b\\x{byte:02x}.lua");
    for (object, byte) in objects.iter().zip([0xff_u8, 0xfe]) {
        assert_eq!(object["file"], escaped(byte).as_str(), "{object}");
        assert_eq!(object["file_escaped"], true, "{object}");
        assert_eq!(object["files"][0], escaped(byte).as_str(), "{object}");
        assert_eq!(object["files_escaped"][0], true, "{object}");
    }
    assert_ne!(objects[0]["file"], objects[1]["file"]);
    assert_eq!(objects[2]["file"], format!("{base}/plain.lua").as_str());
    assert!(objects[2]["file_escaped"].is_null(), "{}", objects[2]);
}

/// A script whose declared keys are on two slots never runs (CROSSSLOT before it starts):
/// its `command-cross-slot` finding told the user to restart a Valkey 9.1 node that had run
/// it. Only a script that runs (its declared keys on one slot, an ARGV key on another) can
/// break a Valkey 9.1 node.
#[test]
fn lint_a_script_that_never_runs_breaks_no_valkey9_node() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let script = dir.path().join("mset.lua");
    std::fs::write(
        &script,
        "return redis.call('MSET', KEYS[1], 1, KEYS[2], 2, ARGV[1], 3)\n",
    )
    .expect("written");
    let script = script.to_str().expect("UTF-8");
    let run = lint(&["--keys", "{a}x", "--keys", "{b}y", "--argv", "{b}z", script]);
    assert!(run.stdout.contains("declared-cross-slot"), "{}", run.stdout);
    assert!(run.stdout.contains("command-cross-slot"), "{}", run.stdout);
    assert!(!run.stdout.contains("restart"), "{}", run.stdout);
    let run = lint(&["--keys", "{a}x", "--keys", "{a}y", "--argv", "{b}z", script]);
    assert!(
        !run.stdout.contains("declared-cross-slot"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("restart a Valkey 9.1 node that has run it"),
        "{}",
        run.stdout
    );
}

/// A command no server has, one letter off one they have (`SETT`), was `unknown-keys` with
/// the fix "check the command's name": the fix names the command meant, in a script and in
/// a command file alike.
#[test]
fn lint_a_misspelled_command_names_the_nearest() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let script = dir.path().join("typo.lua");
    std::fs::write(&script, "return redis.call('SETT', KEYS[1], 1)\n").expect("written");
    let commands = dir.path().join("typo.redis");
    std::fs::write(&commands, "MULTI\nHGETAL {u}a\nEXEC\n").expect("written");
    let run = lint(&["--keys", "a", script.to_str().expect("UTF-8")]);
    assert!(run.stdout.contains("did you mean `SET`?"), "{}", run.stdout);
    let run = lint(&[commands.to_str().expect("UTF-8")]);
    assert!(
        run.stdout.contains("did you mean `HGETALL`?"),
        "{}",
        run.stdout
    );
    // a name near none: no guess
    std::fs::write(&script, "return redis.call('FROBNICATE', KEYS[1])\n").expect("written");
    let run = lint(&["--keys", "a", script.to_str().expect("UTF-8")]);
    assert!(!run.stdout.contains("did you mean"), "{}", run.stdout);
}

/// A fix that passes a key anew in a library's function counts that function's own `keys[i]`,
/// not every function's: `one` takes no key, so its key is `keys[1]`, though `three` reads
/// `keys[4]` (break26).
#[test]
fn lint_a_function_s_new_key_counts_its_own_keys() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let lib = dir.path().join("lib3.lua");
    std::fs::write(
        &lib,
        "#!lua name=lib3\n\
         redis.register_function('one', function(keys, args)\n\
           return redis.call('GET', args[1])\n\
         end)\n\
         redis.register_function('three', function(keys, args)\n\
           return redis.call('MGET', keys[1], keys[2], keys[3], keys[4])\n\
         end)\n",
    )
    .expect("written");
    let run = lint(&["--function", "one", lib.to_str().expect("UTF-8")]);
    assert_eq!(run.code, Some(1), "{}", run.stdout);
    run.prints("lib3.lua:3:8: unknown-slot")
        .prints("pass the key as keys[1]");
    assert!(!run.stdout.contains("keys[5]"), "{}", run.stdout);
}

/// A local declared without a value and given one on both ways of an `if` (bull addJob's
/// `jobIdKey = ARGV[1] .. jobId`) keeps the hashtag both values start with (break26).
#[test]
fn lint_a_local_set_in_both_branches_keeps_their_hashtag() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let script = dir.path().join("add.lua");
    std::fs::write(
        &script,
        "local jobId\nlocal jobIdKey\nlocal c = redis.call('INCR', KEYS[1])\n\
         if ARGV[2] == '' then\n  jobId = c\n  jobIdKey = ARGV[1] .. jobId\nelse\n  \
         jobId = ARGV[2]\n  jobIdKey = ARGV[1] .. jobId\nend\n\
         return redis.call('SET', jobIdKey, 1)\n",
    )
    .expect("written");
    let file = script.to_str().expect("UTF-8");
    lint(&["--keys", "{q}:id", "--argv", "{q}:", "--argv", "", file])
        .ok()
        .prints("add.lua: redis runs");
}

/// A script whose helpers each call the one before twice (`g1(k)` returns `g0(k) ..
/// g0(k)`, 22 of them: 1.1 KB), a chain of 800 one-return helpers, a table of 3000 fields
/// each calling the next, and 25 locals each doubling the one before: each took from 57 s
/// to minutes, and up to 22 GB, as the values doubled or were copied per helper. Each now
/// ends within a deadline in bounded memory, its verdict `depends` with its reason or
/// `runs`; no crash, whatever the input under the 256 KiB cap.
#[test]
fn lint_time_and_memory_are_bounded_on_doubling_and_chained_helpers() {
    let dir = tempfile::tempdir().unwrap();
    let script = |name: &str, lines: Vec<String>, last: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, lines.join("\n") + "\n" + last + "\n").unwrap();
        path.display().to_string()
    };
    let first = "local function g0(k) return k .. ':x' end".to_owned();
    let doubled = script(
        "doubled.lua",
        std::iter::once(first.clone())
            .chain((1..22).map(|i| {
                format!(
                    "local function g{i}(k) return g{}(k) .. g{}(k) end",
                    i - 1,
                    i - 1
                )
            }))
            .collect(),
        "return redis.call('GET', g21(KEYS[1]))",
    );
    let chained = script(
        "chained.lua",
        std::iter::once(first)
            .chain(
                (1..800).map(|i| format!("local function g{i}(k) return g{}(k) .. 'y' end", i - 1)),
            )
            .collect(),
        "return redis.call('GET', g799(KEYS[1]))",
    );
    let fields = script(
        "fields.lua",
        std::iter::once("local M = {}".to_owned())
            .chain((0..3000).map(|i| format!("function M.f{i}(k) return M.f{}(k) end", i + 1)))
            .chain(std::iter::once(
                "function M.f3000(k) return redis.call('GET', k) end".to_owned(),
            ))
            .collect(),
        "return M.f0(KEYS[1])",
    );
    let locals = |n: usize| {
        std::iter::once("local a0 = KEYS[1] .. 'xy'".to_owned())
            .chain((1..=n).map(|i| format!("local a{i} = a{} .. a{}", i - 1, i - 1)))
            .collect::<Vec<_>>()
    };
    let doubled_locals = script("locals.lua", locals(25), "return redis.call('GET', a25)");
    for file in [&doubled, &chained, &fields, &doubled_locals] {
        let start = std::time::Instant::now();
        let (run, peak) = run_measured(&["lint", "--keys", "{a}k", file]);
        let took = start.elapsed();
        assert!(
            took < std::time::Duration::from_secs(60),
            "{file}: took {took:?}"
        );
        if let Some(peak) = peak {
            assert!(peak < 256 * 1024, "{file}: peak memory {peak} KiB");
        }
        assert!(matches!(run.code, Some(0 | 1)), "{file}: {}", run.stderr);
        assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
        assert!(run.stdout.contains(": redis "), "{file}: {}", run.stdout);
    }
    // a value cut at the bound keeps what comes before the cut: `a12` is 20 KB starting
    // with `{a}k`, on the slot of `{a}` as the hashtag rule (the first `{...}`) gives
    let short = script("short.lua", locals(12), "return redis.call('GET', a12)");
    lint(&["--keys", "{a}k", &short])
        .ok()
        .prints("short.lua: redis runs, valkey8 runs, valkey9 runs");
}
