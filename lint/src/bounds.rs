//! The bounds of what the lint reads: a script's bytes, its nesting, its includes.

/// The most bytes of a script with its includes, or of a command file (256 KiB). The
/// parser's tree takes about 450 bytes of memory a byte of source at worst (measured: a
/// 256 KiB script of `a = a .. 'x'` lines peaks at 129 MB, at 1 MiB it was 468 MB), and
/// real scripts are small: bullmq's largest command with its includes is 42 KB.
pub const MAX_SOURCE_BYTES: usize = 256 << 10;
/// The deepest nesting of brackets, blocks and unary operators in a script (the parser
/// recurses on it).
pub const MAX_NESTING: usize = 200;
/// The most files one script may include, itself counted.
pub const MAX_FILES: usize = 512;
