{{header}}{{doc_open}}Slots of the {{scheme}} scheme, both ways: the slot of a key, and a key for a slot.
Standard library only, Python 3.9 and later. Keys are bytes; a str key is encoded as UTF-8
first. A slot is an int from FIRST_SLOT to LAST_SLOT.

>>> slot("123456789")
{{check_slot}}
>>> tag_for_slot(FIRST_SLOT)
{{tag_repr}}
>>> key_for_slot({{prefix_repr}}, FIRST_SLOT, {{suffix_repr}})
{{key_repr}}
>>> next(tags_for_slot(FIRST_SLOT))
{{tag_repr}}

Errors raise SlotOutOfRange or {{key_error}}, both SlotgenError, a ValueError.
{{doc_close}}

from typing import Iterator, Union

__all__ = [
    "SLOTS",
    "FIRST_SLOT",
    "LAST_SLOT",
    "TAG_LEN",
    "SlotgenError",
    "SlotOutOfRange",
    "{{key_error}}",
    "slot",
    "tag_for_slot",
    "key_for_slot",
    "tags_for_slot",
]

Key = Union[bytes, bytearray, memoryview, str]

#: The number of slots.
SLOTS = {{slots}}
#: The first slot; slots are FIRST_SLOT to LAST_SLOT.
FIRST_SLOT = {{first_slot}}
#: The last slot.
LAST_SLOT = {{last_slot}}
#: Symbols (bytes) per tag.
TAG_LEN = {{tag_len}}


class SlotgenError(ValueError):
    """A call this module refuses."""


class SlotOutOfRange(SlotgenError):
    """The slot is not from FIRST_SLOT to LAST_SLOT."""

    def __init__(self, slot: object) -> None:
        super().__init__(
            f"slot {slot!r} is out of range: this scheme's slots are {FIRST_SLOT} to "
            f"{LAST_SLOT}, so a slot is an int in range({FIRST_SLOT}, {LAST_SLOT + 1})"
        )
        self.slot = slot


def _bytes(value: Key, what: str) -> bytes:
    if isinstance(value, str):
        return value.encode("utf-8")
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value)
    raise TypeError(f"{what} must be bytes or str, not {type(value).__name__}")

{{rule}}

# The CRC's lookup table: entry i is the register after feeding byte i into a zero
# register{{reflected_note}}.
_CRC_TABLE = (
{{crc_table}}
)


def _crc(data: bytes) -> int:
    crc = {{crc_start}}
    for byte in data:
{{crc_update}}
{{crc_finish}}    return crc


def slot(key: Key) -> int:
    """The slot of a key: ((crc >> {{shift}}) & {{value_mask}}) % SLOTS + FIRST_SLOT, for the CRC of
    {{rule_doc}}."""
    value = (_crc(_hashed(_bytes(key, "key"))) >> {{shift}}) & {{value_mask}}
    return value % SLOTS + FIRST_SLOT


# A tag as an int: byte k of the tag is byte k of the int, least significant first. The
# tag of a value v is _ZERO_TAG ^ _COLUMNS[i] over the set bits i of v: _COLUMNS[i] flips
# bit i of the tag's value (the CRC's value after the shift and mask), and _ZERO_TAG is the
# tag of value 0. The tag of a slot is the tag of the value slot - FIRST_SLOT.
_ZERO_TAG = {{zero_int}}
_COLUMNS = (
{{column_ints}}
)
# A basis of the kernel: xored into a tag, any combination keeps its value.
_KERNEL = (
{{kernel_ints}}
)
# Tags reach the values below this; a slot's are slot - FIRST_SLOT + k * SLOTS.
_VALUE_LIMIT = {{value_limit}}


def _check_slot(slot: int) -> int:
    if not isinstance(slot, int) or isinstance(slot, bool):
        raise TypeError(
            f"slot must be an int from {FIRST_SLOT} to {LAST_SLOT}, "
            f"not {type(slot).__name__} {slot!r}"
        )
    if not FIRST_SLOT <= slot <= LAST_SLOT:
        raise SlotOutOfRange(slot)
    return slot - FIRST_SLOT


def _tag_of(value: int) -> int:
    tag = _ZERO_TAG
    for bit, column in enumerate(_COLUMNS):
        if value >> bit & 1:
            tag ^= column
    return tag


def tag_for_slot(slot: int) -> bytes:
    """A tag (TAG_LEN bytes of the alphabet) whose key lands on the slot.

    Raises TypeError unless slot is an int, SlotOutOfRange unless it is a slot."""
    return _tag_of(_check_slot(slot)).to_bytes(TAG_LEN, "little")


def tags_for_slot(slot: int) -> Iterator[bytes]:
    """Every tag of TAG_LEN symbols that lands on the slot, lazily: for each value
    slot - FIRST_SLOT + k * SLOTS below _VALUE_LIMIT, ascending, the value's tag xor each
    combination of _KERNEL, in binary counting order; the tag_for_slot tag first. The slot
    is checked at once, the tags are made as they are iterated.

    Raises TypeError unless slot is an int, SlotOutOfRange unless it is a slot."""
    return _tags(_check_slot(slot))


def _tags(value: int) -> Iterator[bytes]:
    while value < _VALUE_LIMIT:
        tag = _tag_of(value)
        for n in range(1 << len(_KERNEL)):
            combined = tag
            for bit, vector in enumerate(_KERNEL):
                if n >> bit & 1:
                    combined ^= vector
            yield combined.to_bytes(TAG_LEN, "little")
        value += SLOTS
