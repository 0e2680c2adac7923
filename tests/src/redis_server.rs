//! Real `redis-server` processes for tests: one cluster-enabled node on a unix socket in a
//! temporary directory ([`RedisServer`]), or a three-master cluster on loopback ports
//! ([`RedisCluster`]). Each process is killed and reaped when its guard drops, also when the
//! test panics. Every wait is bounded.

use std::ffi::OsString;
use std::io;
use std::net::{Ipv4Addr, TcpListener};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

use redis::ConnectionLike;

use crate::tls::ServerTls;

/// How long a server may take to accept connections.
const START_TIMEOUT: Duration = Duration::from_secs(20);
/// How long a cluster may take to agree that its state is ok.
const CLUSTER_TIMEOUT: Duration = Duration::from_secs(60);
/// How long one answer may take.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(30);

/// A free TCP port on the loopback address, as the kernel hands one out. Another process may
/// take it before it is used; [`RedisServer::start`] retries when that happens.
///
/// # Panics
///
/// When no port can be bound on 127.0.0.1.
#[must_use]
pub fn free_port() -> u16 {
    TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
        .and_then(|l| l.local_addr())
        .expect("a free loopback port")
        .port()
}

/// The primary of every slot, `host:port`, by `CLUSTER SLOTS` on `con`: 16384 entries, an
/// empty string for a slot no node serves. The one reader of that answer for the tests.
///
/// # Panics
///
/// When the server refuses `CLUSTER SLOTS` or its answer is not of that command's shape.
#[must_use]
pub fn slot_owners(con: &mut redis::Connection) -> Vec<String> {
    let ranges: Vec<redis::Value> = redis::cmd("CLUSTER")
        .arg("SLOTS")
        .query(con)
        .expect("CLUSTER SLOTS");
    let mut owners = vec![String::new(); 16384];
    for range in ranges {
        // [first, last, [host, port, id, ...], replicas...]
        let redis::Value::Array(fields) = range else {
            panic!("a CLUSTER SLOTS entry that is no array: {range:?}")
        };
        let first: u16 = redis::from_redis_value(&fields[0]).expect("a first slot");
        let last: u16 = redis::from_redis_value(&fields[1]).expect("a last slot");
        let redis::Value::Array(primary) = &fields[2] else {
            panic!("a CLUSTER SLOTS primary that is no array: {:?}", fields[2])
        };
        let host: String = redis::from_redis_value(&primary[0]).expect("a host");
        let port: u16 = redis::from_redis_value(&primary[1]).expect("a port");
        owners[usize::from(first)..=usize::from(last)].fill(format!("{host}:{port}"));
    }
    owners
}

/// One `redis-server` process, listening on a unix socket in its own temporary directory and
/// on a loopback TCP port, with persistence off (unless the extra arguments turn it on).
/// Killed and waited for on drop.
pub struct RedisServer {
    child: Child,
    /// The program and its command line, to start it again ([`RedisServer::start_again`]).
    command: (String, Vec<OsString>),
    /// The TCP port on 127.0.0.1.
    pub port: u16,
    /// The cluster bus port on 127.0.0.1, when cluster-enabled.
    pub bus_port: Option<u16>,
    /// The unix socket.
    pub socket: PathBuf,
    dir: tempfile::TempDir,
    /// The password the server requires (`requirepass`), if any.
    password: Option<String>,
}

impl RedisServer {
    /// Starts a server, cluster-enabled or not, and waits until it answers `PING` on its
    /// socket. Retries twice when it exits at once (a port taken meanwhile).
    ///
    /// # Errors
    ///
    /// When `redis-server` cannot be spawned, or exits, or does not answer within 20 s; the
    /// error carries the end of its log.
    pub fn start(cluster: bool) -> io::Result<Self> {
        Self::start_program("redis-server", cluster, None)
    }

    /// As [`start`](Self::start), with another server program of the same command line
    /// (`valkey-server`), and with `requirepass` (and `masterauth`) set to `password`.
    ///
    /// # Errors
    ///
    /// As [`start`](Self::start).
    pub fn start_program(program: &str, cluster: bool, password: Option<&str>) -> io::Result<Self> {
        Self::start_with(program, cluster, password, None, &[])
    }

    /// As [`start_program`](Self::start_program), with TLS on [`port`](Self::port) (and no
    /// plain TCP port) when `tls` is given (the unix socket stays plain), and more arguments
    /// of the server's command line (such as `--cluster-node-timeout 1000`; without it the
    /// server's default node timeout, 15 s, applies).
    ///
    /// # Errors
    ///
    /// As [`start`](Self::start).
    pub fn start_with(
        program: &str,
        cluster: bool,
        password: Option<&str>,
        tls: Option<&ServerTls>,
        extra: &[&str],
    ) -> io::Result<Self> {
        let mut last = None;
        for _ in 0..3 {
            match Self::start_once(program, cluster, password, tls, extra) {
                Ok(server) => return Ok(server),
                Err(e) => last = Some(e),
            }
        }
        Err(last.expect("three attempts"))
    }

    fn start_once(
        program: &str,
        cluster: bool,
        password: Option<&str>,
        tls: Option<&ServerTls>,
        extra: &[&str],
    ) -> io::Result<Self> {
        let dir = tempfile::Builder::new().prefix("slotgen-redis").tempdir()?;
        let socket = dir.path().join("redis.sock");
        let port = free_port();
        let bus_port = cluster.then(free_port);
        let mut args: Vec<OsString> = ["--bind", "127.0.0.1"].map(OsString::from).to_vec();
        match tls {
            Some(tls) => args.extend(tls.args(port)),
            None => args.extend(["--port".into(), port.to_string().into()]),
        }
        args.extend(["--unixsocket".into(), socket.clone().into_os_string()]);
        args.extend(["--dir".into(), dir.path().as_os_str().to_owned()]);
        args.extend(
            [
                "--save",
                "",
                "--appendonly",
                "no",
                "--daemonize",
                "no",
                "--logfile",
                "redis.log",
            ]
            .map(OsString::from),
        );
        if let Some(bus_port) = bus_port {
            args.extend(
                [
                    "--cluster-enabled",
                    "yes",
                    "--cluster-config-file",
                    "nodes.conf",
                    "--cluster-port",
                    &bus_port.to_string(),
                ]
                .map(OsString::from),
            );
        }
        if let Some(password) = password {
            args.extend(["--requirepass", password, "--masterauth", password].map(OsString::from));
        }
        args.extend(extra.iter().map(OsString::from));
        let command = (program.to_owned(), args);
        let child = spawn(&command, dir.path())?;
        let mut server = Self {
            child,
            command,
            port,
            bus_port,
            socket,
            dir,
            password: password.map(str::to_owned),
        };
        server.wait_ready()?;
        Ok(server)
    }

    /// Starts the server again once its process has ended (killed by a test's `kill -9`): the
    /// same program and command line, in the same directory, so with the same data files
    /// (`nodes.conf`, and the AOF or RDB file where the extra arguments turned persistence
    /// on) and on the same ports; waits until it answers `PING` on its socket, as
    /// [`start`](Self::start) does. The cluster's other nodes are not waited for.
    ///
    /// # Errors
    ///
    /// When the process is still running 10 s after the call (a signalled process ends
    /// asynchronously: its sockets close before it can be reaped, so a client may see it gone
    /// first), or the server cannot be spawned, or exits, or does not answer within 20 s (its
    /// address taken meanwhile); the error carries the end of its log.
    pub fn start_again(&mut self) -> io::Result<()> {
        let deadline = Instant::now() + Duration::from_secs(10);
        while self.child.try_wait()?.is_none() {
            if Instant::now() > deadline {
                return Err(io::Error::other(format!(
                    "the server on port {} is still running 10 s on: end it before starting it again",
                    self.port
                )));
            }
            sleep(Duration::from_millis(20));
        }
        self.child = spawn(&self.command, self.dir.path())?;
        self.wait_ready()
    }

    fn wait_ready(&mut self) -> io::Result<()> {
        let deadline = Instant::now() + START_TIMEOUT;
        loop {
            if let Some(status) = self.child.try_wait()? {
                return Err(io::Error::other(format!(
                    "the server exited with {status}: {}",
                    self.log_tail()
                )));
            }
            if let Ok(mut con) = self.try_connect() {
                if con.check_connection() {
                    return Ok(());
                }
            }
            if Instant::now() > deadline {
                return Err(io::Error::other(format!(
                    "the server did not answer within {START_TIMEOUT:?}: {}",
                    self.log_tail()
                )));
            }
            sleep(Duration::from_millis(20));
        }
    }

    /// The server's log, as written so far (empty when there is none).
    #[must_use]
    pub fn log(&self) -> String {
        std::fs::read_to_string(self.dir.path().join("redis.log")).unwrap_or_default()
    }

    /// The last lines of the server's log (5), for error messages.
    #[must_use]
    pub fn log_tail(&self) -> String {
        let log = self.log();
        let lines: Vec<&str> = log.lines().collect();
        lines[lines.len().saturating_sub(5)..].join("\n")
    }

    /// `unix:///path/to/redis.sock`.
    #[must_use]
    pub fn unix_url(&self) -> String {
        format!("unix://{}", self.socket.display())
    }

    /// `redis://127.0.0.1:PORT`.
    #[must_use]
    pub fn tcp_url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }

    fn try_connect(&self) -> redis::RedisResult<redis::Connection> {
        let url = match &self.password {
            Some(password) => format!("{}?pass={password}", self.unix_url()),
            None => self.unix_url(),
        };
        let client = redis::Client::open(url)?;
        let con = client.get_connection_with_timeout(Duration::from_secs(2))?;
        con.set_read_timeout(Some(ANSWER_TIMEOUT))?;
        con.set_write_timeout(Some(ANSWER_TIMEOUT))?;
        Ok(con)
    }

    /// A connection over the unix socket, with 30 s read and write timeouts.
    ///
    /// # Panics
    ///
    /// When the server does not accept it.
    #[must_use]
    pub fn connect(&self) -> redis::Connection {
        self.try_connect().unwrap_or_else(|e| {
            panic!(
                "connecting to {}: {e}; {}",
                self.unix_url(),
                self.log_tail()
            )
        })
    }

    /// The server's `CLUSTER KEYSLOT` answer for every key, in one pipeline.
    ///
    /// # Panics
    ///
    /// When the server refuses a query or answers with anything but a slot.
    #[must_use]
    pub fn keyslots<K: AsRef<[u8]>>(&self, keys: &[K]) -> Vec<u16> {
        let mut pipe = redis::pipe();
        for key in keys {
            pipe.cmd("CLUSTER").arg("KEYSLOT").arg(key.as_ref());
        }
        let answers: Vec<u16> = pipe
            .query(&mut self.connect())
            .unwrap_or_else(|e| panic!("CLUSTER KEYSLOT: {e}"));
        assert_eq!(answers.len(), keys.len());
        answers
    }
}

/// `program args` started in `dir`, with no standard input or output.
fn spawn((program, args): &(String, Vec<OsString>), dir: &std::path::Path) -> io::Result<Child> {
    Command::new(program)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
}

impl RedisServer {
    /// The server's process id.
    #[must_use]
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Stops the server: kills its process (by its own id) and waits for it.
    pub fn stop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Three cluster-enabled masters on loopback ports that hold the 16384 slots in three
/// ranges, as `redis-cli --cluster create` splits them: `0-5460`, `5461-10922`,
/// `10923-16383`. Assigned with `CLUSTER ADDSLOTSRANGE` and joined with `CLUSTER MEET`.
pub struct RedisCluster {
    /// The masters, in slot order.
    pub nodes: Vec<RedisServer>,
}

/// The slot ranges of the three masters, inclusive.
pub const RANGES: [(u16, u16); 3] = [(0, 5460), (5461, 10922), (10923, 16383)];

impl RedisCluster {
    /// Starts three masters, assigns their slots, joins them, and waits (60 s at most) until
    /// every node reports `cluster_state:ok` and knows all three.
    ///
    /// # Errors
    ///
    /// When a server does not start, a command is refused, or the cluster does not settle.
    pub fn start() -> io::Result<Self> {
        let nodes = (0..3)
            .map(|_| RedisServer::start(true))
            .collect::<io::Result<Vec<_>>>()?;
        let cluster = Self { nodes };
        let fail = |e: redis::RedisError| io::Error::other(e.to_string());
        for (node, &(first, last)) in cluster.nodes.iter().zip(&RANGES) {
            redis::cmd("CLUSTER")
                .arg("ADDSLOTSRANGE")
                .arg(first)
                .arg(last)
                .query::<()>(&mut node.connect())
                .map_err(fail)?;
        }
        let mut first = cluster.nodes[0].connect();
        for node in &cluster.nodes[1..] {
            redis::cmd("CLUSTER")
                .arg("MEET")
                .arg("127.0.0.1")
                .arg(node.port)
                .arg(node.bus_port.expect("cluster-enabled"))
                .query::<()>(&mut first)
                .map_err(fail)?;
        }
        let deadline = Instant::now() + CLUSTER_TIMEOUT;
        loop {
            let settled = cluster.nodes.iter().all(|node| {
                let info: String = redis::cmd("CLUSTER")
                    .arg("INFO")
                    .query(&mut node.connect())
                    .unwrap_or_default();
                let has = |line: &str| info.lines().any(|l| l.trim() == line);
                has("cluster_state:ok") && has("cluster_known_nodes:3")
            });
            if settled {
                return Ok(cluster);
            }
            if Instant::now() > deadline {
                return Err(io::Error::other(format!(
                    "the cluster did not reach cluster_state:ok within {CLUSTER_TIMEOUT:?}"
                )));
            }
            sleep(Duration::from_millis(100));
        }
    }

    /// The master that holds `slot`.
    ///
    /// # Panics
    ///
    /// When `slot` is 16384 or more.
    #[must_use]
    pub fn owner(&self, slot: u16) -> &RedisServer {
        let i = RANGES
            .iter()
            .position(|&(first, last)| (first..=last).contains(&slot))
            .expect("a slot below 16384");
        &self.nodes[i]
    }
}

/// A cluster of three primaries, each with `replicas` replicas (0 or more), of `redis-server`
/// or `valkey-server`, on loopback ports: the primaries hold [`RANGES`], assigned with
/// `CLUSTER ADDSLOTSRANGE`; every node is joined with `CLUSTER MEET`, and the replicas follow
/// their primary with `CLUSTER REPLICATE`. Every process is stopped by its own id on drop.
pub struct ReplicatedCluster {
    /// The primaries, in slot order.
    pub primaries: Vec<RedisServer>,
    /// The replicas: `replicas[i]` follow `primaries[i]`.
    pub replicas: Vec<Vec<RedisServer>>,
    /// The password every node requires, if any.
    pub password: Option<String>,
}

impl ReplicatedCluster {
    /// Starts the cluster and waits (60 s at most) until every node reports
    /// `cluster_state:ok`, knows every other node with its role, and every replica's link
    /// to its primary is up.
    ///
    /// # Errors
    ///
    /// When a server does not start, a command is refused, or the cluster does not settle.
    pub fn start(program: &str, replicas: usize, password: Option<&str>) -> io::Result<Self> {
        Self::start_with(program, replicas, password, None, &[])
    }

    /// As [`start`](Self::start), every node with TLS on its port when `tls` is given
    /// (`tls-cluster` and `tls-replication` too: see [`ServerTls`]), and more arguments of
    /// every server's command line (such as `--cluster-node-timeout 1000`, for a failover
    /// within seconds; without it the server's default, 15 s, applies).
    ///
    /// # Errors
    ///
    /// As [`start`](Self::start).
    pub fn start_with(
        program: &str,
        replicas: usize,
        password: Option<&str>,
        tls: Option<&ServerTls>,
        extra: &[&str],
    ) -> io::Result<Self> {
        Self::start_each([program; 3], replicas, password, tls, extra)
    }

    /// As [`start_with`](Self::start_with), primary `i` and its replicas of `programs[i]`:
    /// a cluster of two servers (Valkey 9.1 and 8.0, as one being upgraded is).
    ///
    /// # Errors
    ///
    /// As [`start`](Self::start).
    pub fn start_each(
        programs: [&str; 3],
        replicas: usize,
        password: Option<&str>,
        tls: Option<&ServerTls>,
        extra: &[&str],
    ) -> io::Result<Self> {
        let start = |i: usize| RedisServer::start_with(programs[i], true, password, tls, extra);
        let primaries = (0..3).map(start).collect::<io::Result<Vec<_>>>()?;
        let replicas = (0..3)
            .map(|i| (0..replicas).map(|_| start(i)).collect())
            .collect::<io::Result<Vec<Vec<_>>>>()?;
        let cluster = Self {
            primaries,
            replicas,
            password: password.map(str::to_owned),
        };
        let fail = |e: redis::RedisError| io::Error::other(e.to_string());
        for (node, &(first, last)) in cluster.primaries.iter().zip(&RANGES) {
            redis::cmd("CLUSTER")
                .arg("ADDSLOTSRANGE")
                .arg(first)
                .arg(last)
                .query::<()>(&mut node.connect())
                .map_err(fail)?;
        }
        let mut first = cluster.primaries[0].connect();
        for node in cluster.nodes().skip(1) {
            redis::cmd("CLUSTER")
                .arg("MEET")
                .arg("127.0.0.1")
                .arg(node.port)
                .arg(node.bus_port.expect("cluster-enabled"))
                .query::<()>(&mut first)
                .map_err(fail)?;
        }
        let total = cluster.nodes().count();
        cluster.wait_until("every node knows every other", |info, _| {
            info.contains(&format!("cluster_known_nodes:{total}"))
        })?;
        for (primary, replicas) in cluster.primaries.iter().zip(&cluster.replicas) {
            let id = primary.node_id();
            for replica in replicas {
                redis::cmd("CLUSTER")
                    .arg("REPLICATE")
                    .arg(&id)
                    .query::<()>(&mut replica.connect())
                    .map_err(fail)?;
            }
        }
        let expected = (3, cluster.replicas.iter().map(Vec::len).sum::<usize>());
        cluster.wait_until(
            "the cluster is ok with every replica linked",
            |info, node| {
                let roles = node.roles();
                let linked = !node.is_replica()
                    || node
                        .info("replication")
                        .lines()
                        .any(|l| l.trim() == "master_link_status:up");
                info.lines().any(|l| l.trim() == "cluster_state:ok") && roles == expected && linked
            },
        )?;
        Ok(cluster)
    }

    /// The primaries, then the replicas.
    pub fn nodes(&self) -> impl Iterator<Item = &RedisServer> {
        self.primaries.iter().chain(self.replicas.iter().flatten())
    }

    /// Asserts that no primary has a slot migrating or importing (`CLUSTER NODES`), then
    /// waits (60 s at most) until every node's `cluster_state` is `ok`: the state a slot
    /// move must leave.
    ///
    /// # Panics
    ///
    /// When a slot is in migration, or the state is not `ok` in time.
    pub fn assert_settled(&self) {
        for primary in &self.primaries {
            let nodes = primary.cluster_nodes();
            assert!(
                !nodes.contains("->-") && !nodes.contains("-<-"),
                "a slot in migration: {nodes}"
            );
        }
        self.wait_until("the cluster is ok", |info, _| {
            info.lines().any(|l| l.trim() == "cluster_state:ok")
        })
        .unwrap();
    }

    /// Waits (60 s at most) until `settled(CLUSTER INFO, node)` holds for every node.
    ///
    /// # Errors
    ///
    /// When it does not hold in time; the error names `what`.
    pub fn wait_until(
        &self,
        what: &str,
        settled: impl Fn(&str, &RedisServer) -> bool,
    ) -> io::Result<()> {
        let deadline = Instant::now() + CLUSTER_TIMEOUT;
        loop {
            let all = self.nodes().all(|node| {
                let info: String = redis::cmd("CLUSTER")
                    .arg("INFO")
                    .query(&mut node.connect())
                    .unwrap_or_default();
                settled(&info, node)
            });
            if all {
                return Ok(());
            }
            if Instant::now() > deadline {
                return Err(io::Error::other(format!(
                    "not within {CLUSTER_TIMEOUT:?}: {what}"
                )));
            }
            sleep(Duration::from_millis(100));
        }
    }

    /// A URL of the first primary, over TCP, with the password if there is one.
    #[must_use]
    pub fn url(&self) -> String {
        let node = &self.primaries[0];
        match &self.password {
            Some(password) => format!("redis://:{password}@127.0.0.1:{}", node.port),
            None => node.tcp_url(),
        }
    }
}

impl RedisServer {
    /// `CLUSTER MYID`.
    ///
    /// # Panics
    ///
    /// When the server refuses it.
    #[must_use]
    pub fn node_id(&self) -> String {
        redis::cmd("CLUSTER")
            .arg("MYID")
            .query(&mut self.connect())
            .unwrap_or_else(|e| panic!("CLUSTER MYID: {e}"))
    }

    /// `INFO section`, or an empty string when the server refuses it.
    #[must_use]
    pub fn info(&self, section: &str) -> String {
        redis::cmd("INFO")
            .arg(section)
            .query(&mut self.connect())
            .unwrap_or_default()
    }

    /// Whether this node is a replica, by its own `CLUSTER NODES` line.
    #[must_use]
    pub fn is_replica(&self) -> bool {
        self.cluster_nodes().lines().any(|line| {
            let flags = line.split(' ').nth(2).unwrap_or("");
            flags.contains("myself") && (flags.contains("slave") || flags.contains("replica"))
        })
    }

    /// The primaries and the replicas this node knows, by `CLUSTER NODES`, counting only
    /// nodes that are not failing.
    #[must_use]
    pub fn roles(&self) -> (usize, usize) {
        let text = self.cluster_nodes();
        let flags = || {
            text.lines()
                .map(|line| line.split(' ').nth(2).unwrap_or("").to_owned())
                .filter(|flags| !flags.contains("fail"))
        };
        let primaries = flags().filter(|f| f.contains("master")).count();
        let replicas = flags()
            .filter(|f| f.contains("slave") || f.contains("replica"))
            .count();
        (primaries, replicas)
    }

    /// `CLUSTER NODES`, or an empty string when the server refuses it.
    #[must_use]
    pub fn cluster_nodes(&self) -> String {
        redis::cmd("CLUSTER")
            .arg("NODES")
            .query(&mut self.connect())
            .unwrap_or_default()
    }
}
