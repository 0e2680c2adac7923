//! The command-line interface: one module per command, the command line (`command.rs`),
//! the spec options (`spec_args.rs`), and the dispatch to the commands.

use std::process::ExitCode;

use anyhow::Result;

/// `eprintln!` for what slotgen says on stderr (notes, warnings, progress, a report's
/// errors): a write that fails (stderr closed, its reader gone) is dropped, not a panic, so
/// that the command's output and exit status stand. `say!(@line ...)` writes without the
/// line feed, as `eprint!`.
macro_rules! say {
    (@line $($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stderr(), $($arg)*);
    }};
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

mod catalog;
mod check;
mod cluster;
mod command;
mod completions;
mod derive_cmd;
mod emit;
mod help;
mod key_input;
mod keys;
mod lint;
mod load;
mod lookup;
mod map_notes;
mod nodes;
pub mod output;
mod placement;
mod rebalance;
mod refusal;
mod remedy;
mod report;
mod shell;
mod shortest;
mod slot;
mod spec_args;
mod text;
mod unused;
mod values;
mod vectors;
mod verify;
mod verify_exec;
mod weights;

pub use command::Cli;
use command::Command;
pub use refusal::parse;
// What the commands share, re-exported where they take it from (`super::plural`).
pub(crate) use report::{verification_scope, write_failures};
pub(crate) use text::{os_reason, plural, show, show_short};
pub(crate) use unused::{deferred, refuse_unused, Deferred};

/// Runs a parsed command line.
pub fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Derive(args) => derive_cmd::run(&args),
        Command::Slot(args) => slot::run(&args),
        Command::Tag(args) => lookup::run_tag(&args),
        Command::Key(args) => lookup::run_key(&args),
        Command::Emit(args) => emit::run(&args),
        Command::Verify(args) => verify::run(&args),
        Command::Shortest(args) => shortest::run(&args),
        Command::Catalog(args) => catalog::run(&args),
        Command::Check(args) => check::run(&args),
        Command::Lint(args) => lint::run(&args),
        Command::Nodes(args) => nodes::run(&args),
        Command::Keys(args) => keys::run(&args),
        Command::Placement(args) => placement::run(&args),
        Command::Load(args) => load::run(&args),
        Command::Rebalance(args) => rebalance::run(&args),
        Command::Completions(args) => completions::run_completions(&args),
        Command::Man(args) => completions::run_man(&args),
    }
}
