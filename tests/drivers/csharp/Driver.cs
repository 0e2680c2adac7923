// The harness's driver for the C# module (the protocol: tests/src/harness.rs), compiled
// with the module, whose class is Slotgen, both inside a namespace of the case's name;
// Cases.cs calls Main with the arguments:
//
// KEYS GROUPS FEW DEEP PREFIX SUFFIX BAD_PREFIX BAD_SUFFIX

using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Text;

internal static class Driver
{
    private static string Hex(byte[] bytes)
    {
        var text = new StringBuilder(bytes.Length * 2);
        foreach (byte b in bytes)
        {
            text.Append(b.ToString("x2"));
        }
        return text.ToString();
    }

    private static byte[] Unhex(string hex)
    {
        var bytes = new byte[hex.Length / 2];
        for (int i = 0; i < bytes.Length; i++)
        {
            bytes[i] = Convert.ToByte(hex.Substring(2 * i, 2), 16);
        }
        return bytes;
    }

    private static string Hexes(int slot, int n)
    {
        return string.Join(",", Slotgen.TagsForSlot(slot).Take(n).Select(Hex));
    }

    // The key as text when its bytes are UTF-8, else null.
    private static string Utf8(byte[] key)
    {
        try
        {
            string text = new UTF8Encoding(false, true).GetString(key);
            return Encoding.UTF8.GetBytes(text).SequenceEqual(key) ? text : null;
        }
        catch (ArgumentException)
        {
            return null;
        }
    }

    private static void Refusal(StringBuilder output, string name, Func<object> call)
    {
        try
        {
            object value = call();
            output.Append("accepted\t" + name + "\t" + value + "\n");
        }
        catch (ArgumentException e)
        {
            string message = e.Message.Replace("\r", " ").Replace("\n", " ");
            output.Append("refused\t" + name + "\t" + e.GetType().Name + ": " + message + "\n");
        }
    }

    private static void Main(string[] args)
    {
        int few = int.Parse(args[2]), deep = int.Parse(args[3]);
        byte[] prefix = Unhex(args[4]), suffix = Unhex(args[5]);
        byte[] badPrefix = Unhex(args[6]), badSuffix = Unhex(args[7]);
        var output = new StringBuilder();
        Action<string> line = text => output.Append(text).Append('\n');
        line("const\t" + Slotgen.FirstSlot + "\t" + Slotgen.LastSlot + "\t" + Slotgen.Slots + "\t" + Slotgen.TagLen);
        for (int s = Slotgen.FirstSlot; s <= Slotgen.LastSlot; s++)
        {
            line("tag\t" + s + "\t" + Hex(Slotgen.TagForSlot(s)));
        }
        for (int s = Slotgen.FirstSlot; s <= Slotgen.LastSlot; s++)
        {
            line("tags\t" + s + "\t" + Hexes(s, few));
        }
        foreach (int s in new[] { Slotgen.FirstSlot, Slotgen.LastSlot })
        {
            line("deep\t" + s + "\t" + Hexes(s, deep));
        }
        for (int s = Slotgen.FirstSlot; s <= Slotgen.LastSlot; s++)
        {
            line("key\t" + s + "\t" + Hex(Slotgen.KeyForSlot(prefix, s, suffix)));
        }
        List<byte[]> keys = File.ReadAllLines(args[0]).Select(Unhex).ToList();
        foreach (byte[] key in keys)
        {
            line("slot\t" + Hex(key) + "\t" + Slotgen.Slot(key));
        }
        foreach (byte[] key in keys)
        {
            string text = Utf8(key);
            if (text != null)
            {
                line("str\t" + Hex(key) + "\t" + Slotgen.Slot(text));
            }
        }
        foreach (byte[] key in keys)
        {
            line("hashtag\t" + Hex(key) + "\t" + Hex(Slotgen.Hashtag(key)));
        }
        var groups = new List<List<byte[]>>();
        foreach (string group in File.ReadAllLines(args[1]))
        {
            int colon = group.IndexOf(':');
            int count = int.Parse(group.Substring(0, colon));
            groups.Add(group.Substring(colon + 1).Split(',').Take(count).Select(Unhex).ToList());
        }
        for (int i = 0; i < groups.Count; i++)
        {
            int? same = Slotgen.SameSlot(groups[i]);
            line("same\t" + i + "\t" + (same == null ? "-" : same.ToString()));
        }
        for (int i = 0; i < groups.Count; i++)
        {
            byte[] shared = Slotgen.SharedHashtag(groups[i]);
            line("shared\t" + i + "\t" + (shared == null ? "-" : Hex(shared)));
        }
        // The string overloads answer as the bytes' do, for every group whose keys are all
        // UTF-8 (checked here: the bytes' answers are checked against the reference above).
        foreach (List<byte[]> group in groups)
        {
            List<string> texts = group.Select(Utf8).ToList();
            if (texts.Contains(null))
            {
                continue;
            }
            byte[] sharedBytes = Slotgen.SharedHashtag(group);
            byte[] sharedText = Slotgen.SharedHashtag(texts);
            if (Slotgen.SameSlot(texts) != Slotgen.SameSlot(group)
                || (sharedBytes == null) != (sharedText == null)
                || (sharedBytes != null && Hex(sharedBytes) != Hex(sharedText)))
            {
                throw new Exception("SameSlot or SharedHashtag of strings differs from that of their UTF-8 bytes");
            }
        }
        // Strings that are no well-formed UTF-16 (lone surrogates, halves around a
        // delimiter) hash as Encoding.UTF8 encodes them (a lone surrogate as U+FFFD): the class
        // encodes a string as it hashes it, and Encoding.UTF8 is the reference.
        foreach (string text in new[] {
            "\ud800", "a\udc00b", "{\ud83d}x", "x{\udc80}", "\ud83d\ude00{\ud83d", "{\ud800\ud800}",
            "\udbff{\udfff}", "\u00e9{\u0800}\uffff", "{\ud83d\ude00}", "\u007f\u0080\u07ff" })
        {
            if (Slotgen.Slot(text) != Slotgen.Slot(Encoding.UTF8.GetBytes(text)))
            {
                throw new Exception("Slot of a string is not the Slot of its Encoding.UTF8 bytes");
            }
        }
        Refusal(output, "null_text_key", () => Slotgen.SameSlot(new List<string> { "a", null }));
        Refusal(output, "tag_above", () => Slotgen.TagForSlot(Slotgen.LastSlot + 1));
        Refusal(output, "tag_below", () => Slotgen.TagForSlot(Slotgen.FirstSlot - 1));
        Refusal(output, "tags_above", () => Slotgen.TagsForSlot(Slotgen.LastSlot + 1));
        Refusal(output, "key_above", () => Slotgen.KeyForSlot(prefix, Slotgen.LastSlot + 1, suffix));
        Refusal(output, "key_rule", () => Slotgen.KeyForSlot(badPrefix, Slotgen.FirstSlot, badSuffix));
        Refusal(output, "null_key", () => Slotgen.Slot((byte[])null));
        Console.Out.Write(output.ToString());
    }
}
