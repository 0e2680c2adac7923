-- The Lua module of the article slotgen started from (EchoMQ's key space: `slot(key)` by a
-- table CRC and `for_slot(s)`, slot -> key, by its own search), written out as it is written
-- there, for tables/benches/lua/seed_for_slot.lua to time. Not part of slotgen.
local _M = {}
local floor = math.floor
local xor_nibble = {}
for a = 0, 15 do
    xor_nibble[a] = {}
    for b = 0, 15 do
        local x, y, value, place = a, b, 0, 1
        for _ = 1, 4 do
            if x % 2 ~= y % 2 then value = value + place end
            x, y, place = floor(x / 2), floor(y / 2), place * 2
        end
        xor_nibble[a][b] = value
    end
end
local function xor16(a, b)
    local value, place = 0, 1
    for _ = 1, 4 do
        value = value + xor_nibble[a % 16][b % 16] * place
        a, b, place = floor(a / 16), floor(b / 16), place * 16
    end
    return value
end
local crc_table = {}
for byte = 0, 255 do
    local crc = byte * 256
    for _ = 1, 8 do
        if crc >= 32768 then crc = xor16((crc * 2) % 65536, 0x1021)
        else crc = crc * 2 end
    end
    crc_table[byte] = crc
end
local function crc16(key, length)
    local crc = 0
    for i = 1, length do
        local index = xor16(floor(crc / 256), key:byte(i))
        crc = xor16((crc * 256) % 65536, crc_table[index])
    end
    return crc
end
function _M.slot(key)
    if type(key) ~= "string" then return nil end
    local first = key:find("{", 1, true)
    local last = first and key:find("}", first + 1, true)
    if last and last > first + 1 then key = key:sub(first + 1, last - 1) end
    return crc16(key, #key) % 16384
end
local inverse = {
    0x88d4, 0x808a, 0x9007, 0x9efb, 0x19a2, 0x0c93, 0x1184,
    0x8eed, 0x1efb, 0x8022, 0x89c4, 0x82aa, 0x9447, 0x967b
}
local base_slot = 13881
local low, high = { [0] = 0 }, { [0] = 0 }
local step = 1
for bit = 1, 7 do
    for value = 0, step - 1 do
        low[value + step] = xor16(low[value], inverse[bit])
        high[value + step] = xor16(high[value], inverse[bit + 7])
    end
    step = step * 2
end
function _M.for_slot(slot)
    if type(slot) ~= "number" or slot < 0 or slot > 16383 or slot ~= floor(slot) then return nil end
    local delta = xor16(slot, base_slot)
    local mask = xor16(low[delta % 128], high[floor(delta / 128)])
    local tag = string.char(64 + mask % 16, 64 + floor(mask / 16) % 16,
        64 + floor(mask / 256) % 16, 64 + floor(mask / 4096) % 16)
    return "ms_health:{" .. tag .. "}:write"
end

return _M
