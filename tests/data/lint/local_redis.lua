#!lua
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- `local redis = redis` (a Lua habit for speed) is the API still.
local redis = redis
redis.call('SET', KEYS[1], 'v')
return redis.call('SET', ARGV[1], 'v')
