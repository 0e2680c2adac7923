{{header}}//
// Slots of the {{scheme}} scheme, both ways: the slot of a key, and a key for a slot in
// O(1). One C99 header, no allocation; every function returns at once. Keys are bytes with
// a length; a slot is an unsigned long from SLOTGEN_FIRST_SLOT to SLOTGEN_LAST_SLOT;
// functions that can fail return a `slotgen_status`.
//
//   #include "{{file}}"
//   slotgen_slot("123456789", 9)                        == {{check_slot}}
//   unsigned char tag[SLOTGEN_TAG_LEN];
//   slotgen_tag_for_slot(SLOTGEN_FIRST_SLOT, tag)       == SLOTGEN_OK, tag holds "{{tag}}"
//   unsigned char key[64]; size_t len;
//   slotgen_key_for_slot({{example_prefix}}, {{example_prefix_len}}, SLOTGEN_FIRST_SLOT, {{example_suffix}}, {{example_suffix_len}}, key, sizeof key, &len)
//                                                       == SLOTGEN_OK, key holds "{{key}}"
//   slotgen_tags_for_slot(SLOTGEN_FIRST_SLOT, i, tag)   == SLOTGEN_OK for i = 0, 1, ... until
//                                                          SLOTGEN_TAG_INDEX_OUT_OF_RANGE
#ifndef SLOTGEN_H
#define SLOTGEN_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

// The number of slots.
#define SLOTGEN_SLOTS {{slots}}ul
// The first slot; slots are SLOTGEN_FIRST_SLOT to SLOTGEN_LAST_SLOT.
#define SLOTGEN_FIRST_SLOT {{first_slot}}ul
// The last slot.
#define SLOTGEN_LAST_SLOT {{last_slot}}ul
// Symbols (bytes) per tag.
#define SLOTGEN_TAG_LEN {{tag_len}}u

// What a function that can fail returns: the same codes in every header slotgen writes.
enum slotgen_status {
    SLOTGEN_OK = 0,
    // The slot is not from SLOTGEN_FIRST_SLOT to SLOTGEN_LAST_SLOT.
    SLOTGEN_SLOT_OUT_OF_RANGE = 1,
    // The prefix contains the hashtag's opening byte, so the key's hashtag would not be
    // the tag (a scheme with a hashtag).
    SLOTGEN_PREFIX_HAS_DELIMITER = 2,
    // No tag of SLOTGEN_TAG_LEN symbols inside the prefix and suffix reaches every slot
    // (a scheme that hashes the whole key).
    SLOTGEN_FRAME_NOT_SOLVABLE = 3,
    // The output buffer cannot hold the key.
    SLOTGEN_BUFFER_TOO_SMALL = 4,
    // The slot has no tag of this index.
    SLOTGEN_TAG_INDEX_OUT_OF_RANGE = 5,
    // An out-pointer is NULL, or an input pointer is NULL with a nonzero length.
    SLOTGEN_NULL_POINTER = 6,
    // prefix_len + SLOTGEN_TAG_LEN + 2 + suffix_len does not fit a size_t.
    SLOTGEN_KEY_TOO_LONG = 7
};

// A message for a status: the rule it breaks and the way out.
static inline const char *slotgen_strerror(int status) {
    switch (status) {
    case SLOTGEN_OK:
        return "ok";
    case SLOTGEN_SLOT_OUT_OF_RANGE:
        return "slot is out of range: the slots are {{first_slot}} to {{last_slot}}";
    case SLOTGEN_PREFIX_HAS_DELIMITER:
        return "prefix contains the hashtag's opening byte: the key's hashtag would start there "
               "instead of at the tag; remove it from the prefix or move that part into the suffix";
    case SLOTGEN_FRAME_NOT_SOLVABLE:
        return "inside this prefix and suffix, tags of {{tag_len}} symbols control too few of the "
               "value bits a slot needs: change the prefix or suffix, or emit the header for "
               "another tag length (--tag-len)";
    case SLOTGEN_BUFFER_TOO_SMALL:
        return "the key does not fit the buffer: pass a buffer of at least "
               "prefix + suffix + SLOTGEN_TAG_LEN + 2 bytes";
    case SLOTGEN_TAG_INDEX_OUT_OF_RANGE:
        return "tag index is out of range: the slot's tags end before it";
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
static const {{register}} slotgen_crc_table[256] = {
{{crc_table}}
};

// The CRC of `len` bytes.
static inline {{register}} slotgen_crc(const unsigned char *bytes, size_t len) {
    {{register}} crc = {{crc_start}};
    size_t i;
    for (i = 0; i < len; i++) {
{{crc_update}}
    }
{{crc_finish}}    return crc;
}
{{rule}}
// The bytes of a key of `len` bytes that its slot is computed from, a pointer into the key
// with its length in *hashtag_len; NULL when hashtag_len is NULL, or key is NULL with a
// nonzero length. They are {{rule_doc}}.
static inline const unsigned char *slotgen_hashtag(const void *key, size_t len,
                                                   size_t *hashtag_len) {
    const unsigned char *bytes = (const unsigned char *)key;
    const unsigned char *tag;
    if (hashtag_len == NULL || (key == NULL && len != 0)) {
        return NULL;
    }
    tag = slotgen_explicit(bytes, len, hashtag_len);
    if (tag != NULL) {
        return tag;
    }
    *hashtag_len = len;
    return bytes;
}

// The slot of a key of `len` bytes (a NULL key counts as the empty key): {{slot_formula}},
// for the CRC of {{rule_doc}}.
static inline unsigned long slotgen_slot(const void *key, size_t len) {
    size_t hashed_len;
    const unsigned char *hashed = slotgen_hashtag(key, key != NULL ? len : 0, &hashed_len);
    return {{slot_expression}};
}
{{lookup}}
// The number of kernel rows.
#define SLOTGEN_KERNEL_LEN {{kernel_len}}u
// Tags reach the values below this; a slot's are slot - SLOTGEN_FIRST_SLOT + k * SLOTGEN_SLOTS.
#define SLOTGEN_VALUE_LIMIT {{value_limit}}ull

// Writes a tag that lands on `slot` into tag[0..SLOTGEN_TAG_LEN] (not NUL-terminated).
// Returns SLOTGEN_OK, or SLOTGEN_SLOT_OUT_OF_RANGE, SLOTGEN_NULL_POINTER (tag is NULL).
static inline int slotgen_tag_for_slot(unsigned long slot, unsigned char tag[SLOTGEN_TAG_LEN]) {
    if (tag == NULL) {
        return SLOTGEN_NULL_POINTER;
    }
    // below the first slot, the difference wraps to above the slot count
    if (slot - SLOTGEN_FIRST_SLOT >= SLOTGEN_SLOTS) {
        return SLOTGEN_SLOT_OUT_OF_RANGE;
    }
    slotgen_tag_of(slot - SLOTGEN_FIRST_SLOT, 0, tag);
    return SLOTGEN_OK;
}

// Writes tag number `index` of `slot` into tag[0..SLOTGEN_TAG_LEN]: the tags of a slot are,
// for each value slot - SLOTGEN_FIRST_SLOT + k * SLOTGEN_SLOTS below SLOTGEN_VALUE_LIMIT,
// ascending, the value's tag xor each combination of the kernel rows, in binary counting
// order: index i is value k = i >> SLOTGEN_KERNEL_LEN, combination i & (2^KERNEL_LEN - 1).
// Index 0 is the tag of slotgen_tag_for_slot. Returns SLOTGEN_OK, or
// SLOTGEN_SLOT_OUT_OF_RANGE, SLOTGEN_TAG_INDEX_OUT_OF_RANGE (the slot's tags end before
// `index`), SLOTGEN_NULL_POINTER (tag is NULL).
static inline int slotgen_tags_for_slot(unsigned long slot, unsigned long long index,
                                        unsigned char tag[SLOTGEN_TAG_LEN]) {
    unsigned long long value, k;
    if (tag == NULL) {
        return SLOTGEN_NULL_POINTER;
    }
    if (slot - SLOTGEN_FIRST_SLOT >= SLOTGEN_SLOTS) {
        return SLOTGEN_SLOT_OUT_OF_RANGE;
    }
    value = slot - SLOTGEN_FIRST_SLOT;
    k = index >> SLOTGEN_KERNEL_LEN;
    if (k > (SLOTGEN_VALUE_LIMIT - 1 - value) / SLOTGEN_SLOTS) {
        return SLOTGEN_TAG_INDEX_OUT_OF_RANGE;
    }
    slotgen_tag_of(value + k * SLOTGEN_SLOTS, index & ((1ull << SLOTGEN_KERNEL_LEN) - 1u), tag);
    return SLOTGEN_OK;
}

{{key_for_slot}}/* The slot every one of the n keys lands on (key i is keys[i], lens[i] bytes), as a
 * multi-key command or a script's keys need; -1 when two keys land on different slots
 * (the server answers CROSSSLOT) or n is 0; -1 too when keys or lens is NULL (n > 0) or a
 * key is NULL with a nonzero length. */
static inline long long slotgen_same_slot(const void *const *keys, const size_t *lens,
                                          size_t n) {
    size_t i;
    unsigned long found;
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
    return (long long)found;
}

/* Whether the n keys share one hashtag between their delimiters; when they do (1), *offset
 * and *len locate it in keys[0]. 0 when a key has none (its whole key is hashed), two keys
 * have different ones, or n is 0; 0 too when a pointer is NULL (keys or lens with n > 0,
 * offset, len, or a key with a nonzero length). Keys that share a hashtag land on one slot
 * whatever the slot count. */
static inline int slotgen_shared_hashtag(const void *const *keys, const size_t *lens, size_t n,
                                         size_t *offset, size_t *len) {
    size_t i, at = 0, tag_len = 0;
    if (n == 0 || keys == NULL || lens == NULL || offset == NULL || len == NULL) {
        return 0;
    }
    for (i = 0; i < n; i++) {
        const unsigned char *key = (const unsigned char *)keys[i];
        const unsigned char *tag;
        size_t this_len;
        if (key == NULL && lens[i] != 0) {
            return 0;
        }
        tag = slotgen_explicit(key, lens[i], &this_len);
        if (tag == NULL) {
            return 0;
        }
        if (i == 0) {
            at = (size_t)(tag - key);
            tag_len = this_len;
        } else if (this_len != tag_len
                   || memcmp(tag, (const unsigned char *)keys[0] + at, tag_len) != 0) {
            return 0;
        }
    }
    *offset = at;
    *len = tag_len;
    return 1;
}

#endif // SLOTGEN_H
