{{header}}--
-- Slots of the {{scheme}} scheme, both ways: the slot of a key, and a key for a slot. Pure
-- arithmetic (no `bit` library, no integer division operator), so this file runs
-- unmodified on Lua 5.1, Lua 5.4 and LuaJIT. Keys are byte strings; a slot is an integer
-- from first_slot to last_slot.
--
--   local slotgen = dofile("slotgen.lua") -- or require, from package.path
--   slotgen.slot("123456789")                  --> {{check_slot}}
--   slotgen.tag_for_slot(slotgen.first_slot)    --> "{{tag}}"
--   slotgen.key_for_slot({{example_prefix}}, slotgen.first_slot, {{example_suffix}}) --> "{{key}}"
--   slotgen.tags_for_slot(slotgen.first_slot)   --> an iterator over the slot's tags
--
-- Errors are `nil` plus a message.

local floor, byte, char, find = math.floor, string.byte, string.char, string.find
local unpack = table.unpack or unpack

local M = {}

local SLOTS = {{slots}}
local FIRST_SLOT = {{first_slot}}
local LAST_SLOT = {{last_slot}}
local TAG_LEN = {{tag_len}}

M.slots = SLOTS
M.first_slot = FIRST_SLOT
M.last_slot = LAST_SLOT
M.tag_len = TAG_LEN

-- XOR[a * 256 + b] is `a xor b` for bytes a and b. Built by doubling: for a, b below
-- 2^k, setting bit k in one of them sets it in the result, setting it in both clears it.
local XOR = { [0] = 0 }
local size = 1
while size < 256 do
    for a = 0, size - 1 do
        for b = 0, size - 1 do
            local x = XOR[a * 256 + b]
            XOR[(a + size) * 256 + b] = x + size
            XOR[a * 256 + b + size] = x + size
            XOR[(a + size) * 256 + b + size] = x
        end
    end
    size = size * 2
end

-- The CRC's lookup table (entry i: the register after feeding byte i into a zero
-- register{{reflected_note}}), split into bytes in the register's order, the byte that
-- meets the input first, so that the register is {{crc_bytes}} bytes and every xor is one
-- XOR lookup.
local CRC_TABLE = {
{{crc_table}}
}
local CRC_DIVISORS = { {{crc_divisors}} }
local CRC_BYTES = {}
for k = 1, {{crc_bytes}} do
    local column = {}
    for i = 0, 255 do
        column[i] = floor(CRC_TABLE[i + 1] / CRC_DIVISORS[k]) % 256
    end
    CRC_BYTES[k] = column
end
local {{crc_columns}} = unpack(CRC_BYTES, 1, {{crc_bytes}})
{{crc_extra}}
-- The CRC of bytes first..last of key, as a number.
local function crc(key, first, last)
    local {{registers}} = {{crc_start_bytes}}
    for i = first, last do
        local index = XOR[r1 * 256 + byte(key, i)]
        {{registers}} = {{crc_update}}
    end
{{crc_finish}}    return {{crc_value}}
end
{{rule}}
-- The slot of a key (a string): ((crc >> {{shift}}) & {{value_mask}}) % SLOTS + FIRST_SLOT, for the
-- CRC of {{rule_doc}}.
function M.slot(key)
    if type(key) ~= "string" then
        return nil, "key must be a string, not a " .. type(key)
    end
    local value = floor(crc(key, hashed(key)) / {{shift_divisor}}) % {{value_modulus}}
    return value % SLOTS + FIRST_SLOT
end

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

local function slot_error(slot)
    if type(slot) ~= "number" or slot ~= floor(slot) then
        return "slot must be an integer from " .. FIRST_SLOT .. " to " .. LAST_SLOT .. ", not "
            .. type(slot) .. " " .. tostring(slot)
    end
    return "slot " .. tostring(slot) .. " is out of range: this scheme's slots are "
        .. FIRST_SLOT .. " to " .. LAST_SLOT
end

local function is_slot(slot)
    return type(slot) == "number" and slot == floor(slot) and slot >= FIRST_SLOT
        and slot <= LAST_SLOT
end

-- Writes the bytes of the tag of a value below VALUE_LIMIT into bytes[1..TAG_LEN].
local function tag_bytes(value, bytes)
    for i = 1, TAG_LEN do
        bytes[i] = ZERO_TAG[i]
    end
    local row = 0
    while value > 0 do
        if value % 2 == 1 then
            for i = 1, TAG_LEN do
                bytes[i] = XOR[bytes[i] * 256 + COLUMNS[row + i]]
            end
        end
        value, row = floor(value / 2), row + TAG_LEN
    end
    return bytes
end

-- A tag (a string of TAG_LEN bytes of the alphabet) whose key lands on the slot.
function M.tag_for_slot(slot)
    if not is_slot(slot) then
        return nil, slot_error(slot)
    end
    return char(unpack(tag_bytes(slot - FIRST_SLOT, {}), 1, TAG_LEN))
end
{{key_for_slot}}
-- Every tag of TAG_LEN symbols that lands on the slot, lazily: an iterator (`for tag in
-- M.tags_for_slot(s)`) over, for each value slot - FIRST_SLOT + k * SLOTS below
-- VALUE_LIMIT, ascending, the value's tag xor each combination of KERNEL rows, in binary
-- counting order; the tag_for_slot tag first. The slot is checked at once.
function M.tags_for_slot(slot)
    if not is_slot(slot) then
        return nil, slot_error(slot)
    end
    local value, n = slot - FIRST_SLOT, 0
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
        local bits, row = n, 0
        while bits > 0 do
            if bits % 2 == 1 then
                for i = 1, TAG_LEN do
                    bytes[i] = XOR[bytes[i] * 256 + KERNEL[row + i]]
                end
            end
            bits, row = floor(bits / 2), row + TAG_LEN
        end
        n = n + 1
        return char(unpack(bytes, 1, TAG_LEN))
    end
end

return M
