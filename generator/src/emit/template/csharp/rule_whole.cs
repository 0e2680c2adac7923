
    /// <summary>A prefix or suffix given to a scheme that hashes the whole key.</summary>
    public sealed class WholeKeyHashedException : ArgumentException
    {
        internal WholeKeyHashedException()
            : base("this scheme hashes the whole key, so a key that lands on a slot is the tag "
                + "alone: give no prefix or suffix")
        {
        }
    }

    // The whole key is hashed: no hashtag, whatever the key.
    private static int Explicit(byte[] key, out int length)
    {
        length = 0;
        return -1;
    }

    /// <summary>
    /// The key of the slot: this scheme hashes the whole key, so it is the tag alone.
    /// </summary>
    /// <exception cref="ArgumentNullException">The prefix or the suffix is null.</exception>
    /// <exception cref="SlotOutOfRangeException">The slot is not from FirstSlot to LastSlot.</exception>
    /// <exception cref="WholeKeyHashedException">The prefix or the suffix is not empty.</exception>
    public static byte[] KeyForSlot(byte[] prefix, int slot, byte[] suffix)
    {
        CheckNotNull(prefix, "prefix");
        CheckNotNull(suffix, "suffix");
        byte[] tag = TagForSlot(slot);
        if (prefix.Length != 0 || suffix.Length != 0)
        {
            throw new WholeKeyHashedException();
        }
        return tag;
    }

    /// <summary>KeyForSlot of the UTF-8 bytes of the prefix and the suffix.</summary>
    /// <exception cref="ArgumentNullException">The prefix or the suffix is null.</exception>
    /// <exception cref="SlotOutOfRangeException">The slot is not from FirstSlot to LastSlot.</exception>
    /// <exception cref="WholeKeyHashedException">The prefix or the suffix is not empty.</exception>
    public static byte[] KeyForSlot(string prefix, int slot, string suffix)
    {
        CheckNotNull(prefix, "prefix");
        CheckNotNull(suffix, "suffix");
        return KeyForSlot(Encoding.UTF8.GetBytes(prefix), slot, Encoding.UTF8.GetBytes(suffix));
    }
