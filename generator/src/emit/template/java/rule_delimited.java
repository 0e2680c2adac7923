
    /** The byte that opens a hashtag. */
    public static final byte OPEN = {{open}};
    /** The byte that closes a hashtag. */
    public static final byte CLOSE = {{close}};
    // A hashtag shorter than this hashes the whole key.
    private static final int MIN_TAG_LEN = {{min_tag_len}};

    /** The prefix of a key contains OPEN, so the key's hashtag would not be the tag. */
    public static final class PrefixHasDelimiterException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        /** Where OPEN is in the prefix. */
        public final int position;

        PrefixHasDelimiterException(int position) {
            super(String.format("prefix contains the hashtag's opening byte 0x%02x at byte %d:"
                    + " the key's hashtag would start there instead of at the tag; remove it"
                    + " from the prefix or move that part into the suffix", OPEN & 0xff, position));
            this.position = position;
        }
    }

    // The bounds {from, to} of the bytes of a key that its slot is computed from, as
    // from << 32 | to (no array to make): the bytes between the first OPEN and the first
    // CLOSE after it, when there are at least MIN_TAG_LEN of them; else the whole key, {0,
    // key.length}. A hashtag starts after OPEN, so from is 0 exactly when the whole key is
    // hashed. One loop finds both delimiters and slot() calls crc once, as Jedis does: the
    // form with a loop for each delimiter and two calls of crc measured 0.83x to 0.89x of it
    // on keys with a hashtag (docs/performance.md).
    private static long hashed(byte[] key) {
        int open = -1;
        for (int i = 0; i < key.length; i++) {
            if (open < 0) {
                if (key[i] == OPEN) {
                    open = i;
                }
            } else if (key[i] == CLOSE) {
                return i - open > MIN_TAG_LEN ? (long) (open + 1) << 32 | i : key.length;
            }
        }
        return key.length;
    }

    // Whether a String key's slot is computed from its chars without encoding it first: when
    // both delimiters are ASCII, the only UTF-8 bytes equal to them are their own chars.
    private static final boolean TEXT_RULE = {{text_rule}};

    // OPEN + tag + CLOSE as Strings (with an ASCII alphabet, a char a byte), by value, each
    // made the first time keyForSlot asks for it (a race makes equal Strings).
    private static final String[] FRAMED_TEXTS = new String[(int) SLOTS];

    private static String framedText(int value) {
        String text = FRAMED_TEXTS[value];
        if (text == null) {
            byte[] framed = new byte[TAG_LEN + 2];
            framed[0] = OPEN;
            System.arraycopy(tagForSlot(value + FIRST_SLOT), 0, framed, 1, TAG_LEN);
            framed[TAG_LEN + 1] = CLOSE;
            text = new String(framed, StandardCharsets.ISO_8859_1);
            FRAMED_TEXTS[value] = text;
        }
        return text;
    }

    // hashed's rule over a String's chars (with TEXT_RULE): the range {from, to} of chars
    // whose UTF-8 bytes are hashed, as from << 32 | to. MIN_TAG_LEN is 0 or 1, so a hashtag's
    // chars count as its bytes here.
    private static long hashedText(String key) {
        int open = key.indexOf(OPEN);
        if (open >= 0) {
            int close = key.indexOf(CLOSE, open + 1);
            if (close - open > MIN_TAG_LEN) {
                return (long) (open + 1) << 32 | close;
            }
        }
        return key.length();
    }

    /**
     * The key prefix + OPEN + tag + CLOSE + suffix for the slot. Its hashtag is the tag, so
     * it lands on the slot whatever the suffix holds.
     *
     * @throws SlotOutOfRangeException unless slot is from FIRST_SLOT to LAST_SLOT
     * @throws PrefixHasDelimiterException when the prefix contains OPEN
     */
    public static byte[] keyForSlot(byte[] prefix, long slot, byte[] suffix) {
        byte[] tag = tagForSlot(slot);
        for (int i = 0; i < prefix.length; i++) {
            if (prefix[i] == OPEN) {
                throw new PrefixHasDelimiterException(i);
            }
        }
        byte[] key = new byte[prefix.length + TAG_LEN + 2 + suffix.length];
        System.arraycopy(prefix, 0, key, 0, prefix.length);
        key[prefix.length] = OPEN;
        System.arraycopy(tag, 0, key, prefix.length + 1, TAG_LEN);
        key[prefix.length + 1 + TAG_LEN] = CLOSE;
        System.arraycopy(suffix, 0, key, prefix.length + TAG_LEN + 2, suffix.length);
        return key;
    }
