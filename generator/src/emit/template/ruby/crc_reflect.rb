    crc = crc.to_s(2).rjust({{crc_width}}, "0").reverse.to_i(2) # refin != refout: reflect the register
