//! `slotgen lint`: does a script or transaction stay on one slot? A thin front end over
//! `slotgen_lint`: it reads the options, formats the reports as text, JSON or SARIF 2.1.0,
//! and sets the exit status (0 every target runs, 1 any fails or depends, 2 bad usage).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Result;
use clap::{Args, ValueEnum};
use percent_encoding::{percent_encode, AsciiSet, NON_ALPHANUMERIC};
use serde_json::{json, Map, Value};
use slotgen_lint::{Finding, Outcome, Report, Target, Values};

/// The form of the output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum LintFormat {
    /// `file:line:column: rule: message` lines with the fix, then a verdict line a file.
    Text,
    /// One JSON object a line, a file each: findings and the verdict of each target.
    Json,
    /// One SARIF 2.1.0 log, for code scanning in CI.
    Sarif,
}

/// A target's name on the command line: one of `Target::ALL`'s names, or an older name
/// that stands for several (`valkey`: `valkey8` and `valkey9`); the lint crate owns both
/// lists.
fn target(name: &str) -> Result<TargetName, String> {
    Target::named(name).map(TargetName).ok_or_else(|| {
        let names: Vec<&str> = Target::ALL.iter().map(|t| t.name()).collect();
        let older: Vec<String> = Target::OLDER_NAMES
            .iter()
            .map(|(older, targets)| {
                let names: Vec<&str> = targets.iter().map(|t| t.name()).collect();
                format!("`{older}` for {}", names.join(" and "))
            })
            .collect();
        let spellings = names
            .iter()
            .copied()
            .chain(Target::OLDER_NAMES.iter().map(|(older, _)| *older));
        let near = slotgen::text::nearest(name, spellings.map(|n| (n, n)))
            .first()
            .map(|n| format!("; did you mean `{n}`?"))
            .unwrap_or_default();
        format!(
            "`{}` is no target: give one of {} (or {}){near}",
            slotgen::text::escape(name.as_bytes()),
            names.join(", "),
            older.join(", ")
        )
    })
}

/// The targets one `--target` names.
#[derive(Debug, Clone)]
struct TargetName(&'static [Target]);

#[derive(Debug, Args)]
pub struct LintArgs {
    /// Lua scripts (EVAL bodies, `#!lua` shebang scripts, Functions libraries), or command
    /// files (`.redis`, `.txt`, `.cmd`: one command a line as redis-cli reads them, with
    /// MULTI/EXEC blocks).
    #[arg(value_name = "FILE", required = true)]
    files: Vec<PathBuf>,
    /// A server to judge for (several allowed): redis (7), valkey8, valkey9 (`valkey` is
    /// both), dragonfly (undeclared keys refused unless `allow-undeclared-keys`), kvrocks
    /// (`lua-strict-key-accessing yes`), aliyun (Alibaba Cloud's proxy: every key position
    /// literally `KEYS[i]`); redis, valkey8 and valkey9 by default.
    #[arg(long = "target", value_name = "NAME", value_parser = target)]
    targets: Vec<TargetName>,
    /// A key the script is called with, `KEYS[1]` first (several allowed): every slot is then
    /// computed exactly.
    #[arg(long = "keys", value_name = "KEY", conflicts_with = "no_keys")]
    keys: Vec<String>,
    /// The script is called with numkeys 0.
    #[arg(long)]
    no_keys: bool,
    /// An argument the script is called with, `ARGV[1]` first (several allowed).
    #[arg(long = "argv", value_name = "ARG")]
    argv: Vec<String>,
    /// The values of --keys and --argv are hex-encoded bytes (`7b617d` is `{a}`), so that
    /// any binary key can be given.
    #[arg(long)]
    hex: bool,
    /// The function of a Functions library that FCALL calls (every function by default).
    #[arg(long, value_name = "NAME")]
    function: Option<String>,
    /// The output's form.
    #[arg(long, value_enum, default_value_t = LintFormat::Text)]
    format: LintFormat,
}

pub fn run(args: &LintArgs) -> Result<ExitCode> {
    let mut targets: Vec<Target> = args.targets.iter().flat_map(|t| t.0).copied().collect();
    if targets.is_empty() {
        targets = vec![Target::Redis, Target::Valkey8, Target::Valkey9];
    }
    targets.sort_unstable();
    targets.dedup();
    // each value as given, or with --hex its bytes
    let bytes = |option: &str, given: &[String]| -> Result<Vec<Vec<u8>>> {
        given
            .iter()
            .map(|v| {
                if !args.hex {
                    return Ok(v.clone().into_bytes());
                }
                super::values::parse_hex_bytes(v)
                    .map(|b| b.0)
                    .map_err(|e| crate::exit::usage(anyhow::anyhow!("{option}: {e} (with --hex)")))
            })
            .collect()
    };
    let keys = bytes("--keys", &args.keys)?;
    let argv = bytes("--argv", &args.argv)?;
    let values = Values {
        keys: (args.no_keys || !keys.is_empty()).then_some(keys),
        argv: (!argv.is_empty()).then_some(argv),
        function: args.function.clone(),
    };
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut all_run = true;
    let mut reports = Vec::new();
    // the files that cannot be read or parsed, each with its error: in JSON and SARIF
    // output too, so that a reader of those alone sees them
    let mut errors = Vec::new();
    let results = slotgen_lint::lint_files(&args.files, &values, &targets);
    for (path, result) in args.files.iter().zip(results) {
        match result {
            Ok(report) => {
                all_run &= report.all_run();
                match args.format {
                    LintFormat::Text => write_text(&mut out, &report)?,
                    LintFormat::Json => writeln!(out, "{}", json_of(&report))?,
                    LintFormat::Sarif => reports.push(report),
                }
            }
            Err(e) => {
                if args.format == LintFormat::Json {
                    writeln!(out, "{}", json_of_error(path, &e))?;
                }
                out.flush()?;
                say!("slotgen: error: {e}");
                errors.push((path, e));
            }
        }
    }
    let failed = !errors.is_empty();
    if args.format == LintFormat::Sarif {
        writeln!(out, "{:#}", sarif_of(&reports, &errors))?;
    }
    out.flush()?;
    Ok(if all_run && !failed {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// `text` with its control characters escaped (`\x1b`, [`slotgen::text::escape_controls`]),
/// the rest as is: messages quote the script's own code, which may hold any byte.
fn plain(text: &str) -> String {
    slotgen::text::escape_controls(text)
}

fn outcome_name(o: Outcome) -> &'static str {
    match o {
        Outcome::Runs => "runs",
        Outcome::Depends => "depends",
        Outcome::Fails => "fails",
    }
}

/// The file of a finding as text output shows it, escaped ([`slotgen_lint::shown`]).
fn file_of(report: &Report, f: &Finding) -> String {
    report
        .files
        .get(f.at.file)
        .map(|p| slotgen_lint::shown(p))
        .unwrap_or_default()
}

/// A file's name for JSON, whose strings escape every character themselves: the name as
/// is when it is UTF-8; else its bytes escaped as text output shows them
/// ([`slotgen::text::escape`]: `b\xff.lua`, a `\` as `\\`), and `true` to say so (JSON's
/// `file_escaped`): a lossy name would make two files one.
fn json_name(path: &Path) -> (String, bool) {
    match path.to_str() {
        Some(name) => (name.to_owned(), false),
        None => (
            slotgen::text::escape(path.as_os_str().as_encoded_bytes()),
            true,
        ),
    }
}

/// Sets `v`'s `file` to `path`'s name ([`json_name`]), with `file_escaped` where it is
/// escaped.
fn set_file(v: &mut Value, path: &Path) {
    let (name, escaped) = json_name(path);
    v["file"] = json!(name);
    if escaped {
        v["file_escaped"] = json!(true);
    }
}

/// Sets `v`'s `files` to `paths`' names ([`json_name`]), with `files_escaped` (a flag a
/// name) where one is escaped.
fn set_files(v: &mut Value, paths: &[PathBuf]) {
    let names: Vec<(String, bool)> = paths.iter().map(|p| json_name(p)).collect();
    v["files"] = json!(names.iter().map(|(n, _)| n).collect::<Vec<_>>());
    if names.iter().any(|&(_, e)| e) {
        v["files_escaped"] = json!(names.iter().map(|&(_, e)| e).collect::<Vec<_>>());
    }
}

fn write_text(out: &mut impl Write, report: &Report) -> Result<()> {
    for f in &report.findings {
        let judged: Vec<String> = f
            .targets
            .iter()
            .map(|(t, o)| format!("{} {}", t.name(), outcome_name(*o)))
            .collect();
        writeln!(
            out,
            "{}:{}:{}: {}: {} [{}]",
            file_of(report, f),
            f.at.line,
            f.at.column,
            f.rule.name(),
            plain(&f.message),
            judged.join(", ")
        )?;
        writeln!(out, "  fix: {}", plain(&f.fix))?;
    }
    let verdicts: Vec<String> = report
        .targets
        .iter()
        .map(|&t| format!("{} {}", t.name(), outcome_name(report.verdict(t))))
        .collect();
    writeln!(
        out,
        "{}: {}",
        slotgen_lint::shown(&report.files[0]),
        verdicts.join(", ")
    )?;
    Ok(())
}

fn json_of(report: &Report) -> Value {
    let verdicts: Map<String, Value> = report
        .targets
        .iter()
        .map(|&t| (t.name().to_owned(), json!(outcome_name(report.verdict(t)))))
        .collect();
    let findings: Vec<Value> = report
        .findings
        .iter()
        .map(|f| {
            let mut v = serde_json::to_value(f).expect("a finding is JSON");
            let targets: Map<String, Value> = f
                .targets
                .iter()
                .map(|(t, o)| (t.name().to_owned(), json!(outcome_name(*o))))
                .collect();
            v["targets"] = Value::Object(targets);
            if let Some(path) = report.files.get(f.at.file) {
                set_file(&mut v, path);
            }
            v
        })
        .collect();
    let mut v = json!({
        "format": "slotgen-lint/1",
        "verdicts": verdicts,
        "findings": findings,
    });
    set_file(&mut v, &report.files[0]);
    set_files(&mut v, &report.files);
    v
}

/// The JSON object of a file that cannot be linted (`path` cannot be read, or is not
/// Lua 5.1, ...): its name, the error's message (the one `slotgen: error:` line's) and
/// no verdicts, as no target was judged.
fn json_of_error(path: &Path, e: &slotgen_lint::Error) -> Value {
    let (line, column) = place_of(e);
    let mut v = json!({
        "format": "slotgen-lint/1",
        "error": {"message": e.to_string(), "line": line, "column": column},
        "verdicts": {},
        "findings": [],
    });
    set_file(&mut v, path);
    set_files(&mut v, &[path.to_path_buf()]);
    v
}

/// The line and column an error names, where it names them.
fn place_of(e: &slotgen_lint::Error) -> (Option<usize>, Option<usize>) {
    use slotgen_lint::Error;
    match e {
        Error::Parse { line, column, .. } => (Some(*line), Some(*column)),
        Error::Quotes { line, .. } => (Some(*line), None),
        Error::Shebang { .. } => (Some(1), None),
        _ => (None, None),
    }
}

/// A file's name as a SARIF `artifactLocation.uri`, a URI reference (RFC 3986, which SARIF
/// 2.1.0 §3.4.3 asks for): every byte but the unreserved characters and `/`
/// percent-encoded (a space is `%20`, an ESC `%1B`, a `:` `%3A`, so that no first segment
/// reads as a scheme); a relative name stays relative, an absolute one is a `file:` URI.
fn uri_of(path: &Path) -> String {
    const KEPT: &AsciiSet = &NON_ALPHANUMERIC
        .remove(b'-')
        .remove(b'.')
        .remove(b'_')
        .remove(b'~')
        .remove(b'/');
    let encoded = percent_encode(path.as_os_str().as_encoded_bytes(), KEPT).to_string();
    if path.has_root() {
        format!("file://{encoded}")
    } else {
        encoded
    }
}

/// Each target's outcome by its name (`{"redis": "fails", ...}`).
fn outcomes(judged: impl Iterator<Item = (Target, Outcome)>) -> Map<String, Value> {
    judged
        .map(|(t, o)| (t.name().to_owned(), json!(outcome_name(o))))
        .collect()
}

/// The SARIF 2.1.0 log of `reports`: a result a finding, its outcome on each target in the
/// result's `properties.targets`, each file's verdicts in the run's `properties.files`;
/// and the files that could not be linted (`errors`) as error notifications of the run's
/// invocation, whose `executionSuccessful` is then false.
fn sarif_of(reports: &[Report], errors: &[(&PathBuf, slotgen_lint::Error)]) -> Value {
    let mut rules: Vec<&'static str> = reports
        .iter()
        .flat_map(|r| r.findings.iter().map(|f| f.rule.name()))
        .collect();
    rules.sort_unstable();
    rules.dedup();
    let results: Vec<Value> = reports
        .iter()
        .flat_map(|r| {
            r.findings.iter().map(move |f| {
                let worst = r.targets.iter().map(|&t| f.outcome(t)).max();
                let level = match worst {
                    Some(Outcome::Fails) => "error",
                    Some(Outcome::Depends) => "warning",
                    _ => "note",
                };
                let judged: Vec<String> = f
                    .targets
                    .iter()
                    .map(|(t, o)| format!("{} {}", t.name(), outcome_name(*o)))
                    .collect();
                let uri = r.files.get(f.at.file).map(|p| uri_of(p)).unwrap_or_default();
                json!({
                    "ruleId": f.rule.name(),
                    "level": level,
                    "message": {"text": format!("{} [{}]; fix: {}", f.message, judged.join(", "), f.fix)},
                    "locations": [{
                        "physicalLocation": {
                            "artifactLocation": {"uri": uri},
                            "region": {"startLine": f.at.line.max(1), "startColumn": f.at.column.max(1)},
                        }
                    }],
                    "properties": {"targets": outcomes(f.targets.iter().copied())},
                })
            })
        })
        .collect();
    let notifications: Vec<Value> = errors
        .iter()
        .map(|(path, e)| {
            let (line, column) = place_of(e);
            let mut location = json!({"artifactLocation": {"uri": uri_of(path)}});
            if let Some(line) = line {
                location["region"] = json!({"startLine": line.max(1)});
                if let Some(column) = column {
                    location["region"]["startColumn"] = json!(column.max(1));
                }
            }
            json!({
                "level": "error",
                "message": {"text": e.to_string()},
                "locations": [{"physicalLocation": location}],
            })
        })
        .collect();
    let files: Vec<Value> = reports
        .iter()
        .map(|r| {
            json!({
                "uri": uri_of(&r.files[0]),
                "verdicts": outcomes(r.targets.iter().map(|&t| (t, r.verdict(t)))),
            })
        })
        .collect();
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "slotgen lint",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rules.iter().map(|r| json!({"id": r})).collect::<Vec<_>>(),
            }},
            "results": results,
            "invocations": [{
                "executionSuccessful": errors.is_empty(),
                "toolExecutionNotifications": notifications,
            }],
            "properties": {"files": files},
        }],
    })
}
