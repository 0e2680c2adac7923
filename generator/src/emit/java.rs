//! The Java emitter: one source file for Java 11 and later (standard library only), clean
//! under `javac --release 11 -Xlint:all -Werror`: a final class of static methods that
//! throw `IllegalArgumentException`s.

use minijinja::context;

use super::common;
use super::engine;
use super::model::{Model, NativeCrc};
use super::values;
use crate::Error;

const TEMPLATE: &str = include_str!("template/java/Slotgen.java");

/// The most kernel vectors a module counts the combinations of: its counter is a `long`,
/// which holds `2^62` but not `2^63`.
pub const MAX_KERNEL_LEN: usize = 62;

/// Java's keywords and literals (Java 17), and the restricted identifiers `var`, `yield`,
/// `record`, `_`: none can name a package or a class.
const RESERVED: [&str; 57] = [
    "abstract",
    "assert",
    "boolean",
    "break",
    "byte",
    "case",
    "catch",
    "char",
    "class",
    "const",
    "continue",
    "default",
    "do",
    "double",
    "else",
    "enum",
    "extends",
    "final",
    "finally",
    "float",
    "for",
    "goto",
    "if",
    "implements",
    "import",
    "instanceof",
    "int",
    "interface",
    "long",
    "native",
    "new",
    "package",
    "private",
    "protected",
    "public",
    "return",
    "short",
    "static",
    "strictfp",
    "super",
    "switch",
    "synchronized",
    "this",
    "throw",
    "throws",
    "transient",
    "try",
    "void",
    "volatile",
    "while",
    "true",
    "false",
    "null",
    "var",
    "yield",
    "record",
    "_",
];

/// The classes the emitted file names, which its own class may not shadow or repeat.
const USED_CLASSES: [&str; 17] = [
    "Arrays",
    "FrameNotSolvableException",
    "IllegalArgumentException",
    "Integer",
    "Iterable",
    "Long",
    "LongStream",
    "Object",
    "Optional",
    "OptionalLong",
    "PrefixHasDelimiterException",
    "SlotOutOfRangeException",
    "SolvedFrame",
    "StandardCharsets",
    "Stream",
    "String",
    "System",
];

const NAME_RULE: &str = "give a class name, optionally behind a package, as ASCII Java identifiers separated by `.`, such as `com.example.RedisSlots`; no Java keyword, and not a class the file uses (`String`, `Stream`, ...)";

/// The default class: `Slotgen`, in no package.
pub const DEFAULT_NAME: &str = "Slotgen";

/// The package and the class of a qualified Java class name: `com.example.RedisSlots` is
/// package `com.example` and class `RedisSlots`; `RedisSlots` has no package.
///
/// # Errors
///
/// [`Error::ModuleName`] unless every `.`-separated part is an ASCII Java identifier (a
/// letter, `_` or `$`, then also digits) that is no keyword, and the class is not one the
/// emitted file uses.
///
/// # Examples
///
/// ```
/// use slotgen::emit::java::split_name;
/// assert_eq!(split_name("com.example.RedisSlots").unwrap(), (Some("com.example"), "RedisSlots"));
/// assert_eq!(split_name("Slots").unwrap(), (None, "Slots"));
/// assert!(split_name("com.example.class").is_err());
/// assert!(split_name("String").is_err());
/// ```
pub fn split_name(name: &str) -> Result<(Option<&str>, &str), Error> {
    let identifier = |part: &str| {
        part.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_' || c == '$')
            && part
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
            && !RESERVED.contains(&part)
    };
    let (package, class) = match name.rsplit_once('.') {
        Some((package, class)) => (Some(package), class),
        None => (None, name),
    };
    let valid = name.split('.').all(identifier) && !USED_CLASSES.contains(&class);
    if valid {
        Ok((package, class))
    } else {
        Err(Error::ModuleName {
            language: "java",
            name: name.to_owned(),
            rule: NAME_RULE,
        })
    }
}

/// Checks `class` as a class name without a package (as a file name's stem is one).
///
/// # Errors
///
/// [`Error::ModuleName`] for a name [`split_name`] refuses or one with a package, with the
/// rule of a class name alone.
///
/// # Examples
///
/// ```
/// use slotgen::emit::java::check_class_name;
/// assert!(check_class_name("RedisSlots").is_ok());
/// assert!(check_class_name("com.example.RedisSlots").is_err());
/// assert!(check_class_name("redis-slots").is_err());
/// ```
pub fn check_class_name(class: &str) -> Result<(), Error> {
    match split_name(class) {
        Ok((None, _)) => Ok(()),
        _ => Err(Error::ModuleName {
            language: "java",
            name: class.to_owned(),
            rule: CLASS_RULE,
        }),
    }
}

/// What a class name without a package must be, for the refusal.
const CLASS_RULE: &str = "give an ASCII Java identifier (a letter, `_` or `$`, then also digits), such as `RedisSlots`; no Java keyword, and not a class the file uses (`String`, `Stream`, ...)";

/// A Java byte literal: `0x41`, or `(byte) 0x80` above 127.
fn byte_literal(b: u8) -> String {
    if b < 0x80 {
        format!("{b:#04x}")
    } else {
        format!("(byte) {b:#04x}")
    }
}

/// Java byte literals of rows of bytes, one row a line behind `indent`.
fn byte_rows(rows: &[Vec<u8>], indent: &str) -> String {
    rows.iter()
        .map(|row| {
            let literals: Vec<String> = row.iter().map(|&b| byte_literal(b)).collect();
            common::rows(&literals, literals.len(), indent)
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A Java source file (`{class}.java`) of the one surface for `model`: the final class
/// `name` (`com.example.RedisSlots`: class `RedisSlots` of package `com.example`) with
/// static `slot(byte[])` and `slot(String)` (a `long`), `hashtag(byte[])`,
/// `tagForSlot(long)`, `keyForSlot(byte[], long, byte[])` (for a scheme that hashes the
/// whole key, the tag is solved inside the prefix and suffix at run time, each frame once,
/// the last one kept), `keyForSlot(String, long, String)` for an ASCII alphabet,
/// `tagsForSlot(long)` (a lazy `Stream<byte[]>`), `sameSlot` (an `OptionalLong`) and
/// `sharedHashtag` (an `Optional<byte[]>`), each of an `Iterable<byte[]>` or `byte[]...`;
/// the constants `SLOTS`, `FIRST_SLOT`, `LAST_SLOT` (slots are `long`s, as a scheme's may
/// pass 2^31) and `TAG_LEN`, and `OPEN`, `CLOSE` for a scheme with a hashtag. Refusals
/// throw `SlotOutOfRangeException`, and `PrefixHasDelimiterException` or, when no tag
/// inside a whole-key scheme's prefix and suffix reaches every slot,
/// `FrameNotSolvableException`, nested `IllegalArgumentException`s. The CRC is an `int`
/// register read unsigned. The output depends only on the model and the name.
///
/// # Errors
///
/// [`Error::ModuleName`] when `name` is not a Java class name (see [`split_name`]).
///
/// # Examples
///
/// ```
/// use slotgen::emit::model::Model;
///
/// let d = slotgen::derive(&slotgen::Spec::default())?;
/// let model = Model::of(&d, "java", slotgen::emit::java::MAX_KERNEL_LEN)?;
/// let java = slotgen::emit::java::class(&model, "com.example.RedisSlots")?;
/// assert!(java.starts_with("// @generated by slotgen"));
/// assert!(java.contains("package com.example;"));
/// assert!(java.contains("public static final long LAST_SLOT = 16383L;"));
/// # Ok::<(), slotgen::Error>(())
/// ```
pub fn class(model: &Model, name: &str) -> Result<String, Error> {
    let (package, class) = split_name(name)?;
    let context = context! {
        class,
        package,
        native => native_crc(model),
        ..values::context(model, &format!("java --name {name}"), "//")
    };
    Ok(engine::render_source_in(
        &ENV,
        "java/Slotgen.java",
        TEMPLATE,
        &context,
    ))
}

/// The engine's environment with this language's filters.
pub(crate) static ENV: std::sync::LazyLock<minijinja::Environment<'static>> =
    std::sync::LazyLock::new(|| engine::with_filters(add_filters));

/// Java's spellings, as the template's filters: `java_byte` (a byte literal, cast past
/// 0x7f), `java_byte_rows(indent)` (rows of them, one a line).
pub(crate) fn add_filters(env: &mut minijinja::Environment<'static>) {
    env.add_filter("java_byte", byte_literal);
    env.add_filter("java_byte_rows", |rows: Vec<Vec<u8>>, indent: &str| {
        byte_rows(&rows, indent)
    });
}

/// The values of `crc` by `java.util.zip.CRC32` or `CRC32C` where one computes the module's
/// CRC: [`NativeCrc::IsoHdlc`] or [`NativeCrc::Iscsi`] from the catalogue's start
/// (`0xffffffff`; neither class takes another), any xorout. `None` for every other CRC,
/// which keeps the table loop.
fn native_crc(model: &Model) -> Option<minijinja::Value> {
    let c = &model.crc;
    let (class, name) = match c.native()? {
        NativeCrc::IsoHdlc => ("CRC32", "CRC-32/ISO-HDLC"),
        NativeCrc::Iscsi => ("CRC32C", "CRC-32/ISCSI"),
        NativeCrc::Xmodem => return None,
    };
    if c.start != 0xffff_ffff {
        return None;
    }
    Some(context! {
        class,
        name,
        xor => c.params.xorout ^ 0xffff_ffff,
    })
}
