//! Linting files: a Lua script, a command file, several files at once with the Functions
//! libraries among them.

use std::path::Path;

use crate::bounds::MAX_SOURCE_BYTES;
use crate::commands_file::lint_commands_with;
use crate::error::Error;
use crate::key::Values;
use crate::lua;
use crate::shown;
use crate::verdict::{self, Report, Target};

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
        let functions: Vec<&lua::Function> = match &script.kind {
            lua::ScriptKind::Library { functions, .. } => functions.iter().collect(),
            _ => Vec::new(),
        };
        // a function whose name is not read may be the one asked for
        if !functions
            .iter()
            .any(|f| f.known_name().is_none() || f.is_called(name))
        {
            return Err(Error::NoFunction {
                file: shown(path),
                name: slotgen::text::escape(name.as_bytes()),
                functions: if functions.is_empty() {
                    "none (not a Functions library)".to_owned()
                } else {
                    functions
                        .iter()
                        .map(|f| f.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
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
/// [`Error::Read`] when it cannot be read, then as [`lint_script`] or [`lint_commands`](crate::lint_commands).
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
            file: shown(path),
            max: MAX_SOURCE_BYTES,
        });
    }
    lua::read_bounded(path, escape).map_err(|reason| Error::Read {
        file: shown(path),
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
