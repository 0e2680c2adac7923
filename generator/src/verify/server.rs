//! Asking a live server for `CLUSTER KEYSLOT`: [`Server`], with one deadline over the whole
//! exchange and a bound on every reply.
//!
//! The `redis` client packs every command ([`redis::cmd`], [`redis::Pipeline`]) and parses
//! every reply ([`redis::Parser`]); this module owns only the socket, so that it can
//! - give every read and write the time left before one overall deadline (a server that
//!   accepts and then stops answering, or trickles one byte at a time, fails with
//!   [`ServerError::TimedOut`] when the deadline passes, not after a timeout per answer);
//! - refuse more reply bytes than the questions can need ([`MAX_REPLY_BYTES`] a reply, so a
//!   server announcing a bulk reply of `$1000000000` bytes fails with
//!   [`ServerError::ReplyTooLarge`] after a few kilobytes, not after a gigabyte);
//! - send a long pipeline in chunks of [`CHUNK`] commands, so that the bytes in flight
//!   stay bounded however many keys are asked.
//!
//! Every URL in a message or a field of this module is [`redact`]ed.

use std::io::{self, Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
#[cfg(unix)]
use std::os::unix::net::UnixStream;
use std::time::{Duration, Instant};

use redis::{ConnectionAddr, IntoConnectionInfo, Value};

use crate::url::redact;

/// Commands sent in one pipelined chunk before their replies are read.
pub const CHUNK: usize = 1024;

/// The most bytes one reply may take. A `CLUSTER KEYSLOT` reply is an integer (`:16383\r\n`,
/// 8 bytes) and an error reply is one short line; `INFO cluster` is a few lines.
pub const MAX_REPLY_BYTES: usize = 4096;

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
    #[error("{url} sent more than {limit} bytes {during}: no answer to it is that long, so this is no Redis server or it misbehaves")]
    ReplyTooLarge {
        /// The URL, redacted.
        url: String,
        /// What was under way.
        during: String,
        /// The bytes allowed for the replies asked for.
        limit: usize,
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
    io: Bounded,
    parser: redis::Parser,
    url: String,
    timeout: Duration,
}

impl std::fmt::Debug for Server {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Server").field("url", &self.url).finish()
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
    /// [`ServerError::NotRedis`], [`ServerError::Auth`], [`ServerError::NotCluster`].
    pub fn connect(url: &str, timeout: Duration) -> Result<Self, ServerError> {
        let deadline = Instant::now().checked_add(timeout);
        let shown = redact(url);
        let info = url
            .into_connection_info()
            .map_err(|_| ServerError::Url { url: shown.clone() })?;
        let timed_out = |during: &str| ServerError::TimedOut {
            url: shown.clone(),
            during: during.to_owned(),
            timeout,
        };
        let connect_error = |e: io::Error| ServerError::Connect {
            url: shown.clone(),
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
            ConnectionAddr::Unix(_) => return Err(ServerError::Url { url: shown.clone() }),
            _ => return Err(ServerError::Tls { url: shown }),
        };
        let mut server = Self {
            io: Bounded {
                stream,
                deadline,
                budget: 0,
                over_budget: false,
                timed_out: false,
            },
            parser: redis::Parser::new(),
            url: shown,
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
            server.send(&auth.get_packed_command(), 1, during)?;
            match server.reply(during)? {
                Value::Okay => {}
                Value::ServerError(e) => {
                    return Err(ServerError::Auth {
                        url: server.url.clone(),
                        message: shorten(&redis::RedisError::from(e).to_string()),
                    })
                }
                other => return Err(server.not_redis(during, &other)),
            }
        }
        if settings.db != 0 {
            let during = "answering SELECT";
            server.send(
                &redis::cmd("SELECT").arg(settings.db).get_packed_command(),
                1,
                during,
            )?;
            match server.reply(during)? {
                Value::Okay => {}
                other => return Err(server.not_redis(during, &other)),
            }
        }
        let during = "answering INFO cluster";
        server.send(
            &redis::cmd("INFO").arg("cluster").get_packed_command(),
            1,
            during,
        )?;
        let info = match server.reply(during)? {
            Value::BulkString(text) => text,
            Value::VerbatimString { text, .. } => text.into_bytes(),
            other => return Err(server.not_redis(during, &other)),
        };
        let enabled = info
            .split(|&b| b == b'\n')
            .any(|line| line.trim_ascii() == b"cluster_enabled:1");
        if !enabled {
            return Err(ServerError::NotCluster { url: server.url });
        }
        Ok(server)
    }

    /// The URL connected to, redacted.
    #[must_use]
    pub fn url(&self) -> &str {
        &self.url
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
        let mut slots = Vec::with_capacity(keys.len());
        for chunk in keys.chunks(CHUNK) {
            let mut pipe = redis::pipe();
            for key in chunk {
                pipe.cmd("CLUSTER").arg("KEYSLOT").arg(key.as_ref());
            }
            self.send(&pipe.get_packed_pipeline(), chunk.len(), during)?;
            for key in chunk {
                let key = key.as_ref();
                match self.reply(during)? {
                    Value::Int(slot) => match u16::try_from(slot) {
                        Ok(s) => slots.push(s),
                        Err(_) => {
                            return Err(ServerError::NotASlot {
                                url: self.url.clone(),
                                key: shorten(&show(key)),
                                slot,
                            })
                        }
                    },
                    Value::ServerError(e) => {
                        return Err(ServerError::Refused {
                            url: self.url.clone(),
                            key: shorten(&show(key)),
                            message: shorten(&redis::RedisError::from(e).to_string()),
                        })
                    }
                    other => return Err(self.not_redis(during, &other)),
                }
            }
        }
        Ok(slots)
    }

    /// Writes `bytes` (the packed commands), and allows the replies of `replies` commands.
    fn send(&mut self, bytes: &[u8], replies: usize, during: &str) -> Result<(), ServerError> {
        self.io.budget = replies.saturating_mul(MAX_REPLY_BYTES);
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
            } else if self.io.over_budget {
                ServerError::ReplyTooLarge {
                    url: self.url.clone(),
                    during: during.to_owned(),
                    limit: MAX_REPLY_BYTES,
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

    fn not_redis(&self, during: &str, value: &Value) -> ServerError {
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

/// The socket, with the deadline applied to every read and write, and a byte budget on reads.
struct Bounded {
    stream: Stream,
    deadline: Option<Instant>,
    /// Bytes that may still be read for the replies asked for.
    budget: usize,
    over_budget: bool,
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
        if self.budget == 0 {
            self.over_budget = true;
            return Err(io::Error::other("reply too large"));
        }
        self.arm()?;
        let want = buf.len().min(self.budget);
        let read = match &mut self.stream {
            Stream::Tcp(s) => s.read(&mut buf[..want]),
            #[cfg(unix)]
            Stream::Unix(s) => s.read(&mut buf[..want]),
        };
        let n = read.map_err(|e| self.note(e))?;
        self.budget -= n;
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
