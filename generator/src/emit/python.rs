//! The Python emitter: a module using only the standard library, for Python 3.9 and later,
//! taking keys as `bytes` (or `bytearray`, `memoryview`) and `str` (encoded as UTF-8).

use minijinja::context;

use super::engine;
use super::model::{Model, NativeCrc};
use super::values;

const TEMPLATE: &str = include_str!("template/python/module.py");

/// The values of the CRC by the standard library's C code where it computes `model`'s:
/// `xmodem` (`binascii.crc_hqx`, CRC-16/XMODEM's polynomial from the register `start`) or
/// not (`zlib.crc32`, CRC-32/ISO-HDLC's, from `value ^ 0xffffffff`), and the `xor` that
/// makes its result this CRC's. `None` for every other CRC, which keeps the table loop.
fn native_crc(model: &Model) -> Option<minijinja::Value> {
    let c = &model.crc;
    match c.native()? {
        NativeCrc::Xmodem => Some(context! {
            xmodem => true,
            start => c.start,
            xor => c.params.xorout,
        }),
        NativeCrc::IsoHdlc => Some(context! {
            xmodem => false,
            value => c.start ^ 0xffff_ffff,
            xor => c.params.xorout ^ 0xffff_ffff,
        }),
        NativeCrc::Iscsi => None,
    }
}

/// The keywords of Python 3 (The Python Language Reference, "Keywords"): no module is
/// imported under one.
const KEYWORDS: &[&str] = &[
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
    "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import",
    "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while",
    "with", "yield",
];

/// The modules of Python's standard library, one a line: `sys.stdlib_module_names` of
/// Python 3.11 (`python3 -c 'import sys; print("\n".join(sorted(sys.stdlib_module_names)))'`).
/// A module of one of these names is either never imported (a built-in or an already
/// loaded module is found first: `sys`, `os`) or hides the library's module from the whole
/// program, the emitted module's own imports (`binascii`, `zlib`) among them.
const STANDARD_LIBRARY: &str = include_str!("python_stdlib.txt");

/// The Redis and Valkey clients for Python whose package a module of that name would hide
/// from the program that uses them beside it (redis-py `redis`, valkey-py `valkey`,
/// `coredis`, redis-py-cluster `rediscluster`: a newcomer's `-o redis.py` left no
/// `redis.Redis`).
const CLIENTS: &[&str] = &["redis", "valkey", "coredis", "rediscluster"];

/// What a module's name must be, for the refusal.
const NAME_RULE: &str = "`import` takes an identifier, such as `redis_slots`: ASCII letters, digits and `_` (Python reads other letters NFKC-normalized, `ﬁle` as `file`, and looks for another file), not starting with a digit, no Python keyword, no module of Python's standard library (`sys.stdlib_module_names`, such as `os`, `json` or `zlib`), which `import` finds first or which the module would hide from the whole program, and no Redis client's package (`redis`, `valkey`, `coredis`, `rediscluster`), which it would hide";

/// Checks `name` as the name of the emitted module (its file's stem): an identifier that
/// `import` takes and finds as this file, hiding no module the program uses.
///
/// # Errors
///
/// [`Error::ModuleName`](crate::Error::ModuleName) for a name with an ASCII character that is no letter, digit or
/// `_`, a leading digit, a keyword, a module of the standard library or a Redis client's.
///
/// # Examples
///
/// ```
/// use slotgen::emit::python::check_module_name;
/// assert!(check_module_name("redis_slots").is_ok());
/// assert!(check_module_name("redis-slots").is_err());
/// assert!(check_module_name("2slots").is_err());
/// assert!(check_module_name("import").is_err());
/// assert!(check_module_name("os").is_err());
/// ```
pub fn check_module_name(name: &str) -> Result<(), crate::Error> {
    let valid = !name.is_empty()
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !KEYWORDS.contains(&name)
        && !CLIENTS.contains(&name)
        && !STANDARD_LIBRARY.lines().any(|module| module == name);
    if valid {
        Ok(())
    } else {
        Err(crate::Error::ModuleName {
            language: "python",
            name: name.to_owned(),
            rule: NAME_RULE,
        })
    }
}

/// A Python bytes literal, written as Python's `repr` writes it.
pub(crate) fn bytes_literal(bytes: &[u8]) -> String {
    let quote = if bytes.contains(&b'\'') && !bytes.contains(&b'"') {
        '"'
    } else {
        '\''
    };
    let mut out = format!("b{quote}");
    for &b in bytes {
        match b {
            b'\\' => out.push_str("\\\\"),
            b'\t' => out.push_str("\\t"),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            _ if char::from(b) == quote => {
                out.push('\\');
                out.push(quote);
            }
            0x20..=0x7e => out.push(char::from(b)),
            _ => out.push_str(&format!("\\x{b:02x}")),
        }
    }
    out.push(quote);
    out
}

/// A Python module (`slotgen.py`) of the one surface for `model`: `slot(key)`,
/// `hashtag(key)`, `tag_for_slot(slot)`, `key_for_slot(prefix, slot, suffix)` (both
/// returning `bytes`; for a scheme that hashes the whole key, the tag is solved inside the
/// prefix and suffix at run time),
/// `tags_for_slot(slot)` (a lazy iterator of `bytes`), `same_slot(keys)` and
/// `shared_hashtag(keys)`, raising `SlotOutOfRange`, and `PrefixHasDelimiter` or
/// `FrameNotSolvable` (all `ValueError`s); the constants `SLOTS`, `FIRST_SLOT`, `LAST_SLOT`,
/// `TAG_LEN`. Its docstring's examples are doctests with this table's values. The output
/// depends only on the model.
///
/// # Examples
///
/// ```
/// use slotgen::emit::model::Model;
///
/// let d = slotgen::derive(&slotgen::Spec::default())?;
/// let python = slotgen::emit::python::module(&Model::of(&d, "python", usize::MAX)?);
/// assert!(python.starts_with("# @generated by slotgen"));
/// assert!(python.contains("LAST_SLOT = 16383\n"));
/// # Ok::<(), slotgen::Error>(())
/// ```
#[must_use]
pub fn module(model: &Model) -> String {
    let context = context! {
        native => native_crc(model),
        ..values::context(model, "python", "#")
    };
    engine::render_source_in(&ENV, "python/module.py", TEMPLATE, &context)
}

/// The engine's environment with this language's filters.
pub(crate) static ENV: std::sync::LazyLock<minijinja::Environment<'static>> =
    std::sync::LazyLock::new(|| engine::with_filters(add_filters));

/// Python's spellings, as the template's filters: `py_bytes` (a bytes literal, as `repr`
/// writes it).
pub(crate) fn add_filters(env: &mut minijinja::Environment<'static>) {
    env.add_filter("py_bytes", |bytes: Vec<u8>| bytes_literal(&bytes));
}
