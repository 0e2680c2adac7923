//! What the harness (`tests/tests/emitted.rs`) does not check of the Elixir module: its
//! answers against the seed document's `EchoMQ.Keyspace` functions, two modules of different
//! specs in one program, and the names `--name` takes.

use std::path::{Path, PathBuf};
use std::process::Command;

use slotgen::emit::language::{self, Options};
use slotgen_tests::emitted::{self, fresh_dir, keys, run};
use slotgen_tests::{require_tool, speakers, workspace_root};

/// Prints the `pair` lines of [`speakers`] for the modules `A` and `B`, then the two values
/// the first seed document pins for `A`.
const PAIR_DRIVER: &str = include_str!("../../drivers/elixir/pair.exs");

/// Prints `seed <key> <slot>` from the seed document's `slot/1` and `hashtag <key> <hashtag>`
/// from its `hashtag/1` for every key of the keys file.
const SEED_DRIVER: &str = include_str!("../../drivers/elixir/seed.exs");

/// The Elixir module of `derivation` named `name`, through the registry.
fn module(derivation: &slotgen::Derivation, name: &str) -> Result<String, slotgen::Error> {
    language::find("elixir").unwrap().emit(
        derivation,
        &Options {
            name: Some(name),
            ..Options::default()
        },
    )
}

/// Compiles `files` of `dir` into `dir/ebin` with `elixirc --warnings-as-errors`.
fn elixirc(dir: &Path, files: &[&str]) {
    let _ = run(Command::new("elixirc")
        .arg("--warnings-as-errors")
        .arg("-o")
        .arg(dir.join("ebin"))
        .args(files.iter().map(|f| dir.join(f))));
}

/// Runs `elixir -pa dir/ebin script args`, and returns its standard output and error.
fn elixir(dir: &Path, script: &str, args: &[&Path]) -> (String, String) {
    let output = Command::new("elixir")
        .arg("-pa")
        .arg(dir.join("ebin"))
        .arg(dir.join(script))
        .args(args)
        .output()
        .expect("running elixir");
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(output.status.success(), "elixir {script} failed:\n{stderr}");
    (
        String::from_utf8(output.stdout).expect("drivers print ASCII"),
        stderr,
    )
}

#[test]
fn two_elixir_modules_of_different_specs_in_one_program() {
    if !require_tool("elixirc") || !require_tool("elixir") {
        return;
    }
    let dir = fresh_dir(Path::new(env!("CARGO_TARGET_TMPDIR")), "elixir-pair");
    for case in speakers::pair_cases() {
        let text = module(&case.derivation, &case.name.to_uppercase()).unwrap();
        std::fs::write(dir.join(format!("{}.ex", case.name)), text).unwrap();
    }
    std::fs::write(dir.join("pair.exs"), PAIR_DRIVER).unwrap();
    elixirc(&dir, &["a.ex", "b.ex"]);
    let (output, stderr) = elixir(&dir, "pair.exs", &[]);
    speakers::check_pair("Elixir", &output);
    // The first seed document's own pins: `slot("123456789") == 12739` and
    // `emq:{orders}:pending` on slot 105.
    assert_eq!(stderr, "seed\t12739\t105\n");
}

/// The first seed document: `shared/seeds/000_637224c5d83c2784.txt` beside the workspace or
/// beside one of its ancestors.
fn seed_path() -> Option<PathBuf> {
    workspace_root()
        .ancestors()
        .skip(1)
        .map(|dir| dir.join("shared/seeds/000_637224c5d83c2784.txt"))
        .find(|path| path.is_file())
}

/// The seed document's Elixir functions (`hashtag/1`, `slot/1`, `crc16/2`) as a module
/// `Seed`: its lines from `def hashtag(key) do` to the first Rust comment (`// `), less
/// the prose headings between its code blocks.
fn seed_module() -> Option<String> {
    let text = std::fs::read_to_string(seed_path()?).ok()?;
    let lines: Vec<&str> = text.lines().collect();
    let start = lines.iter().position(|l| *l == "def hashtag(key) do")?;
    let end = start + lines[start..].iter().position(|l| l.starts_with("// "))?;
    let code: Vec<&str> = lines[start..end]
        .iter()
        .copied()
        .filter(|l| !l.contains(" \u{2014} ") || l.starts_with('#'))
        .collect();
    Some(format!("defmodule Seed do\n{}\nend\n", code.join("\n")))
}

#[test]
fn elixir_module_matches_seed_module_on_every_key() {
    let Some(seed) = seed_module() else {
        // a document, not a program: its absence skips even under SLOTGEN_REQUIRE_TOOLS (a
        // clean checkout alone has no shared/ beside it)
        eprintln!("skipping: the seed document shared/seeds/000_637224c5d83c2784.txt is not beside the workspace");
        return;
    };
    if !require_tool("elixirc") || !require_tool("elixir") {
        return;
    }
    let dir = fresh_dir(Path::new(env!("CARGO_TARGET_TMPDIR")), "elixir-seed");
    std::fs::write(dir.join("seed.ex"), seed).unwrap();
    std::fs::write(dir.join("seed.exs"), SEED_DRIVER).unwrap();
    let _ = run(Command::new("elixirc")
        .arg("-o")
        .arg(dir.join("ebin"))
        .arg(dir.join("seed.ex")));
    let keys = keys();
    let keys_path = emitted::write_keys(&dir, &keys);
    let (seed_output, _) = elixir(&dir, "seed.exs", &[&keys_path]);
    let default = slotgen::derive(&slotgen::Spec::default()).unwrap();
    std::fs::write(
        dir.join("slots.ex"),
        module(&default, "EchoMQ.Keyspace").unwrap(),
    )
    .unwrap();
    std::fs::write(
        dir.join("ours.exs"),
        SEED_DRIVER.replace("Seed.", "EchoMQ.Keyspace."),
    )
    .unwrap();
    elixirc(&dir, &["slots.ex"]);
    let (ours, _) = elixir(&dir, "ours.exs", &[&keys_path]);
    assert_eq!(seed_output.lines().count(), 2 * keys.len());
    assert_eq!(
        ours, seed_output,
        "the emitted module and the seed's disagree"
    );
}

#[test]
fn elixir_names_are_checked() {
    let d = slotgen::derive(&slotgen::Spec::default()).unwrap();
    for bad in [
        "",
        "echo_mq",
        "EchoMQ.",
        "EchoMQ..Keyspace",
        ":atom",
        "Kernel",
        "Ech-o",
    ] {
        let error = module(&d, bad).unwrap_err();
        assert!(
            error
                .to_string()
                .contains("is not a name for `emit elixir`"),
            "{bad}: {error}"
        );
    }
}
