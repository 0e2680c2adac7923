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

