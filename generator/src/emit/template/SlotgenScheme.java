{{header}}//
// Slots of the {{scheme}} scheme, both ways: the slot of a key, and a key for a slot. One
// source file for Java 11 and later, standard library only. Keys are bytes; a String key is
// encoded as UTF-8 first. A slot is a long from FIRST_SLOT to LAST_SLOT.
//
//   {{class}}.slot("123456789")                 == {{check_slot}}
//   {{class}}.tagForSlot({{class}}.FIRST_SLOT)   -> the bytes of "{{tag}}"
//   {{class}}.keyForSlot({{example_prefix}}, {{class}}.FIRST_SLOT, {{example_suffix}})
//                                        -> {{key_java}}
//   {{class}}.tagsForSlot({{class}}.FIRST_SLOT)  -> a lazy Stream of the slot's tags
//
// Refused calls throw IllegalArgumentException, with the rule and the way out.
{{package}}
import java.nio.charset.StandardCharsets;
import java.util.stream.LongStream;
import java.util.stream.Stream;

/** Slots of one scheme: see the comment at the top of this file. */
public final class {{class}} {
    /** The number of slots. */
    public static final long SLOTS = {{slots}}L;
    /** The first slot; slots are FIRST_SLOT to LAST_SLOT. */
    public static final long FIRST_SLOT = {{first_slot}}L;
    /** The last slot. */
    public static final long LAST_SLOT = {{last_slot}}L;
    /** Symbols (bytes) per tag. */
    public static final int TAG_LEN = {{tag_len}};

    private {{class}}() {}

    // The CRC's lookup table: entry i is the register after feeding byte i into a zero
    // register{{reflected_note}}.
    private static final int[] CRC_TABLE = {
{{crc_table}}
    };

    private static int crc(byte[] bytes, int from, int to) {
        int crc = {{crc_start}};
        for (int i = from; i < to; i++) {
{{crc_update}}
        }
{{crc_finish}}        return crc;
    }
{{rule}}
    /**
     * The slot of a key: ((crc &gt;&gt; {{shift}}) &amp; {{value_mask}}) % SLOTS + FIRST_SLOT, for the
     * CRC of {{rule_doc}}.
     */
    public static long slot(byte[] key) {
        int[] bounds = hashed(key);
        long crc = Integer.toUnsignedLong(crc(key, bounds[0], bounds[1]));
        return ((crc >>> {{shift}}) & {{value_mask}}L) % SLOTS + FIRST_SLOT;
    }

    /** The slot of a key given as text: of its UTF-8 bytes. */
    public static long slot(String key) {
        return slot(key.getBytes(StandardCharsets.UTF_8));
    }

    // The tag of a value v is ZERO_TAG xor the rows i of COLUMNS (TAG_LEN bytes each) over
    // the set bits i of v: row i flips bit i of the tag's value (the CRC's value after the
    // shift and mask), and ZERO_TAG is the tag of value 0. The tag of a slot is the tag of
    // the value slot - FIRST_SLOT.
    private static final byte[] ZERO_TAG = {
{{zero_tag}}
    };
    private static final byte[] COLUMNS = {
{{columns}}
    };
    // A basis of the kernel, one row each: xored into a tag, any combination keeps its
    // value.
    private static final byte[] KERNEL = {
{{kernel}}
    };
    private static final int KERNEL_LEN = {{kernel_len}};
    // Tags reach the values below this; a slot's are slot - FIRST_SLOT + k * SLOTS.
    private static final long VALUE_LIMIT = {{value_limit}}L;

    private static long checkSlot(long slot) {
        if (slot < FIRST_SLOT || slot > LAST_SLOT) {
            throw new IllegalArgumentException("slot " + slot + " is out of range: this scheme's"
                    + " slots are " + FIRST_SLOT + " to " + LAST_SLOT);
        }
        return slot - FIRST_SLOT;
    }

    // The tag of a value below VALUE_LIMIT, with the KERNEL rows at the set bits of
    // combination xored in.
    private static byte[] tag(long value, long combination) {
        byte[] tag = ZERO_TAG.clone();
        for (int row = 0; value != 0; row += TAG_LEN, value >>>= 1) {
            if ((value & 1) != 0) {
                for (int i = 0; i < TAG_LEN; i++) {
                    tag[i] ^= COLUMNS[row + i];
                }
            }
        }
        for (int row = 0; combination != 0; row += TAG_LEN, combination >>>= 1) {
            if ((combination & 1) != 0) {
                for (int i = 0; i < TAG_LEN; i++) {
                    tag[i] ^= KERNEL[row + i];
                }
            }
        }
        return tag;
    }

    /**
     * A tag (TAG_LEN bytes of the alphabet) whose key lands on the slot.
     *
     * @throws IllegalArgumentException unless slot is from FIRST_SLOT to LAST_SLOT
     */
    public static byte[] tagForSlot(long slot) {
        return tag(checkSlot(slot), 0);
    }
{{key_for_slot_string}}
    /**
     * Every tag of TAG_LEN symbols that lands on the slot, lazily: for each value
     * slot - FIRST_SLOT + k * SLOTS below VALUE_LIMIT, ascending, the value's tag xor each
     * combination of KERNEL rows, in binary counting order; the tagForSlot tag first.
     *
     * @throws IllegalArgumentException unless slot is from FIRST_SLOT to LAST_SLOT
     */
    public static Stream<byte[]> tagsForSlot(long slot) {
        long first = checkSlot(slot);
        return LongStream.iterate(first, v -> v < VALUE_LIMIT, v -> v + SLOTS)
                .boxed()
                .flatMap(v -> LongStream.range(0, 1L << KERNEL_LEN).mapToObj(n -> tag(v, n)));
    }
}
