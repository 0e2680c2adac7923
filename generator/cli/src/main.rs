//! The `slotgen` command-line tool.

use std::io::Write;
use std::process::ExitCode;

mod cli;
mod exit;

fn main() -> ExitCode {
    let args = cli::parse();
    match cli::run(args) {
        Ok(code) => code,
        Err(error) => {
            let outcome = exit::Outcome::of(&error);
            if !matches!(outcome, exit::Outcome::ReaderGone) {
                // stderr may be closed too: a failed write must not panic
                let _ = writeln!(std::io::stderr(), "slotgen: error: {error:#}");
            }
            outcome.code()
        }
    }
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    #[test]
    fn command_line_definition_is_consistent() {
        super::cli::Cli::command().debug_assert();
    }
}
