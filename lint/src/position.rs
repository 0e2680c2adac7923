//! Where a finding or an error is in a script.

/// A place in a script: the file (0 the script, then its includes in [`lua::Script::files`](crate::lua::Script::files)),
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
