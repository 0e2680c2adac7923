{{header}}--
-- Redis Cluster style hash slots for this spec, both ways: the slot of a key, and a key
-- for a slot in O(1). Pure arithmetic (no `bit` library, no integer division operator),
-- so this file runs unmodified on Lua 5.1, Lua 5.4 and LuaJIT. Keys are byte strings.
--
--   local slotgen = dofile("slotgen.lua") -- or require, from package.path
--   slotgen.slot("123456789")                   --> {{check_slot}}
--   slotgen.tag_for_slot(0)                      --> "{{tag}}"
--   slotgen.key_for_slot("user:", 0, ":profile") --> "{{key}}"
--   slotgen.tags_for_slot(0)                     --> an iterator over {{tags_per_slot}} tags, "{{tag}}" first
--
-- Errors are `nil` plus a message.

local floor, byte, char, find = math.floor, string.byte, string.char, string.find
local unpack = table.unpack or unpack

local M = {}

local SLOTS = {{slots}}
local TAG_LEN = {{tag_len}}
local SYMBOLS = {{symbols}} -- alphabet size, 2^{{symbol_bits}}
local LOW_ROWS = {{low_rows}} -- 2^{{low_bits}}: the slot's low {{low_bits}} bits pick a row of LOW
local TAGS_PER_SLOT = {{tags_per_slot}}

M.slots = SLOTS
M.tag_len = TAG_LEN
M.tags_per_slot = TAGS_PER_SLOT

{{xor_table}}
-- The CRC's lookup table (entry i: the register after feeding byte i into a zero
-- register), split into its high and low bytes, so that the register is two bytes and
-- every xor is one XOR lookup.
local CRC_TABLE = {
{{crc_table}}
}
local CRC_HIGH, CRC_LOW = {}, {}
for i = 0, 255 do
    CRC_HIGH[i] = floor(CRC_TABLE[i + 1] / 256)
    CRC_LOW[i] = CRC_TABLE[i + 1] % 256
end
{{crc_extra}}
-- The CRC of bytes first..last of key, as the register's high and low bytes.
local function crc16(key, first, last)
    local high, low = {{start_high}}, {{start_low}}
    for i = first, last do
{{crc_update}}
    end
{{crc_finish}}    return high, low
end

-- The hash slot of a key (a string): the CRC of its hashtag, the bytes between the first
-- `{` and the next `}` when there are any, else of the whole key.
function M.slot(key)
    if type(key) ~= "string" then
        return nil, "key must be a string, not a " .. type(key)
    end
    local first, last = 1, #key
    local open = find(key, "{", 1, true)
    if open then
        local close = find(key, "}", open + 1, true)
        if close and close > open + 1 then
            first, last = open + 1, close - 1
        end
    end
    local high, low = crc16(key, first, last)
    return (high * 256 + low) % SLOTS
end

-- The alphabet, symbol i at ALPHABET[i + 1], as bytes.
local ALPHABET = {
{{alphabet}}
}

-- SYMBOL[a * SYMBOLS + b] is the byte of the symbol whose index is `a xor b`.
local SYMBOL = {}
for a = 0, SYMBOLS - 1 do
    for b = 0, SYMBOLS - 1 do
        SYMBOL[a * SYMBOLS + b] = ALPHABET[XOR[a * 256 + b] + 1]
    end
end

-- The tag of a slot is the alphabet's symbols at the indices LOW[row l] xor HIGH[row h],
-- for l the slot's low {{low_bits}} bits and h the rest; each row holds TAG_LEN symbol
-- indices, first symbol first. The base slot ({{base_slot}}, the slot of the tag whose
-- symbols all have index 0) is folded into the rows, so that no xor with it is needed:
-- row l of LOW is the tag whose slot differs from the base slot by `l xor {{base_low}}` in
-- the low bits (the derivation's row `l xor {{base_low}}`), and likewise for HIGH.
local LOW = {
{{low}}
}
local HIGH = {
{{high}}
}

-- A basis of the tags that do not move the slot, one row of TAG_LEN symbol indices each:
-- xored into a tag, any combination of them gives another tag of the same slot.
local KERNEL = {
{{kernel}}
}

local function slot_error(slot)
    if type(slot) ~= "number" or slot ~= floor(slot) then
        return "slot must be an integer from 0 to " .. (SLOTS - 1) .. ", not " .. type(slot)
            .. " " .. tostring(slot)
    end
    return "slot " .. tostring(slot) .. " is out of range: this table has " .. SLOTS
        .. " slots, so a slot is an integer from 0 to " .. (SLOTS - 1)
end

local function is_slot(slot)
    return type(slot) == "number" and slot == floor(slot) and slot >= 0 and slot < SLOTS
end

-- The tag of a slot already checked.
local function tag_of(slot)
    local l = (slot % LOW_ROWS) * TAG_LEN
    local h = floor(slot / LOW_ROWS) * TAG_LEN
    return char(
{{tag_symbols}}
    )
end

-- A tag (a string of TAG_LEN bytes of the alphabet) whose key lands on the slot.
function M.tag_for_slot(slot)
    if not is_slot(slot) then
        return nil, slot_error(slot)
    end
    return tag_of(slot)
end

-- The key `prefix .. "{" .. tag .. "}" .. suffix` for the slot. Its hashtag is the tag,
-- so it lands on the slot whatever the suffix holds; a prefix may not contain `{`.
function M.key_for_slot(prefix, slot, suffix)
    if type(prefix) ~= "string" or type(suffix) ~= "string" then
        return nil, "prefix and suffix must be strings"
    end
    if not is_slot(slot) then
        return nil, slot_error(slot)
    end
    local brace = find(prefix, "{", 1, true)
    if brace then
        return nil, "prefix contains `{` at byte " .. (brace - 1) .. ": the key's hashtag would"
            .. " start there instead of at the tag; remove the `{` from the prefix or move"
            .. " that part into the suffix"
    end
    return prefix .. "{" .. tag_of(slot) .. "}" .. suffix
end

-- Every tag that lands on the slot, lazily: an iterator (`for tag in M.tags_for_slot(s)`)
-- over TAGS_PER_SLOT tags, the tag_for_slot tag first, then that tag xor each nonzero
-- combination of KERNEL rows, in binary counting order. The slot is checked at once.
function M.tags_for_slot(slot)
    if not is_slot(slot) then
        return nil, slot_error(slot)
    end
    local l = (slot % LOW_ROWS) * TAG_LEN
    local h = floor(slot / LOW_ROWS) * TAG_LEN
    local symbols, n = {}, 0
    return function()
        if n >= TAGS_PER_SLOT then
            return nil
        end
        for i = 1, TAG_LEN do
            local index = XOR[LOW[l + i] * 256 + HIGH[h + i]]
            local bits, row = n, 0
            while bits > 0 do
                if bits % 2 == 1 then
                    index = XOR[index * 256 + KERNEL[row + i]]
                end
                bits, row = floor(bits / 2), row + TAG_LEN
            end
            symbols[i] = ALPHABET[index + 1]
        end
        n = n + 1
        return char(unpack(symbols, 1, TAG_LEN))
    end
end

-- The slot every key of the array lands on, as a multi-key command or a script's keys
-- need; nil when two keys land on different slots (the server answers CROSSSLOT) or there
-- are none, or nil and a message when a key is not a string.
function M.same_slot(keys)
    local found
    for i = 1, #keys do
        local here, message = M.slot(keys[i])
        if not here then
            return nil, message
        end
        if found == nil then
            found = here
        elseif here ~= found then
            return nil
        end
    end
    return found
end

-- The one non-empty hashtag every key of the array has; nil when a key has none (the
-- whole key is hashed: no `{`, no `}` after it, or `{}`), two keys have different ones, or
-- there are none. Keys that share a hashtag land on one slot under every CRC and slot count.
function M.shared_hashtag(keys)
    local found
    for i = 1, #keys do
        local key = keys[i]
        if type(key) ~= "string" then
            return nil, "key must be a string, not a " .. type(key)
        end
        local open = find(key, "{", 1, true)
        local close = open and find(key, "}", open + 1, true)
        if not close or close == open + 1 then
            return nil
        end
        local tag = string.sub(key, open + 1, close - 1)
        if found == nil then
            found = tag
        elseif tag ~= found then
            return nil
        end
    end
    return found
end

return M
