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

