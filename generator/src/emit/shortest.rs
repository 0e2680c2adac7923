//! A shortest-tag table ([`Shortest`]) as text: one tag per line, C, Lua and JSON. Its Rust
//! form is [`rust::shortest_static`](crate::emit::rust::shortest_static).
//!
//! Tags are printable ASCII without braces (see [`Charset`](crate::shortest::Charset)), so
//! each format quotes them with at most a backslash before `"`, `\` and (in C, against
//! trigraphs) `?`.

use std::fmt::Write;

use serde_json::{json, Value};

use crate::shortest::Shortest;

/// The JSON schema name and version written to `"format"`.
pub const FORMAT: &str = "slotgen-shortest/1";

/// A one-line description of the table: spec, tags per length, gaps.
///
/// # Examples
///
/// ```
/// let table = slotgen::shortest::shortest(&Default::default())?;
/// assert_eq!(
///     slotgen::emit::shortest::describe(&table),
///     "CRC-16/XMODEM, 16384 slots, charset `0-9a-zA-Z` in this order, tags of at most 3 \
///      symbols: 62 of length 1, 3448 of length 2, 12874 of length 3, 0 gaps",
/// );
/// # Ok::<(), slotgen::Error>(())
/// ```
#[must_use]
pub fn describe(table: &Shortest) -> String {
    let spec = &table.spec;
    let mut per_len = vec![0usize; table.width() + 1];
    for tag in table.tags() {
        per_len[tag.map_or(0, <[u8]>::len)] += 1;
    }
    let mut out = format!(
        "{}, {} slots, charset `{}` in this order, tags of at most {} symbols:",
        spec.crc_name(),
        spec.slots,
        spec.charset.ranges(),
        spec.max_len,
    );
    for (len, count) in per_len.iter().enumerate().skip(1) {
        write!(out, " {count} of length {len},").expect("writing to a String");
    }
    write!(out, " {} gaps", per_len[0]).expect("writing to a String");
    out
}

/// The `slotgen shortest` command line that writes this table in `format` (`lines`, `c`,
/// `lua`, `json`, `rust`), every option spelled out: the charset as a bracket expression and
/// its order as ranges, `--allow-gaps` when the table has gaps.
///
/// # Examples
///
/// ```
/// let table = slotgen::shortest::shortest(&Default::default())?;
/// assert_eq!(
///     slotgen::emit::shortest::command(&table, "c", Some("crc16_slot_table")),
///     "slotgen shortest --crc CRC-16/XMODEM --slots 16384 --charset '[0-9A-Za-z]' \
///      --order '0-9a-zA-Z' --max-len 3 --format c --name crc16_slot_table",
/// );
/// # Ok::<(), slotgen::Error>(())
/// ```
#[must_use]
pub fn command(table: &Shortest, format: &str, name: Option<&str>) -> String {
    let spec = &table.spec;
    let crc = super::common::crc_options(&spec.crc);
    let quote = |s: &str| super::common::shell_quote(s.as_bytes());
    let mut out = format!(
        "slotgen shortest {crc} --slots {} --charset {} --order {} --max-len {} --format {format}",
        spec.slots,
        quote(&format!("[{}]", spec.charset.set_ranges())),
        quote(&spec.charset.ranges()),
        spec.max_len,
    );
    if let Some(name) = name {
        write!(out, " --name {name}").expect("writing to a String");
    }
    if !table.gaps().is_empty() {
        out += " --allow-gaps";
    }
    out
}

/// One tag per line in slot order, an empty line for a gap: `slots` lines.
#[must_use]
pub fn lines(table: &Shortest) -> String {
    let mut out = String::new();
    for tag in table.tags() {
        out += &String::from_utf8_lossy(tag.unwrap_or_default());
        out.push('\n');
    }
    out
}

/// `"tag"` with a backslash before each byte of `escaped`.
fn quoted(tag: &[u8], escaped: &[u8]) -> String {
    let mut out = String::from("\"");
    for &b in tag {
        if escaped.contains(&b) {
            out.push('\\');
        }
        out.push(char::from(b));
    }
    out.push('"');
    out
}

/// Entries, `per_line` to a line, each followed by a comma.
fn rows(entries: &[String], per_line: usize) -> String {
    entries
        .chunks(per_line)
        .map(|row| row.join(", ") + ",\n")
        .collect()
}

/// A C file: `const char NAME[slots][width + 1]`, redis-benchmark's `crc16_slot_table` in
/// form, entry `slot` the tag of that slot, `""` for a gap; 16 entries to a line, so the
/// line of slot `s` is `s / 16` after the opening one.
///
/// # Examples
///
/// ```
/// let table = slotgen::shortest::shortest(&Default::default())?;
/// let c = slotgen::emit::shortest::c(&table, "crc16_slot_table");
/// assert!(c.contains("const char crc16_slot_table[16384][4] = {\n\"06S\", \"Qi\", \"5L5\","));
/// # Ok::<(), slotgen::Error>(())
/// ```
#[must_use]
pub fn c(table: &Shortest, name: &str) -> String {
    let entries: Vec<String> = table
        .tags()
        .map(|tag| quoted(tag.unwrap_or_default(), b"\"\\?"))
        .collect();
    let [generated, edit, spec] =
        super::common::generated_lines(&command(table, "c", Some(name)), &describe(table));
    format!(
        "/* {generated} */\n/* {edit} {spec} */\n\n\
         /* {name}[slot]: the first tag, shortest first, then in charset order, that lands on\n   \
         slot; \"\" where no tag of at most {} symbols does. */\n\
         const char {name}[{}][{}] = {{\n{}}};\n",
        table.spec.max_len,
        table.spec.slots,
        table.width() + 1,
        rows(&entries, 16),
    )
}

/// A Lua chunk that returns the table as a sequence: `tags[slot + 1]` is the tag of `slot`
/// (Lua sequences start at 1), `false` for a gap.
///
/// # Examples
///
/// ```
/// let table = slotgen::shortest::shortest(&Default::default())?;
/// let lua = slotgen::emit::shortest::lua(&table);
/// assert!(lua.contains("return {\n\"06S\", \"Qi\", \"5L5\","));
/// # Ok::<(), slotgen::Error>(())
/// ```
#[must_use]
pub fn lua(table: &Shortest) -> String {
    let entries: Vec<String> = table
        .tags()
        .map(|tag| tag.map_or_else(|| "false".to_owned(), |t| quoted(t, b"\"\\")))
        .collect();
    let [generated, edit, spec] =
        super::common::generated_lines(&command(table, "lua", None), &describe(table));
    format!(
        "-- {generated}\n-- {edit} {spec}\n\
         -- tags[slot + 1]: the first tag, shortest first, then in charset order, that lands on\n\
         -- slot; false where no tag of at most {} symbols does.\n\
         return {{\n{}}}\n",
        table.spec.max_len,
        rows(&entries, 16),
    )
}

/// The table as JSON (`"format": "slotgen-shortest/1"`): `crc` (the RevEng model and
/// `name`), `slots`, `charset` (the symbols in search order), `max_len`, `width`, `tags`
/// (one string per slot in slot order, `null` for a gap) and `gaps` (the slots without a
/// tag, ascending).
#[must_use]
pub fn to_value(table: &Shortest) -> Value {
    let spec = &table.spec;
    let alg = &spec.crc;
    let tags: Vec<Value> = table
        .tags()
        .map(|tag| tag.map_or(Value::Null, |t| Value::from(String::from_utf8_lossy(t))))
        .collect();
    json!({
        "format": FORMAT,
        "generator": concat!("slotgen ", env!("CARGO_PKG_VERSION")),
        "crc": super::json::crc_value(spec.crc_name(), alg),
        "slots": spec.slots,
        "charset": String::from_utf8_lossy(spec.charset.symbols()),
        "max_len": spec.max_len,
        "width": table.width(),
        "tags": tags,
        "gaps": table.gaps(),
    })
}

/// A shortest-tag table read back from its JSON form ([`to_value`]): what `slotgen verify`
/// checks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShortestJson {
    /// The CRC the file names (`crc`).
    pub crc: crc::Algorithm<u16>,
    /// The slot count (`slots`).
    pub slots: crate::spec::SlotCount,
    /// The tags in slot order (`tags`), `None` for a gap.
    pub tags: Vec<Option<Vec<u8>>>,
}

/// Reads the JSON form of a shortest-tag table (schema `slotgen-shortest/1`): its CRC, slot
/// count and tags. Nothing is checked against the CRC here; that is
/// [`verify::tag_table`](crate::verify::tag_table)'s work.
///
/// # Errors
///
/// - [`Error::ShortestJson`](crate::Error::ShortestJson): not JSON, `format` is not
///   [`FORMAT`], or `crc`, `slots` or `tags` are missing or of the wrong type.
/// - [`Error::UnsupportedWidth`](crate::Error::UnsupportedWidth),
///   [`Error::UnknownCrc`](crate::Error::UnknownCrc), [`Error::SlotCount`](crate::Error::SlotCount):
///   the CRC or the slot count the file names.
///
/// # Examples
///
/// ```
/// let table = slotgen::shortest::shortest(&Default::default())?;
/// let text = slotgen::emit::shortest::to_value(&table).to_string();
/// let read = slotgen::emit::shortest::from_json(&text)?;
/// assert_eq!(read.crc, crc::CRC_16_XMODEM);
/// assert_eq!(read.slots.get(), 16384);
/// assert_eq!(read.tags[12739].as_deref(), table.tag(12739));
/// # Ok::<(), slotgen::Error>(())
/// ```
pub fn from_json(text: &str) -> Result<ShortestJson, crate::Error> {
    #[derive(serde::Deserialize)]
    struct File {
        format: Option<String>,
        crc: super::json::CrcHeader,
        slots: u64,
        tags: Vec<Option<String>>,
    }
    let bad = |reason: String| crate::Error::ShortestJson { reason };
    let value: Value = serde_json::from_str(text).map_err(|e| bad(e.to_string()))?;
    let format = value.get("format").and_then(Value::as_str);
    if format != Some(FORMAT) {
        return Err(bad(format!(
            "`format` is `{}`, not `{FORMAT}`",
            format.unwrap_or("(none)")
        )));
    }
    let file: File = serde_json::from_value(value).map_err(|e| bad(e.to_string()))?;
    debug_assert_eq!(file.format.as_deref(), Some(FORMAT));
    Ok(ShortestJson {
        crc: file.crc.algorithm()?,
        slots: crate::spec::SlotCount::new(file.slots)?,
        tags: file
            .tags
            .into_iter()
            .map(|t| t.map(String::into_bytes))
            .collect(),
    })
}
