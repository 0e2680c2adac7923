		crc = crcTable[crc^b]
