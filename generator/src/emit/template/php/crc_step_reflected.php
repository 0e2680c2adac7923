            $crc = ($crc >> 8) ^ $table[($crc ^ ord($bytes[$i])) & 0xff];
