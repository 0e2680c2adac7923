        crc = (crc >> 8) ^ _CRC_TABLE[(crc ^ byte) & 0xFF]
