#!lua
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided
-- A local that holds KEYS, written into: KEYS[2] is the script's, not the caller's.
local ks = KEYS
ks[2] = ARGV[1] -- changes the call's table
redis.call('SET', ks[1], 'v')
return redis.call('SET', KEYS[2], 'v')
