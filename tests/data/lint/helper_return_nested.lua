-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided
-- A helper of one `return` called from another (`g1` builds on `g0`): the key is KEYS[1]
-- with two suffixes, on its slot.
local function g0(k) return k .. ':x' end
local function g1(k) return g0(k) .. ':y' end
return redis.call('SET', g1(KEYS[1]), 1)
