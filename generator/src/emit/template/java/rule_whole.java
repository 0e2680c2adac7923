
    /** A prefix or suffix was given, but this scheme hashes the whole key. */
    public static final class WholeKeyHashedException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        WholeKeyHashedException() {
            super("this scheme hashes the whole key, so a key that lands on a slot is the tag"
                    + " alone: give no prefix or suffix");
        }
    }

    // The bounds of the hashtag of a key: always null, this scheme has none.
    private static int[] explicit(byte[] key) {
        return null;
    }

    /**
     * The key of the slot: this scheme hashes the whole key, so it is the tag alone.
     *
     * @throws SlotOutOfRangeException unless slot is from FIRST_SLOT to LAST_SLOT
     * @throws WholeKeyHashedException unless prefix and suffix are empty
     */
    public static byte[] keyForSlot(byte[] prefix, long slot, byte[] suffix) {
        byte[] tag = tagForSlot(slot);
        if (prefix.length != 0 || suffix.length != 0) {
            throw new WholeKeyHashedException();
        }
        return tag;
    }
