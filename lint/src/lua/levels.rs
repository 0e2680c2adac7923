//! The syntax levels of Lua 5.1's parser (`lparser.c`): it counts its nested calls of
//! `chunk` (the script, each block and function body) and `subexpr` (each expression, each
//! operand after a unary operator, and each right operand of a binary operator that binds
//! tighter than the one before it: every operand of a `..` or `^` chain, which associate to
//! the right), in the Lua state's `nCcalls`, and refuses the script past `LUAI_MAXCCALLS`
//! ("chunk has too many syntax levels", at the line of the token it was reading). The
//! servers load a script from C, so the count starts at 0 ([`crate::globals::Server`] owns
//! each server's limit).

use full_moon::ast::{
    self, BinOp, Call, Expression, Field, FunctionArgs, FunctionBody, Index, LastStmt, Prefix,
    Stmt, Suffix, TableConstructor, Var,
};

use super::syntax::position;
use crate::Position;

/// Where the parser's count first reaches 1, 2, ... in `ast` (the file `file`): entry `n`
/// is the place of the token it was reading when the count first became `n + 1`; as many
/// entries as the deepest count.
pub(super) fn levels(ast: &ast::Ast, file: usize) -> Vec<Position> {
    let mut walk = Levels {
        file,
        first: Vec::new(),
    };
    let end = position(file, ast.eof());
    walk.chunk(ast.nodes(), 0, end);
    walk.first
}

/// The binding powers of a binary operator in Lua 5.1 (`priority` in `lparser.c`): left,
/// right.
fn priority(op: &BinOp) -> (u8, u8) {
    match op {
        BinOp::Caret(_) => (10, 9),
        BinOp::Star(_) | BinOp::Slash(_) | BinOp::Percent(_) => (7, 7),
        BinOp::Plus(_) | BinOp::Minus(_) => (6, 6),
        BinOp::TwoDots(_) => (5, 4),
        BinOp::And(_) => (2, 2),
        BinOp::Or(_) => (1, 1),
        // `==`, `~=`, `<`, `<=`, `>`, `>=` (Lua 5.1 has no other)
        _ => (3, 3),
    }
}

/// The binding power of a unary operator's operand in Lua 5.1 (`UNARY_PRIORITY`).
const UNARY: u8 = 8;

/// An expression as the parser reads it: unary operators, operands, binary operators, in
/// source order.
enum Item<'a> {
    Unary(Position),
    Operand(&'a Expression, Position),
    Binary(u8, u8),
}

struct Levels {
    file: usize,
    first: Vec<Position>,
}

impl Levels {
    /// The count is `level` at `at`.
    fn reach(&mut self, level: usize, at: Position) {
        while self.first.len() < level {
            self.first.push(at);
        }
    }

    /// `chunk` at `level`: one level more for its statements; `end` is the token after an
    /// empty block.
    fn chunk(&mut self, block: &ast::Block, level: usize, end: Position) {
        let level = level + 1;
        let start = block
            .stmts()
            .next()
            .map(|s| position(self.file, s))
            .or_else(|| block.last_stmt().map(|s| position(self.file, s)))
            .unwrap_or(end);
        self.reach(level, start);
        for stmt in block.stmts() {
            self.stmt(stmt, level);
        }
        if let Some(LastStmt::Return(r)) = block.last_stmt() {
            for e in r.returns() {
                self.expr(e, level);
            }
        }
    }

    fn body(&mut self, body: &FunctionBody, level: usize) {
        let end = position(self.file, body.end_token());
        self.chunk(body.block(), level, end);
    }

    fn stmt(&mut self, stmt: &Stmt, level: usize) {
        let file = self.file;
        match stmt {
            Stmt::Assignment(a) => {
                for v in a.variables() {
                    self.var(v, level);
                }
                for e in a.expressions() {
                    self.expr(e, level);
                }
            }
            Stmt::Do(d) => self.chunk(d.block(), level, position(file, d.end_token())),
            Stmt::FunctionCall(call) => self.call(call.prefix(), call.suffixes(), level),
            Stmt::FunctionDeclaration(f) => self.body(f.body(), level),
            Stmt::GenericFor(f) => {
                for e in f.expressions() {
                    self.expr(e, level);
                }
                self.chunk(f.block(), level, position(file, f.end_token()));
            }
            Stmt::If(i) => {
                // the token after each block: the next `elseif`, `else` or `end`
                let end = position(file, i.end_token());
                let else_at = i.else_token().map_or(end, |t| position(file, t));
                let elseifs: Vec<&ast::ElseIf> = i.else_if().into_iter().flatten().collect();
                let after = |n: usize| {
                    elseifs
                        .get(n)
                        .map_or(else_at, |e| position(file, e.else_if_token()))
                };
                self.expr(i.condition(), level);
                self.chunk(i.block(), level, after(0));
                for (n, e) in elseifs.iter().enumerate() {
                    self.expr(e.condition(), level);
                    self.chunk(e.block(), level, after(n + 1));
                }
                if let Some(block) = i.else_block() {
                    self.chunk(block, level, end);
                }
            }
            Stmt::LocalAssignment(a) => {
                for e in a.expressions() {
                    self.expr(e, level);
                }
            }
            Stmt::LocalFunction(f) => self.body(f.body(), level),
            Stmt::NumericFor(f) => {
                self.expr(f.start(), level);
                self.expr(f.end(), level);
                if let Some(step) = f.step() {
                    self.expr(step, level);
                }
                self.chunk(f.block(), level, position(file, f.end_token()));
            }
            Stmt::Repeat(r) => {
                self.chunk(r.block(), level, position(file, r.until_token()));
                self.expr(r.until(), level);
            }
            Stmt::While(w) => {
                self.expr(w.condition(), level);
                self.chunk(w.block(), level, position(file, w.end_token()));
            }
            _ => {}
        }
    }

    /// A variable or a call (`primaryexp` and its suffixes) read at `level`: each
    /// expression inside it is one level more.
    fn call<'a>(
        &mut self,
        prefix: &Prefix,
        suffixes: impl Iterator<Item = &'a Suffix>,
        level: usize,
    ) {
        if let Prefix::Expression(e) = prefix {
            match &**e {
                Expression::Parentheses { expression, .. } => self.expr(expression, level),
                e => self.expr(e, level),
            }
        }
        for suffix in suffixes {
            match suffix {
                Suffix::Index(Index::Brackets { expression, .. }) => self.expr(expression, level),
                Suffix::Call(Call::AnonymousCall(args)) => self.args(args, level),
                Suffix::Call(Call::MethodCall(m)) => self.args(m.args(), level),
                _ => {}
            }
        }
    }

    fn var(&mut self, var: &Var, level: usize) {
        if let Var::Expression(v) = var {
            self.call(v.prefix(), v.suffixes(), level);
        }
    }

    fn args(&mut self, args: &FunctionArgs, level: usize) {
        match args {
            FunctionArgs::Parentheses { arguments, .. } => {
                for e in arguments {
                    self.expr(e, level);
                }
            }
            FunctionArgs::TableConstructor(t) => self.table(t, level),
            _ => {}
        }
    }

    fn table(&mut self, table: &TableConstructor, level: usize) {
        for field in table.fields() {
            match field {
                Field::ExpressionKey { key, value, .. } => {
                    self.expr(key, level);
                    self.expr(value, level);
                }
                Field::NameKey { value, .. } => self.expr(value, level),
                Field::NoKey(e) => self.expr(e, level),
                _ => {}
            }
        }
    }

    /// `expr` read at `level`: `subexpr` as Lua 5.1 runs it over the expression's unary
    /// operators, operands and binary operators, one level a call.
    fn expr(&mut self, e: &Expression, level: usize) {
        let mut items = Vec::new();
        self.flatten(e, &mut items);
        let at = |items: &[Item<'_>], i: usize| match items.get(i) {
            Some(Item::Unary(at) | Item::Operand(_, at)) => Some(*at),
            _ => None,
        };
        // the limits of the open `subexpr` calls
        let mut open: Vec<u8> = vec![0];
        let Some(start) = at(&items, 0) else { return };
        self.reach(level + 1, start);
        let mut i = 0;
        loop {
            while let Some(Item::Unary(_)) = items.get(i) {
                i += 1;
                open.push(UNARY);
                if let Some(next) = at(&items, i) {
                    self.reach(level + open.len(), next);
                }
            }
            let Some(Item::Operand(operand, _)) = items.get(i) else {
                return;
            };
            self.operand(operand, level + open.len());
            i += 1;
            loop {
                match (items.get(i), open.last()) {
                    (Some(&Item::Binary(left, right)), Some(&limit)) if left > limit => {
                        i += 1;
                        open.push(right);
                        if let Some(next) = at(&items, i) {
                            self.reach(level + open.len(), next);
                        }
                        break;
                    }
                    _ => {
                        open.pop();
                        if open.is_empty() {
                            return;
                        }
                    }
                }
            }
        }
    }

    /// `e`'s operators and operands in source order (the tree's in-order walk).
    fn flatten<'a>(&self, e: &'a Expression, items: &mut Vec<Item<'a>>) {
        match e {
            Expression::BinaryOperator { lhs, binop, rhs } => {
                self.flatten(lhs, items);
                let (left, right) = priority(binop);
                items.push(Item::Binary(left, right));
                self.flatten(rhs, items);
            }
            Expression::UnaryOperator { unop, expression } => {
                items.push(Item::Unary(position(self.file, unop)));
                self.flatten(expression, items);
            }
            e => items.push(Item::Operand(e, position(self.file, e))),
        }
    }

    /// The operand `e` (`simpleexp`) read at `level`.
    fn operand(&mut self, e: &Expression, level: usize) {
        match e {
            Expression::Parentheses { expression, .. } => self.expr(expression, level),
            Expression::Function(f) => self.body(f.body(), level),
            Expression::FunctionCall(call) => self.call(call.prefix(), call.suffixes(), level),
            Expression::TableConstructor(t) => self.table(t, level),
            Expression::Var(v) => self.var(v, level),
            _ => {}
        }
    }
}
