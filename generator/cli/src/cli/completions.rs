//! `slotgen completions` and `slotgen man`: shell completions (`clap_complete`) and man
//! pages (`clap_mangen`), both generated from the command-line definition
//! ([`super::help::command`]), so they list every command and option there is.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use clap_mangen::roff::{roman, Roff};
use clap_mangen::Man;

use super::help;

mod args;

pub use args::{CompletionsArgs, ManArgs};

pub fn run_completions(args: &CompletionsArgs) -> Result<ExitCode> {
    let mut command = help::command();
    let mut out = Vec::new();
    clap_complete::generate(args.shell, &mut command, "slotgen", &mut out);
    std::io::stdout().lock().write_all(&out)?;
    Ok(ExitCode::SUCCESS)
}

pub fn run_man(args: &ManArgs) -> Result<ExitCode> {
    let mut command = help::command().disable_help_subcommand(true);
    command.build();
    match &args.dir {
        None => {
            let mut out = Vec::new();
            page(&command, "", &mut out)?;
            std::io::stdout().lock().write_all(&out)?;
        }
        Some(dir) => {
            if dir.exists() && !dir.is_dir() {
                bail!(
                    "--dir {}: not a directory (a file of that name is there): give a directory",
                    slotgen::text::path(dir)
                );
            }
            if !dir.is_dir() {
                bail!(
                    "--dir {}: no such directory: create it first (`mkdir -p {}`)",
                    slotgen::text::path(dir),
                    slotgen::text::shell_quote(dir.as_os_str().as_encoded_bytes())
                );
            }
            write_page(&command, "", dir)?;
            for sub in command.get_subcommands() {
                write_page(sub, sub.get_name(), dir)?;
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Writes the page of `command` (`name` empty for `slotgen` itself) to its file in `dir`.
fn write_page(command: &clap::Command, name: &str, dir: &Path) -> Result<()> {
    let file = dir.join(if name.is_empty() {
        "slotgen.1".to_owned()
    } else {
        format!("slotgen-{name}.1")
    });
    let mut out = Vec::new();
    page(command, name, &mut out)?;
    std::fs::write(&file, out).with_context(|| format!("writing {}", slotgen::text::path(&file)))
}

/// The SYNOPSIS of `command`'s man page, with what its `--help` shows and clap_mangen's
/// leaves out: each option's value (`[--crc <NAME>]`) and the repetition of an option or an
/// argument given more than once (`[--template <TEMPLATE>]...`, `<SLOT>...`).
fn synopsis(command: &clap::Command) -> String {
    let mut words = vec![command
        .get_bin_name()
        .unwrap_or_else(|| command.get_name())
        .to_owned()];
    let repeated = |arg: &clap::Arg| {
        matches!(
            arg.get_action(),
            clap::ArgAction::Append | clap::ArgAction::Count
        ) || arg.get_num_args().is_some_and(|n| n.max_values() > 1)
    };
    let value = |arg: &clap::Arg| {
        let names = arg.get_value_names().map_or_else(
            || vec![arg.get_id().as_str().to_uppercase()],
            |names| names.iter().map(ToString::to_string).collect(),
        );
        let names: Vec<String> = names.iter().map(|n| format!("<{n}>")).collect();
        names.join(" ")
    };
    // an option or argument alone: `--crc <NAME>`, `-z|--null`, `<SLOT>`
    let alone = |arg: &clap::Arg| {
        let flag = match (arg.get_short(), arg.get_long()) {
            (Some(short), Some(long)) => format!("-{short}|--{long}"),
            (Some(short), None) => format!("-{short}"),
            (None, Some(long)) => format!("--{long}"),
            (None, None) => return value(arg),
        };
        if arg.get_num_args().is_some_and(|n| n.takes_values()) {
            format!("{flag} {}", value(arg))
        } else {
            flag
        }
    };
    // the groups of which one member must be given: `<TABLE.json|--tags <FILE>|...>`
    let groups: Vec<Vec<&clap::Arg>> = command
        .get_groups()
        .filter(|g| g.is_required_set())
        .map(|g| {
            let ids: Vec<&clap::Id> = g.get_args().collect();
            command
                .get_arguments()
                .filter(|a| ids.contains(&a.get_id()))
                .collect()
        })
        .collect();
    let grouped = |arg: &clap::Arg| groups.iter().flatten().any(|g| g.get_id() == arg.get_id());
    let visible: Vec<&clap::Arg> = command
        .get_arguments()
        .filter(|a| !a.is_hide_set() && !grouped(a))
        .collect();
    let shown = |arg: &clap::Arg| {
        let text = alone(arg);
        let text = match (arg.is_required_set(), arg.is_positional()) {
            (true, _) => text,
            (false, true) => format!("[{}]", text.trim_start_matches('<').trim_end_matches('>')),
            (false, false) => format!("[{text}]"),
        };
        let more = if repeated(arg) { "..." } else { "" };
        format!("{text}{more}")
    };
    // as the usage line: the options that may be left out, then those that may not
    let options = |required: bool| {
        visible
            .iter()
            .filter(move |a| !a.is_positional() && a.is_required_set() == required)
    };
    words.extend(options(false).map(|a| shown(a)));
    words.extend(options(true).map(|a| shown(a)));
    for group in &groups {
        let members: Vec<String> = group
            .iter()
            .map(|a| {
                let text = alone(a);
                if a.is_positional() {
                    // `TABLE.json`, inside the group's own `<...>`
                    text.trim_start_matches('<')
                        .trim_end_matches('>')
                        .to_owned()
                } else {
                    text
                }
            })
            .collect();
        words.push(format!("<{}>", members.join("|")));
    }
    words.extend(
        visible
            .iter()
            .filter(|a| a.is_positional())
            .map(|a| shown(a)),
    );
    if command.has_subcommands() {
        words.push("<COMMAND>".to_owned());
    }
    words.join(" ")
}

/// The man page of `command` in section 1: clap_mangen's sections, then EXAMPLES from
/// [`help::EXAMPLES`] (not clap_mangen's generic EXTRA section from the after-help text).
fn page(command: &clap::Command, name: &str, out: &mut Vec<u8>) -> Result<()> {
    let mut command = command.clone().after_help(None::<&str>);
    command.build();
    let usage = synopsis(&command);
    let command = command.override_usage(usage);
    let man = Man::new(command.clone())
        .source(concat!("slotgen ", env!("CARGO_PKG_VERSION")))
        .manual("slotgen manual");
    man.render_title(out)?;
    man.render_name_section(out)?;
    man.render_synopsis_section(out)?;
    man.render_description_section(out)?;
    if command.get_arguments().any(|a| !a.is_hide_set()) {
        man.render_options_section(out)?;
    }
    if command.has_subcommands() {
        man.render_subcommands_section(out)?;
    }
    let examples = help::examples_of(name);
    if !examples.is_empty() {
        let mut roff = Roff::new();
        roff.control("SH", ["EXAMPLES"]);
        for e in examples {
            roff.control("TP", []);
            roff.text([roman(e.line)]);
            roff.text([roman(e.what)]);
        }
        roff.to_writer(out)?;
    }
    if name.is_empty() {
        man.render_version_section(out)?;
    }
    Ok(())
}
