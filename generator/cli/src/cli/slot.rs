//! `slotgen slot`.

use std::io::BufWriter;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;
use slotgen_tables::Crc16;

use super::key_input::{decode_hex, KeyReader};
use super::output::{Field, Format, OutputArgs, Records};
use super::CrcArgs;

/// The bytes of each write of standard output.
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
        KeyReader::stdin(args.output.terminator(), args.hex).for_each(&mut answer)?;
    } else {
        let mut decoded = Vec::new();
        for (n, key) in args.keys.iter().enumerate() {
            if args.hex {
                // a key on the command line is a value of the command line: exit 2
                decode_hex(key.as_bytes(), &mut decoded, || format!("key {}", n + 1))
                    .map_err(crate::exit::usage)?;
                answer(&decoded)?;
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
