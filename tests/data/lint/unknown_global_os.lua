-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- `os.clock()`: Valkey 8 and 9 have `os` (with `clock` only), Redis 7.0 has no `os`.
local started = os.clock()
redis.call('SET', KEYS[1], 'v')
return tostring(os.clock() - started)
