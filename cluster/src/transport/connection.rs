//! [`Connection`]: a socket to one server with one deadline over all its exchanges and a
//! [`Budget`] on every reply.

use std::collections::BTreeSet;
use std::io::{self, Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
#[cfg(unix)]
use std::os::unix::net::UnixStream;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use redis::{ConnectionAddr, Value};

use super::meter::Frame;
use super::tls::HandshakeError;
use super::{time_left, Budget, Denied, Endpoint, Limit, ServerError, TlsError};
use crate::text::escape_text;

/// The URLs (as shown) that sent a whole reply on a connection of this process. A plain
/// connection to one of them that closes without a word is a node that died or stopped, not
/// a TLS port: the hint to give a `rediss://` URL is for a first contact only (a tester's
/// node killed after 53 moves was told "if it is a TLS port").
static ANSWERED: Mutex<BTreeSet<String>> = Mutex::new(BTreeSet::new());

/// Whether `url` sent a whole reply before ([`ANSWERED`]).
fn answered_before(url: &str) -> bool {
    ANSWERED.lock().is_ok_and(|set| set.contains(url))
}

/// A connection with one deadline over all its exchanges and a [`Budget`] on every reply:
/// what [`Server`](crate::server::Server) and [`crate`] talk to servers
/// through. It speaks RESP2, over TLS when the endpoint has a TLS client.
pub(crate) struct Connection {
    io: Bounded,
    parser: redis::Parser,
    url: String,
    user: String,
    timeout: Duration,
    /// The command (as a step names it: `MIGRATE`, `answering AUTH`) whose answer did not
    /// come whole: a timeout, a broken connection, a reply too large or not RESP. The server
    /// may have run it and may still send its answer, which a later read would take for the
    /// next command's; so nothing is sent or read on the connection again ([`ServerError::Owed`]).
    owed: Option<String>,
    /// Whether its URL is in [`ANSWERED`] already (by this connection or another).
    answered: bool,
    /// The password sent, hidden in what the server says ([`Connection::said`]).
    secret: Option<Vec<u8>>,
}

impl Connection {
    /// Connects to `endpoint`, runs the TLS handshake when it has a TLS client, and sends
    /// `AUTH` when it has a password and `SELECT` when its database is not 0. `deadline`
    /// bounds this and every later exchange of the connection (`None`: no deadline, for a
    /// timeout too large for the clock); `timeout` is the time that messages name.
    ///
    /// # Errors
    ///
    /// [`ServerError::Tls`], [`ServerError::Connect`], [`ServerError::TimedOut`],
    /// [`ServerError::Io`], [`ServerError::ReplyTooLarge`], [`ServerError::NotRedis`],
    /// [`ServerError::Auth`], [`ServerError::NoPasswordSet`], [`ServerError::NoPermission`],
    /// [`ServerError::CommandRefused`].
    pub(crate) fn open(
        endpoint: &Endpoint,
        deadline: Option<Instant>,
        timeout: Duration,
    ) -> Result<Self, ServerError> {
        let info = &endpoint.info;
        let url = endpoint.shown.clone();
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
                match &endpoint.tls {
                    None => Stream::Tcp(stream),
                    Some(tls) => match tls.handshake(host, stream, deadline) {
                        Ok(tls) => Stream::Tls(Box::new(tls)),
                        Err(HandshakeError::Tls(error)) => {
                            return Err(ServerError::Tls {
                                url: url.clone(),
                                error,
                            })
                        }
                        Err(HandshakeError::TimedOut) => {
                            return Err(timed_out(&format!(
                                "{} (a server that does not speak TLS there waits for more, silent: if it is a plain port, give a `redis://` URL)",
                                super::IN_HANDSHAKE
                            )))
                        }
                        Err(HandshakeError::Io(e)) => {
                            return Err(ServerError::Io {
                                url: url.clone(),
                                during: super::IN_HANDSHAKE.to_owned(),
                                reason: os_reason(&e),
                            })
                        }
                    },
                }
            }
            #[cfg(unix)]
            ConnectionAddr::Unix(path) => {
                Stream::Unix(UnixStream::connect(path).map_err(connect_error)?)
            }
            #[cfg(not(unix))]
            ConnectionAddr::Unix(_) => {
                return Err(ServerError::Url {
                    url: url.clone(),
                    reason: "unix sockets are not supported on this system".to_owned(),
                })
            }
            // `Endpoint::new` turns a `rediss://` address into TCP and a TLS client
            ConnectionAddr::TcpTls { .. } => {
                return Err(ServerError::Tls {
                    url: url.clone(),
                    error: TlsError::Handshake {
                        reason: "an address of the TLS kind without a TLS client".to_owned(),
                    },
                })
            }
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
                received: 0,
                head: Vec::new(),
                head_cut: false,
                tls_error: None,
            },
            parser: redis::Parser::new(),
            url,
            user: endpoint.user().to_owned(),
            timeout,
            owed: None,
            answered: false,
            secret: endpoint.password.clone(),
        };
        let settings = &info.redis;
        if let Some(password) = &endpoint.password {
            let mut auth = redis::cmd("AUTH");
            if let Some(user) = &settings.username {
                auth.arg(user);
            }
            auth.arg(password);
            super::sent(password);
            let during = "answering AUTH";
            match con.query(&auth, Budget::SHORT, during)? {
                Value::Okay => {}
                Value::ServerError(e) => {
                    let message = con.said(e.code(), e.details());
                    let user = crate::text::escape(con.user.as_bytes());
                    // Redis 7.0 and Valkey 8.0: "AUTH <password> called without any
                    // password configured for the default user"; read in the server's own
                    // words, not the message, where the password may be hidden
                    let unset = e
                        .details()
                        .is_some_and(|d| d.contains("without any password configured"));
                    return Err(if unset {
                        ServerError::NoPasswordSet {
                            url: con.url.clone(),
                            user,
                        }
                    } else {
                        ServerError::Auth {
                            url: con.url.clone(),
                            user,
                            message,
                        }
                    });
                }
                other => return Err(con.not_redis(during, &other)),
            }
        }
        if settings.db != 0 {
            let during = "answering SELECT";
            match con.query(redis::cmd("SELECT").arg(settings.db), Budget::SHORT, during)? {
                Value::Okay => {}
                Value::ServerError(e) if e.code() == "NOPERM" => {
                    return Err(con.denied(&["SELECT"]))
                }
                Value::ServerError(e) => {
                    return Err(ServerError::CommandRefused {
                        url: con.url.clone(),
                        command: format!("SELECT {}", settings.db),
                        message: con.said(e.code(), e.details()),
                    })
                }
                other => return Err(con.not_redis(during, &other)),
            }
        }
        Ok(con)
    }

    /// The server's error reply `e` as text for a message: its words, the password sent
    /// hidden where the server echoes it ([`hide`](super::hide)), escaped.
    pub(crate) fn said(&self, code: &str, details: Option<&str>) -> String {
        super::server_words(code, details, self.secret.as_deref())
    }

    /// Moves the deadline of the connection's later exchanges (a command of its own time,
    /// such as each step of a slot move); `None`: no deadline.
    pub(crate) fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.io.deadline = deadline;
        self.io.timed_out = false;
    }

    /// The URL connected to, redacted.
    pub(crate) fn url(&self) -> &str {
        &self.url
    }

    /// [`ServerError::NoPermission`]: this connection's user may run none of `commands`.
    pub(crate) fn denied(&self, commands: &[&str]) -> ServerError {
        ServerError::NoPermission {
            url: self.url.clone(),
            denied: Denied::new(&self.user, commands),
        }
    }

    /// Sends `cmd` and reads its reply within `budget`. An error reply is a value
    /// ([`Value::ServerError`]), for the caller to judge.
    ///
    /// # Errors
    ///
    /// [`ServerError::TimedOut`] when the connection's deadline passes,
    /// [`ServerError::Io`], [`ServerError::ReplyTooLarge`], [`ServerError::NotRedis`] (not
    /// RESP), each naming `during`; after any of them, [`ServerError::Owed`] for every later
    /// command (the late answer may still come: a new connection asks again).
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
    ///
    /// # Errors
    ///
    /// [`ServerError::Owed`] when an earlier answer on the connection did not come whole
    /// (nothing is written); [`ServerError::TimedOut`], [`ServerError::Io`],
    /// [`ServerError::Tls`].
    pub(crate) fn send(
        &mut self,
        bytes: &[u8],
        budget: Budget,
        during: &str,
    ) -> Result<(), ServerError> {
        self.check_owed(during)?;
        self.io.given = budget;
        self.io.left = budget;
        self.io.head.clear();
        self.io.head_cut = false;
        let sent = self.io.write_all(bytes).and_then(|()| self.io.flush());
        sent.map_err(|e| {
            // a part of the command may have gone out, and the server may answer it
            self.owed = Some(during.to_owned());
            self.failure(e, during)
        })
    }

    /// [`ServerError::Owed`] when an earlier answer on the connection did not come whole.
    fn check_owed(&self, during: &str) -> Result<(), ServerError> {
        match &self.owed {
            Some(owed) => Err(ServerError::Owed {
                url: self.url.clone(),
                command: during.to_owned(),
                owed: owed.clone(),
            }),
            None => Ok(()),
        }
    }

    /// Reads one reply. A reply that does not come whole leaves the connection owing it:
    /// nothing is sent or read on it again.
    ///
    /// # Errors
    ///
    /// [`ServerError::Owed`], [`ServerError::TimedOut`], [`ServerError::Io`],
    /// [`ServerError::ReplyTooLarge`], [`ServerError::Tls`], [`ServerError::NotRedis`].
    pub(crate) fn reply(&mut self, during: &str) -> Result<Value, ServerError> {
        self.check_owed(during)?;
        let read = self.parser.parse_value(&mut self.io);
        if read.is_err() {
            self.owed = Some(during.to_owned());
        }
        match read {
            Ok(value) => {
                if !self.answered {
                    if let Ok(mut set) = ANSWERED.lock() {
                        set.insert(self.url.clone());
                    }
                    self.answered = true;
                }
                Ok(value)
            }
            Err(e) => Err(if self.io.timed_out {
                self.timed_out(during)
            } else if let Some(limit) = self.io.over {
                ServerError::ReplyTooLarge {
                    url: self.url.clone(),
                    during: during.to_owned(),
                    limit,
                }
            } else if let Some(error) = self.io.tls_error.take() {
                ServerError::Tls {
                    url: self.url.clone(),
                    error,
                }
            } else if e.is_io_error() {
                let closed = e.kind() == redis::ErrorKind::IoError
                    && (e.to_string().contains("nexpected")
                        || e.to_string().contains("reset by peer"));
                ServerError::Io {
                    url: self.url.clone(),
                    during: during.to_owned(),
                    reason: if closed
                        && self.io.received == 0
                        && self.io.is_plain_tcp()
                        && !answered_before(&self.url)
                    {
                        // What a TLS port does with a plain connection.
                        "the server closed the connection without a word; if it is a TLS port, give a `rediss://` URL".to_owned()
                    } else if closed && (self.io.received > 0 || answered_before(&self.url)) {
                        super::CLOSED_AFTER_ANSWERING.to_owned()
                    } else if closed {
                        "the server closed the connection".to_owned()
                    } else {
                        escape_text(&e.to_string())
                    },
                }
            } else {
                ServerError::NotRedis {
                    url: self.url.clone(),
                    during: during.to_owned(),
                    what: self.not_resp(),
                }
            }),
        }
    }

    /// "its reply is not RESP", with the first bytes that came, escaped and cut (an HTTP
    /// port's `HTTP/1.1 400 Bad Request`).
    fn not_resp(&self) -> String {
        if self.io.head.is_empty() {
            return "its reply is not RESP".to_owned();
        }
        let cut = if self.io.head_cut {
            crate::text::CUT
        } else {
            ""
        };
        if self.holds(&self.io.head) {
            return "its reply is not RESP (its first bytes are left out: they hold letters of the password sent)".to_owned();
        }
        format!(
            "its reply is not RESP: it begins `{}{cut}`",
            crate::text::escape(&self.io.head)
        )
    }

    /// Whether `text`, from the server, holds the password sent or a part of it
    /// ([`holds`](super::holds)).
    fn holds(&self, text: &[u8]) -> bool {
        self.secret
            .as_deref()
            .is_some_and(|p| super::holds(p, text))
    }

    fn timed_out(&self, during: &str) -> ServerError {
        ServerError::TimedOut {
            url: self.url.clone(),
            during: during.to_owned(),
            timeout: self.timeout,
        }
    }

    fn failure(&self, e: io::Error, during: &str) -> ServerError {
        if let Some(error) = &self.io.tls_error {
            ServerError::Tls {
                url: self.url.clone(),
                error: error.clone(),
            }
        } else if self.io.timed_out
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
            what: match super::describe(value) {
                // a status or a string that echoes the password: only its kind
                shown if self.holds(shown.as_bytes()) || self.holds(&value_bytes(value)) => {
                    "it answered a reply that holds letters of the password sent (left out)"
                        .to_owned()
                }
                shown => format!("it answered {shown}"),
            },
        }
    }
}

/// The bytes of a scalar reply as the server sent them (a status, a string, an error), for
/// [`Connection::holds`]: the description escapes them, which may split a copy of the
/// password; empty for the rest.
fn value_bytes(value: &Value) -> Vec<u8> {
    match value {
        Value::SimpleString(s) => s.as_bytes().to_vec(),
        Value::BulkString(b) => b.clone(),
        Value::VerbatimString { text, .. } => text.as_bytes().to_vec(),
        Value::ServerError(e) => {
            format!("{} {}", e.code(), e.details().unwrap_or_default()).into_bytes()
        }
        _ => Vec::new(),
    }
}

fn os_reason(e: &io::Error) -> String {
    crate::text::os_reason(e)
}

enum Stream {
    Tcp(TcpStream),
    /// TLS over TCP: the bytes read and written here are the plain RESP, metered as such.
    Tls(Box<rustls::StreamOwned<rustls::ClientConnection, TcpStream>>),
    #[cfg(unix)]
    Unix(UnixStream),
}

/// The most bytes of a reply that is not RESP shown in the error.
const HEAD: usize = 64;

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
    /// Bytes read over the connection's life.
    received: u64,
    /// The first bytes of the replies to the last commands sent, at most [`HEAD`], to show
    /// what came where RESP was expected.
    head: Vec<u8>,
    /// Whether more bytes came than `head` keeps.
    head_cut: bool,
    /// A TLS error met by a read (an alert: a refused client certificate).
    tls_error: Option<TlsError>,
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
            Stream::Tls(s) => {
                s.sock.set_read_timeout(Some(left))?;
                s.sock.set_write_timeout(Some(left))
            }
            #[cfg(unix)]
            Stream::Unix(s) => {
                s.set_read_timeout(Some(left))?;
                s.set_write_timeout(Some(left))
            }
        }
    }

    fn is_plain_tcp(&self) -> bool {
        matches!(self.stream, Stream::Tcp(_))
    }

    fn note(&mut self, e: io::Error) -> io::Error {
        if let Some(error) = super::tls::rustls_error(&e) {
            self.tls_error = Some(error);
        }
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
        let want = buf.len().min(self.left.bytes);
        // a signal handled meanwhile (SIGINT under `rebalance --apply`) ends a read of a
        // socket with a timeout early (EINTR, signal(7)): read again, within the deadline
        let read = loop {
            self.arm()?;
            let read = match &mut self.stream {
                Stream::Tcp(s) => s.read(&mut buf[..want]),
                Stream::Tls(s) => s.read(&mut buf[..want]),
                #[cfg(unix)]
                Stream::Unix(s) => s.read(&mut buf[..want]),
            };
            match read {
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                read => break read,
            }
        };
        let n = read.map_err(|e| self.note(e))?;
        self.left.bytes -= n;
        self.received += n as u64;
        let room = HEAD - self.head.len();
        self.head.extend_from_slice(&buf[..n.min(room)]);
        self.head_cut |= n > room;
        if let Err(limit) = self.frame.feed(&buf[..n], self.given, &mut self.left) {
            self.over = Some(limit);
            return Err(io::Error::other("reply too large"));
        }
        Ok(n)
    }
}

impl Write for Bounded {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let written = loop {
            self.arm()?;
            let written = match &mut self.stream {
                Stream::Tcp(s) => s.write(buf),
                Stream::Tls(s) => s.write(buf),
                #[cfg(unix)]
                Stream::Unix(s) => s.write(buf),
            };
            match written {
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                written => break written,
            }
        };
        written.map_err(|e| self.note(e))
    }

    fn flush(&mut self) -> io::Result<()> {
        if !matches!(self.stream, Stream::Tls(_)) {
            return Ok(());
        }
        self.arm()?;
        let flushed = match &mut self.stream {
            Stream::Tls(s) => s.flush(),
            _ => Ok(()),
        };
        flushed.map_err(|e| self.note(e))
    }
}

#[cfg(test)]
mod tests {
    use std::io::Read;
    use std::net::TcpListener;
    use std::sync::{Arc, Mutex};
    use std::time::{Duration, Instant};

    use super::{Budget, Connection, Endpoint, ServerError};
    use crate::transport::ConnectOptions;

    /// A port that answers HTTP (or anything but RESP) is named with what came, escaped and
    /// cut: "its reply is not RESP" alone did not say what answered.
    #[test]
    fn a_reply_that_is_not_resp_shows_its_first_bytes() {
        use std::io::Write;
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let reply = format!(
            "HTTP/1.1 400 Bad Request\r\nContent-Type: text/html\r\n\r\n\x1b[2J{}",
            "x".repeat(200)
        );
        std::thread::spawn(move || {
            let (mut peer, _) = listener.accept().unwrap();
            let mut buf = [0u8; 1024];
            let _ = peer.read(&mut buf);
            let _ = peer.write_all(reply.as_bytes());
            std::thread::sleep(Duration::from_millis(500));
        });
        let endpoint = Endpoint::new(
            &format!("redis://127.0.0.1:{port}"),
            &ConnectOptions::default(),
        )
        .unwrap();
        let timeout = Duration::from_secs(5);
        let mut con = Connection::open(&endpoint, Some(Instant::now() + timeout), timeout).unwrap();
        match con.query(&redis::cmd("PING"), Budget::SHORT, "PING") {
            Err(e @ ServerError::NotRedis { .. }) => {
                let text = e.to_string();
                // the first 64 bytes: the 57 of the header lines and ESC [2J, then 7 of the x's
                let head = "HTTP/1.1 400 Bad Request\\x0d\\x0aContent-Type: text/html\\x0d\\x0a\\x0d\\x0a\\x1b[2Jxxxxxxx...`";
                assert!(
                    text.contains(&format!("its reply is not RESP: it begins `{head}")),
                    "{text}"
                );
                assert!(!text.contains('\x1b'), "{text}");
            }
            other => panic!("{other:?}"),
        }
    }

    /// A server that quotes the password in its refusal (`AUTH`'s, `SELECT`'s) has it
    /// hidden in the message: no message prints a secret.
    #[test]
    fn a_password_the_server_echoes_is_hidden() {
        use std::io::Write;
        for (answers, refused) in [
            (
                &["-WRONGPASS invalid password 'S3cret/PW' for user\r\n"][..],
                "AUTH",
            ),
            (
                &["+OK\r\n", "-ERR no database 3 for S3cret/PW\r\n"][..],
                "SELECT",
            ),
        ] {
            let listener = TcpListener::bind("127.0.0.1:0").unwrap();
            let port = listener.local_addr().unwrap().port();
            let answers: Vec<&'static str> = answers.to_vec();
            std::thread::spawn(move || {
                let (mut peer, _) = listener.accept().unwrap();
                let mut buf = [0u8; 1024];
                for answer in answers {
                    let _ = peer.read(&mut buf);
                    let _ = peer.write_all(answer.as_bytes());
                }
                std::thread::sleep(Duration::from_millis(500));
            });
            let endpoint = Endpoint::new(
                &format!("redis://:S3cret%2FPW@127.0.0.1:{port}/3"),
                &ConnectOptions::default(),
            )
            .unwrap();
            let timeout = Duration::from_secs(5);
            let text = match Connection::open(&endpoint, Some(Instant::now() + timeout), timeout) {
                Err(e) => e.to_string(),
                Ok(_) => panic!("{refused}: connected"),
            };
            assert!(!text.contains("S3cret"), "{refused}: {text}");
            assert!(text.contains("***"), "{refused}: {text}");
        }
    }

    /// A port that closes a plain connection without a word gets the TLS hint at a first
    /// contact; once it has answered (a node that died mid-run, after 53 moves), not.
    #[test]
    fn a_node_that_answered_before_is_not_taken_for_a_tls_port() {
        use std::io::Write;
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        // the first connection and the third are closed unanswered, the second gets PONG
        std::thread::spawn(move || {
            for answer in [false, true, false] {
                let (mut peer, _) = listener.accept().unwrap();
                let mut buf = [0u8; 1024];
                let _ = peer.read(&mut buf);
                if answer {
                    let _ = peer.write_all(b"+PONG\r\n");
                    let _ = peer.read(&mut buf);
                }
            }
        });
        let endpoint = Endpoint::new(
            &format!("redis://127.0.0.1:{port}"),
            &ConnectOptions::default(),
        )
        .unwrap();
        let timeout = Duration::from_secs(5);
        let ping = || {
            let mut con =
                Connection::open(&endpoint, Some(Instant::now() + timeout), timeout).unwrap();
            con.query(&redis::cmd("PING"), Budget::SHORT, "PING")
                .map_err(|e| e.to_string())
        };
        let hint = "if it is a TLS port, give a `rediss://` URL";
        let first = ping().unwrap_err();
        assert!(first.contains(hint), "{first}");
        assert_eq!(ping(), Ok(redis::Value::SimpleString("PONG".to_owned())));
        let after = ping().unwrap_err();
        assert!(
            after.contains("the server closed the connection") && !after.contains(hint),
            "{after}"
        );
        // and the message of the map's exchange tells a server that left, not none there
        // (break28: "start a cluster-enabled server there" to one that had answered)
        assert!(
            after.contains(super::super::CLOSED_AFTER_ANSWERING),
            "{after}"
        );
        let error = crate::Error::Unreachable {
            url: "redis://h:1".to_owned(),
            during: "CLUSTER SHARDS".to_owned(),
            reason: super::super::CLOSED_AFTER_ANSWERING.to_owned(),
        };
        let said = error.to_string();
        assert!(
            said.contains("check its log for why it closed it")
                && !said.contains("start a cluster-enabled server"),
            "{said}"
        );
    }

    /// A command whose answer does not come in time leaves the connection owing it: the
    /// next command is refused without a byte sent (a late answer would be read as its own).
    #[test]
    fn a_connection_that_owes_an_answer_sends_nothing_more() {
        // a peer that reads everything and answers nothing, keeping what it read
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let read = Arc::new(Mutex::new(Vec::new()));
        let kept = Arc::clone(&read);
        std::thread::spawn(move || {
            let (mut peer, _) = listener.accept().unwrap();
            let mut buf = [0u8; 1024];
            while let Ok(n @ 1..) = peer.read(&mut buf) {
                kept.lock().unwrap().extend_from_slice(&buf[..n]);
            }
        });
        let endpoint = Endpoint::new(
            &format!("redis://127.0.0.1:{port}"),
            &ConnectOptions::default(),
        )
        .unwrap();
        let timeout = Duration::from_millis(200);
        let mut con = Connection::open(&endpoint, Some(Instant::now() + timeout), timeout).unwrap();
        let first = con.query(redis::cmd("PING").arg("one"), Budget::SHORT, "PING");
        assert!(
            matches!(first, Err(ServerError::TimedOut { .. })),
            "{first:?}"
        );
        con.set_deadline(Some(Instant::now() + timeout));
        let second = con.query(redis::cmd("ECHO").arg("two"), Budget::SHORT, "ECHO");
        assert_eq!(
            second,
            Err(ServerError::Owed {
                url: format!("redis://127.0.0.1:{port}"),
                command: "ECHO".to_owned(),
                owed: "PING".to_owned(),
            })
        );
        assert!(second.unwrap_err().to_string().contains(
            "`ECHO` was not sent, as the answer to `PING` before it on that connection did not come whole"
        ));
        std::thread::sleep(Duration::from_millis(50));
        let read = read.lock().unwrap().clone();
        assert_eq!(read, redis::cmd("PING").arg("one").get_packed_command());
    }
}
