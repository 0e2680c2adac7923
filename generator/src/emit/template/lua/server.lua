{{first_line}}{{header}}--
-- Slots of the {{scheme}} scheme, inside the server (Lua 5.1 with the server's `bit`
-- library, as Redis and Valkey give to scripts{{servers_note}}): the slot of a key, and a
-- key for a slot. No globals. Keys are byte strings; a slot is an integer from first_slot
-- to last_slot, given as a number or as its decimal digits.
--
--   {{name}}.slot("123456789")                --> {{check_slot}}
--   {{name}}.tag_for_slot({{name}}.first_slot) --> "{{tag}}"
--   {{name}}.key_for_slot({{example_prefix}}, {{name}}.first_slot, {{example_suffix}}) --> "{{key}}"
--   {{name}}.tags_for_slot({{name}}.first_slot) --> an iterator over the slot's tags
--
-- Errors are `nil` plus a message.
{{usage}}
-- The module's functions, built at the first call: a Functions library's load sees only
-- `redis`, not `bit`, `string` or `math`.
local function {{name}}_build()
    local M = {}
    local bxor, band, rshift, lshift = bit.bxor, bit.band, bit.rshift, bit.lshift
    local byte, char, find, sub = string.byte, string.char, string.find, string.sub
    local floor = math.floor
    local xor_byte = bxor

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

    -- The CRC's lookup table: entry i (at CRC_TABLE[i + 1]) is the register after feeding
    -- byte i into a zero register{{reflected_note}}.
    local CRC_TABLE = {
{{crc_table}}
    }
{{crc_of}}{{rule}}
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
        local crc = {{crc_start}}
        for i = first, last do
            crc = {{crc_update}}
        end
{{crc_finish}}        -- `bit` answers signed 32-bit numbers: read the register unsigned.
        crc = crc % 4294967296
        return {{slot_expression}}
    end

    -- The value of a slot given as a number or as the decimal digits a client sends:
    -- slot - FIRST_SLOT, or nil and a message.
    local function value_of(slot)
        if type(slot) == "string" and find(slot, "^%d+$") then
            slot = tonumber(slot)
        end
        if type(slot) ~= "number" or slot ~= floor(slot) then
            return nil, "slot " .. tostring(slot) .. " is not a whole number: give its decimal"
                .. " digits, " .. FIRST_SLOT .. " to " .. LAST_SLOT
        end
        if slot >= FIRST_SLOT and slot <= LAST_SLOT then
            return slot - FIRST_SLOT
        end
        return nil, "slot " .. tostring(slot) .. " is out of range: the slots are "
            .. FIRST_SLOT .. " to " .. LAST_SLOT
    end
{{surface}}
    return M
end
{{functions}}