//! Emitters: a [`Derivation`] as source code.
//!
//! [`rust`] is the one Rust emitter: the `slot_table!` macro returns its tokens, and the
//! build.rs API and `slotgen emit rust` print them through `prettyplease`.
//!
//! [`lua`], [`c`], [`python`], [`js`], [`go`], [`java`], [`ruby`], [`php`] and [`elixir`]
//! emit a standalone module for one spec that offers the same operations under each
//! language's casing: `slot` (the hash slot of a key, by the full hashtag rule, over
//! bytes), `tag_for_slot`, `key_for_slot` (refusing a prefix that contains `{`) and
//! `tags_for_slot` (lazy, with an exact count), and in the newer ones `hashtag`.
//! [`redis_function`] emits Lua that runs inside the server: a Functions library and a
//! block for `EVAL` scripts; [`js::types`] the TypeScript declarations of the JS module.
//! Each is a pure function of the derivation (and the name given): the same spec gives
//! byte-identical output, and any alphabet byte is safe in it. Every file starts with a
//! header naming the slotgen version, the command that made it (one that reruns as
//! written) and the full spec. [`json`] writes the whole derivation as data.

pub mod c;
pub mod elixir;
pub mod go;
pub mod java;
pub mod js;
pub mod json;
pub mod lua;
pub mod php;
pub mod python;
pub mod redis_function;
pub mod ruby;
pub mod rust;
pub mod shortest;
mod source;

use crate::{catalog, Derivation};

/// The `slotgen` options that name the derivation's spec, every one spelled out, so that a
/// command carrying them regenerates the same output wherever it runs.
///
/// # Examples
///
/// ```
/// let d = slotgen::derive(&slotgen::Spec::default()).unwrap();
/// assert_eq!(
///     slotgen::emit::spec_options(&d),
///     "--crc CRC-16/XMODEM --alphabet '@ABCDEFGHIJKLMNO' --tag-len 4 --slots 16384",
/// );
/// ```
#[must_use]
pub fn spec_options(derivation: &Derivation) -> String {
    let alg = &derivation.spec.crc;
    let crc = match catalog::name_of(alg) {
        Some(name) => format!("--crc {name}"),
        None => format!(
            "--poly {:#06x} --init {:#06x} --refin {} --refout {} --xorout {:#06x}",
            alg.poly, alg.init, alg.refin, alg.refout, alg.xorout
        ),
    };
    let alphabet = shell_quote(derivation.alphabet.symbols());
    // `--alphabet=-x`: a value that starts with `-` is not read as an option.
    let equals = if derivation.alphabet.symbols().first() == Some(&b'-') {
        "="
    } else {
        " "
    };
    format!(
        "{crc} --alphabet{equals}{alphabet} --tag-len {} --slots {}",
        derivation.tag_len, derivation.spec.slots
    )
}

/// Bytes as one shell word: `'...'` when they are printable ASCII other than `'` and `\`,
/// else `$'...'` (bash, zsh, ksh and POSIX 2024) with `\xNN` for every other byte and for
/// the second byte of `?>` and `*/`, so that the word holds no newline, quote, backslash
/// sequence or comment end that a comment or string literal of an emitted file would
/// misread.
fn shell_quote(bytes: &[u8]) -> String {
    let plain = |b: u8| (b.is_ascii_graphic() || b == b' ') && b != b'\'' && b != b'\\';
    // `?>` ends PHP code even in a comment, `*/` ends a block comment.
    let closes = |pair: &[u8]| pair == b"?>" || pair == b"*/";
    if bytes.iter().all(|&b| plain(b)) && !bytes.windows(2).any(closes) {
        return format!("'{}'", String::from_utf8_lossy(bytes));
    }
    let escaped: String = bytes
        .iter()
        .enumerate()
        .map(|(i, &b)| {
            if plain(b) && !(i > 0 && closes(&bytes[i - 1..=i])) {
                char::from(b).to_string()
            } else {
                format!("\\x{b:02x}")
            }
        })
        .collect();
    format!("$'{escaped}'")
}
