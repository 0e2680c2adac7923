//! `slotgen emit`.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::builder::PossibleValue;
use clap::Args;
use slotgen::emit;
use slotgen::emit::language::Options;

use super::spec_args::SpecArgs;
use crate::exit::usage;

/// The value of `emit LANGUAGE`: a language of the registry, or `vectors`, as the
/// registry lists them.
fn language_parser() -> clap::builder::PossibleValuesParser {
    let values: Vec<PossibleValue> = emit::language::targets()
        .map(|(name, summary)| {
            PossibleValue::new(name)
                .help(summary)
                .aliases(emit::language::aliases(name))
        })
        .collect();
    clap::builder::PossibleValuesParser::new(values)
}

/// `emit vectors`: a corpus of keys, not a table.
const VECTORS: &str = emit::language::VECTORS.0;

#[derive(Debug, Args)]
pub struct EmitArgs {
    /// The language to emit.
    #[arg(value_parser = language_parser())]
    language: String,
    #[command(flatten)]
    spec: SpecArgs,
    /// Write to FILE instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    #[arg(long, value_name = "NAME", help = emit::language::name_help())]
    name: Option<String>,
    #[arg(long, help = emit::language::for_script_help())]
    for_script: bool,
    #[arg(long, help = emit::language::types_help())]
    types: bool,
    // checked by the language (`Language::check`), after the rule that it applies to it
    #[arg(long, value_name = "NAME", help = emit::language::package_help())]
    package: Option<String>,
    #[command(flatten)]
    vectors: super::vectors::VectorsArgs,
}

impl EmitArgs {
    /// The language's own options, as the registry takes them.
    fn options(&self) -> Options<'_> {
        Options {
            name: self.name.as_deref(),
            package: self.package.as_deref(),
            types: self.types,
            for_script: self.for_script,
        }
    }

    /// Refuses the options this command would ignore: the corpus's options for a table,
    /// the alphabet's for the corpus, and (through the registry) a language's options that
    /// another language takes.
    fn refuse_unused(&self) -> Result<()> {
        if self.language == VECTORS {
            super::refuse_unused(
                &self.spec.tags.given(),
                "`emit vectors`, whose keys' slots depend on the CRC and the slot count only",
            )?;
            let options = self.options();
            if options != Options::default() {
                let given = [
                    ("--name", options.name.is_some()),
                    ("--package", options.package.is_some()),
                    ("--types", options.types),
                    ("--for-script", options.for_script),
                ];
                let named: Vec<&str> = given.iter().filter(|(_, g)| *g).map(|(n, _)| *n).collect();
                super::refuse_unused(&named, "`emit vectors`")?;
            }
            return Ok(());
        }
        super::refuse_unused(
            &self.vectors.given(),
            &format!("`emit {}` (only to `emit vectors`)", self.language),
        )
    }
}

/// An emitter's refusal, with `--name` or `--package` before a name that is not one; its
/// exit status follows from the error ([`slotgen::Error::is_usage`]).
fn emit_error(error: slotgen::Error) -> anyhow::Error {
    match error {
        slotgen::Error::ModuleName { .. } => usage(anyhow::anyhow!("--name {error}")),
        slotgen::Error::GoPackageName { .. } => usage(anyhow::anyhow!("--package {error}")),
        other if other.is_usage() => usage(other),
        other => other.into(),
    }
}

pub fn run(args: &EmitArgs) -> Result<ExitCode> {
    args.refuse_unused()?;
    if args.language == VECTORS {
        return super::vectors::emit(
            &args.vectors,
            &args.spec.crc.slot_function()?,
            args.output.as_deref(),
        );
    }
    let language = emit::language::find(&args.language).expect("clap takes registry names");
    language.check(&args.options()).map_err(emit_error)?;
    let file_name = args
        .output
        .as_deref()
        .and_then(std::path::Path::file_name)
        .map(|name| name.to_string_lossy());
    let options = match &file_name {
        Some(file_name) => language.options_for_file(&args.options(), file_name),
        None => Ok(args.options()),
    }
    .map_err(emit_error)?;
    let derived = args.spec.derived()?;
    let text = language.emit(&derived, &options).map_err(emit_error)?;
    super::output::write_text(args.output.as_deref(), &text)
}
