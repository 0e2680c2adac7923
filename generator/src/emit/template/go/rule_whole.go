
// explicit: this scheme hashes the whole key, so no key has a hashtag.
func explicit([]byte) ([]byte, bool) {
	return nil, false
}

// hashedString: the whole key.
func hashedString(key string) string {
	return key
}

// Solving a tag inside a frame: the value of prefix + tag + suffix is affine in the tag's
// bits (a CRC over keys of one length is), so it is measured at the tag whose symbols all
// have index 0 and at each single bit flipped, and solved by Gauss-Jordan elimination with
// pivot columns in ascending order and every free bit zero: the tag `slotgen key --prefix
// --suffix` gives, with this package's alphabet and tag length. A frame is solved once and
// kept (the last one, behind a mutex).
const (
	// alphabetOffset is the alphabet's first symbol.
	alphabetOffset = {{alphabet_offset}}
	// symbolBits is the number of bits of a symbol's index.
	symbolBits = {{symbol_bits}}
	// solvedBits is the number of low value bits a tag is solved for: a key of the slot has
	// slot - FirstSlot there.
	solvedBits = {{solved_bits}}
	// inputBits is the number of the tag's input bits: symbol bit j of tag byte k is input
	// bit (column) k*symbolBits + j.
	inputBits = TagLen * symbolBits
)

// alphabetBasis: bit j of a symbol's index xors alphabetBasis[j] into alphabetOffset.
var alphabetBasis = [symbolBits]byte{
	{{alphabet_basis}},
}

// value returns the value of any bytes: (crc >> {{shift}}) & {{value_mask}}, for the CRC that
// Slot computes of a key's hashtag.
func value(data []byte) uint32 {
	return uint32(crc(data)) >> {{shift}} & {{value_mask}}
}

// A frame is a prefix and suffix, solved: the value of its tag whose symbols all have index
// 0, and for each pivot column, ascending, the value bits whose sum sets it.
type frame struct {
	head, tail string
	base       uint32
	pivots     []pivot
}

type pivot struct {
	column int
	sums   uint32
}

var (
	frameMu   sync.Mutex
	lastFrame *frame
)

// solvedFrame returns the solved frame of head and tail, the kept one when it is theirs.
// The error wraps ErrFrameNotSolvable.
func solvedFrame(head, tail []byte) (*frame, error) {
	frameMu.Lock()
	defer frameMu.Unlock()
	if f := lastFrame; f != nil && f.head == string(head) && f.tail == string(tail) {
		return f, nil
	}
	f, err := solveFrame(head, tail)
	if err != nil {
		return nil, err
	}
	lastFrame = f
	return f, nil
}

// solveFrame measures and solves the frame of head and tail.
func solveFrame(head, tail []byte) (*frame, error) {
	key := make([]byte, len(head)+TagLen+len(tail))
	copy(key, head)
	copy(key[len(head)+TagLen:], tail)
	tag := key[len(head) : len(head)+TagLen]
	for k := range tag {
		tag[k] = alphabetOffset
	}
	const solved = uint32(1<<solvedBits - 1)
	base := value(key)
	// one row a value bit: its columns as a bitset (column i is bit i%64 of word i/64), and
	// the value bits summed into it
	const words = (inputBits + 63) / 64
	var rows [solvedBits]struct {
		columns [words]uint64
		sums    uint32
	}
	for r := range rows {
		rows[r].sums = 1 << uint(r)
	}
	for k := range tag {
		for j, b := range alphabetBasis {
			tag[k] ^= b
			column := (value(key) ^ base) & solved
			tag[k] ^= b
			i := k*symbolBits + j
			for r := range rows {
				if column>>uint(r)&1 == 1 {
					rows[r].columns[i/64] |= 1 << uint(i%64)
				}
			}
		}
	}
	pivots := make([]pivot, 0, solvedBits)
	for column := 0; column < inputBits; column++ {
		rank := len(pivots)
		found := rank
		for found < solvedBits && rows[found].columns[column/64]>>uint(column%64)&1 == 0 {
			found++
		}
		if found == solvedBits {
			continue
		}
		rows[rank], rows[found] = rows[found], rows[rank]
		for r := range rows {
			if r != rank && rows[r].columns[column/64]>>uint(column%64)&1 == 1 {
				for w := range rows[r].columns {
					rows[r].columns[w] ^= rows[rank].columns[w]
				}
				rows[r].sums ^= rows[rank].sums
			}
		}
		pivots = append(pivots, pivot{column, 0})
	}
	if len(pivots) < solvedBits {
		return nil, fmt.Errorf("%w: tags of %d symbols control only %d of the %d value bits "+
			"a slot needs; change the prefix or suffix, or emit the package for another tag "+
			"length (--tag-len)",
			ErrFrameNotSolvable, TagLen, len(pivots), solvedBits)
	}
	for r := range pivots {
		pivots[r].sums = rows[r].sums
	}
	return &frame{string(head), string(tail), base, pivots}, nil
}

// KeyForSlot returns the key prefix + tag + suffix of the slot: this scheme hashes the
// whole key, so the tag is solved inside the frame (the tag alone, TagForSlot's, when both
// are empty). The error wraps ErrSlotOutOfRange, or ErrFrameNotSolvable when tags of TagLen
// symbols cannot reach every slot inside this prefix and suffix.
func KeyForSlot(prefix []byte, slot uint32, suffix []byte) ([]byte, error) {
	v, err := checkSlot(slot)
	if err != nil {
		return nil, err
	}
	if len(prefix) == 0 && len(suffix) == 0 {
		tag := tagOf(v)
		return tag[:], nil
	}
	f, err := solvedFrame(prefix, suffix)
	if err != nil {
		return nil, err
	}
	target := uint32(v) ^ f.base
	var tag [TagLen]byte
	for k := range tag {
		tag[k] = alphabetOffset
	}
	for _, p := range f.pivots {
		if bits.OnesCount32(p.sums&target)&1 == 1 {
			tag[p.column/symbolBits] ^= alphabetBasis[p.column%symbolBits]
		}
	}
	key := make([]byte, 0, len(prefix)+TagLen+len(suffix))
	key = append(key, prefix...)
	key = append(key, tag[:]...)
	return append(key, suffix...), nil
}
