//! `slotgen emit`.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::builder::PossibleValue;
use clap::Args;
use slotgen::emit;
use slotgen::emit::language::Options;

use super::SpecArgs;
use crate::exit::usage;

/// The value of `emit LANGUAGE`: a language of the registry, or `vectors`.
fn language_parser() -> clap::builder::PossibleValuesParser {
    let mut values: Vec<PossibleValue> = emit::language::LANGUAGES
        .iter()
        .map(|l| PossibleValue::new(l.name).help(l.summary))
        .collect();
    values.push(PossibleValue::new(VECTORS).help(
        "A conformance corpus for client libraries: `key_hex<TAB>slot<TAB>class` rows (or JSON with --format json), deterministic for --count and --seed; see `slotgen verify --exec`.",
    ));
    clap::builder::PossibleValuesParser::new(values)
}

/// `--name`'s help, from the registry: what the name names in each language that takes
/// one, and its default.
fn name_help() -> String {
    let each: Vec<String> = emit::language::LANGUAGES
        .iter()
        .flat_map(|l| {
            let module = l.name_option.map(|o| (l.name.to_owned(), o));
            let script = l
                .for_script_option
                .map(|o| (format!("{} --for-script", l.name), o));
            module.into_iter().chain(script)
        })
        .map(|(language, o)| format!("{language}: {} (default `{}`)", o.what, o.default))
        .collect();
    format!("The name of what is emitted: {}", each.join("; "))
}

/// `emit vectors`: a corpus of keys, not a table.
const VECTORS: &str = "vectors";

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
    #[arg(long, value_name = "NAME", help = name_help())]
    name: Option<String>,
    /// With `lua`: a block to paste at the top of an `EVAL` script (Lua 5.1 with the
    /// server's `bit`, no globals) instead of a module; `--name` names its local table.
    #[arg(long)]
    for_script: bool,
    /// With `js`: the TypeScript declarations (`slotgen.d.mts`) of the module instead of
    /// the module.
    #[arg(long)]
    types: bool,
    /// The name of the Go package (default `slotgen`).
    #[arg(long, value_name = "NAME", value_parser = go_package)]
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

/// An emitter's refusal, with `--name` before a name that is not one; its exit status
/// follows from the error ([`slotgen::Error::is_usage`]).
fn emit_error(error: slotgen::Error) -> anyhow::Error {
    match error {
        slotgen::Error::ModuleName { .. } => usage(anyhow::anyhow!("--name {error}")),
        other if other.is_usage() => usage(other),
        other => other.into(),
    }
}

fn go_package(name: &str) -> Result<String, slotgen::Error> {
    emit::go::check_package_name(name).map(|()| name.to_owned())
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
    let derived = args.spec.derived()?;
    let text = language
        .emit((&derived).into(), &args.options())
        .map_err(emit_error)?;
    super::output::write_text(args.output.as_deref(), &text)
}
