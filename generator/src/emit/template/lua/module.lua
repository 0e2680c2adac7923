<# The Lua module: pure arithmetic, every part chosen here or in parts.lua. #>
<% import "lua/parts.lua" as parts %>
<# The CRC register is held as its n bytes r1 .. rn, register byte k being the byte that
   meets the input k-th: from the low end of a reflected register, from the high end
   otherwise; shifts[k - 1] is its shift within the register. #>
<% set n = crc.width // 8 %>
<% set shifts = range(0, 8 * n, 8) if crc.refin else range(8 * (n - 1), -1, -8) %>
<# caller(k) for each register byte k, joined by `sep`. #>
<% macro each_byte(sep=", ") %><% for _ in shifts %><% if not loop.first %>{{sep}}<% endif %>{{ caller(loop.index) }}<% endfor %><% endmacro %>
<% macro registers() %><% call(k) each_byte() %>r{{k}}<% endcall %><% endmacro %>
<# Byte k of a register value, as a literal. #>
<% macro byte_of(value, k) %>{{ ((value // 2 ** shifts[k - 1]) % 256) | hex(2) }}<% endmacro %>
{{header}}--
-- Slots of the {{scheme}} scheme, both ways: the slot of a key, and a key for a slot in
-- O(1). Pure arithmetic (no `bit` library, no integer division operator), so this file
-- runs unmodified on Lua 5.1, Lua 5.4 and LuaJIT. Keys are byte strings; a slot is an
-- integer from first_slot to last_slot.
--
--   local slotgen = dofile("slotgen.lua") -- or require, from package.path
--   slotgen.slot("123456789")                  --> {{examples.check_slot}}
--   slotgen.tag_for_slot(slotgen.first_slot)    --> "{{examples.tag}}"
--   slotgen.key_for_slot({{examples.prefix}}, slotgen.first_slot, {{examples.suffix}}) --> "{{examples.key}}"
--   slotgen.tags_for_slot(slotgen.first_slot)   --> an iterator over the slot's tags, "{{examples.tag}}" first
--
-- Errors are `nil` plus a message.

local floor, byte, char, find, sub = math.floor, string.byte, string.char, string.find, string.sub
local unpack = table.unpack or unpack

local M = {}

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

-- XOR[a * 256 + b] is `a xor b` for bytes a and b. Built by doubling: for a, b below
-- 2^k, setting bit k in one of them sets it in the result, setting it in both clears it.
local XOR = { [0] = 0 }
local size = 1
while size < 256 do
    for a = 0, size - 1 do
        for b = 0, size - 1 do
            local x = XOR[a * 256 + b]
            XOR[(a + size) * 256 + b] = x + size
            XOR[a * 256 + b + size] = x + size
            XOR[(a + size) * 256 + b + size] = x
        end
    end
    size = size * 2
end

local function xor_byte(a, b)
    return XOR[a * 256 + b]
end

-- The CRC's lookup table, split into bytes in the register's order (the byte that meets
-- the input first), so that the register is {{n}} bytes and every xor is one XOR
-- lookup. Entry i is the register after feeding byte i into a zero
-- register<% if crc.refin %>, reflected (the register shifts right)<% endif %>.
local CRC_TABLE = {
{{crc.table | hex_rows(crc.digits, 8, "    ")}}
}
local CRC_DIVISORS = { <% call(k) each_byte() %>{{ 2 ** shifts[k - 1] }}<% endcall %> }
local CRC_BYTES = {}
for k = 1, {{n}} do
    local column = {}
    for i = 0, 255 do
        column[i] = floor(CRC_TABLE[i + 1] / CRC_DIVISORS[k]) % 256
    end
    CRC_BYTES[k] = column
end
local <% call(k) each_byte() %>C{{k}}<% endcall %> = unpack(CRC_BYTES, 1, {{n}})
<% if crc.reflect_out %>

-- REFLECT[b] is byte b with its bit order reversed.
local REFLECT = {}
for b = 0, 255 do
    local value, rest = 0, b
    for _ = 1, 8 do
        value, rest = value * 2 + rest % 2, floor(rest / 2)
    end
    REFLECT[b] = value
end
<% endif %>

-- The CRC of bytes first..last of key, as a number.
local function crc_of(key, first, last)
    local {{ registers() }} = <% call(k) each_byte() %>{{ byte_of(crc.start, k) }}<% endcall +%>
    for i = first, last do
        local index = XOR[r1 * 256 + byte(key, i)]
        {{ registers() }} = <% call(k) each_byte() %><% if k < n %>XOR[r{{k + 1}} * 256 + C{{k}}[index]]<% else %>C{{k}}[index]<% endif %><% endcall +%>
    end
<% if crc.reflect_out %>
    {{ registers() }} = <% call(k) each_byte() %>REFLECT[r{{n + 1 - k}}]<% endcall +%>
<% endif %>
<% if crc.xorout %>
    {{ registers() }} = <% call(k) each_byte() %>XOR[r{{k}} * 256 + {{ byte_of(crc.xorout, k) }}]<% endcall +%>
<% endif %>
    return <% call(k) each_byte(" + ") %>r{{k}}<% if shifts[k - 1] %> * {{ 2 ** shifts[k - 1] }}<% endif %><% endcall +%>
end
{{parts.key_rule()}}
-- The slot of a key (a string): {{ parts.slot_formula() }}, for the CRC of the bytes hashed:
-- {{rule.doc | lua_wrap("-- ")}}.
function M.slot(key)
    if type(key) ~= "string" then
        return nil, "key must be a string, not a " .. type(key)
    end
    local first, last = explicit(key)
    if not first then
        first, last = 1, #key
    end
    local crc = crc_of(key, first, last)
    return {{ parts.slot_of("crc") }}
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
{{parts.surface()}}
return M
