// The harness's driver for the Java class (the protocol: tests/src/harness.rs), against
// the class `Slotgen` of its own package: the toolchain copies it into each case's package.
//
// Usage: java Driver KEYS GROUPS FEW DEEP PREFIX SUFFIX BAD_PREFIX BAD_SUFFIX

import java.io.BufferedWriter;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.Collectors;

public final class Driver {
    private Driver() {}

    private static final char[] DIGITS = "0123456789abcdef".toCharArray();

    static String hex(byte[] bytes) {
        char[] out = new char[bytes.length * 2];
        for (int i = 0; i < bytes.length; i++) {
            out[2 * i] = DIGITS[(bytes[i] >> 4) & 0xf];
            out[2 * i + 1] = DIGITS[bytes[i] & 0xf];
        }
        return new String(out);
    }

    static byte[] unhex(String text) {
        byte[] out = new byte[text.length() / 2];
        for (int i = 0; i < out.length; i++) {
            out[i] = (byte) Integer.parseInt(text.substring(2 * i, 2 * i + 2), 16);
        }
        return out;
    }

    static String tags(long slot, int n) {
        return Slotgen.tagsForSlot(slot).limit(n).map(Driver::hex).collect(Collectors.joining(","));
    }

    interface Call {
        Object run();
    }

    static void refusal(PrintWriter out, String name, Call call) {
        try {
            out.println("accepted\t" + name + "\t" + call.run());
        } catch (IllegalArgumentException e) {
            out.println("refused\t" + name + "\t" + e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }

    public static void main(String[] args) throws Exception {
        List<String> keys = Files.readAllLines(Paths.get(args[0]));
        List<List<byte[]>> groups = new ArrayList<>();
        for (String line : Files.readAllLines(Paths.get(args[1]))) {
            String[] parts = line.split(":", 2);
            List<byte[]> group = new ArrayList<>();
            String[] listed = parts[1].split(",", -1);
            for (int i = 0; i < Integer.parseInt(parts[0]); i++) {
                group.add(unhex(listed[i]));
            }
            groups.add(group);
        }
        int few = Integer.parseInt(args[2]), deep = Integer.parseInt(args[3]);
        byte[] prefix = unhex(args[4]), suffix = unhex(args[5]);
        byte[] badPrefix = unhex(args[6]), badSuffix = unhex(args[7]);
        long first = Slotgen.FIRST_SLOT, last = Slotgen.LAST_SLOT;
        PrintWriter out = new PrintWriter(new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.US_ASCII)));
        out.println("const\t" + first + "\t" + last + "\t" + Slotgen.SLOTS + "\t" + Slotgen.TAG_LEN);
        for (long s = first; s <= last; s++) {
            out.println("tag\t" + s + "\t" + hex(Slotgen.tagForSlot(s)));
        }
        for (long s = first; s <= last; s++) {
            out.println("tags\t" + s + "\t" + tags(s, few));
        }
        for (long s : new long[] {first, last}) {
            out.println("deep\t" + s + "\t" + tags(s, deep));
        }
        for (long s = first; s <= last; s++) {
            out.println("key\t" + s + "\t" + hex(Slotgen.keyForSlot(prefix, s, suffix)));
        }
        for (String k : keys) {
            out.println("slot\t" + k + "\t" + Slotgen.slot(unhex(k)));
        }
        for (String k : keys) {
            String text;
            try {
                text = StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(unhex(k))).toString();
            } catch (CharacterCodingException e) {
                continue;
            }
            out.println("str\t" + k + "\t" + Slotgen.slot(text));
        }
        for (String k : keys) {
            out.println("hashtag\t" + k + "\t" + hex(Slotgen.hashtag(unhex(k))));
        }
        for (int i = 0; i < groups.size(); i++) {
            OptionalLong same = Slotgen.sameSlot(groups.get(i));
            out.println("same\t" + i + "\t" + (same.isPresent() ? Long.toString(same.getAsLong()) : "-"));
        }
        for (int i = 0; i < groups.size(); i++) {
            Optional<byte[]> shared = Slotgen.sharedHashtag(groups.get(i).toArray(new byte[0][]));
            out.println("shared\t" + i + "\t" + shared.map(Driver::hex).orElse("-"));
        }
        // Strings that are no well-formed UTF-16 (lone surrogates, halves around a
        // delimiter) hash as String.getBytes(UTF_8) encodes them (a lone surrogate as `?`):
        // the class encodes a String as it hashes it, and getBytes is the reference.
        for (String text : new String[] {
                "\ud800", "a\udc00b", "{\ud83d}x", "x{\udc80}", "\ud83d\ude00{\ud83d",
                "{\ud800\ud800}", "\udbff{\udfff}", "\u00e9{\u0800}\uffff", "{\ud83d\ude00}",
                "\u007f\u0080\u07ff"}) {
            if (Slotgen.slot(text) != Slotgen.slot(text.getBytes(StandardCharsets.UTF_8))) {
                throw new IllegalStateException("slot of a String is not the slot of its getBytes(UTF_8)");
            }
        }
        refusal(out, "tag_above", () -> Slotgen.tagForSlot(last + 1));
        refusal(out, "tag_below", () -> Slotgen.tagForSlot(first - 1));
        refusal(out, "tags_above", () -> Slotgen.tagsForSlot(last + 1));
        refusal(out, "key_above", () -> Slotgen.keyForSlot(prefix, last + 1, suffix));
        refusal(out, "key_rule", () -> Arrays.toString(Slotgen.keyForSlot(badPrefix, first, badSuffix)));
        out.flush();
    }
}
