
-- The bytes that open and close a hashtag.
local OPEN, CLOSE = char({{open}}), char({{close}})
M.open, M.close = OPEN, CLOSE
-- A hashtag shorter than this hashes the whole key.
local MIN_TAG_LEN = {{min_tag_len}}

-- The hashtag the rule finds in key, as its first and last index: the bytes between the
-- first OPEN and the first CLOSE after it, when there are at least MIN_TAG_LEN of them;
-- nil when there is none.
local function explicit(key)
    local open = find(key, OPEN, 1, true)
    if open then
        local close = find(key, CLOSE, open + 1, true)
        if close and close - open - 1 >= MIN_TAG_LEN then
            return open + 1, close - 1
        end
    end
    return nil
end

-- OPEN .. tag .. CLOSE by slot, made as key_for_slot asks for them (see made_tags).
local made_framed = {}
-- The last prefix key_for_slot found without OPEN: a caller's keys mostly share one, and
-- comparing strings costs less than find (strings are immutable, so it stays right).
local clean_prefix = nil

-- The key `prefix .. OPEN .. tag .. CLOSE .. suffix` for the slot. Its hashtag is the tag,
-- so it lands on the slot whatever the suffix holds; a prefix may not contain OPEN.
function M.key_for_slot(prefix, slot, suffix)
    if type(prefix) ~= "string" or type(suffix) ~= "string" then
        return nil, "prefix and suffix must be strings"
    end
    local framed = made_framed[slot]
    if not framed then
        local tag, err = M.tag_for_slot(slot)
        if not tag then
            return nil, err
        end
        framed = OPEN .. tag .. CLOSE
        made_framed[slot] = framed
    end
    if prefix ~= clean_prefix then
        local at = find(prefix, OPEN, 1, true)
        if at then
            return nil, "prefix contains the hashtag's opening byte {{open}} at byte " .. (at - 1)
                .. ": the key's hashtag would start there instead of at the tag; remove it"
                .. " from the prefix or move that part into the suffix"
        end
        clean_prefix = prefix
    end
    return prefix .. framed .. suffix
end
