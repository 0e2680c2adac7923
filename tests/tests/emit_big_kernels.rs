//! Big kernels: with 16-symbol tags of the Redis Cluster alphabet each slot has 2^50 tags.
//! Every module's `tags_for_slot` is lazy: it gives the first tags at once (each program
//! runs under `timeout 60`), they are the Rust runtime's, and the module's count is exact.
//! The Go package also builds for a 32-bit target (`GOARCH=386`).

use std::path::Path;
use std::process::Command;

use slotgen::{derive, emit, Derivation, Spec};
use slotgen_tests::emitted::{fresh_dir, run};
use slotgen_tests::require_tool;

fn big() -> Derivation {
    derive(&Spec {
        tag_len: Some(16),
        ..Spec::default()
    })
    .expect("16-symbol tags derive")
}

/// `<count> <tag>,<tag>,<tag>`: the count and the first three tags of slot 0, from the Rust
/// runtime.
fn expected(derivation: &Derivation) -> String {
    let table = derivation.table();
    let tags: Vec<String> = table
        .tags_for_slot(0)
        .unwrap()
        .take(3)
        .map(hex::encode)
        .collect();
    format!("{} {}", table.tags_per_slot(), tags.join(","))
}

/// Writes `file` into a fresh directory and runs `script` there under `timeout 60`; its
/// last line must be [`expected`].
fn check(language: &str, tools: &[&str], file: &str, source: String, script: &str) {
    if !require_tool("timeout") || !tools.iter().all(|tool| require_tool(tool)) {
        return;
    }
    let derivation = big();
    let dir = fresh_dir(
        Path::new(env!("CARGO_TARGET_TMPDIR")),
        &format!("big-{language}"),
    );
    std::fs::write(dir.join(file), source).unwrap();
    let output = run(Command::new("timeout")
        .args(["60", "sh", "-c", script])
        .current_dir(&dir));
    assert_eq!(
        output.lines().last().unwrap_or(""),
        expected(&derivation),
        "{language}"
    );
}

#[test]
fn lua() {
    for lua in ["lua5.4", "luajit", "lua5.1"] {
        check(
            lua,
            &[lua],
            "slotgen.lua",
            emit::lua::module(&big()),
            &format!("{lua} -e 'local m = dofile(\"slotgen.lua\"); local it = m.tags_for_slot(0); local t = {{}}; for i = 1, 3 do t[i] = it():gsub(\".\", function(c) return string.format(\"%02x\", c:byte()) end) end; print(string.format(\"%.0f\", m.tags_per_slot) .. \" \" .. table.concat(t, \",\"))'"),
        );
    }
}

const GO_MAIN: &str = r#"package main

import (
	"encoding/hex"
	"fmt"
	"strings"

	"big/slotgen"
)

func main() {
	tags, err := slotgen.TagsForSlot(0)
	if err != nil {
		panic(err)
	}
	var first []string
	tags(func(tag []byte) bool {
		first = append(first, hex.EncodeToString(tag))
		return len(first) < 3
	})
	fmt.Println(slotgen.TagsPerSlot, strings.Join(first, ","))
}
"#;

#[test]
fn go() {
    let script = format!(
        "mkdir -p slotgen && mv slotgen.go slotgen/ && printf 'module big\\n\\ngo 1.19\\n' > go.mod \
         && cat > main.go <<'EOF'\n{GO_MAIN}EOF\n\
         export GOPATH=$PWD/gopath GOCACHE=$PWD/gocache GOFLAGS=-mod=mod GOPROXY=off CGO_ENABLED=0 \
         && GOARCH=386 go vet ./... && GOARCH=386 go build -o big386 . && go run ."
    );
    check(
        "go",
        &["go"],
        "slotgen.go",
        emit::go::package(&big(), "slotgen").unwrap(),
        &script,
    );
}

const JAVA_MAIN: &str = r#"
import java.util.stream.Collectors;
public final class Main {
    public static void main(String[] args) {
        String tags = Slotgen.tagsForSlot(0).limit(3).map(t -> {
            StringBuilder s = new StringBuilder();
            for (byte b : t) s.append(String.format("%02x", b & 0xff));
            return s.toString();
        }).collect(Collectors.joining(","));
        System.out.println(Slotgen.TAGS_PER_SLOT + " " + tags);
    }
}
"#;

#[test]
fn java() {
    check(
        "java",
        &["javac", "java"],
        "Slotgen.java",
        emit::java::class(&big(), "Slotgen").unwrap(),
        &format!("cat > Main.java <<'EOF'\n{JAVA_MAIN}EOF\njavac --release 11 -Xlint:all -Werror -d classes Slotgen.java Main.java && java -cp classes Main"),
    );
}

#[test]
fn ruby() {
    check(
        "ruby",
        &["ruby"],
        "slotgen.rb",
        emit::ruby::module(&big(), "Slotgen").unwrap(),
        "ruby -w -e 'require \"./slotgen\"; e = Slotgen.tags_for_slot(0); raise \"size\" unless e.size == Slotgen::TAGS_PER_SLOT; puts \"#{Slotgen::TAGS_PER_SLOT} #{e.first(3).map { |t| t.unpack1(\"H*\") }.join(\",\")}\"'",
    );
}

#[test]
fn php() {
    check(
        "php",
        &["php"],
        "slotgen.php",
        emit::php::class(&big(), "Slotgen").unwrap(),
        "php -r 'require \"slotgen.php\"; $t = []; foreach (Slotgen::tagsForSlot(0) as $tag) { $t[] = bin2hex($tag); if (count($t) === 3) break; } echo Slotgen::TAGS_PER_SLOT, \" \", implode(\",\", $t), \"\\n\";'",
    );
}

#[test]
fn elixir() {
    check(
        "elixir",
        &["elixirc", "elixir"],
        "slotgen.ex",
        emit::elixir::module(&big(), "Slotgen").unwrap(),
        "elixirc --warnings-as-errors -o ebin slotgen.ex && elixir -pa ebin -e 'IO.puts(\"#{Slotgen.tags_per_slot()} #{Slotgen.tags_for_slot!(0) |> Enum.take(3) |> Enum.map(&Base.encode16(&1, case: :lower)) |> Enum.join(\",\")}\")'",
    );
}
