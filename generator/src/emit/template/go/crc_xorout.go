	crc ^= {{xorout}}
