{{header}}//
// Redis Cluster style hash slots for this spec, both ways: the slot of a key, and a key
// for a slot in O(1). One source file for Java 11 and later, standard library only. Keys
// are bytes; a String key is encoded as UTF-8 first.
//
//   {{class}}.slot("123456789")                   == {{check_slot}}
//   {{class}}.tagForSlot(0)                       -> the bytes of "{{tag}}"
//   {{class}}.keyForSlot("user:", 0, ":profile")  -> {{key_java}}
//   {{class}}.tagsForSlot(0).count()              == {{tags_per_slot}}
//
// Refused calls throw IllegalArgumentException, with the rule and the way out.
{{package}}
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.LongStream;
import java.util.stream.Stream;

/** Hash slots of one spec: see the comment at the top of this file. */
public final class {{class}} {
    /** The number of hash slots; a slot is an int from 0 to SLOTS - 1. */
    public static final int SLOTS = {{slots}};
    /** Symbols (bytes) per tag. */
    public static final int TAG_LEN = {{tag_len}};
    /** How many tags land on each slot. */
    public static final long TAGS_PER_SLOT = {{tags_per_slot}}L;
    /** The slot of the tag whose symbols all have index 0. */
    public static final int BASE_SLOT = {{base_slot}};

    private {{class}}() {}

    // The CRC's lookup table: entry i is the register after feeding byte i into a zero
    // register{{reflected_note}}.
    private static final int[] CRC_TABLE = {
{{crc_table}}
    };

    private static int crc16(byte[] bytes, int from, int to) {
        int crc = {{start}};
        for (int i = from; i < to; i++) {
{{crc_update}}
        }
{{crc_finish}}        return crc;
    }

    // Where the hashtag of a key starts and ends: the bytes between the first `{` and the
    // next `}` when there are any, else the whole key.
    private static int[] hashtagBounds(byte[] key) {
        for (int open = 0; open < key.length; open++) {
            if (key[open] == '{') {
                for (int close = open + 1; close < key.length; close++) {
                    if (key[close] == '}') {
                        return close > open + 1 ? new int[] {open + 1, close} : new int[] {0, key.length};
                    }
                }
                break;
            }
        }
        return new int[] {0, key.length};
    }

    /**
     * The hashtag of a key: the bytes between the first `{` and the next `}` when there are
     * any, else the whole key. These are the bytes whose CRC is the slot.
     */
    public static byte[] hashtag(byte[] key) {
        int[] bounds = hashtagBounds(key);
        return Arrays.copyOfRange(key, bounds[0], bounds[1]);
    }

    /** The hash slot of a key: the CRC of its hashtag, in 0..SLOTS - 1. */
    public static int slot(byte[] key) {
        int[] bounds = hashtagBounds(key);
        return crc16(key, bounds[0], bounds[1]) & {{slot_mask}};
    }

    /** The hash slot of a key given as text: of its UTF-8 bytes. */
    public static int slot(String key) {
        return slot(key.getBytes(StandardCharsets.UTF_8));
    }

    // The alphabet: symbol i is ALPHABET[i].
    private static final byte[] ALPHABET = {
{{alphabet_bytes}}
    };

    // A tag as a mask: bits {{symbol_bits}}k to {{symbol_bits}}k+{{symbol_bits_minus_one}} hold the index of symbol k, the first
    // symbol in the lowest bits. The tag of a slot is the mask LOW[d & {{low_mask}}] ^ HIGH[d >>> {{low_bits}}]
    // for d = slot ^ BASE_SLOT: LOW[v] is the mask whose slot differs from the base slot by
    // v, and HIGH[v] by v << {{low_bits}}.
    private static final long[] LOW = {
{{low}}
    };
    private static final long[] HIGH = {
{{high}}
    };
    // A basis of the kernel: masks whose tags do not move the slot.
    private static final long[] KERNEL = {
{{kernel}}
    };

    private static int checkSlot(int slot) {
        if (slot < 0 || slot >= SLOTS) {
            throw new IllegalArgumentException("slot " + slot + " is out of range: this table has "
                    + SLOTS + " slots, so a slot is an int from 0 to " + (SLOTS - 1));
        }
        return slot;
    }

    private static long maskForSlot(int slot) {
        int delta = checkSlot(slot) ^ BASE_SLOT;
        return LOW[delta & {{low_mask}}] ^ HIGH[delta >>> {{low_bits}}];
    }

    private static byte[] tag(long mask) {
        byte[] tag = new byte[TAG_LEN];
        for (int k = 0; k < TAG_LEN; k++) {
            tag[k] = ALPHABET[(int) (mask >>> ({{symbol_bits}} * k)) & {{symbol_mask}}];
        }
        return tag;
    }

    /**
     * A tag (TAG_LEN bytes of the alphabet) whose key lands on the slot.
     *
     * @throws IllegalArgumentException unless slot is from 0 to SLOTS - 1
     */
    public static byte[] tagForSlot(int slot) {
        return tag(maskForSlot(slot));
    }

    /**
     * The key prefix + "{" + tag + "}" + suffix for the slot. Its hashtag is the tag, so it
     * lands on the slot whatever the suffix holds.
     *
     * @throws IllegalArgumentException when the slot is out of range, or the prefix
     *     contains `{`
     */
    public static byte[] keyForSlot(byte[] prefix, int slot, byte[] suffix) {
        byte[] tag = tagForSlot(slot);
        for (int i = 0; i < prefix.length; i++) {
            if (prefix[i] == '{') {
                throw new IllegalArgumentException("prefix contains `{` at byte " + i
                        + ": the key's hashtag would start there instead of at the tag;"
                        + " remove the `{` from the prefix or move that part into the suffix");
            }
        }
        byte[] key = new byte[prefix.length + TAG_LEN + 2 + suffix.length];
        System.arraycopy(prefix, 0, key, 0, prefix.length);
        key[prefix.length] = '{';
        System.arraycopy(tag, 0, key, prefix.length + 1, TAG_LEN);
        key[prefix.length + 1 + TAG_LEN] = '}';
        System.arraycopy(suffix, 0, key, prefix.length + TAG_LEN + 2, suffix.length);
        return key;
    }
{{key_for_slot_string}}
    /**
     * Every tag that lands on the slot, lazily: TAGS_PER_SLOT of them, the tagForSlot tag
     * first, then that tag's mask xor each nonzero combination of KERNEL, in binary
     * counting order.
     *
     * @throws IllegalArgumentException unless slot is from 0 to SLOTS - 1
     */
    public static Stream<byte[]> tagsForSlot(int slot) {
        long mask = maskForSlot(slot);
        return LongStream.range(0, TAGS_PER_SLOT).mapToObj(n -> tag(mask ^ kernelCombination(n)));
    }

    // The xor of the KERNEL masks at the set bits of n.
    private static long kernelCombination(long n) {
        long mask = 0;
        for (int bit = 0; n != 0; bit++, n >>>= 1) {
            if ((n & 1) != 0) {
                mask ^= KERNEL[bit];
            }
        }
        return mask;
    }

    /**
     * The slot every key lands on, as a multi-key command or a script's keys need; empty
     * when two keys land on different slots (the server answers CROSSSLOT) or there are
     * none.
     */
    public static OptionalInt sameSlot(Iterable<byte[]> keys) {
        boolean any = false;
        int found = 0;
        for (byte[] key : keys) {
            int here = slot(key);
            if (!any) {
                found = here;
                any = true;
            } else if (here != found) {
                return OptionalInt.empty();
            }
        }
        return any ? OptionalInt.of(found) : OptionalInt.empty();
    }

    /** {@link #sameSlot(Iterable)} of the keys given as arguments or as an array. */
    public static OptionalInt sameSlot(byte[]... keys) {
        return sameSlot(Arrays.asList(keys));
    }

    /**
     * The one non-empty hashtag every key has, a copy; empty when a key has none (the whole
     * key is hashed: no `{`, no `}` after it, or `{}`), two keys have different ones, or
     * there are none. Keys that share a hashtag land on one slot under every CRC and slot
     * count.
     */
    public static Optional<byte[]> sharedHashtag(Iterable<byte[]> keys) {
        byte[] found = null;
        for (byte[] key : keys) {
            int[] bounds = hashtagBounds(key);
            if (bounds[0] == 0) {
                // the whole key is hashed (a hashtag starts after its `{`, at 1 or later)
                return Optional.empty();
            }
            if (found == null) {
                found = Arrays.copyOfRange(key, bounds[0], bounds[1]);
            } else if (!Arrays.equals(found, 0, found.length, key, bounds[0], bounds[1])) {
                return Optional.empty();
            }
        }
        return Optional.ofNullable(found);
    }

    /** {@link #sharedHashtag(Iterable)} of the keys given as arguments or as an array. */
    public static Optional<byte[]> sharedHashtag(byte[]... keys) {
        return sharedHashtag(Arrays.asList(keys));
    }
}
