-- Times the Lua module of the article slotgen started from (`for_slot`, slot -> key;
-- seed_module.lua beside this file) on LuaJIT or Lua 5.x, over all 16384 slots in order and
-- in a fixed shuffled order, in CPU time (os.clock).
--
--   luajit tables/benches/lua/seed_for_slot.lua [ROUNDS]
local here = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/"
local M = dofile(here .. "seed_module.lua")

-- Every slot round-trips before timing.
for s = 0, 16383 do assert(M.slot(M.for_slot(s)) == s, "slot " .. s) end

local in_order, shuffled = {}, {}
for s = 0, 16383 do in_order[s + 1] = s; shuffled[s + 1] = s end
local state = 0x9e3779b9
for i = 16384, 2, -1 do
    state = (state * 1664525 + 1013904223) % 4294967296
    local j = math.floor(state / 4294967296 * i) + 1
    shuffled[i], shuffled[j] = shuffled[j], shuffled[i]
end

local function time(slots, rounds)
    local for_slot, sink = M.for_slot, nil
    local start = os.clock()
    for _ = 1, rounds do
        for i = 1, 16384 do sink = for_slot(slots[i]) end
    end
    local elapsed = os.clock() - start
    assert(sink)
    return elapsed / (rounds * 16384) * 1e9
end

local rounds = tonumber(arg[1]) or 50
time(in_order, 2) -- warm up (JIT traces)
local results = {}
for run = 1, 5 do
    results[run] = { time(in_order, rounds), time(shuffled, rounds) }
end
local function median(k)
    local v = {}
    for run = 1, 5 do v[run] = results[run][k] end
    table.sort(v)
    return v[3]
end
print(string.format("%s for_slot in-order  %.1f ns/lookup (median of 5 runs)", _VERSION .. (jit and (" " .. jit.version) or ""), median(1)))
print(string.format("%s for_slot shuffled  %.1f ns/lookup (median of 5 runs)", _VERSION .. (jit and (" " .. jit.version) or ""), median(2)))
