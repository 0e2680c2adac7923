//! The `slotgen` command, run as a user runs it: one test binary (a link each would cost
//! more than the tests on a 2-core machine), a module a concern.

mod bounds;
mod catalog_charset;
mod check;
mod commands;
mod common;
mod emit_speakers;
mod exec;
mod exit_status;
mod help_man_completions;
mod lint;
mod output;
mod printed_fixes;
mod scheme;
mod server_bounds;
mod shortest;
mod spec_options;
mod tls_acl;
mod verify;
