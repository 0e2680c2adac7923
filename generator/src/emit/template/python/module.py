<# The Python module: one file, every part chosen here. #>
<% from "reduction.jinja" import infix %>
<# The slot of the CRC `crc`, in Python's operators. #>
<# The CRC of `data` by the standard library's C code, where it has this CRC's polynomial
   (`native`): binascii.crc_hqx(data, start) is CRC-16/XMODEM's from any register;
   zlib.crc32(data, value) CRC-32/ISO-HDLC's from the register value ^ 0xffffffff, its
   result xored with 0xffffffff. #>
<% macro native_crc(data) %>
<% set start = ", " ~ (native.start | hex(4)) if native.xmodem else ", " ~ (native.value | hex(8)) if native.value else "" %>
<% set call = "_native_crc(" ~ data ~ start ~ ")" %>
{{ "(" ~ call ~ " ^ " ~ (native.xor | hex) ~ ")" if native.xor else call }}<% endmacro %>
<% macro slot_of(crc) %>{{ infix(reduction, crc, reduction.mask | hex) }}<% endmacro %>
<% set tag_repr = examples.tag_bytes | py_bytes %>
<% set key_repr = examples.key_bytes | py_bytes %>
<% set quotes = "'''" if '"""' in (tag_repr ~ key_repr) else '"""' %>
<% set key_error = "FrameNotSolvable" if rule.whole else "PrefixHasDelimiter" %>
<% macro crc_update() %>
<% if crc.refin %>
        crc = (crc >> 8) ^ _CRC_TABLE[(crc ^ byte) & 0xFF]
<% else %>
        crc = ((crc << 8) & {{crc.mask | hex}}) ^ _CRC_TABLE[((crc >> {{crc.top_shift}}) ^ byte) & 0xFF]
<% endif %>
<% endmacro %>
<% macro crc_finish() %>
<% if crc.reflect_out %>
    crc = int(f"{crc:0{{crc.width}}b}"[::-1], 2)  # refin != refout: reflect the register
<% endif %>
<% if crc.xorout %>
    crc ^= {{crc.xorout | hex}}
<% endif %>
<% endmacro %>
{{header}}r{{quotes}}Slots of the {{scheme}} scheme, both ways: the slot of a key, and a key for a slot in
O(1). Standard library only, Python 3.9 and later. Keys are bytes; a str key is encoded as
UTF-8 first. A slot is an int from FIRST_SLOT to LAST_SLOT.

>>> slot("123456789")
{{examples.check_slot}}
>>> tag_for_slot(FIRST_SLOT)
{{tag_repr}}
>>> key_for_slot({{examples.prefix_bytes | py_bytes}}, FIRST_SLOT, {{examples.suffix_bytes | py_bytes}})
{{key_repr}}
>>> next(tags_for_slot(FIRST_SLOT))
{{tag_repr}}

Errors raise SlotOutOfRange or {{key_error}}, both SlotgenError, a ValueError.
{{quotes}}

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
SLOTS = {{slots.count}}
#: The first slot; slots are FIRST_SLOT to LAST_SLOT.
FIRST_SLOT = {{slots.first}}
#: The last slot.
LAST_SLOT = {{slots.last}}
#: Symbols (bytes) per tag.
TAG_LEN = {{tags.len}}


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

<% if rule.whole %>

from functools import lru_cache  # noqa: E402 (solved frames are kept)
from typing import Tuple  # noqa: E402


class FrameNotSolvable(SlotgenError):
    """No tag of TAG_LEN symbols inside this prefix and suffix reaches every slot."""

    def __init__(self, rank: int) -> None:
        super().__init__(
            f"inside this prefix and suffix, tags of {TAG_LEN} symbols control only {rank} of "
            f"the {_SOLVED_BITS} value bits a slot needs: change the prefix or suffix, or "
            "emit the module for another tag length (--tag-len)"
        )
        self.rank = rank


def _explicit(data: bytes) -> Optional[bytes]:
    return None


def slot(key: Key) -> int:
    """The slot of a key: {{ slot_of("crc") }}, where crc is the CRC of the whole key."""
    if type(key) is not bytes:
        key = _bytes(key, "key")
    return {{ slot_of(native_crc("key") if native else "_crc(key)") }}


# Solving a tag inside a frame: the value of prefix + tag + suffix is affine in the tag's
# bits (a CRC over keys of one length is), so it is measured at the tag whose symbols all
# have index 0 and at each single bit flipped, and solved by Gauss-Jordan elimination with
# pivot columns in ascending order and every free bit zero: the tag `slotgen key --prefix
# --suffix` gives, with this module's alphabet and tag length. A frame is solved once and
# kept (the last 16).
_ALPHABET_OFFSET = {{alphabet.offset | hex(2)}}
_ALPHABET_BASIS = ({{alphabet.basis | map("hex", 2) | join(", ")}},)
_SOLVED_BITS = {{tags.solved_bits}}


def _value(data: bytes) -> int:
    return (_crc(data) >> {{reduction.shift}}) & {{reduction.mask | hex}}


@lru_cache(maxsize=16)
def _frame(head: bytes, tail: bytes) -> Tuple[int, Tuple[Tuple[int, int], ...]]:
    """The frame's solver: the value of its tag whose symbols all have index 0, and for each
    pivot column (an input bit: symbol bit j of tag byte k is column k * bits + j) the
    value bits whose sum sets it."""
    zero = bytes([_ALPHABET_OFFSET]) * TAG_LEN
    solved = (1 << _SOLVED_BITS) - 1
    base = _value(head + zero + tail)
    columns = []
    for k in range(TAG_LEN):
        for b in _ALPHABET_BASIS:
            tag = bytearray(zero)
            tag[k] ^= b
            columns.append((_value(head + bytes(tag) + tail) ^ base) & solved)
    # one row a value bit: its columns as bits of an int, and the value bits summed into it
    rows = [
        [sum(1 << i for i, c in enumerate(columns) if c >> r & 1), 1 << r]
        for r in range(_SOLVED_BITS)
    ]
    pivots = []
    for column in range(len(columns)):
        rank = len(pivots)
        found = next((r for r in range(rank, len(rows)) if rows[r][0] >> column & 1), None)
        if found is None:
            continue
        rows[rank], rows[found] = rows[found], rows[rank]
        for r, row in enumerate(rows):
            if r != rank and row[0] >> column & 1:
                row[0] ^= rows[rank][0]
                row[1] ^= rows[rank][1]
        pivots.append(column)
    if len(pivots) < _SOLVED_BITS:
        raise FrameNotSolvable(len(pivots))
    return base, tuple((column, rows[r][1]) for r, column in enumerate(pivots))


def _framed_tag(head: bytes, value: int, tail: bytes) -> bytes:
    base, pivots = _frame(head, tail)
    target = value ^ base
    tag = bytearray([_ALPHABET_OFFSET]) * TAG_LEN
    bits = len(_ALPHABET_BASIS)
    for column, sums in pivots:
        if bin(sums & target).count("1") & 1:
            tag[column // bits] ^= _ALPHABET_BASIS[column % bits]
    return bytes(tag)


def key_for_slot(prefix: Key, slot: int, suffix: Key) -> bytes:
    """The key prefix + tag + suffix of the slot: this scheme hashes the whole key, so the
    tag is solved inside the frame (the tag alone when both are empty, tag_for_slot's).

    Raises SlotOutOfRange, or FrameNotSolvable when tags of this length cannot reach
    every slot inside this prefix and suffix."""
    head, tail = _bytes(prefix, "prefix"), _bytes(suffix, "suffix")
    value = _check_slot(slot)
    if not head and not tail:
        return tag_for_slot(slot)
    return head + _framed_tag(head, value, tail) + tail

<% else %>

#: The bytes that open and close a hashtag.
OPEN, CLOSE = {{[rule.open] | py_bytes}}, {{[rule.close] | py_bytes}}
# A hashtag shorter than this hashes the whole key.
_MIN_TAG_LEN = {{rule.min_len}}


class PrefixHasDelimiter(SlotgenError):
    """The prefix contains OPEN, so the key's hashtag would not be the tag."""

    def __init__(self, position: int) -> None:
        super().__init__(
            f"prefix contains the hashtag's opening byte {OPEN!r} at byte {position}: the "
            "key's hashtag would start there instead of at the tag; remove it from the "
            "prefix or move that part into the suffix"
        )
        self.position = position


# The last prefix key_for_slot found without OPEN, a bytes (immutable, so it stays clean).
_clean_prefix = b""


def _explicit(data: bytes) -> Optional[bytes]:
    start = data.find(OPEN)
    if start >= 0:
        end = data.find(CLOSE, start + 1)
        if end >= 0 and end - start - 1 >= _MIN_TAG_LEN:
            return data[start + 1 : end]
    return None


def slot(key: Key) -> int:
    """The slot of a key: {{ slot_of("crc") }}, where crc is the CRC of hashtag(key)."""
    # _explicit's rule, written out with literals: a call or a global costs as much as the
    # rest. A str has find too, but refuses a bytes argument: the except is for the types
    # _bytes converts or refuses, str is encoded before it (an exception is slow).
    if key.__class__ is str:
        key = key.encode()
    try:
        start = key.find({{[rule.open] | py_bytes}})
    except (TypeError, AttributeError):
        key = _bytes(key, "key")
        start = key.find({{[rule.open] | py_bytes}})
    if start >= 0:
        end = key.find({{[rule.close] | py_bytes}}, start + 1)
        if end - start > {{rule.min_len}}:
            key = key[start + 1 : end]
    return {{ slot_of(native_crc("key") if native else "_crc(key)") }}


def key_for_slot(prefix: Key, slot: int, suffix: Key) -> bytes:
    """The key prefix + OPEN + tag + CLOSE + suffix for the slot. Its hashtag is the tag,
    so it lands on the slot whatever the suffix holds.

    Raises SlotOutOfRange, or PrefixHasDelimiter when the prefix contains OPEN."""
    global _clean_prefix
    # literals, two comparisons (a chained one is 10% slower), and for the prefix one
    # identity test with the last one found clean: a caller's keys mostly share one, and
    # its class test and `in` cost 15% of the call
    if slot.__class__ is int and slot >= {{slots.first}} and slot <= {{slots.last}} and suffix.__class__ is bytes:
        if prefix is _clean_prefix:
            return b"".join((prefix, {{[rule.open] | py_bytes}}, _TAGS[{{"slot - " ~ slots.first if slots.first else "slot"}}], {{[rule.close] | py_bytes}}, suffix))
        # an int for `in` (`b"{" in` is slower)
        if prefix.__class__ is bytes and {{rule.open | hex(2)}} not in prefix:
            _clean_prefix = prefix
            return b"".join((prefix, {{[rule.open] | py_bytes}}, _TAGS[{{"slot - " ~ slots.first if slots.first else "slot"}}], {{[rule.close] | py_bytes}}, suffix))
    # the checks and their errors, for every other call (and str affixes)
    head, tail = _bytes(prefix, "prefix"), _bytes(suffix, "suffix")
    tag = tag_for_slot(slot)
    position = head.find(OPEN)
    if position >= 0:
        raise PrefixHasDelimiter(position)
    return b"".join((head, OPEN, tag, CLOSE, tail))

<% endif %>


def hashtag(key: Key) -> bytes:
    """The bytes of the key that its slot is computed from: {{rule.doc}}."""
    data = _bytes(key, "key")
    found = _explicit(data)
    return data if found is None else found


<% if native %>
# The CRC, by the standard library's C code:
<% if native.xmodem %>
# binascii.crc_hqx is CRC-16/XMODEM's polynomial from a given register.
from binascii import crc_hqx as _native_crc  # noqa: E402
<% else %>
# zlib.crc32 is CRC-32/ISO-HDLC, whose start and xorout are 0xffffffff.
from zlib import crc32 as _native_crc  # noqa: E402
<% endif %>


def _crc(data: bytes) -> int:
    return {{ native_crc("data") }}
<% else %>
# The CRC's lookup table: entry i is the register after feeding byte i into a zero
# register<% if crc.refin %>, reflected (the register shifts right)<% endif %>.
_CRC_TABLE = (
{{crc.table | hex_rows(crc.digits, 8, "    ")}}
)


def _crc(data: bytes) -> int:
    crc = {{crc.start | hex(crc.digits)}}
    for byte in data:
{{crc_update() | chomp}}
{{crc_finish()}}    return crc
<% endif %>

<% if lookup.split %>

# A tag as an int: byte k of the tag is byte k of the int, least significant first. The tag
# of a value v is _LOW[v & {{lookup.low_mask | hex}}] ^ _HIGH[v >> {{lookup.low_bits}}]: _LOW holds whole tags (the tag of
# value 0 folded in), _HIGH the bytes that the value's high bits flip. The tag of a slot is
# the tag of the value slot - FIRST_SLOT.
_LOW = (
{{lookup.low | le_int_rows("    ")}}
)
_HIGH = (
{{lookup.high | le_int_rows("    ")}}
)


def _tag_of(value: int) -> int:
    return _LOW[value & {{lookup.low_mask | hex}}] ^ _HIGH[value >> {{lookup.low_bits}}]

<% else %>

# A tag as an int: byte k of the tag is byte k of the int, least significant first. The
# tag of a value v is _ZERO_TAG ^ _COLUMNS[i] over the set bits i of v: _COLUMNS[i] flips
# bit i of the tag's value (the CRC's value after the shift and mask), and _ZERO_TAG is the
# tag of value 0. The tag of a slot is the tag of the value slot - FIRST_SLOT.
_ZERO_TAG = {{tags.zero | le_int}}
_COLUMNS = (
{{tags.columns | le_int_rows("    ")}}
)


def _tag_of(value: int) -> int:
    tag = _ZERO_TAG
    for bit, column in enumerate(_COLUMNS):
        if value >> bit & 1:
            tag ^= column
    return tag

<% endif %>

# A basis of the kernel: xored into a tag, any combination keeps its value.
_KERNEL = (
{{tags.kernel | le_int_rows("    ")}}
)
# Tags reach the values below this; a slot's are slot - FIRST_SLOT + k * SLOTS.
_VALUE_LIMIT = {{tags.value_limit}}


<% if tags.ready %>
# Every slot's tag, made once at import (SLOTS values, a few ms): entry slot - FIRST_SLOT
# is tag_for_slot(slot), so that a lookup is one index.
_TAGS = tuple(_tag_of(value).to_bytes(TAG_LEN, "little") for value in range(SLOTS))
<% else %>
class _Tags:
    """Entry slot - FIRST_SLOT is tag_for_slot(slot), made at each lookup: SLOTS tags made
    at import would take seconds and a large part of memory."""

    __slots__ = ()

    def __getitem__(self, value: int) -> bytes:
        return _tag_of(value).to_bytes(TAG_LEN, "little")


_TAGS = _Tags()
<% endif %>


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
    # literals (globals cost) and two comparisons (a chained one is 10% slower)
    if slot.__class__ is int and slot >= {{slots.first}} and slot <= {{slots.last}}:
        return _TAGS[{{"slot - " ~ slots.first if slots.first else "slot"}}]
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
