            $crc = (($crc << 8) & {{crc_mask}}) ^ self::CRC_TABLE[(($crc >> {{crc_top_shift}}) ^ ord($bytes[$i])) & 0xff];
