#!lua
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided
-- Keys made by string methods, which the lint computes as Lua 5.1 does: `KEYS[1]:lower()`
-- and `string.sub(id, 1, -1)` are the keys given; `ARGV[1]:upper():sub(1, 3)` upper-cases
-- the hashtag too (`{p}b` is `{P}`, another slot).
local id = ARGV[1]
redis.call('SET', KEYS[1]:lower(), 'v')
redis.call('SET', string.sub(KEYS[1], 1, -1), 'v')
return redis.call('SET', ARGV[1]:upper():sub(1, 3), id)
