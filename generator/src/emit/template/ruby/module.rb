<# The Ruby module: one file, every part chosen here. #>
<% from "reduction.jinja" import infix %>
<# The slot of the CRC `crc`, in Ruby's operators. #>
<% macro slot_of(crc) %>{{ infix(reduction, crc, reduction.mask | hex) }}<% endmacro %>
<% macro crc_update() %>
<% if crc.refin %>
      crc = (crc >> 8) ^ CRC_TABLE[(crc ^ byte) & 0xff]
<% else %>
      crc = ((crc << 8) & {{crc.mask | hex}}) ^ CRC_TABLE[(crc >> {{crc.top_shift}}) ^ byte]
<% endif %>
<% endmacro %>
<% macro crc_finish() %>
<% if crc.reflect_out %>
    crc = crc.to_s(2).rjust({{crc.width}}, "0").reverse.to_i(2) # refin != refout: reflect the register
<% endif %>
<% if crc.xorout %>
    crc ^= {{crc.xorout | hex}}
<% endif %>
<% endmacro %>
<# The lines that set crc to the CRC of bytes[start...stop]: Zlib.crc32 where it computes
   this CRC, else the table loop. #>
<% macro crc_block() %>
<% if native %>
    # Zlib.crc32 is CRC-32/ISO-HDLC, in C, from the register value ^ 0xffffffff, its result
    # xored with 0xffffffff: this CRC from its start, with its xorout
    crc = Zlib.crc32(start.zero? && stop == bytes.bytesize ? bytes : bytes.byteslice(start, stop - start), {{native.value | hex}})<% if native.xor %> ^ {{native.xor | hex(8)}}<% endif +%>
<% else %>
    crc = {{crc.start | hex(crc.digits)}}
    while start < stop
      byte = bytes.getbyte(start)
{{crc_update() | chomp}}
      start += 1
    end
{{crc_finish()}}<% endif %>
<% endmacro %>
{{header}}# frozen_string_literal: true
#
# Slots of the {{scheme}} scheme, both ways: the slot of a key, and a key for a slot in
# O(1). Plain Ruby (2.7 and later), no gems. Keys are byte strings: any String is read as
# its bytes (String#b), and tags and keys come back as binary strings. A slot is an Integer
# from FIRST_SLOT to LAST_SLOT.
#
#   {{module}}.slot("123456789") # => {{examples.check_slot}}
#   {{module}}.tag_for_slot({{module}}::FIRST_SLOT) # => "{{examples.tag}}"
#   {{module}}.key_for_slot({{examples.prefix}}, {{module}}::FIRST_SLOT, {{examples.suffix}}) # => "{{examples.key}}"
#   {{module}}.tags_for_slot({{module}}::FIRST_SLOT) # => a lazy Enumerator of the slot's tags
#
# Refused calls raise {{module}}::SlotOutOfRange or {{module}}::{{"FrameNotSolvable" if rule.whole else "PrefixHasDelimiter"}}, both
# {{module}}::Error, an ArgumentError, with the rule and the way out.
<% if native %>

require "zlib"

<% endif %>module {{module}}
  # The number of slots.
  SLOTS = {{slots.count}}
  # The first slot; slots are FIRST_SLOT to LAST_SLOT.
  FIRST_SLOT = {{slots.first}}
  # The last slot.
  LAST_SLOT = {{slots.last}}
  # Symbols (bytes) per tag.
  TAG_LEN = {{tags.len}}

  # A call this module refuses.
  class Error < ArgumentError; end

  # The slot is not from FIRST_SLOT to LAST_SLOT.
  class SlotOutOfRange < Error; end

  # The CRC's lookup table: entry i is the register after feeding byte i into a zero
  # register<% if crc.refin %>, reflected (the register shifts right)<% endif %>.
  CRC_TABLE = [
{{crc.table | hex_rows(crc.digits, 8, "    ")}}
  ].freeze

  # A basis of the kernel: xored into a tag, any combination keeps its value.
  KERNEL = [
{{tags.kernel | le_int_rows("    ")}}
  ].freeze
  # Tags reach the values below this; a slot's are slot - FIRST_SLOT + k * SLOTS.
  VALUE_LIMIT = {{tags.value_limit}}
  # Each slot's tag_for_slot, a frozen binary String made at its first call, by slot (a
  # Hash: only Integer keys are slots).
  TAGS = {}
  private_constant :CRC_TABLE, :KERNEL, :VALUE_LIMIT, :TAGS

  module_function
<% if rule.whole %>

  # No tag of TAG_LEN symbols inside the prefix and suffix reaches every slot: there the
  # tags control fewer value bits than a slot needs.
  class FrameNotSolvable < Error
    # How many of the value bits a slot needs the tags control inside the frame.
    attr_reader :rank

    def initialize(rank)
      @rank = rank
      super(format("inside this prefix and suffix, tags of %d symbols control only %d of the " \
                   "%d value bits a slot needs: change the prefix or suffix, or emit the " \
                   "module for another tag length (--tag-len)", TAG_LEN, rank, SOLVED_BITS))
    end
  end

  # Solving a tag inside a frame: the value of prefix + tag + suffix is affine in the tag's
  # bits (a CRC over keys of one length is), so it is measured at the tag whose symbols all
  # have index 0 and at each single bit flipped, and solved by Gauss-Jordan elimination with
  # pivot columns in ascending order and every free bit zero: the tag `slotgen key --prefix
  # --suffix` gives, with this module's alphabet and tag length. A frame is solved once and
  # kept (the last KEPT_FRAMES).

  # The alphabet's first symbol, and what bit j of a symbol's index xors into it.
  ALPHABET_OFFSET = {{alphabet.offset | hex(2)}}
  ALPHABET_BASIS = [{{alphabet.basis | map("hex", 2) | join(", ")}}].freeze
  # The low value bits a tag is solved for: a key of the slot has slot - FIRST_SLOT there.
  SOLVED_BITS = {{tags.solved_bits}}
  # How many solved frames are kept.
  KEPT_FRAMES = 16
  # The solved frames, the oldest first, keyed by [prefix, suffix]: each the value of its
  # tag whose symbols all have index 0, and for each pivot column (an input bit: symbol bit
  # j of tag byte k is column k * ALPHABET_BASIS.size + j), ascending, the column and the
  # value bits whose sum sets it.
  FRAMES = {}
  private_constant :ALPHABET_OFFSET, :ALPHABET_BASIS, :SOLVED_BITS, :KEPT_FRAMES, :FRAMES

  # The hashtag between the delimiters of a binary String: always nil, this scheme has
  # none.
  def explicit(_bytes)
    nil
  end

  # The key prefix + tag + suffix of the slot, a binary String: this scheme hashes the whole
  # key, so the tag is solved inside the frame (the tag alone when both are empty,
  # tag_for_slot's). Raises SlotOutOfRange, or FrameNotSolvable when tags of TAG_LEN symbols
  # cannot reach every slot inside this prefix and suffix.
  def key_for_slot(prefix, slot, suffix)
    head = bytes_of_key(prefix, "prefix")
    tail = bytes_of_key(suffix, "suffix")
    value = check_slot(slot)
    return bytes_of(tag_of(value)) if head.empty? && tail.empty?

    base, pivots = frame(head, tail)
    target = value ^ base
    tag = zero_tag
    bits = ALPHABET_BASIS.size
    pivots.each do |column, sums|
      k, j = column.divmod(bits)
      tag.setbyte(k, tag.getbyte(k) ^ ALPHABET_BASIS[j]) if (sums & target).to_s(2).count("1").odd?
    end
    head + tag + tail
  end

  # The value of any bytes: (crc >> {{reduction.shift}}) & {{reduction.mask | hex}}, for the CRC that slot
  # computes of a key.
  def value(bytes)
    start = 0
    stop = bytes.bytesize
{{crc_block()}}    (crc >> {{reduction.shift}}) & {{reduction.mask | hex}}
  end

  # The tag whose symbols all have index 0, a binary String.
  def zero_tag
    [ALPHABET_OFFSET].pack("C") * TAG_LEN
  end

  # The frame's solver (see FRAMES), kept or solved.
  def frame(head, tail)
    name = [head, tail].freeze
    solver = FRAMES[name]
    return solver if solver

    solver = solve(head, tail)
    FRAMES.shift while FRAMES.size >= KEPT_FRAMES
    FRAMES[name] = solver
  end

  def solve(head, tail)
    zero = zero_tag
    solved = (1 << SOLVED_BITS) - 1
    base = value(head + zero + tail)
    # one row a value bit: its columns as bits of an Integer, and the value bits summed
    # into it
    rows = Array.new(SOLVED_BITS) { |r| [0, 1 << r] }
    TAG_LEN.times do |k|
      ALPHABET_BASIS.each_with_index do |b, j|
        tag = zero.dup
        tag.setbyte(k, tag.getbyte(k) ^ b)
        column = (value(head + tag + tail) ^ base) & solved
        i = k * ALPHABET_BASIS.size + j
        rows.each_with_index { |row, r| row[0] |= 1 << i if column[r] == 1 }
      end
    end
    pivots = []
    (TAG_LEN * ALPHABET_BASIS.size).times do |column|
      rank = pivots.size
      found = (rank...SOLVED_BITS).find { |r| rows[r][0][column] == 1 }
      next unless found

      rows[rank], rows[found] = rows[found], rows[rank]
      pivot = rows[rank]
      rows.each_with_index do |row, r|
        next if r == rank || row[0][column].zero?

        row[0] ^= pivot[0]
        row[1] ^= pivot[1]
      end
      pivots << column
    end
    raise FrameNotSolvable.new(pivots.size) if pivots.size < SOLVED_BITS

    [base, pivots.each_with_index.map { |column, r| [column, rows[r][1]].freeze }.freeze].freeze
  end
  private_class_method :value, :zero_tag, :frame, :solve
<% else %>

  # The prefix contains OPEN, so the key's hashtag would not be the tag.
  class PrefixHasDelimiter < Error; end

  # The byte that opens a hashtag.
  OPEN = [{{rule.open | hex(2)}}].pack("C").freeze
  # The byte that closes a hashtag.
  CLOSE = [{{rule.close | hex(2)}}].pack("C").freeze
  # A hashtag shorter than this hashes the whole key.
  MIN_TAG_LEN = {{rule.min_len}}
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
<% endif %>
<% if lookup.split %>

  # A tag as an Integer: byte k of the tag is byte k of the Integer, least significant
  # first. The tag of a value v is LOW[v & {{lookup.low_mask | hex}}] ^ HIGH[v >> {{lookup.low_bits}}]: LOW holds whole tags
  # (the tag of value 0 folded in), HIGH the bytes that the value's high bits flip. The tag
  # of a slot is the tag of the value slot - FIRST_SLOT.
  LOW = [
{{lookup.low | le_int_rows("    ")}}
  ].freeze
  HIGH = [
{{lookup.high | le_int_rows("    ")}}
  ].freeze
  private_constant :LOW, :HIGH

  def tag_of(value)
    LOW[value & {{lookup.low_mask | hex}}] ^ HIGH[value >> {{lookup.low_bits}}]
  end
<% else %>

  # A tag as an Integer: byte k of the tag is byte k of the Integer, least significant
  # first. The tag of a value v is ZERO_TAG ^ COLUMNS[i] over the set bits i of v:
  # COLUMNS[i] flips bit i of the tag's value (the CRC's value after the shift and mask),
  # and ZERO_TAG is the tag of value 0. The tag of a slot is the tag of the value
  # slot - FIRST_SLOT.
  ZERO_TAG = {{tags.zero | le_int}}
  COLUMNS = [
{{tags.columns | le_int_rows("    ")}}
  ].freeze
  private_constant :ZERO_TAG, :COLUMNS

  def tag_of(value)
    tag = ZERO_TAG
    COLUMNS.each_with_index { |column, bit| tag ^= column if value[bit] == 1 }
    tag
  end
<% endif %>

  # The bytes of a key that its slot is computed from:
  # {{rule.doc}}.
  # Raises ArgumentError unless the key is a String.
  def hashtag(key)
    bytes = bytes_of_key(key, "key")
    explicit(bytes) || bytes
  end

  # The slot of a key: {{ slot_of("crc") }}, for the CRC of
  # {{rule.doc}}.
  def slot(key)
    # bytes_of_key and explicit, inline, without a copy of an ASCII key (whose characters
    # are its bytes) and with a while loop: calls, copies and blocks cost as much as the CRC
    bytes_of_key(key, "key") unless key.is_a?(String)
    bytes = key.ascii_only? ? key : key.b
    start = 0
    stop = bytes.bytesize
<% if not rule.whole %>
    open = bytes.index(OPEN)
    if open
      close = bytes.index(CLOSE, open + 1)
      if close && close - open > MIN_TAG_LEN
        start = open + 1
        stop = close
      end
    end
<% endif %>
{{crc_block()}}    {{ slot_of("crc") }}
  end

  # A tag (TAG_LEN bytes of the alphabet, a frozen binary String) whose key lands on the
  # slot; each call for a slot returns the same String. Raises ArgumentError unless slot is
  # an Integer, SlotOutOfRange unless it is a slot.
  def tag_for_slot(slot)
<% if tags.ready %>
    # each tag made once (its bytes from its Integer cost some 20 lookups) and kept in a
    # Hash by slot, which only an Integer slot made before finds (1.0 and true are not eql?
    # to 1): its lookup is the check, 13% faster than the check inline and an Array
    TAGS[slot] || (TAGS[slot] = bytes_of(tag_of(check_slot(slot))).freeze)
<% else %>
    # made at each call: a Hash of every slot's tag would grow with the slots asked
    bytes_of(tag_of(check_slot(slot))).freeze
<% endif %>
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
    one_key!(keys, "same_slot")
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
    one_key!(keys, "shared_hashtag")
    found = nil
    keys.each do |key|
      tag = explicit(bytes_of_key(key, "key"))
      return nil if tag.nil? || (!found.nil? && tag != found)

      found = tag
    end
    found
  end

  # A String is one key, not a collection of keys (each_char would split it): refused
  # with the call to write, as the other modules refuse it.
  def one_key!(keys, name)
    return unless keys.is_a?(String)

    raise TypeError, "#{name} takes an Enumerable of keys, not one key: write #{name}([key])"
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
  private_class_method :explicit, :one_key!, :bytes_of_key, :check_slot, :tag_of, :bytes_of
end
