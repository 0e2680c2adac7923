//! The Lua emitter: a module of pure arithmetic (no `bit` library, no `//`), so that it
//! runs unmodified on Lua 5.1, Lua 5.4 and LuaJIT; its templates are in
//! `emit/template/lua/`, by part: the module (`module.lua`), the key rule
//! (`rule_delimited.lua`, `rule_whole.lua`), the lookup shape (`lookup_split.lua`,
//! `lookup_columns.lua`) and the surface over them (`surface.lua`). The server-side Lua of
//! [`redis_function`](super::redis_function) shares the rule, lookup and surface parts.
//!
//! Without a xor operator, the module keeps every value it xors below 256 and xors through
//! a 65536-entry table built at load: the CRC register is held as its bytes, and a tag as
//! a row of bytes, so that no value needs more than a double's 53 bits.

use super::common::{self, Syntax};
use super::model::{KeyRule, Model, Operators};
use super::values;

const MODULE: &str = include_str!("template/lua/module.lua");
const XOR_TABLE: &str = include_str!("template/lua/xor_table.lua");
const REFLECT_TABLE: &str = include_str!("template/lua/reflect_table.lua");
const RULE_DELIMITED: &str = include_str!("template/lua/rule_delimited.lua");
const RULE_WHOLE: &str = include_str!("template/lua/rule_whole.lua");
const LOOKUP_SPLIT: &str = include_str!("template/lua/lookup_split.lua");
const LOOKUP_COLUMNS: &str = include_str!("template/lua/lookup_columns.lua");
const SURFACE: &str = include_str!("template/lua/surface.lua");

/// The most kernel rows a Lua module takes: a value's tags are counted by a number, whose
/// integers are exact to 2^53 in a double (Lua 5.1, LuaJIT, the servers' Lua).
pub const MAX_KERNEL_LEN: usize = 53;

/// The syntax of every Lua template: `command` after `slotgen emit`, rows indented by
/// `indent`.
pub(crate) fn syntax<'a>(command: &'a str, indent: &'a str) -> Syntax<'a> {
    Syntax {
        command,
        comment: "--",
        indent,
        int_suffix: "",
    }
}

/// The slot formula of `model` ([`Reduction::formula`]) for comments, and as a Lua 5.1
/// expression over the number `crc` ([`Operators::Lua51`]): `crc % 16384` for Redis
/// Cluster.
///
/// [`Reduction::formula`]: super::model::Reduction::formula
pub(crate) fn slot_formula(model: &Model) -> (String, String) {
    let r = &model.reduction;
    (
        r.formula("crc", Operators::Unsigned),
        r.formula("crc", Operators::Lua51),
    )
}

/// The key rule of `model` in words, wrapped to lines of 86 characters at most that are
/// joined by a newline and `leader` (the indentation and `-- ` of a comment's next line).
pub(crate) fn rule_lines(model: &Model, leader: &str) -> String {
    let mut lines: Vec<String> = vec![];
    for word in model.rule.describe().split(' ') {
        match lines.last_mut() {
            Some(line) if line.len() + 1 + word.len() <= 86 => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_owned()),
        }
    }
    lines.join(&format!("\n{leader}"))
}

/// The parts of `model` that the module and the server-side Lua share, each line behind
/// `indent`: the key rule (`explicit(key)`, `M.key_for_slot`; for a scheme that hashes the
/// whole key, the frame solver over `crc_of(key, first, last)`, the CRC as a number), and
/// the surface (`M.hashtag`, the lookup's `tag_bytes`, `M.tag_for_slot`,
/// `M.tags_for_slot`, `M.same_slot`, `M.shared_hashtag`), over the `M`, `floor`, `char`,
/// `find`, `sub`, `unpack`, `xor_byte(a, b)`, `value_of(slot)` and constants of the code
/// around them.
pub(crate) fn shared_parts(model: &Model, indent: &str) -> (String, String) {
    let shared = values::shared(model, &syntax("lua", "    "));
    let rule = match model.rule {
        KeyRule::WholeKey => common::render(
            RULE_WHOLE,
            &shared,
            &[(
                "solved_modulus",
                (1u64 << model.tags.columns.len()).to_string(),
            )],
        ),
        KeyRule::Delimited { .. } => common::render(RULE_DELIMITED, &shared, &[]),
    };
    let lookup = values::lookup(model, &shared, LOOKUP_SPLIT, LOOKUP_COLUMNS);
    let surface = common::render(
        SURFACE,
        &shared,
        &[("lookup", lookup), ("rule_lines", rule_lines(model, "-- "))],
    );
    let indented = |code: &str| {
        code.lines()
            .map(|line| {
                if line.is_empty() {
                    "\n".to_owned()
                } else {
                    format!("{indent}{line}\n")
                }
            })
            .collect::<String>()
    };
    (indented(&rule), indented(&surface))
}

/// A Lua module (Lua 5.1, 5.4, LuaJIT; pure arithmetic) of the one surface for `model`. It
/// returns a table with `slot(key)`, `hashtag(key)`, `tag_for_slot(slot)`,
/// `key_for_slot(prefix, slot, suffix)` (for a scheme that hashes the whole key, the tag is
/// solved inside the prefix and suffix at run time, each frame once, up to 16 kept, else
/// `nil` and a message when no tag of `tag_len` symbols reaches every slot inside them),
/// `tags_for_slot(slot)` (an iterator function), `same_slot(keys)` and
/// `shared_hashtag(keys)` (over an array of keys), and the fields `slots`, `first_slot`,
/// `last_slot`, `tag_len` (and `open`, `close` for a rule with delimiters); keys and tags
/// are byte strings, and errors are `nil` plus a message. The CRC register is held as
/// bytes, each xor one lookup in a table built at load, and a frame's bitsets as tables of
/// booleans, so that no value needs more than a double's 53 bits. The output depends only
/// on the model.
///
/// # Examples
///
/// ```
/// use slotgen::emit::{lua, model::Model};
///
/// let d = slotgen::derive(&slotgen::Spec::default())?;
/// let module = lua::module(&Model::of((&d).into(), "lua", lua::MAX_KERNEL_LEN)?);
/// assert!(module.starts_with("-- @generated by slotgen"));
/// assert!(module.contains(r#"slotgen.tag_for_slot(slotgen.first_slot)    --> "DLH@""#));
/// # Ok::<(), slotgen::Error>(())
/// ```
#[must_use]
pub fn module(model: &Model) -> String {
    let shared = values::shared(model, &syntax("lua", "    "));
    let crc = &model.crc;
    // the register's bytes
    let n = usize::from(crc.params.width / 8);
    // Register byte k (1-based) is the byte that meets the input k-th: from the low end
    // of a reflected register, from the high end otherwise.
    let shift_of = |k: usize| {
        if crc.params.refin {
            8 * (k - 1)
        } else {
            8 * (n - k)
        }
    };
    let byte_of = |value: u64, k: usize| (value >> shift_of(k)) & 0xff;
    let list = |f: &dyn Fn(usize) -> String| (1..=n).map(f).collect::<Vec<_>>().join(", ");
    let registers = list(&|k| format!("r{k}"));
    let crc_update = list(&|k| {
        if k < n {
            format!("XOR[r{} * 256 + C{k}[index]]", k + 1)
        } else {
            format!("C{k}[index]")
        }
    });
    let crc_finish = crc.finish(
        &format!(
            "    {registers} = {}\n",
            list(&|k| format!("REFLECT[r{}]", n + 1 - k))
        ),
        |xorout| {
            format!(
                "    {registers} = {}\n",
                list(&|k| format!("XOR[r{k} * 256 + {:#04x}]", byte_of(xorout, k)))
            )
        },
    );
    let crc_value = (1..=n)
        .map(|k| match shift_of(k) {
            0 => format!("r{k}"),
            shift => format!("r{k} * {}", 1u64 << shift),
        })
        .collect::<Vec<_>>()
        .join(" + ");
    let (slot_formula, slot_expression) = slot_formula(model);
    let (rule, surface) = shared_parts(model, "");
    common::render(
        MODULE,
        &shared,
        &[
            ("xor_table", XOR_TABLE.to_owned()),
            ("crc_bytes", n.to_string()),
            ("crc_divisors", list(&|k| (1u64 << shift_of(k)).to_string())),
            ("crc_columns", list(&|k| format!("C{k}"))),
            (
                "crc_extra",
                values::reflect_helper(model, &shared, REFLECT_TABLE),
            ),
            ("registers", registers),
            (
                "crc_start_bytes",
                list(&|k| format!("{:#04x}", byte_of(crc.start, k))),
            ),
            ("crc_update", crc_update),
            ("crc_finish", crc_finish),
            ("crc_value", crc_value),
            ("slot_formula", slot_formula),
            ("slot_expression", slot_expression),
            ("rule_lines", rule_lines(model, "-- ")),
            ("rule", rule),
            ("surface", surface),
        ],
    )
}
