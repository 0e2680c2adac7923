<# The Go package: one file, every part chosen here. #>
<% from "reduction.jinja" import infix %>
<# The slot of the CRC `crc`, in Go's operators, spaced by `sp`: `gofmt` takes the spaces
   from every operator that binds tighter than `+` where `%` and `+` meet at the top
   (`((crc>>16)&0x7fff)%1024 + 1`). #>
<% macro slot_of(crc, sp=" ") %>{{ infix(reduction, crc, reduction.mask | hex, sp=sp) }}<% endmacro %>
<% set gofmt = "" if reduction.modulus and reduction.first else " " %>
<# the register: the narrowest unsigned type that holds the CRC #>
<% set bits = crc.width if crc.width in [8, 16] else 32 %>
<% set register = "uint" ~ bits %>
<# The loop's step over byte b: a register of the CRC's own width needs no mask, one of 8
   bits no shift either. #>
<% macro crc_update() %>
<% if crc.width == 8 %>
		crc = crcTable[crc^b]
<% elif crc.refin %>
		crc = crc>>8 ^ crcTable[byte(crc)^b]
<% elif crc.width == bits %>
		crc = crc<<8 ^ crcTable[byte(crc>>{{crc.top_shift}})^b]
<% else %>
		crc = crc<<8&{{crc.mask | hex}} ^ crcTable[byte(crc>>{{crc.top_shift}})^b]
<% endif %>
<% endmacro %>
<% macro crc_finish() %>
<% if crc.reflect_out %>
	crc = bits.Reverse{{bits}}(crc)<% if crc.width != bits %> >> {{bits - crc.width}}<% endif %> // refin != refout: reflect the register
<% endif %>
<% if crc.xorout %>
	crc ^= {{crc.xorout | hex}}
<% endif %>
<% endmacro %>
{{header}}
// Package {{package}} computes the slots of the {{scheme}} scheme, both ways: the slot of
// a key, and a key for a slot in O(1). It builds with Go 1.19 and later and uses only the
// standard library. Keys are bytes (SlotString takes a string); a slot is a uint32 from
// FirstSlot to LastSlot.
//
//	{{package}}.Slot([]byte("123456789")) // {{examples.check_slot}}
//	{{package}}.TagForSlot({{package}}.FirstSlot) // []byte("{{examples.tag}}"), nil
//	{{package}}.KeyForSlot([]byte({{examples.prefix}}), {{package}}.FirstSlot, []byte({{examples.suffix}})) // []byte("{{examples.key}}"), nil
//	{{package}}.TagsForSlot({{package}}.FirstSlot) // an iterator over the slot's tags, nil
//
// Refused calls return an error that wraps ErrSlotOutOfRange or {{"ErrFrameNotSolvable" if rule.whole else "ErrPrefixHasDelimiter"}}.
package {{package}}

import (
	"bytes"
	"errors"
	"fmt"
<% if native %>
	"hash/crc32"
<% endif %>
<% if crc.reflect_out or rule.whole %>
	"math/bits"
<% endif %>
<% if not rule.whole %>
	"strings"
<% endif %>
<% if rule.whole %>
	"sync"
<% endif %>
)

const (
	// Slots is the number of slots.
	Slots = {{slots.count}}
	// FirstSlot is the first slot; slots are FirstSlot to LastSlot.
	FirstSlot = {{slots.first}}
	// LastSlot is the last slot.
	LastSlot = {{slots.last}}
	// TagLen is the number of symbols (bytes) of a tag.
	TagLen = {{tags.len}}
)

var (
	// ErrSlotOutOfRange is wrapped by the error of a slot outside FirstSlot to LastSlot.
	ErrSlotOutOfRange = errors.New("slot is out of range")
	// ErrPrefixHasDelimiter is wrapped by the error of KeyForSlot for a prefix that
	// contains the hashtag's opening byte, under a scheme with a hashtag: the key's hashtag
	// would start there instead of at the tag.
	ErrPrefixHasDelimiter = errors.New("prefix contains the hashtag's opening byte")
	// ErrFrameNotSolvable is wrapped by the error of KeyForSlot for a prefix and suffix
	// inside which no tag of TagLen symbols reaches every slot, under a scheme that hashes
	// the whole key.
	ErrFrameNotSolvable = errors.New("no tag reaches every slot inside this prefix and suffix")
)
<% if rule.whole %>

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
	alphabetOffset = {{alphabet.offset | hex(2)}}
	// symbolBits is the number of bits of a symbol's index.
	symbolBits = {{alphabet.symbol_bits}}
	// solvedBits is the number of low value bits a tag is solved for: a key of the slot has
	// slot - FirstSlot there.
	solvedBits = {{tags.solved_bits}}
	// inputBits is the number of the tag's input bits: symbol bit j of tag byte k is input
	// bit (column) k*symbolBits + j.
	inputBits = TagLen * symbolBits
)

// alphabetBasis: bit j of a symbol's index xors alphabetBasis[j] into alphabetOffset.
var alphabetBasis = [symbolBits]byte{
	{{alphabet.basis | map("hex", 2) | join(", ")}},
}

// value returns the value of any bytes: (crc >> {{reduction.shift}}) & {{reduction.mask | hex}}, for the CRC that
// Slot computes of a key's hashtag.
func value(data []byte) uint32 {
	return uint32(crc(data)) >> {{reduction.shift}} & {{reduction.mask | hex}}
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
<% else %>

const (
	// Open is the byte that opens a hashtag.
	Open = {{rule.open | hex(2)}}
	// Close is the byte that closes a hashtag.
	Close = {{rule.close | hex(2)}}
	// minTagLen: a hashtag shorter than this hashes the whole key.
	minTagLen = {{rule.min_len}}
)

// explicit returns the key's hashtag: the bytes between the first Open and the first
// Close after it, when there are at least minTagLen of them.
func explicit(key []byte) ([]byte, bool) {
	if start := bytes.IndexByte(key, Open); start >= 0 {
		if end := bytes.IndexByte(key[start+1:], Close); end >= minTagLen {
			return key[start+1 : start+1+end], true
		}
	}
	return nil, false
}

// hashedString is Hashtag over a string, whose bytes strings.IndexByte reads where they
// are: explicit's hashtag, or the whole key when it has none. One string back, as go-redis's
// hashtagKey returns: a (string, bool) pair measured 2% to 6% slower in SlotString.
func hashedString(key string) string {
	if start := strings.IndexByte(key, Open); start >= 0 {
		if end := strings.IndexByte(key[start+1:], Close); end >= minTagLen {
			return key[start+1 : start+1+end]
		}
	}
	return key
}

// KeyForSlot returns the key prefix + Open + tag + Close + suffix for the slot. Its
// hashtag is the tag, so it lands on the slot whatever the suffix holds. The error wraps
// ErrSlotOutOfRange, or ErrPrefixHasDelimiter when the prefix contains Open.
func KeyForSlot(prefix []byte, slot uint32, suffix []byte) ([]byte, error) {
	if slot < FirstSlot || slot > LastSlot {
		return nil, slotError(slot)
	}
	// the tag stays on the stack: the key is the one allocation
	tag := tagOf(uint64(slot - FirstSlot))
	if at := bytes.IndexByte(prefix, Open); at >= 0 {
		return nil, fmt.Errorf("%w %#02x at byte %d: the key's hashtag would start there "+
			"instead of at the tag; remove it from the prefix or move that part into the suffix",
			ErrPrefixHasDelimiter, Open, at)
	}
	key := make([]byte, 0, len(prefix)+TagLen+2+len(suffix))
	key = append(key, prefix...)
	key = append(key, Open)
	key = append(key, tag[:]...)
	key = append(key, Close)
	return append(key, suffix...), nil
}
<% endif %>

// Hashtag returns the bytes of the key that its slot is computed from, a slice of key:
// {{rule.doc}}.
func Hashtag(key []byte) []byte {
	if tag, ok := explicit(key); ok {
		return tag
	}
	return key
}

// crcTable is the CRC's lookup table: entry i is the register after feeding byte i into
// a zero register<% if crc.refin %>, reflected (the register shifts right)<% endif %>.
var crcTable = [256]{{register}}{
{{crc.table | hex_rows(crc.digits, 8, "	")}}
}

<% if native %>
// crc is {{native.name}}'s polynomial by hash/crc32 (in assembly where the CPU has it),
// which starts from the register ^ 0xffffffff and xors its result with 0xffffffff: this
// CRC from its start, with its xorout. crcString keeps the table: a string would be copied.
func crc(data []byte) uint32 {
	return crc32.Update({{native.value | hex(8)}}, {{"castagnoli" if native.castagnoli else "crc32.IEEETable"}}, data)<% if native.xor %> ^ {{native.xor | hex(8)}}<% endif +%>
}
<% if native.castagnoli %>

// castagnoli is hash/crc32's table of CRC-32C (SSE 4.2 or ARMv8 CRC where the CPU has
// them).
var castagnoli = crc32.MakeTable(crc32.Castagnoli)
<% endif %>
<% else %>
func crc(data []byte) {{register}} {
	crc := {{register}}({{crc.start | hex(crc.digits)}})
	for i := 0; i < len(data); i++ {
		b := data[i]
{{crc_update() | chomp}}
	}
{{crc_finish()}}	return crc
}
<% endif %>

// crcString is crc over a string's bytes, where they are: a function of its own, as Go 1.19
// does not inline a call of a generic one (`go build -gcflags=-m` says so).
func crcString(data string) {{register}} {
	crc := {{register}}({{crc.start | hex(crc.digits)}})
	for i := 0; i < len(data); i++ {
		b := data[i]
{{crc_update() | chomp}}
	}
{{crc_finish()}}	return crc
}

// Slot returns the slot of a key: {{ slot_of("crc") }}, for the CRC of
// {{rule.doc}}.
func Slot(key []byte) uint32 {
	return {{ slot_of("uint32(crc(Hashtag(key)))", gofmt) }}
}

// SlotString returns the slot of a key given as a string: the slot of its bytes.
// It reads the string's bytes where they are: no copy is made.
func SlotString(key string) uint32 {
	key = hashedString(key)
	return {{ slot_of("uint32(crcString(key))", gofmt) }}
}
<% if lookup.split %>

// Tags as their TagLen bytes, first byte first. The tag of a value v is
// low[v&{{lookup.low_mask | hex}}] ^ high[v>>{{lookup.low_bits}}], byte by byte: low holds whole tags (the tag of value 0
// folded in), high the bytes that the value's high bits flip. The tag of a slot is the tag
// of the value slot - FirstSlot.
var low = [{{lookup.low_len}}][TagLen]byte{
{{lookup.low | go_rows}}
}

var high = [{{lookup.high_len}}][TagLen]byte{
{{lookup.high | go_rows}}
}

// tagOf returns the tag of a value below valueLimit.
func tagOf(value uint64) [TagLen]byte {
	tag := low[value&{{lookup.low_mask | hex}}]
	diff := &high[value>>{{lookup.low_bits}}]
	for i := range tag {
		tag[i] ^= diff[i]
	}
	return tag
}
<% else %>

// The tag of a value v is zeroTag xor the rows i of columns over the set bits i of v: row i
// flips bit i of the tag's value (the CRC's value after the shift and mask), and zeroTag is
// the tag of value 0. The tag of a slot is the tag of the value slot - FirstSlot.
var zeroTag = [TagLen]byte{
{{[tags.zero] | byte_rows("	")}}
}

var columns = [{{tags.solved_bits}}][TagLen]byte{
{{tags.columns | go_rows}}
}

// tagOf returns the tag of a value below valueLimit.
func tagOf(value uint64) [TagLen]byte {
	tag := zeroTag
	for row := 0; value != 0; row, value = row+1, value>>1 {
		if value&1 == 1 {
			for i := range tag {
				tag[i] ^= columns[row][i]
			}
		}
	}
	return tag
}
<% endif %>

// kernel is a basis of the kernel, one row each: xored into a tag, any combination keeps
// its value.
var kernel = [{{tags.kernel_len}}][TagLen]byte<% if tags.kernel %>{
{{tags.kernel | go_rows}}
}<% else %>{}<% endif +%>

// valueLimit: tags reach the values below it; a slot's are slot - FirstSlot + k * Slots.
const valueLimit = {{tags.value_limit}}

func checkSlot(slot uint32) (uint64, error) {
	if slot < FirstSlot || slot > LastSlot {
		return 0, slotError(slot)
	}
	return uint64(slot - FirstSlot), nil
}

// slotError is the error of a slot out of range.
func slotError(slot uint32) error {
	return fmt.Errorf("%w: slot %d, but the slots are %d to %d",
		ErrSlotOutOfRange, slot, FirstSlot, LastSlot)
}

// TagForSlot returns a tag (TagLen bytes of the alphabet) whose key lands on the slot, or
// an error wrapping ErrSlotOutOfRange.
func TagForSlot(slot uint32) ([]byte, error) {
	if slot < FirstSlot || slot > LastSlot {
		return nil, slotError(slot)
	}
	tag := tagOf(uint64(slot - FirstSlot))
	return tag[:], nil
}

// TagsForSlot returns every tag of TagLen symbols that lands on the slot, lazily, as an
// iterator: for each value slot - FirstSlot + k * Slots below valueLimit, ascending, the
// value's tag xor each combination of the kernel, in binary counting order; the TagForSlot
// tag first. The iterator calls yield with each tag until yield returns false; from Go
// 1.23 on, `for tag := range tags` does that. The slot is checked at once: the error wraps
// ErrSlotOutOfRange.
func TagsForSlot(slot uint32) (func(yield func(tag []byte) bool), error) {
	value, err := checkSlot(slot)
	if err != nil {
		return nil, err
	}
	return func(yield func(tag []byte) bool) {
		for v := value; v < valueLimit; v += Slots {
			tag := tagOf(v)
			for n := uint64(0); n < 1<<len(kernel); n++ {
				combined := tag
				for row := range kernel {
					if n>>uint(row)&1 == 1 {
						for i := range combined {
							combined[i] ^= kernel[row][i]
						}
					}
				}
				if !yield(combined[:]) {
					return
				}
			}
		}
	}, nil
}

// SameSlot returns the slot every key lands on, as a multi-key command or a script's keys
// need, and true; or false when two keys land on different slots (the server answers
// CROSSSLOT) or there are none.
func SameSlot(keys ...[]byte) (uint32, bool) {
	if len(keys) == 0 {
		return 0, false
	}
	found := Slot(keys[0])
	for _, key := range keys[1:] {
		if Slot(key) != found {
			return 0, false
		}
	}
	return found, true
}

// SharedHashtag returns the one hashtag every key has between its delimiters, and true;
// or false when a key has none (its whole key is hashed), two keys have different ones,
// or there are none. Keys that share a hashtag land on one slot whatever the slot count.
// The hashtag is a slice of the first key.
func SharedHashtag(keys ...[]byte) ([]byte, bool) {
	var found []byte
	for i, key := range keys {
		tag, ok := explicit(key)
		if !ok || (i > 0 && !bytes.Equal(tag, found)) {
			return nil, false
		}
		found = tag
	}
	return found, len(keys) > 0
}
