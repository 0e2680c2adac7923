
// The tag of a value v is slotgen_zero_tag xor the rows i of slotgen_columns over the set
// bits i of v: row i flips bit i of the tag's value (the CRC's value after the shift and
// mask), and slotgen_zero_tag is the tag of value 0. The tag of a slot is the tag of the
// value slot - SLOTGEN_FIRST_SLOT. Rows are SLOTGEN_TAG_LEN bytes each.
static const unsigned char slotgen_zero_tag[SLOTGEN_TAG_LEN] = {
{{zero_tag}}
};
static const unsigned char slotgen_columns[{{solved_bits}} * SLOTGEN_TAG_LEN] = {
{{columns}}
};
// A basis of the kernel, one row each: xored into a tag, any combination keeps its value
// (one row of zeros, never read, when the kernel is empty).
static const unsigned char slotgen_kernel[{{kernel_entries}} * SLOTGEN_TAG_LEN] = {
{{kernel_bytes}}
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
