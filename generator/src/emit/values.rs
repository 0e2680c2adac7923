//! The template values that mean the same in every language, from one [`Model`]:
//! [`context`], which every language's emitter passes to its template with the few values
//! of its own.

use super::common::comment_text;
use super::model::{KeyRule, Lookup, Model};

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

/// The model as one structured template value, for the templates, one a language:
/// maps of numbers, booleans, byte lists and text, spelled by the template and its filters
/// rather than by Rust.
///
/// - `scheme`; `header` (the comment lines, behind `syntax.comment`);
/// - `examples`: `check_slot`, `tag`, `key` (comment text), `prefix`, `suffix`
///   (double-quoted), `prefix_len`, `suffix_len`;
/// - `slots`: `count`, `first`, `last`, `needs_modulus`;
/// - `crc`: `width`, `refin`, `reflect_out`, `xorout`, `mask`, `top_shift`, `start`,
///   `digits` (hex digits of a register value), `table` (256 numbers);
/// - `reduction`: `shift`, `mask`, `value_bits`, `slots`, `first`, `modulus` (whether
///   `% slots` changes the masked value), which `reduction.jinja`'s `infix` spells;
/// - `tags`: `len`, `zero` (bytes), `columns`, `kernel` (lists of bytes), `solved_bits`,
///   `kernel_len`, `value_limit`, `ready` ([`Model::ready_tags`]: every slot's tag made once);
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
        reduction => r.value(),
        tags => context! {
            ready => model.ready_tags(),
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
