{{header}}{{doc_open}}Redis Cluster style hash slots for this spec, both ways: the slot of a key, and a
key for a slot in O(1). Standard library only, Python 3.9 and later. Keys are bytes; a str
key is encoded as UTF-8 first.

>>> slot("123456789")
{{check_slot}}
>>> tag_for_slot(0)
{{tag_repr}}
>>> key_for_slot("user:", 0, ":profile")
{{key_repr}}
>>> next(tags_for_slot(0))
{{tag_repr}}
>>> TAGS_PER_SLOT
{{tags_per_slot}}

Errors raise SlotOutOfRange or PrefixHasBrace, both SlotgenError, a ValueError.
{{doc_close}}

from typing import Iterable, Iterator, Optional, Union

__all__ = [
    "SLOTS",
    "TAG_LEN",
    "TAGS_PER_SLOT",
    "SlotgenError",
    "SlotOutOfRange",
    "PrefixHasBrace",
    "slot",
    "tag_for_slot",
    "key_for_slot",
    "tags_for_slot",
    "same_slot",
    "shared_hashtag",
]

Key = Union[bytes, bytearray, memoryview, str]

#: The number of hash slots; a slot is in range(SLOTS).
SLOTS = {{slots}}
#: Symbols (bytes) per tag.
TAG_LEN = {{tag_len}}
#: How many tags land on each slot.
TAGS_PER_SLOT = {{tags_per_slot}}
#: The slot of the tag whose symbols all have index 0.
BASE_SLOT = {{base_slot}}


class SlotgenError(ValueError):
    """A call this module refuses."""


class SlotOutOfRange(SlotgenError):
    """The slot is not in range(SLOTS)."""

    def __init__(self, slot: object) -> None:
        super().__init__(
            f"slot {slot!r} is out of range: this table has {SLOTS} slots, "
            f"so a slot is an int in range({SLOTS})"
        )
        self.slot = slot


class PrefixHasBrace(SlotgenError):
    """The prefix contains `{`, so the key's hashtag would not be the tag."""

    def __init__(self, position: int) -> None:
        super().__init__(
            "prefix contains `{` at byte %d: the key's hashtag would start there instead of "
            "at the tag; remove the `{` from the prefix or move that part into the suffix"
            % position
        )
        self.position = position


# The CRC's lookup table: entry i is the register after feeding byte i into a zero
# register{{reflected_note}}.
_CRC_TABLE = (
{{crc_table}}
)


def _bytes(value: Key, what: str) -> bytes:
    if isinstance(value, str):
        return value.encode("utf-8")
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value)
    raise TypeError(f"{what} must be bytes or str, not {type(value).__name__}")


def _crc(data: bytes) -> int:
    crc = {{start}}
    for byte in data:
{{crc_update}}
{{crc_finish}}    return crc


def slot(key: Key) -> int:
    """The hash slot of a key: the CRC of its hashtag, the bytes between the first `{` and
    the next `}` when there are any, else of the whole key."""
    data = _bytes(key, "key")
    open_ = data.find(b"{")
    if open_ >= 0:
        close = data.find(b"}", open_ + 1)
        if close > open_ + 1:
            data = data[open_ + 1 : close]
    return _crc(data) & {{slot_mask}}


# The alphabet: symbol i is _ALPHABET[i].
_ALPHABET = {{alphabet}}

# A tag as a mask: bits {{symbol_bits}}k to {{symbol_bits}}k+{{symbol_bits_minus_one}} hold the index of symbol k, the first
# symbol in the lowest bits. The tag of a slot is the mask
# _LOW[d & {{low_mask}}] ^ _HIGH[d >> {{low_bits}}] for d = slot ^ BASE_SLOT: _LOW[v] is the mask whose
# slot differs from the base slot by v, and _HIGH[v] by v << {{low_bits}}.
_LOW = (
{{low}}
)
_HIGH = (
{{high}}
)
# A basis of the kernel: masks whose tags do not move the slot.
_KERNEL = (
{{kernel}}
)
_SHIFTS = tuple(range(0, {{mask_bits}}, {{symbol_bits}}))


def _check_slot(slot: int) -> None:
    if not isinstance(slot, int) or isinstance(slot, bool):
        raise TypeError(
            f"slot must be an int in range({SLOTS}), not {type(slot).__name__} {slot!r}"
        )
    if not 0 <= slot < SLOTS:
        raise SlotOutOfRange(slot)


def _tag(mask: int) -> bytes:
    return bytes([_ALPHABET[(mask >> shift) & {{symbol_mask}}] for shift in _SHIFTS])


def tag_for_slot(slot: int) -> bytes:
    """A tag (TAG_LEN bytes of the alphabet) whose key lands on the slot.

    Raises TypeError unless slot is an int, SlotOutOfRange unless it is in range(SLOTS)."""
    _check_slot(slot)
    delta = slot ^ BASE_SLOT
    return _tag(_LOW[delta & {{low_mask}}] ^ _HIGH[delta >> {{low_bits}}])


def key_for_slot(prefix: Key, slot: int, suffix: Key) -> bytes:
    """The key prefix + b"{" + tag + b"}" + suffix for the slot. Its hashtag is the tag, so
    it lands on the slot whatever the suffix holds.

    Raises SlotOutOfRange, or PrefixHasBrace when the prefix contains `{`."""
    head, tail = _bytes(prefix, "prefix"), _bytes(suffix, "suffix")
    tag = tag_for_slot(slot)
    position = head.find(b"{")
    if position >= 0:
        raise PrefixHasBrace(position)
    return b"".join((head, b"{", tag, b"}", tail))


def tags_for_slot(slot: int) -> Iterator[bytes]:
    """Every tag that lands on the slot, lazily: TAGS_PER_SLOT of them, the tag_for_slot
    tag first, then that tag's mask xor each nonzero combination of _KERNEL, in binary
    counting order. The slot is checked at once, the tags are made as they are iterated.

    Raises TypeError unless slot is an int, SlotOutOfRange unless it is in range(SLOTS)."""
    _check_slot(slot)
    delta = slot ^ BASE_SLOT
    return _tags(_LOW[delta & {{low_mask}}] ^ _HIGH[delta >> {{low_bits}}])


def _tags(mask: int) -> Iterator[bytes]:
    for n in range(TAGS_PER_SLOT):
        combined = mask
        for bit, vector in enumerate(_KERNEL):
            if n >> bit & 1:
                combined ^= vector
        yield _tag(combined)


def same_slot(keys: Iterable[Key]) -> Optional[int]:
    """The slot every key lands on, as a multi-key command or a script's keys need; None
    when two keys land on different slots (the server answers CROSSSLOT) or there are none:
    same_slot([b"{a}1", "{a}2"]) gives slot(b"a"), same_slot([]) gives None."""
    found = None
    for key in keys:
        this = slot(key)
        if found is None:
            found = this
        elif this != found:
            return None
    return found


def shared_hashtag(keys: Iterable[Key]) -> Optional[bytes]:
    """The one non-empty hashtag every key has; None when a key has none (the whole key is
    hashed: no `{`, no `}` after it, or `{}`), two keys have different ones, or there are
    none. Keys that share a hashtag land on one slot under every CRC and slot count:
    shared_hashtag([b"emq:{orders}:pending", "emq:{orders}:active"]) gives b"orders"."""
    found = None
    for key in keys:
        data = _bytes(key, "key")
        open_ = data.find(b"{")
        close = data.find(b"}", open_ + 1) if open_ >= 0 else -1
        if close <= open_ + 1:
            return None
        tag = data[open_ + 1 : close]
        if found is None:
            found = tag
        elif tag != found:
            return None
    return found
