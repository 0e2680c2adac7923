
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
        length = 0;
        int open = Array.IndexOf(key, Open);
        if (open < 0)
        {
            return -1;
        }
        int close = Array.IndexOf(key, Close, open + 1);
        if (close < 0 || close - open - 1 < MinTagLen)
        {
            return -1;
        }
        length = close - open - 1;
        return open + 1;
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
