
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
  # least @min_tag_len of them; else nil: the whole key is hashed.
  defp explicit_hashtag(key) when is_binary(key) do
    with [_, rest] <- :binary.split(key, <<@open>>),
         [tag, _] when byte_size(tag) >= @min_tag_len <- :binary.split(rest, <<@close>>) do
      tag
    else
      _ -> nil
    end
  end

  @doc """
  The key `prefix <> <<open()>> <> tag <> <<close()>> <> suffix` for the slot. Its hashtag
  is the tag, so it lands on the slot whatever the suffix holds; a prefix may not contain
  `open()` (`:prefix_has_delimiter`).
  """
  @spec key_for_slot(binary(), term(), binary()) :: {:ok, binary()} | {:error, Error.t()}
  def key_for_slot(prefix, slot, suffix) when is_binary(prefix) and is_binary(suffix) do
    with {:ok, tag} <- tag_for_slot(slot) do
      case :binary.match(prefix, <<@open>>) do
        :nomatch ->
          {:ok, <<prefix::binary, @open, tag::binary, @close, suffix::binary>>}

        {at, _} ->
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
  end
