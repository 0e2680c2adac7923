
  # A tag as an integer: byte k of the tag is byte k of the integer, least significant
  # first. The tag of a value v is the zero tag xor the columns i over the set bits i of
  # v: column i flips bit i of the tag's value (the CRC's value after the shift and mask),
  # and the zero tag is the tag of value 0. The tag of a slot is the tag of the value
  # slot - first_slot().
  @zero_tag {{zero_int}}
  @columns [
{{column_ints}}
  ]

  defp tag_of(value) do
    @columns
    |> Enum.with_index()
    |> Enum.reduce(@zero_tag, fn {column, bit}, tag ->
      if band(bsr(value, bit), 1) == 1, do: bxor(tag, column), else: tag
    end)
  end
