#!lua
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided
-- The script writes KEYS[2] only: KEYS[1] is still the caller's key.
KEYS[2] = ARGV[1]
return redis.call('SET', KEYS[1], 'v')
