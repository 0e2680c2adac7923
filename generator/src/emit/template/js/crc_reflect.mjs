  crc = reflect(crc);
