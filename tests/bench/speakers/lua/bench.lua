-- slotgen's Lua module against the slot of the Lua module of the article slotgen started
-- from (tables/benches/lua/seed_module.lua: xor by nibble tables for Lua 5.1, a table CRC,
-- string.find for the hashtag), in one interpreter (Lua 5.1, 5.4 or LuaJIT).
--
--   lua5.4 bench.lua MODULE.lua KEY_DIR ROUNDS
--
-- Prints tab-separated rows: language, function, key type, case, length, code, ns per key
-- (the best of ROUNDS rounds over every key of the case, by os.clock: CPU time).
local module_path, key_dir, rounds = arg[1], arg[2], tonumber(arg[3])
local M = dofile(module_path)
local language = (jit and "luajit") or _VERSION:gsub("Lua ", "lua")

-- The article's module (its slot and for_slot), as the benches of the runtime time it.
local here = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/"
local Seed = dofile(here .. "../../../../tables/benches/lua/seed_module.lua")

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
