-- A tag as TAG_LEN bytes, first byte first; row r of a table is its entries r * TAG_LEN + 1
-- to r * TAG_LEN + TAG_LEN. The tag of a value v is row v % {{low_len}} of LOW xor row
-- floor(v / {{low_len}}) of HIGH, byte by byte: LOW holds whole tags (the tag of value 0 folded
-- in), HIGH the bytes that the value's high bits flip. The tag of a slot is the tag of the
-- value slot - FIRST_SLOT.
local LOW = {
{{low_rows}}
}
local HIGH = {
{{high_rows}}
}

-- Writes the bytes of the tag of a value below VALUE_LIMIT into bytes[1..TAG_LEN].
local function tag_bytes(value, bytes)
    local l = (value % {{low_len}}) * TAG_LEN
    local h = floor(value / {{low_len}}) * TAG_LEN
    for i = 1, TAG_LEN do
        bytes[i] = xor_byte(LOW[l + i], HIGH[h + i])
    end
    return bytes
end
