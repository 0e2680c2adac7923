    {
        // refin != refout: reflect the register.
        {{register}} reflected = 0;
        unsigned bit;
        for (bit = 0; bit < {{crc_width}}u; bit++, crc >>= 1) {
            reflected = ({{register}})((reflected << 1) | (crc & 1u));
        }
        crc = reflected;
    }
