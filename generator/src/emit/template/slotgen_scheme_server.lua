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
    local byte, char, find = string.byte, string.char, string.find
    local floor = math.floor

    local SLOTS = {{slots}}
    local FIRST_SLOT = {{first_slot}}
    local LAST_SLOT = {{last_slot}}
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
{{rule}}
    -- The slot of a key (a string): ((crc >> {{shift}}) & {{value_mask}}) % SLOTS + FIRST_SLOT,
    -- for the CRC of {{rule_doc}}.
    function M.slot(key)
        if type(key) ~= "string" then
            return nil, "key must be a string, not a " .. type(key)
        end
        local first, last = hashed(key)
        local crc = {{crc_start}}
        for i = first, last do
{{crc_update}}
        end
{{crc_finish}}        -- `bit` answers signed 32-bit numbers: read the register unsigned.
        crc = crc % 4294967296
        local value = floor(crc / {{shift_divisor}}) % {{value_modulus}}
        return value % SLOTS + FIRST_SLOT
    end

    -- The value of a slot given as a number or as the decimal digits a client sends:
    -- slot - FIRST_SLOT, or nil and a message.
    local function value_of(slot)
        if type(slot) == "string" and find(slot, "^%d+$") then
            slot = tonumber(slot)
        end
        if type(slot) == "number" and slot == floor(slot) and slot >= FIRST_SLOT
            and slot <= LAST_SLOT then
            return slot - FIRST_SLOT
        end
        return nil, "slot " .. tostring(slot) .. " is out of range: this scheme's slots are "
            .. FIRST_SLOT .. " to " .. LAST_SLOT
    end

    local xor_byte = bxor

{{tags}}
    return M
end
{{functions}}