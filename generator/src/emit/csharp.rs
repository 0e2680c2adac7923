//! The C# emitter: one source file for .NET and Mono, base class library only, a static
//! class over byte arrays, for StackExchange.Redis and NRedisStack users (both take a
//! `byte[]` as a `RedisKey`). Written in C# 7 syntax, which Mono's `mcs` and .NET 8 both
//! compile.

use minijinja::context;

use super::engine;
use super::model::Model;
use super::values;
use crate::Error;

const TEMPLATE: &str = include_str!("template/csharp/module.cs");

/// The class without `--name`.
pub const DEFAULT_NAME: &str = "Slotgen";

/// The most kernel vectors a class counts the combinations of: its counter is a `ulong`,
/// which holds the last combination, `2^64 - 1`.
pub const MAX_KERNEL_LEN: usize = 64;

/// What `--name` must be, for the refusal.
const NAME_RULE: &str = "use a C# class name, optionally inside a namespace (`Example.RedisSlots`): parts of ASCII letters, digits and `_`, each starting with a letter or `_`, none a C# keyword, none a name of the class's members or of the types it uses";

/// The reserved keywords of C# (the C# language specification, section "Keywords"), and
/// the contextual ones that cannot name a type.
const KEYWORDS: &[&str] = &[
    "abstract",
    "as",
    "base",
    "bool",
    "break",
    "byte",
    "case",
    "catch",
    "char",
    "checked",
    "class",
    "const",
    "continue",
    "decimal",
    "default",
    "delegate",
    "do",
    "double",
    "else",
    "enum",
    "event",
    "explicit",
    "extern",
    "false",
    "finally",
    "fixed",
    "float",
    "for",
    "foreach",
    "goto",
    "if",
    "implicit",
    "in",
    "int",
    "interface",
    "internal",
    "is",
    "lock",
    "long",
    "namespace",
    "new",
    "null",
    "object",
    "operator",
    "out",
    "override",
    "params",
    "private",
    "protected",
    "public",
    "readonly",
    "ref",
    "return",
    "sbyte",
    "sealed",
    "short",
    "sizeof",
    "stackalloc",
    "static",
    "string",
    "struct",
    "switch",
    "this",
    "throw",
    "true",
    "try",
    "typeof",
    "uint",
    "ulong",
    "unchecked",
    "unsafe",
    "ushort",
    "using",
    "virtual",
    "void",
    "volatile",
    "while",
    // contextual keywords that a type may not be named
    "dynamic",
    "global",
    "nameof",
    "record",
    "var",
    "yield",
];

/// Names the class's code uses unqualified (its members and the types it names): a class
/// or namespace part of one of these names would hide it, or clash with a member (a member
/// may not share its class's name).
const USED_NAMES: &[&str] = &[
    // members
    "Slots",
    "FirstSlot",
    "LastSlot",
    "TagLen",
    "Open",
    "Close",
    "MinTagLen",
    "SlotOutOfRangeException",
    "PrefixHasDelimiterException",
    "FrameNotSolvableException",
    "Position",
    "Explicit",
    "Hashtag",
    "AlphabetOffset",
    "AlphabetBasis",
    "FrameSolvedBits",
    "Frame",
    "lastFrame",
    "Value",
    "ZeroKey",
    "Solve",
    "OddBits",
    "CrcTable",
    "Crc",
    "Slot",
    "LowTags",
    "HighTags",
    "ZeroTag",
    "Columns",
    "SolvedBits",
    "TagOf",
    "Kernel",
    "KernelLen",
    "LastCombination",
    "ValueLimit",
    "CheckSlot",
    "TagForSlot",
    "KeyForSlot",
    "TagsForSlot",
    "Tags",
    "SameSlot",
    "SharedHashtag",
    "CheckNotNull",
    "Copy",
    "Equal",
    "Xor",
    // types and namespaces
    "System",
    "Array",
    "Buffer",
    "Encoding",
    "ArgumentException",
    "ArgumentOutOfRangeException",
    "ArgumentNullException",
    "IEnumerable",
];

/// The namespace and the class of `--name`: `Example.RedisSlots` is class `RedisSlots`
/// in namespace `Example`.
///
/// # Errors
///
/// [`Error::ModuleName`] unless every dot-separated part is a C# identifier of ASCII
/// letters, digits and `_` (not starting with a digit), none a C# keyword or a name the
/// class uses.
///
/// # Examples
///
/// ```
/// use slotgen::emit::csharp::split_name;
///
/// assert_eq!(split_name("Example.RedisSlots").unwrap(), (Some("Example"), "RedisSlots"));
/// assert_eq!(split_name("Slotgen").unwrap(), (None, "Slotgen"));
/// assert!(split_name("Example.class").is_err());
/// assert!(split_name("Slot").is_err());
/// assert!(split_name("Example..Slots").is_err());
/// ```
pub fn split_name(name: &str) -> Result<(Option<&str>, &str), Error> {
    let identifier = |part: &str| {
        part.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            && part.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && !KEYWORDS.contains(&part)
            && !USED_NAMES.contains(&part)
    };
    if !name.split('.').all(identifier) {
        return Err(Error::ModuleName {
            language: "csharp",
            name: name.to_owned(),
            rule: NAME_RULE,
        });
    }
    Ok(match name.rsplit_once('.') {
        Some((namespace, class)) => (Some(namespace), class),
        None => (None, name),
    })
}

/// `text` for an XML doc comment: `&`, `<` and `>` escaped.
fn xml_text(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// A C# source file (`Slotgen.cs`) of the one surface for `model`: the static class `name`
/// (`Example.RedisSlots`: class `RedisSlots` in namespace `Example`) with `Slot(byte[])`,
/// `Slot(string)` (UTF-8), `Hashtag(byte[])`, `TagForSlot(int)` and
/// `KeyForSlot(prefix, slot, suffix)` (of `byte[]` or `string` affixes; for a scheme that
/// hashes the whole key, the tag is solved inside the prefix and suffix at run time, the
/// last frame kept), both returning `byte[]`, `TagsForSlot(int)` (a lazy
/// `IEnumerable<byte[]>`), `SameSlot(IEnumerable<byte[]>)` (an `int?`) and
/// `SharedHashtag(IEnumerable<byte[]>)` (a `byte[]`, or null); the constants `Slots`,
/// `FirstSlot`, `LastSlot` and `TagLen`. Refusals throw the nested
/// `SlotOutOfRangeException` (an `ArgumentOutOfRangeException`), and
/// `PrefixHasDelimiterException`, or `FrameNotSolvableException` when no tag inside a
/// whole-key scheme's prefix and suffix reaches every slot (`ArgumentException`s). A slot
/// is an `int`. The output depends only on the model and the name.
///
/// # Errors
///
/// - [`Error::ModuleName`] for a name [`split_name`] refuses.
/// - [`Error::SlotType`] when the last slot is above `int.MaxValue`.
///
/// # Examples
///
/// ```
/// use slotgen::emit::model::Model;
///
/// let d = slotgen::derive(&slotgen::Spec::default())?;
/// let model = Model::of(&d, "csharp", slotgen::emit::csharp::MAX_KERNEL_LEN)?;
/// let source = slotgen::emit::csharp::class(&model, "Example.RedisSlots")?;
/// assert!(source.starts_with("// @generated by slotgen"));
/// assert!(source.contains("namespace Example\n{\n    /// <summary>"));
/// assert!(source.contains("public const int LastSlot = 16383;\n"));
/// # Ok::<(), slotgen::Error>(())
/// ```
pub fn class(model: &Model, name: &str) -> Result<String, Error> {
    let (namespace, class) = split_name(name)?;
    let r = &model.reduction;
    let max_slot = u32::try_from(i32::MAX).expect("positive");
    if r.last() > max_slot {
        return Err(Error::SlotType {
            language: "csharp",
            last_slot: r.last(),
            max_slot,
        });
    }
    let command = if name == DEFAULT_NAME {
        "csharp".to_owned()
    } else {
        format!("csharp --name {name}")
    };
    let context = context! {
        class,
        namespace,
        ..values::context(model, &command, "//")
    };
    Ok(engine::render_source_in(
        &ENV,
        "csharp/module.cs",
        TEMPLATE,
        &context,
    ))
}

/// The engine's environment with this language's filters.
pub(crate) static ENV: std::sync::LazyLock<minijinja::Environment<'static>> =
    std::sync::LazyLock::new(|| engine::with_filters(add_filters));

/// C#'s spellings, as the template's filters: `xml` (text in a doc comment, [`xml_text`]).
pub(crate) fn add_filters(env: &mut minijinja::Environment<'static>) {
    env.add_filter("xml", |text: &str| xml_text(text));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_checked() {
        for good in ["Slotgen", "Example.RedisSlots", "_a.b_2.C"] {
            assert!(split_name(good).is_ok(), "{good}");
        }
        for bad in [
            "",
            ".Slots",
            "Slots.",
            "a..b",
            "2Slots",
            "Example.class",
            "var",
            "Slot",
            "Array",
            "System.Slots",
            "Red-is",
            "Slöts",
            "@Slots",
        ] {
            let error = split_name(bad).unwrap_err().to_string();
            assert!(
                error.contains("not a name for `emit csharp`"),
                "{bad}: {error}"
            );
        }
    }

    /// A scheme whose last slot an `int` cannot hold is refused, not emitted wrong.
    #[test]
    fn slots_above_int_are_refused() {
        use crate::derive;
        use crate::scheme::invert::SchemeSpec;
        use slotgen_tables::SchemeName;
        let spec = SchemeSpec {
            slots: Some((1 << 31) + 1),
            ..SchemeSpec::new(SchemeName::Librdkafka)
        };
        let model = Model::of(&derive(&spec).unwrap(), "csharp", MAX_KERNEL_LEN).unwrap();
        let error = class(&model, DEFAULT_NAME).unwrap_err().to_string();
        assert!(error.contains("the last slot is 2147483648"), "{error}");
    }
}
