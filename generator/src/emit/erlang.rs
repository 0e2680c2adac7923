//! The Erlang emitter: one module for OTP 24 and later, kernel and stdlib only, over
//! binaries, with `{ok, _}` / `{error, Reason}` results, for eredis_cluster and ered users.

use minijinja::context;

use super::engine;
use super::model::{Model, NativeCrc, Tags};
use super::values;
use crate::Error;

const TEMPLATE: &str = include_str!("template/erlang/module.erl");

/// The module without `--name`.
pub const DEFAULT_NAME: &str = "slotgen";

/// What `--name` must be, for the refusal.
const NAME_RULE: &str = "use an Erlang atom that needs no quotes, such as `redis_slots`: a lowercase ASCII letter, then ASCII letters, digits, `_` and `@`, at most 255 characters, not a reserved word and not a module the emitted code calls (`erlang`, `binary`, `lists`, `unicode`, `io_lib`)";

/// The reserved words of Erlang (the Erlang Reference Manual, "Reserved Words"), `maybe`
/// and `else` among them.
const RESERVED: &[&str] = &[
    "after", "and", "andalso", "band", "begin", "bnot", "bor", "bsl", "bsr", "bxor", "case",
    "catch", "cond", "div", "else", "end", "fun", "if", "let", "maybe", "not", "of", "or",
    "orelse", "receive", "rem", "try", "when", "xor",
];

/// The modules the emitted code calls: a module of one of these names would replace it.
const CALLED: &[&str] = &["erlang", "binary", "lists", "unicode", "io_lib"];

/// Checks `--name`: an atom that needs no quotes, neither reserved nor a called module.
///
/// # Errors
///
/// [`Error::ModuleName`] for any other name.
///
/// # Examples
///
/// ```
/// use slotgen::emit::erlang::check_name;
///
/// assert!(check_name("redis_slots").is_ok());
/// assert!(check_name("node@slots").is_ok());
/// assert!(check_name("RedisSlots").is_err());
/// assert!(check_name("receive").is_err());
/// assert!(check_name("lists").is_err());
/// ```
pub fn check_name(name: &str) -> Result<(), Error> {
    let valid = name.starts_with(|c: char| c.is_ascii_lowercase())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '@')
        && name.len() <= 255
        && !RESERVED.contains(&name)
        && !CALLED.contains(&name);
    if valid {
        Ok(())
    } else {
        Err(Error::ModuleName {
            language: "erlang",
            name: name.to_owned(),
            rule: NAME_RULE,
        })
    }
}

/// An Erlang integer literal in hex: `16#3fff`.
fn hex(value: impl std::fmt::LowerHex) -> String {
    format!("16#{value:x}")
}

/// A tag as one little-endian integer, in hex: `16#` and two digits a byte, the last byte
/// first.
fn tag_int(row: &[u8]) -> String {
    let digits: String = row.iter().rev().map(|b| format!("{b:02x}")).collect();
    format!("16#{digits}")
}

/// `items`, `per_line` to a line behind `indent`, separated by commas: no comma after the
/// last, which Erlang's tuples and lists refuse. No final newline; empty for no items.
fn elements(items: &[String], per_line: usize, indent: &str) -> String {
    items
        .chunks(per_line)
        .map(|line| format!("{indent}{}", line.join(", ")))
        .collect::<Vec<_>>()
        .join(",\n")
}

/// Tag rows as little-endian integers, one a line.
fn tag_ints(rows: &[Vec<u8>]) -> String {
    let ints: Vec<String> = rows.iter().map(|row| tag_int(row)).collect();
    elements(&ints, 1, "    ")
}

/// A tag as an Erlang binary literal: `<<"AbC@">>`, a byte outside printable ASCII, `"`
/// and `\` as `\x{hh}`.
fn tag_binary(tag: &[u8]) -> String {
    let text: String = tag
        .iter()
        .map(|&b| {
            if (0x20..=0x7e).contains(&b) && b != b'"' && b != b'\\' {
                char::from(b).to_string()
            } else {
                format!("\\x{{{b:02x}}}")
            }
        })
        .collect();
    format!("<<\"{text}\">>")
}

/// The tag of every value below `count` (every slot's, by `slot - first`) as binaries, 8
/// a line: `zero` xor the `columns` of the value's set bits ([`Tags::of_value`]).
fn slot_tags(zero: Vec<u8>, columns: Vec<Vec<u8>>, count: u64) -> String {
    let tags = Tags {
        len: zero.len(),
        zero,
        columns,
        kernel: Vec::new(),
        value_limit: count,
    };
    let binaries: Vec<String> = (0..count)
        .map(|value| tag_binary(&tags.of_value(value)))
        .collect();
    elements(&binaries, 8, "    ")
}

/// An Erlang module (`slotgen.erl`) of the one surface for `model`, named `name`:
/// `slot/1`, `hashtag/1` (the bytes the slot is computed from), `tag_for_slot/1` and
/// `key_for_slot/3` (prefix, slot, suffix; for a scheme that hashes the whole key, the tag
/// is solved inside the prefix and suffix at run time, the last frame kept in the calling
/// process's dictionary), returning `{ok, Binary}` or `{error, Reason}`, `tags_for_slot/1`
/// (`{ok, Tags}`, `Tags` a lazy list: a fun of no arguments that returns `[Tag | Next]`,
/// `Next` the same kind of fun, or `[]` after the last tag), `same_slot/1` and
/// `shared_hashtag/1` (of a list of keys; `none` for none), `format_error/1` (the message
/// of a reason: `{slot_out_of_range, Slot}`, `{prefix_has_delimiter, Position}`, or
/// `{frame_not_solvable, Rank}` when no tag inside a whole-key scheme's prefix and suffix
/// reaches every slot, `Rank` the value bits its tags control), and the constants as
/// functions `slots/0`, `first_slot/0`, `last_slot/0`, `tag_len/0`. Keys are binaries, or
/// Unicode text as lists. The output depends only on the model and the name.
///
/// # Errors
///
/// [`Error::ModuleName`] for a name [`check_name`] refuses.
///
/// # Examples
///
/// ```
/// use slotgen::emit::model::Model;
///
/// let d = slotgen::derive(&slotgen::Spec::default())?;
/// let model = Model::of(&d, "erlang", usize::MAX)?;
/// let source = slotgen::emit::erlang::module(&model, "redis_slots")?;
/// assert!(source.starts_with("%% @generated by slotgen"));
/// assert!(source.contains("-module(redis_slots).\n"));
/// assert!(source.contains("-define(LAST_SLOT, 16383).\n"));
/// # Ok::<(), slotgen::Error>(())
/// ```
pub fn module(model: &Model, name: &str) -> Result<String, Error> {
    check_name(name)?;
    let command = if name == DEFAULT_NAME {
        "erlang".to_owned()
    } else {
        format!("erlang --name {name}")
    };
    let crc = &model.crc;
    // erlang:crc32/2 where it computes this CRC (CRC-32/ISO-HDLC's polynomial, from any
    // register), with the xor that makes its result this CRC's; else the table loop
    let native = (crc.native() == Some(NativeCrc::IsoHdlc))
        .then(|| context! { xor => crc.params.xorout ^ 0xffff_ffff });
    let context = context! {
        module => name,
        native,
        last_combination => (model.tags.per_value() - 1).to_string(),
        ..values::context(model, &command, "%%")
    };
    Ok(engine::render_source_in(
        &ENV,
        "erlang/module.erl",
        TEMPLATE,
        &context,
    ))
}

/// The engine's environment with this language's filters.
pub(crate) static ENV: std::sync::LazyLock<minijinja::Environment<'static>> =
    std::sync::LazyLock::new(|| engine::with_filters(add_filters));

/// Erlang's spellings, as the template's filters: `erl_hex` (`16#3fff`), `erl_int` (a tag
/// as one little-endian integer), `erl_ints` (rows of them, one a line),
/// `erl_slot_tags(columns, count)` (of the zero tag: every slot's tag as a binary),
/// `erl_table(digits)` (the CRC table, 8 entries a line, no comma after the last).
pub(crate) fn add_filters(env: &mut minijinja::Environment<'static>) {
    env.add_filter("erl_hex", |value: u64| hex(value));
    env.add_filter("erl_int", |row: Vec<u8>| tag_int(&row));
    env.add_filter("erl_ints", |rows: Vec<Vec<u8>>| tag_ints(&rows));
    env.add_filter(
        "erl_slot_tags",
        |zero: Vec<u8>, columns: Vec<Vec<u8>>, count: u64| slot_tags(zero, columns, count),
    );
    env.add_filter("erl_table", |table: Vec<u64>, digits: usize| {
        let entries: Vec<String> = table
            .iter()
            .map(|entry| format!("16#{entry:0digits$x}"))
            .collect();
        elements(&entries, 8, "    ")
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_checked() {
        for good in ["slotgen", "redis_slots", "a@b", "x1"] {
            assert!(check_name(good).is_ok(), "{good}");
        }
        let long = "a".repeat(256);
        for bad in [
            "", "Slots", "_slots", "1slots", "red-is", "slöts", "end", "binary", &long,
        ] {
            let error = check_name(bad).unwrap_err().to_string();
            assert!(
                error.contains("not a name for `emit erlang`"),
                "{bad}: {error}"
            );
        }
    }

    #[test]
    fn tags_are_binary_literals() {
        // printable ASCII as itself; `"`, `\`, controls, DEL and high bytes escaped
        assert_eq!(tag_binary(b"Ab @~"), r#"<<"Ab @~">>"#);
        assert_eq!(
            tag_binary(b"\"\\\n\x7f\x80\xff"),
            r#"<<"\x{22}\x{5c}\x{0a}\x{7f}\x{80}\x{ff}">>"#
        );
        // zero xor the columns of the set bits, 8 a line, no comma after the last
        let tags = slot_tags(vec![0x40], vec![vec![0x01], vec![0x02]], 4);
        assert_eq!(tags, r#"    <<"@">>, <<"A">>, <<"B">>, <<"C">>"#);
    }
}
