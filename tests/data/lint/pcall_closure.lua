#!lua
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided
-- A call inside `pcall(function() ... end)`: its refusal is caught, the script goes on.
local ok = pcall(function() return redis.call('SET', ARGV[1], 'v') end)
return redis.call('SET', KEYS[1], 'v')
