//! `slotgen slot`.

use std::io::{BufRead, Write};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;
use slotgen_tables::Crc16;

use super::CrcArgs;

#[derive(Debug, Args)]
pub struct SlotArgs {
    #[command(flatten)]
    crc: CrcArgs,
    /// Keys are hex-encoded bytes (`7b617d` is `{a}`), so that any binary key can be given.
    #[arg(long)]
    hex: bool,
    /// The keys; with none, or `-` alone, one key per line from standard input (the line
    /// feed, and a carriage return before it, are not part of the key; the key `-` itself
    /// is `--hex 2d`).
    #[arg(value_name = "KEY")]
    keys: Vec<String>,
}

pub fn run(args: &SlotArgs) -> Result<ExitCode> {
    // With --scheme, the scheme's slot (a bucket id 1..N for tarantool-vshard); without,
    // the CRC-16 options' slot.
    let crc;
    let slot_of = match args.crc.scheme()? {
        Some(scheme) => SlotOf::Scheme(scheme),
        None => {
            crc = Crc16::new(&args.crc.crc()?);
            SlotOf::Crc16(&crc, args.crc.slots()?.mask())
        }
    };
    let decode = |text: &[u8], what: &dyn Fn() -> String| -> Result<Vec<u8>> {
        hex::decode(text).with_context(|| {
            format!(
                "{} is not hex: with --hex, give each key as pairs of hex digits",
                what()
            )
        })
    };
    // One buffered writer, flushed at the end: one write(2) per 64 KiB, not one per key.
    let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    let mut answer = |key: &[u8]| -> Result<()> {
        out.write_all(decimal_line(slot_of.slot(key)).as_slice())?;
        Ok(())
    };
    if args.keys.is_empty() || args.keys == ["-"] {
        // Large reads, and one line buffer reused for every key.
        let mut stdin = std::io::BufReader::with_capacity(1 << 16, std::io::stdin().lock());
        let mut line = Vec::new();
        let mut n = 0usize;
        loop {
            line.clear();
            if stdin
                .read_until(b'\n', &mut line)
                .context("reading keys from standard input")?
                == 0
            {
                break;
            }
            n += 1;
            let mut key = line.as_slice();
            if let Some(rest) = key.strip_suffix(b"\n") {
                key = rest;
            }
            if let Some(rest) = key.strip_suffix(b"\r") {
                key = rest;
            }
            if args.hex {
                answer(&decode(key, &|| format!("line {n}"))?)?;
            } else {
                answer(key)?;
            }
        }
    } else {
        for (n, key) in args.keys.iter().enumerate() {
            if args.hex {
                answer(&decode(key.as_bytes(), &|| format!("key {}", n + 1))?)?;
            } else {
                answer(key.as_bytes())?;
            }
        }
    }
    out.flush().context("writing slots to standard output")?;
    Ok(ExitCode::SUCCESS)
}

/// How `slot` computes a key's slot.
enum SlotOf<'a> {
    /// A named scheme's slot.
    Scheme(slotgen_tables::Scheme<'static>),
    /// A CRC-16 of the hashtag, masked.
    Crc16(&'a Crc16, u16),
}

impl SlotOf<'_> {
    #[inline]
    fn slot(&self, key: &[u8]) -> u32 {
        match self {
            Self::Scheme(scheme) => scheme.slot(key),
            Self::Crc16(crc, mask) => u32::from(crc.key_checksum(key) & mask),
        }
    }
}

/// `slot` in decimal and a line feed, without the formatting machinery (a third of the
/// time per key when streaming).
struct DecimalLine {
    bytes: [u8; 11],
    start: usize,
}

impl DecimalLine {
    fn as_slice(&self) -> &[u8] {
        &self.bytes[self.start..]
    }
}

fn decimal_line(mut slot: u32) -> DecimalLine {
    let mut bytes = [0u8; 11];
    bytes[10] = b'\n';
    let mut start = 10;
    loop {
        start -= 1;
        bytes[start] = b'0' + (slot % 10) as u8;
        slot /= 10;
        if slot == 0 {
            break;
        }
    }
    DecimalLine { bytes, start }
}

#[cfg(test)]
mod tests {
    #[test]
    fn decimal_lines_match_the_formatter() {
        // Every slot of a 16-bit CRC, and the scheme slots beyond (a vshard bucket id is
        // offset + slot, up to 2^32 - 1).
        let wide = [65_536, 99_999, 100_000, 4_294_967_295];
        for slot in (0..=u32::from(u16::MAX)).chain(wide) {
            assert_eq!(
                super::decimal_line(slot).as_slice(),
                format!("{slot}\n").as_bytes()
            );
        }
    }
}
