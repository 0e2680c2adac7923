//! `slotgen verify`: check a JSON derivation, a tag table made elsewhere, or a real server.

use std::io::{Read, Write};
use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{anyhow, bail, Context, Result};
use slotgen::emit;
use slotgen::scheme::SlotFunction;
use slotgen::user_file::{read_small, FileError, WAIT};
use slotgen::verify::{self, Language};

mod args;
mod keyslot;

use args::TagFormat;
pub use args::VerifyArgs;

/// `--timeout`'s default with `--exec`.
const EXEC_TIMEOUT: Duration = Duration::from_secs(120);

/// The kinds of check, by what names the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Json,
    Tags,
    Redis,
    Exec,
}

impl Mode {
    /// The mode as the command line names it, for messages.
    fn spelled(self) -> &'static str {
        match self {
            Self::Json => "a JSON derivation (`TABLE.json`)",
            Self::Tags => "`--tags`",
            Self::Redis => "`--redis`",
            Self::Exec => "`--exec`",
        }
    }
}

impl VerifyArgs {
    /// The kind of check asked for (clap requires exactly one).
    fn mode(&self) -> Mode {
        match (&self.table, &self.tags, &self.redis) {
            (Some(_), _, _) => Mode::Json,
            (_, Some(_), _) => Mode::Tags,
            (_, _, Some(_)) => Mode::Redis,
            _ => Mode::Exec,
        }
    }

    /// Refuses `verify`'s own options that the kind of check asked for would not use:
    /// each option, if given, with the kinds that use it.
    fn refuse_unused(&self, mode: Mode) -> Result<()> {
        use Mode::{Exec, Json, Redis, Tags};
        let options: [(&str, bool, &[Mode]); 8] = [
            ("--format", self.format.is_some(), &[Tags]),
            ("--keys", self.keys.is_some(), &[Redis]),
            ("--hex", self.hex, &[Redis]),
            ("--input", self.input.is_some(), &[Exec]),
            ("--count", self.count.is_some(), &[Exec]),
            ("--seed", self.seed.is_some(), &[Exec]),
            ("--timeout", self.timeout.is_some(), &[Redis, Exec]),
            (
                "--max-errors",
                self.max_errors.is_some(),
                &[Json, Tags, Redis],
            ),
        ];
        let unused: Vec<&str> = options
            .iter()
            .filter(|(_, given, modes)| *given && !modes.contains(&mode))
            .map(|(name, _, _)| *name)
            .collect();
        super::refuse_unused(&unused, mode.spelled())
    }
}

pub fn run(args: &VerifyArgs) -> Result<ExitCode> {
    let mode = args.mode();
    args.refuse_unused(mode)?;
    // the values of the options given, which apply now, before any file is read
    args.max_errors()?;
    args.count()?;
    args.timeout()?;
    args.records
        .refuse_header("verify prints a report, not records")?;
    if args.records.null && args.keys.is_none() {
        return Err(crate::exit::usage(anyhow!(
            "`-z` applies to the keys of `--keys`: remove it, or give `--keys FILE`"
        )));
    }
    match mode {
        Mode::Json => {
            let path = args.table.as_ref().expect("the mode of TABLE.json");
            super::refuse_unused(
                &args.spec.given(),
                "a JSON derivation, which names its own spec",
            )?;
            run_json(path, args.max_errors()?)
        }
        Mode::Tags => {
            let path = args.tags.as_ref().expect("the mode of --tags");
            super::refuse_unused(
                &args.spec.tags.given(),
                "a tag table, whose tags are read from the file (only the CRC and the slot count apply)",
            )?;
            run_tags(args, path)
        }
        Mode::Redis => keyslot::run(args, args.redis.as_ref().expect("the mode of --redis")),
        Mode::Exec => {
            let command = args.exec.as_ref().expect("clap requires one of the four");
            super::refuse_unused(
                &args.spec.tags.given(),
                "`--exec`, whose keys' slots depend on the CRC and the slot count only",
            )?;
            let options = super::verify_exec::ExecOptions {
                command,
                input: args.input.unwrap_or(super::verify_exec::ExecInput::Hex),
                count: args.count()?.unwrap_or(slotgen::vectors::DEFAULT_COUNT),
                seed: args.seed.unwrap_or(slotgen::vectors::DEFAULT_SEED),
                timeout: args.timeout()?.unwrap_or(EXEC_TIMEOUT),
            };
            super::verify_exec::run(&args.spec.crc.slot_function()?, &options)
        }
    }
}

/// The most bytes of a `--tags` file read: 16 MiB (a C table of 65536 slots with a
/// comment per entry has about 4 MiB).
const MAX_TAGS_BYTES: usize = 16 << 20;

/// Reads `path` (`-`: standard input), refusing more than `limit` bytes; a file through
/// the one bounded reader ([`slotgen::user_file::read_small`]: a FIFO that gives no end
/// is refused in time too).
fn read(path: &Path, limit: usize) -> Result<Vec<u8>> {
    let too_large = |name: &str| {
        anyhow!("{name} has more than {limit} bytes, and no file `slotgen verify` reads is that large: give a file written by `slotgen emit json`, or a tag table of at most 65536 entries")
    };
    if path != Path::new("-") {
        let name = format!("`{}`", slotgen::text::path(path));
        return read_small(path, limit as u64, WAIT).map_err(|e| match e {
            FileError::TooLarge { .. } => too_large(&name),
            e => anyhow!("cannot read {name}: {e}"),
        });
    }
    let mut bytes = Vec::new();
    std::io::stdin()
        .take(limit as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| anyhow!("cannot read standard input: {}", super::os_reason(&e)))?;
    if bytes.len() > limit {
        return Err(too_large("standard input"));
    }
    Ok(bytes)
}

fn run_json(path: &Path, max_errors: usize) -> Result<ExitCode> {
    let bytes = read(path, verify::MAX_JSON_BYTES)?;
    let text = std::str::from_utf8(&bytes).map_err(|e| {
        anyhow!(
            "`{}` is not UTF-8 text ({e}): give a file written by `slotgen emit json`",
            slotgen::text::path(path)
        )
    })?;
    let context = || format!("`{}`", slotgen::text::path(path));
    let report = verify::json_derivation(text).with_context(context)?;
    let d = &report.derivation;
    // the table's one-line description, as an emitted module's header gives it
    let header = format!(
        "{}: {}",
        slotgen::text::path(path),
        slotgen::emit::describe(d)
    );
    let scope = super::verification_scope(report.verification.as_ref(), d);
    write_json_report(path, &header, &report, d.slots().into(), &scope, max_errors)
}

/// Prints the report of a JSON derivation read back: the mismatches, or the verification.
fn write_json_report(
    path: &Path,
    header: &str,
    report: &verify::JsonReport,
    slots: u64,
    scope: &str,
    max_errors: usize,
) -> Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    writeln!(out, "table:      {header}")?;
    for mismatch in report.mismatches.iter().take(max_errors) {
        writeln!(out, "mismatch:   {mismatch}")?;
    }
    if report.mismatch_count > 0 {
        out.flush()?;
        bail!(
            "`{}` does not match its re-derivation: {} of {} values differ (the first {} are listed); \
             the file was edited or is not slotgen's: regenerate it with `slotgen emit json`",
            slotgen::text::path(path),
            report.mismatch_count,
            report.values_compared,
            report.mismatches.len().min(max_errors)
        );
    }
    writeln!(
        out,
        "compared:   {} values, all equal to the re-derivation",
        report.values_compared
    )?;
    let verification = report
        .verification
        .as_ref()
        .expect("verified when every value matched");
    super::write_failures(&mut out, verification, max_errors)?;
    if !verification.passed() {
        out.flush()?;
        bail!(
            "verification failed: {} over {}; see the `failed:` lines",
            super::plural(verification.failure_count, "failure", "failures"),
            super::plural(verification.slots_checked, "slot", "slots")
        );
    }
    writeln!(
        out,
        "verified:   {}/{slots} slots, {} tags{scope}",
        verification.slots_checked, verification.tags_checked
    )?;
    Ok(ExitCode::SUCCESS)
}

fn run_tags(args: &VerifyArgs, path: &Path) -> Result<ExitCode> {
    let bytes = read(path, MAX_TAGS_BYTES)?;
    let extension = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    let format = match (args.format.unwrap_or(TagFormat::Auto), extension.as_deref()) {
        (TagFormat::Auto, Some("c" | "h" | "cc" | "cpp" | "hpp")) => TagFormat::C,
        (TagFormat::Auto, Some("lua")) => TagFormat::Lua,
        (TagFormat::Auto, Some("json")) => TagFormat::Json,
        (TagFormat::Auto, _) => TagFormat::Lines,
        (format, _) => format,
    };
    // An emitted module's string literals are its messages, not tags. Its first line is
    // `@generated by slotgen [VERSION: ]slotgen emit ...` behind the comment leader.
    let first_line = bytes.split(|&b| b == b'\n').next().unwrap_or_default();
    let emitted = memchr::memmem::find(first_line, b"@generated by slotgen")
        .is_some_and(|at| memchr::memmem::find(&first_line[at..], b"slotgen emit ").is_some());
    if emitted {
        bail!(
            "`{}` is a module made by `slotgen emit`, which computes each slot's tag rather than listing it: `--tags` reads tables that list one tag per slot, such as `slotgen shortest` output",
            slotgen::text::path(path)
        );
    }
    if format == TagFormat::Json {
        super::refuse_unused(
            &args.spec.crc.given(),
            "a shortest-tag JSON, which names its own CRC (or scheme) and slot count",
        )?;
        let text = std::str::from_utf8(&bytes)
            .map_err(|e| anyhow!("`{}` is not UTF-8 text ({e})", slotgen::text::path(path)))?;
        let table = emit::shortest::from_json(text)
            .with_context(|| format!("`{}`", slotgen::text::path(path)))?;
        let gaps: Vec<usize> = (0..table.tags.len())
            .filter(|&slot| table.tags[slot].is_none())
            .collect();
        if !gaps.is_empty() {
            bail!(
                "`{}` has {} slots without a tag (the first is slot {}): a table with gaps cannot give every slot a tag; write it with a larger `--max-len` or charset",
                slotgen::text::path(path),
                gaps.len(),
                gaps[0]
            );
        }
        let tags: Vec<Vec<u8>> = table.tags.into_iter().flatten().collect();
        return check_tags(path, &tags, "JSON", &table.function, args.max_errors()?);
    }
    let (tags, form) = match format {
        TagFormat::C => (verify::tags_from_source(&bytes, Language::C), "C source"),
        TagFormat::Lua => (
            verify::tags_from_source(&bytes, Language::Lua),
            "Lua source",
        ),
        _ => (Ok(verify::tags_from_lines(&bytes)), "lines"),
    };
    let tags = tags.with_context(|| format!("`{}`", slotgen::text::path(path)))?;
    let function = args.spec.crc.slot_function()?;
    check_tags(path, &tags, form, &function, args.max_errors()?)
}

/// Checks a tag table read from `path` (in the form `form`) and prints the report: entry
/// `i` the tag of `function`'s slot `first + i`.
fn check_tags(
    path: &Path,
    tags: &[Vec<u8>],
    form: &str,
    function: &SlotFunction,
    max_errors: usize,
) -> Result<ExitCode> {
    let report = verify::tag_table(tags, function);
    let last = function.last_slot();
    let described = match (function.spec(), function.scheme_name()) {
        (Some(spec), _) => format!("{}, {} slots", spec.crc_name(), spec.slots),
        (None, Some((name, _))) => format!(
            "scheme {}, {} slots ({} to {last})",
            name.name(),
            function.slots(),
            function.first_slot(),
        ),
        (None, None) => unreachable!("a slot function is a spec's or a scheme's"),
    };
    write_tag_report(path, tags, form, &described, &report, last, max_errors)
}

/// Prints the report of a tag table: `described` names the slot function, `last` is the
/// last slot.
fn write_tag_report(
    path: &Path,
    tags: &[Vec<u8>],
    form: &str,
    described: &str,
    report: &verify::TagReport,
    last: u32,
    max_errors: usize,
) -> Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "tags:       {} ({form}, {}) for {described}",
        slotgen::text::path(path),
        super::plural(tags.len() as u64, "entry", "entries"),
    )?;
    writeln!(
        out,
        "checked:    {}",
        super::plural(report.entries_checked, "entry", "entries")
    )?;
    for m in report.misplaced.iter().take(max_errors) {
        writeln!(
            out,
            "misplaced:  slot {} tag \"{}\" lands on slot {}",
            m.slot,
            super::show_short(&m.tag),
            m.lands_on
        )?;
    }
    if report.missing > 0 {
        writeln!(
            out,
            "missing:    {}",
            match report.missing {
                1 => format!("slot {last} has no entry"),
                n => format!(
                    "slots {} to {last} have no entry ({n} slots)",
                    u64::from(last) + 1 - n
                ),
            }
        )?;
    }
    if report.extra > 0 {
        writeln!(
            out,
            "extra:      {} past the last slot, {last}",
            super::plural(report.extra, "entry", "entries"),
        )?;
    }
    if !report.passed() {
        out.flush()?;
        let pick = |n: u64, one: &'static str, many: &'static str| if n == 1 { one } else { many };
        bail!(
            "the tag table does not hold: {} of {} {} on another slot{}, {} {} no entry, {} {} extra",
            report.misplaced_count,
            super::plural(report.entries_checked, "entry", "entries"),
            pick(report.misplaced_count, "lands", "land"),
            if report.misplaced_count > max_errors.min(report.misplaced.len()) as u64 {
                format!(" (the first {} are listed)", max_errors.min(report.misplaced.len()))
            } else {
                String::new()
            },
            super::plural(report.missing, "slot", "slots"),
            pick(report.missing, "has", "have"),
            super::plural(report.extra, "entry", "entries"),
            pick(report.extra, "is", "are"),
        );
    }
    writeln!(
        out,
        "verified:   each of the {} slots holds one tag, and it lands on its slot",
        report.entries_checked
    )?;
    Ok(ExitCode::SUCCESS)
}
