//! Where a script may change the call's own tables: `KEYS` and `ARGV` of an EVAL script, a
//! library function's `keys` and `args` (its first two parameters), and every local the
//! lint reads as one of them (`local ks = KEYS`). A `KEYS[i]` read is the caller's key only
//! where the script cannot have changed it: the one owner of that decision is
//! [`Changes::of`], which the reading of keys asks ([`super::Flow`]).
//!
//! What changes a table, anywhere in the script and its includes (the order is not
//! followed, so a read before the change counts too):
//!
//! - an assignment into it (`KEYS[1] = ARGV[1]`, `ks[2] = 'x'` after `local ks = KEYS`):
//!   the element at a literal index `i > 0`, every element at another index;
//! - an assignment to the name (`keys = {...}`), or a local, a parameter, a loop variable
//!   or a `local function` of the name (`local KEYS = {...}`): the name stands for another
//!   table where the lint cannot tell;
//! - the table used as a value anywhere but `t[i]`, `#t`, `local alias = t` (an alias the
//!   lint follows), `for ... in ipairs(t)` (or `pairs`), an argument of a function that
//!   only reads it and gives back no table ([`READERS`], and a name bound to `unpack`), or an argument of a helper of the
//!   script whose every use is a direct call (`check_keys(keys)`): the helper's parameter
//!   then stands for the table, by its binding, and what the helper does with it is found
//!   as a change of the table (at most [`HANDED_DEPTH`] helpers deep): `table.insert(KEYS, x)`,
//!   `table.remove`, `table.sort`, `rawset`, `setmetatable`, a function of the script,
//!   another name or table holding it (`local _, t = pairs(KEYS)` too).
//!
//! A read of a changed element is followed to the value assigned where that is certain:
//! the element is changed by one assignment only, `t[i] = value` (one name, one value, `i`
//! a literal), or the table by one `local t = { a, b }` or `t = { a, b }` of positional
//! fields read through that name bound the same way, in the script's own file, that runs whenever the script (or the library
//! function holding it) does, and the read comes after it in the same script (or function
//! body); nothing else changes the table's other elements as a whole. Every other read of a
//! changed table is not known.
//!
//! A local table of the script's own file declared with positional fields (`local t = {}`,
//! `local t = { KEYS[1] }`) where the declaration runs whenever the script (or function)
//! does is read by the same rules, by its binding ([`Which::Local`]): its changes are found
//! as the call's tables' are, and a read of `t[i]` is the value of the one change that
//! touches the element, or of the declaration's field `i` when none does; else not known.

use std::collections::{HashMap, HashSet};

use full_moon::ast::{self, Expression, Index, Prefix, Suffix, UnOp, Var};
use full_moon::node::Node;
use full_moon::tokenizer::TokenReference;
use full_moon::visitors::Visitor;

use super::names::Names;
use super::syntax::{byte_start, callee, name_of, number_text, position, short};
use crate::Position;

/// The functions that only read a table given as an argument, and give back none: what
/// they return is a string, a number or an element (`ipairs` and `pairs` give back the
/// table, and are readers in a `for` only).
const READERS: [&[&str]; 11] = [
    &["next"],
    &["table", "getn"],
    &["table", "maxn"],
    &["unpack"],
    &["table", "unpack"],
    &["table", "concat"],
    &["type"],
    &["tostring"],
    &["rawget"],
    &["rawequal"],
    &["rawlen"],
];

/// One change of a table: where, the element it changes (`None`: any), what the script
/// does, and the statement as written.
#[derive(Debug, Clone)]
struct Change {
    at: Position,
    element: Option<usize>,
    /// The body of the library function it is made in (the innermost registered function
    /// whose body holds it, file 0): FCALL gives each call of a function its own `keys` and
    /// `args`, so a change there reaches that body's reads only (its nested helpers' too).
    /// `None` elsewhere: an EVAL script's, an include's, or code outside every registered
    /// function (a helper any function may run) reaches every read.
    unit: Option<(usize, usize)>,
    /// For a change of a name (declared anew, assigned): the name and the binding it means
    /// there (`None`: a global). A read through another binding (an alias made before, a
    /// parameter of that name in another function, the global outside a local's block)
    /// reads another table, which this change does not touch.
    name: Option<(String, Option<usize>)>,
    /// The value a read after it is, when that is certain (see the module's docs).
    follow: Option<Follow>,
    /// What the script does, with the name as written (`assigns into \`KEYS\``).
    how: String,
    text: String,
}

/// An assignment that runs whenever its script or function does, of an element (`t[i] =
/// value`) or of a whole table whose elements are certain (`local KEYS = { ARGV[1] }`,
/// `keys = { args[1] }` in a function).
#[derive(Debug, Clone)]
struct Follow {
    /// The values assigned by index, each with its text (its first line, cut): `t[i] =
    /// value`'s one, a table constructor's positional fields (the last left out when it is a
    /// call or `...`, which may give any number of values).
    values: Vec<(usize, Expression, String)>,
    /// The byte where the assignment ends (file 0): a read from there on sees the value.
    end: usize,
    /// The body of the library function it runs in (`None` in an EVAL script): a read
    /// elsewhere is of another call's table.
    unit: Option<(usize, usize)>,
}

/// A read of the call's table, as [`Changes::of`] answers it.
pub(super) enum Read<'a> {
    /// The caller's value.
    Caller,
    /// Not known: why.
    Changed(String),
    /// The value the script assigned; what the read is then (`= ARGV[1] since line 4`,
    /// after the read's text), and why it is not the caller's (as [`Read::Changed`]).
    Followed(&'a Expression, String, String),
}

/// The changes of one table (KEYS or ARGV, by every name that stands for it).
#[derive(Debug, Clone, Default)]
struct Table {
    /// In source order (file by file).
    changes: Vec<Change>,
    /// The indexes in `changes` of those that may touch any element, and of those that
    /// touch one element, by element.
    whole: Vec<usize>,
    elements: HashMap<usize, Vec<usize>>,
}

impl Table {
    fn push(&mut self, change: Change) {
        let n = self.changes.len();
        match change.element {
            Some(i) => self.elements.entry(i).or_default().push(n),
            None => self.whole.push(n),
        }
        self.changes.push(change);
    }

    /// The first change that may touch the element `index` (`None`: an index the lint
    /// cannot read, a loop over the table, `unpack`) read at `byte` of `file` through the
    /// name and binding `read` (`None`: not known), and whether it is the only one.
    fn touching(
        &self,
        index: Option<usize>,
        read: Option<(&str, Option<usize>)>,
        file: usize,
        byte: usize,
    ) -> (Option<&Change>, bool) {
        let reaches = |&&n: &&usize| {
            let change = &self.changes[n];
            change
                .unit
                .is_none_or(|(a, b)| file == 0 && a <= byte && byte < b)
                && change.name.as_ref().is_none_or(|(name, bound)| {
                    read.is_none_or(|(read, at)| read == name && at == *bound)
                })
        };
        // each list in source order: its first two that reach the read are enough
        let firsts = |list: &[usize]| -> Vec<usize> {
            list.iter().filter(reaches).take(2).copied().collect()
        };
        let all: Vec<usize>;
        let lists: Vec<&[usize]> = match index {
            None => {
                all = (0..self.changes.len()).collect();
                vec![&all]
            }
            Some(i) => vec![
                &self.whole,
                self.elements.get(&i).map_or(&[][..], Vec::as_slice),
            ],
        };
        let mut found: Vec<usize> = lists.into_iter().flat_map(firsts).collect();
        found.sort_unstable();
        (found.first().map(|&n| &self.changes[n]), found.len() == 1)
    }
}

/// A local table followed (see the module's docs): its declaration, whose values hold
/// where no change touches an element, and its changes.
#[derive(Debug, Clone)]
struct Local {
    declared: Change,
    table: Table,
}

/// The changes the script makes to `KEYS`, to `ARGV` and to the local tables it follows.
#[derive(Debug, Clone, Default)]
pub(super) struct Changes {
    keys: Table,
    argv: Table,
    /// By binding (index of [`Names::bindings`], file 0).
    locals: HashMap<usize, Local>,
}

/// Which table: one of the call's, or a local table of the script (its binding).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Which {
    Keys,
    Argv,
    Local(usize),
}

impl Changes {
    /// The changes of every file of a script (`asts`, the script first), once pass one has
    /// settled the names that stand for KEYS and ARGV.
    /// `runs_always` tells whether the code at a byte of the script runs whenever the script
    /// (or the library function holding it) does.
    pub(super) fn find(
        asts: &[ast::Ast],
        sources: &[&str],
        names: &Names,
        runs_always: &dyn Fn(usize) -> bool,
    ) -> Self {
        let mut finder = Finder {
            names,
            runs_always,
            handed: HashMap::new(),
            grew: false,
            keys: std::iter::once("KEYS")
                .chain(names.keys.iter().map(String::as_str))
                .collect(),
            argv: std::iter::once("ARGV")
                .chain(names.argv.iter().map(String::as_str))
                .collect(),
            file: 0,
            allowed: HashSet::new(),
            source: "",
            lines: Vec::new(),
            changes: Self::default(),
        };
        // each pass finds the helpers' parameters handed a table by the calls it visits
        // (a helper's call of another, one level deeper each pass); the last pass, with
        // nothing new, finds the changes
        for pass in 0..=HANDED_DEPTH {
            finder.grew = false;
            finder.changes = Self::default();
            for (n, (ast, source)) in asts.iter().zip(sources).enumerate() {
                finder.file = n;
                finder.source = source;
                finder.lines = std::iter::once(0)
                    .chain(source.match_indices('\n').map(|(at, _)| at + 1))
                    .collect();
                finder.allowed.clear();
                finder.visit_ast(ast);
            }
            if !finder.grew || pass == HANDED_DEPTH {
                break;
            }
        }
        finder.changes
    }

    /// What `table[index]` read at `byte` of the file `file` is, `read` the table's name as
    /// read and the binding it means there (`None` in it: a global; `None`: not known, a
    /// loop over the table or `unpack`, which every change reaches): the caller's value
    /// where the script cannot have changed it; the value assigned where that is certain;
    /// else not known, and why (the change and its line). `index` `None` for an index the
    /// lint cannot read, a loop over the table and `unpack`. A local table's element is
    /// never the caller's: the value followed, else not known (why empty where the table
    /// is not one the lint follows).
    pub(super) fn of(
        &self,
        which: Which,
        read: Option<(&str, Option<usize>)>,
        index: Option<usize>,
        file: usize,
        byte: usize,
    ) -> Read<'_> {
        let (table, declared) = match which {
            Which::Keys => (&self.keys, None),
            Which::Argv => (&self.argv, None),
            Which::Local(b) => match self.locals.get(&b) {
                Some(local) if file == 0 && index.is_some() => {
                    (&local.table, Some(&local.declared))
                }
                _ => return Read::Changed(String::new()),
            },
        };
        let (change, only) = match (table.touching(index, read, file, byte), declared) {
            ((Some(change), only), _) => (change, only),
            // no change touches the element: the declaration's field, if it has one
            ((None, _), Some(declared)) => (declared, true),
            ((None, _), None) => return Read::Caller,
        };
        let line = |at: Position| {
            if at.file == 0 {
                format!("line {}", at.line)
            } else {
                format!("line {} of an included file", at.line)
            }
        };
        let why = format!(
            "the script {} at {} (`{}`)",
            change.how,
            line(change.at),
            change.text
        );
        if let (Some(f), true, Some(i), 0) = (&change.follow, only, index, file) {
            let value = f.values.iter().find(|(j, _, _)| *j == i);
            if let (true, true, Some((_, value, shown))) = (
                byte >= f.end,
                f.unit.is_none_or(|(a, b)| a <= byte && byte < b),
                value,
            ) {
                let note = format!("= {shown} since {}", line(change.at));
                return Read::Followed(value, note, why);
            }
        }
        Read::Changed(why)
    }
}

/// How many helpers deep a table handed on is followed (`f(keys)` whose `f` hands it to
/// `g`, ...): a deeper helper's call stays a change of the table, as any function's is.
const HANDED_DEPTH: usize = 8;

/// The pass that finds the changes.
struct Finder<'a> {
    names: &'a Names,
    runs_always: &'a dyn Fn(usize) -> bool,
    /// The parameters (bindings) of the script's helpers that a direct call hands one of
    /// the call's tables, and which (`None`: both, by different calls, which the lint does
    /// not follow).
    handed: HashMap<usize, Option<Which>>,
    /// Whether this pass handed a parameter a table it had not.
    grew: bool,
    /// The names that stand for KEYS, and for ARGV.
    keys: HashSet<&'a str>,
    argv: HashSet<&'a str>,
    file: usize,
    /// The bytes of the names used as a value where that use changes nothing (`ipairs(KEYS)`,
    /// `#KEYS`, `local ks = KEYS`), marked by the node around them before they are visited.
    allowed: HashSet<usize>,
    /// The text of the file visited, and the byte where each of its lines starts: a change
    /// is shown as its line.
    source: &'a str,
    lines: Vec<usize>,
    changes: Changes,
}

impl Finder<'_> {
    /// The table the name `name` stands for, if any.
    fn table(&self, name: &str) -> Option<Which> {
        if self.keys.contains(name) {
            Some(Which::Keys)
        } else if self.argv.contains(name) {
            Some(Which::Argv)
        } else {
            None
        }
    }

    /// The table the name `token` of the file visited stands for where it is: one of the
    /// call's ([`Finder::table`]), or a local table followed, by its binding (an include
    /// placed after the declaration reaches the script's local too).
    fn table_at(&self, token: &TokenReference) -> Option<Which> {
        let name = name_of(token);
        self.table(&name).or_else(|| {
            if self.changes.locals.is_empty() && self.handed.is_empty() {
                return None;
            }
            let b = self
                .names
                .resolve_in(self.file, &name, byte_start(token)?)?;
            if let Some(&handed) = self.handed.get(&b) {
                return handed;
            }
            self.changes
                .locals
                .contains_key(&b)
                .then_some(Which::Local(b))
        })
    }

    /// A use of a global through which any code may reach the call's tables (`_G`, whose
    /// `KEYS` and `ARGV` they are, and `loadstring`, `setfenv`, `getfenv`, which run or
    /// change code the lint does not read): a change of both, as `name` at `node` where no
    /// local of that name covers it.
    fn reaches_all(&mut self, name: &TokenReference, node: &impl Node) {
        let text = name_of(name);
        if !matches!(text.as_str(), "_G" | "loadstring" | "setfenv" | "getfenv") {
            return;
        }
        let bound = byte_start(name).and_then(|at| self.names.resolve_in(self.file, &text, at));
        if bound.is_some() {
            return;
        }
        for which in [Which::Keys, Which::Argv] {
            let how = format!("reaches `{text}`, through which code may change it");
            self.change(which, node, None, how, None, None);
        }
    }

    /// A direct call of a helper of the script (`check_keys(keys)`) that hands it one of
    /// the call's tables by name: its parameter stands for the table from then on
    /// ([`Finder::handed`]), and the argument is no change where it does.
    fn handing(&mut self, call: &ast::FunctionCall) {
        let Prefix::Name(callee_name) = call.prefix() else {
            return;
        };
        let Some((path, ast::FunctionArgs::Parentheses { arguments, .. })) = callee(call) else {
            return;
        };
        let Some(j) = (path.len() == 1)
            .then(|| byte_start(callee_name))
            .flatten()
            .and_then(|at| self.names.called_helper(self.file, at))
        else {
            return;
        };
        for (i, e) in arguments.iter().enumerate() {
            let Expression::Var(Var::Name(n)) = e else {
                continue;
            };
            let (Some(which @ (Which::Keys | Which::Argv)), Some(at)) =
                (self.table_at(n), byte_start(n))
            else {
                continue;
            };
            let Some(b) = self.names.locals[j]
                .parameters
                .get(i)
                .and_then(|p| self.names.parameter(j, p))
            else {
                continue;
            };
            match self.handed.get(&b) {
                None => {
                    self.handed.insert(b, Some(which));
                    self.grew = true;
                }
                Some(Some(w)) if *w != which => {
                    self.handed.insert(b, None);
                    self.grew = true;
                }
                _ => {}
            }
            if self.handed.get(&b) == Some(&Some(which)) {
                self.allowed.insert(at);
            }
        }
    }

    /// The body of the innermost registered function that holds `byte` of file 0, if any.
    fn unit_at(&self, byte: usize) -> Option<(usize, usize)> {
        self.names
            .functions
            .iter()
            .map(|f| f.body)
            .filter(|&(a, b)| a <= byte && byte < b)
            .min_by_key(|&(a, b)| b - a)
    }

    /// The line of the file visited where `node` starts, its comment left out, cut.
    fn line_of(&self, node: &impl Node) -> String {
        let line = position(self.file, node)
            .line
            .checked_sub(1)
            .and_then(|l| self.lines.get(l))
            .and_then(|&a| self.source.get(a..))
            .and_then(|rest| rest.lines().next())
            .unwrap_or_default();
        short(code_of(line))
    }

    /// A change of `which` at `node` of the file visited (its `element`, `None` for any),
    /// shown as its line; of the name `named` when it is one (declared anew, assigned),
    /// which reaches only the reads through the binding the name means there.
    fn change(
        &mut self,
        which: Which,
        node: &impl Node,
        element: Option<usize>,
        how: String,
        follow: Option<Follow>,
        named: Option<&TokenReference>,
    ) {
        let name = named.and_then(|token| {
            let name = name_of(token);
            let bound = self.names.resolve_in(self.file, &name, byte_start(token)?);
            Some((name, bound))
        });
        let at = position(self.file, node);
        let byte = byte_start(node).unwrap_or(0);
        let text = self.line_of(node);
        let unit = (self.file == 0).then(|| self.unit_at(byte)).flatten();
        let table = match which {
            Which::Keys => &mut self.changes.keys,
            Which::Argv => &mut self.changes.argv,
            Which::Local(b) => match self.changes.locals.get_mut(&b) {
                Some(local) => &mut local.table,
                None => return,
            },
        };
        table.push(Change {
            at,
            element,
            unit,
            name,
            follow,
            how,
            text,
        });
    }

    /// The local table `token` declared by `node` with the values `follow`, followed by its
    /// binding from here on.
    fn local_table(&mut self, node: &impl Node, token: &TokenReference, follow: Follow) {
        let name = name_of(token);
        let Some(b) = byte_start(token).and_then(|at| self.names.resolve_in(self.file, &name, at))
        else {
            return;
        };
        let line = self.line_of(node);
        let declared = Change {
            at: position(self.file, node),
            element: None,
            unit: follow.unit,
            name: Some((name.clone(), Some(b))),
            follow: Some(follow),
            how: format!("declares `{name}`"),
            text: line,
        };
        self.changes.locals.insert(
            b,
            Local {
                declared,
                table: Table::default(),
            },
        );
    }

    /// A name declared anew (a local, a parameter, a loop variable): a change of the table
    /// it stands for, if any.
    fn declared(&mut self, token: &TokenReference) {
        self.declared_with(token, None);
    }

    /// [`Finder::declared`], with the values to follow when it is certain what the name
    /// holds.
    fn declared_with(&mut self, token: &TokenReference, follow: Option<Follow>) {
        let name = name_of(token);
        if let Some(which) = self.table(&name) {
            let how = format!("declares `{name}` anew");
            self.change(which, token, None, how, follow, Some(token));
        }
    }
}

impl Finder<'_> {
    /// The statement `node` that assigns `value` to one element (`element`) or to a whole
    /// table (`element` `None`, `whole`: given to a name, a table constructor of positional
    /// fields; the change's name says which reads see it) as values to follow: one target,
    /// one value, in the script's own file, run whenever its script or function is.
    fn follow(
        &self,
        node: &(impl Node + std::fmt::Display),
        value: &Expression,
        element: Option<usize>,
        whole: bool,
    ) -> Option<Follow> {
        let start = byte_start(node)?;
        if self.file != 0 || !(self.runs_always)(start) {
            return None;
        }
        // a library's: in a registered function's body, the innermost
        let unit = self.unit_at(start);
        if unit.is_none() && !self.names.functions.is_empty() {
            return None;
        }
        // its end: its text from its first token's leading trivia on
        let leading: usize = node
            .tokens()
            .next()
            .map_or(0, |t| t.leading_trivia().map(|t| t.to_string().len()).sum());
        let end = start.checked_sub(leading)? + node.to_string().len();
        let shown = |value: &Expression| {
            let text = value.to_string();
            short(code_of(text.trim().lines().next().unwrap_or_default()))
        };
        let values = match (element, whole, value) {
            (Some(i), _, _) => vec![(i, value.clone(), shown(value))],
            (None, true, Expression::TableConstructor(table)) => {
                let mut fields: Vec<&Expression> = Vec::new();
                for field in table.fields() {
                    match field {
                        ast::Field::NoKey(e) => fields.push(e),
                        _ => return None,
                    }
                }
                // a call or `...` last gives any number of values
                if fields.last().is_some_and(|e| {
                    matches!(e, Expression::FunctionCall(_))
                        || matches!(e, Expression::Symbol(s) if s.token().to_string() == "...")
                }) {
                    fields.pop();
                }
                fields
                    .into_iter()
                    .enumerate()
                    .map(|(i, e)| (i + 1, e.clone(), shown(e)))
                    .collect()
            }
            _ => return None,
        };
        Some(Follow { values, end, unit })
    }
}

impl Visitor for Finder<'_> {
    fn visit_assignment(&mut self, node: &ast::Assignment) {
        for var in node.variables() {
            let (name, element) = match var {
                Var::Name(n) => (n, None),
                Var::Expression(v) => {
                    let Prefix::Name(n) = v.prefix() else {
                        continue;
                    };
                    self.reaches_all(n, node);
                    let suffixes: Vec<&Suffix> = v.suffixes().collect();
                    let element = match &suffixes[..] {
                        [Suffix::Index(Index::Brackets { expression, .. })] => {
                            match &**expression {
                                Expression::Number(i) => number_text(&i.token().to_string())
                                    .and_then(|t| t.parse::<usize>().ok())
                                    .filter(|&i| i > 0),
                                _ => None,
                            }
                        }
                        _ => None,
                    };
                    (n, element)
                }
                _ => continue,
            };
            if let Some(which) = self.table_at(name) {
                let how = match var {
                    Var::Name(_) => format!("assigns `{}`", name_of(name)),
                    _ => format!("assigns into `{}`", name_of(name)),
                };
                // one target, one value
                let one = match (
                    &node.variables().iter().collect::<Vec<_>>()[..],
                    &node.expressions().iter().collect::<Vec<_>>()[..],
                ) {
                    ([_], [value]) => Some(*value),
                    _ => None,
                };
                let whole = matches!(var, Var::Name(_)).then_some(name);
                // a helper's parameter handed the table: its changes run where the helper
                // is called, which the lint does not place
                let handed = matches!(which, Which::Keys | Which::Argv)
                    && self.table(&name_of(name)).is_none();
                let follow = one
                    .filter(|_| !handed)
                    .and_then(|value| match (element, whole) {
                        (Some(_), _) | (None, Some(_)) => {
                            self.follow(node, value, element, whole.is_some())
                        }
                        _ => None,
                    });
                self.change(which, node, element, how, follow, whole);
            }
        }
    }

    fn visit_local_assignment(&mut self, node: &ast::LocalAssignment) {
        let exprs: Vec<&Expression> = node.expressions().iter().collect();
        for (n, token) in node.names().iter().enumerate() {
            let declared = self.table(&name_of(token));
            // `local ks = KEYS`: an alias the lint reads as KEYS (its changes are found)
            if let Some(Expression::Var(Var::Name(value))) = exprs.get(n) {
                if declared.is_some() && declared == self.table(&name_of(value)) {
                    if let Some(at) = byte_start(value) {
                        self.allowed.insert(at);
                    }
                    continue;
                }
            }
            // `local KEYS = { ARGV[1] }`: a table whose elements may be followed
            let follow = match (&node.names().iter().collect::<Vec<_>>()[..], &exprs[..]) {
                ([_], [value]) => self.follow(node, value, None, true),
                _ => None,
            };
            match (declared, follow) {
                // `local t = { KEYS[1] }`, `local t = {}`: a local table followed
                (None, Some(follow)) => self.local_table(node, token, follow),
                (_, follow) => self.declared_with(token, follow),
            }
        }
    }

    fn visit_local_function(&mut self, node: &ast::LocalFunction) {
        self.declared(node.name());
    }

    fn visit_function_body(&mut self, node: &ast::FunctionBody) {
        // a registered function's own `keys` and `args` are the call's tables
        // a body is known by its start (its end takes a walk over every token)
        let start = byte_start(node);
        if self.file == 0 && self.names.functions.iter().any(|f| Some(f.body.0) == start) {
            return;
        }
        for p in node.parameters() {
            if let ast::Parameter::Name(n) = p {
                self.declared(n);
            }
        }
    }

    fn visit_generic_for(&mut self, node: &ast::GenericFor) {
        // `for i, k in ipairs(KEYS)`: the loop reads the table
        if let [Expression::FunctionCall(call)] = &node.expressions().iter().collect::<Vec<_>>()[..]
        {
            if let Some((path, ast::FunctionArgs::Parentheses { arguments, .. })) = callee(call) {
                if let ([only], [Expression::Var(Var::Name(n))]) =
                    (&path[..], &arguments.iter().collect::<Vec<_>>()[..])
                {
                    if only == "ipairs" || only == "pairs" {
                        if let Some(at) = byte_start(n) {
                            self.allowed.insert(at);
                        }
                    }
                }
            }
        }
        for n in node.names() {
            self.declared(n);
        }
    }

    fn visit_numeric_for(&mut self, node: &ast::NumericFor) {
        self.declared(node.index_variable());
    }

    fn visit_function_call(&mut self, call: &ast::FunctionCall) {
        if let Prefix::Name(n) = call.prefix() {
            self.reaches_all(n, call);
        }
        self.handing(call);
        let Some((path, ast::FunctionArgs::Parentheses { arguments, .. })) = callee(call) else {
            return;
        };
        let unpack = matches!(&path[..], [name] if self.names.unpacks.contains(name));
        if !unpack && !READERS.iter().any(|r| path == *r) {
            return;
        }
        for e in arguments.iter() {
            if let Expression::Var(Var::Name(n)) = e {
                if let Some(at) = byte_start(n) {
                    self.allowed.insert(at);
                }
            }
        }
    }

    fn visit_expression(&mut self, node: &Expression) {
        match node {
            Expression::UnaryOperator {
                unop: UnOp::Hash(_),
                expression,
            } => {
                if let Expression::Var(Var::Name(n)) = &**expression {
                    if let Some(at) = byte_start(n) {
                        self.allowed.insert(at);
                    }
                }
            }
            Expression::Var(Var::Expression(v)) => {
                if let Prefix::Name(n) = v.prefix() {
                    self.reaches_all(n, &**v);
                }
            }
            Expression::Var(Var::Name(n)) => {
                self.reaches_all(n, n);
                let Some(which) = self.table_at(n) else {
                    return;
                };
                let at = byte_start(n).unwrap_or(0);
                if !self.allowed.contains(&at) {
                    let how = format!("hands `{}` to code that may change it", name_of(n));
                    self.change(which, n, None, how, None, None);
                }
            }
            _ => {}
        }
    }
}

/// `line` without a `--` comment at its end (one outside a string literal).
fn code_of(line: &str) -> &str {
    let bytes = line.as_bytes();
    let mut quote: Option<u8> = None;
    let mut i = 0;
    while i < bytes.len() {
        match (quote, bytes[i]) {
            (Some(_), b'\\') => i += 1,
            (Some(q), b) if b == q => quote = None,
            (None, b'\'' | b'"') => quote = Some(bytes[i]),
            (None, b'-') if bytes.get(i + 1) == Some(&b'-') => return &line[..i],
            _ => {}
        }
        i += 1;
    }
    line
}
