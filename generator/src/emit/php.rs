//! The PHP emitter: one file for PHP 8.1 and later with `declare(strict_types=1)`, clean
//! under `php -l`: a final class of static methods over byte strings that throw
//! `ValueError` (a slot out of range) and `InvalidArgumentException` (a key against the
//! scheme's rule), each with a code the class names.
//!
//! Tags are byte strings, xored as strings, so that no tag outgrows PHP's signed 64-bit
//! int.

use minijinja::context;

use super::engine;
use super::model::{Model, NativeCrc};
use super::values;
use crate::Error;

const TEMPLATE: &str = include_str!("template/php/module.php");

/// PHP's `crc32()` where it computes this CRC ([`NativeCrc::IsoHdlc`] from the start
/// `0xffffffff`: `crc32()` takes no other), with the xor that makes its result this CRC's;
/// `None` for the table loop.
fn native_crc(model: &Model) -> Option<minijinja::Value> {
    let c = &model.crc;
    (c.native() == Some(NativeCrc::IsoHdlc) && c.start == 0xffff_ffff)
        .then(|| context! { xor => c.params.xorout ^ 0xffff_ffff })
}

/// The most kernel vectors a PHP module takes: a value's `2^kernel` tags are counted in a
/// signed 64-bit int.
pub const MAX_KERNEL_LEN: usize = 62;

/// PHP's reserved words (PHP 8.2), which name no namespace part or class, compared without
/// case.
const RESERVED: [&str; 86] = [
    "abstract",
    "and",
    "array",
    "as",
    "break",
    "callable",
    "case",
    "catch",
    "class",
    "clone",
    "const",
    "continue",
    "declare",
    "default",
    "do",
    "echo",
    "else",
    "elseif",
    "empty",
    "enddeclare",
    "endfor",
    "endforeach",
    "endif",
    "endswitch",
    "endwhile",
    "enum",
    "eval",
    "exit",
    "extends",
    "final",
    "finally",
    "fn",
    "for",
    "foreach",
    "function",
    "global",
    "goto",
    "if",
    "implements",
    "include",
    "include_once",
    "instanceof",
    "insteadof",
    "interface",
    "isset",
    "list",
    "match",
    "namespace",
    "new",
    "or",
    "print",
    "private",
    "protected",
    "public",
    "readonly",
    "require",
    "require_once",
    "return",
    "static",
    "switch",
    "throw",
    "trait",
    "try",
    "unset",
    "use",
    "var",
    "while",
    "xor",
    "yield",
    "int",
    "float",
    "bool",
    "string",
    "true",
    "false",
    "null",
    "void",
    "iterable",
    "object",
    "mixed",
    "never",
    "self",
    "parent",
    "die",
    "halt_compiler",
    "__halt_compiler",
];

/// The default class: `Slotgen`, in the global namespace.
pub const DEFAULT_NAME: &str = "Slotgen";

/// The namespace and the class of a qualified PHP class name: `Example\RedisSlots` is
/// namespace `Example` and class `RedisSlots`; `RedisSlots` is in the global namespace.
///
/// # Errors
///
/// [`Error::ModuleName`] unless every `\`-separated part is an ASCII PHP name (a letter or
/// `_`, then also digits) that is no reserved word.
///
/// # Examples
///
/// ```
/// use slotgen::emit::php::split_name;
/// assert_eq!(split_name(r"Example\RedisSlots").unwrap(), (Some("Example"), "RedisSlots"));
/// assert_eq!(split_name("RedisSlots").unwrap(), (None, "RedisSlots"));
/// assert!(split_name(r"Example\List").is_err());
/// ```
pub fn split_name(name: &str) -> Result<(Option<&str>, &str), Error> {
    let part = |part: &str| {
        part.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            && part.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && !RESERVED.contains(&part.to_ascii_lowercase().as_str())
    };
    if !name.split('\\').all(part) {
        return Err(Error::ModuleName {
            language: "php",
            name: name.to_owned(),
            rule: "give a class name, optionally behind a namespace, as ASCII PHP names separated by `\\`, such as `Example\\RedisSlots`, and no reserved word",
        });
    }
    Ok(match name.rsplit_once('\\') {
        Some((namespace, class)) => (Some(namespace), class),
        None => (None, name),
    })
}

/// A PHP file (`Slotgen.php`) of the one surface for `model`: the final class `name`
/// (`Example\RedisSlots`: class `RedisSlots` of namespace `Example`) with static
/// `slot(string)`, `hashtag(string)`, `tagForSlot(int)`, `keyForSlot(string, int, string)`
/// (byte strings; for a scheme that hashes the whole key, the tag is solved inside the
/// prefix and suffix at run time, each frame once, the last 16 kept), `tagsForSlot(int)`
/// (a lazy `Generator`), `sameSlot(iterable)` and `sharedHashtag(iterable)` (null for
/// none), throwing `ValueError` (code `SLOT_OUT_OF_RANGE`) and `InvalidArgumentException`
/// (code `PREFIX_HAS_DELIMITER`, or `FRAME_NOT_SOLVABLE` when no tag inside a whole-key
/// scheme's prefix and suffix reaches every slot); the constants `SLOTS`, `FIRST_SLOT`,
/// `LAST_SLOT`, `TAG_LEN`, and `OPEN`, `CLOSE` for a scheme with a hashtag. Tags are byte
/// strings xored as strings, every byte written `\xNN`. The output depends only on the
/// model and the name.
///
/// # Errors
///
/// [`Error::ModuleName`] when `name` is not a PHP class name (see [`split_name`]).
///
/// # Examples
///
/// ```
/// use slotgen::emit::model::Model;
///
/// let d = slotgen::derive(&slotgen::Spec::default())?;
/// let model = Model::of(&d, "php", slotgen::emit::php::MAX_KERNEL_LEN)?;
/// let php = slotgen::emit::php::class(&model, r"Example\RedisSlots")?;
/// assert!(php.starts_with("<?php\n\n// @generated by slotgen"));
/// assert!(php.contains("namespace Example;"));
/// assert!(php.contains("    public const LAST_SLOT = 16383;"));
/// # Ok::<(), slotgen::Error>(())
/// ```
pub fn class(model: &Model, name: &str) -> Result<String, Error> {
    let (namespace, class) = split_name(name)?;
    let context = context! {
        class,
        namespace,
        native => native_crc(model),
        ..values::context(model, &command(name), "//")
    };
    Ok(engine::render_source_in(
        &ENV,
        "php/module.php",
        TEMPLATE,
        &context,
    ))
}

/// The engine's environment with this language's filters.
pub(crate) static ENV: std::sync::LazyLock<minijinja::Environment<'static>> =
    std::sync::LazyLock::new(|| engine::with_filters(add_filters));

/// PHP's spellings, as the template's filters: `php_string` (bytes inside a double-quoted
/// string, [`escaped`]), `php_strings` (rows of them, one a line).
pub(crate) fn add_filters(env: &mut minijinja::Environment<'static>) {
    env.add_filter("php_string", |bytes: Vec<u8>| escaped(&bytes));
    env.add_filter("php_strings", |rows: Vec<Vec<u8>>| strings(&rows));
}

/// Byte rows as PHP double-quoted strings ([`escaped`]), one a line, each followed by `,`.
fn strings(rows: &[Vec<u8>]) -> String {
    rows.iter()
        .map(|row| format!("        \"{}\",", escaped(row)))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Bytes as the inside of a PHP double-quoted string, every byte `\xNN` (so no `$` or
/// `"` is read there).
fn escaped(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("\\x{b:02x}")).collect()
}

/// What follows `slotgen emit` in a file's header: `php --name NAME`, quoted for the shell
/// when the name holds a `\`.
fn command(name: &str) -> String {
    if name.contains('\\') {
        format!("php --name '{name}'")
    } else {
        format!("php --name {name}")
    }
}
