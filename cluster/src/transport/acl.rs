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
    /// Whether the server refused the keys the command names, not the command (`NOPERM
    /// this user has no permissions to access one of the keys used as arguments`, Redis
    /// 7.0; `NOPERM No permissions to access a key`, Valkey 8.0 and 9.1): a key pattern
    /// grants them ([`Denied::key_rule`]), not `+command`.
    pub keys: bool,
}

/// The commands slotgen sends that name keys, and the key pattern each needs: `%R~*` for
/// those that only read them, `~*` (read and write) for those that write or delete them
/// (measured: a user with `%R~*` is refused `MIGRATE`'s keys on Redis 7.0 and Valkey 8.0;
/// `DUMP` and `MEMORY USAGE` need a key pattern at all). slotgen moves or weighs every key
/// of a slot, whatever its name, so the pattern is every key.
const KEY_RULES: [(&str, &str); 6] = [
    ("DUMP", "%R~*"),
    ("MEMORY USAGE", "%R~*"),
    ("OBJECT FREQ", "%R~*"),
    ("MIGRATE", "~*"),
    ("DEL", "~*"),
    ("RESTORE-ASKING", "~*"),
];

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
            keys: false,
        }
    }

    /// `user` may run `command`, but not on the keys it names.
    ///
    /// # Examples
    ///
    /// ```
    /// use slotgen_cluster::transport::Denied;
    ///
    /// assert_eq!(
    ///     Denied::keys("op", "MIGRATE").to_string(),
    ///     "user `op` may run MIGRATE, but not on the keys it names: grant every key with `ACL SETUSER op ~*`"
    /// );
    /// ```
    #[must_use]
    pub fn keys(user: &str, command: &str) -> Self {
        Denied {
            keys: true,
            ..Denied::new(user, &[command])
        }
    }

    /// The key pattern that lets `command` (as [`rule`](Self::rule) takes it) at the keys
    /// of any slot: `~*`, or `%R~*` for a command that only reads them; `None` for a
    /// command that names no key.
    #[must_use]
    pub fn key_rule(command: &str) -> Option<&'static str> {
        KEY_RULES
            .iter()
            .find(|(c, _)| c.eq_ignore_ascii_case(command))
            .map(|&(_, rule)| rule)
    }

    /// The one key pattern that lets every one of `commands` at the keys of any slot: `~*`
    /// where one of them writes keys, else `%R~*` where one reads them, else `None`.
    #[must_use]
    pub fn keys_rule<'a>(commands: impl IntoIterator<Item = &'a str>) -> Option<&'static str> {
        commands
            .into_iter()
            .filter_map(Denied::key_rule)
            .max_by_key(|rule| *rule == "~*")
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
        if self.keys {
            let rule = Denied::key_rule(first).unwrap_or("~*");
            return write!(
                f,
                "user `{user}` may run {first}, but not on the keys it names: grant every key with `ACL SETUSER {user} {rule}`"
            );
        }
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
            Denied::keys("op", "MEMORY USAGE").to_string(),
            "user `op` may run MEMORY USAGE, but not on the keys it names: grant every key with `ACL SETUSER op %R~*`"
        );
        assert_eq!(Denied::keys_rule(["DUMP", "CLUSTER SETSLOT"]), Some("%R~*"));
        assert_eq!(Denied::keys_rule(["DUMP", "MIGRATE"]), Some("~*"));
        assert_eq!(Denied::keys_rule(["INFO cluster"]), None);
        assert_eq!(
            Denied::new("a\u{1b}b", &["INFO cluster"]).to_string(),
            "user `a\\x1bb` may not run INFO cluster: grant it with `ACL SETUSER a\\x1bb +info`"
        );
    }
}
