		crc = crc>>8 ^ crcTable[byte(crc)^b]
