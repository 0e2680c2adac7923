
    // The tag of a value v is row (v & {{low_mask}}) of LowTags xor row (v >> {{low_bits}}) of
    // HighTags, rows of TagLen bytes: LowTags holds whole tags (the tag of value 0 folded in),
    // HighTags the bytes that the value's high bits flip. The tag of a slot is the tag of the
    // value slot - FirstSlot.
    private static readonly byte[] LowTags =
    {
{{low_rows}}
    };

    private static readonly byte[] HighTags =
    {
{{high_rows}}
    };

    private static byte[] TagOf(long value)
    {
        int low = (int)(value & {{low_mask}}) * TagLen;
        int high = (int)(value >> {{low_bits}}) * TagLen;
        byte[] tag = new byte[TagLen];
        for (int i = 0; i < TagLen; i++)
        {
            tag[i] = (byte)(LowTags[low + i] ^ HighTags[high + i]);
        }
        return tag;
    }
