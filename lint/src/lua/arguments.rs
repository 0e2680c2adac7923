//! Literal arguments that a function of the `redis` table refuses when the script runs:
//! `redis.setresp(4)` ("RESP version must be 2 or 3"), `redis.set_repl(99)` ("Invalid
//! replication flags"). Measured on Redis 7.0, Valkey 8.0 and Valkey 9.1 alike: `setresp`
//! takes 2 and 3 (`2.0` too, `2.5` as 2), `set_repl` the flags 0 to 3 (`REPL_NONE`,
//! `REPL_AOF`, `REPL_REPLICA`, `REPL_ALL`), a negative number refused. Also Lua 5.1's
//! `load`, which takes a function, not a string (that is `loadstring`'s): `load('return
//! 1')` is refused by all three ("bad argument #1 to 'load' (function expected, got
//! string)").

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
}

/// The calls of `ast` (file 0) of `redis.setresp` or `redis.set_repl` (Valkey's `server`
/// too), the global table not shadowed by a local, with one argument, an integer literal
/// (negative too) the server refuses. An argument that is no integer literal is not judged.
pub(super) fn refused(ast: &ast::Ast, names: &Names) -> Vec<Refused> {
    let mut find = Find {
        names,
        out: Vec::new(),
    };
    find.visit_ast(ast);
    find.out
}

struct Find<'a> {
    names: &'a Names,
    out: Vec<Refused>,
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
        if function == "setresp" {
            if let Some(reason) = setresp_refused(arguments) {
                self.out.push(Refused {
                    at: position(0, call),
                    byte,
                    reason: format!("`{table}.setresp`: {reason}"),
                    fix: "pass one argument, 2 or 3",
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
        });
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
