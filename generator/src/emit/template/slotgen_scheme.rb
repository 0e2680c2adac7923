{{header}}# frozen_string_literal: true
#
# Slots of the {{scheme}} scheme, both ways: the slot of a key, and a key for a slot. Plain
# Ruby (2.7 and later), no gems. Keys are byte strings: any String is read as its bytes
# (String#b), and tags and keys come back as binary strings. A slot is an Integer from
# FIRST_SLOT to LAST_SLOT.
#
#   {{module}}.slot("123456789")                 # => {{check_slot}}
#   {{module}}.tag_for_slot({{module}}::FIRST_SLOT)  # => "{{tag}}"
#   {{module}}.key_for_slot({{example_prefix}}, {{module}}::FIRST_SLOT, {{example_suffix}}) # => "{{key}}"
#   {{module}}.tags_for_slot({{module}}::FIRST_SLOT) # => a lazy Enumerator of the slot's tags
#
# Refused calls raise ArgumentError, with the rule and the way out.
module {{module}}
  # The number of slots.
  SLOTS = {{slots}}
  # The first slot; slots are FIRST_SLOT to LAST_SLOT.
  FIRST_SLOT = {{first_slot}}
  # The last slot.
  LAST_SLOT = {{last_slot}}
  # Symbols (bytes) per tag.
  TAG_LEN = {{tag_len}}
{{delimiter_constants}}
  # The CRC's lookup table: entry i is the register after feeding byte i into a zero
  # register{{reflected_note}}.
  CRC_TABLE = [
{{crc_table}}
  ].freeze

  # A tag as an Integer: byte k of the tag is byte k of the Integer, least significant
  # first. The tag of a value v is ZERO_TAG ^ COLUMNS[i] over the set bits i of v:
  # COLUMNS[i] flips bit i of the tag's value (the CRC's value after the shift and mask),
  # and ZERO_TAG is the tag of value 0. The tag of a slot is the tag of the value
  # slot - FIRST_SLOT.
  ZERO_TAG = {{zero_int}}
  COLUMNS = [
{{column_ints}}
  ].freeze
  # A basis of the kernel: xored into a tag, any combination keeps its value.
  KERNEL = [
{{kernel_ints}}
  ].freeze
  # Tags reach the values below this; a slot's are slot - FIRST_SLOT + k * SLOTS.
  VALUE_LIMIT = {{value_limit}}
  private_constant :CRC_TABLE, :ZERO_TAG, :COLUMNS, :KERNEL, :VALUE_LIMIT{{private_constants}}

  module_function
{{rule}}
  # The slot of a key: ((crc >> {{shift}}) & {{value_mask}}) % SLOTS + FIRST_SLOT, for the CRC of
  # {{rule_doc}}.
  def slot(key)
    raise ArgumentError, "key must be a String, not #{key.class}" unless key.is_a?(String)

    crc = {{crc_start}}
    hashed(key.b).each_byte do |byte|
{{crc_update}}
    end
{{crc_finish}}    ((crc >> {{shift}}) & {{value_mask}}) % SLOTS + FIRST_SLOT
  end

  def check_slot(slot)
    unless slot.is_a?(Integer)
      raise ArgumentError,
            "slot must be an Integer from #{FIRST_SLOT} to #{LAST_SLOT}, not #{slot.class} #{slot.inspect}"
    end
    return slot - FIRST_SLOT if slot >= FIRST_SLOT && slot <= LAST_SLOT

    raise ArgumentError,
          "slot #{slot} is out of range: this scheme's slots are #{FIRST_SLOT} to #{LAST_SLOT}"
  end

  def tag_of(value)
    tag = ZERO_TAG
    COLUMNS.each_with_index { |column, bit| tag ^= column if value[bit] == 1 }
    tag
  end

  def bytes_of(tag)
    Array.new(TAG_LEN) { |k| (tag >> (8 * k)) & 0xff }.pack("C*")
  end
  private_class_method :hashed, :check_slot, :tag_of, :bytes_of

  # A tag (TAG_LEN bytes of the alphabet, a binary String) whose key lands on the slot.
  # Raises ArgumentError unless slot is an Integer from FIRST_SLOT to LAST_SLOT.
  def tag_for_slot(slot)
    bytes_of(tag_of(check_slot(slot)))
  end

  # Every tag of TAG_LEN symbols that lands on the slot, as a lazy Enumerator with its
  # size: for each value slot - FIRST_SLOT + k * SLOTS below VALUE_LIMIT, ascending, the
  # value's tag xor each combination of KERNEL, in binary counting order; the tag_for_slot
  # tag first. Raises ArgumentError unless slot is an Integer from FIRST_SLOT to LAST_SLOT.
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
end
