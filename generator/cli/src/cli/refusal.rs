//! clap's refusals as slotgen says them: one line, `slotgen: error: ...`, naming the rule
//! and the way out ([`one_line`], through clap's error formatter [`OneLine`]), with what to
//! write instead found among the command's real candidates ([`slotgen::text::nearest`]),
//! the values from the command line escaped. The command tree is [`super::help::command`]'s.
//! [`parse`] reads the process's command line with them.

use clap::builder::StyledStr;
use clap::error::{ContextKind, ContextValue, ErrorFormatter, ErrorKind};
use clap::{Command, FromArgMatches};

use super::command::Cli;
use super::help::command;

/// clap's error formatter for slotgen: a refusal is one line, `slotgen: error: ...`
/// ([`one_line`]).
pub struct OneLine;

impl ErrorFormatter for OneLine {
    fn format_error(error: &clap::error::Error<Self>) -> StyledStr {
        format!("slotgen: error: {}\n", one_line(error)).into()
    }
}

/// Parses the process's command line against [`command`]. `--help` and `--version` print
/// what clap prints; every other refusal is one line, `slotgen: error: ...` (clap's error
/// formatter [`OneLine`]), and exit status 2, as every usage error.
#[must_use]
pub fn parse() -> Cli {
    let mut command = command();
    let parsed = command
        .try_get_matches_from_mut(std::env::args_os())
        .and_then(|mut matches| Cli::from_arg_matches_mut(&mut matches));
    match parsed {
        Ok(cli) => cli,
        Err(e) if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) => {
            e.exit()
        }
        // clap would print the whole help, where a refusal is one line
        Err(e) if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            clap::error::Error::<OneLine>::new(ErrorKind::MissingSubcommand).exit()
        }
        // clap prints through [`OneLine`] (a closed stderr is no panic) and exits with 2
        Err(e) => e.apply::<OneLine>().exit(),
    }
}

/// The commands, from [`command`]'s tree, that take the option `name` (`--prefix`):
/// `slotgen key`, `slotgen keys`. None for a name that is no long option.
fn commands_taking(name: &str) -> Vec<String> {
    fn walk(command: &Command, path: &str, long: &str, found: &mut Vec<String>) {
        for sub in command.get_subcommands() {
            let path = format!("{path} {}", sub.get_name());
            if sub.get_arguments().any(|a| a.get_long() == Some(long)) {
                found.push(path.clone());
            }
            walk(sub, &path, long, found);
        }
    }
    let mut found = Vec::new();
    if let Some(long) = name.strip_prefix("--").filter(|l| !l.is_empty()) {
        walk(&command(), "slotgen", long, &mut found);
    }
    found
}

/// The command at `path` of [`command`]'s tree (`slotgen emit`), None for a path that names
/// none.
fn command_at(path: &str) -> Option<Command> {
    let mut words = path.split_whitespace();
    let mut command = command();
    if words.next() != Some(command.get_name()) {
        return None;
    }
    for word in words {
        command = command.find_subcommand(word)?.clone();
    }
    Some(command)
}

/// What to suggest for a word of the command line that clap refused, from the command at
/// `path` ([`command_at`]): the nearest ([`slotgen::text::nearest`]) of its real candidates,
/// not clap's own guesses (`frobnicate` was "did you mean `rebalance`?"). Values:
/// [`value_suggestions`].
enum Refused<'a> {
    /// A command, by the names and aliases of the subcommands at `path`.
    Subcommand(&'a str),
    /// A long option `--name`, by the long names and aliases of the options at `path`.
    Long(&'a str),
}

fn suggestions(path: &str, refused: Refused<'_>) -> Vec<String> {
    let Some(command) = command_at(path) else {
        return Vec::new();
    };
    match refused {
        Refused::Subcommand(word) => {
            let known: Vec<(String, String)> = command
                .get_subcommands()
                .flat_map(|c| {
                    let name = c.get_name().to_owned();
                    std::iter::once(c.get_name())
                        .chain(c.get_all_aliases())
                        .map(move |n| (name.clone(), n.to_owned()))
                })
                .collect();
            slotgen::text::nearest(word, known)
        }
        Refused::Long(word) => {
            let Some(word) = word.strip_prefix("--").filter(|w| !w.is_empty()) else {
                return Vec::new();
            };
            let known: Vec<(String, String)> = command
                .get_arguments()
                .filter(|a| !a.is_hide_set())
                .flat_map(|a| {
                    let name = a.get_long().map(|l| format!("--{l}"));
                    let spellings: Vec<&str> = a
                        .get_long()
                        .into_iter()
                        .chain(a.get_all_aliases().unwrap_or_default())
                        .collect();
                    spellings
                        .into_iter()
                        .filter_map(move |s| Some((name.clone()?, s.to_owned())))
                })
                .collect();
            slotgen::text::nearest(word, known)
        }
    }
}

/// The nearest ([`slotgen::text::nearest`]) of the possible values, by their names and
/// aliases (`javascrpt` missed the alias `javascript` of `js`), of the argument whose
/// possible values clap listed as `valid` (clap's error names no command for a value, so
/// the argument is found by its values, anywhere in [`command`]'s tree).
fn value_suggestions(word: &str, valid: &[String]) -> Vec<String> {
    fn find(command: &Command, valid: &[String]) -> Option<Vec<clap::builder::PossibleValue>> {
        let own = command
            .get_arguments()
            .map(clap::Arg::get_possible_values)
            .find(|values| {
                !values.is_empty() && values.iter().map(|v| v.get_name()).eq(valid.iter())
            });
        own.or_else(|| command.get_subcommands().find_map(|c| find(c, valid)))
    }
    let values = find(&command(), valid).unwrap_or_default();
    let known = values.iter().flat_map(|v| {
        v.get_name_and_aliases()
            .map(move |n| (v.get_name().to_owned(), n))
    });
    slotgen::text::nearest(word, known)
}

/// The refusal of an argument that is not UTF-8 (clap's "invalid UTF-8 was detected in one
/// or more arguments", which named neither), for the command at `path`: the first such
/// argument of `args` (the process's, program name first), escaped, and the fix the command
/// offers: the option's `-hex` form for its value (`--prefix-hex`), `--hex` or standard
/// input for a key.
fn not_utf8(path: &str, args: &[std::ffi::OsString]) -> String {
    let Some(at) = args
        .iter()
        .skip(1)
        .position(|a| a.to_str().is_none())
        .map(|i| i + 1)
    else {
        return "an argument is not UTF-8: slotgen reads its command line as text".to_owned();
    };
    let bytes = args[at].as_encoded_bytes();
    let command = command_at(path);
    let option_named = |long: &str| {
        command.as_ref().and_then(|c| {
            c.get_arguments()
                .find(|a| a.get_long() == Some(long))
                .cloned()
        })
    };
    // the option the bytes are a value of: `--prefix=...`, or `--prefix ...` when
    // `--prefix` takes a value
    let (option, value) = match bytes.iter().position(|&b| b == b'=') {
        Some(eq) if bytes.starts_with(b"--") => (
            std::str::from_utf8(&bytes[2..eq])
                .ok()
                .and_then(option_named),
            &bytes[eq + 1..],
        ),
        _ => {
            let previous = args[at - 1].to_str().and_then(|p| p.strip_prefix("--"));
            let option = previous
                .and_then(option_named)
                .filter(|o| o.get_action().takes_values());
            (option, bytes)
        }
    };
    let shown = slotgen::text::escape_cut(value);
    // a short value is shown as hex too, a long one would not be read
    let hex = (value.len() <= 32).then(|| hex::encode(value));
    if let Some(long) = option.as_ref().and_then(clap::Arg::get_long) {
        let hex_form = format!("{long}-hex");
        if option_named(&hex_form).is_some() {
            let example = hex.map_or_else(String::new, |h| format!(" (`--{hex_form} {h}`)"));
            return format!(
                "the value `{shown}` of `--{long}` is not UTF-8, and a command line's values are text: give its bytes as hex with `--{hex_form}`{example}"
            );
        }
        // a `--hex` flag whose help names this option: it reads its values as hex (`lint
        // --hex`, for `--keys` and `--argv` alike)
        let named = format!("--{long} ");
        if option_named("hex").is_some_and(|h| {
            !h.get_action().takes_values()
                && h.get_help().is_some_and(|help| {
                    let help = help.to_string();
                    help.contains(&named) || help.contains(&format!("--{long},"))
                })
        }) {
            let example = hex.map_or_else(String::new, |h| format!(" (this one `--{long} {h}`)"));
            return format!(
                "the value `{shown}` of `--{long}` is not UTF-8, and a command line's values are text: give the values as hex with `--hex`, every one of them{example}"
            );
        }
        return format!(
            "the value `{shown}` of `--{long}` is not UTF-8, and a command line's values are text; `{path} --help` lists what it takes"
        );
    }
    let takes_keys = command.as_ref().is_some_and(|c| {
        c.get_arguments()
            .any(|a| a.is_positional() && a.get_id() == "keys")
    });
    if takes_keys && option_named("hex").is_some() && !bytes.starts_with(b"-") {
        let example = hex.map_or_else(String::new, |h| format!(" (`{path} --hex {h}`)"));
        return format!(
            "the key `{shown}` is not UTF-8, and the keys of a command line are text: give the keys as hex with `--hex`{example}, or on standard input, where a key is any bytes (one a line, or NUL-terminated with `-z`)"
        );
    }
    format!(
        "the argument `{}` is not UTF-8, and slotgen reads its command line as text; `{path} --help` lists what it takes",
        slotgen::text::escape_cut(bytes)
    )
}

/// The long name (`argv`) of the option of the command at `path` that takes a value and
/// is the word before the word of `args` (the process's, program name first) that clap
/// refused as `refused`, with that word as typed: `--argv -1` meant `-1` as `--argv`'s
/// value, and `--timeout -1s` meant `-1s` (clap refused `-1`, the first of the short
/// options it split `-1s` into). `None` where no such option is before it.
fn option_before(
    path: &str,
    args: &[std::ffi::OsString],
    refused: &str,
) -> Option<(String, String)> {
    let command = command_at(path)?;
    let takes_value = |long: &str| {
        command
            .get_arguments()
            .any(|a| a.get_long() == Some(long) && a.get_action().takes_values())
    };
    let found = |exact: bool| {
        args.windows(2).find_map(|w| {
            let word = w[1].to_str()?;
            let matches = if exact {
                word == refused
            } else {
                word.starts_with(refused)
            };
            let long = w[0].to_str()?.strip_prefix("--")?;
            (matches && takes_value(long)).then(|| (long.to_owned(), word.to_owned()))
        })
    };
    found(true).or_else(|| found(false))
}

/// The path of the command that `args` (the process's, program name first) run, in
/// [`command`]'s tree: `slotgen`, then each word that names a subcommand of the one before
/// (`slotgen emit`).
fn path_in(args: &[std::ffi::OsString]) -> String {
    let mut command = command();
    let mut path = command.get_name().to_owned();
    for arg in args.iter().skip(1).filter_map(|a| a.to_str()) {
        let Some(sub) = command.find_subcommand(arg).cloned() else {
            continue;
        };
        path = format!("{path} {}", sub.get_name());
        command = sub;
    }
    path
}

/// What the option `name` (`--slots`) of the command at `path` takes, for a number too
/// large for its type: the first sentence of its help, without its default and without the
/// scope it opens with (`With `vectors`: `), and the range of its type where that sentence
/// names none (`the seed of the random keys (the first keys are fixed): a number from 0 to
/// 18446744073709551615`); `the number of hash slots: a power of two from 2 to 65536`
/// as it is.
fn what_it_takes(path: &str, name: &str) -> Option<String> {
    let long = name.strip_prefix("--")?;
    let command = command_at(path)?;
    let arg = command
        .get_arguments()
        .find(|a| a.get_long() == Some(long))?;
    let help = arg.get_help()?.to_string();
    let first = help.split(". ").next().unwrap_or(&help);
    let first = first.split(" [default").next().unwrap_or(first);
    let first = first.trim().trim_end_matches('.');
    // `With `vectors`: the seed ...`: the commands it applies to, not what it takes
    let first = match first.split_once(": ") {
        Some((scope, rest)) if scope.starts_with("With `") => rest,
        _ => first,
    };
    let mut chars = first.chars();
    let initial = chars.next()?;
    let what: String = initial.to_lowercase().chain(chars).collect();
    // a range is said with its numbers (`from 2 to 65536`, `at most 32`), not `at most
    // this many slot moves`
    let ranged = (what.contains(" from ") || what.contains("at most"))
        && what.contains(|c: char| c.is_ascii_digit());
    match type_max(arg.get_value_parser().type_id()) {
        Some(max) if !ranged => Some(format!("{what}: a number from 0 to {max}")),
        _ => Some(what),
    }
}

/// The largest value of the unsigned integer type `id` is of, if it is one.
fn type_max(id: impl PartialEq<std::any::TypeId>) -> Option<u64> {
    use std::any::TypeId;
    [
        (TypeId::of::<u8>(), u64::from(u8::MAX)),
        (TypeId::of::<u16>(), u64::from(u16::MAX)),
        (TypeId::of::<u32>(), u64::from(u32::MAX)),
        (TypeId::of::<u64>(), u64::MAX),
        (TypeId::of::<usize>(), usize::MAX as u64),
    ]
    .into_iter()
    .find(|(t, _)| id == *t)
    .map(|(_, max)| max)
}

/// A refusal of clap's as one line without `error: `: what is wrong, with the values from
/// the command line escaped ([`slotgen::text::escape_cut`]), then the way out. Options are
/// named by their flag alone (`--timeout`, not `--timeout <TIME>`).
#[must_use]
pub fn one_line<F: ErrorFormatter>(e: &clap::error::Error<F>) -> String {
    let text = |kind| match e.get(kind) {
        Some(ContextValue::String(s)) => Some(s.clone()),
        Some(ContextValue::StyledStr(s)) => Some(s.to_string()),
        _ => None,
    };
    let texts = |kind| match e.get(kind) {
        Some(ContextValue::Strings(v)) => v.clone(),
        Some(ContextValue::StyledStrs(v)) => v.iter().map(ToString::to_string).collect(),
        Some(ContextValue::String(s)) => vec![s.clone()],
        _ => Vec::new(),
    };
    let shown = |value: &str| slotgen::text::escape_cut(value.as_bytes());
    // `--timeout <TIME>` is `--timeout`; a positional `<SLOT>...` is `SLOT`
    let flag = |arg: &str| {
        let first = arg.split([' ', '=']).next().unwrap_or(arg);
        first
            .trim_matches(|c| matches!(c, '<' | '>' | '.' | '[' | ']'))
            .to_owned()
    };
    // `a`, `b` or `c`
    let quoted = |items: &[String]| {
        let items: Vec<String> = items.iter().map(|v| format!("`{}`", shown(v))).collect();
        match items.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
            _ => items.concat(),
        }
    };
    // the command as typed, from clap's usage line: `slotgen slot [OPTIONS] [KEY]...`
    let usage = text(ContextKind::Usage)
        .map(|u| u.trim_start_matches("Usage:").trim().to_owned())
        .unwrap_or_default();
    let path: Vec<&str> = usage
        .split_whitespace()
        .take_while(|w| !w.starts_with(['[', '<', '-']))
        .collect();
    // clap gives no usage with a value's refusal: the commands named on the command line
    let path = if path.is_empty() {
        path_in(&std::env::args_os().collect::<Vec<_>>())
    } else {
        path.join(" ")
    };
    // clap's advice is a sentence (`to pass '-1' as a value, use '-- -1'`); its guesses of
    // a subcommand, option or value are replaced by [`suggestions`]
    let tips: String = texts(ContextKind::Suggested)
        .iter()
        .map(|t| format!("; {}", t.trim().replace('\'', "`")))
        .collect();
    let did_you_mean = |similar: &[String]| {
        if similar.is_empty() {
            String::new()
        } else {
            format!("; did you mean {}?", quoted(similar))
        }
    };
    let arg = text(ContextKind::InvalidArg).unwrap_or_default();
    let value = text(ContextKind::InvalidValue).unwrap_or_default();
    match e.kind() {
        ErrorKind::ValueValidation => {
            let source = std::error::Error::source(e);
            // slotgen's own parsers name the value in backticks; the standard number
            // parsers say only what is wrong with it
            let reason = match source.and_then(|s| s.downcast_ref::<std::num::ParseIntError>()) {
                Some(n) => match n.kind() {
                    std::num::IntErrorKind::PosOverflow => {
                        let what = what_it_takes(&path, &flag(&arg))
                            .map_or_else(String::new, |w| format!(": give {w}"));
                        format!("`{}` is too large a number{what}", shown(&value))
                    }
                    _ => format!("`{}` is not a whole number (0, 1, 2, ...)", shown(&value)),
                },
                None => source.map_or_else(String::new, ToString::to_string),
            };
            let name = flag(&arg);
            if name.starts_with('-') {
                format!("{name}: {reason}")
            } else {
                // a positional argument: the reason names it (`is not a slot`)
                reason
            }
        }
        ErrorKind::InvalidValue if value.is_empty() => {
            format!("{} needs a value", flag(&arg))
        }
        ErrorKind::InvalidValue => {
            let valid = texts(ContextKind::ValidValue);
            let similar = value_suggestions(&value, &valid);
            format!(
                "{} `{}` is none of {}{}{tips}",
                flag(&arg),
                shown(&value),
                quoted(&valid),
                did_you_mean(&similar)
            )
        }
        // `--max-moves -1`: the value, read as an option, is refused as one. clap's tip
        // (`-- -1`) makes it a positional argument (`lint --argv -1`: a FILE), so where the
        // word before is an option that takes a value, the tip is that option's `=` form,
        // with the word as typed (`--timeout -1s`, which clap split, refusing `-1`).
        ErrorKind::UnknownArgument
            if arg.starts_with('-')
                && (option_before(&path, &std::env::args_os().collect::<Vec<_>>(), &arg)
                    .is_some()
                    || (tips.is_empty() && arg.parse::<f64>().is_ok())) =>
        {
            let (option, word) =
                option_before(&path, &std::env::args_os().collect::<Vec<_>>(), &arg)
                    .unwrap_or_else(|| ("option".to_owned(), arg.clone()));
            format!(
                "`{path}` takes no argument `{}`: a value that begins with `-` is read as an option; give an option's value joined to it with `=` (`--{option}={}`), and see what each takes in `{path} --help`",
                shown(&word),
                shown(&word)
            )
        }
        ErrorKind::UnknownArgument => {
            let name = flag(&arg);
            let elsewhere = commands_taking(&name);
            let similar = if !elsewhere.is_empty() {
                // an option of other commands (`slot --prefix`): name them, not a
                // look-alike of this one's
                let names: Vec<String> = elsewhere.iter().map(|c| format!("`{c}`")).collect();
                let names = match names.split_last() {
                    Some((last, rest)) if !rest.is_empty() => {
                        format!("{} and {last}", rest.join(", "))
                    }
                    _ => names.concat(),
                };
                format!("; `{}` is an option of {names}", shown(&name))
            } else {
                did_you_mean(&suggestions(&path, Refused::Long(&name)))
            };
            format!(
                "`{path}` takes no argument `{}`{similar}{tips}; `{path} --help` lists what it takes",
                shown(&arg)
            )
        }
        ErrorKind::InvalidSubcommand => {
            let word = text(ContextKind::InvalidSubcommand).unwrap_or_default();
            format!(
                "`{}` is not a command{}; `{path} --help` lists the commands",
                shown(&word),
                did_you_mean(&suggestions(&path, Refused::Subcommand(&word)))
            )
        }
        ErrorKind::ArgumentConflict => {
            let prior = texts(ContextKind::PriorArg);
            let (a, b) = (
                flag(&arg),
                prior.first().map_or_else(String::new, |p| flag(p)),
            );
            if a == b || b.is_empty() {
                format!("`{a}` is given twice: give it once")
            } else {
                format!("`{a}` cannot be used with `{b}`: give one of them, not both")
            }
        }
        ErrorKind::MissingRequiredArgument => {
            let missing: Vec<String> = texts(ContextKind::InvalidArg)
                .iter()
                .map(|a| flag(a))
                .collect();
            format!(
                "`{path}` needs {}: its usage is `{usage}`",
                missing
                    .iter()
                    .map(|m| format!("`{m}`"))
                    .collect::<Vec<_>>()
                    .join(" and ")
            )
        }
        ErrorKind::MissingSubcommand => {
            "give a command, such as `slotgen slot KEY`: `slotgen --help` lists the commands"
                .to_owned()
        }
        ErrorKind::InvalidUtf8 => not_utf8(&path, &std::env::args_os().collect::<Vec<_>>()),
        ErrorKind::TooManyValues => {
            format!(
                "{0} takes no value `{1}`: give `{0}` alone{tips}",
                flag(&arg),
                shown(&value)
            )
        }
        kind => {
            // what clap calls the refusal, with the argument and value it names
            let what = kind
                .as_str()
                .unwrap_or("the command line is not understood");
            let at: Vec<String> = [flag(&arg), shown(&value)]
                .into_iter()
                .filter(|t| !t.is_empty())
                .map(|t| format!("`{t}`"))
                .collect();
            let at = if at.is_empty() {
                String::new()
            } else {
                format!(" ({})", at.join(", "))
            };
            format!("{what}{at}{tips}; `{path} --help` lists what it takes")
        }
    }
}
