
  # The bytes that open and close a hashtag.
  @open {{open}}
  @close {{close}}
  # A hashtag shorter than this hashes the whole key.
  @min_tag_len {{min_tag_len}}

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
        # tag written from its integer (no binary of its own), the slot checked in the head
        {prefix_size, suffix_size} = {byte_size(prefix), byte_size(suffix)}

        {:ok,
         <<prefix::binary-size(prefix_size), @open,
           tag_of(slot - @first_slot)::little-size(@tag_bits), @close,
           suffix::binary-size(suffix_size)>>}

      at ->
        {:error,
         %Error{
           reason: :prefix_has_delimiter,
           message:
             "prefix contains the hashtag's opening byte {{open}} at byte #{at}: the key's " <>
               "hashtag would start there instead of at the tag; remove it from the " <>
               "prefix or move that part into the suffix"
         }}
    end
  end

  def key_for_slot(prefix, slot, suffix) when is_binary(prefix) and is_binary(suffix),
    do: {:error, out_of_range(slot)}
