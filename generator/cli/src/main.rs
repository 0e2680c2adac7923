//! The `slotgen` command-line tool.

use std::io::Write;
use std::process::ExitCode;

mod cli;

fn main() -> ExitCode {
    let args = cli::parse();
    match cli::run(args) {
        Ok(code) => code,
        Err(error) => {
            let broken_pipe = error.chain().any(|cause| {
                cause
                    .downcast_ref::<std::io::Error>()
                    .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
            });
            if !broken_pipe {
                // stderr may be closed too: a failed write must not panic
                let _ = writeln!(std::io::stderr(), "slotgen: error: {error:#}");
            }
            ExitCode::FAILURE
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
