
  # This scheme has no hashtag: the whole key is hashed.
  defp explicit_hashtag(key) when is_binary(key), do: nil

  # Solving a tag inside a frame: the value of prefix <> tag <> suffix is affine in the tag's
  # bits (a CRC over keys of one length is), so it is measured at the tag whose symbols all
  # have index 0 and at each single bit flipped, and solved by Gauss-Jordan elimination
  # with pivot columns in ascending order and every free bit zero: the tag `slotgen key
  # --prefix --suffix` gives, with this module's alphabet and tag length. A frame is solved
  # once and kept in the calling process's dictionary (the last one).

  # The alphabet's first symbol, and what bit j of a symbol's index xors into it.
  @alphabet_offset {{alphabet_offset}}
  @alphabet_basis [{{alphabet_basis}}]
  # The low value bits a tag is solved for: a key of the slot has slot - first_slot() there.
  @solved_bits {{solved_bits}}
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

  # The value of any bytes: (crc >>> {{shift}}) &&& {{value_mask}}, for the CRC that slot/1
  # computes of a key's hashtag.
  defp value(bytes), do: band(bsr(crc(bytes, {{crc_start}}), {{shift}}), {{value_mask}})
