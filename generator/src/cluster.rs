//! A live Redis Cluster (or Valkey cluster): its topology, keys that land on every node, and
//! where a workload's keys land. Behind the cargo feature `redis`; every exchange with a
//! server goes through the bounded connection that [`crate::verify::server`] uses (the [`redis`]
//! crate packs the commands and parses the replies), one deadline over all of them and a
//! budget on every reply, from what a real answer can need.
//!
//! - [`Topology::fetch`] asks a node for the cluster's shards (`CLUSTER SHARDS`, Redis 7+ and
//!   Valkey; `CLUSTER SLOTS` on servers that refuse it) and every primary for the slots it is
//!   migrating or importing (`CLUSTER NODES`: a node reports only its own), all within one
//!   deadline.
//! - [`keys_over_slots`] makes distinct keys spread evenly over a node's slots, with the
//!   tags of [`REDIS_CLUSTER`]: a load test that must hit every primary takes K keys per
//!   node instead of trying random keys until one routes there.
//! - [`Placement`] counts where keys fall: per slot, and with a [`Topology`] per node.
//!
//! ```
//! use slotgen::cluster::{keys_over_slots, SlotRange};
//!
//! // Three keys over the slots 0-5460 (the first primary of a 3-primary cluster), at even
//! // spacing: slots 0, 1820 and 3640.
//! let slots: Vec<u16> = SlotRange { first: 0, last: 5460 }.slots().collect();
//! let keys: Vec<(u16, Vec<u8>)> = keys_over_slots(&slots, 3, b"load:", b"")?.collect();
//! assert_eq!(keys[0], (0, b"load:{DLH@}".to_vec()));
//! assert_eq!(keys.iter().map(|k| k.0).collect::<Vec<_>>(), [0, 1820, 3640]);
//! # Ok::<(), slotgen::cluster::Error>(())
//! ```

use std::collections::BTreeMap;
use std::fmt;
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

use redis::{ConnectionAddr, ConnectionInfo, IntoConnectionInfo, Value};
use serde::Serialize;
use slotgen_tables::REDIS_CLUSTER;

use crate::transport::{Budget, Connection, Limit, ServerError};
use crate::url::{redact, HIDDEN};

/// The number of hash slots of a Redis Cluster (the Redis Cluster specification).
pub const SLOTS: u16 = 16384;

/// At most this many nodes are read from one answer: Redis recommends clusters of up to
/// 1000 nodes, and a cluster cannot use more primaries than slots.
pub const MAX_NODES: usize = 16384;

/// Node ids, hosts and other strings of an answer are at most this many bytes.
const MAX_TEXT: usize = 1024;

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
const CLUSTER_NODES: Budget = Budget {
    bytes: MAX_NODES * NODE_BYTES + SLOTS as usize * 64 + 16,
    values: 1,
    string: MAX_NODES * NODE_BYTES + SLOTS as usize * 64,
};

/// Why a cluster's topology cannot be read, or keys cannot be made for it.
///
/// Every URL in a message is shown with its password replaced by `***` ([`crate::url::redact`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The URL cannot be parsed.
    #[error("`{url}` is not a server URL: give `redis://host:port`, `redis://:PASSWORD@host:port` or `unix:///path/to/socket`")]
    Url {
        /// The URL, redacted.
        url: String,
    },
    /// Nothing accepts connections there, or the connection broke.
    #[error("cannot reach `{url}` ({during}): {reason}; start a cluster-enabled server there, or give the URL of one")]
    Unreachable {
        /// The URL of the node, redacted.
        url: String,
        /// What was being done.
        during: String,
        /// The operating system's or the client's reason.
        reason: String,
    },
    /// The deadline passed before the exchange was complete.
    #[error("`{url}` timed out: no complete answer within {timeout:?} ({during}); check that it is a Redis or Valkey server that answers, or allow more time")]
    TimedOut {
        /// The URL of the node, redacted.
        url: String,
        /// The whole exchange's time limit.
        timeout: Duration,
        /// What was being done when it passed.
        during: String,
    },
    /// The server wants a password and none was given (`NOAUTH`).
    #[error("`{url}` requires a password (`NOAUTH`): give it in the URL, as `redis://:PASSWORD@host:port` or `redis://USER:PASSWORD@host:port`")]
    PasswordRequired {
        /// The URL, redacted.
        url: String,
    },
    /// The server refused the user name or password.
    #[error("`{url}` refused the user name or password ({reason}): give the password the cluster is configured with (`requirepass`, or an ACL user's)")]
    PasswordRejected {
        /// The URL, redacted.
        url: String,
        /// The server's or the client's reason.
        reason: String,
    },
    /// The server runs without cluster support.
    #[error("`{url}` is not cluster-enabled (`INFO cluster` does not say `cluster_enabled:1`): give the URL of a node of a cluster, a server started with `cluster-enabled yes`")]
    NotCluster {
        /// The URL, redacted.
        url: String,
    },
    /// The cluster's state is not `ok`: some slot is unassigned or its node unreachable.
    #[error("the cluster of `{url}` is in state `{state}`, not `ok` (`CLUSTER INFO`: {slots_assigned} of 16384 slots assigned, {slots_fail} failing): its map cannot be trusted; wait until every slot is assigned and served, then try again")]
    ClusterState {
        /// The URL, redacted.
        url: String,
        /// `cluster_state` as `CLUSTER INFO` gives it (`fail`).
        state: String,
        /// `cluster_slots_assigned`.
        slots_assigned: String,
        /// `cluster_slots_fail`.
        slots_fail: String,
    },
    /// The server answered a command with an error.
    #[error("`{url}` refused `{command}`: {reason}")]
    Refused {
        /// The URL of the node, redacted.
        url: String,
        /// The command.
        command: String,
        /// The server's error.
        reason: String,
    },
    /// An answer was larger than any answer of a cluster of up to [`MAX_NODES`] nodes: more
    /// bytes or RESP values than the command's budget, or a longer string.
    #[error("`{url}` sent a reply too large for `{command}`: more than {limit}, more than a cluster of up to {} nodes answers; check that it is a Redis or Valkey cluster node, or give the URL of another node of the cluster", MAX_NODES)]
    ReplyTooLarge {
        /// The URL of the node, redacted.
        url: String,
        /// The command.
        command: String,
        /// The bound passed.
        limit: Limit,
    },
    /// The server's answer is not a cluster topology.
    #[error("`{url}` answered `{command}` with something that is not a cluster topology: {reason}; check that the URL names a Redis or Valkey cluster node")]
    Malformed {
        /// The URL of the node, redacted.
        url: String,
        /// The command.
        command: String,
        /// What is wrong with the answer.
        reason: String,
    },
    /// No node of the topology has this id or address.
    #[error("no node of the cluster has id or address `{}`: the nodes are {}", crate::text::shorten(&.node.escape_debug().to_string(), crate::text::MAX_SHOWN), crate::text::shorten(&known.join(", "), 20 * crate::text::MAX_SHOWN))]
    UnknownNode {
        /// The id or `host:port` asked for.
        node: String,
        /// `id (host:port)` of every node.
        known: Vec<String>,
    },
    /// A key cannot be made (a prefix with `{`).
    #[error(transparent)]
    Key(#[from] slotgen_tables::Error),
}

/// Whether a node is its shard's primary or one of its replicas.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// The node that owns the shard's slots and takes writes (`master` in Redis's answers).
    Primary,
    /// A replica: serves reads of its primary's slots after `READONLY`.
    Replica,
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Role::Primary => "primary",
            Role::Replica => "replica",
        })
    }
}

/// One node of a cluster.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Node {
    /// The node id: 40 hex digits, as `CLUSTER MYID` gives it. From `CLUSTER SLOTS` of a
    /// server that gives none, the address.
    pub id: String,
    /// Where clients reach it: `host:port` (`[host]:port` for an IPv6 address).
    pub addr: String,
    /// Primary or replica.
    pub role: Role,
    /// `CLUSTER SHARDS`' `health`: `online`, `failed` or `loading`; `None` from
    /// `CLUSTER SLOTS`, which does not say.
    pub health: Option<String>,
}

/// An inclusive range of hash slots, `first..=last`, each in `0..16384`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct SlotRange {
    /// The first slot.
    pub first: u16,
    /// The last slot, at least `first`.
    pub last: u16,
}

impl SlotRange {
    /// The number of slots in the range.
    #[must_use]
    pub fn len(&self) -> u32 {
        u32::from(self.last) - u32::from(self.first) + 1
    }

    /// Whether the range has no slot (never: a range holds at least `first`).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The slots of the range, in order.
    pub fn slots(&self) -> impl Iterator<Item = u16> {
        self.first..=self.last
    }
}

/// `first-last`, or `first` alone for a range of one slot.
impl fmt::Display for SlotRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.first == self.last {
            write!(f, "{}", self.first)
        } else {
            write!(f, "{}-{}", self.first, self.last)
        }
    }
}

/// The sorted slots as merged ranges: `[0, 1, 2, 7]` gives `0-2` and `7`.
#[must_use]
pub fn ranges_of(sorted_slots: &[u16]) -> Vec<SlotRange> {
    let mut ranges: Vec<SlotRange> = Vec::new();
    for &slot in sorted_slots {
        match ranges.last_mut() {
            Some(range) if u32::from(range.last) + 1 == u32::from(slot) => range.last = slot,
            Some(range) if range.last >= slot => {}
            _ => ranges.push(SlotRange {
                first: slot,
                last: slot,
            }),
        }
    }
    ranges
}

/// `0-99,200,300-399`: ranges joined by commas; `-` when there are none.
#[must_use]
pub fn show_ranges(ranges: &[SlotRange]) -> String {
    if ranges.is_empty() {
        return "-".to_owned();
    }
    ranges
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

/// One shard: a primary, its replicas, and the slots the primary owns.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Shard {
    /// The primary.
    pub primary: Node,
    /// The replicas, sorted by address.
    pub replicas: Vec<Node>,
    /// The slots, as sorted, disjoint, merged ranges; empty for a primary without slots.
    pub ranges: Vec<SlotRange>,
}

impl Shard {
    /// The number of slots the shard owns.
    #[must_use]
    pub fn slot_count(&self) -> u32 {
        self.ranges.iter().map(SlotRange::len).sum()
    }

    /// The shard's slots, in order.
    pub fn slots(&self) -> impl Iterator<Item = u16> + '_ {
        self.ranges.iter().flat_map(SlotRange::slots)
    }

    /// The primary, then the replicas.
    pub fn nodes(&self) -> impl Iterator<Item = &Node> {
        std::iter::once(&self.primary).chain(&self.replicas)
    }
}

/// Which way a slot is moving, as the node that reports it sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum MigrationKind {
    /// The reporting node owns the slot and is moving it to `peer`
    /// (`[slot->-peer]` in `CLUSTER NODES`, after `CLUSTER SETSLOT slot MIGRATING peer`).
    Migrating,
    /// The reporting node is taking the slot from `peer`
    /// (`[slot-<-peer]`, after `CLUSTER SETSLOT slot IMPORTING peer`).
    Importing,
}

/// A slot in migration, as one primary reports it in `CLUSTER NODES`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Migration {
    /// The slot, in `0..16384`.
    pub slot: u16,
    /// Migrating away from `node`, or importing into it.
    pub kind: MigrationKind,
    /// The id of the node that reports it.
    pub node: String,
    /// The id of the node at the other end.
    pub peer: String,
}

/// The command a [`Topology`]'s shards were read from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "command", rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Source {
    /// `CLUSTER SHARDS` (Redis 7.0 and later, Valkey).
    ClusterShards,
    /// `CLUSTER SLOTS`, because the server refused `CLUSTER SHARDS` (a server older than
    /// Redis 7.0, or an ACL user without it). `CLUSTER SLOTS` leaves out failed replicas
    /// and replicas that have not taken a write yet (replication offset 0), does not say a
    /// node's health, and lists no primary without slots.
    ClusterSlots {
        /// The server's refusal of `CLUSTER SHARDS`.
        shards_refused: String,
    },
}

/// A cluster's map: its shards, sorted by their first slot (shards without slots last, by
/// primary id), and the slots in migration that its primaries report.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Topology {
    /// The shards.
    pub shards: Vec<Shard>,
    /// Every migrating and importing slot reported by a primary, sorted by slot, then
    /// reporting node.
    pub migrations: Vec<Migration>,
    /// Where the shards were read from.
    pub source: Source,
}

impl Topology {
    /// Reads the topology of the cluster that the node at `url` belongs to.
    ///
    /// `url` is `redis://[[USER]:PASSWORD@]HOST:PORT[/DB]` or
    /// `unix:///PATH?pass=PASSWORD`, as the `redis` crate reads it. The node answers
    /// `INFO cluster` (it must be cluster-enabled), `CLUSTER INFO` (the state must be `ok`)
    /// and `CLUSTER SHARDS`, or `CLUSTER SLOTS` when it refuses `CLUSTER SHARDS`; then every
    /// primary, reached at its address with the URL's user, password and database, answers
    /// `CLUSTER NODES` for its migrating and importing slots.
    ///
    /// `timeout` bounds all of it, connecting included: when it passes, this returns
    /// [`Error::TimedOut`] at once. Answers are checked before use: slots in `0..16384`, no
    /// slot owned twice, one primary per shard with slots, at most [`MAX_NODES`] nodes and
    /// 1 KiB per string.
    ///
    /// # Errors
    ///
    /// [`Error::Url`], [`Error::Unreachable`], [`Error::TimedOut`],
    /// [`Error::PasswordRequired`], [`Error::PasswordRejected`], [`Error::NotCluster`],
    /// [`Error::ClusterState`], [`Error::Refused`], [`Error::Malformed`], each naming the
    /// URL with its password redacted.
    ///
    /// # Examples
    ///
    /// A load generator's keys: 1000 for every primary, each to be sent to the node it
    /// names.
    ///
    /// ```no_run
    /// use std::time::Duration;
    /// use slotgen::cluster::{keys_over_slots, Topology};
    ///
    /// let topology = Topology::fetch("redis://127.0.0.1:7000", Duration::from_secs(10))?;
    /// for shard in &topology.shards {
    ///     let slots = topology.usable_slots(shard, false); // no slot in migration
    ///     for (slot, key) in keys_over_slots(&slots, 1000, b"load:", b"")? {
    ///         // send `SET key ...` to shard.primary.addr
    ///         # let _ = (slot, key);
    ///     }
    /// }
    /// # Ok::<(), slotgen::cluster::Error>(())
    /// ```
    pub fn fetch(url: &str, timeout: Duration) -> Result<Topology, Error> {
        let shown = redact(url);
        let info = url
            .into_connection_info()
            .map_err(|_| Error::Url { url: shown.clone() })?;
        let deadline = Instant::now() + timeout;
        let stage = Arc::new(Mutex::new(format!("connecting to {shown}")));
        let (sender, receiver) = mpsc::channel();
        let worker = Exchange {
            info,
            shown: shown.clone(),
            deadline,
            timeout,
            stage: Arc::clone(&stage),
        };
        // The exchange runs on its own thread, so that a server which trickles bytes cannot
        // hold the caller past the deadline; every read of that thread is bounded by the
        // deadline too, so it ends soon after.
        std::thread::Builder::new()
            .name("slotgen-cluster".to_owned())
            .spawn(move || {
                let _ = sender.send(worker.run());
            })
            .map_err(|e| Error::Unreachable {
                url: shown.clone(),
                during: "starting the exchange".to_owned(),
                reason: crate::text::os_reason(&e),
            })?;
        match receiver.recv_timeout(timeout) {
            Ok(result) => result,
            Err(mpsc::RecvTimeoutError::Timeout) => Err(Error::TimedOut {
                url: shown,
                timeout,
                during: stage.lock().map(|s| s.clone()).unwrap_or_default(),
            }),
            Err(mpsc::RecvTimeoutError::Disconnected) => Err(Error::Unreachable {
                url: shown,
                during: stage.lock().map(|s| s.clone()).unwrap_or_default(),
                reason: "the exchange ended without a result".to_owned(),
            }),
        }
    }

    /// A topology from the answers of one node, without asking anything (for answers
    /// recorded elsewhere): `shards` is the value of `CLUSTER SHARDS`, `nodes` the text of
    /// `CLUSTER NODES` of each primary. `host` stands in for an empty or `?` endpoint (the
    /// node asked).
    ///
    /// # Errors
    ///
    /// [`Error::Malformed`] as [`fetch`](Self::fetch) checks the answers, with `url` as
    /// given.
    pub fn from_answers(
        url: &str,
        host: &str,
        shards: &Value,
        nodes: &[&str],
    ) -> Result<Topology, Error> {
        let mut topology = Topology {
            shards: parse_shards(shards, host).map_err(|reason| Error::Malformed {
                url: url.to_owned(),
                command: "CLUSTER SHARDS".to_owned(),
                reason,
            })?,
            migrations: Vec::new(),
            source: Source::ClusterShards,
        };
        topology
            .sort_and_check()
            .map_err(|reason| Error::Malformed {
                url: url.to_owned(),
                command: "CLUSTER SHARDS".to_owned(),
                reason,
            })?;
        for text in nodes {
            let (_, migrations) = parse_nodes(text).map_err(|reason| Error::Malformed {
                url: url.to_owned(),
                command: "CLUSTER NODES".to_owned(),
                reason,
            })?;
            topology.migrations.extend(migrations);
        }
        topology.sort_migrations();
        Ok(topology)
    }

    /// For each of the 16384 slots, the index in [`shards`](Self::shards) of the shard that
    /// owns it, or `None` for an unassigned slot.
    #[must_use]
    pub fn owners(&self) -> Vec<Option<usize>> {
        let mut owners = vec![None; usize::from(SLOTS)];
        for (i, shard) in self.shards.iter().enumerate() {
            for slot in shard.slots() {
                owners[usize::from(slot)] = Some(i);
            }
        }
        owners
    }

    /// Every slot that some primary reports migrating or importing, sorted, once each.
    #[must_use]
    pub fn migrating_slots(&self) -> Vec<u16> {
        let mut slots: Vec<u16> = self.migrations.iter().map(|m| m.slot).collect();
        slots.sort_unstable();
        slots.dedup();
        slots
    }

    /// The slots of `shard` that keys may use: all of them, or with `include_migrating`
    /// false, those not in [`migrating_slots`](Self::migrating_slots).
    #[must_use]
    pub fn usable_slots(&self, shard: &Shard, include_migrating: bool) -> Vec<u16> {
        let migrating = self.migrating_slots();
        shard
            .slots()
            .filter(|slot| include_migrating || migrating.binary_search(slot).is_err())
            .collect()
    }

    /// The shard and node whose id or `host:port` address is `node`.
    ///
    /// # Errors
    ///
    /// [`Error::UnknownNode`], listing every node.
    pub fn find(&self, node: &str) -> Result<(&Shard, &Node), Error> {
        self.shards
            .iter()
            .flat_map(|shard| shard.nodes().map(move |n| (shard, n)))
            .find(|(_, n)| n.id == node || n.addr == node)
            .ok_or_else(|| Error::UnknownNode {
                node: node.to_owned(),
                known: self
                    .shards
                    .iter()
                    .flat_map(Shard::nodes)
                    .map(|n| format!("{} ({})", n.id, n.addr))
                    .collect(),
            })
    }

    /// Sorts the shards (by first slot; shards without slots last, by primary id) and their
    /// replicas (by address), and checks that no slot is owned twice.
    fn sort_and_check(&mut self) -> Result<(), String> {
        for shard in &mut self.shards {
            shard.replicas.sort_by(|a, b| a.addr.cmp(&b.addr));
        }
        self.shards.sort_by(|a, b| {
            let key = |s: &Shard| s.ranges.first().map_or(u32::MAX, |r| u32::from(r.first));
            key(a)
                .cmp(&key(b))
                .then_with(|| a.primary.id.cmp(&b.primary.id))
        });
        let mut owner: Vec<Option<&str>> = vec![None; usize::from(SLOTS)];
        for shard in &self.shards {
            for slot in shard.slots() {
                if let Some(other) = owner[usize::from(slot)] {
                    return Err(format!(
                        "slot {slot} is owned by both `{other}` and `{}`",
                        shard.primary.id
                    ));
                }
                owner[usize::from(slot)] = Some(&shard.primary.id);
            }
        }
        Ok(())
    }

    fn sort_migrations(&mut self) {
        self.migrations
            .sort_by(|a, b| (a.slot, &a.node).cmp(&(b.slot, &b.node)));
        self.migrations.dedup();
    }
}

/// The exchange of [`Topology::fetch`], on its own thread.
struct Exchange {
    info: ConnectionInfo,
    shown: String,
    deadline: Instant,
    timeout: Duration,
    stage: Arc<Mutex<String>>,
}

impl Exchange {
    fn run(&self) -> Result<Topology, Error> {
        let mut con = self.connect(&self.info, &self.shown)?;
        let info = self.text(&mut con, redis::cmd("INFO").arg("cluster"), Budget::SHORT)?;
        if !info_has(&info, "cluster_enabled", "1") {
            return Err(Error::NotCluster {
                url: self.shown.clone(),
            });
        }
        let cluster_info = self.text(&mut con, redis::cmd("CLUSTER").arg("INFO"), CLUSTER_INFO)?;
        let field = |name: &str| info_field(&cluster_info, name).unwrap_or("?").to_owned();
        if field("cluster_state") != "ok" {
            return Err(Error::ClusterState {
                url: self.shown.clone(),
                state: field("cluster_state"),
                slots_assigned: field("cluster_slots_assigned"),
                slots_fail: field("cluster_slots_fail"),
            });
        }
        let host = match &self.info.addr {
            ConnectionAddr::Tcp(host, _) => host.clone(),
            _ => "127.0.0.1".to_owned(),
        };
        let malformed = |command: &str| {
            let url = self.shown.clone();
            let command = command.to_owned();
            move |reason| Error::Malformed {
                url,
                command,
                reason,
            }
        };
        let (shards, source) = match self.query(&mut con, redis::cmd("CLUSTER").arg("SHARDS"), MAP)
        {
            Ok(value) => (
                parse_shards(&value, &host).map_err(malformed("CLUSTER SHARDS"))?,
                Source::ClusterShards,
            ),
            Err(Error::Refused { reason, .. }) => {
                let value = self.query(&mut con, redis::cmd("CLUSTER").arg("SLOTS"), MAP)?;
                (
                    parse_slots(&value, &host).map_err(malformed("CLUSTER SLOTS"))?,
                    Source::ClusterSlots {
                        shards_refused: reason,
                    },
                )
            }
            Err(e) => return Err(e),
        };
        drop(con);
        let mut topology = Topology {
            shards,
            migrations: Vec::new(),
            source,
        };
        topology
            .sort_and_check()
            .map_err(malformed(match topology.source {
                Source::ClusterShards => "CLUSTER SHARDS",
                Source::ClusterSlots { .. } => "CLUSTER SLOTS",
            }))?;
        // A failed primary cannot answer; its slots, if any, make the state `fail` above.
        let primaries: Vec<Node> = topology
            .shards
            .iter()
            .map(|s| s.primary.clone())
            .filter(|p| p.health.as_deref() != Some("failed"))
            .collect();
        for primary in primaries {
            let (host, port) = split_addr(&primary.addr).ok_or_else(|| Error::Malformed {
                url: self.shown.clone(),
                command: "CLUSTER SHARDS".to_owned(),
                reason: format!("node address `{}` is not `host:port`", primary.addr),
            })?;
            let info = ConnectionInfo {
                addr: ConnectionAddr::Tcp(host.to_owned(), port),
                redis: self.info.redis.clone(),
            };
            let shown = redact_with(&primary.addr, &self.shown);
            let mut con = self.connect(&info, &shown)?;
            let text = self.text(&mut con, redis::cmd("CLUSTER").arg("NODES"), CLUSTER_NODES)?;
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

    fn set_stage(&self, stage: String) {
        if let Ok(mut s) = self.stage.lock() {
            *s = stage;
        }
    }

    fn remaining(&self, shown: &str) -> Result<Duration, Error> {
        self.deadline
            .checked_duration_since(Instant::now())
            .filter(|left| !left.is_zero())
            .ok_or_else(|| Error::TimedOut {
                url: shown.to_owned(),
                timeout: self.timeout,
                during: self.stage.lock().map(|s| s.clone()).unwrap_or_default(),
            })
    }

    fn connect(&self, info: &ConnectionInfo, shown: &str) -> Result<Connection, Error> {
        self.set_stage(format!("connecting to {shown}"));
        self.remaining(shown)?;
        Connection::open(info, shown.to_owned(), Some(self.deadline), self.timeout)
            .map_err(|e| self.lift(e))
    }

    /// The reply to `cmd` within `budget`; an error reply is [`Error::Refused`], or
    /// [`Error::PasswordRequired`] and [`Error::PasswordRejected`] for `NOAUTH` and
    /// `WRONGPASS`.
    fn query(
        &self,
        con: &mut Connection,
        cmd: &redis::Cmd,
        budget: Budget,
    ) -> Result<Value, Error> {
        let command = command_name(cmd);
        let shown = con.url().to_owned();
        self.set_stage(format!("waiting for `{command}` of {shown}"));
        self.remaining(&shown)?;
        let value = con.query(cmd, budget, &command).map_err(|e| self.lift(e))?;
        // A slow answer that came in just after the deadline is still late.
        self.remaining(&shown)?;
        let Value::ServerError(e) = value else {
            return Ok(value);
        };
        let url = shown;
        let code = e.code().to_owned();
        let reason = crate::text::reason(&redis::RedisError::from(e).to_string());
        Err(match code.as_str() {
            "NOAUTH" => Error::PasswordRequired { url },
            "WRONGPASS" => Error::PasswordRejected { url, reason },
            _ => Error::Refused {
                url,
                command,
                reason,
            },
        })
    }

    /// The reply to `cmd` within `budget`, as text (`INFO`, `CLUSTER INFO`, `CLUSTER NODES`).
    fn text(
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
                "the answer is not text but {other:?}"
            )))),
        }
    }

    /// This module's error for an error of the connection.
    fn lift(&self, e: ServerError) -> Error {
        match e {
            ServerError::Url { url } | ServerError::Tls { url } => Error::Url { url },
            ServerError::Connect { url, reason } => Error::Unreachable {
                url,
                during: "connecting".to_owned(),
                reason,
            },
            ServerError::TimedOut { url, .. } => Error::TimedOut {
                url,
                timeout: self.timeout,
                during: self.stage.lock().map(|s| s.clone()).unwrap_or_default(),
            },
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
                command: during,
                limit,
            },
            ServerError::NotRedis { url, during, what } => Error::Malformed {
                url,
                // `during` is a phrase (`answering AUTH`); the message names the command
                command: during
                    .strip_prefix("answering ")
                    .map_or_else(|| during.clone(), str::to_owned),
                reason: what,
            },
            ServerError::Auth { url, message } => Error::PasswordRejected {
                url,
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
            },
            // Not answers of a connection's setup or of `query`, which judges no reply.
            ServerError::NotCluster { url } => Error::NotCluster { url },
            ServerError::Refused { url, message, .. } => Error::Refused {
                url,
                command: "CLUSTER KEYSLOT".to_owned(),
                reason: message,
            },
            ServerError::NotASlot { url, slot, .. } => Error::Malformed {
                url,
                command: "CLUSTER KEYSLOT".to_owned(),
                reason: format!("slot {slot} is not in 0..65536"),
            },
        }
    }
}

/// `CLUSTER SHARDS` for a command `CLUSTER SHARDS`: its first two words.
fn command_name(cmd: &redis::Cmd) -> String {
    cmd.args_iter()
        .take(2)
        .filter_map(|arg| match arg {
            redis::Arg::Simple(bytes) => Some(String::from_utf8_lossy(bytes).to_uppercase()),
            redis::Arg::Cursor => None,
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The value of `name` in `INFO`-style `name:value` lines.
fn info_field<'t>(text: &'t str, name: &str) -> Option<&'t str> {
    text.lines().find_map(|line| {
        let (key, value) = line.trim().split_once(':')?;
        (key == name).then_some(value)
    })
}

fn info_has(text: &str, name: &str, value: &str) -> bool {
    info_field(text, name) == Some(value)
}

/// `host:port` or `[v6]:port`, split.
fn split_addr(addr: &str) -> Option<(&str, u16)> {
    let (host, port) = addr.rsplit_once(':')?;
    let host = host
        .strip_prefix('[')
        .and_then(|h| h.strip_suffix(']'))
        .unwrap_or(host);
    Some((host, port.parse().ok()?))
}

fn join_addr(host: &str, port: u16) -> String {
    if host.contains(':') {
        format!("[{host}]:{port}")
    } else {
        format!("{host}:{port}")
    }
}

/// The URL of another node of the cluster as messages show it: `redis://` and `addr`,
/// with `***` for a password when the entry URL (already redacted) had one.
fn redact_with(addr: &str, entry: &str) -> String {
    let secret = entry.contains(HIDDEN);
    if secret {
        format!("redis://{HIDDEN}@{addr}")
    } else {
        format!("redis://{addr}")
    }
}

/// The text of a bulk, simple or verbatim string, or of an integer.
fn text(value: &Value) -> Option<String> {
    let s = match value {
        Value::BulkString(bytes) => String::from_utf8_lossy(bytes).into_owned(),
        Value::SimpleString(s) => s.clone(),
        Value::VerbatimString { text, .. } => text.clone(),
        Value::Int(n) => n.to_string(),
        Value::Okay => "OK".to_owned(),
        _ => return None,
    };
    (s.len() <= MAX_TEXT).then_some(s)
}

fn int(value: &Value) -> Option<i64> {
    match value {
        Value::Int(n) => Some(*n),
        other => text(other)?.parse().ok(),
    }
}

fn items(value: &Value) -> Option<&[Value]> {
    match value {
        Value::Array(items) | Value::Set(items) => Some(items),
        _ => None,
    }
}

/// The fields of a RESP3 map, or of a RESP2 array of alternating names and values.
fn fields(value: &Value) -> Result<Vec<(String, &Value)>, String> {
    match value {
        Value::Map(pairs) => pairs
            .iter()
            .map(|(k, v)| Ok((text(k).ok_or("a field name is not text")?, v)))
            .collect(),
        Value::Array(items) if items.len() % 2 == 0 => items
            .chunks_exact(2)
            .map(|pair| Ok((text(&pair[0]).ok_or("a field name is not text")?, &pair[1])))
            .collect(),
        _ => Err("a shard or node is not a map of fields".to_owned()),
    }
}

fn field<'v>(fields: &[(String, &'v Value)], name: &str) -> Option<&'v Value> {
    fields.iter().find(|(k, _)| k == name).map(|(_, v)| *v)
}

fn slot(value: &Value) -> Result<u16, String> {
    int(value)
        .and_then(|n| u16::try_from(n).ok())
        .filter(|&n| n < SLOTS)
        .ok_or_else(|| format!("slot {value:?} is not in 0..16384"))
}

fn range(first: &Value, last: &Value) -> Result<SlotRange, String> {
    let (first, last) = (slot(first)?, slot(last)?);
    if first > last {
        return Err(format!("slot range {first}-{last} runs backwards"));
    }
    Ok(SlotRange { first, last })
}

/// Sorts and merges ranges; overlapping ranges of one shard are an error.
fn merge(mut ranges: Vec<SlotRange>) -> Result<Vec<SlotRange>, String> {
    ranges.sort();
    let mut merged: Vec<SlotRange> = Vec::with_capacity(ranges.len());
    for r in ranges {
        match merged.last_mut() {
            Some(last) if r.first <= last.last => {
                return Err(format!("slot ranges {last} and {r} overlap"));
            }
            Some(last) if u32::from(last.last) + 1 == u32::from(r.first) => last.last = r.last,
            _ => merged.push(r),
        }
    }
    Ok(merged)
}

/// The shards of a `CLUSTER SHARDS` answer.
fn parse_shards(value: &Value, entry_host: &str) -> Result<Vec<Shard>, String> {
    let list = items(value).ok_or("the answer is not a list of shards")?;
    let mut shards = Vec::new();
    let mut nodes_seen = 0usize;
    for shard in list {
        let shard = fields(shard)?;
        let slots = field(&shard, "slots").and_then(items).unwrap_or(&[]);
        if slots.len() % 2 != 0 || slots.len() > 2 * usize::from(SLOTS) {
            return Err("`slots` is not a list of first and last slots".to_owned());
        }
        let ranges = merge(
            slots
                .chunks_exact(2)
                .map(|p| range(&p[0], &p[1]))
                .collect::<Result<_, _>>()?,
        )?;
        let members = field(&shard, "nodes")
            .and_then(items)
            .ok_or("a shard has no `nodes` list")?;
        nodes_seen += members.len();
        if nodes_seen > MAX_NODES {
            return Err(format!("more than {MAX_NODES} nodes"));
        }
        let mut primaries = Vec::new();
        let mut replicas = Vec::new();
        for member in members {
            let member = fields(member)?;
            let get = |name| field(&member, name).and_then(text);
            let id = get("id")
                .filter(|id| !id.is_empty())
                .ok_or("a node has no `id`")?;
            let host = get("endpoint")
                .filter(|h| !h.is_empty() && h != "?")
                .or_else(|| get("ip").filter(|h| !h.is_empty() && h != "?"))
                .unwrap_or_else(|| entry_host.to_owned());
            let port = field(&member, "port")
                .or_else(|| field(&member, "tls-port"))
                .and_then(int)
                .and_then(|p| u16::try_from(p).ok())
                .ok_or_else(|| format!("node `{id}` has no port"))?;
            let role = match get("role").as_deref() {
                Some("master") | Some("primary") => Role::Primary,
                Some("replica") | Some("slave") => Role::Replica,
                other => return Err(format!("node `{id}` has role {other:?}")),
            };
            let node = Node {
                id,
                addr: join_addr(&host, port),
                role,
                health: get("health"),
            };
            match role {
                Role::Primary => primaries.push(node),
                Role::Replica => replicas.push(node),
            }
        }
        // After a failover, the replaced primary stays listed as a failed `master` of the
        // shard until it comes back as a replica: it is left out.
        if primaries.len() > 1 {
            primaries.retain(|p| p.health.as_deref() != Some("failed"));
        }
        if primaries.len() > 1 {
            return Err(format!(
                "a shard has {} primaries that are not failed: {}",
                primaries.len(),
                primaries
                    .iter()
                    .map(|p| format!("`{}`", p.id))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        let primary = primaries.pop();
        match primary {
            Some(primary) => shards.push(Shard {
                primary,
                replicas,
                ranges,
            }),
            // A shard whose primary failed and no replica took over yet.
            None if !ranges.is_empty() => {
                return Err(format!(
                    "the shard of slots {} has no primary (a failover in progress?); try again when it has one",
                    show_ranges(&ranges)
                ));
            }
            None => {}
        }
    }
    Ok(shards)
}

/// The shards of a `CLUSTER SLOTS` answer: `[first, last, [host, port, id, ...], replicas...]`
/// per range, grouped by primary.
fn parse_slots(value: &Value, entry_host: &str) -> Result<Vec<Shard>, String> {
    let list = items(value).ok_or("the answer is not a list of slot ranges")?;
    if list.len() > usize::from(SLOTS) {
        return Err("more slot ranges than slots".to_owned());
    }
    let mut by_primary: BTreeMap<String, (Shard, Vec<SlotRange>)> = BTreeMap::new();
    let mut nodes_seen = 0usize;
    for entry in list {
        let entry = items(entry).ok_or("a slot range is not a list")?;
        if entry.len() < 3 {
            return Err("a slot range has no primary".to_owned());
        }
        nodes_seen += entry.len() - 2;
        if nodes_seen > MAX_NODES {
            return Err(format!("more than {MAX_NODES} nodes"));
        }
        let r = range(&entry[0], &entry[1])?;
        let node = |value: &Value, role| -> Result<Node, String> {
            let parts = items(value).ok_or("a node is not a list")?;
            let host = parts
                .first()
                .and_then(text)
                .filter(|h| !h.is_empty() && h != "?")
                .unwrap_or_else(|| entry_host.to_owned());
            let port = parts
                .get(1)
                .and_then(int)
                .and_then(|p| u16::try_from(p).ok())
                .ok_or("a node has no port")?;
            let addr = join_addr(&host, port);
            Ok(Node {
                id: parts.get(2).and_then(text).unwrap_or_else(|| addr.clone()),
                addr,
                role,
                health: None,
            })
        };
        let primary = node(&entry[2], Role::Primary)?;
        let replicas = entry[3..]
            .iter()
            .map(|v| node(v, Role::Replica))
            .collect::<Result<Vec<_>, _>>()?;
        let slot_ranges = &mut by_primary.entry(primary.id.clone()).or_insert_with(|| {
            (
                Shard {
                    primary,
                    replicas: Vec::new(),
                    ranges: Vec::new(),
                },
                Vec::new(),
            )
        });
        for replica in replicas {
            if !slot_ranges.0.replicas.iter().any(|n| n.id == replica.id) {
                slot_ranges.0.replicas.push(replica);
            }
        }
        slot_ranges.1.push(r);
    }
    by_primary
        .into_values()
        .map(|(mut shard, ranges)| {
            shard.ranges = merge(ranges)?;
            Ok(shard)
        })
        .collect()
}

/// The id of the `myself` node of a `CLUSTER NODES` answer, and the slots that node reports
/// migrating (`[slot->-peer]`) and importing (`[slot-<-peer]`).
fn parse_nodes(text: &str) -> Result<(String, Vec<Migration>), String> {
    let line = text
        .lines()
        .find(|line| {
            line.split(' ')
                .nth(2)
                .is_some_and(|flags| flags.split(',').any(|f| f == "myself"))
        })
        .ok_or("no line is flagged `myself`")?;
    let words: Vec<&str> = line.split(' ').collect();
    let myself = words[0].to_owned();
    if myself.is_empty() || myself.len() > MAX_TEXT {
        return Err("the `myself` line has no node id".to_owned());
    }
    let mut migrations = Vec::new();
    for word in words.iter().skip(8) {
        let Some(inner) = word.strip_prefix('[').and_then(|w| w.strip_suffix(']')) else {
            continue;
        };
        let (slot, kind, peer) = if let Some((slot, peer)) = inner.split_once("->-") {
            (slot, MigrationKind::Migrating, peer)
        } else if let Some((slot, peer)) = inner.split_once("-<-") {
            (slot, MigrationKind::Importing, peer)
        } else {
            return Err(format!(
                "`{word}` is neither `[slot->-id]` nor `[slot-<-id]`"
            ));
        };
        let slot = slot
            .parse::<u16>()
            .ok()
            .filter(|&s| s < SLOTS)
            .ok_or_else(|| format!("`{word}`: the slot is not in 0..16384"))?;
        if migrations.len() >= usize::from(SLOTS) {
            return Err("more migrations than slots".to_owned());
        }
        migrations.push(Migration {
            slot,
            kind,
            node: myself.clone(),
            peer: peer.to_owned(),
        });
    }
    Ok((myself, migrations))
}

/// `count` distinct keys `prefix{tag}suffix[n]` spread evenly over `slots` (a node's slots,
/// sorted), as `(slot, key)` pairs, made lazily with the tags of [`REDIS_CLUSTER`].
///
/// With `count <= slots.len()`, key `i` lands on `slots[i * len / count]`: distinct slots
/// at even spacing. With more, every slot takes `count / len` keys and the remainder is
/// spread as above: round `r` of a slot uses its `r % 4`-th tag (the canonical tag, then the
/// alternatives of [`SlotTable::tags_for_slot`](slotgen_tables::SlotTable::tags_for_slot)),
/// and from round 4 on, the decimal counter `r / 4` follows the suffix. Keys come in rounds:
/// one key on each slot, then the next round. No two keys are equal (`slots` is sorted and
/// made distinct first); with empty `slots` there are none.
///
/// # Errors
///
/// [`Error::Key`] when `prefix` holds `{` (the key's hashtag would start there), or a slot
/// is 16384 or more.
///
/// # Examples
///
/// ```
/// use slotgen::cluster::keys_over_slots;
///
/// // Six keys on one slot: its four tags, then a counter after the suffix.
/// let keys: Vec<String> = keys_over_slots(&[0], 6, b"", b":x")?
///     .map(|(_, key)| String::from_utf8(key).unwrap())
///     .collect();
/// assert_eq!(keys, ["{DLH@}:x", "{AKOB}:x", "{NBFE}:x", "{KEAG}:x", "{DLH@}:x1", "{AKOB}:x1"]);
/// # Ok::<(), slotgen::cluster::Error>(())
/// ```
pub fn keys_over_slots(
    slots: &[u16],
    count: u64,
    prefix: &[u8],
    suffix: &[u8],
) -> Result<KeysOverSlots, Error> {
    let mut slots = slots.to_vec();
    slots.sort_unstable();
    slots.dedup();
    if let Some(&slot) = slots.first() {
        REDIS_CLUSTER.key_for_slot(prefix, slot, suffix)?;
    }
    if let Some(&last) = slots.last() {
        REDIS_CLUSTER.tag_for_slot(last)?;
    }
    Ok(KeysOverSlots {
        count: if slots.is_empty() { 0 } else { count },
        slots,
        prefix: prefix.to_vec(),
        suffix: suffix.to_vec(),
        next: 0,
    })
}

/// The keys of [`keys_over_slots`]: `(slot, key)`.
#[derive(Clone, Debug)]
pub struct KeysOverSlots {
    slots: Vec<u16>,
    count: u64,
    prefix: Vec<u8>,
    suffix: Vec<u8>,
    next: u64,
}

impl Iterator for KeysOverSlots {
    type Item = (u16, Vec<u8>);

    fn next(&mut self) -> Option<(u16, Vec<u8>)> {
        if self.next >= self.count {
            return None;
        }
        let i = self.next;
        self.next += 1;
        let len = self.slots.len() as u64;
        let full = self.count / len * len;
        let (slot, round) = if i < full {
            (self.slots[(i % len) as usize], i / len)
        } else {
            // The last, partial round: spread at even spacing.
            let rest = self.count - full;
            let j = i - full;
            // j < rest <= len <= 16384: the product fits.
            (self.slots[(j * len / rest) as usize], self.count / len)
        };
        let per_slot = REDIS_CLUSTER.tags_per_slot();
        let tag = REDIS_CLUSTER
            .tags_for_slot(slot)
            .ok()?
            .nth((round % per_slot) as usize)?;
        let mut key = Vec::with_capacity(self.prefix.len() + tag.len() + 2 + self.suffix.len() + 4);
        key.extend_from_slice(&self.prefix);
        key.push(b'{');
        key.extend_from_slice(tag.as_ref());
        key.push(b'}');
        key.extend_from_slice(&self.suffix);
        let counter = round / per_slot;
        if counter > 0 {
            key.extend_from_slice(counter.to_string().as_bytes());
        }
        Some((slot, key))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = usize::try_from(self.count - self.next).unwrap_or(usize::MAX);
        (left, Some(left))
    }
}

/// `total` split over `parts` as evenly as can be: each part `total / parts`, the first
/// `total % parts` one more. Empty when `parts` is 0.
///
/// # Examples
///
/// ```
/// assert_eq!(slotgen::cluster::split_evenly(10, 3), [4, 3, 3]);
/// ```
#[must_use]
pub fn split_evenly(total: u64, parts: usize) -> Vec<u64> {
    if parts == 0 {
        return Vec::new();
    }
    let n = parts as u64;
    (0..n)
        .map(|i| total / n + u64::from(i < total % n))
        .collect()
}

/// Where keys fall: the number of keys on each of the 16384 slots, by
/// [`REDIS_CLUSTER`]'s `key_slot` (what `CLUSTER KEYSLOT` answers).
///
/// # Examples
///
/// ```
/// use slotgen::cluster::Placement;
///
/// let mut placement = Placement::new();
/// for key in [&b"a"[..], b"{a}x", b"b"] {
///     placement.add(key);
/// }
/// assert_eq!(placement.keys, 3);
/// assert_eq!(placement.per_slot[15495], 2); // `a` and `{a}x`
/// assert_eq!(placement.top_slots(1), [(15495, 2)]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placement {
    /// Keys counted.
    pub keys: u64,
    /// 16384 counts, indexed by slot.
    pub per_slot: Vec<u64>,
}

impl Default for Placement {
    fn default() -> Self {
        Self::new()
    }
}

/// The keys of one shard in a [`Placement`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NodeLoad {
    /// The index of the shard in [`Topology::shards`].
    pub shard: usize,
    /// Keys on the shard's slots.
    pub keys: u64,
    /// Slots of the shard that hold at least one key.
    pub slots_used: u32,
}

impl Placement {
    /// No keys yet.
    #[must_use]
    pub fn new() -> Self {
        Self {
            keys: 0,
            per_slot: vec![0; usize::from(SLOTS)],
        }
    }

    /// Counts `key` and returns its slot.
    pub fn add(&mut self, key: &[u8]) -> u16 {
        let slot = REDIS_CLUSTER.key_slot(key);
        self.per_slot[usize::from(slot)] += 1;
        self.keys += 1;
        slot
    }

    /// The number of slots with at least one key.
    #[must_use]
    pub fn slots_used(&self) -> u32 {
        self.per_slot.iter().filter(|&&n| n > 0).count() as u32
    }

    /// The `n` slots with the most keys, as `(slot, keys)`, most first, ties by slot; slots
    /// without keys are left out.
    #[must_use]
    pub fn top_slots(&self, n: usize) -> Vec<(u16, u64)> {
        let mut used: Vec<(u16, u64)> = (0..SLOTS)
            .zip(self.per_slot.iter().copied())
            .filter(|&(_, k)| k > 0)
            .collect();
        used.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        used.truncate(n);
        used
    }

    /// The keys of every shard of `topology`, in its order, and the keys on slots that no
    /// shard owns.
    #[must_use]
    pub fn by_node(&self, topology: &Topology) -> (Vec<NodeLoad>, u64) {
        let mut loads: Vec<NodeLoad> = (0..topology.shards.len())
            .map(|shard| NodeLoad {
                shard,
                keys: 0,
                slots_used: 0,
            })
            .collect();
        let mut unowned = 0;
        for (owner, &keys) in topology.owners().iter().zip(&self.per_slot) {
            match owner {
                Some(i) => {
                    loads[*i].keys += keys;
                    loads[*i].slots_used += u32::from(keys > 0);
                }
                None => unowned += keys,
            }
        }
        (loads, unowned)
    }
}

/// The skew of a load: the largest count over the mean, 1.0 for a perfect balance (and for
/// no load at all).
///
/// # Examples
///
/// ```
/// assert_eq!(slotgen::cluster::skew(&[30, 30, 60]), 1.5);
/// ```
#[must_use]
pub fn skew(counts: &[u64]) -> f64 {
    let total: u64 = counts.iter().sum();
    let max = counts.iter().copied().max().unwrap_or(0);
    if total == 0 {
        return 1.0;
    }
    max as f64 * counts.len() as f64 / total as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct_and_on_their_slots() {
        let slots: Vec<u16> = (100..110).collect();
        for count in [0, 1, 3, 10, 11, 39, 40, 41, 95] {
            let keys: Vec<_> = keys_over_slots(&slots, count, b"p:", b"")
                .unwrap()
                .collect();
            assert_eq!(keys.len() as u64, count);
            let mut distinct: Vec<&Vec<u8>> = keys.iter().map(|(_, k)| k).collect();
            distinct.sort();
            distinct.dedup();
            assert_eq!(distinct.len() as u64, count, "count {count}");
            for (slot, key) in &keys {
                assert_eq!(REDIS_CLUSTER.key_slot(key), *slot);
            }
            // balanced: per-slot counts differ by at most one
            let mut per = [0u64; 10];
            for (slot, _) in &keys {
                per[usize::from(slot - 100)] += 1;
            }
            let (lo, hi) = (per.iter().min().unwrap(), per.iter().max().unwrap());
            assert!(hi - lo <= 1, "count {count}: {per:?}");
        }
    }

    #[test]
    fn fewer_keys_than_slots_take_evenly_spaced_slots() {
        let slots: Vec<u16> = (0..5461).collect();
        let got: Vec<u16> = keys_over_slots(&slots, 4, b"", b"")
            .unwrap()
            .map(|(s, _)| s)
            .collect();
        assert_eq!(got, [0, 1365, 2730, 4095]);
        assert!(keys_over_slots(&slots, 1, b"a{", b"").is_err());
    }

    #[test]
    fn ranges_merge_and_print() {
        assert_eq!(show_ranges(&ranges_of(&[0, 1, 2, 7, 9, 10])), "0-2,7,9-10");
        assert_eq!(show_ranges(&[]), "-");
        assert!(merge(vec![
            SlotRange { first: 0, last: 5 },
            SlotRange { first: 5, last: 6 }
        ])
        .is_err());
    }

    #[test]
    fn nodes_lines_give_migrations() {
        let text = "a1 127.0.0.1:7000@17000 myself,master - 0 0 1 connected 0-5460 [5461-<-b2] [10->-c3]\n\
                    b2 127.0.0.1:7001@17001 master - 0 0 2 connected 5461-10922 [5461->-a1]\n";
        let (me, migrations) = parse_nodes(text).unwrap();
        assert_eq!(me, "a1");
        assert_eq!(migrations.len(), 2);
        assert_eq!(migrations[0].slot, 5461);
        assert_eq!(migrations[0].kind, MigrationKind::Importing);
        assert_eq!(migrations[1].peer, "c3");
        assert!(parse_nodes("a b master").is_err());
        assert!(parse_nodes("a h:1@2 myself,master - 0 0 1 connected [16384->-b]").is_err());
    }

    #[test]
    fn bad_shards_are_refused() {
        let node = |id: &str, role: &str| {
            Value::Array(vec![
                Value::BulkString(b"id".to_vec()),
                Value::BulkString(id.as_bytes().to_vec()),
                Value::BulkString(b"port".to_vec()),
                Value::Int(7000),
                Value::BulkString(b"ip".to_vec()),
                Value::BulkString(b"127.0.0.1".to_vec()),
                Value::BulkString(b"role".to_vec()),
                Value::BulkString(role.as_bytes().to_vec()),
            ])
        };
        let shard = |slots: Vec<i64>, nodes: Vec<Value>| {
            Value::Array(vec![
                Value::BulkString(b"slots".to_vec()),
                Value::Array(slots.into_iter().map(Value::Int).collect()),
                Value::BulkString(b"nodes".to_vec()),
                Value::Array(nodes),
            ])
        };
        let ok = Value::Array(vec![shard(vec![0, 9], vec![node("a", "master")])]);
        assert_eq!(parse_shards(&ok, "h").unwrap()[0].slot_count(), 10);
        for bad in [
            Value::Array(vec![shard(vec![0, 16384], vec![node("a", "master")])]),
            Value::Array(vec![shard(vec![9, 0], vec![node("a", "master")])]),
            Value::Array(vec![shard(vec![0], vec![node("a", "master")])]),
            Value::Array(vec![shard(vec![0, 9], vec![node("a", "replica")])]),
            Value::Array(vec![shard(
                vec![0, 9],
                vec![node("a", "master"), node("b", "master")],
            )]),
            Value::Int(3),
        ] {
            assert!(parse_shards(&bad, "h").is_err(), "{bad:?}");
        }
        // a replaced primary, failed, beside the new one: left out
        let failed = |id: &str| {
            let Value::Array(mut fields) = node(id, "master") else {
                unreachable!()
            };
            fields.push(Value::BulkString(b"health".to_vec()));
            fields.push(Value::BulkString(b"failed".to_vec()));
            Value::Array(fields)
        };
        let failover = Value::Array(vec![shard(
            vec![0, 9],
            vec![failed("old"), node("new", "master"), node("r", "replica")],
        )]);
        let shards = parse_shards(&failover, "h").unwrap();
        assert_eq!(shards[0].primary.id, "new");
        assert_eq!(shards[0].replicas.len(), 1);
        assert!(keys_over_slots(&[16384], 1, b"", b"").is_err());
        let twice = Value::Array(vec![
            shard(vec![0, 9], vec![node("a", "master")]),
            shard(vec![9, 9], vec![node("b", "master")]),
        ]);
        assert!(Topology::from_answers("u", "h", &twice, &[]).is_err());
    }

    #[test]
    fn skew_and_split() {
        assert_eq!(split_evenly(2, 3), [1, 1, 0]);
        assert!(split_evenly(5, 0).is_empty());
        assert_eq!(skew(&[]), 1.0);
        assert_eq!(skew(&[0, 0]), 1.0);
        assert_eq!(skew(&[10, 10]), 1.0);
    }
}
