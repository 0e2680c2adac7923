//! The command line: `slotgen`'s options and its commands, each command's options from the
//! module that runs it. `super::run` dispatches to them; the help and the refusals read
//! the whole tree from here.

use clap::{Parser, Subcommand};

// The options of `completions` and `man` from their own file: completions.rs reads the
// whole command line (`help::command`), and so comes after this one.
use super::completions::{CompletionsArgs, ManArgs};
use super::{
    catalog, check, derive_cmd, emit, keys, lint, load, lookup, nodes, placement, rebalance,
    shortest, slot, verify,
};

/// The exit status rule, shown by `--help` (see `crate::exit`).
const EXIT_STATUS: &str = "Exit status: 0 success (also when the reader of standard output has gone, as in `| head`, except for verify and check, which then exit 1); 1 a check failed or the work could not be done; 2 a usage error (an unknown option, a value not of its option's form, or an option the command would not use).";

/// Derive, verify and emit O(1) inverse tables for Redis Cluster style hash slots.
///
/// Every command defaults to Redis Cluster: CRC-16/XMODEM, 16384 slots, alphabet
/// `@ABCDEFGHIJKLMNO`, 4-symbol tags.
#[derive(Debug, Parser)]
#[command(name = "slotgen", version, about, long_about = None, after_help = EXIT_STATUS)]
pub struct Cli {
    #[command(subcommand)]
    pub(super) command: Command,
}

impl Cli {
    /// Whether the command's exit status is a verdict (`verify`, `check`): such a command
    /// whose reader goes away before it finishes has no verdict, and exits 1, not 0.
    #[must_use]
    pub fn gives_a_verdict(&self) -> bool {
        matches!(
            self.command,
            Command::Verify(_) | Command::Check(_) | Command::Lint(_)
        )
    }
}

/// The commands, each with the options of its own module.
#[derive(Debug, Subcommand)]
pub(super) enum Command {
    /// Derive the tables by GF(2) elimination, verify them over every slot, and print them.
    Derive(derive_cmd::DeriveArgs),
    /// Print the hash slot of each key, as CLUSTER KEYSLOT answers, or with --scheme the
    /// scheme's slot (a bucket id 1..N for tarantool-vshard).
    Slot(slot::SlotArgs),
    /// Print a tag that lands on each slot: `<slot>\t<tag>`.
    Tag(lookup::TagArgs),
    /// Print a key `PREFIX{tag}SUFFIX` that lands on each slot: `<slot>\t<key>`.
    Key(lookup::KeyArgs),
    /// Emit the derived table as source code.
    Emit(emit::EmitArgs),
    /// Check a JSON derivation, a tag table made elsewhere, or a running server's CLUSTER
    /// KEYSLOT; exit 0 only when everything holds.
    Verify(verify::VerifyArgs),
    /// Print the shortest tag of each slot over a charset (redis-benchmark's table).
    Shortest(shortest::ShortestArgs),
    /// List the CRC-16 algorithms of the CRC catalogue: parameters, check value, and the
    /// shortest tags with the default alphabet and with an alphanumeric one; with
    /// --all-widths, every catalogue CRC of width 8 to 64.
    Catalog(catalog::CatalogArgs),
    /// Check a key layout for a cluster: each key's slot, hashtag and traps of the hashtag
    /// rule; with --same-slot or --template, whether the keys meet on one slot.
    Check(check::CheckArgs),
    /// Lint Lua scripts, Functions libraries and command files (MULTI/EXEC) for a cluster:
    /// every key declared, derived, literal or opaque, and whether each server runs it, fails
    /// it, or depends on what slotgen cannot see; exit 0 only when every target runs.
    Lint(lint::LintArgs),
    /// A live cluster's shards, from CLUSTER SHARDS (or CLUSTER SLOTS): `<node_id>\t<addr>\t<role>\t<slots>\t<ranges>\t<health>`;
    /// failed nodes are left out and named on stderr.
    Nodes(nodes::NodesArgs),
    /// K keys for every primary (or replica) of a live cluster, spread evenly over the slots
    /// it owns: `<node_id>\t<addr>\t<slot>\t<key>`.
    Keys(keys::KeysArgs),
    /// Where keys land (the arguments, or those on standard input): per slot, and with
    /// --redis per node of a live cluster, with the skew and the keys in migrating slots.
    Placement(placement::PlacementArgs),
    /// Where the load of a live cluster lands: per slot (CLUSTER SLOT-STATS, or keys by
    /// CLUSTER COUNTKEYSINSLOT), per primary with shares and the skew, the top slots and the
    /// hot slots; as TSV, JSON or an SVG slot map.
    Load(load::LoadArgs),
    /// A plan of slot moves that evens out a metric of load (keys, CPU, network, memory)
    /// over a live cluster's primaries, moving few keys: the moves, the skew before and
    /// predicted; with --format commands the servers' commands; with --apply carried out.
    Rebalance(rebalance::RebalanceArgs),
    /// Print a shell completion script for bash, zsh, fish, elvish or PowerShell.
    Completions(CompletionsArgs),
    /// Print the man page `slotgen.1`, or write it and one page per command into a directory.
    Man(ManArgs),
}
