//! The `slotgen` command-line tool.

use std::io::Write;
use std::process::ExitCode;

mod cli;
mod exit;

fn main() -> ExitCode {
    let args = cli::parse();
    let verdict = args.gives_a_verdict();
    match cli::run(args) {
        Ok(code) => code,
        Err(error) => {
            let outcome = exit::Outcome::of(&error);
            if verdict && matches!(outcome, exit::Outcome::ReaderGone) {
                // `verify ... | head -1`: the check stopped before its end, so it holds nothing
                let _ = writeln!(
                    std::io::stderr(),
                    "slotgen: error: standard output was closed before the check finished, so nothing was checked to the end: let the reader take all of it (or send it to a file)"
                );
                return ExitCode::FAILURE;
            }
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
