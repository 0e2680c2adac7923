//! Certificates for TLS tests, made by the `openssl` program in a temporary directory: a CA,
//! a server certificate for `127.0.0.1` and `localhost`, a client certificate, one whose
//! name does not match (`other.example` only), and an expired one (valid 2020-01-01 to
//! 2020-01-02, signed with `openssl ca`, which takes dates), and an X.509 v1 client
//! certificate made by the common recipe (`openssl x509 -req` of a request without
//! extensions).

use std::io;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// A certificate and its private key, PEM files.
#[derive(Clone, Debug)]
pub struct Pair {
    /// The certificate.
    pub cert: PathBuf,
    /// Its private key.
    pub key: PathBuf,
}

/// The certificates of a test, in their own temporary directory (removed on drop).
pub struct Certs {
    /// The CA's certificate, which signed every other.
    pub ca: PathBuf,
    /// For `127.0.0.1` and `localhost`, valid for two days from now.
    pub server: Pair,
    /// A client's, for `tls-auth-clients yes`.
    pub client: Pair,
    /// For `other.example` only.
    pub wrong_name: Pair,
    /// For `127.0.0.1`, valid from 2020-01-01 00:00:00 to 2020-01-02 00:00:00 UTC.
    pub expired: Pair,
    /// A client's, X.509 v1: `openssl x509 -req -in client-v1.csr -CA ca.pem -CAkey ca.key
    /// -CAcreateserial -days 2 -out client-v1.pem`, its request made without `-addext`
    /// (both files are in [`dir`](Self::dir), beside `ca.pem` and `ca.key`).
    pub client_v1: Pair,
    _dir: tempfile::TempDir,
}

/// The end of the expired certificate's validity, as `openssl x509 -enddate` gives it.
pub const EXPIRED_UNTIL: &str = "2020-01-02 00:00:00 UTC";

impl Certs {
    /// Makes them all (P-256 keys).
    ///
    /// # Errors
    ///
    /// When `openssl` cannot be run or fails; the error carries its standard error.
    pub fn make() -> io::Result<Self> {
        let dir = tempfile::Builder::new().prefix("slotgen-tls").tempdir()?;
        let d = dir.path();
        let ec = [
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:prime256v1",
            "-nodes",
        ];
        openssl(
            d,
            &[
                &["req", "-x509"],
                &ec[..],
                &["-keyout", "ca.key", "-out", "ca.pem"],
                &["-days", "2", "-subj", "/CN=slotgen test CA"],
            ]
            .concat(),
        )?;
        let request = |name: &str, san: &str| -> io::Result<()> {
            let (key, csr) = (format!("{name}.key"), format!("{name}.csr"));
            openssl(
                d,
                &[
                    &["req"],
                    &ec[..],
                    &["-keyout", &key, "-out", &csr],
                    &[
                        "-subj",
                        &format!("/CN={name}"),
                        "-addext",
                        &format!("subjectAltName={san}"),
                    ],
                ]
                .concat(),
            )
        };
        let sign = |name: &str| -> io::Result<Pair> {
            openssl(
                d,
                &[
                    "x509",
                    "-req",
                    "-in",
                    &format!("{name}.csr"),
                    "-CA",
                    "ca.pem",
                    "-CAkey",
                    "ca.key",
                    "-CAcreateserial",
                    "-days",
                    "2",
                    "-copy_extensions",
                    "copy",
                    "-out",
                    &format!("{name}.pem"),
                ],
            )?;
            Ok(pair(d, name))
        };
        request("server", "IP:127.0.0.1,DNS:localhost")?;
        request("client", "DNS:slotgen-client")?;
        request("wrong-name", "DNS:other.example")?;
        request("expired", "IP:127.0.0.1,DNS:localhost")?;
        let server = sign("server")?;
        let client = sign("client")?;
        let wrong_name = sign("wrong-name")?;
        // `openssl ca` takes a start and an end date; `openssl x509 -days` only a length.
        std::fs::write(
            d.join("ca.cnf"),
            "[ca]\ndefault_ca = d\n[d]\ndatabase = index.txt\nnew_certs_dir = .\nserial = serial\ndefault_md = sha256\npolicy = p\ncopy_extensions = copy\n[p]\ncommonName = supplied\n",
        )?;
        std::fs::write(d.join("index.txt"), "")?;
        std::fs::write(d.join("serial"), "1000\n")?;
        openssl(
            d,
            &[
                "ca",
                "-batch",
                "-config",
                "ca.cnf",
                "-cert",
                "ca.pem",
                "-keyfile",
                "ca.key",
                "-in",
                "expired.csr",
                "-out",
                "expired.pem",
                "-startdate",
                "20200101000000Z",
                "-enddate",
                "20200102000000Z",
            ],
        )?;
        // the common recipe: a request without extensions, signed without any
        openssl(
            d,
            &[
                &["req"],
                &ec[..],
                &["-keyout", "client-v1.key", "-out", "client-v1.csr"],
                &["-subj", "/CN=client-v1"],
            ]
            .concat(),
        )?;
        openssl(
            d,
            &[
                "x509",
                "-req",
                "-in",
                "client-v1.csr",
                "-CA",
                "ca.pem",
                "-CAkey",
                "ca.key",
                "-CAcreateserial",
                "-days",
                "2",
                "-out",
                "client-v1.pem",
            ],
        )?;
        Ok(Certs {
            client_v1: pair(d, "client-v1"),
            ca: d.join("ca.pem"),
            server,
            client,
            wrong_name,
            expired: pair(d, "expired"),
            _dir: dir,
        })
    }
}

impl Certs {
    /// The directory of every file, `ca.key` and the requests (`NAME.csr`) included.
    #[must_use]
    pub fn dir(&self) -> &Path {
        self._dir.path()
    }
}

/// Runs `openssl` with `args` in `dir`.
///
/// # Errors
///
/// When it cannot be run or fails; the error carries its standard error.
pub fn run_openssl(dir: &Path, args: &[&str]) -> io::Result<()> {
    openssl(dir, args)
}

fn pair(dir: &Path, name: &str) -> Pair {
    Pair {
        cert: dir.join(format!("{name}.pem")),
        key: dir.join(format!("{name}.key")),
    }
}

fn openssl(dir: &Path, args: &[&str]) -> io::Result<()> {
    let out = Command::new("openssl")
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()?;
    if out.status.success() {
        Ok(())
    } else {
        Err(io::Error::other(format!(
            "openssl {}: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr)
        )))
    }
}

/// How a test server speaks TLS: `tls-port` (and `port 0`), `tls-cluster yes`,
/// `tls-replication yes`, with these files; `auth_clients` is `tls-auth-clients`.
#[derive(Clone, Debug)]
pub struct ServerTls {
    /// The server's certificate and key.
    pub pair: Pair,
    /// The CA that the server trusts (for client certificates, and its peers').
    pub ca: PathBuf,
    /// `tls-auth-clients yes` (a client must show a certificate the CA signed) or `no`.
    pub auth_clients: bool,
}

impl ServerTls {
    /// The command-line options of a server with TLS on `port` only.
    #[must_use]
    pub fn args(&self, port: u16) -> Vec<std::ffi::OsString> {
        let mut args: Vec<std::ffi::OsString> = Vec::new();
        for arg in [
            "--port",
            "0",
            "--tls-port",
            &port.to_string(),
            "--tls-cluster",
            "yes",
        ]
        .into_iter()
        .chain(["--tls-replication", "yes", "--tls-auth-clients"])
        .chain([if self.auth_clients { "yes" } else { "no" }])
        {
            args.push(arg.into());
        }
        for (name, path) in [
            ("--tls-cert-file", &self.pair.cert),
            ("--tls-key-file", &self.pair.key),
            ("--tls-ca-cert-file", &self.ca),
        ] {
            args.push(name.into());
            args.push(path.into());
        }
        args
    }
}
