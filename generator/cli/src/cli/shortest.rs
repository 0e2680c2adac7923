//! `slotgen shortest`.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use crate::exit::usage;
use anyhow::{bail, Context, Result};
use clap::{Args, ValueEnum};
use slotgen::emit;
use slotgen::shortest::{shortest, Charset, ShortestSpec};

use super::spec_args::CrcArgs;

/// An output format.
#[derive(Debug, Clone, Copy, ValueEnum)]
enum Format {
    /// One tag per line in slot order, an empty line for a gap.
    Lines,
    /// A C array `const char NAME[slots][width + 1]`, like redis-benchmark's table.
    C,
    /// A Lua chunk returning the tags as a sequence: `tags[slot + 1]`.
    Lua,
    /// JSON (schema `slotgen-shortest/1`).
    Json,
    /// A Rust `static` of `slotgen_tables::ShortestTable`, formatted with prettyplease.
    Rust,
}

#[derive(Debug, Args)]
pub struct ShortestArgs {
    #[command(flatten)]
    crc: CrcArgs,
    /// The tag symbols: `alnum`, `alpha`, `digits`, `lower`, `upper`, a bracket expression
    /// such as `[a-z0-9_]`, or an explicit list such as `xyz`. Printable ASCII without braces.
    #[arg(long, value_name = "SPEC")]
    charset: String,
    /// The search order of the charset's symbols, with ranges, such as `0-9a-zA-Z`
    /// [default: ascending byte order; an explicit list's own order].
    #[arg(long, value_name = "STR")]
    order: Option<String>,
    // the range is the tables' (`slotgen::MAX_TAG_LEN`), which the search refuses past
    #[arg(long, value_name = "N", default_value_t = 3, help = format!("The longest tag to try, in symbols, from 1 to {}", slotgen::derive::MAX_TAG_LEN))]
    max_len: usize,
    /// The output format.
    #[arg(long, value_enum, default_value = "lines")]
    format: Format,
    /// Write the table even when some slots have no tag (reported on stderr); without it
    /// such a table is an error (exit 1).
    #[arg(long)]
    allow_gaps: bool,
    /// The name of the C array or Rust static [default: shortest_tags, SHORTEST_TAGS].
    #[arg(long, value_name = "NAME")]
    name: Option<String>,
    /// Write to FILE instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
}

/// The most runs [`slot_list`] writes.
const MAX_RUNS: usize = slotgen::verify::MAX_LISTED;

/// Slots as a list of numbers and inclusive ranges: `0-3, 7, 9-12`; after [`MAX_RUNS`] runs,
/// how many slots are left out.
fn slot_list(slots: &[u32]) -> String {
    let mut out = String::new();
    let mut i = 0;
    let mut runs = 0;
    while i < slots.len() {
        if runs == MAX_RUNS {
            let left = slots.len() - i;
            write!(
                out,
                " and {left} more {}",
                if left == 1 { "slot" } else { "slots" }
            )
            .expect("writing to a String");
            break;
        }
        let mut j = i;
        while j + 1 < slots.len() && slots[j + 1] == slots[j] + 1 {
            j += 1;
        }
        if !out.is_empty() {
            out += ", ";
        }
        if j > i {
            write!(out, "{}-{}", slots[i], slots[j]).expect("writing to a String");
        } else {
            write!(out, "{}", slots[i]).expect("writing to a String");
        }
        runs += 1;
        i = j + 1;
    }
    out
}

pub fn run(args: &ShortestArgs) -> Result<ExitCode> {
    if args.name.is_some() && !matches!(args.format, Format::C | Format::Rust) {
        return Err(usage(anyhow::anyhow!(
            "`--name` names the C array or the Rust static: it does not apply to `--format {}`; remove it, or add `--format c` or `--format rust`",
            args.format.to_possible_value().expect("no skipped variant").get_name()
        )));
    }
    let mut charset = Charset::parse(&args.charset)
        .context("--charset")
        .map_err(usage)?;
    if let Some(order) = &args.order {
        charset = charset
            .with_order(order)
            .context("--order")
            .map_err(usage)?;
    }
    // a CRC-16 spec's slots, or a named scheme's (`redis-cluster`: the CRC-16 spec's)
    let function = args.crc.slot_function()?;
    let slots = function.slots();
    let spec = ShortestSpec {
        function,
        charset,
        max_len: args.max_len,
    };
    let table = shortest(&spec).map_err(search_error)?;
    check_gaps(args, &table.gaps(), slots)?;
    write_table(args, &table)
}

/// Writes `table` in the chosen format.
fn write_table(args: &ShortestArgs, table: &slotgen::shortest::Shortest) -> Result<ExitCode> {
    let text = match args.format {
        Format::Lines => emit::shortest::lines(table),
        Format::C => {
            let name = args.name.as_deref().unwrap_or("shortest_tags");
            let mut chars = name.chars();
            let first_ok = chars
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
            if !first_ok || !chars.all(|c| c.is_ascii_alphanumeric() || c == '_') {
                return Err(usage(anyhow::anyhow!("--name `{}` is not a C identifier: use letters, digits and `_`, not starting with a digit", slotgen::text::escape_text(name))));
            }
            emit::shortest::c(table, name)
        }
        Format::Lua => emit::shortest::lua(table),
        Format::Json => serde_json::to_string_pretty(&emit::shortest::to_value(table))? + "\n",
        Format::Rust => {
            let name = args.name.as_deref().unwrap_or("SHORTEST_TAGS");
            emit::shortest::shortest_file(table, name)
                .with_context(|| {
                    format!(
                        "--name `{}` is not a Rust identifier",
                        slotgen::text::escape_text(name)
                    )
                })
                .map_err(usage)?
        }
    };
    write_out(args, &text)
}

/// A search error with the option it names.
fn search_error(error: slotgen::Error) -> anyhow::Error {
    match error {
        slotgen::Error::CharsetSymbol { .. } | slotgen::Error::DelimiterInAlphabet { .. } => {
            usage(anyhow::Error::new(error).context("--charset"))
        }
        slotgen::Error::MaxLen { .. } => usage(anyhow::Error::new(error).context("--max-len")),
        _ => anyhow::Error::new(error),
    }
}

/// Refuses a table with gaps unless `--allow-gaps`, which turns it into a warning.
fn check_gaps(args: &ShortestArgs, gaps: &[u32], slots: u32) -> Result<()> {
    if gaps.is_empty() {
        return Ok(());
    }
    let report = format!(
        "{} of {} slots {} no tag of at most {} {}: {}",
        gaps.len(),
        slots,
        if gaps.len() == 1 { "has" } else { "have" },
        args.max_len,
        if args.max_len == 1 {
            "symbol"
        } else {
            "symbols"
        },
        slot_list(gaps)
    );
    if !args.allow_gaps {
        bail!("{report}; raise --max-len or use a larger charset, or pass --allow-gaps to write the table with these gaps");
    }
    say!("slotgen: warning: {report}");
    Ok(())
}

/// Writes `text` to `--output`, or to standard output.
fn write_out(args: &ShortestArgs, text: &str) -> Result<ExitCode> {
    super::output::write_text(args.output.as_deref(), text)
}
