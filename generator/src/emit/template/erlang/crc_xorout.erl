{{crc}} bxor {{xorout}}
