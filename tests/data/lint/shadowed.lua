#!lua
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- A local table named `redis` is not the server's API, and code under `if false` never runs.
if false then redis.call('SET', ARGV[1], 'v') end
local redis = {call = function(...) return 1 end}
redis.call('SET', ARGV[1], 'v')
return 1
