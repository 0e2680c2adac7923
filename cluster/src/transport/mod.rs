//! The bounded exchange with a server that [`crate::server`] and the cluster ([`crate::Topology`] and the rest)
//! both talk through: one deadline over a whole exchange, and a budget of bytes, RESP values
//! and string length on every reply.
//!
//! The `redis` client packs every command ([`redis::cmd`], [`redis::Pipeline`]) and parses
//! every reply ([`redis::Parser`]); this module owns only the socket (`Connection`), so
//! that it can
//! - give every read and write the time left before one overall deadline (a server that
//!   accepts and then stops answering, or trickles one byte at a time, fails with
//!   [`ServerError::TimedOut`] when the deadline passes, not after a timeout per answer);
//! - refuse a reply larger than the question can need: more bytes, more RESP values or a
//!   longer string than its `Budget` allows (a `CLUSTER KEYSLOT` reply,
//!   [`MAX_REPLY_BYTES`] bytes; a cluster's map, what 16384 nodes answer), so that a server
//!   announcing a bulk string of `$1000000000` bytes or an array of `*1000000000` elements
//!   fails with [`ServerError::ReplyTooLarge`] at the announcement, not after a gigabyte.
//!
//! Why values are counted, not only bytes: [`redis::Parser`] (0.32) has no limit of its
//! own but a nesting depth of 100. It keeps every value of a reply until the reply is
//! complete, 56 bytes for each (`size_of::<redis::Value>()` on 64-bit) for as few as 3 bytes
//! read (`+\r\n`), and reserves room for up to 4096 elements of each aggregate it is inside
//! (address space only, until filled). A byte budget alone would let a reply of B bytes take
//! some 19 B of memory: 16 MiB of `+\r\n` under `*1000000000` took 308 MB. So the socket
//! follows the RESP framing of what it reads, without building values (`meter`): it counts
//! every value as it starts, and refuses an aggregate that announces more elements than the
//! values left, and a string (a bulk string, or the line of a simple string, error or
//! number) longer than the budget allows, at its header.
//!
//! TLS runs under the same socket (rustls, in `tls.rs`): the `redis` crate's own TLS
//! connection is synchronous with a timeout per read, no deadline over an exchange and no
//! budget on a reply, so it is not used; its `tls-rustls` feature is on only so that it
//! reads `rediss://` URLs. [`ConnectOptions`] carries what a URL does not say: TLS
//! settings ([`TlsOptions`]), the ACL user and the password.
//!
//! Every URL in a message or a field of this module is [`crate::url::redact`]ed.
//!
//! - `options.rs`: [`ConnectOptions`], and the endpoint a URL and the options make;
//! - `connection.rs`: `Connection`, the socket under the deadline and the budget, `AUTH`
//!   and `SELECT`;
//! - `tls.rs`: [`TlsOptions`], the rustls client, the handshake, [`TlsError`];
//! - `acl.rs`: [`Denied`], a `NOPERM` refusal and the rule that grants what it lacks;
//! - `meter.rs`: the RESP framing followed as bytes are read, counting values.

mod acl;
mod connection;
mod hide;
mod meter;
mod options;
mod tls;

use std::fmt;
use std::time::{Duration, Instant};

pub use acl::Denied;
pub(crate) use connection::Connection;
pub use hide::hide_sent;
pub(crate) use hide::{hide, holds, sent};
pub use options::ConnectOptions;
pub(crate) use options::Endpoint;
pub use tls::{CertificateProblem, TlsError, TlsFile, TlsOptions};

/// Why a connection broke where the server had answered on it, or on another connection
/// of this process, before closing it: a server there that left, not a port with none.
pub const CLOSED_AFTER_ANSWERING: &str = "the server closed the connection after it had answered";

/// What a connection is doing while the TLS handshake runs, as its errors name it.
pub(crate) const IN_HANDSHAKE: &str = "in the TLS handshake";

/// The most bytes one short reply may take, and the longest string in it: a `CLUSTER
/// KEYSLOT` reply is an integer (`:16383\r\n`, 8 bytes), an error reply is one short line,
/// and `INFO cluster` is two lines (`# Cluster`, `cluster_enabled:1`: 40 bytes).
pub const MAX_REPLY_BYTES: usize = 4096;

/// The bound of a reply that a server passed, as [`ServerError::ReplyTooLarge`] and
/// [`crate::Error::ReplyTooLarge`] name it.
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
    pub(crate) fn times(self, n: usize) -> Budget {
        Budget {
            bytes: self.bytes.saturating_mul(n),
            values: self.values.saturating_mul(n),
            string: self.string,
        }
    }
}

/// Why a server exchange failed. Every `url` is redacted.
///
/// The variants up to [`CommandRefused`](Self::CommandRefused) are the connection's own;
/// [`NotCluster`](Self::NotCluster), [`Refused`](Self::Refused) and
/// [`NotASlot`](Self::NotASlot) are what [`Server`](crate::server::Server) makes of
/// the replies to `INFO cluster` and `CLUSTER KEYSLOT`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ServerError {
    /// The text is not a URL the client reads.
    #[error("`{url}` is not a server URL ({reason}): give `redis://HOST:PORT`, `rediss://HOST:PORT` (TLS) or `unix:///PATH/TO/SOCKET`, with `USER:PASSWORD@` before the host if the server needs it")]
    Url {
        /// The text given, redacted.
        url: String,
        /// What is wrong with it.
        reason: String,
    },
    /// TLS settings that cannot be used, or a failed TLS handshake.
    #[error("TLS with {url}: {error}")]
    Tls {
        /// The URL, redacted.
        url: String,
        /// Why.
        error: TlsError,
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
    /// A command not sent: the answer to one sent before it on the same connection did not
    /// come whole (a timeout, a broken or garbled reply), and may still come; read now, it
    /// would be taken for this command's answer.
    #[error("{url}: `{command}` was not sent, as the answer to `{owed}` before it on that connection did not come whole and may still come; a new connection asks again")]
    Owed {
        /// The URL, redacted.
        url: String,
        /// The command not sent.
        command: String,
        /// The command whose answer is owed.
        owed: String,
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
    /// A password was given to a server that has none set for the user (`AUTH <password>
    /// called without any password configured for the default user`).
    #[error("{url} has no password set for user `{user}`, and refused the one given: connect without a password")]
    NoPasswordSet {
        /// The URL, redacted.
        url: String,
        /// The ACL user (`default` when none was given), escaped.
        user: String,
    },
    /// The server refused the user name or password.
    #[error("{url} refused the password of user `{user}`: {message}")]
    Auth {
        /// The URL, redacted.
        url: String,
        /// The ACL user (`default` when none was given), escaped.
        user: String,
        /// The server's error, shortened.
        message: String,
    },
    /// The ACL user may not run a command slotgen needs (`NOPERM`).
    #[error("{url}: {denied} (NOPERM)")]
    NoPermission {
        /// The URL, redacted.
        url: String,
        /// The user and the command.
        denied: Denied,
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
    /// The server answered a number that is no hash slot (0 to 16383).
    #[error("{url} answered slot {slot} for key \"{key}\": not a hash slot, 0 to {}", crate::SLOTS - 1)]
    NotASlot {
        /// The URL, redacted.
        url: String,
        /// The key, shortened, control bytes escaped.
        key: String,
        /// The number answered.
        slot: i64,
    },
}

/// The time left before `deadline`, if any; no deadline (a timeout too large for the
/// clock) leaves a day. The one clock of the connection and of its TLS handshake.
fn time_left(deadline: Option<Instant>) -> Option<Duration> {
    match deadline {
        Some(d) => {
            let left = d.saturating_duration_since(Instant::now());
            (!left.is_zero()).then_some(left)
        }
        None => Some(Duration::from_secs(86_400)),
    }
}

/// A server's error reply in its own words, as one line of a message: its code and its
/// details (`ERR unknown subcommand 'x'`), escaped by [`slotgen::text::reason`], without
/// the client library's wrapping (`An error was signalled by the server - ResponseError:`).
/// The one reading of an error reply for every message that quotes one: `code` and
/// `details` as the reply's `code()` and `details()` give them.
#[must_use]
pub fn server_words(code: &str, details: Option<&str>, password: Option<&[u8]>) -> String {
    let words = match details {
        Some(details) => format!("{code} {details}"),
        None => code.to_owned(),
    };
    slotgen::text::reason(&hide(password, &words))
}

/// A reply as a message names it: its RESP type, and the value of a scalar, escaped and cut
/// ([`slotgen::text::escape_cut`]); an aggregate by its length only, so that a large one
/// stays one short line. The one owner of how slotgen shows a reply it did not expect
/// (`the answer is not text but the status +OK`), in place of the client's `Debug`
/// (`ok`, `bulk-string('...')`).
///
/// # Examples
///
/// ```
/// use redis::Value;
/// use slotgen_cluster::transport::describe;
///
/// assert_eq!(describe(&Value::Okay), "the status `+OK`");
/// assert_eq!(describe(&Value::Int(7)), "the integer 7");
/// assert_eq!(describe(&Value::BulkString(b"a\x1b".to_vec())), r#"the string "a\x1b""#);
/// assert_eq!(describe(&Value::Array(vec![Value::Nil; 3])), "an array of 3 elements");
/// ```
#[must_use]
pub fn describe(value: &redis::Value) -> String {
    use redis::Value;
    use slotgen::text::escape_cut;
    let many = |n: usize, what: &str, one: &str, more: &str| {
        format!("{what} of {n} {}", if n == 1 { one } else { more })
    };
    match value {
        Value::Nil => "nil".to_owned(),
        Value::Int(i) => format!("the integer {i}"),
        Value::Double(d) => format!("the double {d}"),
        Value::Boolean(b) => format!("the boolean {b}"),
        Value::Okay => "the status `+OK`".to_owned(),
        Value::SimpleString(s) => format!("the status `+{}`", escape_cut(s.as_bytes())),
        Value::BulkString(b) => format!("the string \"{}\"", escape_cut(b)),
        Value::VerbatimString { text, .. } => {
            format!("the string \"{}\"", escape_cut(text.as_bytes()))
        }
        Value::ServerError(e) => format!(
            "the error `{}`",
            escape_cut(
                format!("{} {}", e.code(), e.details().unwrap_or_default())
                    .trim()
                    .as_bytes()
            )
        ),
        Value::Array(a) => many(a.len(), "an array", "element", "elements"),
        Value::Set(a) => many(a.len(), "a set", "element", "elements"),
        Value::Map(m) => many(m.len(), "a map", "entry", "entries"),
        Value::Push { data, .. } => many(data.len(), "a push message", "element", "elements"),
        Value::Attribute { data, .. } => format!("{} with attributes", describe(data)),
        // a big number (RESP3 `(`), whose type is behind a feature of the client
        _ => "a number too large for an integer".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_read_as_their_bound() {
        assert_eq!(Limit::Bytes(4096).to_string(), "4096 bytes");
        assert_eq!(Limit::Values(1).to_string(), "1 value");
        assert_eq!(Limit::Values(16).to_string(), "16 values");
        assert_eq!(Limit::String(1024).to_string(), "1024 bytes in one string");
    }
}
