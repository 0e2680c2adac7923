
    // The tag of a value v is ZERO_TAG ^ COLUMNS[i] over the set bits i of v, byte strings
    // xored as strings: COLUMNS[i] flips bit i of the tag's value (the CRC's value after the
    // shift and mask), and ZERO_TAG is the tag of value 0. The tag of a slot is the tag of
    // the value slot - FIRST_SLOT.
    private const ZERO_TAG = "{{zero_string}}";
    private const COLUMNS = [
{{column_strings}}
    ];

    // The tag of a value below VALUE_LIMIT.
    private static function tagOf(int $value): string
    {
        $tag = self::ZERO_TAG;
        for ($bit = 0; $value !== 0; $bit++, $value >>= 1) {
            if (($value & 1) === 1) {
                $tag ^= self::COLUMNS[$bit];
            }
        }
        return $tag;
    }
