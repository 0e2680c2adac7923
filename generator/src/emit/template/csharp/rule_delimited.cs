
    /// <summary>The byte that opens a hashtag.</summary>
    public const byte Open = {{open}};

    /// <summary>The byte that closes a hashtag.</summary>
    public const byte Close = {{close}};

    // A hashtag shorter than this hashes the whole key.
    private const int MinTagLen = {{min_tag_len}};

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
        uint crc = {{crc_start}};
        for (; open < n; open++)
        {
            uint b = key[open];
            if (b == Open)
            {
                break;
            }
{{crc_update}}
        }
        if (open < n)
        {
            uint whole = crc;
            crc = {{crc_start}};
            int close = open + 1;
            for (; close < n; close++)
            {
                uint b = key[close];
                if (b == Close)
                {
                    break;
                }
{{crc_update}}
            }
            if (close >= n || close - open - 1 < MinTagLen)
            {
                crc = whole;
                for (int i = open; i < n; i++)
                {
                    uint b = key[i];
{{crc_update}}
                }
            }
        }
{{crc_finish}}        return crc;
    }

    // Whether a string key's slot is computed from its chars without encoding it first: when
    // both delimiters are ASCII, the only UTF-8 bytes equal to them are their own chars.
    private static readonly bool TextRule = {{text_rule}};

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
