        crc ^= {{xorout}};
