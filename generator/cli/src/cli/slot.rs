//! `slotgen slot`.

use std::io::BufWriter;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;

use super::key_input::{for_each_key_batch, BATCH};
use super::output::{Format, OutputArgs, Records};
use super::spec_args::CrcArgs;

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
    let function = args.crc.slot_function()?;
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
    // One buffered writer: one write(2) per 64 KiB, not one per key, and what is answered
    // whenever the input is waited for.
    let out = BufWriter::with_capacity(IO_BUFFER, std::io::stdout().lock());
    let records = std::cell::RefCell::new(Records::start(out, &args.output, "slot", names)?);
    // a batch of keys at a time: their slots, then their records
    let mut slots = vec![0; BATCH];
    let answer = |keys: &[&[u8]]| -> Result<()> {
        let slots = &mut slots[..keys.len()];
        function.key_slots(keys, slots);
        records
            .borrow_mut()
            .int_records(slots, with_key.then_some(keys))
    };
    let idle = || records.borrow_mut().flush();
    for_each_key_batch(&args.keys, args.output.terminator(), args.hex, answer, idle)?;
    records.into_inner().finish()?;
    Ok(ExitCode::SUCCESS)
}
