        // crc32() is CRC-32/ISO-HDLC, in C: this CRC from its start, with its xorout
        $crc = crc32($bytes){{native_xor}};
