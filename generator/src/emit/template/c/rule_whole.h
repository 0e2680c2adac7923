
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
#define SLOTGEN_ALPHABET_OFFSET {{alphabet_offset}}u
// The bits of a symbol's index.
#define SLOTGEN_SYMBOL_BITS {{symbol_bits}}u
// The low value bits a tag is solved for: a key of the slot has slot - SLOTGEN_FIRST_SLOT
// there.
#define SLOTGEN_SOLVED_BITS {{solved_bits}}u
// The tag's input bits (columns): symbol bit j of tag byte k is column
// k * SLOTGEN_SYMBOL_BITS + j.
#define SLOTGEN_INPUT_BITS (SLOTGEN_TAG_LEN * SLOTGEN_SYMBOL_BITS)
// Words of 32 columns in a row of the elimination: column i is bit i % 32 of word i / 32.
#define SLOTGEN_INPUT_WORDS ((SLOTGEN_INPUT_BITS + 31u) / 32u)
// SLOTGEN_SOLVED_BITS, or 1 when it is 0: C has no empty arrays.
#define SLOTGEN_FRAME_ROWS {{frame_rows}}u

// Bit j of a symbol's index xors slotgen_alphabet_basis[j] into SLOTGEN_ALPHABET_OFFSET.
static const unsigned char slotgen_alphabet_basis[SLOTGEN_SYMBOL_BITS] = { {{alphabet_basis}} };

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
{{crc_update}}
    }
    return crc;
}

// The value of the frame's key with `tag`: (crc >> {{shift}}) & {{value_mask}}, for the CRC that
// slotgen_slot computes of a key's hashtag.
static inline uint32_t slotgen_frame_value(const struct slotgen_frame *frame,
                                           const unsigned char tag[SLOTGEN_TAG_LEN]) {
    {{register}} crc = {{crc_start}};
    crc = slotgen_crc_feed(crc, frame->prefix, frame->prefix_len);
    crc = slotgen_crc_feed(crc, tag, SLOTGEN_TAG_LEN);
    crc = slotgen_crc_feed(crc, frame->suffix, frame->suffix_len);
{{crc_finish}}    return (uint32_t)(crc >> {{shift}}) & {{value_mask}}u;
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
