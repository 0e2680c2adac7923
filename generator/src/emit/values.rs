//! The template values that mean the same in every language, from one [`Model`]: each
//! language's emitter passes these to [`render`](super::common::render) with the few of its
//! own (its literals), and its template names what it uses. [`crc_code`] chooses the parts
//! of a language's CRC loop and finish.

use super::common::{comment_text, hex, render, rows, Syntax};
use super::model::{KeyRule, Lookup, Model};

/// Byte rows as hex literals, one row to a line behind `indent`, each byte followed by `,`.
/// No final newline; empty for no rows.
pub(crate) fn byte_rows(rows_of: &[Vec<u8>], indent: &str) -> String {
    rows_of
        .iter()
        .map(|row| {
            rows(
                &hex(row.iter().map(|&b| u64::from(b)), 2),
                row.len(),
                indent,
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A row of bytes as one little-endian integer in hex (`0x` and two digits a byte, the last
/// byte first), for the languages whose integers have no bound.
pub(crate) fn little_endian_hex(row: &[u8]) -> String {
    let digits: String = row.iter().rev().map(|b| format!("{b:02x}")).collect();
    format!("0x{digits}")
}

/// Rows as little-endian integers ([`little_endian_hex`]), one a line behind `indent`.
pub(crate) fn int_rows(rows_of: &[Vec<u8>], indent: &str) -> String {
    let ints: Vec<String> = rows_of.iter().map(|r| little_endian_hex(r)).collect();
    rows(&ints, 1, indent)
}

/// The bits of a symbol's index: `log2` of the alphabet's size.
pub(crate) fn symbol_bits(alphabet: &[u8]) -> u32 {
    alphabet.len().trailing_zeros()
}

/// The alphabet's basis: `basis[j]` is what bit `j` of a symbol's index xors into the first
/// symbol (the alphabet being affine, symbol `i` is `alphabet[0]` xor the basis bytes of
/// `i`'s set bits).
pub(crate) fn alphabet_basis(alphabet: &[u8]) -> impl Iterator<Item = u8> + '_ {
    (0..symbol_bits(alphabet)).map(|j| alphabet[1 << j] ^ alphabet[0])
}

/// The template values of `model`, spelled in `syntax` (`command` is what follows
/// `slotgen emit`, `int_suffix` goes after the CRC's start value and table entries):
///
/// - `header` ([`Model::header`]), `scheme`, and the usage examples `check_slot`, `tag`,
///   `key` (comment text), `rule_doc`, `example_prefix`, `example_suffix` (double-quoted);
/// - the slots: `slots`, `first_slot`, `last_slot`, `value_limit`, `needs_modulus`
///   (`true` or `false`);
/// - the CRC: `crc_width`, `crc_table` (hex rows of 8), `crc_start`, `reflected_note`,
///   `crc_mask` (`width` bits set), `crc_top_shift` (`width - 8`), `xorout` (hex), `shift`,
///   `value_mask`,
///   `value_bits`, and for languages without shifts (Lua 5.1) `shift_divisor` (`2^shift`)
///   and `value_modulus` (`2^value_bits`);
/// - the tags: `tag_len`, `zero_tag`, `columns`, `kernel` (hex byte rows), `zero_int`,
///   `column_ints`, `kernel_ints` (little-endian integers, one a line), `solved_bits`,
///   `kernel_len`, `tags_per_value` (`2^kernel_len`);
/// - with a split lookup: `low_bits`, `low_mask`, `low_len`, `high_len`, `low_rows`,
///   `high_rows` (hex byte rows), `low_ints`, `high_ints`;
/// - the hashtag: `open`, `close` (hex bytes, `0x00` for the whole key), `min_tag_len`;
/// - the alphabet, for solving a tag inside a key's frame at run time: `symbol_bits`,
///   `alphabet_offset` (its first symbol, hex) and `alphabet_basis` (hex bytes joined by
///   `, `; bit `j` of a symbol's index xors in byte `j`).
pub(crate) fn shared(model: &Model, syntax: &Syntax) -> Vec<(&'static str, String)> {
    let c = &model.crc;
    let r = &model.reduction;
    let t = &model.tags;
    let suffixed = |v: u64| format!("{v:#0w$x}{}", syntax.int_suffix, w = c.digits() + 2);
    let table: Vec<String> = c.table.iter().map(|&v| suffixed(v)).collect();
    let (open, close, min_tag_len) = match model.rule {
        KeyRule::WholeKey => (0, 0, 0),
        KeyRule::Delimited {
            open,
            close,
            min_len,
        } => (open, close, min_len),
    };
    let quoted = |b: &[u8]| format!("\"{}\"", String::from_utf8_lossy(b));
    let e = &model.examples;
    let mut values = vec![
        ("header", model.header(syntax.command, syntax.comment)),
        ("scheme", model.scheme.to_owned()),
        ("check_slot", e.check_slot.to_string()),
        ("tag", comment_text(&e.tag)),
        ("key", comment_text(&e.key)),
        ("rule_doc", model.rule.describe()),
        ("example_prefix", quoted(e.prefix)),
        ("example_suffix", quoted(e.suffix)),
        ("slots", r.slots.to_string()),
        ("first_slot", r.first.to_string()),
        ("last_slot", r.last().to_string()),
        ("value_limit", t.value_limit.to_string()),
        ("needs_modulus", r.needs_modulus().to_string()),
        ("crc_width", c.params.width.to_string()),
        ("crc_table", rows(&table, 8, syntax.indent)),
        ("crc_start", suffixed(c.start)),
        (
            "reflected_note",
            if c.params.refin {
                ", reflected (the register shifts right)"
            } else {
                ""
            }
            .to_owned(),
        ),
        ("crc_mask", format!("{:#x}", c.width_mask())),
        ("crc_top_shift", (c.params.width - 8).to_string()),
        ("xorout", format!("{:#x}", c.params.xorout)),
        ("shift", r.shift.to_string()),
        ("value_mask", format!("{:#x}", r.mask)),
        ("value_bits", r.value_bits.to_string()),
        ("shift_divisor", (1u64 << r.shift).to_string()),
        ("value_modulus", (1u64 << r.value_bits).to_string()),
        ("tag_len", t.len.to_string()),
        (
            "zero_tag",
            byte_rows(std::slice::from_ref(&t.zero), syntax.indent),
        ),
        ("columns", byte_rows(&t.columns, syntax.indent)),
        ("kernel", byte_rows(&t.kernel, syntax.indent)),
        ("zero_int", little_endian_hex(&t.zero)),
        ("column_ints", int_rows(&t.columns, syntax.indent)),
        ("kernel_ints", int_rows(&t.kernel, syntax.indent)),
        ("solved_bits", t.columns.len().to_string()),
        ("kernel_len", t.kernel.len().to_string()),
        ("tags_per_value", t.per_value().to_string()),
        ("open", format!("{open:#04x}")),
        ("close", format!("{close:#04x}")),
        ("min_tag_len", min_tag_len.to_string()),
        ("symbol_bits", symbol_bits(&model.alphabet).to_string()),
        ("alphabet_offset", format!("{:#04x}", model.alphabet[0])),
        (
            "alphabet_basis",
            hex(alphabet_basis(&model.alphabet).map(u64::from), 2).join(", "),
        ),
    ];
    if let Lookup::Split {
        low_bits,
        low,
        high,
    } = &model.lookup
    {
        values.extend([
            ("low_bits", low_bits.to_string()),
            ("low_mask", format!("{:#x}", (1u32 << low_bits) - 1)),
            ("low_len", low.len().to_string()),
            ("high_len", high.len().to_string()),
            ("low_rows", byte_rows(low, syntax.indent)),
            ("high_rows", byte_rows(high, syntax.indent)),
            ("low_ints", int_rows(low, syntax.indent)),
            ("high_ints", int_rows(high, syntax.indent)),
        ]);
    }
    values
}

/// The lookup part of a module: `split` (over the low and high tables) for a
/// [`Lookup::Split`], else `columns`, rendered with the [`shared`] values alone.
pub(crate) fn lookup(
    model: &Model,
    shared: &[(&str, String)],
    split: &str,
    columns: &str,
) -> String {
    let part = match model.lookup {
        Lookup::Split { .. } => split,
        Lookup::Columns => columns,
    };
    render(part, shared, &[])
}

/// A module's helper that reflects the register (the function a language's
/// [`CrcParts::reflect`] calls), rendered with the [`shared`] values when the register is
/// reflected at the end (`refin != refout`); else nothing.
pub(crate) fn reflect_helper(model: &Model, shared: &[(&str, String)], helper: &str) -> String {
    if model.crc.reflect_out() {
        render(helper, shared, &[])
    } else {
        String::new()
    }
}

/// One language's parts of the CRC: template texts over the [`shared`] values (and the
/// language's own), which [`crc_code`] chooses between. [`crc_parts!`] reads them from a
/// language's template folder.
pub(crate) struct CrcParts<'a> {
    /// The loop's step for a reflected register (`refin`), shifting right: one line (or
    /// expression), its final newline left out.
    pub step_reflected: &'a str,
    /// The step for an unreflected register, shifting left within `crc_width` bits.
    pub step_shifted: &'a str,
    /// The final reflection of the register, when `refin != refout`.
    pub reflect: &'a str,
    /// The final xor with `xorout`, when it is not zero.
    pub xorout: &'a str,
    /// How the finish parts combine.
    pub finish: Finish<'a>,
}

/// The [`CrcParts`] in the template files `<stem>_step_reflected.<ext>`,
/// `<stem>_step_shifted.<ext>`, `<stem>_reflect.<ext>` and `<stem>_xorout.<ext>` under
/// `emit/template/` (`crc_parts!("ruby/crc", "rb")`), finishing with [`Finish::Lines`]; a
/// language with other parts or another finish replaces those fields.
macro_rules! crc_parts {
    ($stem:literal, $ext:literal) => {
        $crate::emit::values::CrcParts {
            step_reflected: include_str!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/src/emit/template/",
                $stem,
                "_step_reflected.",
                $ext
            )),
            step_shifted: include_str!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/src/emit/template/",
                $stem,
                "_step_shifted.",
                $ext
            )),
            reflect: include_str!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/src/emit/template/",
                $stem,
                "_reflect.",
                $ext
            )),
            xorout: include_str!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/src/emit/template/",
                $stem,
                "_xorout.",
                $ext
            )),
            finish: $crate::emit::values::Finish::Lines,
        }
    };
}
pub(crate) use crc_parts;

/// How a language finishes the register after the last byte.
pub(crate) enum Finish<'a> {
    /// With statements: the parts are whole lines, each ending in a newline, one after the
    /// other; no part is no lines.
    Lines,
    /// With one expression over the register named here: each part wraps the one before
    /// it, named `{{crc}}` in its text (`reflect({{crc}})`); no part is the name alone.
    Expression(&'a str),
}

/// The CRC's loop step and finish for `model` in one language, from its `parts` rendered
/// with `own` values (a language's own, or its own spelling of a shared value) before the
/// `shared` ones: the reflected or the shifted step as `model`'s `refin` says, then the
/// reflection when `refin != refout` and the xor when `xorout` is not zero. Every
/// emitter's `crc_update` and `crc_finish` come from here.
pub(crate) fn crc_code(
    model: &Model,
    shared: &[(&str, String)],
    own: &[(&str, String)],
    parts: &CrcParts,
) -> (String, String) {
    let values: Vec<(&str, String)> = own.iter().chain(shared).cloned().collect();
    let values = values.as_slice();
    // a template file ends in a newline, which a step or an expression leaves out
    let part = |text: &str, register: &[(&str, String)]| {
        let text = render(text, values, register);
        text.strip_suffix('\n')
            .map_or_else(|| text.clone(), str::to_owned)
    };
    let crc = &model.crc;
    let step = if crc.params.refin {
        parts.step_reflected
    } else {
        parts.step_shifted
    };
    let update = part(step, &[]);
    let finish = match parts.finish {
        Finish::Lines => crc.finish(&render(parts.reflect, values, &[]), |_| {
            render(parts.xorout, values, &[])
        }),
        Finish::Expression(register) => {
            let mut expression = register.to_owned();
            if crc.reflect_out() {
                expression = part(parts.reflect, &[("crc", expression)]);
            }
            if crc.params.xorout != 0 {
                expression = part(parts.xorout, &[("crc", expression)]);
            }
            expression
        }
    };
    (update, finish)
}

/// The model as one structured template value, for a template that composes (C and Java so far):
/// maps of numbers, booleans, byte lists and text, spelled by the template and its filters
/// rather than by Rust.
///
/// - `scheme`; `header` (the comment lines, behind `syntax.comment`);
/// - `examples`: `check_slot`, `tag`, `key` (comment text), `prefix`, `suffix`
///   (double-quoted), `prefix_len`, `suffix_len`;
/// - `slots`: `count`, `first`, `last`, `needs_modulus`;
/// - `crc`: `width`, `refin`, `reflect_out`, `xorout`, `mask`, `top_shift`, `start`,
///   `digits` (hex digits of a register value), `table` (256 numbers);
/// - `reduction`: `shift`, `mask`, `value_bits`;
/// - `tags`: `len`, `zero` (bytes), `columns`, `kernel` (lists of bytes), `solved_bits`,
///   `kernel_len`, `value_limit`;
/// - `rule`: `whole` (the whole key is hashed), `open`, `close`, `min_len`, `doc`;
/// - `alphabet`: `offset`, `ascii`, `symbol_bits`, `basis` (bytes);
/// - `lookup`: `split`, and for a split lookup `low_bits`, `low_mask`, `low_len`,
///   `high_len`, `low` and `high` (lists of bytes).
pub(crate) fn context(model: &Model, command: &str, comment: &str) -> minijinja::Value {
    use minijinja::context;
    let c = &model.crc;
    let r = &model.reduction;
    let t = &model.tags;
    let e = &model.examples;
    let quoted = |b: &[u8]| format!("\"{}\"", String::from_utf8_lossy(b));
    let (open, close, min_len) = match model.rule {
        KeyRule::WholeKey => (0, 0, 0),
        KeyRule::Delimited {
            open,
            close,
            min_len,
        } => (open, close, min_len),
    };
    let lookup = match &model.lookup {
        Lookup::Split {
            low_bits,
            low,
            high,
        } => context! {
            split => true,
            low_bits => low_bits,
            low_mask => (1u32 << low_bits) - 1,
            low_len => low.len(),
            high_len => high.len(),
            low => low.clone(),
            high => high.clone(),
        },
        Lookup::Columns => context! { split => false },
    };
    context! {
        scheme => model.scheme,
        systems => model.systems,
        header => model.header(command, comment),
        examples => context! {
            check_slot => e.check_slot,
            tag => comment_text(&e.tag),
            key => comment_text(&e.key),
            prefix => quoted(e.prefix),
            suffix => quoted(e.suffix),
            prefix_len => e.prefix.len(),
            suffix_len => e.suffix.len(),
            tag_bytes => e.tag.clone(),
            key_bytes => e.key.clone(),
            prefix_bytes => e.prefix.to_vec(),
            suffix_bytes => e.suffix.to_vec(),
        },
        slots => context! {
            count => r.slots,
            first => r.first,
            last => r.last(),
            needs_modulus => r.needs_modulus(),
        },
        crc => context! {
            width => c.params.width,
            refin => c.params.refin,
            reflect_out => c.reflect_out(),
            xorout => c.params.xorout,
            mask => c.width_mask(),
            top_shift => c.params.width - 8,
            start => c.start,
            digits => c.digits(),
            table => c.table.to_vec(),
        },
        reduction => context! {
            shift => r.shift,
            mask => r.mask,
            value_bits => r.value_bits,
        },
        tags => context! {
            len => t.len,
            zero => t.zero.clone(),
            columns => t.columns.clone(),
            kernel => t.kernel.clone(),
            solved_bits => t.columns.len(),
            kernel_len => t.kernel.len(),
            value_limit => t.value_limit,
            per_value => t.per_value(),
        },
        rule => context! {
            whole => matches!(model.rule, KeyRule::WholeKey),
            open => open,
            close => close,
            min_len => min_len,
            doc => model.rule.describe(),
        },
        alphabet => context! {
            offset => model.alphabet[0],
            ascii => model.alphabet.is_ascii(),
            symbol_bits => symbol_bits(&model.alphabet),
            basis => alphabet_basis(&model.alphabet).collect::<Vec<u8>>(),
        },
        lookup => lookup,
    }
}
