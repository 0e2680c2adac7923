
    // This scheme has no hashtag: the whole key is hashed.
    private static function explicitHashtag(string $key): ?string
    {
        return null;
    }

    /**
     * The key of the slot: this scheme hashes the whole key, so it is the tag alone.
     *
     * @throws \ValueError unless the slot is from FIRST_SLOT to LAST_SLOT
     * @throws \InvalidArgumentException (WHOLE_KEY_HASHED) unless prefix and suffix are empty
     */
    public static function keyForSlot(string $prefix, int $slot, string $suffix): string
    {
        $tag = self::tagForSlot($slot);
        if ($prefix !== '' || $suffix !== '') {
            throw new \InvalidArgumentException(
                'this scheme hashes the whole key, so a key that lands on a slot is the tag alone:'
                . ' give no prefix or suffix',
                self::WHOLE_KEY_HASHED
            );
        }
        return $tag;
    }
