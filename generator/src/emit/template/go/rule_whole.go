
// explicit: this scheme hashes the whole key, so no key has a hashtag.
func explicit([]byte) ([]byte, bool) {
	return nil, false
}

// KeyForSlot returns the key of the slot: this scheme hashes the whole key, so it is the
// tag alone. The error wraps ErrSlotOutOfRange, or ErrWholeKeyHashed unless prefix and
// suffix are empty.
func KeyForSlot(prefix []byte, slot uint32, suffix []byte) ([]byte, error) {
	tag, err := TagForSlot(slot)
	if err != nil {
		return nil, err
	}
	if len(prefix) != 0 || len(suffix) != 0 {
		return nil, fmt.Errorf("%w, so a key that lands on a slot is the tag alone: "+
			"give no prefix or suffix", ErrWholeKeyHashed)
	}
	return tag, nil
}
