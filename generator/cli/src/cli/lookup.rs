//! `slotgen tag` and `slotgen key`.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;

use super::{SlotRange, SpecArgs};

#[derive(Debug, Args)]
pub struct TagArgs {
    #[command(flatten)]
    spec: SpecArgs,
    /// Print every tag that lands on each slot, one line each, the canonical tag first.
    #[arg(long)]
    all: bool,
    /// Slots, each a number or an inclusive range such as 0-16383.
    #[arg(value_name = "SLOT", required = true)]
    ranges: Vec<SlotRange>,
}

#[derive(Debug, Args)]
pub struct KeyArgs {
    #[command(flatten)]
    spec: SpecArgs,
    /// Bytes before the `{tag}`; must not contain `{`.
    #[arg(long, value_name = "P", default_value = "")]
    prefix: String,
    /// Bytes after the `{tag}`; anything goes.
    #[arg(long, value_name = "S", default_value = "")]
    suffix: String,
    /// Print a key for every tag that lands on each slot, one line each.
    #[arg(long)]
    all: bool,
    /// Slots, each a number or an inclusive range such as 0-16383.
    #[arg(value_name = "SLOT", required = true)]
    ranges: Vec<SlotRange>,
}

pub fn run_tag(args: &TagArgs) -> Result<ExitCode> {
    print_lines(&args.spec, &args.ranges, args.all, b"", b"", false)
}

pub fn run_key(args: &KeyArgs) -> Result<ExitCode> {
    print_lines(
        &args.spec,
        &args.ranges,
        args.all,
        args.prefix.as_bytes(),
        args.suffix.as_bytes(),
        true,
    )
}

/// Prints `<slot>\t<tag>` or `<slot>\t<prefix>{<tag>}<suffix>` for every slot of `ranges`.
fn print_lines(
    spec: &SpecArgs,
    ranges: &[SlotRange],
    all: bool,
    prefix: &[u8],
    suffix: &[u8],
    as_key: bool,
) -> Result<ExitCode> {
    let derivation = spec.derive()?;
    let table = derivation.table();
    // Check every range and the prefix before printing anything.
    let mut slots = Vec::new();
    for range in ranges {
        slots.extend(range.slots(table.slots())?);
    }
    if as_key {
        if let Some(&slot) = slots.first() {
            table
                .key_for_slot(prefix, slot, suffix)
                .map_err(crate::exit::usage)?;
        }
    }
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for slot in slots {
        let tags = table.tags_for_slot(slot)?;
        let count = if all { tags.len() } else { 1 };
        for tag in tags.take(count) {
            write!(out, "{slot}\t")?;
            if as_key {
                out.write_all(prefix)?;
                out.write_all(b"{")?;
                out.write_all(tag.as_ref())?;
                out.write_all(b"}")?;
                out.write_all(suffix)?;
            } else {
                out.write_all(tag.as_ref())?;
            }
            writeln!(out)?;
        }
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
