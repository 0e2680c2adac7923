
  # A tag as an Integer: byte k of the tag is byte k of the Integer, least significant
  # first. The tag of a value v is LOW[v & {{low_mask}}] ^ HIGH[v >> {{low_bits}}]: LOW holds whole tags
  # (the tag of value 0 folded in), HIGH the bytes that the value's high bits flip. The tag
  # of a slot is the tag of the value slot - FIRST_SLOT.
  LOW = [
{{low_ints}}
  ].freeze
  HIGH = [
{{high_ints}}
  ].freeze
  private_constant :LOW, :HIGH

  def tag_of(value)
    LOW[value & {{low_mask}}] ^ HIGH[value >> {{low_bits}}]
  end
