//! `slotgen emit`.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{Args, ValueEnum};
use slotgen::emit;

use super::SpecArgs;

/// A target language.
#[derive(Debug, Clone, Copy, ValueEnum)]
enum Language {
    /// A Rust `static` of `slotgen_tables::SlotTable`, formatted with prettyplease.
    Rust,
    /// The whole derivation as JSON (schema `slotgen-derivation/2`).
    Json,
    /// A Lua module of pure arithmetic, for Lua 5.1, Lua 5.4 and LuaJIT.
    Lua,
    /// A C99 header: `slotgen_slot`, `slotgen_tag_for_slot`, ..., with error codes.
    C,
    /// A Python 3.9+ module, standard library only, for bytes and str keys.
    Python,
    /// An ES module for Node 18+, for Uint8Array, Buffer and string keys.
    Js,
    /// A Go package (Go 1.19+): `Slot`, `TagForSlot`, ..., with error values.
    Go,
}

#[derive(Debug, Args)]
pub struct EmitArgs {
    /// The language to emit.
    #[arg(value_enum)]
    language: Language,
    #[command(flatten)]
    spec: SpecArgs,
    /// Write to FILE instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// The name of the Rust static.
    #[arg(long, value_name = "NAME", default_value = "SLOT_TABLE")]
    name: String,
    /// The name of the Go package.
    #[arg(long, value_name = "NAME", default_value = "slotgen", value_parser = go_package)]
    package: String,
}

fn go_package(name: &str) -> Result<String, slotgen::Error> {
    emit::go::check_package_name(name).map(|()| name.to_owned())
}

pub fn run(args: &EmitArgs) -> Result<ExitCode> {
    let derivation = args.spec.derive()?;
    let text = match args.language {
        Language::Rust => emit::rust::file(&derivation, &args.name)
            .map_err(|_| {
                anyhow::anyhow!(
                    "--name `{}` is not a Rust identifier: use letters, digits and `_`, not starting with a digit, such as `REDIS_CLUSTER`",
                    args.name
                )
            })?,
        Language::Json => {
            let report = slotgen::verify(&derivation);
            let value = emit::json::to_value(&derivation, Some(&report));
            serde_json::to_string_pretty(&value)? + "\n"
        }
        Language::Lua => emit::lua::module(&derivation),

        Language::C => emit::c::header(&derivation),
        Language::Python => emit::python::module(&derivation),
        Language::Js => emit::js::module(&derivation),
        Language::Go => emit::go::package(&derivation, &args.package)?,
    };
    match &args.output {
        Some(path) => {
            std::fs::write(path, text).with_context(|| format!("writing {}", path.display()))?
        }
        None => std::io::stdout().lock().write_all(text.as_bytes())?,
    }
    Ok(ExitCode::SUCCESS)
}
