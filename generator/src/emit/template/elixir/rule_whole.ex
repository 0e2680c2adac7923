
  # This scheme has no hashtag: the whole key is hashed.
  defp explicit_hashtag(key) when is_binary(key), do: nil

  @doc """
  The key of the slot: this scheme hashes the whole key, so it is the tag alone; prefix and
  suffix must be empty (`:whole_key_hashed`).
  """
  @spec key_for_slot(binary(), term(), binary()) :: {:ok, binary()} | {:error, Error.t()}
  def key_for_slot(prefix, slot, suffix) when is_binary(prefix) and is_binary(suffix) do
    with {:ok, tag} <- tag_for_slot(slot) do
      if prefix == "" and suffix == "" do
        {:ok, tag}
      else
        {:error,
         %Error{
           reason: :whole_key_hashed,
           message:
             "this scheme hashes the whole key, so a key that lands on a slot is the tag " <>
               "alone: give no prefix or suffix"
         }}
      end
    end
  end
