//! Fixes that a refusal prints, run as printed: each is a command line a user can paste
//! (through `bash`), and it does what the refusal says.

use std::process::Command;

use crate::common::{self, Run};

fn exec(args: &[&str]) -> Run {
    Run::from(common::slotgen(args))
}

/// Runs `slotgen WORDS` through `bash`, `words` as pasted from a message.
fn pasted(words: &str) -> Run {
    let output = Command::new("bash")
        .arg("-c")
        .arg(format!("\"$SLOTGEN\" {words}"))
        .env("SLOTGEN", env!("CARGO_BIN_EXE_slotgen"))
        .output()
        .expect("bash runs");
    Run::from(output)
}

/// The text between `before` and the next `after` in `text`.
fn between<'a>(text: &'a str, before: &str, after: &str) -> &'a str {
    let (_, rest) = text
        .split_once(before)
        .unwrap_or_else(|| panic!("`{before}` in {text}"));
    rest.split_once(after)
        .unwrap_or_else(|| panic!("`{after}` in {text}"))
        .0
}

/// An alphabet that is not affine was refused with "the largest affine subset of this
/// alphabet is `hex:0001`: use that", and `--alphabet hex:0001` is the bytes `h`, `e`, `x`,
/// ...: the way out is an option that takes the subset, and run as printed it derives a
/// table of exactly those symbols (the subsets written out here by hand: a pair of
/// distinct bytes is always affine, and no 3 of these 4 bytes is a power of two).
#[test]
fn the_largest_affine_subset_is_printed_as_an_option_that_takes_it() {
    for (args, fix, alphabet) in [
        (
            ["--alphabet-hex", "00010204"],
            "--alphabet-hex 0001",
            r#""\x00\x01""#,
        ),
        (["--alphabet", "AB'D"], r"--alphabet $'\x27A'", r#""'A""#),
        (["--alphabet-hex", "41422044"], "--alphabet ' A'", r#"" A""#),
        // a word that begins with `-` is joined by `=`, or it is read as an option
        (["--alphabet-hex", "2d2e3031"], "--alphabet='-.'", r#""-.""#),
    ] {
        let refused = exec(&["derive", args[0], args[1]]);
        refused.fails_with_code(2, "the largest affine subset of this alphabet is");
        let printed = between(
            &refused.stderr,
            "let slotgen choose (`",
            "`, or `--charset`)",
        );
        assert_eq!(printed, fix, "{}", refused.stderr);
        let run = pasted(&format!("derive {printed}"));
        assert_eq!(run.code, Some(0), "{printed}: {}", run.stderr);
        run.prints(&format!("alphabet:   {alphabet} (2 symbols"))
            .prints("verified:   16384/16384 slots");
    }
}

/// `--charset 'A-Z'` was the three bytes `A`, `-`, `Z` (alphabet `-Z`, 14-symbol tags,
/// without a word): a `-` between two bytes outside brackets is refused, naming the range's
/// bracket expression and the bytes' own; each runs as printed and gives what it says (an
/// alphabet inside the range; one inside the three bytes). A `-` first or last is a byte,
/// as docs/schemes.md says.
#[test]
fn a_charset_that_reads_as_a_range_names_the_range_and_the_bytes() {
    for (spec, range, bytes, members) in [
        ("A-Z", "[A-Z]", "[-AZ]", ('A'..='Z').collect::<String>()),
        (
            "a-z0-9",
            "[a-z0-9]",
            "[-09az]",
            ('a'..='z').chain('0'..='9').collect(),
        ),
        ("0-9", "[0-9]", "[-09]", ('0'..='9').collect()),
    ] {
        let refused = exec(&["derive", "--charset", spec]);
        refused.fails_with_code(
            2,
            &format!("outside brackets `-` is a byte, not a range: write `{range}` for the range, or `{bytes}` for these bytes"),
        );
        for (fix, members) in [(range, members.as_str()), (bytes, &*format!("-{spec}"))] {
            let run = pasted(&format!("derive --charset '{fix}'"));
            assert_eq!(run.code, Some(0), "{fix}: {}", run.stderr);
            let chosen = between(&run.stderr, ": alphabet `", "` (");
            assert!(
                chosen.chars().all(|c| members.contains(c)),
                "{fix}: {chosen} is not inside {members}"
            );
        }
    }
    for spec in ["xyz", "ab-", "-ab"] {
        let charset = format!("--charset={spec}");
        let run = exec(&["shortest", &charset, "--max-len", "1", "--allow-gaps"]);
        assert_eq!(run.code, Some(0), "{spec}: {}", run.stderr);
    }
}

/// `--timeout -1s` said "takes no argument `-1` ... (`--timeout=-1`)": clap split `-1s`
/// into short options. The message names the word as typed and its `=` form, which then
/// gets `--timeout`'s own rule. `--max-moves` too large said "give at most this many slot
/// moves" without a number: it names the largest it takes, which is then taken.
#[test]
fn a_value_read_as_options_is_named_as_typed_and_a_too_large_number_its_largest() {
    let refused = exec(&["load", "--redis", "redis://127.0.0.1:1", "--timeout", "-1s"]);
    refused.fails_with_code(
        2,
        "`slotgen load` takes no argument `-1s`: a value that begins with `-` is read as an option; give an option's value joined to it with `=` (`--timeout=-1s`)",
    );
    let printed = between(&refused.stderr, "(`", "`)");
    let run = pasted(&format!("load --redis redis://127.0.0.1:1 {printed}"));
    run.fails_with_code(2, "--timeout: `-1s` is not a timeout");

    let refused = exec(&[
        "rebalance",
        "--redis",
        "redis://127.0.0.1:1",
        "--by",
        "keys",
        "--max-moves",
        "99999999999999999999",
    ]);
    let largest = usize::MAX.to_string();
    refused.fails_with_code(2, &format!("a number from 0 to {largest}"));
    // taken: the run goes on to the server (none at port 1)
    let run = exec(&[
        "rebalance",
        "--redis",
        "redis://127.0.0.1:1",
        "--by",
        "keys",
        "--max-moves",
        &largest,
    ]);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert!(!run.stderr.contains("--max-moves"), "{}", run.stderr);
}

/// `emit python -o .py` wrote a module named `` (no `import` finds it), and `-o
/// slots.pyc` Python source into a file Python reads as bytecode: both are refused naming
/// the file to write, which written as printed holds the module as an ordinary name does.
/// Every language keeps writing its ordinary file names.
#[test]
fn a_file_its_toolchain_reads_as_something_else_is_refused_naming_the_one_to_write() {
    let dir = tempfile::tempdir().unwrap();
    let at = |name: &str| dir.path().join(name).to_str().unwrap().to_owned();
    for (language, file, reads_as, fix) in [
        ("python", ".py", "has no name before `.py`", "slotgen.py"),
        (
            "python",
            "slots.pyc",
            "read as compiled bytecode",
            "slots.py",
        ),
        (
            "java",
            "RedisSlots.class",
            "read as a compiled class",
            "RedisSlots.java",
        ),
        (
            "erlang",
            "redis_slots.beam",
            "read as compiled BEAM code",
            "redis_slots.erl",
        ),
        (
            "elixir",
            "slots.beam",
            "read as compiled BEAM code",
            "slots.ex",
        ),
        ("c", "slotgen.o", "read as an object file", "slotgen.h"),
        ("lua", "slots.so", "read as a shared library", "slots.lua"),
        ("go", ".go", "has no name before `.go`", "slotgen.go"),
        ("rust", "slots.SO", "read as a shared library", "slots.rs"),
    ] {
        exec(&["emit", language, "-o", &at(file)])
            .fails_with_code(2, &format!("`-o {file}`: "))
            .fails_with_code(2, reads_as)
            .fails_with_code(2, &format!("write `-o {fix}`"));
        assert!(!dir.path().join(file).exists(), "{file} is not written");
        exec(&["emit", language, "-o", &at(fix)]).ok();
        let written = std::fs::read_to_string(dir.path().join(fix)).unwrap();
        assert!(written.contains("slotgen"), "{fix}");
    }
    for language in slotgen::emit::language::LANGUAGES {
        for name in [language.file_name, "slots.txt"] {
            let file = at(name);
            exec(&["emit", language.name, "-o", &file]).ok();
            let standard = common::slotgen(&["emit", language.name]).stdout;
            let standard = String::from_utf8(standard).unwrap();
            let written = std::fs::read_to_string(&file).unwrap();
            assert_eq!(written, standard, "{} -o {name}", language.name);
        }
    }
}
