<# The C99 header: one file, every part chosen here. `slotgen_` and `SLOTGEN_` are
   renamed to the header's prefix before it is rendered. #>
<% from "reduction.jinja" import infix %>
<# The slot of the CRC `crc`, in C's operators. #>
<% macro slot_of(crc) %>{{ infix(reduction, crc, reduction.mask | hex) }}<% endmacro %>
<% set register = "uint8_t" if crc.width == 8 else "uint16_t" if crc.width == 16 else "uint32_t" %>
<% set bits = crc.width if crc.width in [8, 16] else 32 %>
<# The CRC loop's step over bytes[i]: a register of the CRC's own width needs no mask, one
   of 8 bits no shift either. #>
<% macro crc_update() %>
<% if crc.width == 8 %>
        crc = slotgen_crc_table[crc ^ bytes[i]];
<% elif crc.refin %>
        crc = ({{register}})((crc >> 8) ^ slotgen_crc_table[(crc ^ bytes[i]) & 0xffu]);
<% elif crc.width == bits %>
        crc = ({{register}})((crc << 8) ^ slotgen_crc_table[((crc >> {{crc.top_shift}}) ^ bytes[i]) & 0xffu]);
<% else %>
        crc = ((crc << 8) & {{crc.mask | hex}}u) ^ slotgen_crc_table[((crc >> {{crc.top_shift}}) ^ bytes[i]) & 0xffu];
<% endif %>
<% endmacro %>
<# The register's finish after the last byte: its reflection when refin != refout, the xor
   with xorout when that is not zero. #>
<% macro crc_finish() %>
<% if crc.reflect_out %>
    {
        // refin != refout: reflect the register.
        {{register}} reflected = 0;
        unsigned bit;
        for (bit = 0; bit < {{crc.width}}u; bit++, crc >>= 1) {
            reflected = ({{register}})((reflected << 1) | (crc & 1u));
        }
        crc = reflected;
    }
<% endif %>
<% if crc.xorout %>
    crc ^= {{crc.xorout | hex}}u;
<% endif %>
<% endmacro %>
{{header}}//
// Slots of the {{scheme}} scheme, both ways: the slot of a key, and a key for a slot in
// O(1). One C99 header, no allocation; every function returns at once. Keys are bytes with
// a length; a slot is an unsigned long from SLOTGEN_FIRST_SLOT to SLOTGEN_LAST_SLOT;
// functions that can fail return a `slotgen_status`.
//
//   #include "{{file}}"
//   slotgen_slot("123456789", 9)                        == {{examples.check_slot}}
//   unsigned char tag[SLOTGEN_TAG_LEN];
//   slotgen_tag_for_slot(SLOTGEN_FIRST_SLOT, tag)       == SLOTGEN_OK, tag holds "{{examples.tag}}"
//   unsigned char key[64]; size_t len;
//   slotgen_key_for_slot({{examples.prefix}}, {{examples.prefix_len}}, SLOTGEN_FIRST_SLOT, {{examples.suffix}}, {{examples.suffix_len}}, key, sizeof key, &len)
//                                                       == SLOTGEN_OK, key holds "{{examples.key}}"
//   slotgen_tags_for_slot(SLOTGEN_FIRST_SLOT, i, tag)   == SLOTGEN_OK for i = 0, 1, ... until
//                                                          SLOTGEN_TAG_INDEX_OUT_OF_RANGE
#ifndef SLOTGEN_H
#define SLOTGEN_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

// The number of slots.
#define SLOTGEN_SLOTS {{slots.count}}ul
// The first slot; slots are SLOTGEN_FIRST_SLOT to SLOTGEN_LAST_SLOT.
#define SLOTGEN_FIRST_SLOT {{slots.first}}ul
// The last slot.
#define SLOTGEN_LAST_SLOT {{slots.last}}ul
// Symbols (bytes) per tag.
#define SLOTGEN_TAG_LEN {{tags.len}}u

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
        return "slot is out of range: the slots are {{slots.first}} to {{slots.last}}";
    case SLOTGEN_PREFIX_HAS_DELIMITER:
        return "prefix contains the hashtag's opening byte: the key's hashtag would start there "
               "instead of at the tag; remove it from the prefix or move that part into the suffix";
    case SLOTGEN_FRAME_NOT_SOLVABLE:
        return "inside this prefix and suffix, tags of {{tags.len}} symbols control too few of the "
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
// register<% if crc.refin %>, reflected (the register shifts right)<% endif %>.
static const {{register}} slotgen_crc_table[256] = {
{{crc.table | hex_rows(crc.digits, 8, "    ", "u")}}
};

// The CRC of `len` bytes.
static inline {{register}} slotgen_crc(const unsigned char *bytes, size_t len) {
    {{register}} crc = {{crc.start | hex(crc.digits)}}u;
    size_t i;
    for (i = 0; i < len; i++) {
{{crc_update() | chomp}}
    }
{{crc_finish()}}    return crc;
}
<% if rule.whole %>

// The hashtag of a key: this scheme hashes the whole key, so no key has one (NULL).
static inline const unsigned char *slotgen_explicit(const unsigned char *key, size_t len,
                                                    size_t *tag_len) {
    (void)key;
    (void)len;
    (void)tag_len;
    return NULL;
}

// Solving a tag inside a frame: the value of prefix + tag + suffix is affine in the tag's
// bits (a CRC over keys of one length is), so it is measured at the tag whose symbols all
// have index 0 and at each single bit flipped, and solved by Gauss-Jordan elimination with
// pivot columns in ascending order and every free bit zero: the tag `slotgen key --prefix
// --suffix` gives, with this header's alphabet and tag length. slotgen_frame_solve solves a
// frame once, into a struct slotgen_frame the caller holds (on its stack: nothing is
// allocated, nothing is kept between calls), and slotgen_frame_key writes any slot's key
// from it in O(SLOTGEN_SOLVED_BITS); slotgen_key_for_slot does both.

// The alphabet's first symbol.
#define SLOTGEN_ALPHABET_OFFSET {{alphabet.offset | hex(2)}}u
// The bits of a symbol's index.
#define SLOTGEN_SYMBOL_BITS {{alphabet.symbol_bits}}u
// The low value bits a tag is solved for: a key of the slot has slot - SLOTGEN_FIRST_SLOT
// there.
#define SLOTGEN_SOLVED_BITS {{tags.solved_bits}}u
// The tag's input bits (columns): symbol bit j of tag byte k is column
// k * SLOTGEN_SYMBOL_BITS + j.
#define SLOTGEN_INPUT_BITS (SLOTGEN_TAG_LEN * SLOTGEN_SYMBOL_BITS)
// Words of 32 columns in a row of the elimination: column i is bit i % 32 of word i / 32.
#define SLOTGEN_INPUT_WORDS ((SLOTGEN_INPUT_BITS + 31u) / 32u)
// SLOTGEN_SOLVED_BITS, or 1 when it is 0: C has no empty arrays.
#define SLOTGEN_FRAME_ROWS {{[tags.solved_bits, 1] | max}}u

// Bit j of a symbol's index xors slotgen_alphabet_basis[j] into SLOTGEN_ALPHABET_OFFSET.
static const unsigned char slotgen_alphabet_basis[SLOTGEN_SYMBOL_BITS] = { {{alphabet.basis | map("hex", 2) | join(", ")}} };

// A solved frame: the prefix and suffix it points at (the caller keeps them unchanged while
// it uses the frame), the value of its tag whose symbols all have index 0, and for each
// pivot column, ascending, the value bits whose sum sets it.
struct slotgen_frame {
    const unsigned char *prefix;
    size_t prefix_len;
    const unsigned char *suffix;
    size_t suffix_len;
    // The value of prefix + the tag of SLOTGEN_ALPHABET_OFFSET symbols + suffix.
    uint32_t base;
    // The pivots found: SLOTGEN_SOLVED_BITS when the frame is solved, fewer when
    // slotgen_frame_solve returned SLOTGEN_FRAME_NOT_SOLVABLE.
    unsigned rank;
    // Pivot r is column[r], and the value bits summed into it are the set bits of sums[r].
    unsigned column[SLOTGEN_FRAME_ROWS];
    uint32_t sums[SLOTGEN_FRAME_ROWS];
};

// The register after feeding `len` bytes into `crc` (no start value, no final step).
static inline {{register}} slotgen_crc_feed({{register}} crc, const unsigned char *bytes, size_t len) {
    size_t i;
    for (i = 0; i < len; i++) {
{{crc_update() | chomp}}
    }
    return crc;
}

// The value of the frame's key with `tag`: (crc >> {{reduction.shift}}) & {{reduction.mask | hex}}, for the CRC that
// slotgen_slot computes of a key's hashtag.
static inline uint32_t slotgen_frame_value(const struct slotgen_frame *frame,
                                           const unsigned char tag[SLOTGEN_TAG_LEN]) {
    {{register}} crc = {{crc.start | hex(crc.digits)}}u;
    crc = slotgen_crc_feed(crc, frame->prefix, frame->prefix_len);
    crc = slotgen_crc_feed(crc, tag, SLOTGEN_TAG_LEN);
    crc = slotgen_crc_feed(crc, frame->suffix, frame->suffix_len);
{{crc_finish()}}    return (uint32_t)(crc >> {{reduction.shift}}) & {{reduction.mask | hex}}u;
}

// Solves the frame prefix[0..prefix_len] + tag + suffix[0..suffix_len] into *frame, which
// then points at prefix and suffix. Costs SLOTGEN_INPUT_BITS + 1 CRCs of the key and one
// elimination, in about SLOTGEN_FRAME_ROWS * (SLOTGEN_INPUT_WORDS + 1) * 4 bytes of stack.
// Returns SLOTGEN_OK, or SLOTGEN_FRAME_NOT_SOLVABLE (tags of SLOTGEN_TAG_LEN symbols control
// only frame->rank of the SLOTGEN_SOLVED_BITS value bits inside this prefix and suffix),
// SLOTGEN_NULL_POINTER (frame is NULL, or prefix or suffix is NULL with a nonzero length),
// or SLOTGEN_KEY_TOO_LONG (the key's length does not fit a size_t).
static inline int slotgen_frame_solve(const void *prefix, size_t prefix_len,
                                      const void *suffix, size_t suffix_len,
                                      struct slotgen_frame *frame) {
    // one row a value bit: its columns, and the value bits summed into it
    uint32_t rows[SLOTGEN_FRAME_ROWS][SLOTGEN_INPUT_WORDS], sums[SLOTGEN_FRAME_ROWS];
    unsigned char tag[SLOTGEN_TAG_LEN];
    unsigned k, j, r, w, column, found;
    if (frame == NULL || (prefix == NULL && prefix_len != 0)
        || (suffix == NULL && suffix_len != 0)) {
        return SLOTGEN_NULL_POINTER;
    }
    if (prefix_len > SIZE_MAX - SLOTGEN_TAG_LEN - 2u
        || suffix_len > SIZE_MAX - SLOTGEN_TAG_LEN - 2u - prefix_len) {
        return SLOTGEN_KEY_TOO_LONG;
    }
    memset(frame, 0, sizeof *frame);
    frame->prefix = (const unsigned char *)prefix;
    frame->prefix_len = prefix_len;
    frame->suffix = (const unsigned char *)suffix;
    frame->suffix_len = suffix_len;
    memset(tag, SLOTGEN_ALPHABET_OFFSET, SLOTGEN_TAG_LEN);
    frame->base = slotgen_frame_value(frame, tag);
    memset(rows, 0, sizeof rows);
    memset(sums, 0, sizeof sums);
    for (r = 0; r != SLOTGEN_SOLVED_BITS; r++) {
        sums[r] = (uint32_t)1u << r;
    }
    for (k = 0; k < SLOTGEN_TAG_LEN; k++) {
        for (j = 0; j < SLOTGEN_SYMBOL_BITS; j++) {
            uint32_t flipped;
            column = k * SLOTGEN_SYMBOL_BITS + j;
            tag[k] ^= slotgen_alphabet_basis[j];
            flipped = slotgen_frame_value(frame, tag) ^ frame->base;
            tag[k] ^= slotgen_alphabet_basis[j];
            for (r = 0; r != SLOTGEN_SOLVED_BITS; r++) {
                if ((flipped >> r) & 1u) {
                    rows[r][column / 32u] |= (uint32_t)1u << (column % 32u);
                }
            }
        }
    }
    for (column = 0; column < SLOTGEN_INPUT_BITS && frame->rank != SLOTGEN_SOLVED_BITS;
         column++) {
        const unsigned rank = frame->rank;
        for (found = rank;
             found != SLOTGEN_SOLVED_BITS && !((rows[found][column / 32u] >> (column % 32u)) & 1u);
             found++) {
        }
        if (found == SLOTGEN_SOLVED_BITS) {
            continue;
        }
        for (w = 0; w < SLOTGEN_INPUT_WORDS; w++) {
            const uint32_t swapped = rows[found][w];
            rows[found][w] = rows[rank][w];
            rows[rank][w] = swapped;
        }
        {
            const uint32_t swapped = sums[found];
            sums[found] = sums[rank];
            sums[rank] = swapped;
        }
        for (r = 0; r != SLOTGEN_SOLVED_BITS; r++) {
            if (r != rank && ((rows[r][column / 32u] >> (column % 32u)) & 1u)) {
                for (w = 0; w < SLOTGEN_INPUT_WORDS; w++) {
                    rows[r][w] ^= rows[rank][w];
                }
                sums[r] ^= sums[rank];
            }
        }
        frame->column[rank] = column;
        frame->rank = rank + 1u;
    }
    if (frame->rank != SLOTGEN_SOLVED_BITS) {
        return SLOTGEN_FRAME_NOT_SOLVABLE;
    }
    memcpy(frame->sums, sums, sizeof sums);
    return SLOTGEN_OK;
}

// Writes the key prefix + tag + suffix of `slot` for a frame that slotgen_frame_solve solved
// into out[0..out_size], and its length into *key_len. Returns SLOTGEN_OK, or
// SLOTGEN_SLOT_OUT_OF_RANGE, SLOTGEN_FRAME_NOT_SOLVABLE (the frame's solve returned it),
// SLOTGEN_BUFFER_TOO_SMALL (out_size is below the key's length), SLOTGEN_NULL_POINTER
// (frame, out or key_len is NULL).
static inline int slotgen_frame_key(const struct slotgen_frame *frame, unsigned long slot,
                                    unsigned char *out, size_t out_size, size_t *key_len) {
    unsigned char tag[SLOTGEN_TAG_LEN];
    uint32_t target;
    unsigned r;
    if (frame == NULL || out == NULL || key_len == NULL) {
        return SLOTGEN_NULL_POINTER;
    }
    if (slot - SLOTGEN_FIRST_SLOT >= SLOTGEN_SLOTS) {
        return SLOTGEN_SLOT_OUT_OF_RANGE;
    }
    if (frame->rank != SLOTGEN_SOLVED_BITS) {
        return SLOTGEN_FRAME_NOT_SOLVABLE;
    }
    // the solve checked that this sum fits a size_t
    if (out_size < frame->prefix_len + SLOTGEN_TAG_LEN + frame->suffix_len) {
        return SLOTGEN_BUFFER_TOO_SMALL;
    }
    target = (uint32_t)(slot - SLOTGEN_FIRST_SLOT) ^ frame->base;
    memset(tag, SLOTGEN_ALPHABET_OFFSET, SLOTGEN_TAG_LEN);
    for (r = 0; r != SLOTGEN_SOLVED_BITS; r++) {
        // the parity of the value bits in both, folded into bit 0
        uint32_t odd = frame->sums[r] & target;
        odd ^= odd >> 16;
        odd ^= odd >> 8;
        odd ^= odd >> 4;
        odd ^= odd >> 2;
        odd ^= odd >> 1;
        if (odd & 1u) {
            tag[frame->column[r] / SLOTGEN_SYMBOL_BITS] ^=
                slotgen_alphabet_basis[frame->column[r] % SLOTGEN_SYMBOL_BITS];
        }
    }
    if (frame->prefix_len != 0) {
        memcpy(out, frame->prefix, frame->prefix_len);
    }
    memcpy(out + frame->prefix_len, tag, SLOTGEN_TAG_LEN);
    if (frame->suffix_len != 0) {
        memcpy(out + frame->prefix_len + SLOTGEN_TAG_LEN, frame->suffix, frame->suffix_len);
    }
    *key_len = frame->prefix_len + SLOTGEN_TAG_LEN + frame->suffix_len;
    return SLOTGEN_OK;
}
<% else %>

// The bytes that open and close a hashtag.
#define SLOTGEN_OPEN {{rule.open | hex(2)}}
#define SLOTGEN_CLOSE {{rule.close | hex(2)}}
// A hashtag shorter than this hashes the whole key.
#define SLOTGEN_MIN_TAG_LEN {{rule.min_len}}

// The first `byte` among `len` bytes, or NULL: a loop over a short key, where a call of
// memchr costs more than the search, and memchr from 32 bytes.
static inline const unsigned char *slotgen_find(const unsigned char *bytes, size_t len,
                                                unsigned char byte) {
    size_t i;
    if (len >= 32) {
        return (const unsigned char *)memchr(bytes, byte, len);
    }
    for (i = 0; i < len; i++) {
        if (bytes[i] == byte) {
            return bytes + i;
        }
    }
    return NULL;
}

// The hashtag of a key of `len` bytes, a pointer into the key and its length in *tag_len:
// the bytes between the first SLOTGEN_OPEN and the first SLOTGEN_CLOSE after it, when there
// are at least SLOTGEN_MIN_TAG_LEN of them; else NULL.
static inline const unsigned char *slotgen_explicit(const unsigned char *key, size_t len,
                                                    size_t *tag_len) {
    const unsigned char *open = slotgen_find(key, len, SLOTGEN_OPEN);
    if (open != NULL) {
        size_t rest = len - (size_t)(open - key) - 1;
        const unsigned char *close = slotgen_find(open + 1, rest, SLOTGEN_CLOSE);
        if (close != NULL && close - open - 1 >= SLOTGEN_MIN_TAG_LEN) {
            *tag_len = (size_t)(close - open - 1);
            return open + 1;
        }
    }
    return NULL;
}

// Writes prefix, SLOTGEN_OPEN, the tag, SLOTGEN_CLOSE and suffix into out[0..out_size].
static inline int slotgen_write_key(const unsigned char *prefix, size_t prefix_len,
                                    const unsigned char tag[SLOTGEN_TAG_LEN],
                                    const unsigned char *suffix, size_t suffix_len,
                                    unsigned char *out, size_t out_size, size_t *key_len) {
    if (prefix_len != 0 && memchr(prefix, SLOTGEN_OPEN, prefix_len) != NULL) {
        return SLOTGEN_PREFIX_HAS_DELIMITER;
    }
    if (out_size < prefix_len + SLOTGEN_TAG_LEN + 2u + suffix_len) {
        return SLOTGEN_BUFFER_TOO_SMALL;
    }
    if (prefix_len != 0) {
        memcpy(out, prefix, prefix_len);
    }
    out[prefix_len] = SLOTGEN_OPEN;
    memcpy(out + prefix_len + 1, tag, SLOTGEN_TAG_LEN);
    out[prefix_len + 1 + SLOTGEN_TAG_LEN] = SLOTGEN_CLOSE;
    if (suffix_len != 0) {
        memcpy(out + prefix_len + 2 + SLOTGEN_TAG_LEN, suffix, suffix_len);
    }
    *key_len = prefix_len + SLOTGEN_TAG_LEN + 2u + suffix_len;
    return SLOTGEN_OK;
}
<% endif %>

// The bytes of a key of `len` bytes that its slot is computed from, a pointer into the key
// with its length in *hashtag_len; NULL when hashtag_len is NULL, or key is NULL with a
// nonzero length. They are {{rule.doc}}.
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

// The slot of a key of `len` bytes (a NULL key counts as the empty key): {{ slot_of("crc") }},
// for the CRC of {{rule.doc}}.
static inline unsigned long slotgen_slot(const void *key, size_t len) {
    size_t hashed_len;
    const unsigned char *hashed = slotgen_hashtag(key, key != NULL ? len : 0, &hashed_len);
    return (unsigned long)({{ slot_of("slotgen_crc(hashed, hashed_len)") }});
}
<% if lookup.split %>

// Tags as bytes: entry v of a table is its SLOTGEN_ENTRY_BYTES bytes from
// v * SLOTGEN_ENTRY_BYTES on, a tag's SLOTGEN_TAG_LEN bytes in order and then zeros up to a
// whole number of SLOTGEN_WORD_BYTES-byte words. The tag of a value v is entry
// v & {{lookup.low_mask | hex}} of slotgen_low xor entry v >> {{lookup.low_bits}} of slotgen_high, byte by byte: slotgen_low
// holds whole tags (the tag of value 0 folded in), slotgen_high the bytes that the value's
// high bits flip. The tag of a slot is the tag of the value slot - SLOTGEN_FIRST_SLOT. The
// functions below xor a word (uint{{8 * c.word_bytes}}_t) at a time: a xor works byte by byte, so the
// result is the same on every byte order.
#define SLOTGEN_WORD_BYTES {{c.word_bytes}}u
#define SLOTGEN_TAG_WORDS {{c.tag_words}}u
#define SLOTGEN_ENTRY_BYTES (SLOTGEN_TAG_WORDS * SLOTGEN_WORD_BYTES)
static const unsigned char slotgen_low[{{lookup.low_len}} * SLOTGEN_ENTRY_BYTES] = {
{{lookup.low | c_entries(tags.len)}}
};
static const unsigned char slotgen_high[{{lookup.high_len}} * SLOTGEN_ENTRY_BYTES] = {
{{lookup.high | c_entries(tags.len)}}
};
// A basis of the kernel, one entry each: xored into a tag, any combination keeps its
// value (one entry of zeros, never read, when the kernel is empty).
static const unsigned char slotgen_kernel[{{c.kernel_entries}} * SLOTGEN_ENTRY_BYTES] = {
{{c.kernel | c_entries(tags.len)}}
};

// Xors the words of the table entry at `entry` into word[0..SLOTGEN_TAG_WORDS].
static inline void slotgen_xor_entry(uint{{8 * c.word_bytes}}_t word[SLOTGEN_TAG_WORDS],
                                     const unsigned char *entry) {
    uint{{8 * c.word_bytes}}_t part;
    unsigned w;
    for (w = 0; w < SLOTGEN_TAG_WORDS; w++) {
        memcpy(&part, entry + w * SLOTGEN_WORD_BYTES, SLOTGEN_WORD_BYTES);
        word[w] ^= part;
    }
}

// Writes the tag of a value below SLOTGEN_VALUE_LIMIT into tag[0..SLOTGEN_TAG_LEN], with
// the kernel entries at the set bits of `combination` xored in.
static inline void slotgen_tag_of(unsigned long long value, unsigned long long combination,
                                  unsigned char tag[SLOTGEN_TAG_LEN]) {
    uint{{8 * c.word_bytes}}_t word[SLOTGEN_TAG_WORDS];
    unsigned bit;
    memcpy(word, slotgen_low + (value & {{lookup.low_mask | hex}}u) * SLOTGEN_ENTRY_BYTES, SLOTGEN_ENTRY_BYTES);
    slotgen_xor_entry(word, slotgen_high + (value >> {{lookup.low_bits}}) * SLOTGEN_ENTRY_BYTES);
    for (bit = 0; combination != 0; bit++, combination >>= 1) {
        if (combination & 1u) {
            slotgen_xor_entry(word, slotgen_kernel + bit * SLOTGEN_ENTRY_BYTES);
        }
    }
    memcpy(tag, word, SLOTGEN_TAG_LEN);
}
<% else %>

// The tag of a value v is slotgen_zero_tag xor the rows i of slotgen_columns over the set
// bits i of v: row i flips bit i of the tag's value (the CRC's value after the shift and
// mask), and slotgen_zero_tag is the tag of value 0. The tag of a slot is the tag of the
// value slot - SLOTGEN_FIRST_SLOT. Rows are SLOTGEN_TAG_LEN bytes each.
static const unsigned char slotgen_zero_tag[SLOTGEN_TAG_LEN] = {
{{[tags.zero] | byte_rows("    ")}}
};
static const unsigned char slotgen_columns[{{tags.solved_bits}} * SLOTGEN_TAG_LEN] = {
{{tags.columns | byte_rows("    ")}}
};
// A basis of the kernel, one row each: xored into a tag, any combination keeps its value
// (one row of zeros, never read, when the kernel is empty).
static const unsigned char slotgen_kernel[{{c.kernel_entries}} * SLOTGEN_TAG_LEN] = {
{{c.kernel | byte_rows("    ")}}
};

// Xors the rows of `rows` at the set bits of `bits` into tag[0..SLOTGEN_TAG_LEN].
static inline void slotgen_xor_rows(unsigned char tag[SLOTGEN_TAG_LEN],
                                    const unsigned char *rows, unsigned long long bits) {
    unsigned row, i;
    for (row = 0; bits != 0; row++, bits >>= 1) {
        if (bits & 1u) {
            for (i = 0; i < SLOTGEN_TAG_LEN; i++) {
                tag[i] ^= rows[row * SLOTGEN_TAG_LEN + i];
            }
        }
    }
}

// Writes the tag of a value below SLOTGEN_VALUE_LIMIT into tag[0..SLOTGEN_TAG_LEN], with
// the kernel rows at the set bits of `combination` xored in.
static inline void slotgen_tag_of(unsigned long long value, unsigned long long combination,
                                  unsigned char tag[SLOTGEN_TAG_LEN]) {
    memcpy(tag, slotgen_zero_tag, SLOTGEN_TAG_LEN);
    slotgen_xor_rows(tag, slotgen_columns, value);
    slotgen_xor_rows(tag, slotgen_kernel, combination);
}
<% endif %>

// The number of kernel rows.
#define SLOTGEN_KERNEL_LEN {{tags.kernel_len}}u
// Tags reach the values below this; a slot's are slot - SLOTGEN_FIRST_SLOT + k * SLOTGEN_SLOTS.
#define SLOTGEN_VALUE_LIMIT {{tags.value_limit}}ull

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

<% if rule.whole %>
// Writes the key of `slot` into out[0..out_size] and its length into *key_len: prefix, the
// tag, then suffix. This scheme hashes the whole key, so the tag is solved inside the frame
// (slotgen_frame_solve, then slotgen_frame_key; the tag alone, slotgen_tag_for_slot's, when
// prefix_len and suffix_len are 0): to build keys of many slots in one frame, solve it once
// and call slotgen_frame_key. Returns SLOTGEN_OK, or SLOTGEN_SLOT_OUT_OF_RANGE,
// SLOTGEN_FRAME_NOT_SOLVABLE (tags of SLOTGEN_TAG_LEN symbols cannot reach every slot inside
// this prefix and suffix), SLOTGEN_BUFFER_TOO_SMALL (out_size is below the key's length),
// SLOTGEN_NULL_POINTER (out or key_len is NULL, or prefix or suffix is NULL with a nonzero
// length), or SLOTGEN_KEY_TOO_LONG (the key's length does not fit a size_t).
static inline int slotgen_key_for_slot(const void *prefix, size_t prefix_len,
                                       unsigned long slot,
                                       const void *suffix, size_t suffix_len,
                                       unsigned char *out, size_t out_size, size_t *key_len) {
    struct slotgen_frame frame;
    int status;
    if (out == NULL || key_len == NULL || (prefix == NULL && prefix_len != 0)
        || (suffix == NULL && suffix_len != 0)) {
        return SLOTGEN_NULL_POINTER;
    }
    if (slot - SLOTGEN_FIRST_SLOT >= SLOTGEN_SLOTS) {
        return SLOTGEN_SLOT_OUT_OF_RANGE;
    }
    if (prefix_len > SIZE_MAX - SLOTGEN_TAG_LEN - 2u
        || suffix_len > SIZE_MAX - SLOTGEN_TAG_LEN - 2u - prefix_len) {
        return SLOTGEN_KEY_TOO_LONG;
    }
    if (out_size < prefix_len + SLOTGEN_TAG_LEN + suffix_len) {
        return SLOTGEN_BUFFER_TOO_SMALL;
    }
    if (prefix_len == 0 && suffix_len == 0) {
        *key_len = SLOTGEN_TAG_LEN;
        return slotgen_tag_for_slot(slot, out);
    }
    status = slotgen_frame_solve(prefix, prefix_len, suffix, suffix_len, &frame);
    if (status != SLOTGEN_OK) {
        return status;
    }
    return slotgen_frame_key(&frame, slot, out, out_size, key_len);
}

<% else %>
// Writes the key of `slot` into out[0..out_size] and its length into *key_len: prefix, SLOTGEN_OPEN, the tag, SLOTGEN_CLOSE, then suffix; its hashtag is the tag, so
// it lands on `slot` whatever the suffix holds.
// Returns SLOTGEN_OK, or SLOTGEN_SLOT_OUT_OF_RANGE, SLOTGEN_PREFIX_HAS_DELIMITER (the prefix contains
// SLOTGEN_OPEN),
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
    return slotgen_write_key((const unsigned char *)prefix, prefix_len, tag,
                             (const unsigned char *)suffix, suffix_len, out, out_size, key_len);
}

<% endif %>
/* The slot every one of the n keys lands on (key i is keys[i], lens[i] bytes), as a
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
