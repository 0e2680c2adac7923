//! The next run a stop advises, as a whole command: the run's own command line with
//! `--apply`, for a message to name where the library says "the next `slotgen rebalance
//! --apply`".

use slotgen_cluster as cluster;

use super::args::RebalanceArgs;

/// The next run as the library's messages name it.
pub(super) const NEXT_RUN: &str = "`slotgen rebalance --apply`";

/// `text`, a stop's message, with the whole command ([`again`]) where it advises the next
/// [`NEXT_RUN`] (a tester ran `slotgen rebalance --apply` as printed: refused, "needs
/// `--by`"); the one that leads the whole run's grant (`... sends, as user`) is no advice.
pub(super) fn again_said(text: &str, swap: Option<&(String, String)>) -> String {
    let advised = text
        .match_indices(NEXT_RUN)
        .any(|(at, _)| !text[at + NEXT_RUN.len()..].starts_with(" sends, as user"));
    if advised {
        format!("{text}; the next run in full: `{}`", again(swap))
    } else {
        text.to_owned()
    }
}

/// The command that takes this run up where a stop left it: the run's own command line
/// (`slotgen rebalance` and every option as given, so `--by`, `--drain`, `--weight`, the
/// connection's options and `--plan` too), but `--format` and `--out` (the plan file
/// reviewed is not written over) and with `--apply`; each word quoted for `sh` where it
/// needs it, the URL of `--redis` redacted (a password in it is shown as `***`: a password
/// is never printed; `--password-file`, `--askpass` and `REDISCLI_AUTH` give it as they did).
/// `swap` (a `--drain` value as given, the node to drain in its place) names the replica
/// a stop advises to take over (`CLUSTER FAILOVER TAKEOVER`) from a drained source that
/// started again empty: the drained node is a replica then, and the same `--drain` exits 2
/// (a tester ran it).
pub(super) fn again(swap: Option<&(String, String)>) -> String {
    let quote = |word: &str| {
        shlex::try_quote(word).map_or_else(
            |_| slotgen::text::field(word.as_bytes()),
            |q| q.into_owned(),
        )
    };
    let mut words = vec!["slotgen".to_owned()];
    let mut argv = std::env::args_os()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned());
    let mut apply = false;
    while let Some(word) = argv.next() {
        let (name, value) = match word.split_once('=') {
            Some((name, value)) if name.starts_with("--") => {
                (name.to_owned(), Some(value.to_owned()))
            }
            _ => (word.clone(), None),
        };
        let takes_value = |name: &str| value.is_none() && argv_takes_value(name);
        match name.as_str() {
            "--format" | "--out" => {
                if takes_value(&name) {
                    argv.next();
                }
            }
            "--redis" => {
                let url = value.or_else(|| argv.next()).unwrap_or_default();
                words.push(format!(
                    "--redis {}",
                    quote(&slotgen_cluster::url::redact(&url))
                ));
            }
            "--drain" if swap.is_some() => {
                let node = value.or_else(|| argv.next()).unwrap_or_default();
                let node = match swap {
                    Some((given, heir)) if *given == node => heir.clone(),
                    _ => node,
                };
                words.push(format!("--drain {}", quote(&node)));
            }
            _ => {
                apply |= name == "--apply";
                words.push(quote(&word));
                if takes_value(&name) {
                    if let Some(value) = argv.next() {
                        words.push(quote(&value));
                    }
                }
            }
        }
    }
    if !apply {
        words.push("--apply".to_owned());
    }
    words.join(" ")
}

/// Where `e` stops a drain whose source started again empty and advises to take its
/// replica over (the one that holds the most keys, [`cluster::Error::SourceRestartedEmpty`]):
/// the `--drain` value that named the source (its id or address, as given) and the
/// replica's address, which the next run drains in its place.
pub(super) fn drain_taken_over(
    args: &RebalanceArgs,
    e: &cluster::Error,
) -> Option<(String, String)> {
    let cluster::Error::SourceRestartedEmpty {
        from,
        replicas,
        at_source: true,
        ..
    } = e
    else {
        return None;
    };
    let (id, addr) = from.split_once(" (")?;
    let addr = addr.strip_suffix(')')?;
    let given = args.drain.iter().find(|d| *d == id || *d == addr)?;
    let (heir, _) = replicas
        .iter()
        .filter_map(|(r, keys)| Some((r, (*keys)?)))
        .filter(|(_, keys)| *keys > 0)
        .max_by_key(|(_, keys)| *keys)?;
    let heir = heir.rsplit_once(" (")?.1.strip_suffix(')')?;
    Some((given.clone(), heir.to_owned()))
}

/// Whether the option `name` of `rebalance` takes a value as the next word (`--by keys`),
/// by the command's own definition.
fn argv_takes_value(name: &str) -> bool {
    use clap::Args;
    let Some(long) = name.strip_prefix("--") else {
        return false;
    };
    RebalanceArgs::augment_args(clap::Command::new("rebalance"))
        .get_arguments()
        .find(|a| a.get_long() == Some(long))
        .is_some_and(|a| a.get_action().takes_values())
}
