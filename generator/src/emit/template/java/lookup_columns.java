
    // Tags as rows of TAG_LEN bytes. The tag of a value v is ZERO_TAG xor the rows i of
    // COLUMNS over the set bits i of v: row i flips bit i of the tag's value (the CRC's value
    // after the shift and mask), and ZERO_TAG is the tag of value 0. The tag of a slot is
    // the tag of the value slot - FIRST_SLOT.
    private static final byte[] ZERO_TAG = {
{{zero_tag}}
    };
    private static final byte[] COLUMNS = {
{{columns}}
    };

    private static byte[] tagOf(long value) {
        byte[] tag = ZERO_TAG.clone();
        for (int row = 0; value != 0; row += TAG_LEN, value >>>= 1) {
            if ((value & 1) != 0) {
                for (int i = 0; i < TAG_LEN; i++) {
                    tag[i] ^= COLUMNS[row + i];
                }
            }
        }
        return tag;
    }
