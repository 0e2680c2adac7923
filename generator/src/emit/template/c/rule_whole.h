
// The hashtag of a key: this scheme hashes the whole key, so no key has one (NULL).
static inline const unsigned char *slotgen_explicit(const unsigned char *key, size_t len,
                                                    size_t *tag_len) {
    (void)key;
    (void)len;
    (void)tag_len;
    return NULL;
}

// Writes the key, the tag alone as this scheme hashes the whole key, into out[0..out_size].
static inline int slotgen_write_key(const unsigned char *prefix, size_t prefix_len,
                                    const unsigned char tag[SLOTGEN_TAG_LEN],
                                    const unsigned char *suffix, size_t suffix_len,
                                    unsigned char *out, size_t out_size, size_t *key_len) {
    (void)prefix;
    (void)suffix;
    if (prefix_len != 0 || suffix_len != 0) {
        return SLOTGEN_WHOLE_KEY_HASHED;
    }
    if (out_size < SLOTGEN_TAG_LEN) {
        return SLOTGEN_BUFFER_TOO_SMALL;
    }
    memcpy(out, tag, SLOTGEN_TAG_LEN);
    *key_len = SLOTGEN_TAG_LEN;
    return SLOTGEN_OK;
}
