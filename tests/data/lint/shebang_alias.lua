#!lua
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided
-- `local r = redis` in an EVAL script: `r.call` and `pcall(r.call, ...)` are `redis.call`.
local r = redis
r.call('SET', KEYS[1], 'v')
return r.call('SET', ARGV[1], 'v')
