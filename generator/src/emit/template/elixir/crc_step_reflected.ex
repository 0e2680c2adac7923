    crc(rest, bxor(bsr(crc, 8), elem(@crc_table, band(bxor(crc, byte), 0xFF))))
