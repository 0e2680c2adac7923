<# The C# source file: one static class, in its namespace when the name has one, every part
   chosen here. #>
<% from "reduction.jinja" import infix %>
<# The slot of the CRC `crc`, in C#'s operators. #>
<% macro slot_of(crc) %>{{ infix(reduction, crc, reduction.mask | hex) }}<% endmacro %>
<% macro crc_update() %>
<% if crc.refin %>
            crc = (crc >> 8) ^ CrcTable[(crc ^ b) & 0xFF];
<% else %>
            crc = ((crc << 8) & {{crc.mask | hex}}u) ^ CrcTable[((crc >> {{crc.top_shift}}) ^ b) & 0xFF];
<% endif %>
<% endmacro %>
<% macro crc_finish() %>
<% if crc.reflect_out %>
        // refin != refout: reflect the register
        uint reflected = 0;
        for (int bit = 0; bit < {{crc.width}}; bit++)
        {
            reflected = (reflected << 1) | ((crc >> bit) & 1u);
        }
        crc = reflected;
<% endif %>
<% if crc.xorout %>
        crc ^= {{crc.xorout | hex}}u;
<% endif %>
<% endmacro %>
<# The class, indented inside a namespace. #>
<% macro class_text() %>
/// <summary>
/// Slots of the {{scheme}} scheme ({{systems | xml}}): see the comment at the top of this file.
/// </summary>
public static class {{class}}
{
    /// <summary>The number of slots.</summary>
    public const int Slots = {{slots.count}};

    /// <summary>The first slot; slots are FirstSlot to LastSlot.</summary>
    public const int FirstSlot = {{slots.first}};

    /// <summary>The last slot.</summary>
    public const int LastSlot = {{slots.last}};

    /// <summary>Symbols (bytes) per tag.</summary>
    public const int TagLen = {{tags.len}};

    /// <summary>A slot that is not from FirstSlot to LastSlot.</summary>
    public sealed class SlotOutOfRangeException : ArgumentOutOfRangeException
    {
        internal SlotOutOfRangeException(int slot)
            : base("slot", slot, string.Format(
                "slot {0} is out of range: the slots are {1} to {2}", slot, FirstSlot, LastSlot))
        {
        }
    }
<% if rule.whole %>

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
    private const byte AlphabetOffset = {{alphabet.offset | hex(2)}};

    private static readonly byte[] AlphabetBasis = { {{alphabet.basis | map("hex", 2) | join(", ")}} };

    // The low value bits a tag is solved for: a key of the slot has slot - FirstSlot there.
    private const int FrameSolvedBits = {{tags.solved_bits}};

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

    // The value of any bytes: (crc >> {{reduction.shift}}) & {{reduction.mask | hex}}, for the CRC that Slot computes of
    // a key's hashtag.
    private static uint Value(byte[] data)
    {
        return (Crc(data, 0, data.Length) >> {{reduction.shift}}) & {{reduction.mask | hex}}u;
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
<% else %>

    /// <summary>The byte that opens a hashtag.</summary>
    public const byte Open = {{rule.open | hex(2)}};

    /// <summary>The byte that closes a hashtag.</summary>
    public const byte Close = {{rule.close | hex(2)}};

    // A hashtag shorter than this hashes the whole key.
    private const int MinTagLen = {{rule.min_len}};

    /// <summary>A prefix that contains Open, so that the key's hashtag would not be the tag.</summary>
    public sealed class PrefixHasDelimiterException : ArgumentException
    {
        internal PrefixHasDelimiterException(int position)
            : base(string.Format(
                "prefix contains the hashtag's opening byte 0x{0:x2} at byte {1}: the key's hashtag "
                + "would start there instead of at the tag; remove it from the prefix or move that "
                + "part into the suffix", Open, position), "prefix")
        {
            Position = position;
        }

        /// <summary>Where the prefix holds Open.</summary>
        public int Position { get; private set; }
    }

    // Where the hashtag of the key starts, its length in length; -1 when the whole key is
    // hashed.
    private static int Explicit(byte[] key, out int length)
    {
        // loops: Array.IndexOf of a byte costs more than a short key's search on Mono
        length = 0;
        int open = 0;
        while (open < key.Length && key[open] != Open)
        {
            open++;
        }
        int close = open + 1;
        while (close < key.Length && key[close] != Close)
        {
            close++;
        }
        if (close >= key.Length || close - open - 1 < MinTagLen)
        {
            return -1;
        }
        length = close - open - 1;
        return open + 1;
    }

    // The CRC of the bytes that Explicit finds, in one pass as cluster-key-slot's: the whole
    // key's register until Open, then the hashtag's until Close; past a missing Close or a
    // short hashtag, the whole key's goes on from Open. One method: Mono inlines little,
    // and this measured faster on Mono than Explicit's loops and then Crc's.
    private static uint CrcHashed(byte[] key)
    {
        int n = key.Length;
        int open = 0;
        uint crc = {{crc.start | hex(crc.digits)}}u;
        for (; open < n; open++)
        {
            uint b = key[open];
            if (b == Open)
            {
                break;
            }
{{crc_update() | chomp}}
        }
        if (open < n)
        {
            uint whole = crc;
            crc = {{crc.start | hex(crc.digits)}}u;
            int close = open + 1;
            for (; close < n; close++)
            {
                uint b = key[close];
                if (b == Close)
                {
                    break;
                }
{{crc_update() | chomp}}
            }
            if (close >= n || close - open - 1 < MinTagLen)
            {
                crc = whole;
                for (int i = open; i < n; i++)
                {
                    uint b = key[i];
{{crc_update() | chomp}}
                }
            }
        }
{{crc_finish()}}        return crc;
    }

    // Whether a string key's slot is computed from its chars without encoding it first: when
    // both delimiters are ASCII, the only UTF-8 bytes equal to them are their own chars.
    private static readonly bool TextRule = {{"true" if rule.open < 128 and rule.close < 128 else "false"}};

    // Explicit's rule over a string's chars (with TextRule): the chars start..end whose
    // UTF-8 bytes are hashed. MinTagLen is 0 or 1, so a hashtag's chars count as its bytes.
    private static void HashedText(string key, out int start, out int end)
    {
        int open = key.IndexOf((char)Open);
        if (open >= 0)
        {
            int close = key.IndexOf((char)Close, open + 1);
            if (close - open > MinTagLen)
            {
                start = open + 1;
                end = close;
                return;
            }
        }
        start = 0;
        end = key.Length;
    }

    /// <summary>
    /// The key prefix + Open + tag + Close + suffix for the slot. Its hashtag is the tag, so
    /// it lands on the slot whatever the suffix holds.
    /// </summary>
    /// <exception cref="ArgumentNullException">The prefix or the suffix is null.</exception>
    /// <exception cref="SlotOutOfRangeException">The slot is not from FirstSlot to LastSlot.</exception>
    /// <exception cref="PrefixHasDelimiterException">The prefix contains Open.</exception>
    public static byte[] KeyForSlot(byte[] prefix, int slot, byte[] suffix)
    {
        CheckNotNull(prefix, "prefix");
        CheckNotNull(suffix, "suffix");
        byte[] tag = TagForSlot(slot);
        int position = Array.IndexOf(prefix, Open);
        if (position >= 0)
        {
            throw new PrefixHasDelimiterException(position);
        }
        byte[] key = new byte[prefix.Length + TagLen + 2 + suffix.Length];
        Buffer.BlockCopy(prefix, 0, key, 0, prefix.Length);
        key[prefix.Length] = Open;
        Buffer.BlockCopy(tag, 0, key, prefix.Length + 1, TagLen);
        key[prefix.Length + 1 + TagLen] = Close;
        Buffer.BlockCopy(suffix, 0, key, prefix.Length + TagLen + 2, suffix.Length);
        return key;
    }

    /// <summary>KeyForSlot of the UTF-8 bytes of the prefix and the suffix.</summary>
    /// <exception cref="ArgumentNullException">The prefix or the suffix is null.</exception>
    /// <exception cref="SlotOutOfRangeException">The slot is not from FirstSlot to LastSlot.</exception>
    /// <exception cref="PrefixHasDelimiterException">The prefix contains Open.</exception>
    public static byte[] KeyForSlot(string prefix, int slot, string suffix)
    {
        CheckNotNull(prefix, "prefix");
        CheckNotNull(suffix, "suffix");
        return KeyForSlot(Encoding.UTF8.GetBytes(prefix), slot, Encoding.UTF8.GetBytes(suffix));
    }
<% endif %>

    /// <summary>
    /// The bytes of the key that its slot is computed from: {{rule.doc | xml}}.
    /// </summary>
    /// <exception cref="ArgumentNullException">The key is null.</exception>
    public static byte[] Hashtag(byte[] key)
    {
        CheckNotNull(key, "key");
        int length;
        int start = Explicit(key, out length);
        return start < 0 ? Copy(key, 0, key.Length) : Copy(key, start, length);
    }

    // The CRC's lookup table: entry i is the register after feeding byte i into a zero
    // register<% if crc.refin %>, reflected (the register shifts right)<% endif %>.
    private static readonly uint[] CrcTable =
    {
{{crc.table | hex_rows(crc.digits, 8, "        ", "u")}}
    };

    private static uint Crc(byte[] data, int start, int length)
    {
        uint crc = {{crc.start | hex(crc.digits)}}u;
        int end = start + length;
        for (int i = start; i < end; i++)
        {
            uint b = data[i];
{{crc_update() | chomp}}
        }
{{crc_finish()}}        return crc;
    }

    // The register after one more byte b (0 to 255): Crc's step.
    private static uint Step(uint crc, uint b)
    {
{{crc_update() | chomp}}
        return crc;
    }

    // The CRC of the UTF-8 bytes of text[start..end] as Encoding.UTF8 encodes them (a lone
    // surrogate as U+FFFD's bytes), each byte made as the loop reads its char, so that no
    // byte array is made.
    private static uint CrcText(string text, int start, int end)
    {
        uint crc = {{crc.start | hex(crc.digits)}}u;
        for (int i = start; i < end; i++)
        {
            uint c = text[i];
            if (c < 0x80)
            {
                crc = Step(crc, c);
                continue;
            }
            if (c < 0x800)
            {
                crc = Step(Step(crc, 0xc0 | (c >> 6)), 0x80 | (c & 0x3f));
                continue;
            }
            if ((c & 0xfc00) == 0xd800 && i + 1 < end && (text[i + 1] & 0xfc00) == 0xdc00)
            {
                c = 0x10000 + ((c & 0x3ff) << 10) + (text[++i] & 0x3ffu);
                crc = Step(Step(crc, 0xf0 | (c >> 18)), 0x80 | ((c >> 12) & 0x3f));
            }
            else
            {
                if ((c & 0xf800) == 0xd800)
                {
                    c = 0xfffd; // a lone surrogate
                }
                crc = Step(crc, 0xe0 | (c >> 12));
            }
            crc = Step(Step(crc, 0x80 | ((c >> 6) & 0x3f)), 0x80 | (c & 0x3f));
        }
{{crc_finish()}}        return crc;
    }

    /// <summary>
    /// The slot of a key: {{ slot_of("crc") | xml }}, for the CRC of {{rule.doc | xml}}.
    /// </summary>
    /// <exception cref="ArgumentNullException">The key is null.</exception>
    public static int Slot(byte[] key)
    {
        CheckNotNull(key, "key");
        uint crc = CrcHashed(key);
        return (int)({{ slot_of("crc") }});
    }

    /// <summary>The slot of a key given as text: of its UTF-8 bytes.</summary>
    /// <exception cref="ArgumentNullException">The key is null.</exception>
    public static int Slot(string key)
    {
        CheckNotNull(key, "key");
        if (!TextRule)
        {
            return Slot(Encoding.UTF8.GetBytes(key));
        }
        int start, end;
        HashedText(key, out start, out end);
        uint crc = CrcText(key, start, end);
        return (int)({{ slot_of("crc") }});
    }
<% if lookup.split %>

    // The tag of a value v is row (v & {{lookup.low_mask | hex}}) of LowTags xor row (v >> {{lookup.low_bits}}) of
    // HighTags, rows of TagLen bytes: LowTags holds whole tags (the tag of value 0 folded in),
    // HighTags the bytes that the value's high bits flip. The tag of a slot is the tag of the
    // value slot - FirstSlot.
    private static readonly byte[] LowTags =
    {
{{lookup.low | byte_rows("        ")}}
    };

    private static readonly byte[] HighTags =
    {
{{lookup.high | byte_rows("        ")}}
    };

    private static byte[] TagOf(long value)
    {
        int low = (int)(value & {{lookup.low_mask | hex}}) * TagLen;
        int high = (int)(value >> {{lookup.low_bits}}) * TagLen;
        byte[] tag = new byte[TagLen];
        for (int i = 0; i < TagLen; i++)
        {
            tag[i] = (byte)(LowTags[low + i] ^ HighTags[high + i]);
        }
        return tag;
    }
<% else %>

    // The tag of a value v is ZeroTag xor row i of Columns (TagLen bytes) over the set bits
    // i of v: row i flips bit i of the tag's value (the CRC's value after the shift and mask),
    // and ZeroTag is the tag of value 0. The tag of a slot is the tag of the value
    // slot - FirstSlot.
    private static readonly byte[] ZeroTag =
    {
{{[tags.zero] | byte_rows("        ")}}
    };

    private static readonly byte[] Columns =
    {
{{tags.columns | byte_rows("        ")}}
    };

    private const int SolvedBits = {{tags.solved_bits}};

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
<% endif %>

    // A basis of the kernel, KernelLen rows of TagLen bytes: xored into a tag, any
    // combination keeps its value.
    private static readonly byte[] Kernel =
    {
{{tags.kernel | byte_rows("        ")}}
    };

    private const int KernelLen = {{tags.kernel_len}};

    // The last of a value's 2^KernelLen combinations of the kernel.
    private const ulong LastCombination = {{(tags.per_value - 1) | hex}}UL;

    // Tags reach the values below this; a slot's are slot - FirstSlot + k * Slots.
    private const long ValueLimit = {{tags.value_limit}};

    private static long CheckSlot(int slot)
    {
        if (slot < FirstSlot || slot > LastSlot)
        {
            throw new SlotOutOfRangeException(slot);
        }
        return (long)slot - FirstSlot;
    }

    /// <summary>A tag (TagLen bytes of the alphabet) whose key lands on the slot.</summary>
    /// <exception cref="SlotOutOfRangeException">The slot is not from FirstSlot to LastSlot.</exception>
    public static byte[] TagForSlot(int slot)
    {
        return TagOf(CheckSlot(slot));
    }

    /// <summary>
    /// Every tag of TagLen symbols that lands on the slot, lazily: for each value
    /// slot - FirstSlot + k * Slots below the value limit, ascending, the value's tag xor each
    /// combination of the kernel, in binary counting order; the TagForSlot tag first. The
    /// slot is checked at once, the tags are made as they are enumerated.
    /// </summary>
    /// <exception cref="SlotOutOfRangeException">The slot is not from FirstSlot to LastSlot.</exception>
    public static IEnumerable<byte[]> TagsForSlot(int slot)
    {
        return Tags(CheckSlot(slot));
    }

    private static IEnumerable<byte[]> Tags(long value)
    {
        for (; value < ValueLimit; value += Slots)
        {
            byte[] tag = TagOf(value);
            for (ulong n = 0; ; n++)
            {
                byte[] combined = Copy(tag, 0, TagLen);
                for (int bit = 0; bit < KernelLen; bit++)
                {
                    if ((n >> bit & 1UL) != 0)
                    {
                        Xor(combined, Kernel, bit * TagLen);
                    }
                }
                yield return combined;
                if (n == LastCombination)
                {
                    break;
                }
            }
        }
    }

    /// <summary>
    /// The slot every key lands on, as a multi-key command or a script's keys need; null
    /// when two keys land on different slots (the server answers CROSSSLOT) or there are
    /// none.
    /// </summary>
    /// <exception cref="ArgumentNullException">The keys, or one of them, are null.</exception>
    public static int? SameSlot(IEnumerable<byte[]> keys)
    {
        CheckNotNull(keys, "keys");
        int? found = null;
        foreach (byte[] key in keys)
        {
            int slot = Slot(key);
            if (found == null)
            {
                found = slot;
            }
            else if (slot != found)
            {
                return null;
            }
        }
        return found;
    }

    /// <summary>
    /// The one hashtag every key has between its delimiters; null when a key has none (its
    /// whole key is hashed), two keys have different ones, or there are none. Keys that
    /// share a hashtag land on one slot whatever the slot count.
    /// </summary>
    /// <exception cref="ArgumentNullException">The keys, or one of them, are null.</exception>
    public static byte[] SharedHashtag(IEnumerable<byte[]> keys)
    {
        CheckNotNull(keys, "keys");
        byte[] found = null;
        foreach (byte[] key in keys)
        {
            CheckNotNull(key, "key");
            int length;
            int start = Explicit(key, out length);
            if (start < 0 || (found != null && !Equal(found, key, start, length)))
            {
                return null;
            }
            if (found == null)
            {
                found = Copy(key, start, length);
            }
        }
        return found;
    }

    /// <summary>SameSlot of keys given as text: of their UTF-8 bytes.</summary>
    /// <exception cref="ArgumentNullException">The keys, or one of them, are null.</exception>
    public static int? SameSlot(IEnumerable<string> keys)
    {
        CheckNotNull(keys, "keys");
        return SameSlot(Utf8Keys(keys));
    }

    /// <summary>
    /// SharedHashtag of keys given as text: of their UTF-8 bytes; the hashtag is bytes, as
    /// KeyForSlot's key is.
    /// </summary>
    /// <exception cref="ArgumentNullException">The keys, or one of them, are null.</exception>
    public static byte[] SharedHashtag(IEnumerable<string> keys)
    {
        CheckNotNull(keys, "keys");
        return SharedHashtag(Utf8Keys(keys));
    }

    // The keys' UTF-8 bytes, one at a time as they are asked for, so that a group stops at
    // its first different key without encoding the rest.
    private static IEnumerable<byte[]> Utf8Keys(IEnumerable<string> keys)
    {
        foreach (string key in keys)
        {
            CheckNotNull(key, "key");
            yield return Encoding.UTF8.GetBytes(key);
        }
    }

    private static void CheckNotNull(object value, string name)
    {
        if (value == null)
        {
            throw new ArgumentNullException(name);
        }
    }

    private static byte[] Copy(byte[] from, int start, int length)
    {
        byte[] copy = new byte[length];
        Buffer.BlockCopy(from, start, copy, 0, length);
        return copy;
    }

    private static bool Equal(byte[] a, byte[] b, int start, int length)
    {
        if (a.Length != length)
        {
            return false;
        }
        for (int i = 0; i < length; i++)
        {
            if (a[i] != b[start + i])
            {
                return false;
            }
        }
        return true;
    }

    // tag ^= the TagLen bytes of rows from start.
    private static void Xor(byte[] tag, byte[] rows, int start)
    {
        for (int i = 0; i < TagLen; i++)
        {
            tag[i] ^= rows[start + i];
        }
    }
}
<% endmacro %>
{{header}}//
// Slots of the {{scheme}} scheme, both ways: the slot of a key, and a key for a slot in
// O(1). One C# source file for .NET and Mono, base class library only (StackExchange.Redis
// and NRedisStack take the byte arrays as RedisKey). Keys are byte arrays; a string key is
// encoded as UTF-8 first. A slot is an int from FirstSlot to LastSlot.
//
//   {{class}}.Slot("123456789")  == {{examples.check_slot}}
//   {{class}}.TagForSlot({{class}}.FirstSlot)  -> the bytes of "{{examples.tag}}"
//   {{class}}.KeyForSlot({{examples.prefix}}, {{class}}.FirstSlot, {{examples.suffix}})  -> the bytes of "{{examples.key}}"
//   {{class}}.TagsForSlot({{class}}.FirstSlot)  -> a lazy IEnumerable<byte[]>, that tag first
//
// Refused calls throw {{class}}.SlotOutOfRangeException (an ArgumentOutOfRangeException)
// or {{class}}.{{"FrameNotSolvable" if rule.whole else "PrefixHasDelimiter"}}Exception (an ArgumentException), with the rule and the way out.

using System;
using System.Collections.Generic;
using System.Text;

#if NETCOREAPP3_0_OR_GREATER
// Where nullable reference types are on: SharedHashtag answers null for none, as its
// documentation says (C# 7, which Mono's mcs compiles, cannot write `byte[]?`).
#pragma warning disable CS8600, CS8603, CS8625
#endif

<% if namespace %>
namespace {{namespace}}
{
{{class_text() | indent_lines("    ")}}}
<% else %>
{{class_text()}}<% endif +%>
