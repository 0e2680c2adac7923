//! Asking a live server for `CLUSTER KEYSLOT`: [`Server`], with one deadline over the whole
//! exchange and a budget on every reply (the bounded connection that [`crate`]
//! reads a cluster's topology through too).
//!
//! The `redis` client packs every command and parses every reply; the connection under it
//! - gives every read and write the time left before one overall deadline (a server that
//!   accepts and then stops answering, or trickles one byte at a time, fails with
//!   [`Error::TimedOut`] when the deadline passes, not after a timeout per answer);
//! - refuses a reply larger than the question can need: more bytes, more RESP values or a
//!   longer string than it allows (a `CLUSTER KEYSLOT` reply, [`MAX_REPLY_BYTES`] bytes),
//!   so that a server announcing a bulk string of `$1000000000` bytes or an array of
//!   `*1000000000` elements fails with [`Error::ReplyTooLarge`] at the announcement,
//!   not after a gigabyte (values are counted as well as bytes, because the `redis` parser
//!   holds 56 bytes for every value of a reply, as few as 3 bytes read);
//! - and [`Server::keyslots`] sends a long pipeline in chunks of [`CHUNK`] commands, so that
//!   the bytes in flight stay bounded however many keys are asked.
//!
//! Every URL in a message or a field of this module is [`crate::url::redact`]ed. Its errors
//! are the live cluster's [`Error`], in the same words as a cluster's exchange gives them.

use std::time::{Duration, Instant};

use redis::Value;

use crate::text::escape_cut;
use crate::transport::{Budget, Connection, Endpoint, ServerError};
pub use crate::transport::{ConnectOptions, Limit, MAX_REPLY_BYTES};
use crate::{Error, SLOTS};

/// Commands sent in one pipelined chunk before their replies are read.
pub const CHUNK: usize = 1024;

/// A connection to a cluster-enabled server, with the deadline it was opened with.
pub struct Server {
    con: Connection,
}

impl std::fmt::Debug for Server {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Server")
            .field("url", &self.con.url())
            .finish()
    }
}

impl Server {
    /// Connects to `url` (`redis://[user:password@]host:port[/db]`, `rediss://...` for TLS,
    /// `unix:///path`) with `options` (TLS settings, user, password: see
    /// [`ConnectOptions`]), sends the password if there is one, and checks with `INFO
    /// cluster` that the server is cluster-enabled. `timeout` is the overall deadline: it
    /// covers this (the TLS handshake included) and every later exchange of the connection
    /// ([`keyslots`](Self::keyslots)).
    ///
    /// # Errors
    ///
    /// [`Error::Url`], [`Error::Tls`], [`Error::Unreachable`], [`Error::TimedOut`],
    /// [`Error::ReplyTooLarge`], [`Error::Malformed`] (no Redis server's answer),
    /// [`Error::PasswordRequired`], [`Error::PasswordRejected`], [`Error::NoPasswordSet`],
    /// [`Error::NoPermission`], [`Error::Refused`], [`Error::NotCluster`].
    ///
    /// # Examples
    ///
    /// ```no_run
    /// use std::time::Duration;
    /// use slotgen_cluster::server::{ConnectOptions, Server};
    ///
    /// let mut server = Server::connect(
    ///     "rediss://127.0.0.1:7000",
    ///     &ConnectOptions::default(),
    ///     Duration::from_secs(30),
    /// )?;
    /// assert_eq!(server.keyslots(&["somekey"])?, [11058]); // as Redis's docs show
    /// # Ok::<(), slotgen_cluster::Error>(())
    /// ```
    pub fn connect(url: &str, options: &ConnectOptions, timeout: Duration) -> Result<Self, Error> {
        Self::open(url, options, timeout).map_err(Error::from)
    }

    fn open(url: &str, options: &ConnectOptions, timeout: Duration) -> Result<Self, ServerError> {
        let deadline = Instant::now().checked_add(timeout);
        let endpoint = Endpoint::new(url, options)?;
        let mut con = Connection::open(&endpoint, deadline, timeout)?;
        let during = "answering INFO cluster";
        let info = match con.query(redis::cmd("INFO").arg("cluster"), Budget::SHORT, during)? {
            Value::BulkString(text) => text,
            Value::VerbatimString { text, .. } => text.into_bytes(),
            Value::ServerError(e) if e.code() == "NOPERM" => {
                return Err(con.denied(&["INFO cluster"]))
            }
            other => return Err(con.not_redis(during, &other)),
        };
        let enabled = info
            .split(|&b| b == b'\n')
            .any(|line| line.trim_ascii() == b"cluster_enabled:1");
        if !enabled {
            return Err(ServerError::NotCluster {
                url: con.url().to_owned(),
            });
        }
        Ok(Server { con })
    }

    /// The URL connected to, redacted.
    #[must_use]
    pub fn url(&self) -> &str {
        self.con.url()
    }

    /// The server's `CLUSTER KEYSLOT` of each key, in order, pipelined in chunks of
    /// [`CHUNK`]: slot `i` of the answer is the slot of `keys[i]`.
    ///
    /// # Errors
    ///
    /// [`Error::TimedOut`] when the connection's deadline passes, [`Error::Unreachable`],
    /// [`Error::ReplyTooLarge`], [`Error::Malformed`] (a reply that is no slot),
    /// [`Error::NoPermission`], [`Error::Refused`] (an error reply).
    pub fn keyslots<K: AsRef<[u8]>>(&mut self, keys: &[K]) -> Result<Vec<u16>, Error> {
        self.ask(keys).map_err(Error::from)
    }

    fn ask<K: AsRef<[u8]>>(&mut self, keys: &[K]) -> Result<Vec<u16>, ServerError> {
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
                    // a server's hash slot is below 16384 whatever the spec checked
                    Value::Int(slot) => match u16::try_from(slot).ok().filter(|&s| s < SLOTS) {
                        Some(s) => slots.push(s),
                        None => {
                            return Err(ServerError::NotASlot {
                                url: con.url().to_owned(),
                                key: escape_cut(key),
                                slot,
                            })
                        }
                    },
                    Value::ServerError(e) if e.code() == "NOPERM" => {
                        return Err(con.denied(&["CLUSTER KEYSLOT"]))
                    }
                    Value::ServerError(e) => {
                        return Err(ServerError::Refused {
                            url: con.url().to_owned(),
                            key: escape_cut(key),
                            message: con.said(e.code(), e.details()),
                        })
                    }
                    other => return Err(con.not_redis(during, &other)),
                }
            }
        }
        Ok(slots)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exchange::tests::scripted_node;
    use crate::transport::ConnectOptions;

    /// A server's answers to `CLUSTER KEYSLOT` that make no sense: an error reply is quoted
    /// in the server's words, escaped (the client's "An error was signalled by the server -
    /// ResponseError:" was shown, the code lost), and a number that is no hash slot is an
    /// error quoting the range of a hash slot, 0 to 16383 (it quoted 0 to 65535, and a
    /// 20000 was taken).
    #[test]
    fn keyslot_answers_that_make_no_sense_are_named() {
        let ask = |reply: &'static [u8]| {
            let url = scripted_node(move |args| match args[0].as_slice() {
                b"INFO" => b"$17\r\ncluster_enabled:1\r\n".to_vec(),
                _ => reply.to_vec(),
            });
            let mut server =
                Server::connect(&url, &ConnectOptions::default(), Duration::from_secs(5)).unwrap();
            server.keyslots(&["k\x1b"]).map_err(|e| e.to_string())
        };
        assert_eq!(ask(b":16383\r\n"), Ok(vec![16383]));
        let refused = ask(b"-ERR no \x1b[2J slot\r\n").unwrap_err();
        assert!(
            refused.ends_with(r#"refused `CLUSTER KEYSLOT "k\x1b"`: ERR no \x1b[2J slot"#),
            "{refused}"
        );
        for slot in [16384, 20000, 70000, -1] {
            let reply: &'static [u8] = Box::leak(format!(":{slot}\r\n").into_bytes().into());
            let error = ask(reply).unwrap_err();
            assert!(
                error.contains(&format!("slot {slot} is not a hash slot, 0 to 16383")),
                "{error}"
            );
        }
    }
}
