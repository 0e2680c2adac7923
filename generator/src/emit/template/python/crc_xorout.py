    crc ^= {{xorout}}
