        crc ^= {{xorout}}u;
