		crc = crc<<8&{{crc_mask}} ^ crcTable[byte(crc>>{{crc_top_shift}})^b]
