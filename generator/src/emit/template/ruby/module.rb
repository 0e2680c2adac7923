{{header}}# frozen_string_literal: true
#
# Slots of the {{scheme}} scheme, both ways: the slot of a key, and a key for a slot in
# O(1). Plain Ruby (2.7 and later), no gems. Keys are byte strings: any String is read as
# its bytes (String#b), and tags and keys come back as binary strings. A slot is an Integer
# from FIRST_SLOT to LAST_SLOT.
#
#   {{module}}.slot("123456789") # => {{check_slot}}
#   {{module}}.tag_for_slot({{module}}::FIRST_SLOT) # => "{{tag}}"
#   {{module}}.key_for_slot({{example_prefix}}, {{module}}::FIRST_SLOT, {{example_suffix}}) # => "{{key}}"
#   {{module}}.tags_for_slot({{module}}::FIRST_SLOT) # => a lazy Enumerator of the slot's tags
#
# Refused calls raise {{module}}::SlotOutOfRange or {{module}}::{{key_error}}, both
# {{module}}::Error, an ArgumentError, with the rule and the way out.
{{requires}}module {{module}}
  # The number of slots.
  SLOTS = {{slots}}
  # The first slot; slots are FIRST_SLOT to LAST_SLOT.
  FIRST_SLOT = {{first_slot}}
  # The last slot.
  LAST_SLOT = {{last_slot}}
  # Symbols (bytes) per tag.
  TAG_LEN = {{tag_len}}

  # A call this module refuses.
  class Error < ArgumentError; end

  # The slot is not from FIRST_SLOT to LAST_SLOT.
  class SlotOutOfRange < Error; end

  # The CRC's lookup table: entry i is the register after feeding byte i into a zero
  # register{{reflected_note}}.
  CRC_TABLE = [
{{crc_table}}
  ].freeze

  # A basis of the kernel: xored into a tag, any combination keeps its value.
  KERNEL = [
{{kernel_ints}}
  ].freeze
  # Tags reach the values below this; a slot's are slot - FIRST_SLOT + k * SLOTS.
  VALUE_LIMIT = {{value_limit}}
  # Each slot's tag_for_slot, a frozen binary String made at its first call (or nil).
  TAGS = Array.new(SLOTS)
  private_constant :CRC_TABLE, :KERNEL, :VALUE_LIMIT, :TAGS

  module_function
{{rule}}{{lookup}}
  # The bytes of a key that its slot is computed from:
  # {{rule_doc}}.
  # Raises ArgumentError unless the key is a String.
  def hashtag(key)
    bytes = bytes_of_key(key, "key")
    explicit(bytes) || bytes
  end

  # The slot of a key: {{slot_formula}}, for the CRC of
  # {{rule_doc}}.
  def slot(key)
    # bytes_of_key and explicit, inline, without a copy of an ASCII key (whose characters
    # are its bytes) and with a while loop: calls, copies and blocks cost as much as the CRC
    bytes_of_key(key, "key") unless key.is_a?(String)
    bytes = key.ascii_only? ? key : key.b
    start = 0
    stop = bytes.bytesize
{{slot_hashed}}{{crc_block}}    {{slot_expression}}
  end

  # A tag (TAG_LEN bytes of the alphabet, a frozen binary String) whose key lands on the
  # slot; each call for a slot returns the same String. Raises ArgumentError unless slot is
  # an Integer, SlotOutOfRange unless it is a slot.
  def tag_for_slot(slot)
    # the check inline and each tag made once: without YJIT a call costs as much as the
    # lookup, and the tag's bytes from its Integer some 20 times that
    if slot.is_a?(Integer) && slot >= FIRST_SLOT && slot <= LAST_SLOT
      TAGS[slot - FIRST_SLOT] || (TAGS[slot - FIRST_SLOT] = bytes_of(tag_of(slot - FIRST_SLOT)).freeze)
    else
      check_slot(slot)
    end
  end

  # Every tag of TAG_LEN symbols that lands on the slot, as a lazy Enumerator with its
  # size: for each value slot - FIRST_SLOT + k * SLOTS below VALUE_LIMIT, ascending, the
  # value's tag xor each combination of KERNEL, in binary counting order; the tag_for_slot
  # tag first. The slot is checked at once, the tags are made as they are iterated.
  # Raises ArgumentError unless slot is an Integer, SlotOutOfRange unless it is a slot.
  def tags_for_slot(slot)
    first = check_slot(slot)
    size = ((VALUE_LIMIT - 1 - first) / SLOTS + 1) << KERNEL.size
    Enumerator.new(size) do |tags|
      value = first
      while value < VALUE_LIMIT
        tag = tag_of(value)
        (1 << KERNEL.size).times do |n|
          combined = tag
          KERNEL.each_with_index { |vector, bit| combined ^= vector if n[bit] == 1 }
          tags << bytes_of(combined)
        end
        value += SLOTS
      end
    end
  end

  # The slot every key lands on, as a multi-key command or a script's keys need; nil when
  # two keys land on different slots (the server answers CROSSSLOT) or there are none. The
  # keys are any Enumerable of Strings; raises ArgumentError when a key is not a String.
  def same_slot(keys)
    found = nil
    keys.each do |key|
      here = slot(key)
      if found.nil?
        found = here
      elsif here != found
        return nil
      end
    end
    found
  end

  # The one hashtag every key has between its delimiters, a binary String; nil when a key
  # has none (its whole key is hashed), two keys have different ones, or there are none.
  # Keys that share a hashtag land on one slot whatever the slot count. Raises
  # ArgumentError when a key is not a String.
  def shared_hashtag(keys)
    found = nil
    keys.each do |key|
      tag = explicit(bytes_of_key(key, "key"))
      return nil if tag.nil? || (!found.nil? && tag != found)

      found = tag
    end
    found
  end

  def bytes_of_key(value, what)
    raise ArgumentError, "#{what} must be a String, not #{value.class}" unless value.is_a?(String)

    value.b
  end

  # The value of a slot: slot - FIRST_SLOT.
  def check_slot(slot)
    unless slot.is_a?(Integer)
      raise ArgumentError,
            "slot must be an Integer from #{FIRST_SLOT} to #{LAST_SLOT}, not #{slot.class} #{slot.inspect}"
    end
    return slot - FIRST_SLOT if slot >= FIRST_SLOT && slot <= LAST_SLOT

    raise SlotOutOfRange, "slot #{slot} is out of range: the slots are #{FIRST_SLOT} to #{LAST_SLOT}"
  end

  # The TAG_LEN bytes of a tag held as an Integer, least significant first.
  def bytes_of(tag)
    Array.new(TAG_LEN) { |k| (tag >> (8 * k)) & 0xff }.pack("C*")
  end
  private_class_method :explicit, :bytes_of_key, :check_slot, :tag_of, :bytes_of
end
