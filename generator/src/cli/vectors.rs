//! `slotgen emit vectors`: the conformance corpus of [`slotgen::vectors`].

use std::io::{BufWriter, Write};
use std::path::Path;
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use clap::{Args, ValueEnum};
use slotgen::vectors::{self, DEFAULT_COUNT, DEFAULT_SEED};
use slotgen::Spec;

/// The most keys a corpus may have: a few GiB of text at most.
pub const MAX_COUNT: usize = 10_000_000;

/// The form of a corpus.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum VectorsFormat {
    /// `key_hex<TAB>slot<TAB>class` rows after one `#` line.
    Tsv,
    /// One JSON object, schema `slotgen-vectors/1`.
    Json,
}

/// The options of `emit vectors`.
#[derive(Debug, Args)]
pub struct VectorsArgs {
    /// With `vectors`: the corpus's form.
    #[arg(long, value_enum, default_value_t = VectorsFormat::Tsv)]
    format: VectorsFormat,
    /// With `vectors`: how many keys.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_COUNT)]
    count: usize,
    /// With `vectors`: the seed of the random keys (the first keys are fixed).
    #[arg(long, value_name = "S", default_value_t = DEFAULT_SEED)]
    seed: u64,
}

/// Checks a corpus size given as `option`.
pub fn check_count(count: usize, option: &str) -> Result<()> {
    if count > MAX_COUNT {
        bail!("{option} {count} is too many keys: give at most {MAX_COUNT}");
    }
    Ok(())
}

pub fn emit(args: &VectorsArgs, spec: &Spec, output: Option<&Path>) -> Result<ExitCode> {
    check_count(args.count, "--count")?;
    let write = |out: &mut dyn Write| -> std::io::Result<()> {
        let mut out = BufWriter::new(out);
        match args.format {
            VectorsFormat::Tsv => vectors::write_tsv(&mut out, spec, args.count, args.seed)?,
            VectorsFormat::Json => vectors::write_json(&mut out, spec, args.count, args.seed)?,
        }
        out.flush()
    };
    match output {
        Some(path) => {
            let mut file = std::fs::File::create(path)
                .with_context(|| format!("writing {}", path.display()))?;
            write(&mut file).with_context(|| format!("writing {}", path.display()))?;
        }
        None => write(&mut std::io::stdout().lock())?,
    }
    Ok(ExitCode::SUCCESS)
}
