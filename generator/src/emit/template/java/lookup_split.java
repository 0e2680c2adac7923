
    // Tags as rows of TAG_LEN bytes. The tag of a value v is LOW row v & {{low_mask}} xor HIGH
    // row v >>> {{low_bits}}, byte by byte: LOW holds whole tags (the tag of value 0 folded in),
    // HIGH the bytes that the value's high bits flip. The tag of a slot is the tag of the
    // value slot - FIRST_SLOT.
    private static final byte[] LOW = {
{{low_rows}}
    };
    private static final byte[] HIGH = {
{{high_rows}}
    };

    private static byte[] tagOf(long value) {
        int low = (int) (value & {{low_mask}}) * TAG_LEN;
        int high = (int) (value >>> {{low_bits}}) * TAG_LEN;
        byte[] tag = new byte[TAG_LEN];
        for (int i = 0; i < TAG_LEN; i++) {
            tag[i] = (byte) (LOW[low + i] ^ HIGH[high + i]);
        }
        return tag;
    }
