//! [`ConnectOptions`]: how to reach a server beyond its URL (TLS, user, password), and what
//! a URL and the options make together ([`Endpoint`]).

use std::fmt;
use std::sync::Arc;

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
