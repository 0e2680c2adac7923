//! The one reader of keys, for every command that reads them (`slot`, `check`, `placement`,
//! `verify --keys`): one key per line (a carriage return before the line feed is not part
//! of the key), or with `-z` one key per NUL-terminated record (every other byte is part
//! of the key); with `--hex`, each key as hex digits. A last record without its terminator
//! is a key too.
//!
//! Every key is at most [`MAX_KEY_BYTES`] long, and a longer one is refused with one
//! message ([`too_long`]) whatever the command, so that memory stays bounded whatever the
//! input: a line of 700 MB, a file with no line feed, `/dev/zero`. Keys are taken from the
//! read buffer where they lie; only the start of a key cut by the buffer's end is moved, to
//! be completed.

use std::io::Read;
use std::path::Path;

use anyhow::{anyhow, bail, Result};

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
    /// Bytes read: `buffer[start..filled]` are not yet taken. It grows past [`READ_BUFFER`]
    /// only for a key that long, and never past the longest record and a byte.
    buffer: Vec<u8>,
    start: usize,
    filled: usize,
    /// How many bytes from `start` on hold no terminator.
    searched: usize,
    /// Whether the input has ended.
    ended: bool,
    /// The last key decoded from hex.
    decoded: Vec<u8>,
}

impl KeyReader<std::io::StdinLock<'static>> {
    /// The keys on standard input, ended by `terminator`, hex digits when `hex`.
    pub fn stdin(terminator: u8, hex: bool) -> Self {
        let input = std::io::stdin().lock();
        KeyReader::new(input, "standard input".to_owned(), terminator, hex)
    }
}

impl KeyReader<Box<dyn Read>> {
    /// The keys of the file at `path`, or of standard input for `-`.
    ///
    /// # Errors
    ///
    /// When the file cannot be opened: its name and the operating system's reason.
    pub fn open(path: &Path, terminator: u8, hex: bool) -> Result<Self> {
        if path == Path::new("-") {
            let input: Box<dyn Read> = Box::new(std::io::stdin());
            return Ok(Self::new(
                input,
                "standard input".to_owned(),
                terminator,
                hex,
            ));
        }
        let file = std::fs::File::open(path)
            .map_err(|e| anyhow!("cannot read `{}`: {}", path.display(), super::os_reason(&e)))?;
        Ok(Self::new(
            Box::new(file),
            format!("`{}`", path.display()),
            terminator,
            hex,
        ))
    }
}

impl<R: Read> KeyReader<R> {
    /// The keys of `input`, named `source` in messages.
    pub fn new(input: R, source: String, terminator: u8, hex: bool) -> Self {
        Self {
            input,
            source,
            terminator,
            hex,
            number: 0,
            buffer: vec![0; READ_BUFFER],
            start: 0,
            filled: 0,
            searched: 0,
            ended: false,
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
        let max = self.max_record();
        // where the record lies in the buffer
        let (from, to) = loop {
            let unread = &self.buffer[self.start..self.filled];
            // only the bytes not yet searched, so that a key read a few bytes at a time is
            // searched once, not once a read
            let searched = self.searched;
            if let Some(end) = memchr::memchr(self.terminator, &unread[searched..]) {
                let end = searched + end;
                if end > max {
                    return Err(too_long(self.number + 1, &self.source));
                }
                let from = self.start;
                self.start += end + 1;
                self.searched = 0;
                break (from, from + end);
            }
            self.searched = unread.len();
            if unread.len() > max {
                return Err(too_long(self.number + 1, &self.source));
            }
            if self.ended {
                if unread.is_empty() {
                    return Ok(None);
                }
                // the last key, without a terminator
                let from = self.start;
                self.start = self.filled;
                self.searched = 0;
                break (from, self.filled);
            }
            self.fill(max)?;
        };
        self.number += 1;
        let key = Self::key_of(
            &self.buffer[from..to],
            self.terminator,
            self.hex,
            &mut self.decoded,
            self.number,
            &self.source,
        )?;
        Ok(Some(key))
    }

    /// Calls `each` with every key, in order: as [`next`](Self::next) in a loop, but the
    /// keys that lie whole in the read buffer are found in one pass over it (`slot` reads
    /// tens of millions of keys a second, and a search started afresh for each key costs
    /// some 40 instructions more).
    ///
    /// # Errors
    ///
    /// Those of [`next`](Self::next), and those of `each`.
    pub fn for_each(&mut self, mut each: impl FnMut(&[u8]) -> Result<()>) -> Result<()> {
        let max = self.max_record();
        loop {
            // `searched` is 0: the last key ended where `start` is
            let unread = &self.buffer[self.start..self.filled];
            let mut from = 0;
            for end in memchr::memchr_iter(self.terminator, unread) {
                if end - from > max {
                    return Err(too_long(self.number + 1, &self.source));
                }
                self.number += 1;
                each(Self::key_of(
                    &unread[from..end],
                    self.terminator,
                    self.hex,
                    &mut self.decoded,
                    self.number,
                    &self.source,
                )?)?;
                from = end + 1;
            }
            self.start += from;
            // a key cut by the end of the buffer, or the input's last
            match self.next()? {
                Some(key) => each(key)?,
                None => return Ok(()),
            }
        }
    }

    /// The key of `record`, the `number`-th of `source`: without the carriage return before
    /// a line feed `terminator`, decoded from hex into `decoded` when `hex`.
    fn key_of<'a>(
        record: &'a [u8],
        terminator: u8,
        hex: bool,
        decoded: &'a mut Vec<u8>,
        number: u64,
        source: &str,
    ) -> Result<&'a [u8]> {
        let mut key = record;
        if terminator == b'\n' {
            key = key.strip_suffix(b"\r").unwrap_or(key);
        }
        if hex {
            decode_hex(key, decoded, || format!("key {number} of {source}"))?;
            key = decoded;
        }
        if key.len() > MAX_KEY_BYTES {
            return Err(too_long(number, source));
        }
        Ok(key)
    }

    /// Reads more after the unread bytes, which are moved to the buffer's front; grows the
    /// buffer when they fill it, up to `max` and 2 bytes (so that a record past `max` is
    /// seen whole or not at all).
    fn fill(&mut self, max: usize) -> Result<()> {
        if self.start > 0 {
            self.buffer.copy_within(self.start..self.filled, 0);
            self.filled -= self.start;
            self.start = 0;
        }
        if self.filled == self.buffer.len() {
            let len = (2 * self.buffer.len()).min(max + 2);
            self.buffer.resize(len, 0);
        }
        loop {
            match self.input.read(&mut self.buffer[self.filled..]) {
                Ok(0) => self.ended = true,
                Ok(n) => self.filled += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => bail!("cannot read {}: {}", self.source, super::os_reason(&e)),
            }
            return Ok(());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Gives at most 3 bytes a read, so that keys are cut by the end of what was read.
    struct Trickle<'a>(&'a [u8]);

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = buf.len().min(3).min(self.0.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    /// The keys of `input` by `next` over reads of 3 bytes, checked against `for_each` over
    /// whole reads: the same keys, or the same error.
    fn keys(input: &[u8], terminator: u8, hex: bool) -> Result<Vec<Vec<u8>>> {
        let mut all = Vec::new();
        let mut reader = KeyReader::new(Trickle(input), "the test".to_owned(), terminator, hex);
        let one = (|| {
            while let Some(key) = reader.next()? {
                all.push(key.to_vec());
            }
            Ok::<_, anyhow::Error>(())
        })();
        let mut each = Vec::new();
        let mut reader = KeyReader::new(input, "the test".to_owned(), terminator, hex);
        let pass = reader.for_each(|key| {
            each.push(key.to_vec());
            Ok(())
        });
        match (one, pass) {
            (Ok(()), Ok(())) => {
                assert_eq!(each, all);
                Ok(all)
            }
            (Err(one), Err(pass)) => {
                assert_eq!(one.to_string(), pass.to_string());
                Err(one)
            }
            (one, pass) => panic!("next: {one:?}, for_each: {pass:?}"),
        }
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
