//! `slotgen check`: is this key layout legal on a cluster? One row per key (slot, hashtag,
//! key, the hashtag rule's traps it falls into), then a summary; `--same-slot` and
//! `--template` check that keys meet on one slot, as a multi-key command needs. With
//! `--scheme`, the slots, hashtags and traps are the named scheme's, by its own rule.

use std::collections::BTreeSet;
use std::io::Write;
use std::process::ExitCode;

use anyhow::{anyhow, bail, Result};
use clap::{Args, ValueEnum};
use serde_json::{json, Value};
use slotgen::key_layout::{instance_count, instance_values, way_out, Instance as Keys};
use slotgen::scheme::rule::{self, Trap};
use slotgen::scheme::SlotFunction;
use slotgen_tables::HashtagRule;

use crate::exit::usage;

use super::key_input::{for_each_key_batch, BATCH};
use super::output::RecordArgs;
use super::spec_args::CrcArgs;

/// The most template instances (the product of the --with value counts).
const MAX_INSTANCES: usize = 100_000;

/// The form of the output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum CheckFormat {
    /// `slot<TAB>hashtag<TAB>key<TAB>warnings` rows, then `# ` summary lines.
    Tsv,
    /// One JSON object, schema `slotgen-check/1`.
    Json,
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The keys; with none, or `-` alone (and no --template), one key per line from standard
    /// input (the line feed, and a carriage return before it, are not part of the key; the
    /// key `-` itself is `--hex 2d`), or with `-z` one key per NUL-terminated record.
    #[arg(value_name = "KEY", conflicts_with = "template")]
    keys: Vec<String>,
    /// Keys are hex-encoded bytes (`7b617d` is `{a}`), so that any binary key can be given.
    #[arg(long)]
    hex: bool,
    /// The output's form.
    #[arg(long, value_enum, default_value_t = CheckFormat::Tsv)]
    format: CheckFormat,
    /// Fail (exit 1) unless every key lands on one slot, as a multi-key command or a
    /// script's declared keys need (otherwise the server answers CROSSSLOT).
    #[arg(long)]
    same_slot: bool,
    /// Also fail (exit 1) when any key falls into a trap of the hashtag rule.
    #[arg(long)]
    strict: bool,
    /// A key template: `{NAME}` is a placeholder filled with each value of `--with
    /// NAME=...` (the braces stay: `emq:{q}:pending` gives `emq:{orders}:pending`). Each
    /// instance's keys (one per template) must land on one slot; exit 1 otherwise.
    #[arg(long, value_name = "TEMPLATE", conflicts_with = "hex")]
    template: Vec<String>,
    /// Sample values of a template placeholder: `NAME=V1,V2,...` (an empty value tests
    /// `{}`; `\,` is a comma within a value, `\\` a backslash). Several --with give every
    /// combination.
    #[arg(long, value_name = "NAME=VALUES", requires = "template")]
    with: Vec<String>,
    #[command(flatten)]
    records: RecordArgs,
    #[command(flatten)]
    crc: CrcArgs,
}

pub fn run(args: &CheckArgs) -> Result<ExitCode> {
    let function = args.crc.slot_function()?;
    let slot_of = |key: &[u8]| function.slot(key);
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut report = Report::new(args.format, args.records.terminator(), &function, &mut out);
    match args.format {
        CheckFormat::Tsv if args.records.header => {
            line(
                report.out,
                report.terminator,
                format_args!("slot\thashtag\tkey\twarnings"),
            )?;
        }
        CheckFormat::Json => args
            .records
            .refuse_header("`--format json` names every field")?,
        CheckFormat::Tsv => {}
    }
    if args.format == CheckFormat::Json {
        let head = match function.spec() {
            Some(spec) => json!({
                "format": "slotgen-check/1",
                "crc": spec.crc_name(),
                "slots": spec.slots,
            }),
            None => {
                let mut head = json!({
                    "format": "slotgen-check/1",
                    "hashtag_rule": function.rule().name(),
                });
                head.as_object_mut()
                    .expect("an object")
                    .extend(function.json_fields());
                head
            }
        };
        let head = head.to_string();
        write!(report.out, "{},\"keys\":[", &head[..head.len() - 1])?;
    }
    let mut instances = Vec::new();
    if !args.template.is_empty() {
        instances = check_templates(args, &mut report, &slot_of)?;
    } else {
        // the key loop of `slot` and `placement`: standard input, or the arguments (a key
        // that is not hex there is a usage error, exit 2)
        let mut slots = vec![0; BATCH];
        let report = std::cell::RefCell::new(&mut report);
        let rows = |keys: &[&[u8]]| {
            let slots = &mut slots[..keys.len()];
            function.key_slots(keys, slots);
            for (key, &slot) in keys.iter().zip(&*slots) {
                report.borrow_mut().key(key, slot, None)?;
            }
            Ok(())
        };
        // the rows so far go out whenever the input is waited for
        let idle = || Ok(report.borrow_mut().out.flush()?);
        for_each_key_batch(&args.keys, args.records.terminator(), args.hex, rows, idle)?;
    }
    report.finish(args, &instances)
}

/// Writes `text` and the record terminator `terminator` (a line feed, or NUL with `-z`).
fn line(out: &mut impl Write, terminator: u8, text: std::fmt::Arguments<'_>) -> Result<()> {
    out.write_fmt(text)?;
    out.write_all(&[terminator])?;
    Ok(())
}

/// The hashtag column: `-` when the whole key is hashed, and a hashtag that is `-` itself
/// written `\x2d` (an empty field for Codis's empty hashtag).
fn hashtag_field(rule: HashtagRule, key: &[u8]) -> String {
    match rule::hashtag(rule, key) {
        None => "-".to_owned(),
        Some(b"-") => "\\x2d".to_owned(),
        Some(tag) => slotgen::text::field(tag),
    }
}

/// A hashtag in a summary line: [`escape`](slotgen::text::escape)d, and `""` for Codis's empty one.
fn shown_tag(tag: &[u8]) -> String {
    if tag.is_empty() {
        "\"\"".to_owned()
    } else {
        slotgen::text::field(tag)
    }
}

/// A template or an instance's values in a summary line or an error: as a key's field
/// ([`field`](slotgen::text::field)), so that no byte of a `--template` or `--with` value
/// adds a line or reaches a terminal as a control byte.
fn shown(text: &str) -> String {
    slotgen::text::field(text.as_bytes())
}

/// Bytes as a JSON string when they are UTF-8, else null.
fn text_or_null(bytes: &[u8]) -> Value {
    std::str::from_utf8(bytes).map_or(Value::Null, |t| Value::String(t.to_owned()))
}

/// What the rows so far add up to, and where they go.
struct Report<'o, 'f, W: Write> {
    out: &'o mut W,
    format: CheckFormat,
    /// The byte that ends each TSV line: a line feed, or NUL with `-z`.
    terminator: u8,
    function: &'f SlotFunction,
    keys: u64,
    /// The slots seen.
    seen: BTreeSet<u32>,
    first_slot: Option<u32>,
    warned_keys: u64,
    counts: [u64; Trap::ALL.len()],
    /// The hashtag all keys so far share: `Some(None)` before the first key, `None` once
    /// two keys differ or one has none.
    shared: Option<Option<Vec<u8>>>,
    /// The first key, and the first with a non-empty hashtag: what the advice takes its
    /// hashtag from.
    examples: Vec<Vec<u8>>,
}

impl<'o, 'f, W: Write> Report<'o, 'f, W> {
    fn new(
        format: CheckFormat,
        terminator: u8,
        function: &'f SlotFunction,
        out: &'o mut W,
    ) -> Self {
        Self {
            out,
            format,
            terminator,
            function,
            keys: 0,
            seen: BTreeSet::new(),
            first_slot: None,
            warned_keys: 0,
            counts: [0; Trap::ALL.len()],
            shared: Some(None),
            examples: Vec::new(),
        }
    }

    /// The rule keys are read by.
    fn rule(&self) -> HashtagRule {
        self.function.rule()
    }

    /// One row; `extra` adds fields to a JSON row (a template's name and instance).
    fn key(&mut self, key: &[u8], slot: u32, extra: Option<Value>) -> Result<()> {
        let rule = self.rule();
        let found = rule::traps(rule, key);
        let tag = rule::hashtag(rule, key);
        let tagged = |k: &[u8]| rule::hashtag(rule, k).is_some_and(|t| !t.is_empty());
        if self.examples.is_empty() || (tagged(key) && !self.examples.iter().any(|k| tagged(k))) {
            self.examples.push(key.to_vec());
        }
        match self.format {
            CheckFormat::Tsv => line(
                &mut *self.out,
                self.terminator,
                format_args!(
                    "{slot}\t{}\t{}\t{found}",
                    hashtag_field(rule, key),
                    slotgen::text::field(key)
                ),
            )?,
            CheckFormat::Json => {
                let mut row = json!({
                    "slot": slot,
                    "key": text_or_null(key),
                    "key_hex": hex::encode(key),
                    "hashtag": tag.map_or(Value::Null, text_or_null),
                    "hashtag_hex": tag.map(hex::encode),
                    "warnings": found.iter().map(Trap::name).collect::<Vec<_>>(),
                });
                if let Some(Value::Object(extra)) = extra {
                    row.as_object_mut().expect("an object").extend(extra);
                }
                write!(self.out, "{}\n{row}", if self.keys == 0 { "" } else { "," })?;
            }
        }
        self.keys += 1;
        self.seen.insert(slot);
        self.first_slot.get_or_insert(slot);
        if !found.is_empty() {
            self.warned_keys += 1;
        }
        for t in found.iter() {
            self.counts[t as usize] += 1;
        }
        self.shared = match self.shared.take() {
            Some(None) if self.keys == 1 => tag.map(|t| Some(t.to_vec())),
            Some(Some(shared)) if tag == Some(&shared[..]) => Some(Some(shared)),
            _ => None,
        };
        Ok(())
    }

    /// The keys the advice takes its hashtag from (`slotgen::key_layout::suggested_hashtag`).
    fn examples(&self) -> Vec<&[u8]> {
        self.examples.iter().map(Vec::as_slice).collect()
    }

    /// How many distinct slots the keys land on.
    fn distinct(&self) -> usize {
        self.seen.len()
    }

    fn verdict(&self) -> String {
        verdict(self.function, self.distinct(), self.first_slot)
    }

    fn shared_hashtag(&self) -> Option<&[u8]> {
        match &self.shared {
            Some(Some(tag)) => Some(tag),
            _ => None,
        }
    }

    /// The summary, then the exit: 1 when --same-slot, a template instance or --strict
    /// fails.
    fn finish(self, args: &CheckArgs, instances: &[Instance]) -> Result<ExitCode> {
        let distinct = self.distinct();
        let same_slot_failed = args.same_slot && distinct != 1;
        let broken: Vec<&Instance> = instances.iter().filter(|i| !i.off.is_empty()).collect();
        let strict_failed = args.strict && self.warned_keys > 0;
        let present: Vec<(Trap, u64)> = Trap::ALL
            .into_iter()
            .zip(self.counts)
            .filter(|&(_, n)| n > 0)
            .collect();
        let rule = self.rule();
        match self.format {
            CheckFormat::Tsv => {
                if self.function.spec().is_none() {
                    line(
                        &mut *self.out,
                        self.terminator,
                        format_args!(
                            "# {}; hashtag: {}",
                            self.function,
                            slotgen::key_layout::rule_words(
                                rule.delimiters(),
                                rule.hashes_empty_tag(),
                                slotgen::text::escape
                            )
                        ),
                    )?;
                }
                line(
                    &mut *self.out,
                    self.terminator,
                    format_args!(
                        "# keys: {}, distinct slots: {distinct}, keys with warnings: {}",
                        self.keys, self.warned_keys
                    ),
                )?;
                for &(t, n) in &present {
                    line(
                        &mut *self.out,
                        self.terminator,
                        format_args!(
                            "# {t}: {n} {}: {}",
                            if n == 1 { "key" } else { "keys" },
                            t.explanation(rule)
                        ),
                    )?;
                }
                if args.same_slot {
                    let verdict = self.verdict();
                    let shared = self.shared_hashtag().map_or("none".to_owned(), shown_tag);
                    line(&mut *self.out, self.terminator, format_args!("# {verdict}"))?;
                    line(
                        &mut *self.out,
                        self.terminator,
                        format_args!("# shared hashtag: {shared}"),
                    )?;
                }
                for instance in instances {
                    write!(
                        self.out,
                        "# instance {}: {}",
                        instance.name, instance.verdict
                    )?;
                    if !instance.off.is_empty() {
                        write!(
                            self.out,
                            "; off slot {}: {}",
                            instance.slot,
                            instance
                                .off
                                .iter()
                                .map(|t| shown(t))
                                .collect::<Vec<_>>()
                                .join(" ")
                        )?;
                    }
                    line(&mut *self.out, self.terminator, format_args!(""))?;
                }
                for template in &args.template {
                    let n = broken.iter().filter(|i| i.off.contains(template)).count();
                    if n > 0 {
                        line(
                            &mut *self.out,
                            self.terminator,
                            format_args!(
                                "# template {}: off its instance's slot in {n} of {} instances",
                                shown(template),
                                instances.len()
                            ),
                        )?;
                    }
                }
            }
            CheckFormat::Json => {
                let summary = json!({
                    "keys": self.keys,
                    "distinct_slots": distinct,
                    "slots": self.seen,
                    "keys_with_warnings": self.warned_keys,
                    "warnings": present.iter().map(|&(t, n)| (t.name().to_owned(), json!(n))).collect::<serde_json::Map<_, _>>(),
                    "explanations": present.iter().map(|&(t, _)| (t.name().to_owned(), json!(t.explanation(rule)))).collect::<serde_json::Map<_, _>>(),
                    "same_slot": args.same_slot.then(|| json!({
                        "passed": distinct == 1,
                        "verdict": self.verdict(),
                        "slot": (distinct == 1).then_some(self.first_slot).flatten(),
                        "shared_hashtag": self.shared_hashtag().map(text_or_null),
                    })),
                    "strict": args.strict.then(|| json!({ "passed": self.warned_keys == 0 })),
                });
                let instances: Vec<Value> = instances
                    .iter()
                    .map(|i| {
                        json!({
                            "values": i.values,
                            "passed": i.off.is_empty(),
                            "verdict": i.verdict,
                            "slot": i.slot,
                            "off": i.off,
                        })
                    })
                    .collect();
                let tail = if args.template.is_empty() {
                    json!({ "summary": summary })
                } else {
                    json!({ "summary": summary, "instances": instances })
                };
                let tail = tail.to_string();
                writeln!(self.out, "],{}", &tail[1..])?;
            }
        }
        self.out.flush()?;
        if !broken.is_empty() {
            let names: Vec<String> = args
                .template
                .iter()
                .filter(|t| broken.iter().any(|i| i.off.contains(t)))
                .map(|t| shown(t))
                .collect();
            match self.function.spec() {
                Some(_) => bail!(
                    "{} of {} template instances land on more than one slot (CROSSSLOT in one command); \
                     off the slot of the others: `{}`: put every key of an instance under the same hashtag",
                    broken.len(),
                    instances.len(),
                    names.join("`, `")
                ),
                None => bail!(
                    "{} of {} template instances land on more than one slot of {}; off the slot of the others: `{}`: {}",
                    broken.len(),
                    instances.len(),
                    self.function,
                    names.join("`, `"),
                    way_out(self.function, &self.examples())
                ),
            }
        }
        if same_slot_failed && self.keys == 0 {
            bail!(
                "--same-slot: there are no keys to compare: give them as arguments, or one a \
                 line on standard input"
            );
        }
        if same_slot_failed {
            match self.function.spec() {
                Some(_) => bail!(
                    "the {} keys land on {} slots, and a multi-key command needs one (CROSSSLOT): {}",
                    self.keys,
                    distinct,
                    way_out(self.function, &self.examples())
                ),
                None => bail!(
                    "the {} keys land on {distinct} slots of {}, and keys that must meet need one: {}",
                    self.keys,
                    self.function,
                    way_out(self.function, &self.examples())
                ),
            }
        }
        if strict_failed {
            bail!(
                "--strict: {} of {} keys fall into a trap of the hashtag rule (see the warnings column)",
                self.warned_keys,
                self.keys
            );
        }
        Ok(ExitCode::SUCCESS)
    }
}

/// The verdict on keys that land on `distinct` slots, the first of them `first`: `same
/// slot N`, or `CROSSSLOT: N slots` (what a Redis Cluster answers; for another scheme `N
/// slots, not one`).
fn verdict(function: &SlotFunction, distinct: usize, first: Option<u32>) -> String {
    match (distinct, first) {
        (1, Some(slot)) => format!("same slot {slot}"),
        (0, _) => "no keys".to_owned(),
        (n, _) if function.spec().is_some() => format!("CROSSSLOT: {n} slots"),
        (n, _) => format!("{n} slots, not one"),
    }
}

/// One assignment of the template placeholders, checked.
struct Instance {
    /// `q=orders`, or `(no placeholders)`, shown (escaped, a value's `,` as `\,`).
    name: String,
    values: serde_json::Map<String, Value>,
    verdict: String,
    /// The slot of most of the instance's keys (the first such, on a tie).
    slot: u32,
    /// The templates whose key is not on `slot`.
    off: Vec<String>,
}

/// `--with NAME=V1,V2`, parsed.
fn parse_with(text: &str) -> Result<(String, Vec<String>)> {
    let Some((name, values)) = text.split_once('=') else {
        return Err(usage(anyhow!(
            "--with `{}` has no `=`: give `NAME=VALUE1,VALUE2`, such as `q=orders,billing`",
            shown(text)
        )));
    };
    if name.is_empty() || name.contains(['{', '}']) {
        return Err(usage(anyhow!(
            "--with `{}`: the placeholder name `{}` must be non-empty and without braces, such as `q`",
            shown(text),
            shown(name)
        )));
    }
    Ok((name.to_owned(), split_values(values)))
}

/// `value` shown as `--with` takes it: escaped as every field is (a `\\` as `\\\\`), then
/// a `,` as `\,`, so that an instance's name (`q=a\,b,r=c`) reads one way and pastes back
/// into `--with` ([`split_values`]).
fn as_given(value: &str) -> String {
    shown(value).replace(',', "\\,")
}

/// `V1,V2` split at each comma, where `\,` is a comma within a value and `\\` a
/// backslash; any other backslash stays as it is (`a\tb` is four bytes).
fn split_values(values: &str) -> Vec<String> {
    let mut split = vec![String::new()];
    let mut chars = values.chars();
    while let Some(c) = chars.next() {
        let value = split.last_mut().expect("one value at least");
        match c {
            ',' => split.push(String::new()),
            '\\' => match chars.clone().next() {
                Some(next @ (',' | '\\')) => {
                    value.push(next);
                    chars.next();
                }
                _ => value.push(c),
            },
            _ => value.push(c),
        }
    }
    split
}

fn check_templates<W: Write>(
    args: &CheckArgs,
    report: &mut Report<'_, '_, W>,
    slot_of: &impl Fn(&[u8]) -> u32,
) -> Result<Vec<Instance>> {
    let mut names = Vec::new();
    let mut value_lists = Vec::new();
    for text in &args.with {
        let (name, values) = parse_with(text)?;
        let shown_name = shown(&name);
        if names.contains(&name) {
            return Err(usage(anyhow!(
                "--with `{shown_name}` is given twice: give all its values in one, `{shown_name}=A,B`"
            )));
        }
        let placeholder = format!("{{{name}}}");
        if !args.template.iter().any(|t| t.contains(&placeholder)) {
            return Err(usage(anyhow!(
                "--with `{shown_name}`: no --template has the placeholder `{{{shown_name}}}`: write it where the value goes, such as `emq:{{{shown_name}}}:pending`"
            )));
        }
        names.push(name);
        value_lists.push(values);
    }
    let Some(total) = instance_count(&value_lists, MAX_INSTANCES) else {
        return Err(usage(anyhow!(
            "the --with values make more than {MAX_INSTANCES} template instances: give fewer values"
        )));
    };
    let mut instances = Vec::with_capacity(total);
    for index in 0..total {
        let chosen = instance_values(&value_lists, index);
        let name = if names.is_empty() {
            "(no placeholders)".to_owned()
        } else {
            names
                .iter()
                .zip(&chosen)
                .map(|(n, v)| format!("{}={}", shown(n), as_given(v)))
                .collect::<Vec<_>>()
                .join(",")
        };
        let values: serde_json::Map<String, Value> = names
            .iter()
            .zip(&chosen)
            .map(|(n, v)| (n.clone(), json!(v)))
            .collect();
        let placed = Keys::new(&args.template, &names, &chosen, slot_of);
        for ((template, key), &slot) in args.template.iter().zip(&placed.keys).zip(&placed.slots) {
            let extra = json!({ "template": template, "instance": values });
            report.key(key.as_bytes(), slot, Some(extra))?;
        }
        let slot = placed.slot;
        let distinct = placed.slots.iter().collect::<BTreeSet<_>>().len();
        let off: Vec<String> = placed
            .off
            .iter()
            .map(|&i| args.template[i].clone())
            .collect();
        let keys = placed.keys;
        let rule = report.rule();
        let tags: Vec<Option<&[u8]>> = keys
            .iter()
            .map(|k| rule::hashtag(rule, k.as_bytes()))
            .collect();
        let shared = match tags.first() {
            Some(&Some(tag)) if tags.iter().all(|t| *t == Some(tag)) => Some(tag),
            _ => None,
        };
        let verdict = match shared {
            _ if distinct > 1 => verdict(report.function, distinct, Some(slot)),
            Some(tag) => format!("same slot {slot}, shared hashtag {}", shown_tag(tag)),
            None => format!("same slot {slot}"),
        };
        instances.push(Instance {
            name,
            values,
            verdict,
            slot,
            off,
        });
    }
    Ok(instances)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashtag_field_escapes_and_marks_none() {
        assert_eq!(hashtag_field(HashtagRule::Redis, b"{-}"), "\\x2d");
        assert_eq!(hashtag_field(HashtagRule::Redis, b"{}"), "-");
        assert_eq!(hashtag_field(HashtagRule::Redis, b"x{a\tb}"), "a\\x09b");
        assert_eq!(hashtag_field(HashtagRule::Codis, b"x{}"), "");
        assert_eq!(hashtag_field(HashtagRule::WholeKey, b"x{a}"), "-");
    }
}
