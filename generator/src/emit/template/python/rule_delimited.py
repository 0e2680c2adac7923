
#: The bytes that open and close a hashtag.
OPEN, CLOSE = {{open}}, {{close}}
# A hashtag shorter than this hashes the whole key.
_MIN_TAG_LEN = {{min_tag_len}}


class PrefixHasDelimiter(SlotgenError):
    """The prefix contains OPEN, so the key's hashtag would not be the tag."""

    def __init__(self, position: int) -> None:
        super().__init__(
            f"prefix contains the hashtag's opening byte {OPEN!r} at byte {position}: the "
            "key's hashtag would start there instead of at the tag; remove it from the "
            "prefix or move that part into the suffix"
        )
        self.position = position


def _explicit(data: bytes) -> Optional[bytes]:
    start = data.find(OPEN)
    if start >= 0:
        end = data.find(CLOSE, start + 1)
        if end >= 0 and end - start - 1 >= _MIN_TAG_LEN:
            return data[start + 1 : end]
    return None


def slot(key: Key) -> int:
    """The slot of a key: {{slot_formula}}, where crc is the CRC of hashtag(key)."""
    # _explicit's rule, written out with literals: a call or a global costs as much as the
    # rest. A str has find too, but refuses a bytes argument: the except is for the types
    # _bytes converts or refuses, str is encoded before it (an exception is slow).
    if key.__class__ is str:
        key = key.encode()
    try:
        start = key.find({{open}})
    except (TypeError, AttributeError):
        key = _bytes(key, "key")
        start = key.find({{open}})
    if start >= 0:
        end = key.find({{close}}, start + 1)
        if end - start > {{min_tag_len}}:
            key = key[start + 1 : end]
    return {{slot_expression}}


def key_for_slot(prefix: Key, slot: int, suffix: Key) -> bytes:
    """The key prefix + OPEN + tag + CLOSE + suffix for the slot. Its hashtag is the tag,
    so it lands on the slot whatever the suffix holds.

    Raises SlotOutOfRange, or PrefixHasDelimiter when the prefix contains OPEN."""
    if prefix.__class__ is not bytes or suffix.__class__ is not bytes:
        prefix, suffix = _bytes(prefix, "prefix"), _bytes(suffix, "suffix")
    # literals, and an int for `in` (`b"{" in` is slower): this is most of the call's cost
    if slot.__class__ is int and {{first_slot}} <= slot <= {{last_slot}} and {{open_byte}} not in prefix:
        return b"".join((prefix, {{open}}, _TAGS[{{slot_index}}], {{close}}, suffix))
    # the checks and their errors, for every other call
    head, tail = _bytes(prefix, "prefix"), _bytes(suffix, "suffix")
    tag = tag_for_slot(slot)
    position = head.find(OPEN)
    if position >= 0:
        raise PrefixHasDelimiter(position)
    return b"".join((head, OPEN, tag, CLOSE, tail))

