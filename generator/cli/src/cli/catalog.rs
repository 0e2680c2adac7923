//! `slotgen catalog`.

use std::io::Write;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;
use serde::Serialize;
use slotgen::catalog::{reference_crc, CatalogEntry, CATALOG};
use slotgen::charset::{choose, Charset};
use slotgen::derive::shortest_tag_len;
use slotgen::spec::REDIS_CLUSTER_ALPHABET;
use slotgen::Spec;

use super::output::{Field, OutputArgs, Records};

#[derive(Debug, Args)]
pub struct CatalogArgs {
    /// Print the rows as a bare JSON array, one object per algorithm (the records of
    /// `--format json` without the document around them).
    #[arg(long, conflicts_with = "format")]
    json: bool,
    #[command(flatten)]
    output: OutputArgs,
    /// The slot count the tag columns are for: a power of two from 2 to 65536.
    #[arg(long, value_name = "N", default_value_t = slotgen_tables::REDIS_CLUSTER_SLOTS)]
    slots: u32,
    /// List every catalogue CRC of width 8 to 64 (97), with its parameters and whether both
    /// the `crc` crate and slotgen's runtime engine give its check value; no tag columns
    /// (tables are derived for CRC-16 only so far).
    #[arg(long, conflicts_with = "slots")]
    all_widths: bool,
}

/// One algorithm of any width, as `slotgen catalog --all-widths` prints it.
#[derive(Debug, Serialize)]
struct WideRow {
    name: &'static str,
    aliases: &'static [&'static str],
    width: u8,
    poly: u64,
    init: u64,
    refin: bool,
    refout: bool,
    xorout: u64,
    check: u64,
    residue: u64,
    /// Whether both the `crc` crate and slotgen's runtime engine give `check` for
    /// "123456789".
    check_verified: bool,
}

fn wide_rows() -> Vec<WideRow> {
    slotgen::crc_catalog::all()
        .into_iter()
        .map(|e| {
            let p = e.algorithm.parameters();
            WideRow {
                name: e.name,
                aliases: e.aliases,
                width: p.width,
                poly: p.poly,
                init: p.init,
                refin: p.refin,
                refout: p.refout,
                xorout: p.xorout,
                check: p.check,
                residue: p.residue,
                check_verified: e.algorithm.reference_checksum(b"123456789") == p.check
                    && e.algorithm.engine().checksum(b"123456789") == p.check,
            }
        })
        .collect()
}

/// The fields of a wide row, in the order of [`WideRow`]'s, for `--format tsv|json|jsonl`.
const WIDE_FIELDS: &[&str] = &[
    "name",
    "aliases",
    "width",
    "poly",
    "init",
    "refin",
    "refout",
    "xorout",
    "check",
    "residue",
    "check_verified",
];

fn run_all_widths(args: &CatalogArgs) -> Result<ExitCode> {
    let rows = wide_rows();
    write_rows(args, &rows, WIDE_FIELDS, wide_record, |out| {
        writeln!(
            out,
            "{:<26} {:>5} {:<18} {:<18} {:<5} {:<6} {:<18} {:<18} verified",
            "name", "width", "poly", "init", "refin", "refout", "xorout", "check"
        )?;
        for r in &rows {
            let hex = |v: u64| format!("{v:#0w$x}", w = 2 + usize::from(r.width).div_ceil(4));
            writeln!(
                out,
                "{:<26} {:>5} {:<18} {:<18} {:<5} {:<6} {:<18} {:<18} {}",
                r.name,
                r.width,
                hex(r.poly),
                hex(r.init),
                r.refin,
                r.refout,
                hex(r.xorout),
                hex(r.check),
                if r.check_verified { "yes" } else { "NO" }
            )?;
        }
        Ok(())
    })?;
    Ok(verdict(rows.iter().all(|r| r.check_verified)))
}

/// A row of `catalog --all-widths` as a record of [`WIDE_FIELDS`].
fn wide_record(r: &WideRow) -> Vec<Field<'_>> {
    vec![
        Field::Text(r.name),
        Field::List(r.aliases),
        Field::Int(r.width.into()),
        Field::Int(r.poly),
        Field::Int(r.init),
        Field::Bool(r.refin),
        Field::Bool(r.refout),
        Field::Int(r.xorout),
        Field::Int(r.check),
        Field::Int(r.residue),
        Field::Bool(r.check_verified),
    ]
}

/// One algorithm of the catalogue, as `slotgen catalog` prints it.
#[derive(Debug, Serialize)]
struct Row {
    name: &'static str,
    aliases: &'static [&'static str],
    width: u8,
    poly: u16,
    init: u16,
    refin: bool,
    refout: bool,
    xorout: u16,
    check: u16,
    residue: u16,
    /// Whether both the `crc` crate and slotgen's runtime CRC give `check` for "123456789".
    check_verified: bool,
    /// The shortest tag with the default alphabet `@ABCDEFGHIJKLMNO`, if one reaches every
    /// slot.
    default_tag_len: Option<usize>,
    /// The alphabet `--charset alnum` chooses.
    alnum_alphabet: String,
    /// Its tag length.
    alnum_tag_len: usize,
}

/// The fields of a row, in the order of [`Row`]'s, for `--format tsv|json|jsonl`.
const FIELDS: &[&str] = &[
    "name",
    "aliases",
    "width",
    "poly",
    "init",
    "refin",
    "refout",
    "xorout",
    "check",
    "residue",
    "check_verified",
    "default_tag_len",
    "alnum_alphabet",
    "alnum_tag_len",
];

fn row(entry: &CatalogEntry, slots: u32, alnum: &Charset) -> Result<Row> {
    let alg = entry.algorithm;
    let check_verified = reference_crc(alg).checksum(b"123456789") == alg.check
        && slotgen_tables::Crc16::new(alg).checksum(b"123456789") == alg.check;
    let spec = Spec {
        crc: *alg,
        alphabet: REDIS_CLUSTER_ALPHABET.to_vec(),
        tag_len: None,
        slots,
    };
    let default_tag_len = shortest_tag_len(&spec).with_context(|| entry.name)?;
    let choice = choose(alnum, &spec.clone().into()).with_context(|| entry.name)?;
    Ok(Row {
        name: entry.name,
        aliases: entry.aliases,
        width: alg.width,
        poly: alg.poly,
        init: alg.init,
        refin: alg.refin,
        refout: alg.refout,
        xorout: alg.xorout,
        check: alg.check,
        residue: alg.residue,
        check_verified,
        default_tag_len,
        alnum_alphabet: String::from_utf8_lossy(choice.alphabet.symbols()).into_owned(),
        alnum_tag_len: choice.tag_len,
    })
}

fn rows(slots: u32) -> Result<Vec<Row>> {
    let alnum = Charset::parse("alnum")?;
    CATALOG.iter().map(|e| row(e, slots, &alnum)).collect()
}

pub fn run(args: &CatalogArgs) -> Result<ExitCode> {
    if args.all_widths {
        return run_all_widths(args);
    }
    // a value of the command line: exit 2, as every usage error
    slotgen::spec::SlotCount::new(args.slots.into())
        .context("--slots")
        .map_err(crate::exit::usage)?;
    let rows = rows(args.slots).context("--slots")?;
    write_rows(args, &rows, FIELDS, record, |out| {
        writeln!(
    out,
    "{:<26} {:<6} {:<6} {:<5} {:<6} {:<6} {:<6} {:<8} {:>5} {:>5}  alnum alphabet ({} slots)",
    "name", "poly", "init", "refin", "refout", "xorout", "check", "verified", "@A..O", "alnum",
    args.slots
)?;
        for r in &rows {
            writeln!(
                out,
                "{:<26} {:#06x} {:#06x} {:<5} {:<6} {:#06x} {:#06x} {:<8} {:>5} {:>5}  {}",
                r.name,
                r.poly,
                r.init,
                r.refin,
                r.refout,
                r.xorout,
                r.check,
                if r.check_verified { "yes" } else { "NO" },
                r.default_tag_len.map_or("-".to_owned(), |n| n.to_string()),
                r.alnum_tag_len,
                r.alnum_alphabet
            )?;
        }
        Ok(())
    })?;
    Ok(verdict(rows.iter().all(|r| r.check_verified)))
}

/// A row of `catalog` as a record of [`FIELDS`].
fn record(r: &Row) -> Vec<Field<'_>> {
    vec![
        Field::Text(r.name),
        Field::List(r.aliases),
        Field::Int(r.width.into()),
        Field::Int(r.poly.into()),
        Field::Int(r.init.into()),
        Field::Bool(r.refin),
        Field::Bool(r.refout),
        Field::Int(r.xorout.into()),
        Field::Int(r.check.into()),
        Field::Int(r.residue.into()),
        Field::Bool(r.check_verified),
        r.default_tag_len
            .map_or(Field::Absent, |n| Field::Int(n as u64)),
        Field::Text(&r.alnum_alphabet),
        Field::Int(r.alnum_tag_len as u64),
    ]
}

/// Writes `rows` as `--json` asks (one pretty document), as records in the chosen
/// `--format`, or as the text table that `text` writes.
fn write_rows<R: Serialize>(
    args: &CatalogArgs,
    rows: &[R],
    names: &'static [&'static str],
    record: fn(&R) -> Vec<Field<'_>>,
    text: impl FnOnce(&mut std::io::StdoutLock<'static>) -> Result<()>,
) -> Result<()> {
    let mut out = std::io::stdout().lock();
    if args.json {
        let json = OutputArgs {
            format: super::output::Format::Json,
            ..args.output.clone()
        };
        json.check(false)?;
        serde_json::to_writer_pretty(&mut out, rows)?;
        writeln!(out)?;
    } else if args.output.format != super::output::Format::Text {
        args.output.check(false)?;
        let mut records = Records::start(&mut out, &args.output, "catalog", names)?;
        for r in rows {
            records.record(&record(r))?;
        }
        records.finish()?;
    } else {
        args.output.check(false)?;
        text(&mut out)?;
    }
    Ok(())
}

/// Exit 0 when every check value verified; otherwise say so, exit 1.
fn verdict(all_verified: bool) -> ExitCode {
    if all_verified {
        ExitCode::SUCCESS
    } else {
        say!("slotgen: error: a catalogue check value does not verify: see the `NO` rows");
        ExitCode::FAILURE
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every row verifies, and `--charset alnum` reaches all 16384 slots with at most 4
    /// symbols for every catalogue CRC (the seed's alphabet needs 5 for some).
    #[test]
    fn catalogue_rows() {
        let rows = rows(16384).unwrap();
        assert_eq!(rows.len(), 31);
        for r in &rows {
            assert!(r.check_verified, "{}", r.name);
            assert!(r.alnum_tag_len <= 4, "{}", r.name);
            assert!(r.alnum_alphabet.bytes().all(|b| b.is_ascii_alphanumeric()));
        }
        assert!(rows.iter().any(|r| r.default_tag_len == Some(5)));
    }

    /// Every width from 8 to 64 of the catalogue is listed, and every row verifies.
    #[test]
    fn every_width_verifies() {
        let rows = wide_rows();
        assert_eq!(rows.len(), 97);
        let widths: std::collections::BTreeSet<u8> = rows.iter().map(|r| r.width).collect();
        assert_eq!(
            widths.into_iter().collect::<Vec<_>>(),
            [8, 10, 11, 12, 13, 14, 15, 16, 17, 21, 24, 30, 31, 32, 40, 64]
        );
        assert!(rows.iter().all(|r| r.check_verified));
    }
}
