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
-- A basis of the kernel, one row each: xored into a tag, any combination keeps its value.
local KERNEL = {
{{kernel}}
}
-- 2^(the kernel's rows): the tags of each value.
local TAGS_PER_VALUE = {{tags_per_value}}
-- Tags reach the values below this; a slot's are slot - FIRST_SLOT + k * SLOTS.
local VALUE_LIMIT = {{value_limit}}

-- Xors into bytes[1..TAG_LEN] the rows of `rows` (TAG_LEN bytes each) at the set bits of
-- `bits`, and returns bytes.
local function xor_rows(bytes, rows, bits)
    local row = 0
    while bits > 0 do
        if bits % 2 == 1 then
            for i = 1, TAG_LEN do
                bytes[i] = xor_byte(bytes[i], rows[row + i])
            end
        end
        bits, row = floor(bits / 2), row + TAG_LEN
    end
    return bytes
end

-- Writes the bytes of the tag of a value below VALUE_LIMIT into bytes[1..TAG_LEN].
local function tag_bytes(value, bytes)
    for i = 1, TAG_LEN do
        bytes[i] = ZERO_TAG[i]
    end
    return xor_rows(bytes, COLUMNS, value)
end

-- A tag (a string of TAG_LEN bytes of the alphabet) whose key lands on the slot.
function M.tag_for_slot(slot)
    local value, err = value_of(slot)
    if not value then
        return nil, err
    end
    return char(unpack(tag_bytes(value, {}), 1, TAG_LEN))
end

-- {{key_doc}}
function M.key_for_slot(prefix, slot, suffix)
    if type(prefix) ~= "string" or type(suffix) ~= "string" then
        return nil, "prefix and suffix must be strings"
    end
    local tag, err = M.tag_for_slot(slot)
    if not tag then
        return nil, err
    end
{{key_body}}
end
-- Every tag of TAG_LEN symbols that lands on the slot, lazily: an iterator (`for tag in
-- M.tags_for_slot(s)`) over, for each value slot - FIRST_SLOT + k * SLOTS below
-- VALUE_LIMIT, ascending, the value's tag xor each combination of KERNEL rows, in binary
-- counting order; the tag_for_slot tag first. The slot is checked at once.
function M.tags_for_slot(slot)
    local value, err = value_of(slot)
    if not value then
        return nil, err
    end
    local n = 0
    local base, bytes = tag_bytes(value, {}), {}
    return function()
        if n == TAGS_PER_VALUE then
            if value + SLOTS >= VALUE_LIMIT then
                return nil
            end
            value, n = value + SLOTS, 0
            tag_bytes(value, base)
        end
        for i = 1, TAG_LEN do
            bytes[i] = base[i]
        end
        xor_rows(bytes, KERNEL, n)
        n = n + 1
        return char(unpack(bytes, 1, TAG_LEN))
    end
end
