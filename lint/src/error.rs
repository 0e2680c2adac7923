//! The lint's error type.

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
