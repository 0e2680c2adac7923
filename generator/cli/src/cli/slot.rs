//! `slotgen slot`.

use std::io::BufRead;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;
use slotgen_tables::{hashtag, Crc16};

use super::output::{Field, Format, OutputArgs, Records};
use super::CrcArgs;

#[derive(Debug, Args)]
pub struct SlotArgs {
    #[command(flatten)]
    crc: CrcArgs,
    /// Keys are hex-encoded bytes (`7b617d` is `{a}`), so that any binary key can be given.
    #[arg(long)]
    hex: bool,
    /// Print each key beside its slot: `<slot>\t<key>` (JSON records always carry the key).
    #[arg(long)]
    with_key: bool,
    #[command(flatten)]
    output: OutputArgs,
    /// The keys; with none, one key per line from standard input (the line feed, and a
    /// carriage return before it, are not part of the key), or with `-z` one key per
    /// NUL-terminated record (every other byte is part of the key).
    #[arg(value_name = "KEY")]
    keys: Vec<String>,
}

pub fn run(args: &SlotArgs) -> Result<ExitCode> {
    let crc = Crc16::new(&args.crc.crc()?);
    let mask = args.crc.slots()?.mask();
    let decode = |text: &[u8], what: &str| -> Result<Vec<u8>> {
        if args.hex {
            hex::decode(text).with_context(|| {
                format!("{what} is not hex: with --hex, give each key as pairs of hex digits")
            })
        } else {
            Ok(text.to_vec())
        }
    };
    args.output.check(true)?;
    let with_key = args.with_key || !matches!(args.output.format, Format::Text | Format::Tsv);
    let names: &'static [&'static str] = if with_key {
        &["slot", "key"]
    } else {
        &["slot"]
    };
    let mut records = Records::start(std::io::stdout().lock(), &args.output, "slot", names)?;
    let mut answer = |key: &[u8]| -> Result<()> {
        let slot = Field::Int((crc.checksum(hashtag(key)) & mask).into());
        if with_key {
            records.record(&[slot, Field::Bytes(key)])
        } else {
            records.record(&[slot])
        }
    };
    if args.keys.is_empty() {
        let stdin = std::io::stdin().lock();
        let terminator = args.output.terminator();
        for (n, line) in stdin.split(terminator).enumerate() {
            let mut line = line.context("reading keys from standard input")?;
            if terminator == b'\n' && line.last() == Some(&b'\r') {
                line.pop();
            }
            answer(&decode(&line, &format!("line {}", n + 1))?)?;
        }
    } else {
        for (n, key) in args.keys.iter().enumerate() {
            answer(&decode(key.as_bytes(), &format!("key {}", n + 1))?)?;
        }
    }
    records.finish()?;
    Ok(ExitCode::SUCCESS)
}
