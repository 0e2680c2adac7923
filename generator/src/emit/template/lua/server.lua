<% import "lua/parts.lua" as parts %>
<# The server-side Lua: a Redis Functions library (`library`) or a block for EVAL scripts,
   every part chosen here; the key rule and the surface are the Lua module's (parts.lua),
   indented. #>
<# The CRC's step over byte i of key, as one expression. #>
<% macro crc_step() %><% if crc.refin %>bxor(rshift(crc, 8), CRC_TABLE[band(bxor(crc, byte(key, i)), 0xff) + 1])<% else %>bxor(band(lshift(crc, 8), {{crc.mask | hex}}), CRC_TABLE[band(bxor(rshift(crc, {{crc.top_shift}}), byte(key, i)), 0xff) + 1])<% endif %><% endmacro %>
<# The register's finish: its reflection when refin != refout, the xor with xorout. #>
<% macro crc_finish() %>
<% if crc.reflect_out %>
        -- refin != refout: reflect the register.
        local reflected = 0
        for _ = 1, {{crc.width}} do
            reflected, crc = reflected * 2 + band(crc, 1), rshift(crc, 1)
        end
        crc = reflected
<% endif %>
<% if crc.xorout %>
        crc = bxor(crc, {{crc.xorout | hex}})
<% endif %>
<% endmacro %>
<% if library %>
#!lua name={{name}}
<% endif %>
{{header}}--
-- Slots of the {{scheme}} scheme, inside the server (Lua 5.1 with the server's `bit`
-- library, as Redis and Valkey give to scripts<% if scheme == "codis" %>, and codis-server<% elif scheme in ["twemproxy-crc32a", "twemproxy-crc32"] %>, here the Redis servers behind twemproxy<% else %> and functions<% endif %>): the slot of a key, and a
-- key for a slot. No globals. Keys are byte strings; a slot is an integer from first_slot
-- to last_slot, given as a number or as its decimal digits.
--
--   {{name}}.slot("123456789")                --> {{examples.check_slot}}
--   {{name}}.tag_for_slot({{name}}.first_slot) --> "{{examples.tag}}"
--   {{name}}.key_for_slot({{examples.prefix}}, {{name}}.first_slot, {{examples.suffix}}) --> "{{examples.key}}"
--   {{name}}.tags_for_slot({{name}}.first_slot) --> an iterator over the slot's tags
--
-- Errors are `nil` plus a message.
<% if library %>
--
-- Load it with `FUNCTION LOAD REPLACE <this file's text>` (`redis-cli -x FUNCTION LOAD
-- REPLACE < file`), then call with no keys (the key hashed is an argument):
--
--   FCALL {{name}}_slot 0 123456789                     --> (integer) {{examples.check_slot}}
--   FCALL {{name}}_tag_for_slot 0 {{slots.first}}                     --> "{{examples.tag}}"
--   FCALL {{name}}_key_for_slot 0 {{prefix_arg}} {{slots.first}} {{suffix_arg}}      --> "{{examples.key}}"
--
-- A refusal is an error reply: ERR and the rule.
<% else %>
--
-- Paste this block at the top of the script (after a `#!lua flags=...` line, if any):
--
--   EVAL "<this block> return {{name}}.key_for_slot(ARGV[1], ARGV[2], ARGV[3])" 0 {{prefix_arg}} {{slots.first}} {{suffix_arg}}
<% endif %>

-- The module's functions, built at the first call: a Functions library's load sees only
-- `redis`, not `bit`, `string` or `math`.
local function {{name}}_build()
    local M = {}
    local bxor, band, rshift, lshift = bit.bxor, bit.band, bit.rshift, bit.lshift
    local byte, char, find, sub = string.byte, string.char, string.find, string.sub
    local floor = math.floor
    local xor_byte = bxor

    -- The number of slots.
    local SLOTS = {{slots.count}}
    -- The first slot; slots are FIRST_SLOT to LAST_SLOT.
    local FIRST_SLOT = {{slots.first}}
    -- The last slot.
    local LAST_SLOT = {{slots.last}}
    -- Symbols (bytes) per tag.
    local TAG_LEN = {{tags.len}}
    M.slots = SLOTS
    M.first_slot = FIRST_SLOT
    M.last_slot = LAST_SLOT
    M.tag_len = TAG_LEN

    -- The CRC's lookup table: entry i (at CRC_TABLE[i + 1]) is the register after feeding
    -- byte i into a zero register<% if crc.refin %>, reflected (the register shifts right)<% endif %>.
    local CRC_TABLE = {
{{crc.table | hex_rows(crc.digits, 8, "        ")}}
    }
<% if rule.whole %>

    -- The CRC of bytes first..last of key, as a number, as M.slot computes it: for the
    -- frame solver of M.key_for_slot.
    local function crc_of(key, first, last)
        local crc = {{crc.start | hex(crc.digits)}}
        for i = first, last do
            crc = {{crc_step()}}
        end
{{crc_finish()}}        -- `bit` answers signed 32-bit numbers: read the register unsigned.
        return crc % 4294967296
    end
<% endif %>
{{parts.key_rule() | indent_lines("    ")}}
    -- The slot of a key (a string): {{ parts.slot_formula() }}, for the CRC of the bytes hashed:
    -- {{rule.doc | lua_wrap("    -- ")}}.
    function M.slot(key)
        if type(key) ~= "string" then
            return nil, "key must be a string, not a " .. type(key)
        end
        local first, last = explicit(key)
        if not first then
            first, last = 1, #key
        end
        local crc = {{crc.start | hex(crc.digits)}}
        for i = first, last do
            crc = {{crc_step()}}
        end
{{crc_finish()}}        -- `bit` answers signed 32-bit numbers: read the register unsigned.
        crc = crc % 4294967296
        return {{ parts.slot_of("crc") }}
    end

    -- A value from the caller for a message: a string's first 64 bytes, each byte that is
    -- not printable ASCII as \xNN (an error reply is one line), else tostring(value).
    local function shown(value)
        if type(value) ~= "string" then
            return tostring(value)
        end
        local text = string.gsub(sub(value, 1, 64), "[^ -~]", function(c)
            return string.format("\\x%02x", byte(c))
        end)
        if #value > 64 then
            text = text .. "... (" .. #value .. " bytes)"
        end
        return text
    end

    -- The value of a slot given as a number or as the decimal digits a client sends:
    -- slot - FIRST_SLOT, or nil and a message naming the slot as given.
    local function value_of(slot)
        local given = slot
        if type(slot) == "string" and find(slot, "^%d+$") then
            slot = tonumber(slot)
        end
        if type(slot) ~= "number" or slot ~= floor(slot) then
            return nil, "slot " .. shown(given) .. " is not a whole number: give its decimal"
                .. " digits, " .. FIRST_SLOT .. " to " .. LAST_SLOT
        end
        if slot >= FIRST_SLOT and slot <= LAST_SLOT then
            return slot - FIRST_SLOT
        end
        return nil, "slot " .. shown(given) .. " is out of range: the slots are "
            .. FIRST_SLOT .. " to " .. LAST_SLOT
    end
{{parts.surface() | indent_lines("    ")}}
    return M
end
<% if library %>

local {{name}}

-- A module function's answer as a reply: the value, or an error reply with the message.
local function reply(value, err)
    if value == nil then
        return redis.error_reply("ERR " .. err)
    end
    return value
end

-- The callback of FCALL {{name}}_<suffix>, which takes the `wanted` arguments `usage`
-- names: answer(args) when it is given as many, else an error reply saying so (an
-- argument missing or one too many is never read as nil or left out). At load, a library
-- sees no `string`: nothing here counts the words of `usage`.
local function taking(suffix, wanted, usage, answer)
    return function(_, args)
        if #args ~= wanted then
            return redis.error_reply("ERR {{name}}_" .. suffix .. " takes " .. wanted
                .. (wanted == 1 and " argument" or " arguments") .. " after the 0 keys ("
                .. usage .. "), not " .. #args)
        end
        {{name}} = {{name}} or {{name}}_build()
        return answer(args)
    end
end

redis.register_function({
    function_name = "{{name}}_slot",
    callback = taking("slot", 1, "KEY", function(args)
        return reply({{name}}.slot(args[1]))
    end),
    flags = { "no-writes" },
    description = "the hash slot of the key ARGV[1]",
})

redis.register_function({
    function_name = "{{name}}_tag_for_slot",
    callback = taking("tag_for_slot", 1, "SLOT", function(args)
        return reply({{name}}.tag_for_slot(args[1]))
    end),
    flags = { "no-writes" },
    description = "a tag whose key lands on the slot ARGV[1]",
})

redis.register_function({
    function_name = "{{name}}_key_for_slot",
    callback = taking("key_for_slot", 3, "PREFIX SLOT SUFFIX", function(args)
        return reply({{name}}.key_for_slot(args[1], args[2], args[3]))
    end),
    flags = { "no-writes" },
    description = "the key ARGV[1] {tag} ARGV[3] for the slot ARGV[2]",
})

redis.register_function({
    function_name = "{{name}}_hashtag",
    callback = taking("hashtag", 1, "KEY", function(args)
        return reply({{name}}.hashtag(args[1]))
    end),
    flags = { "no-writes" },
    description = "the bytes of the key ARGV[1] that its slot is computed from",
})

-- A module function's answer that may be none: nil (a null reply), the value, or an error
-- reply with the message.
local function reply_or_none(value, err)
    if err ~= nil then
        return redis.error_reply("ERR " .. err)
    end
    if value == nil then
        return false
    end
    return value
end

redis.register_function({
    function_name = "{{name}}_same_slot",
    callback = function(_, args)
        {{name}} = {{name}} or {{name}}_build()
        return reply_or_none({{name}}.same_slot(args))
    end,
    flags = { "no-writes" },
    description = "the slot every key ARGV[1..] lands on, or nil when two differ or none is given",
})

redis.register_function({
    function_name = "{{name}}_shared_hashtag",
    callback = function(_, args)
        {{name}} = {{name}} or {{name}}_build()
        return reply_or_none({{name}}.shared_hashtag(args))
    end,
    flags = { "no-writes" },
    description = "the hashtag every key ARGV[1..] has, or nil",
})
<% else %>
local {{name}} = {{name}}_build()
<% endif %>
