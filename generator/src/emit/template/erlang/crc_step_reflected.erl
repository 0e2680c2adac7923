    crc(Rest, (Crc bsr 8) bxor element(((Crc bxor Byte) band 16#ff) + 1, ?CRC_TABLE));
