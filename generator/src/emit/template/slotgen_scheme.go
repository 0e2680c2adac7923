{{header}}
// Package {{package}} computes the slots of the {{scheme}} scheme, both ways: the slot of
// a key, and a key for a slot. It builds with Go 1.19 and later and uses only the standard
// library. Keys are bytes; a slot is a uint32 from FirstSlot to LastSlot.
//
//	{{package}}.Slot([]byte("123456789"))        // {{check_slot}}
//	{{package}}.TagForSlot({{package}}.FirstSlot) // []byte("{{tag}}"), nil
//	{{package}}.KeyForSlot([]byte({{example_prefix}}), {{package}}.FirstSlot, []byte({{example_suffix}}))
//	                                      // []byte("{{key}}"), nil
//	{{package}}.TagsForSlot({{package}}.FirstSlot) // an iterator over the slot's tags, nil
//
// Refused calls return an error that wraps ErrSlotOutOfRange or {{key_error}}.
package {{package}}

import ({{imports}}
)

const (
	// Slots is the number of slots.
	Slots = {{slots}}
	// FirstSlot is the first slot; slots are FirstSlot to LastSlot.
	FirstSlot = {{first_slot}}
	// LastSlot is the last slot.
	LastSlot = {{last_slot}}
	// TagLen is the number of symbols (bytes) of a tag.
	TagLen = {{tag_len}}
)

// ErrSlotOutOfRange is wrapped by the error of a slot outside FirstSlot to LastSlot.
var ErrSlotOutOfRange = errors.New("slot is out of range")

// crcTable is the CRC's lookup table: entry i is the register after feeding byte i into
// a zero register{{reflected_note}}.
var crcTable = [256]uint32{
{{crc_table}}
}

func crc(data []byte) uint32 {
	crc := uint32({{crc_start}})
	for _, b := range data {
{{crc_update}}
	}
{{crc_finish}}	return crc
}
{{rule}}
// Slot returns the slot of a key: ((crc >> {{shift}}) & {{value_mask}}) % Slots + FirstSlot, for the
// CRC of {{rule_doc}}.
func Slot(key []byte) uint32 {
	value := crc(hashed(key)) >> {{shift}} & {{value_mask}}
	return value%Slots + FirstSlot
}

// The tag of a value v is zeroTag xor the rows i of columns (TagLen bytes each) over the
// set bits i of v: row i flips bit i of the tag's value (the CRC's value after the shift
// and mask), and zeroTag is the tag of value 0. The tag of a slot is the tag of the value
// slot - FirstSlot.
var zeroTag = [TagLen]byte{
{{zero_tag}}
}

var columns = [...]byte{{columns_go}}

// kernel is a basis of the kernel, one row each: xored into a tag, any combination keeps
// its value.
var kernel = [...]byte{{kernel_go}}

const (
	// kernelLen is the number of kernel rows.
	kernelLen = {{kernel_len}}
	// valueLimit: tags reach the values below it; a slot's are slot - FirstSlot + k * Slots.
	valueLimit = {{value_limit}}
)

func checkSlot(slot uint32) (uint64, error) {
	if slot < FirstSlot || slot > LastSlot {
		return 0, fmt.Errorf("%w: slot %d, but this scheme's slots are %d to %d",
			ErrSlotOutOfRange, slot, FirstSlot, LastSlot)
	}
	return uint64(slot - FirstSlot), nil
}

// tagOf returns the tag of a value below valueLimit.
func tagOf(value uint64) []byte {
	tag := zeroTag
	for row := 0; value != 0; row, value = row+TagLen, value>>1 {
		if value&1 == 1 {
			for i := range tag {
				tag[i] ^= columns[row+i]
			}
		}
	}
	return tag[:]
}

// TagForSlot returns a tag (TagLen bytes of the alphabet) whose key lands on the slot, or
// an error wrapping ErrSlotOutOfRange.
func TagForSlot(slot uint32) ([]byte, error) {
	value, err := checkSlot(slot)
	if err != nil {
		return nil, err
	}
	return tagOf(value), nil
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
			for n := uint64(0); n < 1<<kernelLen; n++ {
				combined := append([]byte(nil), tag...)
				for row, rest := 0, n; rest != 0; row, rest = row+TagLen, rest>>1 {
					if rest&1 == 1 {
						for i := range combined {
							combined[i] ^= kernel[row+i]
						}
					}
				}
				if !yield(combined) {
					return
				}
			}
		}
	}, nil
}
