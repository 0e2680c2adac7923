-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- A write into ARGV through `_G` is no write of a global (the servers keep `_G` read-only,
-- not the call's tables), and ARGV's count is not known after it.
_G.ARGV[2] = 'v'
return redis.call('HSET', KEYS[1], unpack(ARGV))
