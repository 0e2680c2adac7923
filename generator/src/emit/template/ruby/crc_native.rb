    # Zlib.crc32 is CRC-32/ISO-HDLC, in C, from the register value ^ 0xffffffff, its result
    # xored with 0xffffffff: this CRC from its start, with its xorout
    crc = Zlib.crc32(start.zero? && stop == bytes.bytesize ? bytes : bytes.byteslice(start, stop - start), {{native_value}}){{native_xor}}
