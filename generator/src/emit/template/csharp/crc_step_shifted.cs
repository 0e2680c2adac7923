            crc = ((crc << 8) & {{crc_mask}}u) ^ CrcTable[((crc >> {{crc_top_shift}}) ^ b) & 0xFF];
