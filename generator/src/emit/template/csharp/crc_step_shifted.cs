            crc = ((crc << 8) & {{crc_mask}}u) ^ CrcTable[((crc >> {{crc_top_shift}}) ^ data[i]) & 0xFF];
