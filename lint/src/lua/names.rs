//! Pass one of a script: the names that stand for the server's API, `KEYS` and `ARGV`, the
//! registered functions, and the places where `redis` is shadowed, code never runs, or an
//! error is caught.

use super::*;

/// Pass one: aliases of `redis.call`, of `KEYS` and `ARGV`, registered functions, and the
/// byte ranges (file, start, end) where `redis` is a local (shadowed), where code never
/// runs (`if false then`), and where an error is caught (`pcall(function() ... end)`).
#[derive(Default)]
pub(super) struct Names {
    pub(super) calls: Vec<String>,
    /// The aliases of `redis.pcall` (also in `calls`).
    pub(super) pcalls: Vec<String>,
    pub(super) keys: Vec<String>,
    pub(super) argv: Vec<String>,
    pub(super) functions: Vec<Function>,
    /// The file being visited.
    pub(super) file: usize,
    /// The byte ranges of the blocks around the node visited.
    pub(super) blocks: Vec<(usize, usize)>,
    pub(super) shadowed: Vec<(usize, usize, usize)>,
    pub(super) dead: Vec<(usize, usize, usize)>,
    pub(super) caught: Vec<(usize, usize, usize)>,
}

/// The names of the server's API table.
pub(super) const API: [&str; 2] = ["redis", "server"];

pub(super) fn byte_range(node: &impl Node) -> Option<(usize, usize)> {
    node.range().map(|(a, b)| (a.bytes(), b.bytes()))
}

pub(super) fn within(ranges: &[(usize, usize, usize)], file: usize, byte: usize) -> bool {
    ranges
        .iter()
        .any(|&(f, a, b)| f == file && a <= byte && byte < b)
}

/// Whether `expr` is the literal `false` or `nil` (code under it never runs).
pub(super) fn never(expr: &Expression) -> bool {
    matches!(expr, Expression::Symbol(s) if matches!(s.token().to_string().as_str(), "false" | "nil"))
}

impl Names {
    /// The library function whose body holds `byte` of the script.
    pub(super) fn function_at(&self, byte: usize) -> Option<usize> {
        self.functions
            .iter()
            .position(|f| f.body.0 <= byte && byte < f.body.1)
    }

    /// `redis` shadowed by a local from `start` to the end of the enclosing block.
    pub(super) fn shadow(&mut self, start: usize) {
        let end = self.blocks.last().map_or(usize::MAX, |&(_, e)| e);
        self.shadowed.push((self.file, start, end.max(start)));
    }
}

impl Visitor for Names {
    fn visit_block(&mut self, node: &ast::Block) {
        let range = byte_range(node).unwrap_or((0, 0));
        self.blocks.push(range);
    }

    fn visit_block_end(&mut self, _node: &ast::Block) {
        self.blocks.pop();
    }

    fn visit_local_function(&mut self, node: &ast::LocalFunction) {
        if API.contains(&name_of(node.name()).as_str()) {
            let start = byte_range(node).map_or(0, |(a, _)| a);
            self.shadow(start);
        }
    }

    fn visit_function_body(&mut self, node: &ast::FunctionBody) {
        let shadows = node
            .parameters()
            .iter()
            .any(|p| matches!(p, ast::Parameter::Name(n) if API.contains(&name_of(n).as_str())));
        if let (true, Some((a, b))) = (shadows, byte_range(node)) {
            self.shadowed.push((self.file, a, b));
        }
    }

    fn visit_if(&mut self, node: &ast::If) {
        if let (true, Some((a, b))) = (never(node.condition()), byte_range(node.block())) {
            self.dead.push((self.file, a, b));
        }
    }

    fn visit_while(&mut self, node: &ast::While) {
        if let (true, Some((a, b))) = (never(node.condition()), byte_range(node.block())) {
            self.dead.push((self.file, a, b));
        }
    }

    fn visit_local_assignment(&mut self, node: &ast::LocalAssignment) {
        if node
            .names()
            .iter()
            .any(|n| API.contains(&name_of(n).as_str()))
        {
            let start = byte_range(node).map_or(0, |(a, _)| a);
            self.shadow(start);
        }
        for (name, expr) in node.names().iter().zip(node.expressions().iter()) {
            let name = name_of(name);
            match expr {
                Expression::Var(Var::Expression(v)) => {
                    if let Some(path) = callee_path(v.prefix(), v.suffixes()) {
                        if is_call_path(&path) {
                            if path[1] == "pcall" {
                                self.pcalls.push(name.clone());
                            }
                            self.calls.push(name);
                        }
                    }
                }
                Expression::Var(Var::Name(n)) if name_of(n) == "KEYS" => self.keys.push(name),
                Expression::Var(Var::Name(n)) if name_of(n) == "ARGV" => self.argv.push(name),
                _ => {}
            }
        }
    }

    fn visit_function_call(&mut self, call: &ast::FunctionCall) {
        let Some((path, args)) = callee(call) else {
            return;
        };
        // `pcall(function() ... end)`, `xpcall(function() ... end, handler)`: the errors of
        // the calls in the function are caught.
        if path == ["pcall"] || path == ["xpcall"] {
            if let FunctionArgs::Parentheses { arguments, .. } = args {
                if let Some(Expression::Function(f)) = arguments.iter().next() {
                    if let Some((a, b)) = byte_range(f.body()) {
                        self.caught.push((self.file, a, b));
                    }
                }
            }
            return;
        }
        if !matches!(&path[..], [a, b] if (a == "redis" || a == "server") && b == "register_function")
        {
            return;
        }
        let at = position(0, call);
        let (mut name, mut flags, mut body) = (None, Vec::new(), None);
        match args {
            FunctionArgs::Parentheses { arguments, .. } => {
                let mut it = arguments.iter();
                if let Some(Expression::String(s)) = it.next() {
                    name = Some(string_value(s));
                }
                if let Some(Expression::Function(f)) = it.next() {
                    body = Some(f.body());
                }
            }
            FunctionArgs::TableConstructor(table) => {
                for field in table.fields() {
                    if let ast::Field::NameKey { key, value, .. } = field {
                        match (name_of(key).as_str(), &**value) {
                            ("function_name", Expression::String(s)) => {
                                name = Some(string_value(s));
                            }
                            ("callback", Expression::Function(f)) => body = Some(f.body()),
                            ("flags", Expression::TableConstructor(t)) => {
                                for f in t.fields() {
                                    if let ast::Field::NoKey(Expression::String(s)) = f {
                                        flags.push(string_value(s));
                                    }
                                }
                            }
                            _ => {}
                        }
                    }
                }
            }
            FunctionArgs::String(_) => {}
            _ => {}
        }
        let mut range = (0, 0);
        if let Some(body) = body {
            let mut params = body.parameters().iter();
            if let Some(ast::Parameter::Name(k)) = params.next() {
                self.keys.push(name_of(k));
            }
            if let Some(ast::Parameter::Name(a)) = params.next() {
                self.argv.push(name_of(a));
            }
            if let Some((start, end)) = body.range() {
                range = (start.bytes(), end.bytes());
            }
        }
        self.functions.push(Function {
            name: name.unwrap_or_default(),
            flags,
            at,
            body: range,
        });
    }
}
