    crc = int(f"{crc:0{{crc_width}}b}"[::-1], 2)  # refin != refout: reflect the register
