//! One `rebalance --apply` at a time on a cluster ([`claim`]), with no write of a user's
//! key: each run names a connection of its own to one primary, the same for every run (the
//! one with the least node id), `slotgen-apply-...` (`CLIENT SETNAME`), and reads that
//! primary's clients (`CLIENT LIST`) in the same transaction (`MULTI`/`EXEC`: no other
//! run's name comes between), and holds the connection open while it moves slots. A run
//! that finds another run's name refuses, naming it; so of two runs started together, the
//! second to reach that primary refuses and the first goes on. (Ordering by client id, as
//! first written, let both go on: ids are given at the connection, not at the name, so a
//! run that connected first and named itself last saw no name and was not seen either.)

use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use super::exchange::{gone, Exchange};
use super::topology::Topology;
use super::Error;
use redis::Value;

use crate::rights::CLAIM;
use crate::transport::{Budget, ConnectOptions, Connection};

/// What starts the name of an apply's connection: `slotgen-apply-<pid>-<nanoseconds>`.
pub const CLAIM_NAME: &str = "slotgen-apply-";

/// The budget of `CLIENT LIST`: a line of about 300 bytes a client, 16 MiB for some 50,000.
const CLIENT_LIST: Budget = Budget {
    bytes: 16 << 20,
    values: 16,
    string: 16 << 20,
};

/// A run's claim on a cluster ([`claim`]): its named connection, held open until this is
/// dropped (the end of the run), or, where the servers do not let the user name it or list
/// the clients, why the check was skipped.
pub struct Claim {
    /// The connection whose name other runs see; `None` where the check was skipped.
    held: Option<Connection>,
    /// Why the check was skipped (the refusal), escaped; `None` where it was made.
    pub skipped: Option<String>,
}

/// Claims the cluster at `url` for one `rebalance --apply`: on the primary with the least
/// node id, names a connection of its own [`CLAIM_NAME`]`<pid>-<nanoseconds>` and reads the
/// clients there, in one transaction; keep the [`Claim`] until the apply ends. Where the
/// user may not run `MULTI`, `CLIENT SETNAME`, `CLIENT LIST` or `EXEC` (a refusal, `NOPERM`
/// included), the claim says the check was skipped. `timeout` bounds the exchange.
///
/// # Errors
///
/// [`Error::AnotherApply`] when another connection of such a name is there (another run's);
/// what [`Topology::fetch`] gives; a connection's error.
pub fn claim(url: &str, options: &ConnectOptions, timeout: Duration) -> Result<Claim, Error> {
    let map = Topology::fetch(url, options, timeout)?;
    let Some(arbiter) = map.shards.iter().map(|s| &s.primary).min_by_key(|p| &p.id) else {
        return Ok(Claim {
            held: None,
            skipped: None,
        });
    };
    let exchange = Exchange::open(url, options, timeout)?;
    let end = exchange.primary_endpoint(arbiter)?;
    let mut con = exchange.connect(&end).map_err(gone(arbiter))?;
    con.set_deadline(Some(Instant::now() + timeout));
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let name = format!("{CLAIM_NAME}{}-{nanos}", std::process::id());
    // a refusal for a right names the check's whole grant: the user cannot ask which of
    // its commands it lacks
    let skipped = |why: String, denied: Option<&crate::transport::Denied>| {
        let grant = denied.map_or_else(String::new, |denied| {
            let sent: Vec<String> = CLAIM.iter().map(|c| format!("`{c}`")).collect();
            let (last, rest) = sent.split_last().expect("the claim sends commands");
            format!(
                "; the check sends {} and {last}, which `ACL SETUSER {} {}` grants (on every node)",
                rest.join(", "),
                denied.user,
                crate::rights::rules(&CLAIM).join(" ")
            )
        });
        Ok(Claim {
            held: None,
            skipped: Some(format!("{why}{grant}")),
        })
    };
    let refused = |e: Error| skipped(e.to_string(), e.denied());
    // the name set and the clients read in one transaction: no other run's name comes
    // between, so of two runs the second to get there sees the first
    let mut setname = redis::cmd("CLIENT");
    setname.arg("SETNAME").arg(&name);
    let mut list = redis::cmd("CLIENT");
    list.arg("LIST").arg("TYPE").arg("normal");
    for cmd in [&redis::cmd("MULTI"), &setname, &list] {
        match exchange.query(&mut con, cmd, Budget::SHORT) {
            Ok(_) => {}
            // refused (`NOPERM` included) as it was queued: the connection, dropped,
            // drops the transaction
            Err(e) if Exchange::answered(&e) => return refused(e),
            Err(e) => return Err(e),
        }
    }
    let text = match exchange.query(&mut con, &redis::cmd("EXEC"), CLIENT_LIST) {
        Ok(Value::Array(answers)) => match answers.get(1) {
            Some(Value::BulkString(b)) => String::from_utf8_lossy(b).into_owned(),
            Some(Value::VerbatimString { text, .. } | Value::SimpleString(text)) => text.clone(),
            other => {
                return skipped(
                    format!(
                        "`{}` answered `CLIENT LIST` in `EXEC` with no list of clients but {}",
                        con.url(),
                        other.map_or("nothing".to_owned(), crate::transport::describe)
                    ),
                    None,
                )
            }
        },
        Ok(other) => {
            return skipped(
                format!(
                    "`{}` answered `EXEC` with no list of answers but {}",
                    con.url(),
                    crate::transport::describe(&other)
                ),
                None,
            )
        }
        Err(e) if Exchange::answered(&e) => return refused(e),
        Err(e) => return Err(e),
    };
    if let Some(other) = other_claim(&text, &name) {
        return Err(Error::AnotherApply {
            node: crate::text::escape_cut(format!("{} ({})", arbiter.id, arbiter.addr).as_bytes()),
            client: crate::text::escape_cut(other.id.as_bytes()),
            from: crate::text::escape_cut(other.addr.as_bytes()),
            age: crate::text::escape_cut(other.age.as_bytes()),
        });
    }
    con.set_deadline(None);
    Ok(Claim {
        held: Some(con),
        skipped: None,
    })
}

/// A client of `CLIENT LIST`, its fields as the server gives them.
#[derive(Debug, Default, PartialEq, Eq)]
struct Client<'a> {
    id: &'a str,
    addr: &'a str,
    age: &'a str,
    name: &'a str,
}

/// The client of `list` (`CLIENT LIST`, a line a client of `field=value` pairs) named as a
/// claim ([`CLAIM_NAME`]) but not `mine`, the one of the least id; `None` where there is
/// none.
fn other_claim<'a>(list: &'a str, mine: &str) -> Option<Client<'a>> {
    list.lines()
        .map(|line| {
            let mut c = Client::default();
            for (field, value) in line.split(' ').filter_map(|f| f.split_once('=')) {
                match field {
                    "id" => c.id = value,
                    "addr" => c.addr = value,
                    "age" => c.age = value,
                    "name" => c.name = value,
                    _ => {}
                }
            }
            c
        })
        .filter(|c| c.name.starts_with(CLAIM_NAME) && c.name != mine)
        .min_by_key(|c| c.id.parse::<u64>().unwrap_or(u64::MAX))
}

impl Claim {
    /// Whether the claim holds a named connection (the check was made).
    #[must_use]
    pub fn held(&self) -> bool {
        self.held.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Another run's claim is found by its name (the least id of several); this run's own,
    /// other clients, or none give none.
    #[test]
    fn another_run_s_claim_is_found_by_its_name() {
        let list = "id=3 addr=127.0.0.1:50001 laddr=127.0.0.1:7000 fd=8 name=app age=90 idle=0\n\
                    id=9 addr=127.0.0.1:50003 laddr=127.0.0.1:7000 fd=10 name=slotgen-apply-11-2 age=0 idle=0 lib-name=\n\
                    id=7 addr=127.0.0.1:50002 laddr=127.0.0.1:7000 fd=9 name=slotgen-apply-10-1 age=4 idle=4\n";
        assert_eq!(
            other_claim(list, "slotgen-apply-11-2"),
            Some(Client {
                id: "7",
                addr: "127.0.0.1:50002",
                age: "4",
                name: "slotgen-apply-10-1"
            })
        );
        assert_eq!(
            other_claim(list, "slotgen-apply-10-1").map(|c| c.id),
            Some("9")
        );
        assert_eq!(
            other_claim(list, "slotgen-apply-99-9").map(|c| c.id),
            Some("7")
        );
        assert_eq!(
            other_claim(
                "id=3 addr=a name=app\nid=4 addr=b name=slotgen-apply-1-1\n",
                "slotgen-apply-1-1"
            ),
            None
        );
        assert_eq!(other_claim("", "slotgen-apply-1-1"), None);
    }
}
