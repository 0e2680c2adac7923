//! [`ConnectOptions`]: how to reach a server beyond its URL (TLS, user, password), and what
//! a URL and the options make together ([`Endpoint`]).

use std::fmt;
use std::sync::{Arc, Mutex};

use redis::{ConnectionAddr, ConnectionInfo};

use super::tls::{TlsClient, TlsError, TlsOptions};
use super::ServerError;
use crate::url::{redact, HIDDEN};

/// How to connect to a server (and to every other node of its cluster), beyond what its URL
/// says: TLS, the ACL user and the password. Taken by
/// [`Topology::fetch`](crate::Topology::fetch) and
/// [`Server::connect`](crate::server::Server::connect).
///
/// A `rediss://` URL speaks TLS with [`TlsOptions::default`] when [`tls`](Self::tls) is
/// `None`; a `redis://` URL speaks TLS when it is `Some` (redis-cli's `--tls`). A `user`
/// or `password` given here takes the place of the URL's. The password is never shown:
/// `Debug` prints [`HIDDEN`].
///
/// # Examples
///
/// ```
/// use slotgen_cluster::transport::{ConnectOptions, TlsOptions};
///
/// let mut options = ConnectOptions::default();
/// options.user = Some("app".to_owned());
/// options.password = Some(b"s3cret".to_vec());
/// let mut tls = TlsOptions::default();
/// tls.ca_file = Some("ca.pem".into());
/// options.tls = Some(tls);
/// assert!(!format!("{options:?}").contains("s3cret"));
/// ```
#[derive(Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ConnectOptions {
    /// TLS settings; `None`: TLS only for a `rediss://` URL, with the defaults.
    pub tls: Option<TlsOptions>,
    /// The ACL user (`AUTH user password`); `None`: the URL's, or `default`.
    pub user: Option<String>,
    /// The password, any bytes (a server takes them as given: `AUTH` and `MIGRATE`'s
    /// `AUTH2` carry them whole); `None`: the URL's, if any.
    pub password: Option<Vec<u8>>,
}

impl fmt::Debug for ConnectOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ConnectOptions")
            .field("tls", &self.tls)
            .field("user", &self.user)
            .field("password", &self.password.as_ref().map(|_| HIDDEN))
            .finish()
    }
}

/// A server to connect to: its address and `AUTH` settings, its TLS client (shared by every
/// node of a cluster), and its URL as messages show it.
#[derive(Clone, Debug)]
pub(crate) struct Endpoint {
    /// The address (never [`ConnectionAddr::TcpTls`]: TLS is [`tls`](Self::tls)), user and
    /// database; never the password, which is [`password`](Self::password).
    pub(crate) info: ConnectionInfo,
    /// The password (the options', else the URL's), as the bytes `AUTH` sends: a server
    /// takes any bytes, and the client's `ConnectionInfo` only text.
    pub(crate) password: Option<Vec<u8>>,
    /// The TLS client, when the connection speaks TLS.
    pub(crate) tls: Option<Arc<TlsClient>>,
    /// The URL, redacted.
    pub(crate) shown: String,
}

/// The fewest bytes of the password that, found in a server's words, count as a copy of it
/// ([`holds`]): a server may echo part of it (a reply cut short, a prefix), and 8 of 10
/// letters tell the rest.
const PART: usize = 4;

/// Whether `text` holds `password` or a part of it: the whole password, or any [`PART`]
/// bytes of it in a row, in any case of ASCII letters (an echo may change the case). A
/// password shorter than [`PART`] counts only whole.
pub(crate) fn holds(password: &[u8], text: &[u8]) -> bool {
    let lower = |b: &[u8]| b.to_ascii_lowercase();
    let (password, text) = (lower(password), lower(text));
    if password.is_empty() || text.len() < password.len().min(PART) {
        return false;
    }
    if password.len() <= PART {
        return text.windows(password.len()).any(|w| w == password);
    }
    let parts: std::collections::HashSet<&[u8]> = password.windows(PART).collect();
    text.windows(PART).any(|w| parts.contains(w))
}

/// `text`, a server's words, where they hold `password` or a part of it ([`holds`]): only
/// their first word (the reply's code) and slotgen's note that the rest is left out. A
/// server may echo the password (`AUTH <password> called without any password configured`,
/// `MIGRATE`'s error that repeats its `AUTH`, a port that is no server quoting the request),
/// and no message prints a secret; nor may it tell one by what is left: `***` in the place
/// of `pass` in `username-password` read `username-***word`, and in the place of `invalid`
/// in the server's well-known `WRONGPASS invalid username-password pair` told the password
/// as well. The one rule of hiding: [`hide_sent`] applies it to whole messages.
pub(crate) fn hide(password: Option<&[u8]>, text: &str) -> String {
    let Some(p) = password.filter(|p| holds(p, text.as_bytes())) else {
        return text.to_owned();
    };
    let left_out =
        "the rest of the server's words is left out: it holds the letters of the password sent";
    match text.split(' ').next() {
        Some(code) if !holds(p, code.as_bytes()) => format!("{code} ({left_out})"),
        _ => format!("({left_out})"),
    }
}

/// The passwords this process sent in `AUTH` ([`sent`]), which [`hide_sent`] hides.
static SENT: Mutex<Vec<Vec<u8>>> = Mutex::new(Vec::new());

/// Notes `password` as sent in `AUTH`, before it is, so that whatever a server answers is
/// hidden from then on ([`hide_sent`]).
pub(crate) fn sent(password: &[u8]) {
    if let Ok(mut sent) = SENT.lock() {
        if !sent.iter().any(|p| p == password) {
            sent.push(password.to_vec());
        }
    }
}

/// `message`, words that quote a server's answer (why it is malformed: a `CLUSTER NODES`
/// line, a field of `CLUSTER SHARDS`), with every word (between spaces) that holds a
/// password this process sent, or a part of it ([`holds`]), as `***`; where a part spans
/// words, the whole is left out. The words of a server's error replies are cut to their code
/// instead ([`hide`]). Not for slotgen's whole messages: a password `pass` would hide their
/// word `password`.
///
/// # Examples
///
/// ```
/// use slotgen_cluster::transport::hide_sent;
///
/// // nothing sent by this process: the line as it is
/// assert_eq!(hide_sent("the line `S3cr3tPw` has no id"), "the line `S3cr3tPw` has no id");
/// ```
#[must_use]
pub fn hide_sent(message: &str) -> String {
    let Ok(sent) = SENT.lock() else {
        return message.to_owned();
    };
    let held = |text: &str| sent.iter().any(|p| holds(p, text.as_bytes()));
    if !held(message) {
        return message.to_owned();
    }
    let words: Vec<&str> = message
        .split(' ')
        .map(|word| if held(word) { "***" } else { word })
        .collect();
    let hidden = words.join(" ");
    if held(&hidden) {
        "(the message is left out: it holds letters of the password sent)".to_owned()
    } else {
        hidden
    }
}

#[cfg(test)]
mod hide_tests {
    use super::hide;

    /// Where the server's words hold the password, only their code is kept: a newcomer read
    /// `username-***word` and knew the password was `pass`, and `WRONGPASS ***` that it was
    /// `invalid`.
    #[test]
    fn a_password_is_hidden_without_telling_its_letters() {
        let wrongpass = "WRONGPASS invalid username-password pair or user is disabled.";
        let auth = "ERR AUTH s3cret called without any password configured for the default user";
        let left_out =
            "(the rest of the server's words is left out: it holds the letters of the password sent)";
        for (password, text, code) in [
            // the code too holds `pass`, in another case: left out with the rest
            (&b"pass"[..], wrongpass, ""),
            (b"password", wrongpass, ""),
            (b"invalid", wrongpass, "WRONGPASS "),
            (b"s3cret", auth, "ERR "),
            (b"WRONGPASS", "WRONGPASS invalid", ""),
        ] {
            assert_eq!(hide(Some(password), text), format!("{code}{left_out}"));
        }
        assert_eq!(hide(None, wrongpass), wrongpass);
        assert_eq!(hide(Some(b"x7"), wrongpass), wrongpass);
    }

    /// A part of the password (8 of 10 letters, 4 in a row, another case) is hidden as the
    /// whole is: a break28 server answered `-ERR S3cr3tP` to `AUTH S3cr3tPw!x`.
    #[test]
    fn a_part_of_the_password_is_hidden() {
        let left_out =
            "(the rest of the server's words is left out: it holds the letters of the password sent)";
        for text in [
            "ERR S3cr3tP",
            "ERR Target instance replied with error: S3cr3tPw failed",
            "ERR s3CR",
            "ERR xxtPw!x",
        ] {
            assert_eq!(
                hide(Some(b"S3cr3tPw!x"), text),
                format!("ERR {left_out}"),
                "{text}"
            );
        }
        // three letters in a row tell little, and are common
        assert_eq!(hide(Some(b"S3cr3tPw!x"), "ERR S3c r3t"), "ERR S3c r3t");
        assert!(super::holds(b"abc", b"xxABCxx"));
        assert!(!super::holds(b"", b"anything"));
    }
}

impl Endpoint {
    /// `url` with `options`.
    ///
    /// # Errors
    ///
    /// [`ServerError::Url`] for a text that is not a `redis://`, `rediss://` or `unix://`
    /// URL, [`ServerError::Tls`] for TLS settings that cannot be used.
    pub(crate) fn new(url: &str, options: &ConnectOptions) -> Result<Endpoint, ServerError> {
        let shown = redact(url);
        let mut info = crate::url::read(url).map_err(|reason| ServerError::Url {
            url: shown.clone(),
            reason,
        })?;
        let tls_url = matches!(info.addr, ConnectionAddr::TcpTls { .. });
        let tls = match (&info.addr, &options.tls) {
            (ConnectionAddr::Unix(_), Some(_)) => {
                return Err(ServerError::Tls {
                    url: shown,
                    error: TlsError::Unix,
                })
            }
            (ConnectionAddr::TcpTls { insecure, .. }, given) => {
                let mut tls = given.clone().unwrap_or_default();
                // `rediss://host#insecure`, as the `redis` crate reads it
                tls.insecure |= *insecure;
                Some(tls)
            }
            (_, given) => given.clone(),
        };
        if let ConnectionAddr::TcpTls { host, port, .. } = &info.addr {
            info.addr = ConnectionAddr::Tcp(host.clone(), *port);
        }
        if let Some(user) = &options.user {
            info.redis.username = Some(user.clone());
        }
        let url_password = info.redis.password.take().map(String::into_bytes);
        let password = options.password.clone().or(url_password);
        let tls = match tls {
            Some(tls) => Some(Arc::new(TlsClient::new(&tls).map_err(|error| {
                ServerError::Tls {
                    url: shown.clone(),
                    error,
                }
            })?)),
            None => None,
        };
        // A `redis://` URL with TLS is shown as `rediss://`, so that messages say which.
        let shown = if tls.is_some() && !tls_url {
            match shown.split_once("://") {
                Some((_, rest)) => format!("rediss://{rest}"),
                None => shown,
            }
        } else {
            shown
        };
        Ok(Endpoint {
            info,
            password,
            tls,
            shown,
        })
    }

    /// Another node of the same cluster, at `host:port` (`addr` as the cluster's map gives
    /// it): the same TLS client, user, password and database.
    pub(crate) fn node(&self, host: &str, port: u16, addr: &str) -> Endpoint {
        let scheme = if self.tls.is_some() {
            "rediss"
        } else {
            "redis"
        };
        let userinfo = match (&self.info.redis.username, &self.password) {
            (Some(user), Some(_)) => format!("{}:{HIDDEN}@", crate::text::escape(user.as_bytes())),
            (None, Some(_)) => format!(":{HIDDEN}@"),
            _ => String::new(),
        };
        Endpoint {
            info: ConnectionInfo {
                addr: ConnectionAddr::Tcp(host.to_owned(), port),
                redis: self.info.redis.clone(),
            },
            password: self.password.clone(),
            tls: self.tls.clone(),
            shown: format!("{scheme}://{userinfo}{addr}"),
        }
    }

    /// The ACL user that messages name: the one given, or `default`.
    pub(crate) fn user(&self) -> &str {
        self.info.redis.username.as_deref().unwrap_or("default")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_without_a_known_scheme_are_refused_saying_why() {
        let options = ConnectOptions::default();
        for (url, why) in [
            (
                "127.0.0.1:7000",
                "it has no scheme: `redis://127.0.0.1:7000` names that address",
            ),
            (
                "localhost:7000",
                "it has no scheme: `redis://localhost:7000` names that address",
            ),
            (
                "http://127.0.0.1:7000",
                "the scheme `http` is not one of them",
            ),
        ] {
            match Endpoint::new(url, &options) {
                Err(ServerError::Url { url: shown, reason }) => {
                    assert_eq!((shown.as_str(), reason.as_str()), (url, why));
                }
                other => panic!("{url}: {other:?}"),
            }
        }
    }

    #[test]
    fn options_take_the_place_of_the_url_and_tls_shows() {
        let options = ConnectOptions {
            user: Some("app".to_owned()),
            password: Some(b"s3cret\xff".to_vec()),
            tls: Some(TlsOptions {
                insecure: true,
                ..TlsOptions::default()
            }),
        };
        let endpoint = Endpoint::new("redis://old:pw@127.0.0.1:7000", &options).unwrap();
        assert_eq!(endpoint.shown, "rediss://old:***@127.0.0.1:7000");
        assert_eq!(endpoint.user(), "app");
        assert_eq!(endpoint.password.as_deref(), Some(&b"s3cret\xff"[..]));
        assert_eq!(endpoint.info.redis.password, None);
        let node = endpoint.node("127.0.0.1", 7001, "127.0.0.1:7001");
        assert_eq!(node.shown, "rediss://app:***@127.0.0.1:7001");
        assert!(node.tls.is_some());
        let plain = Endpoint::new("redis://127.0.0.1:7000", &ConnectOptions::default()).unwrap();
        assert!(plain.tls.is_none());
        assert_eq!(plain.user(), "default");
        assert!(
            Endpoint::new("rediss://h:1#insecure", &ConnectOptions::default())
                .unwrap()
                .tls
                .is_some()
        );
    }
}
