{{header}}//
// Slots of the {{scheme}} scheme, both ways: the slot of a key, and a key for a slot in
// O(1). One source file for Java 11 and later, standard library only. Keys are bytes; a
// String key is encoded as UTF-8 first. A slot is a long from FIRST_SLOT to LAST_SLOT.
//
//   {{class}}.slot("123456789") == {{check_slot}}
//   {{class}}.tagForSlot({{class}}.FIRST_SLOT) -> the bytes of "{{tag}}"
//   {{class}}.keyForSlot({{example_prefix}}, {{class}}.FIRST_SLOT, {{example_suffix}}) -> {{key_java}}
//   {{class}}.tagsForSlot({{class}}.FIRST_SLOT) -> a lazy Stream of the slot's tags
//
// Refused calls throw an IllegalArgumentException (SlotOutOfRangeException or
// {{key_error}}), with the rule and the way out.
{{package}}
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;
import java.util.OptionalLong;
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

    /** The slot is not from FIRST_SLOT to LAST_SLOT. */
    public static final class SlotOutOfRangeException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        /** The slot refused. */
        public final long slot;

        SlotOutOfRangeException(long slot) {
            super("slot " + slot + " is out of range: the slots are " + FIRST_SLOT + " to "
                    + LAST_SLOT);
            this.slot = slot;
        }
    }
{{rule}}
    /**
     * The bytes of a key that its slot is computed from:
     * {{rule_doc}}.
     */
    public static byte[] hashtag(byte[] key) {
        long range = hashed(key);
        return Arrays.copyOfRange(key, (int) (range >>> 32), (int) range);
    }

    // The CRC's lookup table: entry i is the register after feeding byte i into a zero
    // register{{reflected_note}}.
    private static final int[] CRC_TABLE = {
{{crc_table}}
    };

{{crc_bytes}}
    // The register after one more byte b (0 to 255): crc's step, which the JIT inlines.
    private static int step(int crc, int b) {
{{crc_update}}
        return crc;
    }

    // The CRC of the UTF-8 bytes of text[from..to] as String.getBytes(UTF_8) encodes them (a
    // lone surrogate as `?`), each byte made as the loop reads its char, so that no byte
    // array is made.
    private static int crcText(String text, int from, int to) {
        int crc = {{crc_start}};
        for (int i = from; i < to; i++) {
            int c = text.charAt(i);
            if (c < 0x80) {
                crc = step(crc, c);
            } else if (c < 0x800) {
                crc = step(step(crc, 0xc0 | (c >>> 6)), 0x80 | (c & 0x3f));
            } else if (Character.isHighSurrogate((char) c) && i + 1 < to
                    && Character.isLowSurrogate(text.charAt(i + 1))) {
                int p = Character.toCodePoint((char) c, text.charAt(++i));
                crc = step(step(crc, 0xf0 | (p >>> 18)), 0x80 | ((p >>> 12) & 0x3f));
                crc = step(step(crc, 0x80 | ((p >>> 6) & 0x3f)), 0x80 | (p & 0x3f));
            } else if (Character.isSurrogate((char) c)) {
                crc = step(crc, '?');
            } else {
                crc = step(step(crc, 0xe0 | (c >>> 12)), 0x80 | ((c >>> 6) & 0x3f));
                crc = step(crc, 0x80 | (c & 0x3f));
            }
        }
        crc &= {{crc_mask}}; // the shifted step leaves bits above the width
{{crc_finish}}        return crc;
    }

    /**
     * The slot of a key: {@code {{slot_formula}}}, for the CRC of
     * {{rule_doc}}.
     */
    public static long slot(byte[] key) {
        long range = hashed(key);
        int crc = crc(key, (int) (range >>> 32), (int) range);
        return {{slot_expression}};
    }

    /** The slot of a key given as text: of its UTF-8 bytes. */
    public static long slot(String key) {
        if (!TEXT_RULE) {
            return slot(key.getBytes(StandardCharsets.UTF_8));
        }
        long range = hashedText(key);
        int crc = crcText(key, (int) (range >>> 32), (int) range);
        return {{slot_expression}};
    }
{{lookup}}
    // A basis of the kernel, one row of TAG_LEN bytes each: xored into a tag, any
    // combination keeps its value.
    private static final byte[] KERNEL = {
{{kernel}}
    };
    private static final int KERNEL_LEN = {{kernel_len}};
    // Tags reach the values below this; a slot's are slot - FIRST_SLOT + k * SLOTS.
    private static final long VALUE_LIMIT = {{value_limit}}L;

    // The value of a slot: slot - FIRST_SLOT.
    private static long checkSlot(long slot) {
        if (slot < FIRST_SLOT || slot > LAST_SLOT) {
            throw new SlotOutOfRangeException(slot);
        }
        return slot - FIRST_SLOT;
    }

    /**
     * A tag (TAG_LEN bytes of the alphabet) whose key lands on the slot.
     *
     * @throws SlotOutOfRangeException unless slot is from FIRST_SLOT to LAST_SLOT
     */
    public static byte[] tagForSlot(long slot) {
        return tagOf(checkSlot(slot));
    }
{{key_for_slot_text}}
    /**
     * Every tag of TAG_LEN symbols that lands on the slot, lazily: for each value
     * slot - FIRST_SLOT + k * SLOTS below VALUE_LIMIT, ascending, the value's tag xor each
     * combination of KERNEL rows, in binary counting order; the tagForSlot tag first. The
     * slot is checked at once, the tags are made as the stream is consumed.
     *
     * @throws SlotOutOfRangeException unless slot is from FIRST_SLOT to LAST_SLOT
     */
    public static Stream<byte[]> tagsForSlot(long slot) {
        long first = checkSlot(slot);
        return LongStream.iterate(first, value -> value < VALUE_LIMIT, value -> value + SLOTS)
                .boxed()
                .flatMap(value -> {
                    byte[] tag = tagOf(value);
                    return LongStream.range(0, 1L << KERNEL_LEN).mapToObj(n -> withKernel(tag, n));
                });
    }

    // A copy of tag with the KERNEL rows at the set bits of combination xored in.
    private static byte[] withKernel(byte[] tag, long combination) {
        byte[] combined = tag.clone();
        for (int row = 0; combination != 0; row += TAG_LEN, combination >>>= 1) {
            if ((combination & 1) != 0) {
                for (int i = 0; i < TAG_LEN; i++) {
                    combined[i] ^= KERNEL[row + i];
                }
            }
        }
        return combined;
    }

    /**
     * The slot every key lands on, as a multi-key command or a script's keys need; empty
     * when two keys land on different slots (the server answers CROSSSLOT) or there are
     * none.
     */
    public static OptionalLong sameSlot(Iterable<byte[]> keys) {
        boolean any = false;
        long found = 0;
        for (byte[] key : keys) {
            long here = slot(key);
            if (!any) {
                found = here;
                any = true;
            } else if (here != found) {
                return OptionalLong.empty();
            }
        }
        return any ? OptionalLong.of(found) : OptionalLong.empty();
    }

    /** {@link #sameSlot(Iterable)} of the keys given as arguments or as an array. */
    public static OptionalLong sameSlot(byte[]... keys) {
        return sameSlot(Arrays.asList(keys));
    }

    /**
     * The one hashtag every key has between its delimiters, a copy; empty when a key has
     * none (its whole key is hashed), two keys have different ones, or there are none. Keys
     * that share a hashtag land on one slot whatever the slot count.
     */
    public static Optional<byte[]> sharedHashtag(Iterable<byte[]> keys) {
        byte[] found = null;
        for (byte[] key : keys) {
            long range = hashed(key);
            int from = (int) (range >>> 32);
            int to = (int) range;
            if (from == 0) {
                return Optional.empty();
            }
            if (found == null) {
                found = Arrays.copyOfRange(key, from, to);
            } else if (!Arrays.equals(found, 0, found.length, key, from, to)) {
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
