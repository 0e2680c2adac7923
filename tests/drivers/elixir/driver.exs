# The harness's driver for Elixir modules (the protocol: tests/src/harness.rs).
#
# Usage: elixir -pa EBIN driver.exs MODULE KEYS GROUPS FEW DEEP PREFIX SUFFIX BAD_PREFIX BAD_SUFFIX
#    or: elixir -pa EBIN driver.exs --plan PLAN
#
# With --plan, one BEAM answers for many modules: each line of PLAN is an output file and
# the arguments above, separated by tabs.

defmodule SlotgenDriver do
  @moduledoc false

  def main([name, keys_path, groups_path, few, deep | affixes], out) do
    m = Module.concat([name])
    [prefix, suffix, bad_prefix, bad_suffix] = Enum.map(affixes, &unhex/1)
    {few, deep} = {String.to_integer(few), String.to_integer(deep)}
    {first, last} = {m.first_slot(), m.last_slot()}
    take = fn s, n -> m.tags_for_slot!(s) |> Enum.take(n) |> Enum.map(&hex/1) |> Enum.join(",") end
    keys = keys_path |> File.read!() |> String.split("\n") |> Enum.drop(-1)
    keys = Enum.map(keys, &unhex/1)
    groups = groups_path |> File.read!() |> String.split("\n") |> Enum.drop(-1)
    groups = Enum.map(groups, &group/1)

    consts = ["const\t#{first}\t#{last}\t#{m.slots()}\t#{m.tag_len()}\n"]
    tags = for s <- first..last, do: ["tag\t#{s}\t", hex(m.tag_for_slot!(s)), "\n"]
    few_tags = for s <- first..last, do: ["tags\t#{s}\t", take.(s, few), "\n"]
    deep_tags = for s <- [first, last], do: ["deep\t#{s}\t", take.(s, deep), "\n"]
    built = for s <- first..last, do: ["key\t#{s}\t", hex(m.key_for_slot!(prefix, s, suffix)), "\n"]
    slots = for k <- keys, do: ["slot\t", hex(k), "\t", Integer.to_string(m.slot(k)), "\n"]
    hashtags = for k <- keys, do: ["hashtag\t", hex(k), "\t", hex(m.hashtag(k)), "\n"]

    # same_slot/1 takes the keys as a Stream, shared_hashtag/1 as a list: any enumerable
    same =
      for {g, i} <- Enum.with_index(groups),
          do: ["same\t#{i}\t", none_or(m.same_slot(Stream.map(g, & &1)), &Integer.to_string/1), "\n"]

    shared =
      for {g, i} <- Enum.with_index(groups),
          do: ["shared\t#{i}\t", none_or(m.shared_hashtag(g), &hex/1), "\n"]

    refusals = [
      refusal("tag_above", m.tag_for_slot(last + 1)),
      refusal("tag_below", m.tag_for_slot(first - 1)),
      refusal("tags_above", m.tags_for_slot(last + 1)),
      refusal("key_above", m.key_for_slot(prefix, last + 1, suffix)),
      refusal("key_rule", m.key_for_slot(bad_prefix, first, bad_suffix)),
      refusal("float_slot", m.tag_for_slot(1.0))
    ]

    IO.binwrite(out, [consts, tags, few_tags, deep_tags, built, slots, hashtags, same, shared, refusals])
  end

  def plan(path) do
    for line <- path |> File.read!() |> String.split("\n", trim: true) do
      [out_path | args] = String.split(line, "\t")
      File.open!(out_path, [:write, :binary], &main(args, &1))
    end
  end

  defp hex(bytes), do: Base.encode16(bytes, case: :lower)
  defp unhex(text), do: Base.decode16!(text, case: :lower)

  defp group(line) do
    [count, listed] = String.split(line, ":", parts: 2)
    listed |> String.split(",") |> Enum.take(String.to_integer(count)) |> Enum.map(&unhex/1)
  end

  defp none_or(nil, _show), do: "-"
  defp none_or(value, show), do: show.(value)

  defp refusal(name, {:error, %{reason: reason, message: message}}),
    do: ["refused\t", name, "\t", inspect(reason), ": ", message, "\n"]

  defp refusal(name, other), do: ["accepted\t", name, "\t", inspect(other), "\n"]
end

case System.argv() do
  ["--plan", plan] -> SlotgenDriver.plan(plan)
  argv -> SlotgenDriver.main(argv, :stdio)
end
