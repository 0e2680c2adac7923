//! The exchange of [`Topology::fetch`], on its own thread: `INFO cluster`, `CLUSTER INFO`, the
//! map (`CLUSTER SHARDS`, or `CLUSTER SLOTS`) and `CLUSTER NODES` from the node asked, then
//! `CLUSTER NODES` from every other primary that owns slots and is not failed, each command
//! with its budget, all within one deadline.

use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

use redis::{ConnectionAddr, Value};

use super::answers::{
    info_field, info_has, parse_flags, parse_nodes, parse_shards, parse_slots, parse_zones,
    split_addr, MAX_TEXT,
};
use super::node::Node;
use super::topology::{Source, Topology};
use super::{Error, MAX_NODES, SLOTS};
use crate::transport::{Budget, ConnectOptions, Connection, Denied, Endpoint, ServerError};

/// The bytes one node takes in an answer, at most. In `CLUSTER SHARDS` (RESP2, every field
/// of Redis 7.2 and Valkey 8 at its longest): its id (40), `port` and `tls-port`, `ip` (under
/// 46 bytes, `NET_IP_STR_LEN`), `endpoint` and `hostname` (under 256 each,
/// `NET_HOST_STR_LEN`), `role`, `replication-offset` (19 digits) and `health`, with the
/// field names and framing, 810 bytes, and its shard's framing (40 bytes: `slots`, `nodes`).
/// In `CLUSTER SLOTS` its entry (ip, port, id and the hostname), 450 bytes; in `CLUSTER
/// NODES` its line (id, `ip:port@cport,hostname` and auxiliary fields, flags, its primary's
/// id, ping and pong times, epoch, link state), 600 bytes or so. 1 KiB covers each, with
/// room for a field that a later server adds.
const NODE_BYTES: usize = 1024;

/// The RESP values one node takes in `CLUSTER SHARDS` or `CLUSTER SLOTS`, at most: in
/// `CLUSTER SHARDS` its map of 9 fields is 19 and its shard's framing 5; 32 leaves room for
/// 4 more fields.
const NODE_VALUES: usize = 32;

/// `SELECT db`: how the commands that read or move a slot's keys reach each database that
/// [`Exchange::databases`] counts.
pub(super) fn select(db: u32) -> redis::Cmd {
    let mut cmd = redis::cmd("SELECT");
    cmd.arg(db);
    cmd
}

/// At most this many databases are read or moved a slot: more than any server is configured
/// with (`cluster-databases` is at most 16 by default builds' limits of `databases`).
const MAX_DATABASES: u32 = 1 << 16;

/// The number of databases in `value`, a node's `cluster-databases` as `CONFIG GET` gives
/// it: 1 where the server has no such setting (`None`: Redis, Valkey before 9).
///
/// # Errors
///
/// A value that is not a whole number in 1 to [`MAX_DATABASES`], named (escaped and cut)
/// with the rule: never taken for one database, as the keys of the others would be left
/// behind.
fn parse_databases(value: Option<&[u8]>) -> Result<u32, String> {
    let Some(value) = value else { return Ok(1) };
    std::str::from_utf8(value)
        .ok()
        .filter(|s| s.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|s| s.parse().ok())
        .filter(|n| (1..=MAX_DATABASES).contains(n))
        .ok_or_else(|| {
            format!(
                "`cluster-databases` is `{}`, not a number of databases (a whole number from 1 to {MAX_DATABASES})",
                crate::text::escape_cut(value)
            )
        })
}

/// The budget of `CLUSTER INFO`: about 40 `name:value` lines in Redis 7.2 (the state, slot
/// counts, epochs, sent and received counts of each message type), under 64 bytes each:
/// 2.5 KiB. It may take 256 such lines, 16 KiB, as one string.
const CLUSTER_INFO: Budget = Budget {
    bytes: 16 * 1024 + 16,
    values: 1,
    string: 16 * 1024,
};

/// The budget of `CLUSTER SHARDS` and of `CLUSTER SLOTS`, a cluster's map, from what an answer
/// of [`MAX_NODES`] nodes takes:
/// - bytes: [`NODE_BYTES`] a node, and 24 for each of at most 16384 slot ranges (two
///   integers of up to 8 bytes, `:16383\r\n`, and a `CLUSTER SLOTS` entry's framing): 16 MiB
///   + 384 KiB, and 16 for the answer's own framing, 17,170,448 bytes;
/// - values: [`NODE_VALUES`] a node, and 3 for each slot range (its two integers, and its
///   entry in `CLUSTER SLOTS`): 524,288 + 49,152, and the answer itself, 573,441;
/// - the longest string: [`MAX_TEXT`], as long as any string read from the answer.
///
/// Held as values by the `redis` parser (56 bytes each), 573,441 values take 32 MB.
const MAP: Budget = Budget {
    bytes: MAX_NODES * NODE_BYTES + SLOTS as usize * 24 + 16,
    values: MAX_NODES * NODE_VALUES + SLOTS as usize * 3 + 1,
    string: MAX_TEXT,
};

/// The budget of `CLUSTER NODES`, one text: a line of [`NODE_BYTES`] for each of
/// [`MAX_NODES`] nodes, and on the lines at most 16384 slot ranges (` 16382-16383`, 12
/// bytes) and 16384 slots in migration (` [16383->-`, a 40-digit id, `]`: 51 bytes), 64 bytes a
/// slot for both: 16 MiB + 1 MiB, 17,825,792 bytes, and 16 for the framing.
pub(super) const CLUSTER_NODES: Budget = Budget {
    bytes: MAX_NODES * NODE_BYTES + SLOTS as usize * 64 + 16,
    values: 1,
    string: MAX_NODES * NODE_BYTES + SLOTS as usize * 64,
};

// Reading a map over the network (here, beside the exchange that asks the nodes), so that
// topology.rs, the map's types, imports neither the exchange nor the answers.
impl Topology {
    /// Reads the topology of the cluster that the node at `url` belongs to.
    ///
    /// `url` is `redis://[[USER]:PASSWORD@]HOST:PORT[/DB]`, `rediss://...` (TLS) or
    /// `unix:///PATH?pass=PASSWORD`, as the `redis` crate reads it; `options` add TLS
    /// settings, the ACL user and the password ([`ConnectOptions`]). The node answers
    /// `INFO cluster` (it must be cluster-enabled), `CLUSTER INFO` (the state must be `ok`)
    /// and `CLUSTER SHARDS`, or `CLUSTER SLOTS` when it refuses `CLUSTER SHARDS`; then every
    /// primary, reached at its address with the same TLS settings, user, password and
    /// database, answers `CLUSTER NODES` for its migrating and importing slots. Over TLS,
    /// a node's address is its `tls-port` (`tls-cluster yes`).
    ///
    /// `timeout` bounds all of it, connecting included: when it passes, this returns
    /// [`Error::TimedOut`] at once. Answers are checked before use: slots in `0..16384`, no
    /// slot owned twice, one primary per shard with slots that is not failed, node ids of 40
    /// hex digits, hosts that are IP addresses or hostnames, ports in 1..65535, at most
    /// [`MAX_NODES`](super::MAX_NODES) nodes and 1 KiB per string.
    ///
    /// # Errors
    ///
    /// [`Error::Url`], [`Error::Tls`], [`Error::Unreachable`],
    /// [`Error::NodeUnreachable`], [`Error::TimedOut`],
    /// [`Error::PasswordRequired`], [`Error::PasswordRejected`], [`Error::NoPermission`],
    /// [`Error::NotCluster`], [`Error::ClusterState`], [`Error::Refused`],
    /// [`Error::Malformed`], each naming the URL with its password redacted.
    ///
    /// # Examples
    ///
    /// A load generator's keys: 1000 for every primary, each to be sent to the node it
    /// names.
    ///
    /// ```no_run
    /// use std::time::Duration;
    /// use slotgen_cluster::{keys_over_slots, Topology};
    /// use slotgen_cluster::transport::ConnectOptions;
    ///
    /// let options = ConnectOptions::default();
    /// let topology = Topology::fetch("redis://127.0.0.1:7000", &options, Duration::from_secs(10))?;
    /// for shard in &topology.shards {
    ///     let slots = topology.usable_slots(shard, false); // no slot in migration
    ///     for (slot, key) in keys_over_slots(&slots, 1000, b"load:", b"")? {
    ///         // send `SET key ...` to shard.primary.addr
    ///         # let _ = (slot, key);
    ///     }
    /// }
    /// # Ok::<(), slotgen_cluster::Error>(())
    /// ```
    pub fn fetch(
        url: &str,
        options: &ConnectOptions,
        timeout: Duration,
    ) -> Result<Topology, Error> {
        bounded(url, options, timeout, |exchange| exchange.run())
    }

    /// The slots' owners as the node at `url` gives them ([`Topology::fetch`] without
    /// asking the other primaries for their slots in migration, whose `migrations` it leaves
    /// out but the node's own): for a wait on a failover, where the primary just promoted
    /// may refuse the run's credentials (a replica whose user's password differs), which the
    /// server elects without slotgen.
    ///
    /// # Errors
    ///
    /// As [`Topology::fetch`].
    pub(crate) fn fetch_owners(
        url: &str,
        options: &ConnectOptions,
        timeout: Duration,
    ) -> Result<Topology, Error> {
        bounded(url, options, timeout, |exchange| {
            exchange.read_map_of(false)
        })
    }

    /// The availability zone of each node that has one, `(node id, zone)`, from `CLUSTER
    /// SHARDS` of the node at `url` (Valkey 9.1 gives a node's `availability-zone` setting
    /// there); empty where the server gives none or refuses `CLUSTER SHARDS`. One exchange
    /// within `timeout`. The zone is the server's text: escape it before printing it
    /// ([`crate::text::field`]).
    ///
    /// # Errors
    ///
    /// What a connection gives; [`Error::Malformed`] for an answer that is not a list of
    /// shards.
    pub fn availability_zones(
        url: &str,
        options: &ConnectOptions,
        timeout: Duration,
    ) -> Result<Vec<(String, String)>, Error> {
        bounded(url, options, timeout, |exchange| {
            let mut con = exchange.connect(&exchange.endpoint)?;
            let mut cmd = redis::cmd("CLUSTER");
            cmd.arg("SHARDS");
            let budget = Budget {
                bytes: 64 << 20,
                values: 64 * MAX_NODES,
                string: crate::transport::MAX_REPLY_BYTES,
            };
            match exchange.query(&mut con, &cmd, budget) {
                Ok(value) => parse_zones(&value).map_err(|reason| Error::Malformed {
                    url: exchange.endpoint.shown.clone(),
                    command: "CLUSTER SHARDS".to_owned(),
                    reason,
                }),
                // a server without CLUSTER SHARDS, or a user not allowed it (the map came from
                // CLUSTER SLOTS then): no zones to show, nothing wrong
                Err(Error::Refused { .. } | Error::NoPermission { .. }) => Ok(Vec::new()),
                Err(e) => Err(e),
            }
        })
    }
}

/// The endpoint of `url` with `options`, its errors as this module's.
pub(super) fn endpoint(url: &str, options: &ConnectOptions) -> Result<Endpoint, Error> {
    Endpoint::new(url, options).map_err(|e| match e {
        ServerError::Tls { url, error } => Error::Tls { url, error },
        ServerError::Url { url, reason } => Error::Url { url, reason },
        other => Error::Unreachable {
            url: crate::url::redact(url),
            during: "reading the URL".to_owned(),
            reason: other.to_string(),
        },
    })
}

/// Runs `job` on an [`Exchange`] with the node at `url`, on its own thread, within
/// `timeout` from now: the one deadline of [`Topology::fetch`] and
/// [`SlotLoad::fetch`](super::SlotLoad::fetch).
pub(super) fn bounded<T: Send + 'static>(
    url: &str,
    options: &ConnectOptions,
    timeout: Duration,
    job: impl FnOnce(&Exchange) -> Result<T, Error> + Send + 'static,
) -> Result<T, Error> {
    let worker = Exchange::open(url, options, timeout)?;
    let shown = worker.endpoint.shown.clone();
    let stage = Arc::clone(&worker.stage);
    // the node waited on when the deadline passed (the seed until another is asked), and
    // what was under way
    let waited = || {
        stage.lock().map(|s| s.clone()).unwrap_or_else(|_| Stage {
            url: shown.clone(),
            during: String::new(),
        })
    };
    let (sender, receiver) = mpsc::channel();
    // The exchange runs on its own thread, so that a server which trickles bytes cannot
    // hold the caller past the deadline; every read of that thread is bounded by the
    // deadline too, so it ends soon after.
    std::thread::Builder::new()
        .name("slotgen-cluster".to_owned())
        .spawn(move || {
            let _ = sender.send(job(&worker));
        })
        .map_err(|e| Error::Unreachable {
            url: shown.clone(),
            during: "starting the exchange".to_owned(),
            reason: crate::text::os_reason(&e),
        })?;
    match receiver.recv_timeout(timeout) {
        Ok(result) => result,
        Err(mpsc::RecvTimeoutError::Timeout) => {
            let Stage { url, during } = waited();
            Err(Error::TimedOut {
                url,
                timeout,
                during,
            })
        }
        Err(mpsc::RecvTimeoutError::Disconnected) => {
            let Stage { url, during } = waited();
            Err(Error::Unreachable {
                url,
                during,
                reason: "the exchange ended without a result".to_owned(),
            })
        }
    }
}

/// The exchange of [`Topology::fetch`], on its own thread.
pub(super) struct Exchange {
    /// The node asked first (its URL redacted in `shown`); every other node is reached with
    /// its TLS client, user and password.
    pub(super) endpoint: Endpoint,
    /// The end of the whole exchange.
    pub(super) deadline: Instant,
    /// The time allowed, as messages name it.
    pub(super) timeout: Duration,
    /// What is under way, for the message when the deadline passes.
    pub(super) stage: Arc<Mutex<Stage>>,
}

/// What an [`Exchange`] is doing, for the message when its deadline passes: the node it
/// waits on (its URL redacted) and the step.
#[derive(Clone, Debug)]
pub(super) struct Stage {
    url: String,
    during: String,
}

/// What an optional step ([`Exchange::within`]) leaves of its exchange's time: enough for
/// the exchange to hand its answer over before the caller stops waiting for it.
const OPTIONAL_MARGIN: Duration = Duration::from_millis(250);

/// The pauses before each new read of a malformed map ([`Exchange::run`]): 1.5 s in all,
/// more than the 0.46 s measured for a failover's moment of two primaries in one shard.
const REREAD_PAUSES: [Duration; 4] = [
    Duration::from_millis(100),
    Duration::from_millis(200),
    Duration::from_millis(400),
    Duration::from_millis(800),
];

impl Exchange {
    /// An exchange that starts at the node at `url` and ends `timeout` from now.
    ///
    /// # Errors
    ///
    /// The URL's or the TLS options' error ([`endpoint`]).
    pub(super) fn open(
        url: &str,
        options: &ConnectOptions,
        timeout: Duration,
    ) -> Result<Self, Error> {
        let endpoint = endpoint(url, options)?;
        let stage = Arc::new(Mutex::new(Stage {
            url: endpoint.shown.clone(),
            during: format!("connecting to {}", endpoint.shown),
        }));
        Ok(Self {
            endpoint,
            deadline: Instant::now() + timeout,
            timeout,
            stage,
        })
    }

    /// The cluster's map ([`read_map`](Self::read_map)), read again where it is malformed,
    /// after pauses of [`REREAD_PAUSES`] (1.5 s in all, within the exchange's deadline): a
    /// map read while the cluster fails over looks malformed for a moment. Measured on
    /// Valkey 8.0 (three primaries with a replica each, one shard failed over back and forth
    /// every 0.7 s, `slotgen nodes` run in a loop against another primary): 198 of 2594
    /// reads saw `CLUSTER SHARDS` give a shard two primaries that are not failed, and 202 of
    /// 1861 still did when read again at once; after one failover that primary's answer
    /// gave two primaries from 40-60 ms to 140-460 ms. A map malformed at every read is the
    /// error, saying so.
    pub(super) fn run(&self) -> Result<Topology, Error> {
        let started = Instant::now();
        let mut read = self.read_map();
        let mut reads = 1;
        for pause in REREAD_PAUSES {
            // a malformed answer to `AUTH` is no failover's moment, and asking again would
            // send the password again to what may be no server
            let reread =
                matches!(&read, Err(Error::Malformed { command, .. }) if command != "AUTH");
            if !reread || Instant::now() + pause >= self.deadline {
                break;
            }
            std::thread::sleep(pause);
            read = self.read_map();
            reads += 1;
        }
        read.map_err(|e| match e {
            Error::Malformed {
                url,
                command,
                reason,
            } if reads > 1 => Error::Malformed {
                url,
                command,
                reason: format!(
                    "{reason} (so at each of {reads} reads over {:.1} s; a map read while the cluster fails over looks malformed for a moment: where it was failing over, run this again once it has settled)",
                    started.elapsed().as_secs_f64()
                ),
            },
            e => e,
        })
    }

    /// The cluster's map as the node at the endpoint gives it: its `cluster_state`, `CLUSTER
    /// SHARDS` (or `CLUSTER SLOTS`) and `CLUSTER NODES`, then every other primary's `CLUSTER
    /// NODES` for its slots in migration.
    fn read_map(&self) -> Result<Topology, Error> {
        self.read_map_of(true)
    }

    /// [`read_map`](Self::read_map), the other primaries asked for their slots in
    /// migration where `others`; else the node's own map alone (its slots' owners).
    fn read_map_of(&self, others: bool) -> Result<Topology, Error> {
        let mut con = self.connect(&self.endpoint)?;
        let info = self.text(&mut con, redis::cmd("INFO").arg("cluster"), Budget::SHORT)?;
        if !info_has(&info, "cluster_enabled", "1") {
            return Err(Error::NotCluster {
                url: self.endpoint.shown.clone(),
            });
        }
        let cluster_info = self.text(&mut con, redis::cmd("CLUSTER").arg("INFO"), CLUSTER_INFO)?;
        let field = |name: &str| {
            crate::text::escape_cut(info_field(&cluster_info, name).unwrap_or("?").as_bytes())
        };
        if field("cluster_state") != "ok" {
            // which nodes it takes for failed, where it says (a refusal or a malformed
            // answer is no reason to hide the state)
            let flagged = self
                .text(&mut con, redis::cmd("CLUSTER").arg("NODES"), CLUSTER_NODES)
                .map(|nodes| super::answers::failing_nodes(&nodes))
                .unwrap_or_default();
            return Err(Error::ClusterState {
                url: self.endpoint.shown.clone(),
                flagged,
                state: field("cluster_state"),
                slots_assigned: field("cluster_slots_assigned"),
                slots_fail: field("cluster_slots_fail"),
            });
        }
        let host = match &self.endpoint.info.addr {
            ConnectionAddr::Tcp(host, _) => host.clone(),
            _ => "127.0.0.1".to_owned(),
        };
        let malformed = |command: &str| {
            let url = self.endpoint.shown.clone();
            let command = command.to_owned();
            move |reason| Error::Malformed {
                url,
                command,
                reason,
            }
        };
        let tls = self.endpoint.tls.is_some();
        // a server without CLUSTER SHARDS (before Redis 7.0), or a user without it: CLUSTER
        // SLOTS; a user without either is told both
        let refusal = match self.query(&mut con, redis::cmd("CLUSTER").arg("SHARDS"), MAP) {
            Ok(value) => Ok(value),
            Err(Error::Refused { reason, .. }) => Err((reason, false)),
            Err(Error::NoPermission { denied, .. }) => Err((format!("NOPERM: {denied}"), true)),
            Err(e) => return Err(e),
        };
        let (map, source) = match refusal {
            Ok(value) => (value, Source::ClusterShards),
            Err((reason, denied)) => {
                let value = match self.query(&mut con, redis::cmd("CLUSTER").arg("SLOTS"), MAP) {
                    Err(Error::NoPermission { url, .. }) if denied => {
                        return Err(Error::NoPermission {
                            url,
                            denied: Denied::new(
                                self.endpoint.user(),
                                &["CLUSTER SHARDS", "CLUSTER SLOTS"],
                            ),
                        })
                    }
                    other => other?,
                };
                (
                    value,
                    Source::ClusterSlots {
                        shards_refused: reason,
                    },
                )
            }
        };
        // The node asked: its flags of every node (`fail`, `fail?`), and its own migrations.
        let nodes = self.text(&mut con, redis::cmd("CLUSTER").arg("NODES"), CLUSTER_NODES)?;
        drop(con);
        let flagged = parse_flags(&nodes).map_err(malformed("CLUSTER NODES"))?;
        let (entry_id, entry_migrations) =
            parse_nodes(&nodes).map_err(malformed("CLUSTER NODES"))?;
        let (shards, left_out) = match &source {
            Source::ClusterShards => {
                parse_shards(&map, &host, &flagged, tls).map_err(malformed("CLUSTER SHARDS"))?
            }
            Source::ClusterSlots { .. } => {
                parse_slots(&map, &host, &flagged).map_err(malformed("CLUSTER SLOTS"))?
            }
        };
        // A replica's own line carries its primary's migrations where the server copies
        // them to replicas (Valkey 8 and later): the same slot with the replica as one end,
        // which the primaries asked below report as themselves. Only a primary's count.
        let entry_is_primary = shards.iter().any(|s| s.primary.id == entry_id);
        let mut topology = Topology {
            shards,
            left_out,
            migrations: if entry_is_primary {
                entry_migrations
            } else {
                Vec::new()
            },
            source,
        };
        topology
            .sort_and_check()
            .map_err(malformed(match topology.source {
                Source::ClusterShards => "CLUSTER SHARDS",
                Source::ClusterSlots { .. } => "CLUSTER SLOTS",
            }))?;
        if !others {
            return Ok(topology);
        }
        // The other primaries that own slots, for their slots in migration: a primary without
        // slots (a new node being filled) reports only slots it imports, which their owner
        // reports as migrating too. Failed nodes are out of the shards already.
        let primaries: Vec<Node> = topology
            .shards
            .iter()
            .filter(|s| !s.ranges.is_empty() && s.primary.id != entry_id)
            .map(|s| s.primary.clone())
            .collect();
        for primary in primaries {
            let node = self.primary_endpoint(&primary)?;
            let shown = node.shown.clone();
            let gone = gone(&primary);
            let mut con = self.connect(&node).map_err(gone)?;
            let text = self
                .text(&mut con, redis::cmd("CLUSTER").arg("NODES"), CLUSTER_NODES)
                .map_err(gone)?;
            let (myself, migrations) = parse_nodes(&text).map_err(|reason| Error::Malformed {
                url: shown.clone(),
                command: "CLUSTER NODES".to_owned(),
                reason,
            })?;
            if matches!(topology.source, Source::ClusterShards) && myself != primary.id {
                return Err(Error::Malformed {
                    url: shown,
                    command: "CLUSTER NODES".to_owned(),
                    reason: format!(
                        "the node there is `{myself}`, but the cluster's map names `{}` at that address",
                        primary.id
                    ),
                });
            }
            topology.migrations.extend(migrations);
        }
        topology.sort_migrations();
        Ok(topology)
    }

    /// How to reach `primary`, a node of the map: at its address, with the TLS client, user,
    /// password and database of the node asked first.
    pub(super) fn primary_endpoint(&self, primary: &Node) -> Result<Endpoint, Error> {
        let (host, port) = split_addr(&primary.addr).ok_or_else(|| Error::Malformed {
            url: self.endpoint.shown.clone(),
            command: "CLUSTER SHARDS".to_owned(),
            reason: format!("node address `{}` is not `host:port`", primary.addr),
        })?;
        Ok(self.endpoint.node(host, port, &primary.addr))
    }

    /// Says what is under way with the node at `url` (redacted), for the message when the
    /// deadline passes.
    pub(super) fn set_stage(&self, url: &str, during: String) {
        if let Ok(mut s) = self.stage.lock() {
            *s = Stage {
                url: url.to_owned(),
                during,
            };
        }
    }

    /// This exchange for an optional step that may not hold up the whole (a replica asked
    /// for a note): its deadline `time` from now, and [`OPTIONAL_MARGIN`] before this one's
    /// at the latest, so that the exchange still answers within its own; `None` where no
    /// time is left for it.
    pub(super) fn within(&self, time: Duration) -> Option<Exchange> {
        let deadline = (Instant::now() + time).min(self.deadline.checked_sub(OPTIONAL_MARGIN)?);
        (deadline > Instant::now()).then(|| Exchange {
            endpoint: self.endpoint.clone(),
            deadline,
            timeout: self.timeout,
            stage: Arc::clone(&self.stage),
        })
    }

    pub(super) fn remaining(&self, shown: &str) -> Result<Duration, Error> {
        self.deadline
            .checked_duration_since(Instant::now())
            .filter(|left| !left.is_zero())
            .ok_or_else(|| Error::TimedOut {
                url: shown.to_owned(),
                timeout: self.timeout,
                during: self.during(),
            })
    }

    /// What was under way, as [`set_stage`](Self::set_stage) last said.
    fn during(&self) -> String {
        self.stage
            .lock()
            .map(|s| s.during.clone())
            .unwrap_or_default()
    }

    pub(super) fn connect(&self, endpoint: &Endpoint) -> Result<Connection, Error> {
        self.set_stage(&endpoint.shown, if endpoint.tls.is_some() {
            format!(
                "connecting to {} over TLS; a plain port stays silent {}: give a `redis://` URL for one",
                endpoint.shown,
                crate::transport::IN_HANDSHAKE
            )
        } else {
            format!("connecting to {}", endpoint.shown)
        });
        self.remaining(&endpoint.shown)?;
        Connection::open(endpoint, Some(self.deadline), self.timeout).map_err(|e| self.lift(e))
    }

    /// The reply to `cmd` within `budget`; an error reply is [`Error::Refused`], or
    /// [`Error::PasswordRequired`], [`Error::PasswordRejected`] and [`Error::NoPermission`]
    /// for `NOAUTH`, `WRONGPASS` and `NOPERM`.
    pub(super) fn query(
        &self,
        con: &mut Connection,
        cmd: &redis::Cmd,
        budget: Budget,
    ) -> Result<Value, Error> {
        let command = command_name(cmd);
        let shown = con.url().to_owned();
        self.set_stage(&shown, format!("waiting for `{command}` of {shown}"));
        self.remaining(&shown)?;
        let value = con.query(cmd, budget, &command).map_err(|e| self.lift(e))?;
        // A slow answer that came in just after the deadline is still late.
        self.remaining(&shown)?;
        self.judge(&shown, &command, value)
    }

    /// The databases a node keeps in cluster mode: its `cluster-databases` (Valkey 9), 1
    /// where the server has no such setting or does not say (an empty answer, a refusal
    /// that is no `NOPERM`). Where the user may not run `CONFIG GET`, `SELECT n` counts them
    /// ([`databases_by_select`](Self::databases_by_select)); where it may run neither, a
    /// server before Valkey 9 (`INFO server`) keeps one, and a later one is an error.
    /// Every command that reads or moves a slot's keys runs in each of them (`SELECT n`):
    /// `CLUSTER COUNTKEYSINSLOT` and `GETKEYSINSLOT` answer for the selected database only
    /// (docs/operations.md).
    ///
    /// # Errors
    ///
    /// An answer that did not come (a timeout, a broken connection: the connection owes it
    /// and is not used again), [`Error::Malformed`] for a value that is not a number of
    /// databases (`-3`, `2000000000`), and [`Error::NoPermission`] naming `CONFIG GET` and
    /// `SELECT` on Valkey 9 or later where the user may run neither: never taken for one
    /// database, as the keys of the others would be left uncounted or behind.
    pub(super) fn databases(&self, con: &mut Connection) -> Result<u32, Error> {
        match self.databases_to_move(con) {
            Err(e @ Error::NoPermission { .. }) => {
                let info = self.text(
                    con,
                    redis::cmd("INFO").arg("server"),
                    Budget::SHORT.times(4),
                )?;
                // Valkey's `valkey_version` (Valkey 9 keeps several databases; Redis one)
                let major = super::answers::info_field(&info, "valkey_version")
                    .and_then(|v| v.trim().split('.').next()?.parse::<u32>().ok());
                if major.is_some_and(|major| major >= 9) {
                    Err(e)
                } else {
                    Ok(1)
                }
            }
            other => other,
        }
    }

    /// As [`databases`](Self::databases), for a slot's move, whose keys in a database not
    /// counted would be left behind on the source: a user who may run neither `CONFIG GET`
    /// nor `SELECT` is an error here on any server, not one database.
    ///
    /// # Errors
    ///
    /// As [`databases`](Self::databases).
    pub(super) fn databases_to_move(&self, con: &mut Connection) -> Result<u32, Error> {
        let value = match self.config(con, "cluster-databases") {
            Err(Error::NoPermission { url, .. }) => {
                return self
                    .databases_by_select(con)?
                    .ok_or_else(|| Error::NoPermission {
                        url,
                        denied: Denied::new(self.endpoint.user(), &["CONFIG GET", "SELECT"]),
                    })
            }
            value => value?,
        };
        parse_databases(value.as_deref()).map_err(|reason| Error::Malformed {
            url: con.url().to_owned(),
            command: "CONFIG GET cluster-databases".to_owned(),
            reason,
        })
    }

    /// The databases of a node counted by `SELECT n`, for a user who may not run `CONFIG
    /// GET`: Valkey 9 answers `OK` for each n below its `cluster-databases` and `DB index is
    /// out of range` from there on; Redis and Valkey before 9 answer `SELECT is not allowed
    /// in cluster mode` for any n but 0 (measured on Valkey 9.1.2 with 16 databases and with
    /// 1, Valkey 8.0.1, Redis 7.0.15). The highest n answered `OK` is found by doubling then
    /// halving (9 commands for 16 databases), and database 0 is selected again. `None` where
    /// `SELECT` is refused by the user's rights too.
    ///
    /// # Errors
    ///
    /// An answer that did not come.
    fn databases_by_select(&self, con: &mut Connection) -> Result<Option<u32>, Error> {
        let mut exists = |db: u32| match self.query(con, &select(db), Budget::SHORT) {
            Ok(_) => Ok(Some(true)),
            Err(Error::Refused { .. }) => Ok(Some(false)),
            Err(Error::NoPermission { .. }) => Ok(None),
            Err(e) => Err(e),
        };
        // databases 0..known exist, and database `beyond` does not
        let (mut known, mut beyond) = (1, 1);
        while beyond < MAX_DATABASES {
            match exists(beyond)? {
                None => return Ok(None),
                Some(true) => (known, beyond) = (beyond + 1, (beyond * 2).min(MAX_DATABASES)),
                Some(false) => break,
            }
        }
        while known < beyond {
            let mid = known + (beyond - known) / 2;
            if exists(mid)? == Some(true) {
                known = mid + 1;
            } else {
                beyond = mid;
            }
        }
        if known > 1 {
            self.query(con, &select(0), Budget::SHORT)?;
        }
        Ok(Some(known))
    }

    /// A node's `cluster-node-timeout` (`CONFIG GET`), the time after which the cluster
    /// takes a primary that does not answer for failed; `None` where the node does not say
    /// (a refusal, `NOPERM` included, or no number).
    ///
    /// # Errors
    ///
    /// An answer that did not come.
    pub(super) fn node_timeout(&self, con: &mut Connection) -> Result<Option<Duration>, Error> {
        match self.config(con, "cluster-node-timeout") {
            Ok(ms) => Ok(ms
                .and_then(|ms| std::str::from_utf8(&ms).ok()?.parse().ok())
                .map(Duration::from_millis)),
            Err(Error::NoPermission { .. }) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// Whether a node is known to keep no keys on disk ([`crate::rights::KEEPS`]): `save`
    /// empty (no RDB snapshot is taken) and `appendonly` `no` (no AOF), so that its keys
    /// end with its process and it comes back empty. `false` where it keeps some, or does
    /// not say (a refusal, `NOPERM` included, or no answer): not known.
    pub(super) fn keeps_nothing(&self, con: &mut Connection) -> bool {
        let mut setting = |name| self.config(con, name).ok().flatten();
        let save = setting("save");
        let appendonly = setting("appendonly");
        matches!((save.as_deref(), appendonly.as_deref()), (Some(b""), Some(aof)) if aof.eq_ignore_ascii_case(b"no"))
    }

    /// The value of setting `name` by `CONFIG GET` (RESP2's pair or RESP3's map), its bytes
    /// as sent; `None` where the server has no such setting, refuses the command, or gives
    /// no string.
    ///
    /// # Errors
    ///
    /// An answer that did not come, or [`Error::NoPermission`].
    pub(super) fn config(
        &self,
        con: &mut Connection,
        name: &str,
    ) -> Result<Option<Vec<u8>>, Error> {
        let mut cmd = redis::cmd("CONFIG");
        cmd.arg("GET").arg(name);
        let value = match self.query(con, &cmd, Budget::SHORT) {
            Ok(Value::Array(items)) => items.get(1).cloned(),
            Ok(Value::Map(items)) => items.first().map(|(_, v)| v.clone()),
            Ok(_) | Err(Error::Refused { .. }) => None,
            Err(e) => return Err(e),
        };
        Ok(match value {
            Some(Value::BulkString(b)) => Some(b),
            Some(Value::SimpleString(s)) => Some(s.into_bytes()),
            _ => None,
        })
    }

    /// `value`, a reply of `shown` to `command`, or for an error reply [`Error::Refused`],
    /// or [`Error::PasswordRequired`], [`Error::PasswordRejected`] and
    /// [`Error::NoPermission`] for `NOAUTH`, `WRONGPASS` and `NOPERM`.
    pub(super) fn judge(&self, shown: &str, command: &str, value: Value) -> Result<Value, Error> {
        let Value::ServerError(e) = value else {
            return Ok(value);
        };
        let url = shown.to_owned();
        let code = e.code().to_owned();
        // the server's own words, the password hidden where the server echoes it
        // (`MIGRATE`'s `AUTH` in its error)
        let reason =
            crate::transport::server_words(&code, e.details(), self.endpoint.password.as_deref());
        Err(match code.as_str() {
            "NOAUTH" => Error::PasswordRequired { url },
            "WRONGPASS" => Error::PasswordRejected {
                url,
                user: crate::text::escape(self.endpoint.user().as_bytes()),
                reason,
            },
            // the keys the command names refused, not the command (`... to access one of the
            // keys used as arguments`, Redis 7.0; `... to access a key`, Valkey)
            "NOPERM"
                if e.details()
                    .is_some_and(|d| d.contains("to access") && d.contains(" key")) =>
            {
                Error::NoPermission {
                    url,
                    denied: Denied::keys(self.endpoint.user(), command),
                }
            }
            "NOPERM" => Error::NoPermission {
                url,
                denied: Denied::new(self.endpoint.user(), &[command]),
            },
            _ => Error::Refused {
                url,
                command: command.to_owned(),
                reason,
                moved: moved(&e.into()),
            },
        })
    }

    /// Whether `e`, an error of [`query`](Self::query), is the server's own answer (an error
    /// reply: [`Error::Refused`], [`Error::NoPermission`], [`Error::PasswordRequired`],
    /// [`Error::PasswordRejected`]): the command was refused, not done, and the connection
    /// may ask again. Any other error is an answer that did not come: the server may have
    /// done the command, and the connection owes its answer ([`Error::AnswerOwed`]).
    pub(super) fn answered(e: &Error) -> bool {
        matches!(
            e,
            Error::Refused { .. }
                | Error::NoPermission { .. }
                | Error::PasswordRequired { .. }
                | Error::PasswordRejected { .. }
        )
    }

    /// The reply to `cmd` within `budget`, as text (`INFO`, `CLUSTER INFO`, `CLUSTER NODES`).
    pub(super) fn text(
        &self,
        con: &mut Connection,
        cmd: &redis::Cmd,
        budget: Budget,
    ) -> Result<String, Error> {
        let url = con.url().to_owned();
        let malformed = |reason: String| Error::Malformed {
            url,
            command: command_name(cmd),
            reason,
        };
        match self.query(con, cmd, budget)? {
            Value::BulkString(bytes) => {
                String::from_utf8(bytes).map_err(|_| malformed("the text is not UTF-8".to_owned()))
            }
            Value::VerbatimString { text, .. } | Value::SimpleString(text) => Ok(text),
            other => Err(malformed(crate::text::reason(&format!(
                "the answer is not text but {}",
                crate::transport::describe(&other)
            )))),
        }
    }

    /// This module's error for an error of the connection ([`Error`]'s `From`), a deadline
    /// that passed named by the stage of this exchange and its whole budget.
    pub(super) fn lift(&self, e: ServerError) -> Error {
        match e {
            ServerError::TimedOut { url, .. } => Error::TimedOut {
                url,
                timeout: self.timeout,
                during: self.during(),
            },
            e => e.into(),
        }
    }
}

/// The live cluster's error for an error of one connection: the one wording of each
/// failure, for the cluster's exchange and for a single server's (`verify --redis`).
impl From<ServerError> for Error {
    fn from(e: ServerError) -> Self {
        match e {
            ServerError::Url { url, reason } => Error::Url { url, reason },
            ServerError::Tls { url, error } => Error::Tls { url, error },
            ServerError::NoPermission { url, denied } => Error::NoPermission { url, denied },
            ServerError::Connect { url, reason } => Error::Unreachable {
                url,
                during: "connecting".to_owned(),
                reason,
            },
            ServerError::TimedOut {
                url,
                during,
                timeout,
            } => Error::TimedOut {
                url,
                timeout,
                during,
            },
            ServerError::Owed { url, command, owed } => Error::AnswerOwed { url, command, owed },
            ServerError::Io {
                url,
                during,
                reason,
            } => Error::Unreachable {
                url,
                during,
                reason,
            },
            ServerError::ReplyTooLarge { url, during, limit } => Error::ReplyTooLarge {
                url,
                command: command_of(&during),
                limit,
            },
            ServerError::NotRedis { url, during, what } => Error::Malformed {
                url,
                command: command_of(&during),
                reason: what,
            },
            ServerError::NoPasswordSet { url, user } => Error::NoPasswordSet { url, user },
            ServerError::Auth { url, user, message } => Error::PasswordRejected {
                url,
                user,
                reason: message,
            },
            ServerError::CommandRefused { url, message, .. } if message.starts_with("NOAUTH") => {
                Error::PasswordRequired { url }
            }
            ServerError::CommandRefused {
                url,
                command,
                message,
            } => Error::Refused {
                url,
                command,
                reason: message,
                moved: None,
            },
            // Not answers of a connection's setup or of `query`, which judges no reply.
            ServerError::NotCluster { url } => Error::NotCluster { url },
            // the key as the transport's error has it, escaped
            ServerError::Refused { url, message, key } => Error::Refused {
                url,
                command: format!("CLUSTER KEYSLOT \"{key}\""),
                reason: message,
                moved: None,
            },
            ServerError::NotASlot { url, slot, key } => Error::Malformed {
                url,
                command: format!("CLUSTER KEYSLOT \"{key}\""),
                reason: format!("slot {slot} is not a hash slot, 0 to {}", SLOTS - 1),
            },
        }
    }
}

/// The slot and the node (`host:port`, escaped) of `error`, a server's error reply, where it
/// is a `MOVED` redirection, as the redis crate reads them ([`redis::RedisError::redirect_node`]): the one
/// reading of a redirection, which [`Error::Refused`]'s `moved` carries.
fn moved(error: &redis::RedisError) -> Option<(u16, String)> {
    if error.kind() != redis::ErrorKind::Moved {
        return None;
    }
    error
        .redirect_node()
        .map(|(node, slot)| (slot, crate::text::escape_cut(node.as_bytes())))
}

/// The command of a transport error's `during`, a phrase (`answering AUTH`), for a message
/// that names the command.
fn command_of(during: &str) -> String {
    during
        .strip_prefix("answering ")
        .unwrap_or(during)
        .to_owned()
}

/// What an error of asking `primary`, a node that the map names as serving, means: one that
/// does not answer failed after the map was read (or the map is stale), and is named
/// ([`Error::NodeUnreachable`]); never use half a map.
pub(super) fn gone(primary: &Node) -> impl Fn(Error) -> Error + Copy + '_ {
    move |e| match e {
        Error::Unreachable {
            url,
            during,
            reason,
        } => Error::NodeUnreachable {
            url,
            id: primary.id.clone(),
            during,
            reason,
        },
        e => e,
    }
}

/// A command as messages name it: `CLUSTER SHARDS` (a container command and its
/// subcommand, as [`Denied::rule`] reads them), `INFO CLUSTER` (a section), `MIGRATE` (its
/// arguments, addresses and keys, left out).
fn command_name(cmd: &redis::Cmd) -> String {
    let words: Vec<String> = cmd
        .args_iter()
        .take(2)
        .filter_map(|arg| match arg {
            redis::Arg::Simple(bytes) => Some(String::from_utf8_lossy(bytes).to_uppercase()),
            redis::Arg::Cursor => None,
        })
        .collect();
    match words.first().map(String::as_str) {
        Some(first) if Denied::named_with_argument(first) => words.join(" "),
        Some(first) => first.to_owned(),
        None => String::new(),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A node on loopback that answers each command (its arguments, as sent) with the RESP
    /// bytes `answer` gives, on every connection, until the test process ends: for answers
    /// that no real server gives. Returns its URL.
    pub(crate) fn scripted_node(
        answer: impl Fn(&[Vec<u8>]) -> Vec<u8> + Send + Sync + 'static,
    ) -> String {
        use std::io::{BufRead, BufReader, Read, Write};
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("redis://{}", listener.local_addr().unwrap());
        let answer = Arc::new(answer);
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let answer = Arc::clone(&answer);
                std::thread::spawn(move || {
                    let mut writer = stream.try_clone().unwrap();
                    let mut reader = BufReader::new(stream);
                    let mut line = String::new();
                    let mut number = |reader: &mut BufReader<_>, mark: char| -> Option<usize> {
                        line.clear();
                        reader.read_line(&mut line).ok()?;
                        line.trim_end().strip_prefix(mark)?.parse().ok()
                    };
                    while let Some(count) = number(&mut reader, '*') {
                        let mut args = Vec::new();
                        for _ in 0..count {
                            let Some(len) = number(&mut reader, '$') else {
                                return;
                            };
                            let mut arg = vec![0; len + 2];
                            if reader.read_exact(&mut arg).is_err() {
                                return;
                            }
                            arg.truncate(len);
                            args.push(arg);
                        }
                        if writer.write_all(&answer(&args)).is_err() {
                            return;
                        }
                    }
                });
            }
        });
        url
    }

    /// `cluster-databases` as a node may give it: absent (Redis; Valkey before 9) or
    /// refused is 1 database; a value that is no number of databases is an error naming
    /// it, escaped, and the rule, never 1 (the keys of the other databases would be left
    /// behind by a move).
    #[test]
    fn a_malformed_cluster_databases_is_an_error_naming_it() {
        let databases = |reply: &'static [u8]| {
            let url = scripted_node(move |_| reply.to_vec());
            let exchange =
                Exchange::open(&url, &ConnectOptions::default(), Duration::from_secs(5)).unwrap();
            let mut con = exchange.connect(&exchange.endpoint).unwrap();
            exchange
                .databases_to_move(&mut con)
                .map_err(|e| e.to_string())
        };
        assert_eq!(databases(b"*0\r\n"), Ok(1));
        assert_eq!(databases(b"-ERR unknown subcommand\r\n"), Ok(1));
        assert_eq!(
            databases(b"*2\r\n$17\r\ncluster-databases\r\n$2\r\n16\r\n"),
            Ok(16)
        );
        for (value, shown) in [
            (&b"-3"[..], "-3"),
            (b"0", "0"),
            (b"+4", "+4"),
            (b"2000000000", "2000000000"),
            (b"99999999999999999999", "99999999999999999999"),
            (b"4\x1b[2J", "4\\x1b[2J"),
            (b"\xff", "\\xff"),
        ] {
            let mut reply =
                format!("*2\r\n$17\r\ncluster-databases\r\n${}\r\n", value.len()).into_bytes();
            reply.extend_from_slice(value);
            reply.extend_from_slice(b"\r\n");
            let reply: &'static [u8] = Box::leak(reply.into_boxed_slice());
            let error = databases(reply).unwrap_err();
            assert!(
                error.contains(&format!(
                    "`cluster-databases` is `{shown}`, not a number of databases (a whole number from 1 to 65536)"
                )) && error.contains("`CONFIG GET cluster-databases`"),
                "{error}"
            );
            assert!(!error.contains('\x1b'), "{error}");
        }
    }

    #[test]
    fn a_command_is_named_as_acl_rules_name_it() {
        assert_eq!(
            command_name(redis::cmd("MIGRATE").arg("127.0.0.1").arg(7000)),
            "MIGRATE"
        );
        assert_eq!(
            command_name(redis::cmd("CLUSTER").arg("shards")),
            "CLUSTER SHARDS"
        );
        assert_eq!(
            command_name(redis::cmd("INFO").arg("cluster")),
            "INFO CLUSTER"
        );
    }

    /// A redirection read from the server's error as sent on the wire: `MOVED` alone, its
    /// slot and node; an `ASK`, another error, or a `MOVED` without its node give none; the
    /// node's bytes escaped.
    #[test]
    fn a_moved_error_gives_its_slot_and_node() {
        let error = |wire: &[u8]| match redis::parse_redis_value(wire).unwrap() {
            Value::ServerError(e) => redis::RedisError::from(e),
            other => panic!("{other:?}"),
        };
        assert_eq!(
            moved(&error(b"-MOVED 2328 127.0.0.1:7105\r\n")),
            Some((2328, "127.0.0.1:7105".to_owned()))
        );
        assert_eq!(
            moved(&error(b"-MOVED 16383 \x1b[2Jx:1\r\n")),
            Some((16383, "\\x1b[2Jx:1".to_owned()))
        );
        for other in [
            &b"-ASK 2328 127.0.0.1:7105\r\n"[..],
            b"-MOVED 2328\r\n",
            b"-MOVED x 127.0.0.1:7105\r\n",
            b"-ERR MOVED 2328 127.0.0.1:7105\r\n",
            b"-CLUSTERDOWN The cluster is down\r\n",
        ] {
            assert_eq!(moved(&error(other)), None, "{other:?}");
        }
    }
}
