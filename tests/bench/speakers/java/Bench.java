// slotgen's Java class against a table-driven CRC-16 slot function written as Java's
// Redis clients write theirs (Jedis's JedisClusterCRC16 and JedisClusterHashTag: the
// hashtag found by a loop, the table loop over bytes, String keys encoded as UTF-8 first),
// in one JVM, for String and byte[] keys. A first pass over every case warms the JIT up and
// is not printed.
//
//   javac -d OUT Slotgen.java Bench.java && java -cp OUT Bench KEY_DIR ROUNDS
//
// Prints tab-separated rows: language, function, key type, case, length, code, ns per key
// (the best of ROUNDS rounds over every key of the case).
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.List;
import java.util.function.ToLongFunction;

public final class Bench {
    private static final int[] LOOKUP_TABLE = new int[256];

    static {
        for (int b = 0; b < 256; b++) {
            int crc = b << 8;
            for (int k = 0; k < 8; k++) {
                crc = (crc & 0x8000) != 0 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
            }
            LOOKUP_TABLE[b] = crc;
        }
    }

    static int getCRC16(byte[] bytes, int s, int e) {
        int crc = 0x0000;
        for (int i = s; i < e; i++) {
            crc = ((crc << 8) ^ LOOKUP_TABLE[((crc >>> 8) ^ (bytes[i] & 0xFF)) & 0xFF]);
        }
        return crc & 0xFFFF;
    }

    static int getSlot(byte[] key) {
        int s = -1;
        int e = -1;
        boolean sFound = false;
        for (int i = 0; i < key.length; i++) {
            if (key[i] == '{' && !sFound) {
                s = i;
                sFound = true;
            }
            if (key[i] == '}' && sFound) {
                e = i;
                break;
            }
        }
        if (s > -1 && e > -1 && e != s + 1) {
            return getCRC16(key, s + 1, e) & (16384 - 1);
        }
        return getCRC16(key, 0, key.length) & (16384 - 1);
    }

    static int getSlot(String key) {
        return getSlot(key.getBytes(StandardCharsets.UTF_8));
    }

    static boolean quiet;

    static <K> long[] best(int rounds, K[] keys, ToLongFunction<K> fn) {
        long min = Long.MAX_VALUE;
        long total = -1;
        for (int r = 0; r < rounds; r++) {
            long start = System.nanoTime();
            long s = 0;
            for (K k : keys) {
                s += fn.applyAsLong(k);
            }
            long ns = System.nanoTime() - start;
            if (total >= 0 && total != s) {
                throw new IllegalStateException("rounds disagree");
            }
            total = s;
            min = Math.min(min, ns);
        }
        return new long[] {Math.round((double) min / keys.length), total};
    }

    static void row(Object... cells) {
        if (quiet) {
            return;
        }
        StringBuilder line = new StringBuilder();
        for (Object c : cells) {
            line.append(line.length() == 0 ? "" : "\t").append(c);
        }
        System.out.println(line);
    }

    public static void main(String[] args) throws Exception {
        String keyDir = args[0];
        int rounds = Integer.parseInt(args[1]);
        for (int pass = 0; pass < 2; pass++) {
            quiet = pass == 0;
            for (String kind : new String[] {"plain", "tag"}) {
                for (int n : new int[] {3, 8, 22, 64, 1024}) {
                    List<String> lines = Files.readAllLines(Paths.get(keyDir, kind + "-" + n + ".txt"));
                    String[] texts = lines.toArray(new String[0]);
                    byte[][] raw = new byte[texts.length][];
                    for (int i = 0; i < texts.length; i++) {
                        raw[i] = texts[i].getBytes(StandardCharsets.UTF_8);
                    }
                    long[] ours = best(rounds, texts, k -> Slotgen.slot(k));
                    row("java", "slot", "String", kind, n, "slotgen", ours[0]);
                    long[] peer = best(rounds, texts, k -> getSlot(k));
                    check(peer, ours);
                    row("java", "slot", "String", kind, n, "Jedis-style table", peer[0]);
                    ours = best(rounds, raw, k -> Slotgen.slot(k));
                    row("java", "slot", "byte[]", kind, n, "slotgen", ours[0]);
                    peer = best(rounds, raw, k -> getSlot(k));
                    check(peer, ours);
                    row("java", "slot", "byte[]", kind, n, "Jedis-style table", peer[0]);
                }
            }
            int slots = (int) (Slotgen.LAST_SLOT - Slotgen.FIRST_SLOT + 1);
            Long[] all = new Long[slots];
            byte[][] ready = new byte[slots][];
            String[] readyText = new String[slots];
            for (int s = 0; s < slots; s++) {
                all[s] = Slotgen.FIRST_SLOT + s;
                ready[s] = Slotgen.tagForSlot(all[s]);
                readyText[s] = new String(ready[s], StandardCharsets.ISO_8859_1);
            }
            row("java", "tagForSlot", "-", "-", "-", "slotgen", best(rounds, all, s -> Slotgen.tagForSlot(s)[0])[0]);
            row("java", "tagForSlot", "-", "-", "-", "array of tags + clone",
                    best(rounds, all, s -> ready[(int) (long) s].clone()[0])[0]);
            String prefix = "user:";
            String suffix = ":cart";
            row("java", "keyForSlot", "String", "-", "-", "slotgen",
                    best(rounds, all, s -> Slotgen.keyForSlot(prefix, s, suffix).length())[0]);
            row("java", "keyForSlot", "String", "-", "-", "array of tags + concat",
                    best(rounds, all, s -> (prefix + "{" + readyText[(int) (long) s] + "}" + suffix).length())[0]);
        }
    }

    static void check(long[] peer, long[] ours) {
        if (peer[1] != ours[1]) {
            throw new IllegalStateException("the peer disagrees");
        }
    }
}
