-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided
-- A helper of one `return` called from another (`g1` returns what `g0` returns): the key
-- is KEYS[1], followed through both.
local function g0(k) return k end
local function g1(k) return g0(k) end
return redis.call('SET', g1(KEYS[1]), 1)
