  crc ^= {{xorout}};
