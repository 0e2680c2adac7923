
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
    """The slot of a key: {{slot_formula}}, where crc is the CRC of the whole key."""
    if type(key) is not bytes:
        key = _bytes(key, "key")
    return {{slot_expression}}


# Solving a tag inside a frame: the value of prefix + tag + suffix is affine in the tag's
# bits (a CRC over keys of one length is), so it is measured at the tag whose symbols all
# have index 0 and at each single bit flipped, and solved by Gauss-Jordan elimination with
# pivot columns in ascending order and every free bit zero: the tag `slotgen key --prefix
# --suffix` gives, with this module's alphabet and tag length. A frame is solved once and
# kept (the last 16).
_ALPHABET_OFFSET = {{alphabet_offset}}
_ALPHABET_BASIS = ({{alphabet_basis}},)
_SOLVED_BITS = {{solved_bits}}


def _value(data: bytes) -> int:
    return (_crc(data) >> {{shift}}) & {{value_mask}}


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

