
    /** The byte that opens a hashtag. */
    public const OPEN = "{{open}}";
    /** The byte that closes a hashtag. */
    public const CLOSE = "{{close}}";
    // A hashtag shorter than this hashes the whole key.
    private const MIN_TAG_LEN = {{min_tag_len}};

    // The bytes between the first OPEN and the first CLOSE after it, when there are at least
    // MIN_TAG_LEN of them; else null: the whole key is hashed.
    private static function explicitHashtag(string $key): ?string
    {
        $open = strpos($key, self::OPEN);
        if ($open !== false) {
            $close = strpos($key, self::CLOSE, $open + 1);
            if ($close !== false && $close - $open - 1 >= self::MIN_TAG_LEN) {
                return substr($key, $open + 1, $close - $open - 1);
            }
        }
        return null;
    }

    /**
     * The key prefix . OPEN . tag . CLOSE . suffix for the slot. Its hashtag is the tag, so
     * it lands on the slot whatever the suffix holds.
     *
     * @throws \ValueError unless the slot is from FIRST_SLOT to LAST_SLOT
     * @throws \InvalidArgumentException (PREFIX_HAS_DELIMITER) when the prefix contains OPEN
     */
    public static function keyForSlot(string $prefix, int $slot, string $suffix): string
    {
        if ($slot >= self::FIRST_SLOT && $slot <= self::LAST_SLOT && strpos($prefix, self::OPEN) === false) {
            // the framed tag kept, so that a key is one concatenation
            return $prefix . (self::$framed[$slot - self::FIRST_SLOT] ??=
                self::OPEN . self::tagForSlot($slot) . self::CLOSE) . $suffix;
        }
        self::checkSlot($slot);
        throw new \InvalidArgumentException(sprintf(
            "prefix contains the hashtag's opening byte 0x%02x at byte %d: the key's hashtag"
            . ' would start there instead of at the tag; remove it from the prefix or move'
            . ' that part into the suffix',
            ord(self::OPEN),
            strpos($prefix, self::OPEN)
        ), self::PREFIX_HAS_DELIMITER);
    }

    /** @var array<int, string> each slot's OPEN . tag . CLOSE (by slot - FIRST_SLOT), kept at its first call */
    private static array $framed = [];
