    crc(Rest, ((Crc bsl 8) band {{crc_mask}}) bxor element((((Crc bsr {{crc_top_shift}}) bxor Byte) band 16#ff) + 1, ?CRC_TABLE));
