
  # A tag as an integer: byte k of the tag is byte k of the integer, least significant
  # first. The tag of a value v is elem(@low, v &&& {{low_mask}}) ^^^ elem(@high, v >>> {{low_bits}}): @low
  # holds whole tags (the tag of value 0 folded in), @high the bytes that the value's high
  # bits flip. The tag of a slot is the tag of the value slot - first_slot().
  @low {
{{low_ints}}
  }
  @high {
{{high_ints}}
  }

  defp tag_of(value) do
    bxor(elem(@low, band(value, {{low_mask}})), elem(@high, bsr(value, {{low_bits}})))
  end
