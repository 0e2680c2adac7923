
    /**
     * No tag of TAG_LEN symbols inside the prefix and suffix reaches every slot: there the
     * tags control fewer value bits than a slot needs.
     */
    public static final class FrameNotSolvableException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        /** How many of the value bits a slot needs the tags control inside the frame. */
        public final int rank;

        FrameNotSolvableException(int rank) {
            super(String.format("inside this prefix and suffix, tags of %d symbols control only"
                    + " %d of the %d value bits a slot needs: change the prefix or suffix, or"
                    + " emit the class for another tag length (--tag-len)", TAG_LEN, rank,
                    SOLVED_BITS));
            this.rank = rank;
        }
    }

    // The bounds {from, to} of the bytes of a key that its slot is computed from, as
    // from << 32 | to: the whole key, {0, key.length}; this scheme has no hashtag.
    private static long hashed(byte[] key) {
        return key.length;
    }

    // A String key's slot is computed from its chars, encoded as the CRC reads them.
    private static final boolean TEXT_RULE = true;

    // The range {from, to} of chars whose UTF-8 bytes are hashed, as from << 32 | to: all.
    private static long hashedText(String key) {
        return key.length();
    }

    // Solving a tag inside a frame: the value of prefix + tag + suffix is affine in the tag's
    // bits (a CRC over keys of one length is), so it is measured at the tag whose symbols all
    // have index 0 and at each single bit flipped, and solved by Gauss-Jordan elimination
    // with pivot columns in ascending order and every free bit zero: the tag `slotgen key
    // --prefix --suffix` gives, with this class's alphabet and tag length. A frame is solved
    // once and kept (the last one).

    // The alphabet's first symbol, and what bit j of a symbol's index xors into it.
    private static final byte ALPHABET_OFFSET = {{offset_byte}};
    private static final byte[] ALPHABET_BASIS = {{basis_array}};
    // The low value bits a tag is solved for: a key of the slot has slot - FIRST_SLOT there.
    private static final int SOLVED_BITS = {{solved_bits}};

    // A solved frame: its prefix and suffix (copies), the value of its tag whose symbols all
    // have index 0, and for each pivot column, ascending, the column (an input bit: symbol
    // bit j of tag byte k is column k * ALPHABET_BASIS.length + j) and the value bits whose
    // sum sets it. Never changed once made.
    private static final class SolvedFrame {
        final byte[] head;
        final byte[] tail;
        final long base;
        final int[] columns;
        final long[] sums;

        SolvedFrame(byte[] head, byte[] tail, long base, int[] columns, long[] sums) {
            this.head = head;
            this.tail = tail;
            this.base = base;
            this.columns = columns;
            this.sums = sums;
        }
    }

    // The frame solved last; a thread reads it whole or sees another.
    private static volatile SolvedFrame lastFrame;

    // The value of any bytes: (crc >>> {{shift}}) & {{value_mask}}, for the CRC that slot()
    // computes of a key.
    private static long value(byte[] bytes) {
        return (Integer.toUnsignedLong(crc(bytes, 0, bytes.length)) >>> {{shift}}) & {{value_mask}}L;
    }

    // Whether bit i of a bitset is set: bit i % 64 of word i / 64.
    private static boolean isSet(long[] bits, int i) {
        return (bits[i >>> 6] >>> (i & 63) & 1) != 0;
    }

    // The key head + tag + tail with every symbol of the tag at index 0.
    private static byte[] zeroKey(byte[] head, byte[] tail) {
        byte[] key = new byte[head.length + TAG_LEN + tail.length];
        System.arraycopy(head, 0, key, 0, head.length);
        Arrays.fill(key, head.length, head.length + TAG_LEN, ALPHABET_OFFSET);
        System.arraycopy(tail, 0, key, head.length + TAG_LEN, tail.length);
        return key;
    }

    // The frame's solver (see SolvedFrame), kept or solved.
    private static SolvedFrame frame(byte[] head, byte[] tail) {
        SolvedFrame last = lastFrame;
        if (last != null && Arrays.equals(last.head, head) && Arrays.equals(last.tail, tail)) {
            return last;
        }
        int bits = ALPHABET_BASIS.length;
        int width = TAG_LEN * bits;
        byte[] key = zeroKey(head, tail);
        long base = value(key);
        long solved = (1L << SOLVED_BITS) - 1;
        // one row a value bit: its columns as a bitset, and the value bits summed into it
        long[][] rows = new long[SOLVED_BITS][(width + 63) >>> 6];
        long[] sums = new long[SOLVED_BITS];
        for (int r = 0; r < SOLVED_BITS; r++) {
            sums[r] = 1L << r;
        }
        for (int k = 0; k < TAG_LEN; k++) {
            for (int j = 0; j < bits; j++) {
                key[head.length + k] ^= ALPHABET_BASIS[j];
                long column = (value(key) ^ base) & solved;
                key[head.length + k] ^= ALPHABET_BASIS[j];
                int i = k * bits + j;
                for (int r = 0; r < SOLVED_BITS; r++) {
                    if ((column >>> r & 1) != 0) {
                        rows[r][i >>> 6] |= 1L << (i & 63);
                    }
                }
            }
        }
        int[] pivots = new int[SOLVED_BITS];
        int rank = 0;
        for (int column = 0; column < width && rank < SOLVED_BITS; column++) {
            int found = rank;
            while (found < SOLVED_BITS && !isSet(rows[found], column)) {
                found++;
            }
            if (found == SOLVED_BITS) {
                continue;
            }
            long[] row = rows[found];
            rows[found] = rows[rank];
            rows[rank] = row;
            long sum = sums[found];
            sums[found] = sums[rank];
            sums[rank] = sum;
            for (int r = 0; r < SOLVED_BITS; r++) {
                if (r != rank && isSet(rows[r], column)) {
                    for (int w = 0; w < row.length; w++) {
                        rows[r][w] ^= row[w];
                    }
                    sums[r] ^= sum;
                }
            }
            pivots[rank++] = column;
        }
        if (rank < SOLVED_BITS) {
            throw new FrameNotSolvableException(rank);
        }
        last = new SolvedFrame(head.clone(), tail.clone(), base, pivots, sums);
        lastFrame = last;
        return last;
    }

    /**
     * The key prefix + tag + suffix of the slot: this scheme hashes the whole key, so the tag
     * is solved inside the frame (the tag alone when both are empty, tagForSlot's). A frame
     * costs TAG_LEN * ALPHABET_BASIS.length + 1 CRCs once; the class keeps the last one.
     *
     * @throws SlotOutOfRangeException unless slot is from FIRST_SLOT to LAST_SLOT
     * @throws FrameNotSolvableException when tags of TAG_LEN symbols cannot reach every
     *     slot inside this prefix and suffix
     */
    public static byte[] keyForSlot(byte[] prefix, long slot, byte[] suffix) {
        long value = checkSlot(slot);
        if (prefix.length == 0 && suffix.length == 0) {
            return tagOf(value);
        }
        SolvedFrame frame = frame(prefix, suffix);
        long target = value ^ frame.base;
        int bits = ALPHABET_BASIS.length;
        byte[] key = zeroKey(prefix, suffix);
        for (int p = 0; p < frame.columns.length; p++) {
            if ((Long.bitCount(frame.sums[p] & target) & 1) != 0) {
                int column = frame.columns[p];
                key[prefix.length + column / bits] ^= ALPHABET_BASIS[column % bits];
            }
        }
        return key;
    }
