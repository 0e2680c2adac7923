//! How a plan is carried out ([`ApplyOptions`]): a leaf, which the classic moves
//! ([`crate::apply`]) and the atomic jobs both read.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use super::dialect::Dialect;

/// How [`apply`](crate::apply) carries a plan out.
#[derive(Clone, Copy)]
pub struct ApplyOptions<'a> {
    /// The keys one `CLUSTER GETKEYSINSLOT` asks for and one `MIGRATE` carries (classic).
    pub batch: usize,
    /// The time of one step: a connection, a command; an atomic job is cancelled when it
    /// shows no progress for this long.
    pub timeout: Duration,
    /// The dialect: [`Dialect::Classic`] or [`Dialect::Migrateslots`]; `None` for
    /// `migrateslots` where every primary has `CLUSTER MIGRATESLOTS` (asked by `COMMAND
    /// INFO`), `classic` elsewhere.
    pub dialect: Option<Dialect>,
    /// Set (by a SIGINT, SIGTERM or SIGHUP handler) to stop at the next move: the slot in flight is finished,
    /// an atomic job in flight cancelled.
    pub interrupted: &'a AtomicBool,
    /// Given a line (the job, its slots, its state, the time waited) every two steps of
    /// `timeout` while an atomic job runs: what the run waits for; and, before a wait for a
    /// failover ([`after_stop`](crate::after_stop)), each replica of the end that stopped
    /// answering that refuses slotgen's credentials, with the fix.
    pub waiting: &'a dyn Fn(&str),
}

impl std::fmt::Debug for ApplyOptions<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ApplyOptions")
            .field("batch", &self.batch)
            .field("timeout", &self.timeout)
            .field("dialect", &self.dialect)
            .field("interrupted", &self.interrupted)
            .finish_non_exhaustive()
    }
}
