//! Asking a live server with bounds: [`Server`] asks for `CLUSTER KEYSLOT`, and
//! [`crate::cluster`] reads a cluster's topology through the same connection, with one
//! deadline over the whole exchange and a budget on every reply.
//!
//! The `redis` client packs every command ([`redis::cmd`], [`redis::Pipeline`]) and parses
//! every reply ([`redis::Parser`]); this module owns only the socket, so that it can
//! - give every read and write the time left before one overall deadline (a server that
//!   accepts and then stops answering, or trickles one byte at a time, fails with
//!   [`ServerError::TimedOut`] when the deadline passes, not after a timeout per answer);
//! - refuse a reply larger than the question can need: more bytes, more RESP values or a
//!   longer string than its budget allows (a `CLUSTER KEYSLOT` reply, [`MAX_REPLY_BYTES`]
//!   bytes; a cluster's map, what 16384 nodes answer), so that a server announcing a bulk
//!   string of `$1000000000` bytes or an array of `*1000000000` elements fails with
//!   [`ServerError::ReplyTooLarge`] at the announcement, not after a gigabyte;
//! - send a long pipeline in chunks of [`CHUNK`] commands, so that the bytes in flight
//!   stay bounded however many keys are asked.
//!
//! Why values are counted, not only bytes: [`redis::Parser`] (0.32) has no limit of its
//! own but a nesting depth of 100. It keeps every value of a reply until the reply is
//! complete, 56 bytes for each (`size_of::<redis::Value>()` on 64-bit) for as few as 3 bytes
//! read (`+\r\n`), and reserves room for up to 4096 elements of each aggregate it is inside
//! (address space only, until filled). A byte budget alone would let a reply of B bytes take
//! some 19 B of memory: 16 MiB of `+\r\n` under `*1000000000` took 308 MB. So the socket
//! follows the RESP framing of what it reads, without building values: it counts every
//! value as it starts, and refuses an aggregate that announces more elements than the
//! values left, and a string (a bulk string, or the line of a simple string, error or
//! number) longer than the budget allows, at its header.
//!
//! Every URL in a message or a field of this module is [`redact`]ed.

use std::fmt;
use std::io::{self, Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
#[cfg(unix)]
use std::os::unix::net::UnixStream;
use std::time::{Duration, Instant};

use redis::{ConnectionAddr, ConnectionInfo, IntoConnectionInfo, Value};

use crate::url::redact;

/// Commands sent in one pipelined chunk before their replies are read.
pub const CHUNK: usize = 1024;

/// The most bytes one short reply may take, and the longest string in it: a `CLUSTER
/// KEYSLOT` reply is an integer (`:16383\r\n`, 8 bytes), an error reply is one short line,
/// and `INFO cluster` is two lines (`# Cluster`, `cluster_enabled:1`: 40 bytes).
pub const MAX_REPLY_BYTES: usize = 4096;

/// The bound of a reply that a server passed, as [`ServerError::ReplyTooLarge`] and
/// [`crate::cluster::Error::ReplyTooLarge`] name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Limit {
    /// Bytes read for the replies asked for.
    Bytes(usize),
    /// RESP values in the replies asked for: an array is one, and each of its elements one
    /// more.
    Values(usize),
    /// Bytes in one string: a bulk string, or the line of a simple string, error or number.
    String(usize),
}

/// `4096 bytes`, `573441 values`, `1024 bytes in one string`.
impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Limit::Bytes(n) => write!(f, "{n} bytes"),
            Limit::Values(1) => f.write_str("1 value"),
            Limit::Values(n) => write!(f, "{n} values"),
            Limit::String(n) => write!(f, "{n} bytes in one string"),
        }
    }
}

/// What the reply to one command may take: at most `bytes` bytes, `values` RESP values (an
/// array is one, and each of its elements one more), and no string (a bulk string, or the
/// line of a simple string, error or number) longer than `string` bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Budget {
    /// Bytes read, framing included.
    pub(crate) bytes: usize,
    /// Values, each aggregate and each element.
    pub(crate) values: usize,
    /// The longest string, in bytes.
    pub(crate) string: usize,
}

impl Budget {
    /// A short reply: an integer, `+OK`, an error, `INFO cluster`. [`MAX_REPLY_BYTES`] bytes
    /// and as long a string; 16 values, so that a reply of the wrong kind is read and shown
    /// as such rather than refused for its size.
    pub(crate) const SHORT: Budget = Budget {
        bytes: MAX_REPLY_BYTES,
        values: 16,
        string: MAX_REPLY_BYTES,
    };

    /// The budget of `n` replies read together (a pipeline): `n` times the bytes and values,
    /// the same longest string.
    fn times(self, n: usize) -> Budget {
        Budget {
            bytes: self.bytes.saturating_mul(n),
            values: self.values.saturating_mul(n),
            string: self.string,
        }
    }
}

/// Why a server exchange failed. Every `url` is redacted.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ServerError {
    /// The text is not a URL the client reads.
    #[error("`{url}` is not a server URL: give `redis://host:port`, `redis://:password@host:port` or `unix:///path/to/socket`")]
    Url {
        /// The text given, redacted.
        url: String,
    },
    /// The URL names a TLS server (`rediss://`), which this build does not speak.
    #[error(
        "{url} asks for TLS, which slotgen does not speak: give a `redis://` or `unix://` URL"
    )]
    Tls {
        /// The URL, redacted.
        url: String,
    },
    /// No connection could be made.
    #[error("cannot connect to {url}: {reason}; start a cluster-enabled redis-server there, or give the URL of one")]
    Connect {
        /// The URL, redacted.
        url: String,
        /// The operating system's reason, once.
        reason: String,
    },
    /// The deadline passed.
    #[error("{url} timed out {during}: no complete answer within {} s; check that the URL names a responsive Redis server, or give more time", .timeout.as_secs_f64())]
    TimedOut {
        /// The URL, redacted.
        url: String,
        /// What was under way (`connecting`, `asking for INFO cluster`).
        during: String,
        /// The overall timeout.
        timeout: Duration,
    },
    /// The connection failed after it was made.
    #[error("{url} failed {during}: {reason}")]
    Io {
        /// The URL, redacted.
        url: String,
        /// What was under way.
        during: String,
        /// The operating system's reason, once.
        reason: String,
    },
    /// A reply was larger than any answer to the question can be.
    #[error("{url} sent more than {limit} {during}: no answer to it is that long, so this is no Redis server or it misbehaves")]
    ReplyTooLarge {
        /// The URL, redacted.
        url: String,
        /// What was under way.
        during: String,
        /// The bound passed: bytes or values allowed for the replies asked for, or the
        /// longest string.
        limit: Limit,
    },
    /// The replies are not RESP, or not of the kind asked for.
    #[error("{url} did not answer as a Redis server {during} ({what}): check that the URL names a Redis server")]
    NotRedis {
        /// The URL, redacted.
        url: String,
        /// What was under way.
        during: String,
        /// What came instead, shortened, control bytes escaped.
        what: String,
    },
    /// The server refused the password.
    #[error("{url} refused the password: {message}")]
    Auth {
        /// The URL, redacted.
        url: String,
        /// The server's error, shortened.
        message: String,
    },
    /// `INFO cluster` does not say `cluster_enabled:1`.
    #[error("{url} is not cluster-enabled (INFO cluster does not say `cluster_enabled:1`): CLUSTER KEYSLOT answers only on a server started with `--cluster-enabled yes`")]
    NotCluster {
        /// The URL, redacted.
        url: String,
    },
    /// The server answered an error to a command of the connection's setup (`SELECT`).
    #[error("{url} refused `{command}`: {message}")]
    CommandRefused {
        /// The URL, redacted.
        url: String,
        /// The command, as `SELECT 1`.
        command: String,
        /// The server's error, shortened.
        message: String,
    },
    /// The server answered an error to `CLUSTER KEYSLOT`.
    #[error("{url} refused CLUSTER KEYSLOT for key \"{key}\": {message}")]
    Refused {
        /// The URL, redacted.
        url: String,
        /// The key, shortened, control bytes escaped.
        key: String,
        /// The server's error, shortened.
        message: String,
    },
    /// The server answered a number that is no slot.
    #[error("{url} answered slot {slot} for key \"{key}\": not a slot of 0..65536")]
    NotASlot {
        /// The URL, redacted.
        url: String,
        /// The key, shortened, control bytes escaped.
        key: String,
        /// The number answered.
        slot: i64,
    },
}

/// A connection to a cluster-enabled server, with the deadline it was opened with.
pub struct Server {
    con: Connection,
}

impl std::fmt::Debug for Server {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Server")
            .field("url", &self.con.url)
            .finish()
    }
}

impl Server {
    /// Connects to `url` (`redis://[user:password@]host:port[/db]`, `unix:///path`), sends
    /// the password if the URL has one, and checks with `INFO cluster` that the server is
    /// cluster-enabled. `timeout` is the overall deadline: it covers this and every later
    /// exchange of the connection ([`keyslots`](Self::keyslots)).
    ///
    /// # Errors
    ///
    /// [`ServerError::Url`], [`ServerError::Tls`], [`ServerError::Connect`],
    /// [`ServerError::TimedOut`], [`ServerError::Io`], [`ServerError::ReplyTooLarge`],
    /// [`ServerError::NotRedis`], [`ServerError::Auth`], [`ServerError::CommandRefused`],
    /// [`ServerError::NotCluster`].
    pub fn connect(url: &str, timeout: Duration) -> Result<Self, ServerError> {
        let deadline = Instant::now().checked_add(timeout);
        let shown = redact(url);
        let info = url
            .into_connection_info()
            .map_err(|_| ServerError::Url { url: shown.clone() })?;
        let mut con = Connection::open(&info, shown, deadline, timeout)?;
        let during = "answering INFO cluster";
        let info = match con.query(redis::cmd("INFO").arg("cluster"), Budget::SHORT, during)? {
            Value::BulkString(text) => text,
            Value::VerbatimString { text, .. } => text.into_bytes(),
            other => return Err(con.not_redis(during, &other)),
        };
        let enabled = info
            .split(|&b| b == b'\n')
            .any(|line| line.trim_ascii() == b"cluster_enabled:1");
        if !enabled {
            return Err(ServerError::NotCluster { url: con.url });
        }
        Ok(Server { con })
    }

    /// The URL connected to, redacted.
    #[must_use]
    pub fn url(&self) -> &str {
        &self.con.url
    }

    /// The server's `CLUSTER KEYSLOT` of each key, in order, pipelined in chunks of
    /// [`CHUNK`]: slot `i` of the answer is the slot of `keys[i]`.
    ///
    /// # Errors
    ///
    /// [`ServerError::TimedOut`] when the connection's deadline passes,
    /// [`ServerError::Io`], [`ServerError::ReplyTooLarge`], [`ServerError::NotRedis`],
    /// [`ServerError::Refused`] (an error reply), [`ServerError::NotASlot`].
    pub fn keyslots<K: AsRef<[u8]>>(&mut self, keys: &[K]) -> Result<Vec<u16>, ServerError> {
        let during = "answering CLUSTER KEYSLOT";
        let con = &mut self.con;
        let mut slots = Vec::with_capacity(keys.len());
        for chunk in keys.chunks(CHUNK) {
            let mut pipe = redis::pipe();
            for key in chunk {
                pipe.cmd("CLUSTER").arg("KEYSLOT").arg(key.as_ref());
            }
            con.send(
                &pipe.get_packed_pipeline(),
                Budget::SHORT.times(chunk.len()),
                during,
            )?;
            for key in chunk {
                let key = key.as_ref();
                match con.reply(during)? {
                    Value::Int(slot) => match u16::try_from(slot) {
                        Ok(s) => slots.push(s),
                        Err(_) => {
                            return Err(ServerError::NotASlot {
                                url: con.url.clone(),
                                key: shorten(&show(key)),
                                slot,
                            })
                        }
                    },
                    Value::ServerError(e) => {
                        return Err(ServerError::Refused {
                            url: con.url.clone(),
                            key: shorten(&show(key)),
                            message: shorten(&redis::RedisError::from(e).to_string()),
                        })
                    }
                    other => return Err(con.not_redis(during, &other)),
                }
            }
        }
        Ok(slots)
    }
}

/// A connection with one deadline over all its exchanges and a [`Budget`] on every reply:
/// what [`Server`] and [`crate::cluster`] talk to servers through. It speaks RESP2.
pub(crate) struct Connection {
    io: Bounded,
    parser: redis::Parser,
    url: String,
    timeout: Duration,
}

impl Connection {
    /// Connects to `info`, shown as `url` (redacted), and sends `AUTH` when it has a
    /// password and `SELECT` when its database is not 0. `deadline` bounds this and every
    /// later exchange of the connection (`None`: no deadline, for a timeout too large for
    /// the clock); `timeout` is the time that messages name.
    ///
    /// # Errors
    ///
    /// [`ServerError::Tls`], [`ServerError::Connect`], [`ServerError::TimedOut`],
    /// [`ServerError::Io`], [`ServerError::ReplyTooLarge`], [`ServerError::NotRedis`],
    /// [`ServerError::Auth`], [`ServerError::CommandRefused`].
    pub(crate) fn open(
        info: &ConnectionInfo,
        url: String,
        deadline: Option<Instant>,
        timeout: Duration,
    ) -> Result<Self, ServerError> {
        let timed_out = |during: &str| ServerError::TimedOut {
            url: url.clone(),
            during: during.to_owned(),
            timeout,
        };
        let connect_error = |e: io::Error| ServerError::Connect {
            url: url.clone(),
            reason: os_reason(&e),
        };
        let stream = match &info.addr {
            ConnectionAddr::Tcp(host, port) => {
                let addrs = (host.as_str(), *port)
                    .to_socket_addrs()
                    .map_err(connect_error)?;
                let mut last = io::Error::new(io::ErrorKind::NotFound, "the host has no address");
                let mut connected = None;
                for addr in addrs {
                    let left = time_left(deadline).ok_or_else(|| timed_out("connecting"))?;
                    match TcpStream::connect_timeout(&addr, left) {
                        Ok(s) => {
                            connected = Some(s);
                            break;
                        }
                        Err(e) if e.kind() == io::ErrorKind::TimedOut => {
                            return Err(timed_out("connecting"))
                        }
                        Err(e) => last = e,
                    }
                }
                let stream = connected.ok_or_else(|| connect_error(last))?;
                let _ = stream.set_nodelay(true);
                Stream::Tcp(stream)
            }
            #[cfg(unix)]
            ConnectionAddr::Unix(path) => {
                Stream::Unix(UnixStream::connect(path).map_err(connect_error)?)
            }
            #[cfg(not(unix))]
            ConnectionAddr::Unix(_) => return Err(ServerError::Url { url: url.clone() }),
            _ => return Err(ServerError::Tls { url: url.clone() }),
        };
        let mut con = Self {
            io: Bounded {
                stream,
                deadline,
                given: Budget::SHORT,
                left: Budget::SHORT,
                frame: Frame::Start,
                over: None,
                timed_out: false,
            },
            parser: redis::Parser::new(),
            url,
            timeout,
        };
        let settings = &info.redis;
        if let Some(password) = &settings.password {
            let mut auth = redis::cmd("AUTH");
            if let Some(user) = &settings.username {
                auth.arg(user);
            }
            auth.arg(password);
            let during = "answering AUTH";
            match con.query(&auth, Budget::SHORT, during)? {
                Value::Okay => {}
                Value::ServerError(e) => {
                    return Err(ServerError::Auth {
                        url: con.url.clone(),
                        message: shorten(&redis::RedisError::from(e).to_string()),
                    })
                }
                other => return Err(con.not_redis(during, &other)),
            }
        }
        if settings.db != 0 {
            let during = "answering SELECT";
            match con.query(redis::cmd("SELECT").arg(settings.db), Budget::SHORT, during)? {
                Value::Okay => {}
                Value::ServerError(e) => {
                    return Err(ServerError::CommandRefused {
                        url: con.url.clone(),
                        command: format!("SELECT {}", settings.db),
                        message: shorten(&redis::RedisError::from(e).to_string()),
                    })
                }
                other => return Err(con.not_redis(during, &other)),
            }
        }
        Ok(con)
    }

    /// The URL connected to, redacted.
    pub(crate) fn url(&self) -> &str {
        &self.url
    }

    /// Sends `cmd` and reads its reply within `budget`. An error reply is a value
    /// ([`Value::ServerError`]), for the caller to judge.
    ///
    /// # Errors
    ///
    /// [`ServerError::TimedOut`] when the connection's deadline passes,
    /// [`ServerError::Io`], [`ServerError::ReplyTooLarge`], [`ServerError::NotRedis`] (not
    /// RESP), each naming `during`.
    pub(crate) fn query(
        &mut self,
        cmd: &redis::Cmd,
        budget: Budget,
        during: &str,
    ) -> Result<Value, ServerError> {
        self.send(&cmd.get_packed_command(), budget, during)?;
        self.reply(during)
    }

    /// Writes `bytes` (the packed commands), and allows their replies `budget` in all.
    fn send(&mut self, bytes: &[u8], budget: Budget, during: &str) -> Result<(), ServerError> {
        self.io.given = budget;
        self.io.left = budget;
        self.io
            .write_all(bytes)
            .map_err(|e| self.failure(e, during))
    }

    /// Reads one reply.
    fn reply(&mut self, during: &str) -> Result<Value, ServerError> {
        match self.parser.parse_value(&mut self.io) {
            Ok(value) => Ok(value),
            Err(e) => Err(if self.io.timed_out {
                self.timed_out(during)
            } else if let Some(limit) = self.io.over {
                ServerError::ReplyTooLarge {
                    url: self.url.clone(),
                    during: during.to_owned(),
                    limit,
                }
            } else if e.is_io_error() {
                ServerError::Io {
                    url: self.url.clone(),
                    during: during.to_owned(),
                    reason: if e.kind() == redis::ErrorKind::IoError
                        && e.to_string().contains("nexpected")
                    {
                        "the server closed the connection".to_owned()
                    } else {
                        shorten(&e.to_string())
                    },
                }
            } else {
                ServerError::NotRedis {
                    url: self.url.clone(),
                    during: during.to_owned(),
                    what: "its reply is not RESP".to_owned(),
                }
            }),
        }
    }

    fn timed_out(&self, during: &str) -> ServerError {
        ServerError::TimedOut {
            url: self.url.clone(),
            during: during.to_owned(),
            timeout: self.timeout,
        }
    }

    fn failure(&self, e: io::Error, during: &str) -> ServerError {
        if self.io.timed_out
            || matches!(
                e.kind(),
                io::ErrorKind::TimedOut | io::ErrorKind::WouldBlock
            )
        {
            self.timed_out(during)
        } else {
            ServerError::Io {
                url: self.url.clone(),
                during: during.to_owned(),
                reason: os_reason(&e),
            }
        }
    }

    /// [`ServerError::NotRedis`] for a reply of the wrong kind.
    pub(crate) fn not_redis(&self, during: &str, value: &Value) -> ServerError {
        ServerError::NotRedis {
            url: self.url.clone(),
            during: during.to_owned(),
            what: format!("it answered {}", shorten(&format!("{value:?}"))),
        }
    }
}

/// The time left before `deadline`, if any; no deadline (a timeout too large for the
/// clock) leaves a day.
fn time_left(deadline: Option<Instant>) -> Option<Duration> {
    match deadline {
        Some(d) => {
            let left = d.saturating_duration_since(Instant::now());
            (!left.is_zero()).then_some(left)
        }
        None => Some(Duration::from_secs(86_400)),
    }
}

fn os_reason(e: &io::Error) -> String {
    crate::text::os_reason(e)
}

/// Bytes as text: printable ASCII as is but `"` and `\` escaped, anything else as `\xNN`.
fn show(bytes: &[u8]) -> String {
    crate::text::escape(bytes)
}

/// `text` cut to at most 200 characters, with a marker when cut, control characters escaped.
fn shorten(text: &str) -> String {
    crate::text::shorten(&text.escape_debug().to_string(), crate::text::MAX_SHOWN)
}

enum Stream {
    Tcp(TcpStream),
    #[cfg(unix)]
    Unix(UnixStream),
}

/// The socket, with the deadline applied to every read and write, and a [`Budget`] on the
/// replies read.
struct Bounded {
    stream: Stream,
    deadline: Option<Instant>,
    /// The budget of the replies asked for.
    given: Budget,
    /// What is left of it: bytes and values that may still be read.
    left: Budget,
    /// Where the bytes read so far stand in the RESP framing.
    frame: Frame,
    /// The bound that a reply passed.
    over: Option<Limit>,
    timed_out: bool,
}

impl Bounded {
    /// Sets the socket's timeouts to the time left, or fails when none is.
    fn arm(&mut self) -> io::Result<()> {
        let Some(left) = time_left(self.deadline) else {
            self.timed_out = true;
            return Err(io::ErrorKind::TimedOut.into());
        };
        match &self.stream {
            Stream::Tcp(s) => {
                s.set_read_timeout(Some(left))?;
                s.set_write_timeout(Some(left))
            }
            #[cfg(unix)]
            Stream::Unix(s) => {
                s.set_read_timeout(Some(left))?;
                s.set_write_timeout(Some(left))
            }
        }
    }

    fn note(&mut self, e: io::Error) -> io::Error {
        if matches!(
            e.kind(),
            io::ErrorKind::TimedOut | io::ErrorKind::WouldBlock
        ) {
            self.timed_out = true;
        }
        e
    }
}

impl Read for Bounded {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.over.is_none() && self.left.bytes == 0 {
            self.over = Some(Limit::Bytes(self.given.bytes));
        }
        if self.over.is_some() {
            return Err(io::Error::other("reply too large"));
        }
        self.arm()?;
        let want = buf.len().min(self.left.bytes);
        let read = match &mut self.stream {
            Stream::Tcp(s) => s.read(&mut buf[..want]),
            #[cfg(unix)]
            Stream::Unix(s) => s.read(&mut buf[..want]),
        };
        let n = read.map_err(|e| self.note(e))?;
        self.left.bytes -= n;
        if let Err(limit) = self.frame.feed(&buf[..n], self.given, &mut self.left) {
            self.over = Some(limit);
            return Err(io::Error::other("reply too large"));
        }
        Ok(n)
    }
}

impl Write for Bounded {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.arm()?;
        let written = match &mut self.stream {
            Stream::Tcp(s) => s.write(buf),
            #[cfg(unix)]
            Stream::Unix(s) => s.write(buf),
        };
        written.map_err(|e| self.note(e))
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Where the bytes read stand in the RESP framing (the RESP2 and RESP3 types that
/// [`redis::Parser`] reads): enough of it to count values and measure strings, and no more;
/// the parser checks the rest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Frame {
    /// The next byte is a value's type byte.
    Start,
    /// In the line after a type byte, `len` bytes into it (not counting `\r`), up to its
    /// `\n`; `number` is the number the digits so far make, `negative` whether a `-` came.
    Line {
        kind: LineKind,
        len: usize,
        number: u64,
        negative: bool,
    },
    /// In the payload of a bulk string and its CRLF, `left` bytes to go.
    Payload { left: u64 },
}

/// What the line after a type byte is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LineKind {
    /// The value itself: a simple string, error, integer, double, boolean, null, big
    /// number (`+ - : , # _ (`).
    Simple,
    /// The length of a bulk string, verbatim string or bulk error (`$ = !`).
    Bulk,
    /// The count of an aggregate, which holds `per` values for each counted and `extra` more:
    /// arrays, sets and pushes (`* ~ >`) one each, maps (`%`) two, attributes (`|`) two and
    /// the value they describe.
    Aggregate { per: u64, extra: u64 },
}

impl Frame {
    /// Follows the framing of `bytes`, the next bytes read, counting every value that
    /// starts against `left.values`; the bound of `given` that they pass, if one is.
    fn feed(&mut self, bytes: &[u8], given: Budget, left: &mut Budget) -> Result<(), Limit> {
        let mut at = 0;
        while at < bytes.len() {
            let (frame, used) = self.next(&bytes[at..], given, left)?;
            *self = frame;
            at += used;
        }
        Ok(())
    }

    /// The frame after the start of `bytes` (at least one byte), and how many bytes of it
    /// that took; counts a value that starts against `left.values`, or fails with the bound
    /// of `given` that the bytes pass.
    fn next(self, bytes: &[u8], given: Budget, left: &mut Budget) -> Result<(Frame, usize), Limit> {
        let byte = bytes[0];
        let frame = match self {
            Frame::Payload { left: rest } => {
                let used = rest.min(bytes.len() as u64);
                let frame = if used == rest {
                    Frame::Start
                } else {
                    Frame::Payload { left: rest - used }
                };
                // used <= bytes.len()
                return Ok((frame, used as usize));
            }
            Frame::Start => {
                left.values = left
                    .values
                    .checked_sub(1)
                    .ok_or(Limit::Values(given.values))?;
                let kind = match byte {
                    b'$' | b'=' | b'!' => LineKind::Bulk,
                    b'*' | b'~' | b'>' => LineKind::Aggregate { per: 1, extra: 0 },
                    b'%' => LineKind::Aggregate { per: 2, extra: 0 },
                    b'|' => LineKind::Aggregate { per: 2, extra: 1 },
                    _ => LineKind::Simple,
                };
                Frame::Line {
                    kind,
                    len: 0,
                    number: 0,
                    negative: false,
                }
            }
            Frame::Line {
                kind,
                number,
                negative,
                ..
            } if byte == b'\n' => match kind {
                LineKind::Bulk if !negative => {
                    if number > given.string as u64 {
                        return Err(Limit::String(given.string));
                    }
                    Frame::Payload { left: number + 2 }
                }
                LineKind::Aggregate { per, extra } if !negative => {
                    let announced = number.saturating_mul(per).saturating_add(extra);
                    if announced > left.values as u64 {
                        return Err(Limit::Values(given.values));
                    }
                    Frame::Start
                }
                _ => Frame::Start,
            },
            Frame::Line {
                kind,
                len,
                number,
                negative,
            } => {
                if byte == b'\r' {
                    return Ok((self, 1));
                }
                if len >= given.string {
                    return Err(Limit::String(given.string));
                }
                let (number, negative) = match byte {
                    b'0'..=b'9' => (
                        number
                            .saturating_mul(10)
                            .saturating_add(u64::from(byte - b'0')),
                        negative,
                    ),
                    b'-' => (number, true),
                    _ => (number, negative),
                };
                Frame::Line {
                    kind,
                    len: len + 1,
                    number,
                    negative,
                }
            }
        };
        Ok((frame, 1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const ROOMY: Budget = Budget {
        bytes: usize::MAX,
        values: usize::MAX,
        string: usize::MAX,
    };

    /// The values that `bytes`, read `chunk` bytes at a time, hold by the meter, or the
    /// bound passed; the bytes must end at a value's end.
    fn metered(bytes: &[u8], budget: Budget, chunk: usize) -> Result<usize, Limit> {
        let mut frame = Frame::Start;
        let mut left = budget;
        for piece in bytes.chunks(chunk) {
            frame.feed(piece, budget, &mut left)?;
        }
        assert_eq!(frame, Frame::Start, "{:?}", String::from_utf8_lossy(bytes));
        Ok(budget.values - left.values)
    }

    /// `value` in RESP, written here from the RESP specification (RESP2 and RESP3).
    fn resp(value: &Value, out: &mut Vec<u8>) {
        let header = |out: &mut Vec<u8>, kind: char, n: usize| {
            out.extend(format!("{kind}{n}\r\n").as_bytes());
        };
        match value {
            Value::Nil => out.extend(b"$-1\r\n"),
            Value::Int(n) => out.extend(format!(":{n}\r\n").as_bytes()),
            Value::Okay => out.extend(b"+OK\r\n"),
            Value::SimpleString(s) => out.extend(format!("+{s}\r\n").as_bytes()),
            Value::Boolean(b) => out.extend(if *b { b"#t\r\n" } else { b"#f\r\n" }),
            Value::BulkString(bytes) => {
                header(out, '$', bytes.len());
                out.extend(bytes);
                out.extend(b"\r\n");
            }
            Value::VerbatimString { text, .. } => {
                header(out, '=', text.len() + 4);
                out.extend(b"txt:");
                out.extend(text.as_bytes());
                out.extend(b"\r\n");
            }
            Value::Array(items) | Value::Set(items) => {
                header(
                    out,
                    if matches!(value, Value::Set(_)) {
                        '~'
                    } else {
                        '*'
                    },
                    items.len(),
                );
                items.iter().for_each(|item| resp(item, out));
            }
            Value::Map(pairs) => {
                header(out, '%', pairs.len());
                for (k, v) in pairs {
                    resp(k, out);
                    resp(v, out);
                }
            }
            other => unreachable!("not generated: {other:?}"),
        }
    }

    /// The values in `value`: itself and every element, at every depth.
    fn count(value: &Value) -> usize {
        1 + match value {
            Value::Array(items) | Value::Set(items) => items.iter().map(count).sum(),
            Value::Map(pairs) => pairs.iter().map(|(k, v)| count(k) + count(v)).sum(),
            _ => 0,
        }
    }

    fn values() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Nil),
            Just(Value::Okay),
            any::<i64>().prop_map(Value::Int),
            any::<bool>().prop_map(Value::Boolean),
            "[a-z0-9 :-]{0,12}"
                .prop_filter("+OK reads as Okay", |s| s != "OK")
                .prop_map(Value::SimpleString),
            // any bytes, CRLF and type bytes among them: a payload is skipped, not read
            proptest::collection::vec(any::<u8>(), 0..40).prop_map(Value::BulkString),
            "[ -~]{0,20}".prop_map(|text| Value::VerbatimString {
                format: redis::VerbatimFormat::Text,
                text,
            }),
        ];
        leaf.prop_recursive(4, 64, 6, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                proptest::collection::vec(inner.clone(), 0..6).prop_map(Value::Set),
                proptest::collection::vec((inner.clone(), inner), 0..4).prop_map(Value::Map),
            ]
        })
    }

    proptest! {
        /// The meter counts the values that the `redis` parser builds from the same bytes,
        /// however the bytes are split, and refuses them with one value fewer.
        #[test]
        fn the_meter_counts_what_the_parser_builds(value in values(), chunk in 1usize..9) {
            let mut bytes = Vec::new();
            resp(&value, &mut bytes);
            prop_assert_eq!(&redis::parse_redis_value(&bytes).unwrap(), &value);
            let n = count(&value);
            prop_assert_eq!(metered(&bytes, ROOMY, chunk), Ok(n));
            prop_assert_eq!(metered(&bytes, ROOMY, bytes.len()), Ok(n));
            let short = Budget { values: n - 1, ..ROOMY };
            prop_assert_eq!(metered(&bytes, short, chunk), Err(Limit::Values(n - 1)));
        }
    }

    #[test]
    fn announcements_past_the_budget_are_refused_at_their_header() {
        let map = Budget {
            bytes: usize::MAX,
            values: 573_441,
            string: 1024,
        };
        for (head, limit) in [
            (&b"$1000000000\r\n"[..], Limit::String(1024)),
            (b"*1000000000\r\n", Limit::Values(573_441)),
            (b"%300000\r\n", Limit::Values(573_441)),
            (b"|286720\r\n", Limit::Values(573_441)),
            (b"*2\r\n$1025\r\n", Limit::String(1024)),
        ] {
            let mut frame = Frame::Start;
            let mut left = map;
            assert_eq!(frame.feed(head, map, &mut left), Err(limit), "{head:?}");
        }
        // a line longer than a string may be, before its end
        let mut frame = Frame::Start;
        let mut left = map;
        assert_eq!(
            frame.feed(&[b'+'; 2000], map, &mut left),
            Err(Limit::String(1024))
        );
        // at the bounds: a string of 1024 bytes and an array of all the values left pass
        let mut at_bound = b"*2\r\n$1024\r\n".to_vec();
        at_bound.extend([b'x'; 1024]);
        at_bound.extend(b"\r\n+\r\n");
        assert_eq!(metered(&at_bound, map, 100), Ok(3));
        let all = Budget { values: 3, ..map };
        assert_eq!(metered(b"*2\r\n:1\r\n:2\r\n", all, 1), Ok(3));
        assert_eq!(metered(b"*-1\r\n$-1\r\n", all, 1), Ok(2));
    }

    #[test]
    fn limits_read_as_their_bound() {
        assert_eq!(Limit::Bytes(4096).to_string(), "4096 bytes");
        assert_eq!(Limit::Values(1).to_string(), "1 value");
        assert_eq!(Limit::Values(16).to_string(), "16 values");
        assert_eq!(Limit::String(1024).to_string(), "1024 bytes in one string");
    }
}
