<?php

{{header}}//
// Redis Cluster style hash slots for this spec, both ways: the slot of a key, and a key
// for a slot in O(1). One file for PHP 8.1 and later, no extension beyond the core. Keys,
// tags and keys built are byte strings.
//
//   {{class}}::slot('123456789');                   // {{check_slot}}
//   {{class}}::tagForSlot(0);                       // "{{tag}}"
//   {{class}}::keyForSlot('user:', 0, ':profile');  // "{{key}}"
//   iterator_count({{class}}::tagsForSlot(0));      // {{tags_per_slot}}, from a Generator
//   {{class}}::hashtag('emq:{orders}:pending');     // "orders"
//   {{class}}::sharedHashtag(['emq:{orders}:pending', 'emq:{orders}:active']);  // "orders"
//
// A slot out of range throws ValueError, a prefix with `{` InvalidArgumentException, each
// with the rule and the way out; arguments of the wrong type throw TypeError.

declare(strict_types=1);
{{namespace}}
final class {{class}}
{
    /** The number of hash slots; a slot is an int from 0 to SLOTS - 1. */
    public const SLOTS = {{slots}};
    /** Symbols (bytes) per tag. */
    public const TAG_LEN = {{tag_len}};
    /** How many tags land on each slot. */
    public const TAGS_PER_SLOT = {{tags_per_slot}};
    /** The slot of the tag whose symbols all have index 0. */
    public const BASE_SLOT = {{base_slot}};

    // The CRC's lookup table: entry i is the register after feeding byte i into a zero
    // register{{reflected_note}}.
    private const CRC_TABLE = [
{{crc_table}}
    ];

    // The alphabet: symbol i is byte i of ALPHABET.
    private const ALPHABET = "{{alphabet_string}}";

    // A tag as TAG_LEN symbol indices, first symbol first, so that no mask outgrows PHP's
    // signed 64-bit int. The tag of a slot is LOW[row d & {{low_mask}}] ^ HIGH[row d >> {{low_bits}}], index by
    // index, for d = slot ^ BASE_SLOT: row v of LOW (entries v * TAG_LEN onwards) is the tag
    // whose slot differs from the base slot by v, and row v of HIGH by v << {{low_bits}}.
    private const LOW = [
{{low}}
    ];
    private const HIGH = [
{{high}}
    ];
    // A basis of the kernel, one row each: tags that, xored in, do not move the slot.
    private const KERNEL = [
{{kernel}}
    ];

    private function __construct()
    {
    }

    /**
     * The hashtag of a key: the bytes between the first `{` and the next `}` when there
     * are any, else the whole key. These are the bytes whose CRC is the slot.
     */
    public static function hashtag(string $key): string
    {
        return self::explicitHashtag($key) ?? $key;
    }

    /** The hash slot of a key: the CRC of its hashtag, an int from 0 to SLOTS - 1. */
    public static function slot(string $key): int
    {
        $bytes = self::hashtag($key);
        $crc = {{start}};
        $length = strlen($bytes);
        for ($i = 0; $i < $length; $i++) {
{{crc_update}}
        }
{{crc_finish}}        return $crc & {{slot_mask}};
    }

    private static function checkSlot(int $slot): void
    {
        if ($slot < 0 || $slot >= self::SLOTS) {
            throw new \ValueError(
                "slot $slot is out of range: this table has " . self::SLOTS
                . ' slots, so a slot is an int from 0 to ' . (self::SLOTS - 1)
            );
        }
    }

    // The tag whose indices are LOW row `low` xor HIGH row `high` xor the KERNEL rows at
    // the set bits of n.
    private static function tagOf(int $low, int $high, int $n): string
    {
        $tag = '';
        for ($i = 0; $i < self::TAG_LEN; $i++) {
            $index = self::LOW[$low + $i] ^ self::HIGH[$high + $i];
            for ($row = $i, $rest = $n; $rest !== 0; $row += self::TAG_LEN, $rest >>= 1) {
                if (($rest & 1) === 1) {
                    $index ^= self::KERNEL[$row];
                }
            }
            $tag .= self::ALPHABET[$index];
        }
        return $tag;
    }

    /**
     * A tag (TAG_LEN bytes of the alphabet) whose key lands on the slot.
     *
     * @throws \ValueError unless the slot is from 0 to SLOTS - 1
     */
    public static function tagForSlot(int $slot): string
    {
        self::checkSlot($slot);
        $delta = $slot ^ self::BASE_SLOT;
        return self::tagOf(($delta & {{low_mask}}) * self::TAG_LEN, ($delta >> {{low_bits}}) * self::TAG_LEN, 0);
    }

    /**
     * The key prefix . '{' . tag . '}' . suffix for the slot. Its hashtag is the tag, so it
     * lands on the slot whatever the suffix holds.
     *
     * @throws \ValueError unless the slot is from 0 to SLOTS - 1
     * @throws \InvalidArgumentException when the prefix contains `{`
     */
    public static function keyForSlot(string $prefix, int $slot, string $suffix): string
    {
        $tag = self::tagForSlot($slot);
        $brace = strpos($prefix, '{');
        if ($brace !== false) {
            throw new \InvalidArgumentException(
                "prefix contains `{` at byte $brace: the key's hashtag would start there instead"
                . ' of at the tag; remove the `{` from the prefix or move that part into the suffix'
            );
        }
        return $prefix . '{' . $tag . '}' . $suffix;
    }

    /**
     * Every tag that lands on the slot, lazily: TAGS_PER_SLOT of them, the tagForSlot tag
     * first, then that tag xor each nonzero combination of KERNEL rows, in binary counting
     * order.
     *
     * @return \Generator<int, string>
     * @throws \ValueError unless the slot is from 0 to SLOTS - 1
     */
    public static function tagsForSlot(int $slot): \Generator
    {
        self::checkSlot($slot);
        $delta = $slot ^ self::BASE_SLOT;
        return self::tags(($delta & {{low_mask}}) * self::TAG_LEN, ($delta >> {{low_bits}}) * self::TAG_LEN);
    }

    /** @return \Generator<int, string> */
    private static function tags(int $low, int $high): \Generator
    {
        for ($n = 0; $n < self::TAGS_PER_SLOT; $n++) {
            yield self::tagOf($low, $high, $n);
        }
    }

    /**
     * The slot every key lands on, as a multi-key command or a script's keys need; null
     * when two keys land on different slots (the server answers CROSSSLOT) or there are
     * none.
     *
     * @param iterable<string> $keys
     */
    public static function sameSlot(iterable $keys): ?int
    {
        $found = null;
        foreach ($keys as $key) {
            $here = self::slot($key);
            if ($found === null) {
                $found = $here;
            } elseif ($here !== $found) {
                return null;
            }
        }
        return $found;
    }

    /**
     * The one non-empty hashtag every key has; null when a key has none (the whole key is
     * hashed: no `{`, no `}` after it, or `{}`), two keys have different ones, or there are
     * none. Keys that share a hashtag land on one slot under every CRC and slot count.
     *
     * @param iterable<string> $keys
     */
    public static function sharedHashtag(iterable $keys): ?string
    {
        $found = null;
        foreach ($keys as $key) {
            $tag = self::explicitHashtag($key);
            if ($tag === null) {
                return null;
            }
            if ($found === null) {
                $found = $tag;
            } elseif ($tag !== $found) {
                return null;
            }
        }
        return $found;
    }

    // The bytes between the first `{` and the next `}` when there are any, else null: the
    // whole key is hashed.
    private static function explicitHashtag(string $key): ?string
    {
        $open = strpos($key, '{');
        if ($open === false) {
            return null;
        }
        $close = strpos($key, '}', $open + 1);
        if ($close === false || $close === $open + 1) {
            return null;
        }
        return substr($key, $open + 1, $close - $open - 1);
    }
}
