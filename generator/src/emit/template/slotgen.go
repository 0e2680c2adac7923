{{header}}
// Package {{package}} computes Redis Cluster style hash slots for this spec, both ways: the
// slot of a key, and a key for a slot in O(1). It builds with Go 1.19 and later and uses
// only the standard library. Keys are bytes.
//
//	{{package}}.Slot([]byte("123456789"))                          // {{check_slot}}
//	{{package}}.TagForSlot(0)                                      // []byte("{{tag}}"), nil
//	{{package}}.KeyForSlot([]byte("user:"), 0, []byte(":profile")) // []byte("{{key}}"), nil
//	{{package}}.TagsForSlot(0)                                     // an iterator over {{tags_per_slot}} tags, nil
//
// Refused calls return an error that wraps ErrSlotOutOfRange or ErrPrefixHasBrace.
package {{package}}

import (
	"bytes"
	"errors"
	"fmt"{{imports}}
)

const (
	// Slots is the number of hash slots; a slot is in [0, Slots).
	Slots = {{slots}}
	// TagLen is the number of symbols (bytes) of a tag.
	TagLen = {{tag_len}}
	// TagsPerSlot is how many tags land on each slot: a uint64, so that every count fits
	// on 32-bit targets too.
	TagsPerSlot uint64 = {{tags_per_slot}}
	// BaseSlot is the slot of the tag whose symbols all have index 0.
	BaseSlot = {{base_slot}}
)

var (
	// ErrSlotOutOfRange is wrapped by the error of a slot outside [0, Slots).
	ErrSlotOutOfRange = errors.New("slot is out of range")
	// ErrPrefixHasBrace is wrapped by the error of a prefix that contains `{`: the key's
	// hashtag would start there instead of at the tag.
	ErrPrefixHasBrace = errors.New("prefix contains `{`")
)

// crcTable is the CRC's lookup table: entry i is the register after feeding byte i into
// a zero register{{reflected_note}}.
var crcTable = [256]uint16{
{{crc_table}}
}

func crc16(data []byte) uint16 {
	crc := uint16({{start}})
	for _, b := range data {
{{crc_update}}
	}
{{crc_finish}}	return crc
}

// Slot returns the hash slot of a key: the CRC of its hashtag, the bytes between the
// first `{` and the next `}` when there are any, else of the whole key.
func Slot(key []byte) int {
	if open := bytes.IndexByte(key, '{'); open >= 0 {
		if close := bytes.IndexByte(key[open+1:], '}'); close > 0 {
			key = key[open+1 : open+1+close]
		}
	}
	return int(crc16(key) & (Slots - 1))
}

// Tags as their TagLen bytes, first byte first. The tag of a slot is
// low[slot&{{low_mask}}] ^ high[slot>>{{low_bits}}], byte by byte: the entries of low are tags, those of high
// byte differences of two tags (the base slot and the base tag are folded in).
var low = [{{low_len}}][TagLen]byte{
{{low}}
}

var high = [{{high_len}}][TagLen]byte{
{{high}}
}

// kernel is a basis of the kernel: byte differences that, xored into a tag, do not move the
// slot.
var kernel = [{{kernel_len}}][TagLen]byte{{kernel}}

func checkSlot(slot int) error {
	if slot < 0 || slot >= Slots {
		return fmt.Errorf("%w: slot %d, but this table has %d slots, so a slot is in [0, %d)",
			ErrSlotOutOfRange, slot, Slots, Slots)
	}
	return nil
}

// tagOf returns the tag of TagForSlot, for a slot in [0, Slots).
func tagOf(slot int) [TagLen]byte {
	tag := low[slot&{{low_mask}}]
	diff := &high[slot>>{{low_bits}}]
	for k := range tag {
		tag[k] ^= diff[k]
	}
	return tag
}

// TagForSlot returns a tag (TagLen bytes of the alphabet) whose key lands on the slot, or
// an error wrapping ErrSlotOutOfRange.
func TagForSlot(slot int) ([]byte, error) {
	if err := checkSlot(slot); err != nil {
		return nil, err
	}
	tag := tagOf(slot)
	return tag[:], nil
}

// KeyForSlot returns the key prefix + "{" + tag + "}" + suffix for the slot. Its hashtag
// is the tag, so it lands on the slot whatever the suffix holds. The error wraps
// ErrSlotOutOfRange, or ErrPrefixHasBrace when the prefix contains `{`.
func KeyForSlot(prefix []byte, slot int, suffix []byte) ([]byte, error) {
	tag, err := TagForSlot(slot)
	if err != nil {
		return nil, err
	}
	if brace := bytes.IndexByte(prefix, '{'); brace >= 0 {
		return nil, fmt.Errorf("%w at byte %d: the key's hashtag would start there instead of "+
			"at the tag; remove the `{` from the prefix or move that part into the suffix",
			ErrPrefixHasBrace, brace)
	}
	key := make([]byte, 0, len(prefix)+TagLen+2+len(suffix))
	key = append(key, prefix...)
	key = append(key, '{')
	key = append(key, tag...)
	key = append(key, '}')
	return append(key, suffix...), nil
}

// TagsForSlot returns every tag that lands on the slot, lazily, as an iterator: TagsPerSlot
// of them, the TagForSlot tag first, then that tag xor each nonzero combination of the
// kernel, in binary counting order. The iterator calls yield with each tag until
// yield returns false; from Go 1.23 on, `for tag := range tags` does that. The slot is
// checked at once: the error wraps ErrSlotOutOfRange.
func TagsForSlot(slot int) (func(yield func(tag []byte) bool), error) {
	if err := checkSlot(slot); err != nil {
		return nil, err
	}
	tag := tagOf(slot)
	return func(yield func(tag []byte) bool) {
		for n := uint64(0); n < TagsPerSlot; n++ {
			combined := tag
			for bit := range kernel {
				if n>>uint(bit)&1 == 1 {
					for k := range combined {
						combined[k] ^= kernel[bit][k]
					}
				}
			}
			if !yield(combined[:]) {
				return
			}
		}
	}, nil
}

// SameSlot returns the slot every key lands on, as a multi-key command or a script's keys
// need, and true; or false when two keys land on different slots (the server answers
// CROSSSLOT) or there are none.
func SameSlot(keys ...[]byte) (int, bool) {
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

// SharedHashtag returns the one non-empty hashtag every key has, and true; or false when a
// key has none (the whole key is hashed: no `{`, no `}` after it, or `{}`), two keys have
// different ones, or there are none. Keys that share a hashtag land on one slot under
// every CRC and slot count. The tag is a slice of the first key.
func SharedHashtag(keys ...[]byte) ([]byte, bool) {
	var found []byte
	for i, key := range keys {
		open := bytes.IndexByte(key, '{')
		if open < 0 {
			return nil, false
		}
		close := bytes.IndexByte(key[open+1:], '}')
		if close <= 0 {
			return nil, false
		}
		tag := key[open+1 : open+1+close]
		if i == 0 {
			found = tag
		} else if !bytes.Equal(tag, found) {
			return nil, false
		}
	}
	return found, len(keys) > 0
}
