#![doc = include_str!("../README.md")]

mod bounds;
pub mod commands;
mod commands_file;
mod error;
mod files;
pub mod globals;
pub mod key;
pub mod lua;
pub mod numbers;
mod position;
mod verdict;

pub use bounds::{MAX_FILES, MAX_NESTING, MAX_SOURCE_BYTES};
pub use commands_file::{lint_commands, lint_commands_with};
pub use error::Error;
pub use files::{lint_file, lint_files, lint_script, lint_script_with};
pub use key::{KeyExpr, KeyKind, Part, Slot, Values};
pub use position::Position;
/// How a lint message shows the path of a file: [`slotgen::text::path`], the one rule of
/// every message that names a file.
pub use slotgen::text::path as shown;
pub use verdict::{Condition, Finding, Outcome, Report, Rule, Target};
