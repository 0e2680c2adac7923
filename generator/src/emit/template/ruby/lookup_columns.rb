
  # A tag as an Integer: byte k of the tag is byte k of the Integer, least significant
  # first. The tag of a value v is ZERO_TAG ^ COLUMNS[i] over the set bits i of v:
  # COLUMNS[i] flips bit i of the tag's value (the CRC's value after the shift and mask),
  # and ZERO_TAG is the tag of value 0. The tag of a slot is the tag of the value
  # slot - FIRST_SLOT.
  ZERO_TAG = {{zero_int}}
  COLUMNS = [
{{column_ints}}
  ].freeze
  private_constant :ZERO_TAG, :COLUMNS

  def tag_of(value)
    tag = ZERO_TAG
    COLUMNS.each_with_index { |column, bit| tag ^= column if value[bit] == 1 }
    tag
  end
