	crc = bits.Reverse{{register_bits}}(crc){{unused_bits}} // refin != refout: reflect the register
