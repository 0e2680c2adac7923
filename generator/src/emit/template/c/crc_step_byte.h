        crc = slotgen_crc_table[crc ^ bytes[i]];
