
-- The bytes of the key that its slot is computed from:
-- {{rule_lines}}.
function M.hashtag(key)
    if type(key) ~= "string" then
        return nil, "key must be a string, not a " .. type(key)
    end
    local first, last = explicit(key)
    if first then
        return sub(key, first, last)
    end
    return key
end

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

{{lookup}}
-- A basis of the kernel, one row of TAG_LEN bytes each: xored into a tag, any combination
-- keeps its value.
local KERNEL = {
{{kernel}}
}
-- 2^{{kernel_len}} (the kernel's rows): the tags of each value.
local TAGS_PER_VALUE = {{tags_per_value}}
-- Tags reach the values below this; a slot's are slot - FIRST_SLOT + k * SLOTS.
local VALUE_LIMIT = {{value_limit}}

-- The tags made so far, by slot: a Lua string is immutable, so a tag made once is handed
-- out again, and tag_for_slot is a table lookup (as a table of every tag made up front is)
-- from its second call for a slot on.
local made_tags = {}

-- A tag (a string of TAG_LEN bytes of the alphabet) whose key lands on the slot.
function M.tag_for_slot(slot)
    local tag = made_tags[slot]
    if tag then
        return tag
    end
    local value, err = value_of(slot)
    if not value then
        return nil, err
    end
    tag = char(unpack(tag_bytes(value, {}), 1, TAG_LEN))
    made_tags[slot] = tag
    return tag
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

-- The slot every key of the array lands on, as a multi-key command or a script's keys
-- need; nil when two keys land on different slots (the server answers CROSSSLOT) or there
-- are none, or nil and a message when a key is not a string or `keys` is not an array.
function M.same_slot(keys)
    if type(keys) ~= "table" then
        return nil, "same_slot takes an array of keys, not a " .. type(keys) .. ": write same_slot({key})"
    end
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

-- The one hashtag every key of the array has between its delimiters; nil when a key has
-- none (its whole key is hashed), two keys have different ones, or there are none, or nil
-- and a message when a key is not a string or `keys` is not an array. Keys that share a
-- hashtag land on one slot whatever the slot count.
function M.shared_hashtag(keys)
    if type(keys) ~= "table" then
        return nil, "shared_hashtag takes an array of keys, not a " .. type(keys) .. ": write shared_hashtag({key})"
    end
    local found
    for i = 1, #keys do
        local key = keys[i]
        if type(key) ~= "string" then
            return nil, "key must be a string, not a " .. type(key)
        end
        local first, last = explicit(key)
        if not first then
            return nil
        end
        local tag = sub(key, first, last)
        if found == nil then
            found = tag
        elseif tag ~= found then
            return nil
        end
    end
    return found
end
