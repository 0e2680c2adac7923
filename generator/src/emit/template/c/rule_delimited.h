
// The bytes that open and close a hashtag.
#define SLOTGEN_OPEN {{open}}
#define SLOTGEN_CLOSE {{close}}
// A hashtag shorter than this hashes the whole key.
#define SLOTGEN_MIN_TAG_LEN {{min_tag_len}}

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
