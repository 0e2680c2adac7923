//! `slotgen slot`.

use std::io::{BufRead, Write};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;
use slotgen_tables::{hashtag, Crc16};

use super::CrcArgs;

#[derive(Debug, Args)]
pub struct SlotArgs {
    #[command(flatten)]
    crc: CrcArgs,
    /// Keys are hex-encoded bytes (`7b617d` is `{a}`), so that any binary key can be given.
    #[arg(long)]
    hex: bool,
    /// The keys; with none, one key per line from standard input (the line feed, and a
    /// carriage return before it, are not part of the key).
    #[arg(value_name = "KEY")]
    keys: Vec<String>,
}

pub fn run(args: &SlotArgs) -> Result<ExitCode> {
    // With --scheme, the scheme's slot (a bucket id 1..N for tarantool-vshard); without,
    // the CRC-16 options' slot.
    let slot_of = match args.crc.scheme()? {
        Some(scheme) => SlotOf::Scheme(scheme),
        None => SlotOf::Crc16(
            Box::new(Crc16::new(&args.crc.crc()?)),
            args.crc.slots()?.mask(),
        ),
    };
    let decode = |text: &[u8], what: &str| -> Result<Vec<u8>> {
        if args.hex {
            hex::decode(text).with_context(|| {
                format!("{what} is not hex: with --hex, give each key as pairs of hex digits")
            })
        } else {
            Ok(text.to_vec())
        }
    };
    let mut out = std::io::stdout().lock();
    let mut answer = |key: &[u8]| -> Result<()> {
        writeln!(out, "{}", slot_of.slot(key))?;
        Ok(())
    };
    if args.keys.is_empty() {
        let stdin = std::io::stdin().lock();
        for (n, line) in stdin.split(b'\n').enumerate() {
            let mut line = line.context("reading keys from standard input")?;
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            answer(&decode(&line, &format!("line {}", n + 1))?)?;
        }
    } else {
        for (n, key) in args.keys.iter().enumerate() {
            answer(&decode(key.as_bytes(), &format!("key {}", n + 1))?)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// How `slot` computes a key's slot.
enum SlotOf {
    /// A named scheme's slot.
    Scheme(slotgen_tables::Scheme<'static>),
    /// A CRC-16 of the hashtag, masked.
    Crc16(Box<Crc16>, u16),
}

impl SlotOf {
    fn slot(&self, key: &[u8]) -> u32 {
        match self {
            Self::Scheme(scheme) => scheme.slot(key),
            Self::Crc16(crc, mask) => u32::from(crc.checksum(hashtag(key)) & mask),
        }
    }
}
