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
    // Written from a thread, so that slotgen can fill its standard output meanwhile (both
    // pipes full would wait on each other); slotgen may exit before reading all of it (a
    // refused command line).
    let mut input = child.stdin.take().expect("a piped stdin");
    let stdin = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&stdin);
    });
    let output = child.wait_with_output().expect("slotgen finishes");
    writer.join().expect("the writer thread ends");
    output
}
