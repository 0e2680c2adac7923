{{header}}
defmodule {{module}} do
  @moduledoc ~S"""
  Redis Cluster style hash slots for this spec, both ways: the slot of a key, and a key
  for a slot in O(1). Plain Elixir (1.11 and later), no dependencies. Keys, tags and keys
  built are binaries.

      {{module}}.slot("123456789")                    #=> {{check_slot}}
      {{module}}.hashtag("emq:{orders}:pending")      #=> "orders"
      {{module}}.shared_hashtag(["emq:{orders}:pending", "emq:{orders}:active"]) #=> "orders"
      {{module}}.tag_for_slot(0)                      #=> {:ok, "{{tag}}"}
      {{module}}.key_for_slot("user:", 0, ":profile") #=> {:ok, "{{key}}"}
      {{module}}.tags_for_slot!(0) |> Enum.count()    #=> {{tags_per_slot}}, from a Stream

  A refused call returns `{:error, %{{module}}.Error{}}` (its `reason` is
  `:slot_out_of_range` or `:prefix_has_brace`, its `message` the rule and the way out);
  the bang variants raise it.
  """

  import Bitwise

  defmodule Error do
    @moduledoc "A call the module refuses: `reason` names the rule, `message` says it."
    defexception [:reason, :message]
    @type t :: %__MODULE__{reason: :slot_out_of_range | :prefix_has_brace, message: String.t()}
  end

  @slots {{slots}}
  @tag_len {{tag_len}}
  @tags_per_slot {{tags_per_slot}}
  @base_slot {{base_slot}}

  # The CRC's lookup table: entry i is the register after feeding byte i into a zero
  # register{{reflected_note}}.
  @crc_table {
{{crc_table}}
  }

  # The alphabet: symbol i is byte i.
  @alphabet <<
{{alphabet}}
  >>

  # A tag as a mask: bits {{symbol_bits}}k to {{symbol_bits}}k+{{symbol_bits_minus_one}} hold the index of symbol k, the first
  # symbol in the lowest bits. The tag of a slot is the mask
  # low[d &&& {{low_mask}}] ^ high[d >>> {{low_bits}}] for d = slot ^ base slot: low[v] is the mask whose
  # slot differs from the base slot by v, and high[v] by v <<< {{low_bits}}.
  @low {
{{low}}
  }
  @high {
{{high}}
  }
  # A basis of the kernel: masks whose tags do not move the slot.
  @kernel [
{{kernel}}
  ]

  @typedoc "A slot, an integer in `0..slots() - 1`."
  @type slot :: non_neg_integer()

  @doc "The number of hash slots."
  @spec slots() :: pos_integer()
  def slots, do: @slots

  @doc "Symbols (bytes) per tag."
  @spec tag_len() :: pos_integer()
  def tag_len, do: @tag_len

  @doc "How many tags land on each slot."
  @spec tags_per_slot() :: pos_integer()
  def tags_per_slot, do: @tags_per_slot

  @doc "The slot of the tag whose symbols all have index 0."
  @spec base_slot() :: slot()
  def base_slot, do: @base_slot

  @doc """
  The hashtag of a key: the bytes between the first `{` and the next `}` when there are
  any, else the whole key. These are the bytes whose CRC is the slot.
  """
  @spec hashtag(binary()) :: binary()
  def hashtag(key) when is_binary(key), do: explicit_hashtag(key) || key

  @doc "The hash slot of a key: the CRC of its hashtag."
  @spec slot(binary()) :: slot()
  def slot(key) when is_binary(key), do: band(crc16(hashtag(key), {{start}}), {{slot_mask}})

  defp crc16(<<>>, crc), do: {{crc_finish}}

  defp crc16(<<byte, rest::binary>>, crc) do
{{crc_update}}
  end
{{crc_extra}}
  defguardp is_slot(slot) when is_integer(slot) and slot >= 0 and slot < @slots

  defp mask_for_slot(slot) do
    delta = bxor(slot, @base_slot)
    bxor(elem(@low, band(delta, {{low_mask}})), elem(@high, bsr(delta, {{low_bits}})))
  end

  defp tag_of(mask) do
    for k <- 0..(@tag_len - 1), into: <<>> do
      <<:binary.at(@alphabet, band(bsr(mask, {{symbol_bits}} * k), {{symbol_mask}}))>>
    end
  end

  defp out_of_range(slot) do
    %Error{
      reason: :slot_out_of_range,
      message:
        "slot #{inspect(slot)} is out of range: this table has #{@slots} slots, " <>
          "so a slot is an integer in 0..#{@slots - 1}"
    }
  end

  @doc "A tag (`tag_len()` bytes of the alphabet) whose key lands on the slot."
  @spec tag_for_slot(term()) :: {:ok, binary()} | {:error, Error.t()}
  def tag_for_slot(slot) when is_slot(slot), do: {:ok, tag_of(mask_for_slot(slot))}
  def tag_for_slot(slot), do: {:error, out_of_range(slot)}

  @doc "`tag_for_slot/1`, raising `#{inspect(Error)}` on a refusal."
  @spec tag_for_slot!(slot()) :: binary()
  def tag_for_slot!(slot), do: unwrap(tag_for_slot(slot))

  @doc """
  The key `prefix <> "{" <> tag <> "}" <> suffix` for the slot. Its hashtag is the tag, so
  it lands on the slot whatever the suffix holds; a prefix may not contain `{`.
  """
  @spec key_for_slot(binary(), term(), binary()) :: {:ok, binary()} | {:error, Error.t()}
  def key_for_slot(prefix, slot, suffix) when is_binary(prefix) and is_binary(suffix) do
    with {:ok, tag} <- tag_for_slot(slot) do
      case :binary.match(prefix, "{") do
        :nomatch ->
          {:ok, <<prefix::binary, ?{, tag::binary, ?}, suffix::binary>>}

        {at, _} ->
          {:error,
           %Error{
             reason: :prefix_has_brace,
             message:
               "prefix contains `{` at byte #{at}: the key's hashtag would start there " <>
                 "instead of at the tag; remove the `{` from the prefix or move that part " <>
                 "into the suffix"
           }}
      end
    end
  end

  @doc "`key_for_slot/3`, raising `#{inspect(Error)}` on a refusal."
  @spec key_for_slot!(binary(), slot(), binary()) :: binary()
  def key_for_slot!(prefix, slot, suffix), do: unwrap(key_for_slot(prefix, slot, suffix))

  @doc """
  Every tag that lands on the slot, as a lazy `Stream` of `tags_per_slot()` tags: the
  `tag_for_slot/1` tag first, then that tag's mask xor each nonzero combination of the
  kernel, in binary counting order.
  """
  @spec tags_for_slot(term()) :: {:ok, Enumerable.t()} | {:error, Error.t()}
  def tags_for_slot(slot) when is_slot(slot) do
    mask = mask_for_slot(slot)
    {:ok, Stream.map(0..(@tags_per_slot - 1), &tag_of(bxor(mask, kernel_combination(&1))))}
  end

  def tags_for_slot(slot), do: {:error, out_of_range(slot)}

  @doc "`tags_for_slot/1`, raising `#{inspect(Error)}` on a refusal."
  @spec tags_for_slot!(slot()) :: Enumerable.t()
  def tags_for_slot!(slot), do: unwrap(tags_for_slot(slot))

  # The xor of the kernel masks at the set bits of n.
  defp kernel_combination(n) do
    @kernel
    |> Enum.with_index()
    |> Enum.reduce(0, fn {vector, bit}, acc ->
      if band(bsr(n, bit), 1) == 1, do: bxor(acc, vector), else: acc
    end)
  end

  @doc """
  The slot every key lands on, as a multi-key command or a script's keys need; `nil` when
  two keys land on different slots (the server answers CROSSSLOT) or there are none. The
  keys are any enumerable of binaries.
  """
  @spec same_slot(Enumerable.t()) :: slot() | nil
  def same_slot(keys) do
    Enum.reduce_while(keys, nil, fn key, found ->
      here = slot(key)
      if found == nil or here == found, do: {:cont, here}, else: {:halt, nil}
    end)
  end

  @doc """
  The one non-empty hashtag every key has; `nil` when a key has none (the whole key is
  hashed: no `{`, no `}` after it, or `{}`), two keys have different ones, or there are
  none. Keys that share a hashtag land on one slot under every CRC and slot count.
  """
  @spec shared_hashtag(Enumerable.t()) :: binary() | nil
  def shared_hashtag(keys) do
    Enum.reduce_while(keys, nil, fn key, found ->
      case explicit_hashtag(key) do
        tag when tag != nil and (found == nil or tag == found) -> {:cont, tag}
        _ -> {:halt, nil}
      end
    end)
  end

  # The bytes between the first `{` and the next `}` when there are any, else nil: the
  # whole key is hashed.
  defp explicit_hashtag(key) when is_binary(key) do
    with [_, rest] <- :binary.split(key, "{"),
         [tag, _] when tag != "" <- :binary.split(rest, "}") do
      tag
    else
      _ -> nil
    end
  end

  defp unwrap({:ok, value}), do: value
  defp unwrap({:error, error}), do: raise(error)
end
