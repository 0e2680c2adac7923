#!LUA
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- The engine in capitals: Valkey 9 takes it, Redis 7.0 and Valkey 8 do not.
return redis.call('SET', KEYS[1], 'v')
