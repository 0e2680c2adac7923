{{header}}--
-- Slots of the {{scheme}} scheme, both ways: the slot of a key, and a key for a slot in
-- O(1). Pure arithmetic (no `bit` library, no integer division operator), so this file
-- runs unmodified on Lua 5.1, Lua 5.4 and LuaJIT. Keys are byte strings; a slot is an
-- integer from first_slot to last_slot.
--
--   local slotgen = dofile("slotgen.lua") -- or require, from package.path
--   slotgen.slot("123456789")                  --> {{check_slot}}
--   slotgen.tag_for_slot(slotgen.first_slot)    --> "{{tag}}"
--   slotgen.key_for_slot({{example_prefix}}, slotgen.first_slot, {{example_suffix}}) --> "{{key}}"
--   slotgen.tags_for_slot(slotgen.first_slot)   --> an iterator over the slot's tags, "{{tag}}" first
--
-- Errors are `nil` plus a message.

local floor, byte, char, find, sub = math.floor, string.byte, string.char, string.find, string.sub
local unpack = table.unpack or unpack

local M = {}

-- The number of slots.
local SLOTS = {{slots}}
-- The first slot; slots are FIRST_SLOT to LAST_SLOT.
local FIRST_SLOT = {{first_slot}}
-- The last slot.
local LAST_SLOT = {{last_slot}}
-- Symbols (bytes) per tag.
local TAG_LEN = {{tag_len}}

M.slots = SLOTS
M.first_slot = FIRST_SLOT
M.last_slot = LAST_SLOT
M.tag_len = TAG_LEN

{{xor_table}}
-- The CRC's lookup table, split into bytes in the register's order (the byte that meets
-- the input first), so that the register is {{crc_bytes}} bytes and every xor is one XOR
-- lookup. Entry i is the register after feeding byte i into a zero
-- register{{reflected_note}}.
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
local function crc_of(key, first, last)
    local {{registers}} = {{crc_start_bytes}}
    for i = first, last do
        local index = XOR[r1 * 256 + byte(key, i)]
        {{registers}} = {{crc_update}}
    end
{{crc_finish}}    return {{crc_value}}
end
{{rule}}
-- The slot of a key (a string): {{slot_formula}}, for the CRC of the bytes hashed:
-- {{rule_lines}}.
function M.slot(key)
    if type(key) ~= "string" then
        return nil, "key must be a string, not a " .. type(key)
    end
    local first, last = explicit(key)
    if not first then
        first, last = 1, #key
    end
    local crc = crc_of(key, first, last)
    return {{slot_expression}}
end

-- The value of a slot: slot - FIRST_SLOT, or nil and a message.
local function value_of(slot)
    if type(slot) ~= "number" then
        return nil, "slot is a " .. type(slot) .. ", not a number: a slot is an integer from "
            .. FIRST_SLOT .. " to " .. LAST_SLOT
    end
    if slot ~= floor(slot) then
        return nil, "slot " .. tostring(slot) .. " is not an integer: a slot is an integer from "
            .. FIRST_SLOT .. " to " .. LAST_SLOT
    end
    if slot < FIRST_SLOT or slot > LAST_SLOT then
        return nil, "slot " .. tostring(slot) .. " is out of range: the slots are "
            .. FIRST_SLOT .. " to " .. LAST_SLOT
    end
    return slot - FIRST_SLOT
end
{{surface}}
return M
