#!lua
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided
-- A local table of the API's functions, used only by calling them: `r.call(...)` is
-- `redis.call(...)`.
local r = { call = redis.call, pcall = redis.pcall }
r.call('SET', KEYS[1], 'v')
return r.call('SET', ARGV[1], 'v')
