{{first_line}}{{header}}--
-- Redis Cluster style hash slots for this spec, inside the server (Lua 5.1 with the
-- server's `bit` library, as Redis 7 and Valkey 8 give to scripts and functions): the
-- slot of a key, the hashtag of a key, and a key for a slot in O(1). No globals.
--
--   {{name}}.slot("123456789")                    --> {{check_slot}}
--   {{name}}.tag_for_slot(0)                      --> "{{tag}}"
--   {{name}}.key_for_slot("user:", 0, ":profile") --> "{{key}}"
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

    local SLOTS = {{slots}}
    local TAG_LEN = {{tag_len}}
    local BASE_SLOT = {{base_slot}}
    M.slots = SLOTS
    M.tag_len = TAG_LEN

    -- The CRC's lookup table: entry i (at CRC_TABLE[i + 1]) is the register after feeding
    -- byte i into a zero register{{reflected_note}}.
    local CRC_TABLE = {
{{crc_table}}
    }

    -- The hashtag of a key: the bytes between the first `{` and the next `}` when there
    -- are any, else the whole key.
    function M.hashtag(key)
        local open = find(key, "{", 1, true)
        if open then
            local close = find(key, "}", open + 1, true)
            if close and close > open + 1 then
                return sub(key, open + 1, close - 1)
            end
        end
        return key
    end

    -- The hash slot of a key (a string): the CRC of its hashtag.
    function M.slot(key)
        if type(key) ~= "string" then
            return nil, "key must be a string, not a " .. type(key)
        end
        local bytes = M.hashtag(key)
        local crc = {{start}}
        for i = 1, #bytes do
{{crc_update}}
        end
{{crc_finish}}        return band(crc, {{slot_mask}})
    end

    -- The alphabet, symbol i at ALPHABET[i + 1], as bytes.
    local ALPHABET = {
{{alphabet}}
    }

    -- A tag as TAG_LEN symbol indices, first symbol first. The tag of a slot is
    -- LOW[row d & {{low_mask}}] xor HIGH[row d >> {{low_bits}}], index by index, for d = slot xor BASE_SLOT: row v
    -- of LOW (entries v * TAG_LEN + 1 onwards) is the tag whose slot differs from the base
    -- slot by v, and row v of HIGH by v << {{low_bits}}.
    local LOW = {
{{low}}
    }
    local HIGH = {
{{high}}
    }

    local function slot_error(slot)
        return "slot " .. tostring(slot) .. " is out of range: this table has " .. SLOTS
            .. " slots, so a slot is an integer from 0 to " .. (SLOTS - 1)
    end

    -- A slot given as a number or as the decimal digits a client sends, or nil.
    local function as_slot(slot)
        if type(slot) == "string" and find(slot, "^%d+$") then
            slot = tonumber(slot)
        end
        if type(slot) == "number" and slot == floor(slot) and slot >= 0 and slot < SLOTS then
            return slot
        end
        return nil
    end

    -- A tag (a string of TAG_LEN bytes of the alphabet) whose key lands on the slot.
    function M.tag_for_slot(slot)
        local s = as_slot(slot)
        if not s then
            return nil, slot_error(slot)
        end
        local delta = bxor(s, BASE_SLOT)
        local l = band(delta, {{low_mask}}) * TAG_LEN
        local h = rshift(delta, {{low_bits}}) * TAG_LEN
        local symbols = {}
        for i = 1, TAG_LEN do
            symbols[i] = ALPHABET[bxor(LOW[l + i], HIGH[h + i]) + 1]
        end
        return char(unpack(symbols))
    end

    -- The key `prefix .. "{" .. tag .. "}" .. suffix` for the slot. Its hashtag is the
    -- tag, so it lands on the slot whatever the suffix holds; a prefix may not contain `{`.
    function M.key_for_slot(prefix, slot, suffix)
        if type(prefix) ~= "string" or type(suffix) ~= "string" then
            return nil, "prefix and suffix must be strings"
        end
        local tag, err = M.tag_for_slot(slot)
        if not tag then
            return nil, err
        end
        local brace = find(prefix, "{", 1, true)
        if brace then
            return nil, "prefix contains `{` at byte " .. (brace - 1) .. ": the key's hashtag"
                .. " would start there instead of at the tag; remove the `{` from the prefix"
                .. " or move that part into the suffix"
        end
        return prefix .. "{" .. tag .. "}" .. suffix
    end

    return M
end
{{functions}}