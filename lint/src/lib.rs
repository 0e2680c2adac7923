#![doc = include_str!("../README.md")]

use std::path::Path;

pub mod commands;
mod commands_file;
pub mod globals;
pub mod key;
pub mod lua;
mod verdict;

pub use commands_file::{lint_commands, lint_commands_with};
pub use key::{KeyExpr, KeyKind, Part, Slot, Values};
pub use verdict::{Condition, Finding, Outcome, Report, Rule, Target};

/// The most bytes of a script with its includes, or of a command file (256 KiB). The
/// parser's tree takes about 450 bytes of memory a byte of source at worst (measured: a
/// 256 KiB script of `a = a .. 'x'` lines peaks at 129 MB, at 1 MiB it was 468 MB), and
/// real scripts are small: bullmq's largest command with its includes is 42 KB.
pub const MAX_SOURCE_BYTES: usize = 256 << 10;
/// The deepest nesting of brackets, blocks and unary operators in a script (the parser
/// recurses on it).
pub const MAX_NESTING: usize = 200;
/// The most files one script may include, itself counted.
pub const MAX_FILES: usize = 512;

/// A place in a script: the file (0 the script, then its includes in [`lua::Script::files`]),
/// the line and column, both from 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
pub struct Position {
    /// The file's index in the report's files.
    pub file: usize,
    /// The line, from 1.
    pub line: usize,
    /// The column, from 1 (in characters).
    pub column: usize,
}

/// How a lint message shows the path of a file: its text with every control character
/// escaped ([`slotgen::text::escape_controls`]: `bad\x1b[31m.lua`, no raw ESC reaches a
/// terminal), a name that is not UTF-8 byte by byte ([`slotgen::text::escape`]). Every
/// message that names a file, errors and findings, shows it through here.
#[must_use]
pub fn shown(path: &Path) -> String {
    match path.to_str() {
        Some(text) => slotgen::text::escape_controls(text),
        None => slotgen::text::escape(path.as_os_str().as_encoded_bytes()),
    }
}

/// Why a file cannot be linted.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum Error {
    /// The Lua parser refused the file.
    #[error("{file}:{line}:{column}: not Lua 5.1: {message}; fix the script (Redis and Valkey run Lua 5.1)")]
    Parse {
        /// The file.
        file: String,
        /// The line of the first error.
        line: usize,
        /// The column of the first error.
        column: usize,
        /// The parser's message.
        message: String,
    },
    /// The script with its includes, or the command file, is too large.
    #[error("{file}: larger than {max} bytes with its includes, the most the lint reads (its syntax tree takes about 450 bytes of memory a byte, and real scripts are far smaller); lint it in parts")]
    TooLarge {
        /// The file.
        file: String,
        /// The bound.
        max: usize,
    },
    /// Brackets, blocks or unary operators nest too deep.
    #[error("{file}: nests deeper than {max} levels (brackets, blocks, unary operators), the most the lint reads; Redis and Valkey refuse a script past 200 syntax levels too (\"chunk has too many syntax levels\"): split it into functions")]
    TooDeep {
        /// The file.
        file: String,
        /// The bound.
        max: usize,
    },
    /// Too many includes.
    #[error("{file}: includes more than {max} files")]
    TooManyIncludes {
        /// The file.
        file: String,
        /// The bound.
        max: usize,
    },
    /// An include cannot be read.
    #[error("{file}: `--- @include \"{include}\"` cannot be read: {reason}")]
    Include {
        /// The including file.
        file: String,
        /// The include's name.
        include: String,
        /// Why.
        reason: String,
    },
    /// A shebang that is not `#!lua` with `flags=` or `name=`.
    #[error("{file}:1: the shebang `#!{line}` is not `#!lua [flags=f1,f2] [name=lib]` (`lua` in any case), the only engine and options Redis and Valkey take")]
    Shebang {
        /// The file.
        file: String,
        /// The shebang line, escaped.
        line: String,
    },
    /// A line of a command file that is not words as redis-cli splits them.
    #[error("{file}:{line}: quotes redis-cli does not read (one left open, or a closing quote followed by more than a space: redis-cli answers \"Invalid argument(s)\" and skips the line); close each quoted word with its quote and a space")]
    Quotes {
        /// The file.
        file: String,
        /// The line.
        line: usize,
    },
    /// The function to judge is not in the file.
    #[error("{file}: no function `{name}` is registered here; the functions are: {functions}")]
    NoFunction {
        /// The file.
        file: String,
        /// The function asked for.
        name: String,
        /// The functions registered, comma-separated (`none` for a script that is no
        /// library).
        functions: String,
    },
    /// The file cannot be read.
    #[error("{file}: cannot be read: {reason}")]
    Read {
        /// The file.
        file: String,
        /// Why.
        reason: String,
    },
}

/// Lints the Lua script `source` of the file `path` for `targets`, with the call's values
/// when known.
///
/// # Errors
///
/// As [`lua::read`]: a file that does not parse, past the bounds, a missing include;
/// [`Error::NoFunction`] when `values.function` names no function of the file.
pub fn lint_script(
    path: &Path,
    source: &str,
    values: &Values,
    targets: &[Target],
) -> Result<Report, Error> {
    lint_script_with(path, source, values, targets, &[])
}

/// [`lint_script`], a Functions library loaded after the libraries `loaded` (read by
/// [`lua::read`], given before it in the same run): a function of another library named
/// the same in any case makes its FUNCTION LOAD refused (`library-load`).
///
/// # Errors
///
/// As [`lint_script`].
pub fn lint_script_with(
    path: &Path,
    source: &str,
    values: &Values,
    targets: &[Target],
    loaded: &[lua::Script],
) -> Result<Report, Error> {
    let script = lua::read(path, source)?;
    if let Some(name) = &values.function {
        let functions: Vec<&str> = match &script.kind {
            lua::ScriptKind::Library { functions, .. } => {
                functions.iter().map(|f| f.name.as_str()).collect()
            }
            _ => Vec::new(),
        };
        if !functions.contains(&name.as_str()) {
            return Err(Error::NoFunction {
                file: crate::shown(path),
                name: slotgen::text::escape(name.as_bytes()),
                functions: if functions.is_empty() {
                    "none (not a Functions library)".to_owned()
                } else {
                    functions.join(", ")
                },
            });
        }
    }
    let mut report = verdict::script(&script, values, targets);
    report
        .findings
        .extend(verdict::library_clash(&script, loaded, targets));
    report.findings.sort_by_key(|f| f.at);
    Ok(report)
}

/// Lints the files at `paths` as [`lint_file`] does, each command file with the Functions
/// libraries among them (so that its `FCALL` lines are judged by their functions), each
/// library as loaded after the libraries before it ([`lint_script_with`]), in order. Each file is read once: a FIFO or a pipe gives its bytes once, and its wait
/// ([`slotgen::user_file::WAIT`]) is spent once.
#[must_use]
pub fn lint_files(
    paths: &[std::path::PathBuf],
    values: &Values,
    targets: &[Target],
) -> Vec<Result<Report, Error>> {
    let sources: Vec<Result<String, Error>> = paths.iter().map(|p| read_source(p)).collect();
    // each library with the index of its file
    let (at, libraries): (Vec<usize>, Vec<lua::Script>) = paths
        .iter()
        .zip(&sources)
        .enumerate()
        .filter(|(_, (p, _))| !is_command_file(p))
        .filter_map(|(i, (p, source))| {
            let script = lua::read(p, source.as_ref().ok()?).ok()?;
            matches!(script.kind, lua::ScriptKind::Library { .. }).then_some((i, script))
        })
        .unzip();
    paths
        .iter()
        .zip(sources)
        .enumerate()
        .map(|(i, (p, source))| {
            let before = at.partition_point(|&j| j < i);
            lint_source(
                p,
                &source?,
                values,
                targets,
                &libraries,
                &libraries[..before],
            )
        })
        .collect()
}

/// Whether `path` names a command file: `.redis`, `.txt` or `.cmd`.
fn is_command_file(path: &Path) -> bool {
    matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("redis" | "txt" | "cmd")
    )
}

/// Lints the file at `path`: a command file when its name ends in `.redis` or `.txt`
/// (or `.cmd`), a Lua script otherwise.
///
/// # Errors
///
/// [`Error::Read`] when it cannot be read, then as [`lint_script`] or [`lint_commands`].
pub fn lint_file(path: &Path, values: &Values, targets: &[Target]) -> Result<Report, Error> {
    lint_file_with(path, values, targets, &[])
}

/// [`lint_file`], a command file's `FCALL` lines judged by the functions of `libraries`.
fn lint_file_with(
    path: &Path,
    values: &Values,
    targets: &[Target],
    libraries: &[lua::Script],
) -> Result<Report, Error> {
    lint_source(path, &read_source(path)?, values, targets, libraries, &[])
}

/// The text of the file at `path`, as the lint reads it: at most [`MAX_SOURCE_BYTES`],
/// within [`slotgen::user_file::WAIT`] for a file that is not a regular one, UTF-8.
fn read_source(path: &Path) -> Result<String, Error> {
    let commands = is_command_file(path);
    // how the file's language writes any byte: redis-cli's escape inside double quotes
    let escape: fn(u8) -> String = if commands {
        |byte| format!("`\\x{byte:02x}` inside double quotes, as redis-cli reads it")
    } else {
        lua::lua_byte_escape
    };
    // A regular file past the bound is too large, not a device: said before reading it.
    if std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.len() > MAX_SOURCE_BYTES as u64) {
        return Err(Error::TooLarge {
            file: crate::shown(path),
            max: MAX_SOURCE_BYTES,
        });
    }
    lua::read_bounded(path, escape).map_err(|reason| Error::Read {
        file: crate::shown(path),
        reason,
    })
}

/// Lints `source`, the text of the file at `path`, as [`lint_file_with`] does, a library
/// as loaded after the libraries `loaded`.
fn lint_source(
    path: &Path,
    source: &str,
    values: &Values,
    targets: &[Target],
    libraries: &[lua::Script],
    loaded: &[lua::Script],
) -> Result<Report, Error> {
    if is_command_file(path) {
        lint_commands_with(path, source, targets, libraries)
    } else {
        lint_script_with(path, source, values, targets, loaded)
    }
}
