-- The tag of a value v is ZERO_TAG xor the rows i of COLUMNS (TAG_LEN bytes each) over the
-- set bits i of v: row i flips bit i of the tag's value (the CRC's value after the shift
-- and mask), and ZERO_TAG is the tag of value 0. The tag of a slot is the tag of the value
-- slot - FIRST_SLOT.
local ZERO_TAG = {
{{zero_tag}}
}
local COLUMNS = {
{{columns}}
}

-- Writes the bytes of the tag of a value below VALUE_LIMIT into bytes[1..TAG_LEN].
local function tag_bytes(value, bytes)
    for i = 1, TAG_LEN do
        bytes[i] = ZERO_TAG[i]
    end
    return xor_rows(bytes, COLUMNS, value)
end
