//! Server URLs: what they say besides the address ([`parts`], as the `redis` client reads
//! them), and as they may be shown ([`redact`] hides the password).
//!
//! Every URL that slotgen prints (on standard output, in an error, in a report) goes through
//! [`redact`] first, so that `redis://:s3cret@host:6379` is never shown with its secret.

/// The text shown in place of a hidden password.
pub const HIDDEN: &str = "***";

/// `url` with its secrets replaced by [`HIDDEN`]: the password of the user info
/// (`redis://user:pass@host` becomes `redis://user:***@host`), the whole user info when it
/// has no `:` (a client may read `redis://s3cret@host` as a password), and the values of the
/// query parameters `pass` and `password` (`unix:///run/redis.sock?pass=s3cret`, which the
/// `redis` client reads as the password of a socket URL). Anything else is kept as given,
/// also when the text is no URL at all, so that the shown text still names what was given;
/// then, as every outside text slotgen shows, control bytes are escaped and the text is cut
/// at 200 bytes ([`slotgen::text::escape_cut`]).
///
/// # Examples
///
/// ```
/// use slotgen_cluster::url::redact;
///
/// assert_eq!(redact("redis://:s3cret@127.0.0.1:6379"), "redis://:***@127.0.0.1:6379");
/// assert_eq!(redact("redis://app:s3cret@db/0"), "redis://app:***@db/0");
/// assert_eq!(redact("unix:///tmp/r.sock?db=0&pass=s3cret"), "unix:///tmp/r.sock?db=0&pass=***");
/// assert_eq!(redact("redis://127.0.0.1:6379"), "redis://127.0.0.1:6379");
/// // control bytes escaped, as in every message
/// assert_eq!(redact("redis://h:1\x1b[2J"), r"redis://h:1\x1b[2J");
/// ```
#[must_use]
pub fn redact(url: &str) -> String {
    let (scheme, rest) = match url.find("://") {
        Some(at) => url.split_at(at + 3),
        None => ("", url),
    };
    // The user info ends at the last `@` of the whole text, not of the authority as a URL
    // parser would cut it: a password may hold `/`, `?`, `#` or `@` (`u:TOP/SECRET@h`), which
    // a URL would need escaped and users do not escape. An `@` that is not of the user info
    // (in a socket path or a query) hides a little more than needed, never less.
    let (info, after) = match rest.rfind('@') {
        Some(at) => {
            let (info, host) = rest.split_at(at);
            let user = info
                .split_once(':')
                .filter(|(user, _)| !user.contains(['/', '?', '#']))
                .map(|(user, _)| user);
            let shown = match user {
                Some(user) => format!("{user}:{HIDDEN}"),
                None => HIDDEN.to_owned(),
            };
            (shown, host)
        }
        None => (String::new(), rest),
    };
    let tail = match after.find('?') {
        Some(q) => {
            let (path, query) = after.split_at(q + 1);
            let (query, fragment) = query.split_at(query.find('#').unwrap_or(query.len()));
            let query = query
                .split('&')
                .map(|pair| match pair.split_once('=') {
                    Some((key, _)) if is_secret(key) => format!("{key}={HIDDEN}"),
                    _ => pair.to_owned(),
                })
                .collect::<Vec<_>>()
                .join("&");
            format!("{path}{query}{fragment}")
        }
        None => after.to_owned(),
    };
    crate::text::escape_cut(format!("{scheme}{info}{tail}").as_bytes())
}

/// What a server URL says besides its address, as the `redis` client reads it: for a front
/// end's checks (TLS options without TLS, a password given twice, a database named) and for
/// the options of a script that reaches the same servers. [`parts`] gives it only for a URL
/// that the connection can use, so that a front end's checks come after the URL's own rule.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Parts {
    /// A `rediss://` or `valkeys://` URL (any case): the client speaks TLS, as the
    /// connection does.
    pub tls: bool,
    /// `#insecure` at the end of a TLS URL: the client does not check the servers'
    /// certificates.
    pub insecure: bool,
    /// The user of the user info, percent-decoded.
    pub user: Option<String>,
    /// Whether it holds a password.
    pub password: bool,
    /// A database other than 0 that it names, as written for a message: `/N`, or `?db=N`
    /// (which the client reads on `unix://` URLs only, and takes silently on TCP ones),
    /// escaped.
    pub database: Option<String>,
}

/// The [`Parts`] of `url`.
///
/// # Errors
///
/// [`Error::Url`](crate::Error::Url) for a text that is no server URL the connection can
/// use, with the reason the connection gives (no scheme, another scheme, a user info cut
/// by a `/`, `?` or `#` of its password, port 0, ...).
///
/// # Examples
///
/// ```
/// use slotgen_cluster::url::parts;
///
/// let p = parts("rediss://app:s3cret@127.0.0.1:6379/2").unwrap();
/// assert!(p.tls && p.password && !p.insecure);
/// assert_eq!((p.user.as_deref(), p.database.as_deref()), (Some("app"), Some("/2")));
/// let p = parts("VALKEYS://h:1?db=3#insecure").unwrap();
/// assert!(p.tls && p.insecure && !p.password);
/// assert_eq!(p.database.as_deref(), Some("?db=3"));
/// assert_eq!(parts("redis://127.0.0.1:7000").unwrap(), Default::default());
/// // a `#` in the password ends the user info: the URL's rule, whatever else was given
/// let e = parts("rediss://op:ab#cd@127.0.0.1:7501").unwrap_err().to_string();
/// assert!(e.contains("percent-encode them in the password"), "{e}");
/// ```
pub fn parts(url: &str) -> Result<Parts, crate::Error> {
    let info = read(url).map_err(|reason| crate::Error::Url {
        url: redact(url),
        reason,
    })?;
    // TLS as the connection takes it (`transport::Endpoint`): the client's own reading
    let tls = match info.addr {
        redis::ConnectionAddr::TcpTls { insecure, .. } => Some(insecure),
        _ => None,
    };
    let query_db = redis::parse_redis_url(url).and_then(|parsed| {
        parsed
            .query_pairs()
            .find(|(name, value)| name == "db" && value != "0")
            .map(|(_, value)| format!("?db={}", crate::text::escape(value.as_bytes())))
    });
    let path_db = (info.redis.db != 0).then(|| format!("/{}", info.redis.db));
    Ok(Parts {
        tls: tls.is_some(),
        insecure: tls == Some(true),
        user: info.redis.username.clone(),
        password: info.redis.password.is_some(),
        database: query_db.or(path_db),
    })
}

/// The schemes a server URL may have (any case), as the `redis` client reads them.
const SCHEMES: [&str; 7] = [
    "redis",
    "rediss",
    "valkey",
    "valkeys",
    "unix",
    "redis+unix",
    "valkey+unix",
];

/// `url` as the `redis` client reads it, or why it cannot be used, as a message's reason
/// (what is wrong, and the way out): the one reading of a URL, for [`parts`] and for the
/// connection.
/// The query parameters a URL may hold: the database (refused later, with its own reason,
/// where it is not 0), and a socket URL's user and password, as the client reads them.
const QUERY_KEYS: [&str; 4] = ["db", "user", "pass", "password"];

pub(crate) fn read(url: &str) -> Result<redis::ConnectionInfo, String> {
    let shown = redact(url);
    let Some((scheme, rest)) = url.split_once("://") else {
        return Err(format!(
            "it has no scheme: `redis://{shown}` names that address"
        ));
    };
    let scheme = scheme.to_ascii_lowercase();
    if !SCHEMES.contains(&scheme.as_str()) {
        return Err(format!(
            "the scheme `{}` is not one of them",
            crate::text::shorten(&crate::text::escape(scheme.as_bytes()), 40)
        ));
    }
    let info = redis::IntoConnectionInfo::into_connection_info(url).map_err(|_| {
        // the user info ends at the first `/`, `?` or `#`: a password holding one cuts it
        match rest.rfind('@') {
            Some(at) if rest[..at].contains(['/', '?', '#']) => {
                "the user info before the last `@` holds `/`, `?` or `#`, which end it: \
                 percent-encode them in the password (`%2F`, `%3F`, `%23`; `%40` for `@`, `%25` for `%`), \
                 or give the password with --password-file, --askpass or REDISCLI_AUTH"
                    .to_owned()
            }
            // the client takes only a user and a password that are UTF-8 once decoded
            Some(at) if std::str::from_utf8(&percent_decoded(&rest[..at])).is_err() => {
                "the user info is not UTF-8 once percent-decoded, and the client reads a URL's \
                 user and password as text: give the password with --password-file, --askpass or \
                 REDISCLI_AUTH, which take any bytes"
                    .to_owned()
            }
            _ => "its host, port (1 to 65535), user info or path does not parse".to_owned(),
        }
    })?;
    // what the client does not read is no silent part of the URL (`?x=1`, `#frag`)
    if let Some(parsed) = redis::parse_redis_url(url) {
        // a user info without `:`: redis-cli reads it as the password, the client as a user
        // (by the text: the URL drops an empty password, `app:@`, which names a user)
        let user_info = rest.rfind('@').map_or("", |at| &rest[..at]);
        if !parsed.username().is_empty() && parsed.password().is_none() && !user_info.contains(':')
        {
            return Err(ONE_WORD_USER_INFO.to_owned());
        }
        let tls = matches!(info.addr, redis::ConnectionAddr::TcpTls { .. });
        if let Some(fragment) = parsed.fragment().filter(|f| !(tls && *f == "insecure")) {
            return Err(format!(
                "the fragment `#{}` is none the client reads: only `#insecure`, at the end of a TLS URL (better: --insecure); remove it",
                crate::text::shorten(&crate::text::escape(fragment.as_bytes()), 40)
            ));
        }
        if let Some((key, _)) = parsed
            .query_pairs()
            .find(|(key, _)| !QUERY_KEYS.contains(&key.as_ref()))
        {
            return Err(format!(
                "the query parameter `{}` is none slotgen reads (it reads `db`, and a socket URL's `user` and `pass`): remove it",
                crate::text::shorten(&crate::text::escape(key.as_bytes()), 40)
            ));
        }
    }
    if let redis::ConnectionAddr::Tcp(_, 0) | redis::ConnectionAddr::TcpTls { port: 0, .. } =
        info.addr
    {
        return Err(
            "port 0 is no server's port: a server listens on a port from 1 to 65535".to_owned(),
        );
    }
    Ok(info)
}

/// Why a user info without `:` (`redis://WORD@HOST`) is refused: clients read it two ways
/// (measured: redis-cli 7.0.15 and valkey-cli 8.0.1 send `AUTH WORD`, the password of user
/// `default`; the `redis` client reads WORD as an ACL user without a password), so either
/// reading would be a guess, and the wrong one would show a password as a user's name.
/// `default:PASSWORD@` is read alike by both, where `:PASSWORD@` is not (those redis-cli
/// and valkey-cli send it as `AUTH "" PASSWORD`, which the server refuses).
const ONE_WORD_USER_INFO: &str = "its user info has no `:`, which clients read two ways: redis-cli as the password (of user `default`), the `redis` client as an ACL user without one; \
     write `default:PASSWORD@` for a password (read alike by redis-cli), `USER:PASSWORD@` for an ACL user and its password, \
     or give the user with --user and the password with --askpass, --password-file or REDISCLI_AUTH";

/// `text` with each `%XX` (two hex digits) turned into its byte, as a URL's user info is
/// read; anything else kept.
fn percent_decoded(text: &str) -> Vec<u8> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(byte)) => {
                out.push(byte);
                i += 3;
            }
            (byte, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    out
}

fn is_secret(key: &str) -> bool {
    ["pass", "password"]
        .iter()
        .any(|secret| key.eq_ignore_ascii_case(secret))
}

/// `url` at `addr`, another node of its cluster (`host:port` or `[v6]:port`, as the map
/// gives a node's address): the same scheme, user, password, database and options, for a
/// run that reads the map through a live node when the one given stopped answering; `None`
/// for a socket URL (`unix://`), which names no host, and for an address that is no
/// `host:port`.
pub(crate) fn at(url: &str, addr: &str) -> Option<String> {
    let mut parsed = redis::parse_redis_url(url)?;
    if parsed.scheme().contains("unix") {
        return None;
    }
    let (host, port) = addr.rsplit_once(':')?;
    parsed.set_host(Some(host)).ok()?;
    parsed.set_port(Some(port.parse().ok()?)).ok()?;
    Some(parsed.to_string())
}

#[cfg(test)]
mod tests {
    use super::{at, parts, read, redact};

    #[test]
    fn parts_as_the_client_reads_them() {
        // a percent-encoded user is decoded; an empty one is none
        let parts = |url| parts(url).unwrap();
        assert_eq!(parts("redis://a%40b:pw@h:1").user.as_deref(), Some("a@b"));
        assert_eq!(parts("redis://:pw@h:1").user, None);
        assert!(parts("redis://:pw@h:1").password);
        // the database of a socket URL's query, and `db=0` is no database named
        assert_eq!(
            parts("unix:///tmp/r.sock?db=4").database.as_deref(),
            Some("?db=4")
        );
        assert_eq!(parts("redis://h:1?db=0").database, None);
        assert_eq!(parts("redis://h:1/0").database, None);
    }

    #[test]
    fn a_url_that_cannot_be_used_says_why() {
        let reason = |url| match parts(url) {
            Err(crate::Error::Url { reason, .. }) => reason,
            other => panic!("{url}: {other:?}"),
        };
        assert!(reason("h:1").starts_with("it has no scheme: `redis://h:1`"));
        // a `#`, `/` or `?` in the password ends the user info, TLS or not
        for url in [
            "rediss://op:ab#cd@127.0.0.1:7501",
            "rediss://op:ab/cd@127.0.0.1:7501",
            "redis://op:ab?cd@127.0.0.1:7501",
        ] {
            assert!(reason(url).contains("percent-encode them"), "{url}");
        }
        // `%FF` decodes to a byte that is not UTF-8, which the client refuses
        assert!(reason("redis://op:a%FFb@127.0.0.1:7501").contains("--password-file"));
        assert!(reason("redis://h:0").starts_with("port 0"));
        // one word before the `@`: a password to redis-cli, a user to the client; refused
        // naming both, and the fixes, which parse as a password and as a user with one
        for url in [
            "redis://s3cret@h:1",
            "rediss://s3cret@h:1",
            "valkey://s%3Acret@h:1",
        ] {
            let why = reason(url);
            assert!(why.contains("redis-cli as the password"), "{url}: {why}");
            assert!(why.contains("as an ACL user"), "{url}: {why}");
            assert!(why.contains("`default:PASSWORD@`"), "{url}: {why}");
            let shown = parts(url).unwrap_err().to_string();
            assert!(!shown.contains("cret"), "{shown}");
        }
        let fixed = parts("redis://default:s3cret@h:1").unwrap();
        assert!(fixed.password && fixed.user.as_deref() == Some("default"));
        // an empty user info, or an explicit empty password, is no such word
        assert!(parts("redis://@h:1").is_ok());
        assert_eq!(
            parts("redis://app:@h:1").unwrap().user.as_deref(),
            Some("app")
        );
        // a part the client does not read is refused, not dropped
        assert!(reason("redis://h:1?x=1").starts_with("the query parameter `x` is none"));
        assert!(reason("redis://h:1#frag").starts_with("the fragment `#frag` is none"));
        assert!(reason("redis://h:1#insecure").starts_with("the fragment `#insecure` is none"));
        assert!(parts("rediss://h:1#insecure").is_ok());
        assert!(parts("unix:///tmp/r.sock?db=0&pass=x").is_ok());
        assert_eq!(super::percent_decoded("a%41%zz%4"), b"aA%zz%4");
    }

    #[test]
    fn secrets_never_survive() {
        for (url, shown) in [
            ("redis://:s3cret@h:1", "redis://:***@h:1"),
            ("redis://u:s3cret@h:1/2", "redis://u:***@h:1/2"),
            ("redis://s3cret@h", "redis://***@h"),
            ("redis://u:p@ss:s3cret@h", "redis://u:***@h"),
            ("redis+unix:///s?pass=s3cret", "redis+unix:///s?pass=***"),
            (
                "unix:///s?db=1&PASSWORD=s3cret#x",
                "unix:///s?db=1&PASSWORD=***#x",
            ),
            ("h:s3cret@x", "h:***@x"),
            ("rediss://u:s3cret@h:1?x=1", "rediss://u:***@h:1?x=1"),
            ("unix:///s?pass=s3cret&db=1", "unix:///s?pass=***&db=1"),
            (
                "redis+unix:///s?password=s3cret",
                "redis+unix:///s?password=***",
            ),
            ("redis://h:6379", "redis://h:6379"),
            ("", ""),
            // a password with `/`, `?`, `#` or `@`, unescaped, as users type it
            (
                "redis://app2:TOP/s3cret@127.0.0.1:1",
                "redis://app2:***@127.0.0.1:1",
            ),
            ("redis://app2:p@ss:s3cret%41@h:1", "redis://app2:***@h:1"),
            ("redis://u:a?s3cret#b@h:1/0", "redis://u:***@h:1/0"),
            ("redis://:s3cret/x@h:1", "redis://:***@h:1"),
            ("redis://s3cret/x@h:1", "redis://***@h:1"),
        ] {
            assert_eq!(redact(url), shown, "{url}");
            assert!(!redact(url).contains("s3cret"), "{url}");
        }
    }

    /// Another node's URL keeps all the given one says besides the address, as the
    /// client reads both ([`parts`], [`read`]).
    #[test]
    fn a_url_at_another_node_keeps_all_but_the_address() {
        for (url, addr, moved) in [
            (
                "redis://127.0.0.1:7000",
                "127.0.0.1:7005",
                "redis://127.0.0.1:7005",
            ),
            (
                "rediss://app:s3%40cret@h:7000/2#insecure",
                "10.0.0.5:7005",
                "rediss://app:s3%40cret@10.0.0.5:7005/2#insecure",
            ),
            (
                "VALKEY://:pw@h:1?db=3",
                "[::1]:7005",
                "valkey://:pw@[::1]:7005?db=3",
            ),
        ] {
            let moved_url = at(url, addr).unwrap();
            assert_eq!(moved_url, moved, "{url}");
            assert_eq!(parts(&moved_url).unwrap(), parts(url).unwrap(), "{url}");
            let (was, now) = (read(url).unwrap(), read(&moved_url).unwrap());
            assert_eq!(now.redis.password, was.redis.password, "{url}");
            assert_eq!(now.redis.db, was.redis.db, "{url}");
        }
        assert_eq!(at("unix:///tmp/r.sock", "127.0.0.1:7005"), None);
        assert_eq!(at("redis://h:1", "no port"), None);
    }
}
