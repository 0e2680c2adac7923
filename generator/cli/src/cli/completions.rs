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

/// The man page of `command` in section 1: clap_mangen's sections, then EXAMPLES from
/// [`help::EXAMPLES`] (not clap_mangen's generic EXTRA section from the after-help text).
fn page(command: &clap::Command, name: &str, out: &mut Vec<u8>) -> Result<()> {
    let command = command.clone().after_help(None::<&str>);
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
