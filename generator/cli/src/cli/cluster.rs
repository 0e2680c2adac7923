//! What `slotgen nodes`, `slotgen keys`, `slotgen placement` and `slotgen load` share: the server options,
//! reading the topology, and the notes about slots in migration; and what they share with
//! `slotgen verify --redis`: how to connect ([`ConnectArgs`]: TLS, the ACL user, the
//! password) and what a refusal means in option names ([`explain`], [`tls_hint`]).

use std::collections::BTreeMap;
use std::io::{BufRead, IsTerminal, Read};
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use slotgen::text::field;
use slotgen_cluster::grant::Run;

use slotgen_cluster::transport::{CertificateProblem, ConnectOptions, TlsError, TlsOptions};
use slotgen_cluster::{
    self as cluster, LoadSource, MigrationKind, Node, SlotLoad, Source, Topology,
};

/// How to reach a cluster.
#[derive(Debug, Clone, Args)]
pub struct ServerArgs {
    /// A node of the cluster: `redis://HOST:PORT`, `rediss://HOST:PORT` (TLS),
    /// `redis://USER:PASSWORD@HOST:PORT` or `unix:///path/to/socket`. The other primaries
    /// are reached at the addresses the cluster gives, with the same TLS settings, user and
    /// password. Passwords are never printed (but one in the URL is visible to other users
    /// of the machine, in `ps`: prefer --askpass or --password-file).
    #[arg(long, value_name = "URL")]
    pub redis: String,
    #[command(flatten)]
    pub connect: ConnectArgs,
    #[command(flatten)]
    pub timeout: TimeoutArgs,
}

impl ServerArgs {
    /// The connection options for `--redis` ([`ConnectArgs::options`]), a password file
    /// read within `--timeout`.
    ///
    /// # Errors
    ///
    /// As [`ConnectArgs::options`].
    pub fn options(&self, stdin_taken: Option<&str>) -> Result<ConnectOptions> {
        self.connect
            .options(&self.redis, stdin_taken, self.timeout.get())
    }
}

/// The environment variable that holds a password, as redis-cli reads it.
pub const PASSWORD_VARIABLE: &str = "REDISCLI_AUTH";

/// Where this run's password came from, set by [`ConnectArgs::options`], so that a refusal
/// of it names its source: a password a user forgot they had set (`REDISCLI_AUTH` in a
/// shell's profile) is refused with no other clue.
static PASSWORD_SOURCE: std::sync::OnceLock<&'static str> = std::sync::OnceLock::new();

/// `; the password sent came from SOURCE`, for a refused password; empty when none was
/// sent.
fn password_source() -> String {
    PASSWORD_SOURCE
        .get()
        .map(|source| format!("; the password sent came from {source}"))
        .unwrap_or_default()
}

/// How to connect to a server beyond its URL: redis-cli's TLS options, the ACL user, and
/// where the password comes from (never a visible argument, but in the URL).
#[derive(Debug, Clone, Args)]
pub struct ConnectArgs {
    /// Speak TLS, also with a `redis://` URL (`rediss://` always does).
    #[arg(long, requires = "redis")]
    pub tls: bool,
    /// With TLS: a PEM file of the CA certificates to trust (default: the system's).
    #[arg(long, value_name = "FILE", requires = "redis")]
    pub cacert: Option<PathBuf>,
    /// With TLS: a PEM file of the client certificate, for a server with
    /// `tls-auth-clients yes` (with --key).
    #[arg(long, value_name = "FILE", requires_all = ["redis", "key"])]
    pub cert: Option<PathBuf>,
    /// With TLS: a PEM file of the client certificate's private key (with --cert).
    #[arg(long, value_name = "FILE", requires_all = ["redis", "cert"])]
    pub key: Option<PathBuf>,
    /// With TLS: the name the servers' certificates must hold, sent as SNI (default: each
    /// node's host).
    #[arg(long, value_name = "NAME", requires = "redis")]
    pub sni: Option<String>,
    /// With TLS: accept any certificate, unchecked (encrypted, but anyone on the way can
    /// read and change the exchange).
    #[arg(long, requires = "redis")]
    pub insecure: bool,
    /// The ACL user (default: the URL's, or `default`; refused when the URL names another).
    #[arg(long, value_name = "NAME", requires = "redis")]
    pub user: Option<String>,
    /// Read the password from the terminal (not shown), or the first line of standard
    /// input when it is not a terminal.
    #[arg(long, requires = "redis", conflicts_with = "password_file")]
    pub askpass: bool,
    /// Read the password from the first line of FILE (a FIFO or a pipe such as `<(...)`
    /// within --timeout). Without either, the password is the URL's, or the environment
    /// variable REDISCLI_AUTH's, as redis-cli reads it.
    #[arg(long, value_name = "FILE", requires = "redis")]
    pub password_file: Option<PathBuf>,
}

impl ConnectArgs {
    /// The `--password-file` given, where advice run later can read it again: a regular
    /// file. A pipe (`<(...)`, `/dev/fd/63`) or a FIFO is gone or empty by then, so advice
    /// names `--askpass` or `REDISCLI_AUTH` in its place (`None` here).
    pub fn lasting_password_file(&self) -> Option<&PathBuf> {
        self.password_file
            .as_ref()
            .filter(|p| std::fs::metadata(p).is_ok_and(|m| m.is_file()))
    }

    /// The options for `url`: the TLS settings (refused without TLS), the user, and the
    /// password from --askpass, --password-file or REDISCLI_AUTH. `stdin_taken` names what
    /// standard input holds instead, for a command that reads it (`placement`'s keys).
    /// `timeout` is the run's `--timeout`, which a `--password-file` that is no regular file
    /// (a FIFO, the pipe of a shell's `<(...)`) has to give its line within.
    ///
    /// # Errors
    ///
    /// A usage error for TLS options without TLS, or two passwords; an error when the
    /// password cannot be read.
    pub fn options(
        &self,
        url: &str,
        stdin_taken: Option<&str>,
        timeout: Duration,
    ) -> Result<ConnectOptions> {
        // the URL's own rule first: a URL the connection cannot use is refused as such, not
        // for an option that its reading would make right (`--cacert` with a `rediss://` URL
        // whose password holds a `#`)
        let parts = slotgen_cluster::url::parts(url).map_err(explain)?;
        let tls_url = parts.tls;
        let given: Vec<&str> = [
            (self.cacert.is_some(), "--cacert"),
            (self.cert.is_some(), "--cert"),
            (self.key.is_some(), "--key"),
            (self.sni.is_some(), "--sni"),
            (self.insecure, "--insecure"),
        ]
        .into_iter()
        .filter_map(|(on, name)| on.then_some(name))
        .collect();
        if !given.is_empty() && !self.tls && !tls_url {
            return Err(crate::exit::usage(anyhow!(
                "{} {} to TLS only: give --tls, or a `rediss://` URL",
                given.join(", "),
                if given.len() == 1 { "applies" } else { "apply" }
            )));
        }
        let mut options = ConnectOptions::default();
        if self.tls || tls_url {
            let mut tls = TlsOptions::default();
            tls.ca_file.clone_from(&self.cacert);
            tls.cert_file.clone_from(&self.cert);
            tls.key_file.clone_from(&self.key);
            tls.sni.clone_from(&self.sni);
            tls.insecure = self.insecure;
            // `rediss://HOST#insecure`, as the `redis` client reads it, is the same
            if self.insecure || parts.insecure {
                say!(
                    "slotgen: warning: --insecure: the servers' certificates are not checked; the exchange is encrypted, but anyone on the way can read and change it"
                );
            }
            options.tls = Some(tls);
        }
        options.user.clone_from(&self.user);
        let named_db = parts.database.as_deref();
        if let Some(db) = named_db {
            return Err(crate::exit::usage(anyhow!(
                "the URL names database `{db}`, but slotgen works on every database of a cluster (database 0 on Redis, each of `cluster-databases` on Valkey 9): remove `{db}`"
            )));
        }
        let url_password = parts.password;
        let source = if self.askpass {
            Some("--askpass")
        } else if self.password_file.is_some() {
            Some("--password-file")
        } else {
            None
        };
        let url_user = parts.user.as_deref();
        if let (Some(given), Some(in_url)) = (&self.user, url_user) {
            if given != in_url {
                return Err(crate::exit::usage(anyhow!(
                    "--user `{}` and the user `{}` in the URL: give the user once",
                    slotgen::text::escape(given.as_bytes()),
                    slotgen::text::escape(in_url.as_bytes())
                )));
            }
        }
        if let (Some(source), true) = (source, url_password) {
            return Err(crate::exit::usage(anyhow!(
                "{source} and a password in the URL: give the password once"
            )));
        }
        options.password = if self.askpass {
            if let Some(what) = stdin_taken {
                return Err(crate::exit::usage(anyhow!(
                    "--askpass reads standard input, which holds {what} here: give --password-file FILE, or set {PASSWORD_VARIABLE}"
                )));
            }
            Some(ask_password()?)
        } else if let Some(path) = &self.password_file {
            Some(read_password_file(path, timeout)?)
        } else if url_password {
            None
        } else {
            // any bytes, as redis-cli sends it
            std::env::var_os(PASSWORD_VARIABLE)
                .map(std::ffi::OsString::into_encoded_bytes)
                .filter(|p| !p.is_empty())
        };
        let source = if self.askpass {
            Some("--askpass")
        } else if self.password_file.is_some() {
            Some("--password-file")
        } else if url_password {
            Some("the URL (`:PASSWORD@`)")
        } else {
            options.password.is_some().then_some(PASSWORD_VARIABLE)
        };
        if let Some(source) = source {
            // one password a run: the first source set is the one
            let _ = PASSWORD_SOURCE.set(source);
        }
        // AUTH is sent only with a password: a user without one would be taken as `default`
        let user = self.user.clone().or_else(|| parts.user.clone());
        if let (Some(user), None, false) = (user, &options.password, url_password) {
            return Err(crate::exit::usage(anyhow!(
                "user `{}` needs a password, or the server takes the connection as user `default`: give --askpass, --password-file FILE or {PASSWORD_VARIABLE}",
                slotgen::text::escape(user.as_bytes())
            )));
        }
        Ok(options)
    }
}

/// The first line of `text`, without its line break (`\n`, or `\r\n`); refused when empty.
/// A password is any bytes but a line break, as a server takes it: `AUTH` carries them
/// whole.
fn first_line(text: &[u8], from: &str) -> Result<Vec<u8>> {
    let line = text
        .split(|&b| b == b'\n' || b == b'\r')
        .next()
        .unwrap_or_default();
    if line.is_empty() {
        bail!("{from} gives an empty password: put the password on its first line");
    }
    Ok(line.to_vec())
}

/// The longest password read: ACL passwords are hashed, any length works, but a line read
/// must be bounded.
const MAX_PASSWORD: u64 = 64 * 1024;

/// The first line of the file at `path`, which a file that is not a regular one (a FIFO,
/// a pipe) has to give within `timeout`, the run's `--timeout` (the one deadline a user sets).
fn read_password_file(path: &std::path::Path, timeout: Duration) -> Result<Vec<u8>> {
    let shown = slotgen::text::path(path);
    let bytes = slotgen::user_file::read_small(path, MAX_PASSWORD, timeout).map_err(|e| {
        let more = match e {
            slotgen::user_file::FileError::TooSlow { .. } => ", or raise `--timeout`",
            _ => "",
        };
        anyhow!("cannot read --password-file {shown}: {e}{more}")
    })?;
    first_line(&bytes, &format!("--password-file {shown}"))
}

fn ask_password() -> Result<Vec<u8>> {
    if std::io::stdin().is_terminal() {
        let password = rpassword::prompt_password("Password: ").map_err(|e| {
            anyhow!(
                "cannot read the password from the terminal: {}",
                slotgen::text::os_reason(&e)
            )
        })?;
        return first_line(password.as_bytes(), "the terminal");
    }
    // a line within ASK_WAIT: the reader may stay blocked on a pipe that never writes, and
    // the run ends without it
    let (sent, line) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut line = Vec::new();
        let read = std::io::stdin()
            .lock()
            .take(MAX_PASSWORD + 1)
            .read_until(b'\n', &mut line)
            .map(|_| line);
        let _ = sent.send(read);
    });
    let line = match line.recv_timeout(ASK_WAIT) {
        Ok(read) => read.context("cannot read the password from standard input")?,
        Err(_) => bail!(
            "--askpass: standard input gave no line within {} s: pipe the password in with its line end, or give --password-file FILE",
            ASK_WAIT.as_secs()
        ),
    };
    if line.len() as u64 > MAX_PASSWORD {
        bail!(
            "--askpass: standard input holds no line end within its first {MAX_PASSWORD} bytes: a password is one line (is the right file piped in?)"
        );
    }
    first_line(&line, "--askpass (standard input)")
}

/// How long `--askpass` waits for a line on standard input that is not a terminal (a pipe
/// from a password manager may wait for its own passphrase first): 60 seconds.
const ASK_WAIT: std::time::Duration = std::time::Duration::from_secs(60);

/// What to do about a refusal, in this tool's option names: for TLS errors, a missing
/// password, a rejected one.
pub fn tls_hint(error: &TlsError) -> Option<&'static str> {
    Some(match error {
        TlsError::Certificate(CertificateProblem::UnknownIssuer) => {
            "--cacert FILE names the CA; --insecure skips the check"
        }
        TlsError::Certificate(CertificateProblem::NotValidForName { .. }) => {
            "--sni NAME names the one to check; --insecure skips the check"
        }
        TlsError::Certificate(_) => "--insecure skips the check",
        TlsError::ClientCertificate { .. } => "give it with --cert FILE --key FILE",
        TlsError::NotTls { .. } => "without --tls",
        _ => return None,
    })
}

/// Whether a TLS error is the command line's fault (a client certificate without its key,
/// TLS for a unix socket): exit 2. A file that cannot be read or used is exit 1, as for
/// every file.
pub fn tls_usage(error: &TlsError) -> bool {
    matches!(error, TlsError::HalfClientCertificate | TlsError::Unix)
}

/// The fix of a password given to a server that has none.
const REMOVE_PASSWORD: &str = "remove the password (`:PASSWORD@` of the URL, --askpass, --password-file, or the variable REDISCLI_AUTH)";

/// A cluster error with the fix in option names.
pub fn explain(e: cluster::Error) -> anyhow::Error {
    match e {
        cluster::Error::TimedOut { .. } => anyhow!("{e}: raise `--timeout`"),
        cluster::Error::Url { .. } => crate::exit::usage(e),
        cluster::Error::Tls { ref error, .. } if tls_usage(error) => crate::exit::usage(e),
        cluster::Error::Tls { ref error, .. } => match tls_hint(error) {
            Some(hint) => anyhow!("{e} ({hint})"),
            None => e.into(),
        },
        cluster::Error::NoPasswordSet { .. } => {
            anyhow!("{e}: {REMOVE_PASSWORD}{}", password_source())
        }
        cluster::Error::PasswordRejected { .. } => anyhow!("{e}{}", password_source()),
        cluster::Error::PasswordRequired { .. } => anyhow!(
            "{e}: --askpass, --password-file FILE or {PASSWORD_VARIABLE} (with --user NAME for an ACL user), or `USER:PASSWORD@` in the URL"
        ),
        e => e.into(),
    }
}

/// `run` as it is sent: for `rebalance --apply` the servers and the dialect decide (Valkey
/// 9's atomic moves and its jobs' log take commands an older server refuses in a grant):
/// the seed's dialect, asked here (the classic one when the seed does not say), tells
/// whether the servers have atomic migration; the dialect is the one `--dialect` gave
/// (`given`), else the seed's. Other runs as given.
pub fn as_sent(
    run: Run,
    given: Option<cluster::Dialect>,
    server: &ServerArgs,
    options: &ConnectOptions,
) -> Run {
    match run {
        Run::Apply(metric, ..) => {
            let seed = cluster::server_dialect(&server.redis, options, server.timeout.get())
                .map_or(cluster::Dialect::Classic, |(dialect, _)| dialect);
            Run::Apply(
                metric,
                given.unwrap_or(seed),
                seed == cluster::Dialect::Migrateslots,
            )
        }
        run => run,
    }
}

/// What a `NOPERM` refusal adds in a run of `slotgen NAME` (`run`, [`as_sent`]): every rule
/// the run sends, in one `ACL SETUSER` for the user refused, to run on every node. A user
/// cannot ask which rules it lacks (each command that would tell needs a right of its own:
/// [`slotgen_cluster::rights`]), so one grant of the whole run's rules is what lets the
/// next run go through, instead of one refusal a run.
pub fn whole_run_grant(denied: &cluster::transport::Denied, name: &str, run: Run) -> String {
    format!(
        "; `slotgen {name}` sends, as user `{}`, what `{}` grants: run it on every node (each keeps its own users) to grant the whole run at once, as a user cannot ask which of these it lacks",
        denied.user,
        run.grant(&denied.user)
    )
}

/// `e` with [`whole_run_grant`] where it is, or carries, a `NOPERM` refusal (`run` asked
/// then, as it is sent); as it was otherwise.
pub fn with_whole_run_grant(
    e: anyhow::Error,
    name: &str,
    run: impl FnOnce() -> Run,
) -> anyhow::Error {
    let grant = e
        .downcast_ref::<cluster::Error>()
        .and_then(cluster::Error::denied)
        .map(|denied| whole_run_grant(denied, name, run()));
    match grant {
        Some(grant) => anyhow!("{e:#}{grant}"),
        None => e,
    }
}

/// The deadline of the whole exchange with the cluster.
#[derive(Debug, Clone, Args)]
pub struct TimeoutArgs {
    /// The time allowed for the whole exchange with the cluster, connecting to every primary
    /// included: seconds (`10`, `0.5`), or with a unit (`500ms`, `2s`) [default: 10].
    #[arg(long, value_name = "TIME", value_parser = super::values::parse_timeout)]
    pub timeout: Option<Duration>,
}

impl TimeoutArgs {
    /// `--timeout`, or its default of 10 s.
    pub fn get(&self) -> Duration {
        self.timeout.unwrap_or(Duration::from_secs(10))
    }
}

/// Reads the topology at `url`, and notes on standard error where it came from when that
/// was not `CLUSTER SHARDS`. The nodes left out of it are noted by [`note_left_out`].
pub fn topology(url: &str, options: &ConnectOptions, timeout: Duration) -> Result<Topology> {
    let topology = Topology::fetch(url, options, timeout).map_err(explain)?;
    note_topology(url, &topology);
    Ok(topology)
}

/// Notes on standard error where `topology` came from when that was not `CLUSTER SHARDS`.
/// The nodes left out of it are noted by [`note_left_out`].
pub fn note_topology(url: &str, topology: &Topology) {
    if let Source::ClusterSlots { shards_refused } = &topology.source {
        say!(
            "slotgen: note: {} refused CLUSTER SHARDS ({shards_refused}); the map is read from CLUSTER SLOTS",
            slotgen_cluster::url::redact(url)
        );
    }
}

/// A node's health as a TSV cell: the server's word escaped, `-` where the map does not say
/// (`CLUSTER SLOTS`).
pub fn health(node: &Node) -> String {
    node.health
        .as_deref()
        .map_or_else(|| "-".to_owned(), |h| field(h.as_bytes()))
}

/// The slots of a stranded-keys note listed by number, at most.
const STRANDED_SLOTS_SHOWN: usize = 10;

/// Notes on standard error each primary that holds keys of slots it neither owns nor
/// imports ([`SlotLoad::stranded`]): its `DBSIZE` and by how much it exceeds the keys
/// counted, the slots, and the commands that give it the first slot with every key.
pub fn note_stranded(load: &SlotLoad) {
    let topology = &load.topology;
    let owners = topology.owners();
    for s in &load.stranded {
        let holder = &topology.shards[s.shard].primary;
        let keys: u64 = s.slots.iter().map(|&(_, n)| n).sum();
        let mut slots: Vec<String> = s
            .slots
            .iter()
            .take(STRANDED_SLOTS_SHOWN)
            .map(|(slot, n)| format!("slot {slot}: {n}"))
            .collect();
        if s.slots.len() > STRANDED_SLOTS_SHOWN {
            slots.push(format!(
                "{} more slots",
                s.slots.len() - STRANDED_SLOTS_SHOWN
            ));
        }
        let (first, _) = s.slots[0];
        let fix = match owners[usize::from(first)] {
            Some(o) => {
                let owner = &topology.shards[o].primary;
                format!(
                    "; to give {} slot {first} with every key, run `CLUSTER SETSLOT {first} IMPORTING {}` on it and `CLUSTER SETSLOT {first} MIGRATING {}` on {}, then `slotgen rebalance --apply`{}",
                    field(holder.addr.as_bytes()),
                    field(owner.id.as_bytes()),
                    field(holder.id.as_bytes()),
                    field(owner.addr.as_bytes()),
                    if s.slots.len() > 1 { " (the same for each slot)" } else { "" }
                )
            }
            None => String::new(),
        };
        say!(
            "slotgen: note: primary {} ({}) holds {keys} keys of slots it neither owns nor imports ({}): its DBSIZE {} is {} more than the keys of its slots ({}); no client reads them and no load counts them (a slot set `STABLE` while half moved leaves them){fix}",
            field(holder.id.as_bytes()),
            field(holder.addr.as_bytes()),
            slots.join(", "),
            s.dbsize,
            s.dbsize.saturating_sub(s.counted),
            s.counted,
        );
    }
}

/// Notes on standard error the slots that no primary owns: no load is counted for them,
/// and no plan moves them.
pub fn note_unowned(topology: &Topology) {
    let ranges = topology.unowned();
    if ranges.is_empty() {
        return;
    }
    let count: u32 = ranges.iter().map(cluster::SlotRange::len).sum();
    let args: Vec<String> = ranges
        .iter()
        .map(|r| format!("{} {}", r.first, r.last))
        .collect();
    say!(
        "slotgen: note: {count} {} {} no owner: {}; a key there is refused (CLUSTERDOWN) and no load is counted for {}; `CLUSTER ADDSLOTSRANGE {}` on a primary assigns {}",
        if count == 1 { "slot" } else { "slots" },
        if count == 1 { "has" } else { "have" },
        cluster::show_ranges(&ranges),
        if count == 1 { "it" } else { "them" },
        args.join(" "),
        if count == 1 { "it" } else { "them" },
    );
}

/// Notes on standard error that per-slot load was read by `CLUSTER COUNTKEYSINSLOT`, keys
/// only, and why.
pub fn note_load_source(url: &str, source: &LoadSource) {
    if let LoadSource::CountKeysInSlot { slot_stats_refused } = source {
        say!(
            "slotgen: note: {} refused CLUSTER SLOT-STATS ({slot_stats_refused}); keys are counted by CLUSTER COUNTKEYSINSLOT, and no other metric is known",
            slotgen_cluster::url::redact(url)
        );
    }
}

/// One line per pair of nodes moving slots: `slots 0-99 are migrating from ID (ADDR) to ID
/// (ADDR)`, from what either end reports (with `, which the map gives them to already` where
/// the move's last step reached the target alone); then one line per report that the map
/// contradicts (a node migrating a slot to itself: [`Topology::migration_doubt`]), said as a
/// report.
pub fn migration_lines(topology: &Topology) -> Vec<String> {
    let owners = topology.owners();
    let owned_by = |slot: u16, id: &str| {
        owners[usize::from(slot)].is_some_and(|i| topology.shards[i].primary.id == id)
    };
    let mut moves: BTreeMap<(&str, &str, bool), Vec<u16>> = BTreeMap::new();
    let mut doubted = Vec::new();
    for m in &topology.migrations {
        if let Some(doubt) = topology.migration_doubt(m) {
            doubted.push(format!(
                "{doubt}: that makes no sense, and `rebalance --apply` acts on no such report"
            ));
            continue;
        }
        let (from, to) = match m.kind {
            MigrationKind::Migrating => (m.node.as_str(), m.peer.as_str()),
            MigrationKind::Importing => (m.peer.as_str(), m.node.as_str()),
        };
        moves
            .entry((from, to, owned_by(m.slot, to)))
            .or_default()
            .push(m.slot);
    }
    let name = |id: &str| match topology.find(id) {
        Ok((_, node)) => format!("{id} ({})", node.addr),
        Err(_) => id.to_owned(),
    };
    moves
        .into_iter()
        .map(|((from, to, arrived), mut slots)| {
            slots.sort_unstable();
            slots.dedup();
            format!(
                "slots {} ({}) are migrating from {} to {}{}",
                cluster::show_ranges(&cluster::ranges_of(&slots)),
                slots.len(),
                name(from),
                name(to),
                if arrived {
                    ", which the map gives them to already (the move's last step reached it alone)"
                } else {
                    ""
                }
            )
        })
        .chain(doubted)
        .collect()
}

/// Notes on standard error each migration, and what is done with its slots.
/// What `load` and `rebalance` say of a slot in migration (as [`SlotLoad::fetch`] reads it).
///
/// [`SlotLoad::fetch`]: slotgen_cluster::SlotLoad::fetch
pub const MIGRATING_LOAD: &str = "their load is counted on the primary that owns them, the keys that the importing primary holds included";

pub fn note_migrations(topology: &Topology, what: &str) {
    for line in migration_lines(topology) {
        say!("slotgen: note: {line}; {what}");
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use slotgen_cluster::{
        LeftOut, Migration, MigrationKind, Node, Role, Shard, SlotRange, Source, Topology,
    };

    use super::{migration_lines, ConnectArgs};

    /// A `--password-file` that is a FIFO is read within the run's `--timeout`, not a
    /// fixed time of its own: a FIFO nobody writes is refused naming the timeout given and
    /// the option that raises it; one whose writer comes is read.
    #[test]
    fn a_fifo_password_file_is_read_within_the_timeout() {
        let dir = tempfile::tempdir().unwrap();
        // a FIFO each: the first read's thread stays blocked opening its own
        let fifo = |name: &str| {
            let path = dir.path().join(name);
            let made = std::process::Command::new("mkfifo")
                .arg(&path)
                .status()
                .unwrap();
            assert!(made.success());
            path
        };
        let args = |fifo| ConnectArgs {
            tls: false,
            cacert: None,
            cert: None,
            key: None,
            sni: None,
            insecure: false,
            user: None,
            askpass: false,
            password_file: Some(fifo),
        };
        let url = "redis://127.0.0.1:7000";
        let e = args(fifo("silent"))
            .options(url, None, Duration::from_millis(300))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("gave no end within 0.3 s") && e.ends_with("or raise `--timeout`"),
            "{e}"
        );
        // a writer that comes: the line is the password
        let written = fifo("written");
        let args = args(written.clone());
        let writer = std::thread::spawn(move || std::fs::write(written, "s3cret\n").unwrap());
        let options = args.options(url, None, Duration::from_secs(60)).unwrap();
        assert_eq!(options.password.as_deref(), Some(&b"s3cret"[..]));
        writer.join().unwrap();
    }

    /// A migration is said as one; one whose last step reached the target alone says the map
    /// gives the slot to the target; a report the map contradicts (a tester's node migrating
    /// slot 0 to itself was noted "migrating from X to X") is said as a report.
    #[test]
    fn a_migration_the_map_contradicts_is_said_as_a_report() {
        let node = |c: &str, port: u16| Node {
            id: c.repeat(40),
            addr: format!("127.0.0.1:{port}"),
            role: Role::Primary,
            health: Some("online".to_owned()),
        };
        let shard = |c: &str, port: u16, first: u16, last: u16| Shard {
            primary: node(c, port),
            replicas: Vec::new(),
            ranges: vec![SlotRange { first, last }],
        };
        let (a, b) = ("a".repeat(40), "b".repeat(40));
        let m = |slot: u16, node: &str, peer: &str| Migration {
            slot,
            kind: MigrationKind::Migrating,
            node: node.to_owned(),
            peer: peer.to_owned(),
        };
        let topology = Topology {
            shards: vec![shard("a", 7001, 0, 99), shard("b", 7002, 100, 16383)],
            left_out: Vec::<LeftOut>::new(),
            migrations: vec![m(5, &a, &b), m(6, &a, &a), m(150, &a, &b)],
            source: Source::ClusterShards,
        };
        assert_eq!(
            migration_lines(&topology),
            [
                format!("slots 5 (1) are migrating from {a} (127.0.0.1:7001) to {b} (127.0.0.1:7002)"),
                format!("slots 150 (1) are migrating from {a} (127.0.0.1:7001) to {b} (127.0.0.1:7002), which the map gives them to already (the move's last step reached it alone)"),
                format!("{a} (127.0.0.1:7001) reports slot 6 migrating to itself; the map gives slot 6 to {a} (127.0.0.1:7001): that makes no sense, and `rebalance --apply` acts on no such report"),
            ]
        );
    }
}
