            crc = (crc >>> 8) ^ CRC_TABLE[(crc ^ b) & 0xff];
