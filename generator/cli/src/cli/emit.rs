//! `slotgen emit`.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::{Args, ValueEnum};
use slotgen::emit;

use slotgen::scheme::invert::SchemeDerivation;
use slotgen::Derivation;

use super::{Derived, SpecArgs};
use crate::exit::usage;

/// A target language.
#[derive(Debug, Clone, Copy, ValueEnum)]
enum Language {
    /// A Rust `static` of `slotgen_tables::SlotTable` (`SchemeTable` with --scheme),
    /// formatted with prettyplease.
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
    /// A Java 11+ source file: a final class of static methods (`--name com.example.RedisSlots`).
    Java,
    /// A Ruby module of module functions over byte strings (`--name RedisSlots`).
    Ruby,
    /// A PHP 8.1+ file: a final class of static methods (`--name 'Example\RedisSlots'`).
    Php,
    /// An Elixir module over binaries, `{:ok, _}`/`{:error, _}` and bang variants
    /// (`--name EchoMQ.Keyspace`).
    Elixir,
    /// A Redis Functions library for Redis 7 and Valkey 8 (`#!lua name=slotgen`, `--name`
    /// sets it and the functions' prefix).
    RedisFunction,
    /// A conformance corpus for client libraries: `key_hex<TAB>slot<TAB>class` rows (or
    /// JSON with --format json), deterministic for --count and --seed; see `slotgen verify
    /// --exec`.
    Vectors,
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
    /// The name of what is emitted: the Rust static (default `SLOT_TABLE`), the Java class
    /// with its package, the Ruby module, the PHP class with its namespace, the Elixir
    /// module (default `Slotgen`), the Functions library and its functions' prefix, the
    /// `lua --for-script` table, the C header's prefix and include guard (default
    /// `slotgen`).
    #[arg(long, value_name = "NAME")]
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
    /// `--name`, or `default` without it; refused (not ignored) for a language that takes
    /// no name.
    fn name_or(&self, default: &'static str) -> Result<&str> {
        Ok(self.name.as_deref().unwrap_or(default))
    }

    /// Refuses the options this language would ignore: `--name`, `--package`, `--for-script`,
    /// `--types`, the corpus's options for a table, the alphabet's for the corpus.
    fn refuse_unused(&self) -> Result<()> {
        let (takes_name, takes_package) = match self.language {
            Language::Rust
            | Language::Java
            | Language::Ruby
            | Language::Php
            | Language::Elixir
            | Language::RedisFunction
            | Language::C => (true, false),
            Language::Lua if self.for_script => (true, false),
            Language::Go => (false, true),
            Language::Json
            | Language::Lua
            | Language::Python
            | Language::Js
            | Language::Vectors => (false, false),
        };
        let language = self
            .language
            .to_possible_value()
            .map_or(String::new(), |v| v.get_name().to_owned());
        if self.for_script && !matches!(self.language, Language::Lua) {
            return Err(usage(anyhow::anyhow!(
                "`--for-script` applies to `emit lua` only: remove it"
            )));
        }
        if self.types && !matches!(self.language, Language::Js) {
            return Err(usage(anyhow::anyhow!(
                "`--types` applies to `emit js` only: remove it"
            )));
        }
        if matches!(self.language, Language::Vectors) {
            super::refuse_unused(
                &self.spec.tags.given(),
                "`emit vectors`, whose keys' slots depend on the CRC and the slot count only",
            )?;
        } else {
            super::refuse_unused(
                &self.vectors.given(),
                &format!("`emit {language}` (only to `emit vectors`)"),
            )?;
        }
        if self.name.is_some() && !takes_name {
            return Err(usage(anyhow::anyhow!(
                "`--name` does not apply to `emit {language}`: remove it"
            )));
        }
        if self.package.is_some() && !takes_package {
            return Err(usage(anyhow::anyhow!(
                "`--package` does not apply to `emit {language}` (only to `emit go`): remove it"
            )));
        }
        Ok(())
    }
}

/// An emitter's refusal: a name that is not one is a usage error of `--name` (exit 2), and
/// so is server-side Lua for a scheme whose servers do not run it (an option that does not
/// apply); anything else (a tag count the language cannot hold) is work that cannot be
/// done.
fn name_error(error: slotgen::Error) -> anyhow::Error {
    match error {
        slotgen::Error::ModuleName { .. } => usage(anyhow::anyhow!("--name {error}")),
        slotgen::Error::ServerLua { .. } => usage(error),
        other => other.into(),
    }
}

fn go_package(name: &str) -> Result<String, slotgen::Error> {
    emit::go::check_package_name(name).map(|()| name.to_owned())
}

pub fn run(args: &EmitArgs) -> Result<ExitCode> {
    args.refuse_unused()?;
    if let Language::Vectors = args.language {
        return super::vectors::emit(
            &args.vectors,
            &args.spec.crc.slot_function()?,
            args.output.as_deref(),
        );
    }
    let text = match args.spec.derived()? {
        Derived::Crc16(derivation) => crc16_text(args, &derivation)?,
        Derived::Scheme(derivation) => scheme_text(args, &derivation)?,
    };
    write(args, &text)
}

/// Writes `text` to `--output`, or to standard output.
fn write(args: &EmitArgs, text: &str) -> Result<ExitCode> {
    super::output::write_text(args.output.as_deref(), text)
}

/// The text of a CRC-16 table in the chosen language.
fn crc16_text(args: &EmitArgs, derivation: &Derivation) -> Result<String> {
    Ok(match args.language {
        Language::Rust => {
            let name = args.name_or("SLOT_TABLE")?;
            emit::rust::file(derivation, name).map_err(|_| rust_name_error(name))?
        }
        Language::Json => {
            let report = slotgen::verify(derivation);
            let value = emit::json::to_value(derivation, Some(&report));
            serde_json::to_string_pretty(&value)? + "\n"
        }
        Language::Lua if args.for_script => emit::redis_function::script_block(
            derivation,
            args.name_or(emit::redis_function::DEFAULT_NAME)?,
        )
        .map_err(name_error)?,
        Language::Lua => emit::lua::module(derivation),

        Language::C => emit::c::named_header(derivation, args.name_or(emit::c::DEFAULT_NAME)?)
            .map_err(name_error)?,
        Language::Python => emit::python::module(derivation),
        Language::Js if args.types => emit::js::types(derivation),
        Language::Js => emit::js::module(derivation),
        Language::Go => {
            emit::go::package(derivation, args.package.as_deref().unwrap_or("slotgen"))?
        }
        Language::Java => emit::java::class(derivation, args.name_or(emit::java::DEFAULT_NAME)?)
            .map_err(name_error)?,
        Language::Ruby => emit::ruby::module(derivation, args.name_or(emit::ruby::DEFAULT_NAME)?)
            .map_err(name_error)?,
        Language::Php => emit::php::class(derivation, args.name_or(emit::php::DEFAULT_NAME)?)
            .map_err(name_error)?,
        Language::Elixir => {
            emit::elixir::module(derivation, args.name_or(emit::elixir::DEFAULT_NAME)?)
                .map_err(name_error)?
        }
        Language::RedisFunction => emit::redis_function::library(
            derivation,
            args.name_or(emit::redis_function::DEFAULT_NAME)?,
        )
        .map_err(name_error)?,
        Language::Vectors => unreachable!("emitted before deriving"),
    })
}

/// The text of a scheme's table (`--scheme` other than `redis-cluster`) in the chosen
/// language.
fn scheme_text(args: &EmitArgs, derivation: &SchemeDerivation) -> Result<String> {
    Ok(match args.language {
        Language::Rust => {
            let name = args.name_or("SLOT_TABLE")?;
            emit::rust::scheme_file(derivation, name).map_err(|_| rust_name_error(name))?
        }
        Language::Json => {
            let report = slotgen::verify::verify_scheme(derivation);
            let value = emit::json::scheme_to_value(derivation, Some(&report));
            serde_json::to_string_pretty(&value)? + "\n"
        }
        Language::Lua if args.for_script => emit::redis_function::scheme_script_block(
            derivation,
            args.name_or(emit::redis_function::DEFAULT_NAME)?,
        )
        .map_err(name_error)?,
        Language::Lua => emit::lua::scheme_module(derivation)?,
        Language::C => emit::c::scheme_header(derivation, args.name_or(emit::c::DEFAULT_NAME)?)
            .map_err(name_error)?,
        Language::Python => emit::python::scheme_module(derivation)?,
        Language::Js if args.types => emit::js::scheme_types(derivation)?,
        Language::Js => emit::js::scheme_module(derivation)?,
        Language::Go => {
            emit::go::scheme_package(derivation, args.package.as_deref().unwrap_or("slotgen"))?
        }
        Language::Java => {
            emit::java::scheme_class(derivation, args.name_or(emit::java::DEFAULT_NAME)?)
                .map_err(name_error)?
        }
        Language::Ruby => {
            emit::ruby::scheme_module(derivation, args.name_or(emit::ruby::DEFAULT_NAME)?)
                .map_err(name_error)?
        }
        Language::Php => {
            emit::php::scheme_class(derivation, args.name_or(emit::php::DEFAULT_NAME)?)
                .map_err(name_error)?
        }
        Language::Elixir => {
            emit::elixir::scheme_module(derivation, args.name_or(emit::elixir::DEFAULT_NAME)?)
                .map_err(name_error)?
        }
        Language::RedisFunction => emit::redis_function::scheme_library(
            derivation,
            args.name_or(emit::redis_function::DEFAULT_NAME)?,
        )
        .map_err(name_error)?,
        Language::Vectors => unreachable!("emitted before deriving"),
    })
}

/// `--name` that is not a Rust identifier, as a usage error.
fn rust_name_error(name: &str) -> anyhow::Error {
    usage(anyhow::anyhow!(
        "--name `{}` is not a Rust identifier: use letters, digits and `_`, not starting with a digit, such as `REDIS_CLUSTER`",
        slotgen::text::shorten(&name.escape_debug().to_string(), slotgen::text::MAX_SHOWN)
    ))
}
