
    /// <summary>
    /// A prefix and suffix inside which tags of TagLen symbols cannot reach every slot.
    /// </summary>
    public sealed class FrameNotSolvableException : ArgumentException
    {
        internal FrameNotSolvableException(int rank)
            : base(string.Format(
                "inside this prefix and suffix, tags of {0} symbols control only {1} of the {2} "
                + "value bits a slot needs: change the prefix or suffix, or emit the module for "
                + "another tag length (--tag-len)", TagLen, rank, FrameSolvedBits))
        {
            Rank = rank;
        }

        /// <summary>How many of the value bits a slot needs the tags control.</summary>
        public int Rank { get; private set; }
    }

    // The whole key is hashed: no hashtag, whatever the key.
    private static int Explicit(byte[] key, out int length)
    {
        length = 0;
        return -1;
    }

    // The CRC of the whole key.
    private static uint CrcHashed(byte[] key)
    {
        return Crc(key, 0, key.Length);
    }

    // A string key's slot is computed from its chars, encoded as the CRC reads them.
    private static readonly bool TextRule = true;

    // The chars start..end whose UTF-8 bytes are hashed: all of them.
    private static void HashedText(string key, out int start, out int end)
    {
        start = 0;
        end = key.Length;
    }

    // Solving a tag inside a frame: the value of prefix + tag + suffix is affine in the tag's
    // bits (a CRC over keys of one length is), so it is measured at the tag whose symbols all
    // have index 0 and at each single bit flipped, and solved by Gauss-Jordan elimination with
    // pivot columns in ascending order and every free bit zero: the tag `slotgen key --prefix
    // --suffix` gives, with this module's alphabet and tag length. A frame is solved once and
    // kept (the last one).

    // The alphabet's first symbol, and what bit j of a symbol's index xors into it.
    private const byte AlphabetOffset = {{alphabet_offset}};

    private static readonly byte[] AlphabetBasis = { {{alphabet_basis}} };

    // The low value bits a tag is solved for: a key of the slot has slot - FirstSlot there.
    private const int FrameSolvedBits = {{solved_bits}};

    // A solved frame: its prefix and suffix, the value of its tag whose symbols all have
    // index 0, and for each pivot column, ascending (an input bit: symbol bit j of tag byte k
    // is column k * AlphabetBasis.Length + j), the value bits whose sum sets it. Never
    // changed once made, so threads share it.
    private sealed class Frame
    {
        internal readonly byte[] Head;
        internal readonly byte[] Tail;
        internal readonly uint BaseValue;
        internal readonly int[] Pivots;
        internal readonly uint[] Sums;

        internal Frame(byte[] head, byte[] tail, uint baseValue, int[] pivots, uint[] sums)
        {
            Head = head;
            Tail = tail;
            BaseValue = baseValue;
            Pivots = pivots;
            Sums = sums;
        }
    }

    // The last frame solved.
    private static volatile Frame lastFrame;

    // The value of any bytes: (crc >> {{shift}}) & {{value_mask}}, for the CRC that Slot computes of
    // a key's hashtag.
    private static uint Value(byte[] data)
    {
        return (Crc(data, 0, data.Length) >> {{shift}}) & {{value_mask}}u;
    }

    // The key head + the tag whose symbols all have index 0 + tail.
    private static byte[] ZeroKey(byte[] head, byte[] tail)
    {
        byte[] key = new byte[head.Length + TagLen + tail.Length];
        Buffer.BlockCopy(head, 0, key, 0, head.Length);
        for (int k = 0; k < TagLen; k++)
        {
            key[head.Length + k] = AlphabetOffset;
        }
        Buffer.BlockCopy(tail, 0, key, head.Length + TagLen, tail.Length);
        return key;
    }

    // The frame's solver; head and tail are kept, so they are the caller's own copies.
    private static Frame Solve(byte[] head, byte[] tail)
    {
        int bits = AlphabetBasis.Length;
        int width = TagLen * bits;
        byte[] key = ZeroKey(head, tail);
        uint baseValue = Value(key);
        uint solved = (uint)((1UL << FrameSolvedBits) - 1);
        // one row a value bit: its columns as the bits of words (column i is bit i % 64 of
        // word i / 64), and the value bits summed into it
        ulong[][] rows = new ulong[FrameSolvedBits][];
        uint[] sums = new uint[FrameSolvedBits];
        for (int r = 0; r < FrameSolvedBits; r++)
        {
            rows[r] = new ulong[(width + 63) / 64];
            sums[r] = 1u << r;
        }
        for (int i = 0; i < width; i++)
        {
            int at = head.Length + i / bits;
            key[at] ^= AlphabetBasis[i % bits];
            uint column = (Value(key) ^ baseValue) & solved;
            key[at] ^= AlphabetBasis[i % bits];
            for (int r = 0; r < FrameSolvedBits; r++)
            {
                if ((column >> r & 1u) != 0)
                {
                    rows[r][i / 64] |= 1UL << (i % 64);
                }
            }
        }
        int[] pivots = new int[FrameSolvedBits];
        int rank = 0;
        for (int column = 0; column < width && rank < FrameSolvedBits; column++)
        {
            int word = column / 64;
            ulong bit = 1UL << (column % 64);
            int found = rank;
            while (found < FrameSolvedBits && (rows[found][word] & bit) == 0)
            {
                found++;
            }
            if (found == FrameSolvedBits)
            {
                continue;
            }
            ulong[] pivot = rows[found];
            uint pivotSums = sums[found];
            rows[found] = rows[rank];
            sums[found] = sums[rank];
            rows[rank] = pivot;
            sums[rank] = pivotSums;
            for (int r = 0; r < FrameSolvedBits; r++)
            {
                if (r != rank && (rows[r][word] & bit) != 0)
                {
                    for (int w = 0; w < pivot.Length; w++)
                    {
                        rows[r][w] ^= pivot[w];
                    }
                    sums[r] ^= pivotSums;
                }
            }
            pivots[rank] = column;
            rank++;
        }
        if (rank < FrameSolvedBits)
        {
            throw new FrameNotSolvableException(rank);
        }
        return new Frame(head, tail, baseValue, pivots, sums);
    }

    // Whether n has an odd number of set bits.
    private static bool OddBits(uint n)
    {
        bool odd = false;
        for (; n != 0; n &= n - 1)
        {
            odd = !odd;
        }
        return odd;
    }

    /// <summary>
    /// The key prefix + tag + suffix of the slot: this scheme hashes the whole key, so the tag
    /// is solved inside the frame (the tag alone when both are empty, TagForSlot's). The last
    /// prefix and suffix solved are kept: keys of one frame cost one solve.
    /// </summary>
    /// <exception cref="ArgumentNullException">The prefix or the suffix is null.</exception>
    /// <exception cref="SlotOutOfRangeException">The slot is not from FirstSlot to LastSlot.</exception>
    /// <exception cref="FrameNotSolvableException">Tags of TagLen symbols cannot reach every slot inside this prefix and suffix.</exception>
    public static byte[] KeyForSlot(byte[] prefix, int slot, byte[] suffix)
    {
        CheckNotNull(prefix, "prefix");
        CheckNotNull(suffix, "suffix");
        long value = CheckSlot(slot);
        if (prefix.Length == 0 && suffix.Length == 0)
        {
            return TagOf(value);
        }
        Frame frame = lastFrame;
        if (frame == null
            || !Equal(frame.Head, prefix, 0, prefix.Length)
            || !Equal(frame.Tail, suffix, 0, suffix.Length))
        {
            frame = Solve(Copy(prefix, 0, prefix.Length), Copy(suffix, 0, suffix.Length));
            lastFrame = frame;
        }
        uint target = (uint)value ^ frame.BaseValue;
        int bits = AlphabetBasis.Length;
        byte[] key = ZeroKey(prefix, suffix);
        for (int p = 0; p < frame.Pivots.Length; p++)
        {
            if (OddBits(frame.Sums[p] & target))
            {
                int column = frame.Pivots[p];
                key[prefix.Length + column / bits] ^= AlphabetBasis[column % bits];
            }
        }
        return key;
    }

    /// <summary>KeyForSlot of the UTF-8 bytes of the prefix and the suffix.</summary>
    /// <exception cref="ArgumentNullException">The prefix or the suffix is null.</exception>
    /// <exception cref="SlotOutOfRangeException">The slot is not from FirstSlot to LastSlot.</exception>
    /// <exception cref="FrameNotSolvableException">Tags of TagLen symbols cannot reach every slot inside this prefix and suffix.</exception>
    public static byte[] KeyForSlot(string prefix, int slot, string suffix)
    {
        CheckNotNull(prefix, "prefix");
        CheckNotNull(suffix, "suffix");
        return KeyForSlot(Encoding.UTF8.GetBytes(prefix), slot, Encoding.UTF8.GetBytes(suffix));
    }
