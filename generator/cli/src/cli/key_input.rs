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
//! be completed. They are handed out one at a time ([`KeyReader::next`], for `verify
//! --keys`, which sends them to a server) or a batch at a time
//! ([`KeyReader::for_each_batch`], for the commands that compute slots: the runtime's
//! `key_slots` takes a batch; the input is read and split on a second thread meanwhile).

use std::io::Read;
use std::ops::Range;
use std::path::Path;
use std::sync::mpsc::{Receiver, SyncSender, TryRecvError};

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

/// The bytes of each read of the input: 256 KiB, so that a file is read in a few hundred
/// calls a second however fast its keys go. The buffer grows past it only for a key that
/// long.
const READ_BUFFER: usize = 1 << 18;

/// The most keys in one batch of [`KeyReader::for_each_batch`]: 4096, whose slices (64 KiB)
/// and slots stay in a core's cache while a command works through them, and which bounds
/// the batch's memory whatever the keys' lengths (a read buffer of empty lines would
/// otherwise be a quarter of a million keys).
pub const BATCH: usize = 4096;

/// How many filled [`Block`]s the reading thread of [`KeyReader::for_each_batch`] may be
/// ahead of the keys' work: 2, so that it reads while the work is on one block and the
/// next is ready; with the block being worked on and the one being read into, four read
/// buffers (1 MiB) for the whole input.
const BLOCKS_AHEAD: usize = 2;

/// The most keys in one [`Block`]: 8 [`BATCH`]es (32,768 keys, 512 KiB of ranges), which a
/// full read buffer of keys of 8 bytes or more never reaches; past it (a buffer of empty
/// lines), the rest of the buffer is moved to the next block.
const BLOCK_KEYS: usize = 8 * BATCH;

/// A read buffer and the keys that lie whole in it, as ranges of it: what the reading thread
/// of [`KeyReader::for_each_batch`] hands over.
struct Block {
    bytes: Vec<u8>,
    keys: Vec<Range<usize>>,
}

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
/// When `text` is not pairs of hex digits: the rule, what is wrong (an odd count of digits,
/// or the first byte that is no hex digit, escaped) and the fix.
pub fn decode_hex(text: &[u8], out: &mut Vec<u8>, what: impl FnOnce() -> String) -> Result<()> {
    out.clear();
    out.resize(text.len() / 2, 0);
    let why = if let Some(at) = text.iter().position(|b| !b.is_ascii_hexdigit()) {
        format!(
            "byte {} (`{}`) is no hex digit",
            at + 1,
            slotgen::text::escape(&text[at..=at])
        )
    } else if text.len() % 2 != 0 {
        format!("it has an odd count of hex digits, {}", text.len())
    } else {
        hex::decode_to_slice(text, out).expect("an even count of hex digits decodes");
        return Ok(());
    };
    Err(anyhow!(
        "{} is not hex: {why}; with --hex, give each key as pairs of hex digits (`7b617d` is `{{a}}`)",
        what()
    ))
}

/// The keys of a command that takes them as arguments or on standard input, a batch at a
/// time to `each`: `keys` when given (hex digits decoded when `hex`; a key that is not hex
/// is a usage error, exit 2), otherwise, or for `-` alone, standard input's, ended by
/// `terminator`; `idle` whenever standard input is waited for
/// ([`KeyReader::for_each_batch`]).
///
/// # Errors
///
/// A key that is not hex, a read of standard input that fails, or `each`'s or `idle`'s
/// error.
pub fn for_each_key_batch(
    keys: &[String],
    terminator: u8,
    hex: bool,
    mut each: impl FnMut(&[&[u8]]) -> Result<()>,
    idle: impl FnMut() -> Result<()>,
) -> Result<()> {
    if keys.is_empty() || keys == ["-"] {
        return KeyReader::stdin(terminator, hex).for_each_batch(each, idle);
    }
    let mut decoded = Vec::new();
    for (n, key) in keys.iter().enumerate() {
        if hex {
            // a key on the command line is a value of the command line: exit 2
            decode_hex(key.as_bytes(), &mut decoded, || format!("key {}", n + 1))
                .map_err(crate::exit::usage)?;
            each(&[&decoded])?;
        } else {
            each(&[key.as_bytes()])?;
        }
    }
    Ok(())
}

/// The keys of one input, read one at a time by [`KeyReader::next`] or a batch at a time by
/// [`KeyReader::for_each_batch`].
///
/// The input is read in blocks of [`READ_BUFFER`] bytes; the keys that lie whole in a block
/// are found by one `memchr` pass over it, and each is a range of the block, its carriage
/// return left out and its hex digits decoded where they lie (a key's bytes are fewer than
/// its digits). A key cut by the block's end is moved to the front and completed by the
/// next read. After an error the reader is done: a caller gives up on the input.
pub struct KeyReader<R> {
    input: R,
    /// What the input is, in messages: `standard input`, or a file's name in backticks.
    source: String,
    /// The byte that ends a key: a line feed, or NUL with `-z`.
    terminator: u8,
    hex: bool,
    /// Keys found so far (those in `keys` included).
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
    /// The keys found, at most [`BATCH`], as ranges of `buffer`.
    keys: Vec<Range<usize>>,
    /// How many of `keys` were handed out by [`KeyReader::next`].
    given: usize,
    /// The error met at the key after `keys`, returned once they are handed out, so that
    /// every key before a bad one is answered as it was when keys were read one by one.
    failed: Option<anyhow::Error>,
    /// A key's bytes decoded from hex, before they are written over its digits.
    decoded: Vec<u8>,
}

impl KeyReader<std::io::Stdin> {
    /// The keys on standard input, ended by `terminator`, hex digits when `hex`. (Standard
    /// input is locked at each read, of 256 KiB, so that another thread may read it.)
    pub fn stdin(terminator: u8, hex: bool) -> Self {
        let input = std::io::stdin();
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
        let file = std::fs::File::open(path).map_err(|e| {
            anyhow!(
                "cannot read `{}`: {}",
                slotgen::text::path(path),
                super::os_reason(&e)
            )
        })?;
        Ok(Self::new(
            Box::new(file),
            format!("`{}`", slotgen::text::path(path)),
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
            keys: Vec::with_capacity(BATCH),
            given: 0,
            failed: None,
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
        if self.given == self.keys.len() && !self.find()? {
            return Ok(None);
        }
        let key = self.keys[self.given].clone();
        self.given += 1;
        Ok(Some(&self.buffer[key]))
    }

    /// Calls `each` with the keys in order, a batch of at most [`BATCH`] at a time: the
    /// keys that lie whole in a read buffer, as slices of it (no key is copied, and the
    /// batch's vector is the same from batch to batch). The keys before a bad one are
    /// handed to `each` before its error is returned.
    ///
    /// The input is read and split into keys on a second thread while `each` works on the
    /// keys before (a two-stage pipeline): the reading thread hands over whole [`Block`]s,
    /// at most [`BLOCKS_AHEAD`] ahead of `each`, and takes the emptied ones back to read
    /// into, so that a few read buffers are allocated for the whole input. An error of
    /// `each` ends the reading at its next hand-over (after one read at most); an error of
    /// the reading reaches `each`'s thread after the keys before it. `idle` is called
    /// whenever no keys are ready and the input is waited for (a writer that sends keys and
    /// waits for their answers): the caller writes out what it has answered.
    ///
    /// # Errors
    ///
    /// Those of [`next`](Self::next), and those of `each` and `idle`.
    pub fn for_each_batch(
        &mut self,
        mut each: impl FnMut(&[&[u8]]) -> Result<()>,
        mut idle: impl FnMut() -> Result<()>,
    ) -> Result<()>
    where
        R: Send,
    {
        let (full, filled) = std::sync::mpsc::sync_channel(BLOCKS_AHEAD);
        let (empty, emptied) = std::sync::mpsc::channel();
        std::thread::scope(|scope| {
            // `full` is the reading thread's: the keys end when it ends
            scope.spawn(move || self.read_blocks(&full, &emptied));
            // `filled` is this closure's: on an error it is dropped as the closure returns,
            // so that the reading thread's next hand-over fails and it ends, before the
            // scope waits for it
            let filled = filled;
            let mut batch: Vec<&[u8]> = Vec::with_capacity(BATCH);
            loop {
                // the keys answered so far go out before a wait for the input (a writer
                // that sends a key and waits for its answer), not only when the buffer fills
                let block = match filled.try_recv() {
                    Ok(block) => block,
                    Err(TryRecvError::Empty) => {
                        idle()?;
                        match filled.recv() {
                            Ok(block) => block,
                            Err(_) => break,
                        }
                    }
                    Err(TryRecvError::Disconnected) => break,
                };
                let block: Block = block?;
                for keys in block.keys.chunks(BATCH) {
                    let mut keys_of = recycle(std::mem::take(&mut batch));
                    keys_of.extend(keys.iter().map(|key| &block.bytes[key.clone()]));
                    // on an error, `filled` is dropped: the reading thread's next hand-over
                    // fails and it ends, before the scope's end waits for it
                    each(&keys_of)?;
                    batch = recycle(keys_of);
                }
                // the reading thread may have ended (after an error sent), then the block
                // is dropped here
                let _ = empty.send(block);
            }
            Ok(())
        })
    }

    /// The reading thread of [`for_each_batch`](Self::for_each_batch): sends the keys in
    /// [`Block`]s on `full`, each a read buffer and its keys, and reads into the buffers
    /// sent back on `emptied` (or new ones while none has come back). An error is sent
    /// after the block of the keys before it, and ends the reading; so does a `full` whose
    /// receiver is gone.
    fn read_blocks(&mut self, full: &SyncSender<Result<Block>>, emptied: &Receiver<Block>) {
        let max = self.max_record();
        // keys found by `next` and not handed out are first
        let mut keys: Vec<Range<usize>> = self.keys.drain(self.given..).collect();
        self.given = 0;
        loop {
            if self.failed.is_none() {
                self.keys.clear();
                self.split(max);
                if self.hex {
                    self.decode();
                }
                keys.extend_from_slice(&self.keys);
                // a full batch from `split` leaves more keys in the buffer
                if self.keys.len() == BATCH && keys.len() < BLOCK_KEYS {
                    continue;
                }
            }
            self.keys.clear();
            if !keys.is_empty() {
                // the buffer and its keys go; the unread bytes (a key cut by the end of the
                // read, or the keys past BLOCK_KEYS) go on in an emptied buffer
                let mut next = emptied.try_recv().unwrap_or_else(|_| Block {
                    bytes: vec![0; READ_BUFFER],
                    keys: Vec::new(),
                });
                let unread = self.filled - self.start;
                // what a buffer held before is read over, so it is not cleared: it grows
                // (zeroed) only for a key longer than it
                if next.bytes.len() < unread {
                    next.bytes.resize(unread, 0);
                }
                next.bytes[..unread].copy_from_slice(&self.buffer[self.start..self.filled]);
                next.keys.clear();
                let block = Block {
                    bytes: std::mem::replace(&mut self.buffer, next.bytes),
                    keys: std::mem::replace(&mut keys, next.keys),
                };
                // each key's range from the buffer's start
                self.filled = unread;
                self.start = 0;
                if full.send(Ok(block)).is_err() {
                    return;
                }
            }
            if let Some(error) = self.failed.take() {
                let _ = full.send(Err(error));
                return;
            }
            if self.ended && self.start == self.filled {
                return;
            }
            if let Err(error) = self.fill(max) {
                let _ = full.send(Err(error));
                return;
            }
        }
    }

    /// Finds the next keys, at most [`BATCH`], in place of those handed out; `false` at the
    /// end of the input.
    ///
    /// # Errors
    ///
    /// Those of [`next`](Self::next), once the keys before the bad one are handed out.
    fn find(&mut self) -> Result<bool> {
        self.keys.clear();
        self.given = 0;
        if let Some(error) = self.failed.take() {
            return Err(error);
        }
        let max = self.max_record();
        loop {
            self.split(max);
            if self.hex {
                self.decode();
            }
            if !self.keys.is_empty() {
                return Ok(true);
            }
            if let Some(error) = self.failed.take() {
                return Err(error);
            }
            if self.ended && self.start == self.filled {
                return Ok(false);
            }
            self.fill(max)?;
        }
    }

    /// Takes the records that lie whole in the unread bytes, up to [`BATCH`] keys (at the
    /// end of the input, the last record too, which has no terminator): each record's key
    /// is added to `keys`. A record longer than `max` bytes, or a key longer than
    /// [`MAX_KEY_BYTES`], stops the search and is kept in `failed`.
    fn split(&mut self, max: usize) {
        let unread = &self.buffer[..self.filled];
        let mut from = self.start;
        // only the bytes not yet searched, so that a key read a few bytes at a time is
        // searched once, not once a read
        let searched = self.start + self.searched;
        let mut rest = true;
        for end in memchr::memchr_iter(self.terminator, &unread[searched..]) {
            let end = searched + end;
            let Some(key) = self.key_of(unread, from, end, max) else {
                self.failed = Some(too_long(self.number + 1, &self.source));
                return;
            };
            self.number += 1;
            self.keys.push(key);
            from = end + 1;
            if self.keys.len() == BATCH {
                rest = false;
                break;
            }
        }
        // the unread bytes from `from` on hold no terminator when the search went through
        if rest {
            if self.ended && from < self.filled {
                // the last key, without a terminator
                let Some(key) = self.key_of(unread, from, self.filled, max) else {
                    self.failed = Some(too_long(self.number + 1, &self.source));
                    return;
                };
                self.number += 1;
                self.keys.push(key);
                from = self.filled;
            } else if self.filled - from > max {
                self.failed = Some(too_long(self.number + 1, &self.source));
                return;
            }
        }
        self.searched = if rest { self.filled - from } else { 0 };
        self.start = from;
    }

    /// The key of the record `unread[from..to]` (without its terminator): without the
    /// carriage return before a line feed `terminator`; `None` when the record is longer
    /// than `max` or the key (not in hex: its digits are counted once decoded) than
    /// [`MAX_KEY_BYTES`].
    #[inline]
    fn key_of(
        &self,
        unread: &[u8],
        from: usize,
        mut to: usize,
        max: usize,
    ) -> Option<Range<usize>> {
        if to - from > max {
            return None;
        }
        if self.terminator == b'\n' && to > from && unread[to - 1] == b'\r' {
            to -= 1;
        }
        if !self.hex && to - from > MAX_KEY_BYTES {
            return None;
        }
        Some(from..to)
    }

    /// Decodes the hex digits of each key found, writing its bytes over its digits; at a
    /// key that is not hex, or longer than [`MAX_KEY_BYTES`], the keys stop and its error
    /// is kept in `failed`.
    fn decode(&mut self) {
        let before = self.number - self.keys.len() as u64;
        for i in 0..self.keys.len() {
            let digits = self.keys[i].clone();
            let number = before + i as u64 + 1;
            let source = &self.source;
            let decoded = decode_hex(&self.buffer[digits.clone()], &mut self.decoded, || {
                format!("key {number} of {source}")
            })
            .and_then(|()| {
                if self.decoded.len() > MAX_KEY_BYTES {
                    return Err(too_long(number, source));
                }
                Ok(())
            });
            if let Err(error) = decoded {
                self.keys.truncate(i);
                self.number = number - 1;
                self.failed = Some(error);
                return;
            }
            let key = digits.start..digits.start + self.decoded.len();
            self.buffer[key.clone()].copy_from_slice(&self.decoded);
            self.keys[i] = key;
        }
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

/// An empty vector of slices, of any lifetime, in `keys`'s allocation: a batch's vector is
/// emptied before the buffer its slices borrow is read into again, and kept. (Collecting a
/// vector's own `into_iter` reuses its allocation; no element is mapped, as it is empty.)
fn recycle<'b>(mut keys: Vec<&[u8]>) -> Vec<&'b [u8]> {
    keys.clear();
    keys.into_iter().map(|_| -> &'b [u8] { &[] }).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Gives at most `.1` bytes a read, so that keys are cut by the end of what was read.
    struct Chunks<'a>(&'a [u8], usize);

    impl Read for Chunks<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = buf.len().min(self.1).min(self.0.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    /// The keys of `input` by the rule alone, apart from the reader: split at every
    /// terminator (the empty record after the last one is no key), a carriage return before
    /// a line feed dropped, hex decoded; the keys before the first bad one, and its error.
    fn reference(input: &[u8], terminator: u8, hex: bool) -> (Vec<Vec<u8>>, Option<String>) {
        let mut records: Vec<&[u8]> = input.split(|&b| b == terminator).collect();
        if records.last().is_some_and(|r| r.is_empty()) {
            records.pop();
        }
        let mut keys = Vec::new();
        for (i, record) in records.into_iter().enumerate() {
            let number = i + 1;
            let mut key = record.to_vec();
            if terminator == b'\n' && key.last() == Some(&b'\r') {
                key.pop();
            }
            if hex {
                match ::hex::decode(&key) {
                    Ok(bytes) => key = bytes,
                    Err(_) => {
                        let why = match key.iter().position(|b| !b.is_ascii_hexdigit()) {
                            Some(at) => format!(
                                "byte {} (`{}`) is no hex digit",
                                at + 1,
                                slotgen::text::escape(&key[at..=at])
                            ),
                            None => format!("it has an odd count of hex digits, {}", key.len()),
                        };
                        let error = format!("key {number} of the test is not hex: {why}; with --hex, give each key as pairs of hex digits (`7b617d` is `{{a}}`)");
                        return (keys, Some(error));
                    }
                }
            }
            if key.len() > MAX_KEY_BYTES {
                return (keys, Some(too_long(number as u64, "the test").to_string()));
            }
            keys.push(key);
        }
        (keys, None)
    }

    /// The keys of `input` read `size` bytes a read, one at a time by `next` or a batch at
    /// a time: those before the first error, and the error.
    fn read(
        input: &[u8],
        size: usize,
        terminator: u8,
        hex: bool,
        batched: bool,
    ) -> (Vec<Vec<u8>>, Option<String>) {
        let mut keys = Vec::new();
        let mut reader =
            KeyReader::new(Chunks(input, size), "the test".to_owned(), terminator, hex);
        let read = if batched {
            reader.for_each_batch(
                |batch| {
                    assert!(!batch.is_empty() && batch.len() <= BATCH);
                    keys.extend(batch.iter().map(|key| key.to_vec()));
                    Ok(())
                },
                || Ok(()),
            )
        } else {
            (|| {
                while let Some(key) = reader.next()? {
                    keys.push(key.to_vec());
                }
                Ok(())
            })()
        };
        (keys, read.err().map(|e| e.to_string()))
    }

    /// The keys of `input`, checked to be the same (and the same error after the same keys)
    /// by the rule alone, by `next` over reads of 3 bytes, and by `for_each_batch` over
    /// reads of 3 bytes and over whole reads.
    fn keys(input: &[u8], terminator: u8, hex: bool) -> Result<Vec<Vec<u8>>> {
        let expected = reference(input, terminator, hex);
        for (size, batched) in [(3, false), (3, true), (usize::MAX, true)] {
            let got = read(input, size, terminator, hex, batched);
            assert!(
                got == expected,
                "reads of {size} bytes, batched {batched}: {got:?}"
            );
        }
        match expected {
            (keys, None) => Ok(keys),
            (_, Some(error)) => Err(anyhow!(error)),
        }
    }

    /// A generator of test inputs: xorshift64, seeded.
    struct Bytes(u64);

    impl Bytes {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n as u64) as usize
        }

        /// `len` bytes drawn from `alphabet`.
        fn of(&mut self, alphabet: &[u8], len: usize) -> Vec<u8> {
            (0..len)
                .map(|_| alphabet[self.below(alphabet.len())])
                .collect()
        }
    }

    #[test]
    fn awkward_inputs_read_in_any_pieces_give_the_rules_keys() {
        let mut bytes = Bytes(0x9e37_79b9_7f4a_7c15);
        let plain: &[u8] = b"a{}\r\n\0\xff";
        let digits: &[u8] = b"0f7b\r\n\0\ng";
        for case in 0..3000 {
            let hex = case % 3 == 0;
            let len = bytes.below(80);
            let input = bytes.of(if hex { digits } else { plain }, len);
            for terminator in [b'\n', 0] {
                let expected = reference(&input, terminator, hex);
                for size in [1, 2, 5, 17, usize::MAX] {
                    for batched in [false, true] {
                        let got = read(&input, size, terminator, hex, batched);
                        assert!(
                            got == expected,
                            "{input:?}, terminator {terminator}, hex {hex}, reads of {size}, batched {batched}: {got:?}, expected {expected:?}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn keys_across_reads_blocks_and_batches_are_whole() {
        // 300,000 keys of 0 to 40 bytes (some 6 MB): keys cut by the end of every block of
        // the read buffer and of odd reads, batches full and not
        let mut bytes = Bytes(42);
        let mut input = Vec::new();
        for _ in 0..300_000 {
            let len = bytes.below(41);
            input.extend(bytes.of(b"ab{}\r", len));
            input.push(b'\n');
        }
        input.extend_from_slice(&[b'\n'; 3 * BATCH + 1]);
        input.extend_from_slice(b"last");
        let expected = reference(&input, b'\n', false);
        assert_eq!(expected.0.len(), 300_000 + 3 * BATCH + 2);
        for size in [100_003, READ_BUFFER - 1, usize::MAX] {
            assert!(read(&input, size, b'\n', false, true) == expected, "{size}");
        }
        assert!(read(&input, 100_003, b'\n', false, false) == expected);
    }

    #[test]
    fn the_keys_before_a_key_past_the_limit_are_read_and_it_is_refused() {
        let mut input = b"a\n".repeat(5000);
        input.extend(std::iter::repeat_n(b'x', MAX_KEY_BYTES));
        input.extend_from_slice(b"\r\nb\n");
        let (keys, error) = read(&input, usize::MAX, b'\n', false, true);
        assert_eq!((keys.len(), error), (5002, None));
        assert_eq!(keys[5000].len(), MAX_KEY_BYTES);
        input.insert(10_000, b'x');
        let expected = reference(&input, b'\n', false);
        assert_eq!(expected.0.len(), 5000);
        for (size, batched) in [(usize::MAX, true), (65_537, true), (65_537, false)] {
            assert!(read(&input, size, b'\n', false, batched) == expected);
        }
    }

    #[test]
    fn an_error_of_the_work_ends_the_reading_of_an_endless_input() {
        /// Keys without end.
        struct Endless;

        impl Read for Endless {
            fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
                for pair in buf.chunks_mut(2) {
                    pair.copy_from_slice(&b"k\n"[..pair.len()]);
                }
                Ok(buf.len())
            }
        }

        let mut reader = KeyReader::new(Endless, "the test".to_owned(), b'\n', false);
        let mut batches = 0;
        // the reading thread must end for `for_each_batch` to return at all
        let error = reader.for_each_batch(
            |keys| {
                assert!(keys.iter().all(|&key| key == b"k"));
                batches += 1;
                if batches == 100 {
                    bail!("the work failed");
                }
                Ok(())
            },
            || Ok(()),
        );
        assert_eq!(error.unwrap_err().to_string(), "the work failed");
    }

    #[test]
    fn a_batch_vector_keeps_its_allocation() {
        let mut keys: Vec<&[u8]> = Vec::with_capacity(BATCH);
        keys.push(b"k");
        assert_eq!(recycle(keys).capacity(), BATCH);
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
            "key 2 of the test is not hex: byte 2 (`g`) is no hex digit; with --hex, give each key as pairs of hex digits (`7b617d` is `{a}`)"
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
