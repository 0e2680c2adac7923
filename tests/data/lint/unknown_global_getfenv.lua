-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- `getfenv`, Lua 5.1's: Valkey 8.0 keeps it, Redis 7.0 and Valkey 9.1 have no such global.
local env = getfenv(1)
return redis.call('SET', KEYS[1], type(env))
