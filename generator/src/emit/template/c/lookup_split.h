
// Tags as bytes: entry v of a table is its SLOTGEN_ENTRY_BYTES bytes from
// v * SLOTGEN_ENTRY_BYTES on, a tag's SLOTGEN_TAG_LEN bytes in order and then zeros up to a
// whole number of SLOTGEN_WORD_BYTES-byte words. The tag of a value v is entry
// v & {{low_mask}} of slotgen_low xor entry v >> {{low_bits}} of slotgen_high, byte by byte: slotgen_low
// holds whole tags (the tag of value 0 folded in), slotgen_high the bytes that the value's
// high bits flip. The tag of a slot is the tag of the value slot - SLOTGEN_FIRST_SLOT. The
// functions below xor a word ({{word_type}}) at a time: a xor works byte by byte, so the
// result is the same on every byte order.
#define SLOTGEN_WORD_BYTES {{word_bytes}}u
#define SLOTGEN_TAG_WORDS {{tag_words}}u
#define SLOTGEN_ENTRY_BYTES (SLOTGEN_TAG_WORDS * SLOTGEN_WORD_BYTES)
static const unsigned char slotgen_low[{{low_len}} * SLOTGEN_ENTRY_BYTES] = {
{{low_entries}}
};
static const unsigned char slotgen_high[{{high_len}} * SLOTGEN_ENTRY_BYTES] = {
{{high_entries}}
};
// A basis of the kernel, one entry each: xored into a tag, any combination keeps its
// value (one entry of zeros, never read, when the kernel is empty).
static const unsigned char slotgen_kernel[{{kernel_entries}} * SLOTGEN_ENTRY_BYTES] = {
{{kernel_words}}
};

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

// Writes the tag of a value below SLOTGEN_VALUE_LIMIT into tag[0..SLOTGEN_TAG_LEN], with
// the kernel entries at the set bits of `combination` xored in.
static inline void slotgen_tag_of(unsigned long long value, unsigned long long combination,
                                  unsigned char tag[SLOTGEN_TAG_LEN]) {
    {{word_type}} word[SLOTGEN_TAG_WORDS];
    unsigned bit;
    memcpy(word, slotgen_low + (value & {{low_mask}}u) * SLOTGEN_ENTRY_BYTES, SLOTGEN_ENTRY_BYTES);
    slotgen_xor_entry(word, slotgen_high + (value >> {{low_bits}}) * SLOTGEN_ENTRY_BYTES);
    for (bit = 0; combination != 0; bit++, combination >>= 1) {
        if (combination & 1u) {
            slotgen_xor_entry(word, slotgen_kernel + bit * SLOTGEN_ENTRY_BYTES);
        }
    }
    memcpy(tag, word, SLOTGEN_TAG_LEN);
}
