
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
  ALPHABET_OFFSET = {{alphabet_offset}}
  ALPHABET_BASIS = [{{alphabet_basis}}].freeze
  # The low value bits a tag is solved for: a key of the slot has slot - FIRST_SLOT there.
  SOLVED_BITS = {{solved_bits}}
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

  # The value of any bytes: (crc >> {{shift}}) & {{value_mask}}, for the CRC that slot
  # computes of a key.
  def value(bytes)
    start = 0
    stop = bytes.bytesize
{{crc_block}}    (crc >> {{shift}}) & {{value_mask}}
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
