#!lua
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided
-- The script puts KEYS[1] in ARGV[1]: ARGV[1] used as a key is the declared key here.
ARGV[1] = KEYS[1] -- changes the call's table
redis.call('SET', KEYS[1], 'v')
return redis.call('SET', ARGV[1], 'v')
