//! The generator's errors.

use crate::text::{show_byte, show_bytes};

/// Why a spec cannot be derived, or a name cannot be resolved.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// No catalogue CRC-16 has this name or alias.
    #[error("unknown CRC `{}`: no CRC-16 of the CRC catalogue has that name or alias{}; `slotgen catalog` lists them all", crate::text::escape_text(.name), nearest_clause(.nearest))]
    UnknownCrc {
        /// The name asked for.
        name: String,
        /// The nearest catalogue names, nearest first ([`crate::text::nearest`]).
        nearest: Vec<&'static str>,
    },
    /// A catalogue CRC of another width than 16 named where a CRC-16 is taken (`--crc
    /// CRC-32`).
    #[error("`{name}` is a catalogue CRC of {width} bits, and a CRC-16 is taken here: name a CRC-16 (`slotgen catalog` lists them), or give a scheme over a CRC of another width (`--scheme`; `slotgen catalog --all-widths` lists those CRCs)")]
    NotCrc16 {
        /// The catalogue name of the CRC named.
        name: &'static str,
        /// Its width.
        width: u8,
    },
    /// The CRC's width is not 16.
    #[error("CRC width {width} is not supported: slotgen derives tables for CRC-16 algorithms (width 16)")]
    UnsupportedWidth {
        /// The width given.
        width: u8,
    },
    /// The CRC's parameters do not give its stated check value.
    #[error("CRC parameters give check value {computed:#06x} for \"123456789\" but the algorithm states {stated:#06x}: correct the parameters or the check value")]
    CheckMismatch {
        /// What the parameters compute.
        computed: u16,
        /// What the algorithm states.
        stated: u16,
    },
    /// The CRC's polynomial is even (no x^0 term) and its output is not reflected, so the
    /// CRC's low bits are constant.
    #[error("{}", even_poly(*.poly))]
    EvenPoly {
        /// The polynomial, in the RevEng model's normal form.
        poly: u16,
    },
    /// A symbol of the alphabet is a brace.
    #[error("alphabet contains `{}`: a brace in a tag would change the key's hashtag; remove it from the alphabet", char::from(*.symbol))]
    BraceInAlphabet {
        /// `{` or `}`.
        symbol: u8,
    },
    /// A symbol appears twice in the alphabet.
    #[error("alphabet contains {} twice: every symbol must be distinct; remove the duplicate", show_byte(*.symbol))]
    DuplicateSymbol {
        /// The repeated symbol.
        symbol: u8,
    },
    /// The alphabet's size is not a power of two from 2 to 128.
    #[error("alphabet has {len} {}: it needs 2, 4, 8, 16, 32, 64 or 128 (a power of two, so that each symbol carries whole bits)", if *.len == 1 { "symbol" } else { "symbols" })]
    AlphabetSize {
        /// The number of symbols given.
        len: usize,
    },
    /// The alphabet is not an affine subspace of GF(2)^8.
    #[error("alphabet is not an affine subspace of GF(2)^8: {} breaks it (in ascending order, symbol `i` must be symbol 0 xor the differences `symbol[2^j] ^ symbol[0]` over the set bits `j` of `i`); the largest affine subset of this alphabet is `{}`: use that, or give a charset to let slotgen choose", show_byte(*.symbol), show_bytes(.largest_subset))]
    NotAffine {
        /// The first symbol, in ascending order, that breaks the structure.
        symbol: u8,
        /// The largest affine subset of the given symbols (see `alphabet::largest_affine_subset`).
        largest_subset: Vec<u8>,
    },
    /// A charset spec cannot be parsed.
    #[error("charset `{}` is malformed: {reason}; give a name (`alnum`, `alpha`, `digits`, `lower`, `upper`, `printable`), a bracket expression such as `[0-9A-Za-z_-]`, or the bytes themselves", crate::text::escape_text(.spec))]
    CharsetSyntax {
        /// The spec as given (shown with control characters escaped).
        spec: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A charset spec that is another tool's name of a set of bytes, or looks like a name
    /// misspelled (three or more ASCII letters near one), but is none of ours.
    #[error("charset `{spec}` is not a charset name: the names are `alnum`, `alpha`, `digits`, `lower`, `upper` and `printable`, in any case{}{}; to mean the bytes themselves, write them in brackets: `[{spec}]`", .instead.map_or_else(String::new, |i| format!("; for what other tools call `{spec}`, write `{i}`")), nearest_clause(.nearest))]
    UnknownCharset {
        /// The spec as given.
        spec: String,
        /// What to write instead, when the spec is another tool's name
        /// ([`crate::charset::OTHER_TOOLS_NAMES`]).
        instead: Option<&'static str>,
        /// The nearest names, nearest first ([`crate::text::nearest`]).
        nearest: Vec<&'static str>,
    },
    /// No affine alphabet inside a charset reaches every slot.
    #[error("no affine alphabet inside charset `{charset}` reaches all {slots} slots with {}: its largest affine alphabet has {largest} {}; use a larger charset{}, or fewer slots", tags_phrase(*.tag_len), if *.largest == 1 { "symbol" } else { "symbols" }, if .tag_len.is_some() { ", another tag length" } else { "" })]
    NoAlphabetInCharset {
        /// The charset spec as given.
        charset: String,
        /// The slot count.
        slots: u64,
        /// The tag length asked for, if any.
        tag_len: Option<usize>,
        /// The size of the largest affine subset of the charset (0 for an empty charset,
        /// 1 for a single byte).
        largest: usize,
    },
    /// The slot count is not a power of two from 2 to 65536.
    #[error("{slots} {}: the slot count must be a power of two from 2 to 65536, so that the slot is the CRC's low bits (Redis Cluster has 16384)", if *.slots == 1 { "slot" } else { "slots" })]
    SlotCount {
        /// The slot count given.
        slots: u64,
    },
    /// The tag length is outside what a table can hold.
    #[error("tag length {tag_len} is out of range: a tag has 1 to {max} symbols of {symbol_bits} bits (at most 32 symbols and 64 bits)")]
    TagLen {
        /// The tag length given.
        tag_len: usize,
        /// The longest tag for this alphabet.
        max: usize,
        /// Bits per symbol of the alphabet.
        symbol_bits: u32,
    },
    /// The tag -> slot map does not reach every slot.
    #[error("rank {rank} is below the {needed} slot bits: {tag_len}-symbol tags reach only {reachable} of {slots} slots; {}", fix_for_rank(*.shortest))]
    RankDeficient {
        /// The rank of the linear part.
        rank: usize,
        /// The slot bits: `log2(slots)`.
        needed: usize,
        /// Slots that tags of this length reach: `2^rank`.
        reachable: u64,
        /// The slot count.
        slots: u64,
        /// The tag length tried.
        tag_len: usize,
        /// The shortest tag length with full rank, if any.
        shortest: Option<usize>,
    },
    /// A JSON derivation cannot be read.
    #[error("not a readable slotgen derivation: {message}; give a file written by `slotgen emit json`, whole and unedited")]
    TableJson {
        /// What the JSON parser reported, with the line and column.
        message: String,
    },
    /// A JSON derivation is larger than any derivation can be.
    #[error("the file has {bytes} bytes, more than the {limit} of any slotgen derivation: give a file written by `slotgen emit json`")]
    TableTooLarge {
        /// The size given, or the bytes read before the limit was passed.
        bytes: u64,
        /// [`crate::verify::MAX_JSON_BYTES`].
        limit: u64,
    },
    /// A JSON file is not a derivation of a schema this version reads.
    #[error("`format` is `{}`, not `{expected}`: give a file written by `slotgen emit json` (files of schema `slotgen-derivation/1` are not read: write them again)", crate::text::escape_text(.found))]
    TableFormat {
        /// The `format` found, or `(none)`.
        found: String,
        /// The schema expected.
        expected: &'static str,
    },
    /// A field of a JSON derivation that names its spec holds no valid value.
    #[error("field `{field}` of the derivation is invalid: {reason}; give a file written by `slotgen emit json`")]
    TableSpec {
        /// The field, such as `alphabet_hex`.
        field: &'static str,
        /// Why its value is invalid.
        reason: String,
    },
    /// A JSON file is not a shortest-tag table of a schema this version reads, or cannot be
    /// read as one.
    #[error("not a readable shortest-tag table: {reason}; give a file written by `slotgen shortest --format json`")]
    ShortestJson {
        /// What is wrong: the parser's message, or the `format` found.
        reason: String,
    },
    /// A string literal of a C or Lua tag table cannot be read.
    #[error("line {line}: {reason}")]
    SourceLiteral {
        /// The line, counting from 1.
        line: usize,
        /// What is wrong and how to fix it.
        reason: String,
    },
    /// A charset byte cannot be a tag symbol here.
    #[error("charset contains {}: {rule}; remove it", show_byte(*.symbol))]
    CharsetSymbol {
        /// The offending byte.
        symbol: u8,
        /// The rule it breaks.
        rule: &'static str,
    },
    /// A charset order does not list exactly the charset's symbols.
    #[error("order `{order}` must list every symbol of the charset exactly once and nothing else: {}", order_mismatch(.missing, .extra))]
    OrderMismatch {
        /// The order as given.
        order: String,
        /// Charset symbols the order leaves out.
        missing: Vec<u8>,
        /// Order symbols that are not in the charset.
        extra: Vec<u8>,
    },
    /// The longest shortest tag to search is out of range.
    #[error("max length {max_len} is out of range: shortest tags are searched up to a length from 1 to {limit}")]
    MaxLen {
        /// The max length given.
        max_len: usize,
        /// The largest max length.
        limit: usize,
    },
    /// The shortest-tag search would need too many strings of one length.
    #[error("{left} slots have no tag shorter than {len} symbols, and the {symbols}^{len} tags of length {len} are more than 2^32 to search: lower the max length to {} and accept the gaps, or use more symbols", .len - 1)]
    SearchTooLarge {
        /// The length that would be searched next.
        len: usize,
        /// The number of charset symbols.
        symbols: usize,
        /// The slots without a tag so far.
        left: usize,
    },
    /// A name given for a Go package is not one.
    #[error("`{}` is not a Go package name: use lowercase ASCII letters, digits and `_`, starting with a letter, and no Go keyword", crate::text::escape_text(.name))]
    GoPackageName {
        /// The name given.
        name: String,
    },
    /// A name given for an emitted module is not one its language accepts.
    #[error("`{}` is not a name for `emit {language}`: {rule}", crate::text::escape_text(.name))]
    ModuleName {
        /// The language, as `slotgen emit` names it (`java`, `ruby`, ...).
        language: &'static str,
        /// The name given.
        name: String,
        /// What a name of that language must look like, with an example.
        rule: &'static str,
    },
    /// A file that the language finds its module by (`RedisSlots.java`) whose stem is no
    /// module name of the language.
    #[error("{}", file_stem(language, *named, file, what, rule, fix))]
    FileStem {
        /// The language, as `slotgen emit` names it.
        language: &'static str,
        /// Whether the language takes `--name` (which is then not given).
        named: bool,
        /// The file's name, without its directory.
        file: String,
        /// What is named after the file: `the public class`.
        what: &'static str,
        /// What a name of that language must look like.
        rule: &'static str,
        /// A file name that is one: `RedisSlots.java`.
        fix: String,
    },
    /// A file of the language's extension in other letter case (`RedisSlots.Java`), which
    /// its compiler or `import` does not take as a module.
    #[error("`-o {}`: `emit {language}` writes a module that is found by its file's name, and the extension must be written exactly: write `-o {}`", crate::text::escape_text(file), crate::text::escape_text(fix))]
    FileExtension {
        /// The language, as `slotgen emit` names it.
        language: &'static str,
        /// The file's name, without its directory.
        file: Box<str>,
        /// The file's name with the language's extension: `RedisSlots.java`.
        fix: Box<str>,
    },
    /// A file to write a module to that its language would not read as the module: the
    /// language's extension alone (`.py`, a hidden file that names no module), or an
    /// extension its toolchain reads as something else (`slots.pyc`, compiled bytecode).
    #[error(
        "`-o {}`: {reason}: write `-o {}`",
        crate::text::escape_text(file),
        crate::text::escape_text(fix)
    )]
    OutputFile {
        /// The file's name, without its directory.
        file: Box<str>,
        /// Why the language's toolchain would not read it: `a `.pyc` file is read as ...`.
        reason: String,
        /// A file name that it reads: `slots.py`.
        fix: Box<str>,
    },
    /// A `--name` whose module the language finds in a file of another name.
    #[error("{}", file_name(language, name, file, what, fix, renamed.as_deref()))]
    FileName {
        /// The language, as `slotgen emit` names it.
        language: &'static str,
        /// The name given.
        name: Box<str>,
        /// The file's name, without its directory.
        file: Box<str>,
        /// What is named after the file: `the public class`.
        what: &'static str,
        /// The file the name needs: `RedisSlots.java`.
        fix: Box<str>,
        /// The name that fits the file, where its stem is a name: `com.example.Slotgen`.
        renamed: Option<Box<str>>,
    },
    /// An option of `slotgen emit` that the language does not take (it would be ignored).
    #[error("`{option}` does not apply to `emit {language}` (only to {takers}): remove it")]
    LanguageOption {
        /// The language, as `slotgen emit` names it.
        language: &'static str,
        /// The option: `--name`, `--package`, `--types` or `--for-script`.
        option: &'static str,
        /// The languages that take it, as `` `emit go` `` words.
        takers: String,
    },
    /// A slot's tag count does not fit the integers of the emitted language.
    #[error("each slot has 2^{kernel_len} tags, more than the {language} module can count (its integers hold 2^{max_kernel_len} at most): use a shorter tag or more slots")]
    TagCount {
        /// The language, as `slotgen emit` names it.
        language: &'static str,
        /// The kernel's dimension: each slot has `2^kernel_len` tags.
        kernel_len: usize,
        /// The largest kernel dimension the language's count holds.
        max_kernel_len: usize,
    },
    /// A scheme's last slot does not fit the slot type of the emitted language.
    #[error("the last slot is {last_slot}, more than the {language} module's slot type holds ({max_slot} at most): use fewer slots")]
    SlotType {
        /// The language, as `slotgen emit` names it.
        language: &'static str,
        /// The scheme's last slot, `first + (slots - 1)`.
        last_slot: u32,
        /// The largest slot the language's slot type holds.
        max_slot: u32,
    },
    /// The build.rs API was given a name or visibility that is not Rust.
    #[error(
        "`{}` is not a Rust {what}: the table's `static` needs one, such as `ORDERS` and `pub`", crate::text::escape_text(.name)
    )]
    InvalidName {
        /// What was given.
        name: String,
        /// `name` or `visibility`.
        what: &'static str,
    },
    /// The build.rs API could not write its file.
    #[error("cannot write `{}`: {reason}; check that its directory exists and is writable", crate::text::path(.path))]
    Write {
        /// The file.
        path: std::path::PathBuf,
        /// The operating system's reason.
        reason: String,
    },
    /// A file name given to `write_to_out_dir` would leave `OUT_DIR`.
    #[error("`{}` is not a file name inside `OUT_DIR`: {reason}; give a relative path of plain names, such as `slot_table.rs`", crate::text::escape_text(.file_name))]
    OutDirPath {
        /// The name given.
        file_name: String,
        /// Which rule it breaks.
        reason: &'static str,
    },
    /// `OUT_DIR` is not set, so there is nowhere to write the table for `include!`.
    #[error("`OUT_DIR` is not set: call `write_to_out_dir` from a build script (cargo sets `OUT_DIR` for it), or give `write` a path")]
    NoOutDir,
    /// No named scheme has this name.
    #[error("unknown scheme `{}`: the schemes are {}{}", crate::text::escape_text(.name), quoted(.known), nearest_clause(.nearest))]
    UnknownScheme {
        /// The name asked for.
        name: String,
        /// The nearest scheme names, nearest first ([`crate::text::nearest`]).
        nearest: Vec<&'static str>,
        /// Every scheme name.
        known: Vec<&'static str>,
    },
    /// Hashtag delimiters that are not two bytes.
    #[error("hashtag delimiters `{given}` are not two bytes: give the opening and the closing byte, such as `{{}}` (as twemproxy's `hash_tag` takes them)")]
    HashTagDelimiters {
        /// What was given.
        given: String,
    },
    /// A slot count above what a scheme's slot type holds.
    #[error("{slots} slots is more than 2^32 - 1: give at most 4294967295")]
    SchemeSlots {
        /// The slot count given.
        slots: u64,
    },
    /// A scheme's parts are invalid (see `slotgen_tables::Error`).
    #[error(transparent)]
    Scheme(#[from] slotgen_tables::Error),
    /// A scheme's value mask keeps bits with holes between them, which no named scheme does.
    #[error("scheme `{scheme}` keeps value bits with holes between them: tags are solved for a run of low bits")]
    SchemeValueMask {
        /// The scheme's name.
        scheme: &'static str,
    },
    /// A scheme has more slots than values, so some slots are reached by no key.
    #[error("scheme `{scheme}` with {slots} slots: its values are {value_bits} bits wide, so slots from {} on are reached by no key; give at most {} slots", 1u64 << .value_bits, 1u64 << .value_bits)]
    SlotsAboveValues {
        /// The scheme's name.
        scheme: &'static str,
        /// The slot count given.
        slots: u64,
        /// The width of the scheme's value.
        value_bits: u32,
    },
    /// An alphabet symbol is one of the scheme's hashtag delimiters.
    #[error("the alphabet contains {}, one of the hashtag delimiters `{}`: a tag would change which bytes are hashed; choose an alphabet without them", show_byte(*.byte), crate::text::escape(.delimiters))]
    DelimiterInAlphabet {
        /// The symbol.
        byte: u8,
        /// The delimiters, opening then closing.
        delimiters: [u8; 2],
    },
    /// Two options of a request that exclude each other were both given. The message
    /// states the rule in words of no front end; each front end names the two options in
    /// its own spelling (`request::WayOut::Either`).
    #[error("{rule}")]
    OptionConflict {
        /// The option refused, by `request::Field::name` (`tag_len`).
        field: &'static str,
        /// The option it conflicts with, by `request::Field::name`.
        other: &'static str,
        /// The rule and why, such as "an alphabet and a charset cannot be given together:
        /// ...".
        rule: &'static str,
    },
    /// An alphabet given as text has a symbol that is not ASCII, so not one byte.
    #[error("alphabet symbol `{}` is not ASCII: a symbol is one byte, and `{}` is {} bytes in UTF-8", crate::text::escape_controls(&.symbol.to_string()), crate::text::escape_controls(&.symbol.to_string()), .symbol.len_utf8())]
    AlphabetNotAscii {
        /// The first symbol that is not ASCII.
        symbol: char,
    },
    /// A key frame (a prefix or suffix around a bare tag) was asked of a scheme that hashes
    /// a hashtag, whose keys put the tag between its delimiters instead.
    #[error("scheme `{scheme}` hashes the key's hashtag, not the whole key: put the prefix and suffix around the delimited tag (`SchemeTable::write_key`, `slotgen key --prefix`)")]
    FrameNeedsWholeKey {
        /// The scheme's name.
        scheme: &'static str,
    },
    /// Tags of this length do not control every bit a scheme's tag is solved for.
    #[error("scheme `{scheme}`: {tag_len}-symbol tags control {rank} of the {needed} bits solved for, {solved}; {}", scheme_rank_fix(*.shortest, *.max))]
    SchemeRankDeficient {
        /// The scheme's name.
        scheme: &'static str,
        /// The rank of the linear part.
        rank: usize,
        /// The solved bits.
        needed: usize,
        /// What is solved for, in words.
        solved: String,
        /// The tag length tried.
        tag_len: usize,
        /// The shortest tag length with full rank, if any up to `max`.
        shortest: Option<usize>,
        /// The longest tag for this alphabet.
        max: usize,
    },
    /// A scheme's CRC has a width that the emitted modules do not compute.
    #[error("CRC width {width} is not one the emitted modules compute: they take widths 8, 16, 24 and 32, every named scheme's among them")]
    SchemeCrcWidth {
        /// The CRC's width in bits.
        width: u8,
    },
    /// A scheme whose register no tag controls whole (`twemproxy-crc16`'s 32 bits) with a
    /// slot count whose reduction needs the whole value (not a power of two).
    #[error("scheme `{scheme}` with {slots} slots: a modulus that is not a power of two needs every bit of the value under the tag's control, and tags control at most 30 of the 32 bits of its register (the high bytes of the CRCs of the key without its last one and two bytes stand in bits 16 to 31, so given them the low 16 bits vary only with the last two symbols: 16 plus twice a symbol's bits, 24 for 16 symbols, 30 for 128): give a power of two as the slot count (its low bits are CRC-16/XMODEM's, which are solved), or use `slotgen shortest --scheme {scheme}`, which finds a tag for every slot by enumeration")]
    UnsolvableRegister {
        /// The scheme's name.
        scheme: &'static str,
        /// The slot count.
        slots: u32,
    },
    /// A module of another language was asked for a scheme whose CRC runs in a register
    /// other than the CRC's own (`twemproxy-crc16`), which the emitted modules do not model.
    #[error("scheme `{scheme}` keeps CRC-16/XMODEM's steps in a 32-bit register that is never masked (nutcracker's `hash_crc16`), and the `{language}` module computes a CRC in its own 16-bit register, so it would give other slots: for this scheme use `slotgen emit rust` or `emit json`, or `slotgen tag`, `key` and `shortest`")]
    SchemeRegister {
        /// The scheme's name.
        scheme: &'static str,
        /// The language asked for, as `slotgen emit` names it.
        language: &'static str,
    },
    /// Server-side Lua (a Functions library, an `EVAL` script block) was asked for a scheme
    /// whose servers do not run it.
    #[error("{what} does not apply to scheme `{scheme}`: {reason}")]
    ServerLua {
        /// The scheme's name.
        scheme: &'static str,
        /// What was asked for: `a Redis Functions library` or `an EVAL script block`.
        what: &'static str,
        /// Why the scheme's servers do not run it, and what to use instead.
        reason: &'static str,
    },
}

impl Error {
    /// Whether the request was wrong by itself (a value not of its form, options that do
    /// not go together, a name that is not one, a CRC and alphabet with which no tag
    /// length reaches every slot), as opposed to work that cannot be done with valid input
    /// (a tag length too short where a longer one reaches, a file that is not what it
    /// says, a write that failed). Front ends map it to their own terms: the CLI exits 2
    /// for the first and 1 for the second. Every variant is placed here, without a
    /// wildcard, so that a new one must be placed too.
    ///
    /// ```
    /// use slotgen::{derive, Spec};
    ///
    /// let unknown = Spec::default().with_crc("CRC-16/NOPE").unwrap_err();
    /// assert!(unknown.is_usage());
    /// let short = derive(&Spec { tag_len: Some(3), ..Spec::default() }).unwrap_err();
    /// assert!(!short.is_usage()); // a valid spec whose tags cannot reach every slot
    /// ```
    #[must_use]
    pub fn is_usage(&self) -> bool {
        match self {
            Self::UnknownCrc { .. }
            | Self::NotCrc16 { .. }
            | Self::UnsupportedWidth { .. }
            | Self::EvenPoly { .. }
            | Self::BraceInAlphabet { .. }
            | Self::DuplicateSymbol { .. }
            | Self::AlphabetSize { .. }
            | Self::NotAffine { .. }
            | Self::CharsetSyntax { .. }
            | Self::UnknownCharset { .. }
            | Self::CharsetSymbol { .. }
            | Self::SlotCount { .. }
            | Self::TagLen { .. }
            | Self::OrderMismatch { .. }
            | Self::MaxLen { .. }
            | Self::GoPackageName { .. }
            | Self::ModuleName { .. }
            | Self::FileStem { .. }
            | Self::FileName { .. }
            | Self::FileExtension { .. }
            | Self::OutputFile { .. }
            | Self::LanguageOption { .. }
            | Self::InvalidName { .. }
            | Self::DelimiterInAlphabet { .. }
            | Self::SlotsAboveValues { .. }
            | Self::UnknownScheme { .. }
            | Self::HashTagDelimiters { .. }
            | Self::SchemeSlots { .. }
            | Self::OptionConflict { .. }
            | Self::AlphabetNotAscii { .. }
            | Self::FrameNeedsWholeKey { .. }
            | Self::UnsolvableRegister { .. }
            | Self::SchemeRegister { .. }
            | Self::ServerLua { .. } => true,
            // no tag length reaches every slot: the spec (CRC, alphabet, slots) by itself
            Self::RankDeficient { shortest, .. } => shortest.is_none(),
            Self::CheckMismatch { .. }
            | Self::NoAlphabetInCharset { .. }
            | Self::TableJson { .. }
            | Self::TableTooLarge { .. }
            | Self::TableFormat { .. }
            | Self::TableSpec { .. }
            | Self::ShortestJson { .. }
            | Self::SourceLiteral { .. }
            | Self::SearchTooLarge { .. }
            | Self::TagCount { .. }
            | Self::SlotType { .. }
            | Self::Write { .. }
            | Self::OutDirPath { .. }
            | Self::NoOutDir
            | Self::SchemeValueMask { .. }
            | Self::SchemeRankDeficient { .. }
            | Self::SchemeCrcWidth { .. } => false,
            Self::Scheme(error) => matches!(
                error,
                slotgen_tables::Error::ZeroSlots
                    | slotgen_tables::Error::SlotsNotPowerOfTwo { .. }
                    | slotgen_tables::Error::ShiftTooWide { .. }
                    | slotgen_tables::Error::OffsetOverflow { .. }
                    | slotgen_tables::Error::SlotsRequired { .. }
                    | slotgen_tables::Error::HashTagNotTaken { .. }
                    | slotgen_tables::Error::SlotOutOfRange { .. }
                    | slotgen_tables::Error::PrefixHasDelimiter { .. }
                    | slotgen_tables::Error::WholeKeyHashed
            ),
        }
    }
}

/// The stem of a file name: `RedisSlots` of `RedisSlots.java`.
fn stem(file: &str) -> &str {
    std::path::Path::new(file)
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or(file)
}

/// [`Error::FileStem`]'s message.
fn file_stem(language: &str, named: bool, file: &str, what: &str, rule: &str, fix: &str) -> String {
    let escape = crate::text::escape_text;
    let without = if named { "without `--name`, " } else { "" };
    format!(
        "`-o {}`: {without}`emit {language}` names {what} after the file, and `{}` is not a name for it: {rule}; name the file after one, such as `-o {fix}`",
        escape(file),
        escape(stem(file)),
    )
}

/// [`Error::FileName`]'s message.
fn file_name(
    language: &str,
    name: &str,
    file: &str,
    what: &str,
    fix: &str,
    renamed: Option<&str>,
) -> String {
    let escape = crate::text::escape_text;
    let rename = renamed.map_or(String::new(), |r| {
        format!(", or give `--name {}` for this file", escape(r))
    });
    format!(
        "`--name {}` names {what} `{}`, which `emit {language}` must write to a file named `{}`, not `{}`: write `-o {}`{rename}",
        escape(name),
        escape(stem(fix)),
        escape(fix),
        escape(file),
        escape(fix),
    )
}

fn scheme_rank_fix(shortest: Option<usize>, max: usize) -> String {
    match shortest {
        Some(len) => format!("give a tag length of at least {len} (or leave it out for the shortest); `slotgen shortest --scheme` finds the shortest tag of each slot by enumeration instead"),
        None => format!("no tag of up to {max} symbols of this alphabet does (a tag holds at most 64 input bits, so a whole 64-bit value is out of reach): give a larger alphabet, or use `slotgen shortest --scheme`, which finds the shortest tag of each slot by enumeration"),
    }
}

fn even_poly(poly: u16) -> String {
    let bits = poly.trailing_zeros().min(8);
    format!(
        "polynomial {poly:#06x} is even (no x^0 term) and the output is not reflected: the CRC's low {bits} {} the same for every input, so keys reach at most 1 in {} slots; a CRC polynomial has its x^0 term set: give an odd polynomial, such as {:#06x}",
        if bits == 1 { "bit is" } else { "bits are" },
        1u32 << bits,
        poly | 1
    )
}

fn fix_for_rank(shortest: Option<usize>) -> String {
    match shortest {
        Some(n) => format!("use tag length {n}, the shortest that reaches every slot"),
        None => {
            "no tag length up to the limit reaches every slot: use a larger alphabet or fewer slots"
                .to_owned()
        }
    }
}

/// [`Error::OrderMismatch`]'s way out, the bytes written as the order writes them
/// (`\x0a`, `\-`).
fn order_mismatch(missing: &[u8], extra: &[u8]) -> String {
    use crate::text::ranges;
    let mut parts = Vec::new();
    if !missing.is_empty() {
        parts.push(format!("add `{}`", ranges(missing)));
    }
    if !extra.is_empty() {
        parts.push(format!("remove `{}` (not in the charset)", ranges(extra)));
    }
    parts.join(", ")
}

fn tags_phrase(tag_len: Option<usize>) -> String {
    match tag_len {
        Some(n) => format!("{n}-symbol tags"),
        None => "tags of any length a table holds".to_owned(),
    }
}

fn quoted(names: &[&str]) -> String {
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The "nearest" clause of an unknown name's message: `; nearest: `a`, `b`` for the names
/// [`crate::text::nearest`] found, nothing when none is near.
fn nearest_clause(names: &[&str]) -> String {
    if names.is_empty() {
        String::new()
    } else {
        format!("; nearest: {}", quoted(names))
    }
}
