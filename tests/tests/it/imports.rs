//! The import graph of each crate's source: no two files import each other, and no cycle
//! runs through the crate's top-level modules (a module importing one above it in the
//! layering closes one). The graph is read from the source text: every `use` tree and every
//! path that starts at `crate`, `super`, `self`, a child module or a name a `use` bound to a
//! module, resolved to the file that defines the item (through `pub use` re-exports, which
//! are a facade and no edge themselves). Items under `#[cfg(test)]` are left out: a test may
//! reach up (a derivation checked by the verifier); the layering is the library's.
//!
//! Checked: `generator/src`, `lint/src`, `tests/src` and `generator/cli/src` (each with its
//! layering), `cluster/src`, `tables/src` and `slotgen-macros/src`. An import a crate still
//! needs against these rules is an [`Allowed`] edge, named with why it stays.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module's path below its crate's root: `[]` is `lib.rs`, `["emit", "common"]` is
/// `emit/common.rs`, `["emit"]` is `emit/mod.rs`.
type ModPath = Vec<String>;

/// One crate's source files, their re-exports and their imports.
struct Crate {
    /// Module path -> its file, relative to the source directory.
    files: BTreeMap<ModPath, String>,
    /// Per module: a name it re-exports with `pub use` -> the absolute path it names.
    reexports: BTreeMap<ModPath, BTreeMap<String, ModPath>>,
    /// Per module: the absolute paths it names in its code (not in its re-exports).
    uses: BTreeMap<ModPath, Vec<ModPath>>,
}

/// The module path of a source file, relative to the source directory.
fn module_of(relative: &Path) -> ModPath {
    let mut parts: Vec<String> = relative
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().expect("a file name");
    let stem = last.strip_suffix(".rs").expect("a .rs file");
    if !matches!(stem, "lib" | "main" | "mod") {
        parts.push(stem.to_owned());
    }
    parts
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("read {}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The source with comments, string and character literals blanked, so that what is left
/// is code: a `crate::` in a doc link or a string is no import.
fn code_only(source: &str) -> String {
    let b = source.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let rest = &b[i..];
        if rest.starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if rest.starts_with(b"/*") {
            let mut depth = 0;
            while i < b.len() {
                if b[i..].starts_with(b"/*") {
                    depth += 1;
                    i += 2;
                } else if b[i..].starts_with(b"*/") {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(b' ');
        } else if let Some(len) = raw_string_len(rest) {
            i += len;
            out.extend_from_slice(b"\"\"");
        } else if rest[0] == b'"' || rest.starts_with(b"b\"") {
            i += if rest[0] == b'b' { 2 } else { 1 };
            while i < b.len() && b[i] != b'"' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            out.extend_from_slice(b"\"\"");
        } else if rest[0] == b'\'' {
            // A character literal ('a', '\n', '\u{1f}', '"'), else a lifetime or label.
            let len = if rest.get(1) == Some(&b'\\') {
                rest.iter().skip(2).position(|&c| c == b'\'').map(|p| p + 3)
            } else {
                let c = std::str::from_utf8(&rest[1..rest.len().min(6)])
                    .or_else(|e| std::str::from_utf8(&rest[1..1 + e.valid_up_to()]))
                    .ok()
                    .and_then(|s| s.chars().next());
                c.and_then(|c| {
                    (rest.get(1 + c.len_utf8()) == Some(&b'\'')).then(|| c.len_utf8() + 2)
                })
            };
            match len {
                Some(len) => {
                    i += len;
                    out.extend_from_slice(b"' '");
                }
                None => {
                    out.push(b'\'');
                    i += 1;
                }
            }
        } else if rest[0].is_ascii_alphanumeric() || rest[0] == b'_' {
            // Whole identifiers, so that a `b` or `r` ending one starts no literal.
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                out.push(b[i]);
                i += 1;
            }
        } else {
            out.push(rest[0]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The length of a raw string literal (`r"..."`, `br#"..."#`) at the start of `rest`.
fn raw_string_len(rest: &[u8]) -> Option<usize> {
    let start = if rest.starts_with(b"br") {
        2
    } else if rest.starts_with(b"r") {
        1
    } else {
        return None;
    };
    let hashes = rest[start..].iter().take_while(|&&c| c == b'#').count();
    if rest.get(start + hashes) != Some(&b'"') {
        return None;
    }
    let close: Vec<u8> = std::iter::once(b'"')
        .chain(std::iter::repeat_n(b'#', hashes))
        .collect();
    let body = start + hashes + 1;
    rest[body..]
        .windows(close.len())
        .position(|w| w == close.as_slice())
        .map(|p| body + p + close.len())
}

/// Identifiers, `::` and single punctuation characters.
fn tokens(code: &str) -> Vec<String> {
    let b = code.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
        } else if c.is_ascii_alphanumeric() || c == b'_' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            out.push(code[start..i].to_owned());
        } else if b[i..].starts_with(b"::") {
            out.push("::".to_owned());
            i += 2;
        } else {
            let len = code[i..].chars().next().map_or(1, char::len_utf8);
            out.push(code[i..i + len].to_owned());
            i += len;
        }
    }
    out
}

/// `#[cfg(test)]` as tokens.
const CFG_TEST: [&str; 7] = ["#", "[", "cfg", "(", "test", ")", "]"];

fn is_ident(token: &str) -> bool {
    token
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
}

/// The paths of a `use` tree starting at `tokens[*at]`, up to its `;`, each with the name it
/// binds (`None` for a glob).
fn use_tree(
    tokens: &[String],
    at: &mut usize,
    prefix: &[String],
    out: &mut Vec<(Vec<String>, Option<String>)>,
) {
    let mut path = prefix.to_vec();
    while *at < tokens.len() {
        let t = tokens[*at].as_str();
        match t {
            "::" => *at += 1,
            "{" => {
                *at += 1;
                loop {
                    use_tree(tokens, at, &path, out);
                    match tokens.get(*at).map(String::as_str) {
                        Some(",") => *at += 1,
                        Some("}") => {
                            *at += 1;
                            break;
                        }
                        _ => return,
                    }
                    if tokens.get(*at).map(String::as_str) == Some("}") {
                        *at += 1;
                        break;
                    }
                }
                return;
            }
            "*" => {
                *at += 1;
                out.push((path, None));
                return;
            }
            "as" => {
                let alias = tokens.get(*at + 1).cloned();
                *at += 2;
                out.push((path, alias));
                return;
            }
            "," | "}" | ";" => {
                let name = path.last().cloned();
                if path.len() > prefix.len() {
                    out.push((path, name));
                }
                return;
            }
            _ if is_ident(t) => {
                path.push(t.to_owned());
                *at += 1;
            }
            _ => {
                *at += 1;
            }
        }
    }
}

impl Crate {
    fn read(src: &Path) -> Crate {
        let mut paths = Vec::new();
        rust_files(src, &mut paths);
        let mut files = BTreeMap::new();
        let mut sources = Vec::new();
        for path in &paths {
            let relative = path.strip_prefix(src).expect("under the source directory");
            let module = module_of(relative);
            // Files that no `mod` declares (templates, fixtures) are in the graph all the same:
            // nothing can name them, so they add no edge.
            files.insert(module.clone(), relative.display().to_string());
            sources.push((
                module,
                std::fs::read_to_string(path).expect("a source file"),
            ));
        }
        let mut krate = Crate {
            files,
            reexports: BTreeMap::new(),
            uses: BTreeMap::new(),
        };
        let mut raw_uses = Vec::new();
        for (module, source) in &sources {
            let tokens = tokens(&code_only(source));
            raw_uses.push((module.clone(), krate.scan(module, &tokens)));
        }
        for (module, paths) in raw_uses {
            krate.uses.insert(module, paths);
        }
        krate
    }

    fn is_module(&self, path: &[String]) -> bool {
        self.files.contains_key(path)
    }

    /// A path as written in module `here` (inside its inline modules `inline`), made absolute:
    /// `None` when it starts outside the crate (another crate, a prelude or local name).
    fn absolute(
        &self,
        here: &[String],
        inline: &[String],
        path: &[String],
        bound: &BTreeMap<String, ModPath>,
    ) -> Option<ModPath> {
        let first = path.first()?.as_str();
        let mut base: Vec<String> = here.iter().chain(inline).cloned().collect();
        let mut rest = path;
        match first {
            "crate" => {
                base.clear();
                rest = &path[1..];
            }
            "self" => rest = &path[1..],
            "super" => {
                while rest.first().map(String::as_str) == Some("super") {
                    base.pop()?;
                    rest = &rest[1..];
                }
            }
            _ => {
                let mut child = base.clone();
                child.push(first.to_owned());
                if self.is_module(&child) {
                    // A child module, named without `self::` (uniform paths).
                } else if let Some(target) = bound.get(first) {
                    base = target.clone();
                    rest = &path[1..];
                } else {
                    return None;
                }
            }
        }
        base.extend(rest.iter().cloned());
        Some(base)
    }

    /// Reads one file's tokens: its `pub use` re-exports into `self.reexports`, and returns
    /// the absolute paths its code names.
    fn scan(&mut self, module: &ModPath, tokens: &[String]) -> Vec<ModPath> {
        let mut bound: BTreeMap<String, ModPath> = BTreeMap::new();
        let mut named = Vec::new();
        // The inline modules (`mod tests { ... }`) open at each brace depth.
        let mut braces: Vec<Option<String>> = Vec::new();
        let inline = |braces: &[Option<String>]| -> Vec<String> {
            braces.iter().flatten().cloned().collect()
        };
        let mut i = 0;
        while i < tokens.len() {
            let t = tokens[i].as_str();
            match t {
                "#" if tokens[i..].starts_with(&CFG_TEST.map(str::to_owned)) => {
                    // A test-only item: tests may reach up (a derivation checked by the
                    // verifier), the layering is the library's.
                    i += CFG_TEST.len();
                    while i < tokens.len() && tokens[i] != ";" && tokens[i] != "{" {
                        i += 1;
                    }
                    if tokens.get(i).map(String::as_str) == Some("{") {
                        let mut depth = 0;
                        while i < tokens.len() {
                            match tokens[i].as_str() {
                                "{" => depth += 1,
                                "}" => depth -= 1,
                                _ => {}
                            }
                            i += 1;
                            if depth == 0 {
                                break;
                            }
                        }
                    } else {
                        i += 1;
                    }
                }
                "{" => {
                    let opened = (i >= 2 && tokens[i - 2] == "mod" && is_ident(&tokens[i - 1]))
                        .then(|| tokens[i - 1].clone());
                    braces.push(opened);
                    i += 1;
                }
                "}" => {
                    braces.pop();
                    i += 1;
                }
                "use" => {
                    let public = i >= 1 && (tokens[i - 1] == "pub" || tokens[i - 1] == ")");
                    let mut at = i + 1;
                    let mut tree = Vec::new();
                    use_tree(tokens, &mut at, &[], &mut tree);
                    let within = inline(&braces);
                    for (path, name) in tree {
                        let Some(abs) = self.absolute(module, &within, &path, &bound) else {
                            continue;
                        };
                        if let Some(name) = &name {
                            if name != "self" {
                                bound.insert(name.clone(), abs.clone());
                            }
                        }
                        let abs = if path.last().map(String::as_str) == Some("self") {
                            abs[..abs.len() - 1].to_vec()
                        } else {
                            abs
                        };
                        if public && within.is_empty() {
                            if let Some(name) = name.filter(|n| n != "self") {
                                self.reexports
                                    .entry(module.clone())
                                    .or_default()
                                    .insert(name, abs);
                            }
                        } else {
                            named.push(abs);
                        }
                    }
                    i = at;
                }
                _ if is_ident(t)
                    && tokens.get(i + 1).map(String::as_str) == Some("::")
                    && (i == 0 || tokens[i - 1] != "::") =>
                {
                    let mut path = vec![t.to_owned()];
                    let mut at = i + 1;
                    while tokens.get(at).map(String::as_str) == Some("::")
                        && tokens.get(at + 1).is_some_and(|t| is_ident(t))
                    {
                        path.push(tokens[at + 1].clone());
                        at += 2;
                    }
                    if let Some(abs) = self.absolute(module, &inline(&braces), &path, &bound) {
                        named.push(abs);
                    }
                    i = at;
                }
                _ => i += 1,
            }
        }
        named
    }

    /// The file that defines what an absolute path names: the deepest module on the path,
    /// then through that module's re-exports.
    fn file_of(&self, path: &[String], depth: usize) -> Option<ModPath> {
        let mut module: ModPath = Vec::new();
        for (k, segment) in path.iter().enumerate() {
            let mut child = module.clone();
            child.push(segment.clone());
            if self.is_module(&child) {
                module = child;
                continue;
            }
            let target = self.reexports.get(&module).and_then(|r| r.get(segment));
            return match target {
                Some(target) if depth < 16 => {
                    let mut next = target.clone();
                    next.extend(path[k + 1..].iter().cloned());
                    self.file_of(&next, depth + 1)
                }
                _ => Some(module),
            };
        }
        Some(module)
    }

    /// File -> the files its code imports from.
    fn graph(&self) -> BTreeMap<String, BTreeSet<String>> {
        let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (module, paths) in &self.uses {
            let from = &self.files[module];
            let edges = graph.entry(from.clone()).or_default();
            for path in paths {
                if let Some(to) = self.file_of(path, 0) {
                    let to = &self.files[&to];
                    if to != from {
                        edges.insert(to.clone());
                    }
                }
            }
        }
        graph
    }
}

/// The strongly connected components of more than one node (Tarjan's algorithm).
fn cycles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct State<'g> {
        graph: &'g BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'g str, usize>,
        low: BTreeMap<&'g str, usize>,
        stack: Vec<&'g str>,
        on_stack: BTreeSet<&'g str>,
        out: Vec<Vec<String>>,
    }
    fn visit<'g>(s: &mut State<'g>, v: &'g str) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        s.on_stack.insert(v);
        for w in s.graph.get(v).into_iter().flatten() {
            let w = w.as_str();
            if !s.index.contains_key(w) {
                visit(s, w);
                let low = s.low[v].min(s.low[w]);
                s.low.insert(v, low);
            } else if s.on_stack.contains(w) {
                let low = s.low[v].min(s.index[w]);
                s.low.insert(v, low);
            }
        }
        if s.low[v] == s.index[v] {
            let mut component = Vec::new();
            loop {
                let w = s.stack.pop().expect("v is on the stack");
                s.on_stack.remove(w);
                component.push(w.to_owned());
                if w == v {
                    break;
                }
            }
            if component.len() > 1 {
                component.sort();
                s.out.push(component);
            }
        }
    }
    let mut s = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in graph.keys() {
        if !s.index.contains_key(v.as_str()) {
            visit(&mut s, v);
        }
    }
    s.out.sort();
    s.out
}

/// Pairs of files that import each other, as `a <-> b`.
fn mutual(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<String> {
    let mut out = Vec::new();
    for (a, edges) in graph {
        for b in edges {
            if a < b && graph.get(b).is_some_and(|e| e.contains(a)) {
                out.push(format!("{a} <-> {b}"));
            }
        }
    }
    out
}

/// The layering of `generator/src`, bottom first: a file belongs to the layer of the longest
/// prefix (a file or directory below `src`, without `.rs`) that names it, and imports only
/// from its own layer or one below. `lib.rs` declares and re-exports, and stands apart.
const GENERATOR_LAYERS: &[&[&str]] = &[
    &["error", "text", "user_file"],
    &["catalog", "alphabet", "crc_catalog"],
    &["spec"],
    &["algebra"],
    &["scheme"],
    &["derive"],
    &["charset", "shortest", "key_layout", "vectors"],
    &["request"],
    &["verify"],
    &["json_schema"],
    &["verify/json"],
    &["emit"],
    &["build"],
];

/// The layer of a file in `layers`: the longest prefix that names it.
fn layer_of(layers: &[&[&str]], file: &str) -> Option<usize> {
    let stem = file.strip_suffix(".rs").unwrap_or(file);
    let stem = stem.strip_suffix("/mod").unwrap_or(stem);
    layers
        .iter()
        .enumerate()
        .flat_map(|(n, names)| names.iter().map(move |name| (n, *name)))
        .filter(|(_, name)| stem == *name || stem.starts_with(&format!("{name}/")))
        .max_by_key(|(_, name)| name.len())
        .map(|(n, _)| n)
}

/// The imports of `graph` that run up `layers`, and the files no layer names.
fn upward(graph: &BTreeMap<String, BTreeSet<String>>, layers: &[&[&str]]) -> Vec<String> {
    let mut out = Vec::new();
    for (a, edges) in graph {
        if a == "lib.rs" {
            continue;
        }
        let Some(from) = layer_of(layers, a) else {
            out.push(format!("{a} is in no layer: add it to the layering"));
            continue;
        };
        for b in edges {
            if layer_of(layers, b).is_some_and(|to| to > from) {
                out.push(format!("an upward import: {a} -> {b}"));
            }
        }
    }
    out
}

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Imports a crate keeps against the rules for now, each named with why it stays: edges
/// `from -> to` between files below `src`, left out of the graph before it is checked. An
/// entry that names no import there is refused, so that the list only shrinks.
struct Allowed {
    /// The imports, as `from.rs -> to.rs`.
    edges: &'static [&'static str],
    /// Why they stay, and what would break them.
    why: &'static str,
}

/// Checks one source directory: no two files importing each other, no cycle of files and,
/// given its `layers`, no upward import, once the imports `allowed` are left out (they are
/// printed). Returns the findings.
fn check(src: &str, allowed: &[Allowed], layers: Option<&[&[&str]]>) -> Vec<String> {
    let krate = Crate::read(&workspace().join(src));
    let mut graph = krate.graph();
    let mut refused = Vec::new();
    for entry in allowed {
        println!("{src}: imports allowed for now ({}):", entry.why);
        for edge in entry.edges {
            let (from, to) = edge.split_once(" -> ").expect("an edge `from -> to`");
            if graph.get_mut(from).is_some_and(|e| e.remove(to)) {
                println!("    {edge}");
            } else {
                refused.push(format!(
                    "{src}: the allowed import {edge} is no import: take it off the list"
                ));
            }
        }
    }
    for pair in mutual(&graph) {
        refused.push(format!("{src}: files that import each other: {pair}"));
    }
    for component in cycles(&graph) {
        if component.len() > 2 {
            // its imports, so that the one to cut can be chosen
            let edges: Vec<String> = component
                .iter()
                .flat_map(|from| {
                    graph[from]
                        .iter()
                        .filter(|to| component.contains(to))
                        .map(move |to| format!("{from} -> {to}"))
                })
                .collect();
            refused.push(format!(
                "{src}: an import cycle of files: {} (imports: {})",
                component.join(", "),
                edges.join(", ")
            ));
        }
    }
    if let Some(layers) = layers {
        refused.extend(
            upward(&graph, layers)
                .into_iter()
                .map(|r| format!("{src}: {r}")),
        );
    }
    refused
}

#[test]
fn generator_has_no_import_cycles() {
    let refused = check("generator/src", &[], Some(GENERATOR_LAYERS));
    assert!(refused.is_empty(), "{}", refused.join("\n"));
}

/// The crates that have none keep it so.
#[test]
fn runtime_macro_and_cluster_have_no_import_cycles() {
    let mut refused = Vec::new();
    for src in ["tables/src", "slotgen-macros/src", "cluster/src"] {
        refused.extend(check(src, &[], None));
    }
    assert!(refused.is_empty(), "{}", refused.join("\n"));
}

/// The layering of `lint/src`, bottom first, as [`GENERATOR_LAYERS`]: what every module
/// shares (the bounds, the error, a position), the commands and
/// globals the servers have, the reading of a Lua script (its tree readers, then its passes,
/// then `lua.rs`), the verdicts, the command files, the entry points. `lib.rs` declares and
/// re-exports, and stands apart.
const LINT_LAYERS: &[&[&str]] = &[
    &["bounds", "error", "position"],
    &["key", "globals"],
    &["commands", "commands_table"],
    &["numbers", "numbers_table"],
    &["lua/strings", "lua/kind", "lua/syntax"],
    &["lua/source", "lua/names", "lua/levels"],
    &["lua"],
    &["verdict"],
    &["commands_file"],
    &["files"],
];

#[test]
fn lint_has_no_import_cycles() {
    let refused = check("lint/src", &[], Some(LINT_LAYERS));
    assert!(refused.is_empty(), "{}", refused.join("\n"));
}

/// The layering of `tests/src`, bottom first: the small oracles and TLS files, the servers and
/// the protocol of emitted modules, the harness over them, a toolchain row's shape, the rows
/// and their table, the server-side Lua checks. `lib.rs` stands apart.
const TESTS_LAYERS: &[&[&str]] = &[
    &["bitwise_crc", "shortest_buckets", "shortest_digits", "tls"],
    &["redis_server", "emitted"],
    &["harness", "live", "speakers"],
    &["toolchains/row"],
    &["toolchains"],
    &["server_lua"],
];

#[test]
fn test_support_has_no_import_cycles() {
    let refused = check("tests/src", &[], Some(TESTS_LAYERS));
    assert!(refused.is_empty(), "{}", refused.join("\n"));
}

/// The layering of `generator/cli/src`, bottom first: the exit statuses and the leaf helpers,
/// the output and the connection to a cluster, what several commands share (the spec options
/// among them), the commands, the command line over them (`cli/command.rs`), the help and
/// the refusals over the whole command tree, `cli/mod.rs` (the declarations and the
/// dispatch), `main.rs`.
const CLI_LAYERS: &[&[&str]] = &[
    &["exit", "cli/values", "cli/lint", "cli/text", "cli/unused"],
    &["cli/output", "cli/cluster", "cli/key_input", "cli/report"],
    &[
        "cli/vectors",
        "cli/lookup",
        "cli/remedy",
        "cli/shell",
        "cli/catalog",
        "cli/verify_exec",
        "cli/spec_args",
        "cli/weights",
    ],
    &["cli/map_notes"],
    &[
        "cli/nodes",
        "cli/check",
        "cli/derive_cmd",
        "cli/emit",
        "cli/keys",
        "cli/load",
        "cli/placement",
        "cli/rebalance",
        "cli/shortest",
        "cli/slot",
        "cli/verify",
        "cli/completions/args",
    ],
    &["cli/command"],
    &["cli/help", "cli/refusal", "cli/completions"],
    &["cli"],
    &["main"],
];

/// What the CLI imports against [`CLI_LAYERS`]: nothing (the parts of `slotgen rebalance`
/// took its options from rebalance.rs until they moved to rebalance/args.rs).
const CLI_ALLOWED: &[Allowed] = &[];

#[test]
fn cli_has_no_import_cycles() {
    let refused = check("generator/cli/src", CLI_ALLOWED, Some(CLI_LAYERS));
    assert!(refused.is_empty(), "{}", refused.join("\n"));
}

/// The reader finds what it is for: two pairs and an upward import, each
/// written here by hand, and nothing in comments, strings or a file's own test module; and
/// [`check`] leaves out what it is allowed, and only that.
#[test]
fn the_import_reader_finds_cycles() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let files = [
        ("lib.rs", "mod a; mod low; mod high; pub use low::Shared;\n"),
        ("a/mod.rs", "mod x; mod y; mod z;\n"),
        ("a/x.rs", "use super::y::Y; // crate::high::H\npub struct X;\n"),
        ("a/y.rs", "pub struct Y; fn f() -> super::x::X { todo!() }\n"),
        ("a/z.rs", "use crate::Shared; const S: &str = \"crate::high::H\";\n#[cfg(test)]\nmod tests { use super::*; }\n"),
        ("low.rs", "pub struct Shared; fn g() { let _ = crate::high::helper(); }\n"),
        ("high.rs", "use crate::low::Shared; pub fn helper() {}\n"),
    ];
    for (name, text) in files {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("a directory");
        std::fs::write(path, text).expect("a file");
    }
    let graph = Crate::read(dir.path()).graph();
    let expected: BTreeMap<String, BTreeSet<String>> = [
        ("a/mod.rs", vec![]),
        ("a/x.rs", vec!["a/y.rs"]),
        ("a/y.rs", vec!["a/x.rs"]),
        ("a/z.rs", vec!["low.rs"]),
        ("high.rs", vec!["low.rs"]),
        ("lib.rs", vec![]),
        ("low.rs", vec!["high.rs"]),
    ]
    .into_iter()
    .map(|(f, e)| (f.to_owned(), e.into_iter().map(str::to_owned).collect()))
    .collect();
    assert_eq!(graph, expected);
    assert_eq!(mutual(&graph), ["a/x.rs <-> a/y.rs", "high.rs <-> low.rs"]);
    assert_eq!(
        cycles(&graph),
        [
            vec!["a/x.rs".to_owned(), "a/y.rs".to_owned()],
            vec!["high.rs".to_owned(), "low.rs".to_owned()]
        ]
    );
    let layers: &[&[&str]] = &[&["low"], &["a", "high"]];
    assert_eq!(
        upward(&graph, layers),
        ["an upward import: low.rs -> high.rs"]
    );
    assert_eq!(
        upward(&graph, &[&["a", "high"]]),
        ["low.rs is in no layer: add it to the layering"]
    );
    // an allowed import is left out, the rest is still refused, and an entry that names no
    // import is refused too
    let src = dir.path().to_str().expect("a UTF-8 temporary directory");
    let allowed = [Allowed {
        edges: &["a/y.rs -> a/x.rs", "a/z.rs -> high.rs"],
        why: "a test",
    }];
    let refused = check(src, &allowed, Some(layers));
    assert_eq!(
        refused,
        [
            format!(
                "{src}: the allowed import a/z.rs -> high.rs is no import: take it off the list"
            ),
            format!("{src}: files that import each other: high.rs <-> low.rs"),
            format!("{src}: an upward import: low.rs -> high.rs"),
        ]
    );
}
