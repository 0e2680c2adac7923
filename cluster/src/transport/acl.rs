//! [`Denied`]: an ACL user's `NOPERM` refusal, with the rule that would grant what it lacks.

use std::fmt;

/// The commands an ACL user may not run (the server answered `NOPERM`), as
/// [`ServerError::NoPermission`](super::ServerError::NoPermission) and
/// [`crate::Error::NoPermission`] carry it.
///
/// # Examples
///
/// ```
/// use slotgen_cluster::transport::Denied;
///
/// let denied = Denied::new("app", &["CLUSTER SHARDS"]);
/// assert_eq!(
///     denied.to_string(),
///     "user `app` may not run CLUSTER SHARDS: grant it with `ACL SETUSER app +cluster|shards`"
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Denied {
    /// The user (`default` when none was given), escaped.
    pub user: String,
    /// The commands refused, as `CLUSTER SHARDS`: any one of them would do, or, with
    /// [`each`](Self::each), each is needed.
    pub commands: Vec<String>,
    /// Whether each of [`commands`](Self::commands) is needed (as `ACL DRYRUN` found them
    /// refused, one by one), not any one of them.
    pub each: bool,
}

/// The container commands that slotgen sends: their second word is a subcommand, which an
/// ACL rule names (`+cluster|shards`, `+command|info`: a rule for the whole command grants
/// more than slotgen needs).
const CONTAINERS: [&str; 7] = [
    "cluster", "config", "acl", "client", "command", "memory", "object",
];

impl Denied {
    /// `user` may run none of `commands` (any one of which would do).
    #[must_use]
    pub fn new(user: &str, commands: &[&str]) -> Self {
        Denied {
            user: crate::text::escape(user.as_bytes()),
            commands: commands.iter().map(|&c| c.to_owned()).collect(),
            each: false,
        }
    }

    /// `user` may run none of `commands`, and needs each of them.
    ///
    /// # Examples
    ///
    /// ```
    /// use slotgen_cluster::transport::Denied;
    ///
    /// assert_eq!(
    ///     Denied::each("op", &["MIGRATE", "CONFIG GET"]).to_string(),
    ///     "user `op` may not run MIGRATE and CONFIG GET: grant them with `ACL SETUSER op +migrate +config|get`"
    /// );
    /// ```
    #[must_use]
    pub fn each(user: &str, commands: &[&str]) -> Self {
        Denied {
            each: true,
            ..Denied::new(user, commands)
        }
    }

    /// The ACL rule that grants `command`: `+cluster|shards` for `CLUSTER SHARDS` (a
    /// subcommand of a container command, as `ACL SETUSER` names it since Redis 7.0),
    /// `+info` for `INFO cluster` (an argument, not a subcommand).
    #[must_use]
    pub fn rule(command: &str) -> String {
        let mut words = command.split_ascii_whitespace();
        let first = words.next().unwrap_or("").to_ascii_lowercase();
        match (first.as_str(), words.next()) {
            (container, Some(sub)) if CONTAINERS.contains(&container) => {
                format!("+{first}|{}", sub.to_ascii_lowercase())
            }
            _ => format!("+{first}"),
        }
    }

    /// Whether a message names the command `first` with its first argument: a container
    /// command's subcommand (`CLUSTER SHARDS`), or `INFO`'s section (`INFO cluster`); other
    /// commands (`MIGRATE`) by their name alone.
    #[must_use]
    pub fn named_with_argument(first: &str) -> bool {
        let first = first.to_ascii_lowercase();
        CONTAINERS.contains(&first.as_str()) || first == "info"
    }
}

/// `user `app` may not run CLUSTER SHARDS: grant it with `ACL SETUSER app +cluster|shards``;
/// for two commands, `may run neither A nor B: grant one with ...` (the first's rule), or,
/// each needed, `may not run A and B: grant them with ...` (every rule).
impl fmt::Display for Denied {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let first = self.commands.first().map_or("", String::as_str);
        let rule = Denied::rule(first);
        let user = &self.user;
        match self.commands.as_slice() {
            [one] => write!(
                f,
                "user `{user}` may not run {one}: grant it with `ACL SETUSER {user} {rule}`"
            ),
            [all @ .., last] if self.each => {
                let rules: Vec<String> = self.commands.iter().map(|c| Denied::rule(c)).collect();
                write!(
                    f,
                    "user `{user}` may not run {} and {last}: grant them with `ACL SETUSER {user} {}`",
                    all.join(", "),
                    rules.join(" ")
                )
            }
            many => write!(
                f,
                "user `{user}` may run neither {}: grant one with `ACL SETUSER {user} {rule}`",
                many.join(" nor ")
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_name_the_subcommand() {
        assert_eq!(Denied::rule("CLUSTER SHARDS"), "+cluster|shards");
        assert_eq!(Denied::rule("CLUSTER SLOT-STATS"), "+cluster|slot-stats");
        assert_eq!(Denied::rule("INFO cluster"), "+info");
        assert_eq!(Denied::rule("READONLY"), "+readonly");
        assert_eq!(Denied::rule("COMMAND INFO"), "+command|info");
        assert_eq!(Denied::rule("MEMORY USAGE"), "+memory|usage");
        assert_eq!(Denied::rule("OBJECT FREQ"), "+object|freq");
    }

    #[test]
    fn messages_name_the_command_and_the_grant() {
        // what Valkey 8.0 answers a user without it: `NOPERM User app has no permissions to
        // run the 'cluster|slot-stats' command`
        assert_eq!(
            Denied::new("app", &["CLUSTER SLOT-STATS"]).to_string(),
            "user `app` may not run CLUSTER SLOT-STATS: grant it with `ACL SETUSER app +cluster|slot-stats`"
        );
        assert_eq!(
            Denied::new("app", &["CLUSTER SHARDS", "CLUSTER SLOTS"]).to_string(),
            "user `app` may run neither CLUSTER SHARDS nor CLUSTER SLOTS: grant one with `ACL SETUSER app +cluster|shards`"
        );
        assert_eq!(
            Denied::each("op", &["MIGRATE", "DUMP", "DEL"]).to_string(),
            "user `op` may not run MIGRATE, DUMP and DEL: grant them with `ACL SETUSER op +migrate +dump +del`"
        );
        assert_eq!(
            Denied::each("op", &["MIGRATE"]),
            Denied {
                each: true,
                ..Denied::new("op", &["MIGRATE"])
            }
        );
        assert_eq!(
            Denied::new("a\u{1b}b", &["INFO cluster"]).to_string(),
            "user `a\\x1bb` may not run INFO cluster: grant it with `ACL SETUSER a\\x1bb +info`"
        );
    }
}
