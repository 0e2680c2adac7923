//! `slotgen --version`, the examples at the end of each command's `--help` (each one run),
//! the bash completion (sourced in a real bash, its completion function called as bash's
//! programmable completion calls it), and the man pages (rendered by groff and man).

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::{require_tool, slotgen, stdout};

/// PATH with the directory of the `slotgen` under test first.
fn path_with_slotgen() -> std::ffi::OsString {
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_slotgen"));
    let mut dirs = vec![bin.parent().unwrap().to_path_buf()];
    dirs.extend(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    ));
    std::env::join_paths(dirs).unwrap()
}

/// The commands `slotgen --help` lists, read from its `Commands:` section.
fn commands() -> Vec<String> {
    let help = stdout(&slotgen(&["--help"]));
    let section = help
        .split("Commands:\n")
        .nth(1)
        .expect("a Commands: section");
    section
        .lines()
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_owned)
        .collect()
}

#[test]
fn version_names_the_version_and_the_default_spec() {
    let out = stdout(&slotgen(&["--version"]));
    assert_eq!(
        out,
        format!(
            "slotgen {} (default spec: CRC-16/XMODEM, 16384 slots, 4-symbol tags over `@ABCDEFGHIJKLMNO`)\n",
            env!("CARGO_PKG_VERSION")
        )
    );
}

/// Each command's `--help` ends with two or three examples, and each one runs, as written,
/// in bash in an empty directory, and exits 0.
#[test]
fn every_help_ends_with_examples_that_run() {
    let commands = commands();
    assert!(commands.len() >= 10, "{commands:?}");
    for command in &commands {
        let help = stdout(&slotgen(&[command, "--help"]));
        let tail = help
            .split("\nExamples:\n")
            .nth(1)
            .unwrap_or_else(|| panic!("`slotgen {command} --help` has no Examples: {help}"));
        let lines: Vec<&str> = tail
            .lines()
            .filter_map(|l| l.strip_prefix("  $ "))
            .collect();
        assert!(
            (2..=3).contains(&lines.len()),
            "`slotgen {command} --help`: {} examples: {tail}",
            lines.len()
        );
        assert!(
            tail.lines()
                .all(|l| l.starts_with("  # ") || l.starts_with("  $ ")),
            "the examples end the help: {tail}"
        );
        for line in lines {
            if line.contains("redis://127.0.0.1:7000") {
                // needs a live cluster: tests/tests/cluster_live.rs runs it against one
                eprintln!("`{line}` runs in cluster_live, against a cluster it starts");
                continue;
            }
            let dir = tempfile::tempdir().unwrap();
            let out = Command::new("bash")
                .args(["-o", "pipefail", "-c", line])
                .current_dir(dir.path())
                .env("PATH", path_with_slotgen())
                .output()
                .expect("bash runs");
            assert!(
                out.status.success(),
                "`{line}` exits {:?}: {}",
                out.status.code(),
                String::from_utf8_lossy(&out.stderr)
            );
            let wrote_file = std::fs::read_dir(dir.path()).unwrap().next().is_some();
            assert!(
                !out.stdout.is_empty() || wrote_file || line.starts_with("source "),
                "`{line}` printed nothing and wrote no file"
            );
        }
    }
}

/// Sources `slotgen completions bash` in bash and calls its completion function for the
/// command line `words` with the cursor at the end of the last word, as bash's programmable
/// completion does; returns the candidates (`COMPREPLY`).
fn bash_complete(script: &Path, words: &[&str]) -> Vec<String> {
    let cword = words.len() - 1;
    let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
    let program = format!(
        r#"source '{}'
complete -p slotgen
COMP_WORDS=({})
COMP_CWORD={cword}
COMP_LINE="${{COMP_WORDS[*]}}"
COMP_POINT=${{#COMP_LINE}}
_slotgen slotgen "${{COMP_WORDS[COMP_CWORD]}}" "${{COMP_WORDS[COMP_CWORD-1]}}"
printf '%s\n' "${{COMPREPLY[@]}}"
"#,
        script.display(),
        quoted.join(" ")
    );
    let out = Command::new("bash")
        .args(["--norc", "--noprofile", "-c", &program])
        .output()
        .expect("bash runs");
    let text = stdout(&out);
    let mut lines = text.lines();
    let registration = lines.next().unwrap_or_default();
    assert!(
        registration.starts_with("complete ")
            && registration.contains(" -F _slotgen ")
            && registration.ends_with(" slotgen"),
        "`complete -p slotgen` says {registration:?}"
    );
    lines.map(str::to_owned).collect()
}

#[test]
fn bash_completes_commands_options_and_values() {
    if !require_tool("bash") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("slotgen.bash");
    std::fs::write(&script, slotgen(&["completions", "bash"]).stdout).unwrap();

    assert_eq!(bash_complete(&script, &["slotgen", "de"]), ["derive"]);
    let all = bash_complete(&script, &["slotgen", ""]);
    for command in commands() {
        assert!(all.contains(&command), "{command} not in {all:?}");
    }
    assert_eq!(
        bash_complete(&script, &["slotgen", "derive", "--js"]),
        ["--json"]
    );
    assert_eq!(
        bash_complete(&script, &["slotgen", "key", "--prefix-"]),
        ["--prefix-hex"]
    );
    assert_eq!(
        bash_complete(&script, &["slotgen", "emit", "py"]),
        ["python"]
    );
}

#[test]
fn zsh_and_fish_completions_name_every_command() {
    for shell in ["zsh", "fish", "elvish", "powershell"] {
        let script = stdout(&slotgen(&["completions", shell]));
        for command in commands() {
            assert!(script.contains(&command), "{shell}: no {command}");
        }
    }
    let refused = slotgen(&["completions", "tcsh"]);
    assert_eq!(refused.status.code(), Some(2));
}

/// groff renders the page with every warning on (`-ww`) and says nothing; returns the page
/// as plain text, one long line per paragraph.
fn render(page: &Path) -> String {
    let out = Command::new("groff")
        .args(["-man", "-Tutf8", "-ww", "-rLL=250n", "-P-cbou"])
        .arg(page)
        .output()
        .expect("groff runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && stderr.is_empty(),
        "groff -ww on {}: {stderr}",
        page.display()
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .replace(['\u{2010}', '\u{2212}'], "-")
        .replace(['\u{2018}', '\u{2019}'], "'")
}

#[test]
fn man_pages_render_without_warnings() {
    if !require_tool("groff") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("slotgen.1");
    let man = slotgen(&["man"]);
    std::fs::write(&page, stdout(&man)).unwrap();
    let text = render(&page);
    for section in [
        "NAME",
        "SYNOPSIS",
        "DESCRIPTION",
        "OPTIONS",
        "SUBCOMMANDS",
        "VERSION",
    ] {
        assert!(text.lines().any(|l| l == section), "no {section} in {text}");
    }
    let commands = commands();
    for command in &commands {
        assert!(
            text.contains(&format!("slotgen-{command}(1)")),
            "slotgen.1 does not list {command}: {text}"
        );
    }

    // --dir: slotgen.1, the same page, and one page per command with its options and its
    // examples.
    let pages = tempfile::tempdir().unwrap();
    stdout(&slotgen(&["man", "--dir", pages.path().to_str().unwrap()]));
    assert_eq!(
        std::fs::read(pages.path().join("slotgen.1")).unwrap(),
        man.stdout
    );
    for command in &commands {
        let page = pages.path().join(format!("slotgen-{command}.1"));
        let text = render(&page);
        assert!(text.contains("EXAMPLES"), "{command}: {text}");
        let help = stdout(&slotgen(&[command, "--help"]));
        for line in help.lines().filter_map(|l| l.strip_prefix("  $ ")) {
            assert!(
                text.contains(line),
                "slotgen-{command}.1 lacks `{line}`: {text}"
            );
        }
        for option in help
            .split_whitespace()
            .filter(|w| w.starts_with("--") && w.len() > 2)
        {
            let option = option.trim_end_matches([',', '.', ')', '`', ':']);
            assert!(text.contains(option), "slotgen-{command}.1 lacks {option}");
        }
    }

    // man itself, with its warnings on.
    if require_tool("man") {
        let out = Command::new("man")
            .args(["--warnings", "-l"])
            .arg(&page)
            .env("MANWIDTH", "120")
            .env("MANPAGER", "cat")
            .output()
            .expect("man runs");
        assert!(
            out.status.success() && out.stderr.is_empty(),
            "man -l: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(String::from_utf8_lossy(&out.stdout).contains("SUBCOMMANDS"));
    }
}

/// `man --dir` of a directory that does not exist prints the command that creates it, quoted
/// for a shell: run as printed by bash, it creates that one directory (a newcomer's `a b;x`
/// once made `a` and `b;x`'s parts and ran `x`), and `man --dir` then writes the pages.
#[test]
fn man_dir_that_does_not_exist_prints_a_mkdir_that_creates_it() {
    if !require_tool("bash") {
        return;
    }
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("a b;touch x\u{1b}");
    let out = slotgen(&["man", "--dir", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(!stderr.contains('\u{1b}'), "{stderr}");
    let command = stderr
        .split_once("(`")
        .and_then(|(_, rest)| rest.split_once("`)"))
        .map(|(command, _)| command)
        .unwrap_or_else(|| panic!("no command in {stderr}"));
    assert!(command.starts_with("mkdir -p "), "{command}");
    let ran = Command::new("bash")
        .args(["-c", command])
        .current_dir(root.path())
        .status()
        .expect("bash runs");
    assert!(ran.success(), "{command}");
    assert!(dir.is_dir(), "`{command}` did not create {dir:?}");
    let made: Vec<_> = std::fs::read_dir(root.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(
        made,
        [dir.file_name().unwrap()],
        "`{command}` made more than the directory"
    );
    stdout(&slotgen(&["man", "--dir", dir.to_str().unwrap()]));
    assert!(dir.join("slotgen.1").is_file());
}

/// `emit --help` says, for every language that takes `--name`, what it names and its
/// default, and each default it states is the name in what `emit` writes without `--name`.
#[test]
fn emit_name_help_names_every_language_and_its_true_default() {
    let help = stdout(&slotgen(&["emit", "--help"]));
    let name_help = help
        .split("--name <NAME>\n")
        .nth(1)
        .and_then(|rest| rest.split("\n\n").next())
        .unwrap_or_else(|| panic!("`emit --help` has no --name: {help}"));
    let name_help = name_help.split_whitespace().collect::<Vec<_>>().join(" ");
    // Every language whose output carries a name, written out (not read from the registry).
    for (language, extra) in [
        ("rust", None),
        ("c", None),
        ("java", None),
        ("ruby", None),
        ("php", None),
        ("elixir", None),
        ("csharp", None),
        ("erlang", None),
        ("redis-function", None),
        ("lua --for-script", Some("--for-script")),
    ] {
        let after = name_help
            .split(&format!("{language}: "))
            .nth(1)
            .unwrap_or_else(|| panic!("--name's help misses {language}: {name_help}"));
        let default = after
            .split("(default `")
            .nth(1)
            .and_then(|d| d.split('`').next())
            .unwrap_or_else(|| panic!("--name's help gives {language} no default: {name_help}"));
        let name = language.split(' ').next().unwrap();
        let mut args = vec!["emit", name];
        args.extend(extra);
        let module = stdout(&slotgen(&args));
        // A name with a namespace or package is written in parts.
        let last = default.rsplit(['.', '\\']).next().unwrap();
        assert!(
            module.contains(last),
            "`slotgen emit {language}` does not carry the default `{default}` its help states"
        );
    }
}

/// `emit --help` lists every value of `emit LANGUAGE` that the registry has (its languages
/// and `vectors`) with its summary, and `--package`'s help states, for Go, the default
/// that `emit go` writes without it (written out here, not read from the registry).
#[test]
fn emit_help_lists_the_registry_and_the_true_package_default() {
    let help = stdout(&slotgen(&["emit", "--help"]));
    let flat = |text: &str| text.split_whitespace().collect::<Vec<_>>().join(" ");
    let help_flat = flat(&help);
    for (name, summary) in slotgen::emit::language::targets() {
        let listed = format!("- {name}: {}", flat(summary));
        assert!(
            help_flat.contains(&listed),
            "`emit --help` misses `{listed}`"
        );
    }
    let package_help = help
        .split("--package <NAME>\n")
        .nth(1)
        .and_then(|rest| rest.split("\n\n").next())
        .unwrap_or_else(|| panic!("`emit --help` has no --package: {help}"));
    assert_eq!(
        flat(package_help),
        "The package of what is emitted: go: the package (default `slotgen`)"
    );
    assert!(stdout(&slotgen(&["emit", "go"])).contains("\npackage slotgen\n"));
    let refused = slotgen(&["emit", "go", "--package", "type"]);
    assert_eq!(refused.status.code(), Some(2));
}

/// The SYNOPSIS of each man page dropped what `--help` shows: the values (`[--crc]` for
/// `--crc <NAME>`) and the repetition (`<SLOT>` for `<SLOT>...`). Each option as its
/// `--help` lists it, and the arguments of its usage line, are in the SYNOPSIS as written.
#[test]
fn man_synopsis_shows_the_values_and_repetitions_help_shows() {
    let pages = tempfile::tempdir().unwrap();
    stdout(&slotgen(&["man", "--dir", pages.path().to_str().unwrap()]));
    for command in commands() {
        let page =
            std::fs::read_to_string(pages.path().join(format!("slotgen-{command}.1"))).unwrap();
        let synopsis = page
            .split(".SH SYNOPSIS\n")
            .nth(1)
            .and_then(|rest| rest.lines().next())
            .expect("a SYNOPSIS line")
            .replace("\\-", "-")
            .replace("\\fB", "")
            .replace("\\fR", "");
        let help = stdout(&slotgen(&[&command, "--help"]));
        let usage = help
            .lines()
            .find_map(|l| l.strip_prefix("Usage: "))
            .expect("a usage line");
        let arguments = usage
            .strip_prefix(&format!("slotgen {command}"))
            .expect("the usage names the command")
            .replace(" [OPTIONS]", "");
        assert!(
            synopsis.contains(arguments.trim()),
            "slotgen-{command}.1: `{}` not in `{synopsis}`",
            arguments.trim()
        );
        // `  -z, --null` and `      --crc <NAME>`: the option and its values
        for line in help.lines().filter(|l| l.trim_start().starts_with('-')) {
            let option = line.trim().rsplit(", ").next().unwrap_or_default();
            let option = option.split("  ").next().unwrap_or_default();
            if option.starts_with("--") {
                assert!(
                    synopsis.contains(option),
                    "slotgen-{command}.1: `{option}` not in `{synopsis}`"
                );
            }
        }
    }
}
