{{header}}//
// Slots of the {{scheme}} scheme, both ways: the slot of a key, and a key for a slot. One
// C99 header, no allocation; every function returns at once. Keys are bytes with a length;
// a slot is from SLOTGEN_FIRST_SLOT to SLOTGEN_LAST_SLOT; functions that can fail return a
// `slotgen_status`.
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
{{delimiter_macros}}
// What a function that can fail returns.
enum slotgen_status {
    SLOTGEN_OK = 0,
    // The slot is not from SLOTGEN_FIRST_SLOT to SLOTGEN_LAST_SLOT.
    SLOTGEN_SLOT_OUT_OF_RANGE = 1,
    // The prefix contains the hashtag's opening byte, so the key's hashtag would not be
    // the tag.
    SLOTGEN_PREFIX_HAS_DELIMITER = 2,
    // A prefix or suffix was given, but this scheme hashes the whole key.
    SLOTGEN_WHOLE_KEY_HASHED = 3,
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
        return "slot is out of range: this scheme's slots are {{first_slot}} to {{last_slot}}";
    case SLOTGEN_PREFIX_HAS_DELIMITER:
        return "prefix contains the hashtag's opening byte: the key's hashtag would start there "
               "instead of at the tag; remove it from the prefix or move that part into the suffix";
    case SLOTGEN_WHOLE_KEY_HASHED:
        return "this scheme hashes the whole key, so a key that lands on a slot is the tag alone: "
               "give no prefix or suffix";
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
static const uint32_t slotgen_crc_table[256] = {
{{crc_table}}
};

// The CRC of `len` bytes.
static inline uint32_t slotgen_crc(const unsigned char *bytes, size_t len) {
    uint32_t crc = {{crc_start}};
    size_t i;
    for (i = 0; i < len; i++) {
{{crc_update}}
    }
{{crc_finish}}    return crc;
}
{{rule}}
// The slot of a key of `len` bytes: ((crc >> {{shift}}) & {{value_mask}}) % SLOTGEN_SLOTS +
// SLOTGEN_FIRST_SLOT, for the CRC of {{rule_doc}}.
static inline unsigned long slotgen_slot(const void *key, size_t len) {
    size_t hashed_len;
    const unsigned char *hashed = slotgen_hashed((const unsigned char *)key, len, &hashed_len);
    uint32_t value = (slotgen_crc(hashed, hashed_len) >> {{shift}}) & {{value_mask}}u;
    return value % SLOTGEN_SLOTS + SLOTGEN_FIRST_SLOT;
}

// The tag of a value v is slotgen_zero_tag xor the rows i of slotgen_columns over the set
// bits i of v: row i flips bit i of the tag's value (the CRC's value after the shift and
// mask), and slotgen_zero_tag is the tag of value 0. The tag of a slot is the tag of the
// value slot - SLOTGEN_FIRST_SLOT.
static const unsigned char slotgen_zero_tag[SLOTGEN_TAG_LEN] = {
{{zero_tag}}
};
{{columns_c}}
{{kernel_c}}
// The number of kernel rows.
#define SLOTGEN_KERNEL_LEN {{kernel_len}}u
// Tags reach the values below this; a slot's are slot - SLOTGEN_FIRST_SLOT + k * SLOTGEN_SLOTS.
#define SLOTGEN_VALUE_LIMIT {{value_limit}}ull

// Writes the tag of a value below SLOTGEN_VALUE_LIMIT into tag[0..SLOTGEN_TAG_LEN], with
// the kernel rows at the set bits of `combination` xored in.
static inline void slotgen_write_tag(unsigned long long value, unsigned long long combination,
                                     unsigned char tag[SLOTGEN_TAG_LEN]) {
    unsigned row, i;
    memcpy(tag, slotgen_zero_tag, SLOTGEN_TAG_LEN);
    for (row = 0; value != 0; row++, value >>= 1) {
        if (value & 1u) {
            for (i = 0; i < SLOTGEN_TAG_LEN; i++) {
                tag[i] ^= slotgen_columns[row * SLOTGEN_TAG_LEN + i];
            }
        }
    }
    for (row = 0; combination != 0; row++, combination >>= 1) {
        if (combination & 1u) {
            for (i = 0; i < SLOTGEN_TAG_LEN; i++) {
                tag[i] ^= slotgen_kernel[row * SLOTGEN_TAG_LEN + i];
            }
        }
    }
}

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
    slotgen_write_tag(slot - SLOTGEN_FIRST_SLOT, 0, tag);
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
    slotgen_write_tag(value + k * SLOTGEN_SLOTS, index & ((1ull << SLOTGEN_KERNEL_LEN) - 1u), tag);
    return SLOTGEN_OK;
}

// Writes the key of `slot` into out[0..out_size] and its length into *key_len: {{key_doc}}.
// Returns SLOTGEN_OK, or SLOTGEN_SLOT_OUT_OF_RANGE, {{key_status}},
// SLOTGEN_BUFFER_TOO_SMALL (out_size is below the key's length), SLOTGEN_NULL_POINTER (out
// or key_len is NULL, or prefix or suffix is NULL with a nonzero length), or
// SLOTGEN_KEY_TOO_LONG (the key's length does not fit a size_t).
static inline int slotgen_key_for_slot(const void *prefix, size_t prefix_len,
                                       unsigned long slot,
                                       const void *suffix, size_t suffix_len,
                                       unsigned char *out, size_t out_size, size_t *key_len) {
    unsigned char tag[SLOTGEN_TAG_LEN];
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
{{key_body}}
}

#endif // SLOTGEN_H
