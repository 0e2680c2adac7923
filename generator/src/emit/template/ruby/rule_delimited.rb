
  # The prefix contains OPEN, so the key's hashtag would not be the tag.
  class PrefixHasDelimiter < Error; end

  # The byte that opens a hashtag.
  OPEN = [{{open}}].pack("C").freeze
  # The byte that closes a hashtag.
  CLOSE = [{{close}}].pack("C").freeze
  # A hashtag shorter than this hashes the whole key.
  MIN_TAG_LEN = {{min_tag_len}}
  # Each slot's OPEN + tag + CLOSE, a frozen binary String made at its first key (or nil).
  FRAMED = Array.new(SLOTS)
  private_constant :MIN_TAG_LEN, :FRAMED

  # The hashtag between the delimiters of a binary String, or nil.
  def explicit(bytes)
    open = bytes.index(OPEN)
    return nil unless open

    close = bytes.index(CLOSE, open + 1)
    return nil unless close && close - open - 1 >= MIN_TAG_LEN

    bytes[(open + 1)...close]
  end

  # The key prefix + OPEN + tag + CLOSE + suffix for the slot, a binary String. Its hashtag
  # is the tag, so it lands on the slot whatever the suffix holds. Raises SlotOutOfRange,
  # or PrefixHasDelimiter when the prefix contains OPEN.
  def key_for_slot(prefix, slot, suffix)
    # the checks inline and each framed tag made once, so that a key is a copy of the prefix
    # and two appends: without YJIT a call or an append costs as much as the lookup
    if prefix.is_a?(String) && suffix.is_a?(String) && slot.is_a?(Integer) &&
       slot >= FIRST_SLOT && slot <= LAST_SLOT
      key = prefix.b
      unless key.include?(OPEN)
        framed = FRAMED[slot - FIRST_SLOT] ||= (OPEN + tag_for_slot(slot) + CLOSE).freeze
        return key << framed << (suffix.ascii_only? ? suffix : suffix.b)
      end
    end
    # every other call is refused: its error, in this order
    key = bytes_of_key(prefix, "prefix")
    bytes_of_key(suffix, "suffix")
    check_slot(slot)
    raise PrefixHasDelimiter,
          format("prefix contains the hashtag's opening byte 0x%02x at byte %d: the key's " \
                 "hashtag would start there instead of at the tag; remove it from the " \
                 "prefix or move that part into the suffix", OPEN.ord, key.index(OPEN))
  end
