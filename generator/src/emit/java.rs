//! The Java emitter: one source file for Java 11 and later (standard library only), clean
//! under `javac --release 11 -Xlint:all -Werror`: a final class of static methods that
//! throw `IllegalArgumentException`.

use super::common::{self, CrcModel, Syntax};
use super::scheme_common::{self, SchemeFacts};
use crate::scheme::invert::SchemeDerivation;
use crate::{Derivation, Error};

const TEMPLATE: &str = include_str!("template/Slotgen.java");
const SCHEME_TEMPLATE: &str = include_str!("template/SlotgenScheme.java");

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

/// The classes the emitted file names, which its own class may not shadow.
const USED_CLASSES: [&str; 13] = [
    "Arrays",
    "IllegalArgumentException",
    "Integer",
    "Iterable",
    "LongStream",
    "Object",
    "Optional",
    "OptionalInt",
    "StandardCharsets",
    "Stream",
    "String",
    "System",
    "Override",
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

/// A Java byte literal: `0x41`, or `(byte) 0x80` above 127.
fn byte_literal(b: u8) -> String {
    if b < 0x80 {
        format!("{b:#04x}")
    } else {
        format!("(byte) {b:#04x}")
    }
}

/// A Java source file (`{class}.java`) for the derivation's spec: the final class `name`
/// (`com.example.RedisSlots`: class `RedisSlots` of package `com.example`) with static
/// `slot(byte[])`, `slot(String)`, `hashtag(byte[])`, `tagForSlot(int)`,
/// `keyForSlot(byte[], int, byte[])`, `keyForSlot(String, int, String)` (returning a
/// `String`, when the alphabet is ASCII so that the key decodes exactly) and
/// `tagsForSlot(int)` (a lazy `Stream<byte[]>`), throwing `IllegalArgumentException`; the
/// layout checks `sameSlot` (an `OptionalInt`) and `sharedHashtag` (an `Optional<byte[]>`),
/// each of an `Iterable<byte[]>` or `byte[]...`; and the constants `SLOTS`, `TAG_LEN`,
/// `TAGS_PER_SLOT` (a `long`), `BASE_SLOT`. The output depends only on the derivation and
/// the name.
///
/// # Errors
///
/// [`Error::ModuleName`] when `name` is not a Java class name (see [`split_name`]);
/// [`Error::TagCount`] when a slot has 2^63 tags, more than a `long` counts.
///
/// # Examples
///
/// ```
/// let d = slotgen::derive(&slotgen::Spec::default()).unwrap();
/// let java = slotgen::emit::java::class(&d, "com.example.RedisSlots").unwrap();
/// assert!(java.starts_with("// @generated by slotgen"));
/// assert!(java.contains("package com.example;"));
/// assert!(java.contains("public static final int BASE_SLOT = 13881;"));
/// ```
pub fn class(derivation: &Derivation, name: &str) -> Result<String, Error> {
    let (package, class) = split_name(name)?;
    if derivation.kernel.len() > 62 {
        return Err(Error::TagCount {
            language: "java",
            kernel_len: derivation.kernel.len(),
            max_kernel_len: 62,
        });
    }
    let crc = CrcModel::of(derivation);
    let shared = common::shared(
        derivation,
        &Syntax {
            command: &format!("java --name {name}"),
            comment: "//",
            indent: "        ",
            int_suffix: "",
        },
    );
    let crc_update = if crc.reflected {
        "            crc = (crc >>> 8) ^ CRC_TABLE[(crc ^ bytes[i]) & 0xff];"
    } else {
        "            crc = ((crc << 8) & 0xffff) ^ CRC_TABLE[((crc >>> 8) ^ bytes[i]) & 0xff];"
    };
    let crc_finish = crc.finish(
        "        crc = Integer.reverse(crc) >>> 16; // refin != refout: reflect the register\n",
        |xorout| format!("        crc ^= {xorout:#06x};\n"),
    );
    let digits = derivation.mask_width().hex_digits();
    let masks = |values: &[u64]| {
        let literals: Vec<String> = values
            .iter()
            .map(|v| format!("{v:#0width$x}L", width = digits + 2))
            .collect();
        common::rows(&literals, 6, "        ")
    };
    let alphabet: Vec<String> = derivation
        .alphabet
        .symbols()
        .iter()
        .map(|&b| byte_literal(b))
        .collect();
    let ascii = derivation.alphabet.symbols().is_ascii();
    let key_for_slot_string = if ascii {
        "
    /**
     * The key prefix + \"{\" + tag + \"}\" + suffix for the slot, as text: the prefix and
     * suffix are encoded as UTF-8, and the tag is ASCII.
     *
     * @throws IllegalArgumentException when the slot is out of range, or the prefix
     *     contains `{`
     */
    public static String keyForSlot(String prefix, int slot, String suffix) {
        byte[] key = keyForSlot(prefix.getBytes(StandardCharsets.UTF_8), slot,
                suffix.getBytes(StandardCharsets.UTF_8));
        return new String(key, StandardCharsets.UTF_8);
    }
"
    } else {
        ""
    };
    let key_java = if ascii {
        format!("\"{}\"", common::Examples::of(derivation).key)
    } else {
        "(the String form needs an ASCII alphabet)".to_owned()
    };
    Ok(common::render(
        TEMPLATE,
        &shared,
        &[
            ("class", class.to_owned()),
            (
                "package",
                package.map_or(String::new(), |p| format!("package {p};\n")),
            ),
            ("key_java", key_java),
            ("crc_update", crc_update.to_owned()),
            ("crc_finish", crc_finish),
            ("alphabet_bytes", common::rows(&alphabet, 8, "        ")),
            ("low", masks(&derivation.low)),
            ("high", masks(&derivation.high)),
            ("kernel", masks(&derivation.kernel)),
            ("key_for_slot_string", key_for_slot_string.to_owned()),
        ],
    ))
}

/// The hashtag rule and the key of a scheme that hashes the whole key.
const WHOLE_KEY: &str = r#"
    // The bounds of the bytes of a key that are hashed: the whole key.
    private static int[] hashed(byte[] key) {
        return new int[] {0, key.length};
    }

    /**
     * The key of the slot: this scheme hashes the whole key, so it is the tag alone.
     *
     * @throws IllegalArgumentException when the slot is out of range, or prefix or suffix
     *     is not empty
     */
    public static byte[] keyForSlot(byte[] prefix, long slot, byte[] suffix) {
        byte[] tag = tagForSlot(slot);
        if (prefix.length != 0 || suffix.length != 0) {
            throw new IllegalArgumentException("this scheme hashes the whole key, so a key that"
                    + " lands on a slot is the tag alone: give no prefix or suffix");
        }
        return tag;
    }
"#;

/// The hashtag rule and the key of a scheme with hashtag delimiters.
const DELIMITED: &str = r#"
    /** The byte that opens a hashtag. */
    public static final byte OPEN = {{open}};
    /** The byte that closes a hashtag. */
    public static final byte CLOSE = {{close}};
    // A hashtag shorter than this hashes the whole key.
    private static final int MIN_TAG_LEN = {{min_tag_len}};

    // The bounds of the bytes of a key that are hashed: {{rule_doc}}.
    private static int[] hashed(byte[] key) {
        for (int open = 0; open < key.length; open++) {
            if (key[open] == OPEN) {
                for (int close = open + 1; close < key.length; close++) {
                    if (key[close] == CLOSE) {
                        return close - open - 1 >= MIN_TAG_LEN
                                ? new int[] {open + 1, close}
                                : new int[] {0, key.length};
                    }
                }
                break;
            }
        }
        return new int[] {0, key.length};
    }

    /**
     * The key prefix + OPEN + tag + CLOSE + suffix for the slot. Its hashtag is the tag, so
     * it lands on the slot whatever the suffix holds.
     *
     * @throws IllegalArgumentException when the slot is out of range, or the prefix
     *     contains OPEN
     */
    public static byte[] keyForSlot(byte[] prefix, long slot, byte[] suffix) {
        byte[] tag = tagForSlot(slot);
        for (int i = 0; i < prefix.length; i++) {
            if (prefix[i] == OPEN) {
                throw new IllegalArgumentException(String.format("prefix contains the hashtag's"
                        + " opening byte 0x%02x at byte %d: the key's hashtag would start there"
                        + " instead of at the tag; remove it from the prefix or move that part"
                        + " into the suffix", OPEN & 0xff, i));
            }
        }
        byte[] key = new byte[prefix.length + TAG_LEN + 2 + suffix.length];
        System.arraycopy(prefix, 0, key, 0, prefix.length);
        key[prefix.length] = OPEN;
        System.arraycopy(tag, 0, key, prefix.length + 1, TAG_LEN);
        key[prefix.length + 1 + TAG_LEN] = CLOSE;
        System.arraycopy(suffix, 0, key, prefix.length + TAG_LEN + 2, suffix.length);
        return key;
    }
"#;

/// The key of text affixes, for an ASCII alphabet.
const KEY_FOR_SLOT_STRING: &str = r#"
    /**
     * The key of {@code keyForSlot(byte[], long, byte[])} for the UTF-8 bytes of prefix and
     * suffix, as text: the tag is ASCII.
     *
     * @throws IllegalArgumentException as {@code keyForSlot(byte[], long, byte[])}
     */
    public static String keyForSlot(String prefix, long slot, String suffix) {
        byte[] key = keyForSlot(prefix.getBytes(StandardCharsets.UTF_8), slot,
                suffix.getBytes(StandardCharsets.UTF_8));
        return new String(key, StandardCharsets.UTF_8);
    }
"#;

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

/// A Java source file (`{class}.java`) for a scheme's derivation: the final class `name`
/// (`com.example.Buckets`: class `Buckets` of package `com.example`) with static
/// `slot(byte[])`, `slot(String)`, `tagForSlot(long)`, `keyForSlot(byte[], long, byte[])`
/// (the tag alone for a scheme that hashes the whole key), `keyForSlot(String, long,
/// String)` for an ASCII alphabet, and `tagsForSlot(long)` (a lazy `Stream<byte[]>`),
/// throwing `IllegalArgumentException`, and the constants `SLOTS`, `FIRST_SLOT`,
/// `LAST_SLOT` (slots are `long`s, as a scheme's may pass 2^31), `TAG_LEN`, and `OPEN`,
/// `CLOSE` for a scheme with a hashtag. The CRC is an `int` register read unsigned. The
/// output depends only on the derivation and the name.
///
/// # Errors
///
/// - [`Error::ModuleName`] when `name` is not a Java class name (see [`split_name`]).
/// - [`Error::SchemeCrcWidth`] when the CRC is not 8, 16, 24 or 32 bits wide.
/// - [`Error::TagCount`] when a value has 2^63 tags, more than a `long` counts.
///
/// # Examples
///
/// ```
/// use slotgen::scheme::invert::{derive, SchemeSpec};
/// use slotgen_tables::SchemeName;
///
/// let d = derive(&SchemeSpec::new(SchemeName::TarantoolVshard))?;
/// let java = slotgen::emit::java::scheme_class(&d, "com.example.Buckets")?;
/// assert!(java.contains("public static final long FIRST_SLOT = 1L;"));
/// # Ok::<(), slotgen::Error>(())
/// ```
pub fn scheme_class(derivation: &SchemeDerivation, name: &str) -> Result<String, Error> {
    let (package, class) = split_name(name)?;
    let facts = SchemeFacts::of(derivation, "java", 62)?;
    let shared = scheme_common::shared(
        &facts,
        &Syntax {
            command: &format!("java --name {name}"),
            comment: "//",
            indent: "        ",
            int_suffix: "",
        },
    );
    let crc = &facts.crc;
    let crc_update = if crc.params.refin {
        "            crc = (crc >>> 8) ^ CRC_TABLE[(crc ^ bytes[i]) & 0xff];".to_owned()
    } else {
        format!(
            "            crc = ((crc << 8) & {:#x}) ^ CRC_TABLE[((crc >>> {}) ^ bytes[i]) & 0xff];",
            crc.width_mask(),
            crc.params.width - 8
        )
    };
    let crc_finish = crc.finish(
        &format!(
            "        crc = Integer.reverse(crc) >>> {}; // refin != refout: reflect the register\n",
            32 - crc.params.width
        ),
        |xorout| format!("        crc ^= {xorout:#x};\n"),
    );
    let rule = match facts.delimiters {
        None => WHOLE_KEY.to_owned(),
        Some([open, close]) => common::render(
            DELIMITED,
            &shared,
            &[("open", byte_literal(open)), ("close", byte_literal(close))],
        ),
    };
    let ascii = derivation.alphabet.symbols().is_ascii();
    let key_java = if ascii {
        format!("\"{}\"", common::comment_text(&facts.first_key()))
    } else {
        "(the String form needs an ASCII alphabet)".to_owned()
    };
    Ok(common::render(
        SCHEME_TEMPLATE,
        &shared,
        &[
            ("class", class.to_owned()),
            (
                "package",
                package.map_or(String::new(), |p| format!("package {p};\n")),
            ),
            ("key_java", key_java),
            ("crc_update", crc_update),
            ("crc_finish", crc_finish),
            ("rule", rule),
            (
                "zero_tag",
                byte_rows(std::slice::from_ref(&facts.zero_tag), "        "),
            ),
            ("columns", byte_rows(&facts.columns, "        ")),
            ("kernel", byte_rows(&facts.kernel, "        ")),
            (
                "key_for_slot_string",
                if ascii { KEY_FOR_SLOT_STRING } else { "" }.to_owned(),
            ),
        ],
    ))
}
