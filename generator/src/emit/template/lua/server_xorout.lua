        crc = bxor(crc, {{xorout}})
