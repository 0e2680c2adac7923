            crc = (crc >>> 8) ^ CRC_TABLE[(crc ^ bytes[i]) & 0xff];
