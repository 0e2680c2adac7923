//! `slotgen tag` and `slotgen key`.

use std::process::ExitCode;

use anyhow::{bail, Result};
use clap::Args;

use super::output::{Field, OutputArgs, Records};
use slotgen::scheme::invert::FramedKeys;
use slotgen_tables::HashtagRule;

use super::spec_args::{spelled, SpecArgs};
use super::values::{parse_hex_bytes, HexBytes, SlotRange};

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
    #[command(flatten)]
    frame: FrameArgs,
    /// Print a key for every tag that lands on each slot, one line each.
    #[arg(long)]
    all: bool,
    #[command(flatten)]
    output: OutputArgs,
    /// Slots, each a number or an inclusive range such as 0-16383.
    #[arg(value_name = "SLOT", required = true)]
    ranges: Vec<SlotRange>,
}

/// The bytes around a key's tag (`key`, `keys`): `--prefix` and `--suffix` as text, or as
/// hex bytes for what a shell cannot pass.
#[derive(Debug, Clone, Args)]
pub struct FrameArgs {
    /// Bytes before the `{tag}`; must not contain `{`. Under a `--scheme` that hashes the
    /// whole key, bytes before the bare tag, which is solved with them in place. May begin
    /// with `-` (`--prefix -x`).
    #[arg(long, value_name = "P", allow_hyphen_values = true)]
    prefix: Option<String>,
    /// `--prefix` as hex bytes (`00ff` is the bytes 0x00 and 0xff), for bytes a shell
    /// cannot pass, such as NUL.
    #[arg(long, value_name = "HEX", conflicts_with = "prefix", value_parser = parse_hex_bytes)]
    prefix_hex: Option<HexBytes>,
    /// Bytes after the `{tag}` (after the bare tag under a whole-key `--scheme`; for `keys`,
    /// before the counter); anything goes. May begin with `-` (`--suffix -x`).
    #[arg(long, value_name = "S", allow_hyphen_values = true)]
    suffix: Option<String>,
    /// `--suffix` as hex bytes, as `--prefix-hex`.
    #[arg(long, value_name = "HEX", conflicts_with = "suffix", value_parser = parse_hex_bytes)]
    suffix_hex: Option<HexBytes>,
}

impl FrameArgs {
    /// The bytes before the tag (none by default).
    pub fn prefix(&self) -> &[u8] {
        Self::bytes(self.prefix.as_ref(), self.prefix_hex.as_ref())
    }

    /// The bytes after the tag (none by default).
    pub fn suffix(&self) -> &[u8] {
        Self::bytes(self.suffix.as_ref(), self.suffix_hex.as_ref())
    }

    /// The option that gave the prefix, as spelled, for messages.
    pub fn prefix_option(&self) -> &'static str {
        if self.prefix_hex.is_some() {
            "--prefix-hex"
        } else {
            "--prefix"
        }
    }

    /// The option that gave the suffix, as spelled, for messages.
    pub fn suffix_option(&self) -> &'static str {
        if self.suffix_hex.is_some() {
            "--suffix-hex"
        } else {
            "--suffix"
        }
    }

    fn bytes<'a>(text: Option<&'a String>, hex: Option<&'a HexBytes>) -> &'a [u8] {
        match (text, hex) {
            (Some(text), _) => text.as_bytes(),
            (None, Some(hex)) => &hex.0,
            (None, None) => b"",
        }
    }
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
        args.frame.prefix(),
        args.frame.suffix(),
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
    let framed = !prefix.is_empty() || !suffix.is_empty();
    if as_key && framed && derived.scheme.hashtag() == HashtagRule::WholeKey {
        let spec = spec
            .scheme_spec()?
            .expect("a whole-key scheme's derivation");
        let keys = FramedKeys::derive(&spec, prefix, suffix).map_err(spelled)?;
        return print_framed(&keys, ranges, all, output);
    }
    // Every table is read as the runtime's scheme table (a CRC-16 spec's too: the same tags
    // as its two-load table, which is the fast path of a program, not of printing).
    let table = derived.table();
    // Check every range and the prefix before printing anything.
    let mut slots = Vec::new();
    for range in ranges {
        for slot in [range.first, range.last] {
            table.tag_for_slot(slot).map_err(crate::exit::usage)?;
        }
        slots.push(range.first..=range.last);
    }
    let mut key = Vec::new();
    let write_key = |tag: &[u8], key: &mut Vec<u8>| {
        key.clear();
        key.resize(prefix.len() + tag.len() + 2 + suffix.len(), 0);
        let len = table.write_key(prefix, tag, suffix, key)?;
        key.truncate(len);
        Ok::<_, slotgen_tables::Error>(())
    };
    if as_key {
        if let Some(first) = slots.first() {
            let tag = table.tag_for_slot(*first.start())?;
            write_key(tag.as_ref(), &mut key).map_err(crate::exit::usage)?;
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
        for tag in table
            .tags_for_slot(slot)?
            .take(if all { usize::MAX } else { 1 })
        {
            let bytes = if as_key {
                write_key(tag.as_ref(), &mut key)?;
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

/// Prints `<slot>\t<key>` for every slot of `ranges`, the keys `prefix ‖ tag ‖ suffix` of a
/// whole-key scheme, each checked by the scheme's own slot function before it is printed.
fn print_framed(
    keys: &FramedKeys,
    ranges: &[SlotRange],
    all: bool,
    output: &OutputArgs,
) -> Result<ExitCode> {
    for range in ranges {
        for slot in [range.first, range.last] {
            keys.key_for_slot(slot).map_err(crate::exit::usage)?;
        }
    }
    let out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut records = Records::start(out, output, "key", &["slot", "key"])?;
    let scheme = keys.scheme();
    for slot in ranges.iter().flat_map(|r| r.first..=r.last) {
        for key in keys
            .keys_for_slot(slot)?
            .take(if all { usize::MAX } else { 1 })
        {
            let lands = scheme.slot(&key);
            if lands != slot {
                bail!("internal error: the key for slot {slot} lands on slot {lands}: please report it");
            }
            records.record(&[Field::Int(slot.into()), Field::Bytes(&key)])?;
        }
    }
    records.finish()?;
    Ok(ExitCode::SUCCESS)
}
