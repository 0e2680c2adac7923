//! `slotgen verify`'s options.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::Result;
use clap::{ArgGroup, Args, ValueEnum};
use slotgen::verify::MAX_LISTED;

use super::super::output::RecordArgs;
use super::super::spec_args::SpecArgs;
use super::super::{deferred, Deferred};

/// The form of a `--tags` file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(super) enum TagFormat {
    /// By the file name: `.c`, `.h`, `.cc`, `.cpp`, `.hpp` are C, `.lua` is Lua, `.json` is
    /// JSON, anything else is lines.
    Auto,
    /// One tag per line.
    Lines,
    /// C source: the string literals are the tags.
    C,
    /// Lua source: the string literals are the tags.
    Lua,
    /// JSON written by `slotgen shortest --format json` (schema `slotgen-shortest/1`),
    /// which names its own CRC (or scheme) and slot count.
    Json,
}

#[derive(Debug, Args)]
#[command(group(ArgGroup::new("what").required(true).args(["table", "tags", "redis", "exec"])))]
pub struct VerifyArgs {
    /// A derivation written by `slotgen emit json`: derived again from the spec it names,
    /// compared value by value, and verified over every slot and every alternative tag (the
    /// spec options below do not apply).
    #[arg(value_name = "TABLE.json")]
    pub(super) table: Option<PathBuf>,
    /// A per-slot tag table made elsewhere, in slot order: one tag per line, or a C or Lua
    /// source whose quoted string literals are the tags. Entry i must land on slot i as the
    /// hashtag of a key (`{tag}`) under the spec's CRC and slot count.
    #[arg(long, value_name = "FILE")]
    pub(super) tags: Option<PathBuf>,
    /// The form of the --tags file [default: auto].
    #[arg(long, value_enum)]
    pub(super) format: Option<TagFormat>,
    /// A running cluster-enabled server (`redis://HOST:PORT`, `rediss://HOST:PORT` for TLS,
    /// or `unix:///path`, as `slotgen nodes --redis` takes it): asks its CLUSTER KEYSLOT,
    /// pipelined, for the tag of every slot of the spec's table.
    #[arg(long, value_name = "URL")]
    pub(super) redis: Option<String>,
    #[command(flatten)]
    pub(super) connect: super::super::cluster::ConnectArgs,
    /// With --redis, also ask for these keys, one per line, or with `-z` one per
    /// NUL-terminated record (`-`: standard input), and compare with the spec's slot of
    /// each.
    #[arg(long, value_name = "FILE")]
    pub(super) keys: Option<PathBuf>,
    /// The --keys are hex-encoded bytes (`7b617d` is `{a}`).
    #[arg(long, requires = "keys")]
    pub(super) hex: bool,
    #[command(flatten)]
    pub(super) records: RecordArgs,
    /// A client library's slot function, as a command (split into words as a shell does,
    /// run without one): it reads one key per line (see --input) and prints one slot per
    /// line. Fed the conformance corpus of `slotgen emit vectors` for the spec; reports the
    /// disagreements per class, with examples.
    #[arg(long, value_name = "CMD")]
    pub(super) exec: Option<String>,
    /// With --exec: keys as hex digits, or as raw bytes (keys with line breaks left out)
    /// [default: hex].
    #[arg(long, value_enum)]
    pub(super) input: Option<super::super::verify_exec::ExecInput>,
    /// With --exec: how many keys of the corpus, 1 to 10000000 [default: 50000].
    #[arg(long, value_name = "N", value_parser = deferred(super::super::vectors::parse_corpus_count))]
    pub(super) count: Option<Deferred<usize>>,
    /// With --exec: the corpus's seed [default: 0].
    #[arg(long, value_name = "S")]
    pub(super) seed: Option<u64>,
    /// The overall deadline: with --redis for connecting and for every question and answer,
    /// --keys included (default 30 s); with --exec for the command's whole run, after which
    /// it is killed (default 120 s). Seconds (`30`, `0.5`), or with a unit (`500ms`, `2s`).
    #[arg(long, value_name = "TIME", value_parser = deferred(super::super::values::parse_timeout))]
    pub(super) timeout: Option<Deferred<Duration>>,
    /// Not with --exec: the most entries listed of each kind (`mismatch:`, `failed:`,
    /// `misplaced:`, `disagree:`), 0 to 20; the counts cover all of them [default: 20].
    #[arg(long, value_name = "N", value_parser = deferred(parse_max_errors))]
    pub(super) max_errors: Option<Deferred<usize>>,
    #[command(flatten)]
    pub(super) spec: SpecArgs,
}

impl VerifyArgs {
    /// `--max-errors`, or its default; asked for once the option is known to apply.
    pub(super) fn max_errors(&self) -> Result<usize> {
        self.max_errors
            .as_ref()
            .map_or(Ok(MAX_LISTED), |d| d.get("--max-errors"))
    }

    /// `--count`, if given; asked for once the option is known to apply.
    pub(super) fn count(&self) -> Result<Option<usize>> {
        self.count.as_ref().map(|d| d.get("--count")).transpose()
    }

    /// `--timeout`, if given; asked for once the option is known to apply.
    pub(super) fn timeout(&self) -> Result<Option<Duration>> {
        self.timeout
            .as_ref()
            .map(|d| d.get("--timeout"))
            .transpose()
    }
}

/// `--max-errors`: 0 to [`MAX_LISTED`].
fn parse_max_errors(text: &str) -> Result<usize, String> {
    text.parse::<usize>()
        .ok()
        .filter(|n| *n <= MAX_LISTED)
        .ok_or_else(|| {
            format!(
                "`{}` is not a listing cap: give a number from 0 to {MAX_LISTED}",
                slotgen::text::escape_cut(text.as_bytes())
            )
        })
}
