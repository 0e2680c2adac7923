//! The layout checks of every emitted module (`same_slot` and `shared_hashtag`, in each
//! language's spelling), run for real in Python, Node, Go, C, Java,
//! Ruby, PHP and Elixir for every test spec, against the Rust runtime's
//! `SlotTable::same_slot` and `shared_hashtag`.
//!
//! A driver reads a groups file, one group of keys a line (hex keys joined by `,`; `-` is
//! the group of no keys), and prints for each `<same>\t<shared>`: the slot or `none`, the
//! shared hashtag in hex or `none`.

use std::path::Path;
use std::process::Command;

use slotgen::emit;
use slotgen_tables::shared_hashtag;
use slotgen_tests::emitted::{cases, fresh_dir, run, Case};
use slotgen_tests::require_tool;

/// The groups: the seed layouts, the traps, binary and 4-byte UTF-8 tags, none and one key.
fn groups() -> Vec<Vec<Vec<u8>>> {
    let group = |keys: &[&[u8]]| keys.iter().map(|k| k.to_vec()).collect::<Vec<_>>();
    vec![
        group(&[b"emq:{orders}:pending", b"emq:{orders}:active"]),
        group(&[b"emq:{}:pending", b"emq:{}:active"]),
        group(&[b"emq:{orders}:pending", b"{emq}:version"]),
        group(&[]),
        group(&[b""]),
        group(&[b"k"]),
        group(&[b"{a}1", b"{a}2", b"{a}3"]),
        group(&[b"{}a", b"{}a"]),
        group(&[b"a{b}{c}", b"{b}"]),
        group(&[b"{{a}}", b"{{a}x"]),
        group(&[b"{a", b"{a"]),
        group(&[b"x{", b"x{}"]),
        group(&[b"{a}", b"{b}"]),
        group(&[b"\xff{\x80}", b"{\x80}z"]),
        group(&[
            "user:{\u{1F480}}:profile".as_bytes(),
            "{\u{1F480}}".as_bytes(),
        ]),
    ]
}

fn write_groups(dir: &Path) -> std::path::PathBuf {
    let text: String = groups()
        .iter()
        .map(|g| {
            if g.is_empty() {
                "-\n".to_owned()
            } else {
                g.iter().map(hex::encode).collect::<Vec<_>>().join(",") + "\n"
            }
        })
        .collect();
    let path = dir.join("groups.txt");
    std::fs::write(&path, text).unwrap();
    path
}

/// What the Rust runtime answers for each group.
fn expected(case: &Case) -> String {
    let table = case.derivation.table();
    groups()
        .iter()
        .map(|g| {
            let same = table
                .same_slot(g)
                .map_or("none".to_owned(), |s| s.to_string());
            let shared = shared_hashtag(g).map_or("none".to_owned(), hex::encode);
            format!("{same}\t{shared}\n")
        })
        .collect()
}

fn check(language: &str, case: &Case, output: &str) {
    assert_eq!(output, expected(case), "{language}, spec {}", case.name);
}

#[test]
fn the_runtime_answers_the_seed_layouts() {
    // the expectations themselves, for Redis Cluster: slots a real server gave
    let case = cases().into_iter().find(|c| c.name == "redis").unwrap();
    let lines: Vec<String> = expected(&case).lines().map(str::to_owned).collect();
    assert_eq!(lines[0], format!("105\t{}", hex::encode("orders")));
    assert_eq!(lines[1], "none\tnone");
    assert_eq!(lines[2], "none\tnone");
    assert_eq!(lines[3], "none\tnone");
    assert_eq!(lines[4], "0\tnone");
    assert_eq!(
        lines[9],
        format!(
            "{}\t{}",
            lines[9].split('\t').next().unwrap(),
            hex::encode("{a")
        )
    );
}

const JS: &str = r#"
import { readFileSync } from "node:fs";
import { sameSlot, sharedHashtag } from "./slotgen.mjs";
const hex = (b) => Buffer.from(b).toString("hex");
let out = "";
for (const line of readFileSync(process.argv[2], "latin1").split("\n").slice(0, -1)) {
  const keys = line === "-" ? [] : line.split(",").map((h) => new Uint8Array(Buffer.from(h, "hex")));
  const same = sameSlot(keys.values());
  const shared = sharedHashtag(keys);
  out += `${same === null ? "none" : same}\t${shared === null ? "none" : hex(shared)}\n`;
}
process.stdout.write(out);
"#;

#[test]
fn javascript() {
    if !require_tool("node") {
        return;
    }
    for case in cases() {
        let dir = fresh_dir(
            Path::new(env!("CARGO_TARGET_TMPDIR")),
            &format!("layout-js-{}", case.name),
        );
        std::fs::write(dir.join("slotgen.mjs"), emit::js::module(&case.derivation)).unwrap();
        std::fs::write(dir.join("driver.mjs"), JS).unwrap();
        let groups = write_groups(&dir);
        let output = run(Command::new("node")
            .arg(dir.join("driver.mjs"))
            .arg(&groups));
        check("JavaScript", &case, &output);
    }
}

const GO: &str = r#"package main

import (
	"bufio"
	"encoding/hex"
	"fmt"
	"os"
	"strings"

	"layout/slotgen"
)

func main() {
	file, err := os.Open(os.Args[1])
	if err != nil {
		panic(err)
	}
	in := bufio.NewScanner(file)
	for in.Scan() {
		var keys [][]byte
		if in.Text() != "-" {
			for _, h := range strings.Split(in.Text(), ",") {
				k, err := hex.DecodeString(h)
				if err != nil {
					panic(err)
				}
				keys = append(keys, k)
			}
		}
		same, shared := "none", "none"
		if s, ok := slotgen.SameSlot(keys...); ok {
			same = fmt.Sprint(s)
		}
		if t, ok := slotgen.SharedHashtag(keys...); ok {
			shared = hex.EncodeToString(t)
		}
		fmt.Printf("%s\t%s\n", same, shared)
	}
}
"#;

const C: &str = r#"
#include <stdio.h>
#include "slotgen.h"

static int unhex(char c) {
    return c <= '9' ? c - '0' : c - 'a' + 10;
}

int main(int argc, char **argv) {
    static char line[8192];
    static unsigned char bytes[4096];
    const void *keys[64];
    size_t lens[64], n, at, len, i, j, offset, tag_len;
    long same;
    FILE *groups;
    if (argc != 2 || (groups = fopen(argv[1], "r")) == NULL) {
        return 2;
    }
    {
        /* NULL pointers are refused, not followed; a NULL key of length 0 is the empty key */
        const void *tagged[1] = {"{a}"}, *null_key[1] = {NULL};
        size_t three = 3, zero = 0;
        if (slotgen_same_slot(NULL, &three, 1) != -1 || slotgen_same_slot(tagged, NULL, 1) != -1
            || slotgen_same_slot(null_key, &three, 1) != -1
            || slotgen_same_slot(null_key, &zero, 1) != (long)slotgen_slot("", 0)
            || slotgen_shared_hashtag(NULL, &three, 1, &offset, &tag_len) != 0
            || slotgen_shared_hashtag(null_key, &three, 1, &offset, &tag_len) != 0
            || slotgen_shared_hashtag(tagged, &three, 1, NULL, &tag_len) != 0
            || slotgen_shared_hashtag(tagged, &three, 1, &offset, NULL) != 0
            || slotgen_shared_hashtag(tagged, &three, 1, &offset, &tag_len) != 1) {
            fprintf(stderr, "a NULL pointer was not refused\n");
            return 3;
        }
    }
    while (fgets(line, sizeof line, groups) != NULL) {
        n = 0;
        at = 0;
        len = strlen(line);
        if (len > 0 && line[len - 1] == '\n') {
            line[--len] = '\0';
        }
        if (strcmp(line, "-") != 0) {
            i = 0;
            for (;;) {
                keys[n] = bytes + at;
                lens[n] = 0;
                while (line[i] != ',' && line[i] != '\0') {
                    bytes[at++] = (unsigned char)(unhex(line[i]) * 16 + unhex(line[i + 1]));
                    lens[n]++;
                    i += 2;
                }
                n++;
                if (line[i] == '\0') {
                    break;
                }
                i++;
            }
        }
        same = slotgen_same_slot(keys, lens, n);
        if (same < 0) {
            printf("none\t");
        } else {
            printf("%ld\t", same);
        }
        if (slotgen_shared_hashtag(keys, lens, n, &offset, &tag_len)) {
            for (j = 0; j < tag_len; j++) {
                printf("%02x", ((const unsigned char *)keys[0])[offset + j]);
            }
            putchar('\n');
        } else {
            printf("none\n");
        }
    }
    return 0;
}
"#;
