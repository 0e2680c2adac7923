//! `slotgen tag` and `slotgen key`.

use std::process::ExitCode;

use anyhow::Result;
use clap::Args;

use super::output::{Field, OutputArgs, Records};
use super::{SlotRange, SpecArgs};

#[derive(Debug, Args)]
pub struct TagArgs {
    #[command(flatten)]
    spec: SpecArgs,
    /// Print every tag that lands on each slot, one line each, the canonical tag first.
    #[arg(long)]
    all: bool,
    #[command(flatten)]
    output: OutputArgs,
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
    #[command(flatten)]
    output: OutputArgs,
    /// Slots, each a number or an inclusive range such as 0-16383.
    #[arg(value_name = "SLOT", required = true)]
    ranges: Vec<SlotRange>,
}

pub fn run_tag(args: &TagArgs) -> Result<ExitCode> {
    print_lines(
        &args.spec,
        &args.ranges,
        args.all,
        b"",
        b"",
        false,
        &args.output,
    )
}

pub fn run_key(args: &KeyArgs) -> Result<ExitCode> {
    print_lines(
        &args.spec,
        &args.ranges,
        args.all,
        args.prefix.as_bytes(),
        args.suffix.as_bytes(),
        true,
        &args.output,
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
    output: &OutputArgs,
) -> Result<ExitCode> {
    output.check(false)?;
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
    let out = std::io::BufWriter::new(std::io::stdout().lock());
    let (command, names) = if as_key {
        ("key", &["slot", "key"])
    } else {
        ("tag", &["slot", "tag"])
    };
    let mut records = Records::start(out, output, command, names)?;
    let mut key = Vec::new();
    for slot in slots {
        let tags = table.tags_for_slot(slot)?;
        let count = if all { tags.len() } else { 1 };
        for tag in tags.take(count) {
            let bytes = if as_key {
                key.clear();
                key.extend_from_slice(prefix);
                key.push(b'{');
                key.extend_from_slice(tag.as_ref());
                key.push(b'}');
                key.extend_from_slice(suffix);
                &key[..]
            } else {
                tag.as_ref()
            };
            records.record(&[Field::Int(slot.into()), Field::Bytes(bytes)])?;
        }
    }
    records.finish()?;
    Ok(ExitCode::SUCCESS)
}
