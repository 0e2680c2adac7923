
# A tag as an int: byte k of the tag is byte k of the int, least significant first. The
# tag of a value v is _ZERO_TAG ^ _COLUMNS[i] over the set bits i of v: _COLUMNS[i] flips
# bit i of the tag's value (the CRC's value after the shift and mask), and _ZERO_TAG is the
# tag of value 0. The tag of a slot is the tag of the value slot - FIRST_SLOT.
_ZERO_TAG = {{zero_int}}
_COLUMNS = (
{{column_ints}}
)


def _tag_of(value: int) -> int:
    tag = _ZERO_TAG
    for bit, column in enumerate(_COLUMNS):
        if value >> bit & 1:
            tag ^= column
    return tag

