//! `slotgen verify`: check a JSON derivation, a tag table made elsewhere, or a real server.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{anyhow, bail, Context, Result};
use clap::{ArgGroup, Args, ValueEnum};
use slotgen::emit;
use slotgen::verify::{self, Language};
use slotgen_tables::{hashtag, Crc16};

use super::SpecArgs;

/// How long to wait for a server to accept the connection, and then for each answer.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
const ANSWER_TIMEOUT: Duration = Duration::from_secs(30);

/// The form of a `--tags` file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum TagFormat {
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
    /// which names its own CRC and slot count.
    Json,
}

#[derive(Debug, Args)]
#[command(group(ArgGroup::new("what").required(true).args(["table", "tags", "redis"])))]
pub struct VerifyArgs {
    /// A derivation written by `slotgen emit json`: derived again from the spec it names,
    /// compared value by value, and verified over every slot and every alternative tag (the
    /// spec options below do not apply).
    #[arg(value_name = "TABLE.json")]
    table: Option<PathBuf>,
    /// A per-slot tag table made elsewhere, in slot order: one tag per line, or a C or Lua
    /// source whose quoted string literals are the tags. Entry i must land on slot i as the
    /// hashtag of a key (`{tag}`) under the spec's CRC and slot count.
    #[arg(long, value_name = "FILE")]
    tags: Option<PathBuf>,
    /// The form of the --tags file.
    #[arg(long, value_enum, default_value_t = TagFormat::Auto, requires = "tags")]
    format: TagFormat,
    /// A running cluster-enabled server (`redis://host:port` or `unix:///path`): asks its
    /// CLUSTER KEYSLOT, pipelined, for the tag of every slot of the spec's table.
    #[arg(long, value_name = "URL")]
    redis: Option<String>,
    /// With --redis, also ask for these keys, one per line (`-`: standard input), and compare
    /// with the spec's slot of each.
    #[arg(long, value_name = "FILE", requires = "redis")]
    keys: Option<PathBuf>,
    /// The --keys are hex-encoded bytes (`7b617d` is `{a}`).
    #[arg(long, requires = "keys")]
    hex: bool,
    #[command(flatten)]
    spec: SpecArgs,
}

pub fn run(args: &VerifyArgs) -> Result<ExitCode> {
    if let Some(path) = &args.table {
        super::refuse_unused(
            &args.spec.given(),
            "a JSON derivation, which names its own spec",
        )?;
        run_json(path)
    } else if let Some(path) = &args.tags {
        super::refuse_unused(
            &args.spec.tags.given(),
            "a tag table, whose tags are read from the file (only the CRC and the slot count apply)",
        )?;
        run_tags(args, path)
    } else if let Some(url) = &args.redis {
        run_redis(args, url)
    } else {
        unreachable!("clap requires one of TABLE.json, --tags, --redis")
    }
}

fn read(path: &Path) -> Result<Vec<u8>> {
    if path == Path::new("-") {
        let mut bytes = Vec::new();
        std::io::stdin()
            .lock()
            .read_to_end(&mut bytes)
            .context("cannot read standard input")?;
        return Ok(bytes);
    }
    std::fs::read(path).with_context(|| format!("cannot read `{}`", path.display()))
}

fn run_json(path: &Path) -> Result<ExitCode> {
    let bytes = read(path)?;
    let text = std::str::from_utf8(&bytes).map_err(|e| {
        anyhow!(
            "`{}` is not UTF-8 text ({e}): give a file written by `slotgen emit json`",
            path.display()
        )
    })?;
    let report = verify::json_derivation(text).with_context(|| format!("`{}`", path.display()))?;
    let d = &report.derivation;
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "table:      {}: {}, {} slots, {}-symbol tags over \"{}\"",
        path.display(),
        d.crc_name(),
        d.spec.slots,
        d.tag_len,
        super::show(d.alphabet.symbols())
    )?;
    for mismatch in &report.mismatches {
        writeln!(out, "mismatch:   {mismatch}")?;
    }
    if report.mismatch_count > 0 {
        out.flush()?;
        bail!(
            "`{}` does not match its re-derivation: {} of {} values differ (the first {} are listed); \
             the file was edited or is not slotgen's: regenerate it with `slotgen emit json`",
            path.display(),
            report.mismatch_count,
            report.values_compared,
            report.mismatches.len()
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
    super::write_failures(&mut out, verification)?;
    if !verification.passed() {
        out.flush()?;
        bail!(
            "verification failed: {} failures over {} slots; see the `failed:` lines",
            verification.failure_count,
            verification.slots_checked
        );
    }
    let how = super::verification_scope(verification, d);
    writeln!(
        out,
        "verified:   {}/{} slots, {} tags{how}",
        verification.slots_checked, d.spec.slots, verification.tags_checked
    )?;
    Ok(ExitCode::SUCCESS)
}

fn run_tags(args: &VerifyArgs, path: &Path) -> Result<ExitCode> {
    let bytes = read(path)?;
    let extension = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    let format = match (args.format, extension.as_deref()) {
        (TagFormat::Auto, Some("c" | "h" | "cc" | "cpp" | "hpp")) => TagFormat::C,
        (TagFormat::Auto, Some("lua")) => TagFormat::Lua,
        (TagFormat::Auto, Some("json")) => TagFormat::Json,
        (TagFormat::Auto, _) => TagFormat::Lines,
        (format, _) => format,
    };
    if format == TagFormat::Json {
        super::refuse_unused(
            &args.spec.crc.given(),
            "a shortest-tag JSON, which names its own CRC and slot count",
        )?;
        let text = std::str::from_utf8(&bytes)
            .map_err(|e| anyhow!("`{}` is not UTF-8 text ({e})", path.display()))?;
        let table =
            emit::shortest::from_json(text).with_context(|| format!("`{}`", path.display()))?;
        let gaps: Vec<usize> = (0..table.tags.len())
            .filter(|&slot| table.tags[slot].is_none())
            .collect();
        if !gaps.is_empty() {
            bail!(
                "`{}` has {} slots without a tag (the first is slot {}): a table with gaps cannot give every slot a tag; write it with a larger `--max-len` or charset",
                path.display(),
                gaps.len(),
                gaps[0]
            );
        }
        let tags: Vec<Vec<u8>> = table.tags.into_iter().flatten().collect();
        return check_tags(path, &tags, "JSON", &table.crc, table.slots);
    }
    let crc = args.spec.crc.crc()?;
    let slots = args.spec.crc.slots()?;
    let (tags, form) = match format {
        TagFormat::C => (verify::tags_from_source(&bytes, Language::C), "C source"),
        TagFormat::Lua => (
            verify::tags_from_source(&bytes, Language::Lua),
            "Lua source",
        ),
        _ => (Ok(verify::tags_from_lines(&bytes)), "lines"),
    };
    let tags = tags.with_context(|| format!("`{}`", path.display()))?;
    check_tags(path, &tags, form, &crc, slots)
}

/// Checks a tag table read from `path` (in the form `form`) and prints the report.
fn check_tags(
    path: &Path,
    tags: &[Vec<u8>],
    form: &str,
    crc: &crc::Algorithm<u16>,
    slots: slotgen::spec::SlotCount,
) -> Result<ExitCode> {
    let report = verify::tag_table(tags, crc, slots);
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "tags:       {} ({form}, {} entries) for {}, {} slots",
        path.display(),
        tags.len(),
        slotgen::catalog::name_of(crc).unwrap_or("custom"),
        slots.get()
    )?;
    writeln!(out, "checked:    {} entries", report.entries_checked)?;
    for m in &report.misplaced {
        writeln!(
            out,
            "misplaced:  slot {} tag \"{}\" lands on slot {}",
            m.slot,
            super::show(&m.tag),
            m.lands_on
        )?;
    }
    if report.missing > 0 {
        writeln!(
            out,
            "missing:    slots {}..{} have no entry ({} slots)",
            tags.len(),
            slots.get(),
            report.missing
        )?;
    }
    if report.extra > 0 {
        writeln!(
            out,
            "extra:      {} entries past the last slot, {}",
            report.extra,
            slots.get() - 1
        )?;
    }
    if !report.passed() {
        out.flush()?;
        bail!(
            "the tag table does not hold: {} of {} entries land on another slot{}, {} slots have no entry, {} entries are extra",
            report.misplaced_count,
            report.entries_checked,
            if report.misplaced_count > report.misplaced.len() as u64 {
                format!(" (the first {} are listed)", report.misplaced.len())
            } else {
                String::new()
            },
            report.missing,
            report.extra
        );
    }
    writeln!(
        out,
        "verified:   each of the {} slots holds one tag, and it lands on its slot",
        slots.get()
    )?;
    Ok(ExitCode::SUCCESS)
}

/// Asks the server `CLUSTER KEYSLOT` for each key, in one pipeline.
fn keyslots(con: &mut redis::Connection, url: &str, keys: &[Vec<u8>]) -> Result<Vec<u16>> {
    use redis::ConnectionLike;
    let mut pipe = redis::pipe();
    for key in keys {
        pipe.cmd("CLUSTER").arg("KEYSLOT").arg(key.as_slice());
    }
    let answers = con
        .req_packed_commands(&pipe.get_packed_pipeline(), 0, keys.len())
        .with_context(|| format!("asking {url} for CLUSTER KEYSLOT"))?;
    if answers.len() != keys.len() {
        bail!(
            "{url} gave {} answers to {} CLUSTER KEYSLOT queries: check that the URL names a Redis server",
            answers.len(),
            keys.len()
        );
    }
    keys.iter()
        .zip(answers)
        .map(|(key, answer)| match answer {
            redis::Value::Int(slot) => u16::try_from(slot).map_err(|_| {
                anyhow!(
                    "{url} answered slot {slot} for key \"{}\": not a slot",
                    super::show(key)
                )
            }),
            redis::Value::ServerError(e) => Err(anyhow!(
                "{url} refused CLUSTER KEYSLOT for key \"{}\": {}",
                super::show(key),
                redis::RedisError::from(e)
            )),
            other => Err(anyhow!(
                "{url} answered {other:?} to CLUSTER KEYSLOT for key \"{}\": not a slot; check that the URL names a Redis server",
                super::show(key)
            )),
        })
        .collect()
}

/// Connects to `url` and checks that the server is cluster-enabled.
fn connect(url: &str) -> Result<redis::Connection> {
    let client = redis::Client::open(url).with_context(|| {
        format!("--redis `{url}` is not a server URL: give `redis://host:port` or `unix:///path/to/socket`")
    })?;
    let mut con = client
        .get_connection_with_timeout(CONNECT_TIMEOUT)
        .with_context(|| {
            format!("cannot connect to {url}: start a cluster-enabled redis-server there, or give the URL of one")
        })?;
    con.set_read_timeout(Some(ANSWER_TIMEOUT))?;
    con.set_write_timeout(Some(ANSWER_TIMEOUT))?;
    let info: String = redis::cmd("INFO")
        .arg("cluster")
        .query(&mut con)
        .with_context(|| format!("asking {url} for INFO cluster"))?;
    if !info.lines().any(|l| l.trim() == "cluster_enabled:1") {
        bail!(
            "{url} is not cluster-enabled (INFO cluster does not say `cluster_enabled:1`): \
             CLUSTER KEYSLOT answers only on a server started with `--cluster-enabled yes`"
        );
    }
    Ok(con)
}

fn run_redis(args: &VerifyArgs, url: &str) -> Result<ExitCode> {
    let derivation = args.spec.derive()?;
    let table = derivation.table();
    let keys = match &args.keys {
        Some(path) => read_keys(path, args.hex)?,
        None => Vec::new(),
    };
    let mut con = connect(url)?;
    let slots = derivation.spec.slots;
    let tags: Vec<Vec<u8>> = (0..slots)
        .map(|slot| Ok(table.tag_for_slot(slot as u16)?.as_ref().to_vec()))
        .collect::<Result<_>>()?;
    let tag_answers = keyslots(&mut con, url, &tags)?;
    let key_answers = keyslots(&mut con, url, &keys)?;

    let mut out = std::io::stdout().lock();
    writeln!(out, "server:     {url} (cluster-enabled)")?;
    let mut disagreements = 0u64;
    for (slot, (tag, &answer)) in tags.iter().zip(&tag_answers).enumerate() {
        if usize::from(answer) != slot {
            disagreements += 1;
            writeln!(
                out,
                "disagree:   slot {slot} tag \"{}\": the server puts it on slot {answer}",
                super::show(tag)
            )?;
        }
    }
    let tag_disagreements = disagreements;
    writeln!(
        out,
        "tags:       {} of {slots} tags of {}, {} slots, land on their slot by CLUSTER KEYSLOT",
        u64::from(slots) - tag_disagreements,
        derivation.crc_name(),
        slots
    )?;
    if args.keys.is_some() {
        let crc = Crc16::new(&derivation.spec.crc);
        let mask = (slots - 1) as u16;
        for (key, &answer) in keys.iter().zip(&key_answers) {
            let ours = crc.checksum(hashtag(key)) & mask;
            if ours != answer {
                disagreements += 1;
                writeln!(
                    out,
                    "disagree:   key \"{}\": slot {ours} by {}, slot {answer} by the server",
                    super::show(key),
                    derivation.crc_name()
                )?;
            }
        }
        writeln!(
            out,
            "keys:       {} of {} keys get the same slot from the server",
            keys.len() as u64 - (disagreements - tag_disagreements),
            keys.len()
        )?;
    }
    if disagreements > 0 {
        out.flush()?;
        bail!("{disagreements} answers of {url} disagree with the spec; see the `disagree:` lines");
    }
    Ok(ExitCode::SUCCESS)
}

fn read_keys(path: &Path, hex: bool) -> Result<Vec<Vec<u8>>> {
    let lines = verify::tags_from_lines(&read(path)?);
    if !hex {
        return Ok(lines);
    }
    lines
        .iter()
        .enumerate()
        .map(|(n, line)| {
            hex::decode(line).with_context(|| {
                format!(
                    "key {} is not hex: with --hex, give each key as pairs of hex digits",
                    n + 1
                )
            })
        })
        .collect()
}
