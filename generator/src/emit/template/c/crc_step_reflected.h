        crc = ({{register}})((crc >> 8) ^ slotgen_crc_table[(crc ^ bytes[i]) & 0xffu]);
