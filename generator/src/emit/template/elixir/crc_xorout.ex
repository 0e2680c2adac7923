bxor({{crc}}, {{xorout}})
