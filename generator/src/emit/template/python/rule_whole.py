
class WholeKeyHashed(SlotgenError):
    """A prefix or suffix was given, but this scheme hashes the whole key."""

    def __init__(self) -> None:
        super().__init__(
            "this scheme hashes the whole key, so a key that lands on a slot is the tag "
            "alone: give no prefix or suffix"
        )


def _explicit(data: bytes) -> Optional[bytes]:
    return None


def key_for_slot(prefix: Key, slot: int, suffix: Key) -> bytes:
    """The key of the slot: this scheme hashes the whole key, so it is the tag alone.

    Raises SlotOutOfRange, or WholeKeyHashed unless prefix and suffix are empty."""
    head, tail = _bytes(prefix, "prefix"), _bytes(suffix, "suffix")
    tag = tag_for_slot(slot)
    if head or tail:
        raise WholeKeyHashed()
    return tag

