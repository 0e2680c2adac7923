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
    /// The local functions of the script (file 0): `local function f(...)` and `local f =
    /// function(...)`, each with its body's byte range and its parameters' names.
    pub(super) locals: Vec<LocalFunction>,
    /// The names handed to `pcall`/`xpcall` as the function to run (`pcall(f)`), with the
    /// file and byte of each such use.
    pub(super) pcalled: Vec<(String, usize, usize)>,
    /// For each local function (as [`Names::locals`]), the registered functions that may
    /// run it: those that name it, or name a local function that does, and so on (filled
    /// by [`Names::reach`]).
    pub(super) reached_by: Vec<Vec<usize>>,
    /// The byte ranges (file, start, end) of every function body.
    pub(super) bodies: Vec<(usize, usize, usize)>,
}

/// A local function of the script: `local function f(...)` or `local f = function(...)`.
pub(super) struct LocalFunction {
    pub(super) name: String,
    /// Where its name is declared (file 0), a byte.
    pub(super) declared: usize,
    /// The byte range of its body.
    pub(super) body: (usize, usize),
    /// Its parameters' names, in order.
    pub(super) parameters: Vec<String>,
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
    /// The library functions that may run the code at `byte` of the script: the one whose
    /// body holds it, and every one that reaches a local function whose body holds it.
    pub(super) fn functions_at(&self, byte: usize) -> Vec<usize> {
        let within = |(a, b): (usize, usize)| a <= byte && byte < b;
        let mut out: Vec<usize> = (0..self.functions.len())
            .filter(|&i| within(self.functions[i].body))
            .collect();
        for (j, local) in self.locals.iter().enumerate() {
            if within(local.body) {
                out.extend(self.reached_by.get(j).into_iter().flatten());
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Fills [`Names::reached_by`] from `idents` (every name token of file 0 with its byte,
    /// in source order): a registered function reaches the local functions whose names
    /// appear in its body, and those that theirs name, and so on. A name is matched as
    /// written (a local of the same name elsewhere counts too: the lint judges more code,
    /// never less). One sweep puts each name in the bodies around it; then a walk of that
    /// graph from each function.
    pub(super) fn reach(&mut self, idents: &[(String, usize)]) {
        // The bodies: each registered function's, then each local function's (nested or
        // apart, as the syntax tree makes them), by start, the outer first.
        let (nf, nl) = (self.functions.len(), self.locals.len());
        let mut bodies: Vec<((usize, usize), usize)> = self
            .functions
            .iter()
            .map(|f| f.body)
            .chain(self.locals.iter().map(|l| l.body))
            .enumerate()
            .map(|(n, body)| (body, n))
            .collect();
        bodies.sort_by_key(|&((a, b), _)| (a, std::cmp::Reverse(b)));
        let mut named: Vec<Vec<&str>> = vec![Vec::new(); nf + nl];
        let mut open: Vec<((usize, usize), usize)> = Vec::new();
        let mut next = 0;
        for (name, at) in idents {
            while next < bodies.len() && bodies[next].0 .0 <= *at {
                open.push(bodies[next]);
                next += 1;
            }
            open.retain(|&((_, b), _)| *at < b);
            for &(_, n) in &open {
                named[n].push(name);
            }
        }
        let mut by_name: HashMap<&str, Vec<usize>> = HashMap::new();
        for (j, local) in self.locals.iter().enumerate() {
            by_name.entry(local.name.as_str()).or_default().push(j);
        }
        // each body's edges to the local functions it names, as indexes
        let edges: Vec<Vec<usize>> = named
            .iter()
            .map(|names| {
                let mut to: Vec<usize> = names
                    .iter()
                    .flat_map(|name| by_name.get(name).into_iter().flatten().copied())
                    .collect();
                to.sort_unstable();
                to.dedup();
                to
            })
            .collect();
        let mut reached_by: Vec<Vec<usize>> = vec![Vec::new(); nl];
        for i in 0..nf {
            let mut seen = vec![false; nl];
            let mut queue: Vec<usize> = vec![i];
            while let Some(node) = queue.pop() {
                for &j in &edges[node] {
                    if !seen[j] {
                        seen[j] = true;
                        reached_by[j].push(i);
                        queue.push(nf + j);
                    }
                }
            }
        }
        self.reached_by = reached_by;
    }

    /// Marks as caught the body of every local function of file 0 that is only ever run by
    /// `pcall(f, ...)`/`xpcall(f, h)`: its name appears nowhere but in its declaration and as
    /// the first argument of those (`idents`: every name token of file 0 with its byte).
    pub(super) fn catch_pcalled(&mut self, idents: &[(String, usize)]) {
        let mut uses: HashMap<&str, Vec<usize>> = HashMap::new();
        for (name, at) in idents {
            uses.entry(name.as_str()).or_default().push(*at);
        }
        for local in &self.locals {
            let handed: Vec<usize> = self
                .pcalled
                .iter()
                .filter(|(name, file, _)| *name == local.name && *file == 0)
                .map(|&(_, _, at)| at)
                .collect();
            if handed.is_empty() {
                continue;
            }
            let elsewhere = uses
                .get(local.name.as_str())
                .into_iter()
                .flatten()
                .any(|at| *at != local.declared && !handed.contains(at));
            if !elsewhere {
                self.caught.push((0, local.body.0, local.body.1));
            }
        }
    }

    /// The local function named `name` declared last before `byte` of file 0.
    fn local_named(&self, name: &str, byte: usize) -> Option<&LocalFunction> {
        self.locals
            .iter()
            .rev()
            .find(|l| l.name == name && l.declared < byte)
    }

    fn add_local(&mut self, name: &TokenReference, body: &ast::FunctionBody) {
        if self.file != 0 {
            return;
        }
        let (Some(declared), Some(range)) = (byte_range(name), byte_range(body)) else {
            return;
        };
        self.locals.push(LocalFunction {
            name: name_of(name),
            declared: declared.0,
            body: range,
            parameters: body
                .parameters()
                .iter()
                .filter_map(|p| match p {
                    ast::Parameter::Name(n) => Some(name_of(n)),
                    _ => None,
                })
                .collect(),
        });
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

    // A function kept in a table or declared by name (`function M.touch(k)`, `function
    // M:touch(k)`, `M.touch = function(k)`, `{ touch = function(k) ... }`): a function
    // named by its last name, which its callers write (`M.touch(...)`).
    fn visit_function_declaration(&mut self, node: &ast::FunctionDeclaration) {
        let name = node.name();
        if let Some(last) = name.method_name().or_else(|| name.names().iter().last()) {
            self.add_local(last, node.body());
        }
    }

    fn visit_assignment(&mut self, node: &ast::Assignment) {
        for (var, expr) in node.variables().iter().zip(node.expressions().iter()) {
            let Expression::Function(f) = expr else {
                continue;
            };
            match var {
                Var::Name(n) => self.add_local(n, f.body()),
                Var::Expression(v) => {
                    if let Some(Suffix::Index(Index::Dot { name, .. })) = v.suffixes().last() {
                        self.add_local(name, f.body());
                    }
                }
                _ => {}
            }
        }
    }

    fn visit_table_constructor(&mut self, node: &ast::TableConstructor) {
        for field in node.fields() {
            if let ast::Field::NameKey { key, value, .. } = field {
                if let Expression::Function(f) = &**value {
                    self.add_local(key, f.body());
                }
            }
        }
    }

    fn visit_local_function(&mut self, node: &ast::LocalFunction) {
        self.add_local(node.name(), node.body());
        if API.contains(&name_of(node.name()).as_str()) {
            let start = byte_range(node).map_or(0, |(a, _)| a);
            self.shadow(start);
        }
    }

    fn visit_function_body(&mut self, node: &ast::FunctionBody) {
        if let Some((a, b)) = byte_range(node) {
            self.bodies.push((self.file, a, b));
        }
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
        // `local redis = redis` (also `local server = redis`) is the API still, not a shadow
        let exprs: Vec<&Expression> = node.expressions().iter().collect();
        let is_api = |e: Option<&&Expression>| matches!(e, Some(Expression::Var(Var::Name(n))) if API.contains(&name_of(n).as_str()));
        if node
            .names()
            .iter()
            .enumerate()
            .any(|(i, n)| API.contains(&name_of(n).as_str()) && !is_api(exprs.get(i)))
        {
            let start = byte_range(node).map_or(0, |(a, _)| a);
            self.shadow(start);
        }
        for (token, expr) in node.names().iter().zip(node.expressions().iter()) {
            let name = name_of(token);
            match expr {
                Expression::Function(f) => self.add_local(token, f.body()),
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
                match arguments.iter().next() {
                    Some(Expression::Function(f)) => {
                        if let Some((a, b)) = byte_range(f.body()) {
                            self.caught.push((self.file, a, b));
                        }
                    }
                    // `pcall(f)`: f's body is caught where f runs only so (`catch_pcalled`)
                    Some(Expression::Var(Var::Name(n))) => {
                        if let Some((a, _)) = byte_range(n) {
                            self.pcalled.push((name_of(n), self.file, a));
                        }
                    }
                    _ => {}
                }
            }
            return;
        }
        if !matches!(&path[..], [a, b] if (a == "redis" || a == "server") && b == "register_function")
        {
            return;
        }
        let at = position(0, call);
        let call_byte = byte_range(call).map_or(0, |(a, _)| a);
        let (mut name, mut flags, mut body) = (None, Vec::new(), None);
        // The callback given by name (`redis.register_function('f', my_f)`): the local
        // function of that name, its body and parameters.
        let mut named: Option<(String, usize)> = None;
        match args {
            FunctionArgs::Parentheses { arguments, .. } => {
                let mut it = arguments.iter();
                if let Some(Expression::String(s)) = it.next() {
                    name = Some(string_value(s));
                }
                match it.next() {
                    Some(Expression::Function(f)) => body = Some(f.body()),
                    Some(Expression::Var(Var::Name(n))) => named = Some((name_of(n), call_byte)),
                    _ => {}
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
                            ("callback", Expression::Var(Var::Name(n))) => {
                                named = Some((name_of(n), call_byte));
                            }
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
        } else if let Some(local) = named.and_then(|(n, at)| self.local_named(&n, at)) {
            let mut params = local.parameters.iter();
            let (keys, argv) = (params.next().cloned(), params.next().cloned());
            range = local.body;
            self.keys.extend(keys);
            self.argv.extend(argv);
        }
        self.functions.push(Function {
            name: name.unwrap_or_default(),
            flags,
            at,
            body: range,
        });
    }
}
