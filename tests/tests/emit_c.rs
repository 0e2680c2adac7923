//! The emitted C header, compiled by gcc under `-std=c99 -Wall -Wextra -Werror -pedantic
//! -fsanitize=address,undefined` and run for every test spec, against the Rust runtime and
//! a real Redis server's answers.

use std::path::Path;
use std::process::Command;

use slotgen::emit;
use slotgen_tests::emitted::{self, cases, check_output, expected_lines, fresh_dir, keys, run};
use slotgen_tests::require_tool;

/// Prints the driver protocol of [`slotgen_tests::emitted`] for the keys file `argv[1]`,
/// then two refusals only C has: `buffer_small` and `tag_index`.
const DRIVER: &str = r#"
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include "slotgen.h"

static void print_hex(const unsigned char *bytes, size_t len) {
    size_t i;
    for (i = 0; i < len; i++) {
        printf("%02x", bytes[i]);
    }
}

static int unhex(char c) {
    return c <= '9' ? c - '0' : c - 'a' + 10;
}

static void refusal(const char *name, int status) {
    if (status != SLOTGEN_OK) {
        printf("refused\t%s\t%s\n", name, slotgen_strerror(status));
    } else {
        printf("accepted\t%s\t\n", name);
    }
}

int main(int argc, char **argv) {
    static char line[8192];
    static unsigned char key[4096];
    unsigned char tag[SLOTGEN_TAG_LEN];
    unsigned long s;
    unsigned long long i;
    size_t len, j;
    FILE *keys;
    if (argc != 2 || (keys = fopen(argv[1], "r")) == NULL) {
        return 2;
    }
    for (s = 0; s < SLOTGEN_SLOTS; s++) {
        if (slotgen_tag_for_slot(s, tag) != SLOTGEN_OK) {
            return 1;
        }
        printf("tag\t%lu\t", s);
        print_hex(tag, SLOTGEN_TAG_LEN);
        putchar('\n');
    }
    for (s = 0; s < SLOTGEN_SLOTS; s++) {
        printf("tags\t%lu\t", s);
        for (i = 0; i < SLOTGEN_TAGS_PER_SLOT; i++) {
            if (slotgen_tags_for_slot(s, i, tag) != SLOTGEN_OK) {
                return 1;
            }
            if (i != 0) {
                putchar(',');
            }
            print_hex(tag, SLOTGEN_TAG_LEN);
        }
        putchar('\n');
    }
    for (s = 0; s < SLOTGEN_SLOTS; s++) {
        if (slotgen_key_for_slot("user:", 5, s, ":profile", 8, key, sizeof key, &len) != SLOTGEN_OK) {
            return 1;
        }
        printf("key\t%lu\t", s);
        print_hex(key, len);
        putchar('\n');
    }
    while (fgets(line, sizeof line, keys) != NULL) {
        line[strcspn(line, "\n")] = '\0';
        len = strlen(line) / 2;
        for (j = 0; j < len; j++) {
            key[j] = (unsigned char)(unhex(line[2 * j]) * 16 + unhex(line[2 * j + 1]));
        }
        printf("slot\t%s\t%u\n", line, slotgen_slot(key, len));
    }
    refusal("tag_out_of_range", slotgen_tag_for_slot(SLOTGEN_SLOTS, tag));
    refusal("tag_negative", slotgen_tag_for_slot(ULONG_MAX, tag));
    refusal("tags_out_of_range", slotgen_tags_for_slot(SLOTGEN_SLOTS, 0, tag));
    refusal("key_out_of_range",
            slotgen_key_for_slot("user:", 5, SLOTGEN_SLOTS, "", 0, key, sizeof key, &len));
    refusal("prefix_brace", slotgen_key_for_slot("a{b", 3, 0, "", 0, key, sizeof key, &len));
    refusal("buffer_small",
            slotgen_key_for_slot("user:", 5, 0, "", 0, key, 5 + SLOTGEN_TAG_LEN + 1, &len));
    refusal("tag_index", slotgen_tags_for_slot(0, SLOTGEN_TAGS_PER_SLOT, tag));
    refusal("null_out", slotgen_key_for_slot("user:", 5, 0, "", 0, NULL, sizeof key, &len));
    refusal("null_len", slotgen_key_for_slot("user:", 5, 0, "", 0, key, sizeof key, NULL));
    refusal("null_suffix", slotgen_key_for_slot("user:", 5, 0, NULL, 3, key, sizeof key, &len));
    refusal("null_tag", slotgen_tag_for_slot(0, NULL));
    refusal("null_tags", slotgen_tags_for_slot(0, 0, NULL));
    refusal("key_too_long", slotgen_key_for_slot("user:", 5, 0, ":", SIZE_MAX, key, sizeof key, &len));
    refusal("key_too_long_prefix",
            slotgen_key_for_slot("user:", SIZE_MAX - 3, 0, ":", 1, key, sizeof key, &len));
    return 0;
}
"#;

#[test]
fn c_header_matches_runtime() {
    if !require_tool("gcc") {
        return;
    }
    let keys = keys();
    for case in cases() {
        let dir = fresh_dir(
            Path::new(env!("CARGO_TARGET_TMPDIR")),
            &format!("c-{}", case.name),
        );
        std::fs::write(dir.join("slotgen.h"), emit::c::header(&case.derivation)).unwrap();
        std::fs::write(dir.join("driver.c"), DRIVER).unwrap();
        let keys_path = emitted::write_keys(&dir, &keys);
        let _ = run(emitted::gcc_strict()
            .arg("-o")
            .arg(dir.join("driver"))
            .arg(dir.join("driver.c")));
        let output = run(Command::new(dir.join("driver")).arg(&keys_path));
        let what = format!("C, spec {}", case.name);
        check_output(
            &what,
            &output,
            &expected_lines(&case.derivation, &keys, &["slot"]),
        );
        for (name, fragment) in [
            ("buffer_small", "pass a buffer"),
            ("tag_index", "tag index"),
            ("null_out", "is NULL"),
            ("null_len", "is NULL"),
            ("null_suffix", "is NULL"),
            ("null_tag", "is NULL"),
            ("null_tags", "is NULL"),
            ("key_too_long", "longer than SIZE_MAX"),
            ("key_too_long_prefix", "longer than SIZE_MAX"),
        ] {
            let line = format!("refused\t{name}\t");
            assert!(
                output
                    .lines()
                    .any(|l| l.starts_with(&line) && l.contains(fragment)),
                "{what}: `{name}` must be refused with `{fragment}`"
            );
        }
    }
}
