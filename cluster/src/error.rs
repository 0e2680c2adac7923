//! [`Error`]: why a cluster's topology cannot be read, or keys cannot be made for it.

use std::time::Duration;

use super::MAX_NODES;
use crate::transport::{Denied, Limit, TlsError};

/// Why a cluster's topology cannot be read, or keys cannot be made for it.
///
/// Every URL in a message is shown with its password replaced by `***` ([`crate::url::redact`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The URL cannot be parsed.
    #[error("`{url}` is not a server URL ({reason}): give `redis://HOST:PORT`, `rediss://HOST:PORT` (TLS) or `unix:///PATH/TO/SOCKET`, with `USER:PASSWORD@` before the host if the cluster needs it")]
    Url {
        /// The URL, redacted.
        url: String,
        /// What is wrong with it.
        reason: String,
    },
    /// TLS settings that cannot be used, or a failed TLS handshake with a node.
    #[error("TLS with `{url}`: {error}")]
    Tls {
        /// The URL of the node, redacted.
        url: String,
        /// Why.
        error: TlsError,
    },
    /// The ACL user may not run a command slotgen needs (`NOPERM`). For a command of the
    /// map, the message names every rule the map needs, so that one `ACL SETUSER` grants them
    /// all.
    #[error("`{url}`: {denied} (NOPERM){}", map_note(denied))]
    NoPermission {
        /// The URL of the node, redacted.
        url: String,
        /// The user and the commands refused.
        denied: Denied,
    },
    /// Nothing accepts connections there, or the connection broke.
    #[error(
        "cannot reach `{url}` ({during}): {reason}; {}",
        unreachable_advice(reason)
    )]
    Unreachable {
        /// The URL of the node, redacted.
        url: String,
        /// What was being done.
        during: String,
        /// The operating system's or the client's reason.
        reason: String,
    },
    /// A node that the cluster's map names as serving did not answer: it failed or left
    /// after the map was read, before the cluster marked it failed.
    #[error("cannot reach `{url}` ({during}): {reason}; the cluster's map names node {id} there, which may have failed since: try again once the cluster has marked it failed or it is back (`CLUSTER NODES` flags a failed node `fail`)")]
    NodeUnreachable {
        /// The URL of the node, redacted.
        url: String,
        /// Its id, as the map gives it.
        id: String,
        /// What was being done.
        during: String,
        /// The operating system's or the client's reason.
        reason: String,
    },
    /// A primary at an end of a slot's move did not answer during the move: it failed or
    /// stopped. What to do depends on whether a replica can take its place, as the map read
    /// at the start of the run says (`down_note`).
    #[error("cannot reach `{url}` ({during}): {reason}; {}", down_note(.id, .replicas, *.at_source, *.lost_if_dead))]
    MoveEndDown {
        /// The URL of the node, redacted.
        url: String,
        /// Its id, as the map gives it (a `Box<str>`: the error stays within 128 bytes).
        id: Box<str>,
        /// What was being done.
        during: String,
        /// The operating system's or the client's reason.
        reason: String,
        /// Its replicas in the map read at the start of the run, each with why it cannot
        /// take its place where it was asked and cannot ([`crate::after_stop`] asks them, by
        /// the server's rule); the stop says to wait for the failover unless every one
        /// cannot.
        replicas: Vec<(crate::node::Node, Option<String>)>,
        /// Whether it is the move's source (the keys not moved yet are there); else the
        /// target (the keys moved so far are there).
        at_source: bool,
        /// Where it keeps no keys on disk, as asked before the moves ([`crate::rights::KEEPS`]):
        /// how many of the slot's keys were there (not moved yet on a source, moved so far
        /// on a target), lost if its process ended; `None` where it keeps some, or where
        /// that is not known.
        lost_if_dead: Option<u32>,
    },
    /// [`Error::MoveEndDown`] (`down`) where a replica of that end refused (`NOPERM`,
    /// [`Error::NoPermission`]: `refusal`) what it is asked to tell whether it can take the
    /// place ([`crate::rights::HEIR`]): not known then, and no failover was waited for.
    #[error("{down}; slotgen did not wait for a failover, as a replica could not be asked whether it can take the place ({refusal}): grant it on every node (a replica that takes the place needs the run's rights as a primary), then run again")]
    NotAsked {
        /// The end that stopped answering ([`Error::MoveEndDown`]).
        down: Box<Error>,
        /// The replica's refusal ([`Error::NoPermission`]).
        refusal: Box<Error>,
    },
    /// The target of a classic move holds fewer of the slot's keys (in `db`) than were moved
    /// to it, and started again during the move (`uptime_in_seconds` less than the move's
    /// time): it came back without its data before the source's next `MIGRATE`, which
    /// carried on into it, and the keys moved before are gone (`MIGRATE` deleted them on the
    /// source; its replica syncs from it). Before, the stop came at the target's closed
    /// connection (`CLUSTER SETSLOT NODE`), every key moved said lost if its process ended.
    #[error("`{url}` holds {held} of the slot's keys{} after {moved} were moved to it: it started again {uptime} s ago, during the move, without the keys moved to it before; at least {} of the slot's keys are lost (`MIGRATE` deleted them on the source, and a replica of the target syncs from it): restore them from a backup, if one holds them", if *.db > 0 { format!(" in database {}", .db) } else { String::new() }, .moved.saturating_sub(*.held))]
    TargetLostKeys {
        /// The target's URL, redacted.
        url: String,
        /// The database.
        db: u32,
        /// The keys of the slot moved to it in that database by this move.
        moved: u64,
        /// The keys of the slot it holds there (`CLUSTER COUNTKEYSINSLOT`).
        held: u64,
        /// Its `uptime_in_seconds` (`INFO server`).
        uptime: u64,
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
    /// A command not sent on a connection that owes an earlier command's answer (it did not
    /// come whole, and may still come: read then, it would be taken for this command's).
    #[error("`{url}`: `{command}` was not sent, as the answer to `{owed}` before it on that connection did not come whole and may still come; a new connection asks again")]
    AnswerOwed {
        /// The URL of the node, redacted.
        url: String,
        /// The command not sent.
        command: String,
        /// The command whose answer is owed.
        owed: String,
    },
    /// The server wants a password and none was given (`NOAUTH`).
    #[error("`{url}` requires a password (`NOAUTH`): give the password (and the ACL user) the cluster is configured with")]
    PasswordRequired {
        /// The URL, redacted.
        url: String,
    },
    /// A password was given to a server that has none set for the user.
    #[error("`{url}` has no password set for user `{user}`, and refused the one given: connect without a password")]
    NoPasswordSet {
        /// The URL, redacted.
        url: String,
        /// The ACL user (`default` when none was given), escaped.
        user: String,
    },
    /// The server refused the user name or password.
    #[error("`{url}` refused the password of user `{user}` ({reason}): give the password the cluster is configured with (`requirepass`, or the ACL user's)")]
    PasswordRejected {
        /// The URL, redacted.
        url: String,
        /// The ACL user (`default` when none was given), escaped.
        user: String,
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
    #[error("the cluster of `{url}` is in state `{state}`, not `ok` (`CLUSTER INFO`: {slots_assigned} of 16384 slots assigned, {slots_fail} failing){}: its map cannot be trusted; wait until every slot is assigned and served, then try again{}", flagged_note(.flagged), failing_note(.slots_assigned, .slots_fail))]
    ClusterState {
        /// The URL, redacted.
        url: String,
        /// The nodes its `CLUSTER NODES` flags failing, each `id (address) flags`, escaped
        /// (empty where none is, or where it did not answer).
        flagged: Vec<String>,
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
        /// Where the error is a `MOVED` redirection: the slot and the node it names
        /// (`host:port`, escaped), as the redis crate reads them
        /// ([`redis::RedisError::redirect_node`]); `None` for any other error.
        moved: Option<(u16, String)>,
    },
    /// An answer was larger than any answer of a cluster of up to [`MAX_NODES`] nodes: more
    /// bytes or RESP values than the command's budget, or a longer string.
    #[error("`{url}` sent a reply too large for `{command}`: more than {limit}, more than any node of a cluster of up to {} nodes answers to it; check that it is a Redis or Valkey cluster node, or give the URL of another node of the cluster", MAX_NODES)]
    ReplyTooLarge {
        /// The URL of the node, redacted.
        url: String,
        /// The command.
        command: String,
        /// The bound passed.
        limit: Limit,
    },
    /// The server's answer is not what a cluster node answers to the command (a topology, or
    /// per-slot statistics).
    #[error("`{url}` answered `{command}` with something that is not a cluster node's answer: {}; check that the URL names a Redis or Valkey cluster node", crate::transport::hide_sent(.reason))]
    Malformed {
        /// The URL of the node, redacted.
        url: String,
        /// The command.
        command: String,
        /// What is wrong with the answer, quoting it: shown with each word that holds a
        /// password sent, or a part of it, as `***` ([`hide_sent`](crate::transport::hide_sent)).
        reason: String,
    },
    /// The id or address of a node that the cluster marks failed (or whose shard has no
    /// primary): it is in the map's [`left_out`](super::Topology::left_out), not its shards.
    #[error("the node `{}` is {shown}, which the cluster left out: {reason}; if it has failed, wait until a replica takes its place (the cluster fails it over once `cluster-node-timeout` has passed), then name the primary that holds its slots now (`slotgen nodes` lists the primaries)", crate::text::escape_text(.node))]
    LeftOutNode {
        /// The id or `host:port` asked for.
        node: String,
        /// The node, `id (host:port)`.
        shown: String,
        /// Why the map left it out, as [`LeftOut::reason`](super::LeftOut::reason) says it.
        reason: String,
    },
    /// No node of the topology has this id or address.
    #[error("no node of the cluster has id or address `{}`: the nodes are {}", crate::text::escape_text(.node), crate::text::shorten(&known.join(", "), 20 * crate::text::MAX_SHOWN))]
    UnknownNode {
        /// The id or `host:port` asked for.
        node: String,
        /// `id (host:port)` of every node.
        known: Vec<String>,
    },
    /// A metric of per-slot load that the cluster does not collect
    /// ([`SlotLoad::require`](super::SlotLoad::require)).
    #[error("the cluster does not collect `{metric}` per slot ({why}); it collects {}", if collected.is_empty() { "nothing".to_owned() } else { collected.join(", ") })]
    NotCollected {
        /// The metric asked for, as [`Metric::name`](super::Metric::name) gives it.
        metric: String,
        /// Why not, and how to make the servers collect it.
        why: String,
        /// The metrics it does collect.
        collected: Vec<String>,
    },
    /// A metric's values sum past `u64::MAX`, or one is `u64::MAX`
    /// ([`SlotLoad::require`](super::SlotLoad::require)): not a measurement.
    #[error("the `{metric}` of the slots sums past 2^64 - 1 at slot {slot}: no server measures that much, so the servers' answers are not a measurement (`{command}` on the slot's primary shows its own): check that the URL names a Redis or Valkey cluster node{}", if *others { ", or order by another metric" } else { "" })]
    Overflow {
        /// The metric, as [`Metric::name`](super::Metric::name) gives it.
        metric: String,
        /// The slot at which the sum passed the limit (in slot order).
        slot: u16,
        /// The command that gives that slot's value, as [`LoadSource::command`](super::LoadSource::command) spells it.
        command: String,
        /// Whether another metric is collected, to order by.
        others: bool,
    },
    /// Weights of the primaries that cannot be used
    /// ([`SlotLoad::summary`](super::SlotLoad::summary)).
    #[error("weights of the primaries: {reason}")]
    Weights {
        /// What is wrong with them.
        reason: String,
    },
    /// The input of a rebalance plan breaks a rule.
    #[error("cannot plan a rebalance: {rule}")]
    PlanInput {
        /// The rule broken and the way out.
        rule: String,
    },
    /// A slot is migrating or importing: a rebalance does not start over a move under way.
    #[error("{slots} migrating or importing (`CLUSTER NODES` shows `[slot->-id]` or `[slot-<-id]`): finish or undo that move first (`slotgen rebalance --apply` finishes a half-moved slot before it plans), then plan again")]
    MigrationUnderWay {
        /// The slots, as ranges, with their verb (`slot 12 is`, `slots 12,100-102 are`).
        slots: String,
    },
    /// A slot of a plan has changed owner since the plan was made.
    #[error("slot {slot} was planned to move {planned}, but it is now {now}: the cluster's map changed since the plan was made; plan again")]
    MapChanged {
        /// The slot.
        slot: u16,
        /// The planned move, `id (addr) -> id (addr)`.
        planned: String,
        /// Its owner now.
        now: String,
    },
    /// A plan file cannot be carried out: not a plan, or made on a map that differs from the
    /// cluster's now.
    #[error("the plan file `{file}` {reason}")]
    PlanFile {
        /// The file, escaped.
        file: String,
        /// What is wrong, and the way out.
        reason: String,
    },
    /// A step of a slot move failed: the move stopped there.
    #[error("moving slot {slot} from {from} to {to} stopped at {step}: {error}; {repair}")]
    MoveStopped {
        /// The slot.
        slot: u16,
        /// The slot's keys `MIGRATE` carried to the target by whole batches before the stop
        /// (the slot is half moved when it is not 0); all of them at a stop at the final
        /// `CLUSTER SETSLOT NODE`.
        keys: u64,
        /// The source, `id (addr)`.
        from: String,
        /// The target, `id (addr)`.
        to: String,
        /// The step that failed.
        step: String,
        /// Why.
        error: Box<Error>,
        /// The commands that finish or undo the move.
        repair: String,
    },
    /// The source of a classic move failed over during it: its replica took its place (the
    /// source answers `MOVED`, or it stopped answering and slotgen waited for the failover),
    /// without the slot's `MIGRATING` state on Redis 7.0, whose
    /// target then refuses every command of its slots (`CLUSTERDOWN`) until the slot is
    /// finished. [`after_stop`](crate::after_stop) finishes it at once, the new owner
    /// standing in for the source; this says so, or, where that failed, what to run now.
    #[error("{}", failed_over_text(self))]
    SourceFailedOver {
        /// The slot.
        slot: u16,
        /// The source the move began with, `id (addr)`.
        from: String,
        /// The target, `id (addr)`.
        to: String,
        /// The slot's owner now by the map, the source's promoted replica, `id (addr)`.
        now: Box<str>,
        /// The error the move stopped with.
        error: Box<Error>,
        /// How long slotgen waited for the failover, in milliseconds, where the source
        /// stopped answering ([`Error::MoveEndDown`]); `None` where the source had failed
        /// over already and answered `MOVED`.
        waited_ms: Option<u32>,
        /// The slot's keys on the target before the stop (whole batches).
        before: u64,
        /// The keys carried when the slot was finished in the same run; `None`: not
        /// finished, and why.
        finished: Result<u64, Box<str>>,
        /// Whether the node the run was given is the source, or took no connection after
        /// the stop, so that the map was read through the source's replicas and the target:
        /// the next run needs a node that answers.
        given_down: bool,
        /// Whether the node the run was given answers and gave no map after the stop (a
        /// target on Redis 7.0 says `fail` until the slot is finished), so that the next
        /// run, where this one could not finish the slot, needs another node.
        given_fail: bool,
        /// Where the run drained the source (`--drain`: every slot of it planned away) and
        /// slots of it are left: the address of the primary that took its place, whose drain
        /// goes on with them (the source is a replica now, so the same command is refused).
        /// Set by the front end, which knows what the run was asked, from the map read after
        /// the stop; `None` from [`after_stop`](crate::after_stop).
        drained: Option<Box<str>>,
    },
    /// The target of a classic move failed over during it: its replica took its place (the
    /// target answers the source's `MIGRATE` with `MOVED`), with the keys moved so far.
    /// [`after_stop`](crate::after_stop) reads the map again and finishes the slot at once,
    /// the new primary standing in for the target; this says so, or, where that failed,
    /// what the next run does.
    #[error("{}", target_failed_over_text(self))]
    TargetFailedOver {
        /// The slot.
        slot: u16,
        /// The source, `id (addr)`.
        from: String,
        /// The target the move began with, a replica now, `id (addr)`.
        to: String,
        /// The primary that took the target's place, `id (addr)`.
        now: String,
        /// The error the move stopped with.
        error: Box<Error>,
        /// The slot's keys on the target before the stop (whole batches).
        before: u64,
        /// The keys carried when the slot was finished in the same run; `None`: not
        /// finished, and why.
        finished: Result<u64, String>,
    },
    /// A classic move's source stopped answering mid-slot and, while slotgen waited for its
    /// failover, answered again, started again without its data (no key in `INFO
    /// keyspace`, `uptime_in_seconds` since the stop): no failover comes for a node that
    /// answers, and its replicas hold its keys only until they sync from it (a tester's
    /// source was restarted at once by its service manager; its replica kept the keys for
    /// 6 s, then synced empty: 1555 keys gone, while slotgen waited and then said "cannot
    /// reach").
    ///
    /// The same of a target ([`at_source`](Error::SourceRestartedEmpty::at_source) false):
    /// the keys moved to it are gone from it, and its replica holds them.
    #[error("moving slot {slot} from {from} to {to}: the {end} stopped answering during the move ({}), and answers again, started again {uptime} s ago without its data (`INFO keyspace` there: no key): the keys it held are gone from it ({}), and no failover comes for a node that answers; {}", .error.what_happened(), if *.at_source { format!("{keys} of the slot's keys are on the target") } else { format!("{keys} of the slot's keys had moved to it") }, restarted_text(.replicas, Some(*.slot), if *.at_source { "source" } else { "target" }), end = if *.at_source { "source" } else { "target" })]
    SourceRestartedEmpty {
        /// The slot.
        slot: u16,
        /// The slot's keys on the target before the stop (whole batches).
        keys: u64,
        /// The source, `id (addr)`.
        from: String,
        /// The target, `id (addr)`.
        to: String,
        /// The error the move stopped with.
        error: Box<Error>,
        /// The source's `uptime_in_seconds` (`INFO server`) when it answered again.
        uptime: u64,
        /// The source's replicas by the map read at the start of the run, `id (addr)`, with
        /// their keys (`INFO keyspace`, summed over the databases; `None`: not known).
        replicas: Vec<(String, Option<u64>)>,
        /// Whether the end started again is the source (else the target; `from`, `uptime`
        /// and `replicas` are then the target's).
        at_source: bool,
    },
    /// A move's target runs an older server than its source (a newer major or minor
    /// version): it cannot read the source's `DUMP` payloads, whose RDB version is newer than
    /// it reads, so every `RESTORE-ASKING` that `MIGRATE` sends it fails.
    #[error("the source runs {from_version} and the target {to_version}, which cannot read a newer server's `DUMP` payloads: each `RESTORE-ASKING` that `MIGRATE` sends it fails (`ERR DUMP payload version or checksum are wrong`)")]
    OlderTarget {
        /// The source's server and version (`Valkey 9.1.2`), escaped.
        from_version: String,
        /// The target's server and version (`Valkey 8.0.1`), escaped.
        to_version: String,
    },
    /// An atomic slot migration job (`CLUSTER MIGRATESLOTS`) failed, or made no progress
    /// and was cancelled: the server hands the slots over only at a job's end.
    #[error("the atomic migration of slots {} from {from} to {to} stopped: {reason}; a job hands its slots over only at its end, so they are still the source's and none is importing: {}", super::show_ranges_brief(ranges), .target_down.as_deref().unwrap_or("run it again, or with the classic dialect"))]
    AtomicStopped {
        /// Every range of the job (the message names them briefly past a few:
        /// [`super::show_ranges_brief`]).
        ranges: Vec<super::SlotRange>,
        /// The source, `id (addr)`.
        from: String,
        /// The target, `id (addr)`.
        to: String,
        /// The job's state and message, or the error of the exchange.
        reason: Box<str>,
        /// Where the server failed the job and the target does not answer: that, and what
        /// brings it back before the next run: its failover, or to start it again; where the
        /// target answers again, started without its data, that and the replica to take over
        /// ([`after_stop`](crate::after_stop)).
        target_down: Option<String>,
        /// How long the job ran, in milliseconds: a target started again within it, without
        /// its data, was restarted during the job.
        ran_ms: u64,
    },
    /// An atomic slot migration job ended in `success`, and a replica of its target did not
    /// acknowledge what the target sent it (`INFO replication` on the target: a `slaveN`
    /// offset below the `master_repl_offset` read once the job ended) while its offset
    /// showed no progress for a step's time, or the target could not be asked: a failover
    /// of the target then loses the keys moved to it. Valkey 9.1.2 desyncs a target's
    /// replicas so on a job whose ranges reach 16 KiB
    /// ([`MAX_JOB_RANGES`](super::MAX_JOB_RANGES) keeps each job far below that).
    #[error("the atomic migration of slots {} from {from} to {to} ended in `success` (the slots and their keys are the target's), but {}: until every replica of the target has them, a failover of the target loses them; do not fail {to} over or stop it until `INFO replication` there shows each `slaveN` line's `offset` at `master_repl_offset` (a replica desynced by a job (its log: `Receiving inline protocol from primary`) applies nothing until `repl-timeout`, 60 s by default, has passed, then syncs in full), then run it again", super::show_ranges_brief(ranges), replicas_behind_text(.behind, .waited_ms))]
    ReplicasBehind {
        /// Every range of the job (the message names them briefly past a few).
        ranges: Vec<super::SlotRange>,
        /// The source, `id (addr)`.
        from: String,
        /// The target, `id (addr)`.
        to: String,
        /// Each replica behind: its address (`ip:port`), its link's state, the offset it
        /// acknowledged and the target's, all as the target gave them (escaped).
        behind: Vec<(String, String, u64, u64)>,
        /// How long slotgen waited for them, in milliseconds; or, where the target could not
        /// be asked (`INFO replication`), what happened.
        waited_ms: Result<u64, String>,
    },
    /// An atomic slot migration job could be neither followed to its end nor cancelled
    /// (its source stopped answering): whether its slots moved is not known.
    #[error("the atomic migration of slots {} from {from} to {to} is in a state slotgen cannot tell: {reason}; `CLUSTER GETSLOTMIGRATIONS` on the target, {to}, shows the job as the target sees it; {}; the next `rebalance --apply` waits for a running job before it plans", super::show_ranges_brief(ranges), atomic_down_note(*.replicas, *.lost_if_dead))]
    AtomicUnknown {
        /// Every range of the job (the message names them briefly past a few:
        /// [`super::show_ranges_brief`]).
        ranges: Vec<super::SlotRange>,
        /// The source, `id (addr)`.
        from: String,
        /// The target, `id (addr)`.
        to: String,
        /// The errors of the poll and of the cancellation.
        reason: String,
        /// The source's replicas in the map read at the start of the run.
        replicas: usize,
        /// Where the source keeps no keys on disk, as asked before the moves
        /// ([`crate::rights::KEEPS`]): the keys of the job's slots by the plan, lost if its
        /// process ended; `None` where it keeps some, or where that is not known.
        lost_if_dead: Option<u64>,
    },
    /// An atomic slot migration job (one a former run started, or an operator's) is running
    /// and made no progress within the time given, or ran past the longest wait
    /// ([`ATOMIC_WAIT_STEPS`](super::ATOMIC_WAIT_STEPS) steps): a rebalance does not plan
    /// over it.
    #[error("an atomic slot migration job is running on {node}: slots {slots} to {target}, state `{state}`, {waited}: wait for it (`CLUSTER GETSLOTMIGRATIONS` on that node) or stop it there with `CLUSTER CANCELSLOTMIGRATIONS`, then run this again")]
    AtomicRunning {
        /// The source of the job, `id (addr)`.
        node: String,
        /// The job's slots, as the server gives them.
        slots: String,
        /// The target's node id.
        target: String,
        /// The job's state.
        state: String,
        /// How long slotgen waited and for what, in words: `with no progress for 10s`, or
        /// `still running after 10m (60 steps of --timeout), its progress fields changing`.
        waited: String,
    },
    /// The atomic dialect was asked for, and a primary has no `CLUSTER MIGRATESLOTS`.
    #[error("the primary {node} has no `CLUSTER MIGRATESLOTS` (`COMMAND INFO` does not know it): atomic slot migration needs Valkey 9.0 or later on every primary; apply with the classic dialect")]
    NoAtomicMigration {
        /// The primary, `id (addr)`.
        node: String,
    },
    /// A dialect that slotgen prints but does not carry out.
    #[error("the `{dialect}` dialect (Redis 8.4's `CLUSTER MIGRATION`) is printed only: slotgen cannot carry it out (no such server to test against); apply with the classic dialect")]
    PrintedOnly {
        /// The dialect's name.
        dialect: String,
    },
    /// The apply was interrupted (SIGINT, SIGTERM or SIGHUP) between two moves, or between
    /// two half-moved slots it was finishing ([`crate::finish_moves`]): what is left in
    /// migration is said here only (`interrupted_text`).
    #[error("{}", interrupted_text(*.done, *.planned, *.keys, .left))]
    Interrupted {
        /// Moves done.
        done: usize,
        /// Moves planned.
        planned: usize,
        /// Keys moved.
        keys: u64,
        /// The half-moved slots left as they were found, not begun (migrating or importing):
        /// empty where a plan's moves were interrupted (the slot in flight finished).
        left: Vec<u16>,
    },
    /// A slot moved, but more of its keys left the source otherwise than by `MIGRATE` than
    /// expiry explains, or another node took the slot during the move
    /// (the count the move took when the slot began migrating, against what it listed):
    /// the slot finished, the plan's later moves not made.
    #[error("{}", gone_text(.0))]
    KeysGone(Box<KeysGone>),
    /// A key is on both ends of a slot's move with different values (`DUMP`s differ), as a
    /// timed-out `MIGRATE` can leave it.
    #[error("key {key} of slot {slot} is on both {from} and {to}, and their `DUMP`s differ: slotgen touched neither; keep the right copy (`DEL` it on the source, or `ASKING` then `DEL` on the target), then run again")]
    KeyOnBothNodes {
        /// The key and its database, escaped.
        key: String,
        /// The slot.
        slot: u16,
        /// The source, `id (addr)`.
        from: String,
        /// The target, `id (addr)`.
        to: String,
    },
    /// Another `rebalance --apply` is under way on the cluster ([`crate::claim`]): its
    /// connection, named as a claim, came to the same primary before this run's.
    #[error("another `slotgen rebalance --apply` is under way on this cluster: its connection to {node} is client id {client} from {from} ({age} s old, named `slotgen-apply-...`); run one `--apply` at a time: wait until it ends (its connection then closes), then run this again; this run changed nothing")]
    AnotherApply {
        /// The primary both runs name their connection on, `id (addr)`, escaped.
        node: String,
        /// The other run's client id there, escaped.
        client: String,
        /// The other run's address as that primary sees it (`addr=`), escaped.
        from: String,
        /// Its connection's age in seconds, escaped.
        age: String,
    },
    /// A primary's report of a slot in migration that the map contradicts
    /// ([`Topology::migration_doubt`](super::Topology::migration_doubt)): nothing was sent
    /// for it.
    #[error("the migration of slot {slot} makes no sense: {doubt}; slotgen acts on no such report: ask the node again (`CLUSTER NODES`), and where it holds that state, `CLUSTER SETSLOT {slot} STABLE` on it clears it")]
    MigrationDoubted {
        /// The slot.
        slot: u16,
        /// What the node reports and what the map says.
        doubt: String,
    },
    /// A half-moved slot that cannot be finished.
    #[error("slot {slot} is half moved and cannot be finished: {why}")]
    CannotFinish {
        /// The slot.
        slot: u16,
        /// Why not, and the way out.
        why: String,
    },
    /// A key cannot be made (a prefix with `{`).
    #[error(transparent)]
    Key(#[from] slotgen_tables::Error),
}

/// The commands that reading a cluster's map sends, as an ACL user needs them: `CLUSTER
/// SLOTS` stands in for `CLUSTER SHARDS` on a server or user without it.
const MAP_COMMANDS: [&str; 4] = crate::rights::MAP;

/// What a state not `ok` with failing or unassigned slots adds: on Redis 7.0 a primary
/// importing a slot from a primary that failed, or that failed over (a replica now), keeps
/// that node as the slot's owner, and stays `fail` (its replica took the slot over without
/// the `SETSLOT` states) until the slot is finished; the slot counts as failing, or, its
/// owner a replica, as not assigned (16383 of 16384, measured after a `CLUSTER FAILOVER`).
/// The nodes a map in a state other than `ok` flags failing, as its message names them.
fn flagged_note(flagged: &[String]) -> String {
    if flagged.is_empty() {
        String::new()
    } else {
        format!(
            "; its `CLUSTER NODES` flags failing: {}",
            flagged.join("; ")
        )
    }
}

fn failing_note(slots_assigned: &str, slots_fail: &str) -> &'static str {
    if slots_fail == "0" && slots_assigned == "16384" {
        ""
    } else {
        "; or, where this node imports a slot from a primary that failed or failed over (`[slot-<-id]` in its `CLUSTER NODES`), it says `fail` until that slot is finished: ask another primary, whose map can finish it"
    }
}

/// [`Error::Interrupted`]'s message, the one word on what an interrupt leaves: after a plan's
/// move (the slot in flight finished, an atomic job cancelled), nothing in migration; while
/// half-moved slots were being finished, the ones not begun (`left`) half moved still, which
/// the next run finishes first (a tester's Ctrl-C during the wait for a source's failover
/// was told "no slot is left migrating or importing" of a slot that was).
fn interrupted_text(done: usize, planned: usize, keys: u64, left: &[u16]) -> String {
    let head = format!("interrupted after {done} of {planned} moves ({keys} keys moved)");
    match left {
        [] => format!("{head}: the slot in flight was finished (or its atomic job cancelled), no slot is left migrating or importing; run the same command again to plan and move the rest"),
        [slot] => format!("{head}: slot {slot} is left half moved, migrating or importing as it was found; run the same command again: it finishes the slot first, then plans and moves the rest"),
        slots => format!(
            "{head}: slots {} are left half moved, migrating or importing as they were found; run the same command again: it finishes them first, then plans and moves the rest",
            slots.iter().map(u16::to_string).collect::<Vec<_>>().join(", ")
        ),
    }
}

/// What [`Error::KeysGone`] says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeysGone {
    /// The slot.
    pub slot: u16,
    /// The source, `id (addr)`.
    pub from: String,
    /// The target, `id (addr)`.
    pub to: String,
    /// The source's count of the slot's keys once it was migrating.
    pub counted: u64,
    /// Keys listed and carried by `MIGRATE`.
    pub moved: u64,
    /// Keys that left the source otherwise.
    pub gone: u64,
    /// The owner the source gave for the slot before slotgen's `CLUSTER SETSLOT NODE`,
    /// `id (addr)`, where that was another node than the source.
    pub taken_by: Option<String>,
    /// The source's replicas, in the map the run began with.
    pub replicas: usize,
    /// Why the run stopped at it: the rule it broke.
    pub why: String,
    /// Moves done, this one included.
    pub done: usize,
    /// Moves planned.
    pub planned: usize,
}

/// [`Error::KeysGone`]'s message: the slot, the counts, the possible causes (a server
/// that lost the slot to another node's newer epoch deletes its keys of it, `Deleting keys
/// in dirty slot` in its log: Redis 7.0 and Valkey 8.0, measured), who took the slot, and
/// what to do.
fn gone_text(e: &KeysGone) -> String {
    let KeysGone {
        slot,
        from,
        to,
        counted,
        moved,
        gone,
        taken_by,
        replicas,
        why,
        done,
        planned,
    } = e;
    let taken = taken_by.as_ref().map_or_else(String::new, |owner| {
        format!(
            "; before slotgen's own `CLUSTER SETSLOT {slot} NODE`, the source already gave {owner} as the slot's owner: another client's `CLUSTER SETSLOT {slot} NODE` (an operator's, or another tool's) took the slot from it during the move, and a server that loses a slot deletes the keys it still holds there"
        )
    });
    let look = if *replicas > 0 {
        format!(
            "the source's {} may hold them still (Redis 7.0 does not replicate that delete) until it resyncs",
            if *replicas == 1 { "replica".to_owned() } else { format!("{replicas} replicas") }
        )
    } else {
        "the source has no replica to hold them".to_owned()
    };
    format!(
        "moving slot {slot} from {from} to {to}: the source counted {counted} keys of the slot once it was migrating, {moved} moved, and {gone} left the source otherwise (expired, deleted by clients, or deleted by the server when the slot was taken from it: `Deleting keys in dirty slot` in its log){taken}; the slot is finished, on the target, and the run stopped after {done} of {planned} moves ({why}): find the keys first ({look}), then run the same command again to plan and move the rest"
    )
}

/// [`Error::TargetFailedOver`]'s message: what happened, then what slotgen did or what the
/// next run does.
fn target_failed_over_text(e: &Error) -> String {
    let Error::TargetFailedOver {
        slot,
        from,
        to,
        now,
        error,
        before,
        finished,
    } = e
    else {
        return String::new();
    };
    let happened = format!(
        "moving slot {slot} from {from} to {to}: the target failed over to {now} during the move ({error})"
    );
    match finished {
        Ok(keys) => format!(
            "{happened}; slotgen finished the slot with {now} standing in for the target ({keys} more keys moved, {before} before): {now} owns it; the other moves were planned on the map before the failover: run the same command again {PLAN_AGAIN}"
        ),
        Err(why) => format!(
            "{happened}; slot {slot} is half moved (its keys moved so far on {now}, the rest on {from}), and slotgen could not finish it now ({why}): the next `slotgen rebalance --apply` finishes it before it plans (it carries the rest of the slot's keys from {from} to {now} and gives {now} the slot)"
        ),
    }
}

/// What [`Error::ReplicasBehind`] says happened: each replica `behind` (address, state,
/// offset acknowledged, the target's offset) after `waited_ms`, or why they could not be
/// asked.
fn replicas_behind_text(
    behind: &[(String, String, u64, u64)],
    waited_ms: &Result<u64, String>,
) -> String {
    let waited_ms = match waited_ms {
        Ok(ms) => ms,
        Err(why) => return format!("whether its replicas have them could not be asked (`INFO replication` on the target: {why})"),
    };
    let each: Vec<String> = behind
        .iter()
        .map(|(addr, state, acked, offset)| {
            format!("{addr} (`{state}`) acknowledged offset {acked} of {offset}")
        })
        .collect();
    format!(
        "{} {} after {:.1} s, with no progress for a step's time (`--timeout`)",
        if behind.len() == 1 {
            "its replica"
        } else {
            "its replicas"
        },
        each.join(", "),
        // whole milliseconds as seconds, for a message
        *waited_ms as f64 / 1000.0
    )
}

/// What an atomic job's stop says where its target answers again, started again `uptime`
/// seconds ago without its data (`INFO keyspace`: no key), with `replicas` (`id (addr)`, each
/// with its keys): the keys of its own slots gone from it, and the replica to take over
/// ([`restarted_text`], the classic move's advice).
pub(crate) fn atomic_target_restarted(uptime: u64, replicas: &[(String, Option<u64>)]) -> String {
    format!(
        "the target answers again, started again {uptime} s ago without its data (`INFO keyspace` there: no key): the keys of its own slots are gone from it, and no failover comes for a node that answers; {}",
        restarted_text(replicas, None, "target")
    )
}

/// What an end started again without its data says to do ([`Error::SourceRestartedEmpty`]
/// of a classic move, and an atomic job's target: [`Error::AtomicStopped`]): the replica that
/// holds the most keys (`INFO keyspace`) taken over at once, before it syncs from the `end`
/// (`source` or `target`) started empty (a full sync: seconds), then the next run finishes
/// `slot` from it (to it, for a target), or plans again where no slot is half moved (`None`:
/// an atomic job hands its slots over only at its end); where none holds any, that they are
/// lost.
fn restarted_text(replicas: &[(String, Option<u64>)], slot: Option<u16>, end: &str) -> String {
    let way = if end == "source" { "from" } else { "to" };
    let (then, left) = match slot {
        Some(slot) => (
            format!("which finishes slot {slot} {way} it"),
            format!("the next `slotgen rebalance --apply` finishes slot {slot} with the keys left"),
        ),
        None => (
            "which plans again and moves the job's slots".to_owned(),
            "the next `slotgen rebalance --apply` plans again with the keys left".to_owned(),
        ),
    };
    let holder = replicas
        .iter()
        .filter_map(|(r, keys)| Some((r, (*keys)?)))
        .filter(|(_, keys)| *keys > 0)
        .max_by_key(|(_, keys)| *keys);
    match holder {
        Some((replica, keys)) => {
            let addr = replica
                .rsplit_once(" (")
                .and_then(|(_, a)| a.strip_suffix(')'))
                .unwrap_or(replica);
            format!(
                "its replica {replica} still holds {keys} {} (`INFO keyspace`), only until it syncs from the {end} started empty (a full sync, within seconds): run `CLUSTER FAILOVER TAKEOVER` on {addr} now (and again if, a few seconds on, `CLUSTER NODES` on the other primaries does not flag the {end} started again `slave`: a replica whose config epoch is the {end}'s loses the collision to it once, and the second takeover bumps past it), then, once they flag it `slave` (its replica now), `slotgen rebalance --apply` again, {then}",
                if keys == 1 { "key" } else { "keys" }
            )
        }
        None if replicas.is_empty() => format!("no replica holds them: they are lost; {left}"),
        // a replica that could not be asked may hold them: not said lost
        None => {
            let list = |known: bool| {
                replicas
                    .iter()
                    .filter(|(_, keys)| keys.is_some() == known)
                    .map(|(r, _)| r.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            let (empty, unknown) = (list(true), list(false));
            if unknown.is_empty() {
                format!("no replica holds them any more (`INFO keyspace` of {empty}: no key): they are lost; {left}")
            } else {
                format!(
                    "{}{unknown} could not be asked (`INFO keyspace`: no answer, or its credentials refused): one that holds keys holds them only until it syncs from the {end} started empty (a full sync, within seconds): ask it with its own credentials, and run `CLUSTER FAILOVER TAKEOVER` on it now if it holds them; else they are lost, and {left}",
                    if empty.is_empty() { String::new() } else { format!("{empty} holds no key (`INFO keyspace`); ") }
                )
            }
        }
    }
}

/// After a failover mid-apply: the same command plans again, unless it applies a plan file,
/// made on the map before the failover and refused now (`PlanFile::against`).
const PLAN_AGAIN: &str = "to plan and move the rest (a plan file made on the map before the failover is refused now: make and review a new one with `slotgen rebalance ... --out FILE`, then apply it)";

/// [`Error::SourceFailedOver`]'s message: what happened, then what slotgen did or what to
/// run now.
fn failed_over_text(e: &Error) -> String {
    let Error::SourceFailedOver {
        slot,
        from,
        to,
        now,
        error,
        waited_ms,
        before,
        finished,
        given_down,
        given_fail,
        drained,
    } = e
    else {
        return String::new();
    };
    // the next run through a node that answers, where the one given was the source
    let given = if *given_down {
        ", naming a node that answers in place of the source (the command named it, and it does not answer: slotgen read the map through its replicas and the target after the stop)"
    } else {
        ""
    };
    // the slot's owner now is the target: the move had ended on the target's side (its
    // `SETSLOT NODE`) when the source stopped, so the slot is moved, not half moved
    let at_end = now.split(' ').next() == to.split(' ').next();
    // a drained source is a replica now: the same `--drain` is refused, and the node that
    // took its place holds what is left of its slots
    let next = drained.as_deref().map(|addr| {
        format!(" with `--drain {addr}` in place of the source's `--drain` (the source is a replica now, and {addr}, which took its place, holds the rest of its slots)")
    });
    let again = match (&next, given.is_empty()) {
        (Some(next), true) => format!("run the command again{next}"),
        (Some(next), false) => format!("run the command again{next}{given},"),
        (None, true) => "run the same command again".to_owned(),
        (None, false) => format!("run the same command again{given},"),
    };
    let again = format!("{again} {PLAN_AGAIN}");
    if at_end {
        let waited = waited_ms.map_or_else(String::new, |w| {
            format!(
                ", and slotgen waited {:.1} s for its failover",
                f64::from(w) / 1000.0
            )
        });
        return format!(
            "moving slot {slot} from {from} to {to}: the source stopped answering at the move's end ({}){waited}: the target had taken the slot, so slot {slot} is moved ({before} of its keys moved, all of them on {to}, which owns it); the map no longer names the source a primary (a replica took its place); the other moves were planned on the map before the failover: {again}",
            error.what_happened()
        );
    }
    let happened = match waited_ms {
        // what did not answer, without the advice to wait: slotgen waited
        Some(waited) => format!(
            "moving slot {slot} from {from} to {to}: the source stopped answering during the move ({}); slotgen waited for the failover, and {now}, its replica, took its place {:.1} s later",
            error.what_happened(),
            f64::from(*waited) / 1000.0
        ),
        None => format!(
            "moving slot {slot} from {from} to {to}: the source failed over to {now} during the move ({error})"
        ),
    };
    match finished {
        Ok(keys) => format!(
            "{happened}; slotgen finished the slot with {now} standing in for the source ({keys} more keys moved, {before} before): {to} owns it and serves its slots; the other moves were planned on the map before the failover: {again}"
        ),
        Err(why) => {
            let through = if *given_fail {
                format!(", naming a node that answers other than {to} (the command named it, and its map after the stop was refused: it says `cluster_state:fail` until the slot is finished)")
            } else {
                given.to_owned()
            };
            format!(
                "{happened}; slot {slot} is half moved ({before} of its keys on {to}, the rest on {now}), and slotgen could not finish it now ({why}); until it is finished, {to} may refuse every command of its slots (`CLUSTERDOWN`: Redis 7.0 marks the cluster `fail` there): run `slotgen rebalance --apply` again now{through}; it carries the rest of the slot's keys from {now} to {to}{}",
                next.as_deref().map_or_else(String::new, |next| format!("; then, to move the rest, run the command again{next}"))
            )
        }
    }
}

/// How a failed primary that no replica can replace is brought back, an end of a classic
/// move or the source of an atomic job alike: as it was, where it was, and used only once
/// it says the cluster is `ok`, and every other primary says so too. A primary just started
/// says `fail` for its first seconds and answers `CLUSTERDOWN` to every key, `MIGRATE`
/// included (measured on Redis 7.0 and Valkey 8.0 by the live tests
/// `a_lone_*_killed_mid_slot_*`: 2.0 s after the start); the others say `fail` until they
/// hear from it, a little later, and refuse keys too (measured on Valkey 8.0 by
/// `a_source_killed_mid_slot_whose_replica_never_synced_*`: a run at once met
/// `cluster_state:fail` on the primary it was given, and, once that one said `ok`, the
/// target answered the source's `MIGRATE` with `CLUSTERDOWN`).
/// Whether a dead primary's keys are in its data files, where it was not known before the
/// moves ([`crate::rights::KEEPS`]: the user may not ask, or it did not answer): slotgen cannot ask
/// a node that does not answer, so the stop says the condition (a tester followed "start it
/// again" on a primary that saved nothing, and its keys were gone).
const KEPT_ONLY: &str = "if it keeps any (an RDB snapshot or an AOF: `CONFIG GET save appendonly` on a node configured as it is); one that keeps none comes back empty, and those keys are lost";

/// Where it was known before the moves that the dead primary keeps no keys on disk: that,
/// and that started again it comes back empty (a tester followed "start it again, with its
/// data files" on such a node: 1523 of 4450 keys were gone, and the next run said nothing).
const KEEPS_NOTHING: &str = "it keeps no keys on disk (`CONFIG GET save appendonly` before the moves: `save` empty, `appendonly no`)";

/// How a primary that no replica can replace is started again: with its data files where it
/// may keep some (`files`), else only to serve its slots again, empty.
fn start_again(files: bool) -> String {
    let with = if files {
        "start it again at that address, with its data files,"
    } else {
        "to serve its slots again (without those keys), start it again at that address"
    };
    format!("{with} and wait until `CLUSTER INFO` says `cluster_state:ok` there and on every other primary (a primary just started says `fail` for its first seconds, and refuses keys; the others say `fail`, and refuse keys, until they have heard from it)")
}

/// What a dead primary that keeps no keys on disk loses: `held` (`n` keys) if its process
/// ended; what holds them still: a replica of it that synced (`replicas` of them, none able
/// to take its place by itself), until it syncs from the node started again empty.
fn lost_text(held: &str, n: u64, replicas: usize) -> String {
    let keys = if n == 1 { "key" } else { "keys" };
    let kept = if replicas == 0 {
        "no replica holds them: they are gone".to_owned()
    } else {
        "a replica that synced with it still holds them, until it syncs from the node started again empty: `CLUSTER FAILOVER TAKEOVER` on that replica first makes it the primary with them; else they are gone".to_owned()
    };
    format!("{KEEPS_NOTHING}: if its process ended (not merely stopped or cut off), {held} ({n} {keys}) are lost with it, and started again it comes back empty; {kept}")
}

/// What to do about node `id`, an end of a classic move (its source, `at_source`, or its
/// target) that stopped answering, with `replicas`, each with why it cannot take its place
/// where it was asked ([`down`]).
fn down_note(
    id: &str,
    replicas: &[(crate::node::Node, Option<String>)],
    at_source: bool,
    lost_if_dead: Option<u32>,
) -> String {
    let unable: Vec<&str> = replicas
        .iter()
        .filter_map(|(_, why)| why.as_deref())
        .collect();
    down(
        id,
        replicas.len(),
        &unable,
        if at_source {
            "the keys of the slot not moved yet"
        } else {
            "the keys of the slot moved so far"
        },
        lost_if_dead,
    )
}

/// What an atomic job's stop says where the server failed the job and its target does not
/// answer (`cannot reach url (during): reason`), node `id` with `replicas` replicas: bring
/// it back ([`down`]), then run again; the one wording of a dead end for both dialects.
pub(crate) fn atomic_target_down(
    url: &str,
    id: &str,
    during: &str,
    reason: &str,
    replicas: usize,
) -> String {
    format!(
        "the target does not answer (cannot reach `{url}` ({during}): {reason}): {}; then run it again",
        down(id, replicas, &[], "the keys of its own slots", None)
    )
}

/// What to do about node `id`, a primary of a move that stopped answering, with `replicas`
/// replicas, whose data files hold what `held` says: wait for the failover where one can
/// take its place (the next `rebalance --apply` then finishes a half-moved slot on the
/// promoted replica), start it again where none can ([`start_again`]): it has none, or
/// `unable` says why each cannot (`id (addr) why`). Where it keeps no keys on disk
/// (`lost_if_dead`: `held` are that many keys), that they are lost and what holds them.
fn down(
    id: &str,
    replicas: usize,
    unable: &[&str],
    held: &str,
    lost_if_dead: Option<u32>,
) -> String {
    let plural = |n: usize| if n == 1 { "replica" } else { "replicas" };
    let brought_back = || match lost_if_dead {
        None => format!(
            " ({held} are in its data files, {KEPT_ONLY}): {}",
            start_again(true)
        ),
        Some(n) => format!(
            ": {}; {}",
            lost_text(held, u64::from(n), replicas),
            start_again(false)
        ),
    };
    match replicas {
        0 => format!(
            "node {id} there has no replica to take its place{}",
            brought_back()
        ),
        n if unable.len() == n => format!(
            "node {id} there has {n} {}, and none can take its place, so no failover comes: {}{}",
            plural(n),
            unable.join("; "),
            brought_back()
        ),
        n => format!(
            "node {id} there has {n} {}: if it has failed, wait until one takes its place (the cluster fails it over once `cluster-node-timeout` has passed: `CLUSTER NODES` then flags it `fail`), do not start a new server there",
            plural(n)
        ),
    }
}

/// What to do about an atomic job whose source (with `replicas` replicas) stopped answering:
/// wait for the failover, or start it again as a classic move's end ([`start_again`]; where
/// it keeps no keys on disk, `lost_if_dead` the keys of the job's slots, that they are
/// lost), and stop the job where the source answers again.
fn atomic_down_note(replicas: usize, lost_if_dead: Option<u64>) -> String {
    if replicas == 0 {
        let back = match lost_if_dead {
            None => start_again(true),
            Some(n) => format!(
                "{}; {}",
                lost_text("the keys of these slots", n, 0),
                start_again(false)
            ),
        };
        format!("if the source has failed, it has no replica to take its place: {back}; while the job runs there, stop it with `CLUSTER CANCELSLOTMIGRATIONS` on the source")
    } else {
        "if the source has failed, wait until its replica takes its place (the cluster fails it over once `cluster-node-timeout` has passed): the job ends with the source and the slots are the promoted replica's; if the source answers again, stop the job there with `CLUSTER CANCELSLOTMIGRATIONS`".to_owned()
    }
}

/// The fix for a replica that refuses slotgen's credentials ([`Error::refuses_credentials`]):
/// its `requirepass` or ACL user is set otherwise there than on its primary.
pub(crate) const REPLICA_CREDENTIALS: &str =
    "give it the password and ACL user of its primary (`requirepass`, `masterauth`, `ACL SETUSER`)";

impl Error {
    /// Whether this is a node's refusal of slotgen's credentials: `NOAUTH`, a password
    /// where none is set, `WRONGPASS`.
    pub(crate) fn refuses_credentials(&self) -> bool {
        matches!(
            self,
            Error::PasswordRequired { .. }
                | Error::NoPasswordSet { .. }
                | Error::PasswordRejected { .. }
        )
    }

    /// What happened, for a message that quotes this error and gives its own way out: a node
    /// that does not answer ([`Error::Unreachable`], [`Error::MoveEndDown`]) as `cannot reach
    /// `url` (during): reason`, without the way out its own message gives (to start a
    /// server there, to wait for a failover); any other error's message whole.
    #[must_use]
    pub(crate) fn what_happened(&self) -> String {
        match self {
            Error::Unreachable {
                url,
                during,
                reason,
            }
            | Error::MoveEndDown {
                url,
                during,
                reason,
                ..
            } => format!("cannot reach `{url}` ({during}): {reason}"),
            e => e.to_string(),
        }
    }

    /// The `NOPERM` refusal this error is, or that stopped a move ([`Error::MoveStopped`]):
    /// for a front end that names the rest of the run's rights beside it
    /// ([`crate::grant::Run::grant`]).
    #[must_use]
    pub fn denied(&self) -> Option<&Denied> {
        match self {
            Error::NoPermission { denied, .. } => Some(denied),
            Error::MoveStopped { error, .. } => error.denied(),
            Error::NotAsked { refusal, .. } => refusal.denied(),
            _ => None,
        }
    }
}

/// What a refusal of a command of the map adds: every rule of [`MAP_COMMANDS`] (`+info
/// +cluster|info +cluster|shards +cluster|nodes`); nothing for other commands (`MIGRATE`).
/// The way out of [`Error::Unreachable`]: a server that answered and then closed the
/// connection is there (a crash, `maxclients`, an idle client's `timeout`), and starting
/// one there is no advice for it.
fn unreachable_advice(reason: &str) -> &'static str {
    if reason.starts_with(crate::transport::CLOSED_AFTER_ANSWERING) {
        "check its log for why it closed it (a crash, `maxclients`, a client `timeout`), and run this again once it serves"
    } else {
        "start a cluster-enabled server there, or give the URL of one"
    }
}

fn map_note(denied: &Denied) -> String {
    let of_the_map = denied.commands.iter().any(|c| {
        c.eq_ignore_ascii_case("CLUSTER SLOTS")
            || MAP_COMMANDS.iter().any(|m| m.eq_ignore_ascii_case(c))
    });
    if !of_the_map {
        return String::new();
    }
    let rules: Vec<String> = MAP_COMMANDS.iter().map(|c| Denied::rule(c)).collect();
    format!(
        "; reading a cluster's map needs all of `{}` (`+cluster|slots` may stand for `+cluster|shards`)",
        rules.join(" ")
    )
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// `n` replicas of a primary, as the map gives them, not asked.
    pub(crate) fn replicas(n: usize) -> Vec<(crate::node::Node, Option<String>)> {
        (0..n)
            .map(|i| {
                let node = crate::node::Node {
                    id: format!("{i:040}"),
                    addr: format!("127.0.0.1:{}", 7500 + i),
                    role: crate::Role::Replica,
                    health: Some("online".to_owned()),
                };
                (node, None)
            })
            .collect()
    }

    #[test]
    fn a_dead_end_of_a_move_says_wait_where_a_replica_can_take_over() {
        let down_unable = |n, unable: &[&str], at_source| {
            Error::MoveEndDown {
                url: "redis://127.0.0.1:7402".to_owned(),
                id: "a".repeat(40).into(),
                during: "MIGRATE".to_owned(),
                reason: "the server closed the connection".to_owned(),
                replicas: replicas(n)
                    .into_iter()
                    .zip(
                        unable
                            .iter()
                            .map(|&u| Some(u.to_owned()))
                            .chain(std::iter::repeat(None)),
                    )
                    .map(|((node, _), why)| (node, why))
                    .collect(),
                at_source,
                lost_if_dead: None,
            }
            .to_string()
        };
        let down = |n, at_source| down_unable(n, &[], at_source);
        let with = down(1, true);
        assert!(
            with.contains("has 1 replica: if it has failed, wait until one takes its place")
                && !with.contains("start it again"),
            "{with}"
        );
        for (source, keys) in [(true, "not moved yet"), (false, "moved so far")] {
            let without = down(0, source);
            assert!(
                without.contains(&format!(
                    "has no replica to take its place (the keys of the slot {keys} are in its data files, {KEPT_ONLY}): {}",
                    start_again(true)
                )) && !without.contains("wait until one takes its place"),
                "{without}"
            );
        }
        // replicas that were asked and cannot take over: started again as a lone primary is
        let stranded = down_unable(2, &["r1 (h:1) why 1", "r2 (h:2) why 2"], true);
        assert!(
            stranded.ends_with(&format!(
                "node {} there has 2 replicas, and none can take its place, so no failover comes: r1 (h:1) why 1; r2 (h:2) why 2 (the keys of the slot not moved yet are in its data files, {KEPT_ONLY}): {}",
                "a".repeat(40),
                start_again(true)
            )),
            "{stranded}"
        );
        // a replica that refused what it was asked: the refusal and its grant, for a front
        // end's grant of the whole run too
        let refused = Error::NoPermission {
            url: "redis://op:***@127.0.0.1:7501".to_owned(),
            denied: Denied::new("op", &["INFO REPLICATION"]),
        };
        let stop = Error::MoveStopped {
            slot: 1,
            keys: 0,
            from: "a (h:1)".to_owned(),
            to: "b (h:2)".to_owned(),
            step: "MIGRATE".to_owned(),
            error: Box::new(Error::NotAsked {
                down: Box::new(Error::MoveEndDown {
                    url: "redis://op:***@127.0.0.1:7402".to_owned(),
                    id: "a".repeat(40).into(),
                    during: "MIGRATE".to_owned(),
                    reason: "the server closed the connection".to_owned(),
                    replicas: replicas(1),
                    at_source: true,
                    lost_if_dead: None,
                }),
                refusal: Box::new(refused),
            }),
            repair: String::new(),
        };
        assert_eq!(
            stop.denied().map(ToString::to_string).as_deref(),
            Some("user `op` may not run INFO REPLICATION: grant it with `ACL SETUSER op +info`")
        );
        assert!(stop.to_string().contains("slotgen did not wait for a failover, as a replica could not be asked whether it can take the place (`redis://op:***@127.0.0.1:7501`: user `op` may not run INFO REPLICATION: grant it with `ACL SETUSER op +info` (NOPERM))"), "{stop}");
        assert!(!down(1, true).contains("did not wait"));
        // one of two that cannot: the other may, so the failover is waited for
        assert!(down_unable(2, &["r1 (h:1) why"], true)
            .contains("has 2 replicas: if it has failed, wait until one takes its place"));
        assert_ne!(atomic_down_note(0, None), atomic_down_note(2, None));
        // a failed job whose target does not answer: brought back as a classic end is, or
        // its failover waited for; else run again
        let stopped = |target_down| {
            Error::AtomicStopped {
                ranges: vec![crate::SlotRange { first: 1, last: 2 }],
                from: "a (127.0.0.1:7401)".to_owned(),
                to: "b (127.0.0.1:7402)".to_owned(),
                reason: "the job's state is `failed`: Connection lost to target.".into(),
                target_down,
                ran_ms: 1,
            }
            .to_string()
        };
        let dead = |replicas| {
            stopped(Some(atomic_target_down(
                "redis://127.0.0.1:7402",
                &"b".repeat(40),
                "connecting",
                "Connection refused",
                replicas,
            )))
        };
        let lone = dead(0);
        assert!(
            lone.ends_with(&format!(
                "none is importing: the target does not answer (cannot reach `redis://127.0.0.1:7402` (connecting): Connection refused): node {} there has no replica to take its place (the keys of its own slots are in its data files, {KEPT_ONLY}): {}; then run it again",
                "b".repeat(40),
                start_again(true)
            )),
            "{lone}"
        );
        assert!(
            dead(1)
                .contains("there has 1 replica: if it has failed, wait until one takes its place"),
            "{}",
            dead(1)
        );
        assert!(
            stopped(None).ends_with("none is importing: run it again, or with the classic dialect")
        );
        // a source with no replica is started again as a classic move's end is, and waited
        // for until it says `ok`
        assert!(atomic_down_note(0, None).contains(&start_again(true)));
        assert!(!atomic_down_note(1, None).contains("start it again"));
    }

    /// A source started again empty: the replica that holds the most keys is named to take
    /// over now; where none holds any, or there is none, the keys are said lost.
    #[test]
    fn a_source_started_again_empty_names_the_replica_that_holds_its_keys() {
        let r = |n: &str, keys| (format!("{} (h:{n})", n.repeat(40)), keys);
        let two = restarted_text(
            &[r("1", Some(3)), r("2", Some(40)), r("3", None)],
            Some(9),
            "source",
        );
        assert!(
            two.starts_with(&format!(
                "its replica {} (h:2) still holds 40 keys",
                "2".repeat(40)
            )) && two.contains("`CLUSTER FAILOVER TAKEOVER` on h:2 now"),
            "{two}"
        );
        let synced = restarted_text(&[r("1", Some(0))], Some(9), "source");
        assert!(
            synced.starts_with("no replica holds them any more")
                && synced.contains("they are lost"),
            "{synced}"
        );
        // one not asked (its password refused, or no answer) may hold them: not said lost
        let unknown = restarted_text(&[r("1", Some(0)), r("3", None)], Some(9), "source");
        assert!(
            unknown.starts_with(&format!(
                "{} (h:1) holds no key (`INFO keyspace`); {} (h:3) could not be asked",
                "1".repeat(40),
                "3".repeat(40)
            )) && unknown.contains(
                "run `CLUSTER FAILOVER TAKEOVER` on it now if it holds them; else they are lost"
            ) && !unknown.contains("no replica holds them"),
            "{unknown}"
        );
        assert!(restarted_text(&[], Some(9), "source")
            .starts_with("no replica holds them: they are lost"));
        // a target's: the slot finished to the replica taken over
        let target = restarted_text(&[r("2", Some(40))], Some(9), "target");
        assert!(
            target.contains("until it syncs from the target started empty")
                && target.contains("flag the target started again `slave`")
                && target.ends_with("which finishes slot 9 to it"),
            "{target}"
        );
    }

    /// A dead end of a move known to keep no keys on disk (asked before the moves) is not
    /// said to come back "with its data files": its keys of the slot are said lost, with
    /// how many, and what still holds them (a tester followed the advice on such a node, and
    /// 1523 of 4450 keys were gone).
    #[test]
    fn a_dead_end_that_keeps_nothing_is_said_to_come_back_empty() {
        let down = |replicas: Vec<(crate::node::Node, Option<String>)>, at_source| {
            Error::MoveEndDown {
                url: "redis://127.0.0.1:7402".to_owned(),
                id: "a".repeat(40).into(),
                during: "MIGRATE".to_owned(),
                reason: "the server closed the connection".to_owned(),
                replicas,
                at_source,
                lost_if_dead: Some(1523),
            }
            .to_string()
        };
        for (at_source, held) in [(true, "not moved yet"), (false, "moved so far")] {
            let lone = down(Vec::new(), at_source);
            assert!(
                lone.contains(&format!("has no replica to take its place: {KEEPS_NOTHING}: if its process ended (not merely stopped or cut off), the keys of the slot {held} (1523 keys) are lost with it, and started again it comes back empty; no replica holds them: they are gone; to serve its slots again (without those keys), start it again at that address and wait until `CLUSTER INFO` says `cluster_state:ok`"))
                    && !lone.contains("data files"),
                "{lone}"
            );
        }
        let mut stranded = replicas(1);
        stranded[0].1 = Some("r (h:1) why".to_owned());
        let stranded = down(stranded, true);
        assert!(
            stranded.contains("so no failover comes: r (h:1) why: it keeps no keys on disk")
                && stranded.contains("`CLUSTER FAILOVER TAKEOVER` on that replica first")
                && !stranded.contains("data files"),
            "{stranded}"
        );
        // one that can take its place: the failover is waited for, whatever it keeps
        assert!(down(replicas(1), true).contains("wait until one takes its place"));
        let atomic = atomic_down_note(0, Some(7));
        assert!(
            atomic.contains("the keys of these slots (7 keys) are lost with it")
                && !atomic.contains("data files"),
            "{atomic}"
        );
    }

    /// A drained source that failed over: the stop names the drain that goes on, of the
    /// node that took its place (as the front end found it), whether the slot was finished,
    /// was not, or had moved at the move's end; a source not drained keeps "the same
    /// command".
    #[test]
    fn a_drained_source_that_failed_over_names_the_drain_to_run() {
        let stop = |now: &str, finished, drained: Option<&str>| {
            Error::SourceFailedOver {
                slot: 7,
                from: "a (127.0.0.1:7101)".to_owned(),
                to: "b (127.0.0.1:7102)".to_owned(),
                now: now.into(),
                error: Box::new(Error::Refused {
                    url: "redis://127.0.0.1:7101".to_owned(),
                    command: "MIGRATE".to_owned(),
                    reason: "MOVED 7 127.0.0.1:7105".to_owned(),
                    moved: Some((7, "127.0.0.1:7105".to_owned())),
                }),
                waited_ms: None,
                before: 4,
                finished,
                given_down: false,
                given_fail: false,
                drained: drained.map(Box::from),
            }
            .to_string()
        };
        let next = "run the command again with `--drain 127.0.0.1:7105` in place of the source's `--drain` (the source is a replica now, and 127.0.0.1:7105, which took its place, holds the rest of its slots)";
        let heir = Some("127.0.0.1:7105");
        // finished, not finished, and the move ended on the target's side
        let done = stop("c (127.0.0.1:7105)", Ok(3), heir);
        assert!(
            done.contains(next) && !done.contains("the same command"),
            "{done}"
        );
        let half = stop("c (127.0.0.1:7105)", Err("why".into()), heir);
        assert!(
            half.contains(&format!("; then, to move the rest, {next}")),
            "{half}"
        );
        let at_end = stop("b (127.0.0.1:7102)", Ok(0), heir);
        assert!(at_end.contains(next), "{at_end}");
        let plain = stop("c (127.0.0.1:7105)", Ok(3), None);
        assert!(plain.contains("run the same command again") && !plain.contains("--drain"));
    }

    /// A source that failed over mid-move: the stop names the promoted replica as the
    /// slot's owner now, and says either that the slot was finished or, where it was not,
    /// that the target may refuse its slots and to run again now (not the old source as
    /// where the rest of the keys are, as a tester was told).
    #[test]
    fn a_failed_over_source_names_the_owner_now() {
        let stop = |finished| {
            Error::SourceFailedOver {
                slot: 2328,
                from: "a (127.0.0.1:7101)".to_owned(),
                to: "b (127.0.0.1:7102)".to_owned(),
                now: "c (127.0.0.1:7105)".into(),
                error: Box::new(Error::Refused {
                    url: "redis://127.0.0.1:7101".to_owned(),
                    command: "MIGRATE".to_owned(),
                    reason: "MOVED 2328 127.0.0.1:7105".to_owned(),
                    moved: Some((2328, "127.0.0.1:7105".to_owned())),
                }),
                waited_ms: None,
                before: 40,
                finished,
                given_down: false,
                given_fail: false,
                drained: None,
            }
            .to_string()
        };
        let happened = "moving slot 2328 from a (127.0.0.1:7101) to b (127.0.0.1:7102): the source failed over to c (127.0.0.1:7105) during the move (";
        let done = stop(Ok(60));
        assert!(done.starts_with(happened), "{done}");
        assert!(
            done.contains("slotgen finished the slot with c (127.0.0.1:7105) standing in for the source (60 more keys moved, 40 before): b (127.0.0.1:7102) owns it"),
            "{done}"
        );
        let left = stop(Err("the reason".into()));
        assert!(left.starts_with(happened), "{left}");
        assert!(
            left.contains("slot 2328 is half moved (40 of its keys on b (127.0.0.1:7102), the rest on c (127.0.0.1:7105)), and slotgen could not finish it now (the reason)")
                && left.contains("run `slotgen rebalance --apply` again now; it carries the rest of the slot's keys from c (127.0.0.1:7105) to b (127.0.0.1:7102)")
                && !left.contains("from a (127.0.0.1:7101) to b (127.0.0.1:7102) ("),
            "{left}"
        );
    }

    /// A source that stopped answering and whose failover slotgen waited for: the stop
    /// says so, and what did not answer without the advice to wait (slotgen did).
    #[test]
    fn a_source_failed_over_while_slotgen_waited_says_so() {
        let said = Error::SourceFailedOver {
            slot: 2328,
            from: "a (127.0.0.1:7101)".to_owned(),
            to: "b (127.0.0.1:7102)".to_owned(),
            now: "c (127.0.0.1:7105)".into(),
            error: Box::new(Error::MoveEndDown {
                url: "redis://127.0.0.1:7101".to_owned(),
                id: "a".repeat(40).into(),
                during: "MIGRATE".to_owned(),
                reason: "the server closed the connection".to_owned(),
                replicas: replicas(1),
                at_source: true,
                lost_if_dead: None,
            }),
            waited_ms: Some(2540),
            before: 40,
            finished: Ok(60),
            given_down: false,
            given_fail: false,
            drained: None,
        }
        .to_string();
        assert!(
            said.starts_with("moving slot 2328 from a (127.0.0.1:7101) to b (127.0.0.1:7102): the source stopped answering during the move (cannot reach `redis://127.0.0.1:7101` (MIGRATE): the server closed the connection); slotgen waited for the failover, and c (127.0.0.1:7105), its replica, took its place 2.5 s later; slotgen finished the slot with c (127.0.0.1:7105) standing in for the source (60 more keys moved, 40 before)"),
            "{said}"
        );
        assert!(!said.contains("wait until"), "{said}");
        // what to run next: the same command, or a new plan where it applied a plan file
        assert!(
            said.ends_with("the other moves were planned on the map before the failover: run the same command again to plan and move the rest (a plan file made on the map before the failover is refused now: make and review a new one with `slotgen rebalance ... --out FILE`, then apply it)"),
            "{said}"
        );
    }

    /// A source that died at its own final `CLUSTER SETSLOT`, the target owning the slot by
    /// then (a tester's kill -9 on Redis 7.0): the slot is said moved, on the target, and
    /// the target is not named the source's replica nor both ends of a half move.
    #[test]
    fn a_source_that_died_after_the_target_took_the_slot_says_it_moved() {
        let said = Error::SourceFailedOver {
            slot: 15228,
            from: "a (127.0.0.1:7401)".to_owned(),
            to: "b (127.0.0.1:7403)".to_owned(),
            now: "b (127.0.0.1:7403)".into(),
            error: Box::new(Error::MoveEndDown {
                url: "redis://127.0.0.1:7401".to_owned(),
                id: "a".repeat(40).into(),
                during: "CLUSTER SETSLOT".to_owned(),
                reason: "the server closed the connection".to_owned(),
                replicas: replicas(1),
                at_source: true,
                lost_if_dead: None,
            }),
            waited_ms: Some(2800),
            before: 2,
            finished: Ok(0),
            given_down: false,
            given_fail: false,
            drained: None,
        }
        .to_string();
        assert!(
            said.contains("slot 15228 is moved (2 of its keys moved, all of them on b (127.0.0.1:7403), which owns it)")
                && said.contains("slotgen waited 2.8 s for its failover"),
            "{said}"
        );
        for wrong in [
            "half moved",
            "its replica, took",
            "from b (127.0.0.1:7403) to b",
        ] {
            assert!(!said.contains(wrong), "{wrong} in {said}");
        }
    }

    #[test]
    fn only_a_command_of_the_map_names_the_map_s_rules() {
        let shards = Denied::new("app", &["CLUSTER SHARDS"]);
        assert_eq!(
            map_note(&shards),
            "; reading a cluster's map needs all of `+info +cluster|info +cluster|shards +cluster|nodes` (`+cluster|slots` may stand for `+cluster|shards`)"
        );
        assert_eq!(map_note(&Denied::new("app", &["MIGRATE"])), "");
    }
}
