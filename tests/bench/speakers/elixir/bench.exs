# slotgen's Elixir module against the seed's EchoMQ.Keyspace slot/1 (the echo_mq document's
# module, written out here as it is written there: :binary.split for the hashtag, a bitwise
# CRC16-XMODEM by Enum.reduce), in one VM. Keys are binaries.
#
#   elixir bench.exs MODULE_FILE KEY_DIR ROUNDS      (the module emitted as `Slotgen`)
#
# Prints tab-separated rows: language, function, key type, case, length, code, ns per key
# (the best of ROUNDS rounds over every key of the case).
defmodule Seed do
  def hashtag(key) do
    with [_, rest] <- :binary.split(key, "{"),
         [tag, _] when tag != "" <- :binary.split(rest, "}") do
      tag
    else
      _ -> key
    end
  end

  def slot(key) when is_binary(key), do: rem(crc16(hashtag(key), 0), 16384)

  defp crc16(<<>>, crc), do: crc

  defp crc16(<<b, rest::binary>>, crc) do
    crc = Bitwise.band(Bitwise.bxor(crc, Bitwise.bsl(b, 8)), 0xFFFF)

    crc =
      Enum.reduce(1..8, crc, fn _, c ->
        shifted = Bitwise.band(Bitwise.bsl(c, 1), 0xFFFF)
        if Bitwise.band(c, 0x8000) != 0, do: Bitwise.bxor(shifted, 0x1021), else: shifted
      end)

    crc16(rest, crc)
  end
end

defmodule Bench do
  def best(rounds, keys, fun) do
    times =
      for _ <- 1..rounds do
        start = System.monotonic_time(:nanosecond)
        sum = Enum.reduce(keys, 0, fn k, s -> s + fun.(k) end)
        {System.monotonic_time(:nanosecond) - start, sum}
      end

    [{_, total} | _] = times
    true = Enum.all?(times, fn {_, s} -> s == total end)
    {round(Enum.min(for {t, _} <- times, do: t) / length(keys)), total}
  end

  def row(cells), do: IO.puts(Enum.join(cells, "\t"))

  # the baselines of a call: the lookup (and concatenation) alone in a function
  def ready_tag(ready, s), do: elem(ready, s)
  def ready_key(prefix, s, suffix, ready), do: prefix <> "{" <> elem(ready, s) <> "}" <> suffix
end

[module_file, key_dir, rounds] = System.argv()
rounds = String.to_integer(rounds)
module = Slotgen
Code.require_file(module_file)

for kind <- ["plain", "tag"], n <- [3, 8, 22, 64, 1024] do
  keys = Path.join(key_dir, "#{kind}-#{n}.txt") |> File.read!() |> String.split("\n", trim: true)
  {ours, want} = Bench.best(rounds, keys, &module.slot/1)
  Bench.row(["elixir", "slot", "binary", kind, n, "slotgen", ours])
  {peer, ^want} = Bench.best(rounds, keys, &Seed.slot/1)
  Bench.row(["elixir", "slot", "binary", kind, n, "seed EchoMQ.Keyspace", peer])
end

slots = Enum.to_list(module.first_slot()..module.last_slot())
ready = slots |> Enum.map(&module.tag_for_slot!/1) |> List.to_tuple()
{tag_ns, _} = Bench.best(rounds, slots, fn s -> byte_size(module.tag_for_slot!(s)) end)
Bench.row(["elixir", "tag_for_slot!", "-", "-", "-", "slotgen", tag_ns])
{ready_ns, _} = Bench.best(rounds, slots, fn s -> byte_size(elem(ready, s)) end)
Bench.row(["elixir", "tag_for_slot!", "-", "-", "-", "tuple of tags", ready_ns])
# what a call costs: the lookup (and concatenation) in a function of another module
{call_ns, _} = Bench.best(rounds, slots, fn s -> byte_size(Bench.ready_tag(ready, s)) end)
Bench.row(["elixir", "tag_for_slot!", "-", "-", "-", "a function indexing the tuple", call_ns])
{key_ns, _} = Bench.best(rounds, slots, fn s -> byte_size(module.key_for_slot!("user:", s, ":cart")) end)
Bench.row(["elixir", "key_for_slot!", "binary", "-", "-", "slotgen", key_ns])
{concat_ns, _} = Bench.best(rounds, slots, fn s -> byte_size("user:{" <> elem(ready, s) <> "}:cart") end)
Bench.row(["elixir", "key_for_slot!", "binary", "-", "-", "tuple of tags + <>", concat_ns])
{call_key_ns, _} = Bench.best(rounds, slots, fn s -> byte_size(Bench.ready_key("user:", s, ":cart", ready)) end)
Bench.row(["elixir", "key_for_slot!", "binary", "-", "-", "a function concatenating", call_key_ns])
