reflect({{crc}})
