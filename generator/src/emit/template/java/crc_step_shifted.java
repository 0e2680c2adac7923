            crc = (crc << 8) ^ CRC_TABLE[((crc >>> {{crc_top_shift}}) ^ b) & 0xff];
