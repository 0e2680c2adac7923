//! Every console example of the pages a user reads, README.md, every `docs/*.md` and the
//! CLI crate's README (its registry page), run as written and its output compared.
//!
//! The rules (CONTRIBUTING.md, "How the docs are tested", says the same to a writer):
//!
//! - A ` ```console ` block holds `$ COMMAND` lines, each followed by its output: standard
//!   output and standard error as one stream, as a terminal shows them. A command ending in
//!   `\` continues on the next line.
//! - Each block runs in a fresh temporary directory holding a copy of the lint corpus
//!   (`tests/data/lint`), one command after the other (a file one writes, the next reads),
//!   each by `bash -c` with the `slotgen` under test first on `PATH`, nothing on standard
//!   input, and at most [`DEADLINE`] seconds.
//! - A line `...` in the output stands for any number of lines, none included; every other
//!   line is compared exactly, blank lines at the end of an output aside (they separate
//!   examples).
//! - `$ cat FILE` shows a file that the next commands read: the test writes the lines under
//!   it into FILE (a file of the corpus is compared instead).
//! - A command whose first program is another than `slotgen` (`python3`, `printf`) runs
//!   where that program is installed, else it is skipped (a failure under
//!   `SLOTGEN_REQUIRE_TOOLS=1`).
//! - The pages' cluster is `redis://127.0.0.1:7101`: three primaries at 127.0.0.1:7101,
//!   7102 and 7103 holding slots 0-5460, 5461-10922 and 10923-16383, no keys. A block that
//!   names it runs against such a cluster of `redis-server` that the test starts
//!   ([`RedisCluster`]), with the real nodes' addresses in place of the page's, and each
//!   node id of the page (40 hex digits) in place of the id of its row's node.
//! - Another command that names `--redis` needs a cluster in a state of its own and is not
//!   run; [`NOT_RUN`] states how many there are, so that one more is a decision. A block
//!   with no `$` line is output shown alone.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use slotgen_tests::redis_server::RedisCluster;
use slotgen_tests::{require_tool, workspace_root};

use crate::cluster_live::slotgen_bin;

/// Seconds a command may take before `timeout` stops it.
const DEADLINE: &str = "120";

/// The console commands of the pages that need a cluster in a state of its own, not run
/// here; the cluster tests run their like (docs/cluster.md 1, docs/operations.md 11 today:
/// the drain's in cluster_drain.rs, the plan file's in cluster_plan.rs).
const NOT_RUN: usize = 12;

/// The pages' cluster: its URL, and its primaries' addresses in slot order.
const PAGE_URL: &str = "redis://127.0.0.1:7101";
const PAGE_NODES: [&str; 3] = ["127.0.0.1:7101", "127.0.0.1:7102", "127.0.0.1:7103"];

/// One `$` line of a page and the output written under it.
#[derive(Debug)]
struct Example {
    page: String,
    line: usize,
    command: String,
    output: Vec<String>,
}

/// The pages: README.md, then `docs/*.md` in name order, then this crate's README.
fn pages(root: &Path) -> Vec<PathBuf> {
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("docs/")
        .map(|entry| entry.expect("an entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    docs.insert(0, root.join("README.md"));
    docs.push(root.join("generator/cli/README.md"));
    docs
}

/// The console blocks of `text`, each as its examples.
fn blocks(page: &str, text: &str) -> Vec<Vec<Example>> {
    let mut blocks = Vec::new();
    let mut lines = text.lines().enumerate().peekable();
    while let Some((_, line)) = lines.next() {
        if line.trim_start() != "```console" {
            continue;
        }
        let mut block: Vec<Example> = Vec::new();
        for (number, line) in lines.by_ref() {
            if line.trim_start().starts_with("```") {
                break;
            }
            match (line.strip_prefix("$ "), block.last_mut()) {
                (Some(command), _) => block.push(Example {
                    page: page.to_owned(),
                    line: number + 1,
                    command: command.to_owned(),
                    output: Vec::new(),
                }),
                (None, Some(example)) if example.command.ends_with('\\') => {
                    example.command.push('\n');
                    example.command.push_str(line);
                }
                (None, Some(example)) => example.output.push(line.to_owned()),
                (None, None) => {} // output shown alone
            }
        }
        for example in &mut block {
            while example.output.last().is_some_and(String::is_empty) {
                example.output.pop();
            }
        }
        if !block.is_empty() {
            blocks.push(block);
        }
    }
    blocks
}

/// Whether `got` is `expected`, a `...` line standing for any lines.
fn matches(expected: &[String], got: &[&str]) -> bool {
    match expected.split_first() {
        None => got.is_empty(),
        Some((first, rest)) if first == "..." => {
            (0..=got.len()).any(|at| matches(rest, &got[at..]))
        }
        Some((first, rest)) => got.first() == Some(&first.as_str()) && matches(rest, &got[1..]),
    }
}

/// The page's words for the cluster, each with the started cluster's: addresses, then the
/// node id on a row of each address.
fn cluster_words(block: &[Example], cluster: &RedisCluster) -> Vec<(String, String)> {
    let mut words: BTreeMap<String, String> = BTreeMap::new();
    for (page, node) in PAGE_NODES.iter().zip(&cluster.nodes) {
        let addr = format!("127.0.0.1:{}", node.port);
        let id: String = redis::cmd("CLUSTER")
            .arg("MYID")
            .query(&mut node.connect())
            .expect("CLUSTER MYID");
        for line in block.iter().flat_map(|e| &e.output) {
            if line.contains(page) {
                for word in line.split('\t') {
                    if word.len() == 40 && word.bytes().all(|b| b.is_ascii_hexdigit()) {
                        words.insert(word.to_owned(), id.clone());
                    }
                }
            }
        }
        words.insert((*page).to_owned(), addr);
    }
    words.into_iter().collect()
}

/// `text` with each of the page's words for the cluster replaced by the started one's.
fn in_cluster(text: &str, words: &[(String, String)]) -> String {
    words.iter().fold(text.to_owned(), |text, (page, real)| {
        text.replace(page, real)
    })
}

#[test]
fn every_console_example_of_the_docs_is_real_output() {
    if !(require_tool("bash") && require_tool("timeout")) {
        return;
    }
    let root = workspace_root();
    let path = format!(
        "{}:{}",
        slotgen_bin()
            .parent()
            .expect("the binary's directory")
            .display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut cluster = None;
    let (mut ran, mut not_run, mut failures) = (0, Vec::new(), Vec::new());
    for page in pages(&root) {
        let name = page
            .strip_prefix(&root)
            .expect("inside")
            .display()
            .to_string();
        let text = std::fs::read_to_string(&page).expect("a page");
        for block in blocks(&name, &text) {
            let dir = tempfile::tempdir().expect("a temporary directory");
            for entry in std::fs::read_dir(root.join("tests/data/lint")).expect("the corpus") {
                let file = entry.expect("an entry").path();
                // the scripts (the pages run none that includes a file)
                if !file.is_file() {
                    continue;
                }
                let to = dir.path().join(file.file_name().expect("a name"));
                std::fs::copy(&file, to).expect("copied");
            }
            let on_cluster = block.iter().any(|e| e.command.contains(PAGE_URL));
            if on_cluster && cluster.is_none() {
                if !require_tool("redis-server") {
                    continue; // skipped, and said so
                }
                cluster = Some(RedisCluster::start().expect("a cluster of three primaries"));
            }
            let words = match (&cluster, on_cluster) {
                (Some(cluster), true) => cluster_words(&block, cluster),
                _ => Vec::new(),
            };
            for example in block {
                if example.command.contains("--redis") && !example.command.contains(PAGE_URL) {
                    not_run.push(format!("{}:{}", example.page, example.line));
                    continue;
                }
                let file = example.command.strip_prefix("cat ");
                if let Some(file) = file.filter(|f| !dir.path().join(f).exists()) {
                    let text = example.output.join("\n") + "\n";
                    std::fs::write(dir.path().join(file), text).expect("written");
                    continue;
                }
                let program = example.command.trim_start_matches('(');
                let program = program.split_whitespace().next().unwrap_or_default();
                if program != "slotgen" && !require_tool(program) {
                    continue;
                }
                let out = Command::new("timeout")
                    .args([DEADLINE, "bash", "-c"])
                    .arg(format!(
                        "exec 2>&1\n{}",
                        in_cluster(&example.command, &words)
                    ))
                    .env("PATH", &path)
                    .current_dir(dir.path())
                    .stdin(Stdio::null())
                    .output()
                    .expect("bash runs");
                let got = String::from_utf8_lossy(&out.stdout);
                let mut got: Vec<&str> = got.lines().collect();
                while got.last() == Some(&"") {
                    got.pop();
                }
                let expected: Vec<String> = example
                    .output
                    .iter()
                    .map(|l| in_cluster(l, &words))
                    .collect();
                if !matches(&expected, &got) {
                    failures.push(format!(
                        "{}:{}: $ {}\n--- the page says\n{}\n--- it printed\n{}",
                        example.page,
                        example.line,
                        example.command,
                        expected.join("\n"),
                        got.join("\n")
                    ));
                }
                ran += 1;
            }
        }
    }
    eprintln!("{ran} examples ran, {} not run", not_run.len());
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert_eq!(not_run.len(), NOT_RUN, "not run: {not_run:?}");
    assert!(ran >= 40, "{ran} examples ran");
}

#[test]
fn a_dotted_line_stands_for_any_lines_and_nothing_else_does() {
    let expected = |lines: &[&str]| lines.iter().map(|l| (*l).to_owned()).collect::<Vec<_>>();
    assert!(matches(
        &expected(&["a", "...", "d"]),
        &["a", "b", "c", "d"]
    ));
    assert!(matches(&expected(&["a", "...", "d"]), &["a", "d"]));
    assert!(matches(&expected(&["..."]), &[]));
    assert!(!matches(&expected(&["a", "...", "d"]), &["a", "b", "c"]));
    assert!(!matches(&expected(&["a", "b"]), &["a", "b", "c"]));
    assert!(!matches(&expected(&["a", "b"]), &["a", "c"]));
}

#[test]
fn a_block_is_read_into_its_commands_and_outputs() {
    let text =
        "x\n```console\n$ slotgen a \\\n  --b\none\n$ slotgen c\n```\n```console\nnote\n```\n";
    let got = blocks("p.md", text);
    assert_eq!(got.len(), 1);
    assert_eq!(got[0][0].command, "slotgen a \\\n  --b");
    assert_eq!(got[0][0].output, ["one"]);
    assert_eq!((got[0][1].line, got[0][1].output.len()), (6, 0));
}

/// Every link of the pages to a file names one in the repository: nothing a user reads
/// depends on a file outside it, and a page that moves takes its links along.
#[test]
fn every_link_of_the_docs_names_a_file_of_the_repository() {
    let root = workspace_root().canonicalize().expect("the workspace");
    let mut broken = Vec::new();
    let mut checked = 0;
    for page in pages(&root) {
        let text = std::fs::read_to_string(&page).expect("a page");
        // the prose of each line: a code span (`redis['call'](...)`) holds no link
        let prose: String = text
            .lines()
            .map(|l| l.split('`').step_by(2).collect::<Vec<_>>().join(" "))
            .collect::<Vec<_>>()
            .join("\n");
        for link in prose.split("](").skip(1) {
            let target = link.split(')').next().unwrap_or_default();
            let file = target.split('#').next().unwrap_or_default();
            if file.is_empty() || file.contains("://") {
                continue;
            }
            let path = page.parent().expect("a folder").join(file);
            let inside = path.canonicalize().is_ok_and(|p| p.starts_with(&root));
            if !inside {
                broken.push(format!("{}: {target}", page.display()));
            }
            checked += 1;
        }
    }
    assert!(broken.is_empty(), "{broken:#?}");
    assert!(checked >= 30, "{checked} links");
}

/// No page names a file by a path of the machines slotgen is written on (a helper's binary
/// under `/work/`, a home folder): a user's clone has none of them.
#[test]
fn no_page_names_a_path_outside_the_repository() {
    let root = workspace_root().canonicalize().expect("the workspace");
    let mut found = Vec::new();
    for page in pages(&root) {
        let text = std::fs::read_to_string(&page).expect("a page");
        for (number, line) in text.lines().enumerate() {
            if ["/work/", "/root/", "/home/"]
                .iter()
                .any(|p| line.contains(p))
            {
                found.push(format!("{}:{}: {line}", page.display(), number + 1));
            }
        }
    }
    assert!(found.is_empty(), "{found:#?}");
}

/// The rights docs/cluster.md lists for each command, one `ACL SETUSER` a run, and those
/// docs/operations.md lists for each end of a move, are those of `slotgen_cluster::rights`,
/// which the refusals quote (a whole command's, `slotgen_cluster::grant::Run`).
#[test]
fn the_docs_list_the_rights_each_command_sends() {
    use slotgen_cluster::grant::Run;
    use slotgen_cluster::rights::{rules, MOVE_SOURCE, MOVE_TARGET};
    use slotgen_cluster::{Dialect, Metric};
    let read = |page: &str| std::fs::read_to_string(workspace_root().join(page)).unwrap();
    // the page's lines joined, as a long grant is written across none
    let cluster = read("docs/cluster.md");
    for run in [
        Run::Map,
        Run::Verify,
        Run::Plan(Metric::Keys),
        Run::Apply(Metric::Keys, Dialect::Classic, false),
        Run::Apply(Metric::Keys, Dialect::Classic, true),
        Run::Apply(Metric::Keys, Dialect::Migrateslots, true),
    ] {
        let grant = format!("`{}`", run.grant("app"));
        assert!(
            cluster.contains(&grant),
            "docs/cluster.md lacks {grant} ({run:?})"
        );
    }
    // what another metric adds to the keys' plan
    let keys = Run::Plan(Metric::Keys).rules();
    for (metric, named) in [
        (Metric::Memory, "(`--by memory`)"),
        (Metric::Cpu, "(the CPU"),
    ] {
        for rule in Run::Plan(metric).rules() {
            if !keys.contains(&rule) {
                assert!(
                    cluster.contains(&format!("`{rule}`")),
                    "docs/cluster.md lacks `{rule}` for {metric:?}"
                );
            }
        }
        assert!(cluster.contains(named), "{named}");
    }
    let operations = read("docs/operations.md").replace("\n  ", " ");
    for (end, list) in [("source", &MOVE_SOURCE[..]), ("target", &MOVE_TARGET[..])] {
        let said = format!("on the {end} `{}`", rules(list).join(" "));
        assert!(
            operations.contains(&said),
            "docs/operations.md lacks {said}"
        );
    }
}

/// docs/rust.md never said which crates and features go in `Cargo.toml` (its first example
/// fails without `slotgen-tables`' `alloc`): each crate its Rust examples `use` is in one of
/// its `toml` blocks, `slotgen-tables` with `alloc` where an example calls `key_for_slot`,
/// and each path dependency names the folder of this repository whose `Cargo.toml` is
/// that crate.
#[test]
fn the_rust_page_names_the_crates_and_features_its_examples_need() {
    let root = slotgen_tests::workspace_root();
    let page = std::fs::read_to_string(root.join("docs/rust.md")).unwrap();
    let fenced = |lang: &str| -> Vec<String> {
        page.split(&format!("```{lang}\n"))
            .skip(1)
            .filter_map(|b| b.split("```").next())
            .map(str::to_owned)
            .collect()
    };
    let rust = fenced("rust").concat();
    let toml = fenced("toml").concat();
    // `slotgen_tables::` -> `slotgen-tables`, as Cargo names the crate
    for (module, krate) in [
        ("slotgen_tables::", "slotgen-tables"),
        ("slotgen_macros::", "slotgen-macros"),
        ("slotgen::", "slotgen"),
    ] {
        if rust.contains(module) {
            assert!(
                toml.lines().any(|l| l.starts_with(&format!("{krate} = "))),
                "docs/rust.md uses `{module}` but no toml block depends on `{krate}`"
            );
        }
    }
    if rust.contains(".key_for_slot(") {
        let tables: Vec<&str> = toml
            .lines()
            .filter(|l| l.starts_with("slotgen-tables = "))
            .collect();
        assert!(
            !tables.is_empty() && tables.iter().all(|l| l.contains("features = [\"alloc\"]")),
            "docs/rust.md calls key_for_slot but does not give slotgen-tables `alloc`: {tables:?}"
        );
    }
    let mut paths = 0;
    for line in toml.lines().filter(|l| l.contains("path = \"../slotgen/")) {
        let krate = line.split(" = ").next().unwrap();
        let folder = line
            .split("path = \"../slotgen/")
            .nth(1)
            .and_then(|rest| rest.split('"').next())
            .unwrap();
        let manifest = std::fs::read_to_string(root.join(folder).join("Cargo.toml"))
            .unwrap_or_else(|e| panic!("docs/rust.md: `{folder}` has no Cargo.toml: {e}"));
        assert!(
            manifest.contains(&format!("name = \"{krate}\"")),
            "docs/rust.md: `{folder}/Cargo.toml` is not the crate `{krate}`"
        );
        paths += 1;
    }
    assert!(paths >= 3, "docs/rust.md: the path dependencies of a clone");
}
