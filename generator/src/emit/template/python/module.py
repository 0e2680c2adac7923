{{header}}{{doc_open}}Slots of the {{scheme}} scheme, both ways: the slot of a key, and a key for a slot in
O(1). Standard library only, Python 3.9 and later. Keys are bytes; a str key is encoded as
UTF-8 first. A slot is an int from FIRST_SLOT to LAST_SLOT.

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

from typing import Iterable, Iterator, Optional, Union

__all__ = [
    "SLOTS",
    "FIRST_SLOT",
    "LAST_SLOT",
    "TAG_LEN",
    "SlotgenError",
    "SlotOutOfRange",
    "{{key_error}}",
    "slot",
    "hashtag",
    "tag_for_slot",
    "key_for_slot",
    "tags_for_slot",
    "same_slot",
    "shared_hashtag",
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
            f"slot {slot!r} is out of range: the slots are {FIRST_SLOT} to {LAST_SLOT}, "
            f"so a slot is an int in range({FIRST_SLOT}, {LAST_SLOT + 1})"
        )
        self.slot = slot


def _bytes(value: Key, what: str) -> bytes:
    if isinstance(value, str):
        return value.encode("utf-8")
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value)
    raise TypeError(f"{what} must be bytes or str, not {type(value).__name__}")


def _keys(keys: Iterable[Key], name: str) -> Iterable[Key]:
    # A str or bytes is iterable too, over its characters or byte values: refuse it here
    # rather than answer for its characters.
    if isinstance(keys, (str, bytes, bytearray, memoryview)):
        raise TypeError(
            f"{name} takes an iterable of keys, not one key "
            f"({type(keys).__name__}): write {name}([key])"
        )
    return keys

{{rule}}

def hashtag(key: Key) -> bytes:
    """The bytes of the key that its slot is computed from: {{rule_doc}}."""
    data = _bytes(key, "key")
    found = _explicit(data)
    return data if found is None else found


{{crc}}
{{lookup}}
# A basis of the kernel: xored into a tag, any combination keeps its value.
_KERNEL = (
{{kernel_ints}}
)
# Tags reach the values below this; a slot's are slot - FIRST_SLOT + k * SLOTS.
_VALUE_LIMIT = {{value_limit}}


# Every slot's tag, made once at import (SLOTS values, a few ms): entry slot - FIRST_SLOT
# is tag_for_slot(slot), so that a lookup is one index.
_TAGS = tuple(_tag_of(value).to_bytes(TAG_LEN, "little") for value in range(SLOTS))


def _check_slot(slot: int) -> int:
    if not isinstance(slot, int) or isinstance(slot, bool):
        raise TypeError(
            f"slot must be an int from {FIRST_SLOT} to {LAST_SLOT}, "
            f"not {type(slot).__name__} {slot!r}"
        )
    if not FIRST_SLOT <= slot <= LAST_SLOT:
        raise SlotOutOfRange(slot)
    return slot - FIRST_SLOT


def tag_for_slot(slot: int) -> bytes:
    """A tag (TAG_LEN bytes of the alphabet) whose key lands on the slot.

    Raises TypeError unless slot is an int, SlotOutOfRange unless it is a slot."""
    if slot.__class__ is int and {{first_slot}} <= slot <= {{last_slot}}:  # literals: globals cost
        return _TAGS[{{slot_index}}]
    return _TAGS[_check_slot(slot)]


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


def same_slot(keys: Iterable[Key]) -> Optional[int]:
    """The slot every key lands on, as a multi-key command or a script's keys need; None
    when two keys land on different slots (the server answers CROSSSLOT) or there are
    none. Raises TypeError when keys is one key (a str or bytes) rather than an iterable
    of keys."""
    found = None
    for key in _keys(keys, "same_slot"):
        this = slot(key)
        if found is None:
            found = this
        elif this != found:
            return None
    return found


def shared_hashtag(keys: Iterable[Key]) -> Optional[bytes]:
    """The one hashtag every key has between its delimiters; None when a key has none (its
    whole key is hashed), two keys have different ones, or there are none. Keys that share
    a hashtag land on one slot whatever the slot count. Raises TypeError when keys is one
    key (a str or bytes) rather than an iterable of keys."""
    found = None
    for key in _keys(keys, "shared_hashtag"):
        tag = _explicit(_bytes(key, "key"))
        if tag is None or (found is not None and tag != found):
            return None
        found = tag
    return found
