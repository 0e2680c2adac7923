// crc is {{native_crc}}'s polynomial by hash/crc32 (in assembly where the CPU has it),
// which starts from the register ^ 0xffffffff and xors its result with 0xffffffff: this
// CRC from its start, with its xorout. crcString keeps the table: a string would be copied.
func crc(data []byte) uint32 {
	return crc32.Update({{native_value}}, {{native_table}}, data){{native_xor}}
}
{{native_var}}