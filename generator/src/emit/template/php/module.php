<?php

{{header}}//
// Slots of the {{scheme}} scheme, both ways: the slot of a key, and a key for a slot in
// O(1). One file for PHP 8.1 and later, no extension beyond the core. Keys, tags and keys
// built are byte strings; a slot is an int from FIRST_SLOT to LAST_SLOT.
//
//   {{class}}::slot('123456789');  // {{check_slot}}
//   {{class}}::tagForSlot({{class}}::FIRST_SLOT);  // "{{tag}}"
//   {{class}}::keyForSlot({{example_prefix}}, {{class}}::FIRST_SLOT, {{example_suffix}});  // "{{key}}"
//   {{class}}::tagsForSlot({{class}}::FIRST_SLOT)->current();  // "{{tag}}", from a Generator
//
// A slot out of range throws ValueError (code SLOT_OUT_OF_RANGE), a key against the
// scheme's rule InvalidArgumentException (code {{key_error}}),
// each with the rule and the way out; arguments of the wrong type throw TypeError.

declare(strict_types=1);
{{namespace}}
final class {{class}}
{
    /** The number of slots. */
    public const SLOTS = {{slots}};
    /** The first slot; slots are FIRST_SLOT to LAST_SLOT. */
    public const FIRST_SLOT = {{first_slot}};
    /** The last slot. */
    public const LAST_SLOT = {{last_slot}};
    /** Symbols (bytes) per tag. */
    public const TAG_LEN = {{tag_len}};

    /** The code of the ValueError for a slot that is not from FIRST_SLOT to LAST_SLOT. */
    public const SLOT_OUT_OF_RANGE = 1;
    /** The code of the InvalidArgumentException for a prefix that holds a hashtag's opener. */
    public const PREFIX_HAS_DELIMITER = 2;
    /**
     * The code of the InvalidArgumentException for a prefix and suffix inside which no tag
     * of TAG_LEN symbols reaches every slot (a scheme that hashes the whole key).
     */
    public const FRAME_NOT_SOLVABLE = 3;

    // The CRC's lookup table: entry i is the register after feeding byte i into a zero
    // register{{reflected_note}}. The shifted register stays within its width, so that its
    // top byte xor a byte is an index without a mask.
    private const CRC_TABLE = [
{{crc_table}}
    ];
    // A basis of the kernel: xored into a tag, any combination keeps its value.
    private const KERNEL = [
{{kernel_strings}}
    ];
    // How many tags a value has: 2 ** count(KERNEL).
    private const TAGS_PER_VALUE = {{tags_per_value}};
    // Tags reach the values below this; a slot's are slot - FIRST_SLOT + k * SLOTS.
    private const VALUE_LIMIT = {{value_limit}};

    private function __construct()
    {
    }
{{rule}}
    /**
     * The bytes of the key that its slot is computed from:
     * {{rule_doc}}.
     */
    public static function hashtag(string $key): string
    {
        return self::explicitHashtag($key) ?? $key;
    }

    /**
     * The slot of a key: {{slot_formula}}, for the CRC of
     * {{rule_doc}}.
     */
    public static function slot(string $key): int
    {
        // hashtag()'s rule, inline: a call costs as much as a short key's CRC
{{slot_hashed}}{{crc_block}}        return {{slot_expression}};
    }

    private static function checkSlot(int $slot): int
    {
        if ($slot < self::FIRST_SLOT || $slot > self::LAST_SLOT) {
            throw new \ValueError(
                "slot $slot is out of range: the slots are " . self::FIRST_SLOT . ' to '
                . self::LAST_SLOT,
                self::SLOT_OUT_OF_RANGE
            );
        }
        return $slot - self::FIRST_SLOT;
    }
{{lookup}}
    /**
     * A tag (TAG_LEN bytes of the alphabet) whose key lands on the slot.
     *
     * @throws \ValueError unless the slot is from FIRST_SLOT to LAST_SLOT
     */
    public static function tagForSlot(int $slot): string
    {
        // the check inline and each tag kept: a call costs more than the lookup
        if ($slot >= self::FIRST_SLOT && $slot <= self::LAST_SLOT) {
            return self::$tags[$slot - self::FIRST_SLOT] ??= self::tagOf($slot - self::FIRST_SLOT);
        }
        return self::tagOf(self::checkSlot($slot));
    }

    /** @var array<int, string> each slot's tagForSlot (by slot - FIRST_SLOT), kept at its first call */
    private static array $tags = [];

    /**
     * Every tag of TAG_LEN symbols that lands on the slot, lazily: for each value
     * slot - FIRST_SLOT + k * SLOTS below VALUE_LIMIT, ascending, the value's tag xor each
     * combination of KERNEL, in binary counting order; the tagForSlot tag first. The slot
     * is checked at once, the tags are made as they are iterated.
     *
     * @return \Generator<int, string>
     * @throws \ValueError unless the slot is from FIRST_SLOT to LAST_SLOT
     */
    public static function tagsForSlot(int $slot): \Generator
    {
        return self::tags(self::checkSlot($slot));
    }

    /** @return \Generator<int, string> */
    private static function tags(int $value): \Generator
    {
        for (; $value < self::VALUE_LIMIT; $value += self::SLOTS) {
            $tag = self::tagOf($value);
            for ($n = 0; $n < self::TAGS_PER_VALUE; $n++) {
                $combined = $tag;
                for ($row = 0, $rest = $n; $rest !== 0; $row++, $rest >>= 1) {
                    if (($rest & 1) === 1) {
                        $combined ^= self::KERNEL[$row];
                    }
                }
                yield $combined;
            }
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
     * The one hashtag every key has between its delimiters; null when a key has none (its
     * whole key is hashed), two keys have different ones, or there are none. Keys that
     * share a hashtag land on one slot whatever the slot count.
     *
     * @param iterable<string> $keys
     */
    public static function sharedHashtag(iterable $keys): ?string
    {
        $found = null;
        foreach ($keys as $key) {
            $tag = self::explicitHashtag($key);
            if ($tag === null || ($found !== null && $tag !== $found)) {
                return null;
            }
            $found = $tag;
        }
        return $found;
    }
}
