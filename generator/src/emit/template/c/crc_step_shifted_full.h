        crc = ({{register}})((crc << 8) ^ slotgen_crc_table[((crc >> {{crc_top_shift}}) ^ bytes[i]) & 0xffu]);
