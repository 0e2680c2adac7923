        $crc ^= {{xorout}};
