//! TLS under [`Connection`](super::Connection), with rustls (the ring provider): the client
//! configuration made once from [`TlsOptions`] and used for every node, the handshake
//! within the connection's deadline, and [`TlsError`], what a failed handshake means in
//! plain words.
//!
//! The `redis` crate's own TLS connection (its `tls-rustls` feature, enabled only so that
//! `rediss://` URLs parse) is a synchronous stream with a timeout per read, no deadline over
//! a whole exchange and no budget on a reply; so the socket stays ours, and rustls runs on
//! it the same way the crate would (`rustls::StreamOwned` over a `TcpStream`).

use std::fmt;
use std::io;
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::{verify_tls12_signature, verify_tls13_signature, CryptoProvider};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName, UnixTime};
use rustls::{CertificateError, ClientConfig, ClientConnection, DigitallySignedStruct};

/// How to speak TLS to a cluster: the settings of redis-cli's `--tls` options. Every node
/// of the cluster is reached with the same settings.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct TlsOptions {
    /// PEM file of the certificates of the CAs to trust (redis-cli's `--cacert`); `None`:
    /// the system's trusted roots (`rustls-native-certs`).
    pub ca_file: Option<PathBuf>,
    /// PEM file of the client's certificate (and its chain), for a server started with
    /// `tls-auth-clients yes` (`--cert`). Needs [`key_file`](Self::key_file).
    pub cert_file: Option<PathBuf>,
    /// PEM file of the client certificate's private key (`--key`).
    pub key_file: Option<PathBuf>,
    /// The name the server's certificate must hold, and the one sent as SNI (`--sni`);
    /// `None`: the host of each node's address.
    pub sni: Option<String>,
    /// Accept any certificate, unchecked (`--insecure`): the connection is encrypted but
    /// anyone on the way can read it.
    pub insecure: bool,
}

/// A file of [`TlsOptions`], as [`TlsError::File`] names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum TlsFile {
    /// [`TlsOptions::ca_file`].
    Ca,
    /// [`TlsOptions::cert_file`].
    Cert,
    /// [`TlsOptions::key_file`].
    Key,
}

impl fmt::Display for TlsFile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TlsFile::Ca => "CA certificate file",
            TlsFile::Cert => "client certificate file",
            TlsFile::Key => "client key file",
        })
    }
}

/// What is wrong with a server's certificate.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum CertificateProblem {
    /// Its validity ended: `not_after` in seconds since 1970 (UTC), `None` when not known.
    Expired {
        /// The end of its validity, seconds since the Unix epoch.
        not_after: Option<u64>,
    },
    /// Its validity has not begun.
    NotValidYet,
    /// It is not valid for the name checked (the node's host, or [`TlsOptions::sni`]).
    NotValidForName {
        /// The name checked.
        expected: String,
        /// The names it holds (its subject alternative names), escaped: the first 8.
        presented: Vec<String>,
        /// How many more names it holds than `presented` lists.
        more: usize,
    },
    /// It was not issued by a trusted CA.
    UnknownIssuer,
    /// It is a CA's certificate (basic constraints `CA:TRUE`), which a server may not
    /// present as its own (webpki's `CaUsedAsEndEntity`).
    CaUsedAsEndEntity,
    /// Another reason, as rustls gives it.
    Other(String),
}

impl fmt::Display for CertificateProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CertificateProblem::Expired { not_after: Some(t) } => write!(
                f,
                "has expired (it was valid until {}): renew it",
                utc_date(*t)
            ),
            CertificateProblem::Expired { not_after: None } => f.write_str("has expired: renew it"),
            CertificateProblem::NotValidYet => {
                f.write_str("is not valid yet: check the clocks of this machine and of the server")
            }
            CertificateProblem::NotValidForName {
                expected,
                presented,
                more,
            } => {
                let mut names = if presented.is_empty() {
                    "no name".to_owned()
                } else {
                    presented
                        .iter()
                        .map(|n| format!("`{n}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                if *more > 0 {
                    names += &format!(", and {more} more");
                }
                write!(
                    f,
                    "is not valid for the name `{expected}` (it holds {names}): connect by a name it holds, or check it against one of them (SNI)"
                )
            }
            CertificateProblem::UnknownIssuer => f.write_str(
                "was not issued by a trusted CA (unknown issuer): trust the CA that issued it",
            ),
            CertificateProblem::CaUsedAsEndEntity => f.write_str(
                "is a CA's certificate (`CA:TRUE`), which a server may not present as its own: give the server a certificate that a CA issued for it (its `tls-cert-file`, with `CA:FALSE`), and trust that CA",
            ),
            CertificateProblem::Other(reason) => write!(f, "is refused: {reason}"),
        }
    }
}

/// Why TLS with a server failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TlsError {
    /// A file of the [`TlsOptions`] cannot be used.
    #[error("the {what} `{path}` cannot be used: {reason}")]
    File {
        /// Which file.
        what: TlsFile,
        /// Its path, as given (lossy UTF-8, escaped).
        path: String,
        /// Why: the operating system's reason, or what the file lacks.
        reason: String,
    },
    /// A client certificate without its key, or a key without its certificate.
    #[error("a client certificate needs both its certificate file and its key file")]
    HalfClientCertificate,
    /// TLS settings for a unix socket, which is never TLS.
    #[error("TLS applies to TCP connections, not to a unix socket")]
    Unix,
    /// The server's certificate is not accepted.
    #[error("the server's certificate {0}")]
    Certificate(CertificateProblem),
    /// The server refused the client's certificate, or wants one and none was given.
    #[error("the server refused the client certificate ({reason}): the server wants one its CA signed (`tls-auth-clients`)")]
    ClientCertificate {
        /// The alert received.
        reason: String,
    },
    /// The other end does not speak TLS (a plain port).
    #[error(
        "the server does not speak TLS there ({reason}): give a `redis://` URL for a plain port"
    )]
    NotTls {
        /// What came instead.
        reason: String,
    },
    /// The handshake failed otherwise.
    #[error("the TLS handshake failed: {reason}")]
    Handshake {
        /// rustls's reason.
        reason: String,
    },
}

/// The TLS client made from [`TlsOptions`]: one configuration for every node.
#[derive(Debug)]
pub(crate) struct TlsClient {
    config: Arc<ClientConfig>,
    sni: Option<String>,
}

impl TlsClient {
    /// Reads the files of `options` and makes the configuration.
    pub(crate) fn new(options: &TlsOptions) -> Result<Self, TlsError> {
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let builder = ClientConfig::builder_with_provider(Arc::clone(&provider))
            .with_safe_default_protocol_versions()
            .map_err(|e| TlsError::Handshake {
                reason: e.to_string(),
            })?;
        let builder = if options.insecure {
            builder
                .dangerous()
                .with_custom_certificate_verifier(Arc::new(AnyCertificate(provider)))
        } else {
            let mut roots = rustls::RootCertStore::empty();
            match &options.ca_file {
                Some(path) => {
                    for cert in read_certs(path, TlsFile::Ca)? {
                        roots.add(cert).map_err(|e| TlsError::File {
                            what: TlsFile::Ca,
                            path: crate::text::path(path),
                            reason: e.to_string(),
                        })?;
                    }
                }
                None => {
                    // Unreadable system certificates are left out; an empty store fails
                    // every handshake with "unknown issuer", which names the fix.
                    for cert in rustls_native_certs::load_native_certs().certs {
                        let _ = roots.add(cert);
                    }
                }
            }
            builder.with_root_certificates(roots)
        };
        let config = match (&options.cert_file, &options.key_file) {
            (None, None) => builder.with_no_client_auth(),
            (Some(cert), Some(key)) => {
                let chain = read_certs(cert, TlsFile::Cert)?;
                let pem = read_file(key, TlsFile::Key)?;
                let key_der = PrivateKeyDer::from_pem_slice(&pem).map_err(|e| TlsError::File {
                    what: TlsFile::Key,
                    path: crate::text::path(key),
                    reason: if encrypted(&pem) {
                        let shown = crate::text::path(key);
                        format!("it is encrypted (a passphrase guards it), which slotgen cannot read: decrypt it with `openssl pkey -in {shown} -out {shown}.plain` (it asks for the passphrase) and give that file, kept private")
                    } else {
                        pem_reason(&e, "no private key")
                    },
                })?;
                let v1 = x509_v1(&chain[0]);
                builder
                    .with_client_auth_cert(chain, key_der)
                    .map_err(|e| match e {
                        rustls::Error::InconsistentKeys(_) => TlsError::File {
                            what: TlsFile::Key,
                            path: crate::text::path(key),
                            reason: format!(
                                "it is not the key of the client certificate `{}`",
                                crate::text::path(cert)
                            ),
                        },
                        // rustls (webpki) reads X.509 v3 only: UnsupportedCertVersion
                        rustls::Error::InvalidCertificate(_) if v1 => TlsError::File {
                            what: TlsFile::Cert,
                            path: crate::text::path(cert),
                            reason: V1_CERTIFICATE.to_owned(),
                        },
                        rustls::Error::InvalidCertificate(_) => TlsError::File {
                            what: TlsFile::Cert,
                            path: crate::text::path(cert),
                            reason: crate::text::escape_text(&e.to_string()),
                        },
                        e => TlsError::File {
                            what: TlsFile::Key,
                            path: crate::text::path(key),
                            reason: crate::text::escape_text(&e.to_string()),
                        },
                    })?
            }
            _ => return Err(TlsError::HalfClientCertificate),
        };
        Ok(TlsClient {
            config: Arc::new(config),
            sni: options.sni.clone(),
        })
    }

    /// Runs the handshake with the server at `host` over `tcp`, each step within the time
    /// left before `deadline` ([`super::time_left`]).
    pub(crate) fn handshake(
        &self,
        host: &str,
        mut tcp: TcpStream,
        deadline: Option<Instant>,
    ) -> Result<rustls::StreamOwned<ClientConnection, TcpStream>, HandshakeError> {
        let name = self.sni.as_deref().unwrap_or(host);
        let name = ServerName::try_from(name.to_owned()).map_err(|_| {
            HandshakeError::Tls(TlsError::Handshake {
                reason: format!(
                    "`{}` is neither a DNS name nor an IP address",
                    crate::text::escape(name.as_bytes())
                ),
            })
        })?;
        let mut tls = ClientConnection::new(Arc::clone(&self.config), name).map_err(|e| {
            HandshakeError::Tls(TlsError::Handshake {
                reason: e.to_string(),
            })
        })?;
        while tls.is_handshaking() {
            let left = super::time_left(deadline).ok_or(HandshakeError::TimedOut)?;
            tcp.set_read_timeout(Some(left))
                .map_err(HandshakeError::Io)?;
            tcp.set_write_timeout(Some(left))
                .map_err(HandshakeError::Io)?;
            match tls.complete_io(&mut tcp) {
                Ok(_) => {}
                Err(e) => return Err(classify(e)),
            }
        }
        Ok(rustls::StreamOwned::new(tls, tcp))
    }
}

/// Why a handshake failed: TLS's reason, the deadline, or the socket.
#[derive(Debug)]
pub(crate) enum HandshakeError {
    Tls(TlsError),
    TimedOut,
    Io(io::Error),
}

/// A handshake's error: rustls's error inside the `io::Error`, or the socket's.
fn classify(e: io::Error) -> HandshakeError {
    if let Some(tls) = rustls_error(&e) {
        return HandshakeError::Tls(tls);
    }
    match e.kind() {
        io::ErrorKind::TimedOut | io::ErrorKind::WouldBlock => HandshakeError::TimedOut,
        io::ErrorKind::UnexpectedEof
        | io::ErrorKind::ConnectionReset
        | io::ErrorKind::ConnectionAborted => HandshakeError::Tls(TlsError::NotTls {
            reason: "it closed the connection during the handshake".to_owned(),
        }),
        _ => HandshakeError::Io(e),
    }
}

/// The [`TlsError`] of rustls's error carried by `e`, if it carries one (a failed
/// handshake, or an alert received later: TLS 1.3 servers refuse a client certificate
/// after the client's side of the handshake is done).
pub(crate) fn rustls_error(e: &io::Error) -> Option<TlsError> {
    let inner = e.get_ref()?.downcast_ref::<rustls::Error>()?;
    Some(match inner {
        rustls::Error::InvalidCertificate(c) => TlsError::Certificate(problem(c)),
        rustls::Error::AlertReceived(alert) => {
            use rustls::AlertDescription as A;
            match alert {
                A::CertificateRequired
                | A::BadCertificate
                | A::UnknownCA
                | A::CertificateUnknown
                | A::CertificateExpired
                | A::CertificateRevoked
                | A::UnsupportedCertificate
                | A::AccessDenied => TlsError::ClientCertificate {
                    reason: format!("alert {alert:?}"),
                },
                _ => TlsError::Handshake {
                    reason: format!("the server sent alert {alert:?}"),
                },
            }
        }
        rustls::Error::InvalidMessage(_) | rustls::Error::InappropriateMessage { .. } => {
            TlsError::NotTls {
                reason: "its answer is not a TLS record".to_owned(),
            }
        }
        other => TlsError::Handshake {
            reason: other.to_string(),
        },
    })
}

fn problem(e: &CertificateError) -> CertificateProblem {
    match e {
        CertificateError::Expired => CertificateProblem::Expired { not_after: None },
        CertificateError::ExpiredContext { not_after, .. } => CertificateProblem::Expired {
            not_after: Some(not_after.as_secs()),
        },
        CertificateError::NotValidYet | CertificateError::NotValidYetContext { .. } => {
            CertificateProblem::NotValidYet
        }
        CertificateError::NotValidForName => CertificateProblem::NotValidForName {
            expected: "?".to_owned(),
            presented: Vec::new(),
            more: 0,
        },
        CertificateError::NotValidForNameContext {
            expected,
            presented,
        } => CertificateProblem::NotValidForName {
            expected: crate::text::escape(expected.to_str().as_bytes()),
            more: presented.len().saturating_sub(NAMES_SHOWN),
            presented: presented
                .iter()
                .take(NAMES_SHOWN)
                .map(|n| {
                    crate::text::shorten(&crate::text::escape(presented_name(n).as_bytes()), 80)
                })
                .collect(),
        },
        CertificateError::UnknownIssuer => CertificateProblem::UnknownIssuer,
        // webpki's errors that rustls has no variant for
        CertificateError::Other(e)
            if matches!(
                e.0.downcast_ref::<webpki::Error>(),
                Some(webpki::Error::CaUsedAsEndEntity)
            ) =>
        {
            CertificateProblem::CaUsedAsEndEntity
        }
        other => CertificateProblem::Other(crate::text::escape_text(&format!("{other:?}"))),
    }
}

/// A name as rustls presents it (`DnsName("localhost")`, `IpAddress(127.0.0.1)`, the
/// `Debug` form of webpki's general names), as the certificate holds it: `localhost`.
fn presented_name(name: &str) -> &str {
    for (open, close) in [
        ("DnsName(\"", "\")"),
        ("IpAddress(", ")"),
        ("UriName(\"", "\")"),
    ] {
        if let Some(inner) = name.strip_prefix(open).and_then(|n| n.strip_suffix(close)) {
            return inner;
        }
    }
    name
}

/// Whether `pem` holds an encrypted private key: PKCS #8 (`BEGIN ENCRYPTED PRIVATE KEY`)
/// or OpenSSL's older form (`Proc-Type: 4,ENCRYPTED`), which rustls does not read.
fn encrypted(pem: &[u8]) -> bool {
    let has = |what: &[u8]| pem.windows(what.len()).any(|w| w == what);
    has(b"-----BEGIN ENCRYPTED PRIVATE KEY-----") || has(b"Proc-Type: 4,ENCRYPTED")
}

fn pem_reason(e: &rustls::pki_types::pem::Error, missing: &str) -> String {
    match e {
        rustls::pki_types::pem::Error::Io(io) => crate::text::os_reason(io),
        rustls::pki_types::pem::Error::NoItemsFound => format!("{missing} in it (PEM)"),
        other => format!("not PEM: {other:?}"),
    }
}

/// The most names of a certificate that a message lists ([`CertificateProblem::NotValidForName`]).
const NAMES_SHOWN: usize = 8;

/// Why an X.509 v1 certificate is refused, and how to reissue it: what the common
/// `openssl x509 -req` recipe makes from a request without extensions, and what
/// redis-cli and valkey-cli (OpenSSL) accept.
const V1_CERTIFICATE: &str = "it is an X.509 v1 certificate (one without extensions, as `openssl x509 -req` makes from a request without them), and the TLS library here (rustls) takes X.509 v3 only: reissue it as v3 by giving `openssl x509 -req` extensions, `-extfile FILE` where FILE holds `basicConstraints=CA:FALSE` (or `-copy_extensions copy` with a request made with `-addext`), from the same request and CA";

/// Whether `der` is an X.509 v1 certificate: its `TBSCertificate` (RFC 5280, section
/// 4.1) has no `[0] EXPLICIT` version field (tag `0xA0`), which v2 and v3 certificates
/// carry. Only a diagnosis of a certificate rustls refused; `false` for anything that is
/// not a DER `SEQUENCE` in a `SEQUENCE`.
fn x509_v1(der: &[u8]) -> bool {
    // the offset of the contents of the DER element at `at`, a SEQUENCE (tag 0x30)
    let contents = |at: usize| -> Option<usize> {
        if *der.get(at)? != 0x30 {
            return None;
        }
        let length = *der.get(at + 1)?;
        Some(if length < 0x80 {
            at + 2
        } else {
            at + 2 + usize::from(length & 0x7f)
        })
    };
    contents(0)
        .and_then(contents)
        .and_then(|tbs| der.get(tbs))
        .is_some_and(|&tag| tag != 0xA0)
}

/// The bytes of a file of [`TlsOptions`], through the one bounded reader.
fn read_file(path: &Path, what: TlsFile) -> Result<Vec<u8>, TlsError> {
    use slotgen::user_file::{read_small, MAX_PEM_BYTES, WAIT};
    read_small(path, MAX_PEM_BYTES, WAIT).map_err(|e| TlsError::File {
        what,
        path: crate::text::path(path),
        reason: e.to_string(),
    })
}

fn read_certs(path: &Path, what: TlsFile) -> Result<Vec<CertificateDer<'static>>, TlsError> {
    let fail = |reason: String| TlsError::File {
        what,
        path: crate::text::path(path),
        reason,
    };
    let certs = CertificateDer::pem_slice_iter(&read_file(path, what)?)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| fail(pem_reason(&e, "no certificate")))?;
    if certs.is_empty() {
        return Err(fail("no certificate in it (PEM)".to_owned()));
    }
    Ok(certs)
}

/// `2020-01-02 00:00:00 UTC` for seconds since the Unix epoch (the proleptic Gregorian
/// calendar, by Howard Hinnant's `civil_from_days`).
fn utc_date(secs: u64) -> String {
    let days = i64::try_from(secs / 86_400).unwrap_or(i64::MAX / 2);
    let rest = secs % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}:{:02} UTC",
        rest / 3600,
        rest / 60 % 60,
        rest % 60
    )
}

/// `--insecure`: every certificate is accepted; signatures of the handshake are still
/// checked, so that the connection is at least with the holder of the certificate's key.
#[derive(Debug)]
struct AnyCertificate(Arc<CryptoProvider>);

impl ServerCertVerifier for AnyCertificate {
    fn verify_server_cert(
        &self,
        _end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls12_signature(
            message,
            cert,
            dss,
            &self.0.signature_verification_algorithms,
        )
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls13_signature(
            message,
            cert,
            dss,
            &self.0.signature_verification_algorithms,
        )
    }

    fn supported_verify_schemes(&self) -> Vec<rustls::SignatureScheme> {
        self.0.signature_verification_algorithms.supported_schemes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_read_as_the_calendar_does() {
        // `date -u -d @0`, `@1577923200`, `@951782400` (a leap day), `@4102444799`
        assert_eq!(utc_date(0), "1970-01-01 00:00:00 UTC");
        assert_eq!(utc_date(1_577_923_200), "2020-01-02 00:00:00 UTC");
        assert_eq!(utc_date(951_782_400), "2000-02-29 00:00:00 UTC");
        assert_eq!(utc_date(4_102_444_799), "2099-12-31 23:59:59 UTC");
    }

    /// A client key under a passphrase is named so, with the command that decrypts it: it
    /// was "no private key in it (PEM)", though the file holds one.
    #[test]
    fn an_encrypted_client_key_is_named_with_how_to_decrypt_it() {
        let dir = std::env::temp_dir().join(format!("slotgen-enc-key-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (cert, key) = (dir.join("c.pem"), dir.join("k.pem"));
        let openssl = std::process::Command::new("openssl")
            .args([
                "req", "-x509", "-newkey", "rsa:2048", "-days", "1", "-subj", "/CN=c",
            ])
            .args(["-passout", "pass:s3cret", "-keyout"])
            .arg(&key)
            .arg("-out")
            .arg(&cert)
            .output()
            .unwrap();
        assert!(openssl.status.success(), "{openssl:?}");
        assert!(encrypted(&std::fs::read(&key).unwrap()));
        let options = TlsOptions {
            cert_file: Some(cert),
            key_file: Some(key.clone()),
            insecure: true,
            ..TlsOptions::default()
        };
        let said = TlsClient::new(&options).err().unwrap().to_string();
        let shown = crate::text::path(&key);
        assert!(
            said.contains(&format!("it is encrypted (a passphrase guards it), which slotgen cannot read: decrypt it with `openssl pkey -in {shown} -out {shown}.plain`")),
            "{said}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn problems_say_why_and_the_fix() {
        let name = CertificateProblem::NotValidForName {
            expected: "127.0.0.1".to_owned(),
            presented: vec!["other.example".to_owned()],
            more: 0,
        };
        assert_eq!(
            TlsError::Certificate(name).to_string(),
            "the server's certificate is not valid for the name `127.0.0.1` (it holds `other.example`): connect by a name it holds, or check it against one of them (SNI)"
        );
        // a list cut says so (break28: 2003 names, 8 listed, and no word of the rest)
        let many = CertificateProblem::NotValidForName {
            expected: "h".to_owned(),
            presented: vec!["a".to_owned(); 8],
            more: 1995,
        };
        let said = TlsError::Certificate(many).to_string();
        assert!(
            said.contains("`a`, `a`, and 1995 more): connect by"),
            "{said}"
        );
        assert_eq!(presented_name("DnsName(\"localhost\")"), "localhost");
        assert_eq!(presented_name("IpAddress(127.0.0.1)"), "127.0.0.1");
        assert!(TlsError::Certificate(CertificateProblem::UnknownIssuer)
            .to_string()
            .contains("trust the CA that issued it"));
    }
}
