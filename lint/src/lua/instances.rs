//! Each call of a helper followed into its body, as the servers run it: `local function
//! get(k) return redis.call('GET', k) end` called as `get(keys[1])` by one function and
//! `get('{c}' .. args[1])` by another is two `GET`s, each with its caller's key and in its
//! caller's function, not one `GET` of a `k` the lint cannot place. One walk for a script
//! and a Functions library alike (a library is Lua too).
//!
//! The helpers followed so are those of [`Names::passed`] (a local function whose name is
//! only ever called directly, so its parameters hold what its calls pass and nothing else)
//! that do not reach themselves through their calls (a recursion is walked once, with its
//! parameters as the calls merge them, as before), while the calls to follow stay under
//! [`MAX_INSTANCES`] and the bodies they read under [`MAX_FOLLOWED_BYTES`].

use std::collections::HashMap;

use full_moon::ast;
use full_moon::visitors::Visitor;

use super::names::Names;
use super::syntax::byte_start;

/// The most helper calls followed into their bodies in one file (a helper called twice by
/// a helper called twice is four): past it, no helper is followed per call, and each body
/// is read once with its parameters as every call merges them.
const MAX_INSTANCES: usize = 1024;

/// The most helpers followed inside one another (`g3` calling `g2` calling `g1`, each
/// followed per call, is 3): each holds its own copy of the values while the inner ones
/// are read, so a chain of 800 took 21 GB. Real chains are a few deep.
const MAX_DEPTH: usize = 32;

/// The most values of names copied over the calls followed (a call followed copies those
/// of every name of the script, a few times as its body's values settle).
const MAX_COPIED: usize = 1 << 20;

/// The most bytes of helper bodies read for those calls (each body's length once per call
/// followed), past which none is followed either: a body is read a few times per call
/// (its locals' values settle, then its calls), so this keeps the lint's time within a few
/// times that of the largest script (a 27 KB script, a 10 KB helper called 1000 times,
/// took 15 s unbounded; a 7 KB one reading 510 KB of bodies 0.66 s, debug build).
const MAX_FOLLOWED_BYTES: usize = crate::MAX_SOURCE_BYTES;

/// The helpers of file 0 whose every call is followed into its body, with their bodies.
#[derive(Default)]
pub(super) struct Helpers {
    /// Indexes of [`Names::locals`].
    followed: Vec<usize>,
    /// The body of each helper followed, by its index (in the tree of its file).
    bodies: HashMap<usize, ast::FunctionBody>,
    /// The helpers of [`Names::passed`] not followed because they reach themselves.
    recursive: Vec<usize>,
    /// Whether none is followed, for the calls to follow were more than [`MAX_INSTANCES`].
    too_many: bool,
}

impl Helpers {
    /// The helpers of the script and its includes (`asts`, file by file) to follow per call.
    pub(super) fn find(asts: &[ast::Ast], names: &Names) -> Self {
        let body = |j: usize| names.locals[j].body;
        let holds = |j: usize, (file, byte): (usize, usize)| {
            names.locals[j].file == file && body(j).0 <= byte && byte < body(j).1
        };
        let sites = |j: usize| names.called_at.get(&j).map_or(&[][..], Vec::as_slice);
        // k -> the helpers called in k's body, found once (a chain of 3000 helpers asked
        // for them per step took 112 s)
        let calls: HashMap<usize, Vec<usize>> = names
            .passed
            .iter()
            .map(|&k| {
                let called = names.passed.iter().copied();
                (
                    k,
                    called
                        .filter(|&j| sites(j).iter().any(|&s| holds(k, s)))
                        .collect(),
                )
            })
            .collect();
        let calls_in = |k: usize| calls.get(&k).map_or(&[][..], Vec::as_slice);
        let reaches_itself = |j: usize| {
            let mut seen = std::collections::HashSet::from([j]);
            let mut queue = calls_in(j).to_vec();
            while let Some(k) = queue.pop() {
                if k == j {
                    return true;
                }
                if seen.insert(k) {
                    queue.extend_from_slice(calls_in(k));
                }
            }
            false
        };
        let (followed, recursive): (Vec<usize>, Vec<usize>) =
            names.passed.iter().partition(|&&j| !reaches_itself(j));
        // how many times each is followed: once per call, a call inside another helper
        // followed as many times as that one is (no cycle among them: finite)
        fn count(
            j: usize,
            followed: &[usize],
            names: &Names,
            memo: &mut HashMap<usize, usize>,
        ) -> usize {
            if let Some(&n) = memo.get(&j) {
                return n;
            }
            let body = |k: usize| names.locals[k].body;
            let mut n = 0usize;
            for &(file, s) in names.called_at.get(&j).into_iter().flatten() {
                let around = followed
                    .iter()
                    .copied()
                    .filter(|&k| names.locals[k].file == file && body(k).0 <= s && s < body(k).1)
                    .min_by_key(|&k| body(k).1 - body(k).0);
                n = n.saturating_add(around.map_or(1, |k| count(k, followed, names, memo)));
            }
            memo.insert(j, n);
            n
        }
        let mut memo = HashMap::new();
        let (mut total, mut read) = (0usize, 0usize);
        for &j in &followed {
            let n = count(j, &followed, names, &mut memo);
            total = total.saturating_add(n);
            read = read.saturating_add(n.saturating_mul(body(j).1 - body(j).0));
        }
        // how deep helpers followed nest in each other's bodies: the followed alone, among
        // which there is no cycle (a helper that reaches itself is not followed; counting
        // through one recursed without end: bullmq's scripts overflowed the stack)
        fn depth(
            j: usize,
            calls: &HashMap<usize, Vec<usize>>,
            followed: &std::collections::HashSet<usize>,
            memo: &mut HashMap<usize, usize>,
        ) -> usize {
            if let Some(&d) = memo.get(&j) {
                return d;
            }
            // in progress: a cycle, were there one, ends here
            memo.insert(j, 0);
            let inner = calls.get(&j).into_iter().flatten();
            let d = 1 + inner
                .filter(|k| followed.contains(k))
                .map(|&k| depth(k, calls, followed, memo))
                .max()
                .unwrap_or(0);
            memo.insert(j, d);
            d
        }
        let mut depths = HashMap::new();
        let followed_set: std::collections::HashSet<usize> = followed.iter().copied().collect();
        let deepest = followed
            .iter()
            .map(|&j| depth(j, &calls, &followed_set, &mut depths))
            .max()
            .unwrap_or(0);
        // each call followed copies the values of the script's names a few times
        let copied = total.saturating_mul(names.bindings.len() + names.locals.len());
        let too_many = total > MAX_INSTANCES
            || read > MAX_FOLLOWED_BYTES
            || deepest > MAX_DEPTH
            || copied > MAX_COPIED;
        if followed.is_empty() || too_many {
            return Self {
                recursive,
                too_many,
                ..Self::default()
            };
        }
        let mut found = Bodies {
            file: 0,
            starts: followed
                .iter()
                .map(|&j| ((names.locals[j].file, body(j).0), j))
                .collect(),
            bodies: HashMap::new(),
        };
        for (file, ast) in asts.iter().enumerate() {
            found.file = file;
            found.visit_ast(ast);
        }
        Self {
            followed,
            bodies: found.bodies,
            recursive,
            too_many: false,
        }
    }

    /// Why the helper `j` of [`Names::passed`] is not followed per call, if it is not.
    pub(super) fn why_not(&self, j: usize) -> Option<String> {
        if self.recursive.contains(&j) {
            Some(
                "it calls itself (directly or through another helper), so its body is read \
                 once, and its calls pass more than one value"
                    .to_owned(),
            )
        } else if self.too_many {
            Some(format!(
                "the script's helper calls are too many to follow one by one (more than \
                 {MAX_INSTANCES}, more than {} KiB of bodies to read, more than \
                 {MAX_DEPTH} helpers called one inside another, or too many names to copy \
                 for each), so the lint stopped following them: each body is read once, \
                 and its calls pass more than one value",
                MAX_FOLLOWED_BYTES >> 10
            ))
        } else {
            None
        }
    }

    /// Whether the helper `j` is followed per call, with its body.
    pub(super) fn body(&self, j: usize) -> Option<&ast::FunctionBody> {
        self.followed
            .contains(&j)
            .then(|| self.bodies.get(&j))
            .flatten()
    }

    /// Whether `byte` of `file` is in the body of a helper followed per call that the walk
    /// of `root`'s body (of the whole file: `None`) reaches but does not follow: one nested
    /// in that body (a helper around `root`, whose body holds it, is not such a one). Its code
    /// is read where that helper is called, not where it is written.
    pub(super) fn elsewhere(
        &self,
        names: &Names,
        root: Option<usize>,
        file: usize,
        byte: usize,
    ) -> bool {
        let within = |(a, b): (usize, usize), (x, y): (usize, usize)| x <= a && b <= y;
        self.followed.iter().any(|&j| {
            let body = names.locals[j].body;
            Some(j) != root
                && names.locals[j].file == file
                && body.0 <= byte
                && byte < body.1
                && root.is_none_or(|r| within(body, names.locals[r].body))
        })
    }
}

/// The bodies of the helpers followed, cloned from the trees by their file and first byte.
struct Bodies {
    /// The file visited.
    file: usize,
    starts: HashMap<(usize, usize), usize>,
    bodies: HashMap<usize, ast::FunctionBody>,
}

impl Visitor for Bodies {
    fn visit_function_body(&mut self, node: &ast::FunctionBody) {
        if let Some(&j) = byte_start(node).and_then(|at| self.starts.get(&(self.file, at))) {
            self.bodies.insert(j, node.clone());
        }
    }
}
