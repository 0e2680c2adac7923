-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- `_G` holds the call's tables: a write through it changes KEYS where no name says so,
-- so KEYS[1] read after it is not known to be the caller's key.
local t = rawget(_G, 'KEYS')
t[1] = ARGV[1]
return redis.call('SET', KEYS[1], 'x')
