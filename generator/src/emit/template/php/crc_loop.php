        $table = self::CRC_TABLE; // a local is read faster than a constant
        $crc = {{crc_start}};
        $length = strlen($bytes);
        for ($i = 0; $i < $length; $i++) {
{{crc_update}}
        }
{{crc_finish}}