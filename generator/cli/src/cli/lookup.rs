//! `slotgen tag` and `slotgen key`.

use std::process::ExitCode;

use anyhow::Result;
use clap::Args;

use super::output::{Field, OutputArgs, Records};
use slotgen_tables::{SchemeTable, SlotTable, MAX_TAG_LEN};

use super::{Derived, SlotRange, SpecArgs};

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

/// Prints `<slot>\t<tag>` or `<slot>\t<key>` (`<prefix>{<tag>}<suffix>`, with the
/// scheme's delimiters; the tag alone for a whole-key scheme) for every slot of `ranges`.
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
    let derived = spec.derived()?;
    let lookup = Lookup::new(&derived);
    // Check every range and the prefix before printing anything.
    let mut slots = Vec::new();
    for range in ranges {
        lookup.check_range(*range)?;
        slots.push(range.first..=range.last);
    }
    let mut key = Vec::new();
    if as_key {
        if let Some(first) = slots.first() {
            let tag = lookup.tags(*first.start())?.next().unwrap_or_default();
            lookup
                .key(prefix, &tag, suffix, &mut key)
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
    for slot in slots.into_iter().flatten() {
        let tags = lookup.tags(slot)?;
        for tag in tags.take(if all { usize::MAX } else { 1 }) {
            let bytes = if as_key {
                lookup.key(prefix, &tag, suffix, &mut key)?;
                &key[..]
            } else {
                &tag[..]
            };
            records.record(&[Field::Int(slot.into()), Field::Bytes(bytes)])?;
        }
    }
    records.finish()?;
    Ok(ExitCode::SUCCESS)
}

/// The runtime table of a derivation, for lookups by slot.
enum Lookup<'d> {
    Crc16(SlotTable<'d, MAX_TAG_LEN>),
    Scheme(SchemeTable<'d, MAX_TAG_LEN>),
}

impl<'d> Lookup<'d> {
    fn new(derived: &'d Derived) -> Self {
        match derived {
            Derived::Crc16(d) => Self::Crc16(d.table()),
            Derived::Scheme(d) => Self::Scheme(d.table()),
        }
    }

    /// Refuses a range with a slot that is not the table's.
    fn check_range(&self, range: SlotRange) -> Result<()> {
        match self {
            Self::Crc16(t) => range.slots(t.slots()).map(drop),
            Self::Scheme(t) => {
                for slot in [range.first, range.last] {
                    t.tag_for_slot(slot).map_err(crate::exit::usage)?;
                }
                Ok(())
            }
        }
    }

    /// The tags of `slot`, the canonical one first, lazily.
    fn tags(&self, slot: u32) -> Result<Box<dyn Iterator<Item = Vec<u8>> + '_>> {
        Ok(match self {
            // `check_range` has checked `slot` against the table's slots (at most 65536)
            Self::Crc16(t) => Box::new(
                t.tags_for_slot(slot as u16)?
                    .map(|tag| tag.as_ref().to_vec()),
            ),
            Self::Scheme(t) => Box::new(t.tags_for_slot(slot)?.map(|tag| tag.as_ref().to_vec())),
        })
    }

    /// The key of `tag` into `key`: `prefix`, the tag between the hashtag delimiters, then
    /// `suffix` (the tag alone for a whole-key scheme).
    fn key(
        &self,
        prefix: &[u8],
        tag: &[u8],
        suffix: &[u8],
        key: &mut Vec<u8>,
    ) -> Result<(), slotgen_tables::Error> {
        key.clear();
        key.resize(prefix.len() + tag.len() + 2 + suffix.len(), 0);
        let len = match self {
            Self::Crc16(_) => SlotTable::<MAX_TAG_LEN>::write_key(prefix, tag, suffix, key)?,
            Self::Scheme(t) => t.write_key(prefix, tag, suffix, key)?,
        };
        key.truncate(len);
        Ok(())
    }
}
