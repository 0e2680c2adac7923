<# The Java source file: one final class, every part chosen here. #>
<% from "reduction.jinja" import infix %>
<# The slot of the CRC `crc`, on a `long`: the mask written with `L`, so that a mask of 32
   bits is not the `int` -1 widened (`crc & 0xffffffffL`). An `int` holds a CRC-32 signed:
   its slot is computed from the unsigned long. #>
<% macro slot_of(crc) %>{{ infix(reduction, crc, (reduction.mask | hex) ~ "L") }}<% endmacro %>
<% set register = "crc" if crc.width < 32 else "Integer.toUnsignedLong(crc)" %>
<# The register after one more byte b: the reflected or the shifted step. #>
<% macro crc_update() %>
<% if crc.refin %>
            crc = (crc >>> 8) ^ CRC_TABLE[(crc ^ b) & 0xff];
<% else %>
            crc = (crc << 8) ^ CRC_TABLE[((crc >>> {{crc.top_shift}}) ^ b) & 0xff];
<% endif %>
<% endmacro %>
<# The register's finish: its reflection when refin != refout, the xor with xorout. #>
<% macro crc_finish() %>
<% if crc.reflect_out %>
        crc = Integer.reverse(crc) >>> {{32 - crc.width}}; // refin != refout: reflect the register
<% endif %>
<% if crc.xorout %>
        crc ^= {{crc.xorout | hex}};
<% endif %>
<% endmacro %>
{{header}}//
// Slots of the {{scheme}} scheme, both ways: the slot of a key, and a key for a slot in
// O(1). One source file for Java 11 and later, standard library only. Keys are bytes; a
// String key is encoded as UTF-8 first. A slot is a long from FIRST_SLOT to LAST_SLOT.
//
//   {{class}}.slot("123456789") == {{examples.check_slot}}
//   {{class}}.tagForSlot({{class}}.FIRST_SLOT) -> the bytes of "{{examples.tag}}"
//   {{class}}.keyForSlot({{examples.prefix}}, {{class}}.FIRST_SLOT, {{examples.suffix}}) -> {{"\"" ~ examples.key ~ "\"" if alphabet.ascii else "(the String form needs an ASCII alphabet)"}}
//   {{class}}.tagsForSlot({{class}}.FIRST_SLOT) -> a lazy Stream of the slot's tags
//
// Refused calls throw an IllegalArgumentException (SlotOutOfRangeException or
// {{"FrameNotSolvableException" if rule.whole else "PrefixHasDelimiterException"}}), with the rule and the way out.
<% if package %>
package {{package}};
<% endif %>

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.LongStream;
import java.util.stream.Stream;

/** Slots of one scheme: see the comment at the top of this file. */
public final class {{class}} {
    /** The number of slots. */
    public static final long SLOTS = {{slots.count}}L;
    /** The first slot; slots are FIRST_SLOT to LAST_SLOT. */
    public static final long FIRST_SLOT = {{slots.first}}L;
    /** The last slot. */
    public static final long LAST_SLOT = {{slots.last}}L;
    /** Symbols (bytes) per tag. */
    public static final int TAG_LEN = {{tags.len}};

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
<% if rule.whole %>

    /**
     * No tag of TAG_LEN symbols inside the prefix and suffix reaches every slot: there the
     * tags control fewer value bits than a slot needs.
     */
    public static final class FrameNotSolvableException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        /** How many of the value bits a slot needs the tags control inside the frame. */
        public final int rank;

        FrameNotSolvableException(int rank) {
            super(String.format("inside this prefix and suffix, tags of %d symbols control only"
                    + " %d of the %d value bits a slot needs: change the prefix or suffix, or"
                    + " emit the class for another tag length (--tag-len)", TAG_LEN, rank,
                    SOLVED_BITS));
            this.rank = rank;
        }
    }

    // The bounds {from, to} of the bytes of a key that its slot is computed from, as
    // from << 32 | to: the whole key, {0, key.length}; this scheme has no hashtag.
    private static long hashed(byte[] key) {
        return key.length;
    }

    // A String key's slot is computed from its chars, encoded as the CRC reads them.
    private static final boolean TEXT_RULE = true;

    // The range {from, to} of chars whose UTF-8 bytes are hashed, as from << 32 | to: all.
    private static long hashedText(String key) {
        return key.length();
    }

    // Solving a tag inside a frame: the value of prefix + tag + suffix is affine in the tag's
    // bits (a CRC over keys of one length is), so it is measured at the tag whose symbols all
    // have index 0 and at each single bit flipped, and solved by Gauss-Jordan elimination
    // with pivot columns in ascending order and every free bit zero: the tag `slotgen key
    // --prefix --suffix` gives, with this class's alphabet and tag length. A frame is solved
    // once and kept (the last one).

    // The alphabet's first symbol, and what bit j of a symbol's index xors into it.
    private static final byte ALPHABET_OFFSET = {{alphabet.offset | java_byte}};
    private static final byte[] ALPHABET_BASIS = {<% for b in alphabet.basis %>{{b | java_byte}}<% if not loop.last %>, <% endif %><% endfor %>};
    // The low value bits a tag is solved for: a key of the slot has slot - FIRST_SLOT there.
    private static final int SOLVED_BITS = {{tags.solved_bits}};

    // A solved frame: its prefix and suffix (copies), the value of its tag whose symbols all
    // have index 0, and for each pivot column, ascending, the column (an input bit: symbol
    // bit j of tag byte k is column k * ALPHABET_BASIS.length + j) and the value bits whose
    // sum sets it. Never changed once made.
    private static final class SolvedFrame {
        final byte[] head;
        final byte[] tail;
        final long base;
        final int[] columns;
        final long[] sums;

        SolvedFrame(byte[] head, byte[] tail, long base, int[] columns, long[] sums) {
            this.head = head;
            this.tail = tail;
            this.base = base;
            this.columns = columns;
            this.sums = sums;
        }
    }

    // The frame solved last; a thread reads it whole or sees another.
    private static volatile SolvedFrame lastFrame;

    // The value of any bytes: (crc >>> {{reduction.shift}}) & {{reduction.mask | hex}}, for the CRC that slot()
    // computes of a key.
    private static long value(byte[] bytes) {
        return (Integer.toUnsignedLong(crc(bytes, 0, bytes.length)) >>> {{reduction.shift}}) & {{reduction.mask | hex}}L;
    }

    // Whether bit i of a bitset is set: bit i % 64 of word i / 64.
    private static boolean isSet(long[] bits, int i) {
        return (bits[i >>> 6] >>> (i & 63) & 1) != 0;
    }

    // The key head + tag + tail with every symbol of the tag at index 0.
    private static byte[] zeroKey(byte[] head, byte[] tail) {
        byte[] key = new byte[head.length + TAG_LEN + tail.length];
        System.arraycopy(head, 0, key, 0, head.length);
        Arrays.fill(key, head.length, head.length + TAG_LEN, ALPHABET_OFFSET);
        System.arraycopy(tail, 0, key, head.length + TAG_LEN, tail.length);
        return key;
    }

    // The frame's solver (see SolvedFrame), kept or solved.
    private static SolvedFrame frame(byte[] head, byte[] tail) {
        SolvedFrame last = lastFrame;
        if (last != null && Arrays.equals(last.head, head) && Arrays.equals(last.tail, tail)) {
            return last;
        }
        int bits = ALPHABET_BASIS.length;
        int width = TAG_LEN * bits;
        byte[] key = zeroKey(head, tail);
        long base = value(key);
        long solved = (1L << SOLVED_BITS) - 1;
        // one row a value bit: its columns as a bitset, and the value bits summed into it
        long[][] rows = new long[SOLVED_BITS][(width + 63) >>> 6];
        long[] sums = new long[SOLVED_BITS];
        for (int r = 0; r < SOLVED_BITS; r++) {
            sums[r] = 1L << r;
        }
        for (int k = 0; k < TAG_LEN; k++) {
            for (int j = 0; j < bits; j++) {
                key[head.length + k] ^= ALPHABET_BASIS[j];
                long column = (value(key) ^ base) & solved;
                key[head.length + k] ^= ALPHABET_BASIS[j];
                int i = k * bits + j;
                for (int r = 0; r < SOLVED_BITS; r++) {
                    if ((column >>> r & 1) != 0) {
                        rows[r][i >>> 6] |= 1L << (i & 63);
                    }
                }
            }
        }
        int[] pivots = new int[SOLVED_BITS];
        int rank = 0;
        for (int column = 0; column < width && rank < SOLVED_BITS; column++) {
            int found = rank;
            while (found < SOLVED_BITS && !isSet(rows[found], column)) {
                found++;
            }
            if (found == SOLVED_BITS) {
                continue;
            }
            long[] row = rows[found];
            rows[found] = rows[rank];
            rows[rank] = row;
            long sum = sums[found];
            sums[found] = sums[rank];
            sums[rank] = sum;
            for (int r = 0; r < SOLVED_BITS; r++) {
                if (r != rank && isSet(rows[r], column)) {
                    for (int w = 0; w < row.length; w++) {
                        rows[r][w] ^= row[w];
                    }
                    sums[r] ^= sum;
                }
            }
            pivots[rank++] = column;
        }
        if (rank < SOLVED_BITS) {
            throw new FrameNotSolvableException(rank);
        }
        last = new SolvedFrame(head.clone(), tail.clone(), base, pivots, sums);
        lastFrame = last;
        return last;
    }

    /**
     * The key prefix + tag + suffix of the slot: this scheme hashes the whole key, so the tag
     * is solved inside the frame (the tag alone when both are empty, tagForSlot's). A frame
     * costs TAG_LEN * ALPHABET_BASIS.length + 1 CRCs once; the class keeps the last one.
     *
     * @throws SlotOutOfRangeException unless slot is from FIRST_SLOT to LAST_SLOT
     * @throws FrameNotSolvableException when tags of TAG_LEN symbols cannot reach every
     *     slot inside this prefix and suffix
     */
    public static byte[] keyForSlot(byte[] prefix, long slot, byte[] suffix) {
        long value = checkSlot(slot);
        if (prefix.length == 0 && suffix.length == 0) {
            return tagOf(value);
        }
        SolvedFrame frame = frame(prefix, suffix);
        long target = value ^ frame.base;
        int bits = ALPHABET_BASIS.length;
        byte[] key = zeroKey(prefix, suffix);
        for (int p = 0; p < frame.columns.length; p++) {
            if ((Long.bitCount(frame.sums[p] & target) & 1) != 0) {
                int column = frame.columns[p];
                key[prefix.length + column / bits] ^= ALPHABET_BASIS[column % bits];
            }
        }
        return key;
    }
<% else %>

    /** The byte that opens a hashtag. */
    public static final byte OPEN = {{rule.open | java_byte}};
    /** The byte that closes a hashtag. */
    public static final byte CLOSE = {{rule.close | java_byte}};
    // A hashtag shorter than this hashes the whole key.
    private static final int MIN_TAG_LEN = {{rule.min_len}};

    /** The prefix of a key contains OPEN, so the key's hashtag would not be the tag. */
    public static final class PrefixHasDelimiterException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        /** Where OPEN is in the prefix. */
        public final int position;

        PrefixHasDelimiterException(int position) {
            super(String.format("prefix contains the hashtag's opening byte 0x%02x at byte %d:"
                    + " the key's hashtag would start there instead of at the tag; remove it"
                    + " from the prefix or move that part into the suffix", OPEN & 0xff, position));
            this.position = position;
        }
    }

    // The bounds {from, to} of the bytes of a key that its slot is computed from, as
    // from << 32 | to (no array to make): the bytes between the first OPEN and the first
    // CLOSE after it, when there are at least MIN_TAG_LEN of them; else the whole key, {0,
    // key.length}. A hashtag starts after OPEN, so from is 0 exactly when the whole key is
    // hashed. One loop finds both delimiters and slot() calls crc once, as Jedis does: the
    // form with a loop for each delimiter and two calls of crc measured 0.83x to 0.89x of it
    // on keys with a hashtag (docs/performance.md).
    private static long hashed(byte[] key) {
        int open = -1;
        for (int i = 0; i < key.length; i++) {
            if (open < 0) {
                if (key[i] == OPEN) {
                    open = i;
                }
            } else if (key[i] == CLOSE) {
                return i - open > MIN_TAG_LEN ? (long) (open + 1) << 32 | i : key.length;
            }
        }
        return key.length;
    }

    // Whether a String key's slot is computed from its chars without encoding it first: when
    // both delimiters are ASCII, the only UTF-8 bytes equal to them are their own chars.
    private static final boolean TEXT_RULE = {{"true" if rule.open < 128 and rule.close < 128 else "false"}};

<% macro framed_text(indent) %>
{{indent}}byte[] framed = new byte[TAG_LEN + 2];
{{indent}}framed[0] = OPEN;
{{indent}}System.arraycopy(tagForSlot(value + FIRST_SLOT), 0, framed, 1, TAG_LEN);
{{indent}}framed[TAG_LEN + 1] = CLOSE;
<% endmacro %>
<% if tags.ready %>
    // OPEN + tag + CLOSE as Strings (with an ASCII alphabet, a char a byte), by value, each
    // made the first time keyForSlot asks for it (a race makes equal Strings).
    private static final String[] FRAMED_TEXTS = new String[(int) SLOTS];

    private static String framedText(int value) {
        String text = FRAMED_TEXTS[value];
        if (text == null) {
{{ framed_text("            ") }}            text = new String(framed, StandardCharsets.ISO_8859_1);
            FRAMED_TEXTS[value] = text;
        }
        return text;
    }
<% else %>
    // OPEN + tag + CLOSE as a String (with an ASCII alphabet, a char a byte), made at each
    // call: an array of every slot's would be as large as the slot count.
    private static String framedText(int value) {
{{ framed_text("        ") }}        return new String(framed, StandardCharsets.ISO_8859_1);
    }
<% endif %>

    // hashed's rule over a String's chars (with TEXT_RULE): the range {from, to} of chars
    // whose UTF-8 bytes are hashed, as from << 32 | to. MIN_TAG_LEN is 0 or 1, so a hashtag's
    // chars count as its bytes here.
    private static long hashedText(String key) {
        int open = key.indexOf(OPEN);
        if (open >= 0) {
            int close = key.indexOf(CLOSE, open + 1);
            if (close - open > MIN_TAG_LEN) {
                return (long) (open + 1) << 32 | close;
            }
        }
        return key.length();
    }

    /**
     * The key prefix + OPEN + tag + CLOSE + suffix for the slot. Its hashtag is the tag, so
     * it lands on the slot whatever the suffix holds.
     *
     * @throws SlotOutOfRangeException unless slot is from FIRST_SLOT to LAST_SLOT
     * @throws PrefixHasDelimiterException when the prefix contains OPEN
     */
    public static byte[] keyForSlot(byte[] prefix, long slot, byte[] suffix) {
        byte[] tag = tagForSlot(slot);
        for (int i = 0; i < prefix.length; i++) {
            if (prefix[i] == OPEN) {
                throw new PrefixHasDelimiterException(i);
            }
        }
        byte[] key = new byte[prefix.length + TAG_LEN + 2 + suffix.length];
        System.arraycopy(prefix, 0, key, 0, prefix.length);
        key[prefix.length] = OPEN;
        System.arraycopy(tag, 0, key, prefix.length + 1, TAG_LEN);
        key[prefix.length + 1 + TAG_LEN] = CLOSE;
        System.arraycopy(suffix, 0, key, prefix.length + TAG_LEN + 2, suffix.length);
        return key;
    }
<% endif %>

    /**
     * The bytes of a key that its slot is computed from:
     * {{rule.doc}}.
     */
    public static byte[] hashtag(byte[] key) {
        long range = hashed(key);
        return Arrays.copyOfRange(key, (int) (range >>> 32), (int) range);
    }

    // The CRC's lookup table: entry i is the register after feeding byte i into a zero
    // register<% if crc.refin %>, reflected (the register shifts right)<% endif %>.
    private static final int[] CRC_TABLE = {
{{crc.table | hex_rows(crc.digits, 8, "        ")}}
    };

<% if native %>
    // The CRC of bytes[from..to]: java.util.zip.{{native.class}} computes {{native.name}}
    // (an intrinsic where the CPU has one), this CRC's polynomial from its start, whose
    // result is xored with 0xffffffff: this CRC with its xorout.
    private static int crc(byte[] bytes, int from, int to) {
        java.util.zip.{{native.class}} crc = new java.util.zip.{{native.class}}();
        crc.update(bytes, from, to - from);
        return (int) crc.getValue()<% if native.xor %> ^ {{native.xor | hex(8)}}<% endif %>;
    }
<% else %>
    // The CRC of bytes[from..to], in the low {{crc.width}} bits.
    private static int crc(byte[] bytes, int from, int to) {
        int crc = {{crc.start | hex(crc.digits)}};
        for (int i = from; i < to; i++) {
            int b = bytes[i];
{{crc_update() | chomp}}
        }
        crc &= {{crc.mask | hex}}; // the shifted step leaves bits above the width
{{crc_finish()}}        return crc;
    }
<% endif %>

    // The register after one more byte b (0 to 255): crc's step, which the JIT inlines.
    private static int step(int crc, int b) {
{{crc_update() | chomp}}
        return crc;
    }

    // The CRC of the UTF-8 bytes of text[from..to] as String.getBytes(UTF_8) encodes them (a
    // lone surrogate as `?`), each byte made as the loop reads its char, so that no byte
    // array is made.
    private static int crcText(String text, int from, int to) {
        int crc = {{crc.start | hex(crc.digits)}};
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
        crc &= {{crc.mask | hex}}; // the shifted step leaves bits above the width
{{crc_finish()}}        return crc;
    }

    /**
     * The slot of a key: {@code {{ slot_of("crc") }}}, for the CRC of
     * {{rule.doc}}.
     */
    public static long slot(byte[] key) {
        long range = hashed(key);
        int crc = crc(key, (int) (range >>> 32), (int) range);
        return {{ slot_of(register) }};
    }

    /** The slot of a key given as text: of its UTF-8 bytes. */
    public static long slot(String key) {
        if (!TEXT_RULE) {
            return slot(key.getBytes(StandardCharsets.UTF_8));
        }
        long range = hashedText(key);
        int crc = crcText(key, (int) (range >>> 32), (int) range);
        return {{ slot_of(register) }};
    }
<% if lookup.split %>

    // Tags as rows of TAG_LEN bytes. The tag of a value v is LOW row v & {{lookup.low_mask | hex}} xor HIGH
    // row v >>> {{lookup.low_bits}}, byte by byte: LOW holds whole tags (the tag of value 0 folded in),
    // HIGH the bytes that the value's high bits flip. The tag of a slot is the tag of the
    // value slot - FIRST_SLOT.
    private static final byte[] LOW = {
{{lookup.low | java_byte_rows("        ")}}
    };
    private static final byte[] HIGH = {
{{lookup.high | java_byte_rows("        ")}}
    };

    private static byte[] tagOf(long value) {
        int low = (int) (value & {{lookup.low_mask | hex}}) * TAG_LEN;
        int high = (int) (value >>> {{lookup.low_bits}}) * TAG_LEN;
        byte[] tag = new byte[TAG_LEN];
        for (int i = 0; i < TAG_LEN; i++) {
            tag[i] = (byte) (LOW[low + i] ^ HIGH[high + i]);
        }
        return tag;
    }
<% else %>

    // Tags as rows of TAG_LEN bytes. The tag of a value v is ZERO_TAG xor the rows i of
    // COLUMNS over the set bits i of v: row i flips bit i of the tag's value (the CRC's value
    // after the shift and mask), and ZERO_TAG is the tag of value 0. The tag of a slot is
    // the tag of the value slot - FIRST_SLOT.
    private static final byte[] ZERO_TAG = {
{{[tags.zero] | java_byte_rows("        ")}}
    };
    private static final byte[] COLUMNS = {
{{tags.columns | java_byte_rows("        ")}}
    };

    private static byte[] tagOf(long value) {
        byte[] tag = ZERO_TAG.clone();
        for (int row = 0; value != 0; row += TAG_LEN, value >>>= 1) {
            if ((value & 1) != 0) {
                for (int i = 0; i < TAG_LEN; i++) {
                    tag[i] ^= COLUMNS[row + i];
                }
            }
        }
        return tag;
    }
<% endif %>

    // A basis of the kernel, one row of TAG_LEN bytes each: xored into a tag, any
    // combination keeps its value.
    private static final byte[] KERNEL = {
{{tags.kernel | java_byte_rows("        ")}}
    };
    private static final int KERNEL_LEN = {{tags.kernel_len}};
    // Tags reach the values below this; a slot's are slot - FIRST_SLOT + k * SLOTS.
    private static final long VALUE_LIMIT = {{tags.value_limit}}L;

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
<% if alphabet.ascii %>

    /**
     * The key of {@code keyForSlot(byte[], long, byte[])} for the UTF-8 bytes of prefix and
     * suffix, as text: the tag is ASCII.
     *
     * @throws IllegalArgumentException as {@code keyForSlot(byte[], long, byte[])}
     */
    public static String keyForSlot(String prefix, long slot, String suffix) {
<% if not rule.whole %>
        if (TEXT_RULE && prefix.indexOf(OPEN) < 0 && slot >= FIRST_SLOT && slot <= LAST_SLOT) {
            // the language's own concatenation: the tag's chars are its bytes
            return prefix + framedText((int) (slot - FIRST_SLOT)) + suffix;
        }
<% endif %>
        byte[] key = keyForSlot(prefix.getBytes(StandardCharsets.UTF_8), slot,
                suffix.getBytes(StandardCharsets.UTF_8));
        return new String(key, StandardCharsets.UTF_8);
    }
<% endif %>

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
