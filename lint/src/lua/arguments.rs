//! Literal arguments that a function of the `redis` table refuses when the script runs:
//! `redis.setresp(4)` ("RESP version must be 2 or 3"), `redis.set_repl(99)` ("Invalid
//! replication flags"), and the counts and kinds of arguments its helpers take ([`HELPERS`]:
//! `redis.log(redis.LOG_NOTICE)`, `redis.sha1hex()`, `redis.error_reply(5)`). Measured on
//! Redis 7.0, Valkey 8.0 and Valkey 9.1 alike: `setresp` takes 2 and 3 (`2.0` too, `2.5` as
//! 2), `set_repl` the flags 0 to 3 (`REPL_NONE`, `REPL_AOF`, `REPL_REPLICA`, `REPL_ALL`), a
//! negative number refused. Also Lua 5.1's `load`, which takes a function, not a string
//! (that is `loadstring`'s): `load('return 1')` is refused by all three ("bad argument #1 to
//! 'load' (function expected, got string)").

use full_moon::ast::punctuated::Punctuated;
use full_moon::ast::{self, Expression, FunctionArgs, Prefix};
use full_moon::visitors::Visitor;

use super::names::Names;
use super::strings::string_value;
use super::syntax::{byte_range, callee, integer, position};
use crate::Position;

/// A call of file 0 whose literal argument the server refuses.
pub(super) struct Refused {
    /// Where the call is.
    pub(super) at: Position,
    /// The byte of the call's first token.
    pub(super) byte: usize,
    /// Why, with the server's words.
    pub(super) reason: String,
    /// What to pass instead.
    pub(super) fix: &'static str,
    /// When the refusal is not certain whenever the call runs, why (a refused helper's
    /// value is an error only where the script returns it).
    pub(super) condition: Option<String>,
}

/// A helper of `redis` and what it takes, measured on Redis 7.0, Valkey 8.0 and 9.1 (the
/// Valkeys name the table `server` in their words whichever name the script calls).
struct Helper {
    /// Its name in `redis`.
    name: &'static str,
    /// The fewest arguments it takes.
    min: usize,
    /// The most it takes (`None`: any more).
    max: Option<usize>,
    /// What the servers say to another count (Redis 7.0's words, then Valkey's).
    count_words: (&'static str, &'static str),
    /// Whether its first argument must be a Lua string (a number refused too).
    string: bool,
    /// Whether a refusal is raised (the script stops) or returned as its value, an error
    /// reply only where the script returns it (`error_reply`, `status_reply`).
    raised: bool,
}

/// The helpers of `redis` whose arguments the servers check when the call runs. `log`'s
/// level and `acl_check_cmd`'s command are checked beside the count ([`Find::helper`]).
const HELPERS: &[Helper] = &[
    Helper {
        name: "error_reply",
        min: 1,
        max: Some(1),
        count_words: (
            "wrong number or type of arguments",
            "wrong number or type of arguments",
        ),
        string: true,
        raised: false,
    },
    Helper {
        name: "status_reply",
        min: 1,
        max: Some(1),
        count_words: (
            "wrong number or type of arguments",
            "wrong number or type of arguments",
        ),
        string: true,
        raised: false,
    },
    Helper {
        name: "sha1hex",
        min: 1,
        max: Some(1),
        count_words: ("wrong number of arguments", "wrong number of arguments"),
        string: false,
        raised: true,
    },
    Helper {
        name: "log",
        min: 2,
        max: None,
        count_words: (
            "redis.log() requires two arguments or more.",
            "server.log() requires two arguments or more.",
        ),
        string: false,
        raised: true,
    },
    Helper {
        name: "set_repl",
        min: 1,
        max: Some(1),
        // Redis 7.0's words are wrong: it takes one
        count_words: (
            "redis.set_repl() requires two arguments.",
            "server.set_repl() requires one argument.",
        ),
        string: false,
        raised: true,
    },
    Helper {
        name: "acl_check_cmd",
        min: 1,
        max: None,
        count_words: (
            "Please specify at least one argument for this redis lib call",
            "Please specify at least one argument for this call",
        ),
        string: false,
        raised: true,
    },
];

/// The calls of `ast` (file 0) of `redis.setresp` or `redis.set_repl` (Valkey's `server`
/// too), the global table not shadowed by a local, with one argument, an integer literal
/// (negative too) the server refuses. An argument that is no integer literal is not judged.
pub(super) fn refused(ast: &ast::Ast, names: &Names) -> Vec<Refused> {
    let mut find = Find {
        names,
        out: Vec::new(),
        returned: Vec::new(),
    };
    find.visit_ast(ast);
    find.out
}

struct Find<'a> {
    names: &'a Names,
    out: Vec<Refused>,
    /// The first bytes of the calls a `return` returns, as met.
    returned: Vec<usize>,
}

impl Visitor for Find<'_> {
    fn visit_function_call(&mut self, call: &ast::FunctionCall) {
        let Some((path, FunctionArgs::Parentheses { arguments, .. })) = callee(call) else {
            return;
        };
        if let [load] = &path[..] {
            if let Some(r) = load_refused(self.names, load, call, arguments) {
                self.out.push(r);
            }
            return;
        }
        let [table, function] = &path[..] else {
            return;
        };
        let (Prefix::Name(name), Some((byte, _))) = (call.prefix(), byte_range(call)) else {
            return;
        };
        if !matches!(table.as_str(), "redis" | "server")
            || self
                .names
                .resolve_in(0, table, byte_range(name).map_or(byte, |(a, _)| a))
                .is_some()
        {
            return;
        }
        if let Some(helper) = HELPERS.iter().find(|h| h.name == function) {
            if let Some((reason, fix, condition)) = self.helper(helper, table, arguments) {
                let returned = self.returned.contains(&byte);
                self.out.push(Refused {
                    at: position(0, call),
                    byte,
                    reason,
                    fix,
                    condition: condition.or_else(|| {
                        (!helper.raised && !returned).then(|| {
                            format!(
                                "the script returns the value of `{table}.{function}`, an \
                                 error (it is not returned where it is called)"
                            )
                        })
                    }),
                });
                return;
            }
        }
        if function == "setresp" {
            if let Some(reason) = setresp_refused(arguments) {
                self.out.push(Refused {
                    at: position(0, call),
                    byte,
                    reason: format!("`{table}.setresp`: {reason}"),
                    fix: "pass one argument, 2 or 3",
                    condition: None,
                });
                return;
            }
        }
        if arguments.len() != 1 {
            return;
        }
        let Some(value) = arguments.iter().next().and_then(integer) else {
            return;
        };
        let shown = format!("{table}.{function}({value})");
        let (reason, fix) = match function.as_str() {
            "setresp" if value != 2 && value != 3 => (
                format!(
                    "`{shown}`: the RESP version must be 2 or 3, and the server refuses the \
                     call (\"RESP version must be 2 or 3\")"
                ),
                "pass 2 or 3",
            ),
            "set_repl" if !(0..=3).contains(&value) => (
                format!(
                    "`{shown}`: the replication flags are 0 to 3, and the server refuses the \
                     call (\"Invalid replication flags. Use REPL_AOF, REPL_REPLICA, REPL_ALL or \
                     REPL_NONE\")"
                ),
                "pass `redis.REPL_NONE`, `redis.REPL_AOF`, `redis.REPL_REPLICA` or \
                 `redis.REPL_ALL`",
            ),
            _ => return,
        };
        self.out.push(Refused {
            at: position(0, call),
            byte,
            reason,
            fix,
            condition: None,
        });
    }

    fn visit_return(&mut self, node: &ast::Return) {
        for e in node.returns() {
            if let (Expression::FunctionCall(_), Some((byte, _))) = (e, byte_range(e)) {
                self.returned.push(byte);
            }
        }
    }
}

impl Find<'_> {
    /// Why the servers refuse `table.name(arguments)` of the helper `h` whatever the call's
    /// values, with the fix: a count it does not take (a last argument that is a call or
    /// `...` may give any number of values: only a count it cannot make right is judged), a
    /// literal of a kind it refuses, `log`'s level not a number or not 0 to 3, an
    /// `acl_check_cmd` of a command no server measured has.
    fn helper(
        &self,
        h: &Helper,
        table: &str,
        arguments: &Punctuated<Expression>,
    ) -> Option<(String, &'static str, Option<String>)> {
        let count = arguments.len();
        let open = arguments.iter().last().is_some_and(|e| match e {
            Expression::FunctionCall(_) => true,
            Expression::Symbol(s) => s.token().to_string() == "...",
            _ => false,
        });
        let takes = match h.max {
            Some(max) if h.min == max => {
                format!("{max} argument{}", if max == 1 { "" } else { "s" })
            }
            Some(max) => format!("{} to {max} arguments", h.min),
            None => format!(
                "{} argument{} or more",
                h.min,
                if h.min == 1 { "" } else { "s" }
            ),
        };
        let shown = format!("{table}.{}", h.name);
        let words = |(redis, valkey): (&str, &str)| {
            if redis == valkey {
                format!("(\"{redis}\")")
            } else {
                format!("(\"{redis}\" on Redis 7.0, \"{valkey}\" on Valkey)")
            }
        };
        let fewest = count - usize::from(open);
        if (!open && count < h.min) || h.max.is_some_and(|max| fewest > max) {
            return Some((
                format!(
                    "`{shown}` takes {takes}, this call gives {count}{}: the server refuses it \
                     {}",
                    if open { " or more" } else { "" },
                    words(h.count_words)
                ),
                "pass the arguments it takes",
                None,
            ));
        }
        let first = arguments.iter().next()?;
        let literal = |e: &Expression| match e {
            Expression::String(_) => Some("a string"),
            Expression::Number(_) => Some("a number"),
            Expression::Symbol(s) => match s.token().to_string().as_str() {
                "nil" => Some("nil"),
                "true" | "false" => Some("a boolean"),
                _ => None,
            },
            Expression::TableConstructor(_) => Some("a table"),
            _ => None,
        };
        let what = literal(first);
        if h.string && what.is_some_and(|w| w != "a string") {
            return Some((
                format!(
                    "`{shown}` takes a string, this call gives {}: the server refuses it {}",
                    what.unwrap_or_default(),
                    words(h.count_words)
                ),
                "pass the text as a string",
                None,
            ));
        }
        match h.name {
            "log" => {
                // a number as `lua_tonumber` reads it (a numeric string too), cut toward
                // zero to the level; a fraction or a string with digits not judged
                let level = match first {
                    Expression::String(s)
                        if !string_value(s).bytes().any(|b| b.is_ascii_digit()) =>
                    {
                        None
                    }
                    Expression::String(_) => return None,
                    Expression::Number(_) | Expression::UnaryOperator { .. } => {
                        Some(integer(first)?)
                    }
                    _ if what.is_some() => None,
                    _ => return None,
                };
                let fix = "pass `redis.LOG_DEBUG`, `redis.LOG_VERBOSE`, `redis.LOG_NOTICE` or \
                           `redis.LOG_WARNING` first";
                match level {
                    None => Some((
                        format!(
                            "`{shown}`'s first argument, the level, is {}, no number: the \
                             server refuses it (\"First argument must be a number (log \
                             level).\")",
                            what.unwrap_or("a string")
                        ),
                        fix,
                        None,
                    )),
                    Some(l) if !(0..=3).contains(&l) => Some((
                        format!(
                            "`{shown}`'s level `{l}` is not 0 to 3: the server refuses it {}",
                            words(("Invalid debug level.", "Invalid log level."))
                        ),
                        fix,
                        None,
                    )),
                    Some(_) => None,
                }
            }
            "acl_check_cmd" => {
                let name = match first {
                    Expression::String(s) => string_value(s),
                    Expression::Number(n) => n.token().to_string(),
                    _ => return None,
                };
                let name = name.to_ascii_lowercase();
                let known = crate::commands::find(&name, u8::MAX).is_some()
                    || name
                        .split_once('|')
                        .is_some_and(|(c, _)| crate::commands::find(c, u8::MAX).is_some());
                (!known).then(|| {
                    (
                        format!(
                            "`{shown}` is given `{}`, a command no server measured has: the \
                             server refuses it {}",
                            slotgen::text::escape(first.to_string().trim().as_bytes()),
                            words((
                                "Invalid command passed to redis.acl_check_cmd()",
                                "Invalid command passed to server.acl_check_cmd()"
                            ))
                        ),
                        "pass the name of a command the server has",
                        Some(format!(
                            "a module loaded on the server gives it a command `{}`",
                            slotgen::text::escape(name.as_bytes())
                        )),
                    )
                })
            }
            _ => None,
        }
    }
}

/// The call `call` of the global `load` (no local of that name) whose first argument
/// `arguments` has is a string or number literal: Lua 5.1's `load` takes a function that
/// gives the chunk's pieces, and refuses another value (measured on Redis 7.0, Valkey 8.0
/// and 9.1: "bad argument #1 to 'load' (function expected, got string)"). A value that is
/// no literal is not judged.
fn load_refused(
    names: &Names,
    name: &str,
    call: &ast::FunctionCall,
    arguments: &Punctuated<Expression>,
) -> Option<Refused> {
    let (byte, _) = byte_range(call)?;
    if name != "load" || names.resolve_in(0, name, byte).is_some() {
        return None;
    }
    let got = match arguments.iter().next()? {
        Expression::String(_) => "string",
        Expression::Number(_) => "number",
        _ => return None,
    };
    Some(Refused {
        at: position(0, call),
        byte,
        reason: format!(
            "`load` of a {got}: Lua 5.1's `load` takes a function that gives the chunk, and \
             the server refuses the call (\"bad argument #1 to 'load' (function expected, \
             got {got})\")"
        ),
        fix: "compile a string with `loadstring(s)` (better: write the code in the script)",
        condition: None,
    })
}

/// Why the server refuses `setresp` called with `arguments` whatever the call's values:
/// not one argument ("requires one argument"; a last argument that is a call or `...` may
/// give any number of values, so only a count it cannot make one is judged), or one that
/// Lua's `lua_tonumber` reads as 0 (`nil`, `true`, `false`, a string without a digit:
/// "RESP version must be 2 or 3"). Measured on Redis 7.0, Valkey 8.0 and 9.1 alike.
fn setresp_refused(arguments: &Punctuated<Expression>) -> Option<String> {
    let many = |e: &Expression| match e {
        Expression::FunctionCall(_) => true,
        Expression::Symbol(s) => s.token().to_string() == "...",
        _ => false,
    };
    let count = arguments.len();
    let last_many = arguments.iter().last().is_some_and(many);
    if count == 0 || count > 2 || (count == 2 && !last_many) {
        return Some(format!(
            "{count} argument{} given, and the server refuses the call (\"setresp() requires \
             one argument\")",
            if count == 1 { "" } else { "s" }
        ));
    }
    let [one] = &arguments.iter().collect::<Vec<_>>()[..] else {
        return None;
    };
    let zero = match one {
        Expression::String(s) => !string_value(s).bytes().any(|b| b.is_ascii_digit()),
        Expression::Symbol(s) => matches!(s.token().to_string().as_str(), "nil" | "true" | "false"),
        _ => false,
    };
    zero.then(|| {
        format!(
            "`{}` is no number (Lua reads it as 0): the RESP version must be 2 or 3, and the \
             server refuses the call (\"RESP version must be 2 or 3\")",
            slotgen::text::escape(one.to_string().trim().as_bytes())
        )
    })
}
