<# The PHP file: one final class, every part chosen here. #>
<% from "reduction.jinja" import infix %>
<# The slot of the CRC `crc`, in PHP's operators. #>
<% macro slot_of(crc) %>{{ infix(reduction, crc, reduction.mask | hex) }}<% endmacro %>
<% macro crc_update() %>
<% if crc.refin %>
            $crc = ($crc >> 8) ^ $table[($crc ^ ord($bytes[$i])) & 0xff];
<% else %>
            $crc = (($crc << 8) & {{crc.mask | hex}}) ^ $table[(($crc >> {{crc.top_shift}}) ^ ord($bytes[$i]))];
<% endif %>
<% endmacro %>
<% macro crc_finish() %>
<% if crc.reflect_out %>
        $crc = bindec(strrev(sprintf('%0{{crc.width}}b', $crc))); // refin != refout: reflect the register
<% endif %>
<% if crc.xorout %>
        $crc ^= {{crc.xorout | hex}};
<% endif %>
<% endmacro %>
<# The lines that set $crc to the CRC of $bytes: crc32() where it computes this CRC (from
   the start 0xffffffff, which it alone takes), else the table loop. #>
<% macro crc_block() %>
<% if native %>
        // crc32() is CRC-32/ISO-HDLC, in C: this CRC from its start, with its xorout
        $crc = crc32($bytes)<% if native.xor %> ^ {{native.xor | hex(8)}}<% endif %>;
<% else %>
        $table = self::CRC_TABLE; // a local is read faster than a constant
        $crc = {{crc.start | hex(crc.digits)}};
        $length = strlen($bytes);
        for ($i = 0; $i < $length; $i++) {
{{crc_update() | chomp}}
        }
{{crc_finish()}}<% endif %>
<% endmacro %>
<?php

{{header}}//
// Slots of the {{scheme}} scheme, both ways: the slot of a key, and a key for a slot in
// O(1). One file for PHP 8.1 and later, no extension beyond the core. Keys, tags and keys
// built are byte strings; a slot is an int from FIRST_SLOT to LAST_SLOT.
//
//   {{class}}::slot('123456789');  // {{examples.check_slot}}
//   {{class}}::tagForSlot({{class}}::FIRST_SLOT);  // "{{examples.tag}}"
//   {{class}}::keyForSlot({{examples.prefix}}, {{class}}::FIRST_SLOT, {{examples.suffix}});  // "{{examples.key}}"
//   {{class}}::tagsForSlot({{class}}::FIRST_SLOT)->current();  // "{{examples.tag}}", from a Generator
//
// A slot out of range throws ValueError (code SLOT_OUT_OF_RANGE), a key against the
// scheme's rule InvalidArgumentException (code {{"FRAME_NOT_SOLVABLE" if rule.whole else "PREFIX_HAS_DELIMITER"}}),
// each with the rule and the way out; arguments of the wrong type throw TypeError.

declare(strict_types=1);
<% if namespace %>

namespace {{namespace}};
<% endif %>

final class {{class}}
{
    /** The number of slots. */
    public const SLOTS = {{slots.count}};
    /** The first slot; slots are FIRST_SLOT to LAST_SLOT. */
    public const FIRST_SLOT = {{slots.first}};
    /** The last slot. */
    public const LAST_SLOT = {{slots.last}};
    /** Symbols (bytes) per tag. */
    public const TAG_LEN = {{tags.len}};

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
    // register<% if crc.refin %>, reflected (the register shifts right)<% endif %>. The shifted register stays within its width, so that its
    // top byte xor a byte is an index without a mask.
    private const CRC_TABLE = [
{{crc.table | hex_rows(crc.digits, 8, "        ")}}
    ];
    // A basis of the kernel: xored into a tag, any combination keeps its value.
    private const KERNEL = [
{{tags.kernel | php_strings}}
    ];
    // How many tags a value has: 2 ** count(KERNEL).
    private const TAGS_PER_VALUE = {{tags.per_value}};
    // Tags reach the values below this; a slot's are slot - FIRST_SLOT + k * SLOTS.
    private const VALUE_LIMIT = {{tags.value_limit}};

    private function __construct()
    {
    }
<% if rule.whole %>

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
    private const ALPHABET_OFFSET = {{alphabet.offset | hex(2)}};
    private const ALPHABET_BASIS = [{{alphabet.basis | map("hex", 2) | join(", ")}}];
    // The low value bits a tag is solved for: a key of the slot has slot - FIRST_SLOT there.
    private const SOLVED_BITS = {{tags.solved_bits}};
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

    // The value of any bytes: (crc >> {{reduction.shift}}) & {{reduction.mask | hex}}, for the CRC that slot()
    // computes of a key's hashtag.
    private static function value(string $bytes): int
    {
{{crc_block()}}        return ($crc >> {{reduction.shift}}) & {{reduction.mask | hex}};
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
<% else %>

    /** The byte that opens a hashtag. */
    public const OPEN = "{{[rule.open] | php_string}}";
    /** The byte that closes a hashtag. */
    public const CLOSE = "{{[rule.close] | php_string}}";
    // A hashtag shorter than this hashes the whole key.
    private const MIN_TAG_LEN = {{rule.min_len}};
<% if tags.ready %>
    // How many prefixes found without OPEN keyForSlot keeps (then it forgets them all).
    private const KEPT_PREFIXES = 64;
<% endif %>

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
<% if tags.ready %>
        // each slot's OPEN . tag . CLOSE (by slot), kept at its first call, so that a key is
        // one concatenation, and the prefixes found without OPEN: the common call's check is
        // one isset of both (some 8% faster than the range and str_contains); static variables
        // and literal bounds, which read faster than static properties and class constants
        static $framed = [];
        static $clean = [];
        if (isset($clean[$prefix], $framed[$slot])) {
            return $prefix . $framed[$slot] . $suffix;
        }
        if ($slot >= {{slots.first}} && $slot <= {{slots.last}} && !str_contains($prefix, self::OPEN)) {
            if (count($clean) >= self::KEPT_PREFIXES) {
                $clean = [];
            }
            $clean[$prefix] = true;
            return $prefix
                . ($framed[$slot] ??= self::OPEN . self::tagForSlot($slot) . self::CLOSE)
                . $suffix;
        }
<% else %>
        // literal bounds, which read faster than class constants
        if ($slot >= {{slots.first}} && $slot <= {{slots.last}} && !str_contains($prefix, self::OPEN)) {
            return $prefix . self::OPEN . self::tagForSlot($slot) . self::CLOSE . $suffix;
        }
<% endif %>
        self::checkSlot($slot);
        throw new \InvalidArgumentException(sprintf(
            "prefix contains the hashtag's opening byte 0x%02x at byte %d: the key's hashtag"
            . ' would start there instead of at the tag; remove it from the prefix or move'
            . ' that part into the suffix',
            ord(self::OPEN),
            strpos($prefix, self::OPEN)
        ), self::PREFIX_HAS_DELIMITER);
    }
<% endif %>

    /**
     * The bytes of the key that its slot is computed from:
     * {{rule.doc}}.
     */
    public static function hashtag(string $key): string
    {
        return self::explicitHashtag($key) ?? $key;
    }

    /**
     * The slot of a key: {{ slot_of("crc") }}, for the CRC of
     * {{rule.doc}}.
     */
    public static function slot(string $key): int
    {
        // hashtag()'s rule, inline: a call costs as much as a short key's CRC
<% if rule.whole %>
        $bytes = $key;
<% else %>
        $bytes = $key;
        $open = strpos($key, self::OPEN);
        if ($open !== false) {
            $close = strpos($key, self::CLOSE, $open + 1);
            if ($close !== false && $close - $open > self::MIN_TAG_LEN) {
                $bytes = substr($key, $open + 1, $close - $open - 1);
            }
        }
<% endif %>
{{crc_block()}}        return {{ slot_of("$crc") }};
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
<% if lookup.split %>

    // The tag of a value v is LOW[v & {{lookup.low_mask | hex}}] ^ HIGH[v >> {{lookup.low_bits}}], byte strings xored as
    // strings: LOW holds whole tags (the tag of value 0 folded in), HIGH the bytes that the
    // value's high bits flip. The tag of a slot is the tag of the value slot - FIRST_SLOT.
    private const LOW = [
{{lookup.low | php_strings}}
    ];
    private const HIGH = [
{{lookup.high | php_strings}}
    ];

    // The tag of a value below VALUE_LIMIT.
    private static function tagOf(int $value): string
    {
        return self::LOW[$value & {{lookup.low_mask | hex}}] ^ self::HIGH[$value >> {{lookup.low_bits}}];
    }
<% else %>

    // The tag of a value v is ZERO_TAG ^ COLUMNS[i] over the set bits i of v, byte strings
    // xored as strings: COLUMNS[i] flips bit i of the tag's value (the CRC's value after the
    // shift and mask), and ZERO_TAG is the tag of value 0. The tag of a slot is the tag of
    // the value slot - FIRST_SLOT.
    private const ZERO_TAG = "{{tags.zero | php_string}}";
    private const COLUMNS = [
{{tags.columns | php_strings}}
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
<% endif %>

    /**
     * A tag (TAG_LEN bytes of the alphabet) whose key lands on the slot.
     *
     * @throws \ValueError unless the slot is from FIRST_SLOT to LAST_SLOT
     */
    public static function tagForSlot(int $slot): string
    {
        // the check inline and each slot's tag kept (by slot - FIRST_SLOT) at its first call:
        // a call costs more than the lookup; a static variable and literal bounds, which
        // read faster than a static property and class constants
<% if tags.ready %>
        static $tags = [];
        if ($slot >= {{slots.first}} && $slot <= {{slots.last}}) {
            return $tags[{{"$slot - " ~ slots.first if slots.first else "$slot"}}] ??= self::tagOf({{"$slot - " ~ slots.first if slots.first else "$slot"}});
        }
<% endif %>
        return self::tagOf(self::checkSlot($slot));
    }

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
