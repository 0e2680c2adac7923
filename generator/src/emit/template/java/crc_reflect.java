        crc = Integer.reverse(crc) >>> {{unused_bits}}; // refin != refout: reflect the register
