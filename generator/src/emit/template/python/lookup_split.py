
# A tag as an int: byte k of the tag is byte k of the int, least significant first. The tag
# of a value v is _LOW[v & {{low_mask}}] ^ _HIGH[v >> {{low_bits}}]: _LOW holds whole tags (the tag of
# value 0 folded in), _HIGH the bytes that the value's high bits flip. The tag of a slot is
# the tag of the value slot - FIRST_SLOT.
_LOW = (
{{low_ints}}
)
_HIGH = (
{{high_ints}}
)


def _tag_of(value: int) -> int:
    return _LOW[value & {{low_mask}}] ^ _HIGH[value >> {{low_bits}}]

