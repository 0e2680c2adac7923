-- The seed document's Lua module (shared/seeds/001_*.txt) as the harness's driver protocol
-- prints it: `tag <slot> <tag>` from its `for_slot` for every slot, and `slot <key>
-- <slot>` from its `slot` for every key.
--
-- Usage: lua seed.lua SEED_MODULE KEYS
local M = dofile(arg[1])
local function hex(s)
    return (s:gsub(".", function(c) return string.format("%02x", c:byte()) end))
end
local function unhex(h)
    return (h:gsub("..", function(x) return string.char(tonumber(x, 16)) end))
end
for s = 0, 16383 do
    print("tag\t" .. s .. "\t" .. hex(M.for_slot(s):match("{(.-)}")))
end
for line in io.lines(arg[2]) do
    print("slot\t" .. line .. "\t" .. M.slot(unhex(line)))
end
