/// <summary>
/// Slots of the {{scheme}} scheme ({{systems}}): see the comment at the top of this file.
/// </summary>
public static class {{class}}
{
    /// <summary>The number of slots.</summary>
    public const int Slots = {{slots}};

    /// <summary>The first slot; slots are FirstSlot to LastSlot.</summary>
    public const int FirstSlot = {{first_slot}};

    /// <summary>The last slot.</summary>
    public const int LastSlot = {{last_slot}};

    /// <summary>Symbols (bytes) per tag.</summary>
    public const int TagLen = {{tag_len}};

    /// <summary>A slot that is not from FirstSlot to LastSlot.</summary>
    public sealed class SlotOutOfRangeException : ArgumentOutOfRangeException
    {
        internal SlotOutOfRangeException(int slot)
            : base("slot", slot, string.Format(
                "slot {0} is out of range: the slots are {1} to {2}", slot, FirstSlot, LastSlot))
        {
        }
    }
{{rule}}
    /// <summary>
    /// The bytes of the key that its slot is computed from: {{rule_doc}}.
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
    // register{{reflected_note}}.
    private static readonly uint[] CrcTable =
    {
{{crc_table}}
    };

    private static uint Crc(byte[] data, int start, int length)
    {
        uint crc = {{crc_start}};
        int end = start + length;
        for (int i = start; i < end; i++)
        {
            uint b = data[i];
{{crc_update}}
        }
{{crc_finish}}        return crc;
    }

    // The register after one more byte b (0 to 255): Crc's step.
    private static uint Step(uint crc, uint b)
    {
{{crc_update}}
        return crc;
    }

    // The CRC of the UTF-8 bytes of text[start..end] as Encoding.UTF8 encodes them (a lone
    // surrogate as U+FFFD's bytes), each byte made as the loop reads its char, so that no
    // byte array is made.
    private static uint CrcText(string text, int start, int end)
    {
        uint crc = {{crc_start}};
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
{{crc_finish}}        return crc;
    }

    /// <summary>
    /// The slot of a key: {{slot_formula}}, for the CRC of {{rule_doc}}.
    /// </summary>
    /// <exception cref="ArgumentNullException">The key is null.</exception>
    public static int Slot(byte[] key)
    {
        CheckNotNull(key, "key");
        uint crc = CrcHashed(key);
        return {{slot_expression}};
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
        return {{slot_expression}};
    }
{{lookup}}
    // A basis of the kernel, KernelLen rows of TagLen bytes: xored into a tag, any
    // combination keeps its value.
    private static readonly byte[] Kernel =
    {
{{kernel}}
    };

    private const int KernelLen = {{kernel_len}};

    // The last of a value's 2^KernelLen combinations of the kernel.
    private const ulong LastCombination = {{last_combination}};

    // Tags reach the values below this; a slot's are slot - FirstSlot + k * Slots.
    private const long ValueLimit = {{value_limit}};

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
