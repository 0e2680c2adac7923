            $crc = ($crc >> 8) ^ self::CRC_TABLE[($crc ^ ord($bytes[$i])) & 0xff];
