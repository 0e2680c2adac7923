//! The Python and npm packages (issue 25), installed from the files `bash .ci/package`
//! writes into `target/dist/` and nothing else: the wheel with `pip install --no-index`
//! into a fresh virtual environment, the two npm tarballs with `npm install --offline` and
//! an empty npm cache into a fresh project. From each, the binary runs (`slotgen` on the
//! environment's PATH, `python -m slotgen`, `npx slotgen`); the module answers every one
//! of the 16384 slots as a real `redis-server` does (`key_for_slot` / `keyForSlot` of each
//! slot, then `slot()` of that key, both against `CLUSTER KEYSLOT` of the key); a
//! TypeScript consumer compiles with `tsc --strict` against the package's declarations;
//! and uninstalling leaves the environment's and the project's file lists as they were.
//!
//! The artifacts must be of the workspace's version: older ones are refused, with the way
//! to make them. Without them (or without a program) the tests skip, or fail under
//! `SLOTGEN_REQUIRE_TOOLS=1`, which is why `.ci/run` runs `.ci/package` before the tests.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use slotgen_tables::REDIS_CLUSTER_SLOTS;
use slotgen_tests::emitted::run;
use slotgen_tests::redis_server::RedisServer;
use slotgen_tests::{require_tool, tsc};

/// The workspace's version, which every artifact must carry (the crates inherit it).
const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The key affixes the modules build keys with: `pkg:{TAG}:x`.
const PREFIX: &str = "pkg:";
const SUFFIX: &str = ":x";

/// `target/dist/`, where `.ci/package` writes the packages.
fn dist() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("the target directory holds tmp/")
        .join("dist")
}

/// The one file of `dist()` named by `pattern` with `{V}` the workspace's version and `*`
/// anything (`slotgen-{V}-*.whl`, `slotgen-{V}.tgz`), or `None` after saying why: naming
/// the stale versions found instead, if any. Under `SLOTGEN_REQUIRE_TOOLS=1` that is a
/// failure.
fn artifact(pattern: &str) -> Option<PathBuf> {
    let dir = dist();
    let names: Vec<String> = std::fs::read_dir(&dir)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|entry| entry.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    let (start, rest) = pattern
        .split_once("{V}")
        .expect("a pattern names the version");
    let wanted = format!("{start}{VERSION}{rest}");
    let (head, tail) = wanted.split_once('*').unwrap_or((&wanted, ""));
    let current: Vec<&String> = names
        .iter()
        .filter(|name| name.len() >= head.len() + tail.len())
        .filter(|name| name.starts_with(head) && name.ends_with(tail))
        .collect();
    if let [one] = current.as_slice() {
        return Some(dir.join(one));
    }
    // the same package of another version: `start`, then a digit, then the same ending
    let ending = rest.rsplit('*').next().unwrap_or(rest);
    let stale: Vec<&str> = names
        .iter()
        .filter(|name| {
            name.strip_prefix(start)
                .is_some_and(|v| v.starts_with(|c: char| c.is_ascii_digit()))
                && name.ends_with(ending)
        })
        .map(String::as_str)
        .collect();
    let why = if current.len() > 1 {
        format!("{} holds several {wanted}", dir.display())
    } else if stale.is_empty() {
        format!("{} has no {wanted}", dir.display())
    } else {
        format!(
            "{} has no {wanted}, only stale packages of another version ({})",
            dir.display(),
            stale.join(", ")
        )
    };
    assert!(
        std::env::var("SLOTGEN_REQUIRE_TOOLS").as_deref() != Ok("1"),
        "{why}: run `bash .ci/package` first (.ci/run does)"
    );
    eprintln!("skipping: {why} (run `bash .ci/package` first)");
    None
}

/// Every file and directory under `root`, as paths relative to it, sorted.
fn file_list(root: &Path) -> BTreeSet<PathBuf> {
    let mut found = BTreeSet::new();
    let mut pending = vec![root.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let path = entry.unwrap().path();
            if path.is_dir() && !path.is_symlink() {
                pending.push(path.clone());
            }
            found.insert(path.strip_prefix(root).unwrap().to_path_buf());
        }
    }
    found
}

/// Fails naming what an uninstall left behind or took away, when the file lists differ.
fn assert_same_files(what: &str, before: &BTreeSet<PathBuf>, after: &BTreeSet<PathBuf>) {
    let left: Vec<_> = after.difference(before).collect();
    let taken: Vec<_> = before.difference(after).collect();
    assert!(
        left.is_empty() && taken.is_empty(),
        "{what} changed the file list: left behind {left:?}, took away {taken:?}"
    );
}

/// The binary's `derive` and `--version`, run by `command` (a fresh one each time).
fn check_binary(what: &str, command: impl Fn() -> Command) {
    let derived = run(command().arg("derive"));
    let slots = REDIS_CLUSTER_SLOTS;
    assert!(
        derived.contains(&format!("verified:   {slots}/{slots} slots")),
        "{what} derive printed:\n{derived}"
    );
    let version = run(command().arg("--version"));
    assert!(
        version.starts_with(&format!("slotgen {VERSION} ")),
        "{what} --version printed {version:?}"
    );
    // the binary's exit status comes through: 2 for a usage error
    let refused = command().arg("--no-such-option").output().unwrap();
    assert_eq!(
        refused.status.code(),
        Some(2),
        "{what} --no-such-option: {}",
        String::from_utf8_lossy(&refused.stderr)
    );
}

/// Checks a module's answers against a real server: `lines` has one line a slot, in slot
/// order, `KEY_HEX SLOT`: the module's key for the slot and the module's slot of that key.
fn check_against_server(what: &str, lines: &str) {
    let rows: Vec<(Vec<u8>, u32)> = lines
        .lines()
        .map(|line| {
            let (key, slot) = line
                .split_once(' ')
                .unwrap_or_else(|| panic!("{what} printed {line:?}"));
            (hex::decode(key).unwrap(), slot.parse().unwrap())
        })
        .collect();
    assert_eq!(
        rows.len(),
        REDIS_CLUSTER_SLOTS as usize,
        "{what}: one line a slot"
    );
    let server = RedisServer::start(true).unwrap_or_else(|e| panic!("starting redis-server: {e}"));
    let keys: Vec<&[u8]> = rows.iter().map(|(key, _)| key.as_slice()).collect();
    let answers = server.keyslots(&keys);
    for (slot, ((key, module), answer)) in (0..REDIS_CLUSTER_SLOTS).zip(rows.iter().zip(answers)) {
        let shown = String::from_utf8_lossy(key);
        let answer = u32::from(answer);
        assert_eq!(
            answer, slot,
            "{what}: the key for slot {slot}, {shown:?}, is in slot {answer} by CLUSTER KEYSLOT"
        );
        assert_eq!(
            *module, answer,
            "{what}: slot({shown:?}) is {module}, CLUSTER KEYSLOT says {answer}"
        );
    }
}

/// The Python program that prints, for every slot, the module's key and its slot of it.
const PYTHON_PROGRAM: &str = r#"
import os, sys, slotgen
here = os.path.dirname(slotgen.__file__)
assert here.startswith(sys.prefix), f"slotgen imported from {here}, not the environment"
assert os.path.isfile(os.path.join(here, "py.typed")), "py.typed is missing"
lines = []
for s in range(slotgen.FIRST_SLOT, slotgen.LAST_SLOT + 1):
    key = slotgen.key_for_slot(PREFIX, s, SUFFIX)
    lines.append(f"{key.hex()} {slotgen.slot(key)}")
print("\n".join(lines))
"#;

#[test]
fn python_package_installs_runs_and_uninstalls() {
    let Some(wheel) = artifact("slotgen-{V}-*.whl") else {
        return;
    };
    if !require_tool("python3") || !require_tool("redis-server") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let venv = dir.path().join("venv");
    let made = Command::new("python3")
        .args(["-m", "venv"])
        .arg(&venv)
        .output()
        .unwrap();
    assert!(
        made.status.success(),
        "python3 -m venv failed (Debian: apt-get install python3-venv):\n{}",
        String::from_utf8_lossy(&made.stderr)
    );
    let python = venv.join("bin/python");
    let pip = |args: &[&str]| {
        let mut command = Command::new(&python);
        command
            .args(["-m", "pip", "--disable-pip-version-check", "--no-cache-dir"])
            .args(args)
            .current_dir(dir.path());
        command
    };
    let before = file_list(&venv);
    let _ = run(pip(&["install", "--no-index", "--quiet"]).arg(&wheel));

    check_binary("the console script", || {
        Command::new(venv.join("bin/slotgen"))
    });
    check_binary("python -m slotgen", || {
        let mut command = Command::new(&python);
        command.args(["-I", "-m", "slotgen"]);
        command
    });
    let program = PYTHON_PROGRAM
        .replace("PREFIX", &format!("{PREFIX:?}"))
        .replace("SUFFIX", &format!("{SUFFIX:?}"));
    // -I: the environment's own site-packages only, not this directory or PYTHONPATH
    let lines = run(Command::new(&python)
        .args(["-I", "-c", &program])
        .current_dir(dir.path()));
    check_against_server("the Python module", &lines);

    let _ = run(&mut pip(&["uninstall", "--yes", "--quiet", "slotgen"]));
    assert_same_files("pip install, then uninstall,", &before, &file_list(&venv));
}

/// The TypeScript consumer: the package's declarations under `tsc --strict`, one misuse
/// that must not compile, and then, run by Node, the module's key for every slot and its
/// slot of it.
const TYPESCRIPT_PROGRAM: &str = r#"
import { FIRST_SLOT, LAST_SLOT, keyForSlot, slot, type Key } from "slotgen";

const hex = (bytes: Uint8Array): string =>
  Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
const lines: string[] = [];
for (let s: number = FIRST_SLOT; s <= LAST_SLOT; s++) {
  const key: string = keyForSlot(PREFIX, s, SUFFIX);
  const bytes: Key = new TextEncoder().encode(key);
  lines.push(`${hex(bytes)} ${slot(key)}`);
}
// never called: it must not compile
export function misuse(): number {
  // @ts-expect-error a key is bytes or a string, not a number
  return slot(12);
}
console.log(lines.join("\n"));
"#;

#[test]
fn npm_package_installs_runs_and_uninstalls() {
    let Some(main) = artifact("slotgen-{V}.tgz") else {
        return;
    };
    if !require_tool("node") || !require_tool("npm") || !require_tool("redis-server") {
        return;
    }
    let platform = run(Command::new("node").args(["-p", "`${process.platform}-${process.arch}`"]));
    let Some(binary) = artifact(&format!("slotgen-{}-{{V}}.tgz", platform.trim())) else {
        return;
    };
    let Some(mut tsc) = tsc() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("project");
    std::fs::create_dir(&project).unwrap();
    std::fs::write(
        project.join("package.json"),
        "{ \"name\": \"consumer\", \"private\": true, \"type\": \"module\" }\n",
    )
    .unwrap();
    let program = TYPESCRIPT_PROGRAM
        .replace("PREFIX", &format!("{PREFIX:?}"))
        .replace("SUFFIX", &format!("{SUFFIX:?}"));
    std::fs::write(project.join("consumer.mts"), program).unwrap();
    // an empty cache, offline: npm can only take what the tarballs hold
    let cache = dir.path().join("npm-cache");
    let npm = |args: &[&str]| {
        let mut command = Command::new("npm");
        command
            .args(args)
            .args(["--offline", "--no-audit", "--no-fund", "--cache"])
            .arg(&cache)
            .current_dir(&project);
        command
    };
    let before = file_list(&project);
    let _ = run(npm(&["install", "--silent"]).arg(&main).arg(&binary));

    check_binary("npx slotgen", || {
        let mut command = Command::new("npx");
        command
            .args(["--offline", "--cache"])
            .arg(&cache)
            .arg("slotgen")
            .current_dir(&project);
        command
    });
    // a platform no package is shipped for: Node made to say it runs on riscv64
    let elsewhere = dir.path().join("elsewhere.cjs");
    std::fs::write(
        &elsewhere,
        "Object.defineProperty(process, \"arch\", { value: \"riscv64\" });\n",
    )
    .unwrap();
    let refused = Command::new("node")
        .arg("--require")
        .arg(&elsewhere)
        .args(["node_modules/slotgen/bin/slotgen.js", "--version"])
        .current_dir(&project)
        .output()
        .unwrap();
    let os = platform.trim().split('-').next().unwrap();
    assert_eq!(
        String::from_utf8_lossy(&refused.stderr),
        format!(
            "slotgen: error: no slotgen binary is shipped for {os}-riscv64 (shipped: {}): \
             install the binary from source with `cargo install slotgen-cli` (Rust 1.85+)\n",
            platform.trim()
        )
    );
    assert_eq!(refused.status.code(), Some(1));
    the_binary_ends_with_its_launcher(&project);

    let _ = run(tsc.arg("consumer.mts").current_dir(&project));
    let lines = run(Command::new("node")
        .arg("consumer.mjs")
        .current_dir(&project));
    check_against_server("the ES module", &lines);
    std::fs::remove_file(project.join("consumer.mjs")).unwrap();

    let _ = run(&mut npm(&[
        "uninstall",
        "--silent",
        "slotgen",
        &format!("slotgen-{}", platform.trim()),
    ]));
    // npm's own ledgers stay, as after any install: its lock files and the folders that
    // held the packages; none of them is the packages'
    let mut after = file_list(&project);
    for ledger in [
        "package-lock.json",
        "node_modules/.package-lock.json",
        "node_modules/.bin",
        "node_modules",
    ] {
        after.remove(Path::new(ledger));
    }
    assert_same_files("npm install, then uninstall,", &before, &after);
}

/// A SIGTERM sent to the launcher (`node_modules/.bin/slotgen`, what a supervisor started)
/// ends the binary it runs too: the binary, blocked reading keys from a pipe this test holds
/// open, would otherwise live on as an orphan, holding the write end of the launcher's
/// standard output. So the output's end of file, which comes only when every writer has
/// closed it, must come within seconds; the launcher's status is that of the signal.
fn the_binary_ends_with_its_launcher(project: &Path) {
    use std::io::Read;
    use std::os::unix::process::ExitStatusExt;
    use std::process::Stdio;
    use std::time::{Duration, Instant};

    let mut launcher = Command::new(project.join("node_modules/.bin/slotgen"))
        .arg("slot")
        .current_dir(project)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let keys = launcher.stdin.take().unwrap();
    let mut output = launcher.stdout.take().unwrap();
    // the launcher has started the binary once it has a child (Linux's /proc)
    let pid = launcher.id();
    let children = format!("/proc/{pid}/task/{pid}/children");
    let started = Instant::now();
    while std::fs::read_to_string(&children)
        .unwrap_or_default()
        .trim()
        .is_empty()
    {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "the launcher started no binary within 20 s"
        );
        // polled often, so that the signal comes as early as a supervisor's can: a launcher
        // that sets its handlers after starting the binary loses it in that gap
        std::thread::sleep(Duration::from_millis(1));
    }
    let killed = Command::new("kill")
        .args(["-TERM", &pid.to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let (done, ended) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut rest = Vec::new();
        let _ = output.read_to_end(&mut rest);
        let _ = done.send(());
    });
    let waited = Instant::now();
    let closed = ended.recv_timeout(Duration::from_secs(20)).is_ok();
    // whatever happened, the pipe the binary reads ends now
    drop(keys);
    assert!(
        closed,
        "the binary outlived its launcher: its standard output was still open {:?} after \
         SIGTERM to the launcher",
        waited.elapsed()
    );
    let status = launcher.wait().unwrap();
    assert_eq!(
        status.signal(),
        Some(15),
        "the launcher's status: {status:?}"
    );
}
