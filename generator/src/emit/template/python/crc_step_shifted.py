        crc = ((crc << 8) & {{crc_mask}}) ^ _CRC_TABLE[((crc >> {{crc_top_shift}}) ^ byte) & 0xFF]
