//! `slotgen slot`.

use std::io::{BufRead, BufReader, BufWriter};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;
use slotgen_tables::Crc16;

use super::output::{Field, Format, OutputArgs, Records};
use super::CrcArgs;

/// The bytes of each read of standard input and each write of standard output.
const IO_BUFFER: usize = 1 << 16;

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
    /// The keys; with none, or `-` alone, one key per line from standard input (the line
    /// feed, and a carriage return before it, are not part of the key; the key `-` itself
    /// is `--hex 2d`), or with `-z` one key per NUL-terminated record (every other byte is
    /// part of the key).
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
    args.output.check(true)?;
    if args.with_key && matches!(args.output.format, Format::Json | Format::Jsonl) {
        return Err(crate::exit::usage(anyhow::anyhow!(
            "`--with-key` changes nothing with `--format json` or `jsonl`, whose records always carry the key: remove it"
        )));
    }
    let with_key = args.with_key || !matches!(args.output.format, Format::Text | Format::Tsv);
    let names: &'static [&'static str] = if with_key {
        &["slot", "key"]
    } else {
        &["slot"]
    };
    // One buffered writer, flushed at the end: one write(2) per 64 KiB, not one per key.
    let out = BufWriter::with_capacity(IO_BUFFER, std::io::stdout().lock());
    let mut records = Records::start(out, &args.output, "slot", names)?;
    let mut answer = |key: &[u8]| -> Result<()> {
        let slot = Field::Int(slot_of.slot(key).into());
        if with_key {
            records.record(&[slot, Field::Bytes(key)])
        } else {
            records.record(&[slot])
        }
    };
    if args.keys.is_empty() || args.keys == ["-"] {
        // Large reads, each record taken from the read buffer where it lies (found by
        // `memchr`); only a record cut by the buffer's end is copied, to be completed.
        let terminator = args.output.terminator();
        let mut stdin = BufReader::with_capacity(IO_BUFFER, std::io::stdin().lock());
        let mut n = 0usize;
        let mut each = |record: &[u8]| -> Result<()> {
            n += 1;
            let mut key = record;
            if terminator == b'\n' {
                if let Some(rest) = key.strip_suffix(b"\r") {
                    key = rest;
                }
            }
            if args.hex {
                answer(&decode(key, &|| format!("line {n}"))?)
            } else {
                answer(key)
            }
        };
        let mut cut = Vec::new();
        loop {
            let buffer = stdin
                .fill_buf()
                .context("reading keys from standard input")?;
            if buffer.is_empty() {
                break;
            }
            let mut start = 0;
            for end in memchr::memchr_iter(terminator, buffer) {
                if cut.is_empty() {
                    each(&buffer[start..end])?;
                } else {
                    cut.extend_from_slice(&buffer[start..end]);
                    each(&cut)?;
                    cut.clear();
                }
                start = end + 1;
            }
            cut.extend_from_slice(&buffer[start..]);
            let read = buffer.len();
            stdin.consume(read);
        }
        if !cut.is_empty() {
            // the last record, without a terminator
            each(&cut)?;
        }
    } else {
        for (n, key) in args.keys.iter().enumerate() {
            if args.hex {
                // a key on the command line is a value of the command line: exit 2
                let key = decode(key.as_bytes(), &|| format!("key {}", n + 1))
                    .map_err(crate::exit::usage)?;
                answer(&key)?;
            } else {
                answer(key.as_bytes())?;
            }
        }
    }
    records.finish()?;
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
