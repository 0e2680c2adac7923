//! `slotgen completions`' and `slotgen man`'s options, apart from what runs them (which
//! reads the whole command line, `super::super::help::command`), so that the command line
//! can name them.

use std::path::PathBuf;

use clap::Args;
use clap_complete::Shell;

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub(super) shell: Shell,
}

#[derive(Debug, Args)]
pub struct ManArgs {
    /// Write `slotgen.1` and one page per command (`slotgen-derive.1`, ...) into DIR,
    /// instead of `slotgen.1` on standard output.
    #[arg(long, value_name = "DIR")]
    pub(super) dir: Option<PathBuf>,
}
