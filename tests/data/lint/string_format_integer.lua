#!lua
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided
-- `string.format('%s:%d:%i', KEYS[1], 5, -2)`: `%d` and `%i` of an integer literal are its
-- digits (`{p}a:5:-2` beside `{p}a`, one slot; `k1:5:-2` beside `k1`, another).
redis.call('SET', KEYS[1], 'v')
local k = string.format('%s:%d:%i', KEYS[1], 5, -2)
return redis.call('GET', k)
