#!lua
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided
-- A local named KEYS: another table, not the call's keys.
local KEYS = { ARGV[1] } -- changes the call's table
return redis.call('SET', KEYS[1], 'v')
