-- slotgen's Lua module against the seed's Lua module's slot (the seed document's code,
-- written out here as it is written there: xor by nibble tables for Lua 5.1, a table CRC,
-- string.find for the hashtag), in one interpreter (Lua 5.1, 5.4 or LuaJIT).
--
--   lua5.4 bench.lua MODULE.lua KEY_DIR ROUNDS
--
-- Prints tab-separated rows: language, function, key type, case, length, code, ns per key
-- (the best of ROUNDS rounds over every key of the case, by os.clock: CPU time).
local module_path, key_dir, rounds = arg[1], arg[2], tonumber(arg[3])
local M = dofile(module_path)
local language = (jit and "luajit") or _VERSION:gsub("Lua ", "lua")

-- The seed's module, as far as its slot.
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
local Seed = _M

local function best(keys, f)
    local min, total = math.huge, nil
    for _ = 1, rounds do
        local start = os.clock()
        local s = 0
        for i = 1, #keys do
            s = s + f(keys[i])
        end
        local took = os.clock() - start
        assert(total == nil or total == s, "rounds disagree")
        total = s
        if took < min then min = took end
    end
    return math.floor(min * 1e9 / #keys + 0.5), total
end

local function row(...)
    print(table.concat({ ... }, "\t"))
end

for _, kind in ipairs({ "plain", "tag" }) do
    for _, n in ipairs({ 3, 8, 22, 64, 1024 }) do
        local keys = {}
        for line in io.lines(key_dir .. "/" .. kind .. "-" .. n .. ".txt") do
            keys[#keys + 1] = line
        end
        local ours, want = best(keys, M.slot)
        row(language, "slot", "string", kind, n, "slotgen", ours)
        local peer, got = best(keys, Seed.slot)
        assert(got == want, "the seed's module disagrees")
        row(language, "slot", "string", kind, n, "seed module", peer)
    end
end

local slots, ready = {}, {}
for s = M.first_slot, M.last_slot do
    slots[#slots + 1] = s
    ready[s] = M.tag_for_slot(s)
end
local tag_for_slot, key_for_slot = M.tag_for_slot, M.key_for_slot
row(language, "tag_for_slot", "-", "-", "-", "slotgen", (best(slots, function(s) return #tag_for_slot(s) end)))
row(language, "tag_for_slot", "-", "-", "-", "table of tags", (best(slots, function(s) return #ready[s] end)))
-- what a call costs: a function that only indexes the table
local function index(s) return ready[s] end
row(language, "tag_for_slot", "-", "-", "-", "a function indexing the table",
    (best(slots, function(s) return #index(s) end)))
-- the affixes are variables, as a caller's are
local prefix, suffix = "user:", ":cart"
row(language, "key_for_slot", "string", "-", "-", "slotgen",
    (best(slots, function(s) return #key_for_slot(prefix, s, suffix) end)))
row(language, "key_for_slot", "string", "-", "-", "table of tags + ..",
    (best(slots, function(s) return #(prefix .. "{" .. ready[s] .. "}" .. suffix) end)))
