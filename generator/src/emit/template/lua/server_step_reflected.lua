bxor(rshift(crc, 8), CRC_TABLE[band(bxor(crc, byte(key, i)), 0xff) + 1])
