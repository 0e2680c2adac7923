            crc = (crc >> 8) ^ CrcTable[(crc ^ b) & 0xFF];
