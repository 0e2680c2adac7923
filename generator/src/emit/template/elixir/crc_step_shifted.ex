    crc(rest, bxor(band(bsl(crc, 8), {{crc_mask}}), elem(@crc_table, band(bxor(bsr(crc, {{crc_top_shift}}), byte), 0xFF))))
