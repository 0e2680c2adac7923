		crc = crc<<8 ^ crcTable[byte(crc>>{{crc_top_shift}})^b]
