//! The Erlang emitter: one module for OTP 24 and later, kernel and stdlib only, over
//! binaries, with `{ok, _}` / `{error, Reason}` results, for eredis_cluster and ered users.

use super::common::{self, Syntax};
use super::model::{KeyRule, Lookup, Model, NativeCrc, Operators};
use super::values::{self, crc_parts, CrcParts, Finish};
use crate::Error;

const MODULE: &str = include_str!("template/erlang/module.erl");
const RULE_DELIMITED: &str = include_str!("template/erlang/rule_delimited.erl");
const RULE_WHOLE: &str = include_str!("template/erlang/rule_whole.erl");
const SHARED_DELIMITED: &str = include_str!("template/erlang/shared_delimited.erl");
const SHARED_WHOLE: &str = include_str!("template/erlang/shared_whole.erl");
const LOOKUP_SPLIT: &str = include_str!("template/erlang/lookup_split.erl");
const LOOKUP_COLUMNS: &str = include_str!("template/erlang/lookup_columns.erl");
const CRC_LOOP: &str = include_str!("template/erlang/crc_loop.erl");
const CRC_NATIVE: &str = include_str!("template/erlang/crc_native.erl");
const REFLECT: &str = include_str!("template/erlang/reflect.erl");

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
/// let model = Model::of((&d).into(), "erlang", usize::MAX)?;
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
    let shared = values::shared(
        model,
        &Syntax {
            command: &command,
            comment: "%%",
            indent: "    ",
            int_suffix: "",
        },
    );
    let crc = &model.crc;
    let start = hex(crc.start);
    let (crc_update, crc_finish) = values::crc_code(
        model,
        &shared,
        &[
            ("crc_mask", hex(crc.width_mask())),
            ("xorout", hex(crc.params.xorout)),
        ],
        &CrcParts {
            finish: Finish::Expression("Crc"),
            ..crc_parts!("erlang/crc", "erl")
        },
    );
    // erlang:crc32/2 where it computes this CRC (CRC-32/ISO-HDLC's polynomial, from any
    // register), else the table loop
    let crc_bytes = if crc.native() == Some(NativeCrc::IsoHdlc) {
        let xor = crc.params.xorout ^ 0xffff_ffff;
        let native_xor = if xor == 0 {
            String::new()
        } else {
            format!(" bxor {}", hex(xor))
        };
        common::render(CRC_NATIVE, &shared, &[("native_xor", native_xor)])
    } else {
        common::render(
            CRC_LOOP,
            &shared,
            &[("crc_update", crc_update), ("crc_finish", crc_finish)],
        )
    };
    let crc_reflect = values::reflect_helper(model, &shared, REFLECT);
    let r = &model.reduction;
    let (slot_formula, slot_expression) = (
        r.formula("Crc", Operators::Erlang),
        r.formula(&format!("crc(hashtag(Key), {start})"), Operators::Erlang),
    );
    let (open, rule, shared_hashtag, key_error) = match model.rule {
        KeyRule::WholeKey => (
            0,
            common::render(
                RULE_WHOLE,
                &shared,
                &[
                    ("alphabet_offset", hex(model.alphabet[0])),
                    (
                        "alphabet_basis",
                        values::alphabet_basis(&model.alphabet)
                            .map(hex)
                            .collect::<Vec<_>>()
                            .join(", "),
                    ),
                    ("crc_start", start.clone()),
                    ("value_mask", hex(r.mask)),
                ],
            ),
            SHARED_WHOLE,
            "{frame_not_solvable, Rank}",
        ),
        KeyRule::Delimited { open, close, .. } => (
            open,
            common::render(
                RULE_DELIMITED,
                &shared,
                &[("open", hex(open)), ("close", hex(close))],
            ),
            SHARED_DELIMITED,
            "{prefix_has_delimiter, Position}",
        ),
    };
    let t = &model.tags;
    let lookup = match &model.lookup {
        Lookup::Split {
            low_bits,
            low,
            high,
        } => common::render(
            LOOKUP_SPLIT,
            &shared,
            &[
                ("low_mask", hex((1u32 << low_bits) - 1)),
                ("low_ints", tag_ints(low)),
                ("high_ints", tag_ints(high)),
            ],
        ),
        Lookup::Columns => common::render(
            LOOKUP_COLUMNS,
            &shared,
            &[
                ("zero_int", tag_int(&t.zero)),
                ("column_ints", tag_ints(&t.columns)),
            ],
        ),
    };
    let digits = crc.digits();
    let table: Vec<String> = crc
        .table
        .iter()
        .map(|entry| format!("16#{entry:0digits$x}"))
        .collect();
    Ok(common::render(
        MODULE,
        &shared,
        &[
            ("module", name.to_owned()),
            ("systems", model.systems.to_owned()),
            ("key_error", key_error.to_owned()),
            ("open", hex(open)),
            ("rule", rule),
            (
                "shared_hashtag",
                common::render(shared_hashtag, &shared, &[]),
            ),
            ("crc_table", elements(&table, 8, "    ")),
            ("crc_bytes", crc_bytes),
            ("crc_reflect", crc_reflect),
            ("slot_formula", slot_formula),
            ("slot_expression", slot_expression),
            ("lookup", lookup),
            ("kernel_ints", tag_ints(&t.kernel)),
            ("last_combination", (t.per_value() - 1).to_string()),
        ],
    ))
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
}
