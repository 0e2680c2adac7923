//! `slotgen verify --exec CMD`: does this client library compute slots as Redis does (or as
//! the named scheme's system does)?
//!
//! Runs CMD once (split into words as a POSIX shell would, but run without one), writes the
//! conformance corpus ([`slotgen::vectors`]) to its standard input, one key per line, from a
//! writer thread, and reads one slot per line from its standard output, comparing as the
//! answers arrive: memory stays bounded for any corpus size. Every line the command prints is
//! held to the budget of a server's short reply ([`MAX_REPLY_BYTES`]: a slot has at most 10
//! digits), and a longer one (`cat /dev/zero`) stops the command at once; of its standard
//! error only the last [`STDERR_TAIL`] bytes are kept, and shown escaped. The command gets
//! one total deadline, which bounds every wait (for an answer, for its exit, for the threads
//! that feed it and read its standard error); when it passes, the command is killed by its
//! process id. The command runs in a process group of its own, which is ended when the
//! command ends or is killed, so that no process it started outlives it.

use std::io::{BufRead, BufReader, BufWriter, Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, ExitCode, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use clap::ValueEnum;
use slotgen::text::escape_cut;
use slotgen::vectors::{corpus, Class, SlotFunction, Vector};
use slotgen_cluster::server::MAX_REPLY_BYTES;

/// Examples kept per class: the shortest keys, first come first on a tie.
const EXAMPLES: usize = 5;
/// The end of the command's standard error kept for the report, in bytes.
const STDERR_TAIL: usize = 2048;
/// How long the tail of standard error is waited for after the deadline: the command was
/// killed, so its pipe closes at once unless a child of its own holds it.
const STDERR_GRACE: Duration = Duration::from_millis(200);

/// A line of the command's standard output.
enum Line {
    /// A line within [`MAX_REPLY_BYTES`], without its line feed.
    Answer(Vec<u8>),
    /// A line longer than [`MAX_REPLY_BYTES`]: no more is read.
    TooLong,
}

/// How keys are written to the command.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ExecInput {
    /// Each key as lowercase hex digits on a line (`7b617d` is `{a}`; the empty key is an
    /// empty line): every key of the corpus.
    Hex,
    /// Each key's bytes as they are on a line: keys that hold a line feed or a carriage
    /// return are left out.
    Raw,
}

/// What `verify --exec` needs from the command line.
pub struct ExecOptions<'a> {
    pub command: &'a str,
    pub input: ExecInput,
    pub count: usize,
    pub seed: u64,
    pub timeout: Duration,
}

/// One key the command answered differently.
struct Example {
    key: Vec<u8>,
    expected: u32,
    /// The line answered, escaped and cut.
    got: String,
}

#[derive(Default)]
struct ClassTally {
    compared: u64,
    disagreements: u64,
    examples: Vec<Example>,
}

/// Whether `key` is written in `input` form.
fn sent(input: ExecInput, key: &[u8]) -> bool {
    input == ExecInput::Hex || !key.iter().any(|&b| b == b'\n' || b == b'\r')
}

pub fn run(function: &SlotFunction, options: &ExecOptions<'_>) -> Result<ExitCode> {
    let words = shlex::split(options.command)
        .filter(|w| !w.is_empty())
        .ok_or_else(|| {
            crate::exit::usage(anyhow::anyhow!(
                "--exec `{}` is not a command line: give a program and its arguments, quoted as in a shell, such as `python3 adapter.py`; for pipes or redirections give `sh -c '...'`",
                options.command
            ))
        })?;
    // a process group of its own, so that its children end with it (`sh -c 'a | b'`)
    let mut child = Command::new(&words[0])
        .args(&words[1..])
        .process_group(0)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .with_context(|| {
            format!(
                "--exec: cannot run `{}`: give a program on PATH or its path",
                words[0]
            )
        })?;
    let deadline = Instant::now() + options.timeout;

    let writer = {
        let stdin = child.stdin.take().expect("a piped stdin");
        let (function, input, count, seed) =
            (function.clone(), options.input, options.count, options.seed);
        let (done, written) = mpsc::channel::<std::io::Result<u64>>();
        thread::spawn(move || {
            let _ = done.send(feed(stdin, &function, input, count, seed));
        });
        written
    };
    /// Writes the corpus to the command's standard input; dropping `stdin` at the end
    /// closes the pipe, so that the command sees the end of its input.
    fn feed(
        stdin: std::process::ChildStdin,
        function: &SlotFunction,
        input: ExecInput,
        count: usize,
        seed: u64,
    ) -> std::io::Result<u64> {
        {
            let mut out = BufWriter::with_capacity(1 << 16, stdin);
            let mut written = 0;
            for v in corpus(function.clone(), count, seed).filter(|v| sent(input, &v.key)) {
                match input {
                    ExecInput::Hex => out.write_all(hex::encode(&v.key).as_bytes())?,
                    ExecInput::Raw => out.write_all(&v.key)?,
                }
                out.write_all(b"\n")?;
                written += 1;
            }
            out.flush()?;
            Ok(written)
        }
    }
    let stderr = {
        let mut err = child.stderr.take().expect("a piped stderr");
        let (done, tail) = mpsc::channel::<Vec<u8>>();
        thread::spawn(move || {
            let mut tail = Vec::new();
            let mut buf = [0u8; 4096];
            while let Ok(n @ 1..) = err.read(&mut buf) {
                tail.extend_from_slice(&buf[..n]);
                if tail.len() > 2 * STDERR_TAIL {
                    tail.drain(..tail.len() - STDERR_TAIL);
                }
            }
            let start = tail.len().saturating_sub(STDERR_TAIL);
            let _ = done.send(tail.split_off(start));
        });
        tail
    };
    let (lines, answers) = mpsc::sync_channel::<Line>(4096);
    {
        let stdout = child.stdout.take().expect("a piped stdout");
        thread::spawn(move || {
            let mut reader = BufReader::with_capacity(1 << 16, stdout);
            loop {
                let mut line = Vec::new();
                match reader
                    .by_ref()
                    .take(MAX_REPLY_BYTES as u64 + 1)
                    .read_until(b'\n', &mut line)
                {
                    Ok(0) | Err(_) => return,
                    Ok(_) => {
                        if line.last() == Some(&b'\n') {
                            line.pop();
                        } else if line.len() > MAX_REPLY_BYTES {
                            let _ = lines.send(Line::TooLong);
                            return;
                        }
                        if lines.send(Line::Answer(line)).is_err() {
                            return;
                        }
                    }
                }
            }
        });
    }

    let mut tallies: Vec<ClassTally> = Class::ALL.iter().map(|_| ClassTally::default()).collect();
    let mut compared = 0u64;
    let mut expected_total = 0u64;
    let mut too_few = false;
    let mut hung = false;
    // the number of the line past the budget
    let mut too_long = None;
    for Vector { key, slot, class } in corpus(function.clone(), options.count, options.seed)
        .filter(|v| sent(options.input, &v.key))
    {
        expected_total += 1;
        if too_few || hung || too_long.is_some() {
            continue;
        }
        let line = match answers.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            Ok(Line::Answer(line)) => line,
            Ok(Line::TooLong) => {
                too_long = Some(compared + 1);
                continue;
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {
                hung = true;
                continue;
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                too_few = true;
                continue;
            }
        };
        compared += 1;
        let tally = &mut tallies[class_index(class)];
        tally.compared += 1;
        let text = line.trim_ascii();
        let answered = std::str::from_utf8(text)
            .ok()
            .and_then(|t| t.parse::<u32>().ok());
        if answered != Some(slot) {
            tally.disagreements += 1;
            // keep the shortest keys: they show a fault best
            let longest = tally.examples.iter().map(|e| e.key.len()).max();
            let known = tally.examples.iter().any(|e| e.key == key);
            if !known && (tally.examples.len() < EXAMPLES || longest > Some(key.len())) {
                if tally.examples.len() == EXAMPLES {
                    let at = tally
                        .examples
                        .iter()
                        .rposition(|e| Some(e.key.len()) == longest);
                    tally.examples.remove(at.expect("a longest example"));
                }
                let at = tally.examples.partition_point(|e| e.key.len() <= key.len());
                tally.examples.insert(
                    at,
                    Example {
                        key,
                        expected: slot,
                        got: escape_cut(text),
                    },
                );
            }
        }
    }
    // a line past the last key stops the command at once: it answers more than it was asked
    // (`yes 1`), and waiting for its end could take until the deadline
    let mut too_many = false;
    if !too_few && !hung && too_long.is_none() {
        match answers.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            Ok(Line::Answer(_)) => too_many = true,
            Ok(Line::TooLong) => too_long = Some(compared + 1),
            Err(mpsc::RecvTimeoutError::Timeout) => hung = true,
            Err(mpsc::RecvTimeoutError::Disconnected) => {}
        }
    }
    let stop = too_long.is_some() || too_many;
    let status = wait(&mut child, deadline, &mut hung, stop)?;
    end_group(&child);
    let left = || deadline.saturating_duration_since(Instant::now());
    // ended with the command, or by the deadline when a child of the command holds a pipe
    let written = writer.recv_timeout(left()).ok().and_then(Result::ok);
    let stderr_tail = stderr
        .recv_timeout(left().max(STDERR_GRACE))
        .unwrap_or_default();

    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "command:    {} ({} input)",
        slotgen::text::escape_controls(options.command),
        match options.input {
            ExecInput::Hex => "hex",
            ExecInput::Raw => "raw",
        }
    )?;
    writeln!(
        out,
        "corpus:     {} (seed {}{}), {function}",
        super::plural(expected_total, "key", "keys"),
        options.seed,
        if options.input == ExecInput::Raw {
            format!(
                ", {} with a line break left out",
                options.count as u64 - expected_total
            )
        } else {
            String::new()
        }
    )?;
    let disagreements: u64 = tallies.iter().map(|t| t.disagreements).sum();
    writeln!(
        out,
        "compared:   {}, {disagreements} disagree",
        super::plural(compared, "key", "keys")
    )?;
    for (class, tally) in Class::ALL.iter().zip(&tallies) {
        if tally.disagreements == 0 {
            continue;
        }
        writeln!(
            out,
            "class:      {class}: {} of {} keys disagree",
            tally.disagreements, tally.compared
        )?;
        for e in &tally.examples {
            writeln!(
                out,
                "example:    {class} key {}: expected {}, got {}",
                if e.key.is_empty() {
                    "\"\"".to_owned()
                } else {
                    hex::encode(&e.key)
                },
                e.expected,
                if e.got.is_empty() {
                    "an empty line".to_owned()
                } else {
                    e.got.clone()
                }
            )?;
        }
    }
    let mut problems = Vec::new();
    if let Some(number) = too_long {
        problems.push(format!(
            "the command printed a line of more than {MAX_REPLY_BYTES} bytes (line {number}), and was stopped: \
             an answer is one slot, at most 10 digits, on a line of its own"
        ));
    } else if hung {
        problems.push(format!(
            "the command did not finish within {} s and was killed: it answered {compared} of {expected_total} keys; \
             an adapter must flush its output and exit at the end of its input (or give a longer --timeout)",
            options.timeout.as_secs()
        ));
    } else if too_few {
        problems.push(format!(
            "the command printed too few lines: {compared} for {expected_total} keys; it must print one slot per key"
        ));
    }
    if too_many {
        problems.push(format!(
            "the command printed more lines than the {} asked, and was stopped: it must print one slot per key and nothing else",
            super::plural(expected_total, "key", "keys")
        ));
    }
    if let Some(status) = status.filter(|s| !s.success()) {
        problems.push(format!("the command failed: {status}"));
    }
    if !hung && !stop && written.is_none() && !too_few {
        problems.push("the command stopped reading its input before the end".to_owned());
    }
    for problem in &problems {
        writeln!(out, "problem:    {problem}")?;
    }
    if !problems.is_empty() && !stderr_tail.trim_ascii().is_empty() {
        writeln!(out, "stderr:     (its end follows, escaped)")?;
        for line in stderr_tail.trim_ascii_end().split(|&b| b == b'\n') {
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            writeln!(out, "            {}", escape_cut(line))?;
        }
    }
    if disagreements == 0 && problems.is_empty() {
        writeln!(
            out,
            "verified:   the command gives every one of the {compared} keys the slot of {function}"
        )?;
        return Ok(ExitCode::SUCCESS);
    }
    out.flush()?;
    let classes: Vec<&str> = Class::ALL
        .iter()
        .zip(&tallies)
        .filter(|(_, t)| t.disagreements > 0)
        .map(|(c, _)| c.name())
        .collect();
    if disagreements > 0 {
        bail!(
            "{disagreements} of {compared} answers disagree with {function}, in {}: see the `class:` and `example:` lines{}",
            classes.join(", "),
            if problems.is_empty() { String::new() } else { format!("; also {}", problems.join("; ")) }
        );
    }
    bail!("{}", problems.join("; "));
}

fn class_index(class: Class) -> usize {
    Class::ALL
        .iter()
        .position(|&c| c == class)
        .expect("every class is in Class::ALL")
}

/// Ends what is left of the command's process group (its id is the command's process id):
/// the processes it started that did not end with it. The command itself has ended, or was
/// killed, and been waited for.
fn end_group(child: &Child) {
    let Ok(group) = libc::pid_t::try_from(child.id()) else {
        return;
    };
    // SAFETY: kill(2) with a negative pid sends a signal to that process group and touches
    // no memory; a group already gone gives ESRCH, which leaves nothing to do.
    unsafe {
        libc::kill(-group, libc::SIGKILL);
    }
}

/// Waits for the command until the deadline, then kills it by its process id (at once when
/// `stop`).
fn wait(
    child: &mut Child,
    deadline: Instant,
    hung: &mut bool,
    stop: bool,
) -> Result<Option<std::process::ExitStatus>> {
    loop {
        if stop || *hung || Instant::now() >= deadline {
            *hung |= !stop;
            let _ = child.kill();
            let _ = child.wait();
            return Ok(None);
        }
        if let Some(status) = child.try_wait().context("waiting for the --exec command")? {
            return Ok(Some(status));
        }
        thread::sleep(Duration::from_millis(5));
    }
}
