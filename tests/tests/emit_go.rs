//! The emitted Go package, built offline by the installed go (Debian's 1.19) and run for
//! every test spec, against the Rust runtime and a real Redis server's answers; it must be
//! `gofmt`-clean and pass `go vet`.

use std::path::Path;
use std::process::Command;

use slotgen::emit;
use slotgen_tests::emitted::{
    self, cases, check_output, expected_lines, fresh_dir, go_command as go, keys, run,
};
use slotgen_tests::require_tool;

/// Prints the driver protocol of [`slotgen_tests::emitted`] for the keys file `os.Args[1]`.
/// A refusal counts only when its error wraps the right sentinel.
const DRIVER: &str = r#"package main

import (
	"bufio"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strings"

	"slotgentest/slotgen"
)

func main() {
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	for s := 0; s < slotgen.Slots; s++ {
		tag, err := slotgen.TagForSlot(s)
		if err != nil {
			panic(err)
		}
		fmt.Fprintf(w, "tag\t%d\t%x\n", s, tag)
	}
	for s := 0; s < slotgen.Slots; s++ {
		tags, err := slotgen.TagsForSlot(s)
		if err != nil {
			panic(err)
		}
		var hexes []string
		tags(func(tag []byte) bool {
			hexes = append(hexes, hex.EncodeToString(tag))
			return true
		})
		fmt.Fprintf(w, "tags\t%d\t%s\n", s, strings.Join(hexes, ","))
	}
	for s := 0; s < slotgen.Slots; s++ {
		key, err := slotgen.KeyForSlot([]byte("user:"), s, []byte(":profile"))
		if err != nil {
			panic(err)
		}
		fmt.Fprintf(w, "key\t%d\t%x\n", s, key)
	}
	data, err := os.ReadFile(os.Args[1])
	if err != nil {
		panic(err)
	}
	for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		key, err := hex.DecodeString(line)
		if err != nil {
			panic(err)
		}
		fmt.Fprintf(w, "slot\t%s\t%d\n", line, slotgen.Slot(key))
	}
	refusal := func(name string, err error, sentinel error) {
		switch {
		case err == nil:
			fmt.Fprintf(w, "accepted\t%s\t\n", name)
		case errors.Is(err, sentinel):
			fmt.Fprintf(w, "refused\t%s\t%s\n", name, err)
		default:
			fmt.Fprintf(w, "accepted\t%s\twrong error: %s\n", name, err)
		}
	}
	_, err = slotgen.TagForSlot(slotgen.Slots)
	refusal("tag_out_of_range", err, slotgen.ErrSlotOutOfRange)
	_, err = slotgen.TagForSlot(-1)
	refusal("tag_negative", err, slotgen.ErrSlotOutOfRange)
	_, err = slotgen.TagsForSlot(slotgen.Slots)
	refusal("tags_out_of_range", err, slotgen.ErrSlotOutOfRange)
	_, err = slotgen.KeyForSlot([]byte("user:"), slotgen.Slots, nil)
	refusal("key_out_of_range", err, slotgen.ErrSlotOutOfRange)
	_, err = slotgen.KeyForSlot([]byte("a{b"), 0, nil)
	refusal("prefix_brace", err, slotgen.ErrPrefixHasBrace)
}
"#;

#[test]
fn go_package_matches_runtime() {
    if !require_tool("go") {
        return;
    }
    let keys = keys();
    for case in cases() {
        let dir = fresh_dir(
            Path::new(env!("CARGO_TARGET_TMPDIR")),
            &format!("go-{}", case.name),
        );
        std::fs::create_dir(dir.join("slotgen")).unwrap();
        let source = emit::go::package(&case.derivation, "slotgen").unwrap();
        std::fs::write(dir.join("slotgen/slotgen.go"), &source).unwrap();
        std::fs::write(dir.join("main.go"), DRIVER).unwrap();
        std::fs::write(dir.join("go.mod"), "module slotgentest\n\ngo 1.19\n").unwrap();
        let keys_path = emitted::write_keys(&dir, &keys);
        let what = format!("Go, spec {}", case.name);
        let unformatted = run(go(&dir).args(["fmt", "./slotgen"]));
        assert_eq!(
            unformatted, "",
            "{what}: the emitted package is not gofmt-clean"
        );
        let _ = run(go(&dir).args(["vet", "./..."]));
        let _ = run(go(&dir).args(["build", "-o", "driver", "."]));
        let output = run(Command::new(dir.join("driver")).arg(&keys_path));
        check_output(
            &what,
            &output,
            &expected_lines(&case.derivation, &keys, &["slot"]),
        );
    }
}
