//! What the CLI test files share: running the `slotgen` binary.

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `slotgen` with `args`, `stdin` on its standard input, and returns what it did.
///
/// # Panics
///
/// When the binary cannot be started.
pub fn slotgen_with_stdin(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_slotgen"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("slotgen runs");
    // slotgen may exit before reading all of it (a refused command line)
    let _ = child.stdin.take().expect("a piped stdin").write_all(stdin);
    child.wait_with_output().expect("slotgen finishes")
}
