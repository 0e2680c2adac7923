//! The exit status, one rule for every command:
//!
//! - `0`: success; also when standard output is a pipe whose reader has gone (`slotgen tag
//!   0-16383 | head -1`): the reader asked for no more, so slotgen stops quietly, as
//!   ripgrep does.
//! - `1`: a check failed (`verify`, `catalog`), or the work could not be done (no tag
//!   length reaches every slot, a server cannot be reached, a file cannot be read).
//! - `2`: a usage error: the command line is wrong by itself (an unknown option, a value
//!   that is not of its option's form, such as `--charset '{'`, `--alphabet '{'`,
//!   `--slots 3000`, `--crc NOPE` or `--name ''`, or options that do not apply together).

use std::fmt;
use std::process::ExitCode;

/// A usage error: the command line is wrong by itself; exits 2. Shown as its inner error.
#[derive(Debug)]
pub struct Usage(pub anyhow::Error);

impl fmt::Display for Usage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:#}", self.0)
    }
}

impl std::error::Error for Usage {}

/// `error` marked as a usage error.
pub fn usage(error: impl Into<anyhow::Error>) -> anyhow::Error {
    anyhow::Error::new(Usage(error.into()))
}

/// What an error means for the exit status.
pub enum Outcome {
    /// The reader of standard output went away: exit 0, say nothing.
    ReaderGone,
    /// Exit 2.
    Usage,
    /// Exit 1.
    Failure,
}

impl Outcome {
    /// The outcome of `error`.
    pub fn of(error: &anyhow::Error) -> Self {
        let broken_pipe = error.chain().any(|cause| {
            let kind = cause
                .downcast_ref::<std::io::Error>()
                .map(std::io::Error::kind)
                .or_else(|| {
                    cause
                        .downcast_ref::<serde_json::Error>()
                        .and_then(serde_json::Error::io_error_kind)
                });
            kind == Some(std::io::ErrorKind::BrokenPipe)
        });
        if broken_pipe {
            Self::ReaderGone
        } else if error.chain().any(|cause| cause.is::<Usage>()) {
            Self::Usage
        } else {
            Self::Failure
        }
    }

    /// The exit status.
    pub fn code(&self) -> ExitCode {
        match self {
            Self::ReaderGone => ExitCode::SUCCESS,
            Self::Usage => ExitCode::from(2),
            Self::Failure => ExitCode::FAILURE,
        }
    }
}
