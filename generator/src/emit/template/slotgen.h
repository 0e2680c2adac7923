{{header}}//
// Redis Cluster style hash slots for this spec, both ways: the slot of a key, and a key
// for a slot in O(1). One C99 header, no allocation; every function returns at once.
// Keys are bytes with a length; functions that can fail return a `slotgen_status`.
//
//   #include "{{file}}"
//   slotgen_slot("123456789", 9)                          == {{check_slot}}
//   unsigned char tag[SLOTGEN_TAG_LEN];
//   slotgen_tag_for_slot(0, tag)                          == SLOTGEN_OK, tag holds "{{tag}}"
//   unsigned char key[64]; size_t len;
//   slotgen_key_for_slot("user:", 5, 0, ":profile", 8, key, sizeof key, &len)
//                                                         == SLOTGEN_OK, key holds "{{key}}"
//   slotgen_tags_for_slot(0, i, tag)                      == SLOTGEN_OK for i < SLOTGEN_TAGS_PER_SLOT
#ifndef SLOTGEN_H
#define SLOTGEN_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

// The number of hash slots; a slot is in 0 to SLOTGEN_SLOTS - 1.
#define SLOTGEN_SLOTS {{slots}}u
// Symbols (bytes) per tag.
#define SLOTGEN_TAG_LEN {{tag_len}}u
// How many tags land on each slot.
#define SLOTGEN_TAGS_PER_SLOT {{tags_per_slot}}ull
// The slot of the tag whose symbols all have index 0.
#define SLOTGEN_BASE_SLOT {{base_slot}}u

// What a function that can fail returns.
enum slotgen_status {
    SLOTGEN_OK = 0,
    // The slot is not below SLOTGEN_SLOTS.
    SLOTGEN_SLOT_OUT_OF_RANGE = 1,
    // The prefix contains `{`, so the key's hashtag would not be the tag.
    SLOTGEN_PREFIX_HAS_BRACE = 2,
    // The output buffer cannot hold the key.
    SLOTGEN_BUFFER_TOO_SMALL = 3,
    // The tag index is not below SLOTGEN_TAGS_PER_SLOT.
    SLOTGEN_TAG_INDEX_OUT_OF_RANGE = 4,
    // An out-pointer is NULL, or an input pointer is NULL with a nonzero length.
    SLOTGEN_NULL_POINTER = 5,
    // prefix_len + SLOTGEN_TAG_LEN + 2 + suffix_len does not fit a size_t.
    SLOTGEN_KEY_TOO_LONG = 6
};

// A message for a status: the rule it breaks and the way out.
static inline const char *slotgen_strerror(int status) {
    switch (status) {
    case SLOTGEN_OK:
        return "ok";
    case SLOTGEN_SLOT_OUT_OF_RANGE:
        return "slot is out of range: this table has {{slots}} slots, so a slot is in 0 to {{last_slot}}";
    case SLOTGEN_PREFIX_HAS_BRACE:
        return "prefix contains `{`: the key's hashtag would start there instead of at the tag; "
               "remove the `{` from the prefix or move that part into the suffix";
    case SLOTGEN_BUFFER_TOO_SMALL:
        return "the key does not fit the buffer: pass a buffer of at least "
               "prefix + suffix + SLOTGEN_TAG_LEN + 2 bytes";
    case SLOTGEN_TAG_INDEX_OUT_OF_RANGE:
        return "tag index is out of range: a slot has SLOTGEN_TAGS_PER_SLOT tags";
    case SLOTGEN_NULL_POINTER:
        return "a pointer is NULL: pass a buffer for every output, and NULL input only with "
               "length 0";
    case SLOTGEN_KEY_TOO_LONG:
        return "the key would be longer than SIZE_MAX bytes: pass a shorter prefix or suffix";
    default:
        return "unknown slotgen status";
    }
}

// The CRC's lookup table: entry i is the register after feeding byte i into a zero
// register{{reflected_note}}.
static const uint16_t slotgen_crc_table[256] = {
{{crc_table}}
};

// The CRC of `len` bytes.
static inline uint16_t slotgen_crc(const unsigned char *bytes, size_t len) {
    uint16_t crc = {{start}};
    size_t i;
    for (i = 0; i < len; i++) {
{{crc_update}}
    }
{{crc_finish}}    return crc;
}

// The hash slot of a key of `len` bytes: the CRC of its hashtag, the bytes between the
// first `{` and the next `}` when there are any, else of the whole key.
static inline unsigned slotgen_slot(const void *key, size_t len) {
    const unsigned char *bytes = (const unsigned char *)key;
    const unsigned char *open = len != 0 ? (const unsigned char *)memchr(bytes, '{', len) : NULL;
    if (open != NULL) {
        size_t rest = len - (size_t)(open - bytes) - 1;
        const unsigned char *close = (const unsigned char *)memchr(open + 1, '}', rest);
        if (close != NULL && close > open + 1) {
            return slotgen_crc(open + 1, (size_t)(close - open - 1)) & (SLOTGEN_SLOTS - 1u);
        }
    }
    return slotgen_crc(bytes, len) & (SLOTGEN_SLOTS - 1u);
}

// Tags as bytes: entry v of a table is its SLOTGEN_ENTRY_BYTES bytes from
// v * SLOTGEN_ENTRY_BYTES on, a tag's SLOTGEN_TAG_LEN bytes in order and then zeros up to a whole
// number of SLOTGEN_WORD_BYTES-byte words (entry 0 of slotgen_low is the tag "{{first_tag}}"). The tag of a slot is entry slot & {{low_mask}} of slotgen_low
// xor entry slot >> {{low_bits}} of slotgen_high, byte by byte: the entries of slotgen_low are tags, those
// of slotgen_high byte differences of two tags (the base slot and the base tag are folded in).
// The functions below xor a word ({{word_type}}) at a time: a xor works byte by byte, so the
// result is the same on every byte order.
#define SLOTGEN_WORD_BYTES {{word_bytes}}u
#define SLOTGEN_TAG_WORDS {{tag_words}}u
#define SLOTGEN_ENTRY_BYTES (SLOTGEN_TAG_WORDS * SLOTGEN_WORD_BYTES)
static const unsigned char slotgen_low[{{low_len}} * SLOTGEN_ENTRY_BYTES] = {
{{low}}
};
static const unsigned char slotgen_high[{{high_len}} * SLOTGEN_ENTRY_BYTES] = {
{{high}}
};
{{kernel}}
// Xors the words of the table entry at `entry` into word[0..SLOTGEN_TAG_WORDS].
static inline void slotgen_xor_entry({{word_type}} word[SLOTGEN_TAG_WORDS],
                                     const unsigned char *entry) {
    {{word_type}} part;
    unsigned w;
    for (w = 0; w < SLOTGEN_TAG_WORDS; w++) {
        memcpy(&part, entry + w * SLOTGEN_WORD_BYTES, SLOTGEN_WORD_BYTES);
        word[w] ^= part;
    }
}

// Writes the words of the tag of slotgen_tag_for_slot into word[0..SLOTGEN_TAG_WORDS], for a
// slot below SLOTGEN_SLOTS: the tag's bytes, as they lie in memory.
static inline void slotgen_words_for_slot(unsigned long slot,
                                          {{word_type}} word[SLOTGEN_TAG_WORDS]) {
    memcpy(word, slotgen_low + (slot & {{low_mask}}u) * SLOTGEN_ENTRY_BYTES, SLOTGEN_ENTRY_BYTES);
    slotgen_xor_entry(word, slotgen_high + (slot >> {{low_bits}}) * SLOTGEN_ENTRY_BYTES);
}

// Writes a tag that lands on `slot` into tag[0..SLOTGEN_TAG_LEN] (not NUL-terminated).
// Returns SLOTGEN_OK, or SLOTGEN_SLOT_OUT_OF_RANGE, SLOTGEN_NULL_POINTER (tag is NULL).
static inline int slotgen_tag_for_slot(unsigned long slot, unsigned char tag[SLOTGEN_TAG_LEN]) {
    {{word_type}} word[SLOTGEN_TAG_WORDS];
    if (tag == NULL) {
        return SLOTGEN_NULL_POINTER;
    }
    if (slot >= SLOTGEN_SLOTS) {
        return SLOTGEN_SLOT_OUT_OF_RANGE;
    }
    slotgen_words_for_slot(slot, word);
    memcpy(tag, word, SLOTGEN_TAG_LEN);
    return SLOTGEN_OK;
}

// Writes the key `prefix {tag} suffix` for `slot` into out[0..out_size] and its length
// into *key_len. Its hashtag is the tag, so it lands on `slot` whatever the suffix holds.
// Returns SLOTGEN_OK, or SLOTGEN_SLOT_OUT_OF_RANGE, SLOTGEN_PREFIX_HAS_BRACE (the prefix
// contains `{`), SLOTGEN_BUFFER_TOO_SMALL (out_size is below the key's length),
// SLOTGEN_NULL_POINTER (out or key_len is NULL, or prefix or suffix is NULL with a nonzero
// length), or SLOTGEN_KEY_TOO_LONG (the key's length does not fit a size_t).
static inline int slotgen_key_for_slot(const void *prefix, size_t prefix_len,
                                       unsigned long slot,
                                       const void *suffix, size_t suffix_len,
                                       unsigned char *out, size_t out_size, size_t *key_len) {
    unsigned char tag[SLOTGEN_TAG_LEN];
    size_t needed;
    int status;
    if (out == NULL || key_len == NULL || (prefix == NULL && prefix_len != 0)
        || (suffix == NULL && suffix_len != 0)) {
        return SLOTGEN_NULL_POINTER;
    }
    status = slotgen_tag_for_slot(slot, tag);
    if (status != SLOTGEN_OK) {
        return status;
    }
    if (prefix_len > SIZE_MAX - SLOTGEN_TAG_LEN - 2u
        || suffix_len > SIZE_MAX - SLOTGEN_TAG_LEN - 2u - prefix_len) {
        return SLOTGEN_KEY_TOO_LONG;
    }
    needed = prefix_len + SLOTGEN_TAG_LEN + 2u + suffix_len;
    if (prefix_len != 0 && memchr(prefix, '{', prefix_len) != NULL) {
        return SLOTGEN_PREFIX_HAS_BRACE;
    }
    if (out_size < needed) {
        return SLOTGEN_BUFFER_TOO_SMALL;
    }
    if (prefix_len != 0) {
        memcpy(out, prefix, prefix_len);
    }
    out[prefix_len] = '{';
    memcpy(out + prefix_len + 1, tag, SLOTGEN_TAG_LEN);
    out[prefix_len + 1 + SLOTGEN_TAG_LEN] = '}';
    if (suffix_len != 0) {
        memcpy(out + prefix_len + 2 + SLOTGEN_TAG_LEN, suffix, suffix_len);
    }
    *key_len = needed;
    return SLOTGEN_OK;
}

// Writes tag number `index` of `slot` into tag[0..SLOTGEN_TAG_LEN]: index 0 is the tag of
// slotgen_tag_for_slot, index i that tag xor the kernel entries at the set bits of i.
// Every index below SLOTGEN_TAGS_PER_SLOT gives a different tag of the slot.
// Returns SLOTGEN_OK, or SLOTGEN_SLOT_OUT_OF_RANGE, SLOTGEN_TAG_INDEX_OUT_OF_RANGE,
// SLOTGEN_NULL_POINTER (tag is NULL).
static inline int slotgen_tags_for_slot(unsigned long slot, unsigned long long index,
                                        unsigned char tag[SLOTGEN_TAG_LEN]) {
    {{word_type}} word[SLOTGEN_TAG_WORDS];
    unsigned bit;
    if (tag == NULL) {
        return SLOTGEN_NULL_POINTER;
    }
    if (slot >= SLOTGEN_SLOTS) {
        return SLOTGEN_SLOT_OUT_OF_RANGE;
    }
    if (index >= SLOTGEN_TAGS_PER_SLOT) {
        return SLOTGEN_TAG_INDEX_OUT_OF_RANGE;
    }
    slotgen_words_for_slot(slot, word);
    for (bit = 0; index != 0; bit++, index >>= 1) {
        if (index & 1u) {
            slotgen_xor_entry(word, slotgen_kernel + bit * SLOTGEN_ENTRY_BYTES);
        }
    }
    memcpy(tag, word, SLOTGEN_TAG_LEN);
    return SLOTGEN_OK;
}


/* The slot every one of the n keys lands on (key i is keys[i], lens[i] bytes), as a
 * multi-key command or a script's keys need; -1 when two keys land on different slots
 * (the server answers CROSSSLOT) or n is 0; -1 too when keys or lens is NULL (n > 0) or a
 * key is NULL with a nonzero length. */
static inline long slotgen_same_slot(const void *const *keys, const size_t *lens, size_t n) {
    size_t i;
    unsigned found;
    if (n == 0 || keys == NULL || lens == NULL) {
        return -1;
    }
    for (i = 0; i < n; i++) {
        if (keys[i] == NULL && lens[i] != 0) {
            return -1;
        }
    }
    found = slotgen_slot(keys[0], lens[0]);
    for (i = 1; i < n; i++) {
        if (slotgen_slot(keys[i], lens[i]) != found) {
            return -1;
        }
    }
    return (long)found;
}

/* Whether the n keys share one non-empty hashtag; when they do (1), *offset and *len locate
 * it in keys[0]. 0 when a key has none (the whole key is hashed: no `{`, no `}` after it,
 * or `{}`), two keys have different ones, or n is 0; 0 too when a pointer is NULL (keys or
 * lens with n > 0, offset, len, or a key with a nonzero length). Keys that share a hashtag
 * land on one slot under every CRC and slot count. */
static inline int slotgen_shared_hashtag(const void *const *keys, const size_t *lens, size_t n,
                                         size_t *offset, size_t *len) {
    size_t i, at = 0, tag_len = 0;
    if (n == 0 || keys == NULL || lens == NULL || offset == NULL || len == NULL) {
        return 0;
    }
    for (i = 0; i < n; i++) {
        const unsigned char *key = (const unsigned char *)keys[i];
        const unsigned char *open =
            lens[i] != 0 && key != NULL ? (const unsigned char *)memchr(key, '{', lens[i]) : NULL;
        const unsigned char *close;
        size_t start;
        if (open == NULL) {
            return 0;
        }
        start = (size_t)(open - key) + 1;
        close = (const unsigned char *)memchr(open + 1, '}', lens[i] - start);
        if (close == NULL || close == open + 1) {
            return 0;
        }
        if (i == 0) {
            at = start;
            tag_len = (size_t)(close - open) - 1;
        } else if ((size_t)(close - open) - 1 != tag_len ||
                   memcmp(open + 1, (const unsigned char *)keys[0] + at, tag_len) != 0) {
            return 0;
        }
    }
    *offset = at;
    *len = tag_len;
    return 1;
}

#endif // SLOTGEN_H
