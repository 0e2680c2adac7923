    crc = ((crc << 8) & {{crc_mask}}) ^ CRC_TABLE[(crc >>> {{crc_top_shift}}) ^ byte];
