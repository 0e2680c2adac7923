//! The one reader of keys, for every command that reads them (`slot`, `check`, `placement`,
//! `verify --keys`): one key per line (a carriage return before the line feed is not part
//! of the key), or with `-z` one key per NUL-terminated record (every other byte is part
//! of the key); with `--hex`, each key as hex digits. A last record without its terminator
//! is a key too.
//!
//! Every key is at most [`MAX_KEY_BYTES`] long, and a longer one is refused with one
//! message ([`too_long`]) whatever the command, so that memory stays bounded whatever the
//! input: a line of 700 MB, a file with no line feed, `/dev/zero`. Keys are taken from the
//! read buffer where they lie; only a key cut by the buffer's end is copied, to be
//! completed.

use std::io::{BufRead, BufReader};
use std::path::Path;

use anyhow::{anyhow, Result};

/// The longest key slotgen reads, in bytes: 1 MiB (with `--hex`, a line of twice as many
/// hex digits).
///
/// Redis itself takes keys up to 512 MB (`proto-max-bulk-len`), but a key a thousandth of
/// that is already far past any key a cluster is used with (a key's bytes are sent and
/// stored with every command on it), and every command holds a key a few times over (its
/// hex form, its escaped TSV and JSON forms, up to ten times its length): 1 MiB keeps each
/// command well under 64 MB whatever its input.
pub const MAX_KEY_BYTES: usize = 1 << 20;

/// The bytes of each read of the input.
const READ_BUFFER: usize = 1 << 16;

/// The refusal of a key longer than [`MAX_KEY_BYTES`]: key `number` (counted from 1) of
/// `source` (`standard input`, or a file's name in backticks).
pub fn too_long(number: u64, source: &str) -> anyhow::Error {
    anyhow!(
        "key {number} of {source} is longer than {MAX_KEY_BYTES} bytes (1 MiB), the longest key slotgen reads: give one key per line (with -z, one per NUL-terminated record), each of at most 1 MiB"
    )
}

/// `text` as hex digits decoded into `out`; `what` names the key in the error (`key 3`).
///
/// # Errors
///
/// When `text` is not pairs of hex digits: the rule and the fix.
pub fn decode_hex(text: &[u8], out: &mut Vec<u8>, what: impl FnOnce() -> String) -> Result<()> {
    out.clear();
    out.resize(text.len() / 2, 0);
    if text.len() % 2 != 0 || hex::decode_to_slice(text, out).is_err() {
        return Err(anyhow!(
            "{} is not hex: with --hex, give each key as pairs of hex digits",
            what()
        ));
    }
    Ok(())
}

/// The keys of one input, read one at a time by [`KeyReader::next`].
pub struct KeyReader<R> {
    input: R,
    /// What the input is, in messages: `standard input`, or a file's name in backticks.
    source: String,
    /// The byte that ends a key: a line feed, or NUL with `-z`.
    terminator: u8,
    hex: bool,
    /// Keys read so far.
    number: u64,
    /// Bytes of the input's buffer that the last key took, consumed before the next read.
    pending: usize,
    /// A key cut by the end of the read buffer, being completed.
    cut: Vec<u8>,
    /// The last key decoded from hex.
    decoded: Vec<u8>,
}

impl KeyReader<BufReader<std::io::StdinLock<'static>>> {
    /// The keys on standard input, ended by `terminator`, hex digits when `hex`.
    pub fn stdin(terminator: u8, hex: bool) -> Self {
        let input = BufReader::with_capacity(READ_BUFFER, std::io::stdin().lock());
        KeyReader::new(input, "standard input".to_owned(), terminator, hex)
    }
}

impl KeyReader<Box<dyn BufRead>> {
    /// The keys of the file at `path`, or of standard input for `-`.
    ///
    /// # Errors
    ///
    /// When the file cannot be opened: its name and the operating system's reason.
    pub fn open(path: &Path, terminator: u8, hex: bool) -> Result<Self> {
        if path == Path::new("-") {
            let input: Box<dyn BufRead> =
                Box::new(BufReader::with_capacity(READ_BUFFER, std::io::stdin()));
            return Ok(Self::new(
                input,
                "standard input".to_owned(),
                terminator,
                hex,
            ));
        }
        let file = std::fs::File::open(path)
            .map_err(|e| anyhow!("cannot read `{}`: {}", path.display(), super::os_reason(&e)))?;
        let input: Box<dyn BufRead> = Box::new(BufReader::with_capacity(READ_BUFFER, file));
        Ok(Self::new(
            input,
            format!("`{}`", path.display()),
            terminator,
            hex,
        ))
    }
}

impl<R: BufRead> KeyReader<R> {
    /// The keys of `input`, named `source` in messages.
    pub fn new(input: R, source: String, terminator: u8, hex: bool) -> Self {
        Self {
            input,
            source,
            terminator,
            hex,
            number: 0,
            pending: 0,
            cut: Vec::new(),
            decoded: Vec::new(),
        }
    }

    /// The longest record read: a key, its hex digits, and a carriage return.
    fn max_record(&self) -> usize {
        let digits = if self.hex { 2 } else { 1 };
        MAX_KEY_BYTES * digits + usize::from(self.terminator == b'\n')
    }

    /// The next key, `None` at the end of the input.
    ///
    /// # Errors
    ///
    /// The input cannot be read; a key is longer than [`MAX_KEY_BYTES`] ([`too_long`]); with
    /// `--hex`, a key is not hex.
    pub fn next(&mut self) -> Result<Option<&[u8]>> {
        self.input.consume(std::mem::take(&mut self.pending));
        self.cut.clear();
        let max = self.max_record();
        // Where the key ends in the read buffer, when it lies there whole.
        let whole = loop {
            let buffer = self
                .input
                .fill_buf()
                .map_err(|e| anyhow!("cannot read {}: {}", self.source, super::os_reason(&e)))?;
            if buffer.is_empty() {
                if self.cut.is_empty() {
                    return Ok(None);
                }
                // the last key, without a terminator
                break None;
            }
            let (taken, end) = match memchr::memchr(self.terminator, buffer) {
                Some(end) if self.cut.is_empty() && end <= max => {
                    self.pending = end + 1;
                    break Some(end);
                }
                Some(end) => (end, true),
                None => (buffer.len(), false),
            };
            if self.cut.len() + taken > max {
                return Err(too_long(self.number + 1, &self.source));
            }
            self.cut.extend_from_slice(&buffer[..taken]);
            self.input.consume(taken + usize::from(end));
            if end {
                break None;
            }
        };
        self.number += 1;
        let mut key: &[u8] = match whole {
            // the same buffer again: nothing is read
            Some(end) => &self.input.fill_buf()?[..end],
            None => &self.cut,
        };
        if self.terminator == b'\n' {
            key = key.strip_suffix(b"\r").unwrap_or(key);
        }
        if self.hex {
            let number = self.number;
            decode_hex(key, &mut self.decoded, || {
                format!("key {number} of {}", self.source)
            })?;
            key = &self.decoded;
        }
        if key.len() > MAX_KEY_BYTES {
            return Err(too_long(self.number, &self.source));
        }
        Ok(Some(key))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(input: &[u8], terminator: u8, hex: bool) -> Result<Vec<Vec<u8>>> {
        // a small buffer, so that keys are cut by its end
        let input = BufReader::with_capacity(3, input);
        let mut reader = KeyReader::new(input, "the test".to_owned(), terminator, hex);
        let mut all = Vec::new();
        while let Some(key) = reader.next()? {
            all.push(key.to_vec());
        }
        Ok(all)
    }

    #[test]
    fn lines_lose_a_carriage_return_and_records_keep_every_byte() {
        let got = keys(b"ab\r\n\ncdefg\nh\r", b'\n', false).unwrap();
        assert_eq!(got, [&b"ab"[..], b"", b"cdefg", b"h"]);
        let got = keys(b"a\r\nb\0\0c\n", 0, false).unwrap();
        assert_eq!(got, [&b"a\r\nb"[..], b"", b"c\n"]);
        assert!(keys(b"", b'\n', false).unwrap().is_empty());
    }

    #[test]
    fn hex_keys_are_decoded_and_bad_ones_named() {
        let got = keys(b"7b617d\r\n\n00ff", b'\n', true).unwrap();
        assert_eq!(got, [&b"{a}"[..], b"", b"\0\xff"]);
        let error = keys(b"00\n0g\n", b'\n', true).unwrap_err().to_string();
        assert_eq!(
            error,
            "key 2 of the test is not hex: with --hex, give each key as pairs of hex digits"
        );
    }

    #[test]
    fn a_key_past_the_limit_is_refused_by_number() {
        let mut input = b"a\n".to_vec();
        input.extend(std::iter::repeat_n(b'x', MAX_KEY_BYTES));
        input.push(b'\n');
        assert_eq!(keys(&input, b'\n', false).unwrap().len(), 2);
        // one byte more, whether the line ends or not; a carriage return is not counted
        input.insert(3, b'x');
        for end in [&b"\n"[..], b"", b"\r\n"] {
            let mut input = input[..input.len() - 1].to_vec();
            input.extend_from_slice(end);
            let error = keys(&input, b'\n', false).unwrap_err().to_string();
            assert!(error.starts_with("key 2 of the test is longer than 1048576 bytes"));
        }
        let mut input = vec![b'x'; MAX_KEY_BYTES];
        input.extend_from_slice(b"\r\n");
        assert_eq!(keys(&input, b'\n', false).unwrap()[0].len(), MAX_KEY_BYTES);
        let hex = vec![b'0'; 2 * MAX_KEY_BYTES + 2];
        let error = keys(&hex, 0, true).unwrap_err().to_string();
        assert!(
            error.starts_with("key 1 of the test is longer than"),
            "{error}"
        );
    }
}
