        // refin != refout: reflect the register
        uint reflected = 0;
        for (int bit = 0; bit < {{crc_width}}; bit++)
        {
            reflected = (reflected << 1) | ((crc >> bit) & 1u);
        }
        crc = reflected;
