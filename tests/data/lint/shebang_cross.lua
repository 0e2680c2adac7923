#!lua
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- A shebang script touching a second slot without allow-cross-slot-keys.
redis.call('SET', KEYS[1], 'v')
return redis.call('SET', ARGV[1], 'v')
