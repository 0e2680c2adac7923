-- The harness's driver for the Lua module (the protocol: tests/src/harness.rs), for Lua
-- 5.1, Lua 5.4 and LuaJIT alike, and inside redis-server and valkey-server after the block
-- of `slotgen emit lua --for-script` (named `slots`).
--
-- Usage: lua driver.lua MODULE KEYS GROUPS FEW DEEP PREFIX SUFFIX BAD_PREFIX BAD_SUFFIX
--        EVAL "<block><this file>" 0 FEW DEEP PREFIX SUFFIX BAD_PREFIX BAD_SUFFIX KEYS_TEXT GROUPS_TEXT
-- where KEYS_TEXT and GROUPS_TEXT are what the files hold. Standalone it prints the
-- answers; in a server the script returns them.

local function unhex(h)
    return (h:gsub("..", function(x) return string.char(tonumber(x, 16)) end))
end
local function hex(s)
    return (s:gsub(".", function(c) return string.format("%02x", c:byte()) end))
end
local function none_or(value, show)
    if value == nil then
        return "-"
    end
    return show(value)
end

-- The answers of module m: args are FEW DEEP PREFIX SUFFIX BAD_PREFIX BAD_SUFFIX, and
-- key_lines and group_lines iterators over the lines of the keys and groups files.
local function answers(m, args, key_lines, group_lines)
    local few, deep = tonumber(args[1]), tonumber(args[2])
    local prefix, suffix = unhex(args[3]), unhex(args[4])
    local bad_prefix, bad_suffix = unhex(args[5]), unhex(args[6])
    local out = {}
    local function emit(...)
        out[#out + 1] = table.concat({ ... }, "\t")
    end
    -- The first n tags of slot s, as hex joined by `,`.
    local function take(s, n)
        local tags = {}
        if n == 0 then
            return ""
        end
        for tag in m.tags_for_slot(s) do
            tags[#tags + 1] = hex(tag)
            if #tags == n then
                break
            end
        end
        return table.concat(tags, ",")
    end

    emit("const", m.first_slot, m.last_slot, m.slots, m.tag_len)
    for s = m.first_slot, m.last_slot do
        emit("tag", s, hex(m.tag_for_slot(s)))
    end
    for s = m.first_slot, m.last_slot do
        emit("tags", s, take(s, few))
    end
    for _, s in ipairs({ m.first_slot, m.last_slot }) do
        emit("deep", s, take(s, deep))
    end
    for s = m.first_slot, m.last_slot do
        emit("key", s, hex(m.key_for_slot(prefix, s, suffix)))
    end

    local keys = {}
    for line in key_lines do
        keys[#keys + 1] = line
    end
    for _, k in ipairs(keys) do
        emit("slot", k, m.slot(unhex(k)))
    end
    for _, k in ipairs(keys) do
        emit("hashtag", k, hex(m.hashtag(unhex(k))))
    end

    local groups = {}
    for line in group_lines do
        local count, listed = line:match("^(%d+):(.*)$")
        local group = {}
        for h in (listed .. ","):gmatch("([^,]*),") do
            if #group < tonumber(count) then
                group[#group + 1] = unhex(h)
            end
        end
        groups[#groups + 1] = group
    end
    for i, g in ipairs(groups) do
        emit("same", i - 1, none_or(m.same_slot(g), tostring))
    end
    for i, g in ipairs(groups) do
        emit("shared", i - 1, none_or(m.shared_hashtag(g), hex))
    end

    local function refusal(case, value, message)
        if value == nil then
            emit("refused", case, message)
        else
            emit("accepted", case, tostring(value))
        end
    end
    refusal("tag_above", m.tag_for_slot(m.last_slot + 1))
    refusal("tag_below", m.tag_for_slot(m.first_slot - 1))
    refusal("tags_above", m.tags_for_slot(m.last_slot + 1))
    refusal("key_above", m.key_for_slot(prefix, m.last_slot + 1, suffix))
    refusal("key_rule", m.key_for_slot(bad_prefix, m.first_slot, bad_suffix))
    refusal("float_slot", m.tag_for_slot(1.5))
    refusal("str_slot", m.tag_for_slot("5x"))
    refusal("key_type", m.slot(5))
    refusal("one_key_str", m.same_slot("zz"))
    refusal("one_key_shared", m.shared_hashtag("user:{1}:a"))
    refusal("no_suffix", m.key_for_slot(prefix, m.first_slot))
    refusal("number_prefix", m.key_for_slot(5, m.first_slot, suffix))
    return table.concat(out, "\n") .. "\n"
end

-- The lines of text, each ending in a newline (an empty line is the empty key).
local function lines_of(text)
    return text:gmatch("([^\n]*)\n")
end

if redis then
    return answers(slots, ARGV, lines_of(ARGV[7]), lines_of(ARGV[8]))
end
local args = { arg[4], arg[5], arg[6], arg[7], arg[8], arg[9] }
io.write(answers(dofile(arg[1]), args, io.lines(arg[2]), io.lines(arg[3])))
