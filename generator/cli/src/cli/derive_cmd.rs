//! `slotgen derive`.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;
use slotgen::request::TableSpec;
use slotgen::scheme::invert::SchemeSpec;
use slotgen::{emit, verify, Derivation, Report, SlotTables, Spec};

use super::output::{Format, OutputArgs};
use super::spec_args::SpecArgs;

#[derive(Debug, Args)]
pub struct DeriveArgs {
    #[command(flatten)]
    spec: SpecArgs,
    /// Print the whole derivation and its verification as JSON (schema
    /// `slotgen-derivation/2`); the same as `--format json`.
    #[arg(long, conflicts_with = "format")]
    json: bool,
    #[command(flatten)]
    output: OutputArgs,
}

pub fn run(args: &DeriveArgs) -> Result<ExitCode> {
    let json = match args.output.format {
        Format::Text => args.json,
        Format::Json => true,
        Format::Tsv | Format::Jsonl => {
            return Err(crate::exit::usage(anyhow::anyhow!(
                "a derivation is one document, not records: use `--format json` or the text (the default)"
            )))
        }
    };
    if args.output.records.header || args.output.records.null {
        return Err(crate::exit::usage(anyhow::anyhow!(
            "`--header` and `-z` apply to records, and a derivation is one document: remove them"
        )));
    }
    let derivation = args.spec.derived()?;
    let report = verify(&derivation);
    let mut out = std::io::stdout().lock();
    if json {
        let value = emit::json::to_value(&derivation, Some(&report));
        serde_json::to_writer_pretty(&mut out, &value)?;
        writeln!(out)?;
    } else {
        match (&derivation.spec, &derivation.slot_tables) {
            (TableSpec::Crc16(spec), Some(tables)) => {
                write_text(&mut out, &derivation, spec, tables, &report)?;
            }
            (TableSpec::Scheme(spec), _) => {
                write_scheme_text(&mut out, &derivation, spec, &report)?;
            }
            (TableSpec::Crc16(_), None) => unreachable!("a CRC-16 derivation has its tables"),
        }
    }
    verdict(&report)
}

fn write_scheme_text(
    out: &mut impl Write,
    d: &Derivation,
    spec: &SchemeSpec,
    report: &Report,
) -> Result<()> {
    let scheme = &d.scheme;
    let (crc_name, crc) = slotgen::scheme::crc_of(scheme);
    let digits = usize::from(crc.width).div_ceil(4);
    let (shift, mask) = scheme.transform();
    let first = scheme.offset();
    let table = d.table();
    writeln!(
        out,
        "scheme:     {} ({})",
        spec.name.name(),
        spec.name.systems()
    )?;
    writeln!(
        out,
        "crc:        {crc_name} (width {}, poly {:#0w$x}, init {:#0w$x}, refin {}, refout {}, xorout {:#0w$x}, check {:#0w$x})",
        crc.width, crc.poly, crc.init, crc.refin, crc.refout, crc.xorout, crc.check,
        w = digits + 2
    )?;
    let register = match scheme.register() {
        slotgen_tables::Register::Crc => "crc",
        slotgen_tables::Register::Unmasked32 => {
            writeln!(
                out,
                "register:   32 bits, never masked (nutcracker's `hash_crc16`): the CRC in bits 0 to 15, the high bytes of the CRCs of the key without its last byte and without its last two in bits 16 to 31"
            )?;
            "register"
        }
    };
    let reduce = match scheme.reduction() {
        slotgen_tables::Reduction::Mask => format!("& {}", scheme.slots() - 1),
        slotgen_tables::Reduction::Modulus => format!("% {}", scheme.slots()),
    };
    let offset = if first == 0 {
        String::new()
    } else {
        format!(" + {first}")
    };
    let whole = u64::MAX
        .checked_shr(64 - scheme.register().width(scheme.crc()))
        .unwrap_or(0);
    let value = match (shift, mask & whole == whole) {
        (0, true) => register.to_owned(),
        (0, false) => format!("({register} & {mask:#x})"),
        (_, _) => format!("(({register} >> {shift}) & {mask:#x})"),
    };
    writeln!(
        out,
        "slot:       {value} {reduce}{offset}: slots {first} to {}",
        scheme.last()
    )?;
    writeln!(out, "solved:     {}", d.solved.describe())?;
    let mask_bits = d.tag_len * d.alphabet.symbol_bits() as usize;
    write_tags_and_rank(out, &d.alphabet, d.tag_len, &d.pivots)?;
    let base = table.tag_for_value(d.base_value);
    writeln!(
        out,
        "base value: {} (the solved bits of the value of {})",
        d.base_value,
        quoted(base.as_ref())
    )?;
    let mask_digits = slotgen::derive::MaskWidth::for_bits(mask_bits).hex_digits();
    writeln!(out, "inverse:    {}", hex_list(&d.inverse, mask_digits))?;
    writeln!(
        out,
        "kernel:     {}",
        if d.kernel.is_empty() {
            "(none)".to_owned()
        } else {
            hex_list(&d.kernel, mask_digits)
        }
    )?;
    writeln!(
        out,
        "tags:       {} per slot of the first value of its class{}",
        count(
            1u64.checked_shl(d.kernel.len() as u32).unwrap_or(u64::MAX),
            "tag"
        ),
        if table.solves_whole_value() {
            format!(
                ", and as many for each later value below 2^{}",
                d.solved.bits()
            )
        } else {
            String::new()
        }
    )?;
    writeln!(
        out,
        "tables:     {} columns of {} bytes: {} bytes",
        d.columns.len(),
        d.tag_len,
        d.columns.len() * d.tag_len
    )?;
    super::write_failures(out, report, slotgen::verify::MAX_LISTED)?;
    let how = super::verification_scope(Some(report), d);
    write_verdict(out, report, scheme.slots().into(), &how)
}

/// Exit 0 when the report passed; else says so on standard error and exits 1.
fn verdict(report: &Report) -> Result<ExitCode> {
    if report.passed() {
        Ok(ExitCode::SUCCESS)
    } else {
        say!(
            "slotgen: error: verification failed: {} of {} checks; see the `failed:` lines",
            report.failure_count,
            report.tags_checked
        );
        Ok(ExitCode::FAILURE)
    }
}

/// How derive's text shows bytes of the spec (an alphabet, a tag): in double quotes,
/// escaped by [`super::show`], so that `"` and control bytes read as what they are.
fn quoted(bytes: &[u8]) -> String {
    format!("\"{}\"", super::show(bytes))
}

fn hex_list(values: &[u64], digits: usize) -> String {
    values
        .iter()
        .map(|v| format!("{v:#0w$x}", w = digits + 2))
        .collect::<Vec<_>>()
        .join(" ")
}

fn write_text(
    out: &mut impl Write,
    d: &Derivation,
    spec: &Spec,
    tables: &SlotTables,
    report: &Report,
) -> Result<()> {
    let alg = &spec.crc;
    let digits = d.mask_width().hex_digits();
    let base_tag = d.tag_from_mask(0);
    let mask_type = d.mask_width().rust();
    let entry_bytes = d.mask_width().bytes();
    writeln!(
        out,
        "crc:        {} (width 16, poly {:#06x}, init {:#06x}, refin {}, refout {}, xorout {:#06x}, check {:#06x})",
        spec.crc_name(), alg.poly, alg.init, alg.refin, alg.refout, alg.xorout, alg.check
    )?;
    writeln!(
        out,
        "slots:      {} ({})",
        spec.slots,
        count(d.slot_bits().into(), "bit")
    )?;
    write_tags_and_rank(out, &d.alphabet, d.tag_len, &d.pivots)?;
    writeln!(
        out,
        "base slot:  {} (the slot of {})",
        d.base_slot(),
        quoted(&base_tag)
    )?;
    writeln!(out, "inverse:    {}", hex_list(&d.inverse, digits))?;
    writeln!(
        out,
        "kernel:     {} ({} per slot)",
        if d.kernel.is_empty() {
            "(none)".to_owned()
        } else {
            hex_list(&d.kernel, digits)
        },
        count(1u64 << d.kernel.len(), "tag")
    )?;
    writeln!(
        out,
        "tables:     low {} x {mask_type} ({}), high {} x {mask_type} ({}): {} bytes as masks, {} as tag bytes (the runtime's)",
        tables.low.len(),
        count(u64::from(tables.low_bits), "bit"),
        tables.high.len(),
        count(u64::from(d.slot_bits() - tables.low_bits), "bit"),
        (tables.low.len() + tables.high.len()) * entry_bytes,
        (tables.low.len() + tables.high.len()) * d.tag_len
    )?;
    super::write_failures(out, report, slotgen::verify::MAX_LISTED)?;
    let how = super::verification_scope(Some(report), d);
    write_verdict(out, report, spec.slots.into(), &how)
}

/// The `verified:` or `FAILED:` line of both derivations' text; `how` says what a passed
/// verification covered.
fn write_verdict(out: &mut impl Write, report: &Report, slots: u64, how: &str) -> Result<()> {
    if report.passed() {
        writeln!(
            out,
            "verified:   {}/{slots} slots, {} tags{how}",
            report.slots_checked, report.tags_checked
        )?;
    } else {
        writeln!(
            out,
            "FAILED:     {} over {}, {}",
            count(report.failure_count, "failure"),
            count(report.slots_checked, "slot"),
            count(report.tags_checked, "tag")
        )?;
    }
    Ok(())
}

/// The `alphabet:`, `tag length:` and `rank:` lines of both derivations' text.
fn write_tags_and_rank(
    out: &mut impl Write,
    alphabet: &slotgen::Alphabet,
    tag_len: usize,
    pivots: &[usize],
) -> Result<()> {
    writeln!(
        out,
        "alphabet:   {} ({} symbols, {} each)",
        quoted(alphabet.symbols()),
        alphabet.len(),
        count(alphabet.symbol_bits().into(), "bit")
    )?;
    writeln!(
        out,
        "tag length: {} ({})",
        count(tag_len as u64, "symbol"),
        count(
            (tag_len * alphabet.symbol_bits() as usize) as u64,
            "input bit"
        )
    )?;
    writeln!(
        out,
        "rank:       {}, pivot columns {}",
        pivots.len(),
        pivots
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    )?;
    Ok(())
}

/// `n` and the noun, plural unless `n` is 1: `1 bit`, `4 bits`.
fn count(n: u64, noun: &str) -> String {
    if n == 1 {
        format!("{n} {noun}")
    } else {
        format!("{n} {noun}s")
    }
}
