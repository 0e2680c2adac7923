
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

    // The bounds {from, to} of the hashtag of a key: the bytes between the first OPEN and
    // the first CLOSE after it, when there are at least MIN_TAG_LEN of them; else null.
    private static int[] explicit(byte[] key) {
        for (int open = 0; open < key.length; open++) {
            if (key[open] == OPEN) {
                for (int close = open + 1; close < key.length; close++) {
                    if (key[close] == CLOSE) {
                        return close - open - 1 >= MIN_TAG_LEN ? new int[] {open + 1, close} : null;
                    }
                }
                return null;
            }
        }
        return null;
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
