//! Output for scripts, the same on every command that prints records (`slot`, `tag`,
//! `key`, `catalog`): `--format text|tsv|json|jsonl`, `--header`, `-z`/`--null`.
//!
//! # Schema `slotgen-records/1`
//!
//! A command prints records, each a fixed list of named fields. A field is a number, a
//! boolean, a string, a list of strings, or a byte string (a key or a tag: any bytes).
//!
//! - `text` (the default): the command's own lines (`slot`: the slot; `tag`, `key`, `slot
//!   --with-key`: `<slot>\t<tag or key>`), fields escaped as in TSV; with `-z`, byte strings
//!   as they are (raw records for `xargs -0`; a NUL in a field is refused).
//! - `tsv`: one line per record, fields in the documented order, separated by a tab; with
//!   `--header`, a first line of the field names. Every string is written by
//!   [`slotgen::text::write_field`]: printable ASCII as it is, `\` as `\\`, any other byte
//!   (tab, line feed, ESC, non-ASCII) as `\xNN`, so a field never holds a separator or a
//!   control byte. An absent value is an empty field; a list is its items joined by `,`; a
//!   boolean is `true` or `false`.
//! - `json`: one document, `{"format": "slotgen-records/1", "command": "<name>",
//!   "records": [...]}`, each record an object whose keys are the field names.
//! - `jsonl` (JSON Lines): the record objects alone, one per line, as they are produced.
//!
//! In JSON, numbers are JSON integers (a slot, a CRC parameter such as `"poly": 4129`:
//! never hex strings); absent values are `null`. A byte string `name` is two keys: `name`,
//! the bytes as a string when they are UTF-8 (else `null`), and `name_hex`, the bytes as
//! lowercase hex pairs, always present and authoritative (`"tag": "DLH@", "tag_hex":
//! "444c4840"`). These are the only hex values.
//!
//! `-z`/`--null` ends each `text` and `tsv` record with NUL instead of a line feed, and makes
//! `slot` read NUL-terminated keys from standard input, so keys holding line feeds pass
//! through (`find -print0`, `xargs -0` style). JSON escapes every control byte and needs no
//! other terminator; `-z` does not change it. `-z` and `--header` are [`RecordArgs`], the
//! same on the commands with an output of their own: `check`, `keys`, `placement`, `verify
//! --keys` (keys are read by [`super::key_input`]).
//!
//! The fields of each command:
//!
//! | command | fields |
//! | --- | --- |
//! | `slot` | `slot`; with `--with-key` (and always in JSON) then `key` (byte string) |
//! | `tag` | `slot`, `tag` (byte string) |
//! | `key` | `slot`, `key` (byte string) |
//! | `catalog` | `name`, `aliases` (list), `width`, `poly`, `init`, `refin`, `refout`, `xorout`, `check`, `residue`, `check_verified`, `default_tag_len` (absent when no length reaches every slot), `alnum_alphabet`, `alnum_tag_len` |
//!
//! `derive` prints one document, not records: it takes `--format text` or `--format json`
//! (the same as its `--json`, schema `slotgen-derivation/2`) and refuses the others.

use std::io::Write;

use anyhow::{bail, Result};
use clap::{Args, ValueEnum};
use serde_json::{Map, Value};
use slotgen::text::write_field;

/// The schema name and version of the JSON document.
pub const SCHEMA: &str = "slotgen-records/1";

/// How records are printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum Format {
    /// The command's own lines, for people (the default).
    #[default]
    Text,
    /// Tab-separated fields, one record per line (`--header` for a line of field names).
    Tsv,
    /// One JSON document (schema `slotgen-records/1`).
    Json,
    /// JSON Lines: one JSON object per record.
    Jsonl,
}

/// `--header` and `-z`: one meaning on every command that reads or prints keys (`slot`,
/// `tag`, `key`, `catalog`, `check`, `placement`, `verify --keys`, `keys`), flattened into
/// [`OutputArgs`] and into the commands with an output of their own.
#[derive(Debug, Clone, Copy, Default, Args)]
pub struct RecordArgs {
    /// Before TSV records (`--format tsv`), a line of their field names; refused where the
    /// output has none.
    #[arg(long)]
    pub header: bool,
    /// Records end with NUL instead of a line feed: the keys read (so that a key may hold a
    /// line feed; every byte but NUL is part of the key), and the text and TSV records
    /// printed.
    #[arg(short = 'z', long = "null")]
    pub null: bool,
}

impl RecordArgs {
    /// The byte that ends a record read or printed.
    pub fn terminator(&self) -> u8 {
        if self.null {
            0
        } else {
            b'\n'
        }
    }

    /// Refuses `--header` on a command whose output has no field names (`what` says why).
    pub fn refuse_header(&self, what: &str) -> Result<()> {
        if self.header {
            return Err(crate::exit::usage(anyhow::anyhow!(
                "`--header` applies to TSV records, and {what}: remove it"
            )));
        }
        Ok(())
    }
}

/// The output options, flattened into each command that prints records.
#[derive(Debug, Clone, Args)]
pub struct OutputArgs {
    /// The output format.
    ///
    /// TSV fields are separated by tabs, with `\` written `\\` and any other byte but
    /// printable ASCII `\xNN` (a tab `\x09`), as text is without `-z`. In JSON (schema
    /// `slotgen-records/1`) integers are JSON integers, and a key or a tag is two fields:
    /// `key`, its text (`null` when it is not UTF-8), and `key_hex`, its bytes in hex.
    #[arg(long, value_enum, default_value_t, value_name = "FORMAT")]
    pub format: Format,
    #[command(flatten)]
    pub records: RecordArgs,
}

impl OutputArgs {
    /// The byte that ends a text or TSV record.
    pub fn terminator(&self) -> u8 {
        self.records.terminator()
    }

    /// Refuses `--header` without `--format tsv`, and `-z` where it changes nothing
    /// (`reads` is whether the command reads records that `-z` delimits).
    pub fn check(&self, reads: bool) -> Result<()> {
        if self.records.header && self.format != Format::Tsv {
            return Err(crate::exit::usage(anyhow::anyhow!(
                "`--header` applies to `--format tsv` only: remove it, or add `--format tsv`"
            )));
        }
        if self.records.null && !reads && matches!(self.format, Format::Json | Format::Jsonl) {
            return Err(crate::exit::usage(anyhow::anyhow!(
                "`-z` applies to text and TSV records, and JSON needs no terminator: remove it"
            )));
        }
        Ok(())
    }
}

/// One field's value.
#[derive(Debug, Clone)]
pub enum Field<'a> {
    /// An integer: a slot, a CRC parameter, a length.
    Int(u64),
    /// A boolean.
    Bool(bool),
    /// Text that is always UTF-8: a CRC's name, an alphabet of printable ASCII.
    Text(&'a str),
    /// A list of text items.
    List(&'a [&'a str]),
    /// Any bytes: a key, a tag.
    Bytes(&'a [u8]),
    /// No value.
    Absent,
}

/// Writes records in one of the formats. A command whose text is not one line of fields
/// per record (`catalog`) writes its text lines itself.
pub struct Records<W: Write> {
    out: W,
    format: Format,
    terminator: u8,
    command: &'static str,
    names: &'static [&'static str],
    count: u64,
    /// The text or TSV lines being made, before they are written.
    text: Vec<u8>,
}

impl<W: Write> Records<W> {
    /// Starts the output of `command`'s records with the fields `names`: the TSV header
    /// line when asked, the opening of the JSON document.
    pub fn start(
        mut out: W,
        args: &OutputArgs,
        command: &'static str,
        names: &'static [&'static str],
    ) -> Result<Self> {
        match args.format {
            Format::Tsv if args.records.header => {
                out.write_all(names.join("\t").as_bytes())?;
                out.write_all(&[args.terminator()])?;
            }
            Format::Json => {
                write!(
                    out,
                    "{{\"format\":{},\"command\":{},\"records\":[",
                    Value::from(SCHEMA),
                    Value::from(command)
                )?;
            }
            _ => {}
        }
        Ok(Self {
            out,
            format: args.format,
            terminator: args.terminator(),
            command,
            names,
            count: 0,
            text: Vec::new(),
        })
    }

    /// Writes out what the records so far have buffered (a JSON document stays open).
    ///
    /// # Errors
    ///
    /// The write's.
    pub fn flush(&mut self) -> Result<()> {
        self.out.flush()?;
        Ok(())
    }

    /// Writes one record: `fields` in the order of the names given to [`Records::start`].
    ///
    /// # Panics
    ///
    /// When `fields` and the names differ in length (a bug in the command).
    pub fn record(&mut self, fields: &[Field<'_>]) -> Result<()> {
        assert_eq!(fields.len(), self.names.len(), "{}", self.command);
        match self.format {
            Format::Text | Format::Tsv => {
                let mut line = std::mem::take(&mut self.text);
                line.clear();
                let written = self.line(&mut line, fields);
                self.out.write_all(&line)?;
                self.text = line;
                written?;
            }
            Format::Json | Format::Jsonl => {
                if self.format == Format::Json && self.count > 0 {
                    self.out.write_all(b",")?;
                }
                // serialised first, so that a failed write is the io::Error itself (a closed
                // pipe ends the program quietly)
                let object = serde_json::to_vec(&self.object(fields))?;
                self.out.write_all(&object)?;
                if self.format == Format::Jsonl {
                    self.out.write_all(b"\n")?;
                }
            }
        }
        self.count += 1;
        Ok(())
    }

    /// Writes the records of a batch of integers (slots), each with its byte string (key)
    /// after it when `bytes` is given: the records [`record`](Self::record) writes for
    /// `[Field::Int(ints[i]), Field::Bytes(bytes[i])]` (or `[Field::Int(ints[i])]`), with
    /// the text and TSV lines of the whole batch made in one buffer and written at once.
    ///
    /// # Errors
    ///
    /// Those of [`record`](Self::record); the records before the one refused are written.
    ///
    /// # Panics
    ///
    /// When the names given to [`Records::start`] are not two with `bytes` and one without,
    /// or `bytes` is shorter than `ints` (a bug in the command).
    pub fn int_records(&mut self, ints: &[u32], bytes: Option<&[&[u8]]>) -> Result<()> {
        let fields = 1 + usize::from(bytes.is_some());
        assert_eq!(fields, self.names.len(), "{}", self.command);
        if let Some(bytes) = bytes {
            assert!(bytes.len() >= ints.len(), "{}", self.command);
        }
        if matches!(self.format, Format::Json | Format::Jsonl) {
            for (i, &n) in ints.iter().enumerate() {
                let n = Field::Int(n.into());
                match bytes {
                    Some(bytes) => self.record(&[n, Field::Bytes(bytes[i])])?,
                    None => self.record(&[n])?,
                }
            }
            return Ok(());
        }
        let mut lines = std::mem::take(&mut self.text);
        lines.clear();
        if bytes.is_none() {
            // `line`'s record of one integer, the number then the terminator, written at an
            // index kept in a register rather than pushed (each push would store the
            // vector's length for the next to load)
            lines.resize(ints.len() * (DECIMAL_ROOM + 1), 0);
            let mut at = 0;
            for &n in ints {
                at += put_decimal(&mut lines[at..], n.into());
                lines[at] = self.terminator;
                at += 1;
            }
            lines.truncate(at);
            self.count += ints.len() as u64;
            self.out.write_all(&lines)?;
            self.text = lines;
            return Ok(());
        }
        let mut written = Ok(());
        for (i, &n) in ints.iter().enumerate() {
            let n = Field::Int(n.into());
            written = match bytes {
                Some(bytes) => self.line(&mut lines, &[n, Field::Bytes(bytes[i])]),
                None => self.line(&mut lines, &[n]),
            };
            if written.is_err() {
                break;
            }
            self.count += 1;
        }
        self.out.write_all(&lines)?;
        self.text = lines;
        written
    }

    /// Adds one text or TSV record to `lines`: `fields` separated by tabs, then the
    /// terminator.
    #[inline(always)]
    fn line(&self, lines: &mut Vec<u8>, fields: &[Field<'_>]) -> Result<()> {
        // raw byte strings only where asked (`-z`: records for `xargs -0`)
        let raw = self.format == Format::Text && self.terminator == 0;
        if raw {
            for (name, field) in self.names.iter().zip(fields) {
                self.refuse_nul(name, field)?;
            }
        }
        for (i, field) in fields.iter().enumerate() {
            if i > 0 {
                lines.push(b'\t');
            }
            if raw {
                write_raw(lines, field)?;
            } else {
                write_tsv(lines, field)?;
            }
        }
        lines.push(self.terminator);
        Ok(())
    }

    /// Refuses a raw field that holds NUL, which ends a record under `-z` and would make one
    /// record read as two.
    fn refuse_nul(&self, name: &str, field: &Field<'_>) -> Result<()> {
        let holds = match field {
            Field::Text(t) => t.as_bytes().contains(&0),
            Field::Bytes(bytes) => bytes.contains(&0),
            Field::List(items) => items.iter().any(|i| i.as_bytes().contains(&0)),
            _ => false,
        };
        if holds {
            bail!("a {name} holds a NUL byte, which ends a record under `-z`: use `--format tsv` or `--format json`, or leave `-z` out (the NUL is then shown as `\\x00`)")
        }
        Ok(())
    }

    fn object(&self, fields: &[Field<'_>]) -> Value {
        let mut object = Map::new();
        for (name, field) in self.names.iter().zip(fields) {
            let value = match field {
                Field::Int(n) => Value::from(*n),
                Field::Bool(b) => Value::from(*b),
                Field::Text(t) => Value::from(*t),
                Field::List(items) => Value::from(items.to_vec()),
                Field::Absent => Value::Null,
                Field::Bytes(bytes) => {
                    object.insert(format!("{name}_hex"), Value::from(hex::encode(bytes)));
                    std::str::from_utf8(bytes).map_or(Value::Null, Value::from)
                }
            };
            object.insert((*name).to_owned(), value);
        }
        Value::Object(object)
    }

    /// Ends the output (closes the JSON document) and flushes it.
    pub fn finish(mut self) -> Result<()> {
        if self.format == Format::Json {
            self.out.write_all(b"]}\n")?;
        }
        self.out.flush()?;
        Ok(())
    }
}

/// A field of a raw text record (`-z`), as it is.
fn write_raw(out: &mut Vec<u8>, field: &Field<'_>) -> std::io::Result<()> {
    match field {
        Field::Text(t) => out.extend_from_slice(t.as_bytes()),
        Field::Bytes(bytes) => out.extend_from_slice(bytes),
        Field::List(items) => out.extend_from_slice(items.join(",").as_bytes()),
        other => write_tsv(out, other)?,
    }
    Ok(())
}

/// A field as TSV: escaped by [`write_field`] so that it holds no tab, line break or other
/// control byte.
#[inline(always)]
fn write_tsv(out: &mut Vec<u8>, field: &Field<'_>) -> std::io::Result<()> {
    match field {
        Field::Int(n) => push_decimal(out, *n),
        Field::Bool(b) => write!(out, "{b}")?,
        Field::Text(t) => write_field(out, t.as_bytes())?,
        Field::List(items) => write_field(out, items.join(",").as_bytes())?,
        Field::Bytes(bytes) => write_field(out, bytes)?,
        Field::Absent => {}
    }
    Ok(())
}

/// The decimal digits of 0 to 99, two bytes each.
const DIGIT_PAIRS: &[u8; 200] = b"\
    0001020304050607080910111213141516171819\
    2021222324252627282930313233343536373839\
    4041424344454647484950515253545556575859\
    6061626364656667686970717273747576777879\
    8081828384858687888990919293949596979899";

/// The most bytes [`put_decimal`] writes: 20 digits, or 8 for a number below 100,000.
const DECIMAL_ROOM: usize = 24;

/// Appends `n` in decimal to `out`.
fn push_decimal(out: &mut Vec<u8>, n: u64) {
    let at = out.len();
    out.extend_from_slice(&[0; DECIMAL_ROOM]);
    let len = put_decimal(&mut out[at..], n);
    out.truncate(at + len);
}

/// Writes `n` in decimal at the start of `out`, which has room for [`DECIMAL_ROOM`] bytes,
/// and gives its length (bytes past it may be written too). A number below 100,000 (a
/// slot) is five digits in one 8-byte word whose leading zeros are shifted out: no loop,
/// and no copy of a length known only at run time. Longer numbers are `itoa`'s.
#[inline]
fn put_decimal(out: &mut [u8], n: u64) -> usize {
    let Ok(short @ 0..100_000) = u32::try_from(n) else {
        let mut buffer = itoa::Buffer::new();
        let digits = buffer.format(n).as_bytes();
        out[..digits.len()].copy_from_slice(digits);
        return digits.len();
    };
    let pair = |p: u32| &DIGIT_PAIRS[2 * p as usize..2 * p as usize + 2];
    let (high, middle, low) = (
        pair(short / 10_000),
        pair(short / 100 % 100),
        pair(short % 100),
    );
    let digits = [high[1], middle[0], middle[1], low[0], low[1], 0, 0, 0];
    let len = 1 + [10, 100, 1000, 10_000]
        .iter()
        .map(|&bound| usize::from(short >= bound))
        .sum::<usize>();
    // byte i of the word is digit i: shifting right drops the first 5 - len digits
    let word = u64::from_le_bytes(digits) >> (8 * (5 - len));
    out[..8].copy_from_slice(&word.to_le_bytes());
    len
}

/// The error of a file that cannot be written (`--output`): the path, escaped, and the
/// operating system's reason, once; for a directory that does not exist, it and the fix
/// (`emit go -o slotgen/slotgen.go` said only "No such file or directory").
pub fn cannot_write(path: &std::path::Path, error: &std::io::Error) -> anyhow::Error {
    let shown = slotgen::text::path;
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
    match dir {
        Some(dir) if error.kind() == std::io::ErrorKind::NotFound && !dir.exists() => {
            anyhow::anyhow!(
                "cannot write `{}`: the directory `{}` does not exist: create it first (`mkdir -p {}`), or give a path in a directory that exists",
                shown(path),
                shown(dir),
                slotgen::text::shell_quote(dir.as_os_str().as_encoded_bytes())
            )
        }
        _ => anyhow::anyhow!(
            "cannot write `{}`: {}",
            shown(path),
            crate::cli::os_reason(error)
        ),
    }
}

/// Writes a whole generated text to `path` (`--output`), or to standard output.
///
/// # Errors
///
/// The file cannot be written (the operating system's reason, once), or standard output
/// fails.
pub fn write_text(
    path: Option<&std::path::Path>,
    text: &str,
) -> anyhow::Result<std::process::ExitCode> {
    match path {
        Some(path) => std::fs::write(path, text).map_err(|e| cannot_write(path, &e))?,
        None => std::io::Write::write_all(&mut std::io::stdout().lock(), text.as_bytes())?,
    }
    Ok(std::process::ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(format: Format) -> OutputArgs {
        OutputArgs {
            format,
            records: RecordArgs {
                header: true,
                null: false,
            },
        }
    }

    #[test]
    fn tsv_escapes_separators_and_json_splits_byte_strings() {
        let mut tsv = Vec::new();
        let mut records =
            Records::start(&mut tsv, &args(Format::Tsv), "t", &["slot", "key"]).unwrap();
        records
            .record(&[Field::Int(7), Field::Bytes(b"a\tb\\c\nd\re\0f")])
            .unwrap();
        records.finish().unwrap();
        assert_eq!(tsv, b"slot\tkey\n7\ta\\x09b\\\\c\\x0ad\\x0de\\x00f\n");

        let mut json = Vec::new();
        let mut records = Records::start(
            &mut json,
            &OutputArgs {
                records: RecordArgs::default(),
                ..args(Format::Json)
            },
            "t",
            &["slot", "key"],
        )
        .unwrap();
        records
            .record(&[Field::Int(7), Field::Bytes(b"\xff{")])
            .unwrap();
        records
            .record(&[Field::Int(8), Field::Bytes(b"ok")])
            .unwrap();
        records.finish().unwrap();
        assert_eq!(
            String::from_utf8(json).unwrap(),
            "{\"format\":\"slotgen-records/1\",\"command\":\"t\",\"records\":[\
             {\"key\":null,\"key_hex\":\"ff7b\",\"slot\":7},{\"key\":\"ok\",\"key_hex\":\"6f6b\",\"slot\":8}]}\n"
        );
    }

    #[test]
    fn a_batch_of_records_is_the_records_one_by_one() {
        let ints = [0, 9, 10, 99_999, 100_000, 16383, u32::MAX];
        let keys: [&[u8]; 7] = [b"a", b"", b"t\tab\\", b"\x00", b"{k}", b"\xff\n", b"z"];
        for format in [Format::Text, Format::Tsv, Format::Json, Format::Jsonl] {
            for null in [false, true] {
                for with_keys in [false, true] {
                    let args = OutputArgs {
                        format,
                        records: RecordArgs {
                            header: format == Format::Tsv,
                            null,
                        },
                    };
                    let names: &[&str] = if with_keys {
                        &["slot", "key"]
                    } else {
                        &["slot"]
                    };
                    let (mut batch, mut one) = (Vec::new(), Vec::new());
                    let mut records = Records::start(&mut batch, &args, "t", names).unwrap();
                    let batched = records.int_records(&ints, with_keys.then_some(&keys));
                    records.finish().unwrap();
                    let mut records = Records::start(&mut one, &args, "t", names).unwrap();
                    let each = ints.iter().zip(keys).try_for_each(|(&n, key)| {
                        let n = Field::Int(n.into());
                        if with_keys {
                            records.record(&[n, Field::Bytes(key)])
                        } else {
                            records.record(&[n])
                        }
                    });
                    records.finish().unwrap();
                    let case = format!("{format:?}, -z {null}, keys {with_keys}");
                    assert_eq!(batched.is_err(), each.is_err(), "{case}");
                    assert_eq!(
                        String::from_utf8_lossy(&batch),
                        String::from_utf8_lossy(&one),
                        "{case}"
                    );
                }
            }
        }
    }

    #[test]
    fn decimals_are_the_formatters() {
        let mut out = Vec::new();
        let mut expected = String::new();
        let powers = (0..20).map(|k| 10u64.pow(k));
        let around = powers.flat_map(|p| [p - 1, p, p + 1]);
        for n in (0..=100_000).chain(around).chain([u64::MAX - 1, u64::MAX]) {
            push_decimal(&mut out, n);
            out.push(b' ');
            expected += &format!("{n} ");
        }
        assert_eq!(String::from_utf8(out).unwrap(), expected);
    }

    #[test]
    fn options_that_would_change_nothing_are_refused() {
        assert!(args(Format::Text).check(false).is_err());
        assert!(args(Format::Tsv).check(false).is_ok());
        let null = OutputArgs {
            format: Format::Jsonl,
            records: RecordArgs {
                header: false,
                null: true,
            },
        };
        assert!(null.check(false).is_err());
        assert!(null.check(true).is_ok());
    }
}
