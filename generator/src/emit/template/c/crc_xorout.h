    crc ^= {{xorout}}u;
