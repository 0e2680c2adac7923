-- Calls per second of a Lua slot module: `lua tests/bench/lua_tags.lua MODULE.lua CALL [ROUNDS]`.
-- CALL is `for_slot` (the seed module: slot -> "ms_health:{tag}:write"), `key_for_slot`
-- (an emitted module, the same key), `tag_for_slot` (an emitted module, the tag alone), or
-- `slot` (either module: the slot of each of those 16384 keys, built before timing).
-- Every round asks for every one of the 16384 slots; the best of ROUNDS (default 50) is
-- reported, so that a round disturbed by another process does not count.
local M = dofile(arg[1])
local call = arg[2]
local rounds = tonumber(arg[3] or "50")
local f
if call == "for_slot" then
    f = M.for_slot
elseif call == "key_for_slot" then
    local key_for_slot = M.key_for_slot
    f = function(s) return key_for_slot("ms_health:", s, ":write") end
elseif call == "tag_for_slot" then
    f = M.tag_for_slot
elseif call == "slot" then
    local keys, slot = {}, M.slot
    for s = 0, 16383 do
        keys[s] = M.for_slot and M.for_slot(s) or M.key_for_slot("ms_health:", s, ":write")
    end
    f = function(s) return keys[slot(keys[s])] end
else
    error("CALL must be for_slot, key_for_slot, tag_for_slot or slot")
end
local sink = 0
local best = math.huge
for _ = 1, rounds do
    local start = os.clock()
    for s = 0, 16383 do
        sink = sink + #f(s)
    end
    local took = os.clock() - start
    if took < best then best = took end
end
print(string.format("%s\t%s\t%.0f calls/s\t(%d bytes)", arg[1], call, 16384 / best, sink))
