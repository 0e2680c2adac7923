{{header}}
// Package {{package}} computes the slots of the {{scheme}} scheme, both ways: the slot of
// a key, and a key for a slot in O(1). It builds with Go 1.19 and later and uses only the
// standard library. Keys are bytes (SlotString takes a string); a slot is a uint32 from
// FirstSlot to LastSlot.
//
//	{{package}}.Slot([]byte("123456789")) // {{check_slot}}
//	{{package}}.TagForSlot({{package}}.FirstSlot) // []byte("{{tag}}"), nil
//	{{package}}.KeyForSlot([]byte({{example_prefix}}), {{package}}.FirstSlot, []byte({{example_suffix}})) // []byte("{{key}}"), nil
//	{{package}}.TagsForSlot({{package}}.FirstSlot) // an iterator over the slot's tags, nil
//
// Refused calls return an error that wraps ErrSlotOutOfRange or {{key_error}}.
package {{package}}

import (
	"bytes"
	"errors"
	"fmt"{{imports}}
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
{{rule}}
// Hashtag returns the bytes of the key that its slot is computed from, a slice of key:
// {{rule_doc}}.
func Hashtag(key []byte) []byte {
	if tag, ok := explicit(key); ok {
		return tag
	}
	return key
}

// crcTable is the CRC's lookup table: entry i is the register after feeding byte i into
// a zero register{{reflected_note}}.
var crcTable = [256]{{register}}{
{{crc_table}}
}

{{crc_bytes}}
// crcString is crc over a string's bytes, where they are: a function of its own, as Go 1.19
// does not inline a call of a generic one (`go build -gcflags=-m` says so).
func crcString(data string) {{register}} {
	crc := {{register}}({{crc_start}})
	for i := 0; i < len(data); i++ {
		b := data[i]
{{crc_update}}
	}
{{crc_finish}}	return crc
}

// Slot returns the slot of a key: {{slot_formula}}, for the CRC of
// {{rule_doc}}.
func Slot(key []byte) uint32 {
	return {{slot_expression}}
}

// SlotString returns the slot of a key given as a string: the slot of its bytes.
// It reads the string's bytes where they are: no copy is made.
func SlotString(key string) uint32 {
	key = hashedString(key)
	return {{slot_string_expression}}
}
{{lookup}}
// kernel is a basis of the kernel, one row each: xored into a tag, any combination keeps
// its value.
var kernel = [{{kernel_len}}][TagLen]byte{{kernel_rows}}

// valueLimit: tags reach the values below it; a slot's are slot - FirstSlot + k * Slots.
const valueLimit = {{value_limit}}

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
