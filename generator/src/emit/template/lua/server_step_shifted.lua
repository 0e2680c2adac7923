bxor(band(lshift(crc, 8), {{crc_mask}}), CRC_TABLE[band(bxor(rshift(crc, {{crc_top_shift}}), byte(key, i)), 0xff) + 1])
