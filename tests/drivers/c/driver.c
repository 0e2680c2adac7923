/* The harness's driver for the C header (the protocol: tests/src/harness.rs), compiled with
 * the header's directory on the include path. After the protocol's refusals it prints those
 * only C has (`buffer_small`, `tag_index`, the `null_*` and `key_too_long*` cases), and it
 * fails (exit 3) when a NULL pointer given to slotgen_hashtag, slotgen_same_slot or
 * slotgen_shared_hashtag is followed instead of refused.
 *
 * Usage: driver KEYS GROUPS FEW DEEP PREFIX SUFFIX BAD_PREFIX BAD_SUFFIX */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slotgen.h"

#define MAX_LINE 65536
#define MAX_GROUP 64

static void print_hex(const unsigned char *bytes, size_t len) {
    size_t i;
    for (i = 0; i < len; i++) {
        printf("%02x", bytes[i]);
    }
}

static int nibble(char c) {
    return c <= '9' ? c - '0' : c - 'a' + 10;
}

/* Decodes the hex of text[0..len] into out; returns the byte count. */
static size_t unhex(const char *text, size_t len, unsigned char *out) {
    size_t i;
    for (i = 0; i < len / 2; i++) {
        out[i] = (unsigned char)(nibble(text[2 * i]) * 16 + nibble(text[2 * i + 1]));
    }
    return len / 2;
}

/* Reads one line without its newline into line; returns 0 at the end of the file. */
static int read_line(FILE *file, char *line) {
    if (fgets(line, MAX_LINE, file) == NULL) {
        return 0;
    }
    line[strcspn(line, "\n")] = '\0';
    return 1;
}

static void refusal(const char *name, int status) {
    if (status != SLOTGEN_OK) {
        printf("refused\t%s\t%s\n", name, slotgen_strerror(status));
    } else {
        printf("accepted\t%s\t\n", name);
    }
}

/* Prints the first n tags of slot s, joined by `,`. */
static void print_tags(unsigned long s, unsigned long long n) {
    unsigned char tag[SLOTGEN_TAG_LEN];
    unsigned long long i;
    for (i = 0; i < n && slotgen_tags_for_slot(s, i, tag) == SLOTGEN_OK; i++) {
        if (i != 0) {
            putchar(',');
        }
        print_hex(tag, SLOTGEN_TAG_LEN);
    }
}

/* Whether every NULL pointer is refused, not followed; a NULL key of length 0 is the
 * empty key. */
static int null_pointers_refused(void) {
    const void *tagged[1] = {"{a}"}, *null_key[1] = {NULL};
    size_t three = 3, zero = 0, offset, tag_len;
    return slotgen_same_slot(NULL, &three, 1) == -1 && slotgen_same_slot(tagged, NULL, 1) == -1
        && slotgen_same_slot(null_key, &three, 1) == -1
        && slotgen_same_slot(null_key, &zero, 1) == (long long)slotgen_slot("", 0)
        && slotgen_shared_hashtag(NULL, &three, 1, &offset, &tag_len) == 0
        && slotgen_shared_hashtag(null_key, &three, 1, &offset, &tag_len) == 0
        && slotgen_shared_hashtag(tagged, &three, 1, NULL, &tag_len) == 0
        && slotgen_shared_hashtag(tagged, &three, 1, &offset, NULL) == 0
        && slotgen_hashtag(NULL, 3, &tag_len) == NULL
        && slotgen_hashtag("{a}", 3, NULL) == NULL;
}

int main(int argc, char **argv) {
    static char line[MAX_LINE];
    static unsigned char key[MAX_LINE], group[MAX_LINE];
    const void *keys[MAX_GROUP];
    size_t lens[MAX_GROUP];
    unsigned char tag[SLOTGEN_TAG_LEN];
    unsigned char prefix[64], suffix[64], bad_prefix[64], bad_suffix[64];
    size_t prefix_len, suffix_len, bad_prefix_len, bad_suffix_len, len, n, at, count, i;
    unsigned long long few, deep;
    unsigned long s, ends[2];
    const unsigned char *hashed;
    long long same;
    FILE *file;
    if (argc != 9) {
        return 2;
    }
    few = strtoull(argv[3], NULL, 10);
    deep = strtoull(argv[4], NULL, 10);
    prefix_len = unhex(argv[5], strlen(argv[5]), prefix);
    suffix_len = unhex(argv[6], strlen(argv[6]), suffix);
    bad_prefix_len = unhex(argv[7], strlen(argv[7]), bad_prefix);
    bad_suffix_len = unhex(argv[8], strlen(argv[8]), bad_suffix);
    if (!null_pointers_refused()) {
        fprintf(stderr, "a NULL pointer was not refused\n");
        return 3;
    }

    printf("const\t%lu\t%lu\t%lu\t%u\n", SLOTGEN_FIRST_SLOT, SLOTGEN_LAST_SLOT, SLOTGEN_SLOTS,
           SLOTGEN_TAG_LEN);
    for (s = SLOTGEN_FIRST_SLOT; s <= SLOTGEN_LAST_SLOT; s++) {
        if (slotgen_tag_for_slot(s, tag) != SLOTGEN_OK) {
            return 1;
        }
        printf("tag\t%lu\t", s);
        print_hex(tag, SLOTGEN_TAG_LEN);
        putchar('\n');
    }
    for (s = SLOTGEN_FIRST_SLOT; s <= SLOTGEN_LAST_SLOT; s++) {
        printf("tags\t%lu\t", s);
        print_tags(s, few);
        putchar('\n');
    }
    ends[0] = SLOTGEN_FIRST_SLOT;
    ends[1] = SLOTGEN_LAST_SLOT;
    for (i = 0; i < 2; i++) {
        printf("deep\t%lu\t", ends[i]);
        print_tags(ends[i], deep);
        putchar('\n');
    }
    for (s = SLOTGEN_FIRST_SLOT; s <= SLOTGEN_LAST_SLOT; s++) {
        if (slotgen_key_for_slot(prefix, prefix_len, s, suffix, suffix_len, key, sizeof key, &len)
            != SLOTGEN_OK) {
            return 1;
        }
        printf("key\t%lu\t", s);
        print_hex(key, len);
        putchar('\n');
    }

    if ((file = fopen(argv[1], "r")) == NULL) {
        return 2;
    }
    while (read_line(file, line)) {
        len = unhex(line, strlen(line), key);
        printf("slot\t%s\t%lu\n", line, slotgen_slot(key, len));
    }
    rewind(file);
    while (read_line(file, line)) {
        len = unhex(line, strlen(line), key);
        hashed = slotgen_hashtag(key, len, &len);
        printf("hashtag\t%s\t", line);
        print_hex(hashed, len);
        putchar('\n');
    }
    fclose(file);

    /* same, then shared: the groups file twice */
    for (i = 0; i < 2; i++) {
        if ((file = fopen(argv[2], "r")) == NULL) {
            return 2;
        }
        for (n = 0; read_line(file, line); n++) {
            char *listed = strchr(line, ':') + 1;
            count = strtoul(line, NULL, 10);
            for (at = 0, len = 0; len < count && len < MAX_GROUP; len++) {
                size_t hex_len = strcspn(listed, ",");
                keys[len] = group + at;
                lens[len] = unhex(listed, hex_len, group + at);
                at += lens[len];
                listed += hex_len + (listed[hex_len] == ',');
            }
            if (i == 0) {
                same = slotgen_same_slot(keys, lens, count);
                if (same < 0) {
                    printf("same\t%lu\t-\n", (unsigned long)n);
                } else {
                    printf("same\t%lu\t%lld\n", (unsigned long)n, same);
                }
            } else {
                size_t offset, tag_len;
                printf("shared\t%lu\t", (unsigned long)n);
                if (slotgen_shared_hashtag(keys, lens, count, &offset, &tag_len)) {
                    print_hex((const unsigned char *)keys[0] + offset, tag_len);
                } else {
                    putchar('-');
                }
                putchar('\n');
            }
        }
        fclose(file);
    }

    refusal("tag_above", slotgen_tag_for_slot(SLOTGEN_LAST_SLOT + 1, tag));
    refusal("tag_below", slotgen_tag_for_slot(SLOTGEN_FIRST_SLOT - 1, tag));
    refusal("tags_above", slotgen_tags_for_slot(SLOTGEN_LAST_SLOT + 1, 0, tag));
    refusal("key_above", slotgen_key_for_slot(prefix, prefix_len, SLOTGEN_LAST_SLOT + 1, suffix,
                                              suffix_len, key, sizeof key, &len));
    refusal("key_rule", slotgen_key_for_slot(bad_prefix, bad_prefix_len, SLOTGEN_FIRST_SLOT,
                                             bad_suffix, bad_suffix_len, key, sizeof key, &len));
    refusal("buffer_small", slotgen_key_for_slot(prefix, prefix_len, SLOTGEN_FIRST_SLOT, suffix,
                                                 suffix_len, key, SLOTGEN_TAG_LEN - 1, &len));
    refusal("tag_index", slotgen_tags_for_slot(SLOTGEN_FIRST_SLOT, ULLONG_MAX, tag));
    refusal("null_out", slotgen_key_for_slot(prefix, prefix_len, SLOTGEN_FIRST_SLOT, suffix,
                                             suffix_len, NULL, sizeof key, &len));
    refusal("null_len", slotgen_key_for_slot(prefix, prefix_len, SLOTGEN_FIRST_SLOT, suffix,
                                             suffix_len, key, sizeof key, NULL));
    refusal("null_suffix", slotgen_key_for_slot(prefix, prefix_len, SLOTGEN_FIRST_SLOT, NULL, 3,
                                                key, sizeof key, &len));
    refusal("null_tag", slotgen_tag_for_slot(SLOTGEN_FIRST_SLOT, NULL));
    refusal("null_tags", slotgen_tags_for_slot(SLOTGEN_FIRST_SLOT, 0, NULL));
    refusal("key_too_long", slotgen_key_for_slot(prefix, prefix_len, SLOTGEN_FIRST_SLOT, ":",
                                                 SIZE_MAX, key, sizeof key, &len));
    refusal("key_too_long_prefix", slotgen_key_for_slot("user:", SIZE_MAX - 3, SLOTGEN_FIRST_SLOT,
                                                        ":", 1, key, sizeof key, &len));
    return 0;
}
