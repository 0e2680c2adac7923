//! Where a node of the syntax tree is, and what a call's callee is: the small readers of
//! full_moon's tree that the passes over a script share.

use full_moon::ast::{self, Call, Expression, FunctionArgs, Index, Prefix, Suffix};
use full_moon::node::Node;
use full_moon::tokenizer::{Position as TokenPosition, TokenReference};

use super::strings::string_value;
use crate::Position;

/// The byte range of `node`: from its first token's start to its last token's end (trivia
/// left out, as full_moon's `Node::range`), `None` for a node without tokens.
pub(super) fn byte_range(node: &impl Node) -> Option<(usize, usize)> {
    token_range(node).map(|(a, b)| (a.bytes(), b.bytes()))
}

/// The positions of `node`'s first token's start and last token's end, `None` for a node
/// without tokens: what full_moon's `Node::range` gives, in time linear in the node's size.
/// Every position the lint takes from the tree goes through here, never through `Node`'s
/// `start_position`, `end_position` or `range`: full_moon 3.0.0 derives each of those as
/// the whole range of the node's first and last children, so one call computes both ends of
/// every child, 2^depth calls in all (about 8x per level of `ARGV[ARGV[...]]`: 10 s at 8
/// levels, never ending at 198).
///
/// `Node::tokens` yields a bracket pair's two tokens before what they hold (`f(x)` gives
/// `f`, `(`, `)`, `x`), so its last token is not always the last in the text: the end is the
/// furthest end of every token (the first token is the first in the text, as an opening
/// bracket comes before what it holds either way). The tokens are taken from the back:
/// full_moon's forward `Tokens::next` removes the first item of a vector each step.
pub(super) fn token_range(node: &impl Node) -> Option<(TokenPosition, TokenPosition)> {
    let mut tokens = node.tokens();
    let first = tokens.next()?;
    let mut end = first.token().end_position();
    while let Some(t) = tokens.next_back() {
        let e = t.token().end_position();
        if e.bytes() > end.bytes() {
            end = e;
        }
    }
    Some((first.token().start_position(), end))
}

/// The byte where `node`'s first token starts (trivia left out), `None` for a node without
/// tokens: [`byte_range`]'s start, without the walk over every token that its end takes.
pub(super) fn byte_start(node: &impl Node) -> Option<usize> {
    start_of(node).map(|p| p.bytes())
}

/// The byte range of a function's body, from its first token (its parameters' bracket) to
/// the end of its `end`: [`byte_range`] without the walk over every token.
pub(super) fn body_range(body: &ast::FunctionBody) -> Option<(usize, usize)> {
    Some((byte_start(body)?, byte_range(body.end_token())?.1))
}

/// The byte range of a block that the keyword `terminator` closes (`end`, `elseif`, `else`):
/// from its first token to where the keyword starts (what lies between is trivia), `None`
/// for an empty block; without the walk over every token of [`byte_range`].
pub(super) fn block_range(
    block: &ast::Block,
    terminator: &TokenReference,
) -> Option<(usize, usize)> {
    Some((byte_start(block)?, byte_start(terminator)?))
}

/// The position where `node`'s first token starts ([`byte_start`]).
fn start_of(node: &impl Node) -> Option<TokenPosition> {
    node.tokens().next().map(|t| t.token().start_position())
}

pub(super) fn name_of(token: &TokenReference) -> String {
    token.token().to_string()
}

pub(super) fn position(file: usize, node: &impl Node) -> Position {
    let p = start_of(node);
    Position {
        file,
        line: p.map_or(0, |p| p.line()),
        column: p.map_or(0, |p| p.character()),
    }
}

/// `redis.call`-like: the callee's path as words (`["redis", "call"]`), with the
/// arguments, when the call is a name followed by dotted names and one call.
pub(super) fn callee(call: &ast::FunctionCall) -> Option<(Vec<String>, &FunctionArgs)> {
    callee_of(call.prefix(), call.suffixes())
}

/// As [`callee`], over a prefix and its suffixes: `rcall('TYPE', k)['ok']` is a variable
/// whose prefix is a call; what follows the call is its result, not the callee.
pub(super) fn callee_of<'a>(
    prefix: &'a Prefix,
    suffixes: impl Iterator<Item = &'a Suffix>,
) -> Option<(Vec<String>, &'a FunctionArgs)> {
    match name_path(prefix, suffixes)? {
        (path, Some(Suffix::Call(Call::AnonymousCall(args)))) => Some((path, args)),
        _ => None,
    }
}

/// The path of a variable that is names only (`redis.call`, `redis['call']`), without a
/// call.
pub(super) fn callee_path<'a>(
    prefix: &'a Prefix,
    suffixes: impl Iterator<Item = &'a Suffix>,
) -> Option<Vec<String>> {
    match name_path(prefix, suffixes)? {
        (path, None) => Some(path),
        _ => None,
    }
}

/// The names of a variable from a name `prefix` on, through dotted names and literal
/// brackets (`redis['call']` is `redis.call`), and the first suffix that is neither (none
/// when every suffix is a name); `None` for another prefix or a bracket that is no literal.
fn name_path<'a>(
    prefix: &'a Prefix,
    suffixes: impl Iterator<Item = &'a Suffix>,
) -> Option<(Vec<String>, Option<&'a Suffix>)> {
    let Prefix::Name(first) = prefix else {
        return None;
    };
    let mut path = vec![name_of(first)];
    for s in suffixes {
        match s {
            Suffix::Index(Index::Dot { name, .. }) => path.push(name_of(name)),
            Suffix::Index(Index::Brackets { expression, .. }) => match &**expression {
                Expression::String(s) => path.push(string_value(s)),
                _ => return None,
            },
            other => return Some((path, Some(other))),
        }
    }
    Some((path, None))
}

/// Whether `path` is `redis.call` or `redis.pcall`, its first name the API as
/// [`Names::api`](super::names::Names::api) answers (an alias put as `redis`).
pub(super) fn is_call_path(path: &[String]) -> bool {
    matches!(path, [a, b] if a == "redis" && (b == "call" || b == "pcall"))
}

/// `expression` without the parentheses around it (`(("h3"))` is `"h3"`): one value either
/// way for a literal or a table.
pub(super) fn unparenthesized(expression: &Expression) -> &Expression {
    match expression {
        Expression::Parentheses { expression, .. } => unparenthesized(expression),
        other => other,
    }
}

pub(super) fn short(text: &str) -> String {
    let text = text.trim();
    let mut out: String = text.chars().take(60).collect();
    if out.len() < text.len() {
        out.push('…');
    }
    out
}

/// A Lua 5.1 number literal as the servers pass it as an argument or concatenate it
/// ([`number_written`](crate::key::number_written): `1e2` is `100`, `0x10` is `16`); `None`
/// for one the servers write differently, a [`Part::Number`](crate::key::Part::Number) that
/// is not placed.
pub(super) fn number_text(token: &str) -> Option<String> {
    crate::key::number_written(number_value(token)?)
}

/// The value of a Lua 5.1 number literal (`1e2`, `0x10`, `5.7`).
fn number_value(token: &str) -> Option<f64> {
    match token
        .strip_prefix("0x")
        .or_else(|| token.strip_prefix("0X"))
    {
        Some(hex) => u64::from_str_radix(hex, 16).ok().map(|v| v as f64),
        None => token.parse::<f64>().ok(),
    }
}

/// The value of a number literal (`5.7`, `-5.7`, `3`, `0x10`), or of a string literal
/// Lua reads as a number (`'2'`, [`lua_number`](crate::key::lua_number)), as C's cast to
/// an integer makes it, toward zero (`5`, `-5`): what Lua 5.1's `string.format` hands to
/// `%d`, `%i`, `%x` and `%X` (`(LUA_INTFRM_T)luaL_checknumber`), and `unpack` takes as its
/// bounds (`luaL_optint`: `unpack(t, 1.5)` is `unpack(t, 1)`); below 10^14 in magnitude,
/// where the literal's value is exact; `None` for anything else.
pub(super) fn truncated(expression: &Expression) -> Option<i64> {
    let exact = |v: f64| (v.abs() < 1e14).then(|| v.trunc() as i64);
    match expression {
        Expression::Number(n) => number_value(&n.token().to_string()).and_then(exact),
        Expression::String(s) => {
            crate::key::lua_number(&super::strings::string_bytes(s)).and_then(exact)
        }
        Expression::UnaryOperator {
            unop: ast::UnOp::Minus(_),
            expression,
        } => truncated(expression).map(|v| -v),
        _ => None,
    }
}

/// The value of an integer literal (`3`, `0x3`, `3.0`, `-1`), exact where [`number_text`]
/// gives its digits; `None` for anything else.
pub(super) fn integer(expression: &Expression) -> Option<i64> {
    match expression {
        Expression::Number(n) => number_text(&n.token().to_string())?.parse().ok(),
        Expression::UnaryOperator {
            unop: ast::UnOp::Minus(_),
            expression,
        } => integer(expression).map(|v| -v),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The byte range of the one expression of `return <text>`, by [`byte_range`].
    fn range_of(text: &str) -> (usize, usize) {
        let source = format!("return {text}");
        let ast = full_moon::parse(&source).expect("Lua");
        let Some(ast::LastStmt::Return(r)) = ast.nodes().last_stmt() else {
            panic!("a return");
        };
        let e = r.returns().iter().next().expect("a value");
        let (a, b) = byte_range(e).expect("tokens");
        (a - "return ".len(), b - "return ".len())
    }

    #[test]
    fn a_span_covers_its_whole_expression_closing_brackets_too() {
        // each expression is the whole text: its range is every byte of it
        for text in [
            "f(x)",
            "KEYS[1]",
            "(a .. b)",
            "{ ARGV[1] }",
            "redis.call('SET', KEYS[1], g(h(x)))",
            "t[(k)]",
            "a .. f(b)",
            "s:sub(1, (n))",
            "function(k) return k end",
        ] {
            assert_eq!(range_of(text), (0, text.len()), "{text}");
        }
        // and no more: trivia after it is left out
        assert_eq!(range_of("f(x)  -- c"), (0, 4));
    }

    #[test]
    fn a_body_ends_with_its_end_and_a_block_where_its_keyword_starts() {
        let source = "local f = function(k) return g(k) end";
        let ast = full_moon::parse(source).expect("Lua");
        let Some(ast::Stmt::LocalAssignment(l)) = ast.nodes().stmts().next() else {
            panic!("a local");
        };
        let Some(Expression::Function(f)) = l.expressions().iter().next() else {
            panic!("a function");
        };
        let body = f.body();
        assert_eq!(body_range(body), byte_range(body));
        assert_eq!(body_range(body), Some((18, source.len())));
        let (a, b) = block_range(body.block(), body.end_token()).expect("a block");
        assert_eq!(&source[a..b], "return g(k) ");
        assert_eq!(byte_start(body.block()), Some(a));
    }
}
