// slotgen's C# class against a table-driven CRC-16 slot function written as C#'s Redis
// clients write theirs (StackExchange.Redis's ServerSelectionStrategy.GetClusterSlot: the
// hashtag found by a loop, the table loop masked to 16 bits, string keys encoded as UTF-8
// first), in one process, for string and byte[] keys. A first pass over every case warms
// the JIT up and is not printed.
//
//   mcs -optimize+ -out:bench.exe Slotgen.cs Bench.cs && mono bench.exe KEY_DIR ROUNDS
//
// Prints tab-separated rows: language, function, key type, case, length, code, ns per key
// (the best of ROUNDS rounds over every key of the case).
using System;
using System.Diagnostics;
using System.IO;
using System.Text;

public static class Bench
{
    private static readonly ushort[] Crc16Tab = MakeTable();

    private static ushort[] MakeTable()
    {
        var table = new ushort[256];
        for (int b = 0; b < 256; b++)
        {
            int crc = b << 8;
            for (int k = 0; k < 8; k++)
            {
                crc = (crc & 0x8000) != 0 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
            }
            table[b] = (ushort)crc;
        }
        return table;
    }

    private static int GetClusterSlot(byte[] blob)
    {
        int count = blob.Length, start, end, offset = 0;
        for (start = 0; start < count; start++)
        {
            if (blob[start] == (byte)'{') break;
        }
        if (start < count - 1)
        {
            for (end = start + 1; end < count; end++)
            {
                if (blob[end] == (byte)'}') break;
            }
            if (end < count && end != start + 1)
            {
                offset = start + 1;
                count = end - offset;
            }
        }
        uint crc = 0;
        for (int i = 0; i < count; i++)
        {
            crc = ((crc << 8) ^ Crc16Tab[((crc >> 8) ^ blob[offset + i]) & 0x00FF]) & 0x0000FFFF;
        }
        return (int)(crc % 16384);
    }

    private static int GetClusterSlot(string key)
    {
        return GetClusterSlot(Encoding.UTF8.GetBytes(key));
    }

    private static bool quiet;

    private static long[] Best<K>(int rounds, K[] keys, Func<K, long> fn)
    {
        long min = long.MaxValue, total = -1;
        var watch = new Stopwatch();
        for (int r = 0; r < rounds; r++)
        {
            watch.Restart();
            long s = 0;
            foreach (K k in keys)
            {
                s += fn(k);
            }
            watch.Stop();
            long ns = watch.ElapsedTicks * (1000000000L / Stopwatch.Frequency);
            if (total >= 0 && total != s)
            {
                throw new Exception("rounds disagree");
            }
            total = s;
            min = Math.Min(min, ns);
        }
        return new long[] { (long)Math.Round((double)min / keys.Length), total };
    }

    private static void Row(params object[] cells)
    {
        if (!quiet)
        {
            Console.WriteLine(string.Join("\t", cells));
        }
    }

    public static void Main(string[] args)
    {
        string keyDir = args[0];
        int rounds = int.Parse(args[1]);
        for (int pass = 0; pass < 2; pass++)
        {
            quiet = pass == 0;
            foreach (string kind in new[] { "plain", "tag" })
            {
                foreach (int n in new[] { 3, 8, 22, 64, 1024 })
                {
                    string[] texts = File.ReadAllLines(Path.Combine(keyDir, kind + "-" + n + ".txt"));
                    byte[][] raw = Array.ConvertAll(texts, t => Encoding.UTF8.GetBytes(t));
                    long[] ours = Best(rounds, texts, k => Slotgen.Slot(k));
                    Row("csharp", "Slot", "string", kind, n, "slotgen", ours[0]);
                    long[] peer = Best(rounds, texts, k => GetClusterSlot(k));
                    Check(peer, ours);
                    Row("csharp", "Slot", "string", kind, n, "SE.Redis-style table", peer[0]);
                    ours = Best(rounds, raw, k => Slotgen.Slot(k));
                    Row("csharp", "Slot", "byte[]", kind, n, "slotgen", ours[0]);
                    peer = Best(rounds, raw, k => GetClusterSlot(k));
                    Check(peer, ours);
                    Row("csharp", "Slot", "byte[]", kind, n, "SE.Redis-style table", peer[0]);
                }
            }
            int slots = Slotgen.LastSlot - Slotgen.FirstSlot + 1;
            var all = new int[slots];
            var ready = new byte[slots][];
            var readyText = new string[slots];
            for (int s = 0; s < slots; s++)
            {
                all[s] = Slotgen.FirstSlot + s;
                ready[s] = Slotgen.TagForSlot(all[s]);
                readyText[s] = Encoding.ASCII.GetString(ready[s]);
            }
            Row("csharp", "TagForSlot", "-", "-", "-", "slotgen", Best(rounds, all, s => Slotgen.TagForSlot(s)[0])[0]);
            Row("csharp", "TagForSlot", "-", "-", "-", "array of tags + clone",
                Best(rounds, all, s => ((byte[])ready[s].Clone())[0])[0]);
            string prefix = "user:", suffix = ":cart";
            Row("csharp", "KeyForSlot", "string", "-", "-", "slotgen",
                Best(rounds, all, s => Slotgen.KeyForSlot(prefix, s, suffix).Length)[0]);
            Row("csharp", "KeyForSlot", "string", "-", "-", "array of tags + concat and UTF-8",
                Best(rounds, all, s => Encoding.UTF8.GetBytes(prefix + "{" + readyText[s] + "}" + suffix).Length)[0]);
        }
    }

    private static void Check(long[] peer, long[] ours)
    {
        if (peer[1] != ours[1])
        {
            throw new Exception("the peer disagrees");
        }
    }
}
