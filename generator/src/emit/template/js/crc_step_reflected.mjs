    crc = (crc >>> 8) ^ CRC_TABLE[(crc ^ byte) & 0xff];
