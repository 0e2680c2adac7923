{{header}}# frozen_string_literal: true
#
# Redis Cluster style hash slots for this spec, both ways: the slot of a key, and a key
# for a slot in O(1). Plain Ruby (2.7 and later), no gems. Keys are byte strings: any
# String is read as its bytes (String#b), and tags and keys come back as binary strings.
#
#   {{module}}.slot("123456789")                  # => {{check_slot}}
#   {{module}}.tag_for_slot(0)                    # => "{{tag}}"
#   {{module}}.key_for_slot("user:", 0, ":profile") # => "{{key}}"
#   {{module}}.tags_for_slot(0).size              # => {{tags_per_slot}}, an Enumerator
#   {{module}}.hashtag("emq:{orders}:pending")    # => "orders"
#   {{module}}.shared_hashtag(["emq:{orders}:pending", "emq:{orders}:active"]) # => "orders"
#
# Refused calls raise ArgumentError, with the rule and the way out.
module {{module}}
  # The number of hash slots; a slot is an Integer in 0...SLOTS.
  SLOTS = {{slots}}
  # Symbols (bytes) per tag.
  TAG_LEN = {{tag_len}}
  # How many tags land on each slot.
  TAGS_PER_SLOT = {{tags_per_slot}}
  # The slot of the tag whose symbols all have index 0.
  BASE_SLOT = {{base_slot}}

  # The CRC's lookup table: entry i is the register after feeding byte i into a zero
  # register{{reflected_note}}.
  CRC_TABLE = [
{{crc_table}}
  ].freeze

  # The alphabet: symbol i is the byte ALPHABET[i].
  ALPHABET = [
{{alphabet}}
  ].freeze

  # A tag as a mask: bits {{symbol_bits}}k to {{symbol_bits}}k+{{symbol_bits_minus_one}} hold the index of symbol k, the first
  # symbol in the lowest bits. The tag of a slot is the mask
  # LOW[d & {{low_mask}}] ^ HIGH[d >> {{low_bits}}] for d = slot ^ BASE_SLOT: LOW[v] is the mask whose
  # slot differs from the base slot by v, and HIGH[v] by v << {{low_bits}}.
  LOW = [
{{low}}
  ].freeze
  HIGH = [
{{high}}
  ].freeze
  # A basis of the kernel: masks whose tags do not move the slot.
  KERNEL = [
{{kernel}}
  ].freeze
  SHIFTS = (0...TAG_LEN).map { |k| {{symbol_bits}} * k }.freeze
  private_constant :CRC_TABLE, :ALPHABET, :LOW, :HIGH, :KERNEL, :SHIFTS

  module_function

  # The hashtag of a key: the bytes between the first `{` and the next `}` when there are
  # any, else the whole key. These are the bytes whose CRC is the slot.
  def hashtag(key)
    raise ArgumentError, "key must be a String, not #{key.class}" unless key.is_a?(String)

    bytes = key.b
    open = bytes.index("{")
    if open
      close = bytes.index("}", open + 1)
      return bytes[(open + 1)...close] if close && close > open + 1
    end
    bytes
  end

  # The hash slot of a key: the CRC of its hashtag, an Integer in 0...SLOTS.
  def slot(key)
    crc = {{start}}
    hashtag(key).each_byte do |byte|
{{crc_update}}
    end
{{crc_finish}}    crc & {{slot_mask}}
  end

  def check_slot(slot)
    unless slot.is_a?(Integer)
      raise ArgumentError, "slot must be an Integer in 0...#{SLOTS}, not #{slot.class} #{slot.inspect}"
    end
    return if slot >= 0 && slot < SLOTS

    raise ArgumentError,
          "slot #{slot} is out of range: this table has #{SLOTS} slots, so a slot is in 0...#{SLOTS}"
  end

  def mask_for_slot(slot)
    check_slot(slot)
    delta = slot ^ BASE_SLOT
    LOW[delta & {{low_mask}}] ^ HIGH[delta >> {{low_bits}}]
  end

  def tag_of(mask)
    SHIFTS.map { |shift| ALPHABET[(mask >> shift) & {{symbol_mask}}] }.pack("C*")
  end
  private_class_method :check_slot, :mask_for_slot, :tag_of

  # A tag (TAG_LEN bytes of the alphabet, a binary String) whose key lands on the slot.
  # Raises ArgumentError unless slot is an Integer in 0...SLOTS.
  def tag_for_slot(slot)
    tag_of(mask_for_slot(slot))
  end

  # The key prefix + "{" + tag + "}" + suffix for the slot, a binary String. Its hashtag is
  # the tag, so it lands on the slot whatever the suffix holds. Raises ArgumentError when
  # the slot is out of range or the prefix contains `{`.
  def key_for_slot(prefix, slot, suffix)
    unless prefix.is_a?(String) && suffix.is_a?(String)
      raise ArgumentError, "prefix and suffix must be Strings"
    end

    tag = tag_for_slot(slot)
    head = prefix.b
    brace = head.index("{")
    if brace
      raise ArgumentError,
            "prefix contains `{` at byte #{brace}: the key's hashtag would start there instead " \
            "of at the tag; remove the `{` from the prefix or move that part into the suffix"
    end
    head + "{" + tag + "}" + suffix.b
  end

  # Every tag that lands on the slot, as a lazy Enumerator of size TAGS_PER_SLOT: the
  # tag_for_slot tag first, then that tag's mask xor each nonzero combination of KERNEL,
  # in binary counting order. Raises ArgumentError unless slot is an Integer in 0...SLOTS.
  def tags_for_slot(slot)
    mask = mask_for_slot(slot)
    Enumerator.new(TAGS_PER_SLOT) do |tags|
      TAGS_PER_SLOT.times do |n|
        combined = mask
        KERNEL.each_with_index { |vector, bit| combined ^= vector if n[bit] == 1 }
        tags << tag_of(combined)
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

  # The one non-empty hashtag every key has, a binary String; nil when a key has none (the
  # whole key is hashed: no `{`, no `}` after it, or `{}`), two keys have different ones,
  # or there are none. Keys that share a hashtag land on one slot under every CRC and slot
  # count. Raises ArgumentError when a key is not a String.
  def shared_hashtag(keys)
    found = nil
    keys.each do |key|
      raise ArgumentError, "key must be a String, not #{key.class}" unless key.is_a?(String)

      bytes = key.b
      open = bytes.index("{")
      close = open && bytes.index("}", open + 1)
      return nil unless close && close > open + 1

      tag = bytes[(open + 1)...close]
      if found.nil?
        found = tag
      elsif tag != found
        return nil
      end
    end
    found
  end
end
