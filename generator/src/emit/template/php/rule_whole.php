
    // This scheme has no hashtag: the whole key is hashed.
    private static function explicitHashtag(string $key): ?string
    {
        return null;
    }

    // Solving a tag inside a frame: the value of prefix . tag . suffix is affine in the tag's
    // bits (a CRC over keys of one length is), so it is measured at the tag whose symbols all
    // have index 0 and at each single bit flipped, and solved by Gauss-Jordan elimination
    // with pivot columns in ascending order and every free bit zero: the tag `slotgen key
    // --prefix --suffix` gives, with this class's alphabet and tag length. A frame is solved
    // once and kept (the last KEPT_FRAMES).

    // The alphabet's first symbol, and what bit j of a symbol's index xors into it.
    private const ALPHABET_OFFSET = {{alphabet_offset}};
    private const ALPHABET_BASIS = [{{alphabet_basis}}];
    // The low value bits a tag is solved for: a key of the slot has slot - FIRST_SLOT there.
    private const SOLVED_BITS = {{solved_bits}};
    // How many solved frames are kept.
    private const KEPT_FRAMES = 16;

    /**
     * The solved frames, the oldest first, keyed by strlen(prefix) . ':' . prefix . suffix:
     * each the value of its tag whose symbols all have index 0, and for each pivot column
     * (an input bit: symbol bit j of tag byte k is column k * count(ALPHABET_BASIS) + j),
     * ascending, the value bits whose sum sets it.
     *
     * @var array<string, array{int, array<int, int>}>
     */
    private static array $frames = [];

    // The value of any bytes: (crc >> {{shift}}) & {{value_mask}}, for the CRC that slot()
    // computes of a key's hashtag.
    private static function value(string $bytes): int
    {
{{crc_block}}        return ($crc >> {{shift}}) & {{value_mask}};
    }

    // Whether bit i of a bitset is set: bit i % 8 of byte intdiv(i, 8).
    private static function isSet(string $bits, int $i): bool
    {
        return ((ord($bits[$i >> 3]) >> ($i & 7)) & 1) === 1;
    }

    /**
     * The frame's solver (see $frames), solved or kept.
     *
     * @return array{int, array<int, int>}
     * @throws \InvalidArgumentException (FRAME_NOT_SOLVABLE) when the tags reach fewer
     *     value bits than SOLVED_BITS inside this prefix and suffix
     */
    private static function frame(string $head, string $tail): array
    {
        $name = strlen($head) . ':' . $head . $tail;
        if (isset(self::$frames[$name])) {
            return self::$frames[$name];
        }
        $bits = count(self::ALPHABET_BASIS);
        $width = self::TAG_LEN * $bits;
        $zero = str_repeat(chr(self::ALPHABET_OFFSET), self::TAG_LEN);
        $solved = (1 << self::SOLVED_BITS) - 1;
        $base = self::value($head . $zero . $tail);
        // one row a value bit: its columns as a bitset, and the value bits summed into it
        $rows = [];
        for ($r = 0; $r < self::SOLVED_BITS; $r++) {
            $rows[] = [str_repeat("\x00", ($width + 7) >> 3), 1 << $r];
        }
        for ($k = 0; $k < self::TAG_LEN; $k++) {
            foreach (self::ALPHABET_BASIS as $j => $b) {
                $tag = $zero;
                $tag[$k] = chr(ord($tag[$k]) ^ $b);
                $column = (self::value($head . $tag . $tail) ^ $base) & $solved;
                $i = $k * $bits + $j;
                for ($r = 0; $r < self::SOLVED_BITS; $r++) {
                    if ((($column >> $r) & 1) === 1) {
                        $rows[$r][0][$i >> 3] = chr(ord($rows[$r][0][$i >> 3]) | (1 << ($i & 7)));
                    }
                }
            }
        }
        $pivots = [];
        for ($column = 0; $column < $width; $column++) {
            $rank = count($pivots);
            for ($found = $rank; $found < self::SOLVED_BITS; $found++) {
                if (self::isSet($rows[$found][0], $column)) {
                    break;
                }
            }
            if ($found === self::SOLVED_BITS) {
                continue;
            }
            [$rows[$rank], $rows[$found]] = [$rows[$found], $rows[$rank]];
            foreach ($rows as $r => [$set, $sums]) {
                if ($r !== $rank && self::isSet($set, $column)) {
                    $rows[$r] = [$set ^ $rows[$rank][0], $sums ^ $rows[$rank][1]];
                }
            }
            $pivots[] = $column;
        }
        if (count($pivots) < self::SOLVED_BITS) {
            throw new \InvalidArgumentException(sprintf(
                'inside this prefix and suffix, tags of %d symbols control only %d of the %d'
                . ' value bits a slot needs: change the prefix or suffix, or emit the class for'
                . ' another tag length (--tag-len)',
                self::TAG_LEN,
                count($pivots),
                self::SOLVED_BITS
            ), self::FRAME_NOT_SOLVABLE);
        }
        $solver = [];
        foreach ($pivots as $r => $column) {
            $solver[$column] = $rows[$r][1];
        }
        if (count(self::$frames) >= self::KEPT_FRAMES) {
            unset(self::$frames[array_key_first(self::$frames)]);
        }
        return self::$frames[$name] = [$base, $solver];
    }

    /**
     * The key prefix . tag . suffix of the slot: this scheme hashes the whole key, so the
     * tag is solved inside the frame (the tag alone when both are empty, tagForSlot's).
     *
     * @throws \ValueError unless the slot is from FIRST_SLOT to LAST_SLOT
     * @throws \InvalidArgumentException (FRAME_NOT_SOLVABLE) when tags of TAG_LEN symbols
     *     cannot reach every slot inside this prefix and suffix
     */
    public static function keyForSlot(string $prefix, int $slot, string $suffix): string
    {
        $value = self::checkSlot($slot);
        if ($prefix === '' && $suffix === '') {
            return self::tagOf($value);
        }
        [$base, $solver] = self::frame($prefix, $suffix);
        $target = $value ^ $base;
        $bits = count(self::ALPHABET_BASIS);
        $tag = str_repeat(chr(self::ALPHABET_OFFSET), self::TAG_LEN);
        foreach ($solver as $column => $sums) {
            // the parity of the value bits in both, folded into bit 0
            $odd = $sums & $target;
            for ($shift = 32; $shift > 0; $shift >>= 1) {
                $odd ^= $odd >> $shift;
            }
            if (($odd & 1) === 1) {
                $k = intdiv($column, $bits);
                $tag[$k] = chr(ord($tag[$k]) ^ self::ALPHABET_BASIS[$column % $bits]);
            }
        }
        return $prefix . $tag . $suffix;
    }
