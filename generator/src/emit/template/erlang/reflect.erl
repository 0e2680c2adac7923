
%% refin != refout: the register's {{crc_width}} bits in reverse order.
reflect(Crc) -> reflect(Crc, {{crc_width}}, 0).

reflect(_Crc, 0, Reflected) -> Reflected;
reflect(Crc, Bits, Reflected) -> reflect(Crc bsr 1, Bits - 1, (Reflected bsl 1) bor (Crc band 1)).
