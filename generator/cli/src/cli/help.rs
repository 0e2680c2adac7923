//! What the help, the man pages and the completions say beyond the clap definitions: the
//! version line and each command's examples. One table of examples feeds `--help` (after
//! the options), the man pages (their EXAMPLES section) and the test that runs them.

use clap::{Command, CommandFactory};

use super::command::Cli;

/// `slotgen --version`: the version and the spec every command defaults to. A test checks
/// the spec against `Spec::default()` and its derivation.
pub const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (default spec: CRC-16/XMODEM, 16384 slots, 4-symbol tags over `@ABCDEFGHIJKLMNO`)"
);

/// One example of a command: the command line, as a user types it in a POSIX shell, and
/// what it shows.
pub struct Example {
    /// What the example does, one short line.
    pub what: &'static str,
    /// The command line; it may pipe or redirect, and it writes files only into the
    /// current directory.
    pub line: &'static str,
}

const fn ex(what: &'static str, line: &'static str) -> Example {
    Example { what, line }
}

/// The examples of each command, by command name, two or three each. Every line runs as
/// written (a test runs each one in an empty directory and requires exit 0); a line that
/// names a live cluster, `redis://127.0.0.1:7000`, runs in `tests/tests/cluster_live.rs`
/// with that address replaced by a cluster the test starts.
pub const EXAMPLES: &[(&str, &[Example])] = &[
    (
        "derive",
        &[
            ex("Derive and verify the Redis Cluster table", "slotgen derive"),
            ex(
                "Another CRC and alphabet",
                "slotgen derive --crc modbus --alphabet 01234567PQRSTUVW",
            ),
            ex(
                "Let slotgen choose an alphabet of letters and digits; JSON for machines",
                "slotgen derive --charset alnum --json",
            ),
        ],
    ),
    (
        "check",
        &[
            ex(
                "Each key's slot, hashtag and hashtag-rule traps",
                "slotgen check 'emq:{orders}:pending' 'emq:{}:pending' 'foo{bar}{zap}'",
            ),
            ex(
                "Keys that a multi-key command needs on one slot (exit 1 otherwise)",
                "slotgen check --same-slot 'emq:{orders}:pending' 'emq:{orders}:active'",
            ),
            ex(
                "A layout's templates: each instance's keys must meet on one slot",
                "slotgen check --template 'emq:{q}:pending' --template 'emq:{q}:active' --with q=orders,billing",
            ),
        ],
    ),
    (
        "lint",
        &[
            ex(
                "A script's keys with the values it is called with: exit 0 when it runs",
                "printf \"return redis.call('GET', KEYS[1] .. ':x')\" > get.lua && slotgen lint --keys '{user1}:a' get.lua",
            ),
            ex(
                "A transaction as redis-cli reads it: every key of MULTI/EXEC on one slot",
                "printf 'MULTI\\nSET {a}x 1\\nINCR {a}y\\nEXEC\\n' > tx.redis && slotgen lint tx.redis",
            ),
            ex(
                "Stricter servers too, as JSON (SARIF for code scanning: --format sarif)",
                "printf \"return redis.call('GET', KEYS[1])\" > k.lua && slotgen lint --target redis --target aliyun --format json k.lua",
            ),
        ],
    ),
    (
        "slot",
        &[
            ex(
                "The hash slot of each key, as CLUSTER KEYSLOT answers",
                "slotgen slot 123456789 'emq:{orders}:pending'",
            ),
            ex(
                "Keys from standard input, one per line, as hex bytes",
                "printf '7b7b617d7d\\n' | slotgen slot --hex",
            ),
            ex(
                "NUL-terminated keys, which may hold line feeds, as JSON Lines",
                "printf 'user:1\\0two\\nlines\\0' | slotgen slot -z --format jsonl",
            ),
        ],
    ),
    (
        "tag",
        &[
            ex("Every tag of slot 0", "slotgen tag --all 0"),
            ex(
                "The tags of a range of slots under another CRC",
                "slotgen tag 16380-16383 --crc kermit",
            ),
            ex(
                "As TSV with a header line, for a script",
                "slotgen tag 0-3 --format tsv --header",
            ),
        ],
    ),
    (
        "key",
        &[
            ex(
                "A key on each of three slots",
                "slotgen key 0 5461 16383 --prefix ms_health: --suffix :write",
            ),
            ex(
                "A key for every slot, to spread a load test over the cluster",
                "slotgen key 0-16383 --prefix bench: > keys.txt",
            ),
        ],
    ),
    (
        "emit",
        &[
            ex(
                "The table as a Rust const",
                "slotgen emit rust --name REDIS_CLUSTER -o redis_cluster.rs",
            ),
            ex(
                "A Python module for CRC-16/MODBUS",
                "slotgen emit python --crc modbus > slots.py",
            ),
            ex(
                "The whole derivation as JSON",
                "slotgen emit json > redis_cluster.json",
            ),
        ],
    ),
    (
        "verify",
        &[
            ex(
                "Check a JSON derivation against its re-derivation, over every slot",
                "slotgen emit json > table.json && slotgen verify table.json",
            ),
            ex(
                "Check a tag table made elsewhere, here a Lua one",
                "slotgen shortest --charset alnum --format lua > tags.lua && slotgen verify --tags tags.lua",
            ),
        ],
    ),
    (
        "shortest",
        &[
            ex(
                "The shortest alphanumeric tag of each slot",
                "slotgen shortest --charset alnum > tags.txt",
            ),
            ex(
                "As a C array, like redis-benchmark's",
                "slotgen shortest --charset alnum --format c --name tags -o tags.h",
            ),
        ],
    ),
    (
        "catalog",
        &[
            ex("Every CRC-16 of the CRC catalogue", "slotgen catalog"),
            ex(
                "As JSON records, for 1024 slots",
                "slotgen catalog --format json --slots 1024",
            ),
            ex(
                "Every catalogue CRC of width 8 to 64, with its check value verified",
                "slotgen catalog --all-widths",
            ),
        ],
    ),
    (
        "nodes",
        &[
            ex(
                "The shards of a live cluster, one line per node",
                "slotgen nodes --redis redis://127.0.0.1:7000",
            ),
            ex(
                "As JSON, with the slots in migration",
                "slotgen nodes --redis redis://127.0.0.1:7000 --format json",
            ),
        ],
    ),
    (
        "keys",
        &[
            ex(
                "100 keys for each primary, spread over the slots it owns",
                "slotgen keys --redis redis://127.0.0.1:7000 --per-node 100",
            ),
            ex(
                "1000 keys over the replicas, the keys alone, to read after READONLY",
                "slotgen keys --redis redis://127.0.0.1:7000 --count 1000 --role replica --format keys > keys.txt",
            ),
        ],
    ),
    (
        "placement",
        &[
            ex(
                "How evenly a set of keys spreads over the slots",
                "seq 1000 | sed 's/^/user:/' | slotgen placement --top 3",
            ),
            ex(
                "Per node of a live cluster, as JSON",
                "seq 1000 | sed 's/^/user:/' | slotgen placement --redis redis://127.0.0.1:7000 --format json",
            ),
        ],
    ),
    (
        "load",
        &[
            ex(
                "Per primary: keys (and CPU, network bytes where collected), shares, skew, hot slots",
                "slotgen load --redis redis://127.0.0.1:7000",
            ),
            ex(
                "The slot map, shaded by keys, as a picture",
                "slotgen load --redis redis://127.0.0.1:7000 --format svg > load.svg",
            ),
            ex(
                "By CPU time, as JSON (needs `CONFIG SET cluster-slot-stats-enabled yes`)",
                "slotgen load --redis redis://127.0.0.1:7000 --by cpu --top 5 --format json",
            ),
        ],
    ),
    (
        "rebalance",
        &[
            ex(
                "The plan by CPU time, as the servers' commands (needs `cluster-slot-stats-enabled yes`)",
                "slotgen rebalance --redis redis://127.0.0.1:7000 --by cpu --format commands",
            ),
            ex(
                "Carried out, slot by slot",
                "slotgen rebalance --redis redis://127.0.0.1:7000 --by keys --target-skew 1.2 --apply",
            ),
            ex(
                "A plan that brings the keys per primary within 10% of the mean, also written for review (then `--apply --plan plan.json` carries out exactly those moves)",
                "slotgen rebalance --redis redis://127.0.0.1:7000 --by keys --out plan.json",
            ),
        ],
    ),
    (
        "completions",
        &[
            ex(
                "Completions for bash, in this shell",
                "source <(slotgen completions bash)",
            ),
            ex(
                "For zsh and fish, into files their shells read",
                "slotgen completions zsh > _slotgen && slotgen completions fish > slotgen.fish",
            ),
        ],
    ),
    (
        "man",
        &[
            ex("The man page, on standard output", "slotgen man > slotgen.1"),
            ex(
                "It and one page per command, into a directory",
                "mkdir -p man && slotgen man --dir man",
            ),
        ],
    ),
];

/// The examples of `command`, empty for a command without any.
#[must_use]
pub fn examples_of(command: &str) -> &'static [Example] {
    EXAMPLES
        .iter()
        .find(|(name, _)| *name == command)
        .map_or(&[], |(_, examples)| examples)
}

/// The `--help` text after the options: `Examples:` and each example as `# what` and
/// `$ line`.
fn after_help(examples: &[Example]) -> String {
    let mut text = String::from("Examples:");
    for e in examples {
        text += &format!("\n  # {}\n  $ {}", e.what, e.line);
    }
    text
}

/// The whole command-line definition: the clap derive's, with the version line and each
/// command's examples. `--help`, the man pages and the completions all come from it.
#[must_use]
pub fn command() -> Command {
    let mut command = Cli::command().version(VERSION);
    for (name, examples) in EXAMPLES {
        command = command.mut_subcommand(name, |c| c.after_help(after_help(examples)));
    }
    command
}

#[cfg(test)]
mod tests {
    use super::*;
    use slotgen::spec::REDIS_CLUSTER_ALPHABET;
    use slotgen::{derive, Spec};

    #[test]
    fn the_command_line_with_examples_is_consistent() {
        command().debug_assert();
    }

    /// The version line names the spec that `Spec::default()` derives.
    #[test]
    fn version_names_the_default_spec() {
        let d = derive(&Spec::default()).unwrap();
        let spec = format!(
            "{}, {} slots, {}-symbol tags over `{}`",
            Spec::default().crc_name(),
            d.slots(),
            d.tag_len,
            std::str::from_utf8(REDIS_CLUSTER_ALPHABET).unwrap()
        );
        assert!(VERSION.contains(&spec), "{VERSION} does not name {spec}");
        assert!(VERSION.starts_with(env!("CARGO_PKG_VERSION")));
    }

    /// Every command has two or three examples, and every example names a command.
    #[test]
    fn every_command_has_examples() {
        let command = command();
        for sub in command.get_subcommands() {
            let n = examples_of(sub.get_name()).len();
            assert!(
                (2..=3).contains(&n),
                "`slotgen {}` has {n} examples: give it two or three in help.rs",
                sub.get_name()
            );
        }
        for (name, examples) in EXAMPLES {
            assert!(command.find_subcommand(name).is_some(), "no command {name}");
            for e in *examples {
                assert!(e.line.contains(&format!("slotgen {name}")), "{}", e.line);
            }
        }
    }
}
