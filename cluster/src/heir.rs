//! Whether a replica can take the place of its primary that stopped answering: the rule
//! the server itself applies before a replica asks for the votes of a failover
//! (`clusterHandleSlaveFailover` in Redis 7.0's `cluster.c` and Valkey 8.0's
//! `cluster_legacy.c`), read from the replica's `INFO replication` and its settings
//! (`CONFIG GET`). A replica that refuses by that rule never takes over by itself: the
//! cluster stays `fail` until its primary comes back, and a wait for the failover is vain.

use std::time::Duration;

use super::answers::info_field;
use super::exchange::Exchange;
use super::node::Node;
use super::Error;
use crate::transport::Budget;

/// Why a replica cannot take its failed primary's place, by its own state and settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Unable {
    /// Its link to the primary has been down since the replica started: it never finished
    /// a sync (`master_link_down_since_seconds:-1`, the server's "down since ever"), so its
    /// data is older than `cluster-replica-validity-factor` (not 0) allows.
    NeverSynced,
    /// It has had no word from its primary for `age` (its link down that long, or up with
    /// no data that long), more than `allowed`: the node timeout, then
    /// `repl-ping-replica-period` and `cluster-replica-validity-factor` node timeouts.
    TooOld {
        /// Since when, in seconds (`INFO replication`).
        age: u64,
        /// The most the server allows, in milliseconds.
        allowed: u64,
    },
    /// It is set never to take over by itself (`cluster-replica-no-failover yes`).
    NoFailover,
}

impl Unable {
    /// Why, in words, for a stop that names the replica before it.
    pub(crate) fn why(&self) -> String {
        match self {
            Unable::NeverSynced => "never finished a sync with it since the replica started (`INFO replication` there: `master_link_status:down`, `master_link_down_since_seconds:-1`), so the server takes its data for older than `cluster-replica-validity-factor` allows and does not ask for the votes of a failover (its log: \"Currently unable to failover: Disconnected from master for longer than allowed\")".to_owned(),
            Unable::TooOld { age, allowed } => format!(
                "has had no word from it for {age} s (`INFO replication` there), more than the {:.1} s that its `cluster-node-timeout`, `repl-ping-replica-period` and `cluster-replica-validity-factor` allow, so the server takes its data for too old and does not ask for the votes of a failover (its log: \"Currently unable to failover: Disconnected from master for longer than allowed\")",
                // milliseconds shown as seconds: exact enough for words
                *allowed as f64 / 1000.0
            ),
            Unable::NoFailover => "is set never to take over by itself (`cluster-replica-no-failover yes`)".to_owned(),
        }
    }
}

/// A replica's replication state and settings, as [`unable`] reads them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct State {
    /// `master_link_status:up`.
    link_up: bool,
    /// `master_last_io_seconds_ago` where the link is up, `master_link_down_since_seconds`
    /// where it is down; `None` for -1, which the server gives for a link down since it
    /// started (no sync ever finished).
    age: Option<u64>,
    /// `cluster-node-timeout`, in milliseconds.
    node_timeout: u64,
    /// `cluster-replica-validity-factor` (0: any age will do).
    validity_factor: u64,
    /// `repl-ping-replica-period`, in seconds.
    ping_period: u64,
    /// `cluster-replica-no-failover yes`.
    no_failover: bool,
}

/// The server's rule, on `state`: `Some` where the replica does not ask for votes. As
/// `clusterHandleSlaveFailover` computes it: the data's age in milliseconds (since the last
/// word from the primary while the link is up, since the link went down otherwise, and
/// since "ever" for a link never up), less the node timeout where it is more; too old where
/// the validity factor is not 0 and the age passes `repl-ping-replica-period` seconds and
/// `cluster-replica-validity-factor` node timeouts. The age only grows while the primary is
/// down, so a replica too old now is too old at the election; one that is not may still be
/// by then, which the wait for the failover then shows.
fn judge(state: &State) -> Option<Unable> {
    if state.no_failover {
        return Some(Unable::NoFailover);
    }
    if state.validity_factor == 0 {
        return None;
    }
    let allowed = state
        .ping_period
        .saturating_mul(1000)
        .saturating_add(state.node_timeout.saturating_mul(state.validity_factor));
    let Some(age) = state.age else {
        return (!state.link_up).then_some(Unable::NeverSynced);
    };
    let mut ms = age.saturating_mul(1000);
    if ms > state.node_timeout {
        ms -= state.node_timeout;
    }
    (ms > allowed).then_some(Unable::TooOld {
        age,
        allowed: allowed.saturating_add(state.node_timeout),
    })
}

/// [`State`] from a replica's `INFO replication` text and its settings; `None` where the
/// text is not a replica's or lacks a field.
fn state(info: &str, settings: [Option<String>; 4]) -> Option<State> {
    if info_field(info, "role")? != "slave" {
        return None;
    }
    let link_up = match info_field(info, "master_link_status")? {
        "up" => true,
        "down" => false,
        _ => return None,
    };
    let seconds = info_field(
        info,
        if link_up {
            "master_last_io_seconds_ago"
        } else {
            "master_link_down_since_seconds"
        },
    )?;
    let age = match seconds.parse::<i64>().ok()? {
        -1 => None,
        n => Some(u64::try_from(n).ok()?),
    };
    let [node_timeout, validity_factor, ping_period, no_failover] = settings;
    let number = |s: Option<String>| s?.parse::<u64>().ok();
    Some(State {
        link_up,
        age,
        node_timeout: number(node_timeout)?,
        validity_factor: number(validity_factor)?,
        ping_period: number(ping_period)?,
        no_failover: match no_failover?.as_str() {
            "yes" => true,
            "no" => false,
            _ => return None,
        },
    })
}

/// The settings [`state`] reads, by `CONFIG GET`, in its order.
const SETTINGS: [&str; 4] = [
    "cluster-node-timeout",
    "cluster-replica-validity-factor",
    "repl-ping-replica-period",
    "cluster-replica-no-failover",
];

/// Why `replica` cannot take its failed primary's place ([`judge`]), asked through
/// `exchange` (its TLS client, user and password, within its deadline) by the commands of
/// [`crate::rights::HEIR`]; `None` where it may, and where that cannot be told (it does not
/// answer in time, refuses them for another reason, or gives a state of another form): then
/// the failover is waited for, as the cluster may yet bring it.
///
/// # Errors
///
/// [`Error::NoPermission`] where the user may not run them there (`NOPERM`): a fix of the
/// user's, which a wait would only hide. The replica's refusal of the credentials
/// ([`Error::refuses_credentials`]): the caller names it, and waits all the same (the
/// cluster elects a replica without slotgen).
pub(crate) fn unable(exchange: &Exchange, replica: &Node) -> Result<Option<Unable>, Error> {
    let read = || -> Result<Option<State>, Error> {
        let endpoint = exchange.primary_endpoint(replica)?;
        let mut con = exchange.connect(&endpoint)?;
        let budget = Budget {
            bytes: 64 << 10,
            values: 1,
            string: 64 << 10,
        };
        // what `crate::rights::HEIR` lists: `INFO replication`, then `CONFIG GET`
        let info = exchange.text(&mut con, redis::cmd("INFO").arg("replication"), budget)?;
        let mut settings = [None, None, None, None];
        for (value, name) in settings.iter_mut().zip(SETTINGS) {
            *value = exchange
                .config(&mut con, name)?
                .and_then(|v| String::from_utf8(v).ok());
        }
        Ok(state(&info, settings))
    };
    match read() {
        Err(e @ Error::NoPermission { .. }) => Err(e),
        Err(e) if e.refuses_credentials() => Err(e),
        read => Ok(read.ok().flatten().as_ref().and_then(judge)),
    }
}

/// How long [`unable`] may take for each replica: its answers are short, and the failover
/// it decides about comes within seconds.
pub(crate) const ASK_TIME: Duration = Duration::from_secs(2);

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(validity: &str, no_failover: &str) -> [Option<String>; 4] {
        ["1000", validity, "10", no_failover].map(|s| Some(s.to_owned()))
    }

    /// The fields as Redis 7.0.15 and Valkey 8.0.1 give them (measured: a replica started
    /// with `replicaof` a primary whose diskless sync waits an hour).
    const NEVER: &str = "# Replication\r\nrole:slave\r\nmaster_host:127.0.0.1\r\nmaster_port:27301\r\nmaster_link_status:down\r\nmaster_last_io_seconds_ago:-1\r\nmaster_sync_in_progress:0\r\nslave_read_repl_offset:1\r\nslave_repl_offset:1\r\nmaster_link_down_since_seconds:-1\r\nslave_priority:100\r\n";

    #[test]
    fn a_replica_never_synced_cannot_take_over_unless_any_age_will_do() {
        let s = |v: &str, n: &str| state(NEVER, settings(v, n)).unwrap();
        assert_eq!(judge(&s("10", "no")), Some(Unable::NeverSynced));
        assert_eq!(judge(&s("0", "no")), None);
        assert_eq!(judge(&s("0", "yes")), Some(Unable::NoFailover));
        // not a replica's, or a field missing: not known, so waited for
        assert_eq!(
            state(&NEVER.replace("slave", "master"), settings("10", "no")),
            None
        );
        assert_eq!(state(NEVER, [None, None, None, None]), None);
    }

    #[test]
    fn a_replica_cut_off_too_long_cannot_take_over() {
        // node timeout 1 s, ping period 10 s, factor 10: 20 s past the node timeout
        let down = |secs: u64| {
            let info = NEVER.replace(
                "master_link_down_since_seconds:-1",
                &format!("master_link_down_since_seconds:{secs}"),
            );
            judge(&state(&info, settings("10", "no")).unwrap())
        };
        assert_eq!(down(2), None);
        assert_eq!(down(21), None);
        assert_eq!(
            down(22),
            Some(Unable::TooOld {
                age: 22,
                allowed: 21_000
            })
        );
        let up = NEVER
            .replace("master_link_status:down", "master_link_status:up")
            .replace(
                "master_last_io_seconds_ago:-1",
                "master_last_io_seconds_ago:0",
            );
        assert_eq!(judge(&state(&up, settings("10", "no")).unwrap()), None);
    }
}
