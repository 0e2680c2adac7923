        crc = ((crc << 8) & {{crc_mask}}u) ^ slotgen_crc_table[((crc >> {{crc_top_shift}}) ^ bytes[i]) & 0xffu];
