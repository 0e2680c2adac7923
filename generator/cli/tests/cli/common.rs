//! What the CLI tests share: running the `slotgen` binary, what a run did and the checks
//! of it, finding outside programs, and reference CRCs.

use std::io::{Read, Write};
use std::process::{Child, ChildStdin, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Starts `command` with its three standard streams piped.
///
/// # Panics
///
/// When the program cannot be started.
pub fn spawn_piped(command: &mut Command) -> Child {
    command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{:?} runs: {e}", command.get_program()))
}

/// Runs `slotgen` with `args`, `stdin` written on its standard input from a thread (so that
/// slotgen can fill its standard output meanwhile: both pipes full would wait on each
/// other), and returns what it did and whether all of `stdin` was written (slotgen may exit
/// before reading it all, as on a refused command line).
///
/// # Panics
///
/// When the binary cannot be started.
pub fn slotgen_fed(args: &[&str], stdin: &[u8]) -> (Output, std::io::Result<()>) {
    let mut child = spawn_piped(Command::new(env!("CARGO_BIN_EXE_slotgen")).args(args));
    let mut input = child.stdin.take().expect("a piped stdin");
    let stdin = stdin.to_vec();
    let writer = std::thread::spawn(move || input.write_all(&stdin));
    let output = child.wait_with_output().expect("slotgen finishes");
    let written = writer.join().expect("the writer thread ends");
    (output, written)
}

/// Runs `slotgen` with `args`, `stdin` on its standard input, and returns what it did.
///
/// # Panics
///
/// When the binary cannot be started.
pub fn slotgen_with_stdin(args: &[&str], stdin: &[u8]) -> Output {
    slotgen_fed(args, stdin).0
}

/// Runs `slotgen` with `args` and nothing on its standard input.
///
/// # Panics
///
/// When the binary cannot be started.
pub fn slotgen(args: &[&str]) -> Output {
    slotgen_with_stdin(args, b"")
}

/// The longest a run of [`run_measured_fed`] may take before it is called a hang and killed:
/// a guard, not a timing assertion.
const HANG_GUARD: Duration = Duration::from_secs(90);

/// As [`run_measured_fed`], with nothing on standard input.
pub fn run_measured(args: &[&str]) -> (Run, Option<u64>) {
    run_measured_fed(args, |_| {})
}

/// Runs `slotgen` with `args` under `/usr/bin/time`, `feed` writing its standard input
/// from a thread (its errors are its own: slotgen may exit before reading all of it), and
/// returns what it did and its peak resident memory in KiB. Without `/usr/bin/time` the
/// run is not measured (`None`), and under `SLOTGEN_REQUIRE_TOOLS=1` (set by `.ci/run`,
/// which installs it) that fails.
///
/// # Panics
///
/// When slotgen cannot be started, or runs longer than [`HANG_GUARD`] (it hangs).
pub fn run_measured_fed(
    args: &[&str],
    feed: impl FnOnce(&mut ChildStdin) + Send + 'static,
) -> (Run, Option<u64>) {
    let time = "/usr/bin/time";
    let measured = std::path::Path::new(time).is_file();
    if !measured {
        assert!(
            std::env::var("SLOTGEN_REQUIRE_TOOLS").as_deref() != Ok("1"),
            "`{time}` is not installed, and SLOTGEN_REQUIRE_TOOLS=1 requires it (.ci/run installs it)"
        );
        eprintln!("not measuring memory: `{time}` is not installed (set SLOTGEN_REQUIRE_TOOLS=1 to make this fail)");
    }
    let report = tempfile::NamedTempFile::new().unwrap();
    let mut command = if measured {
        let mut command = Command::new(time);
        command
            .args(["-f", "%M", "-o"])
            .arg(report.path())
            .arg(env!("CARGO_BIN_EXE_slotgen"));
        command
    } else {
        Command::new(env!("CARGO_BIN_EXE_slotgen"))
    };
    let mut child = spawn_piped(command.args(args));
    let mut input = child.stdin.take().expect("a piped stdin");
    let feeder = std::thread::spawn(move || feed(&mut input));
    let readers = [
        Box::new(child.stdout.take().expect("a piped stdout")) as Box<dyn Read + Send>,
        Box::new(child.stderr.take().expect("a piped stderr")),
    ]
    .map(|mut pipe| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            bytes
        })
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > HANG_GUARD {
            let _ = child.kill();
            let _ = child.wait();
            panic!("slotgen did not finish within {HANG_GUARD:?}: it hangs");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let [stdout, stderr] = readers.map(|r| r.join().expect("a reader thread ends"));
    feeder.join().expect("the feeding thread ends");
    let run = Run::from(Output {
        status,
        stdout,
        stderr,
    });
    if !measured {
        return (run, None);
    }
    // GNU time writes `Command exited with non-zero status 1` first, then the format
    let text = std::fs::read_to_string(report.path()).unwrap();
    let peak = text
        .lines()
        .last()
        .and_then(|line| line.trim().parse().ok())
        .unwrap_or_else(|| panic!("`{time}` reported {text:?}"));
    (run, Some(peak))
}

/// Its standard output as text, after checking that it succeeded.
///
/// # Panics
///
/// When it failed (with its standard error), or wrote other than UTF-8.
pub fn stdout(output: &Output) -> String {
    String::from_utf8(stdout_bytes(output)).expect("UTF-8 output")
}

/// Its standard output, after checking that it succeeded.
///
/// # Panics
///
/// When it failed, with its standard error.
pub fn stdout_bytes(output: &Output) -> Vec<u8> {
    assert!(
        output.status.success(),
        "exit {:?}: {}",
        output.status.code(),
        String::from_utf8_lossy(&output.stderr)
    );
    output.stdout.clone()
}

/// Whether the outside program `name` is on the PATH; when it is not, a failure under
/// `SLOTGEN_REQUIRE_TOOLS=1` (CI), else a note that the test skips.
///
/// # Panics
///
/// Under `SLOTGEN_REQUIRE_TOOLS=1`, when the program is missing.
pub fn require_tool(name: &str) -> bool {
    let found = std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(name).is_file()));
    require(found, &format!("`{name}` is not installed"))
}

/// `found`, or what is `missing`: a failure under `SLOTGEN_REQUIRE_TOOLS=1`, else a note
/// that the test skips.
///
/// # Panics
///
/// Under `SLOTGEN_REQUIRE_TOOLS=1`, when not `found`.
pub fn require(found: bool, missing: &str) -> bool {
    if found {
        return true;
    }
    assert!(
        std::env::var("SLOTGEN_REQUIRE_TOOLS").as_deref() != Ok("1"),
        "{missing}, and SLOTGEN_REQUIRE_TOOLS=1 requires it (.ci/run installs it)"
    );
    eprintln!("skipping: {missing} (set SLOTGEN_REQUIRE_TOOLS=1 to make this fail)");
    false
}

/// What a run of `slotgen` did, as text.
pub struct Run {
    /// The exit status, `None` when a signal ended it.
    pub code: Option<i32>,
    /// Standard output, lossily as UTF-8.
    pub stdout: String,
    /// Standard error, lossily as UTF-8.
    pub stderr: String,
}

impl From<Output> for Run {
    fn from(output: Output) -> Self {
        Self {
            code: output.status.code(),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        }
    }
}

impl Run {
    /// Standard output holds `needle` (shown whole when it does not).
    pub fn prints(&self, needle: &str) -> &Self {
        assert!(self.stdout.contains(needle), "{}", self.stdout);
        self
    }

    /// Standard error holds `needle` (shown whole when it does not).
    pub fn says(&self, needle: &str) -> &Self {
        assert!(self.stderr.contains(needle), "{}", self.stderr);
        self
    }

    /// Exit 0 and nothing on standard error.
    pub fn ok(&self) -> &Self {
        assert_eq!(self.code, Some(0), "{}{}", self.stdout, self.stderr);
        assert!(self.stderr.is_empty(), "{}", self.stderr);
        self
    }

    /// The TSV rows of standard output, `#` lines left out.
    pub fn rows(&self) -> Vec<Vec<&str>> {
        self.stdout
            .lines()
            .filter(|l| !l.starts_with('#'))
            .map(|l| l.split('\t').collect())
            .collect()
    }

    /// Exit `code`, a standard error that holds `needle`, and no panic.
    pub fn exits(&self, code: i32, needle: &str) -> &Self {
        assert_eq!(self.code, Some(code), "{}{}", self.stdout, self.stderr);
        assert!(self.stderr.contains(needle), "{}", self.stderr);
        assert!(!self.stderr.contains("panicked"), "{}", self.stderr);
        self
    }

    /// Exit 1 with one `slotgen: error:` line that contains `needle`, and no claim of
    /// success.
    pub fn fails_with(&self, needle: &str) -> &Self {
        self.fails_with_code(1, needle)
    }

    /// As [`Run::fails_with`], with exit status `code` (2 for a usage error).
    pub fn fails_with_code(&self, code: i32, needle: &str) -> &Self {
        assert_eq!(self.code, Some(code), "{}{}", self.stdout, self.stderr);
        assert!(
            self.stderr.starts_with("slotgen: error: ") && self.stderr.contains(needle),
            "{}",
            self.stderr
        );
        assert_eq!(self.stderr.lines().count(), 1, "{}", self.stderr);
        assert!(!self.stdout.contains("verified"), "{}", self.stdout);
        assert!(!self.stderr.contains("panicked"), "{}", self.stderr);
        self
    }
}

/// Reference CRCs written out here, bit by bit or from the `crc` crate, not slotgen's
/// engine.
pub mod crc {
    /// CRC-32/ISO-HDLC by the `crc` crate: Codis's and librdkafka's CRC.
    pub fn iso_hdlc(bytes: &[u8]) -> u32 {
        ::crc::Crc::<u32>::new(&::crc::CRC_32_ISO_HDLC).checksum(bytes)
    }

    /// Tarantool's `digest.crc32` bit by bit: CRC-32C (reflected poly 0x82f63b78), init
    /// 0xffffffff, no final xor.
    pub fn tarantool(bytes: &[u8]) -> u32 {
        let mut crc = 0xffff_ffffu32;
        for &b in bytes {
            crc ^= u32::from(b);
            for _ in 0..8 {
                crc = if crc & 1 == 1 {
                    (crc >> 1) ^ 0x82f6_3b78
                } else {
                    crc >> 1
                };
            }
        }
        crc
    }

    /// nutcracker's `hash_crc16` bit by bit: CRC-16/XMODEM's steps (poly 0x1021) in a
    /// 32-bit register that is never masked.
    pub fn hash_crc16(bytes: &[u8]) -> u32 {
        let mut reg = 0u32;
        for &b in bytes {
            let mut entry = u16::from((reg >> 8) as u8 ^ b) << 8;
            for _ in 0..8 {
                entry = if entry & 0x8000 != 0 {
                    (entry << 1) ^ 0x1021
                } else {
                    entry << 1
                };
            }
            reg = (reg << 8) ^ u32::from(entry);
        }
        reg
    }
}
