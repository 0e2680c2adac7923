        $crc = bindec(strrev(sprintf('%0{{crc_width}}b', $crc))); // refin != refout: reflect the register
