//! One node of a cluster as the map gives it ([`Node`]) and its [`Role`]: a leaf, which
//! the map ([`crate::Topology`]) and the errors that name nodes both use.

use std::fmt;

use serde::Serialize;

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
    /// `CLUSTER SHARDS`' `health`, as the server gives it: `online`, `loading` (a replica
    /// that has taken no write yet, replication offset 0), or `fail` (Redis 7.0 and
    /// Valkey 8.0; `failed` in Redis's documentation); `None` from `CLUSTER SLOTS`, which
    /// does not say. Any other word is kept as given: escape it before printing it
    /// ([`crate::text::field`]). Failed nodes are not in a [`Topology`](crate::Topology)'s shards but in its
    /// [`left_out`](crate::Topology::left_out).
    pub health: Option<String>,
}

impl Node {
    /// Whether the node serves requests as far as the map says: its health is `online`, or
    /// not given (`CLUSTER SLOTS` lists no failed node, and no replica that has taken no
    /// write yet). A `loading` replica, or one of a health that slotgen does not know, is
    /// not handed out for reads.
    ///
    /// # Examples
    ///
    /// ```
    /// use slotgen_cluster::{Node, Role};
    ///
    /// let mut node = Node {
    ///     id: "0123456789abcdef0123456789abcdef01234567".to_owned(),
    ///     addr: "127.0.0.1:7000".to_owned(),
    ///     role: Role::Replica,
    ///     health: Some("loading".to_owned()),
    /// };
    /// assert!(!node.serves());
    /// node.health = Some("online".to_owned());
    /// assert!(node.serves());
    /// ```
    #[must_use]
    pub fn serves(&self) -> bool {
        matches!(self.health.as_deref(), None | Some("online"))
    }
}
