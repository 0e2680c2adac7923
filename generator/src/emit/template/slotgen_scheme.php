<?php

{{header}}//
// Slots of the {{scheme}} scheme, both ways: the slot of a key, and a key for a slot. One
// file for PHP 8.1 and later, no extension beyond the core. Keys, tags and keys built are
// byte strings; a slot is an int from FIRST_SLOT to LAST_SLOT.
//
//   {{class}}::slot('123456789');                  // {{check_slot}}
//   {{class}}::tagForSlot({{class}}::FIRST_SLOT);    // "{{tag}}"
//   {{class}}::keyForSlot({{example_prefix}}, {{class}}::FIRST_SLOT, {{example_suffix}}); // "{{key}}"
//   {{class}}::tagsForSlot({{class}}::FIRST_SLOT);   // a Generator of the slot's tags
//
// A slot out of range throws ValueError, a key against the scheme's rule
// InvalidArgumentException, each with the rule and the way out; arguments of the wrong
// type throw TypeError.

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
{{delimiter_constants}}
    // The CRC's lookup table: entry i is the register after feeding byte i into a zero
    // register{{reflected_note}}.
    private const CRC_TABLE = [
{{crc_table}}
    ];

    // The tag of a value v is ZERO_TAG xor COLUMNS[i] (byte strings of TAG_LEN bytes,
    // xored as strings) over the set bits i of v: COLUMNS[i] flips bit i of the tag's value
    // (the CRC's value after the shift and mask), and ZERO_TAG is the tag of value 0. The
    // tag of a slot is the tag of the value slot - FIRST_SLOT.
    private const ZERO_TAG = "{{zero_string}}";
    private const COLUMNS = [
{{column_strings}}
    ];
    // A basis of the kernel: xored into a tag, any combination keeps its value.
    private const KERNEL = [
{{kernel_strings}}
    ];
    // Tags reach the values below this; a slot's are slot - FIRST_SLOT + k * SLOTS.
    private const VALUE_LIMIT = {{value_limit}};

    private function __construct()
    {
    }
{{rule}}
    /**
     * The slot of a key: ((crc >> {{shift}}) & {{value_mask}}) % SLOTS + FIRST_SLOT, for the CRC
     * of {{rule_doc}}.
     */
    public static function slot(string $key): int
    {
        $bytes = self::hashed($key);
        $crc = {{crc_start}};
        $length = strlen($bytes);
        for ($i = 0; $i < $length; $i++) {
{{crc_update}}
        }
{{crc_finish}}        return (($crc >> {{shift}}) & {{value_mask}}) % self::SLOTS + self::FIRST_SLOT;
    }

    private static function checkSlot(int $slot): int
    {
        if ($slot < self::FIRST_SLOT || $slot > self::LAST_SLOT) {
            throw new \ValueError(
                "slot $slot is out of range: this scheme's slots are " . self::FIRST_SLOT
                . ' to ' . self::LAST_SLOT
            );
        }
        return $slot - self::FIRST_SLOT;
    }

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

    /**
     * A tag (TAG_LEN bytes of the alphabet) whose key lands on the slot.
     *
     * @throws \ValueError unless the slot is from FIRST_SLOT to LAST_SLOT
     */
    public static function tagForSlot(int $slot): string
    {
        return self::tagOf(self::checkSlot($slot));
    }

    /**
     * Every tag of TAG_LEN symbols that lands on the slot, lazily: for each value
     * slot - FIRST_SLOT + k * SLOTS below VALUE_LIMIT, ascending, the value's tag xor each
     * combination of KERNEL, in binary counting order; the tagForSlot tag first.
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
            for ($n = 0; $n < 1 << count(self::KERNEL); $n++) {
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
}
