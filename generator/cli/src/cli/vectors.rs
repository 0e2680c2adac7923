//! `slotgen emit vectors`: the conformance corpus of [`slotgen::vectors`], for a CRC-16
//! spec or a named scheme.

use std::io::{BufWriter, Write};
use std::path::Path;
use std::process::ExitCode;

use anyhow::Result;
use clap::{Args, ValueEnum};
use slotgen::vectors::{self, SlotFunction, DEFAULT_COUNT, DEFAULT_SEED};

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
    /// With `vectors`: the corpus's form [default: tsv].
    #[arg(long, value_enum)]
    format: Option<VectorsFormat>,
    /// With `vectors`: how many keys, 1 to 10000000 [default: 50000].
    #[arg(long, value_name = "N", value_parser = super::deferred(parse_corpus_count))]
    count: Option<super::Deferred<usize>>,
    /// With `vectors`: the seed of the random keys (the first keys are fixed) [default: 0].
    #[arg(long, value_name = "S")]
    seed: Option<u64>,
}

impl VectorsArgs {
    /// The options of this group given on the command line, as spelled there.
    pub fn given(&self) -> Vec<&'static str> {
        [
            ("--format", self.format.is_some()),
            ("--count", self.count.is_some()),
            ("--seed", self.seed.is_some()),
        ]
        .into_iter()
        .filter_map(|(name, given)| given.then_some(name))
        .collect()
    }
}

/// A corpus size (`emit vectors --count`, `verify --exec --count`): 1 to [`MAX_COUNT`].
pub fn parse_corpus_count(text: &str) -> Result<usize, String> {
    super::values::parse_count(text, Some(MAX_COUNT as u64)).map(|n| n as usize)
}

pub fn emit(
    args: &VectorsArgs,
    function: &SlotFunction,
    output: Option<&Path>,
) -> Result<ExitCode> {
    let count = match &args.count {
        Some(count) => count.get("--count")?,
        None => DEFAULT_COUNT,
    };
    let seed = args.seed.unwrap_or(DEFAULT_SEED);
    let write = |out: &mut dyn Write| -> std::io::Result<()> {
        let mut out = BufWriter::new(out);
        match args.format.unwrap_or(VectorsFormat::Tsv) {
            VectorsFormat::Tsv => vectors::write_tsv(&mut out, function.clone(), count, seed)?,
            VectorsFormat::Json => vectors::write_json(&mut out, function.clone(), count, seed)?,
        }
        out.flush()
    };
    match output {
        Some(path) => {
            let mut file =
                std::fs::File::create(path).map_err(|e| super::output::cannot_write(path, &e))?;
            write(&mut file).map_err(|e| super::output::cannot_write(path, &e))?;
        }
        None => write(&mut std::io::stdout().lock())?,
    }
    Ok(ExitCode::SUCCESS)
}
