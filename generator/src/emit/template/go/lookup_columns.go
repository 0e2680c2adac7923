
// The tag of a value v is zeroTag xor the rows i of columns over the set bits i of v: row i
// flips bit i of the tag's value (the CRC's value after the shift and mask), and zeroTag is
// the tag of value 0. The tag of a slot is the tag of the value slot - FirstSlot.
var zeroTag = [TagLen]byte{
{{zero_tag}}
}

var columns = [{{solved_bits}}][TagLen]byte{
{{column_rows}}
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
