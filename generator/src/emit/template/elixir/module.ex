{{header}}
defmodule {{module}} do
  @moduledoc ~S"""
  Slots of the {{scheme}} scheme, both ways: the slot of a key, and a key for a slot in
  O(1). Plain Elixir (1.11 and later), no dependencies. Keys, tags and keys built are
  binaries; a slot is an integer from `first_slot()` to `last_slot()`.

      {{module}}.slot("123456789")                     #=> {{check_slot}}
      {{module}}.tag_for_slot({{module}}.first_slot()) #=> {:ok, "{{tag}}"}
      {{module}}.key_for_slot({{example_prefix}}, {{module}}.first_slot(), {{example_suffix}})
      #=> {:ok, "{{key}}"}
      {{module}}.tags_for_slot!({{module}}.first_slot()) |> Enum.take(1) #=> ["{{tag}}"]

  A refused call returns `{:error, %{{module}}.Error{}}` (its `reason` is
  `:slot_out_of_range` or `{{key_reason}}`, its `message` the rule and the way out); the
  bang variants raise it.
  """

  import Bitwise

  defmodule Error do
    @moduledoc "A call the module refuses: `reason` names the rule, `message` says it."
    defexception [:reason, :message]
    @type t :: %__MODULE__{reason: :slot_out_of_range | {{key_reason}}, message: String.t()}
  end

  @slots {{slots}}
  @first_slot {{first_slot}}
  @last_slot {{last_slot}}
  @tag_len {{tag_len}}
  @tag_bits {{tag_bits}}

{{crc_table_attribute}}{{lookup}}
  # A basis of the kernel: xored into a tag, any combination keeps its value.
  @kernel [
{{kernel_ints}}
  ]
  # 2^(the kernel's length): the tags of each value.
  @tags_per_value {{tags_per_value}}
  # Tags reach the values below this; a slot's are slot - first_slot() + k * slots().
  @value_limit {{value_limit}}

  @typedoc "A slot, an integer from `first_slot()` to `last_slot()`."
  @type slot :: non_neg_integer()

  @doc "The number of slots."
  @spec slots() :: pos_integer()
  def slots, do: @slots

  @doc "The first slot."
  @spec first_slot() :: slot()
  def first_slot, do: @first_slot

  @doc "The last slot."
  @spec last_slot() :: slot()
  def last_slot, do: @last_slot

  @doc "Symbols (bytes) per tag."
  @spec tag_len() :: pos_integer()
  def tag_len, do: @tag_len

  defguardp is_slot(slot) when is_integer(slot) and slot >= @first_slot and slot <= @last_slot
{{rule}}
  @doc "The bytes of the key that its slot is computed from: {{rule_doc}}."
  @spec hashtag(binary()) :: binary()
  def hashtag(key) when is_binary(key), do: explicit_hashtag(key) || key

  @doc """
  The slot of a key: `{{slot_formula}}`, for the CRC of
  {{rule_doc}}.
  """
  @spec slot(binary()) :: slot()
  def slot(key) when is_binary(key), do: {{slot_expression}}

{{crc_bytes}}{{crc_reflect}}
  defp bytes_of(tag), do: <<tag::little-size(@tag_bits)>>

  defp out_of_range(slot) do
    %Error{
      reason: :slot_out_of_range,
      message:
        "slot #{inspect(slot)} is out of range: the slots are #{@first_slot} to " <>
          "#{@last_slot}, so a slot is an integer in #{@first_slot}..#{@last_slot}"
    }
  end

  @doc "A tag (`tag_len()` bytes of the alphabet) whose key lands on the slot."
  @spec tag_for_slot(term()) :: {:ok, binary()} | {:error, Error.t()}
  def tag_for_slot(slot) when is_slot(slot), do: {:ok, bytes_of(tag_of(slot - @first_slot))}
  def tag_for_slot(slot), do: {:error, out_of_range(slot)}

  @doc "`tag_for_slot/1`, raising `#{inspect(Error)}` on a refusal."
  @spec tag_for_slot!(slot()) :: binary()
  # a slot in the head: tag_for_slot's {:ok, tag} and unwrap would add a tuple and two calls
  def tag_for_slot!(slot) when is_slot(slot), do: bytes_of(tag_of(slot - @first_slot))
  def tag_for_slot!(slot), do: unwrap(tag_for_slot(slot))

  @doc "`key_for_slot/3`, raising `#{inspect(Error)}` on a refusal."
  @spec key_for_slot!(binary(), slot(), binary()) :: binary()
  def key_for_slot!(prefix, slot, suffix), do: unwrap(key_for_slot(prefix, slot, suffix))

  @doc """
  Every tag of `tag_len()` symbols that lands on the slot, as a lazy `Stream`: for each
  value `slot - first_slot() + k * slots()` below 2^(the solved bits), ascending, the
  value's tag xor each combination of the kernel, in binary counting order; the
  `tag_for_slot/1` tag first. The slot is checked at once, the tags are made as they are
  enumerated.
  """
  @spec tags_for_slot(term()) :: {:ok, Enumerable.t()} | {:error, Error.t()}
  def tags_for_slot(slot) when is_slot(slot) do
    values =
      (slot - @first_slot)
      |> Stream.iterate(&(&1 + @slots))
      |> Stream.take_while(&(&1 < @value_limit))

    {:ok,
     Stream.flat_map(values, fn value ->
       tag = tag_of(value)
       Stream.map(0..(@tags_per_value - 1), &bytes_of(bxor(tag, kernel_combination(&1))))
     end)}
  end

  def tags_for_slot(slot), do: {:error, out_of_range(slot)}

  @doc "`tags_for_slot/1`, raising `#{inspect(Error)}` on a refusal."
  @spec tags_for_slot!(slot()) :: Enumerable.t()
  def tags_for_slot!(slot), do: unwrap(tags_for_slot(slot))

  # The xor of the kernel rows at the set bits of n.
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
  The one hashtag every key has between its delimiters; `nil` when a key has none (its
  whole key is hashed), two keys have different ones, or there are none. Keys that share a
  hashtag land on one slot whatever the slot count.
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

  defp unwrap({:ok, value}), do: value
  defp unwrap({:error, error}), do: raise(error)
end
