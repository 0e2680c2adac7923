
-- This scheme hashes the whole key: no key has a hashtag.
local function explicit(_)
    return nil
end

-- The key of the slot: this scheme hashes the whole key, so it is the tag alone; prefix
-- and suffix must be empty.
function M.key_for_slot(prefix, slot, suffix)
    if type(prefix) ~= "string" or type(suffix) ~= "string" then
        return nil, "prefix and suffix must be strings"
    end
    local tag, err = M.tag_for_slot(slot)
    if not tag then
        return nil, err
    end
    if prefix ~= "" or suffix ~= "" then
        return nil, "this scheme hashes the whole key, so a key that lands on a slot is the tag"
            .. " alone: give no prefix or suffix"
    end
    return tag
end
