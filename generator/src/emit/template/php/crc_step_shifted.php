            $crc = (($crc << 8) & {{crc_mask}}) ^ $table[(($crc >> {{crc_top_shift}}) ^ ord($bytes[$i]))];
