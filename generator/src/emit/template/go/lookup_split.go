
// Tags as their TagLen bytes, first byte first. The tag of a value v is
// low[v&{{low_mask}}] ^ high[v>>{{low_bits}}], byte by byte: low holds whole tags (the tag of value 0
// folded in), high the bytes that the value's high bits flip. The tag of a slot is the tag
// of the value slot - FirstSlot.
var low = [{{low_len}}][TagLen]byte{
{{low_rows}}
}

var high = [{{high_len}}][TagLen]byte{
{{high_rows}}
}

// tagOf returns the tag of a value below valueLimit.
func tagOf(value uint64) [TagLen]byte {
	tag := low[value&{{low_mask}}]
	diff := &high[value>>{{low_bits}}]
	for i := range tag {
		tag[i] ^= diff[i]
	}
	return tag
}
