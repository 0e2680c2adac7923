            crc = (crc >> 8) ^ CrcTable[(crc ^ data[i]) & 0xFF];
