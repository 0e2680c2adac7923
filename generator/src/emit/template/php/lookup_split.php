
    // The tag of a value v is LOW[v & {{low_mask}}] ^ HIGH[v >> {{low_bits}}], byte strings xored as
    // strings: LOW holds whole tags (the tag of value 0 folded in), HIGH the bytes that the
    // value's high bits flip. The tag of a slot is the tag of the value slot - FIRST_SLOT.
    private const LOW = [
{{low_strings}}
    ];
    private const HIGH = [
{{high_strings}}
    ];

    // The tag of a value below VALUE_LIMIT.
    private static function tagOf(int $value): string
    {
        return self::LOW[$value & {{low_mask}}] ^ self::HIGH[$value >> {{low_bits}}];
    }
