
  # A prefix or suffix was given, but this scheme hashes the whole key.
  class WholeKeyHashed < Error; end

  # The hashtag between the delimiters of a binary String: always nil, this scheme has
  # none.
  def explicit(_bytes)
    nil
  end

  # The key of the slot: this scheme hashes the whole key, so it is the tag alone. Raises
  # SlotOutOfRange, or WholeKeyHashed unless prefix and suffix are empty.
  def key_for_slot(prefix, slot, suffix)
    head = bytes_of_key(prefix, "prefix")
    tail = bytes_of_key(suffix, "suffix")
    tag = tag_for_slot(slot)
    unless head.empty? && tail.empty?
      raise WholeKeyHashed,
            "this scheme hashes the whole key, so a key that lands on a slot is the tag " \
            "alone: give no prefix or suffix"
    end
    tag
  end
