//! The server's own CLI as the commands slotgen prints run it: which program (`valkey-cli` or
//! `redis-cli`), its connection options, and the commands that take a node out of the
//! cluster ([`Removal`]), the one place their text is built.

use std::time::Duration;

use anyhow::{anyhow, Result};
use slotgen::text::field;
use slotgen_cluster::transport::ConnectOptions;
use slotgen_cluster::{self as cluster, LeftOut, Topology};

use super::cluster::{explain, ConnectArgs, ServerArgs};

/// A cluster as the commands slotgen prints reach it: the URL given, the connection options
/// as typed (for the commands) and as read (for the one question slotgen asks here), and
/// the time allowed.
pub struct Reach<'a> {
    pub url: &'a str,
    pub connect: &'a ConnectArgs,
    pub options: &'a ConnectOptions,
    pub timeout: Duration,
}

impl ServerArgs {
    /// The cluster of `--redis` as the printed commands reach it, `options` read from these.
    pub fn reach<'a>(&'a self, options: &'a ConnectOptions) -> Reach<'a> {
        Reach {
            url: &self.redis,
            connect: &self.connect,
            options,
            timeout: self.timeout.get(),
        }
    }
}

/// The server's CLI by its `INFO server` version as [`cluster::server_dialect`] gives it
/// (`valkey 9.1.2`, `redis 7.0.15`): `valkey-cli` for Valkey, `redis-cli` otherwise.
pub fn cli_of(version: &str) -> &'static str {
    if version.starts_with("valkey") {
        "valkey-cli"
    } else {
        "redis-cli"
    }
}

/// How the printed commands reach the servers: `cli` with the connection options given
/// (`--tls` for a `rediss://` URL, `--cacert`, `--cert`, `--key`, `--sni`, `--insecure`,
/// `--user`), each quoted for `sh`, files by their absolute paths; the password never in
/// it: read from `--password-file` by the script, or required in `REDISCLI_AUTH`.
pub fn shell(url: &str, c: &ConnectArgs, cli: &str) -> Result<cluster::Shell> {
    let quote = |text: &str| -> Result<String> {
        shlex::try_quote(text).map(|q| q.into_owned()).map_err(|_| {
            crate::exit::usage(anyhow!(
                "`{}` cannot be quoted for `sh` (a NUL byte)",
                field(text.as_bytes())
            ))
        })
    };
    let parts = slotgen_cluster::url::parts(url).map_err(explain)?;
    let mut options = Vec::new();
    if c.tls || parts.tls {
        options.push("--tls".to_owned());
    }
    // a file named as given but absolute, so that the script runs from any directory
    let file = |path: &std::path::Path| -> Result<String> {
        let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_owned());
        match absolute.to_str() {
            Some(text) => quote(text),
            None => Err(crate::exit::usage(anyhow!(
                "`{}` is not UTF-8, which the script of --format commands cannot name: give a path of UTF-8 bytes",
                field(absolute.as_os_str().as_encoded_bytes())
            ))),
        }
    };
    for (name, path) in [
        ("--cacert", &c.cacert),
        ("--cert", &c.cert),
        ("--key", &c.key),
    ] {
        if let Some(path) = path {
            options.push(format!("{name} {}", file(path)?));
        }
    }
    if let Some(sni) = &c.sni {
        options.push(format!("--sni {}", quote(sni)?));
    }
    if c.insecure {
        options.push("--insecure".to_owned());
    }
    let user = c.user.clone().or(parts.user);
    if let Some(user) = &user {
        options.push(format!("--user {}", quote(user)?));
    }
    let password = if let Some(path) = c.lasting_password_file() {
        format!(
            "REDISCLI_AUTH=$(head -n 1 {})\nexport REDISCLI_AUTH",
            file(path)?
        )
    } else if c.password_file.is_some() {
        // a pipe (`<(...)`) is gone when the script runs
        ": \"${REDISCLI_AUTH:?set REDISCLI_AUTH to the cluster's password: the --password-file given was a pipe, gone by now}\"".to_owned()
    } else if c.askpass
        || parts.password
        || std::env::var_os(super::cluster::PASSWORD_VARIABLE).is_some()
    {
        ": \"${REDISCLI_AUTH:?set REDISCLI_AUTH to the cluster's password}\"".to_owned()
    } else {
        String::new()
    };
    Ok(cluster::Shell {
        cli: cli.to_owned(),
        options: options.join(" "),
        user: user.map(|u| quote(&u)).transpose()?.unwrap_or_default(),
        password,
    })
}

/// The commands that take a node out of the cluster, in the server's own CLI (by the
/// `INFO server` of the node of `--redis`, [`cli_of`]) with the options of [`shell`], each
/// seeded at a primary that serves and stays:
///
/// - a node that serves (a drained primary, which owns no slot, or a replica):
///   `CLI --cluster del-node SEED ID`. It refuses a node that owns a slot; it makes every
///   other node forget the node (`CLUSTER FORGET`) and resets it (`CLUSTER RESET SOFT`),
///   its server left running.
/// - a node the cluster marks failed, without slots ([`LeftOut::forgettable`]):
///   `CLI --cluster call SEED CLUSTER FORGET ID`, which sends `CLUSTER FORGET` to every node
///   it reaches at once (the dead one it cannot reach, and says so on stderr). Measured on
///   Redis 7.0.15, Valkey 8.0.1 and 9.1.2: `--cluster del-node` refuses such a node ("No
///   such node ID": the CLI skips a failed node when it reads the cluster), and the
///   forgetting holds (a node that forgot it refuses to learn it again from the others'
///   gossip for 60 s, and by then none gossips of it). A replica that still follows it
///   refuses ("Can't forget my master!", and `--cluster call` exits 0 all the same), goes
///   on gossiping of it, and the others learn it again after 60 s: such a replica is
///   removed first, by `del-node` (Redis 7.0 keeps the replica of a failed primary without
///   slots following it; Valkey 8.0 and 9.1 promote it).
pub struct Removal {
    /// `CLI OPTIONS`, quoted for `sh`.
    program: String,
    /// The seed's address, quoted for `sh`.
    seed: String,
    /// `, the password in `REDISCLI_AUTH`` (with how to put it there from `--password-file`),
    /// or nothing.
    password: String,
}

impl Removal {
    /// The removal commands of the cluster `reach` reaches, seeded at `seed` (`host:port` of
    /// a primary that serves and stays); one `INFO server` asked, for the CLI's name.
    pub fn new(reach: &Reach, seed: &str) -> Result<Self> {
        let (_, version) =
            cluster::server_dialect(reach.url, reach.options, reach.timeout).map_err(explain)?;
        let shell = shell(reach.url, reach.connect, cli_of(&version))?;
        let program = if shell.options.is_empty() {
            shell.cli
        } else {
            format!("{} {}", shell.cli, shell.options)
        };
        Ok(Removal {
            program,
            seed: quote(seed),
            password: match (
                reach.connect.lasting_password_file(),
                shell.password.is_empty(),
            ) {
                (_, true) => String::new(),
                // the commands are run by hand: the file's first line put there first
                (Some(file), false) => {
                    let absolute = std::path::absolute(file).unwrap_or_else(|_| file.clone());
                    format!(
                        ", the password in `REDISCLI_AUTH` (`export REDISCLI_AUTH=\"$(head -n 1 {})\"` from the --password-file)",
                        quote(&absolute.to_string_lossy())
                    )
                }
                (None, false) => ", the password in `REDISCLI_AUTH`".to_owned(),
            },
        })
    }

    /// [`Removal::new`] seeded at the first primary of `topology`, for the failed nodes it
    /// leaves out ([`LeftOut::forgettable`]); `None` where there is none to remove, or no
    /// primary to seed at, or the CLI's name cannot be asked (a note then names the node
    /// without the command).
    pub fn for_left_out(reach: &Reach, topology: &Topology) -> Option<Self> {
        if !topology.left_out.iter().any(LeftOut::forgettable) {
            return None;
        }
        let seed = &topology.shards.first()?.primary.addr;
        Removal::new(reach, seed).ok()
    }

    /// `, the password in `REDISCLI_AUTH`` when the commands need one (with how to put it
    /// there from `--password-file`), or nothing.
    pub fn password(&self) -> &str {
        &self.password
    }

    /// The command that removes the node `id`, which serves and owns no slot.
    pub fn del_node(&self, id: &str) -> String {
        format!(
            "{} --cluster del-node {} {}",
            self.program,
            self.seed,
            quote(id)
        )
    }

    /// The commands that remove the failed node `gone` ([`LeftOut::forgettable`]), in
    /// order: the `del-node` of each replica that still follows it, then the `CLUSTER
    /// FORGET` of it on every node.
    pub fn forget(&self, gone: &LeftOut) -> Vec<String> {
        gone.followers
            .iter()
            .map(|id| self.del_node(id))
            .chain(std::iter::once(format!(
                "{} --cluster call {} CLUSTER FORGET {}",
                self.program,
                self.seed,
                quote(&gone.node.id)
            )))
            .collect()
    }

    /// What removes the failed node `gone`, in words with [`Removal::forget`]'s commands,
    /// for a note that names it.
    pub fn forget_text(&self, gone: &LeftOut, topology: &Topology) -> String {
        let commands = self.forget(gone);
        let (last, first) = commands.split_last().expect("one command at least");
        let followers = if first.is_empty() {
            String::new()
        } else {
            let named: Vec<String> = gone
                .followers
                .iter()
                .zip(first)
                .map(|(id, cmd)| {
                    let addr = topology
                        .left_out
                        .iter()
                        .find(|o| o.node.id == *id)
                        .map_or_else(|| "?".to_owned(), |o| field(o.node.addr.as_bytes()));
                    format!("`{cmd}` ({addr})")
                })
                .collect();
            format!(
                "first its replicas that still follow it, which refuse to forget their primary: {}; then ",
                named.join(", ")
            )
        };
        format!(
            "once it is gone for good, {followers}`{last}`{} makes every node forget it (`--cluster del-node` cannot: it skips a failed node)",
            self.password
        )
    }
}

/// `text` as one `sh` word: ids are 40 hex digits and addresses `host:port` (checked when
/// read), quoted all the same (`[::1]:7000` is a pattern to `sh`).
fn quote(text: &str) -> String {
    shlex::try_quote(text).map_or_else(|_| field(text.as_bytes()), |q| q.into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The script reads a --password-file that is a regular file when it runs; a pipe
    /// (`<(...)`, here a FIFO) is gone by then (break28: `head -n 1 /dev/fd/63` failed, with
    /// REDISCLI_AUTH set too): the script takes REDISCLI_AUTH and says so, and runs with it.
    #[test]
    fn a_piped_password_file_is_not_read_again_by_the_script() {
        let dir = tempfile::tempdir().unwrap();
        let (file, fifo) = (dir.path().join("pw"), dir.path().join("fifo"));
        std::fs::write(&file, "s3cret\n").unwrap();
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        let args = |password_file| ConnectArgs {
            tls: false,
            cacert: None,
            cert: None,
            key: None,
            sni: None,
            insecure: false,
            user: None,
            askpass: false,
            password_file: Some(password_file),
        };
        let url = "redis://127.0.0.1:7000";
        let kept = shell(url, &args(file.clone()), "valkey-cli").unwrap();
        let read = format!("REDISCLI_AUTH=$(head -n 1 {})", file.display());
        assert!(kept.password.starts_with(&read), "{}", kept.password);
        let piped = shell(url, &args(fifo), "valkey-cli").unwrap();
        assert!(!piped.password.contains("fifo"), "{}", piped.password);
        // the line as sh runs it: refused with the way out where REDISCLI_AUTH is unset, and
        // passed where it is set
        let run = |auth: Option<&str>| {
            let mut sh = std::process::Command::new("sh");
            sh.args([
                "-c",
                &format!("{}\necho \"$REDISCLI_AUTH\"", piped.password),
            ])
            .env_remove("REDISCLI_AUTH");
            if let Some(auth) = auth {
                sh.env("REDISCLI_AUTH", auth);
            }
            sh.output().unwrap()
        };
        let unset = run(None);
        assert!(!unset.status.success());
        let said = String::from_utf8_lossy(&unset.stderr);
        assert!(
            said.contains(
                "set REDISCLI_AUTH to the cluster's password: the --password-file given was a pipe"
            ),
            "{said}"
        );
        let set = run(Some("s3cret"));
        assert!(set.status.success());
        assert_eq!(set.stdout, b"s3cret\n");
    }
}
