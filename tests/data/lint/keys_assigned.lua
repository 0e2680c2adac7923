#!lua
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided
-- The script puts ARGV[1] in KEYS[1] and uses KEYS[1]: not the key the caller declared.
KEYS[1] = ARGV[1] -- changes the call's table
return redis.call('SET', KEYS[1], 'v')
