//! The command-line interface: argument parsing and one module per command.

use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use clap::{Args, Parser, Subcommand};
use slotgen::charset::{choose, Charset};
use slotgen::{derive, Derivation, Spec};

mod catalog;
mod check;
mod derive_cmd;
mod emit;
mod lookup;
mod shortest;
mod slot;
mod vectors;
mod verify;
mod verify_exec;

/// Derive, verify and emit O(1) inverse tables for Redis Cluster style hash slots.
///
/// Every command defaults to Redis Cluster: CRC-16/XMODEM, 16384 slots, alphabet
/// `@ABCDEFGHIJKLMNO`, 4-symbol tags.
#[derive(Debug, Parser)]
#[command(name = "slotgen", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Derive the tables by GF(2) elimination, verify them over every slot, and print them.
    Derive(derive_cmd::DeriveArgs),
    /// Print the hash slot of each key, as CLUSTER KEYSLOT answers.
    Slot(slot::SlotArgs),
    /// Print a tag that lands on each slot: `<slot>\t<tag>`.
    Tag(lookup::TagArgs),
    /// Print a key `PREFIX{tag}SUFFIX` that lands on each slot: `<slot>\t<key>`.
    Key(lookup::KeyArgs),
    /// Emit the derived table as source code.
    Emit(emit::EmitArgs),
    /// Check a JSON derivation, a tag table made elsewhere, or a running server's CLUSTER
    /// KEYSLOT; exit 0 only when everything holds.
    Verify(verify::VerifyArgs),
    /// Print the shortest tag of each slot over a charset (redis-benchmark's table).
    Shortest(shortest::ShortestArgs),
    /// List the CRC-16 algorithms of the CRC catalogue: parameters, check value, and the
    /// shortest tags with the default alphabet and with an alphanumeric one.
    Catalog(catalog::CatalogArgs),
    /// Check a key layout for a cluster: each key's slot, hashtag and traps of the hashtag
    /// rule; with --same-slot or --template, whether the keys meet on one slot.
    Check(check::CheckArgs),
}

/// The options that choose a spec, on every command that needs one.
#[derive(Debug, Clone, Args)]
pub struct SpecArgs {
    /// CRC-16 by catalogue name or alias, case-insensitive (`CRC-16/XMODEM`, `XMODEM`,
    /// `MODBUS`, `ibm-3740`); `slotgen catalog` lists them.
    #[arg(
        long,
        value_name = "NAME",
        default_value = "CRC-16/XMODEM",
        conflicts_with = "poly"
    )]
    crc: String,
    /// A custom CRC-16 instead of --crc: its polynomial (hex `0x8005` or decimal), in the
    /// RevEng model (normal form, without the x^16 term).
    #[arg(long, value_name = "HEX", value_parser = parse_u16)]
    poly: Option<u16>,
    /// Custom CRC: the register's initial value.
    #[arg(long, value_name = "HEX", value_parser = parse_u16, default_value = "0", requires = "poly", conflicts_with = "crc")]
    init: u16,
    /// Custom CRC: whether each input byte is reflected (`true` or `false`).
    #[arg(long, value_name = "BOOL", default_value_t = false, action = clap::ArgAction::Set, requires = "poly", conflicts_with = "crc")]
    refin: bool,
    /// Custom CRC: whether the output is reflected [default: as --refin].
    #[arg(long, value_name = "BOOL", action = clap::ArgAction::Set, requires = "poly", conflicts_with = "crc")]
    refout: Option<bool>,
    /// Custom CRC: the value xored into the output.
    #[arg(long, value_name = "HEX", value_parser = parse_u16, default_value = "0", requires = "poly", conflicts_with = "crc")]
    xorout: u16,
    /// The tag symbols, in any order: 2^d distinct bytes forming an affine subspace of
    /// GF(2)^8, without `{` or `}`.
    #[arg(long, value_name = "STR", default_value = "@ABCDEFGHIJKLMNO")]
    alphabet: String,
    /// Instead of --alphabet, the bytes tags may use, and slotgen picks the affine alphabet
    /// inside them with the shortest tags, then the most symbols, then the first in byte
    /// order: `alnum`, `alpha`, `digits`, `lower`, `upper`, `printable`, a bracket
    /// expression such as `[0-9A-Za-z_-]`, or the bytes themselves.
    #[arg(long, value_name = "SPEC", conflicts_with = "alphabet")]
    charset: Option<Charset>,
    /// Symbols per tag [default: the shortest length that reaches every slot].
    #[arg(long, value_name = "N")]
    tag_len: Option<usize>,
    /// The number of hash slots: a power of two from 2 to 65536.
    #[arg(long, value_name = "N", default_value_t = 16384)]
    slots: u64,
}

impl SpecArgs {
    /// The spec these options name. With --charset, the chosen alphabet is reported on
    /// standard error.
    fn spec(&self) -> Result<Spec> {
        let mut spec = match self.poly {
            Some(poly) => Spec {
                crc: slotgen::catalog::custom(
                    poly,
                    self.init,
                    self.refin,
                    self.refout.unwrap_or(self.refin),
                    self.xorout,
                ),
                ..Spec::default()
            },
            None => Spec::default().with_crc(&self.crc).context("--crc")?,
        };
        if let Some(c) = self.alphabet.chars().find(|c| !c.is_ascii()) {
            bail!(
                "--alphabet: symbol `{c}` is not ASCII: a symbol is one byte, and `{c}` is {} bytes in UTF-8; use ASCII symbols",
                c.len_utf8()
            );
        }
        spec.alphabet = self.alphabet.as_bytes().to_vec();
        spec.tag_len = self.tag_len;
        spec.slots = u32::try_from(self.slots)
            .ok()
            .filter(|s| (2..=65536).contains(s) && s.is_power_of_two())
            .ok_or(slotgen::Error::SlotCount { slots: self.slots })
            .context("--slots")?;
        if let Some(charset) = &self.charset {
            if let Some(c) = charset.spec().chars().find(|c| !c.is_ascii()) {
                bail!(
                    "--charset: `{c}` is not ASCII, and a tag symbol is one byte: write a byte above 0x7f as `\\xNN` in a bracket expression, such as `[a-z\\xe9]`"
                );
            }
            let choice = choose(charset, &spec.crc, spec.slots, spec.tag_len)
                .with_context(|| format!("--charset {}", charset.spec()))?;
            eprintln!("slotgen: --charset {}: {choice}", charset.spec());
            spec.alphabet = choice.alphabet.symbols().to_vec();
            spec.tag_len = Some(choice.tag_len);
        }
        Ok(spec)
    }

    /// The derivation of the spec these options name.
    fn derive(&self) -> Result<Derivation> {
        Ok(derive(&self.spec()?)?)
    }
}

/// A 16-bit CRC parameter: `0x`-prefixed hex or decimal.
fn parse_u16(text: &str) -> Result<u16, String> {
    let parsed = match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        Some(hex) => u16::from_str_radix(hex, 16),
        None => text.parse(),
    };
    parsed.map_err(|_| {
        format!("`{text}` is not a 16-bit value: give hex such as 0x1021 or decimal such as 4129")
    })
}

/// A slot or an inclusive range `A-B` of slots, as given on the command line.
#[derive(Debug, Clone, Copy)]
pub struct SlotRange {
    first: u32,
    last: u32,
}

impl std::str::FromStr for SlotRange {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let number = |t: &str| {
            t.trim().parse::<u32>().map_err(|_| {
                format!("`{s}` is not a slot: give a number such as 42 or a range such as 0-99")
            })
        };
        let (first, last) = match s.split_once('-') {
            Some((a, b)) => (number(a)?, number(b)?),
            None => (number(s)?, number(s)?),
        };
        if first > last {
            return Err(format!(
                "range `{s}` runs backwards: write the lower slot first, as {last}-{first}"
            ));
        }
        Ok(Self { first, last })
    }
}

impl SlotRange {
    /// The slots of the range, each checked against the table's slot count.
    fn slots(self, slots: u32) -> Result<impl Iterator<Item = u16>> {
        if self.last >= slots {
            bail!(slotgen_tables::Error::SlotOutOfRange {
                slot: self.last,
                slots
            });
        }
        Ok((self.first..=self.last).map(|s| s as u16))
    }
}

/// Runs a parsed command line.
pub fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Derive(args) => derive_cmd::run(&args),
        Command::Slot(args) => slot::run(&args),
        Command::Tag(args) => lookup::run_tag(&args),
        Command::Key(args) => lookup::run_key(&args),
        Command::Emit(args) => emit::run(&args),
        Command::Verify(args) => verify::run(&args),
        Command::Shortest(args) => shortest::run(&args),
        Command::Catalog(args) => catalog::run(&args),
        Command::Check(args) => check::run(&args),
    }
}

/// What a passed verification covered, after the tag count: nothing when every tag was
/// checked, else how the tags were covered.
fn verification_scope(report: &slotgen::Report, d: &Derivation) -> String {
    if report.exhaustive {
        String::new()
    } else {
        format!(
            " (each slot's canonical tag and its {} kernel directions: the 2^{} tags are too many to check one by one, and the map is affine)",
            d.kernel.len(),
            d.mask_bits()
        )
    }
}

/// Bytes as text for a line of output, inside double quotes: printable ASCII as is but `"`
/// and `\` escaped, anything else as `\xNN`.
fn show(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|&b| match b {
            b'"' | b'\\' => format!("\\{}", char::from(b)),
            b' '..=b'~' => char::from(b).to_string(),
            _ => format!("\\x{b:02x}"),
        })
        .collect()
}

/// One `failed:` line per listed failure of a verification report.
fn write_failures(out: &mut impl std::io::Write, report: &slotgen::Report) -> std::io::Result<()> {
    for failure in &report.failures {
        writeln!(
            out,
            "failed:     slot {} tag \"{}\": {}",
            failure.slot,
            show(&failure.tag),
            failure.reason
        )?;
    }
    Ok(())
}
