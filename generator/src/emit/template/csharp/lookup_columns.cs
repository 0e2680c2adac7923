
    // The tag of a value v is ZeroTag xor row i of Columns (TagLen bytes) over the set bits
    // i of v: row i flips bit i of the tag's value (the CRC's value after the shift and mask),
    // and ZeroTag is the tag of value 0. The tag of a slot is the tag of the value
    // slot - FirstSlot.
    private static readonly byte[] ZeroTag =
    {
{{zero_tag}}
    };

    private static readonly byte[] Columns =
    {
{{columns}}
    };

    private const int SolvedBits = {{solved_bits}};

    private static byte[] TagOf(long value)
    {
        byte[] tag = Copy(ZeroTag, 0, TagLen);
        for (int bit = 0; bit < SolvedBits; bit++)
        {
            if ((value >> bit & 1L) != 0)
            {
                Xor(tag, Columns, bit * TagLen);
            }
        }
        return tag;
    }
