#!lua flags=allow-cross-slot-keys
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- The same with allow-cross-slot-keys: several slots, one node.
redis.call('SET', KEYS[1], 'v')
return redis.call('SET', ARGV[1], 'v')
