<# The Elixir module: one file, every part chosen here. #>
<# The slot of the CRC `crc`, `((crc >> shift) & mask) % slots + first` in Elixir's
   functions (`bsr(crc, 16)`, `band(crc, 0x3fff)`, `rem(value, 1024)`), every one that
   changes nothing left out. #>
<% macro slot_of(crc) %>
<% set value = "bsr(" ~ crc ~ ", " ~ reduction.shift ~ ")" if reduction.shift else crc %>
<% set value = "band(" ~ value ~ ", " ~ (reduction.mask | hex) ~ ")" %>
<% set value = "rem(" ~ value ~ ", " ~ reduction.slots ~ ")" if reduction.modulus else value %>
{{ value }}<% if reduction.first %> + {{ reduction.first }}<% endif %><% endmacro %>
<# The tag of `value` as an integer, tag_of's body: the split lookup's two loads, or the
   zero tag xor the columns of the value's set bits. #>
<% macro tag_formula() %>
<% if lookup.split %>
bxor(elem(@low, band(value, {{lookup.low_mask | hex}})), elem(@high, bsr(value, {{lookup.low_bits}})))
<%- else %>
@columns
    |> Enum.with_index()
    |> Enum.reduce(@zero_tag, fn {column, bit}, tag ->
      if band(bsr(value, bit), 1) == 1, do: bxor(tag, column), else: tag
    end)
<%- endif %>
<% endmacro %>
<# The loop's step over byte, as the recursive call. #>
<% macro crc_update() %>
<% if crc.refin %>
    crc(rest, bxor(bsr(crc, 8), elem(@crc_table, band(bxor(crc, byte), 0xFF))))
<% else %>
    crc(rest, bxor(band(bsl(crc, 8), {{crc.mask | hex}}), elem(@crc_table, band(bxor(bsr(crc, {{crc.top_shift}}), byte), 0xFF))))
<% endif %>
<% endmacro %>
<# The register's finish as one expression: its reflection when refin != refout, the xor
   with xorout. #>
<% macro crc_finish() %><% set reflected = "reflect(crc)" if crc.reflect_out else "crc" %><% if crc.xorout %>bxor({{reflected}}, {{crc.xorout | hex}})<% else %>{{reflected}}<% endif %><% endmacro %>
{{header}}
defmodule {{module}} do
  @moduledoc ~S"""
  Slots of the {{scheme}} scheme, both ways: the slot of a key, and a key for a slot in
  O(1). Plain Elixir (1.11 and later), no dependencies. Keys, tags and keys built are
  binaries; a slot is an integer from `first_slot()` to `last_slot()`.

      {{module}}.slot("123456789")                     #=> {{examples.check_slot}}
      {{module}}.tag_for_slot({{module}}.first_slot()) #=> {:ok, "{{examples.tag}}"}
      {{module}}.key_for_slot({{examples.prefix}}, {{module}}.first_slot(), {{examples.suffix}})
      #=> {:ok, "{{examples.key}}"}
      {{module}}.tags_for_slot!({{module}}.first_slot()) |> Enum.take(1) #=> ["{{examples.tag}}"]

  A refused call returns `{:error, %{{module}}.Error{}}` (its `reason` is
  `:slot_out_of_range` or `{{":frame_not_solvable" if rule.whole else ":prefix_has_delimiter"}}`, its `message` the rule and the way out); the
  bang variants raise it.
  """

  import Bitwise

  defmodule Error do
    @moduledoc "A call the module refuses: `reason` names the rule, `message` says it."
    defexception [:reason, :message]
    @type t :: %__MODULE__{reason: :slot_out_of_range | {{":frame_not_solvable" if rule.whole else ":prefix_has_delimiter"}}, message: String.t()}
  end

  @slots {{slots.count}}
  @first_slot {{slots.first}}
  @last_slot {{slots.last}}
  @tag_len {{tags.len}}
  @tag_bits {{tags.len * 8}}

<% if not native %>
  # The CRC's lookup table: entry i is the register after feeding byte i into a zero
  # register<% if crc.refin %>, reflected (the register shifts right)<% endif %>.
  @crc_table {
{{crc.table | hex_rows(crc.digits, 8, "    ")}}
  }
<% endif %>
<% if lookup.split %>

  # A tag as an integer: byte k of the tag is byte k of the integer, least significant
  # first. The tag of a value v is elem(@low, v &&& {{lookup.low_mask | hex}}) ^^^ elem(@high, v >>> {{lookup.low_bits}}): @low
  # holds whole tags (the tag of value 0 folded in), @high the bytes that the value's high
  # bits flip. The tag of a slot is the tag of the value slot - first_slot().
  @low {
{{lookup.low | le_int_rows("    ")}}
  }
  @high {
{{lookup.high | le_int_rows("    ")}}
  }

  defp tag_of(value) do
    {{ tag_formula() }}
  end
<% else %>

  # A tag as an integer: byte k of the tag is byte k of the integer, least significant
  # first. The tag of a value v is the zero tag xor the columns i over the set bits i of
  # v: column i flips bit i of the tag's value (the CRC's value after the shift and mask),
  # and the zero tag is the tag of value 0. The tag of a slot is the tag of the value
  # slot - first_slot().
  @zero_tag {{tags.zero | le_int}}
  @columns [
{{tags.columns | le_int_rows("    ")}}
  ]

  defp tag_of(value) do
    {{ tag_formula() }}
  end
<% endif %>
<% if tags.ready %>

  # Every slot's tag, a binary, by tag_of's formula when the module compiles: a literal
  # tuple, so that tag_for_slot is a guard and an elem (a binary made at each call cost
  # three times the lookup)
  @tags List.to_tuple(
          for value <- 0..(@last_slot - @first_slot) do
            tag = {{ tag_formula() | indent(8) }}
            <<tag::little-size(@tag_bits)>>
          end
        )
<% endif %>

  # A basis of the kernel: xored into a tag, any combination keeps its value.
  @kernel [
{{tags.kernel | le_int_rows("    ")}}
  ]
  # 2^(the kernel's length): the tags of each value.
  @tags_per_value {{tags.per_value}}
  # Tags reach the values below this; a slot's are slot - first_slot() + k * slots().
  @value_limit {{tags.value_limit}}

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
<% if rule.whole %>

  # This scheme has no hashtag: the whole key is hashed.
  defp explicit_hashtag(key) when is_binary(key), do: nil

  # Solving a tag inside a frame: the value of prefix <> tag <> suffix is affine in the tag's
  # bits (a CRC over keys of one length is), so it is measured at the tag whose symbols all
  # have index 0 and at each single bit flipped, and solved by Gauss-Jordan elimination
  # with pivot columns in ascending order and every free bit zero: the tag `slotgen key
  # --prefix --suffix` gives, with this module's alphabet and tag length. A frame is solved
  # once and kept in the calling process's dictionary (the last one).

  # The alphabet's first symbol, and what bit j of a symbol's index xors into it.
  @alphabet_offset {{alphabet.offset | hex(2)}}
  @alphabet_basis [{{alphabet.basis | map("hex", 2) | join(", ")}}]
  # The low value bits a tag is solved for: a key of the slot has slot - first_slot() there.
  @solved_bits {{tags.solved_bits}}
  # The tag whose symbols all have index 0, as an integer (byte k of the tag is byte k of
  # the integer, least significant first).
  @offset_tag :binary.decode_unsigned(:binary.copy(<<@alphabet_offset>>, @tag_len), :little)
  # What flipping each input bit xors into a tag: symbol bit j of tag byte k is column
  # k * length(@alphabet_basis) + j.
  @flips List.to_tuple(for k <- 0..(@tag_len - 1), b <- @alphabet_basis, do: bsl(b, 8 * k))

  @doc """
  The key `prefix <> tag <> suffix` of the slot: this scheme hashes the whole key, so the
  tag is solved inside the frame (the tag alone when both are empty, `tag_for_slot/1`'s);
  `:frame_not_solvable` when tags of `tag_len()` symbols cannot reach every slot inside
  this prefix and suffix.
  """
  @spec key_for_slot(binary(), term(), binary()) :: {:ok, binary()} | {:error, Error.t()}
  def key_for_slot(prefix, slot, suffix) when is_binary(prefix) and is_binary(suffix) do
    with {:ok, tag} <- tag_for_slot(slot) do
      case {prefix, suffix} do
        {"", ""} -> {:ok, tag}
        _ -> framed_key(prefix, slot - @first_slot, suffix)
      end
    end
  end

  defp framed_key(head, value, tail) do
    with {:ok, {base, pivots}} <- frame(head, tail) do
      target = bxor(value, base)

      tag =
        Enum.reduce(pivots, @offset_tag, fn {flip, sums}, tag ->
          if odd_bits?(band(sums, target)), do: bxor(tag, flip), else: tag
        end)

      {:ok, <<head::binary, bytes_of(tag)::binary, tail::binary>>}
    end
  end

  # Whether n has an odd number of set bits.
  defp odd_bits?(0), do: false
  defp odd_bits?(n), do: not odd_bits?(band(n, n - 1))

  # The frame's solver, solved or kept: the value of its tag whose symbols all have index
  # 0, and for each pivot column, ascending, its flip and the value bits whose sum sets it.
  defp frame(head, tail) do
    case Process.get({__MODULE__, :frame}) do
      {^head, ^tail, solver} ->
        solver

      _ ->
        solver = solve(head, tail)
        Process.put({__MODULE__, :frame}, {head, tail, solver})
        solver
    end
  end

  defp solve(head, tail) do
    base = value(<<head::binary, bytes_of(@offset_tag)::binary, tail::binary>>)
    solved = bsl(1, @solved_bits) - 1

    columns =
      for flip <- Tuple.to_list(@flips) do
        framed = <<head::binary, bytes_of(bxor(@offset_tag, flip))::binary, tail::binary>>
        band(bxor(value(framed), base), solved)
      end

    # one row a value bit: its columns as the bits of an integer, and the value bits summed
    # into it
    rows =
      for r <- :lists.seq(0, @solved_bits - 1) do
        bits =
          columns
          |> Enum.with_index()
          |> Enum.reduce(0, fn {column, i}, bits -> bor(bits, bsl(band(bsr(column, r), 1), i)) end)

        {bits, bsl(1, r)}
      end

    pivots = eliminate(rows, 0, tuple_size(@flips), [])
    rank = length(pivots)

    if rank == @solved_bits do
      {:ok, {base, for({column, _, sums} <- pivots, do: {elem(@flips, column), sums})}}
    else
      {:error,
       %Error{
         reason: :frame_not_solvable,
         message:
           "inside this prefix and suffix, tags of #{@tag_len} symbols control only #{rank} " <>
             "of the #{@solved_bits} value bits a slot needs: change the prefix or suffix, " <>
             "or emit the module for another tag length (--tag-len)"
       }}
    end
  end

  # Gauss-Jordan elimination from `column` on: `rows` are those without a pivot yet,
  # `pivots` ({column, bits, sums}, the last first) those with one. The first row with the
  # column set becomes its pivot row and is xored into every other row with it set.
  defp eliminate(rows, column, width, pivots) when rows == [] or column == width,
    do: Enum.reverse(pivots)

  defp eliminate(rows, column, width, pivots) do
    set? = fn bits -> band(bsr(bits, column), 1) == 1 end

    case Enum.split_with(rows, fn {bits, _} -> not set?.(bits) end) do
      {_, []} ->
        eliminate(rows, column + 1, width, pivots)

      {clear, [{pivot, pivot_sums} | others]} ->
        others = for {bits, sums} <- others, do: {bxor(bits, pivot), bxor(sums, pivot_sums)}

        pivots =
          for {c, bits, sums} <- pivots do
            if set?.(bits),
              do: {c, bxor(bits, pivot), bxor(sums, pivot_sums)},
              else: {c, bits, sums}
          end

        eliminate(clear ++ others, column + 1, width, [{column, pivot, pivot_sums} | pivots])
    end
  end

  # The value of any bytes: (crc >>> {{reduction.shift}}) &&& {{reduction.mask | hex}}, for the CRC that slot/1
  # computes of a key's hashtag.
  defp value(bytes), do: band(bsr(crc(bytes, {{crc.start | hex(crc.digits)}}), {{reduction.shift}}), {{reduction.mask | hex}})
<% else %>

  # The bytes that open and close a hashtag.
  @open {{rule.open | hex(2)}}
  @close {{rule.close | hex(2)}}
  # A hashtag shorter than this hashes the whole key.
  @min_tag_len {{rule.min_len}}

  @doc "The byte that opens a hashtag."
  @spec open() :: byte()
  def open, do: @open

  @doc "The byte that closes a hashtag."
  @spec close() :: byte()
  def close, do: @close

  # The bytes between the first opener and the first closer after it, when there are at
  # least @min_tag_len of them; else nil: the whole key is hashed. Below 64 bytes by
  # position/3, above by :binary.split (a call into C of some 200 ns, which costs more than
  # a short key's search).
  defp explicit_hashtag(key) when is_binary(key) and byte_size(key) < 64 do
    with open when is_integer(open) <- position(key, @open, 0),
         start = open + 1,
         <<_::binary-size(start), rest::binary>> = key,
         length when is_integer(length) and length >= @min_tag_len <- position(rest, @close, 0) do
      binary_part(key, start, length)
    else
      _ -> nil
    end
  end

  defp explicit_hashtag(key) when is_binary(key) do
    with [_, rest] <- :binary.split(key, <<@open>>),
         [tag, _] when byte_size(tag) >= @min_tag_len <- :binary.split(rest, <<@close>>) do
      tag
    else
      _ -> nil
    end
  end

  # Where byte first is in a binary, counted from at, or :nomatch: a loop of matches.
  defp position(<<byte, _::binary>>, byte, at), do: at
  defp position(<<_, rest::binary>>, byte, at), do: position(rest, byte, at + 1)
  defp position(<<>>, _, _), do: :nomatch

  @doc """
  The key `prefix <> <<open()>> <> tag <> <<close()>> <> suffix` for the slot. Its hashtag
  is the tag, so it lands on the slot whatever the suffix holds; a prefix may not contain
  `open()` (`:prefix_has_delimiter`).
  """
  @spec key_for_slot(binary(), term(), binary()) :: {:ok, binary()} | {:error, Error.t()}
  def key_for_slot(prefix, slot, suffix)
      when is_binary(prefix) and is_binary(suffix) and is_slot(slot) do
    case position(prefix, @open, 0) do
      :nomatch ->
        # sized segments (an unsized first one makes a growable binary, 4x the time), the
        # tag from the literal tuple (some 10% faster than from its integer), the slot
        # checked in the head
        {prefix_size, suffix_size} = {byte_size(prefix), byte_size(suffix)}

        {:ok,
         <<prefix::binary-size(prefix_size), @open,
<% if tags.ready %>
           elem(@tags, slot - @first_slot)::binary-size(@tag_len), @close,
<% else %>
           tag_of(slot - @first_slot)::little-size(@tag_bits), @close,
<% endif %>
           suffix::binary-size(suffix_size)>>}

      at ->
        {:error,
         %Error{
           reason: :prefix_has_delimiter,
           message:
             "prefix contains the hashtag's opening byte {{rule.open | hex(2)}} at byte #{at}: the key's " <>
               "hashtag would start there instead of at the tag; remove it from the " <>
               "prefix or move that part into the suffix"
         }}
    end
  end

  def key_for_slot(prefix, slot, suffix) when is_binary(prefix) and is_binary(suffix),
    do: {:error, out_of_range(slot)}
<% endif %>

  @doc "The bytes of the key that its slot is computed from: {{rule.doc}}."
  @spec hashtag(binary()) :: binary()
  def hashtag(key) when is_binary(key), do: explicit_hashtag(key) || key

  @doc """
  The slot of a key: `{{ slot_of("crc") }}`, for the CRC of
  {{rule.doc}}.
  """
  @spec slot(binary()) :: slot()
  def slot(key) when is_binary(key), do: {{ slot_of("crc(hashtag(key), " ~ (crc.start | hex) ~ ")") }}

<% if native %>
  # :erlang.crc32/2 computes CRC-32/ISO-HDLC's polynomial in C, from the register bxor
  # 0xFFFFFFFF, and xors its result with 0xFFFFFFFF: this CRC from crc, with its xorout.
  defp crc(bytes, crc), do: <% if native.xor %>bxor(:erlang.crc32(bxor(crc, 0xFFFFFFFF), bytes), {{native.xor | hex}})<% else %>:erlang.crc32(bxor(crc, 0xFFFFFFFF), bytes)<% endif +%>
<% else %>
  defp crc(<<>>, crc), do: {{crc_finish()}}

  defp crc(<<byte, rest::binary>>, crc) do
{{crc_update() | chomp}}
  end
<% endif %>
<% if crc.reflect_out %>

  # refin != refout: the register reflected.
  defp reflect(crc) do
    bits = for <<bit::1 <- <<crc::{{crc.width}}>> >>, do: bit
    Integer.undigits(Enum.reverse(bits), 2)
  end
<% endif %>

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
<% if tags.ready %>
  def tag_for_slot(slot) when is_slot(slot), do: {:ok, elem(@tags, slot - @first_slot)}
<% else %>
  def tag_for_slot(slot) when is_slot(slot), do: {:ok, bytes_of(tag_of(slot - @first_slot))}
<% endif %>
  def tag_for_slot(slot), do: {:error, out_of_range(slot)}

  @doc "`tag_for_slot/1`, raising `#{inspect(Error)}` on a refusal."
  @spec tag_for_slot!(slot()) :: binary()
  # a slot in the head: tag_for_slot's {:ok, tag} and unwrap would add a tuple and two calls
<% if tags.ready %>
  def tag_for_slot!(slot) when is_slot(slot), do: elem(@tags, slot - @first_slot)
<% else %>
  def tag_for_slot!(slot) when is_slot(slot), do: bytes_of(tag_of(slot - @first_slot))
<% endif %>
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
